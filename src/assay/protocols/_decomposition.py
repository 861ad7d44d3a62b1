"""Bias-variance decomposition of a (rounds x test points) prediction matrix.

Row ``r`` of the matrix holds the predictions, at the same test points, of the model
trained in round ``r`` (on its own training set).  The decomposition follows Domingos
(2000): a main prediction per point (mean, median or mode), the bias as the loss of the
main prediction, the variance as the mean loss of the predictions against the main
prediction, and the noise as the loss of the observed label against the optimal one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from assay._results import BiasVarianceResult
from assay._validation import (
    as_finite_array,
    check_class_labels,
    check_option,
    check_predicted_floats,
)

__all__ = ["decompose"]

_LOSSES = ("squared", "zero_one", "absolute")


def _as_points(values: Any, name: str, n_points: int) -> np.ndarray:
    array = as_finite_array(values, name, max_ndim=1)
    if array.shape[0] != n_points:
        raise ValueError(
            f"`{name}` must have one value per test point (a column of `predictions`): "
            f"expected {n_points}, got {array.shape[0]}."
        )
    return array


def _noise_values(noise_variance: Any, n_points: int) -> np.ndarray:
    array = np.asarray(noise_variance)
    if array.ndim == 0:
        array = np.full(n_points, array)
    noise = _as_points(array, "noise_variance", n_points)
    if np.any(noise < 0):
        raise ValueError(
            f"`noise_variance` must be non-negative; got a minimum of {float(noise.min())!r}."
        )
    return noise


def _squared_terms(
    predictions: np.ndarray, target: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(main prediction, squared loss, squared bias, variance) at each point.

    With ``c`` the rounded mean of a column, ``d = f - c`` and ``e = mean(d)`` (the
    rounding residual, tiny), the identity
    ``mean((t - f)^2) = ((t - c) - e)^2 + (mean(d^2) - e^2)`` is exact for any ``c``, so
    the bias and the variance add up to the directly computed loss up to a few
    roundings of each term (no cancellation of large values).
    """
    centre = predictions.mean(axis=0)
    deviations = predictions - centre
    residual = deviations.mean(axis=0)
    main = centre + residual
    variance = np.maximum((deviations * deviations).mean(axis=0) - residual * residual, 0.0)
    offset = (target - centre) - residual
    bias = offset * offset
    errors = target - predictions
    expected = (errors * errors).mean(axis=0)
    return main, expected, bias, variance


def _absolute_terms(
    predictions: np.ndarray, target: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(median, mean |t - f|, |t - median|, mean |f - median|) at each point."""
    main = np.median(predictions, axis=0)
    expected = np.abs(target - predictions).mean(axis=0)
    bias = np.abs(target - main)
    variance = np.abs(predictions - main).mean(axis=0)
    return main, expected, bias, variance


def _mode(predictions: np.ndarray) -> np.ndarray:
    """Most frequent value of each column; ties go to the smallest value.

    In each sorted column, ``run_length[i]`` is the length of the run of equal values
    up to row ``i``; the first row where it peaks ends the longest run of the smallest
    value among the most frequent ones.
    """
    ordered = np.sort(predictions, axis=0)
    rows = np.arange(ordered.shape[0])[:, None]
    starts_run = np.ones(ordered.shape, dtype=bool)
    starts_run[1:] = ordered[1:] != ordered[:-1]
    run_start = np.maximum.accumulate(np.where(starts_run, rows, 0), axis=0)
    run_length = rows - run_start + 1
    peak = np.argmax(run_length, axis=0)
    return ordered[peak, np.arange(ordered.shape[1])]


def _zero_one_terms(
    predictions: np.ndarray, observed: np.ndarray | None, optimal: np.ndarray
) -> dict[str, np.ndarray]:
    """Domingos' zero-one terms; ``optimal`` is the label the bias is measured against."""
    n_rounds = predictions.shape[0]
    main = _mode(predictions)
    share_optimal = (predictions == optimal).sum(axis=0) / n_rounds
    bias = (main != optimal).astype(np.float64)
    variance = (predictions != main).sum(axis=0) / n_rounds
    # c2 = 1 where the main prediction is optimal, else -P(f = y* | f != main).
    off_main = (predictions != main).sum(axis=0)
    optimal_off_main = ((predictions == optimal) & (predictions != main)).sum(axis=0)
    conditional = np.where(off_main > 0, optimal_off_main / np.maximum(off_main, 1), 1.0)
    variance_coefficient = np.where(bias == 0.0, 1.0, -conditional)
    if observed is None:
        noise = np.zeros_like(bias)
        noise_coefficient = 2.0 * share_optimal - 1.0
        expected = (predictions != optimal).sum(axis=0) / n_rounds
    else:
        noise = (observed != optimal).astype(np.float64)
        share_observed = (predictions == observed).sum(axis=0) / n_rounds
        noise_coefficient = np.where(
            noise == 1.0, share_optimal - share_observed, 2.0 * share_optimal - 1.0
        )
        expected = (predictions != observed).sum(axis=0) / n_rounds
    return {
        "main": main,
        "expected": expected,
        "bias": bias,
        "variance": variance,
        "noise": noise,
        "net_variance": variance_coefficient * variance,
        "unbiased_variance": np.where(bias == 0.0, variance, 0.0),
        "biased_variance": np.where(bias == 1.0, variance, 0.0),
        "noise_coefficient": noise_coefficient,
        "variance_coefficient": variance_coefficient,
    }


def decompose(
    predictions: Any,
    y_true: Any,
    *,
    loss: str = "squared",
    truth: Any = None,
    noise_variance: Any = None,
) -> BiasVarianceResult:
    """Bias, variance and noise of the predictions of many models at the same points.

    ``predictions[r, j]`` is the prediction at test point ``j`` of the model trained in
    round ``r``, each round on its own training set.  The expectations ``E_D`` over
    training sets are the means over the rounds (divisor ``n_rounds``).

    Parameters
    ----------
    predictions : array-like of shape (n_rounds, n_points)
        One row per round (at least 2), one column per test point; finite numbers
        (class labels coded as numbers for ``loss='zero_one'``).
    y_true : array-like of shape (n_points,) or None
        The observed label of each test point.  May be None when ``truth`` is given.
    loss : {'squared', 'zero_one', 'absolute'}, default='squared'
        The loss ``L``; it fixes the main prediction: the mean, the mode (ties go to the
        smallest label) or the median (the midpoint of the two middle values for an
        even number of rounds).
    truth : array-like of shape (n_points,), optional
        The noise-free target at each point: the true function ``F(x)`` (squared and
        absolute loss) or the Bayes-optimal label ``y*`` (zero-one loss).  The bias is
        then measured against it; without it, against ``y_true``.
    noise_variance : float or array-like of shape (n_points,), optional
        ``sigma^2``, the variance of the label noise (squared loss with ``truth`` only).

    Returns
    -------
    BiasVarianceResult
        Per-point arrays and their averages over the points.

    Raises
    ------
    ValueError
        If ``predictions`` is not a finite 2-D array with at least two rows, if
        ``y_true``, ``truth`` or ``noise_variance`` has not one finite value per
        column, if ``noise_variance`` is negative or given without ``truth`` or for
        another loss than squared, if ``y_true`` and ``truth`` are both None, if
        ``loss`` is unknown, or, for ``loss='zero_one'``, if ``predictions``, ``y_true``
        or ``truth`` hold non-integer values (scores or probabilities, not class
        labels).

    Notes
    -----
    Domingos (2000) generalises the decomposition of squared loss (Wu, "Evaluation",
    section 4.3, eq. 28: ``E[(y - f)^2] = (F - E f)^2 + Var(f) + sigma^2``) to any loss
    through the *main prediction* ``y_m = argmin_y' E_D[L(y', f)]`` (Gama, "Evaluation
    of classification and regression algorithms", "Generalized definitions"): bias
    ``B = L(y*, y_m)``, variance
    ``V = E_D[L(y_m, f)]``, noise ``N = E_t[L(t, y*)]``.

    **Squared loss.** ``y_m`` is the mean.  With ``truth`` ``F``:
    ``expected_loss = noise + E_D[(F - f)^2]``, the loss expected over the noise of
    a fresh label, and ``E_D[(F - f)^2] = bias + variance`` with
    ``bias = (F - E_D f)^2``.  The noise is ``noise_variance`` when given, else
    ``(y_true - F)^2`` (one draw of the noise at each point: an unbiased estimate of
    ``sigma^2(x)``, whose average over the points estimates a constant ``sigma^2``),
    else 0.  Without ``truth`` the bias is measured against ``y_true`` as in
    Domingos' noise-free setting, ``bias = (y_true - E_D f)^2``: the noise is then part
    of the bias (``noise`` is 0) and ``expected_loss = E_D[(y_true - f)^2]``.  Either
    way ``expected_loss == noise + bias + variance`` up to floating-point rounding of
    each term (the mean is computed with a correction term so that no large values
    cancel).

    **Zero-one loss.** ``y_m`` is the mode; ``variance = P_D(f != y_m)``,
    ``bias = 1[y_m != y*]`` with ``y* = truth`` or, without it, ``y_true``.
    ``expected_loss = P_D(f != y_true)`` (``P_D(f != y*)`` without ``y_true``), and
    Domingos' theorem holds exactly at every point:
    ``expected_loss = c1 * noise + bias + c2 * variance`` with
    ``noise = 1[y_true != y*]``, ``c2 = 1`` where ``bias = 0`` and
    ``c2 = -P_D(f = y* | f != y_m)`` where ``bias = 1`` (``-1`` for two classes), and
    ``c1 = P_D(f = y*) - P_D(f = y_true)`` where ``noise = 1`` (``2 P_D(f = y*) - 1``
    for two classes, Domingos' c1 with the observed label as the noise distribution;
    reported as ``2 P_D(f = y*) - 1`` where ``noise = 0``).  ``unbiased_variance`` is
    the variance where ``bias = 0``, ``biased_variance`` where ``bias = 1``, and
    ``net_variance = c2 * variance`` (``= unbiased - biased`` for two classes), so
    that without noise ``expected_loss = bias + net_variance``: variance adds to the
    error where the main prediction is right and removes from it where it is wrong.

    **Absolute loss.** ``y_m`` is the median; ``bias = |y* - y_m|`` and
    ``variance = E_D|f - y_m|`` with ``y* = truth`` or ``y_true``, and
    ``expected_loss = E_D|y* - f|``.  No additive identity holds; what holds is
    ``variance <= expected_loss <= bias + variance`` (the median minimises the mean
    absolute deviation; the triangle inequality), and ``net_variance`` is defined as
    ``expected_loss - bias`` (between ``-variance`` and ``variance``).  ``noise`` is
    ``|y_true - F|`` with ``truth`` (not part of ``expected_loss``), else 0.

    ``observed_loss`` is always ``E_D[L(y_true, f)]`` when ``y_true`` is given.

    References
    ----------
    P. Domingos, "A unified bias-variance decomposition and its applications",
    Proceedings of the 17th International Conference on Machine Learning, 231-238
    (2000).

    S. Geman, E. Bienenstock and R. Doursat, "Neural networks and the bias/variance
    dilemma", Neural Computation 4, 1-58 (1992).

    Examples
    --------
    >>> import numpy as np
    >>> from assay import decompose
    >>> predictions = np.array([[1.0, 2.0], [3.0, 2.0]])  # two rounds, two points
    >>> result = decompose(predictions, [2.0, 0.0])
    >>> result.bias, result.variance
    (array([0., 4.]), array([1., 0.]))
    >>> float(result.average_expected_loss)
    2.5
    """
    check_option(loss, "loss", _LOSSES)
    predictions = as_finite_array(predictions, "predictions", what="predictions")
    if predictions.ndim != 2:
        raise ValueError(
            "`predictions` must be 2-D, one row per round and one column per test point; "
            f"got an array of shape {predictions.shape}."
        )
    n_rounds, n_points = predictions.shape
    if n_rounds < 2:
        raise ValueError(f"`predictions` must have at least 2 rows (rounds); got {n_rounds}.")
    if y_true is None and truth is None:
        raise ValueError("`y_true` and `truth` are both None; give at least one of them.")
    observed = None if y_true is None else _as_points(y_true, "y_true", n_points)
    optimal = None if truth is None else _as_points(truth, "truth", n_points)
    if loss == "zero_one":  # class labels coded as numbers, never scores
        check_predicted_floats(predictions, "predictions")
        for name, labels in (("y_true", observed), ("truth", optimal)):
            if labels is not None:
                check_class_labels(labels, name)
    if noise_variance is not None:
        if loss != "squared":
            raise ValueError(
                f"`noise_variance` applies to loss='squared' only; got loss={loss!r}."
            )
        if optimal is None:
            raise ValueError(
                "`noise_variance` needs `truth`: without the true function the noise "
                "cannot be separated from the bias."
            )
    target = optimal if optimal is not None else observed
    assert target is not None
    zero_one_parts: dict[str, Any] = dict.fromkeys(
        ("unbiased_variance", "biased_variance", "noise_coefficient", "variance_coefficient")
    )
    if loss == "zero_one":
        terms = _zero_one_terms(predictions, observed if optimal is not None else None, target)
        main, expected, bias, variance = (
            terms["main"],
            terms["expected"],
            terms["bias"],
            terms["variance"],
        )
        noise, net_variance = terms["noise"], terms["net_variance"]
        zero_one_parts = {name: terms[name] for name in zero_one_parts}
        observed_loss = (
            None if observed is None else (predictions != observed).sum(axis=0) / n_rounds
        )
    else:
        terms_of = _squared_terms if loss == "squared" else _absolute_terms
        main, expected, bias, variance = terms_of(predictions, target)
        if loss == "squared":
            if noise_variance is not None:
                noise = _noise_values(noise_variance, n_points)
            elif optimal is not None and observed is not None:
                noise = (observed - optimal) ** 2
            else:
                noise = np.zeros(n_points)
            expected = noise + expected
            net_variance = variance
            observed_loss = (
                None if observed is None else ((observed - predictions) ** 2).mean(axis=0)
            )
        else:
            noise = (
                np.abs(observed - optimal)
                if optimal is not None and observed is not None
                else np.zeros(n_points)
            )
            net_variance = expected - bias
            observed_loss = (
                None if observed is None else np.abs(observed - predictions).mean(axis=0)
            )

    def average(values: np.ndarray | None) -> float | None:
        return None if values is None else float(np.mean(values))

    return BiasVarianceResult(
        loss=loss,
        target="truth" if optimal is not None else "y_true",
        main_prediction=main,
        expected_loss=expected,
        bias=bias,
        variance=variance,
        noise=noise,
        net_variance=net_variance,
        observed_loss=observed_loss,
        average_expected_loss=float(np.mean(expected)),
        average_bias=float(np.mean(bias)),
        average_variance=float(np.mean(variance)),
        average_noise=float(np.mean(noise)),
        average_net_variance=float(np.mean(net_variance)),
        average_unbiased_variance=average(zero_one_parts["unbiased_variance"]),
        average_biased_variance=average(zero_one_parts["biased_variance"]),
        average_observed_loss=average(observed_loss),
        n_rounds=n_rounds,
        n_points=n_points,
        **zero_one_parts,
    )

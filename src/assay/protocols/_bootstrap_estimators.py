"""Bootstrap estimators of the prediction error: leave-one-out bootstrap, .632, .632+.

Efron & Tibshirani (1997).  Each resample ``b`` draws ``n`` rows with replacement from
its own numpy stream keyed by ``(seed, b)``; a model fitted on the resample predicts
the rows it left out (its out-of-bag rows).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from assay._procedure_checks import check_n_resamples
from assay._results import Bootstrap632Result
from assay._validation import check_option, resolve_seed
from assay._warnings import RepeatedWarnings
from assay.exceptions import DegenerateDataWarning
from assay.protocols._models import model_factory, take_rows, targets
from assay.protocols._splitters import _stream

__all__ = ["bootstrap_632"]

_METHODS = (".632", ".632+", "oob")
_LOSSES = ("zero_one", "squared", "absolute")
# Efron & Tibshirani (1997) write the weights rounded: .632 ~ 1 - exp(-1), .368 ~ exp(-1).
_WEIGHT = 0.632
_COMPLEMENT = 0.368
# Pairs (label, prediction) per block when a callable loss needs all n^2 pairs for gamma.
_PAIR_BLOCK = 1 << 20


def _n_rows(X: Any) -> int:
    shape = getattr(X, "shape", None)
    if shape is None:
        X = np.asarray(X)
        shape = X.shape
    if len(shape) == 0:
        raise ValueError("`X` must have one row per example; got a scalar.")
    return int(shape[0])


def _loss_function(loss: Any) -> tuple[str, Callable[[np.ndarray, np.ndarray], np.ndarray]]:
    if isinstance(loss, str):
        check_option(loss, "loss", _LOSSES)
        if loss == "zero_one":
            return loss, lambda y, p: (np.asarray(y) != np.asarray(p)).astype(np.float64)
        if loss == "squared":
            return loss, lambda y, p: (np.asarray(y, float) - np.asarray(p, float)) ** 2
        return loss, lambda y, p: np.abs(np.asarray(y, float) - np.asarray(p, float))
    if callable(loss):
        return getattr(loss, "__name__", type(loss).__name__), loss
    raise ValueError(
        f"`loss` must be one of 'zero_one', 'squared', 'absolute' or a callable "
        f"loss(y_true, y_pred) -> per-row losses; got {loss!r}."
    )


def _row_losses(
    function: Callable[[np.ndarray, np.ndarray], np.ndarray],
    y: np.ndarray,
    predictions: Any,
) -> np.ndarray:
    predictions = np.asarray(predictions)
    if predictions.shape != y.shape:
        raise ValueError(
            f"The model's predictions have shape {predictions.shape}; expected "
            f"{y.shape}, one prediction per row."
        )
    losses = np.asarray(function(y, predictions), dtype=np.float64)
    if losses.shape != y.shape:
        raise ValueError(
            f"`loss` must return one loss per row (shape {y.shape}); got shape {losses.shape}."
        )
    if not np.all(np.isfinite(losses)):
        raise ValueError("`loss` returned NaN or infinite values; losses must be finite.")
    return losses


def _no_information_error(
    name: str,
    function: Callable[[np.ndarray, np.ndarray], np.ndarray],
    y: np.ndarray,
    predictions: np.ndarray,
) -> float:
    """``gamma = (1/n^2) sum_i sum_j L(y_i, prediction_j)`` (Efron & Tibshirani 1997, eq. 27)."""
    n = y.shape[0]
    if name == "zero_one":
        # gamma = sum_k p_k (1 - q_k): classes observed and predicted independently.
        classes, codes = np.unique(np.concatenate([y, predictions]), return_inverse=True)
        observed = np.bincount(codes[:n], minlength=classes.shape[0]) / n
        predicted = np.bincount(codes[n:], minlength=classes.shape[0]) / n
        return float(np.sum(observed * (1.0 - predicted)))
    if name == "squared":
        y = y.astype(np.float64)
        predictions = predictions.astype(np.float64)
        difference = float(y.mean() - predictions.mean())
        return float(y.var() + predictions.var() + difference * difference)
    if name == "absolute":
        y = y.astype(np.float64)
        ordered = np.sort(predictions.astype(np.float64))
        prefix = np.concatenate([[0.0], np.cumsum(ordered)])
        below = np.searchsorted(ordered, y, side="right")
        total = (y * below - prefix[below]) + ((prefix[-1] - prefix[below]) - y * (n - below))
        return float(total.sum() / (n * n))
    rows_per_block = max(1, _PAIR_BLOCK // n)
    total = 0.0
    for start in range(0, n, rows_per_block):  # blocks of rows, each vectorised
        block = y[start : start + rows_per_block]
        labels = np.repeat(block, n)
        paired = np.tile(predictions, block.shape[0])
        total += float(_row_losses(function, labels, paired).sum())
    return total / (n * n)


def bootstrap_632(
    model: Any,
    X: Any,
    y: Any,
    *,
    n_resamples: int = 200,
    method: str = ".632",
    loss: Any = "zero_one",
    rng: Any = None,
) -> Bootstrap632Result:
    """Bootstrap estimate of a model's prediction error: leave-one-out, .632 or .632+.

    Parameters
    ----------
    model : object or callable
        An object with ``fit(X, y)`` and ``predict(X)`` (deep-copied, unfitted, for
        every fit), or a zero-argument factory returning one (a function or a class).
    X : array-like of shape (n_samples, ...)
        Features (numpy array, pandas frame by position, or anything indexable by rows).
    y : array-like of shape (n_samples,)
        Targets (at least 2 rows).
    n_resamples : int, default=200
        Number of bootstrap resamples ``B``.
    method : {'.632', '.632+', 'oob'}, default='.632'
        The estimator: ``'oob'`` is the leave-one-out bootstrap ``Err^(1)``.
    loss : {'zero_one', 'squared', 'absolute'} or callable, default='zero_one'
        The loss of one prediction, or a callable ``loss(y_true, y_pred)`` returning
        one finite loss per row.  A loss, not a score: the estimators average per-row
        losses, so a metric that is not a mean over rows (AUC, F1) has no ``Err^(1)``.
    rng : int, numpy.random.Generator or None, default=None
        Seed or generator; resample ``b`` is drawn from the numpy stream keyed by
        ``(seed, b)``.

    Returns
    -------
    Bootstrap632Result
        The estimate with its parts: ``training_error``, ``oob_error``,
        ``no_information_error`` and ``relative_overfitting_rate`` (``'.632+'``),
        ``weight``, the per-resample ``oob_errors``, ``n_never_oob`` and ``rng_seed``.

    Raises
    ------
    ValueError
        If ``method`` or ``loss`` is unknown, ``n_resamples`` is not a positive
        integer, ``X`` and ``y`` differ in length or have fewer than 2 rows, the model's
        predictions are not one per row, or the loss is not finite.
    TypeError
        If ``model`` has no ``fit``/``predict`` and is not a factory of such models.

    Warns
    -----
    DegenerateDataWarning
        If some rows are in every resample (they are left out of ``Err^(1)``), or if no
        row is ever out of bag (the estimate is then NaN).
    Warning
        A warning of the model in several fits is shown once, with its class and
        message and ``[in j of J fits]`` (the full fit and one per resample).

    Notes
    -----
    With ``C_i`` the resamples that leave row ``i`` out and ``L`` the loss
    (Efron & Tibshirani 1997, section 3; "Estimation of the hypothesis real risk",
    "bootstrap"; Gama, "Evaluation of classification and regression algorithms",
    holdout and bootstrap slides):

    * training (resubstitution) error ``err = (1/n) sum_i L(y_i, f(x_i))`` of the model
      ``f`` fitted on all rows;
    * leave-one-out bootstrap ``Err^(1) = (1/n') sum_i (1/|C_i|) sum_{b in C_i}
      L(y_i, f_b(x_i))``, the mean over rows of each row's mean out-of-bag loss (eq.
      14 of the paper), over the ``n'`` rows with ``|C_i| > 0``.  This is *not* the mean
      over resamples of each resample's out-of-bag error (``oob_errors.mean()``, the
      average used by mlxtend): the two weigh rows differently;
    * ``.632``: ``0.368 err + 0.632 Err^(1)`` (Efron 1983).  "Estimation of the
      hypothesis real risk" prints "0.636 P1 + 0.368 P2", a misprint of 0.632; the
      weights are the paper's rounded ``1 - e^-1`` and ``e^-1``;
    * ``.632+``: the no-information error ``gamma = (1/n^2) sum_i sum_j L(y_i,
      f(x_j))`` (eq. 27; for 0-1 loss ``sum_k p_k (1 - q_k)`` with ``p_k`` the observed
      and ``q_k`` the predicted class proportions), ``Err^(1)' = min(Err^(1), gamma)``,
      the relative overfitting rate ``R' = (Err^(1)' - err) / (gamma - err)`` when
      ``Err^(1) > err`` and ``gamma > err``, else 0 (so ``0 <= R' <= 1``), and
      ``Err^(.632+) = Err^(.632) + (Err^(1)' - err) 0.368 * 0.632 R' / (1 - 0.368 R')``
      (eq. 32-33).  When ``Err^(1) <= gamma`` this is ``(1 - w) err + w Err^(1)`` with
      ``w = 0.632 / (1 - 0.368 R')``, reported as ``weight``.

    A resample that leaves no row out (possible only for tiny ``n``) is not fitted
    and has a NaN in ``oob_errors``.

    References
    ----------
    B. Efron, "Estimating the error rate of a prediction rule: improvement on
    cross-validation", Journal of the American Statistical Association 78, 316-331
    (1983).

    B. Efron and R. Tibshirani, "Improvements on cross-validation: the .632+ bootstrap
    method", Journal of the American Statistical Association 92, 548-560 (1997).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.protocols import bootstrap_632
    >>> class Majority:
    ...     def fit(self, X, y):
    ...         values, counts = np.unique(y, return_counts=True)
    ...         self.label = values[np.argmax(counts)]
    ...         return self
    ...     def predict(self, X):
    ...         return np.full(len(X), self.label)
    >>> X = np.zeros((20, 1)); y = np.array([0] * 15 + [1] * 5)
    >>> result = bootstrap_632(Majority, X, y, n_resamples=50, method=".632+", rng=0)
    >>> result.training_error
    0.25
    >>> 0.2 < result.estimate < 0.4
    True
    """
    check_option(method, "method", _METHODS)
    n_resamples = check_n_resamples(n_resamples)
    loss_name, loss_function = _loss_function(loss)
    make_model = model_factory(model)
    n = _n_rows(X)
    y = targets(y, n)
    if n < 2:
        raise ValueError(f"`X` and `y` must have at least 2 rows; got {n}.")
    seed = resolve_seed(rng)

    def fit_and_predict(rows: np.ndarray | None, predicted: np.ndarray | None) -> np.ndarray:
        """A fresh model fitted on ``rows`` predicts ``predicted`` (None: all of X)."""
        fitted = make_model()
        fitted.fit(X if rows is None else take_rows(X, rows), y if rows is None else y[rows])
        return np.asarray(fitted.predict(X if predicted is None else take_rows(X, predicted)))

    loss_sums = np.zeros(n)
    oob_counts = np.zeros(n, dtype=np.int64)
    oob_errors = np.full(n_resamples, np.nan)
    # a warning of the model on every fit reaches the user once, counted
    with RepeatedWarnings("fits") as repeated:
        full_predictions = repeated.call(fit_and_predict, None, None)
        training_error = float(_row_losses(loss_function, y, full_predictions).mean())
        for b in range(n_resamples):  # one model fit per resample
            drawn = _stream(seed, b).integers(0, n, size=n)
            out_of_bag = np.flatnonzero(np.bincount(drawn, minlength=n) == 0)
            if out_of_bag.shape[0] == 0:
                continue
            predictions = repeated.call(fit_and_predict, drawn, out_of_bag)
            losses = _row_losses(loss_function, y[out_of_bag], predictions)
            loss_sums[out_of_bag] += losses
            oob_counts[out_of_bag] += 1
            oob_errors[b] = losses.mean()
    repeated.emit(stacklevel=2)

    seen = oob_counts > 0
    n_never_oob = int(n - seen.sum())
    if n_never_oob == n:
        warnings.warn(
            f"No row was out of bag in any of the {n_resamples} resamples; the "
            "leave-one-out bootstrap error is undefined (NaN). Use more resamples.",
            DegenerateDataWarning,
            stacklevel=2,
        )
        oob_error = float("nan")
    else:
        if n_never_oob > 0:
            warnings.warn(
                f"{n_never_oob} of {n} rows were in every one of the {n_resamples} "
                "resamples and are left out of the out-of-bag error; use more resamples.",
                DegenerateDataWarning,
                stacklevel=2,
            )
        oob_error = float(np.mean(loss_sums[seen] / oob_counts[seen]))

    gamma: float | None = None
    rate: float | None = None
    if method == "oob":
        estimate, weight = oob_error, 1.0
    elif method == ".632":
        weight = _WEIGHT
        estimate = _COMPLEMENT * training_error + _WEIGHT * oob_error
    else:
        gamma = _no_information_error(loss_name, loss_function, y, full_predictions)
        clipped = min(oob_error, gamma)
        if oob_error > training_error and gamma > training_error:
            rate = (clipped - training_error) / (gamma - training_error)
        elif np.isnan(oob_error):
            rate = float("nan")
        else:
            rate = 0.0
        weight = _WEIGHT / (1.0 - _COMPLEMENT * rate)
        point632 = _COMPLEMENT * training_error + _WEIGHT * oob_error
        estimate = point632 + (clipped - training_error) * (
            _COMPLEMENT * _WEIGHT * rate / (1.0 - _COMPLEMENT * rate)
        )

    return Bootstrap632Result(
        estimate=estimate,
        method=method,
        loss=loss_name,
        training_error=training_error,
        oob_error=oob_error,
        no_information_error=gamma,
        relative_overfitting_rate=rate,
        weight=weight,
        oob_errors=oob_errors,
        n_resamples=n_resamples,
        n_samples=n,
        n_never_oob=n_never_oob,
        rng_seed=seed,
    )

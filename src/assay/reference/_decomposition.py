"""Slow twins of the bias-variance decomposition, the bootstrap error estimators and the
Bayes error of two Gaussian classes.

``decompose`` works in exact fractions, one test point and one round at a time, from
Domingos' definitions: main prediction, bias ``L(y*, y_m)``, variance
``E_D[L(y_m, f)]``, noise ``L(t, y*)``.  ``bootstrap_632`` repeats the resamples of
the public function (the numpy stream keyed by ``(seed, b)``) with explicit loops over
rows.  ``bayes_error_rate`` integrates ``min_k p_k N(x; m_k, v_k)`` numerically.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["bayes_error_rate", "bootstrap_632", "decompose"]


def _median(values: list[Fraction]) -> Fraction:
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2 == 1:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def _mode(values: list[Fraction]) -> Fraction:
    counts: dict[Fraction, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    best = max(counts.values())
    return min(value for value, count in counts.items() if count == best)


def _loss(kind: str, a: Fraction, b: Fraction) -> Fraction:
    if kind == "squared":
        return (a - b) ** 2
    if kind == "absolute":
        return abs(a - b)
    return Fraction(int(a != b))


def decompose(
    predictions: Any,
    y_true: Any,
    *,
    loss: str = "squared",
    truth: Any = None,
    noise_variance: Any = None,
) -> dict[str, Any]:
    """Per-point terms and their averages, from the definitions, in fractions.

    Notes
    -----
    Domingos (2000): main prediction ``y_m`` (mean, median, or mode with ties to the
    smallest label), bias ``L(target, y_m)``, variance ``mean_r L(y_m, f_r)``, noise
    ``L(y_true, truth)`` (or ``noise_variance``, or 0), and for zero-one loss
    ``c2 = 1`` if ``y_m = target`` else ``-P(f = target | f != y_m)`` and ``c1 =
    P(f = truth) - P(f = y_true)`` where the label is noisy, ``2 P(f = truth) - 1``
    elsewhere.  Returns a dict with the field names of ``assay.decompose``'s result.
    """
    rows = [[Fraction(value) for value in row] for row in np.asarray(predictions).tolist()]
    n_rounds, n_points = len(rows), len(rows[0])
    observed = None if y_true is None else [Fraction(v) for v in np.asarray(y_true).tolist()]
    optimal = None if truth is None else [Fraction(v) for v in np.asarray(truth).tolist()]
    if noise_variance is not None:
        noise_values = np.broadcast_to(np.asarray(noise_variance, dtype=float), (n_points,))
        given_noise = [Fraction(v) for v in noise_values.tolist()]
    out: dict[str, list[Any]] = {
        key: []
        for key in (
            "main_prediction",
            "expected_loss",
            "bias",
            "variance",
            "noise",
            "net_variance",
            "unbiased_variance",
            "biased_variance",
            "noise_coefficient",
            "variance_coefficient",
            "observed_loss",
        )
    }
    for j in range(n_points):
        column = [rows[r][j] for r in range(n_rounds)]
        target = optimal[j] if optimal is not None else observed[j]  # type: ignore[index]
        if loss == "squared":
            main = sum(column, Fraction(0)) / n_rounds
        elif loss == "absolute":
            main = _median(column)
        else:
            main = _mode(column)
        bias = _loss(loss, target, main)
        variance = sum((_loss(loss, main, f) for f in column), Fraction(0)) / n_rounds
        against_target = sum((_loss(loss, target, f) for f in column), Fraction(0)) / n_rounds
        if observed is not None:
            observed_loss = (
                sum((_loss(loss, observed[j], f) for f in column), Fraction(0)) / n_rounds
            )
        if optimal is None:
            noise = Fraction(0)
        elif noise_variance is not None:
            noise = given_noise[j]
        elif observed is not None:
            noise = _loss(loss, observed[j], optimal[j])
        else:
            noise = Fraction(0)
        if loss == "squared":
            expected = noise + against_target
            net = variance
        elif loss == "absolute":
            expected = against_target
            net = expected - bias
        else:
            expected = (
                observed_loss if (optimal is not None and observed is not None) else against_target
            )
            share_optimal = Fraction(len([f for f in column if f == target]), n_rounds)
            off_main = [f for f in column if f != main]
            if bias == 0:
                c2 = Fraction(1)
            elif off_main:
                c2 = -Fraction(len([f for f in off_main if f == target]), len(off_main))
            else:
                c2 = Fraction(-1)
            if noise == 1:
                assert observed is not None
                label = observed[j]
                share_observed = Fraction(len([f for f in column if f == label]), n_rounds)
                c1 = share_optimal - share_observed
            else:
                c1 = 2 * share_optimal - 1
            net = c2 * variance
            out["unbiased_variance"].append(variance if bias == 0 else Fraction(0))
            out["biased_variance"].append(variance if bias == 1 else Fraction(0))
            out["noise_coefficient"].append(c1)
            out["variance_coefficient"].append(c2)
        for key, value in (
            ("main_prediction", main),
            ("expected_loss", expected),
            ("bias", bias),
            ("variance", variance),
            ("noise", noise),
            ("net_variance", net),
        ):
            out[key].append(value)
        if observed is not None:
            out["observed_loss"].append(observed_loss)
    result: dict[str, Any] = {}
    for key, values in out.items():
        if not values:
            result[key] = None
            if key in ("unbiased_variance", "biased_variance", "observed_loss"):
                result["average_" + key] = None
            continue
        result[key] = [float(value) for value in values]
        if key not in ("main_prediction", "noise_coefficient", "variance_coefficient"):
            result["average_" + key] = float(sum(values, Fraction(0)) / n_points)
    result["n_rounds"] = n_rounds
    result["n_points"] = n_points
    return result


def _zero_one_gamma(y: list[Any], predictions: list[Any]) -> Fraction:
    n = len(y)
    wrong = sum(1 for label in y for prediction in predictions if label != prediction)
    return Fraction(wrong, n * n)


def bootstrap_632(
    model: Any,
    X: Any,
    y: Any,
    *,
    n_resamples: int = 200,
    method: str = ".632",
    loss: str = "zero_one",
    rng: int = 0,
) -> dict[str, Any]:
    """The leave-one-out bootstrap, .632 and .632+ estimates with explicit loops.

    ``model`` must be a zero-argument factory (a class or a function); ``rng`` an
    integer seed, resample ``b`` being ``default_rng(SeedSequence([rng, b])).integers(0,
    n, n)``.  Losses are summed as exact fractions of the float values.

    Notes
    -----
    Efron & Tibshirani (1997): ``err`` the resubstitution error of the model fitted on
    all rows; ``Err1`` the mean over the rows ever out of bag of each row's mean
    out-of-bag loss; ``.632 = 0.368 err + 0.632 Err1``; ``gamma`` the mean loss over
    all ``n^2`` (label, prediction) pairs; ``Err1' = min(Err1, gamma)``;
    ``R' = (Err1' - err) / (gamma - err)`` if ``Err1 > err`` and ``gamma > err``, else
    0; ``.632+ = .632 + (Err1' - err) 0.368 * 0.632 R' / (1 - 0.368 R')``.
    """

    def fresh() -> Any:
        return model()

    def row_loss(label: Any, prediction: Any) -> Fraction:
        if loss == "zero_one":
            return Fraction(int(label != prediction))
        difference = Fraction(float(label)) - Fraction(float(prediction))
        return difference * difference if loss == "squared" else abs(difference)

    X = np.asarray(X)
    labels = np.asarray(y).tolist()
    n = len(labels)
    full = fresh()
    full.fit(X, np.asarray(labels))
    full_predictions = np.asarray(full.predict(X)).tolist()
    err = sum((row_loss(a, b) for a, b in zip(labels, full_predictions, strict=True)), Fraction(0))
    err /= n
    sums = [Fraction(0)] * n
    counts = [0] * n
    for b in range(n_resamples):
        stream = np.random.default_rng(np.random.SeedSequence([rng, b]))
        drawn = stream.integers(0, n, size=n).tolist()
        in_bag = set(drawn)
        out = [i for i in range(n) if i not in in_bag]
        if not out:
            continue
        fitted = fresh()
        fitted.fit(X[drawn], np.asarray([labels[i] for i in drawn]))
        predicted = np.asarray(fitted.predict(X[out])).tolist()
        for i, prediction in zip(out, predicted, strict=True):
            sums[i] += row_loss(labels[i], prediction)
            counts[i] += 1
    seen = [i for i in range(n) if counts[i] > 0]
    one = sum((sums[i] / counts[i] for i in seen), Fraction(0)) / len(seen)
    w, c = Fraction(632, 1000), Fraction(368, 1000)
    result: dict[str, Any] = {"training_error": float(err), "oob_error": float(one)}
    if method == "oob":
        result["estimate"] = float(one)
        return result
    point632 = c * err + w * one
    if method == ".632":
        result["estimate"] = float(point632)
        return result
    if loss == "zero_one":
        gamma = _zero_one_gamma(labels, full_predictions)
    else:
        gamma = sum((row_loss(a, b) for a in labels for b in full_predictions), Fraction(0)) / (
            n * n
        )
    clipped = min(one, gamma)
    rate = (clipped - err) / (gamma - err) if (one > err and gamma > err) else Fraction(0)
    estimate = point632 + (clipped - err) * (c * w * rate) / (1 - c * rate)
    result.update(
        estimate=float(estimate),
        no_information_error=float(gamma),
        relative_overfitting_rate=float(rate),
    )
    return result


def bayes_error_rate(
    *,
    means: tuple[float, float] = (-1.0, 1.0),
    variances: float | tuple[float, float] = 0.25,
    priors: tuple[float, float] = (0.5, 0.5),
    n_grid: int = 400_001,
) -> float:
    """``integral of min_k p_k N(x; m_k, v_k) dx`` by the composite Simpson rule.

    Notes
    -----
    The Bayes error of two classes is the integral of the smaller of the two weighted
    class densities (Duda, Hart & Stork 2001, section 2.7).  The integration range
    reaches 40 standard deviations beyond both means; the kinks of the minimum where
    the weighted densities cross limit the accuracy to about 1e-9 with the default
    grid.
    """
    if np.ndim(variances) == 0:
        variances = (float(variances), float(variances))  # type: ignore[arg-type]
    sds = [math.sqrt(v) for v in variances]  # type: ignore[union-attr]
    low = min(m - 40 * s for m, s in zip(means, sds, strict=True))
    high = max(m + 40 * s for m, s in zip(means, sds, strict=True))
    x = np.linspace(low, high, n_grid)
    densities = [
        p * np.exp(-0.5 * ((x - m) / s) ** 2) / (s * math.sqrt(2 * math.pi))
        for p, m, s in zip(priors, means, sds, strict=True)
    ]
    integrand = np.minimum(densities[0], densities[1])
    h = (high - low) / (n_grid - 1)
    weights = np.ones(n_grid)
    weights[1:-1:2] = 4.0
    weights[2:-1:2] = 2.0
    return float(h / 3.0 * math.fsum((weights * integrand).tolist()))

"""The bounds of the intervals of a binomial proportion, for one count or many at once.

One implementation serves both: the bounds are written with numpy operations that are
correctly rounded (``+ - * /`` and the square root) on arrays of any shape, a single
count being a 0-d array.  An interval of counts in an array is therefore, bit for bit,
the interval of the same counts passed one at a time.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from assay import _special as special
from assay._distributions import beta_quantiles

__all__ = ["count_arrays", "normal_quantile", "proportion_bounds"]

# Counts up to 2**53 are exact in float64; so are k / n and (n - k) / n as quotients.
_EXACT_COUNT = 2.0**53


def normal_quantile(confidence_level: float) -> float:
    """``z`` with ``P(|Z| <= z) = confidence_level`` for a standard normal ``Z``."""
    return float(-special.ndtri((1.0 - confidence_level) / 2.0))


def _upper_root(p: np.ndarray, q: np.ndarray, inverse: np.ndarray, z: float) -> np.ndarray:
    """The upper root ``p0`` of ``(p - p0)^2 = z^2 p0 (1 - p0) inverse`` (Wilson 1927).

    ``q = 1 - p`` and ``inverse = 1 / n`` are passed separately (each a correctly rounded
    quotient of the counts).  The root is a sum of positive terms: no cancellation.
    """
    z2 = z * z
    spread = z * np.sqrt(inverse) * np.sqrt(z2 * inverse + 4.0 * p * q)
    return (2.0 * p + z2 * inverse + spread) / (2.0 * (1.0 + z2 * inverse))


def _lower_root(
    p: np.ndarray, q: np.ndarray, inverse: np.ndarray, z: float, upper: np.ndarray
) -> np.ndarray:
    """The lower root, from the product of the roots ``p^2 / (1 + z^2 inverse)``: no
    cancellation either."""
    return (p * p) / ((1.0 + z * z * inverse) * upper)


def _wilson(
    p: np.ndarray, q: np.ndarray, inverse: np.ndarray, z: float, at_zero: Any, at_n: Any
) -> tuple[np.ndarray, np.ndarray]:
    """Wilson's bounds: exactly 0 at ``k = 0`` and exactly 1 at ``k = n``."""
    upper = np.where(at_n, 1.0, _upper_root(p, q, inverse, z))
    lower = np.where(at_zero, 0.0, _lower_root(p, q, inverse, z, upper))
    return lower, upper


def _wilson_continuity_corrected(
    p: np.ndarray, q: np.ndarray, inverse: np.ndarray, z: float, at_zero: Any, at_n: Any
) -> tuple[np.ndarray, np.ndarray]:
    """Wilson's roots with half a success less (lower bound) and more (upper bound);
    0 at ``k = 0`` and 1 at ``k = n``, where the shifted proportion leaves [0, 1]."""
    half = 0.5 * inverse
    with np.errstate(invalid="ignore"):  # the shifted proportion outside [0, 1]: masked
        upper = np.where(at_n, 1.0, _upper_root(p + half, q - half, inverse, z))
        lower_p, lower_q = p - half, q + half
        below = _lower_root(
            lower_p, lower_q, inverse, z, _upper_root(lower_p, lower_q, inverse, z)
        )
        lower = np.where(at_zero, 0.0, below)
    return lower, upper


def _beta_bounds(
    k: np.ndarray, failures: np.ndarray, alpha: float, shift: float, at_zero: Any, at_n: Any
) -> tuple[np.ndarray, np.ndarray]:
    """Beta-quantile bounds: Clopper-Pearson (``shift = 0``) or Jeffreys (``1/2``).

    ``failures = n - k`` is passed as computed from the counts themselves: for counts
    beyond 2**53 it is not the difference of their float64 values.
    """
    low, high = np.zeros(k.shape), np.ones(k.shape)
    inner_low, inner_high = ~np.asarray(at_zero), ~np.asarray(at_n)
    if shift == 0.0:
        low_shapes = (k[inner_low], failures[inner_low] + 1.0)
        high_shapes = (k[inner_high] + 1.0, failures[inner_high])
    else:
        low_shapes = (k[inner_low] + shift, failures[inner_low] + shift)
        high_shapes = (k[inner_high] + shift, failures[inner_high] + shift)
    low[inner_low] = beta_quantiles(*low_shapes, alpha / 2.0)
    high[inner_high] = beta_quantiles(*high_shapes, 1.0 - alpha / 2.0)
    return low, high


def proportion_bounds(
    p: np.ndarray,
    q: np.ndarray,
    inverse: np.ndarray,
    k: np.ndarray,
    n: np.ndarray,
    failures: np.ndarray,
    confidence_level: float,
    method: str,
) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` of checked proportions, clipped to [0, 1].

    ``p = k / n``, ``q = (n - k) / n`` and ``inverse = 1 / n`` (float64 arrays of one
    shape, each a correctly rounded quotient of the counts), ``k``, ``n`` and
    ``failures = n - k`` the counts as float64 (for the methods that need them:
    Agresti-Coull, the beta quantiles).
    """
    alpha = 1.0 - confidence_level
    at_zero, at_n = k == 0.0, q == 0.0
    if method == "hoeffding":
        # 2 exp(-2 n eps^2) = alpha ("Estimation of the hypothesis real risk", Theorem
        # 6.5.1 with one hypothesis)
        half_width = np.sqrt(math.log(2.0 / alpha) / (2.0 * n))
        low, high = p - half_width, p + half_width
    elif method in ("clopper_pearson", "jeffreys"):
        shift = 0.0 if method == "clopper_pearson" else 0.5
        low, high = _beta_bounds(k, failures, alpha, shift, at_zero, at_n)
        # the true bounds enclose k/n; for counts beyond 2**106 they lie within a unit
        # in the last place of it, which rounding of the float shape parameters can cross
        low, high = np.minimum(low, p), np.maximum(high, p)
    else:
        z = normal_quantile(confidence_level)
        if method == "wilson":
            low, high = _wilson(p, q, inverse, z, at_zero, at_n)
        elif method == "wilson_cc":
            low, high = _wilson_continuity_corrected(p, q, inverse, z, at_zero, at_n)
        elif method == "normal":
            half_width = z * np.sqrt(p * (1.0 - p) / n)
            low, high = p - half_width, p + half_width
        else:  # agresti_coull
            n_tilde = n + z * z
            p_tilde = (k + z * z / 2.0) / n_tilde
            half_width = z * np.sqrt(p_tilde * (1.0 - p_tilde) / n_tilde)
            low, high = p_tilde - half_width, p_tilde + half_width
    return np.minimum(np.maximum(low, 0.0), 1.0), np.minimum(np.maximum(high, 0.0), 1.0)


def _count_array(value: Any, name: str) -> tuple[np.ndarray, np.ndarray]:
    """``value`` as an array of whole non-negative counts, and the same as float64."""
    array = np.asarray(value)
    if array.dtype.kind not in "iuf":
        raise ValueError(
            f"`{name}` must hold whole numbers (counts); got an array of dtype {array.dtype}."
        )
    counts = array.astype(np.float64)
    whole = np.isfinite(counts) & (counts == np.floor(counts))
    if not np.all(whole):
        bad = array[~whole]
        raise ValueError(
            f"`{name}` contains {bad.size} values that are not whole numbers (e.g. "
            f"{bad.ravel()[0].item()!r}); counts must be whole numbers."
        )
    if np.any(counts < 0.0):
        negative = array[counts < 0.0]
        raise ValueError(
            f"`{name}` contains {negative.size} negative values (e.g. "
            f"{negative.ravel()[0].item()!r}); counts must be non-negative."
        )
    return array, counts


def count_arrays(
    k: Any, n: Any, k_name: str = "k", n_name: str = "n"
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Successes and trials broadcast together (numpy's rules): the counts as given
    (integer dtypes kept) and as float64, each of the broadcast shape; ``n >= 1`` and
    ``k <= n`` everywhere."""
    successes, successes_float = _count_array(k, k_name)
    trials, trials_float = _count_array(n, n_name)
    try:
        shape = np.broadcast_shapes(successes.shape, trials.shape)
    except ValueError:
        message = (
            f"`{k_name}` of shape {successes.shape} and `{n_name}` of shape {trials.shape} "
            "do not broadcast together (numpy's broadcasting rules)."
        )
        raise ValueError(message) from None
    successes, trials = np.broadcast_to(successes, shape), np.broadcast_to(trials, shape)
    successes_float = np.broadcast_to(successes_float, shape)
    trials_float = np.broadcast_to(trials_float, shape)
    n_zero = int(np.count_nonzero(trials_float == 0.0))
    if n_zero:
        raise ValueError(
            f"`{n_name}` must be at least 1 (the number of trials); {n_zero} values are 0."
        )
    over = successes_float > trials_float
    if np.any(over):
        first = np.argwhere(over)[0]
        raise ValueError(
            f"`{k_name}` exceeds `{n_name}` at {int(np.count_nonzero(over))} positions "
            f"(e.g. {successes[tuple(first)].item()!r} of {trials[tuple(first)].item()!r}); "
            "a count of successes cannot exceed the number of trials."
        )
    too_large = trials_float > _EXACT_COUNT
    if np.any(too_large):
        raise ValueError(
            f"`{n_name}` contains {int(np.count_nonzero(too_large))} counts above 2**53 "
            "(e.g. "
            f"{trials[too_large].ravel()[0].item()!r}); an array of counts is computed in "
            "float64, exact only up to 2**53: pass such a count alone (a Python int)."
        )
    return successes, trials, successes_float, trials_float

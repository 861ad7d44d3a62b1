"""Bootstrap confidence bands of ROC and precision-recall curves at a fixed grid.

The rows are sorted once; every replicate is one streaming pass of stratified
multinomial counts over the sorted rows (:mod:`assay._kernels.bands`), which reads the
replicate's curve off at the grid as it goes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from assay._kernels import bands as kernels
from assay._kernels._jit import n_workers
from assay._kernels.streaming import merge_atoms
from assay._procedure_checks import check_confidence_level, check_n_resamples
from assay._results._bands import CurveBand
from assay._validation import (
    as_scores,
    binary_target,
    check_option,
    check_same_length,
    resolve_seed,
)
from assay.metrics._sorted import sort_scores
from assay.resampling._resampling import chunk_size

__all__ = ["precision_recall_band", "roc_band"]

_KINDS = ("pointwise", "simultaneous")


def _grid(grid: Any, curve: str) -> np.ndarray:
    if grid is None:
        if curve == "roc":
            return np.linspace(0.0, 1.0, 101)
        return np.linspace(0.01, 1.0, 100)
    values = np.asarray(grid, dtype=np.float64).reshape(-1)
    if values.size == 0 or not np.all(np.isfinite(values)):
        raise ValueError(f"`grid` must hold at least one finite value; got {grid!r}.")
    if np.any(np.diff(values) <= 0):
        raise ValueError("`grid` must be strictly increasing.")
    low_ok = values[0] >= 0.0 if curve == "roc" else values[0] > 0.0
    if not low_ok or values[-1] > 1.0:
        rule = "[0, 1]" if curve == "roc" else "(0, 1] (precision is undefined at recall 0)"
        low, high = float(values[0]), float(values[-1])
        raise ValueError(f"`grid` must lie in {rule}; got values from {low!r} to {high!r}.")
    return np.ascontiguousarray(values)


def _sorted_rows(y_true: Any, y_score: Any, pos_label: Any) -> tuple[np.ndarray, np.ndarray]:
    positive, _ = binary_target(y_true, pos_label)
    scores = as_scores(y_score)
    check_same_length(y_true=positive, y_score=scores)
    n_positive = int(positive.sum())
    if n_positive == 0 or n_positive == positive.shape[0]:
        raise ValueError(
            f"`y_true` must hold both classes to draw a curve; it holds {n_positive} "
            f"positives and {positive.shape[0] - n_positive} negatives."
        )
    data = sort_scores(positive, scores, None, group_ties=False)
    is_positive, continues, _ = merge_atoms(*data.kernel_arguments)
    return is_positive, continues


def _resolve(
    n_resamples: Any, confidence_level: Any, kind: Any, rng: Any
) -> tuple[int, float, int]:
    n_resamples = check_n_resamples(n_resamples)
    confidence_level = check_confidence_level(confidence_level)
    check_option(kind, "kind", _KINDS)
    return n_resamples, confidence_level, resolve_seed(rng)


def _replicates(
    is_positive: np.ndarray,
    continues: np.ndarray,
    grids: kernels.Grids,
    n_resamples: int,
    seed: int,
) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """Both curves of the data and of every replicate: one pass per replicate."""
    n_positive = int(is_positive.sum())
    estimates = kernels.curves_at_grids(
        is_positive,
        continues,
        np.ones(is_positive.shape[0], dtype=np.int64),
        n_positive,
        is_positive.shape[0] - n_positive,
        grids,
    )
    roc = np.empty((n_resamples, grids.roc.shape[0]), dtype=np.float64)
    precision = np.empty((n_resamples, grids.precision_recall.shape[0]), dtype=np.float64)
    workers = n_workers()
    size = chunk_size(n_resamples, is_positive.shape[0], workers)
    for first in range(0, n_resamples, size):
        kernels.band_replicates(
            is_positive,
            continues,
            grids,
            np.uint64(seed),
            first,
            roc[first : first + size],
            precision[first : first + size],
            workers,
        )
    return estimates, (roc, precision)


def band_of_replicates(
    curve: str,
    grid: np.ndarray,
    estimate: np.ndarray,
    curves: np.ndarray,
    confidence_level: float,
    kind: str,
    seed: int,
) -> CurveBand:
    """The band of one curve from its replicates (``curves``: replicates x grid points)."""
    n_resamples = curves.shape[0]
    standard_error = curves.std(axis=0, ddof=1) if n_resamples > 1 else np.zeros_like(estimate)
    alpha = 1.0 - confidence_level
    if kind == "pointwise":
        lower, upper = np.quantile(curves, [alpha / 2, 1 - alpha / 2], axis=0)
        critical_value = float("nan")
    else:
        critical_value = sup_t_critical_value(curves, estimate, standard_error, confidence_level)
        lower = estimate - critical_value * standard_error
        upper = estimate + critical_value * standard_error
    return CurveBand(
        curve=curve,
        grid=grid,
        estimate=estimate,
        lower=np.clip(lower, 0.0, 1.0),
        upper=np.clip(upper, 0.0, 1.0),
        kind=kind,
        confidence_level=confidence_level,
        critical_value=critical_value,
        standard_error=standard_error,
        n_resamples=n_resamples,
        rng_seed=seed,
        bootstrap_curves=curves,
    )


def _band(
    curve: str,
    y_true: Any,
    y_score: Any,
    grid: Any,
    pos_label: Any,
    n_resamples: Any,
    confidence_level: Any,
    kind: Any,
    rng: Any,
) -> CurveBand:
    grid_values = _grid(grid, curve)
    n_resamples, confidence_level, seed = _resolve(n_resamples, confidence_level, kind, rng)
    is_positive, continues = _sorted_rows(y_true, y_score, pos_label)
    empty = np.empty(0, dtype=np.float64)
    if curve == "roc":
        grids = kernels.Grids(grid_values, empty)
    else:
        grids = kernels.Grids(empty, grid_values)
    estimates, replicates = _replicates(is_positive, continues, grids, n_resamples, seed)
    which = 0 if curve == "roc" else 1
    return band_of_replicates(
        curve, grid_values, estimates[which], replicates[which], confidence_level, kind, seed
    )


def curve_bands(
    y_true: Any,
    y_score: Any,
    *,
    roc_grid: Any = None,
    recall_grid: Any = None,
    pos_label: Any = None,
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    kind: str = "pointwise",
    rng: Any = None,
) -> tuple[CurveBand, CurveBand]:
    """:func:`roc_band` and :func:`precision_recall_band` from one pass per replicate.

    The same draws as the two separate calls with the same arguments (replicate ``r``
    draws from the same stream whichever curves it reads), so the two bands are equal
    to theirs, value for value; the rows are sorted and drawn once instead of twice.
    """
    grids = kernels.Grids(_grid(roc_grid, "roc"), _grid(recall_grid, "precision_recall"))
    n_resamples, confidence_level, seed = _resolve(n_resamples, confidence_level, kind, rng)
    is_positive, continues = _sorted_rows(y_true, y_score, pos_label)
    estimates, replicates = _replicates(is_positive, continues, grids, n_resamples, seed)
    return (
        band_of_replicates(
            "roc", grids.roc, estimates[0], replicates[0], confidence_level, kind, seed
        ),
        band_of_replicates(
            "precision_recall",
            grids.precision_recall,
            estimates[1],
            replicates[1],
            confidence_level,
            kind,
            seed,
        ),
    )


def sup_t_critical_value(
    curves: np.ndarray, estimate: np.ndarray, standard_error: np.ndarray, confidence_level: float
) -> float:
    """Quantile of the replicates' largest studentised deviation over the grid.

    Grid points where the replicates do not vary (standard error 0) are left out of the
    maximum: the band there is the estimate itself.
    """
    varying = standard_error > 0
    if not np.any(varying):
        return 0.0
    deviations = np.abs(curves[:, varying] - estimate[varying]) / standard_error[varying]
    return float(np.quantile(deviations.max(axis=1), confidence_level))


_DOC_PARAMETERS = """
    y_true : array-like of shape (n_samples,)
        Binary target.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    grid : array-like, optional
        The points of the horizontal axis, strictly increasing, {grid_rule}
        (default: {grid_default}).
    pos_label : int, float, bool or str, optional
        The positive class (inferred for labels {{0, 1}}, {{-1, 1}} or booleans).
    n_resamples : int, default=1000
        Number of bootstrap replicates.
    confidence_level : float in (0, 1), default=0.95
        Nominal coverage of the band.
    kind : {{'pointwise', 'simultaneous'}}, default='pointwise'
        ``'pointwise'``: at each grid point the percentile interval of the replicates
        (covers the true curve at that point).  ``'simultaneous'``: the bootstrap sup-t
        band, which covers the whole true curve at once.
    rng : None, int or numpy.random.Generator
        Seed of the replicates."""


def roc_band(
    y_true: Any,
    y_score: Any,
    *,
    grid: Any = None,
    pos_label: Any = None,
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    kind: str = "pointwise",
    rng: Any = None,
) -> CurveBand:
    """Bootstrap confidence band of the ROC curve: true positive rate at fixed FPRs.

    Parameters
    ----------{parameters}

    Returns
    -------
    CurveBand
        ``grid``, ``estimate``, ``lower``, ``upper`` (unpacks in that order), the
        replicates' curves and the band's kind.

    Raises
    ------
    ValueError
        If ``y_true`` does not hold both classes, the grid is not increasing within
        [0, 1], or an option is out of range.

    Notes
    -----
    The curve is vertically averaged as pROC's ``ci.se`` does (Robin et al. 2011;
    Fawcett 2006, section 8): each replicate's true positive rate is read at the same
    false positive rates.  Between two vertices of the empirical curve the TPR is
    interpolated on the tie group's segment; at a vertical segment it is its top.  The
    replicates resample rows within each class (the class sizes stay fixed, pROC's
    default ``stratified=TRUE``).

    The simultaneous band is the bootstrap sup-t band of Montiel Olea and
    Plagborg-Moller (2019): with :math:`\\hat s_j` the standard error of the replicates
    at grid point :math:`j`, the band is :math:`\\hat\\theta_j \\pm \\hat c\\, \\hat s_j`
    where :math:`\\hat c` is the ``confidence_level`` quantile over replicates of
    :math:`\\max_j |\\theta^*_j - \\hat\\theta_j| / \\hat s_j`.  Both bands are clipped
    to [0, 1].

    References
    ----------
    X. Robin et al., "pROC: an open-source package for R and S+ to analyze and compare
    ROC curves", BMC Bioinformatics 12 (2011) 77.
    J. L. Montiel Olea and M. Plagborg-Moller, "Simultaneous confidence bands: Theory,
    implementation, and an application to SVARs", Journal of Applied Econometrics 34
    (2019) 1-17.

    Examples
    --------
    >>> import numpy as np, assay
    >>> generator = np.random.default_rng(0)
    >>> y_true = np.repeat([0, 1], 500)
    >>> y_score = generator.normal(size=1000) + y_true
    >>> band = assay.roc_band(y_true, y_score, grid=[0.1, 0.5], n_resamples=500, rng=1)
    >>> grid, tpr, lower, upper = band
    >>> bool(np.all((lower < tpr) & (tpr < upper)))
    True
    """
    return _band("roc", y_true, y_score, grid, pos_label, n_resamples, confidence_level,
                 kind, rng)  # fmt: skip


def precision_recall_band(
    y_true: Any,
    y_score: Any,
    *,
    grid: Any = None,
    pos_label: Any = None,
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    kind: str = "pointwise",
    rng: Any = None,
) -> CurveBand:
    """Bootstrap confidence band of the precision-recall curve: precision at fixed recalls.

    Parameters
    ----------{parameters}

    Returns
    -------
    CurveBand
        ``grid``, ``estimate``, ``lower``, ``upper`` (unpacks in that order), the
        replicates' curves and the band's kind.

    Raises
    ------
    ValueError
        If ``y_true`` does not hold both classes, the grid is not increasing within
        (0, 1], or an option is out of range.

    Notes
    -----
    Precision is read at the same recalls in every replicate.  Between two vertices of
    the empirical curve the true and false positives grow linearly along the tie
    group (the interpolation of Davis and Goadrich 2006), and precision is their ratio;
    the first point reaching a recall is taken.  Replicates and bands as in
    :func:`roc_band` (stratified rows; percentile or sup-t band).

    References
    ----------
    J. Davis and M. Goadrich, "The relationship between precision-recall and ROC
    curves", ICML 2006.
    J. L. Montiel Olea and M. Plagborg-Moller, "Simultaneous confidence bands: Theory,
    implementation, and an application to SVARs", Journal of Applied Econometrics 34
    (2019) 1-17.

    Examples
    --------
    >>> import numpy as np, assay
    >>> generator = np.random.default_rng(0)
    >>> y_true = np.repeat([0, 1], 500)
    >>> y_score = generator.normal(size=1000) + y_true
    >>> band = assay.precision_recall_band(y_true, y_score, n_resamples=200, rng=1)
    >>> band.grid.shape, band.kind
    ((100,), 'pointwise')
    """
    return _band("precision_recall", y_true, y_score, grid, pos_label, n_resamples,
                 confidence_level, kind, rng)  # fmt: skip


roc_band.__doc__ = (roc_band.__doc__ or "").replace(
    "{parameters}",
    _DOC_PARAMETERS.format(grid_rule="within [0, 1]", grid_default="101 points from 0 to 1"),
)
precision_recall_band.__doc__ = (precision_recall_band.__doc__ or "").replace(
    "{parameters}",
    _DOC_PARAMETERS.format(grid_rule="within (0, 1]", grid_default="0.01, 0.02, ..., 1"),
)

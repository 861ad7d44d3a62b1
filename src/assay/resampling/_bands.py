"""Bootstrap confidence bands of ROC and precision-recall curves at a fixed grid.

The rows are sorted once; every replicate is one streaming pass of its counts over the
sorted rows, which reads the replicate's curve off at the grid as it goes: stratified
multinomial counts (:mod:`assay._kernels.bands`, the default) or the Poisson bootstrap's
keyed counts (:mod:`assay._kernels.poisson_bands`, ``resampling="poisson"``).  A Poisson
replicate that draws no positive or no negative row has no curve: it is left out of the
band, counted in ``n_undefined``, with an :class:`~assay.exceptions.UndefinedMetricWarning`.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from assay._kernels import bands as kernels
from assay._kernels import poisson_bands
from assay._kernels._cache import user_stacklevel
from assay._kernels._jit import n_workers, workers_for
from assay._kernels.atoms import merge_atoms
from assay._procedure_checks import check_confidence_level, check_n_resamples
from assay._results._bands import CurveBand
from assay._validation import (
    as_scores,
    binary_target,
    check_option,
    check_same_length,
    resolve_seed,
)
from assay.exceptions import UndefinedMetricWarning
from assay.metrics._sorted import sort_scores
from assay.resampling._plans import stream_plan
from assay.resampling._resampling import chunk_size

__all__ = ["precision_recall_band", "roc_band"]

_KINDS = ("pointwise", "simultaneous")
_RESAMPLINGS = ("multinomial", "poisson")


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


def _both_classes(y_true: Any, y_score: Any, pos_label: Any) -> tuple[np.ndarray, np.ndarray]:
    """The rows' classes (True: positive) and scores, both classes present."""
    positive, _ = binary_target(y_true, pos_label)
    scores = as_scores(y_score)
    check_same_length(y_true=positive, y_score=scores)
    n_positive = int(positive.sum())
    if n_positive == 0 or n_positive == positive.shape[0]:
        raise ValueError(
            f"`y_true` must hold both classes to draw a curve; it holds {n_positive} "
            f"positives and {positive.shape[0] - n_positive} negatives."
        )
    return positive, scores


def _sorted_rows(positive: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    data = sort_scores(positive, scores, None, group_ties=False)
    is_positive, continues, _ = merge_atoms(*data.kernel_arguments)
    return is_positive, continues


def _resolve(
    n_resamples: Any, confidence_level: Any, kind: Any, resampling: Any, rng: Any
) -> tuple[int, float, int]:
    n_resamples = check_n_resamples(n_resamples)
    confidence_level = check_confidence_level(confidence_level)
    check_option(kind, "kind", _KINDS)
    check_option(resampling, "resampling", _RESAMPLINGS)
    return n_resamples, confidence_level, resolve_seed(rng)


Curves = tuple[np.ndarray, np.ndarray]
"""Both curves of every replicate (replicates x grid points: ROC, precision-recall)."""


def empty_curves(n_resamples: int, grids: kernels.Grids) -> Curves:
    """Both curves of ``n_resamples`` replicates, to be filled."""
    return (
        np.empty((n_resamples, grids.roc.shape[0]), dtype=np.float64),
        np.empty((n_resamples, grids.precision_recall.shape[0]), dtype=np.float64),
    )


def _data_curves(
    is_positive: np.ndarray, continues: np.ndarray, rows: np.ndarray, grids: kernels.Grids
) -> Curves:
    """Both curves of the data: atom ``k`` counted ``rows[k]`` times (its rows)."""
    n_positive = int(rows[is_positive].sum())
    n_negative = int(rows.sum()) - n_positive
    return kernels.curves_at_grids(is_positive, continues, rows, n_positive, n_negative, grids)


def _in_chunks(draw: Callable[[int, np.ndarray, np.ndarray], None], n_resamples: int,
               size: int, grids: kernels.Grids) -> Curves:  # fmt: skip
    """Every replicate's curves, ``draw(first, roc, precision)`` filling a chunk of
    ``size`` replicates from replicate ``first`` at a time."""
    roc, precision = empty_curves(n_resamples, grids)
    for first in range(0, n_resamples, size):
        draw(first, roc[first : first + size], precision[first : first + size])
    return roc, precision


def _replicates(
    positive: np.ndarray, scores: np.ndarray, grids: kernels.Grids, n_resamples: int, seed: int
) -> tuple[Curves, Curves]:
    """Both curves of the data and of every stratified replicate: one pass per replicate."""
    is_positive, continues = _sorted_rows(positive, scores)
    estimates = _data_curves(is_positive, continues, np.ones(is_positive.shape[0], np.int64),
                             grids)  # fmt: skip
    workers = n_workers()

    def draw(first: int, roc: np.ndarray, precision: np.ndarray) -> None:
        kernels.band_replicates(is_positive, continues, grids, np.uint64(seed), first, roc,
                                precision, workers)  # fmt: skip

    size = chunk_size(n_resamples, is_positive.shape[0], workers)
    return estimates, _in_chunks(draw, n_resamples, size, grids)


def _poisson_replicates(
    positive: np.ndarray, scores: np.ndarray, grids: kernels.Grids, n_resamples: int, seed: int
) -> tuple[Curves, Curves]:
    """Both curves of the data and of every Poisson replicate (NaN rows: a class not
    drawn), the counts keyed as :func:`assay.bootstrap` keys them with
    ``resampling="poisson"`` (the same atoms: :func:`~assay.resampling._plans.stream_plan`)."""
    atoms = stream_plan(
        positive, scores, pos_label=None, sample_weight=None, clusters=None, keyed=True
    ).atoms
    n = atoms.is_positive.shape[0]
    # the data: a tie cell counted as many times as it has rows, a row once
    rows = np.rint(atoms.value).astype(np.int64) if atoms.cells else np.ones(n, np.int64)
    estimates = _data_curves(atoms.is_positive, atoms.continues, rows, grids)
    workers = workers_for(2 * n_resamples * n)  # two walks over the atoms per replicate

    def draw(first: int, roc: np.ndarray, precision: np.ndarray) -> None:
        poisson_bands.poisson_band_replicates(atoms, grids, np.uint64(seed), first, roc,
                                              precision, workers)  # fmt: skip

    size = chunk_size(n_resamples, 2 * n, workers)
    return estimates, _in_chunks(draw, n_resamples, size, grids)


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


_CURVE_NAMES = {"roc": "ROC", "precision_recall": "precision-recall"}


def band_of_defined_replicates(
    curve: str,
    grid: np.ndarray,
    estimate: np.ndarray,
    curves: np.ndarray,
    confidence_level: float,
    kind: str,
    seed: int,
    resampling: str,
) -> CurveBand:
    """:func:`band_of_replicates` of the replicates that have a curve.

    A replicate without one (NaN: no positive or no negative row drawn) is left out and
    counted in ``n_undefined``, with an :class:`~assay.exceptions.UndefinedMetricWarning`
    as :func:`assay.bootstrap` warns of an undefined replicate; when no replicate has the
    curve the band is NaN (as the bootstrap's interval is then).
    """
    defined = ~np.isnan(curves).any(axis=1)
    n_undefined = int(curves.shape[0] - np.count_nonzero(defined))
    if n_undefined:
        left_out = (
            "there is no band (NaN)"
            if n_undefined == curves.shape[0]
            else "they are left out of its band"
        )
        warnings.warn(
            f"The {_CURVE_NAMES[curve]} curve is undefined in {n_undefined} of "
            f"{curves.shape[0]} bootstrap replicates (no positive or no negative row "
            f"drawn); {left_out}.",
            UndefinedMetricWarning,
            stacklevel=user_stacklevel(),
        )
    kept = curves[defined]
    if kept.shape[0] > 0:
        band = band_of_replicates(curve, grid, estimate, kept, confidence_level, kind, seed)
        return replace(band, n_resamples=curves.shape[0], resampling=resampling,
                       n_undefined=n_undefined)  # fmt: skip
    undefined = np.full(grid.shape[0], np.nan)  # no replicate has the curve: no band
    return CurveBand(
        curve=curve,
        grid=grid,
        estimate=estimate,
        lower=undefined,
        upper=undefined,
        kind=kind,
        confidence_level=confidence_level,
        critical_value=float("nan"),
        standard_error=undefined,
        n_resamples=curves.shape[0],
        rng_seed=seed,
        bootstrap_curves=kept,
        resampling=resampling,
        n_undefined=n_undefined,
    )


def poisson_curves(
    y_true: Any, y_score: Any, grids: kernels.Grids, n_resamples: int, seed: int
) -> tuple[Curves, Curves]:
    """Both curves of the data and of every Poisson replicate (NaN rows: no curve), as
    :func:`curve_bands` draws them with ``resampling="poisson"`` (the report's Poisson
    bands; :mod:`assay.dask._bands` draws the same on Dask)."""
    positive, scores = _both_classes(y_true, y_score, None)
    return _poisson_replicates(positive, scores, grids, n_resamples, seed)


def _drawn(
    positive: np.ndarray,
    scores: np.ndarray,
    grids: kernels.Grids,
    n_resamples: int,
    seed: int,
    resampling: str,
) -> tuple[Curves, Curves]:
    draw = _poisson_replicates if resampling == "poisson" else _replicates
    return draw(positive, scores, grids, n_resamples, seed)


def _band(
    curve: str,
    y_true: Any,
    y_score: Any,
    grid: Any,
    pos_label: Any,
    n_resamples: Any,
    confidence_level: Any,
    kind: Any,
    resampling: Any,
    rng: Any,
) -> CurveBand:
    grid_values = _grid(grid, curve)
    n_resamples, confidence_level, seed = _resolve(
        n_resamples, confidence_level, kind, resampling, rng
    )
    positive, scores = _both_classes(y_true, y_score, pos_label)
    empty = np.empty(0, dtype=np.float64)
    if curve == "roc":
        grids = kernels.Grids(grid_values, empty)
    else:
        grids = kernels.Grids(empty, grid_values)
    estimates, replicates = _drawn(positive, scores, grids, n_resamples, seed, resampling)
    which = 0 if curve == "roc" else 1
    return band_of_defined_replicates(curve, grid_values, estimates[which], replicates[which],
                                      confidence_level, kind, seed, resampling)  # fmt: skip


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
    resampling: str = "multinomial",
    rng: Any = None,
) -> tuple[CurveBand, CurveBand]:
    """:func:`roc_band` and :func:`precision_recall_band` from one pass per replicate.

    The same draws as the two separate calls with the same arguments (replicate ``r``
    draws from the same stream whichever curves it reads), so the two bands are equal
    to theirs, value for value; the rows are sorted and drawn once instead of twice.
    """
    grids = kernels.Grids(_grid(roc_grid, "roc"), _grid(recall_grid, "precision_recall"))
    n_resamples, confidence_level, seed = _resolve(
        n_resamples, confidence_level, kind, resampling, rng
    )
    positive, scores = _both_classes(y_true, y_score, pos_label)
    estimates, replicates = _drawn(positive, scores, grids, n_resamples, seed, resampling)
    return (
        band_of_defined_replicates("roc", grids.roc, estimates[0], replicates[0],
                                   confidence_level, kind, seed, resampling),
        band_of_defined_replicates("precision_recall", grids.precision_recall, estimates[1],
                                   replicates[1], confidence_level, kind, seed, resampling),
    )  # fmt: skip


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
    resampling : {{'multinomial', 'poisson'}}, default='multinomial'
        ``'multinomial'``: each replicate draws the rows of each class with replacement
        (the class sizes stay fixed).  ``'poisson'``: every row is counted Poisson(1)
        times independently, the counts keyed as :func:`assay.bootstrap` keys them with
        ``resampling='poisson'`` (the same replicates whatever the order of the rows);
        a replicate that draws no positive or no negative row is left out (see Notes).
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
    resampling: str = "multinomial",
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

    Warns
    -----
    UndefinedMetricWarning
        With ``resampling='poisson'``, when some replicates drew no positive or no
        negative row: they have no curve, are left out of the band and counted in
        ``n_undefined`` (all of them: the band is NaN).

    Notes
    -----
    The curve is vertically averaged as pROC's ``ci.se`` does (Robin et al. 2011;
    Fawcett 2006, section 8): each replicate's true positive rate is read at the same
    false positive rates.  Between two vertices of the empirical curve the TPR is
    interpolated on the tie group's segment; at a vertical segment it is its top.  The
    replicates resample rows within each class (the class sizes stay fixed, pROC's
    default ``stratified=TRUE``).

    With ``resampling='poisson'`` a replicate weights each row by an independent
    Poisson(1) count (Hanley and MacGibbon 2006): a tie cell of
    ``m`` rows with one score and one class draws one Poisson(``m``) count from a
    random stream keyed by the seed, the replicate, the score's bits and the class, so
    replicate ``r`` is replicate ``r`` of :func:`assay.bootstrap` with
    ``resampling='poisson'`` and the same seed, in any row order.  The class sizes then
    vary; a replicate that draws no positive row has no true positive rate and one
    that draws no negative row no false positive rate: such a replicate has neither
    curve (NaN), is left out of the band with an ``UndefinedMetricWarning`` and is
    counted in ``n_undefined``, as :func:`assay.bootstrap` leaves out an undefined
    replicate (its probability is :math:`e^{-n_+} + e^{-n_-}` at most, negligible
    beyond a few dozen rows of each class).

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
    J. A. Hanley and B. MacGibbon, "Creating non-parametric bootstrap samples using
    Poisson frequencies", Computer Methods and Programs in Biomedicine 83 (2006).

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
    >>> poisson = assay.roc_band(y_true, y_score, grid=[0.1, 0.5], n_resamples=500,
    ...                          resampling="poisson", rng=1)
    >>> poisson.resampling, poisson.n_undefined, bool(np.all(poisson.estimate == tpr))
    ('poisson', 0, True)
    """
    return _band("roc", y_true, y_score, grid, pos_label, n_resamples, confidence_level,
                 kind, resampling, rng)  # fmt: skip


def precision_recall_band(
    y_true: Any,
    y_score: Any,
    *,
    grid: Any = None,
    pos_label: Any = None,
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    kind: str = "pointwise",
    resampling: str = "multinomial",
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

    Warns
    -----
    UndefinedMetricWarning
        With ``resampling='poisson'``, when some replicates drew no positive or no
        negative row: they have no curve, are left out of the band and counted in
        ``n_undefined`` (all of them: the band is NaN).

    Notes
    -----
    Precision is read at the same recalls in every replicate.  Between two vertices of
    the empirical curve the true and false positives grow linearly along the tie
    group (the interpolation of Davis and Goadrich 2006), and precision is their ratio;
    the first point reaching a recall is taken.  Replicates and bands as in
    :func:`roc_band` (stratified rows or Poisson counts; percentile or sup-t band).  A
    Poisson replicate without negative rows has a precision-recall curve (precision 1)
    but no ROC curve; it is left out of both bands all the same, so that the two bands
    of the same call always rest on the same replicates.

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
                 confidence_level, kind, resampling, rng)  # fmt: skip


roc_band.__doc__ = (roc_band.__doc__ or "").replace(
    "{parameters}",
    _DOC_PARAMETERS.format(grid_rule="within [0, 1]", grid_default="101 points from 0 to 1"),
)
precision_recall_band.__doc__ = (precision_recall_band.__doc__ or "").replace(
    "{parameters}",
    _DOC_PARAMETERS.format(grid_rule="within (0, 1]", grid_default="0.01, 0.02, ..., 1"),
)

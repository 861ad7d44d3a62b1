"""Choosing a decision threshold: the posterior-FDR threshold and the optimal threshold.

- :func:`posterior_fdr_threshold`: the smallest threshold on posterior probabilities
  whose discoveries have a posterior expected false discovery rate of at most ``alpha``
  (the "direct posterior probability approach"); one sort and one cumulative sum.
- :func:`optimal_threshold`: the score threshold that maximises a confusion-matrix
  metric (or minimises an expected cost), exactly, over every threshold of the cutoff
  table, with percentile bootstrap intervals of the threshold and of the metric.
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np

from assay._procedure_checks import check_confidence_level, check_integer
from assay._results import ConfidenceInterval, PosteriorFdrResult, ThresholdResult
from assay._validation import (
    as_probabilities,
    as_sample_weight,
    as_scores,
    binary_target,
    check_same_length,
    resolve_seed,
)
from assay.exceptions import UndefinedMetricWarning
from assay.metrics._curves import _counts
from assay.metrics._registry import METRICS, MetricDeclaration, resolve_metric_call
from assay.metrics._sorted import sort_scores, warn_undefined

__all__ = ["optimal_threshold", "posterior_fdr_threshold"]

# The two classes of a binary confusion matrix, negative then positive: the labels the
# metric's options are resolved with (``pos_index`` = 1, a 2 x 2 cost matrix).
_TWO_CLASSES = np.array([0, 1])
# Options of the metric that optimal_threshold sets itself.
_OWN_OPTIONS = ("labels",)
# Bootstrap replicates are evaluated in blocks of about this many confusion matrices.
_BLOCK_MATRICES = 1 << 20


# --- posterior_fdr_threshold --------------------------------------------------------------


def _check_alpha(alpha: Any) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real):
        raise ValueError(f"`alpha` must be a number in [0, 1]; got {alpha!r}.")
    value = float(alpha)
    if not 0.0 <= value <= 1.0:  # NaN fails too
        raise ValueError(f"`alpha` must be in [0, 1]; got {alpha!r}.")
    return value


def posterior_fdr_threshold(proba: Any, alpha: Any) -> PosteriorFdrResult:
    """The smallest threshold whose discoveries have posterior expected FDR at most ``alpha``.

    Parameters
    ----------
    proba : array-like of shape (n_items,)
        Posterior probabilities ``p_i = p(y_i = 1 | D)`` that item ``i`` is a real
        finding, in [0, 1].
    alpha : float
        Tolerance on the posterior expected false discovery rate, in [0, 1].

    Returns
    -------
    PosteriorFdrResult
        ``threshold`` (tau), ``n_discoveries``, ``expected_false_discoveries``, ``fdr``
        and the whole curve (``thresholds``, ``n_discoveries_curve``,
        ``expected_false_discoveries_curve``, ``fdr_curve``).

    Raises
    ------
    ValueError
        ``proba`` empty, not 1-D, not numeric, non-finite or outside [0, 1];
        ``alpha`` not a number in [0, 1].

    Notes
    -----
    The discoveries at a threshold ``tau`` are the items with ``p_i > tau``
    (strictly).  Their posterior expected number of false discoveries and rate are

    ``FD(tau) = sum_i (1 - p_i) I(p_i > tau)``,  ``N(tau) = sum_i I(p_i > tau)``,
    ``FDR(tau) = FD(tau) / N(tau)``

    ("Estimation of the hypothesis real risk", "False discovery rates"; Newton et al.
    2004; Muller et al. 2004), with ``FDR = 0`` when nothing is discovered.  Going
    down the probabilities in decreasing order, each new discovery has a larger
    ``1 - p_i`` than every earlier one, so ``FDR`` never decreases as ``tau``
    decreases: the discoveries are the longest run of top items, whole tie groups
    only, whose mean ``1 - p_i`` is at most ``alpha``.

    Ties: items with equal probabilities are discovered together or not at all (a
    threshold cannot separate them).  The reported ``tau`` is the smallest threshold
    giving those discoveries: the largest probability that is not discovered (so the
    items equal to ``tau`` are not discoveries), or ``-inf`` when every item is.
    Every ``tau'`` in ``[tau, next larger probability)`` gives the same discoveries.

    Computed by one sort and one cumulative sum, in float64: an ``FDR`` within a few
    units in the last place of ``alpha`` may fall on either side of it.

    References
    ----------
    M. A. Newton, A. Noueiry, D. Sarkar and P. Ahlquist, "Detecting differential gene
    expression with a semiparametric hierarchical mixture method", Biostatistics 5
    (2004).  P. Muller, G. Parmigiani, C. Robert and J. Rousseau, "Optimal sample size
    for multiple testing: the case of gene expression microarrays", JASA 99 (2004).

    Examples
    --------
    Six items; the top three have ``FD = 0.05 + 0.1 + 0.15 = 0.3`` and ``FDR = 0.1``,
    the top four ``FD = 0.7`` and ``FDR = 0.175``:

    >>> import assay
    >>> result = assay.posterior_fdr_threshold([0.95, 0.2, 0.9, 0.6, 0.85, 0.4], 0.12)
    >>> result.threshold, result.n_discoveries
    (0.6, 3)
    >>> round(result.expected_false_discoveries, 10), round(result.fdr, 10)
    (0.3, 0.1)
    """
    probabilities = as_probabilities(proba, "proba")
    alpha = _check_alpha(alpha)
    # decreasing and contiguous (ops on a reversed view are slow), sorted in place
    ordered = np.negative(probabilities)
    ordered.sort()
    np.negative(ordered, out=ordered)
    n = ordered.shape[0]
    # the last position of each tie group, in decreasing order of probability
    group_ends = np.append(np.flatnonzero(ordered[1:] != ordered[:-1]), n - 1)
    false_discoveries = np.subtract(1.0, ordered)
    np.cumsum(false_discoveries, out=false_discoveries)
    thresholds = np.append(ordered[group_ends], -np.inf)
    del ordered
    n_discoveries = np.concatenate(([0], group_ends + 1))
    expected_false = np.concatenate(([0.0], false_discoveries[group_ends]))
    del false_discoveries, group_ends
    fdr = expected_false / np.maximum(n_discoveries, 1)
    chosen = int(np.flatnonzero(fdr <= alpha)[-1])  # entry 0 (no discovery) has FDR 0
    return PosteriorFdrResult(
        threshold=thresholds[chosen],
        alpha=alpha,
        n_discoveries=n_discoveries[chosen],
        expected_false_discoveries=expected_false[chosen],
        fdr=fdr[chosen],
        thresholds=thresholds,
        n_discoveries_curve=n_discoveries,
        expected_false_discoveries_curve=expected_false,
        fdr_curve=fdr,
        n=n,
    )


# --- optimal_threshold --------------------------------------------------------------------


def _threshold_metric(
    metric: Any, cost_matrix: Any, metric_kwargs: dict[str, Any]
) -> tuple[MetricDeclaration, dict[str, Any]]:
    """The registry entry to optimise and the options of its function of the matrix."""
    if (metric is None) == (cost_matrix is None):
        raise ValueError(
            "give exactly one of `metric` (a confusion-matrix metric to maximise) and "
            "`cost_matrix` (an expected cost to minimise)."
        )
    arguments: tuple[Any, ...] = ()
    if cost_matrix is not None:
        declaration = METRICS["expected_cost"]
        arguments = (cost_matrix,)
    else:
        found, _, name, metric_kwargs = resolve_metric_call(metric, metric_kwargs)
        if found is None or found.computed_from != "confusion" or found.name == "expected_cost":
            raise ValueError(
                "`metric` must be a confusion-matrix metric of assay (f1_score, "
                "matthews_corrcoef, balanced_accuracy_score, ...) or its name; for a cost "
                f"pass `cost_matrix`; got {name!r}."
            )
        declaration = found
    own = sorted(set(metric_kwargs) & set(_OWN_OPTIONS))
    if own:
        raise ValueError(
            f"`{own[0]}` cannot be passed to the metric: the classes are the negative and "
            "the positive class of `y_true` (see `pos_label`)."
        )
    if "zero_division" in declaration.confusion_options:
        # an undefined value is skipped by the search, not counted as 0
        metric_kwargs = {"zero_division": np.nan, **metric_kwargs}
    _, options = declaration.resolve_arguments(
        _TWO_CLASSES, _TWO_CLASSES, *arguments, **metric_kwargs
    )
    return declaration, options


def _metric_values(
    declaration: MetricDeclaration, matrices: np.ndarray, options: dict[str, Any]
) -> np.ndarray:
    """The metric of each 2 x 2 matrix of ``matrices`` (shape (..., 2, 2)); NaN where
    it is undefined (the search skips those thresholds)."""
    function_of_the_matrix = declaration.from_confusion
    assert function_of_the_matrix is not None  # a confusion-matrix metric
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        values = np.asarray(function_of_the_matrix(matrices, **options), dtype=np.float64)
    if values.shape != matrices.shape[:-2]:
        raise ValueError(
            "the metric must give one number per threshold; with these options it gives "
            f"an array of shape {values.shape[len(matrices.shape) - 2 :]} (e.g. "
            "average=None gives one value per class)."
        )
    return values


def _matrices(positives: np.ndarray, negatives: np.ndarray) -> np.ndarray:
    """2 x 2 matrices ``[[TN, FP], [FN, TP]]`` from the weights of each tie group
    (shape (..., m), decreasing scores): one matrix per candidate, ``inf`` first."""
    shape = positives.shape[:-1]
    zero = np.zeros((*shape, 1))
    tps = np.concatenate((zero, np.cumsum(positives, axis=-1)), axis=-1)
    fps = np.concatenate((zero, np.cumsum(negatives, axis=-1)), axis=-1)
    matrices = np.empty((*tps.shape, 2, 2))
    matrices[..., 0, 1] = fps
    matrices[..., 0, 0] = fps[..., -1:] - fps
    matrices[..., 1, 1] = tps
    matrices[..., 1, 0] = tps[..., -1:] - tps
    return matrices


def _best(values: np.ndarray, greater_is_better: bool) -> np.ndarray:
    """Index of the best value along the last axis; the first (largest threshold) among
    equal best values; -1 where every value is NaN."""
    defined = ~np.isnan(values)
    filled = np.where(defined, values, -np.inf if greater_is_better else np.inf)
    best = filled.argmax(axis=-1) if greater_is_better else filled.argmin(axis=-1)
    return np.where(defined.any(axis=-1), best, -1)


def _percentile_interval(values: np.ndarray, confidence_level: float) -> ConfidenceInterval:
    """The order statistics at the two tails (no interpolation: thresholds are discrete
    and may be infinite); NaN without values."""
    if values.shape[0] == 0:
        return ConfidenceInterval(np.nan, np.nan)
    tail = (1.0 - confidence_level) / 2.0
    low = np.quantile(values, tail, method="lower")
    high = np.quantile(values, 1.0 - tail, method="higher")
    return ConfidenceInterval(float(low), float(high))


def optimal_threshold(
    y_true: Any,
    y_score: Any,
    *,
    metric: Any = None,
    cost_matrix: Any = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    rng: Any = None,
    **metric_kwargs: Any,
) -> ThresholdResult:
    """The score threshold that optimises a confusion-matrix metric, over every threshold.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary targets. Labels other than {0, 1}, {-1, 1} or booleans need
        ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores; higher means more positive.
    metric : callable or str, optional
        A confusion-matrix metric of assay to maximise (or minimise, when smaller is
        better, e.g. ``error_rate``): ``f1_score``, ``fbeta_score`` (with ``beta=``),
        ``matthews_corrcoef``, ``balanced_accuracy_score`` (``adjusted=True`` is
        Youden's J), ``accuracy_score``, ``cohen_kappa_score``, ... or its name.
    cost_matrix : array-like of shape (2, 2), optional
        Instead of ``metric``: minimise the mean cost, ``C[i, j]`` being the cost of
        predicting class ``j`` for an example of class ``i``; rows and columns are
        (negative, positive).  Give ``metric`` or ``cost_matrix``, not both.
    pos_label : int, float, bool or str, default=None
        The positive class; inferred as 1 (True) for {0, 1}, {-1, 1} and booleans.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; rows of zero weight are ignored (they create no
        threshold and are never drawn).
    n_resamples : int, default=1000
        Bootstrap replicates for the intervals; 0 for none.
    confidence_level : float, default=0.95
        Level of the two percentile intervals, in (0, 1).
    rng : None, int or numpy.random.Generator, default=None
        Source of the seed of the replicates (reported as ``rng_seed``).
    **metric_kwargs
        Options of the metric (``beta``, ``average``, ``zero_division``,
        ``adjusted``, ...; ``normalize`` for the cost).

    Returns
    -------
    ThresholdResult
        ``threshold`` and ``value``, every candidate and its value, and the percentile
        bootstrap intervals of the threshold and of the optimised value.

    Raises
    ------
    ValueError
        Neither or both of ``metric`` and ``cost_matrix``; a metric that is not a
        confusion-matrix metric, or options that make it give several numbers;
        ``labels`` among the options; bad labels, scores, weights, ``n_resamples``,
        ``confidence_level`` or ``rng``.

    Warns
    -----
    UndefinedMetricWarning
        The metric is undefined at every threshold (the threshold and value are NaN).

    Notes
    -----
    The rule at a threshold ``t`` is "predict positive when ``score >= t``".  The
    candidates are every distinct score (of a row of positive weight) and ``inf``
    (predict no positive): every partition of the rows that a threshold can make, so
    the optimum is exact.  The confusion matrices come from one sorted sweep, the
    cutoff table of :func:`assay.confusion_matrix_at_thresholds` (Honavar,
    "Evaluating model performance", cutoff tables), and the metric of each is computed
    by the same function of the matrix as the metric itself (so
    ``value == metric(y_true, y_score >= threshold)``).

    Undefined values are skipped: unless ``zero_division`` is given, a ratio of zero
    over zero (precision when nothing is predicted positive, MCC when one row or
    column of the matrix is empty) is NaN and its threshold is not a candidate.
    Ties between thresholds: among equal best values (equal as computed) the largest
    threshold wins, the rule that predicts the fewest positives.

    The value at a threshold chosen on the data is optimistic for new data from the
    same population: it is the maximum of many values, each noisy.  Choose the
    threshold on a validation set and estimate the metric at it on a test set.

    The intervals: in each bootstrap replicate (rows drawn with replacement; the
    replicate's counts of each tie group and class are one multinomial draw over
    those cells, O(number of distinct scores) a replicate; weighted rows are drawn as
    rows) the threshold is chosen again; the intervals are the lower and upper
    order statistics of the replicates' thresholds and best values at the tails
    ``(1 - confidence_level) / 2`` (no interpolation: ``inf`` may be one of them).
    They describe how much the choice varies from sample to sample; no coverage is
    claimed for them.

    Examples
    --------
    >>> import assay
    >>> y_true = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> y_score = [0.1, 0.3, 0.35, 0.4, 0.6, 0.7, 0.75, 0.9]
    >>> result = assay.optimal_threshold(y_true, y_score, metric="f1_score", rng=0)
    >>> result.threshold, round(result.value, 4)
    (0.35, 0.8)
    >>> assay.f1_score(y_true, [int(s >= 0.35) for s in y_score])
    0.8
    """
    declaration, options = _threshold_metric(metric, cost_matrix, metric_kwargs)
    positive, _ = binary_target(y_true, pos_label)
    scores = as_scores(y_score)
    n = check_same_length(y_true=positive, y_score=scores)
    weights = as_sample_weight(sample_weight, n)
    n_resamples = check_integer(n_resamples, "n_resamples", 0)
    confidence_level = check_confidence_level(confidence_level)
    seed = resolve_seed(rng) if n_resamples else None

    thresholds, tps, fps = _counts(sort_scores(positive, scores, weights))
    positive_cells = np.diff(tps, prepend=0.0)
    negative_cells = np.diff(fps, prepend=0.0)
    candidates = np.concatenate(([np.inf], thresholds))
    values = _metric_values(declaration, _matrices(positive_cells, negative_cells), options)
    greater = declaration.greater_is_better
    chosen = int(_best(values, greater))
    if chosen < 0:
        warn_undefined(
            f"{declaration.name} is undefined at every threshold (e.g. `y_true` has one "
            "class); the threshold and its value are NaN."
        )
        threshold, value = np.nan, np.nan
    else:
        threshold, value = candidates[chosen], values[chosen]

    replicate_thresholds = np.empty(0)
    replicate_values = np.empty(0)
    if n_resamples:
        generator = np.random.default_rng(seed)
        draw: _CellDraws | _RowDraws = (
            _CellDraws(positive_cells, negative_cells)
            if weights is None
            else _RowDraws(positive, scores, weights, thresholds)
        )
        replicate_thresholds, replicate_values = _replicates(
            draw, generator, n_resamples, candidates, declaration, options, greater
        )
    defined = ~np.isnan(replicate_values)
    return ThresholdResult(
        threshold=threshold,
        value=value,
        metric=declaration.name,
        greater_is_better=greater,
        thresholds=candidates,
        values=values,
        threshold_interval=_percentile_interval(replicate_thresholds[defined], confidence_level),
        value_interval=_percentile_interval(replicate_values[defined], confidence_level),
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        n_undefined=int(np.count_nonzero(~defined)),
        rng_seed=seed,
        bootstrap_thresholds=replicate_thresholds[defined],
        bootstrap_values=replicate_values[defined],
    )


class _CellDraws:
    """Replicates of unweighted rows: one multinomial draw over the (tie group, class)
    cells, whose counts are the sufficient statistic of every replicate."""

    def __init__(self, positive_cells: np.ndarray, negative_cells: np.ndarray) -> None:
        self.m = positive_cells.shape[0]
        cells = np.concatenate((positive_cells, negative_cells))
        self.n = round(float(cells.sum()))
        self.probabilities = cells / cells.sum()

    def __call__(self, generator: np.random.Generator, size: int) -> tuple[Any, Any]:
        counts = generator.multinomial(self.n, self.probabilities, size=size).astype(np.float64)
        return counts[:, : self.m], counts[:, self.m :]


class _RowDraws:
    """Replicates of weighted rows: each row of positive weight drawn with replacement,
    its weight in a replicate its count times its weight."""

    def __init__(
        self, positive: np.ndarray, scores: np.ndarray, weights: np.ndarray, thresholds: Any
    ) -> None:
        kept = weights > 0
        self.m = thresholds.shape[0]
        # the tie group of each row: thresholds decrease, searchsorted wants them increasing
        group = self.m - 1 - np.searchsorted(thresholds[::-1], scores[kept])
        self.cell = np.where(positive[kept], group, group + self.m)
        self.weights = weights[kept]
        self.n = self.weights.shape[0]

    def __call__(self, generator: np.random.Generator, size: int) -> tuple[Any, Any]:
        uniform = np.full(self.n, 1.0 / self.n)
        counts = generator.multinomial(self.n, uniform, size=size)
        cells = np.empty((size, 2 * self.m))
        for row in range(size):
            cells[row] = np.bincount(
                self.cell, weights=counts[row] * self.weights, minlength=2 * self.m
            )
        return cells[:, : self.m], cells[:, self.m :]


def _replicates(
    draw: Any,
    generator: np.random.Generator,
    n_resamples: int,
    candidates: np.ndarray,
    declaration: MetricDeclaration,
    options: dict[str, Any],
    greater_is_better: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """The chosen threshold and best value of each replicate (NaN: undefined)."""
    thresholds = np.full(n_resamples, np.nan)
    best_values = np.full(n_resamples, np.nan)
    block = max(1, _BLOCK_MATRICES // candidates.shape[0])
    for start in range(0, n_resamples, block):
        size = min(block, n_resamples - start)
        positive_cells, negative_cells = draw(generator, size)
        values = _metric_values(declaration, _matrices(positive_cells, negative_cells), options)
        best = _best(values, greater_is_better)
        found = best >= 0
        rows = np.arange(size)[found]
        thresholds[start : start + size][found] = candidates[best[found]]
        best_values[start : start + size][found] = values[rows, best[found]]
    return thresholds, best_values

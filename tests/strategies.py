"""Hypothesis strategies shared by the test suite.

They aim at the inputs that break evaluation code: heavy ties, constant scores, a
single class, zero and integer weights, tiny and moderately large n.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy.special import expit
from scipy.stats import rankdata

# Scores drawn from a handful of values produce heavy ties; the other branch gives
# (almost surely) distinct floats, including negative values and both signed zeros.
_TIED_VALUES = (-1.5, -0.0, 0.0, 0.25, 0.5, 0.75, 1.0, 3.0)


@st.composite
def scores(draw: st.DrawFn, n: int) -> np.ndarray:
    """A float64 score vector of length ``n``: tied, constant or continuous."""
    kind = draw(st.sampled_from(["tied", "constant", "continuous"]))
    if kind == "constant":
        return np.full(n, draw(st.sampled_from(_TIED_VALUES)))
    if kind == "tied":
        values = draw(hnp.arrays(np.float64, n, elements=st.sampled_from(_TIED_VALUES)))
        return np.asarray(values, dtype=np.float64)
    values = draw(
        hnp.arrays(
            np.float64,
            n,
            elements=st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False, width=64),
        )
    )
    return np.asarray(values, dtype=np.float64)


# Values far apart (both signs, extreme exponents): scores near them have order-preserving
# keys that differ in all 64 bits, while scores near one of them differ in the last bits.
_FAR_APART_VALUES = (-1e300, -2.0, -0.0, 1e-300, 0.5, 3.0)


@st.composite
def near_tied_scores(draw: st.DrawFn, n: int) -> np.ndarray:
    """Scores a few ulps above values far apart: ties, and distinct scores that agree in
    all but their last bits (a sort on the leading bits of the scores cannot tell them
    apart and must look at the full value)."""
    values = draw(hnp.arrays(np.float64, n, elements=st.sampled_from(_FAR_APART_VALUES)))
    steps = draw(hnp.arrays(np.int64, n, elements=st.integers(0, 3)))
    values = np.asarray(values, dtype=np.float64)
    for _ in range(3):
        values = np.where(steps > 0, np.nextafter(values, np.inf), values)
        steps = steps - 1
    return values


def _ulps_above(values: np.ndarray, steps: np.ndarray) -> np.ndarray:
    """``values`` moved up by ``steps`` (non-negative integers) representable floats
    (the largest float moves up to infinity, which is a valid score here)."""
    with np.errstate(over="ignore"):
        for _ in range(int(steps.max(initial=0))):
            values = np.where(steps > 0, np.nextafter(values, np.inf), values)
            steps = steps - 1
    return values


@st.composite
def clustered_scores(draw: st.DrawFn, max_n: int = 300) -> np.ndarray:
    """Float64 scores clustered near a few drawn values (any float but NaN: infinities,
    subnormals and both signed zeros included): exact ties, and distinct scores up to 40
    ulps apart, which share all their leading bits (a most-significant-digit sort puts a
    whole cluster into one bucket and must sort it on its last bits)."""
    centres = draw(st.lists(st.floats(allow_nan=False, width=64), min_size=1, max_size=6))
    n = draw(st.integers(0, max_n))
    which = draw(hnp.arrays(np.int64, n, elements=st.integers(0, len(centres) - 1)))
    steps = draw(hnp.arrays(np.int64, n, elements=st.integers(0, 40)))
    return _ulps_above(np.array(centres, dtype=np.float64)[which], steps)


@st.composite
def large_clustered_scores(draw: st.DrawFn, n: int) -> np.ndarray:
    """``n`` float64 scores as :func:`clustered_scores` (made by a generator whose seed is
    drawn: too many to draw one by one), mixed with a drawn share of continuous ones."""
    centres = draw(st.lists(st.floats(allow_nan=False, width=64), min_size=1, max_size=6))
    generator = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    values = _ulps_above(
        np.array(centres, dtype=np.float64)[generator.integers(0, len(centres), n)],
        generator.integers(0, 41, n),
    )
    continuous = generator.random(n) < draw(st.sampled_from([0.0, 0.5, 1.0]))
    values[continuous] = generator.standard_normal(int(continuous.sum()))
    return values


@st.composite
def sample_weights(draw: st.DrawFn, n: int) -> np.ndarray | None:
    """None, integer weights (zeros included) or positive float weights; never all zero."""
    kind = draw(st.sampled_from(["none", "integer", "float"]))
    if kind == "none":
        return None
    if kind == "integer":
        weights = np.asarray(
            draw(hnp.arrays(np.int64, n, elements=st.integers(0, 3))), dtype=np.float64
        )
    else:
        weights = np.asarray(
            draw(
                hnp.arrays(
                    np.float64,
                    n,
                    # subnormal weights lose precision in any float64 sum; excluded
                    elements=st.floats(
                        0.0, 10.0, allow_nan=False, allow_infinity=False, allow_subnormal=False
                    ),
                )
            ),
            dtype=np.float64,
        )
    if not np.any(weights > 0):
        weights[draw(st.integers(0, n - 1))] = 1.0
    return weights


@st.composite
def binary_ranking_data(
    draw: st.DrawFn, min_n: int = 1, max_n: int = 200, both_classes: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(y_true, y_score, sample_weight)`` with y_true in {0, 1}.

    With ``both_classes=True`` each class carries positive weight.
    """
    n = draw(st.integers(max(min_n, 2 if both_classes else 1), max_n))
    y_true = np.asarray(draw(hnp.arrays(np.int64, n, elements=st.integers(0, 1))))
    y_score = draw(scores(n))
    weight = draw(sample_weights(n))
    if both_classes:
        w = np.ones(n) if weight is None else weight
        for label in (0, 1):
            if not np.any((y_true == label) & (w > 0)):
                i = draw(st.integers(0, n - 1))
                y_true[i] = label
                if weight is not None:
                    weight[i] = max(weight[i], 1.0)
                w = np.ones(n) if weight is None else weight
        # both labels now present with positive weight unless one row had to serve both
        if not all(np.any((y_true == lab) & (w > 0)) for lab in (0, 1)):
            y_true[:] = np.arange(n) % 2
            if weight is not None:
                weight[:2] = np.maximum(weight[:2], 1.0)
    return y_true, y_score, weight


@st.composite
def paired_ranking_data(
    draw: st.DrawFn, min_n: int = 2, max_n: int = 40
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """``(y_true, scores_a, scores_b, sample_weight)``: two models' scores of the same rows.

    Both classes carry positive weight (as in :func:`binary_ranking_data`); the two
    models' scores are drawn independently (tied, constant or continuous), or model B
    copies model A on some rows, so that rows where the models agree occur too.
    """
    y_true, scores_a, weight = draw(binary_ranking_data(min_n, max_n, both_classes=True))
    scores_b = draw(scores(y_true.shape[0]))
    copied = np.asarray(draw(hnp.arrays(np.bool_, y_true.shape[0])))
    return y_true, scores_a, np.where(copied, scores_a, scores_b), weight


def population_fractions() -> st.SearchStrategy[float]:
    """A top share of the population for the lift, in (0, 1]: the round shares users
    pass (deciles, a half, a third, all) or any float, down to the tiny ones."""
    return st.sampled_from([0.1, 0.2, 0.25, 1 / 3, 0.5, 1.0]) | st.floats(
        0.0, 1.0, exclude_min=True, allow_subnormal=False
    )


# Strictly increasing maps of scores (on the values `scores` draws, unless float rounding
# merges or overflows some: a test checks that with `assume`). `rankdata` depends on the
# data but is strictly increasing on it.
INCREASING_TRANSFORMS = {
    "identity": lambda x: x,
    "affine": lambda x: 3.0 * x - 7.0,
    "cube": lambda x: x**3,
    "exp": lambda x: np.exp(x / 250.0),
    "steep logistic": lambda x: expit(8.0 * x),
    "arctan": np.arctan,
    "midranks": lambda x: rankdata(x),
}


@st.composite
def multiclass_labels(
    draw: st.DrawFn, min_n: int = 1, max_n: int = 200, min_classes: int = 2, max_classes: int = 6
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(y_true, y_pred, sample_weight)``: integer labels over 2 to 6 classes."""
    n = draw(st.integers(min_n, max_n))
    k = draw(st.integers(min_classes, max_classes))
    y_true = np.asarray(draw(hnp.arrays(np.int64, n, elements=st.integers(0, k - 1))))
    y_pred = np.asarray(draw(hnp.arrays(np.int64, n, elements=st.integers(0, k - 1))))
    return y_true, y_pred, draw(sample_weights(n))


@st.composite
def multiclass_ranking_data(
    draw: st.DrawFn, max_n: int = 40, min_classes: int = 3, max_classes: int = 4
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(y_true, y_score, sample_weight)`` for one-vs-rest / one-vs-one AUC.

    Every class appears in ``y_true`` with positive weight; each row of ``y_score``
    holds probabilities (small integers divided by their row sum, so ties are common).
    """
    k = draw(st.integers(min_classes, max_classes))
    n = draw(st.integers(k, max(k, max_n)))
    y_true = np.asarray(draw(hnp.arrays(np.int64, n, elements=st.integers(0, k - 1))))
    y_true[:k] = np.arange(k)
    counts = np.asarray(
        draw(hnp.arrays(np.int64, (n, k), elements=st.integers(0, 3))), dtype=np.float64
    )
    counts[counts.sum(axis=1) == 0, 0] = 1.0
    y_score = counts / counts.sum(axis=1, keepdims=True)
    weight = draw(sample_weights(n))
    if weight is not None:
        weight[:k] = np.maximum(weight[:k], 1.0)
    return y_true, y_score, weight


# --- Class labels for the confusion-matrix metrics. ---

# How codes 0..k-1 become labels: plain and shifted integers (a negative and a wide
# range), booleans, floats holding integers, and strings.
_LABEL_KINDS = ("int", "shifted", "wide", "bool", "float", "str")


def _label_table(kind: str, k: int) -> np.ndarray:
    codes = np.arange(k)
    if kind == "int":
        return codes
    if kind == "shifted":
        return codes - 2
    if kind == "wide":  # wider than the direct-count span: goes through a lookup table
        return codes * 1000 - 7
    if kind == "bool":
        return codes.astype(bool)
    if kind == "float":
        return codes.astype(np.float64) + 1.0
    return np.array([f"c{code}" for code in codes])


@st.composite
def exact_sample_weights(draw: st.DrawFn, n: int) -> np.ndarray | None:
    """None, integer weights in 0..3, or multiples of 1/8 in [0, 10]; never all zero.

    Every sum of these weights is exact in float64, so weighted cells are exact and two
    correct implementations agree to the last bit on them.
    """
    kind = draw(st.sampled_from(["none", "integer", "dyadic"]))
    if kind == "none":
        return None
    high = 3 if kind == "integer" else 80
    weights = np.asarray(
        draw(hnp.arrays(np.int64, n, elements=st.integers(0, high))), dtype=np.float64
    )
    if kind == "dyadic":
        weights /= 8.0
    if not np.any(weights > 0):
        weights[draw(st.integers(0, n - 1))] = 1.0
    return weights


@st.composite
def class_labels(
    draw: st.DrawFn,
    min_n: int = 1,
    max_n: int = 200,
    min_classes: int = 1,
    max_classes: int = 6,
    kinds: tuple[str, ...] = _LABEL_KINDS,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(y_true, y_pred, sample_weight)``: labels of one kind over 1 to 6 classes.

    Predictions copy the truth with some probability, so both perfect and hopeless
    classes occur; weights come from :func:`exact_sample_weights`.  Float predictions
    only take labels that occur in ``y_true`` (an integral float outside them is
    refused as a score); the other kinds may predict classes absent from ``y_true``.
    """
    kind = draw(st.sampled_from(kinds))
    k = draw(st.integers(min_classes, 2 if kind == "bool" else max_classes))
    n = draw(st.integers(min_n, max_n))
    true_codes = np.asarray(draw(hnp.arrays(np.int64, n, elements=st.integers(0, k - 1))))
    pred_codes = np.asarray(draw(hnp.arrays(np.int64, n, elements=st.integers(0, k - 1))))
    copied = np.asarray(draw(hnp.arrays(np.bool_, n)))
    pred_codes = np.where(copied, true_codes, pred_codes)
    if kind == "float":  # float predictions must be labels of y_true (else they are scores)
        pred_codes = np.where(np.isin(pred_codes, true_codes), pred_codes, true_codes)
    table = _label_table(kind, k)
    return table[true_codes], table[pred_codes], draw(exact_sample_weights(n))


# --- Options that change what a registry metric computes. ---


@st.composite
def metric_options(draw: st.DrawFn, name: str, binary: bool) -> dict:
    """Keyword options of registry metric ``name`` that move its value or its range:
    one of its declared variants, with ``average``, ``zero_division`` and ``beta`` drawn
    for the metrics that take them.

    ``binary``: the labels are {0, 1}, so ``average='binary'`` is allowed.
    """
    from assay.metrics._registry import METRICS  # the strategies stay importable alone

    declaration = METRICS[name]
    options = dict(draw(st.sampled_from(declaration.variants)))
    if name == "lift_score":  # any top share, not only the declared ones
        options["fraction"] = draw(population_fractions())
    if "average" in declaration.confusion_options:
        averages = [a for a in declaration.averages if binary or a != "binary"]
        options["average"] = draw(st.sampled_from(averages))
    if "zero_division" in declaration.confusion_options:
        options["zero_division"] = draw(st.sampled_from([0.0, 1.0, np.nan]))
    if "beta" in declaration.confusion_options:
        options["beta"] = draw(st.sampled_from([0.5, 1.0, 2.0]))
    return options


# --- Bootstrap replicates and paired models (p-values that invert intervals). ---

# Replicate values of a difference on a grid that holds 0 exactly: ties, and crossings of
# 0 at a replicate, where the type-7 quantile is exact and the p-value lands on the grid
# of levels j / (B - 1).
_DIFFERENCE_GRID = (-0.5, -0.125, -0.0625, 0.0, 0.03125, 0.0625, 0.125, 0.25, 1.0)


@st.composite
def bootstrap_replicates(draw: st.DrawFn, max_size: int = 250) -> np.ndarray:
    """Finite replicates of a difference: on a grid holding 0, continuous, continuous with
    one replicate exactly 0, or all on one side of 0.

    The sizes include B = 21, 41, 101 and 201, for which the usual tail levels
    (0.025, 0.05, ...) fall on the grid of levels j / (B - 1).
    """
    size = draw(st.sampled_from([1, 2, 21, 41, 101, 201]) | st.integers(1, max_size))
    kind = draw(st.sampled_from(["grid", "continuous", "zero replicate", "one side"]))
    if kind == "grid":
        elements = st.sampled_from(_DIFFERENCE_GRID)
    else:
        elements = st.floats(-1.0, 1.0, allow_nan=False, allow_subnormal=False)
    values = np.asarray(draw(hnp.arrays(np.float64, size, elements=elements)), dtype=np.float64)
    if kind == "zero replicate":
        values = values - values[draw(st.integers(0, size - 1))]
    elif kind == "one side":
        values = np.abs(values) + 1e-3
    return values


@st.composite
def jackknife_values(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    """``(values, counts)`` of a jackknife: 2 to 30 values, skewed or not, counts 1 to 5."""
    size = draw(st.integers(2, 30))
    values = np.asarray(
        draw(hnp.arrays(np.float64, size, elements=st.floats(-1.0, 1.0, allow_subnormal=False))),
        dtype=np.float64,
    )
    counts = np.asarray(draw(hnp.arrays(np.int64, size, elements=st.integers(1, 5))))
    return values, counts.astype(np.float64)


@st.composite
def paired_labels(draw: st.DrawFn, max_n: int = 80) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(y_true, pred_a, pred_b)``: two classifiers' integer labels on the same rows."""
    y_true, pred_a, _ = draw(class_labels(min_n=4, max_n=max_n, min_classes=2, kinds=("int",)))
    k = int(max(y_true.max(), pred_a.max())) + 1
    other = np.asarray(draw(hnp.arrays(np.int64, y_true.shape[0], elements=st.integers(0, k - 1))))
    copied = np.asarray(draw(hnp.arrays(np.bool_, y_true.shape[0])))
    return y_true, pred_a, np.where(copied, y_true, other)


@st.composite
def tiny_weighted_pairs(
    draw: st.DrawFn,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(y_true, pred_a, pred_b, sample_weight)``: binary labels on 1 to 6 rows with
    integer weights 0..2, at least one zero and one positive: a bootstrap replicate of
    them often draws no weight at all."""
    n = draw(st.integers(1, 6))
    labels = [np.asarray(draw(hnp.arrays(np.int64, n, elements=st.integers(0, 1))))
              for _ in range(3)]  # fmt: skip
    weight = np.asarray(draw(hnp.arrays(np.int64, n, elements=st.integers(0, 2))), np.float64)
    weight[draw(st.integers(0, n - 1))] = 0.0
    weight[draw(st.integers(0, n - 1))] = draw(st.sampled_from([1.0, 2.0]))
    return labels[0], labels[1], labels[2], weight


@st.composite
def split_into_pieces(draw: st.DrawFn, n: int, max_pieces: int = 5) -> np.ndarray:
    """Cut positions ``0 = c_0 < c_1 < ... = n`` splitting ``n`` ordered items into 1 to
    ``max_pieces`` consecutive non-empty pieces (as data split over machines)."""
    inner = draw(st.sets(st.integers(1, max(1, n - 1)), max_size=max_pieces - 1))
    return np.array(sorted({0, n} | {cut for cut in inner if 0 < cut < n}), dtype=np.int64)


@st.composite
def curve_grid(draw: st.DrawFn, recall: bool) -> np.ndarray:
    """A strictly increasing grid of a curve's horizontal axis: false positive rates in
    [0, 1], or recalls in (0, 1] (``recall``).  Small fractions ``a / b`` fall on the
    vertices of the curves of small data (where a reading must take the segment's top,
    or the first point reaching the recall); the other values are any floats."""
    on_vertices = st.tuples(st.integers(0, 12), st.integers(1, 12)).map(
        lambda pair: min(pair[0], pair[1]) / pair[1]
    )
    anywhere = st.floats(0.0, 1.0, allow_subnormal=False)
    values = draw(st.lists(on_vertices | anywhere, min_size=1, max_size=12))
    grid = np.unique(np.array(values, dtype=np.float64))
    if recall:
        grid = grid[grid > 0.0]
    return grid if grid.size else np.array([1.0])


@st.composite
def curve_band_data(draw: st.DrawFn, max_n: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """``(y_true, y_score)`` with both classes and no weights, down to two rows; scores
    tied, constant or continuous (as :func:`scores`)."""
    y_true, y_score, _ = draw(binary_ranking_data(min_n=2, max_n=max_n, both_classes=True))
    return y_true, y_score


@st.composite
def three_way_split(draw: st.DrawFn) -> tuple[np.ndarray, int, int]:
    """``(labels, n_test, n_validation)`` for a stratified three-way holdout: 3 to 60
    integer labels of 1 to 4 classes (rare classes included) and test and validation
    counts that leave at least one training row."""
    n = draw(st.integers(3, 60))
    n_classes = draw(st.integers(1, 4))
    labels = np.array(
        draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n)), dtype=np.int64
    )
    n_test = draw(st.integers(1, n - 2))
    n_validation = draw(st.integers(1, n - 1 - n_test))
    return labels, n_test, n_validation


# --- Probabilistic forecasts (log loss, Brier score, calibration). ---

# Forecasts on the edges of uniform bins (k / 10 as numpy.linspace makes them, and the
# nearest decimals, which lie on either side), 0 and 1, and a few other values.
_FORECAST_VALUES = (0.0, 0.1, 0.2, 0.3, 0.30000000000000004, 0.5, 0.6, 0.7, 0.75, 0.9, 1.0)


@st.composite
def binary_forecasts(
    draw: st.DrawFn, min_n: int = 1, max_n: int = 60
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(y_true, y_prob, sample_weight)``: labels in {0, 1} (one class possible) and
    forecasts that are tied on bin edges, constant, or continuous; exact weights (zeros
    included)."""
    n = draw(st.integers(min_n, max_n))
    y_true = np.asarray(draw(hnp.arrays(np.int64, n, elements=st.integers(0, 1))))
    kind = draw(st.sampled_from(["edges", "constant", "continuous"]))
    if kind == "constant":
        y_prob = np.full(n, draw(st.sampled_from(_FORECAST_VALUES)))
    elif kind == "edges":
        y_prob = draw(hnp.arrays(np.float64, n, elements=st.sampled_from(_FORECAST_VALUES)))
    else:
        y_prob = draw(hnp.arrays(np.float64, n, elements=st.floats(0.0, 1.0, width=64)))
    return y_true, np.asarray(y_prob, dtype=np.float64), draw(exact_sample_weights(n))


@st.composite
def class_probabilities(
    draw: st.DrawFn, max_n: int = 40, max_classes: int = 4
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(y_true, y_proba, sample_weight)``: labels over 2 to ``max_classes`` classes (not
    all of them need occur) and rows of probabilities with ties, zeros and ones."""
    k = draw(st.integers(2, max_classes))
    n = draw(st.integers(1, max_n))
    y_true = np.asarray(draw(hnp.arrays(np.int64, n, elements=st.integers(0, k - 1))))
    counts = np.asarray(
        draw(hnp.arrays(np.int64, (n, k), elements=st.integers(0, 3))), dtype=np.float64
    )
    counts[counts.sum(axis=1) == 0, 0] = 1.0
    return y_true, counts / counts.sum(axis=1, keepdims=True), draw(exact_sample_weights(n))


@st.composite
def multilabel_indicators(
    draw: st.DrawFn, max_n: int = 25, max_labels: int = 5
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(y_true, y_pred, sample_weight)``: two (n, L) 0/1 indicators and exact weights.

    Biased towards the edge cases of multilabel metrics: one row, empty rows (no label
    true or predicted), empty and all-ones columns, identical predictions (ties between
    the two sides), zero weights.
    """
    n = draw(st.integers(1, max_n))
    n_labels = draw(st.integers(2, max_labels))
    density = draw(st.sampled_from([0.0, 0.2, 0.5, 0.8, 1.0]))
    cells = st.floats(0, 1).map(lambda u: int(u < density)) | st.integers(0, 1)
    y_true = draw(hnp.arrays(np.int64, (n, n_labels), elements=cells))
    shape = draw(st.sampled_from(["free", "same", "empty rows", "empty column"]))
    y_pred = (
        y_true.copy()
        if shape == "same"
        else draw(hnp.arrays(np.int64, (n, n_labels), elements=cells))
    )
    if shape == "empty rows":
        rows = draw(hnp.arrays(np.bool_, n))
        y_true[rows] = 0
        y_pred[rows] = 0
    elif shape == "empty column":
        column = draw(st.integers(0, n_labels - 1))
        y_true[:, column] = 0
        y_pred[:, column] = 0
    return y_true, y_pred, draw(exact_sample_weights(n))


# --- Multilabel ranking: an indicator and one score per label. ---


@st.composite
def multilabel_ranking_data(
    draw: st.DrawFn, max_n: int = 12, max_labels: int = 5, min_labels: int = 1
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(y_true, y_score, sample_weight)``: a 0/1 indicator of shape (n, labels) whose rows
    may have no relevant label, all of them, or some; scores tied within rows (few values,
    both signed zeros) or distinct; one row possible; exact weights (zeros included)."""
    n = draw(st.integers(1, max_n))
    n_labels = draw(st.integers(min_labels, max_labels))
    kind = draw(st.sampled_from(["mixed", "empty rows", "full rows"]))
    y_true = np.asarray(draw(hnp.arrays(np.int64, (n, n_labels), elements=st.integers(0, 1))))
    special = np.asarray(draw(hnp.arrays(np.bool_, n, elements=st.booleans())))
    if kind == "empty rows":
        y_true[special] = 0
    elif kind == "full rows":
        y_true[special] = 1
    values = _TIED_VALUES if draw(st.booleans()) else (0.0, 1.0)
    if draw(st.booleans()):
        y_score = draw(hnp.arrays(np.float64, (n, n_labels), elements=st.sampled_from(values)))
    else:
        y_score = draw(
            hnp.arrays(
                np.float64,
                (n, n_labels),
                elements=st.floats(-10, 10, allow_nan=False, width=64),
            )
        )
    return y_true, np.asarray(y_score, dtype=np.float64), draw(exact_sample_weights(n))

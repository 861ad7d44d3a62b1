"""Confusion-matrix metrics: scikit-learn agreement, invariances, warnings, errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import sklearn.exceptions as skex
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st

import assay
from assay.exceptions import UndefinedMetricWarning
from assay.metrics._registry import METRICS
from tests.metrics.test_confusion import labels_subset, quiet
from tests.strategies import class_labels

# Weights come from `exact_sample_weights`, so every cell is an exact sum; what remains
# is the rounding of one division per class and of an average over at most seven
# classes, summed in a different order by scikit-learn.
SKLEARN_RTOL = 1e-12
# Values computed as ``1 - ratio`` (kappa, error rate, adjusted scores) that are exactly
# 0 can come out as a rounding of 1.0, +-2.2e-16, in either implementation.
SKLEARN_ATOL = 1e-15

ZERO_DIVISIONS = ["warn", 0.0, 1.0, np.nan]
AVERAGES = [None, "micro", "macro", "weighted"]


def record(function, *args, **kwargs):
    """(value, whether an UndefinedMetricWarning of assay or scikit-learn was raised)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = function(*args, **kwargs)
    kinds = (UndefinedMetricWarning, skex.UndefinedMetricWarning)
    return value, any(issubclass(w.category, kinds) for w in caught)


def assert_close(ours, theirs):
    np.testing.assert_allclose(ours, theirs, rtol=SKLEARN_RTOL, atol=SKLEARN_ATOL, equal_nan=True)


@st.composite
def averaged_case(draw, max_classes=6):
    """Data plus the keyword arguments of an averaged metric (binary cases included)."""
    average = draw(st.sampled_from([*AVERAGES, "binary"]))
    if average == "binary":
        y_true, y_pred, weight = draw(class_labels(max_classes=2))
        present = list(np.unique(np.concatenate([y_true, y_pred])))
        if len(present) == 1 and present[0] != 1 and y_true.dtype.kind in "iu":
            present.append(1)  # an absent pos_label is allowed with a single label
        kwargs = {"pos_label": draw(st.sampled_from(present))}
    else:
        y_true, y_pred, weight = draw(class_labels(max_classes=max_classes))
        kwargs = {}
        if draw(st.booleans()):
            kwargs["labels"] = draw(labels_subset(y_true, y_pred))
    kwargs.update(average=average, zero_division=draw(st.sampled_from(ZERO_DIVISIONS)))
    return y_true, y_pred, weight, kwargs


# --------------------------------------------------------------------------------------
# Agreement with scikit-learn


@pytest.mark.parametrize("name", ["precision_score", "recall_score", "f1_score"])
@given(case=averaged_case())
def test_averaged_metrics_match_sklearn(name, case):
    y_true, y_pred, weight, kwargs = case
    ours, ours_warned = record(
        getattr(assay, name), y_true, y_pred, sample_weight=weight, **kwargs
    )
    theirs, theirs_warned = record(
        getattr(skm, name), y_true, y_pred, sample_weight=weight, **kwargs
    )
    assert_close(ours, theirs)
    assert ours_warned == theirs_warned


@given(case=averaged_case(), beta=st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.5, np.inf]))
def test_fbeta_matches_sklearn(case, beta):
    y_true, y_pred, weight, kwargs = case
    ours, ours_warned = record(
        assay.fbeta_score, y_true, y_pred, beta=beta, sample_weight=weight, **kwargs
    )
    theirs, theirs_warned = record(
        skm.fbeta_score, y_true, y_pred, beta=beta, sample_weight=weight, **kwargs
    )
    assert_close(ours, theirs)
    if 0 < beta < np.inf:  # scikit-learn does not warn when F-beta is P or R
        assert ours_warned == theirs_warned


@given(data=class_labels(), normalize=st.booleans())
def test_accuracy_and_error_rate_match_sklearn(data, normalize):
    y_true, y_pred, weight = data
    kwargs = {"normalize": normalize, "sample_weight": weight}
    accuracy = assay.accuracy_score(y_true, y_pred, **kwargs)
    error = assay.error_rate(y_true, y_pred, **kwargs)
    assert isinstance(accuracy, float) and isinstance(error, float)
    assert_close(accuracy, skm.accuracy_score(y_true, y_pred, **kwargs))
    assert_close(error, skm.zero_one_loss(y_true, y_pred, **kwargs))


@given(data=class_labels(), adjusted=st.booleans())
def test_balanced_accuracy_matches_sklearn(data, adjusted):
    y_true, y_pred, weight = data
    ours, ours_warned = record(
        assay.balanced_accuracy_score, y_true, y_pred, sample_weight=weight, adjusted=adjusted
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        theirs = skm.balanced_accuracy_score(
            y_true, y_pred, sample_weight=weight, adjusted=adjusted
        )
    w = np.ones(y_true.shape[0]) if weight is None else weight
    single_class = np.unique(y_true[w > 0]).shape[0] == 1
    if adjusted and single_class:  # scikit-learn: -inf or NaN with a RuntimeWarning
        assert np.isnan(ours) and ours_warned
        return
    assert_close(ours, theirs)
    assert ours_warned == any("not in y_true" in str(w.message) for w in caught)


@given(
    data=st.data(),
    weights=st.sampled_from([None, "linear", "quadratic"]),
    replace=st.sampled_from([np.nan, 0.0, -1.0, 0.5]),
)
def test_cohen_kappa_matches_sklearn(data, weights, replace):
    y1, y2, weight = data.draw(class_labels())
    kwargs = {"weights": weights, "sample_weight": weight, "replace_undefined_by": replace}
    if data.draw(st.booleans()):
        kwargs["labels"] = labels = data.draw(labels_subset(y1, y2))
        if not np.isin(labels, y1).any():
            with pytest.raises(ValueError, match="occurs in `y1`"):
                assay.cohen_kappa_score(y1, y2, **kwargs)
            return
    ours, ours_warned = record(assay.cohen_kappa_score, y1, y2, **kwargs)
    theirs, theirs_warned = record(skm.cohen_kappa_score, y1, y2, **kwargs)
    assert_close(ours, theirs)
    assert ours_warned == theirs_warned


@given(data=class_labels())
def test_matthews_multiclass_matches_sklearn(data):
    y_true, y_pred, weight = data
    ours, ours_warned = record(assay.matthews_corrcoef, y_true, y_pred, sample_weight=weight)
    theirs = quiet(skm.matthews_corrcoef, y_true, y_pred, sample_weight=weight)
    np.testing.assert_allclose(ours, theirs, rtol=1e-11, atol=1e-15)
    # a zero denominator (all weight on one true or one predicted class) gives 0.0,
    # silently in scikit-learn, with a warning here
    w = np.ones(y_true.shape[0]) if weight is None else weight
    degenerate = min(len(np.unique(y[w > 0])) for y in (y_true, y_pred)) == 1
    assert ours_warned == degenerate


@given(data=st.data())
def test_matthews_multiclass_on_labels_is_the_block(data):
    """With ``labels``, R_K is that of the rows whose both labels are listed."""
    y_true, y_pred, weight = data.draw(class_labels())
    labels = data.draw(labels_subset(y_true, y_pred))
    ours = quiet(assay.matthews_corrcoef, y_true, y_pred, labels=labels, sample_weight=weight)
    kept = np.isin(y_true, labels) & np.isin(y_pred, labels)
    if weight is not None:
        kept &= weight > 0
    if not kept.any():
        assert ours == 0.0
        return
    kept_weight = None if weight is None else weight[kept]
    theirs = quiet(skm.matthews_corrcoef, y_true[kept], y_pred[kept], sample_weight=kept_weight)
    np.testing.assert_allclose(ours, theirs, rtol=1e-11, atol=1e-15)


# --------------------------------------------------------------------------------------
# The one-vs-rest family against an oracle: scikit-learn's per-class cells, and the
# formulas and averaging rules written out plainly here.

ORACLE_RATIOS = {
    "precision_score": (lambda tp, fp, fn, tn: tp, lambda tp, fp, fn, tn: tp + fp),
    "recall_score": (lambda tp, fp, fn, tn: tp, lambda tp, fp, fn, tn: tp + fn),
    "specificity_score": (lambda tp, fp, fn, tn: tn, lambda tp, fp, fn, tn: tn + fp),
    "npv_score": (lambda tp, fp, fn, tn: tn, lambda tp, fp, fn, tn: tn + fn),
    "false_positive_rate": (lambda tp, fp, fn, tn: fp, lambda tp, fp, fn, tn: fp + tn),
    "false_negative_rate": (lambda tp, fp, fn, tn: fn, lambda tp, fp, fn, tn: fn + tp),
    "false_discovery_rate": (lambda tp, fp, fn, tn: fp, lambda tp, fp, fn, tn: fp + tp),
    "matthews_corrcoef": (
        lambda tp, fp, fn, tn: tp * tn - fp * fn,
        lambda tp, fp, fn, tn: np.sqrt((tp + fn) * (tp + fp) * (tn + fp) * (tn + fn)),
    ),
}


def oracle(name, y_true, y_pred, weight, average, zero_division, labels=None, pos_label=1):
    if average == "binary":
        labels = [pos_label]
    mcm = skm.multilabel_confusion_matrix(y_true, y_pred, sample_weight=weight, labels=labels)
    tn, fp, fn, tp = (mcm[:, 0, 0], mcm[:, 0, 1], mcm[:, 1, 0], mcm[:, 1, 1])
    support = tp + fn
    if average == "micro":
        tn, fp, fn, tp = (np.array([cell.sum()]) for cell in (tn, fp, fn, tp))
    numerator, denominator = ORACLE_RATIOS[name]
    fill = 0.0 if zero_division == "warn" else zero_division
    values = []
    for cells in zip(tp, fp, fn, tn, strict=True):
        d = denominator(*map(float, cells))
        values.append(numerator(*map(float, cells)) / d if d != 0 else fill)
    values = np.array(values)
    if average is None:
        return values
    if average in ("binary", "micro"):
        return values[0]
    valid = ~np.isnan(values)
    if not valid.any():
        return np.nan
    if average == "weighted" and support[valid].sum() > 0:
        return float(np.sum(values[valid] * support[valid]) / support[valid].sum())
    return float(np.mean(values[valid]))


@pytest.mark.parametrize("name", sorted(ORACLE_RATIOS))
@given(case=averaged_case())
def test_one_vs_rest_metrics_match_the_oracle(name, case):
    y_true, y_pred, weight, kwargs = case
    if name == "matthews_corrcoef" and kwargs["average"] is None and "labels" not in kwargs:
        kwargs["average"] = "macro"
    ours, warned = record(getattr(assay, name), y_true, y_pred, sample_weight=weight, **kwargs)
    expected = oracle(name, y_true, y_pred, weight, **kwargs)
    assert_close(ours, expected)
    if kwargs["zero_division"] != "warn":
        assert not warned


@given(case=averaged_case())
def test_rates_are_complements(case):
    """FPR = 1 - specificity, FNR = 1 - recall, FDR = 1 - precision where defined."""
    y_true, y_pred, weight, kwargs = case
    kwargs["zero_division"] = np.nan
    if kwargs["average"] not in (None, "binary", "micro"):
        kwargs["average"] = None
    for rate, complement in [
        (assay.false_positive_rate, assay.specificity_score),
        (assay.false_negative_rate, assay.recall_score),
        (assay.false_discovery_rate, assay.precision_score),
    ]:
        value = rate(y_true, y_pred, sample_weight=weight, **kwargs)
        other = complement(y_true, y_pred, sample_weight=weight, **kwargs)
        np.testing.assert_allclose(value, 1.0 - np.asarray(other), rtol=0, atol=1e-15)


# --------------------------------------------------------------------------------------
# Invariances


# Every metric of the registry that takes `average` (F-beta needs `beta` too: left out).
PUBLIC_AVERAGED = [
    name
    for name, declaration in METRICS.items()
    if declaration.averages and "beta" not in declaration.confusion_options
]


@given(case=averaged_case(), seed=st.integers(0, 2**32 - 1))
def test_row_order_and_repetition_invariance(case, seed):
    y_true, y_pred, weight, kwargs = case
    kwargs["zero_division"] = np.nan
    order = np.random.default_rng(seed).permutation(y_true.shape[0])
    repeats = np.arange(y_true.shape[0]) % 3 + 1
    for name in PUBLIC_AVERAGED:
        function = getattr(assay, name)
        value = function(y_true, y_pred, sample_weight=weight, **kwargs)
        shuffled = function(
            y_true[order],
            y_pred[order],
            sample_weight=None if weight is None else weight[order],
            **kwargs,
        )
        np.testing.assert_array_equal(shuffled, value, err_msg=name)
        weighted = function(y_true, y_pred, sample_weight=repeats, **kwargs)
        repeated = function(np.repeat(y_true, repeats), np.repeat(y_pred, repeats), **kwargs)
        np.testing.assert_allclose(weighted, repeated, rtol=1e-15, atol=0, err_msg=name)
        unit = function(y_true, y_pred, sample_weight=np.ones(y_true.shape[0]), **kwargs)
        plain = function(y_true, y_pred, **kwargs)
        np.testing.assert_allclose(unit, plain, rtol=1e-15, atol=0, err_msg=name)


# --------------------------------------------------------------------------------------
# Worked examples of the lecture texts


def rows(matrix, labels):
    from tests.metrics.test_confusion import rows_from_matrix

    return rows_from_matrix(matrix, labels)


def test_iris_knn_example_of_the_classification_validation_slides():
    # "Classification validation", "F-measure", example 1: kNN (k = 5) on Iris.
    y_true, y_pred = rows([[50, 0, 0], [0, 47, 3], [0, 2, 48]], [1, 2, 3])
    precision = assay.precision_score(y_true, y_pred, average=None)
    recall = assay.recall_score(y_true, y_pred, average=None)
    f1 = assay.f1_score(y_true, y_pred, average=None)
    np.testing.assert_allclose(precision, [1.0, 47 / 49, 48 / 51], rtol=1e-15)
    np.testing.assert_allclose(recall, [1.0, 47 / 50, 48 / 50], rtol=1e-15)
    # F_i = 2 n_ii / (|D_i| + |R_i|): 1, 94/99 (printed 0.949), 96/101 (printed 0.95)
    np.testing.assert_allclose(f1, [1.0, 94 / 99, 96 / 101], rtol=1e-15)
    np.testing.assert_allclose(f1[1:], [0.949, 0.95], atol=5e-4)
    macro = assay.f1_score(y_true, y_pred, average="macro")
    assert macro == pytest.approx((1 + 94 / 99 + 96 / 101) / 3, rel=1e-15)
    assert abs(macro - 0.966) < 1e-3  # printed "F = 0.966" (0.96666 truncated)
    # the "overall precision" weighted by |R_j| is the accuracy, 145/150
    assert assay.accuracy_score(y_true, y_pred) == pytest.approx(145 / 150, rel=1e-15)


def test_imbalanced_example_of_the_classification_validation_slides():
    # "Classification validation", "F-Measure is better for class-imbalanced problems", example 2.
    y_true, y_pred = rows([[9990, 10], [90, 10]], [1, 2])
    # printed "ACC = 0.998" is wrong: 10000 / 10100 = 0.990
    assert assay.accuracy_score(y_true, y_pred) == pytest.approx(10000 / 10100, rel=1e-15)
    precision = assay.precision_score(y_true, y_pred, average=None)
    recall = assay.recall_score(y_true, y_pred, average=None)
    f1 = assay.f1_score(y_true, y_pred, average=None)
    np.testing.assert_allclose(precision, [9990 / 10080, 10 / 20], rtol=1e-15)
    np.testing.assert_allclose(precision, [0.991, 0.5], atol=5e-4)
    np.testing.assert_allclose(recall, [0.999, 0.1], rtol=1e-15)
    np.testing.assert_allclose(f1, [19980 / 20080, 20 / 120], rtol=1e-15)
    np.testing.assert_allclose(f1, [0.995, 0.167], atol=5e-4)
    macro = assay.f1_score(y_true, y_pred, average="macro")
    assert abs(macro - 0.581) < 5e-4
    # balanced accuracy exposes the minority class: (0.999 + 0.1) / 2
    assert assay.balanced_accuracy_score(y_true, y_pred) == pytest.approx(0.5495, rel=1e-14)


def test_binary_example_of_honavar():
    # Honavar, "Evaluating model performance", "Classifier Learning -- Measuring
    # Performance": TP=55 FP=5 FN=10 TN=30.
    y_true, y_pred = rows([[55, 10], [5, 30]], [1, 0])  # rows: true 1, true 0
    assert assay.recall_score(y_true, y_pred) == pytest.approx(55 / 65, rel=1e-15)
    assert assay.specificity_score(y_true, y_pred) == pytest.approx(30 / 35, rel=1e-15)
    assert assay.accuracy_score(y_true, y_pred) == pytest.approx(85 / 100, rel=1e-15)
    assert assay.false_positive_rate(y_true, y_pred) == pytest.approx(5 / 35, rel=1e-15)
    assert assay.precision_score(y_true, y_pred) == pytest.approx(55 / 60, rel=1e-15)
    # "some authors use false alarm rate for FP / (FP + TP) = 1 - Precision"
    assert assay.false_discovery_rate(y_true, y_pred) == pytest.approx(5 / 60, rel=1e-15)
    # CC_1 = (TP TN - FP FN) / sqrt((TP+FN)(TP+FP)(TN+FP)(TN+FN)) of Honavar
    expected_cc = (55 * 30 - 5 * 10) / np.sqrt(65 * 60 * 35 * 40)
    for average in ("multiclass", "binary", "macro"):
        value = assay.matthews_corrcoef(y_true, y_pred, average=average)
        assert value == pytest.approx(expected_cc, rel=1e-14)


def test_micro_averages_of_honavar():
    # Honavar, "Micro-averaged performance measures", on the Iris matrix of the
    # "Classification validation" slides:
    # pooled cells TP=145, FP=5, FN=5, TN=295.
    y_true, y_pred = rows([[50, 0, 0], [0, 47, 3], [0, 2, 48]], [0, 1, 2])
    micro = {"average": "micro"}
    assert assay.precision_score(y_true, y_pred, **micro) == pytest.approx(145 / 150)
    assert assay.recall_score(y_true, y_pred, **micro) == pytest.approx(145 / 150)
    # "MicroAverage FalseAlarm = 1 - MicroAverage Precision" (false alarm as FP/(FP+TP))
    assert assay.false_discovery_rate(y_true, y_pred, **micro) == pytest.approx(5 / 150)
    assert assay.specificity_score(y_true, y_pred, **micro) == pytest.approx(295 / 300)
    expected_cc = (145 * 295 - 5 * 5) / np.sqrt(150 * 150 * 300 * 300)
    assert assay.matthews_corrcoef(y_true, y_pred, **micro) == pytest.approx(expected_cc)
    # "MacroAverage Sensitivity = (1/M) sum_j Sensitivity_j"
    macro = assay.recall_score(y_true, y_pred, average="macro")
    assert macro == pytest.approx((1 + 47 / 50 + 48 / 50) / 3, rel=1e-15)


def test_profit_example_of_honavar_error_rate():
    # Honavar, "Confusion Matrix" of the promotional offer: [[8, 2], [20, 970]].
    y_true, y_pred = rows([[8, 2], [20, 970]], [1, 0])
    assert assay.error_rate(y_true, y_pred) == pytest.approx(0.022, rel=1e-15)
    assert assay.error_rate(y_true, y_pred, normalize=False) == 22.0


# --------------------------------------------------------------------------------------
# Warnings


def test_zero_division_warns_at_the_caller():
    with pytest.warns(UndefinedMetricWarning, match="Precision is ill-defined") as caught:
        value = assay.precision_score([1, 0], [0, 0])
    assert value == 0.0
    assert caught[0].filename == __file__
    with pytest.warns(UndefinedMetricWarning, match="in labels with no predicted"):
        assay.precision_score([1, 0, 2], [0, 0, 0], average="macro")
    with pytest.warns(UndefinedMetricWarning, match="Specificity is ill-defined") as caught:
        assay.specificity_score([1, 1], [1, 0])
    assert caught[0].filename == __file__
    with pytest.warns(UndefinedMetricWarning, match="Matthews") as caught:
        assert assay.matthews_corrcoef([1, 1], [1, 0]) == 0.0
    assert caught[0].filename == __file__
    with pytest.warns(UndefinedMetricWarning, match="F-score is ill-defined"):
        assert assay.f1_score([0, 0], [0, 0]) == 0.0
    with pytest.warns(UndefinedMetricWarning, match="not in y_true") as caught:
        assay.balanced_accuracy_score([0, 0], [0, 1])
    assert caught[0].filename == __file__
    with pytest.warns(UndefinedMetricWarning, match="single class in `y_true`") as caught:
        assert np.isnan(assay.balanced_accuracy_score([1, 1], [1, 1], adjusted=True))
    assert caught[0].filename == __file__
    with pytest.warns(UndefinedMetricWarning, match="only one label") as caught:
        assert np.isnan(assay.cohen_kappa_score([0, 0], [0, 0]))
    assert caught[0].filename == __file__


def test_nan_zero_division_is_skipped_by_the_averages():
    y_true, y_pred = [0, 1, 2], [0, 1, 1]
    per_class = assay.precision_score(y_true, y_pred, average=None, zero_division=np.nan)
    np.testing.assert_array_equal(per_class, [1.0, 0.5, np.nan])
    assert assay.precision_score(y_true, y_pred, average="macro", zero_division=np.nan) == 0.75
    assert np.isnan(
        assay.precision_score([0], [1], labels=[2], average="macro", zero_division=np.nan)
    )


# --------------------------------------------------------------------------------------
# Errors


@pytest.mark.parametrize("name", PUBLIC_AVERAGED)
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"y_true": [0, 1, 2], "y_pred": [0, 1, 1], "average": "binary"},
            "`average`='binary' needs binary targets",
        ),
        (
            {"y_true": [0, 1], "y_pred": [0, 1], "pos_label": 2, "average": "binary"},
            "`pos_label`=2 is not one of",
        ),
        (
            {"y_true": ["a", "b"], "y_pred": ["a", "a"], "average": "binary"},
            "`pos_label`=1 is not one of",
        ),
        (
            {"y_true": [0, 1], "y_pred": [0, 1], "average": "samples"},
            "`average`='samples' needs multilabel targets",
        ),
        ({"y_true": [0, 1], "y_pred": [0, 1], "zero_division": 2}, "`zero_division` must be"),
        ({"y_true": [0, 1], "y_pred": [0, 1], "zero_division": "nan"}, "`zero_division` must be"),
        ({"y_true": [0, 1], "y_pred": [0]}, "different lengths: 2 and 1"),
        ({"y_true": [], "y_pred": []}, "`y_true` is empty"),
        ({"y_true": [0.1, 1.0], "y_pred": [0, 1]}, "`y_true` holds continuous values"),
        ({"y_true": [0, 1], "y_pred": [0, 1], "sample_weight": [0, 0]}, "sums to zero"),
        ({"y_true": [0, 1], "y_pred": [0, 1], "sample_weight": [-1, 2]}, "negative values"),
        ({"y_true": [0, 1], "y_pred": [0, 1], "sample_weight": [np.nan, 2]}, "NaN values"),
        (
            {"y_true": [0, 1], "y_pred": [0, 1], "average": "macro", "labels": [0, 0]},
            "repeated labels",
        ),
    ],
)
def test_averaged_metric_errors(name, kwargs, message):
    with pytest.raises(ValueError, match=message):
        getattr(assay, name)(**kwargs)


def test_other_errors():
    with pytest.raises(ValueError, match="`beta` must be a non-negative number; got -1"):
        assay.fbeta_score([0, 1], [0, 1], beta=-1)
    with pytest.raises(ValueError, match="`beta` must be a non-negative number; got nan"):
        assay.fbeta_score([0, 1], [0, 1], beta=np.nan)
    with pytest.raises(ValueError, match="`average` must be one of"):
        assay.f1_score([0, 1], [0, 1], average="multiclass")
    with pytest.raises(ValueError, match="`weights` must be one of"):
        assay.cohen_kappa_score([0, 1], [0, 1], weights="cubic")
    with pytest.raises(ValueError, match="`replace_undefined_by` must be NaN or a number in"):
        assay.cohen_kappa_score([0, 1], [0, 1], replace_undefined_by=2.0)
    with pytest.raises(ValueError, match="`y1` and `y2` have different lengths"):
        assay.cohen_kappa_score([0, 1], [0])
    with pytest.raises(ValueError, match=r"None of `labels` \[2\] occurs in `y1`"):
        assay.cohen_kappa_score([0, 1], [2, 2], labels=[2])
    with pytest.raises(ValueError, match="`y_pred` holds continuous values"):
        assay.accuracy_score([0, 1], [0.5, 1])
    with pytest.raises(ValueError, match="`y_true` holds continuous values"):
        assay.balanced_accuracy_score([0.5, 1], [0, 1])
    with pytest.raises(ValueError, match="different lengths"):
        assay.error_rate([0, 1], [0, 1, 1])


@pytest.mark.parametrize(
    "name", ["precision_score", "recall_score", "f1_score", "jaccard_score", "specificity_score"]
)
@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted"])
def test_pos_label_ignored_by_a_non_binary_average_is_warned_about(name, average):
    """With an average other than 'binary' every class is counted: a ``pos_label`` other
    than the default is not used, and a warning says so at the caller's line (as
    scikit-learn warns); the value is the one without it."""
    y_true, y_pred = [0, 1, 2, 2, 1, 0], [0, 2, 2, 1, 1, 1]
    function = getattr(assay, name)
    with pytest.warns(assay.IgnoredOptionWarning) as record:
        got = function(y_true, y_pred, pos_label=2, average=average)
    assert len(record) == 1 and record[0].filename == __file__
    message = str(record[0].message)
    assert message.startswith(f"`pos_label` (2) is ignored when `average` is {average!r}")
    assert "`labels=[2]`" in message
    np.testing.assert_array_equal(got, function(y_true, y_pred, average=average))


@pytest.mark.parametrize("pos_label", [1, 1.0, True, None])
def test_the_default_pos_label_or_a_binary_average_gives_no_warning(pos_label):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assay.f1_score([0, 1, 2, 1], [0, 2, 2, 1], pos_label=pos_label, average="macro")
        assay.f1_score([0, 1, 0, 1], [0, 0, 0, 1], pos_label=0, average="binary")


def test_pos_label_with_a_multilabel_average_is_warned_about():
    y_true, y_pred = np.array([[1, 0], [0, 1], [1, 1]]), np.array([[1, 0], [1, 1], [0, 1]])
    with pytest.warns(assay.IgnoredOptionWarning, match="`average` is 'samples'"):
        got = assay.f1_score(y_true, y_pred, pos_label=0, average="samples")
    assert got == assay.f1_score(y_true, y_pred, average="samples")

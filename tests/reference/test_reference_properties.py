"""Properties the reference must have by construction, checked with hypothesis.

The reference is exact and rounds once, so invariances that hold in exact arithmetic
(integer weights = repetition, row order, scaling all weights by a power of two,
zero-weight rows) must hold bit for bit: they are compared with ``==``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import assay.reference as ref
from tests.strategies import (
    binary_ranking_data,
    class_labels,
    multiclass_labels,
    multiclass_ranking_data,
)

# Trapezoids summed in float64 from the rounded curve points: a few ulps of 1.
AREA_TOLERANCE = 1e-12
# Two values rounded once each, then added: within 2 ulps of their exact sum.
SUM_TOLERANCE = 4e-16


def _binary_outputs(y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> list[Any]:
    """Every binary ranking output of the reference, flattened for comparison."""
    outputs: list[Any] = list(ref.confusion_matrix_at_thresholds(y, s, sample_weight=w))
    for drop in (True, False):
        outputs += ref.roc_curve(y, s, sample_weight=w, drop_intermediate=drop)
        outputs += ref.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=drop)
        outputs += ref.det_curve(y, s, sample_weight=w, drop_intermediate=drop)
    outputs.append(ref.roc_auc_score(y, s, sample_weight=w))
    outputs.append(ref.roc_auc_score(y, s, sample_weight=w, max_fpr=0.3))
    outputs.append(ref.average_precision_score(y, s, sample_weight=w))
    for method in ("trapezoid", "interpolated", "11-point"):
        outputs.append(ref.pr_auc_score(y, s, method=method, sample_weight=w))
    for method in ("interpolate", "nearest"):
        outputs.append(ref.equal_error_rate(y, s, method=method, sample_weight=w))
    return outputs


def _assert_identical(left: list[Any], right: list[Any]) -> None:
    assert len(left) == len(right)
    for a, b in zip(left, right, strict=True):
        np.testing.assert_array_equal(a, b)


@st.composite
def integer_weighted_binary(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    y, s, _ = draw(binary_ranking_data(max_n=20, both_classes=True))
    weights = np.asarray(draw(hnp.arrays(np.int64, len(y), elements=st.integers(0, 3))))
    weights[np.flatnonzero(y == 0)[0]] = 1
    weights[np.flatnonzero(y == 1)[0]] = 1
    return y, s, weights


@given(binary_ranking_data(max_n=20, both_classes=True))
def test_auc_is_the_trapezoid_area_of_the_roc_curve(data: tuple) -> None:
    y, s, w = data
    auc = ref.roc_auc_score(y, s, sample_weight=w)
    if math.isnan(auc):  # both classes present, but one only with weight 0
        return
    for drop in (True, False):
        fpr, tpr, _ = ref.roc_curve(y, s, sample_weight=w, drop_intermediate=drop)
        area = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))
        assert abs(area - auc) <= AREA_TOLERANCE


@given(integer_weighted_binary())
def test_integer_weights_equal_repetition(data: tuple) -> None:
    y, s, weights = data
    repeated = np.repeat(np.arange(len(y)), weights)
    _assert_identical(
        _binary_outputs(y, s, weights.astype(np.float64)),
        _binary_outputs(y[repeated], s[repeated], None),
    )


@given(binary_ranking_data(max_n=15, both_classes=True), st.randoms(use_true_random=False))
def test_row_order_and_weight_scale_do_not_matter(data: tuple, random: Any) -> None:
    y, s, w = data
    order = np.arange(len(y))
    random.shuffle(order)
    baseline = _binary_outputs(y, s, w)
    _assert_identical(
        baseline, _binary_outputs(y[order], s[order], None if w is None else w[order])
    )
    scaled = np.ones(len(y)) if w is None else w
    # Multiplying by a power of two is exact in floats: every ratio is unchanged,
    # and the weighted counts of confusion_matrix_at_thresholds scale by 4.
    quadrupled = _binary_outputs(y, s, scaled * 4.0)
    counts = ref.confusion_matrix_at_thresholds(y, s, sample_weight=scaled)
    for a, b in zip(counts[:4], quadrupled[:4], strict=True):
        np.testing.assert_array_equal(a * 4.0, b)
    _assert_identical(baseline[4:], quadrupled[4:])


@given(binary_ranking_data(max_n=15))
def test_unit_and_zero_weight_rows(data: tuple) -> None:
    y, s, w = data
    weights = np.ones(len(y)) if w is None else w
    if w is None:
        _assert_identical(_binary_outputs(y, s, None), _binary_outputs(y, s, weights))
    # Appending rows of weight 0 (with new scores) changes nothing, thresholds included.
    y_more = np.concatenate([y, [0, 1]])
    s_more = np.concatenate([s, [1e6, -1e6]])
    w_more = np.concatenate([weights, [0.0, 0.0]])
    _assert_identical(_binary_outputs(y, s, weights), _binary_outputs(y_more, s_more, w_more))


@given(binary_ranking_data(max_n=20, both_classes=True))
def test_ranking_bounds_and_symmetry(data: tuple) -> None:
    y, s, w = data
    auc = ref.roc_auc_score(y, s, sample_weight=w)
    if math.isnan(auc):
        return
    # Reversing the scores swaps wins and losses; ties stay halves.
    assert abs(auc + ref.roc_auc_score(y, -s, sample_weight=w) - 1) <= SUM_TOLERANCE
    # Exchanging the classes (with the negated scores) gives the same AUC.
    assert ref.roc_auc_score(1 - y, -s, sample_weight=w) == auc
    ap = ref.average_precision_score(y, s, sample_weight=w)
    interpolated = ref.pr_auc_score(y, s, method="interpolated", sample_weight=w)
    assert 0 < ap <= interpolated <= 1
    for method in ("trapezoid", "11-point"):
        assert 0 <= ref.pr_auc_score(y, s, method=method, sample_weight=w) <= 1
    for method in ("interpolate", "nearest"):
        assert 0 <= ref.equal_error_rate(y, s, method=method, sample_weight=w) <= 1
    assert 0 <= ref.roc_auc_score(y, s, sample_weight=w, max_fpr=0.2) <= 1


@given(multiclass_ranking_data(max_n=15))
def test_multiclass_auc_averages(data: tuple) -> None:
    y, scores, w = data
    per_class = ref.roc_auc_score(y, scores, multi_class="ovr", average=None, sample_weight=w)
    for c in range(scores.shape[1]):
        binary = ref.roc_auc_score((y == c).astype(int), scores[:, c], sample_weight=w)
        assert per_class[c] == binary
    macro = ref.roc_auc_score(y, scores, multi_class="ovr", sample_weight=w)
    assert abs(macro - float(np.mean(per_class))) <= AREA_TOLERANCE
    # Hand & Till with a single pair of classes is the mean of the two binary AUCs.
    pair = np.isin(y, [0, 1]) & (True if w is None else w > 0)
    labels = list(range(scores.shape[1]))
    two_class = ref.roc_auc_score(y[pair], scores[pair], multi_class="ovo", labels=labels)
    first = ref.roc_auc_score((y[pair] == 0).astype(int), scores[pair, 0])
    second = ref.roc_auc_score((y[pair] == 1).astype(int), scores[pair, 1])
    assert abs(two_class - (first + second) / 2) <= SUM_TOLERANCE


@given(multiclass_ranking_data(max_n=12), st.data())
def test_multiclass_integer_weights_equal_repetition(data: tuple, draw: st.DataObject) -> None:
    y, scores, _ = data
    weights = draw.draw(hnp.arrays(np.int64, len(y), elements=st.integers(0, 3)))
    weights[: scores.shape[1]] = np.maximum(weights[: scores.shape[1]], 1)
    repeated = np.repeat(np.arange(len(y)), weights)
    for average in ("macro", "weighted"):
        for scheme in ("ovr", "ovo"):
            weighted = ref.roc_auc_score(
                y, scores, multi_class=scheme, average=average, sample_weight=weights
            )
            expanded = ref.roc_auc_score(
                y[repeated], scores[repeated], multi_class=scheme, average=average
            )
            assert weighted == expanded
        assert ref.average_precision_score(
            y, scores, average=average, sample_weight=weights
        ) == ref.average_precision_score(y[repeated], scores[repeated], average=average)
    assert ref.roc_auc_score(
        y, scores, multi_class="ovr", average="micro", sample_weight=weights
    ) == ref.roc_auc_score(y[repeated], scores[repeated], multi_class="ovr", average="micro")


_RATES = (
    ref.precision_score,
    ref.recall_score,
    ref.specificity_score,
    ref.npv_score,
    ref.false_positive_rate,
    ref.false_negative_rate,
    ref.false_discovery_rate,
    ref.f1_score,
    ref.matthews_corrcoef,
)


@given(class_labels(max_n=40))
def test_confusion_metric_identities(data: tuple) -> None:
    y_true, y_pred, w = data
    weights = np.ones(len(y_true)) if w is None else w
    matrix = ref.confusion_matrix(y_true, y_pred, sample_weight=w)
    assert matrix.sum() == weights.sum()
    accuracy = ref.accuracy_score(y_true, y_pred, sample_weight=w)
    # With all labels, micro precision = micro recall = micro F1 = accuracy, and the
    # support-weighted recall is the accuracy too.
    for metric in (ref.precision_score, ref.recall_score, ref.f1_score):
        assert metric(y_true, y_pred, average="micro", sample_weight=w) == accuracy
    weighted_recall = ref.recall_score(y_true, y_pred, average="weighted", sample_weight=w)
    assert abs(weighted_recall - accuracy) <= SUM_TOLERANCE
    error = ref.error_rate(y_true, y_pred, sample_weight=w)
    assert abs(error + accuracy - 1) <= SUM_TOLERANCE
    # Complementary rates per class (NaN where undefined on both sides).
    undefined = {"zero_division": np.nan, "average": None, "sample_weight": w}
    pairs = (
        (ref.precision_score, ref.false_discovery_rate),
        (ref.recall_score, ref.false_negative_rate),
        (ref.specificity_score, ref.false_positive_rate),
    )
    for rate, complement in pairs:
        total = rate(y_true, y_pred, **undefined) + complement(y_true, y_pred, **undefined)
        finite = ~np.isnan(total)
        np.testing.assert_allclose(total[finite], 1.0, rtol=0, atol=SUM_TOLERANCE)
    # Kappa is symmetric in its two raters.
    kappa = ref.cohen_kappa_score(y_true, y_pred, sample_weight=w)
    swapped = ref.cohen_kappa_score(y_pred, y_true, sample_weight=w)
    assert kappa == swapped or (math.isnan(kappa) and math.isnan(swapped))


@given(multiclass_labels(max_n=40, max_classes=2))
def test_binary_mcc_is_r_k(data: tuple) -> None:
    y_true, y_pred, w = data
    labels = [0, 1]
    r_k = ref.matthews_corrcoef(y_true, y_pred, labels=labels, sample_weight=w)
    for average in ("binary", "macro"):
        cc = ref.matthews_corrcoef(
            np.concatenate([y_true, [0, 1]]),
            np.concatenate([y_pred, [0, 1]]),
            average=average,
            sample_weight=np.concatenate([np.ones(len(y_true)) if w is None else w, [0, 0]]),
        )
        assert abs(cc - r_k) <= SUM_TOLERANCE


@given(class_labels(max_n=25), st.data())
def test_confusion_integer_weights_equal_repetition(data: tuple, draw: st.DataObject) -> None:
    y_true, y_pred, _ = data
    weights = draw.draw(hnp.arrays(np.int64, len(y_true), elements=st.integers(1, 3)))
    repeated = np.repeat(np.arange(len(y_true)), weights)
    y_true_repeated, y_pred_repeated = y_true[repeated], y_pred[repeated]
    weights = weights.astype(np.float64)
    for metric in _RATES:
        for average in ("micro", "macro", "weighted"):
            weighted = metric(y_true, y_pred, average=average, sample_weight=weights)
            assert weighted == metric(y_true_repeated, y_pred_repeated, average=average)
    assert ref.matthews_corrcoef(y_true, y_pred, sample_weight=weights) == ref.matthews_corrcoef(
        y_true_repeated, y_pred_repeated
    )
    for function in (ref.accuracy_score, ref.balanced_accuracy_score, ref.cohen_kappa_score):
        weighted = function(y_true, y_pred, sample_weight=weights)
        unweighted = function(y_true_repeated, y_pred_repeated)
        assert weighted == unweighted or (math.isnan(weighted) and math.isnan(unweighted))
    np.testing.assert_array_equal(
        ref.confusion_matrix(y_true, y_pred, sample_weight=weights),
        ref.confusion_matrix(y_true_repeated, y_pred_repeated),
    )

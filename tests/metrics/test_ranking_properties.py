"""Invariances of the ranking metrics and the lecture texts' worked examples."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import assay
from assay.metrics._registry import METRICS, variants_of
from tests.strategies import binary_ranking_data

# Two float64 computations of the same rational quantity in a different order.
ROUNDING_RTOL = 1e-12
ROUNDING_ATOL = 1e-12

RANKING_VARIANTS = variants_of("ranking")
"""Every ranking metric of the registry with each of its declared variants."""


def metric_of(variant: tuple[str, dict]):
    """``f(y, s, w)``: the public function of a registry variant ``(name, options)``."""
    name, options = variant
    function = METRICS[name].function
    return lambda y, s, w: function(y, s, sample_weight=w, **options)


CURVES = {
    "roc_curve": assay.roc_curve,
    "precision_recall_curve": assay.precision_recall_curve,
    "det_curve": assay.det_curve,
    "confusion_matrix_at_thresholds": assay.confusion_matrix_at_thresholds,
}
ranking_variants = st.sampled_from(RANKING_VARIANTS)


def close(a: float, b: float) -> bool:
    return bool(np.isclose(a, b, rtol=ROUNDING_RTOL, atol=ROUNDING_ATOL))


@given(binary_ranking_data(both_classes=True), ranking_variants, st.randoms())
def test_row_order_does_not_matter(data, variant, random) -> None:
    y, s, w = data
    order = np.arange(y.shape[0])
    random.shuffle(order)
    metric = metric_of(variant)
    shuffled_w = None if w is None else w[order]
    assert close(metric(y[order], s[order], shuffled_w), metric(y, s, w))


@given(binary_ranking_data(both_classes=True), ranking_variants)
def test_unit_weights_equal_no_weights(data, variant) -> None:
    y, s, _ = data
    metric = metric_of(variant)
    assert metric(y, s, np.ones(y.shape[0])) == metric(y, s, None)


@given(binary_ranking_data(both_classes=True), ranking_variants)
def test_integer_weights_equal_repetition(data, variant) -> None:
    y, s, w = data
    if w is None or np.any(w != np.round(w)):
        w = np.arange(y.shape[0]) % 3 + 1.0
    repeats = w.astype(np.int64)
    metric = metric_of(variant)
    assert close(metric(y, s, w), metric(np.repeat(y, repeats), np.repeat(s, repeats), None))


@given(binary_ranking_data(both_classes=True), ranking_variants)
def test_strictly_increasing_transform_of_scores_changes_nothing(data, variant) -> None:
    y, s, w = data
    # dense ranks: a strictly increasing map that keeps ties exactly
    ranks = np.unique(s, return_inverse=True)[1].astype(np.float64) * 3.0 - 7.0
    metric = metric_of(variant)
    assert close(metric(y, ranks, w), metric(y, s, w))


@given(binary_ranking_data(both_classes=True))
def test_auc_of_negated_scores_is_one_minus_auc(data) -> None:
    y, s, w = data
    auc = assay.roc_auc_score(y, s, sample_weight=w)
    assert close(assay.roc_auc_score(y, -s, sample_weight=w), 1.0 - auc)


@given(binary_ranking_data(both_classes=True))
def test_swapping_the_positive_class_and_negating_scores_keeps_auc(data) -> None:
    y, s, w = data
    auc = assay.roc_auc_score(y, s, sample_weight=w)
    assert close(assay.roc_auc_score(1 - y, -s, sample_weight=w), auc)
    assert close(assay.roc_auc_score(y, -s, sample_weight=w, pos_label=0), auc)


@given(binary_ranking_data(both_classes=True), st.sampled_from(sorted(CURVES)))
def test_zero_weight_rows_are_absent_rows(data, name) -> None:
    y, s, w = data
    w = np.ones(y.shape[0]) if w is None else w.copy()
    w[::3] = 0.0  # zero out every third row
    keep = w > 0
    assume(np.any(keep & (y == 1)) and np.any(keep & (y == 0)))
    ours = CURVES[name](y, s, sample_weight=w)
    without = CURVES[name](y[keep], s[keep], sample_weight=w[keep])
    for a, b in zip(ours, without, strict=True):
        np.testing.assert_array_equal(a, b)


@given(binary_ranking_data(both_classes=True))
def test_auc_is_the_trapezoid_area_of_the_roc_curve(data) -> None:
    y, s, w = data
    fpr, tpr, _ = assay.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    area = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))
    assert close(assay.roc_auc_score(y, s, sample_weight=w), area)


@given(binary_ranking_data(both_classes=True))
def test_values_lie_in_the_declared_range(data) -> None:
    y, s, w = data
    for name, options in RANKING_VARIANTS:
        value = metric_of((name, options))(y, s, w)
        lowest, highest = METRICS[name].range_for(**options)
        assert lowest - ROUNDING_ATOL <= value <= highest + ROUNDING_ATOL, (name, options)


# ---------------------------------------------------------------------------
# Worked examples from the lecture texts

# Wu, "Evaluation", exercise 5, Table 3: ten examples, scores 1.0 down to 0.1,
# class 1 positive.  Expected values worked by hand as fractions:
# points (r_i, p_i): (1/5, 1), (1/5, 1/2), (2/5, 2/3), (3/5, 3/4), (3/5, 3/5),
# (4/5, 4/6), (4/5, 4/7), (4/5, 4/8), (1, 5/9), (1, 5/10).
# AUC-PR = 1/5 + 7/60 + 17/120 + 19/150 + 19/180 = 1243/1800 (= 0.690556)
# AP     = (1/5)(1 + 2/3 + 3/4 + 4/6 + 5/9)       = 131/180  (= 0.727778)
# After swapping the labels of rows 9 and 10 the last positive moves to row 10:
# AUC-PR = ... + (1/5)(4/9 + 1/2)/2 = 1223/1800 (= 0.679444)
# AP     = (1/5)(1 + 2/3 + 3/4 + 4/6 + 1/2)       = 129/180  (= 0.716667)
TABLE3_LABELS = np.array([1, 2, 1, 1, 2, 1, 2, 2, 1, 2])
TABLE3_SCORES = np.array([1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1])


@pytest.mark.parametrize(
    "swap, pr_auc, ap",
    [
        (False, Fraction(1243, 1800), Fraction(131, 180)),
        (True, Fraction(1223, 1800), Fraction(129, 180)),
    ],
)
def test_table3_auc_pr_and_ap(swap, pr_auc, ap) -> None:
    labels = TABLE3_LABELS.copy()
    if swap:
        labels[[8, 9]] = labels[[9, 8]]
    assert assay.pr_auc_score(labels, TABLE3_SCORES, pos_label=1) == pytest.approx(
        float(pr_auc), rel=ROUNDING_RTOL
    )
    assert assay.average_precision_score(labels, TABLE3_SCORES, pos_label=1) == pytest.approx(
        float(ap), rel=ROUNDING_RTOL
    )


def test_table3_precision_recall_columns() -> None:
    precision, recall, thresholds = assay.precision_recall_curve(
        TABLE3_LABELS, TABLE3_SCORES, pos_label=1
    )
    # the curve is returned with increasing thresholds; Table 3 lists them decreasing
    expected_precision = [1, 1 / 2, 2 / 3, 3 / 4, 3 / 5, 4 / 6, 4 / 7, 4 / 8, 5 / 9, 5 / 10]
    expected_recall = [1 / 5, 1 / 5, 2 / 5, 3 / 5, 3 / 5, 4 / 5, 4 / 5, 4 / 5, 1, 1]
    np.testing.assert_allclose(precision[-2::-1], expected_precision, rtol=ROUNDING_RTOL)
    np.testing.assert_allclose(recall[-2::-1], expected_recall, rtol=ROUNDING_RTOL)
    np.testing.assert_array_equal(thresholds[::-1], TABLE3_SCORES)


# Honavar, "Evaluating model performance", cutoff table: 24 records
# (actual class, probability of "1").  The slide says 12 records are classified "1" at
# cutoff 0.50; counting the table gives 13 (the 12 in the left column are all >= 0.622,
# plus 0.506), of which 11 are actual 1s.  At cutoff 0.80 it is 7, all actual 1s.
CUTOFF_TABLE = [
    (1, 0.996), (1, 0.988), (1, 0.984), (1, 0.980), (1, 0.948), (1, 0.889),
    (1, 0.848), (0, 0.762), (1, 0.707), (1, 0.681), (1, 0.656), (0, 0.622),
    (1, 0.506), (0, 0.471), (0, 0.337), (1, 0.218), (0, 0.199), (0, 0.149),
    (0, 0.048), (0, 0.038), (0, 0.025), (0, 0.022), (0, 0.016), (0, 0.004),
]  # fmt: skip


@pytest.mark.parametrize("cutoff, tp, fp", [(0.50, 11, 2), (0.80, 7, 0)])
def test_cutoff_table_counts(cutoff, tp, fp) -> None:
    actual = np.array([a for a, _ in CUTOFF_TABLE])
    probability = np.array([p for _, p in CUTOFF_TABLE])
    table = assay.confusion_matrix_at_thresholds(actual, probability)
    # the rule "probability >= cutoff" is the row of the smallest threshold >= cutoff
    row = np.flatnonzero(table.thresholds >= cutoff)[-1]
    assert (table.tps[row], table.fps[row]) == (tp, fp)
    assert table.tns[row] + table.fps[row] == 12
    assert table.tps[row] + table.fns[row] == 12


def test_auc_of_the_cutoff_table_by_counting_pairs() -> None:
    actual = np.array([a for a, _ in CUTOFF_TABLE])
    probability = np.array([p for _, p in CUTOFF_TABLE])
    positives = probability[actual == 1]
    negatives = probability[actual == 0]
    wins = sum(float(p > q) for p in positives for q in negatives)
    assert assay.roc_auc_score(actual, probability) == pytest.approx(wins / 144, rel=1e-15)


def test_ties_count_one_half_by_hand() -> None:
    # positives score 0.8, 0.5; negatives 0.5, 0.2: pairs (0.8>0.5), (0.8>0.2),
    # (0.5=0.5 -> 1/2), (0.5>0.2): AUC = 3.5 / 4
    assert assay.roc_auc_score([1, 1, 0, 0], [0.8, 0.5, 0.5, 0.2]) == 0.875
    # weights multiply pairs: positive 0.5 weighs 3 -> (1*2 + 3*(1/2 + 1)) / (4 * 2)
    assert assay.roc_auc_score(
        [1, 1, 0, 0], [0.8, 0.5, 0.5, 0.2], sample_weight=[1, 3, 1, 1]
    ) == pytest.approx(6.5 / 8, rel=1e-15)


def test_equal_error_rate_by_hand() -> None:
    # 4 positives scoring 0.9, 0.8, 0.4, 0.3 and 4 negatives 0.7, 0.6, 0.5, 0.2.
    # ROC points (FPR, FNR): (0,1) (0,.75) (0,.5) (.25,.5) (.5,.5) (.75,.5)
    # (.75,.25) (.75,0) (1,0).  FPR = FNR first at (.5, .5): both methods give 0.5.
    y = [1, 1, 1, 1, 0, 0, 0, 0]
    s = [0.9, 0.8, 0.4, 0.3, 0.7, 0.6, 0.5, 0.2]
    assert assay.equal_error_rate(y, s) == 0.5
    assert assay.equal_error_rate(y, s, method="nearest") == 0.5
    # 2 positives (0.9, 0.4), 2 negatives (0.6, 0.1): points (0,1) (0,.5) (.5,.5)
    # (.5,0) (1,0). Crossing at (.5, .5) again; move a negative above all: scores
    # negatives 0.95, 0.1 -> points (0,1) (.5,1) (.5,.5) (.5,0) (1,0): the segment
    # (.5,1)-(.5,.5) is vertical, first point with FPR >= FNR is (.5,.5): EER 0.5.
    assert assay.equal_error_rate([1, 1, 0, 0], [0.9, 0.4, 0.95, 0.1]) == 0.5
    # a tie group crossing the diagonal: one positive and one negative tied at 0.5,
    # plus positive 0.9 and negative 0.1: points (0,1) (0,.5) (.5,0) (1,0);
    # segment (0,.5)-(.5,0) meets FPR = FNR at .25; nearest point gap: (0,.5) and
    # (.5,0) both have gap .5 -> the first, (0, .5): (0 + .5) / 2 = .25.
    y2 = [1, 1, 0, 0]
    s2 = [0.9, 0.5, 0.5, 0.1]
    assert assay.equal_error_rate(y2, s2) == 0.25
    assert assay.equal_error_rate(y2, s2, method="nearest") == 0.25


def test_eleven_point_ap_by_hand() -> None:
    # positives at ranks 1 and 3 of 4 (scores .9 .8 .7 .6, labels 1 0 1 0):
    # points (r, p): (.5, 1), (.5, .5), (1, 2/3), (1, .5).
    # interpolated precision: r <= .5 -> 1; .5 < r <= 1 -> 2/3.
    # 11-point: levels 0 .. .5 (6 levels) -> 1, levels .6 .. 1 (5 levels) -> 2/3
    # = (6 + 10/3) / 11 = 28/33; all-point interpolated: .5 * 1 + .5 * 2/3 = 5/6.
    y = [1, 0, 1, 0]
    s = [0.9, 0.8, 0.7, 0.6]
    assert assay.pr_auc_score(y, s, method="11-point") == pytest.approx(28 / 33, rel=1e-15)
    assert assay.pr_auc_score(y, s, method="interpolated") == pytest.approx(5 / 6, rel=1e-15)
    # trapezoid from (0, 1): .5 * (1 + 1) / 2 + 0 + .5 * (.5 + 2/3) / 2 = 0.5 + 7/24
    assert assay.pr_auc_score(y, s) == pytest.approx(0.5 + 7 / 24, rel=1e-15)


def test_hand_and_till_by_hand() -> None:
    # three classes, one row each plus one extra; probabilities chosen so each pair
    # is perfectly separated except (1, 2) under column 2, where the rows tie.
    y = [0, 1, 2, 2]
    proba = np.array(
        [
            [0.8, 0.1, 0.1],
            [0.1, 0.6, 0.3],
            [0.1, 0.3, 0.6],
            [0.2, 0.5, 0.3],
        ]
    )
    # pair (0,1): col 0 -> 1; col 1 -> 1.                      A = 1
    # pair (0,2): col 0: class-0 row .8 vs class-2 .1, .2 -> 1; col 2: class-2 rows
    #   .6, .3 vs class-0 .1 -> 1.                             A = 1
    # pair (1,2): col 1: class-1 .6 vs class-2 .3, .5 -> 1;
    #   col 2: class-2 .6, .3 vs class-1 .3 -> (1 + 1/2) / 2 = .75.   A = .875
    assert assay.roc_auc_score(y, proba, multi_class="ovo") == pytest.approx(
        (1 + 1 + 0.875) / 3, rel=1e-15
    )
    # weighted by pair prevalence: pairs hold 2, 3 and 3 of 4 rows
    assert assay.roc_auc_score(y, proba, multi_class="ovo", average="weighted") == (
        pytest.approx((2 * 1 + 3 * 1 + 3 * 0.875) / 8, rel=1e-15)
    )


@given(binary_ranking_data(both_classes=True), st.sampled_from([-1000, -500, 500, 1000]))
def test_a_common_scale_of_the_weights_changes_nothing(data, exponent) -> None:
    # Weights of 1e-300 or 1e300 would overflow or underflow the products of class
    # totals (P * N) without the kernels' power-of-two rescaling. Scaling by a power of
    # two is exact, so the results must be identical. (With other scales they agree to
    # rounding, except that the 11-point rule compares recalls with the exact levels
    # i / 10 and may flip where a recall sits on a level.)
    y, s, w = data
    w = np.ones(y.shape[0]) if w is None else w
    w = np.where(w > 0, np.maximum(w, 1e-3), 0.0)  # scaled weights must stay normal floats
    scaled = np.ldexp(w, exponent)
    for variant in RANKING_VARIANTS:
        metric = metric_of(variant)
        assert metric(y, s, scaled) == metric(y, s, w), variant

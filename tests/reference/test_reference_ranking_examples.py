"""Small ranking examples worked by hand: ties, weights, partial AUC, Hand & Till,
EER, the PR-area rules, and the output conventions of the curves.

Each expected value is derived in the comment next to it.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import assay.reference as ref


def exact(value: float, expected: Fraction | int) -> bool:
    """The reference rounds its exact result once: equality with the rounded fraction."""
    return value == float(Fraction(expected))


def assert_exact_array(values: np.ndarray, expected: list[Fraction | int]) -> None:
    assert len(values) == len(expected)
    assert all(exact(v, e) for v, e in zip(values, expected, strict=True)), (values, expected)


# scikit-learn's documentation example: y = [0, 0, 1, 1], scores [0.1, 0.4, 0.35, 0.8].
DOC_LABELS = [0, 0, 1, 1]
DOC_SCORES = [0.1, 0.4, 0.35, 0.8]

# Ties: groups 0.9 = {pos, neg}, 0.5 = {pos, neg, pos}, 0.1 = {neg}.
TIED_LABELS = [1, 0, 1, 0, 1, 0]
TIED_SCORES = [0.9, 0.9, 0.5, 0.5, 0.5, 0.1]
TIED_WEIGHTS = [2, 1, 1, 1, 1, 3]


def test_curves_of_the_documentation_example() -> None:
    # Thresholds 0.8, 0.4, 0.35, 0.1 give (TP, FP) = (1, 0), (1, 1), (2, 1), (2, 2).
    tns, fps, fns, tps, thresholds = ref.confusion_matrix_at_thresholds(DOC_LABELS, DOC_SCORES)
    np.testing.assert_array_equal(thresholds, [0.8, 0.4, 0.35, 0.1])
    np.testing.assert_array_equal(tps, [1, 1, 2, 2])
    np.testing.assert_array_equal(fps, [0, 1, 1, 2])
    np.testing.assert_array_equal(fns, [1, 1, 0, 0])
    np.testing.assert_array_equal(tns, [2, 1, 1, 0])
    # ROC: (0, 0) at +inf, then FP/2 and TP/2; no point is collinear with its neighbours.
    fpr, tpr, roc_thresholds = ref.roc_curve(DOC_LABELS, DOC_SCORES)
    np.testing.assert_array_equal(fpr, [0, 0, 0.5, 0.5, 1])
    np.testing.assert_array_equal(tpr, [0, 0.5, 0.5, 1, 1])
    np.testing.assert_array_equal(roc_thresholds, [np.inf, 0.8, 0.4, 0.35, 0.1])
    # PR: increasing thresholds, precision TP/(TP+FP) = 1/2, 2/3, 1/2, 1, then 1;
    # recall 1, 1, 1/2, 1/2, then 0.
    precision, recall, pr_thresholds = ref.precision_recall_curve(DOC_LABELS, DOC_SCORES)
    assert_exact_array(precision, [Fraction(1, 2), Fraction(2, 3), Fraction(1, 2), 1, 1])
    np.testing.assert_array_equal(recall, [1, 1, 0.5, 0.5, 0])
    np.testing.assert_array_equal(pr_thresholds, [0.1, 0.35, 0.4, 0.8])
    # DET: with +inf prepended, FP = 0 last at 0.8, FN = 0 first at 0.35; reversed:
    fpr_det, fnr_det, det_thresholds = ref.det_curve(DOC_LABELS, DOC_SCORES)
    np.testing.assert_array_equal(fpr_det, [0.5, 0.5, 0])
    np.testing.assert_array_equal(fnr_det, [0, 0.5, 0.5])
    np.testing.assert_array_equal(det_thresholds, [0.35, 0.4, 0.8])
    # AUC: the positive 0.8 beats both negatives, 0.35 beats 0.1 only: 3/4.
    assert ref.roc_auc_score(DOC_LABELS, DOC_SCORES) == 0.75


def test_roc_drop_intermediate_keeps_only_the_corners() -> None:
    # Labels 1, 1, 1, 0, 0, 0 for scores 6..1: TP = 1, 2, 3, 3, 3, 3; FP = 0, 0, 0, 1, 2, 3.
    # Second differences vanish at scores 5, 3, 2 (collinear), so 6, 4, 1 remain.
    fpr, tpr, thresholds = ref.roc_curve([1, 1, 1, 0, 0, 0], [6, 5, 4, 3, 2, 1])
    np.testing.assert_array_equal(thresholds, [np.inf, 6, 4, 1])
    np.testing.assert_array_equal(fpr, [0, 0, 0, 1])
    assert_exact_array(tpr, [0, Fraction(1, 3), 1, 1])
    all_points = ref.roc_curve([1, 1, 1, 0, 0, 0], [6, 5, 4, 3, 2, 1], drop_intermediate=False)
    assert len(all_points[0]) == 7
    # precision_recall_curve drops points whose TP equals both neighbours' (scores 3, 2).
    _, _, pr_thresholds = ref.precision_recall_curve(
        [1, 1, 1, 0, 0, 0], [6, 5, 4, 3, 2, 1], drop_intermediate=True
    )
    np.testing.assert_array_equal(pr_thresholds, [1, 4, 5, 6])


def test_auc_with_ties_counts_one_half() -> None:
    # Pairs: the positive 0.9 ties the negative 0.9 (1/2) and beats 0.5 and 0.1 -> 5/2;
    # each positive 0.5 loses to 0.9, ties 0.5 (1/2), beats 0.1 -> 3/2. (5/2 + 3)/9 = 11/18.
    assert exact(ref.roc_auc_score(TIED_LABELS, TIED_SCORES), Fraction(11, 18))
    # The same as the trapezoids across tie groups: points (0,0), (1/3,1/3), (2/3,1), (1,1):
    # 1/3 (1/3)/2 + 1/3 (4/3)/2 + 1/3 = 1/18 + 4/18 + 6/18 = 11/18.
    fpr, tpr, _ = ref.roc_curve(TIED_LABELS, TIED_SCORES, drop_intermediate=False)
    assert_exact_array(fpr, [0, Fraction(1, 3), Fraction(2, 3), 1])
    assert_exact_array(tpr, [0, Fraction(1, 3), 1, 1])


def test_auc_with_weights() -> None:
    # P = 2 + 1 + 1 = 4, N = 1 + 1 + 3 = 5. Weighted pairs: positive 0.9 (w 2):
    # 2*1/2 + 2*1 + 2*3 = 9; each positive 0.5 (w 1): 0 + 1/2 + 3 = 7/2. 16/20 = 4/5.
    assert exact(ref.roc_auc_score(TIED_LABELS, TIED_SCORES, sample_weight=TIED_WEIGHTS), 0.8)
    tns, fps, fns, tps, thresholds = ref.confusion_matrix_at_thresholds(
        TIED_LABELS, TIED_SCORES, sample_weight=TIED_WEIGHTS
    )
    np.testing.assert_array_equal(thresholds, [0.9, 0.5, 0.1])
    np.testing.assert_array_equal(tps, [2, 4, 4])
    np.testing.assert_array_equal(fps, [1, 2, 5])
    np.testing.assert_array_equal(tns, [4, 3, 0])
    np.testing.assert_array_equal(fns, [2, 0, 0])
    # Integer weights are repetitions of the rows.
    repeated = np.repeat(np.arange(6), TIED_WEIGHTS)
    assert ref.roc_auc_score(
        np.array(TIED_LABELS)[repeated], np.array(TIED_SCORES)[repeated]
    ) == ref.roc_auc_score(TIED_LABELS, TIED_SCORES, sample_weight=TIED_WEIGHTS)
    # Non-integer weights are exact too: halving every weight changes nothing.
    halved = [w / 2 for w in TIED_WEIGHTS]
    assert exact(ref.roc_auc_score(TIED_LABELS, TIED_SCORES, sample_weight=halved), 0.8)


def test_zero_weight_rows_create_no_threshold_and_signed_zeros_merge() -> None:
    _, _, _, _, thresholds = ref.confusion_matrix_at_thresholds(
        [1, 0, 1], [0.9, 0.5, 0.1], sample_weight=[1, 1, 0]
    )
    np.testing.assert_array_equal(thresholds, [0.9, 0.5])
    # -0.0 == 0.0: one tie group (reported as +0.0), AUC 1/2.
    thresholds = ref.confusion_matrix_at_thresholds([1, 0], [-0.0, 0.0])[4]
    assert thresholds.tolist() == [0.0] and not np.signbit(thresholds[0])
    assert ref.roc_auc_score([1, 0], [-0.0, 0.0]) == 0.5


def test_partial_auc_mcclish() -> None:
    # Documentation example, ROC points (0,0) (0,1/2) (1/2,1/2) (1/2,1) (1,1).
    # max_fpr = 1/2: area over [0, 1/2] = 1/2 * 1/2 = 1/4; McClish with
    # min = 1/8, max = 1/2: (1 + (1/4 - 1/8)/(1/2 - 1/8))/2 = (1 + 1/3)/2 = 2/3.
    assert exact(ref.roc_auc_score(DOC_LABELS, DOC_SCORES, max_fpr=0.5), Fraction(2, 3))
    # max_fpr = 1/4 cuts the flat segment: area 1/4 * 1/2 = 1/8; min = 1/32, max = 1/4:
    # (1 + (3/32)/(7/32))/2 = 5/7.
    assert exact(ref.roc_auc_score(DOC_LABELS, DOC_SCORES, max_fpr=0.25), Fraction(5, 7))
    # A single tie group is the diagonal: area a^2/2 = the minimum -> exactly 1/2.
    assert ref.roc_auc_score([1, 0], [0.5, 0.5], max_fpr=0.3) == 0.5
    # max_fpr = 1 is the full AUC.
    assert ref.roc_auc_score(DOC_LABELS, DOC_SCORES, max_fpr=1.0) == 0.75


# Three classes, two rows each; rows of probabilities.
OVO_LABELS = [0, 0, 1, 1, 2, 2]
OVO_SCORES = [
    [0.6, 0.3, 0.1],
    [0.3, 0.4, 0.3],
    [0.2, 0.5, 0.3],
    [0.4, 0.4, 0.2],
    [0.1, 0.3, 0.6],
    [0.3, 0.2, 0.5],
]


def test_hand_and_till_one_vs_one() -> None:
    # Pair (0, 1), rows 0-3. Column 0, class 0 positive: 0.6 > 0.2, 0.4; 0.3 > 0.2,
    # 0.3 < 0.4 -> 3/4. Column 1, class 1 positive: 0.5 > 0.3, 0.4; 0.4 > 0.3,
    # 0.4 = 0.4 -> 7/2 / 4 = 7/8. A(0,1) = 13/16.
    # Pair (0, 2), rows 0,1,4,5. Column 0: 0.6 > 0.1, 0.3; 0.3 > 0.1, 0.3 = 0.3 -> 7/8.
    # Column 2: 0.6, 0.5 > 0.1, 0.3 -> 1. A(0,2) = 15/16.
    # Pair (1, 2): columns 1 and 2 separate perfectly -> A(1,2) = 1.
    # Macro: (13/16 + 15/16 + 1)/3 = 11/12; every pair has 4 rows, so weighted = macro.
    for average in ("macro", "weighted"):
        value = ref.roc_auc_score(OVO_LABELS, OVO_SCORES, multi_class="ovo", average=average)
        assert exact(value, Fraction(11, 12))
    # Weights 1, 1, 1, 1, 2, 2: pair weights 4, 6, 6; the pair AUCs are unchanged
    # (class 2's rows carry equal weights): (4 * 13/16 + 6 * 15/16 + 6) / 16 = 119/128.
    weighted = ref.roc_auc_score(
        OVO_LABELS,
        OVO_SCORES,
        multi_class="ovo",
        average="weighted",
        sample_weight=[1, 1, 1, 1, 2, 2],
    )
    assert exact(weighted, Fraction(119, 128))


def test_one_vs_rest() -> None:
    # Class 0, column 0: positives 0.6 (beats 4), 0.3 (beats 0.2 and 0.1, ties 0.3,
    # loses to 0.4: 5/2) -> 13/16. Class 1, column 1: 0.5 beats 4, 0.4 beats three and
    # ties one -> 15/16. Class 2, column 2: perfect -> 1.
    per_class = ref.roc_auc_score(OVO_LABELS, OVO_SCORES, multi_class="ovr", average=None)
    assert_exact_array(per_class, [Fraction(13, 16), Fraction(15, 16), 1])
    macro = ref.roc_auc_score(OVO_LABELS, OVO_SCORES, multi_class="ovr")
    assert exact(macro, Fraction(11, 12))
    # Weights 1, 1, 1, 1, 2, 2. Class 0 (N = 1 + 1 + 2 + 2 = 6): 0.6 beats all (6),
    # 0.3 beats 0.2 (1) and 0.1 (2), ties 0.3 (2/2) -> 10/12 = 5/6. Class 1 (N = 6):
    # 0.5 beats all (6), 0.4 beats 0.3 (1 + 2), 0.2 (2), ties 0.4 (1/2) -> 23/24.
    # Class 2: 1. Weighted by class weights 2, 2, 4: (5/3 + 23/12 + 4)/8 = 91/96.
    per_class_weighted = ref.roc_auc_score(
        OVO_LABELS, OVO_SCORES, multi_class="ovr", average=None, sample_weight=[1, 1, 1, 1, 2, 2]
    )
    assert_exact_array(per_class_weighted, [Fraction(5, 6), Fraction(23, 24), 1])
    weighted = ref.roc_auc_score(
        OVO_LABELS,
        OVO_SCORES,
        multi_class="ovr",
        average="weighted",
        sample_weight=[1, 1, 1, 1, 2, 2],
    )
    assert exact(weighted, Fraction(91, 96))


def test_equal_error_rate_both_methods() -> None:
    # y = 1, 0, 0, 1, 0 for scores 5..1: P = 2, N = 3. Points (FPR, FNR): (0, 1),
    # (0, 1/2), (1/3, 1/2), (2/3, 1/2), (2/3, 0), (1, 0).
    # interpolate: first FPR >= FNR at (2/3, 1/2); the segment from (1/3, 1/2) is flat,
    # FNR = 1/2 = FPR there -> EER = 1/2.
    # nearest: |FPR - FNR| = 1, 1/2, 1/6, 1/6, 2/3, 1 -> first minimum (1/3, 1/2):
    # (1/3 + 1/2)/2 = 5/12.
    labels, scores = [1, 0, 0, 1, 0], [5, 4, 3, 2, 1]
    assert exact(ref.equal_error_rate(labels, scores), Fraction(1, 2))
    assert exact(ref.equal_error_rate(labels, scores, method="nearest"), Fraction(5, 12))
    # A vertical crossing: y = 1, 0, 1, 0, 0 -> points (0,1) (0,1/2) (1/3,1/2) (1/3,0) ...
    # the segment at FPR = 1/3 meets FPR = FNR at 1/3.
    assert exact(ref.equal_error_rate([1, 0, 1, 0, 0], scores), Fraction(1, 3))
    # A diagonal crossing inside one tie group: (0, 1) to (1, 0) meets at 1/2.
    assert ref.equal_error_rate([1, 1, 0, 0], [0.5] * 4) == 0.5
    assert ref.equal_error_rate([1, 1, 0, 0], [0.5] * 4, method="nearest") == 0.5
    # Weights 1, 3, 1, 1 on y = 1, 0, 1, 0 (scores 4..1): P = 2, N = 4. Points (0, 1),
    # (0, 1/2), (3/4, 1/2), (3/4, 0), (1, 0): interpolate on the flat segment -> 1/2;
    # nearest: gaps 1, 1/2, 1/4, 3/4, 1 -> (3/4 + 1/2)/2 = 5/8.
    weights = [1, 3, 1, 1]
    assert exact(ref.equal_error_rate([1, 0, 1, 0], [4, 3, 2, 1], sample_weight=weights), 0.5)
    assert exact(
        ref.equal_error_rate([1, 0, 1, 0], [4, 3, 2, 1], method="nearest", sample_weight=weights),
        Fraction(5, 8),
    )


def test_precision_recall_areas_on_a_tiny_case() -> None:
    # y = 1, 0, 1, 0 for scores 4..1, P = 2: points (r, p) = (1/2, 1), (1/2, 1/2),
    # (1, 2/3), (1, 1/2).
    labels, scores = [1, 0, 1, 0], [4, 3, 2, 1]
    # 11-point: recall >= i/10 holds for TP = 1 iff 10 >= 2i (i <= 5): max p = 1 for
    # i = 0..5, 2/3 for i = 6..10 -> (6 + 5 * 2/3)/11 = 28/33.
    assert exact(ref.pr_auc_score(labels, scores, method="11-point"), Fraction(28, 33))
    # Trapezoid from (0, 1): 1/2 * 1 + 0 + 1/2 (1/2 + 2/3)/2 + 0 = 1/2 + 7/24 = 19/24.
    assert exact(ref.pr_auc_score(labels, scores), Fraction(19, 24))
    # Interpolated: 1/2 * max(p: r >= 1/2) + 1/2 * max(p: r >= 1) = 1/2 + 1/3 = 5/6,
    # equal here to AP = 1/2 * 1 + 1/2 * 2/3.
    assert exact(ref.pr_auc_score(labels, scores, method="interpolated"), Fraction(5, 6))
    assert exact(ref.average_precision_score(labels, scores), Fraction(5, 6))
    # Recall thresholds are compared exactly (10 TP >= i P): 3 positives, 1 negative,
    # 7 positives (P = 10). Recall 0.3 is reached with precision 1 (TP = 3, FP = 0), so
    # i = 0..3 give 1; i = 4..10 give max TP/(TP + 1) = 10/11 -> (4 + 70/11)/11 = 114/121.
    # (In floats 3/10 < 3 * 0.1, which would give 113/121.)
    boundary_labels = [1, 1, 1, 0] + [1] * 7
    boundary_scores = list(range(11, 0, -1))
    eleven_point = ref.pr_auc_score(boundary_labels, boundary_scores, method="11-point")
    assert exact(eleven_point, Fraction(114, 121))


def test_undefined_values_are_nan_without_warnings() -> None:
    one_class = [1, 1, 1]
    scores = [0.3, 0.2, 0.1]
    assert math.isnan(ref.roc_auc_score(one_class, scores))
    assert math.isnan(ref.roc_auc_score(one_class, scores, max_fpr=0.5))
    assert math.isnan(ref.equal_error_rate(one_class, scores))
    fpr, tpr, _ = ref.roc_curve(one_class, scores)
    assert np.isnan(fpr).all() and not np.isnan(tpr).any()
    # No positives: AP, the PR areas and the recall are NaN.
    no_positive = [0, 0, 0]
    assert math.isnan(ref.average_precision_score(no_positive, scores))
    for method in ("trapezoid", "interpolated", "11-point"):
        assert math.isnan(ref.pr_auc_score(no_positive, scores, method=method))
    _, recall, _ = ref.precision_recall_curve(no_positive, scores)
    assert np.isnan(recall[:-1]).all()
    _, fnr, _ = ref.det_curve(no_positive, scores)
    assert np.isnan(fnr).all()
    # A class only present with zero weight is absent.
    assert math.isnan(ref.roc_auc_score([1, 0, 1], scores, sample_weight=[1, 0, 1]))


def test_pos_label_inference() -> None:
    # {0, 1}, {-1, 1} and booleans infer 1 / True; other labels need pos_label.
    assert ref.roc_auc_score([-1, -1, 1, 1], DOC_SCORES) == 0.75
    assert ref.roc_auc_score([False, False, True, True], DOC_SCORES) == 0.75
    assert ref.roc_auc_score(["a", "a", "b", "b"], DOC_SCORES, pos_label="b") == 0.75
    with pytest.raises(ValueError, match="pos_label"):
        ref.roc_auc_score(["a", "a", "b", "b"], DOC_SCORES)
    with pytest.raises(ValueError, match="pos_label"):
        ref.roc_auc_score(DOC_LABELS, DOC_SCORES, pos_label=2)


def test_band_leaves_out_a_replicate_without_a_class() -> None:
    # scores 0.9 (+), 0.5 (+, -), 0.1 (-): TPR 1/2 at FPR 0 and 1 at FPR 1/2 on the data.
    # Replicate [0, 2, 0, 1] draws the positive at 0.5 twice and the negative at 0.1
    # once: vertices (FPR, TPR) (0, 0), (0, 1), (1, 1), so TPR 1 at both grid points.
    # The others draw no positive, no negative, or nothing: no curve (a Poisson
    # replicate can), left out and counted
    y = [1, 1, 0, 0]
    s = [0.9, 0.5, 0.5, 0.1]
    counts = [[0, 2, 0, 1], [0, 0, 1, 1], [1, 1, 0, 0], [0, 0, 0, 0]]
    band = ref.roc_band(y, s, counts, grid=[0.0, 0.5])
    assert band.n_undefined == 3
    assert band.curves.tolist() == [[1.0, 1.0]]
    assert band.estimate.tolist() == [0.5, 1.0]
    everything_undefined = ref.precision_recall_band(y, s, counts[1:], grid=[1.0])
    assert everything_undefined.n_undefined == 3 and everything_undefined.curves.shape == (0, 1)
    assert math.isnan(everything_undefined.lower[0])
    assert math.isnan(everything_undefined.upper[0])

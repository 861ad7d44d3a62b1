"""Worked examples of the lecture texts, recomputed by hand.

Every expected value is written as an exact fraction whose derivation is in the
comment next to it; ``exact`` compares the reference's float with the fraction
rounded once. Printed numbers of the sources that turned out wrong are noted.

Lecture texts (see the bibliography of the documentation): Wu, "Evaluation" (exercise
5, Table 3; section 2.2 cost matrix; exercise 9); the "Classification validation"
slides (Iris kNN and 9990/10/90/10 examples); Honavar, "Evaluating model performance"
(TP=55 example, cutoff table, promotional-offer profit matrix).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import assay.reference as ref

# The reference computes exactly and rounds once: a float equal to the fraction
# rounded to nearest, or within 1 ulp where a square root is involved.
ONE_ULP = 2.0**-52


def exact(value: float, expected: Fraction | int) -> bool:
    return value == float(Fraction(expected))


def expand(matrix: list[list[int]], labels: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Label vectors (true, predicted) realising a confusion matrix, rows = true class."""
    truth, predicted = [], []
    for i, row in enumerate(matrix):
        for j, count in enumerate(row):
            truth.append(np.repeat(labels[i], count))
            predicted.append(np.repeat(labels[j], count))
    return np.concatenate(truth), np.concatenate(predicted)


# ------------------------------------------------------------------- Wu, exercise 5

TABLE_3_LABELS = np.array([1, 2, 1, 1, 2, 1, 2, 2, 1, 2])
TABLE_3_SCORES = np.array([1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1])
TABLE_3_SWAPPED = np.array([1, 2, 1, 1, 2, 1, 2, 2, 2, 1])  # labels of rows 9, 10 exchanged

# P = 5 positives (class 1). Walking down the table, (TP, FP) after each row:
# (1,0) (1,1) (2,1) (3,1) (3,2) (4,2) (4,3) (4,4) (5,4) (5,5), so
TABLE_3_PRECISION = [
    Fraction(1),
    Fraction(1, 2),
    Fraction(2, 3),
    Fraction(3, 4),
    Fraction(3, 5),
    Fraction(4, 6),
    Fraction(4, 7),
    Fraction(4, 8),
    Fraction(5, 9),
    Fraction(5, 10),
]
TABLE_3_RECALL = [Fraction(tp, 5) for tp in (1, 1, 2, 3, 3, 4, 4, 4, 5, 5)]


def test_table_3_precision_and_recall_columns() -> None:
    precision, recall, thresholds = ref.precision_recall_curve(
        TABLE_3_LABELS, TABLE_3_SCORES, pos_label=1
    )
    # precision_recall_curve lists increasing thresholds, then the point (r, p) = (0, 1)
    assert all(exact(p, e) for p, e in zip(precision[:-1], TABLE_3_PRECISION[::-1], strict=True))
    assert all(exact(r, e) for r, e in zip(recall[:-1], TABLE_3_RECALL[::-1], strict=True))
    assert (precision[-1], recall[-1]) == (1.0, 0.0)
    np.testing.assert_array_equal(thresholds, TABLE_3_SCORES[::-1])


def test_table_3_auc_pr_trapezoid_and_average_precision() -> None:
    # AUC-PR column, (r_i - r_{i-1}) (p_i + p_{i-1}) / 2 with (r_0, p_0) = (0, 1):
    #   row 1: 1/5 (1 + 1)/2 = 1/5;  row 3: 1/5 (1/2 + 2/3)/2 = 7/60;
    #   row 4: 1/5 (2/3 + 3/4)/2 = 17/120;  row 6: 1/5 (3/5 + 2/3)/2 = 19/150;
    #   row 9: 1/5 (1/2 + 5/9)/2 = 19/180;  the other rows add 0 (recall unchanged).
    #   Sum = (360 + 210 + 255 + 228 + 190) / 1800 = 1243/1800 = 0.690556.
    # AP column, (r_i - r_{i-1}) p_i: 1/5 (1 + 2/3 + 3/4 + 2/3 + 5/9) = 131/180 = 0.727778.
    auc_pr = ref.pr_auc_score(TABLE_3_LABELS, TABLE_3_SCORES, pos_label=1)
    ap = ref.average_precision_score(TABLE_3_LABELS, TABLE_3_SCORES, pos_label=1)
    assert exact(auc_pr, Fraction(1243, 1800))
    assert exact(ap, Fraction(131, 180))
    assert round(auc_pr, 6) == 0.690556 and round(ap, 6) == 0.727778


def test_table_3_after_swapping_rows_9_and_10() -> None:
    # Rows 9, 10 become (TP, FP) = (4, 5), (5, 5): p = 4/9, 1/2 and r = 4/5, 1.
    # AUC-PR: row 9 adds 0, row 10 adds 1/5 (4/9 + 1/2)/2 = 17/180 instead of 19/180:
    #   (360 + 210 + 255 + 228 + 170) / 1800 = 1223/1800 = 0.679444.
    # AP: 1/5 (1 + 2/3 + 3/4 + 2/3 + 1/2) = 43/60 = 0.716667.
    auc_pr = ref.pr_auc_score(TABLE_3_SWAPPED, TABLE_3_SCORES, pos_label=1)
    ap = ref.average_precision_score(TABLE_3_SWAPPED, TABLE_3_SCORES, pos_label=1)
    assert exact(auc_pr, Fraction(1223, 1800))
    assert exact(ap, Fraction(43, 60))


def test_table_3_other_summaries() -> None:
    # ROC AUC: positives at 1.0, 0.8, 0.7, 0.5, 0.2 outrank 5, 4, 4, 3, 1 of the
    # negatives {0.9, 0.6, 0.4, 0.3, 0.1}: 17/25; after the swap the last positive
    # (0.1) outranks none: 16/25.
    assert exact(ref.roc_auc_score(TABLE_3_LABELS, TABLE_3_SCORES, pos_label=1), Fraction(17, 25))
    assert exact(ref.roc_auc_score(TABLE_3_SWAPPED, TABLE_3_SCORES, pos_label=1), Fraction(16, 25))
    # All-point interpolated AP: the recall steps 1/5 at r = 1/5, 2/5, 3/5, 4/5, 1 take
    # max precision to the right: 1, 3/4, 3/4, 2/3, 5/9 -> 1/5 (134/36) = 67/90.
    interpolated = ref.pr_auc_score(
        TABLE_3_LABELS, TABLE_3_SCORES, method="interpolated", pos_label=1
    )
    assert exact(interpolated, Fraction(67, 90))
    # 11-point: max precision at recall >= 0, .1, ..., 1:
    # 1, 1, 1 (r = 1/5 counts for 0.2), 3/4 for 0.3-0.6, 2/3 for 0.7-0.8, 5/9 for 0.9-1.
    # (3 + 4 * 3/4 + 2 * 2/3 + 2 * 5/9) / 11 = (76/9) / 11 = 76/99.
    eleven_point = ref.pr_auc_score(TABLE_3_LABELS, TABLE_3_SCORES, method="11-point", pos_label=1)
    assert exact(eleven_point, Fraction(76, 99))
    # EER: after row 5, FPR = 2/5 (negatives 0.9, 0.6) and FNR = 2/5 (0.5, 0.2 missed).
    for method in ("interpolate", "nearest"):
        eer = ref.equal_error_rate(TABLE_3_LABELS, TABLE_3_SCORES, method=method, pos_label=1)
        assert exact(eer, Fraction(2, 5))


# ----------------------------------------------------------------- Wu, section 2.2


def test_cost_matrix_of_section_2_2() -> None:
    # C = [[0, 10], [1000, 10]] (0 = qualified, 1 = defective). 5 parts: true
    # [0, 0, 0, 1, 1], predicted [0, 1, 0, 0, 1]: costs 0 + 10 + 0 + 1000 + 10 = 1020,
    # mean 204; per class (exercise 9 normalized): 10/3 + (1000 + 10)/2 = 1525/3.
    y_true, y_pred = [0, 0, 0, 1, 1], [0, 1, 0, 0, 1]
    costs = [[0, 10], [1000, 10]]
    assert ref.expected_cost(y_true, y_pred, costs, normalize=None) == 1020.0
    assert ref.expected_cost(y_true, y_pred, costs) == 204.0
    assert exact(ref.expected_cost(y_true, y_pred, costs, normalize="true"), Fraction(1525, 3))


def test_bayes_decision_of_exercise_7() -> None:
    # Exercise 7(d), C = [[0, 10], [1, 0]] for labels (1, 2): deciding 1 risks
    # 1 - p, deciding 2 risks 10 p (p = P(y = 1 | x)); 1 wins iff p > 1/11.
    proba = [[0.5, 0.5], [0.1, 0.9], [0.05, 0.95], [0.0, 1.0]]
    decisions = ref.bayes_decision(proba, [[0, 10], [1, 0]], labels=[1, 2])
    np.testing.assert_array_equal(decisions, [1, 1, 2, 2])
    # 7(b): the 0-1 cost picks the larger posterior; a tie picks the first column.
    np.testing.assert_array_equal(
        ref.bayes_decision([[0.3, 0.7], [0.5, 0.5]], [[0, 1], [1, 0]]), [1, 0]
    )
    # C = [[0, 3], [1, 0]] at p = 1/4: both risks are exactly 3/4 -> first column.
    np.testing.assert_array_equal(ref.bayes_decision([[0.25, 0.75]], [[0, 3], [1, 0]]), [0])


# -------------------------------------------------- "Classification validation"

IRIS_MATRIX = [[50, 0, 0], [0, 47, 3], [0, 2, 48]]


def test_iris_knn_confusion_matrix_and_class_measures() -> None:
    y_true, y_pred = expand(IRIS_MATRIX, [1, 2, 3])
    np.testing.assert_array_equal(ref.confusion_matrix(y_true, y_pred), IRIS_MATRIX)
    precision = ref.precision_score(y_true, y_pred, average=None)
    recall = ref.recall_score(y_true, y_pred, average=None)
    f1 = ref.f1_score(y_true, y_pred, average=None)
    # Precision_j = n_jj / |R_j|: 50/50, 47/49, 48/51.
    for value, expected in zip(precision, [1, Fraction(47, 49), Fraction(48, 51)], strict=True):
        assert exact(value, expected)
    # Recall_i = n_ii / |D_i|: 50/50, 47/50, 48/50 (the slide prints "Precision_3 = 48/50"
    # in the recall line: a typo for Recall_3).
    for value, expected in zip(recall, [1, Fraction(47, 50), Fraction(48, 50)], strict=True):
        assert exact(value, expected)
    # F_i = 2 n_ii / (|D_i| + |R_i|): 1, 94/99 = 0.9495 (printed 0.949), 96/101 = 0.9505
    # (printed 0.95).
    for value, expected in zip(f1, [1, Fraction(94, 99), Fraction(96, 101)], strict=True):
        assert exact(value, expected)
    # Overall F = mean = (1 + 94/99 + 96/101)/3 = 28997/29997 = 0.96666 (printed 0.966).
    macro_f1 = ref.f1_score(y_true, y_pred, average="macro")
    assert exact(macro_f1, Fraction(28997, 29997))
    assert math.floor(macro_f1 * 1000) / 1000 == 0.966
    # Accuracy = trace / n = 145/150; so is the balanced accuracy (50 per class).
    assert exact(ref.accuracy_score(y_true, y_pred), Fraction(145, 150))
    assert exact(ref.balanced_accuracy_score(y_true, y_pred), Fraction(145, 150))
    # Gorodkin R_K: s = 150, c = 145, t = (50, 50, 50), p = (50, 49, 51):
    # (145*150 - 7500) / sqrt((22500 - 7502)(22500 - 7500)) = 14250 / sqrt(14998 * 15000).
    expected_rk = 14250 / math.sqrt(14998 * 15000)
    assert ref.matthews_corrcoef(y_true, y_pred) == pytest.approx(expected_rk, rel=ONE_ULP)


def test_imbalanced_two_class_example() -> None:
    y_true, y_pred = expand([[9990, 10], [90, 10]], [1, 2])
    # ACC = (9990 + 10) / 10100 = 0.990099; the slide's "ACC = 0.998" is wrong.
    accuracy = ref.accuracy_score(y_true, y_pred)
    assert exact(accuracy, Fraction(10000, 10100))
    assert round(accuracy, 3) == 0.990
    precision = ref.precision_score(y_true, y_pred, average=None)
    recall = ref.recall_score(y_true, y_pred, average=None)
    f1 = ref.f1_score(y_true, y_pred, average=None)
    # Precision_1 = 9990/10080 = 0.991, Precision_2 = 10/20 = 0.5 (as printed).
    assert exact(precision[0], Fraction(9990, 10080)) and exact(precision[1], Fraction(1, 2))
    # Recall_1 = 9990/10000 = 0.999, Recall_2 = 10/100 = 0.1 (as printed).
    assert exact(recall[0], Fraction(999, 1000)) and exact(recall[1], Fraction(1, 10))
    # F_1 = 19980/20080 = 0.995, F_2 = 20/120 = 0.167, F = mean = 0.581 (as printed).
    assert exact(f1[0], Fraction(19980, 20080)) and exact(f1[1], Fraction(1, 6))
    macro_f1 = ref.f1_score(y_true, y_pred, average="macro")
    assert exact(macro_f1, (Fraction(19980, 20080) + Fraction(1, 6)) / 2)
    assert round(macro_f1, 3) == 0.581
    # Balanced accuracy (0.999 + 0.1)/2 = 0.5495; adjusted (0.5495 - 1/2)/(1/2) = 0.099.
    assert exact(ref.balanced_accuracy_score(y_true, y_pred), Fraction(5495, 10000))
    assert exact(ref.balanced_accuracy_score(y_true, y_pred, adjusted=True), Fraction(99, 1000))


# ------------------------------------------------------------------------ Honavar


def _tp55_example() -> tuple[np.ndarray, np.ndarray]:
    # The slide's table puts the predicted label in rows: TP = 55, FP = 5 (row C_1),
    # FN = 10, TN = 30 (row not C_1). Rows = true class here, positive class 1.
    return expand([[55, 10], [5, 30]], [1, 0])


def test_tp55_example_rates() -> None:
    y_true, y_pred = _tp55_example()
    # sensitivity = 55/65, specificity = 30/35, accuracy = 85/100, false alarm = 5/35.
    assert exact(ref.recall_score(y_true, y_pred), Fraction(55, 65))
    assert exact(ref.specificity_score(y_true, y_pred), Fraction(30, 35))
    assert exact(ref.accuracy_score(y_true, y_pred), Fraction(85, 100))
    assert exact(ref.false_positive_rate(y_true, y_pred), Fraction(5, 35))
    # and the others from the same cells: precision 55/60, NPV 30/40, FNR 10/65,
    # FDR 5/60, F1 = 110/125, error 15/100.
    assert exact(ref.precision_score(y_true, y_pred), Fraction(55, 60))
    assert exact(ref.npv_score(y_true, y_pred), Fraction(30, 40))
    assert exact(ref.false_negative_rate(y_true, y_pred), Fraction(10, 65))
    assert exact(ref.false_discovery_rate(y_true, y_pred), Fraction(5, 60))
    assert exact(ref.f1_score(y_true, y_pred), Fraction(110, 125))
    assert exact(ref.error_rate(y_true, y_pred), Fraction(15, 100))
    assert ref.error_rate(y_true, y_pred, normalize=False) == 15.0


def test_tp55_example_correlation_coefficients() -> None:
    y_true, y_pred = _tp55_example()
    # CC = (55*30 - 5*10) / sqrt(65 * 60 * 35 * 40) = 1600 / sqrt(5460000) = 0.684737.
    expected_cc = 1600 / math.sqrt(5460000)
    for average in ("binary", "multiclass", "macro", "weighted"):
        # macro/weighted: CC of class 0 equals CC of class 1 (the formula is symmetric).
        value = ref.matthews_corrcoef(y_true, y_pred, average=average)
        assert value == pytest.approx(expected_cc, rel=ONE_ULP), average
    # Micro CC pools the cells of both classes: TP = 55 + 30, TN = 30 + 55,
    # FP = FN = 5 + 10: (85*85 - 15*15) / sqrt(100^4) = 7000/10000.
    assert exact(ref.matthews_corrcoef(y_true, y_pred, average="micro"), Fraction(7, 10))
    # Micro precision = micro recall = sum TP / N = 85/100 (two classes, all labels).
    assert exact(ref.precision_score(y_true, y_pred, average="micro"), Fraction(85, 100))
    assert exact(ref.recall_score(y_true, y_pred, average="micro"), Fraction(85, 100))


# Cutoff table: (actual class, probability of "1"), left column then right column.
CUTOFF_TABLE = [
    (1, 0.996), (1, 0.988), (1, 0.984), (1, 0.980), (1, 0.948), (1, 0.889),
    (1, 0.848), (0, 0.762), (1, 0.707), (1, 0.681), (1, 0.656), (0, 0.622),
    (1, 0.506), (0, 0.471), (0, 0.337), (1, 0.218), (0, 0.199), (0, 0.149),
    (0, 0.048), (0, 0.038), (0, 0.025), (0, 0.022), (0, 0.016), (0, 0.004),
]  # fmt: skip


def test_cutoff_table_counts() -> None:
    actual = np.array([a for a, _ in CUTOFF_TABLE])
    probability = np.array([p for _, p in CUTOFF_TABLE])
    _, fps, _, tps, thresholds = ref.confusion_matrix_at_thresholds(actual, probability)
    assert len(thresholds) == 24 and tps[-1] == 12 and fps[-1] == 12

    def classified_as_one(cutoff: float) -> float:
        k = np.flatnonzero(thresholds >= cutoff)[-1]  # lowest threshold >= cutoff
        return tps[k] + fps[k]

    # Cutoff 0.5: the 12 left-column rows plus 0.506 -> 13 (the slide's "12" is wrong).
    assert classified_as_one(0.5) == 13
    # Cutoff 0.8: 0.996 ... 0.848 -> 7 (as printed).
    assert classified_as_one(0.8) == 7
    # At 0.5: TP = 11 (0.506 counts), FP = 2 (0.762, 0.622), FN = 1 (0.218), TN = 10.
    y_pred = (probability >= 0.5).astype(int)
    np.testing.assert_array_equal(ref.confusion_matrix(actual, y_pred), [[10, 2], [1, 11]])
    # AUC: the 7 top positives outrank all 12 negatives, 0.707/0.681/0.656 outrank 11,
    # 0.506 outranks 10, 0.218 outranks 8: (84 + 33 + 10 + 8) / 144 = 135/144.
    assert exact(ref.roc_auc_score(actual, probability), Fraction(135, 144))


def test_promotional_offer_profit_matrix() -> None:
    # 1000 customers, actual 1 first: [[8, 2], [20, 970]].
    y_true, y_pred = expand([[8, 2], [20, 970]], [1, 0])
    np.testing.assert_array_equal(
        ref.confusion_matrix(y_true, y_pred, labels=[1, 0]), [[8, 2], [20, 970]]
    )
    # Error rate (2 + 20)/1000 = 2.2% (the slide writes "(2+20) = 2.2%").
    assert exact(ref.error_rate(y_true, y_pred), Fraction(22, 1000))
    # Profit $10 per responder reached, $1 per offer to a non-responder: profit matrix
    # [[80, 0], [-20, 0]] in total, net $60. As costs per customer (labels 1, 0):
    costs = [[-10, 0], [1, 0]]
    assert ref.expected_cost(y_true, y_pred, costs, labels=[1, 0], normalize=None) == -60.0
    assert exact(ref.expected_cost(y_true, y_pred, costs, labels=[1, 0]), Fraction(-60, 1000))
    # Exercise 9 form tr(C^T Ahat): -10 * 8/10 + 1 * 20/990 = -8 + 2/99 = -790/99.
    assert exact(
        ref.expected_cost(y_true, y_pred, costs, labels=[1, 0], normalize="true"),
        Fraction(-790, 99),
    )

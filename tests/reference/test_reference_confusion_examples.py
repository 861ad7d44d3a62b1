"""Small confusion-matrix, cost and regression examples worked by hand.

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


# Three classes; class 2 is never predicted, class 3 only predicted.
Y_TRUE = [0, 0, 1, 1, 1, 2, 2]
Y_PRED = [0, 1, 1, 1, 0, 1, 3]
# Confusion matrix over labels 0, 1, 2, 3 (rows true):
#   0: [1, 1, 0, 0]   1: [1, 2, 0, 0]   2: [0, 1, 0, 1]   3: [0, 0, 0, 0]
# One-vs-rest cells (TP, FP, FN, TN) over the 7 rows:
#   0: (1, 1, 1, 4)   1: (2, 2, 1, 2)   2: (0, 0, 2, 5)   3: (0, 1, 0, 6)


def test_confusion_matrix_counts_and_normalizations() -> None:
    matrix = ref.confusion_matrix(Y_TRUE, Y_PRED)
    np.testing.assert_array_equal(matrix, [[1, 1, 0, 0], [1, 2, 0, 0], [0, 1, 0, 1], [0] * 4])
    assert matrix.dtype == np.int64
    # 'true' divides rows by 2, 3, 2; the empty row of class 3 stays 0.
    by_row = ref.confusion_matrix(Y_TRUE, Y_PRED, normalize="true")
    np.testing.assert_array_equal(by_row[3], [0, 0, 0, 0])
    assert exact(by_row[1, 1], Fraction(2, 3))
    # 'pred' divides columns by 2, 4, 0, 1; 'all' by 7.
    by_column = ref.confusion_matrix(Y_TRUE, Y_PRED, normalize="pred")
    np.testing.assert_array_equal(by_column[:, 2], [0, 0, 0, 0])
    assert exact(by_column[2, 1], Fraction(1, 4))
    assert exact(ref.confusion_matrix(Y_TRUE, Y_PRED, normalize="all")[1, 1], Fraction(2, 7))
    # labels select and order classes; rows with other labels are not counted.
    np.testing.assert_array_equal(
        ref.confusion_matrix(Y_TRUE, Y_PRED, labels=[1, 0]), [[2, 1], [1, 1]]
    )
    # Weights give float counts: weights 1..7.
    weighted = ref.confusion_matrix(Y_TRUE, Y_PRED, sample_weight=[1, 2, 3, 4, 5, 6, 7])
    assert weighted.dtype == np.float64
    np.testing.assert_array_equal(weighted[1], [5, 7, 0, 0])


def test_per_class_rates_and_zero_division() -> None:
    # Precision TP/(TP+FP): 1/2, 2/4, 0/0, 0/1; recall TP/(TP+FN): 1/2, 2/3, 0/2, 0/0.
    precision = ref.precision_score(Y_TRUE, Y_PRED, average=None)
    np.testing.assert_array_equal(precision, [0.5, 0.5, 0.0, 0.0])  # "warn" -> 0
    precision_nan = ref.precision_score(Y_TRUE, Y_PRED, average=None, zero_division=np.nan)
    assert np.isnan(precision_nan[2]) and precision_nan[3] == 0.0
    recall_one = ref.recall_score(Y_TRUE, Y_PRED, average=None, zero_division=1.0)
    assert_values = [Fraction(1, 2), Fraction(2, 3), 0, 1]
    assert all(exact(v, e) for v, e in zip(recall_one, assert_values, strict=True))
    # Macro with NaN: the NaN class is skipped -> (1/2 + 1/2 + 0)/3 = 1/3.
    assert exact(
        ref.precision_score(Y_TRUE, Y_PRED, average="macro", zero_division=np.nan),
        Fraction(1, 3),
    )
    # Weighted by true support (2, 3, 2, 0): recall (2 * 1/2 + 3 * 2/3 + 0) / 7 = 3/7,
    # which is the accuracy (weighted recall always is).
    assert exact(ref.recall_score(Y_TRUE, Y_PRED, average="weighted"), Fraction(3, 7))
    assert exact(ref.accuracy_score(Y_TRUE, Y_PRED), Fraction(3, 7))
    # Micro pools TP = 3, FP = 4, FN = 4, TN = 17: precision = recall = 3/7,
    # specificity 17/21, NPV 17/21, FPR 4/21, FNR 4/7, FDR 4/7.
    assert exact(ref.precision_score(Y_TRUE, Y_PRED, average="micro"), Fraction(3, 7))
    assert exact(ref.specificity_score(Y_TRUE, Y_PRED, average="micro"), Fraction(17, 21))
    assert exact(ref.npv_score(Y_TRUE, Y_PRED, average="micro"), Fraction(17, 21))
    assert exact(ref.false_positive_rate(Y_TRUE, Y_PRED, average="micro"), Fraction(4, 21))
    assert exact(ref.false_negative_rate(Y_TRUE, Y_PRED, average="micro"), Fraction(4, 7))
    assert exact(ref.false_discovery_rate(Y_TRUE, Y_PRED, average="micro"), Fraction(4, 7))
    # Specificity per class TN/(TN+FP): 4/5, 2/4, 5/5, 6/7.
    specificity = ref.specificity_score(Y_TRUE, Y_PRED, average=None)
    expected = [Fraction(4, 5), Fraction(1, 2), 1, Fraction(6, 7)]
    assert all(exact(v, e) for v, e in zip(specificity, expected, strict=True))
    # labels=[2]: rows of other classes stay negatives of class 2: FN 2, TN 5 ->
    # NPV 5/7 and FNR 2/2.
    assert exact(ref.npv_score(Y_TRUE, Y_PRED, labels=[2], average="macro"), Fraction(5, 7))
    assert ref.false_negative_rate(Y_TRUE, Y_PRED, labels=[2], average="macro") == 1.0


def test_f_beta_from_counts() -> None:
    # Class 1: TP 2, FP 2, FN 1. F1 = 4/(4 + 3) = 4/7; F2 = 5*2/(5*2 + 4*1 + 2) = 10/16;
    # F_0.5 = 1.25*2/(1.25*2 + 0.25*1 + 2) = 2.5/4.75 = 10/19.
    f_values = {
        1.0: Fraction(4, 7),
        2.0: Fraction(10, 16),
        0.5: Fraction(10, 19),
        0.0: Fraction(1, 2),  # the precision
        math.inf: Fraction(2, 3),  # the recall
    }
    for beta, expected in f_values.items():
        value = ref.fbeta_score(Y_TRUE, Y_PRED, beta=beta, labels=[1], average="macro")
        assert exact(value, expected), beta
    assert exact(ref.f1_score(Y_TRUE, Y_PRED, labels=[1], average="macro"), Fraction(4, 7))
    # Class 3 has TP = FN = 0, FP = 1: F = 0/1 = 0 is defined; class 2: 0/2 = 0.
    np.testing.assert_array_equal(
        ref.f1_score(Y_TRUE, Y_PRED, average=None, zero_division=np.nan), [0.5, 4 / 7, 0, 0]
    )
    # A class absent from both vectors has F = 0/0 -> zero_division.
    assert ref.f1_score(Y_TRUE, Y_PRED, labels=[9], average="macro", zero_division=1.0) == 1.0


def test_binary_average_uses_pos_label() -> None:
    y_true, y_pred = ["n", "p", "p", "n"], ["p", "p", "n", "n"]
    # Positive "p": TP 1, FP 1, FN 1, TN 1 -> every rate 1/2.
    for metric in (ref.precision_score, ref.recall_score, ref.specificity_score, ref.npv_score):
        assert metric(y_true, y_pred, pos_label="p") == 0.5
    with pytest.raises(ValueError):
        ref.precision_score(y_true, y_pred, pos_label="x")
    with pytest.raises(ValueError):
        ref.precision_score([0, 1, 2], [0, 1, 2])


def test_matthews_and_cohen_kappa() -> None:
    # R_K of the 4 x 4 matrix: s = 7, c = 3, t = (2, 3, 2, 0), p = (2, 4, 0, 1):
    # cov = 3*7 - (4 + 12 + 0 + 0) = 5; s^2 - sum p^2 = 49 - 21 = 28;
    # s^2 - sum t^2 = 49 - 17 = 32; R_K = 5 / sqrt(28 * 32).
    assert ref.matthews_corrcoef(Y_TRUE, Y_PRED) == pytest.approx(5 / math.sqrt(896), rel=1e-15)
    # Per class CC with (TP, FP, FN, TN): class 2 has TP + FP = 0 -> zero_division.
    per_class = ref.matthews_corrcoef(Y_TRUE, Y_PRED, average=None, zero_division=np.nan)
    assert np.isnan(per_class[2])
    # class 0: (1*4 - 1*1) / sqrt(2 * 2 * 5 * 5) = 3/10.
    assert per_class[0] == 0.3
    # Constant predictions: (s^2 - sum p^2) = 0 -> zero_division ("warn" -> 0).
    assert ref.matthews_corrcoef([0, 1, 1], [1, 1, 1]) == 0.0
    assert math.isnan(ref.matthews_corrcoef([0, 1, 1], [1, 1, 1], zero_division=np.nan))
    # Kappa: y1 = 0, 0, 1, 1 and y2 = 0, 1, 1, 1: A = [[1, 1], [0, 2]], row sums (2, 2),
    # column sums (1, 3); observed disagreement 1, expected 2*3/4 + 2*1/4 = 2 -> 1 - 1/2.
    assert ref.cohen_kappa_score([0, 0, 1, 1], [0, 1, 1, 1]) == 0.5
    # Linear weights on three ordered classes: y1 = 0, 1, 2, 2, y2 = 0, 2, 2, 1:
    # A = [[1,0,0],[0,0,1],[0,1,1]]; observed |i-j| sum = 1 + 1 = 2; rows (1, 1, 2),
    # columns (1, 1, 2); expected = sum_ij |i-j| r_i c_j / 4 with
    # r c^T = [[1,1,2],[1,1,2],[2,2,4]] and |i-j| = [[0,1,2],[1,0,1],[2,1,0]]:
    # (1 + 4 + 1 + 2 + 4 + 2)/4 = 14/4; kappa = 1 - 2/(14/4) = 3/7.
    assert exact(
        ref.cohen_kappa_score([0, 1, 2, 2], [0, 2, 2, 1], weights="linear"), Fraction(3, 7)
    )
    # One class only: the expected disagreement is 0 -> NaN.
    assert math.isnan(ref.cohen_kappa_score([0, 0], [0, 0]))


def test_balanced_accuracy_skips_classes_only_predicted() -> None:
    # Recall of classes 0, 1, 2 (class 3 has no true rows): 1/2, 2/3, 0 -> 7/18.
    assert exact(ref.balanced_accuracy_score(Y_TRUE, Y_PRED), Fraction(7, 18))
    # Adjusted with K = 3: (7/18 - 1/3) / (2/3) = 1/12.
    assert exact(ref.balanced_accuracy_score(Y_TRUE, Y_PRED, adjusted=True), Fraction(1, 12))
    # Adjusted with a single true class is undefined.
    assert math.isnan(ref.balanced_accuracy_score([1, 1], [1, 0], adjusted=True))


def test_classification_report_dict_and_text() -> None:
    y_true, y_pred = [0, 1, 2, 2], [0, 2, 2, 1]
    report = ref.classification_report(y_true, y_pred, output_dict=True)
    # Class 2: TP 1, FP 1, FN 1 -> precision = recall = F1 = 1/2, support 2.
    assert report["2"] == {"precision": 0.5, "recall": 0.5, "f1-score": 0.5, "support": 2.0}
    assert report["accuracy"] == 0.5
    # Macro F1 (1 + 0 + 1/2)/3; weighted by support (1, 1, 2): (1 + 0 + 1)/4.
    assert report["macro avg"]["f1-score"] == 0.5
    assert report["weighted avg"]["f1-score"] == 0.5
    assert report["weighted avg"]["support"] == 4.0
    # labels leaving out a present class: "micro avg" instead of "accuracy".
    partial = ref.classification_report(y_true, y_pred, labels=[2, 0], output_dict=True)
    assert list(partial) == ["2", "0", "micro avg", "macro avg", "weighted avg"]
    # Micro over classes 2 and 0: TP 2, FP 1 -> 2/3.
    assert exact(partial["micro avg"]["precision"], Fraction(2, 3))
    text = ref.classification_report(y_true, y_pred, target_names=["a", "b", "c"])
    assert text.splitlines()[0].split() == ["precision", "recall", "f1-score", "support"]
    assert text.splitlines()[4].split() == ["c", "0.50", "0.50", "0.50", "2"]
    assert text.splitlines()[6].split() == ["accuracy", "0.50", "4"]


def test_regression_losses() -> None:
    # Errors 0.5, -0.5, 0, -1: squares sum to 3/2 -> MSE 3/8, MAE 2/4 = 1/2.
    y_true, y_pred = [3, -0.5, 2, 7], [2.5, 0.0, 2, 8]
    assert ref.mean_squared_error(y_true, y_pred) == 0.375
    assert ref.mean_absolute_error(y_true, y_pred) == 0.5
    assert ref.root_mean_squared_error(y_true, y_pred) == math.sqrt(0.375)
    # Mean 23/8; SS_tot = (1/8)^2 + (27/8)^2 + (7/8)^2 + (33/8)^2 = 1868/64 = 467/16;
    # R^2 = 1 - (3/2) / (467/16) = 1 - 24/467 = 443/467.
    assert exact(ref.r2_score(y_true, y_pred), Fraction(443, 467))
    # Weights 1, 1, 2, 0: MSE (1/4 + 1/4 + 0 + 0)/4 = 1/8.
    assert ref.mean_squared_error(y_true, y_pred, sample_weight=[1, 1, 2, 0]) == 0.125
    # Two outputs: raw values, uniform mean, weighted mean.
    y2_true = [[0.5, 1], [-1, 1], [7, -6]]
    y2_pred = [[0, 2], [-1, 2], [8, -5]]
    # Output 0: squares 1/4, 0, 1 -> 5/12; output 1: 1, 1, 1 -> 1.
    raw = ref.mean_squared_error(y2_true, y2_pred, multioutput="raw_values")
    assert exact(raw[0], Fraction(5, 12)) and raw[1] == 1.0
    assert exact(ref.mean_squared_error(y2_true, y2_pred), Fraction(17, 24))
    assert exact(
        ref.mean_squared_error(y2_true, y2_pred, multioutput=[0.3, 0.7]),
        Fraction(3, 10) * Fraction(5, 12) + Fraction(7, 10),
    )
    # Constant y_true: R^2 is 1 for a perfect fit and 0 otherwise (force_finite).
    assert ref.r2_score([2.0, 2.0], [2.0, 2.0]) == 1.0
    assert ref.r2_score([2.0, 2.0], [2.0, 3.0]) == 0.0
    assert ref.r2_score([2.0, 2.0], [2.0, 3.0], force_finite=False) == -math.inf
    # a single row is a constant y_true: force_finite's value (not scikit-learn's NaN)
    assert ref.r2_score([2.0], [3.0]) == 0.0
    assert ref.r2_score([2.0], [3.0], force_finite=False) == -math.inf

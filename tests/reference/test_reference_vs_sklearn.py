"""The reference agrees with scikit-learn wherever scikit-learn has the function.

This validates the reference itself: two independent implementations, one exact
and one in float64, on random small inputs with heavy ties, zero / integer / float
weights, binary and multi-class targets. Seeds are literals.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
import sklearn.metrics as skm

import assay.reference as ref

# scikit-learn accumulates in float64 (cumulative sums, np.average, trapezoids); the
# reference rounds an exact value once. Differences are a few ulps of values <= ~10.
TOLERANCE = {"rtol": 1e-10, "atol": 1e-12}
N_CASES = 12


def sklearn_value(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call scikit-learn with its warnings silenced (the reference never warns)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def assert_agree(reference: Any, expected: Any) -> None:
    if isinstance(expected, tuple):
        assert len(reference) == len(expected)
        for r, e in zip(reference, expected, strict=True):
            assert_agree(r, e)
        return
    np.testing.assert_allclose(
        np.asarray(reference, float), np.asarray(expected, float), **TOLERANCE
    )


def _weights(rng: np.random.Generator, n: int, case: int) -> np.ndarray | None:
    """None, integer weights with zeros, or positive float weights, in turn."""
    if case % 3 == 0:
        return None
    if case % 3 == 1:
        return rng.integers(0, 4, n).astype(np.float64)
    return rng.uniform(0.1, 3.0, n)


def binary_cases(seed: int) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray | None, int]]:
    """Binary targets, tied or continuous scores (signed zeros included), both classes
    carrying positive weight."""
    rng = np.random.default_rng(seed)
    for case in range(N_CASES):
        n = int(rng.integers(2, 25))
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        if case % 2:
            scores = rng.choice([-0.0, 0.0, 0.25, 0.5, 1.0, 3.0], n)
        else:
            scores = rng.normal(size=n)
        weights = _weights(rng, n, case)
        if weights is not None:
            weights[:2] = np.maximum(weights[:2], 1.0)
        yield y, scores, weights, case


def multiclass_cases(
    seed: int,
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None, int]]:
    """(y_true, y_pred, probability rows, weights, case) over 3 or 4 classes."""
    rng = np.random.default_rng(seed)
    for case in range(N_CASES):
        k = int(rng.integers(3, 5))
        n = int(rng.integers(k, 25))
        y = rng.integers(0, k, n)
        y[:k] = np.arange(k)
        y_pred = rng.integers(0, k + 1, n)  # class k is only ever predicted
        raw = rng.integers(0, 4, (n, k)).astype(np.float64)
        if case % 2:
            raw += rng.uniform(0, 1, (n, k))
        raw[raw.sum(axis=1) == 0, 0] = 1.0
        proba = raw / raw.sum(axis=1, keepdims=True)
        weights = _weights(rng, n, case)
        if weights is not None:
            weights[:k] = np.maximum(weights[:k], 1.0)
        yield y, y_pred, proba, weights, case


def test_binary_curves() -> None:
    for y, s, w, case in binary_cases(20240101):
        assert_agree(
            ref.confusion_matrix_at_thresholds(y, s, sample_weight=w),
            sklearn_value(skm.confusion_matrix_at_thresholds, y, s, sample_weight=w),
        )
        # With float weights, scikit-learn's collinearity test sees float cumsums:
        # compare dropped curves on exact (None or integer) weights only.
        drops = (False,) if case % 3 == 2 else (False, True)
        for drop in drops:
            for reference, sklearn_curve in (
                (ref.roc_curve, skm.roc_curve),
                (ref.precision_recall_curve, skm.precision_recall_curve),
                (ref.det_curve, skm.det_curve),
            ):
                assert_agree(
                    reference(y, s, sample_weight=w, drop_intermediate=drop),
                    sklearn_value(sklearn_curve, y, s, sample_weight=w, drop_intermediate=drop),
                )


def test_binary_scores() -> None:
    for y, s, w, _ in binary_cases(20240102):
        assert_agree(
            ref.roc_auc_score(y, s, sample_weight=w),
            sklearn_value(skm.roc_auc_score, y, s, sample_weight=w),
        )
        for max_fpr in (0.1, 0.3, 0.5, 0.8):
            assert_agree(
                ref.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr),
                sklearn_value(skm.roc_auc_score, y, s, sample_weight=w, max_fpr=max_fpr),
            )
        assert_agree(
            ref.average_precision_score(y, s, sample_weight=w),
            sklearn_value(skm.average_precision_score, y, s, sample_weight=w),
        )


def test_string_labels_and_pos_label() -> None:
    rng = np.random.default_rng(20240103)
    y = rng.choice(np.array(["ham", "spam"]), 20)
    y[:2] = ["ham", "spam"]
    s = rng.choice([0.1, 0.2, 0.3], 20)
    assert_agree(
        ref.roc_curve(y, s, pos_label="ham"), sklearn_value(skm.roc_curve, y, s, pos_label="ham")
    )
    assert_agree(
        ref.average_precision_score(y, s, pos_label="ham"),
        sklearn_value(skm.average_precision_score, y, s, pos_label="ham"),
    )


def test_multiclass_auc_and_average_precision() -> None:
    for y, _, proba, w, _ in multiclass_cases(20240104):
        for average in ("macro", "weighted", "micro", None):
            assert_agree(
                ref.roc_auc_score(y, proba, multi_class="ovr", average=average, sample_weight=w),
                sklearn_value(
                    skm.roc_auc_score,
                    y,
                    proba,
                    multi_class="ovr",
                    average=average,
                    sample_weight=w,
                ),
            )
            assert_agree(
                ref.average_precision_score(y, proba, average=average, sample_weight=w),
                sklearn_value(
                    skm.average_precision_score, y, proba, average=average, sample_weight=w
                ),
            )
        for average in ("macro", "weighted"):  # scikit-learn's ovo takes no weights
            assert_agree(
                ref.roc_auc_score(y, proba, multi_class="ovo", average=average),
                sklearn_value(skm.roc_auc_score, y, proba, multi_class="ovo", average=average),
            )


def test_multiclass_auc_with_a_class_absent_from_y_true() -> None:
    y = np.array([0, 1, 0, 1, 0, 1])
    proba = np.array(
        [[0.5, 0.3, 0.2], [0.2, 0.5, 0.3], [0.4, 0.4, 0.2], [0.3, 0.3, 0.4], [0.6, 0.2, 0.2],
         [0.1, 0.8, 0.1]]
    )  # fmt: skip
    labels = [0, 1, 2]
    for average in ("macro", "weighted"):
        assert_agree(
            ref.roc_auc_score(y, proba, multi_class="ovo", labels=labels, average=average),
            sklearn_value(
                skm.roc_auc_score, y, proba, multi_class="ovo", labels=labels, average=average
            ),
        )
        assert_agree(
            ref.roc_auc_score(y, proba, multi_class="ovr", labels=labels, average=average),
            sklearn_value(
                skm.roc_auc_score, y, proba, multi_class="ovr", labels=labels, average=average
            ),
        )


LABEL_CHOICES = (None, "all", [2, 0], [0, 1, 7])


def _labels(choice: Any, k: int) -> Any:
    return list(range(k + 1)) if choice == "all" else choice


@pytest.mark.parametrize("zero_division", ["warn", 0.0, 1.0, np.nan])
def test_precision_recall_f(zero_division: Any) -> None:
    pairs = (
        (ref.precision_score, skm.precision_score),
        (ref.recall_score, skm.recall_score),
        (ref.f1_score, skm.f1_score),
    )
    for y, y_pred, proba, w, case in multiclass_cases(20240105):
        labels = _labels(LABEL_CHOICES[case % 4], proba.shape[1])
        for average in (None, "micro", "macro", "weighted"):
            options = {
                "labels": labels,
                "average": average,
                "sample_weight": w,
                "zero_division": zero_division,
            }
            for reference, sklearn_metric in pairs:
                assert_agree(
                    reference(y, y_pred, **options),
                    sklearn_value(sklearn_metric, y, y_pred, **options),
                )
            for beta in (0.0, 0.5, 2.0, np.inf)[case % 2 :: 2]:
                assert_agree(
                    ref.fbeta_score(y, y_pred, beta=beta, **options),
                    sklearn_value(skm.fbeta_score, y, y_pred, beta=beta, **options),
                )
        # binary: class 0 against the rest, relabelled {0, 1}
        y_binary, y_pred_binary = (y == 0).astype(int), (y_pred == 0).astype(int)
        for reference, sklearn_metric in pairs:
            assert_agree(
                reference(y_binary, y_pred_binary, sample_weight=w, zero_division=zero_division),
                sklearn_value(
                    sklearn_metric,
                    y_binary,
                    y_pred_binary,
                    sample_weight=w,
                    zero_division=zero_division,
                ),
            )


def test_rates_scikit_learn_lacks_from_its_one_vs_rest_cells() -> None:
    """specificity, NPV, FPR, FNR, FDR from multilabel_confusion_matrix's cells."""
    formulas = {
        ref.specificity_score: lambda tn, fp, fn, tp: tn / (tn + fp),
        ref.npv_score: lambda tn, fp, fn, tp: tn / (tn + fn),
        ref.false_positive_rate: lambda tn, fp, fn, tp: fp / (fp + tn),
        ref.false_negative_rate: lambda tn, fp, fn, tp: fn / (fn + tp),
        ref.false_discovery_rate: lambda tn, fp, fn, tp: fp / (fp + tp),
    }
    for y, y_pred, proba, w, case in multiclass_cases(20240106):
        labels = _labels(LABEL_CHOICES[case % 4], proba.shape[1])
        cells = skm.multilabel_confusion_matrix(y, y_pred, labels=labels, sample_weight=w)
        tn, fp, fn, tp = (cells[:, i // 2, i % 2].astype(float) for i in range(4))
        with np.errstate(invalid="ignore", divide="ignore"):
            for metric, formula in formulas.items():
                expected = formula(tn, fp, fn, tp)
                reference = metric(
                    y, y_pred, labels=labels, average=None, sample_weight=w, zero_division=np.nan
                )
                assert_agree(reference, expected)
                pooled = formula(tn.sum(), fp.sum(), fn.sum(), tp.sum())
                assert_agree(
                    metric(y, y_pred, labels=labels, average="micro", sample_weight=w), pooled
                )


def test_confusion_matrix_accuracy_and_friends() -> None:
    for y, y_pred, proba, w, case in multiclass_cases(20240107):
        labels = _labels(LABEL_CHOICES[case % 4], proba.shape[1])
        for normalize in (None, "true", "pred", "all"):
            options = {"labels": labels, "sample_weight": w, "normalize": normalize}
            assert_agree(
                ref.confusion_matrix(y, y_pred, **options),
                sklearn_value(skm.confusion_matrix, y, y_pred, **options),
            )
        for normalize in (True, False):
            assert_agree(
                ref.accuracy_score(y, y_pred, normalize=normalize, sample_weight=w),
                sklearn_value(skm.accuracy_score, y, y_pred, normalize=normalize, sample_weight=w),
            )
            assert_agree(
                ref.error_rate(y, y_pred, normalize=normalize, sample_weight=w),
                sklearn_value(skm.zero_one_loss, y, y_pred, normalize=normalize, sample_weight=w),
            )
        assert_agree(
            ref.matthews_corrcoef(y, y_pred, sample_weight=w),
            sklearn_value(skm.matthews_corrcoef, y, y_pred, sample_weight=w),
        )
        y_binary, y_pred_binary = (y == 1).astype(int), (y_pred == 1).astype(int)
        assert_agree(
            ref.matthews_corrcoef(y_binary, y_pred_binary, average="binary", sample_weight=w),
            sklearn_value(skm.matthews_corrcoef, y_binary, y_pred_binary, sample_weight=w),
        )
        for adjusted in (False, True):
            assert_agree(
                ref.balanced_accuracy_score(y, y_pred, sample_weight=w, adjusted=adjusted),
                sklearn_value(
                    skm.balanced_accuracy_score, y, y_pred, sample_weight=w, adjusted=adjusted
                ),
            )
        for weights in (None, "linear", "quadratic"):
            options = {"labels": labels, "weights": weights, "sample_weight": w}
            assert_agree(
                ref.cohen_kappa_score(y, y_pred, **options),
                sklearn_value(skm.cohen_kappa_score, y, y_pred, **options),
            )


def test_classification_report() -> None:
    for y, y_pred, proba, w, case in multiclass_cases(20240108):
        labels = _labels(LABEL_CHOICES[case % 4], proba.shape[1])
        options = {"labels": labels, "sample_weight": w, "output_dict": True}
        reference = ref.classification_report(y, y_pred, **options)
        expected = sklearn_value(skm.classification_report, y, y_pred, **options)
        assert list(reference) == list(expected)
        for key, value in expected.items():
            if isinstance(value, dict):
                assert list(reference[key]) == list(value)
                assert_agree(tuple(reference[key].values()), tuple(value.values()))
            else:
                assert_agree(reference[key], value)
    y_true, y_pred = [0, 1, 2, 2, 1], [0, 2, 2, 1, 1]
    assert ref.classification_report(y_true, y_pred, digits=3) == sklearn_value(
        skm.classification_report, y_true, y_pred, digits=3
    )


@pytest.mark.parametrize("n_outputs", [1, 2, 3])
def test_regression(n_outputs: int) -> None:
    rng = np.random.default_rng(20240109 + n_outputs)
    pairs = (
        (ref.mean_squared_error, skm.mean_squared_error),
        (ref.root_mean_squared_error, skm.root_mean_squared_error),
        (ref.mean_absolute_error, skm.mean_absolute_error),
        (ref.r2_score, skm.r2_score),
    )
    for case in range(N_CASES):
        n = int(rng.integers(2, 20))
        shape = (n,) if n_outputs == 1 else (n, n_outputs)
        y_true = rng.normal(size=shape) * 10
        y_pred = y_true + rng.normal(size=shape)
        if case % 5 == 0 and n_outputs > 1:
            y_true[:, 0] = 2.5  # a constant output (exact mean, also in float64)
        w = _weights(rng, n, case) if case % 5 else None
        if w is not None:
            w[0] = max(w[0], 1.0)
        averages: list[Any] = ["raw_values", "uniform_average"]
        if n_outputs > 1:
            averages.append(np.linspace(1, 2, n_outputs))
        for multioutput in averages:
            for reference, sklearn_metric in pairs:
                assert_agree(
                    reference(y_true, y_pred, sample_weight=w, multioutput=multioutput),
                    sklearn_value(
                        sklearn_metric, y_true, y_pred, sample_weight=w, multioutput=multioutput
                    ),
                )
        for force_finite in (True, False):
            for multioutput in ("variance_weighted", "raw_values"):
                options = {
                    "sample_weight": w,
                    "multioutput": multioutput,
                    "force_finite": force_finite,
                }
                assert_agree(
                    ref.r2_score(y_true, y_pred, **options),
                    sklearn_value(skm.r2_score, y_true, y_pred, **options),
                )

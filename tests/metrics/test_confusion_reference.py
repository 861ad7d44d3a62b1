"""The confusion, cost and regression metrics equal their slow exact twins.

``assay.reference`` computes each value from its definition in exact rational
arithmetic and rounds once.  Counts must agree exactly.  A float result of ours is a
float64 evaluation of the same formula from exact cells (the weights are multiples of
1/8, so every cell sum is exact); a few roundings separate it from the correctly rounded
exact value: REFERENCE_RTOL allows 1e-12 relative, far above those few ulps (2.2e-16
each) and far below any real discrepancy.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import assay
from assay.metrics._confusion import AVERAGES
from assay.metrics._registry import METRICS
from tests.metrics.test_classification import averaged_case
from tests.metrics.test_confusion import labels_subset
from tests.metrics.test_regression import regression_data
from tests.strategies import class_labels

reference = pytest.importorskip("assay.reference")

REFERENCE_RTOL = 1e-12
# An exact 0 of the form ``1 - ratio`` (kappa, error rate) may be computed as 2.2e-16.
REFERENCE_ATOL = 1e-15


def ours(name, *args, **kwargs):
    """Our value, warnings silenced (the reference never warns)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(assay, name)(*args, **kwargs)


def assert_close(value, expected):
    np.testing.assert_allclose(
        value, expected, rtol=REFERENCE_RTOL, atol=REFERENCE_ATOL, equal_nan=True
    )


# Every one-vs-rest ratio of the registry: the metrics taking exactly the standard
# `average` values (MCC adds 'multiclass'; F-beta needs `beta`).
AVERAGED = [
    name
    for name, declaration in METRICS.items()
    if declaration.averages == AVERAGES and "beta" not in declaration.confusion_options
]


@given(data=st.data(), normalize=st.sampled_from([None, "true", "pred", "all"]))
def test_confusion_matrix(data, normalize):
    y_true, y_pred, weight = data.draw(class_labels())
    kwargs = {"sample_weight": weight, "normalize": normalize}
    if data.draw(st.booleans()):
        kwargs["labels"] = labels = data.draw(labels_subset(y_true, y_pred))
        if not np.isin(labels, y_true).any():
            return  # an error here (tested elsewhere); the reference does not validate
    value = ours("confusion_matrix", y_true, y_pred, **kwargs)
    expected = reference.confusion_matrix(y_true, y_pred, **kwargs)
    if normalize is None:
        np.testing.assert_array_equal(value, expected)
    else:
        assert_close(value, expected)


@pytest.mark.parametrize("name", AVERAGED)
@given(case=averaged_case())
def test_averaged_metrics(name, case):
    y_true, y_pred, weight, kwargs = case
    value = ours(name, y_true, y_pred, sample_weight=weight, **kwargs)
    assert_close(value, getattr(reference, name)(y_true, y_pred, sample_weight=weight, **kwargs))


@given(case=averaged_case(), beta=st.sampled_from([0.0, 0.5, 2.0, np.inf]))
def test_fbeta(case, beta):
    y_true, y_pred, weight, kwargs = case
    value = ours("fbeta_score", y_true, y_pred, beta=beta, sample_weight=weight, **kwargs)
    expected = reference.fbeta_score(y_true, y_pred, beta=beta, sample_weight=weight, **kwargs)
    assert_close(value, expected)


@given(case=averaged_case())
def test_matthews(case):
    y_true, y_pred, weight, kwargs = case
    for average in {kwargs["average"], "multiclass"}:
        kwargs["average"] = average
        value = ours("matthews_corrcoef", y_true, y_pred, sample_weight=weight, **kwargs)
        expected = reference.matthews_corrcoef(y_true, y_pred, sample_weight=weight, **kwargs)
        # R_K divides by a square root of a product: a few more roundings
        np.testing.assert_allclose(value, expected, rtol=1e-11, atol=1e-15, equal_nan=True)


@given(data=class_labels(), normalize=st.booleans(), adjusted=st.booleans())
def test_accuracy_error_rate_balanced_accuracy(data, normalize, adjusted):
    y_true, y_pred, weight = data
    for name in ("accuracy_score", "error_rate"):
        kwargs = {"normalize": normalize, "sample_weight": weight}
        assert_close(
            ours(name, y_true, y_pred, **kwargs),
            getattr(reference, name)(y_true, y_pred, **kwargs),
        )
    kwargs = {"adjusted": adjusted, "sample_weight": weight}
    assert_close(
        ours("balanced_accuracy_score", y_true, y_pred, **kwargs),
        reference.balanced_accuracy_score(y_true, y_pred, **kwargs),
    )


@given(data=st.data(), weights=st.sampled_from([None, "linear", "quadratic"]))
def test_cohen_kappa(data, weights):
    y1, y2, weight = data.draw(class_labels())
    kwargs = {"weights": weights, "sample_weight": weight}
    if data.draw(st.booleans()):
        kwargs["labels"] = labels = data.draw(labels_subset(y1, y2))
        if not np.isin(labels, y1).any():
            return
    assert_close(
        ours("cohen_kappa_score", y1, y2, **kwargs), reference.cohen_kappa_score(y1, y2, **kwargs)
    )


@given(data=st.data(), zero_division=st.sampled_from(["warn", 0.0, 1.0, np.nan]))
def test_classification_report(data, zero_division):
    y_true, y_pred, weight = data.draw(class_labels())
    kwargs = {"sample_weight": weight, "zero_division": zero_division, "output_dict": True}
    if data.draw(st.booleans()):
        kwargs["labels"] = data.draw(labels_subset(y_true, y_pred))
    value = ours("classification_report", y_true, y_pred, **kwargs)
    expected = reference.classification_report(y_true, y_pred, **kwargs)
    assert list(value) == list(expected)
    for key, row in expected.items():
        if isinstance(row, dict):
            for column, number in row.items():
                assert_close(value[key][column], number)
        else:
            assert_close(value[key], row)


@given(data=st.data(), normalize=st.sampled_from(["all", None, "true"]))
def test_expected_cost(data, normalize):
    y_true, y_pred, weight = data.draw(class_labels())
    k = np.unique(np.concatenate([y_true, y_pred])).shape[0]
    cost = data.draw(hnp.arrays(np.int64, (k, k), elements=st.integers(-5, 20)))
    kwargs = {"sample_weight": weight, "normalize": normalize}
    value = ours("expected_cost", y_true, y_pred, cost, **kwargs)
    assert_close(value, reference.expected_cost(y_true, y_pred, cost, **kwargs))


@given(data=st.data(), k=st.integers(1, 5), n=st.integers(1, 30))
def test_bayes_decision(data, k, n):
    counts = data.draw(hnp.arrays(np.int64, (n, k), elements=st.integers(0, 4)))
    counts[counts.sum(axis=1) == 0, 0] = 1
    proba = counts / counts.sum(axis=1, keepdims=True)
    cost = data.draw(hnp.arrays(np.int64, (k, k), elements=st.integers(-3, 10)))
    # exact ties (common here) are broken towards the first class by both; a float risk
    # that rounds across a tie could differ, so only rows without near-ties are compared
    risk = proba @ cost
    ordered = np.sort(risk, axis=1)
    clear = (ordered[:, 1] - ordered[:, 0] > 1e-9) if k > 1 else np.ones(n, dtype=bool)
    value = assay.bayes_decision(proba, cost)
    expected = reference.bayes_decision(proba, cost)
    np.testing.assert_array_equal(value[clear], np.asarray(expected)[clear])


@pytest.mark.parametrize(
    "name", ["mean_squared_error", "root_mean_squared_error", "mean_absolute_error", "r2_score"]
)
@given(data=regression_data())
def test_regression(name, data):
    y_true, y_pred, weight = data
    if name == "r2_score" and y_true.shape[0] < 2:
        return
    value = ours(name, y_true, y_pred, sample_weight=weight, multioutput="raw_values")
    expected = getattr(reference, name)(
        y_true, y_pred, sample_weight=weight, multioutput="raw_values"
    )
    # sums of squares of up to 100 values: cancellation in SS_tot costs more digits
    np.testing.assert_allclose(value, expected, rtol=1e-9, atol=1e-9)

"""Every kernel-backed ranking function equals the slow exact reference.

The reference (``assay.reference``) computes from the definitions with exact
fractions and rounds once; the kernels accumulate in float64.  Counts of integer
weights are exact in both, so cutoff tables must match exactly; rates and areas
match to rounding error (``FLOAT_RTOL``).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import assay
import assay.reference as reference
from assay.metrics._registry import variants_of
from tests.strategies import binary_ranking_data, multiclass_ranking_data

# float64 accumulation over up to a few hundred groups against an exactly rounded
# result: errors are a few ulps; 1e-12 leaves a wide margin without hiding mistakes.
FLOAT_RTOL = 1e-12
FLOAT_ATOL = 1e-12


def integer_or_none(weights: np.ndarray | None) -> bool:
    return weights is None or bool(np.all(weights == np.round(weights)))


def assert_tuple_close(ours: tuple, theirs: tuple) -> None:
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a, b, rtol=FLOAT_RTOL, atol=FLOAT_ATOL)


@given(binary_ranking_data(max_n=120))
def test_cutoff_table_equals_reference(data) -> None:
    y, s, w = data
    ours = assay.confusion_matrix_at_thresholds(y, s, sample_weight=w)
    theirs = reference.confusion_matrix_at_thresholds(y, s, sample_weight=w)
    if integer_or_none(w):  # integer counts: exact
        for a, b in zip(ours, theirs, strict=True):
            np.testing.assert_array_equal(a, b)
    else:
        assert_tuple_close(ours, theirs)


@given(
    binary_ranking_data(max_n=120, both_classes=True),
    st.sampled_from(["roc_curve", "precision_recall_curve", "det_curve"]),
    st.booleans(),
)
def test_curves_equal_reference(data, name, drop_intermediate) -> None:
    y, s, w = data
    # which collinear points are dropped is decided on exact counts by the reference
    # and on float sums by the kernels: identical only for integer weights
    drop_intermediate = drop_intermediate and integer_or_none(w)
    ours = getattr(assay, name)(y, s, sample_weight=w, drop_intermediate=drop_intermediate)
    theirs = getattr(reference, name)(y, s, sample_weight=w, drop_intermediate=drop_intermediate)
    assert_tuple_close(ours, theirs)


@given(
    binary_ranking_data(max_n=120, both_classes=True),
    st.sampled_from(variants_of("ranking")),
)
def test_scalar_summaries_equal_reference(data, variant) -> None:
    y, s, w = data
    name, options = variant
    if options.get("method") == "11-point" and not integer_or_none(w):
        return  # see test_eleven_point_ap_equals_reference_for_integer_weights
    ours = getattr(assay, name)(y, s, sample_weight=w, **options)
    theirs = getattr(reference, name)(y, s, sample_weight=w, **options)
    assert ours == pytest.approx(theirs, rel=FLOAT_RTOL, abs=FLOAT_ATOL)


@given(
    binary_ranking_data(max_n=120, both_classes=True),
    st.floats(0.01, 1.0, allow_nan=False),
)
def test_partial_auc_equals_reference_at_any_max_fpr(data, max_fpr) -> None:
    y, s, w = data
    ours = assay.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr)
    theirs = reference.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr)
    assert ours == pytest.approx(theirs, rel=FLOAT_RTOL, abs=FLOAT_ATOL)


@given(binary_ranking_data(max_n=120, both_classes=True))
def test_eleven_point_ap_equals_reference_for_integer_weights(data) -> None:
    # The 11-point rule compares recall with the levels i / 10: the kernel does it as
    # 10 TP >= i P, exact for integer counts. With fractional weights a recall that
    # sits exactly on a level may round to either side, so only integer weights here.
    y, s, w = data
    if not integer_or_none(w):
        w = np.round(w)
        w[:2] = np.maximum(w[:2], 1.0)
        if not (np.any(w[y == 1] > 0) and np.any(w[y == 0] > 0)):
            w = None
    ours = assay.pr_auc_score(y, s, sample_weight=w, method="11-point")
    theirs = reference.pr_auc_score(y, s, sample_weight=w, method="11-point")
    assert ours == pytest.approx(theirs, rel=FLOAT_RTOL, abs=FLOAT_ATOL)


@given(
    multiclass_ranking_data(),
    st.sampled_from(
        [
            ("ovr", "macro"),
            ("ovr", "weighted"),
            ("ovr", "micro"),
            ("ovr", None),
            ("ovo", "macro"),
            ("ovo", "weighted"),
        ]
    ),
)
def test_multiclass_auc_equals_reference(data, strategy) -> None:
    # one-vs-one with weights has no scikit-learn counterpart: the reference is the oracle
    y, proba, w = data
    multi_class, average = strategy
    ours = assay.roc_auc_score(y, proba, multi_class=multi_class, average=average, sample_weight=w)
    theirs = reference.roc_auc_score(
        y, proba, multi_class=multi_class, average=average, sample_weight=w
    )
    np.testing.assert_allclose(ours, theirs, rtol=FLOAT_RTOL, atol=FLOAT_ATOL)


@given(multiclass_ranking_data(), st.sampled_from(["macro", "weighted", "micro", None]))
def test_multiclass_average_precision_equals_reference(data, average) -> None:
    y, proba, w = data
    np.testing.assert_allclose(
        assay.average_precision_score(y, proba, average=average, sample_weight=w),
        reference.average_precision_score(y, proba, average=average, sample_weight=w),
        rtol=FLOAT_RTOL,
        atol=FLOAT_ATOL,
    )


@pytest.mark.parametrize("n", [1000, 3000])
def test_larger_inputs_equal_reference(n) -> None:
    # a few thousand rows with heavy ties and integer weights: exact counts again
    rng = np.random.default_rng(n)
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(size=n) + y, 1)
    w = rng.integers(0, 4, n).astype(float)
    ours = assay.confusion_matrix_at_thresholds(y, s, sample_weight=w)
    theirs = reference.confusion_matrix_at_thresholds(y, s, sample_weight=w)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(a, b)
    for name, options in variants_of("ranking"):
        assert getattr(assay, name)(y, s, sample_weight=w, **options) == pytest.approx(
            getattr(reference, name)(y, s, sample_weight=w, **options), rel=FLOAT_RTOL
        )

"""Tie groups by hashing (few distinct scores) against sorting every row."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import assay
from assay._kernels import ranking as kernels
from assay.metrics import _sorted

EMPTY = np.empty(0)
few_values = st.sampled_from([-2.5, -0.0, 0.0, 0.125, 0.5, 1.0, 7.0])


def aggregated_by_numpy(scores, positive, weights):
    """Per class: sorted distinct negated scores and summed weights, the obvious way."""
    w = np.ones(scores.shape[0]) if weights is None else weights
    keep = w > 0
    result = []
    for mask in (positive & keep, ~positive & keep):
        negated = -(scores[mask] + 0.0)
        values, inverse = np.unique(negated, return_inverse=True)
        sums = np.bincount(inverse, weights=w[mask], minlength=values.shape[0])
        result += [values, sums]
    return result[0], result[2], result[1], result[3]


@given(
    hnp.arrays(np.float64, st.integers(1, 300), elements=few_values),
    st.sampled_from([np.float64, np.float32]),
    st.data(),
)
def test_grouped_tie_groups_equal_numpy_aggregation(scores, dtype, data) -> None:
    scores = scores.astype(dtype)  # the values are exact in float32 too
    n = scores.shape[0]
    positive = np.asarray(data.draw(hnp.arrays(np.bool_, n)))
    weights = data.draw(
        st.one_of(
            st.none(),
            hnp.arrays(np.float64, n, elements=st.integers(0, 3).map(float)),
        )
    )
    if weights is not None and not np.any(weights > 0):
        weights[0] = 1.0
    use_weights = weights is not None
    ok, a, b, wa, wb = kernels.group_scores(
        scores, positive, EMPTY if weights is None else weights, use_weights, 1.0, 16
    )
    assert ok
    expected = aggregated_by_numpy(scores, positive, weights)
    for got, want in zip((a, b, wa, wb), expected, strict=True):
        np.testing.assert_array_equal(got, want)  # integer sums: exact


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_grouping_gives_up_beyond_the_limit(limit) -> None:
    scores = np.arange(6, dtype=np.float64) % 3  # three distinct values
    ok, *arrays = kernels.group_scores(scores, scores > 0, EMPTY, False, 1.0, limit)
    assert ok == (limit >= 3)
    if not ok:
        assert all(array.shape == (0,) for array in arrays)


@pytest.mark.parametrize("weights_kind", ["none", "integer", "fraction"])
def test_grouped_and_sorted_paths_agree(monkeypatch, weights_kind) -> None:
    rng = np.random.default_rng(5)
    n = 20_000  # above the grouping threshold
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(size=n) + y, 1)  # about 80 distinct scores
    w = {
        "none": None,
        "integer": rng.integers(0, 4, n).astype(float),
        "fraction": rng.random(n),
    }[weights_kind]
    grouped = {
        "auc": assay.roc_auc_score(y, s, sample_weight=w),
        "ap": assay.average_precision_score(y, s, sample_weight=w),
        "eer": assay.equal_error_rate(y, s, sample_weight=w),
        "table": assay.confusion_matrix_at_thresholds(y, s, sample_weight=w),
        "roc": assay.roc_curve(y, s, sample_weight=w),
    }
    assert _sorted.sort_binary(y, s, sample_weight=w).positive_scores.shape[0] < 200
    monkeypatch.setattr(_sorted, "_GROUPING_MIN_ROWS", 10**9)  # force the sorting path
    assert _sorted.sort_binary(y, s, sample_weight=w).positive_scores.shape[0] > 200
    sorted_path = {
        "auc": assay.roc_auc_score(y, s, sample_weight=w),
        "ap": assay.average_precision_score(y, s, sample_weight=w),
        "eer": assay.equal_error_rate(y, s, sample_weight=w),
        "table": assay.confusion_matrix_at_thresholds(y, s, sample_weight=w),
        "roc": assay.roc_curve(y, s, sample_weight=w),
    }
    exact = weights_kind != "fraction"  # integer sums are exact in any order
    for key, value in grouped.items():
        if exact:
            np.testing.assert_array_equal(value, sorted_path[key], err_msg=key)
        else:  # fractional weights summed in another order: rounding only
            for got, want in zip(np.atleast_1d(value), np.atleast_1d(sorted_path[key]),
                                 strict=True):  # fmt: skip
                np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=key)


def _attempts(monkeypatch) -> list[int]:
    """Record the rows of every hashing attempt made through ``_sorted``."""
    calls: list[int] = []
    group_scores = kernels.group_scores

    def recorded(scores, *args):
        calls.append(scores.shape[0])
        return group_scores(scores, *args)

    monkeypatch.setattr(_sorted.kernels, "group_scores", recorded)
    return calls


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_sample_of_continuous_scores_skips_the_hashing_attempt(monkeypatch, dtype) -> None:
    calls = _attempts(monkeypatch)
    rng = np.random.default_rng(3)
    n = 8 * 65536  # the smallest size the sample is taken at
    y = rng.integers(0, 2, n)
    s = (rng.normal(size=n) + y).astype(dtype)
    assert _sorted._many_distinct(s)
    expected = assay.roc_auc_score(y, s)
    assert calls == []
    monkeypatch.setattr(_sorted, "_SAMPLE_MIN_REPEATS", 0)  # the sample never skips
    assert not _sorted._many_distinct(s)
    assert assay.roc_auc_score(y, s) == expected  # the attempt gives up: the same sort
    assert calls == [n]
    small = n - 1  # below the size of the sample's rule: the attempt is made
    monkeypatch.setattr(_sorted, "_SAMPLE_MIN_REPEATS", 32)
    _sorted.sort_binary(y[:small], s[:small])
    assert calls == [n, small]


@pytest.mark.parametrize("arrangement", ["shuffled", "sorted", "skewed"])
def test_the_sample_never_skips_scores_that_can_be_grouped(monkeypatch, arrangement) -> None:
    # 65536 distinct values, as many as are grouped, in any order: the sample sees
    # repeats (about 125 of 4096 when they are equally frequent) and the rows are grouped
    calls = _attempts(monkeypatch)
    rng = np.random.default_rng(4)
    n = 9 * 65536 + 11
    values = np.arange(65536, dtype=np.float64) / 65536
    s = {
        "shuffled": values[rng.permutation(n) % 65536],
        "sorted": np.repeat(values, n // 65536 + 1)[:n],
        "skewed": values[(rng.zipf(1.2, n) - 1) % 65536],
    }[arrangement]
    y = rng.integers(0, 2, n)
    assert not _sorted._many_distinct(s)
    result = _sorted.sort_binary(y, s)
    assert calls == [n]
    assert result.grouped
    assert result.positive_scores.shape[0] <= 65536

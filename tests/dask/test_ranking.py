"""Ranking metrics and curves of dask collections against single-machine assay.

Every value must equal :mod:`assay`'s on the same rows: bit for bit (``==``) without
weights and with integer weights, within ``FRACTIONAL_WEIGHTS_RTOL`` with fractional
weights (the same sums, added in another order).
"""

from __future__ import annotations

import collections
import itertools
import os
import re
import warnings
from unittest import mock

import dask.array as da
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest
from dask.delayed import Delayed
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
import assay.dask
import dask
from assay.dask import _buckets
from assay.dask._buckets import Piece, atoms_of, bucket_totals, combine_pieces, merge_bucket
from assay.dask._partitions import (
    Plan,
    bucket_of,
    choose_splitters,
    heavy_splitters,
    summarise_partition,
)
from assay.dask._sorted_partitions import Rows, cut_partition, sort_partition
from assay.exceptions import UndefinedMetricWarning
from tests.dask.conftest import PARTITION_SIZES, partitioned
from tests.strategies import binary_ranking_data, split_into_pieces

# Sums of fractional weights in another order than on one machine differ in the last
# bits; 1e-12 relative leaves room for 1e5 terms.
FRACTIONAL_WEIGHTS_RTOL = 1e-12

RANKING = [
    ("roc_auc_score", {}),
    ("roc_auc_score", {"max_fpr": 0.3}),
    ("average_precision_score", {}),
    ("pr_auc_score", {"method": "trapezoid"}),
    ("pr_auc_score", {"method": "interpolated"}),
    ("pr_auc_score", {"method": "11-point"}),
    ("equal_error_rate", {"method": "interpolate"}),
    ("equal_error_rate", {"method": "nearest"}),
]
WEIGHTS = [None, "counts", "weight"]


def _one_machine(name, frame, weight, **options):
    sample_weight = None if weight is None else frame[weight].to_numpy()
    return getattr(assay, name)(
        frame["y"].to_numpy(), frame["score"].to_numpy(), sample_weight=sample_weight, **options
    )


def _check_equal(got, expected, weight):
    if weight == "weight":
        np.testing.assert_allclose(got, expected, rtol=FRACTIONAL_WEIGHTS_RTOL, atol=0)
    else:
        assert np.array_equal(got, expected)


@pytest.mark.parametrize("weight", WEIGHTS)
def test_ranking_metrics_equal_one_machine(data, synchronous, weight):
    frame, ddf = data
    sample_weight = None if weight is None else ddf[weight]
    lazy = [
        getattr(assay.dask, name)(
            ddf["y"], ddf["score"], sample_weight=sample_weight, compute=False, **options
        )
        for name, options in RANKING
    ]
    assert all(isinstance(value, Delayed) for value in lazy)
    values = dask.compute(*lazy)  # one shuffle serves every metric
    for (name, options), value in zip(RANKING, values, strict=True):
        expected = _one_machine(name, frame, weight, **options)
        _check_equal(value, expected, weight)


@pytest.mark.parametrize("weight", WEIGHTS)
@pytest.mark.parametrize("drop_intermediate", [False, True])
def test_curves_equal_one_machine(data, synchronous, weight, drop_intermediate):
    frame, ddf = data
    sample_weight = None if weight is None else ddf[weight]
    for name in ("roc_curve", "precision_recall_curve"):
        got = getattr(assay.dask, name)(
            ddf["y"],
            ddf["score"],
            sample_weight=sample_weight,
            drop_intermediate=drop_intermediate,
        )
        expected = _one_machine(name, frame, weight, drop_intermediate=drop_intermediate)
        assert type(got) is type(expected)
        for got_column, expected_column in zip(got, expected, strict=True):
            assert got_column.shape == expected_column.shape
            _check_equal(got_column, expected_column, weight)


def test_compute_now_equals_compute_later(data, synchronous):
    frame, ddf = data
    now = assay.dask.roc_auc_score(ddf["y"], ddf["score"])
    later = assay.dask.roc_auc_score(ddf["y"], ddf["score"], compute=False).compute()
    assert isinstance(now, float)
    assert now == later == _one_machine("roc_auc_score", frame, None)


def test_dask_arrays_are_accepted(data, synchronous):
    frame, _ = data
    y = da.from_array(frame["y"].to_numpy(), chunks=30_000)
    score = da.from_array(frame["score"].to_numpy(), chunks=30_000)
    assert assay.dask.average_precision_score(y, score) == _one_machine(
        "average_precision_score", frame, None
    )


def test_columns_of_separate_collections_are_accepted(data, synchronous):
    """A dask Series beside a dask array (each column read by a task of its own), and
    Series of two frames partitioned alike (read by one task a partition)."""
    frame, ddf = data
    sizes = [len(part) for part in ddf.partitions]
    score = da.from_array(frame["score"].to_numpy(), chunks=(tuple(sizes),))
    expected = _one_machine("average_precision_score", frame, None)
    assert assay.dask.average_precision_score(ddf["y"], score) == expected
    other = partitioned(frame[["score"]], tuple(sizes))
    assert assay.dask.average_precision_score(ddf["y"], other["score"]) == expected
    assert assay.dask.roc_auc_score(ddf["y"], other["score"]) == _one_machine(
        "roc_auc_score", frame, None
    )


def test_a_heavy_score_gets_its_own_bucket(data):
    """Half the rows score 0.0 (and some -0.0): one bucket holds exactly those, and no
    other bucket holds more than about twice its share."""
    frame, _ = data
    scores = frame["score"].to_numpy()
    cuts = np.cumsum((0, *PARTITION_SIZES))
    summaries = [
        summarise_partition(i, 7, frame["y"].iloc[a:b], frame["score"].iloc[a:b], None, None)
        for i, (a, b) in enumerate(itertools.pairwise(cuts))
    ]
    n_buckets = 7
    splitters = choose_splitters(summaries, n_buckets)
    buckets = bucket_of(scores, splitters)
    zero = buckets[scores == 0.0]
    assert np.all(zero == zero[0]) and zero[0] % 2 == 1  # -0.0 and 0.0: one bucket
    assert np.count_nonzero(buckets == zero[0]) == np.count_nonzero(scores == 0.0)
    others = np.bincount(buckets[scores != 0.0])
    assert others.max() <= 2 * np.count_nonzero(scores != 0.0) / (n_buckets - 1)


@pytest.mark.parametrize("grouped", [False, True])
def test_the_sample_of_a_sorted_partition_balances_what_the_buckets_receive(grouped):
    """The ranking jobs read their sample off each partition at evenly spaced positions
    of its rows, or ranks of its (score, class) cells of few distinct scores. Rows
    of distinct scores, half of them at 0.0 (and -0.0): 0.0 is a splitter with a
    bucket of its own, and no other bucket receives more than about twice its share;
    few distinct scores (hashed into cells): every bucket receives about its share of
    cells."""
    rng = np.random.default_rng(11)
    sizes = (30_000, 0, 5_000, 45_000)
    n = sum(sizes)
    scores = rng.normal(size=n)
    if grouped:
        scores = np.round(scores, 1)
    scores[rng.random(n) < 0.5] = 0.0
    scores[rng.integers(0, n, 200)] = -0.0
    y = rng.integers(0, 2, n)
    cuts = np.cumsum((0, *sizes))
    parts = [
        sort_partition(i, len(sizes), y[a:b], scores[a:b], None, None)
        for i, (a, b) in enumerate(itertools.pairwise(cuts))
    ]
    n_buckets = 8
    summaries = [summary for summary, _ in parts]
    splitters = choose_splitters(summaries, n_buckets)
    heavy = heavy_splitters(summaries, splitters, n_buckets)
    plan = Plan(1, splitters, 1.0, True, heavy=heavy)
    if not grouped:  # 0.0 alone is heavy (cells of few distinct scores are each one entry)
        assert heavy.tolist() == (splitters == 0.0).tolist()
    received = np.zeros(n_buckets)
    for output in parts:
        assert output[1].data is None or isinstance(output[1].data, Rows) != grouped
        *pieces, _ = cut_partition(output, plan, n_buckets)
        received += [p.positive_scores.shape[0] + p.negative_scores.shape[0] for p in pieces]
    if grouped:
        assert received.max() <= 2 * received.sum() / n_buckets
        return
    zero_bucket = np.searchsorted(plan.splitters, 0.0)  # the bucket (previous, 0.0]
    assert plan.splitters[zero_bucket] == 0.0
    others = np.delete(received, zero_bucket)
    rows_elsewhere = np.count_nonzero(scores != 0.0)
    assert others.max() <= 2 * rows_elsewhere / (n_buckets - 1)
    # the zeros are summed: one cell per partition and class, not 40,000 rows
    assert received[zero_bucket] <= 2 * rows_elsewhere / (n_buckets - 1) + 2 * len(sizes)


def test_equal_scores_share_a_bucket():
    splitters = np.array([-1.0, 0.0, 2.5])
    scores = np.array([-0.0, 0.0, 2.5, 2.5, 1.0, 1.0, -3.0, 7.0])
    buckets = bucket_of(scores, splitters)
    assert buckets.tolist() == [3, 3, 5, 5, 4, 4, 0, 6]


def _atoms_by_dictionary(scores, positive, negative):
    """Atoms summed score by score in a dictionary, descending (the reference)."""
    sums: dict[float, list[float]] = {}
    for score, p, q in zip(scores.tolist(), positive.tolist(), negative.tolist(), strict=True):
        cell = sums.setdefault(score, [0.0, 0.0])
        cell[0] += p
        cell[1] += q
    order = sorted(sums, reverse=True)
    return (
        np.array(order, dtype=float),
        np.array([sums[s][0] for s in order], dtype=float),
        np.array([sums[s][1] for s in order], dtype=float),
    )


@st.composite
def bucket_pieces(draw):
    """1 to 40 partitions' pieces of one bucket: each class's negated scores ascending,
    from a small set (so that pieces share scores, and rows repeat them); rows (weight
    1 each) or (score, class) cells with integer weights."""
    pieces = []
    for _ in range(draw(st.integers(1, 40))):
        use_weights = draw(st.booleans())
        sides = []
        for _ in range(2):
            values = st.integers(-6, 6)
            if use_weights:
                scores = sorted(draw(st.sets(values, max_size=8)))
                weights = draw(st.lists(st.integers(1, 5), min_size=len(scores),
                                        max_size=len(scores)))  # fmt: skip
            else:
                scores = sorted(draw(st.lists(values, max_size=8)))
                weights = []
            sides.append((np.array(scores, dtype=float) / 4, np.array(weights, dtype=float)))
        (a, wa), (b, wb) = sides
        pieces.append(Piece(a, b, wa, wb, use_weights))
    return pieces


@pytest.mark.parametrize("sort", ["numpy", "radix"])
@settings(max_examples=150, deadline=None)
@given(pieces=bucket_pieces())
def test_a_merged_bucket_holds_the_atoms_of_all_pieces(pieces, sort):
    with mock.patch.dict(os.environ, {"ASSAY_SORT": sort}):
        _check_merged_bucket(pieces)


def _check_merged_bucket(pieces):
    columns: list[list[np.ndarray]] = [[], [], []]
    for piece in pieces:
        for negated, weights, is_positive in (
            (piece.positive_scores, piece.positive_weights, True),
            (piece.negative_scores, piece.negative_weights, False),
        ):
            w = weights if piece.use_weights else np.ones(negated.shape[0])
            columns[0].append(-negated)
            columns[1].append(w if is_positive else np.zeros_like(w))
            columns[2].append(np.zeros_like(w) if is_positive else w)
    want = _atoms_by_dictionary(*(np.concatenate(c) for c in columns))
    # the pieces as they come from single partitions, and joined in groups of 3 first
    # (as a group of partitions sends them), with the rows kept counted
    outputs = [(piece, piece.positive_scores.shape[0]) for piece in pieces]
    groups = [combine_pieces(*outputs[i : i + 3]) for i in range(0, len(outputs), 3)]
    assert sum(group[1] for group in groups) == sum(kept for _, kept in outputs)
    for merged in (merge_bucket(3, tuple(pieces)), merge_bucket(3, *(g[0] for g in groups))):
        if want[0].shape[0] == 0:
            assert merged == {}
            continue
        atoms = atoms_of(merged)
        for got, expected in zip(atoms[3], want, strict=True):
            assert np.array_equal(got, expected)
        # the totals read off the sorted classes equal those of the atoms
        assert bucket_totals(merged) == bucket_totals(atoms)


def _cut(index, n_partitions, y, scores, plan, n_buckets):
    """One partition split (or hashed into sorted cells) where it lies, then cut at the
    plan's splitters."""
    return cut_partition(
        sort_partition(index, n_partitions, y, scores, None, None), plan, n_buckets
    )


def test_a_partition_cut_into_buckets():
    """Equal scores (0.0 and -0.0 among them) fall in one bucket, a heavy score is one
    atom whatever its number of rows, and the buckets ascend with the scores and hold
    every row once; buckets past the one above the last splitter are empty."""
    rng = np.random.default_rng(5)
    scores = np.concatenate([np.zeros(4000), [-0.0] * 10, np.round(rng.normal(size=3000), 1)])
    y = rng.integers(0, 2, scores.shape[0])
    plan = Plan(1, np.array([-1.0, 0.0, 1.5]), 1.0, True)
    *pieces, kept = _cut(3, 8, y, scores, plan, 6)
    assert kept == scores.shape[0]
    held = [p.positive_scores.shape[0] + p.negative_scores.shape[0] > 0 for p in pieces]
    assert held == [True, True, True, True, False, False]
    bounds = [-np.inf, -1.0, 0.0, 1.5, np.inf]
    for k, piece in enumerate(pieces[:4]):
        for negated in (piece.positive_scores, piece.negative_scores):
            assert np.all((-negated > bounds[k]) & (-negated <= bounds[k + 1]))
            assert np.all(np.diff(negated) >= 0)
    atoms = [atoms_of(merge_bucket(k, (piece,)))[k] for k, piece in enumerate(pieces[:4])]
    zeros = atoms[1]  # 0.0 (and -0.0) tops the bucket (-1, 0], as one atom
    assert zeros.scores[0] == 0.0 and not np.signbit(zeros.scores[0])
    assert zeros.positive[0] + zeros.negative[0] == np.count_nonzero(scores == 0.0) > 4010
    together = [np.concatenate([a[i] for a in reversed(atoms)]) for i in range(3)]
    want = _atoms_by_dictionary(scores + 0.0, y.astype(float), 1.0 - y)
    for got, expected in zip(together, want, strict=True):
        assert np.array_equal(got, expected)


def test_a_heavy_score_among_distinct_scores_is_sent_summed():
    """Half the rows at 0.0 (and -0.0), the rest distinct (too many distinct scores for
    the partition's hashing): the bucket holding 0.0 receives one cell per class for
    it, not its rows, and the merged atoms are those of all rows."""
    rng = np.random.default_rng(9)
    n = 40_000
    scores = rng.normal(size=n)
    scores[: n // 2] = 0.0
    scores[: n // 20] = -0.0
    y = rng.integers(0, 2, n)
    want = _atoms_by_dictionary(scores + 0.0, y.astype(float), 1.0 - y)
    rows = np.count_nonzero((scores > -0.5) & (scores <= 0.0))
    for heavy in (False, True):  # 0.0 known to be heavy, or not
        flags = np.array([False, heavy, False])
        plan = Plan(1, np.array([-0.5, 0.0, 0.5]), 1.0, True, heavy=flags)
        *pieces, kept = _cut(0, 1, y, scores, plan, 4)
        assert kept == n
        zeros = pieces[1]  # (-0.5, 0.0]
        sent = zeros.positive_scores.shape[0] + zeros.negative_scores.shape[0]
        if heavy:
            assert zeros.use_weights
            assert sent < rows - n // 2 + 3  # the zeros are one cell per class
        else:
            assert not zeros.use_weights and sent == rows
        assert not pieces[0].use_weights  # distinct scores travel as they are
        atoms = [atoms_of(merge_bucket(k, (piece,)))[k] for k, piece in enumerate(pieces)]
        together = [np.concatenate([a[i] for a in reversed(atoms)]) for i in range(3)]
        for got, expected in zip(together, want, strict=True):
            assert np.array_equal(got, expected)


def _with_value(frame, column, position, value):
    changed = frame.copy()
    changed.loc[position, column] = value
    return changed


def test_nan_score_is_refused_naming_the_partition(data, synchronous):
    frame, _ = data
    position = sum(PARTITION_SIZES[:3]) + 17  # in partition 3
    bad = _with_value(frame, "score", position, np.nan)
    with pytest.raises(ValueError) as one_machine:
        assay.roc_auc_score(bad["y"].to_numpy(), bad["score"].to_numpy())
    message = str(one_machine.value)
    assert message == "`y_score` contains 1 NaN values; scores must be finite."
    ddf = partitioned(bad)
    with pytest.raises(ValueError, match=re.escape(f"In partition 3 of 7: {message}")):
        assay.dask.roc_auc_score(ddf["y"], ddf["score"])


def test_label_outside_the_set_is_refused_naming_the_partition(data, synchronous):
    frame, _ = data
    position = sum(PARTITION_SIZES[:5]) + 3  # in partition 5
    bad = _with_value(frame, "y", position, 2)
    with pytest.raises(ValueError) as one_machine:
        assay.roc_auc_score(bad["y"].to_numpy(), bad["score"].to_numpy())
    message = str(one_machine.value)
    assert message.startswith("`y_true` holds 3 classes")
    ddf = partitioned(bad)
    with pytest.raises(ValueError, match=re.escape(f"In partition 5 of 7: {message}")):
        assay.dask.roc_auc_score(ddf["y"], ddf["score"])


def test_labels_refused_only_together_name_the_partition_completing_them(synchronous):
    """Each partition holds two labels, all partitions together three."""
    frame = pd.DataFrame({"y": [0, 1, 0, 1, 1, 2], "score": np.arange(6.0)})
    ddf = partitioned(frame, (2, 2, 2))
    with pytest.raises(ValueError, match=r"^In partition 2 of 3: `y_true` holds 3 classes"):
        assay.dask.roc_auc_score(ddf["y"], ddf["score"])


def test_misaligned_partitions_are_refused(data, synchronous):
    frame, ddf = data
    other = partitioned(frame, (50_000, 50_000))
    with pytest.raises(ValueError, match="have different numbers of partitions: 7 and 2"):
        assay.dask.roc_auc_score(ddf["y"], other["score"])


def test_in_memory_input_is_refused():
    with pytest.raises(TypeError, match="must be a dask Series or a 1-D dask array; got list"):
        assay.dask.roc_auc_score([0, 1], [0.5, 0.7])


def test_one_class_warns_and_gives_nan_as_on_one_machine(synchronous):
    frame = pd.DataFrame({"y": [1, 1, 1, 1], "score": [0.1, 0.2, 0.2, 0.3]})
    ddf = partitioned(frame, (1, 3))
    with pytest.warns(UndefinedMetricWarning, match="Only one class is present in `y_true`"):
        expected = assay.roc_auc_score(frame["y"], frame["score"])
    with pytest.warns(UndefinedMetricWarning, match="Only one class is present in `y_true`") as at:
        got = assay.dask.roc_auc_score(ddf["y"], ddf["score"])
    assert [w.filename for w in at] == [__file__]
    assert np.isnan(got) and np.isnan(expected)


@pytest.mark.parametrize("label", [0, 1])
@pytest.mark.parametrize("name", ["roc_curve", "precision_recall_curve"])
def test_a_curve_of_one_class_warns_and_gives_nan_as_on_one_machine(synchronous, name, label):
    frame = pd.DataFrame({"y": [label] * 5, "score": [0.1, 0.2, 0.2, 0.3, 0.9]})
    ddf = partitioned(frame, (0, 2, 3))
    with warnings.catch_warnings(record=True) as one_machine:
        warnings.simplefilter("always")
        expected = getattr(assay, name)(frame["y"], frame["score"])
    with warnings.catch_warnings(record=True) as on_dask:
        warnings.simplefilter("always")
        got = getattr(assay.dask, name)(ddf["y"], ddf["score"])
    # a precision-recall curve of positives only is defined: no warning on either
    assert [str(w.message) for w in on_dask] == [str(w.message) for w in one_machine]
    assert all(w.filename == __file__ for w in on_dask)
    for got_column, expected_column in zip(got, expected, strict=True):
        np.testing.assert_array_equal(got_column, expected_column)  # NaN where NaN


def test_zero_total_weight_is_refused(synchronous):
    frame = pd.DataFrame({"y": [0, 1, 1], "score": [0.1, 0.2, 0.3], "w": [0.0, 0.0, 0.0]})
    ddf = partitioned(frame, (1, 2))
    with pytest.raises(ValueError, match=r"`sample_weight` sums to zero"):
        assay.dask.roc_auc_score(ddf["y"], ddf["score"], sample_weight=ddf["w"])


# each example builds 8 graphs (about 1 s): an eighth of the profile's examples
@settings(max_examples=max(5, settings.default.max_examples // 8))
@given(st.data())
def test_small_data_equals_one_machine(data):
    """Any data and any split into partitions (synchronous scheduler: no cluster)."""
    y_true, y_score, weight = data.draw(binary_ranking_data(min_n=2, max_n=40, both_classes=True))
    cuts = data.draw(split_into_pieces(y_true.shape[0], max_pieces=4))
    frame = pd.DataFrame({"y": y_true, "score": y_score})
    if weight is not None:
        frame["w"] = weight
    ddf = partitioned(frame, tuple(np.diff(cuts).tolist()))
    sample_weight = None if weight is None else ddf["w"]
    exact = weight is None or np.all(weight == np.round(weight))
    lazy = [
        getattr(assay.dask, name)(
            ddf["y"], ddf["score"], sample_weight=sample_weight, compute=False, **options
        )
        for name, options in RANKING
    ]
    with dask.config.set(scheduler="synchronous"):
        values = dask.compute(*lazy)  # one job for all (compute=False: no warnings)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        expected = [
            getattr(assay, name)(y_true, y_score, sample_weight=weight, **options)
            for name, options in RANKING
        ]
    for (name, _), got, want in zip(RANKING, values, expected, strict=True):
        if exact:
            assert got == want or (np.isnan(got) and np.isnan(want)), name
        else:
            np.testing.assert_allclose(got, want, rtol=FRACTIONAL_WEIGHTS_RTOL, atol=0)


# the areas of a thinned curve regroup the exact curve's sums: equal to rounding (and
# an AUC of 0, every positive below every negative, to rounding of zero-width terms)
THINNED_AREA_RTOL = 1e-12
THINNED_AREA_ATOL = 1e-15


def _roc_area(curve):
    return float(np.sum(np.diff(curve.fpr) * (curve.tpr[1:] + curve.tpr[:-1]) / 2.0))


def _step_sum(curve):
    return float(-np.sum(np.diff(curve.recall) * curve.precision[:-1]))


def _assert_kept_points_are_exact(thinned, exact, weight=None):
    """Every point of the thinned curve with a threshold is a point of the exact curve."""
    kept = ~np.isnan(thinned.thresholds)
    positions = np.searchsorted(-exact.thresholds, -thinned.thresholds[kept])
    for got, want in zip(thinned, exact, strict=True):
        _check_equal(got[kept], want[positions], weight)


@pytest.mark.parametrize("weight", WEIGHTS)
def test_curves_of_at_most_k_points_keep_the_exact_areas(data, synchronous, weight):
    frame, ddf = data
    sample_weight = None if weight is None else ddf[weight]
    sizes = (3, 10, 101)
    lazy = [
        getattr(assay.dask, name)(
            ddf["y"], ddf["score"], sample_weight=sample_weight, max_points=k, compute=False
        )
        for name in ("roc_curve", "precision_recall_curve")
        for k in sizes
    ]
    curves = dask.compute(*lazy)
    auc = _one_machine("roc_auc_score", frame, weight)
    precision = _one_machine("average_precision_score", frame, weight)
    exact_roc = _one_machine("roc_curve", frame, weight)
    exact_pr = _one_machine("precision_recall_curve", frame, weight)
    for k, roc, pr in zip(sizes, curves[:3], curves[3:], strict=True):
        assert roc.fpr.shape[0] <= k and pr.recall.shape[0] <= k
        assert np.all(np.diff(roc.fpr) >= 0) and np.all(np.diff(roc.tpr) >= 0)
        assert np.all(np.diff(pr.recall) <= 0)
        np.testing.assert_allclose(_roc_area(roc), auc, rtol=THINNED_AREA_RTOL, atol=0)
        np.testing.assert_allclose(_step_sum(pr), precision, rtol=THINNED_AREA_RTOL, atol=0)
        _assert_kept_points_are_exact(roc, exact_roc, weight)
        # the recalls and thresholds kept are exact; the precisions are band means
        positions = np.searchsorted(exact_pr.thresholds, pr.thresholds)
        assert np.array_equal(pr.thresholds, exact_pr.thresholds[positions])
        _check_equal(pr.recall[:-1], exact_pr.recall[positions], weight)


# a curve and its thinning are cheap: no dask here, a tenth of a second per example
@given(st.data())
def test_thinning_keeps_the_areas_of_any_curve(data):
    from assay._results import PrecisionRecallCurve, RocCurve
    from assay.dask._thin import thin_precision_recall, thin_roc

    y_true, y_score, weight = data.draw(binary_ranking_data(min_n=2, max_n=60, both_classes=True))
    k = data.draw(st.integers(3, 12))
    drop = data.draw(st.booleans())
    roc = assay.roc_curve(y_true, y_score, sample_weight=weight, drop_intermediate=drop)
    thinned = RocCurve(*thin_roc(*roc, k))
    assert thinned.fpr.shape[0] <= k
    expected = assay.roc_auc_score(y_true, y_score, sample_weight=weight)
    np.testing.assert_allclose(
        _roc_area(thinned), expected, rtol=THINNED_AREA_RTOL, atol=THINNED_AREA_ATOL
    )
    _assert_kept_points_are_exact(thinned, roc)
    pr = assay.precision_recall_curve(y_true, y_score, sample_weight=weight)
    thinned_pr = PrecisionRecallCurve(*thin_precision_recall(*pr, k))
    assert thinned_pr.recall.shape[0] <= k
    expected = assay.average_precision_score(y_true, y_score, sample_weight=weight)
    np.testing.assert_allclose(_step_sum(thinned_pr), expected, rtol=THINNED_AREA_RTOL, atol=0)


def test_a_curve_within_the_limit_is_returned_whole(synchronous):
    frame = pd.DataFrame({"y": [0, 0, 1, 1], "score": [0.1, 0.4, 0.35, 0.8]})
    ddf = partitioned(frame, (2, 2))
    got = assay.dask.roc_curve(ddf["y"], ddf["score"], max_points=5)
    for got_column, want in zip(got, assay.roc_curve(frame["y"], frame["score"]), strict=True):
        assert np.array_equal(got_column, want)


@pytest.mark.parametrize(
    ("name", "max_points", "error", "message"),
    [
        ("roc_curve", 2, ValueError, "`max_points` must be at least 3 (the curve's two ends"),
        ("precision_recall_curve", 1, ValueError, "`max_points` must be at least 2"),
        ("roc_curve", 10.0, TypeError, "`max_points` must be an int or None; got 10.0."),
        ("precision_recall_curve", True, TypeError, "`max_points` must be an int or None"),
    ],
)
def test_bad_max_points_is_refused(data, name, max_points, error, message):
    _, ddf = data
    with pytest.raises(error, match=re.escape(message)):
        getattr(assay.dask, name)(ddf["y"], ddf["score"], max_points=max_points)


def test_each_input_partition_is_read_once_a_call(synchronous):
    """A ranking metric, a weighted curve, DeLong's paired test and the weighted bootstrap
    read each input partition once, all its columns together (a frame read per column,
    as ``read_parquet`` reads, calls its reader once per column otherwise)."""
    computed: collections.Counter[int] = collections.Counter()

    def partition(index: int) -> pd.DataFrame:
        computed[index] += 1
        rng = np.random.default_rng(index)
        columns = {"y": rng.integers(0, 2, 300), "a": rng.random(300), "b": rng.random(300)}
        labels = {"p": rng.integers(0, 2, 300), "q": rng.integers(0, 2, 300)}
        return pd.DataFrame({**columns, **labels, "w": rng.random(300)})

    ddf = dd.from_map(partition, range(4), meta=partition(0).iloc[:0])
    calls = [
        lambda: assay.dask.roc_auc_score(ddf["y"], ddf["a"]),
        lambda: assay.dask.roc_curve(ddf["y"], ddf["a"], sample_weight=ddf["w"]),
        lambda: assay.dask.delong_test(ddf["y"], ddf["a"], ddf["b"]),
        lambda: assay.dask.bootstrap(
            assay.roc_auc_score, ddf["y"], ddf["a"], sample_weight=ddf["w"], n_resamples=5, rng=0
        ),
        lambda: assay.dask.compare(
            assay.roc_auc_score, ddf["y"], ddf["a"], ddf["b"], rng=0, n_resamples=5
        ),
        lambda: assay.dask.f1_score(ddf["y"], ddf["p"], sample_weight=ddf["w"]),
        lambda: assay.dask.mean_squared_error(ddf["a"], ddf["b"], sample_weight=ddf["w"]),
        lambda: assay.dask.bootstrap(
            assay.f1_score, ddf["y"], ddf["p"], sample_weight=ddf["w"], n_resamples=5, rng=0
        ),
        lambda: assay.dask.compare(
            assay.f1_score, ddf["y"], ddf["p"], ddf["q"], n_resamples=5, rng=0
        ),
    ]
    for call in calls:
        computed.clear()
        call()
        assert computed == {0: 1, 1: 1, 2: 1, 3: 1}


@pytest.mark.parametrize("sort", ["radix", "numpy"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_buckets_sorted_either_way_give_one_machines_values(synchronous, monkeypatch, sort, dtype):
    """Distinct scores (rows, not cells; some tied, signed zeros) in buckets sorted by
    the radix sort or by np.sort (forced: these buckets are below the size where the
    calibrated choice applies); weighted too.  Unweighted, each class is radix sorted
    straight from the bucket's pieces."""
    monkeypatch.setenv("ASSAY_SORT", sort)  # read at every sort
    calls = []
    radix_sort_joined = _buckets.radix_sort_joined
    monkeypatch.setattr(
        _buckets,
        "radix_sort_joined",
        lambda pieces, out: calls.append(1) or radix_sort_joined(pieces, out=out),
    )
    rng = np.random.default_rng(20261128)
    n = 60_000
    y = rng.integers(0, 2, n)
    score = (rng.normal(size=n) + y).astype(dtype)
    score[rng.integers(0, n, 2000)] = score[:2000]
    score[rng.integers(0, n, 300)] = 0.0
    score[rng.integers(0, n, 300)] = -0.0
    frame = pd.DataFrame({"y": y, "score": score, "w": rng.random(n)})
    ddf = partitioned(frame, (20_000, 5_000, 0, 35_000))
    score = frame["score"].to_numpy()
    for name in ("roc_auc_score", "average_precision_score"):
        assert getattr(assay.dask, name)(ddf["y"], ddf["score"]) == getattr(assay, name)(y, score)
        got = getattr(assay.dask, name)(ddf["y"], ddf["score"], sample_weight=ddf["w"])
        want = getattr(assay, name)(y, score, sample_weight=frame["w"].to_numpy())
        np.testing.assert_allclose(got, want, rtol=FRACTIONAL_WEIGHTS_RTOL, atol=0)
    for got, want in zip(assay.dask.roc_curve(ddf["y"], ddf["score"]), assay.roc_curve(y, score),
                         strict=True):  # fmt: skip
        assert np.array_equal(got, want)
    assert bool(calls) == (sort == "radix")


def test_the_metrics_buckets_hold_four_partitions_the_bootstraps_two():
    # every bucket is merged by one task: the metrics and curves, which only scan their
    # buckets, take one per 4 partitions; the unweighted bootstrap, whose draws hold about
    # 90 bytes a tie group, one per 2 (no client: 2 workers are assumed, at least 4 buckets)
    rng = np.random.default_rng(3)
    y = (rng.random(3200) < 0.3).astype(np.int64)
    frame = dd.from_pandas(
        pd.DataFrame({"y": y, "s": rng.standard_normal(3200) + y}), npartitions=32
    )
    lazy = {
        "roc_auc_score": assay.dask.roc_auc_score(frame["y"], frame["s"], compute=False),
        "roc_curve": assay.dask.roc_curve(frame["y"], frame["s"], compute=False),
        "bootstrap": assay.dask.bootstrap(
            assay.roc_auc_score, frame["y"], frame["s"], n_resamples=5, rng=0, compute=False
        ),
    }
    merges = {
        name: sum(1 for key in value.__dask_graph__() if "merge_bucket" in str(key))
        for name, value in lazy.items()
    }
    assert merges == {"roc_auc_score": 8, "roc_curve": 8, "bootstrap": 16}
    with dask.config.set(scheduler="synchronous"):
        assert lazy["roc_auc_score"].compute() == assay.roc_auc_score(y, frame["s"].compute())

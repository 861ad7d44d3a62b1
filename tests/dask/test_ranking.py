"""Ranking metrics and curves of dask collections against single-machine assay.

Every value must equal :mod:`assay`'s on the same rows: bit for bit (``==``) without
weights and with integer weights, within ``FRACTIONAL_WEIGHTS_RTOL`` with fractional
weights (the same sums, added in another order).
"""

from __future__ import annotations

import itertools
import re
import warnings

import dask.array as da
import numpy as np
import pandas as pd
import pytest
from dask.delayed import Delayed
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
import assay.dask
import dask
from assay.dask._partitions import bucket_of, choose_splitters, summarise_partition
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


def test_equal_scores_share_a_bucket():
    splitters = np.array([-1.0, 0.0, 2.5])
    scores = np.array([-0.0, 0.0, 2.5, 2.5, 1.0, 1.0, -3.0, 7.0])
    buckets = bucket_of(scores, splitters)
    assert buckets.tolist() == [3, 3, 5, 5, 4, 4, 0, 6]


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

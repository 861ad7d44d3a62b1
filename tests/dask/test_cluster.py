"""Everything on a local cluster of two worker processes, computed together.

Each call on the cluster costs seconds of scheduling, so the values of every function
are built lazily and computed in one ``dask.compute``:
the calls on the same columns share their ranking job (one shuffle per kind of weight).
The comparisons are those of ``test_ranking.py``, ``test_confusion.py`` and
``test_regression.py`` (which run every case with the synchronous scheduler).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import assay
import assay.dask
import dask
from tests.dask.conftest import (
    PARTITION_SIZES,
    assert_peer_to_peer,
    cluster_arguments,
    graph_names,
    is_task_of,
    partitioned,
    task_name,
)
from tests.dask.test_delong import assert_equal_results
from tests.dask.test_ranking import FRACTIONAL_WEIGHTS_RTOL, WEIGHTS

distributed = pytest.importorskip("distributed")

# regression sums run in another order than on one machine (see test_regression.py)
REGRESSION_RTOL = 1e-12


def _weights(frame, ddf, weight):
    return (None, None) if weight is None else (frame[weight].to_numpy(), ddf[weight])


def _lazy_and_expected(frame, ddf):
    """The lazy values of every function on ``ddf``, one machine's values on ``frame``,
    and the relative tolerance of each comparison."""
    y, score = frame["y"].to_numpy(), frame["score"].to_numpy()
    lazy, expected, tolerances = [], [], []
    # the three paths of the ranking job without weights (one shuffle): a forward scan,
    # a backward scan with a below pass, a curve; every other function and weighting runs
    # synchronously in test_ranking.py (each kernel is loaded anew in each worker
    # process, which costs seconds on a busy machine)
    calls = [
        ("roc_auc_score", {"max_fpr": 0.3}),
        ("pr_auc_score", {"method": "interpolated"}),
        ("roc_curve", {}),
    ]
    ranking = [(None, call) for call in calls]
    for weight, (name, options) in ranking:
        weights, dask_weights = _weights(frame, ddf, weight)
        lazy.append(
            getattr(assay.dask, name)(
                ddf["y"], ddf["score"], compute=False, sample_weight=dask_weights, **options
            )
        )
        expected.append(getattr(assay, name)(y, score, sample_weight=weights, **options))
        tolerances.append(FRACTIONAL_WEIGHTS_RTOL if weight else 0.0)
    for weight in WEIGHTS:
        weights, dask_weights = _weights(frame, ddf, weight)
        rtol = FRACTIONAL_WEIGHTS_RTOL if weight == "weight" else 0.0
        for name in ("confusion_matrix", "matthews_corrcoef"):
            lazy.append(
                getattr(assay.dask, name)(
                    ddf["y"], ddf["predicted"], compute=False, sample_weight=dask_weights
                )
            )
            expected.append(
                getattr(assay, name)(y, frame["predicted"].to_numpy(), sample_weight=weights)
            )
            tolerances.append(rtol)
        lazy.append(
            assay.dask.r2_score(
                ddf["target"], ddf["estimate"], compute=False, sample_weight=dask_weights
            )
        )
        expected.append(
            assay.r2_score(
                frame["target"].to_numpy(), frame["estimate"].to_numpy(), sample_weight=weights
            )
        )
        tolerances.append(REGRESSION_RTOL)
    return lazy, expected, tolerances


def test_every_function_on_a_cluster_equals_one_machine(data, dask_client):
    frame, ddf = data
    y, score = frame["y"].to_numpy(), frame["score"].to_numpy()
    # the graphs are built with the client current, as a user's calls with a client:
    # their shuffles are then Dask's peer-to-peer shuffle (without a current client, they
    # would be the shuffle through local files, which users of a cluster do not get)
    with dask_client.as_current():
        lazy, expected, tolerances = _lazy_and_expected(frame, ddf)
        # DeLong's paired test: two shuffles, placements carried from one to the other
        paired = assay.dask.delong_test(ddf["y"], ddf["score"], ddf["second"], compute=False)
        assert_peer_to_peer(paired)
        # a ranking metric moves atoms, not rows: no shuffle
        assert {"cut_partition", "merge_bucket"} <= graph_names(lazy[0])
        # the task that sorts a partition also selects its two columns (``getitem``)
        # from the frame's partition: one task a partition reads both
        sorts = [task_name(k) for k in lazy[0].__dask_graph__() if is_task_of(k, "sort_partition")]
        assert len(sorts) == ddf.npartitions
        assert all(name.startswith("getitem-getitem-") for name in sorts), sorts
        assert not any(name.startswith("shuffle") for name in graph_names(lazy[0]))
        *values, paired_result = dask.compute(*lazy, paired, scheduler=dask_client.get)
    assert_equal_results(
        paired_result, assay.delong_test(y, score, frame["second"].to_numpy()), exact=True
    )
    for value, want, rtol in zip(values, expected, tolerances, strict=True):
        if not isinstance(want, tuple):  # a curve is a tuple of arrays; the rest one value
            value, want = (value,), (want,)
        for got_part, want_part in zip(value, want, strict=True):
            if rtol == 0.0:
                assert np.array_equal(got_part, want_part)
            else:
                np.testing.assert_allclose(got_part, want_part, rtol=rtol, atol=0)


def test_a_graph_built_without_a_current_client_shuffles_through_files(data, dask_client):
    """The check of the test above tells the two shuffles apart."""
    _, ddf = data
    lazy = assay.dask.delong_test(ddf["y"], ddf["score"], ddf["second"], compute=False)
    assert "diskshuffle" in graph_names(lazy)
    with pytest.raises(AssertionError, match="shuffle-transfer"):
        assert_peer_to_peer(lazy)


def test_an_error_on_a_worker_names_the_partition(data, dask_client):
    frame, _ = data
    bad = frame.copy()
    bad.loc[sum(PARTITION_SIZES[:6]) + 5, "score"] = np.nan  # in partition 6
    ddf = partitioned(bad)
    message = "In partition 6 of 7: `y_score` contains 1 NaN values; scores must be finite."
    with dask_client.as_current(), dask.config.set(scheduler=dask_client.get):
        with pytest.raises(ValueError, match=re.escape(message)):
            assay.dask.roc_auc_score(ddf["y"], ddf["score"])


def _transferred_keys(dask_worker: Any) -> list[str]:
    """The keys this worker fetched from others since the last call (its log emptied)."""
    keys = [task_name(key) for entry in dask_worker.transfer_incoming_log
            for key in entry.get("keys", {})]  # fmt: skip
    dask_worker.transfer_incoming_log.clear()
    return keys


def test_calls_computed_at_once_move_each_piece_once(data, dask_client):
    """Computed at once on a client (``compute=True``), a ranking job checks the
    partitions first, then cuts and bundles them on the worker that holds them: what
    moves is each bucket's pieces, never a whole partition or bundle; the values are
    one machine's."""
    frame, ddf = data
    y, score = frame["y"].to_numpy(), frame["score"].to_numpy()
    dask_client.run(_transferred_keys)
    with dask_client.as_current():
        got = [
            assay.dask.roc_auc_score(ddf["y"], ddf["score"]),
            assay.dask.average_precision_score(ddf["y"], ddf["score"]),
            assay.dask.roc_curve(ddf["y"], ddf["score"]),
            assay.dask.auc_ci(ddf["y"], ddf["score"]),
            assay.dask.bootstrap(
                assay.roc_auc_score, ddf["y"], ddf["score"], n_resamples=20, rng=7
            ),
        ]
    moved = [key for keys in dask_client.run(_transferred_keys).values() for key in keys]
    assert "getitem" in moved, moved  # a bucket's pieces from a bundle: the pieces did move
    for name in ("sort_partition", "cut_partition", "cut_and_bundle", "combine_pieces"):
        assert not any(is_task_of(key, name) for key in moved), (name, moved)
    auc, ap, curve, interval, replicated = got
    assert auc == assay.roc_auc_score(y, score)
    assert ap == assay.average_precision_score(y, score)
    for got_part, want_part in zip(curve, assay.roc_curve(y, score), strict=True):
        assert np.array_equal(got_part, want_part)
    want = assay.auc_ci(y, score)
    assert interval.estimate == want.estimate
    assert interval.standard_error == pytest.approx(want.standard_error, rel=1e-12)
    expected = assay.bootstrap(assay.roc_auc_score, y, score, n_resamples=20, rng=7,
                               resampling="poisson")  # fmt: skip
    assert np.array_equal(replicated.bootstrap_distribution, expected.bootstrap_distribution)


def test_a_worker_with_more_threads_cuts_one_bundle_a_thread(data):
    """Computed at once, the partitions on a worker are cut and bundled by two tasks, or
    by one a thread when the worker has more threads (they cut at once); the value is
    one machine's."""
    frame, _ = data
    ddf = partitioned(frame, (9_000,) * 8)
    y = frame["y"].to_numpy()[: 8 * 9_000]
    score = frame["score"].to_numpy()[: 8 * 9_000]
    for threads, bundles in ((1, 2), (3, 3)):
        with (
            distributed.LocalCluster(
                **cluster_arguments(n_workers=1, threads_per_worker=threads, processes=False)
            ) as cluster,
            distributed.Client(cluster, set_as_default=False) as client,
            client.as_current(),
            distributed.get_task_stream(client) as stream,
        ):
            got = assay.dask.roc_auc_score(ddf["y"], ddf["score"])
        names = [is_task_of(entry["key"], "cut_and_bundle") for entry in stream.data]
        assert sum(names) == bundles, (threads, sum(names))
        assert got == assay.roc_auc_score(y, score)

"""A worker process killed in the middle of a computation: Dask recomputes the tasks it
held, and the result is still exactly the one-machine value.

The kill lands at a fixed point of the graph, not at a time. The scheduler of a
``LocalCluster`` runs in this process; a scheduler plugin watches the tasks finish and,
when the first task of a given kind has finished, kills the worker process that holds
its result (SIGKILL, as a crash or the kernel's out-of-memory killer would), inside the
scheduler's handling of that very completion. The final result depends on every task of
that kind, so it cannot exist yet: the kill always lands mid-computation, and the
killed worker's results (that task's among them) are lost and must be recomputed. The
kill points:

* ``sort_partition``: the first input partition read, checked, split and summarised;
* ``cut_partition``: the first split partition gathered into buckets at the splitters;
* ``cut_and_bundle``: the first bundle of the pieces of partitions that lie on one
  worker, cut there (a call computed at once, which computes the checked partitions
  first);
* ``merge_bucket``: the first bucket merged from every partition's piece of it;
* ``shuffle-transfer`` (DeLong's paired test, which moves rows): the first input
  partition handed to the shuffle (the shuffle is under way; Dask's peer-to-peer
  shuffle restarts when a participating worker leaves);
* ``replicate_totals``: the first bucket's per-replicate totals of a bootstrap.

Each test starts its own cluster (the session's cluster is not disturbed), so no test
depends on a nanny having restarted the worker an earlier test killed; the nannies do
restart them, but not always before the next test would start.
"""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest

import assay
import assay.dask
import dask
from tests.dask.conftest import (
    assert_peer_to_peer,
    cluster_arguments,
    graph_names,
    is_task_of,
    partitioned,
)

distributed = pytest.importorskip("distributed")
from distributed.diagnostics.plugin import SchedulerPlugin  # noqa: E402

SEED = 20261126
# 3e4 rows in 6 uneven partitions, one of them empty
SIZES = (7_000, 4_000, 0, 9_000, 6_000, 4_000)
N_RESAMPLES = 40


def _rows() -> pd.DataFrame:
    """Tied scores (rounded to 0.01, a fifth of the rows at 0.0)."""
    n = sum(SIZES)
    rng = np.random.default_rng(SEED)
    y = rng.integers(0, 2, n)
    score = np.round(rng.normal(size=n) + y, 2)
    score[rng.random(n) < 0.2] = 0.0
    second = np.round(rng.normal(size=n) + 0.5 * y, 2)
    return pd.DataFrame({"y": y, "score": score, "second": second})


class KillOnFirst(SchedulerPlugin):
    """Kill the worker holding the first finished task named ``name`` (once)."""

    def __init__(self, name: str, pids: dict[str, int]) -> None:
        self.name = name
        self.pids = pids
        self.killed: tuple[str, int] | None = None

    def transition(
        self, key: Any, start: str, finish: str, *args: Any, stimulus_id: str, **kwargs: Any
    ) -> None:
        if self.killed is None and finish == "memory" and is_task_of(key, self.name):
            worker = kwargs["worker"]
            os.kill(self.pids[worker], signal.SIGKILL)
            self.killed = (worker, self.pids[worker])


@pytest.fixture
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with (
        distributed.LocalCluster(
            **cluster_arguments(
                local_directory=str(tmp_path_factory.mktemp("dask-faults")),
                # the nannies log each kill and restart at WARNING: expected here, kept quiet
                silence_logs=logging.ERROR,
            )
        ) as local_cluster,
        distributed.Client(local_cluster, set_as_default=False) as client,
    ):
        yield local_cluster, client


@pytest.fixture(scope="module")
def rows() -> tuple[pd.DataFrame, Any]:
    frame = _rows()
    return frame, partitioned(frame, SIZES)


def _compute_with_a_kill(
    cluster: Any, name: str, build: Callable[[], Any], at_once: bool = False
) -> tuple[Any, tuple[str, int]]:
    """The lazy value ``build()`` computed on the cluster, the worker holding the first
    finished ``name`` task killed; the value and the killed ``(address, pid)``.
    ``at_once``: ``build()`` computes the value itself (a call with ``compute=True``,
    which computes its checked partitions first, then the rest).

    The graph is built with the cluster's client current, as a user's call with a
    client: Dask's shuffle is then its peer-to-peer shuffle (without a client, it is
    the shuffle through local files).
    """
    local_cluster, client = cluster
    client.wait_for_workers(2)
    pids = client.run(os.getpid)
    plugin = KillOnFirst(name, pids)
    # the scheduler runs in this process: the plugin is added directly (the cluster is
    # idle, no transition is being handled)
    local_cluster.scheduler.add_plugin(plugin, name="kill-on-first")
    try:
        with client.as_current():
            if at_once:
                value = build()
            else:
                lazy = build()
                if "shuffle-transfer" in graph_names(lazy):
                    assert_peer_to_peer(lazy)
                (value,) = dask.compute(lazy, scheduler=client.get)
    finally:
        local_cluster.scheduler.remove_plugin(name="kill-on-first")
    assert plugin.killed is not None, f"no {name} task finished"
    return value, plugin.killed


def _assert_killed(cluster: Any, killed: tuple[str, int]) -> None:
    """The killed worker process is gone from the cluster (its nanny may have started
    another; the result never depends on that)."""
    _, client = cluster
    address, pid = killed
    assert pid not in client.run(os.getpid).values()
    assert address not in client.scheduler_info()["workers"]


@pytest.mark.parametrize("name", ["sort_partition", "cut_partition", "merge_bucket"])
def test_roc_auc_survives_a_killed_worker(cluster, rows, name):
    frame, ddf = rows
    value, killed = _compute_with_a_kill(
        cluster, name, lambda: assay.dask.roc_auc_score(ddf["y"], ddf["score"], compute=False)
    )
    _assert_killed(cluster, killed)
    assert value == assay.roc_auc_score(frame["y"].to_numpy(), frame["score"].to_numpy())


@pytest.mark.parametrize("name", ["sort_partition", "cut_and_bundle", "merge_bucket"])
def test_roc_auc_computed_at_once_survives_a_killed_worker(cluster, rows, name):
    # killed while the checked partitions are computed, or after, when the bundles are
    # cut and made on the workers that held them and the buckets merged
    frame, ddf = rows
    value, killed = _compute_with_a_kill(
        cluster, name, lambda: assay.dask.roc_auc_score(ddf["y"], ddf["score"]), at_once=True
    )
    _assert_killed(cluster, killed)
    assert value == assay.roc_auc_score(frame["y"].to_numpy(), frame["score"].to_numpy())


def test_paired_delong_test_survives_a_killed_worker_during_the_shuffle(cluster, rows):
    frame, ddf = rows
    result, killed = _compute_with_a_kill(
        cluster,
        "shuffle-transfer",
        lambda: assay.dask.delong_test(ddf["y"], ddf["score"], ddf["second"], compute=False),
    )
    _assert_killed(cluster, killed)
    expected = assay.delong_test(*(frame[c].to_numpy() for c in ("y", "score", "second")))
    # the areas are exact counts; the variance sums in another order (1e-12 relative)
    assert result.details["auc_a"] == expected.details["auc_a"]
    assert result.details["auc_b"] == expected.details["auc_b"]
    assert result.statistic == pytest.approx(expected.statistic, rel=1e-12)
    assert result.pvalue == pytest.approx(expected.pvalue, rel=1e-12)


def test_bootstrap_survives_a_killed_worker(cluster, rows):
    frame, ddf = rows

    def build() -> Any:
        return assay.dask.bootstrap(
            assay.roc_auc_score, ddf["y"], ddf["score"], n_resamples=N_RESAMPLES, rng=SEED,
            compute=False,
        )  # fmt: skip

    result, killed = _compute_with_a_kill(cluster, "replicate_totals", build)
    _assert_killed(cluster, killed)
    expected = assay.bootstrap(
        assay.roc_auc_score, frame["y"].to_numpy(), frame["score"].to_numpy(),
        n_resamples=N_RESAMPLES, rng=SEED, resampling="poisson",
    )  # fmt: skip
    assert np.array_equal(result.bootstrap_distribution, expected.bootstrap_distribution)
    assert result.confidence_interval == expected.confidence_interval
    assert result.estimate == expected.estimate

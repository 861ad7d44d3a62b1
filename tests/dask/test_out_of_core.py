"""Out of core: a Parquet data set larger than the room a worker has for data evaluates
on a local cluster without a worker being killed, to the one-machine value.

The rows (float32 scores, int8 labels: 5 bytes a row on disk, several times more in the
computation: tie groups take 24 bytes a distinct score) are read by the workers from
Parquet files.  Each worker may hold ``MEMORY_LIMIT``, of which its process's own
baseline (the interpreter, NumPy, pandas, pyarrow, Numba's compiled kernels, Dask's
worker) takes about 400 MiB; what the computation holds of the data set (each
partition's tie groups until they are merged into buckets, then some 480 MB of the
buckets' tie groups until the buckets' prefix is known) is larger than the rest, 1.4
times one worker's room.  Dask's worker keeps within its limit by spilling results to
disk past its memory thresholds.  A worker past 95 % of its limit would be restarted by
its nanny: the test counts the workers the scheduler lost.

Slow (minutes on two cores): ``nox -s dask-slow`` runs it, the default test run does
not.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import assay
import assay.dask
import dask
from tests.dask.conftest import cluster_arguments, graph_names

distributed = pytest.importorskip("distributed")
dd = pytest.importorskip("dask.dataframe")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
from distributed.diagnostics.plugin import SchedulerPlugin  # noqa: E402

pytestmark = pytest.mark.slow

SEED = 20261126
N_ROWS = 20_000_000
N_FILES = 40
MEMORY_LIMIT = "768MiB"
# what a worker process holds before any data: the interpreter, NumPy, pandas, pyarrow,
# Numba and assay's loaded kernels, Dask's worker (measured: 270 MiB at start, 400 to
# 500 MiB once the kernels are loaded and the shuffle has run)
BASELINE = 400 * 2**20
# what the computation must hold of the data set: until the buckets' prefix is known,
# each bucket's tie groups (24 bytes a distinct score; float32 scores of this many
# rows are mostly distinct), and before that each partition's own tie groups
BYTES_HELD_PER_ROW = 24
N_RESAMPLES = 20
# the worker processes take the configuration from the process that starts them: the
# worker's memory thresholds (fractions of the limit) above the baseline of a process
# that has loaded the kernels (by default it spills from 60 % and pauses at 80 %: a
# worker whose baseline is near 80 % of its limit would pause, and wait, with nothing
# left to spill)
SMALL_WORKERS = {
    "distributed.worker.memory.target": 0.75,
    "distributed.worker.memory.spill": 0.8,
    "distributed.worker.memory.pause": 0.9,
    "distributed.worker.memory.terminate": 0.95,
}


class CountLostWorkers(SchedulerPlugin):
    """The addresses of the workers the scheduler removed (a killed or restarted
    worker process is removed, whatever killed it)."""

    def __init__(self) -> None:
        self.removed: list[str] = []

    def remove_worker(self, scheduler: Any, worker: str, **kwargs: Any) -> None:
        self.removed.append(worker)


def _write_files(directory: Path) -> None:
    """Binormal scores (tied: float32), prevalence 0.3, in ``N_FILES`` files."""
    bounds = np.linspace(0, N_ROWS, N_FILES + 1).astype(np.int64)
    for index in range(N_FILES):
        size = int(bounds[index + 1] - bounds[index])
        rng = np.random.default_rng([SEED, index])
        label = (rng.random(size) < 0.3).astype(np.int8)
        score = (rng.standard_normal(size) + 1.5 * label).astype(np.float32)
        table = pa.table({"label": label, "score": score})
        pq.write_table(table, directory / f"{index:03d}.parquet")


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("out-of-core")
    _write_files(directory)
    return directory


@pytest.fixture(scope="module")
def small_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    plugin = CountLostWorkers()
    with (
        dask.config.set(SMALL_WORKERS),
        distributed.LocalCluster(
            **cluster_arguments(
                memory_limit=MEMORY_LIMIT,
                local_directory=str(tmp_path_factory.mktemp("out-of-core-spill")),
                silence_logs=logging.ERROR,
            )
        ) as cluster,
        distributed.Client(cluster, set_as_default=False) as client,
    ):
        # the scheduler runs in this process, idle: the plugin is added directly
        cluster.scheduler.add_plugin(plugin, name="count-lost-workers")
        yield client, plugin


def test_a_data_set_larger_than_the_workers_memory(files, small_cluster):
    client, lost = small_cluster
    # the room for data of a worker (up to the limit at which its nanny restarts it) is
    # smaller than what the computation holds of the data set
    room = 0.95 * dask.utils.parse_bytes(MEMORY_LIMIT) - BASELINE
    assert N_ROWS * BYTES_HELD_PER_ROW > 1.25 * room
    pids = client.run(os.getpid)
    with client.as_current():
        frame = dd.read_parquet(str(files))
        lazy = (
            assay.dask.roc_auc_score(frame["label"], frame["score"], compute=False),
            assay.dask.average_precision_score(frame["label"], frame["score"], compute=False),
            assay.dask.bootstrap(
                assay.roc_auc_score, frame["label"], frame["score"],
                n_resamples=N_RESAMPLES, rng=SEED, compute=False,
            ),
        )  # fmt: skip
        assert not any(name.startswith("shuffle") for name in graph_names(*lazy))
        # one call at a time, as a user would: each sorts and merges the rows anew
        auc, ap, boot = (dask.compute(value, scheduler=client.get)[0] for value in lazy)
    assert lost.removed == []
    assert client.run(os.getpid) == pids  # the same worker processes, none restarted
    table = pq.read_table(str(files), columns=["label", "score"])
    label, score = table["label"].to_numpy(), table["score"].to_numpy()
    assert label.shape == (N_ROWS,)
    assert auc == assay.roc_auc_score(label, score)
    assert ap == assay.average_precision_score(label, score)
    expected = assay.bootstrap(
        assay.roc_auc_score, label, score, n_resamples=N_RESAMPLES, rng=SEED,
        resampling="poisson",
    )  # fmt: skip
    assert np.array_equal(boot.bootstrap_distribution, expected.bootstrap_distribution)
    assert boot.confidence_interval == expected.confidence_interval

"""Dask fixtures: a local cluster of two worker processes, and the synchronous scheduler.

The cluster starts once per session and serves the tests of ``test_cluster.py``; the
others use the synchronous scheduler (the same graph, run in the test's thread).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest
from dask.utils import key_split

import dask

distributed = pytest.importorskip("distributed")


def cluster_arguments(**extra: Any) -> dict[str, Any]:
    """The arguments of the tests' ``LocalCluster``: two single-threaded worker
    processes, no web servers on fixed ports; ``extra`` adds to them or overrides them."""
    arguments: dict[str, Any] = {
        "n_workers": 2,
        "threads_per_worker": 1,
        "processes": True,
        # the scheduler's web server on a free port: with None it still takes 8787,
        # and fails to start where another process (a second test run) holds it
        "dashboard_address": ":0",
        "worker_dashboard_address": None,
    }
    arguments.update(extra)
    return arguments


def graph_names(*lazy: Any) -> set[str]:
    """The names of the tasks in the graphs of the lazy values (keys without their
    tokens), e.g. ``shuffle-transfer`` for Dask's peer-to-peer shuffle."""
    return {key_split(key) for value in lazy for key in value.__dask_graph__()}


def task_name(key: Any) -> str:
    """A task key's name without its token, e.g. ``frompandas-getitem-getitem-sort_partition``
    for a task that reads the partitions of two columns and sorts them."""
    name = key[0] if isinstance(key, tuple) else key
    return str(name).rsplit("-", 1)[0]


def is_task_of(key: Any, name: str) -> bool:
    """Whether the task ``key`` runs ``name`` (a task that also reads its input partition
    is named after its reads too: ``...-getitem-sort_partition``)."""
    full = task_name(key)
    return key_split(key) == name or full == name or full.endswith("-" + name)


def assert_peer_to_peer(*lazy: Any) -> None:
    """The lazy values shuffle with Dask's peer-to-peer shuffle (the one a user with a
    current client gets), not with the shuffle through local files."""
    names = graph_names(*lazy)
    assert "shuffle-transfer" in names, sorted(names)
    assert "diskshuffle" not in names, sorted(names)


@pytest.fixture(scope="session")
def dask_client() -> Iterator[object]:
    """A client of ``LocalCluster(n_workers=2, threads_per_worker=1, processes=True)``."""
    with (
        distributed.LocalCluster(**cluster_arguments()) as cluster,
        distributed.Client(cluster, set_as_default=False) as client,
    ):
        yield client


@pytest.fixture
def synchronous() -> Iterator[None]:
    with dask.config.set(scheduler="synchronous"):
        yield


# 1e5 rows in 7 uneven partitions, two of them empty
PARTITION_SIZES = (23_000, 0, 4_000, 41_000, 0, 26_000, 6_000)
N_ROWS = sum(PARTITION_SIZES)


def rows() -> pd.DataFrame:
    """Skewed and tied scores (half the rows at 0.0, some at -0.0, rounded to 0.01),
    integer and fractional weights, a second model's scores; partition 2 holds
    positives only."""
    rng = np.random.default_rng(20241126)
    y = rng.integers(0, 2, N_ROWS)
    score = np.round(rng.normal(size=N_ROWS) + y, 2)
    score[rng.random(N_ROWS) < 0.5] = 0.0
    score[rng.integers(0, N_ROWS, 300)] = -0.0
    start = PARTITION_SIZES[0] + PARTITION_SIZES[1]
    y[start : start + PARTITION_SIZES[2]] = 1  # one class in this partition
    return pd.DataFrame(
        {
            "y": y,
            "score": score,
            "counts": rng.integers(0, 4, N_ROWS).astype(np.float64),
            "weight": rng.random(N_ROWS),
            "predicted": (score > 0.5).astype(np.int64),
            "target": rng.normal(size=N_ROWS),
            "estimate": rng.normal(size=N_ROWS),
            # a second model's scores, correlated with the first, tied (rounded to 0.1)
            "second": np.round(0.5 * score + rng.normal(size=N_ROWS), 1),
        }
    )


def partitioned(frame: pd.DataFrame, sizes: tuple[int, ...] = PARTITION_SIZES) -> object:
    """``frame`` as a dask DataFrame with partitions of the given sizes."""
    import dask.dataframe as dd

    cuts = np.cumsum((0, *sizes))
    pieces = [dask.delayed(frame.iloc[a:b]) for a, b in itertools.pairwise(cuts)]
    return dd.from_delayed(pieces, meta=frame.iloc[:0], verify_meta=False)


@pytest.fixture(scope="session")
def data() -> tuple[pd.DataFrame, object]:
    """The rows in memory and as a dask DataFrame of 7 uneven partitions."""
    frame = rows()
    return frame, partitioned(frame)

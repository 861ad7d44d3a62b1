"""Poisson replicates of the ROC and precision-recall curves on Dask, bucket by bucket.

Each bucket folds its tie groups' keyed Poisson counts from the weight above it and reads
the grid points it passes; merged, the curves of the data and of every replicate must be
those of one machine (``roc_band`` and ``precision_recall_band`` with
``resampling="poisson"``) bit for bit, whatever the partitioning, undefined replicates
(NaN) included.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

import dask
from assay._kernels.bands import Grids
from assay.dask._bands import band_curves_graph
from assay.dask._graph import ranking_job
from assay.resampling._bands import poisson_curves
from tests.dask.conftest import partitioned
from tests.strategies import curve_band_data, curve_grid, split_into_pieces

GRIDS = Grids(np.linspace(0.0, 1.0, 101), np.linspace(0.01, 1.0, 100))
SEED = 20261127


def on_dask(y, s, cuts, grids, n_resamples):
    frame = pd.DataFrame({"y": y, "score": s})
    ddf = partitioned(frame, tuple(np.diff(cuts).tolist()))
    job = ranking_job(ddf["y"], ddf["score"], None, None)
    with dask.config.set(scheduler="synchronous"):
        return dask.compute(band_curves_graph(job, grids, SEED, n_resamples))[0]


def assert_same(found, expected):
    for got, want in zip((*found[0], *found[1]), (*expected[0], *expected[1]), strict=True):
        np.testing.assert_array_equal(got, want)


def test_tied_rows_in_uneven_partitions_equal_one_machine(synchronous, data):
    frame, _ = data
    frame = frame.iloc[:30_000]
    y, s = frame["y"].to_numpy(), frame["score"].to_numpy()
    cuts = np.array([0, 9_000, 9_000, 10_000, 22_000, 30_000])
    found = on_dask(y, s, cuts, GRIDS, 30)
    expected = poisson_curves(y, s, GRIDS, 30, SEED)
    assert_same(found, expected)
    assert not np.isnan(found[1][0]).any()


@settings(max_examples=40, deadline=None)
@given(
    data=curve_band_data(),
    roc_grid=curve_grid(recall=False),
    recall_grid=curve_grid(recall=True),
    choice=st.data(),
)
def test_any_small_data_equals_one_machine(data, roc_grid, recall_grid, choice):
    # ties, constant scores, two rows (replicates without a class: NaN rows on both)
    y, s = data
    cuts = choice.draw(split_into_pieces(y.shape[0], max_pieces=4))
    grids = Grids(roc_grid, recall_grid)
    assert_same(on_dask(y, s, cuts, grids, 12), poisson_curves(y, s, grids, 12, SEED))

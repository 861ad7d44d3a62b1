"""Regression losses of dask collections against single-machine assay.

Float sums in another order than on one machine: ``REGRESSION_RTOL``.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import assay
import assay.dask
from tests.dask.conftest import PARTITION_SIZES, partitioned
from tests.dask.test_ranking import WEIGHTS

# 1e5 float terms summed per partition, then combined (Chan et al. for R^2's deviations):
# agreement to a few units of rounding; 1e-12 relative leaves a wide margin.
REGRESSION_RTOL = 1e-12
LOSSES = ("mean_squared_error", "root_mean_squared_error", "mean_absolute_error", "r2_score")


@pytest.mark.parametrize("weight", WEIGHTS)
@pytest.mark.parametrize("name", LOSSES)
def test_losses_equal_one_machine(data, synchronous, name, weight):
    frame, ddf = data
    weights = None if weight is None else frame[weight].to_numpy()
    expected = getattr(assay, name)(
        frame["target"].to_numpy(), frame["estimate"].to_numpy(), sample_weight=weights
    )
    dask_weights = None if weight is None else ddf[weight]
    got = getattr(assay.dask, name)(ddf["target"], ddf["estimate"], sample_weight=dask_weights)
    np.testing.assert_allclose(got, expected, rtol=REGRESSION_RTOL, atol=0)


@pytest.mark.parametrize("force_finite", [True, False])
def test_constant_target_warns_as_on_one_machine(synchronous, force_finite):
    frame = pd.DataFrame({"t": [2.0, 2.0, 2.0], "e": [2.0, 1.0, 2.0]})
    ddf = partitioned(frame, (2, 0, 1))
    match = "R\\^2 score is ill-defined for 1 output\\(s\\) whose `y_true` is constant"
    with pytest.warns(assay.exceptions.UndefinedMetricWarning, match=match):
        expected = assay.r2_score(frame["t"], frame["e"], force_finite=force_finite)
    with pytest.warns(assay.exceptions.UndefinedMetricWarning, match=match):
        got = assay.dask.r2_score(ddf["t"], ddf["e"], force_finite=force_finite)
    assert got == expected


def test_infinite_target_is_refused_naming_the_partition(data, synchronous):
    frame, _ = data
    bad = frame.copy()
    bad.loc[sum(PARTITION_SIZES[:1]) + 4, "target"] = np.inf  # in partition 2 (1 is empty)
    with pytest.raises(ValueError) as one_machine:
        assay.mean_squared_error(bad["target"].to_numpy(), bad["estimate"].to_numpy())
    ddf = partitioned(bad)
    with pytest.raises(ValueError, match=re.escape(f"In partition 2 of 7: {one_machine.value}")):
        assay.dask.mean_squared_error(ddf["target"], ddf["estimate"])

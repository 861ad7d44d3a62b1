"""assay.permutation_test: the observed statistic of the ranking path."""

from __future__ import annotations

import numpy as np
import pytest

import assay
from assay.metrics._registry import variants_of


@pytest.mark.parametrize("data_kind", ["distinct", "tied", "float32"])
def test_the_statistic_scanned_over_the_sorted_rows_is_the_metric_bit_for_bit(data_kind):
    # unweighted scores with a metric's default options: the statistic is the scan of
    # the rows' tie groups that every permutation runs (no plain scan compiled for it)
    generator = np.random.default_rng(13)
    y = (generator.random(3000) < 0.3).astype(np.int64)
    s = generator.standard_normal(3000) + y
    if data_kind == "tied":
        s = np.round(s, 1)
    if data_kind == "float32":
        s = s.astype(np.float32)
    for name, options in variants_of("ranking"):
        if options:
            continue  # options other than the defaults: the metric computes the statistic
        metric = getattr(assay, name)
        result = assay.permutation_test(metric, y, s, n_resamples=5, rng=1)
        assert result.statistic == metric(y, s), name

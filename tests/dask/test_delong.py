"""DeLong's interval and paired test of dask collections against single-machine assay.

The AUCs must equal :mod:`assay`'s bit for bit without weights and with integer weights
(exact counts); DeLong's variances are sums of the same terms added in another order
(per bucket, then over the buckets), so they, and what is computed from them, agree
within ``VARIANCE_RTOL``.
"""

from __future__ import annotations

import dataclasses
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from dask.delayed import Delayed
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
import assay.dask
import dask
from assay.exceptions import DegenerateDataWarning, UndefinedMetricWarning
from tests.dask.conftest import PARTITION_SIZES, partitioned
from tests.dask.test_ranking import WEIGHTS
from tests.strategies import binary_ranking_data, scores, split_into_pieces

# sums of 1e5 squared placements added in another order: relative rounding differences
# of about 1e-15, with room for cancellation in the covariance of correlated models
VARIANCE_RTOL = 1e-12
EXACT_FIELDS = ("estimate", "auc_a", "auc_b", "n", "n_positive", "n_negative")


def _weights(frame, ddf, weight):
    return (None, None) if weight is None else (frame[weight].to_numpy(), ddf[weight])


def _fields(result):
    fields = {f.name: getattr(result, f.name) for f in dataclasses.fields(result)}
    fields.update(fields.pop("details", {}))
    interval = fields.pop("confidence_interval")
    fields["low"], fields["high"] = interval
    return fields


def assert_equal_results(got, want, exact):
    """Every field equal; the AUCs and counts bit for bit when ``exact``."""
    assert type(got) is type(want)
    got, want = _fields(got), _fields(want)
    assert got.keys() == want.keys()
    for name, value in want.items():
        if isinstance(value, float) and not (exact and name in EXACT_FIELDS):
            np.testing.assert_allclose(got[name], value, rtol=VARIANCE_RTOL, atol=0, err_msg=name)
        else:
            assert got[name] == value or (np.isnan(got[name]) and np.isnan(value)), name


@pytest.mark.parametrize("weight", WEIGHTS)
def test_auc_ci_equals_one_machine(data, synchronous, weight):
    frame, ddf = data
    weights, dask_weights = _weights(frame, ddf, weight)
    y, score = frame["y"].to_numpy(), frame["score"].to_numpy()
    settings = [
        {},
        {"method": "hanley_mcneil", "interval": "normal", "confidence_level": 0.9},
    ]
    lazy = [
        assay.dask.auc_ci(ddf["y"], ddf["score"], sample_weight=dask_weights, compute=False, **s)
        for s in settings
    ]
    assert all(isinstance(value, Delayed) for value in lazy)
    for got, options in zip(dask.compute(*lazy), settings, strict=True):
        want = assay.auc_ci(y, score, sample_weight=weights, **options)
        assert_equal_results(got, want, weight != "weight")


@pytest.mark.parametrize("weight", WEIGHTS)
def test_delong_test_equals_one_machine(data, synchronous, weight):
    frame, ddf = data
    weights, dask_weights = _weights(frame, ddf, weight)
    got = assay.dask.delong_test(
        ddf["y"], ddf["score"], ddf["second"], sample_weight=dask_weights, alternative="less"
    )
    want = assay.delong_test(
        frame["y"].to_numpy(),
        frame["score"].to_numpy(),
        frame["second"].to_numpy(),
        sample_weight=weights,
        alternative="less",
    )
    assert_equal_results(got, want, weight != "weight")


def test_delong_test_of_a_model_against_itself(synchronous):
    """Identical placements: a variance of the difference of exactly 0 (not rounding
    noise), statistic 0 and the single-machine warning at the caller's line."""
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"y": rng.integers(0, 2, 400), "s": rng.normal(size=400)})
    ddf = partitioned(frame, (150, 0, 250))
    with pytest.warns(DegenerateDataWarning, match="the difference of the AUCs is 0") as got:
        result = assay.dask.delong_test(ddf["y"], ddf["s"], ddf["s"])
    assert [w.filename for w in got] == [__file__]
    assert result.statistic == 0.0 and result.pvalue == 1.0
    assert result.standard_error == 0.0


def test_partitions_the_shuffle_leaves_empty(synchronous):
    """Two scores only: two buckets for three partitions (one left empty)."""
    frame = pd.DataFrame(
        {"y": [0, 1, 1, 0, 1, 0, 0, 1, 1], "a": [0.2, 0.7] * 4 + [0.7], "b": [0.5] * 9}
    )
    frame.loc[[1, 4], "b"] = 0.9
    ddf = partitioned(frame, (3, 3, 3))
    got = assay.dask.delong_test(ddf["y"], ddf["a"], ddf["b"])
    assert_equal_results(got, assay.delong_test(frame["y"], frame["a"], frame["b"]), True)


@pytest.mark.parametrize("function", ["auc_ci", "delong_test"])
def test_a_single_class_warns_as_on_one_machine(synchronous, function):
    frame = pd.DataFrame({"y": [1, 1, 1, 1], "s": [0.1, 0.2, 0.2, 0.3]})
    ddf = partitioned(frame, (1, 3))
    inputs = ("s",) if function == "auc_ci" else ("s", "s")
    with pytest.warns(UndefinedMetricWarning, match="Only one class is present") as got:
        result = getattr(assay.dask, function)(ddf["y"], *(ddf[c] for c in inputs))
    with pytest.warns(UndefinedMetricWarning) as want:
        expected = getattr(assay, function)(frame["y"], *(frame[c] for c in inputs))
    assert [str(w.message) for w in got] == [str(w.message) for w in want]
    assert [w.filename for w in got] == [__file__]
    assert_equal_results(result, expected, True)


def test_one_positive_warns_as_on_one_machine(synchronous):
    frame = pd.DataFrame({"y": [0, 1, 0, 0, 0], "s": [0.1, 0.9, 0.3, 0.3, 0.5]})
    ddf = partitioned(frame, (2, 3))
    message = re.escape("it needs more than one of each (total weight above 1), got 1 positive")
    with pytest.warns(DegenerateDataWarning, match=message) as got:
        result = assay.dask.auc_ci(ddf["y"], ddf["s"])
    assert [w.filename for w in got] == [__file__]
    with pytest.warns(DegenerateDataWarning, match=message):
        expected = assay.auc_ci(frame["y"], frame["s"])
    assert_equal_results(result, expected, True)


def test_a_nan_in_the_second_model_names_it_and_the_partition(data, synchronous):
    frame, _ = data
    bad = frame.copy()
    bad.loc[sum(PARTITION_SIZES[:3]) + 11, "second"] = np.nan  # in partition 3
    message = "`score_b` contains 1 NaN values; scores must be finite."
    with pytest.raises(ValueError, match=re.escape(message)):
        assay.delong_test(bad["y"].to_numpy(), bad["score"].to_numpy(), bad["second"].to_numpy())
    ddf = partitioned(bad)
    with pytest.raises(ValueError, match=re.escape(f"In partition 3 of 7: {message}")):
        assay.dask.delong_test(ddf["y"], ddf["score"], ddf["second"])


@pytest.mark.parametrize(
    ("function", "options", "message"),
    [
        ("auc_ci", {"method": "bootstrap"}, "`method` must be one of"),
        ("auc_ci", {"interval": "wald"}, "`interval` must be one of"),
        ("auc_ci", {"confidence_level": 1.5}, "`confidence_level`"),
        ("delong_test", {"alternative": "bigger"}, "`alternative` must be one of"),
        ("delong_test", {"confidence_level": 0.0}, "`confidence_level`"),
    ],
)
def test_bad_options_are_refused_before_any_work(data, function, options, message):
    _, ddf = data
    inputs = ("score",) if function == "auc_ci" else ("score", "second")
    with pytest.raises(ValueError, match=re.escape(message)):
        getattr(assay.dask, function)(ddf["y"], *(ddf[c] for c in inputs), **options)


# each example builds two graphs (about 1 s): a tenth of the profile's examples
@settings(max_examples=max(5, settings.default.max_examples // 10), deadline=None)
@given(st.data())
def test_small_data_equals_one_machine(data):
    """Any data (ties, weights with zeros, one row of a class) and any partitioning."""
    y_true, score_a, weight = data.draw(binary_ranking_data(min_n=2, max_n=40, both_classes=True))
    score_b = data.draw(scores(y_true.shape[0]))
    cuts = data.draw(split_into_pieces(y_true.shape[0], max_pieces=4))
    frame = pd.DataFrame({"y": y_true, "a": score_a, "b": score_b})
    if weight is not None:
        frame["w"] = weight
    ddf = partitioned(frame, tuple(np.diff(cuts).tolist()))
    sample_weight = None if weight is None else ddf["w"]
    lazy = (
        assay.dask.auc_ci(ddf["y"], ddf["a"], sample_weight=sample_weight, compute=False),
        assay.dask.delong_test(
            ddf["y"], ddf["a"], ddf["b"], sample_weight=sample_weight, compute=False
        ),
    )
    with dask.config.set(scheduler="synchronous"):
        got = dask.compute(*lazy)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = (
            assay.auc_ci(y_true, score_a, sample_weight=weight),
            assay.delong_test(y_true, score_a, score_b, sample_weight=weight),
        )
    exact = weight is None or bool(np.all(weight == np.round(weight)))
    for got_result, want_result in zip(got, want, strict=True):
        assert_equal_results(got_result, want_result, exact)

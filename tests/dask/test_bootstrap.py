"""The Poisson bootstrap of dask collections against single-machine assay.

Every (score, class) cell draws its count from its own keyed stream, wherever it lies,
so ``assay.dask.bootstrap`` must give the replicates of ``assay.bootstrap(...,
resampling="poisson")`` with the same seed bit for bit (``np.array_equal``), whatever
the order of the rows and their partitioning, and with them the same result.
"""

from __future__ import annotations

import functools
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
from assay.exceptions import UndefinedMetricWarning
from tests.dask.conftest import partitioned
from tests.dask.test_ranking import RANKING
from tests.strategies import binary_ranking_data, split_into_pieces

N_RESAMPLES = 50
SEED = 20241126
# 2e4 rows in 6 uneven partitions, two of them empty; partition 2 holds positives only
SIZES = (6_000, 0, 1_500, 8_000, 0, 4_500)
N_ROWS = sum(SIZES)


def _rows() -> pd.DataFrame:
    """Skewed and tied scores: half the rows at 0.0, some at -0.0, the rest rounded to
    0.01 (many cells of several rows)."""
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, N_ROWS)
    score = np.round(rng.normal(size=N_ROWS) + y, 2)
    score[rng.random(N_ROWS) < 0.5] = 0.0
    score[rng.integers(0, N_ROWS, 200)] = -0.0
    start = SIZES[0] + SIZES[1]
    y[start : start + SIZES[2]] = 1
    return pd.DataFrame({"y": y, "score": score})


@pytest.fixture(scope="module")
def rows() -> pd.DataFrame:
    return _rows()


def _metric(name, options):
    function = getattr(assay, name)
    return functools.partial(function, **options) if options else function


def _one_machine(metric, frame, **keywords):
    settings = {"n_resamples": N_RESAMPLES, "rng": SEED, "resampling": "poisson", **keywords}
    return assay.bootstrap(metric, frame["y"].to_numpy(), frame["score"].to_numpy(), **settings)


def _assert_same_result(got, expected):
    assert np.array_equal(got.bootstrap_distribution, expected.bootstrap_distribution)
    assert got.estimate == expected.estimate or (
        np.isnan(got.estimate) and np.isnan(expected.estimate)
    )
    assert got.confidence_interval == expected.confidence_interval
    assert got.standard_error == expected.standard_error
    assert got.bias == expected.bias
    assert (got.n_undefined, got.rng_seed, got.metric) == (
        expected.n_undefined,
        expected.rng_seed,
        expected.metric,
    )


@pytest.mark.parametrize(("name", "options"), RANKING)
def test_replicates_equal_one_machine_bit_for_bit(rows, synchronous, name, options):
    metric = _metric(name, options)
    ddf = partitioned(rows, SIZES)
    got = assay.dask.bootstrap(metric, ddf["y"], ddf["score"], n_resamples=N_RESAMPLES, rng=SEED)
    _assert_same_result(got, _one_machine(metric, rows))


def test_replicates_do_not_depend_on_the_order_or_the_partitioning(rows, synchronous):
    shuffled = rows.sample(frac=1.0, random_state=3).reset_index(drop=True)
    ddf = partitioned(shuffled, (9_000, 11_000))
    got = assay.dask.bootstrap(
        "roc_auc_score", ddf["y"], ddf["score"], n_resamples=N_RESAMPLES, rng=SEED
    )
    _assert_same_result(got, _one_machine(assay.roc_auc_score, rows))


@pytest.mark.parametrize("method", ["percentile", "basic"])
def test_the_interval_is_the_one_machine_interval(rows, synchronous, method):
    ddf = partitioned(rows, SIZES)
    got = assay.dask.bootstrap(
        assay.roc_auc_score,
        ddf["y"],
        ddf["score"],
        n_resamples=N_RESAMPLES,
        rng=SEED,
        method=method,
        confidence_level=0.9,
    )
    want = _one_machine(assay.roc_auc_score, rows, method=method, confidence_level=0.9)
    _assert_same_result(got, want)
    assert got.method == want.method == method


def test_dask_arrays_and_pos_label(rows, synchronous):
    labels = np.where(rows["y"].to_numpy() == 1, "spam", "ham")
    y = dask.array.from_array(labels, chunks=7_000)
    s = dask.array.from_array(rows["score"].to_numpy(), chunks=7_000)
    got = assay.dask.bootstrap(
        "average_precision_score", y, s, n_resamples=N_RESAMPLES, rng=SEED, pos_label="spam"
    )
    want = assay.bootstrap(
        "average_precision_score", labels, rows["score"].to_numpy(), n_resamples=N_RESAMPLES,
        rng=SEED, resampling="poisson", pos_label="spam",
    )  # fmt: skip
    _assert_same_result(got, want)


def test_compute_false_gives_a_lazy_result(rows, synchronous):
    ddf = partitioned(rows, SIZES)
    lazy = assay.dask.bootstrap(
        assay.roc_auc_score, ddf["y"], ddf["score"], n_resamples=N_RESAMPLES, rng=SEED,
        compute=False,
    )  # fmt: skip
    assert isinstance(lazy, Delayed)
    _assert_same_result(lazy.compute(), _one_machine(assay.roc_auc_score, rows))


def test_a_single_class_warns_as_on_one_machine(synchronous):
    frame = pd.DataFrame({"y": np.ones(300, dtype=np.int64), "score": np.linspace(0, 1, 300)})
    ddf = partitioned(frame, (100, 200))
    with pytest.warns(UndefinedMetricWarning) as dask_warnings:
        got = assay.dask.bootstrap(
            assay.roc_auc_score, ddf["y"], ddf["score"], n_resamples=10, rng=SEED
        )
    with pytest.warns(UndefinedMetricWarning) as one_machine_warnings:
        want = _one_machine(assay.roc_auc_score, frame, n_resamples=10)
    messages = [str(w.message) for w in dask_warnings]
    assert messages[0].startswith("Only one class is present in `y_true`; ROC AUC is undefined")
    assert messages == [str(w.message) for w in one_machine_warnings]
    assert [w.filename for w in dask_warnings] == [__file__] * 2
    assert [w.filename for w in one_machine_warnings] == [__file__] * 2
    assert np.isnan(got.estimate)
    assert got.n_undefined == want.n_undefined == 10


def _weights(n: int, kind: str) -> np.ndarray:
    """Whole-number weights (zeros among them), or fractional ones (zeros among them)."""
    rng = np.random.default_rng(11)
    if kind == "whole":
        return rng.integers(0, 4, n).astype(np.float64)
    return rng.random(n) * 3.0 * (rng.random(n) > 0.1)


def _assert_close_result(got, expected):
    """Weighted sums are added in another order than on one machine: 1e-12 relative."""
    for name in ("bootstrap_distribution", "confidence_interval"):
        np.testing.assert_allclose(getattr(got, name), getattr(expected, name), rtol=1e-12)
    for name in ("estimate", "standard_error"):
        assert getattr(got, name) == pytest.approx(getattr(expected, name), rel=1e-12, abs=1e-15)
    # the bias is a small difference of two values each 1e-12 relative: on their scale
    assert got.bias == pytest.approx(expected.bias, rel=0, abs=1e-12)
    assert (got.n_undefined, got.rng_seed, got.metric) == (
        expected.n_undefined,
        expected.rng_seed,
        expected.metric,
    )


@pytest.mark.parametrize(("name", "options"), RANKING)
@pytest.mark.parametrize("kind", ["whole", "fractional"])
def test_weighted_replicates_equal_one_machine(rows, synchronous, name, options, kind):
    """A weighted row counts Poisson(1) times from the stream keyed by its position in
    the input, times its weight: the replicates of one machine, to 1e-12 relative (the
    weighted sums are added in another order)."""
    metric = _metric(name, options)
    frame = rows.assign(w=_weights(len(rows), kind))
    ddf = partitioned(frame, SIZES)
    got = assay.dask.bootstrap(
        metric, ddf["y"], ddf["score"], sample_weight=ddf["w"], n_resamples=N_RESAMPLES,
        rng=SEED,
    )  # fmt: skip
    want = _one_machine(metric, frame, sample_weight=frame["w"].to_numpy())
    _assert_close_result(got, want)
    unweighted = _one_machine(metric, frame)  # the weights change the replicates
    assert not np.allclose(got.bootstrap_distribution, unweighted.bootstrap_distribution)


def test_weighted_replicates_do_not_depend_on_the_partitioning(rows, synchronous):
    """The key is the row's position in the input: any cut into partitions of the same
    rows in the same order gives the one-machine replicates (ROC AUC of whole weights:
    every sum exact, so bit for bit)."""
    frame = rows.assign(w=_weights(len(rows), "whole"))
    want = _one_machine(assay.roc_auc_score, frame, sample_weight=frame["w"].to_numpy())
    for sizes in ((N_ROWS,), (9_000, 11_000), (1, 0, 7_000, 12_999)):
        ddf = partitioned(frame, sizes)
        got = assay.dask.bootstrap(
            assay.roc_auc_score, ddf["y"], ddf["score"], sample_weight=ddf["w"],
            n_resamples=N_RESAMPLES, rng=SEED,
        )  # fmt: skip
        assert np.array_equal(got.bootstrap_distribution, want.bootstrap_distribution)


def test_weighted_on_a_cluster_equals_one_machine(rows, dask_client):
    frame = rows.assign(w=_weights(len(rows), "fractional"))
    ddf = partitioned(frame, SIZES)
    with dask_client.as_current(), dask.config.set(scheduler=dask_client.get):
        got = assay.dask.bootstrap(
            "average_precision_score", ddf["y"], ddf["score"], sample_weight=ddf["w"],
            n_resamples=N_RESAMPLES, rng=SEED,
        )  # fmt: skip
    want = _one_machine(assay.average_precision_score, frame, sample_weight=frame["w"].to_numpy())
    _assert_close_result(got, want)


@settings(max_examples=max(5, settings.default.max_examples // 8), deadline=None)
@given(st.data())
def test_small_weighted_data_equals_one_machine(data):
    """Any weighted data (zero weights, ties, one class) and any split into partitions."""
    y_true, y_score, weight = data.draw(binary_ranking_data(min_n=2, max_n=40))
    if weight is None:
        weight = np.ones(y_true.shape[0])
    cuts = data.draw(split_into_pieces(y_true.shape[0], max_pieces=4))
    name, options = data.draw(st.sampled_from(RANKING))
    metric = _metric(name, options)
    frame = pd.DataFrame({"y": y_true, "score": y_score, "w": weight})
    ddf = partitioned(frame, tuple(np.diff(cuts).tolist()))
    with dask.config.set(scheduler="synchronous"), warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        got = assay.dask.bootstrap(metric, ddf["y"], ddf["score"], sample_weight=ddf["w"],
                                   n_resamples=20, rng=SEED)  # fmt: skip
        want = assay.bootstrap(metric, y_true, y_score, sample_weight=weight, n_resamples=20,
                               rng=SEED, resampling="poisson")  # fmt: skip
    assert all(issubclass(w.category, assay.exceptions.AssayWarning) for w in record)
    np.testing.assert_allclose(
        got.bootstrap_distribution, want.bootstrap_distribution, rtol=1e-12, atol=1e-15
    )
    assert got.n_undefined == want.n_undefined


@settings(max_examples=max(5, settings.default.max_examples // 8), deadline=None)
@given(st.data())
def test_small_data_equals_one_machine(data):
    """Any unweighted data and any split into partitions."""
    y_true, y_score, _ = data.draw(binary_ranking_data(min_n=2, max_n=40, both_classes=True))
    cuts = data.draw(split_into_pieces(y_true.shape[0], max_pieces=4))
    name, options = data.draw(st.sampled_from(RANKING))
    metric = _metric(name, options)
    frame = pd.DataFrame({"y": y_true, "score": y_score})
    ddf = partitioned(frame, tuple(np.diff(cuts).tolist()))
    with dask.config.set(scheduler="synchronous"), warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        got = assay.dask.bootstrap(metric, ddf["y"], ddf["score"], n_resamples=20, rng=SEED)
        want = assay.bootstrap(metric, y_true, y_score, n_resamples=20, rng=SEED,
                               resampling="poisson")  # fmt: skip
    assert all(issubclass(w.category, assay.exceptions.AssayWarning) for w in record)
    assert np.array_equal(got.bootstrap_distribution, want.bootstrap_distribution)
    assert got.n_undefined == want.n_undefined


def test_on_a_cluster_equals_one_machine(rows, dask_client):
    ddf = partitioned(rows, SIZES)
    with dask_client.as_current(), dask.config.set(scheduler=dask_client.get):
        got = assay.dask.bootstrap(
            assay.roc_auc_score, ddf["y"], ddf["score"], n_resamples=N_RESAMPLES, rng=SEED
        )
    _assert_same_result(got, _one_machine(assay.roc_auc_score, rows))


@pytest.mark.parametrize(
    ("keywords", "error", "message"),
    [
        ({"method": "bca"}, NotImplementedError, "`method='bca'` is not supported on Dask yet"),
        ({"resampling": "multinomial"}, NotImplementedError,
         "`resampling='multinomial'` is not supported on Dask"),
        ({"method": "studentized"}, ValueError, "method"),
        ({"resampling": "binomial"}, ValueError, "resampling"),
        ({"n_resamples": 0}, ValueError, "n_resamples"),
        ({"max_fpr": 1.5}, ValueError, "max_fpr"),
        ({"not_an_option": 1}, TypeError, "not_an_option"),
    ],
)  # fmt: skip
def test_unsupported_or_bad_options_are_refused(rows, keywords, error, message):
    ddf = partitioned(rows, SIZES)
    with pytest.raises(error, match=re.escape(message)):
        assay.dask.bootstrap(assay.roc_auc_score, ddf["y"], ddf["score"], **keywords)


@pytest.mark.parametrize("metric", [assay.log_loss, assay.mean_squared_error, np.mean])
def test_metrics_other_than_ranking_or_confusion_metrics_are_refused(rows, metric):
    ddf = partitioned(rows, SIZES)
    message = "`metric` must be a ranking metric of assay (roc_auc_score, average_precision_score"
    with pytest.raises(ValueError, match=re.escape(message)):
        assay.dask.bootstrap(metric, ddf["y"], ddf["score"])


@pytest.mark.parametrize(
    ("metric", "message"),
    [
        (functools.partial(assay.pr_auc_score, method="step"), "`method` must be one of"),
        (functools.partial(assay.equal_error_rate, method="mean"), "`method` must be one of"),
    ],
)
def test_the_metrics_own_options_are_checked(rows, metric, message):
    ddf = partitioned(rows, SIZES)
    with pytest.raises(ValueError, match=re.escape(message)):
        assay.dask.bootstrap(metric, ddf["y"], ddf["score"])

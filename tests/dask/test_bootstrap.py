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
        ({"sample_weight": "w"}, NotImplementedError,
         "`sample_weight` is not supported yet by the Poisson bootstrap on Dask"),
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
    frame = rows.assign(w=1.0)
    ddf = partitioned(frame, SIZES)
    if "sample_weight" in keywords:
        keywords = {"sample_weight": ddf["w"]}
    with pytest.raises(error, match=re.escape(message)):
        assay.dask.bootstrap(assay.roc_auc_score, ddf["y"], ddf["score"], **keywords)


@pytest.mark.parametrize("metric", [assay.f1_score, assay.mean_squared_error, np.mean])
def test_metrics_other_than_ranking_metrics_are_refused(rows, metric):
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

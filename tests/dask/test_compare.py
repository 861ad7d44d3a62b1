"""The paired Poisson bootstrap of dask collections against single-machine assay.

Every cell of rows alike in both scores and the class draws its count from its own
keyed stream, wherever it lies, so ``assay.dask.compare`` must give both models'
replicates of ``assay.compare(..., resampling="poisson")`` with the same seed, and so
the same differences bit for bit (``np.array_equal``) and the same result, whatever
the order of the rows and their partitioning.
"""

from __future__ import annotations

import dataclasses
import functools
import re

import numpy as np
import pandas as pd
import pytest
from dask.delayed import Delayed

import assay
import assay.dask
import dask
from assay.exceptions import UndefinedMetricWarning
from tests.dask.conftest import partitioned
from tests.dask.test_bootstrap import SIZES, _rows, _weights
from tests.dask.test_ranking import RANKING

N_RESAMPLES = 40
SEED = 20241127


@pytest.fixture(scope="module")
def rows() -> pd.DataFrame:
    """The rows of the bootstrap tests and a second model's scores: rounded to 0.1 (many
    cells of several rows alike in both scores), some at -0.0."""
    frame = _rows()
    rng = np.random.default_rng(11)
    second = np.round(0.5 * frame["score"].to_numpy() + rng.normal(size=len(frame)), 1)
    second[rng.integers(0, len(frame), 200)] = -0.0
    return frame.assign(second=second)


def _metric(name, options):
    function = getattr(assay, name)
    return functools.partial(function, **options) if options else function


def _one_machine(metric, frame, **keywords):
    settings = {"n_resamples": N_RESAMPLES, "rng": SEED, "resampling": "poisson", **keywords}
    columns = (frame[c].to_numpy() for c in ("y", "score", "second"))
    return assay.compare(metric, *columns, **settings)


def _assert_same_result(got, want):
    assert type(got) is type(want)
    for field in dataclasses.fields(want):
        value, expected = getattr(got, field.name), getattr(want, field.name)
        if isinstance(expected, np.ndarray):
            assert np.array_equal(value, expected), field.name
        else:
            assert value == expected, field.name


def test_replicates_equal_one_machine_bit_for_bit(rows, synchronous):
    """Every ranking metric, computed together (the two shuffles are shared)."""
    metrics = [_metric(name, options) for name, options in RANKING]
    ddf = partitioned(rows, SIZES)
    lazy = [
        assay.dask.compare(
            metric, ddf["y"], ddf["score"], ddf["second"], n_resamples=N_RESAMPLES, rng=SEED,
            compute=False,
        )
        for metric in metrics
    ]  # fmt: skip
    for metric, got in zip(metrics, dask.compute(*lazy), strict=True):
        _assert_same_result(got, _one_machine(metric, rows))


@pytest.mark.parametrize(
    ("interval", "alternative"), [("percentile", "greater"), ("basic", "less")]
)
def test_the_order_the_partitioning_and_the_interval(rows, synchronous, interval, alternative):
    shuffled = rows.sample(frac=1.0, random_state=5).reset_index(drop=True)
    ddf = partitioned(shuffled, (7_000, 0, 13_000))
    keywords = {"interval": interval, "alternative": alternative, "confidence_level": 0.9}
    lazy = assay.dask.compare(
        "roc_auc_score", ddf["y"], ddf["score"], ddf["second"], n_resamples=N_RESAMPLES,
        rng=SEED, compute=False, **keywords,
    )  # fmt: skip
    assert isinstance(lazy, Delayed)
    _assert_same_result(lazy.compute(), _one_machine(assay.roc_auc_score, rows, **keywords))


@pytest.mark.parametrize("kind", ["whole", "fractional"])
def test_weighted_replicates_equal_one_machine(rows, synchronous, kind):
    """Each weighted row counts Poisson(1) times from the stream keyed by its position,
    the same count in both models: one machine's replicates of both models, to 1e-12
    relative (the weighted sums are added in another order), on any partitioning."""
    frame = rows.assign(w=_weights(len(rows), kind))
    weights = frame["w"].to_numpy()
    metrics = [_metric(name, options) for name, options in RANKING]
    for sizes in (SIZES, (7_000, 0, 13_000)):
        ddf = partitioned(frame, sizes)
        lazy = [
            assay.dask.compare(
                metric, ddf["y"], ddf["score"], ddf["second"], sample_weight=ddf["w"],
                n_resamples=N_RESAMPLES, rng=SEED, compute=False,
            )
            for metric in metrics
        ]  # fmt: skip
        for metric, got in zip(metrics, dask.compute(*lazy), strict=True):
            want = _one_machine(metric, frame, sample_weight=weights)
            for name in ("estimate_a", "estimate_b", "pvalue"):
                assert getattr(got, name) == pytest.approx(getattr(want, name), rel=1e-12)
            # a difference of two values each 1e-15 relative off: compared on their scale
            for name in ("resampled_differences", "confidence_interval"):
                np.testing.assert_allclose(getattr(got, name), getattr(want, name),
                                           rtol=0, atol=1e-13)  # fmt: skip
            assert got.n_undefined == want.n_undefined


def test_a_single_class_warns_as_on_one_machine(synchronous):
    frame = pd.DataFrame(
        {"y": np.ones(200, dtype=np.int64), "score": np.linspace(0, 1, 200), "second": 0.5}
    )
    ddf = partitioned(frame, (80, 120))
    with pytest.warns(UndefinedMetricWarning) as got_warnings:
        got = assay.dask.compare(
            assay.roc_auc_score, ddf["y"], ddf["score"], ddf["second"], n_resamples=10, rng=SEED
        )
    with pytest.warns(UndefinedMetricWarning) as want_warnings:
        want = _one_machine(assay.roc_auc_score, frame, n_resamples=10)
    messages = [str(w.message) for w in got_warnings]
    assert messages == [str(w.message) for w in want_warnings]
    assert messages[0].startswith("Only one class is present in `y_true`; ROC AUC is undefined")
    assert [w.filename for w in got_warnings] == [__file__] * len(messages)
    assert np.isnan(got.difference) and np.isnan(want.difference)
    assert got.n_undefined == want.n_undefined == 10


def test_on_a_cluster_equals_one_machine(rows, dask_client):
    ddf = partitioned(rows, SIZES)
    with dask_client.as_current(), dask.config.set(scheduler=dask_client.get):
        got = assay.dask.compare(
            assay.roc_auc_score, ddf["y"], ddf["score"], ddf["second"],
            n_resamples=N_RESAMPLES, rng=SEED,
        )  # fmt: skip
    _assert_same_result(got, _one_machine(assay.roc_auc_score, rows))


def test_a_nan_score_names_the_model_and_the_partition(rows, synchronous):
    bad = rows.copy()
    bad.loc[SIZES[0] + 7, "second"] = np.nan  # in partition 2
    ddf = partitioned(bad, SIZES)
    message = "In partition 2 of 6: `pred_b` contains 1 NaN values; scores must be finite."
    with pytest.raises(ValueError, match=re.escape(message)):
        assay.dask.compare("roc_auc_score", ddf["y"], ddf["score"], ddf["second"])


@pytest.mark.parametrize(
    ("keywords", "error", "message"),
    [
        ({"method": "permutation"}, NotImplementedError,
         "`method='permutation'` is not supported on Dask"),
        ({"interval": "bca"}, NotImplementedError, "`interval='bca'` is not supported on Dask"),
        ({"resampling": "multinomial"}, NotImplementedError,
         "`resampling='multinomial'` is not supported on Dask"),
        ({"stratify": True}, ValueError, "`stratify=True` keeps the class counts fixed"),
        ({"groups": "g"}, ValueError, "`groups` resamples whole clusters"),
        ({"method": "jackknife"}, ValueError, "`method` must be one of"),
        ({"interval": "studentized"}, ValueError, "`interval` must be one of"),
        ({"alternative": "bigger"}, ValueError, "`alternative` must be one of"),
        ({"n_resamples": 0}, ValueError, "n_resamples"),
        ({"max_fpr": 1.5}, ValueError, "max_fpr"),
    ],
)  # fmt: skip
def test_unsupported_or_bad_options_are_refused(rows, keywords, error, message):
    ddf = partitioned(rows.assign(w=1.0, g=1), SIZES)
    keywords = {k: ddf[v] if k in ("sample_weight", "groups") else v for k, v in keywords.items()}
    with pytest.raises(error, match=re.escape(message)):
        assay.dask.compare(assay.roc_auc_score, ddf["y"], ddf["score"], ddf["second"], **keywords)


def test_metrics_other_than_ranking_or_confusion_metrics_are_refused(rows):
    ddf = partitioned(rows, SIZES)
    message = "`metric` must be a ranking metric of assay (roc_auc_score, average_precision_score"
    with pytest.raises(ValueError, match=re.escape(message)):
        assay.dask.compare(assay.log_loss, ddf["y"], ddf["score"], ddf["second"])

"""The Poisson bootstrap and paired bootstrap of confusion-matrix metrics on Dask against
single-machine assay.

Unweighted, the replicates are drawn from the label cells, keyed by the cell: equal to
``assay.bootstrap(..., resampling="poisson")`` and ``assay.compare`` bit for bit, whatever
the order of the rows and their partitioning.  Weighted, each row's count is keyed by its
position: equal bit for bit for integer weights, within ``FRACTIONAL_WEIGHTS_RTOL`` for
fractional ones (the drawn weights are summed in another order), for any partitioning of
the same rows.
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
from assay.dask._confusion import CONFUSION_FUNCTIONS
from assay.exceptions import UndefinedMetricWarning
from assay.metrics._registry import METRICS
from tests.dask.conftest import partitioned
from tests.dask.test_ranking import FRACTIONAL_WEIGHTS_RTOL
from tests.strategies import class_labels, split_into_pieces, tiny_weighted_pairs

N_RESAMPLES = 30
SEED = 20261127
# 1.2e4 rows in 6 uneven partitions, two of them empty
SIZES = (3_000, 0, 1_000, 5_000, 0, 3_000)
N_ROWS = sum(SIZES)
WEIGHTS = [None, "counts", "weight"]
COSTS = np.array([[0.0, 1.0, 2.0], [3.0, 0.0, 1.0], [1.0, 5.0, 0.0]])


def _rows(seed: int = 3) -> pd.DataFrame:
    """Three classes; two models right about 60% and 45% of the time; partition 2 holds
    class 2 only (truth and both predictions); integer and fractional weights (zeros
    among the integers)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, N_ROWS)
    a = np.where(rng.random(N_ROWS) < 0.6, y, rng.integers(0, 3, N_ROWS))
    b = np.where(rng.random(N_ROWS) < 0.45, y, rng.integers(0, 3, N_ROWS))
    start = SIZES[0] + SIZES[1]
    y[start : start + SIZES[2]] = a[start : start + SIZES[2]] = b[start : start + SIZES[2]] = 2
    return pd.DataFrame(
        {
            "y": y,
            "a": a,
            "b": b,
            "counts": rng.integers(0, 4, N_ROWS).astype(np.float64),
            "weight": rng.random(N_ROWS) * 3,
        }
    )


@pytest.fixture(scope="module")
def rows() -> pd.DataFrame:
    return _rows()


def _metric(name: str) -> object:
    """The registry metric ``name`` with options for three classes."""
    function = getattr(assay, name)
    declaration = METRICS[name]
    options: dict[str, object] = {}
    if declaration.averages:
        options["average"] = "macro"
    if "beta" in declaration.confusion_options:
        options["beta"] = 0.5
    if name == "expected_cost":
        options["cost_matrix"] = COSTS
    return functools.partial(function, **options) if options else function


SCALAR_METRICS = [name for name in CONFUSION_FUNCTIONS if not name.endswith("confusion_matrix")]


def _weights(frame: pd.DataFrame, ddf: object, kind: str | None) -> tuple[object, object]:
    if kind is None:
        return None, None
    return frame[kind].to_numpy(), ddf[kind]


def _assert_replicates(got: np.ndarray, expected: np.ndarray, kind: str | None) -> None:
    if kind == "weight":
        np.testing.assert_allclose(got, expected, rtol=FRACTIONAL_WEIGHTS_RTOL, atol=0)
    else:
        assert np.array_equal(got, expected, equal_nan=True)


@pytest.mark.parametrize("kind", WEIGHTS)
@pytest.mark.parametrize("name", SCALAR_METRICS)
def test_bootstrap_equals_one_machine(rows, synchronous, name, kind):
    metric = _metric(name)
    ddf = partitioned(rows, SIZES)
    weight, dask_weight = _weights(rows, ddf, kind)
    keywords = {"n_resamples": N_RESAMPLES, "rng": SEED}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        got = assay.dask.bootstrap(metric, ddf["y"], ddf["a"], sample_weight=dask_weight,
                                   **keywords)  # fmt: skip
        expected = assay.bootstrap(metric, rows["y"], rows["a"], resampling="poisson",
                                   sample_weight=weight, **keywords)  # fmt: skip
    _assert_replicates(got.bootstrap_distribution, expected.bootstrap_distribution, kind)
    if kind != "weight":
        assert got.estimate == expected.estimate
        assert got.confidence_interval == expected.confidence_interval
        assert got.n_undefined == expected.n_undefined and got.rng_seed == SEED


@pytest.mark.parametrize("kind", WEIGHTS)
@pytest.mark.parametrize("name", ["f1_score", "matthews_corrcoef", "expected_cost"])
def test_compare_equals_one_machine(rows, synchronous, name, kind):
    metric = _metric(name)
    ddf = partitioned(rows, SIZES)
    weight, dask_weight = _weights(rows, ddf, kind)
    keywords = {"n_resamples": N_RESAMPLES, "rng": SEED, "alternative": "greater"}
    got = assay.dask.compare(metric, ddf["y"], ddf["a"], ddf["b"], sample_weight=dask_weight,
                             **keywords)  # fmt: skip
    expected = assay.compare(metric, rows["y"], rows["a"], rows["b"], resampling="poisson",
                             sample_weight=weight, **keywords)  # fmt: skip
    _assert_replicates(got.resampled_differences, expected.resampled_differences, kind)
    if kind != "weight":
        assert (got.estimate_a, got.estimate_b) == (expected.estimate_a, expected.estimate_b)
        assert got.confidence_interval == expected.confidence_interval
        assert got.pvalue == expected.pvalue


@pytest.mark.parametrize("interval", ["percentile", "basic", "bca"])
def test_unweighted_intervals_bca_included(rows, synchronous, interval):
    ddf = partitioned(rows, SIZES)
    metric = _metric("balanced_accuracy_score")
    keywords = {"n_resamples": N_RESAMPLES, "rng": SEED}
    got = assay.dask.bootstrap(metric, ddf["y"], ddf["a"], method=interval, **keywords)
    expected = assay.bootstrap(metric, rows["y"], rows["a"], method=interval,
                               resampling="poisson", **keywords)  # fmt: skip
    assert got.confidence_interval == expected.confidence_interval
    paired = assay.dask.compare(metric, ddf["y"], ddf["a"], ddf["b"], interval=interval,
                                **keywords)  # fmt: skip
    one = assay.compare(metric, rows["y"], rows["a"], rows["b"], interval=interval,
                        resampling="poisson", **keywords)  # fmt: skip
    assert paired.confidence_interval == one.confidence_interval and paired.pvalue == one.pvalue


def test_unweighted_replicates_do_not_depend_on_the_order_or_the_partitioning(rows, synchronous):
    metric = _metric("f1_score")
    shuffled = rows.sample(frac=1.0, random_state=1).reset_index(drop=True)
    keywords = {"n_resamples": N_RESAMPLES, "rng": SEED}
    found = []
    for frame, sizes in ((rows, SIZES), (shuffled, (N_ROWS,)), (shuffled, (7, 5_000, 6_993))):
        ddf = partitioned(frame, sizes)
        found.append(assay.dask.bootstrap(metric, ddf["y"], ddf["a"], **keywords))
        found.append(assay.dask.compare(metric, ddf["y"], ddf["a"], ddf["b"], **keywords))
    for index in (2, 4):
        first, again = found[0], found[index]
        assert np.array_equal(first.bootstrap_distribution, again.bootstrap_distribution)
        first, again = found[1], found[index + 1]
        assert np.array_equal(first.resampled_differences, again.resampled_differences)


def test_weighted_replicates_do_not_depend_on_the_partitioning(rows, synchronous):
    metric = _metric("precision_score")
    keywords = {"n_resamples": N_RESAMPLES, "rng": SEED}
    found = []
    for sizes in (SIZES, (N_ROWS,), (1, 11_998, 1)):
        ddf = partitioned(rows, sizes)
        found.append(
            assay.dask.bootstrap(
                metric, ddf["y"], ddf["a"], sample_weight=ddf["counts"], **keywords
            ).bootstrap_distribution
        )
    assert np.array_equal(found[0], found[1]) and np.array_equal(found[0], found[2])


def test_on_a_cluster_equals_one_machine(rows, dask_client):
    ddf = partitioned(rows, SIZES)
    metric = _metric("f1_score")
    keywords = {"n_resamples": N_RESAMPLES, "rng": SEED}
    for weight in (None, "counts"):
        dask_weight = None if weight is None else ddf[weight]
        one_weight = None if weight is None else rows[weight]
        lazy = [
            assay.dask.bootstrap(metric, ddf["y"], ddf["a"], sample_weight=dask_weight,
                                 compute=False, **keywords),
            assay.dask.compare(metric, ddf["y"], ddf["a"], ddf["b"], sample_weight=dask_weight,
                               compute=False, **keywords),
        ]  # fmt: skip
        booted, compared = dask_client.compute(lazy, sync=True)
        expected = assay.bootstrap(metric, rows["y"], rows["a"], resampling="poisson",
                                   sample_weight=one_weight, **keywords)  # fmt: skip
        paired = assay.compare(metric, rows["y"], rows["a"], rows["b"], resampling="poisson",
                               sample_weight=one_weight, **keywords)  # fmt: skip
        assert np.array_equal(booted.bootstrap_distribution, expected.bootstrap_distribution)
        assert np.array_equal(compared.resampled_differences, paired.resampled_differences)


def test_compute_false_gives_a_lazy_result(rows, synchronous):
    ddf = partitioned(rows, SIZES)
    keywords = {"n_resamples": N_RESAMPLES, "rng": SEED, "sample_weight": ddf["counts"]}
    lazy = assay.dask.bootstrap(assay.accuracy_score, ddf["y"], ddf["a"], compute=False,
                                **keywords)  # fmt: skip
    assert isinstance(lazy, Delayed)
    now = assay.dask.bootstrap(assay.accuracy_score, ddf["y"], ddf["a"], **keywords)
    assert np.array_equal(lazy.compute().bootstrap_distribution, now.bootstrap_distribution)


@pytest.mark.parametrize("weighted", [False, True])
def test_an_undefined_estimate_warns_at_the_callers_line(synchronous, weighted):
    # no predicted positive: precision is undefined (as on one machine: 0.0, a warning)
    frame = pd.DataFrame({"y": [0, 1, 0, 1, 1], "p": [0, 0, 0, 0, 0], "w": [1.0] * 5})
    ddf = partitioned(frame, (2, 3))
    weight = ddf["w"] if weighted else None
    with pytest.warns(UndefinedMetricWarning) as caught:
        result = assay.dask.bootstrap(assay.precision_score, ddf["y"], ddf["p"],
                                      sample_weight=weight, n_resamples=5, rng=1)  # fmt: skip
    assert all(warning.filename == __file__ for warning in caught)
    with pytest.warns(UndefinedMetricWarning) as expected:
        one = assay.bootstrap(assay.precision_score, frame["y"], frame["p"], n_resamples=5,
                              rng=1, resampling="poisson",
                              sample_weight=frame["w"] if weighted else None)  # fmt: skip
    assert result.estimate == one.estimate == 0.0
    assert [str(w.message) for w in caught] == [str(w.message) for w in expected]


@pytest.mark.parametrize("weighted", [False, True])
def test_a_label_outside_the_set_names_the_partition(rows, synchronous, weighted):
    frame = rows.assign(a=rows["a"].astype(np.float64))
    frame.loc[SIZES[0] + 10, "a"] = 0.5  # partition 2: a float that is not a label
    ddf = partitioned(frame, SIZES)
    weight = ddf["counts"] if weighted else None
    with pytest.raises(ValueError, match=re.escape("In partition 2 of 6:")):
        assay.dask.bootstrap(assay.f1_score, ddf["y"], ddf["a"], sample_weight=weight,
                             average="macro", n_resamples=5)  # fmt: skip
    with pytest.raises(ValueError, match=re.escape("In partition 2 of 6:")):
        assay.dask.compare(assay.f1_score, ddf["y"], ddf["a"], ddf["b"], sample_weight=weight,
                           average="macro", n_resamples=5)  # fmt: skip


def test_a_negative_weight_names_the_partition(rows, synchronous):
    frame = rows.copy()
    frame.loc[SIZES[0] + SIZES[2] + 3, "counts"] = -1.0  # partition 3
    ddf = partitioned(frame, SIZES)
    with pytest.raises(ValueError, match=re.escape("In partition 3 of 6:")):
        assay.dask.bootstrap(assay.accuracy_score, ddf["y"], ddf["a"],
                             sample_weight=ddf["counts"], n_resamples=5)  # fmt: skip


def test_unsupported_options_are_refused(rows):
    ddf = partitioned(rows, SIZES)
    bca = "`method='bca'` with `sample_weight` is not supported on Dask"
    with pytest.raises(NotImplementedError, match=re.escape(bca)):
        assay.dask.bootstrap(assay.accuracy_score, ddf["y"], ddf["a"], method="bca",
                             sample_weight=ddf["counts"])  # fmt: skip
    bca = "`interval='bca'` with `sample_weight` is not supported on Dask"
    with pytest.raises(NotImplementedError, match=re.escape(bca)):
        assay.dask.compare(assay.accuracy_score, ddf["y"], ddf["a"], ddf["b"], interval="bca",
                           sample_weight=ddf["counts"])  # fmt: skip
    multinomial = "`resampling='multinomial'` is not supported on Dask"
    with pytest.raises(NotImplementedError, match=re.escape(multinomial)):
        assay.dask.bootstrap(assay.accuracy_score, ddf["y"], ddf["a"], resampling="multinomial")
    with pytest.raises(NotImplementedError, match=re.escape(multinomial)):
        assay.dask.compare(assay.accuracy_score, ddf["y"], ddf["a"], ddf["b"],
                           resampling="multinomial")  # fmt: skip
    with pytest.raises(ValueError, match="method"):
        assay.dask.bootstrap(assay.accuracy_score, ddf["y"], ddf["a"], method="studentized")


# about a second an example (a graph per call): a twelfth of the profile's examples
@settings(max_examples=max(5, settings.default.max_examples // 12), deadline=None)
@given(st.data())
def test_small_data_equals_one_machine(data):
    """Labels of every kind over 1 to 6 classes, exact weights, any split."""
    y_true, y_pred, weight = data.draw(class_labels(max_n=30))
    cuts = data.draw(split_into_pieces(y_true.shape[0], max_pieces=4))
    frame = pd.DataFrame({"truth": y_true, "guess": y_pred, "other": y_pred[::-1]})
    if weight is not None:
        frame["w"] = weight
    ddf = partitioned(frame, tuple(np.diff(cuts).tolist()))
    dask_weight = None if weight is None else ddf["w"]
    metric = functools.partial(assay.f1_score, average="macro", zero_division=0.0)
    keywords = {"n_resamples": 8, "rng": 5}
    with warnings.catch_warnings(), dask.config.set(scheduler="synchronous"):
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        got = assay.dask.bootstrap(metric, ddf["truth"], ddf["guess"], sample_weight=dask_weight,
                                   **keywords)  # fmt: skip
        expected = assay.bootstrap(metric, y_true, y_pred, sample_weight=weight,
                                   resampling="poisson", **keywords)  # fmt: skip
        paired = assay.dask.compare(metric, ddf["truth"], ddf["guess"], ddf["other"],
                                    sample_weight=dask_weight, **keywords)  # fmt: skip
        one = assay.compare(metric, y_true, y_pred, y_pred[::-1], sample_weight=weight,
                            resampling="poisson", **keywords)  # fmt: skip
    assert np.array_equal(got.bootstrap_distribution, expected.bootstrap_distribution,
                          equal_nan=True)  # fmt: skip
    assert np.array_equal(paired.resampled_differences, one.resampled_differences,
                          equal_nan=True)  # fmt: skip


def _multilabel_both_ways(metric, dask_columns, dask_weight, columns, weight, keywords):
    """``(bootstrap on Dask, on one machine, compare on Dask, on one machine)`` of
    ``metric`` (the one-machine calls with the Poisson draw)."""
    first, second, third = dask_columns
    truth, guess, other = columns
    return (
        assay.dask.bootstrap(metric, first, second, sample_weight=dask_weight, **keywords),
        assay.bootstrap(
            metric, truth, guess, sample_weight=weight, resampling="poisson", **keywords
        ),
        assay.dask.compare(metric, first, second, third, sample_weight=dask_weight, **keywords),
        assay.compare(
            metric, truth, guess, other, sample_weight=weight, resampling="poisson", **keywords
        ),
    )


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("average", ["macro", "samples"])
def test_multilabel_rows_equal_one_machine(synchronous, weighted, average):
    # one machine draws multilabel rows one by one (keyed by position), weighted or not
    import dask.array as da

    rng = np.random.default_rng(8)
    truth = (rng.random((4_000, 3)) < 0.4).astype(np.int64)
    guess = np.where(rng.random(truth.shape) < 0.7, truth, 1 - truth)
    other = np.where(rng.random(truth.shape) < 0.6, truth, 1 - truth)
    weight = rng.integers(0, 4, truth.shape[0]).astype(np.float64) if weighted else None
    chunks = (1_500, 0, 2_000, 500)
    first, second, third = (da.from_array(x, chunks=(chunks, 3)) for x in (truth, guess, other))
    dask_weight = None if weight is None else da.from_array(weight, chunks=(chunks,))
    metric = functools.partial(assay.f1_score, average=average, zero_division=0.0)
    keywords = {"n_resamples": N_RESAMPLES, "rng": SEED}
    got, expected, paired, one = _multilabel_both_ways(
        metric, (first, second, third), dask_weight, (truth, guess, other), weight, keywords
    )
    if average == "samples":  # a weighted mean over distinct rows: to rounding
        rtol = FRACTIONAL_WEIGHTS_RTOL
        np.testing.assert_allclose(got.bootstrap_distribution, expected.bootstrap_distribution,
                                   rtol=rtol, atol=0)  # fmt: skip
        np.testing.assert_allclose(paired.resampled_differences, one.resampled_differences,
                                   rtol=rtol, atol=1e-15)  # fmt: skip
    else:
        assert np.array_equal(got.bootstrap_distribution, expected.bootstrap_distribution)
        assert np.array_equal(paired.resampled_differences, one.resampled_differences)
    with pytest.raises(NotImplementedError, match=re.escape("of multilabel targets")):
        assay.dask.bootstrap(metric, first, second, method="bca")


@settings(max_examples=max(5, settings.default.max_examples // 12), deadline=None)
@given(st.data())
def test_small_multilabel_data_equals_one_machine(data):
    """Indicator rows of 2 to 5 labels (bool or int), exact weights, any split: the
    per-label metrics, their bootstrap and their paired bootstrap equal one machine's (a
    replicate of zero total weight is NaN in both, counted in ``n_undefined``)."""
    import dask.array as da
    from hypothesis.extra import numpy as hnp

    from tests.strategies import exact_sample_weights

    n = data.draw(st.integers(1, 30))
    k = data.draw(st.integers(2, 5))
    dtype = data.draw(st.sampled_from([np.int64, np.bool_]))
    truth, guess, other = (
        np.asarray(data.draw(hnp.arrays(np.bool_, (n, k)))).astype(dtype) for _ in range(3)
    )
    weight = data.draw(exact_sample_weights(n))
    cuts = data.draw(split_into_pieces(n, max_pieces=4))
    chunks = tuple(np.diff(cuts).tolist())
    first, second, third = (da.from_array(x, chunks=(chunks, k)) for x in (truth, guess, other))
    dask_weight = None if weight is None else da.from_array(weight, chunks=(chunks,))
    metric = functools.partial(assay.f1_score, average="macro", zero_division=0.0)
    keywords = {"n_resamples": 6, "rng": 3}
    with warnings.catch_warnings(), dask.config.set(scheduler="synchronous"):
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        matrices = assay.dask.multilabel_confusion_matrix(first, second, sample_weight=dask_weight)
        got, expected, paired, one = _multilabel_both_ways(
            metric, (first, second, third), dask_weight, (truth, guess, other), weight, keywords
        )
    expected_matrices = assay.multilabel_confusion_matrix(truth, guess, sample_weight=weight)
    assert np.array_equal(matrices, expected_matrices)
    assert got.estimate == expected.estimate
    assert np.array_equal(got.bootstrap_distribution, expected.bootstrap_distribution,
                          equal_nan=True)  # fmt: skip
    assert paired.n_undefined == one.n_undefined
    assert np.array_equal(paired.resampled_differences, one.resampled_differences,
                          equal_nan=True)  # fmt: skip


def _both_compares(metric, y_true, pred_a, pred_b, weight, cuts, **keywords):
    """``assay.dask.compare`` of the rows split at ``cuts`` and ``assay.compare`` with
    Poisson resampling, and the warnings each gave."""
    frame = pd.DataFrame({"truth": y_true, "a": pred_a, "b": pred_b, "w": weight})
    ddf = partitioned(frame, tuple(np.diff(cuts).tolist()))
    with warnings.catch_warnings(record=True) as on_dask, dask.config.set(scheduler="synchronous"):
        warnings.simplefilter("always")
        paired = assay.dask.compare(metric, ddf["truth"], ddf["a"], ddf["b"],
                                    sample_weight=ddf["w"], **keywords)  # fmt: skip
    with warnings.catch_warnings(record=True) as on_one:
        warnings.simplefilter("always")
        one = assay.compare(metric, y_true, pred_a, pred_b, sample_weight=weight,
                            resampling="poisson", **keywords)  # fmt: skip
    return paired, one, on_dask, on_one


@pytest.mark.parametrize("metric", [assay.f1_score, assay.precision_score])
def test_a_replicate_without_weight_is_undefined_on_both(metric):
    # five rows, three of weight zero: some replicates draw no weight; one machine raised
    # a RuntimeError on them, and so did Dask; both now give them NaN
    y_true, pred_a, pred_b = (
        np.array([0, 1, 1, 0, 1]),
        np.array([0, 1, 0, 0, 1]),
        np.array([1, 1, 1, 0, 0]),
    )
    weight = np.array([0.0, 1.0, 0.0, 0.0, 2.0])
    paired, one, on_dask, on_one = _both_compares(
        metric, y_true, pred_a, pred_b, weight, np.array([0, 2, 2, 5]), n_resamples=200, rng=0
    )
    assert one.n_undefined > 0 and paired.n_undefined == one.n_undefined
    assert np.array_equal(paired.resampled_differences, one.resampled_differences)
    assert paired.confidence_interval == one.confidence_interval
    assert [str(w.message) for w in on_dask] == [str(w.message) for w in on_one]
    assert all(w.filename == __file__ for w in on_dask)


@settings(max_examples=max(5, settings.default.max_examples // 6), deadline=None)
@given(st.data())
def test_tiny_weighted_data_gives_the_same_undefined_replicates(data):
    """1 to 6 rows with zero weights, any split: the same NaN replicates as one machine."""
    y_true, pred_a, pred_b, weight = data.draw(tiny_weighted_pairs())
    cuts = data.draw(split_into_pieces(y_true.shape[0], max_pieces=3))
    paired, one, _, _ = _both_compares(
        assay.f1_score, y_true, pred_a, pred_b, weight, cuts, n_resamples=12, rng=7
    )
    assert paired.n_undefined == one.n_undefined
    assert np.array_equal(paired.resampled_differences, one.resampled_differences)

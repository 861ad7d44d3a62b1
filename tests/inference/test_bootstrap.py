"""assay.bootstrap: replicates against a naive bootstrap, paths against each other,
reproducibility, and bad input."""

from __future__ import annotations

import numba
import numpy as np
import pytest

import assay
import assay.reference as reference
from assay import DegenerateDataWarning, UndefinedMetricWarning
from assay._kernels import resample
from assay._kernels._rng import stream
from assay.datasets import binormal_scores
from assay.inference import _bootstrap, _resampling

# The kernels accumulate float64 sums; the reference computes exactly and rounds once.
FLOAT_RTOL = 1e-12


def naive_ranking_replicate(plan, code, option, seed, replicate, scores_a, scores_b):
    """Replicate ``replicate`` of the ranking path, recomputed the slow way.

    The same stream gives the same atom counts; the resampled rows are then built
    explicitly and the metric computed by the reference from its definition.
    """
    n_a = int(plan.positive_end[-1])
    n_b = int(plan.negative_end[-1])
    counts_a = np.empty(n_a, dtype=np.int64)
    counts_b = np.empty(n_b, dtype=np.int64)
    n_positive = n_a if plan.rows else int(plan.positive_sizes.sum())
    n_negative = n_b if plan.rows else int(plan.negative_sizes.sum())
    resample.replicate_counts(
        plan.positive_sizes,
        plan.negative_sizes,
        plan.rows,
        n_positive,
        n_negative,
        resample.MULTINOMIAL,
        counts_a,
        counts_b,
        np.uint64(stream(np.uint64(seed), np.uint64(replicate))),
    )
    # materialise the replicate: every atom's score repeated by its count
    y = np.concatenate([np.ones(counts_a.sum(), int), np.zeros(counts_b.sum(), int)])
    s = np.concatenate([np.repeat(-scores_a, counts_a), np.repeat(-scores_b, counts_b)])
    w = None
    if plan.weighted:
        w = np.concatenate(
            [np.repeat(plan.positive_unit, counts_a), np.repeat(plan.negative_unit, counts_b)]
        )
    name, options = {
        resample.ROC_AUC: ("roc_auc_score", {"max_fpr": None if option >= 1 else option}),
        resample.AVERAGE_PRECISION: ("average_precision_score", {}),
        resample.PR_AUC_TRAPEZOID: ("pr_auc_score", {"method": "trapezoid"}),
        resample.EER_NEAREST: ("equal_error_rate", {"method": "nearest"}),
    }[code]
    if y.min() == y.max():
        return np.nan
    return getattr(reference, name)(y, s, sample_weight=w, **options)


@pytest.mark.parametrize(
    "code, option",
    [
        (resample.ROC_AUC, 1.0),
        (resample.ROC_AUC, 0.3),
        (resample.AVERAGE_PRECISION, 0.0),
        (resample.PR_AUC_TRAPEZOID, 0.0),
        (resample.EER_NEAREST, 0.0),
    ],
)
@pytest.mark.parametrize("data_kind", ["distinct", "tied", "weighted"])
def test_ranking_replicates_equal_a_naive_bootstrap_with_the_same_draws(code, option, data_kind):
    rng = np.random.default_rng(3)
    n = 3000 if data_kind == "tied" else 150  # ties are grouped into cells from 2048 rows
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n) + y
    if data_kind == "tied":
        s = np.round(s, 1)
    w = rng.integers(1, 4, n).astype(float) if data_kind == "weighted" else None
    plan = _bootstrap.ranking_plan(y, s, pos_label=None, sample_weight=w, clusters=None)
    assert plan.rows == (data_kind != "tied")
    data = assay.metrics._sorted.sort_scores(y == 1, s.astype(float), w, group_ties=w is None)
    seed = 12345
    out = np.empty(6)
    resample.bootstrap_ranking(
        *plan.atoms,
        plan.positive_cluster,
        plan.negative_cluster,
        0,
        code,
        option,
        resample.MULTINOMIAL,
        np.uint64(seed),
        0,
        out,
        2,
    )
    for b in range(out.shape[0]):
        expected = naive_ranking_replicate(
            plan, code, option, seed, b, data.positive_scores, data.negative_scores
        )
        assert out[b] == pytest.approx(expected, rel=FLOAT_RTOL, nan_ok=True)


def test_unit_counts_reproduce_the_plain_kernels_exactly():
    y, s = binormal_scores(5000, rng=4)
    plan = _bootstrap.ranking_plan(y, s, pos_label=None, sample_weight=None, clusters=None)
    n_a, n_b = int(plan.positive_end[-1]), int(plan.negative_end[-1])
    prefix_a = np.arange(n_a + 1, dtype=np.float64)
    prefix_b = np.arange(n_b + 1, dtype=np.float64)
    value = resample.replicate_metric(
        plan.positive_end, plan.negative_end, prefix_a, prefix_b, resample.ROC_AUC, 1.0
    )
    assert value == assay.roc_auc_score(y, s)


def test_same_seed_same_result_and_different_seed_differs():
    y, s = binormal_scores(2000, rng=5)
    first = assay.bootstrap(assay.roc_auc_score, y, s, n_resamples=200, rng=7)
    second = assay.bootstrap(assay.roc_auc_score, y, s, n_resamples=200, rng=7)
    third = assay.bootstrap(assay.roc_auc_score, y, s, n_resamples=200, rng=8)
    np.testing.assert_array_equal(first.bootstrap_distribution, second.bootstrap_distribution)
    assert first.rng_seed == 7
    assert not np.array_equal(first.bootstrap_distribution, third.bootstrap_distribution)


def test_a_generator_gives_a_reported_seed():
    y, s = binormal_scores(500, rng=5)
    result = assay.bootstrap(
        assay.roc_auc_score, y, s, n_resamples=50, rng=np.random.default_rng(3)
    )
    again = assay.bootstrap(assay.roc_auc_score, y, s, n_resamples=50, rng=result.rng_seed)
    np.testing.assert_array_equal(result.bootstrap_distribution, again.bootstrap_distribution)


CASES = {
    "auc": (assay.roc_auc_score, "scores", {}),
    "auc_weighted": (assay.roc_auc_score, "scores", {"sample_weight": "weights"}),
    "auc_stratified": (assay.roc_auc_score, "scores", {"stratify": True}),
    "auc_poisson": (assay.roc_auc_score, "scores", {"resampling": "poisson"}),
    "auc_clusters": (assay.roc_auc_score, "scores", {"groups": "clusters"}),
    "ap_tied": (assay.average_precision_score, "tied", {}),
    "f1": (assay.f1_score, "labels", {}),
    "f1_stratified": (assay.f1_score, "labels", {"stratify": True}),
    "f1_weighted": (assay.f1_score, "labels", {"sample_weight": "weights"}),
    "mse": (assay.mean_squared_error, "regression", {}),
}


def _case(name):
    metric, kind, options = CASES[name]
    rng = np.random.default_rng(11)
    n = 3000
    y, s = binormal_scores(n, rng=12)
    arrays = {
        "weights": rng.random(n),
        "clusters": rng.integers(0, 300, n),
    }
    x = {"scores": s, "tied": np.round(s, 2), "labels": (s > 0.5).astype(int)}.get(kind)
    if kind == "regression":
        y, x = s, s + rng.normal(size=n) * 0.1
    options = {k: arrays.get(v, v) if isinstance(v, str) else v for k, v in options.items()}
    options = {
        k: arrays[v] if isinstance(v, str) and v in arrays else v for k, v in options.items()
    }
    return metric, y, x, options


@pytest.mark.parametrize("name", sorted(CASES))
def test_results_do_not_depend_on_threads_or_chunks(name, monkeypatch):
    metric, y, x, options = _case(name)
    base = assay.bootstrap(metric, y, x, n_resamples=60, rng=3, **options)
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one_thread = assay.bootstrap(metric, y, x, n_resamples=60, rng=3, **options)
    finally:
        numba.set_num_threads(previous)
    monkeypatch.setattr(_resampling, "_CHUNK_WORK", 1000)  # tiny chunks
    chunked = assay.bootstrap(metric, y, x, n_resamples=60, rng=3, **options)
    np.testing.assert_array_equal(one_thread.bootstrap_distribution, base.bootstrap_distribution)
    np.testing.assert_array_equal(chunked.bootstrap_distribution, base.bootstrap_distribution)
    assert base.confidence_interval.low < base.estimate < base.confidence_interval.high


def test_cluster_path_of_ranking_metrics_equals_the_generic_path():
    # Both draw the cluster counts first from the same stream, so every replicate of the
    # sorted-sweep path equals the generic path's metric called with those counts.
    metric, y, s, options = _case("auc_clusters")
    fast = assay.bootstrap(metric, y, s, n_resamples=40, rng=9, **options)

    def generic_auc(y_true, y_score, sample_weight=None):
        return assay.roc_auc_score(y_true, y_score, sample_weight=sample_weight)

    slow = assay.bootstrap(generic_auc, y, s, n_resamples=40, rng=9, **options)
    np.testing.assert_allclose(
        fast.bootstrap_distribution, slow.bootstrap_distribution, rtol=FLOAT_RTOL
    )


@pytest.mark.parametrize("stratify", [False, True])
def test_cell_multinomial_and_row_paths_give_the_same_distribution(stratify):
    # The cells path (O(cells) per replicate) and the row path (O(n)) draw differently
    # but from the same distribution: compare mean, standard deviation and quartiles.
    # With B = 4000 the Monte-Carlo error of the mean is sd / 63 and of the sd about
    # sd / 89; 5 of those is far beyond chance (seeds fixed: deterministic).
    y, s = binormal_scores(2000, rng=21)
    y_pred = (s > 0.5).astype(int)
    cells = assay.bootstrap(assay.f1_score, y, y_pred, n_resamples=4000, rng=1, stratify=stratify)
    rows = assay.bootstrap(
        assay.f1_score,
        y,
        y_pred,
        n_resamples=4000,
        rng=2,
        stratify=stratify,
        sample_weight=np.ones(y.shape[0]),
    )
    sd = cells.standard_error
    assert abs(cells.bootstrap_distribution.mean() - rows.bootstrap_distribution.mean()) < (
        5 * sd / np.sqrt(4000) * np.sqrt(2)
    )
    assert abs(cells.standard_error - rows.standard_error) < 5 * sd / np.sqrt(2 * 4000) * 1.5
    for q in (0.25, 0.5, 0.75):
        difference = np.quantile(cells.bootstrap_distribution, q) - np.quantile(
            rows.bootstrap_distribution, q
        )
        assert abs(difference) < 0.25 * sd


def test_stratified_replicates_keep_class_counts():
    y = np.array([1] * 30 + [0] * 70)
    y_pred = np.array([1] * 20 + [0] * 10 + [1] * 5 + [0] * 65)
    matrix = assay.confusion_matrix(y, y_pred)
    counts = np.empty((50, 4), dtype=np.int64)
    resample.bootstrap_cells(
        matrix.ravel().astype(np.int64), 2, resample.STRATIFIED, np.uint64(1), 0, counts, 2
    )
    np.testing.assert_array_equal(counts[:, :2].sum(axis=1), 70)
    np.testing.assert_array_equal(counts[:, 2:].sum(axis=1), 30)
    multinomial = np.empty((50, 4), dtype=np.int64)
    resample.bootstrap_cells(
        matrix.ravel().astype(np.int64), 2, resample.MULTINOMIAL, np.uint64(1), 0, multinomial, 2
    )
    np.testing.assert_array_equal(multinomial.sum(axis=1), 100)
    assert np.unique(multinomial[:, 2:].sum(axis=1)).shape[0] > 1


def test_undefined_replicates_are_counted_and_left_out():
    # 2 positives among 12 rows: some replicates draw no positive; AUC is undefined there
    y = np.array([1, 1] + [0] * 10)
    s = np.linspace(1, 0, 12)
    with pytest.warns(UndefinedMetricWarning, match="undefined"):
        result = assay.bootstrap(assay.roc_auc_score, y, s, n_resamples=400, rng=1)
    assert result.n_undefined > 0
    assert result.bootstrap_distribution.shape[0] == 400 - result.n_undefined
    assert not np.any(np.isnan(result.bootstrap_distribution))
    # stratified replicates keep both classes: nothing undefined
    stratified = assay.bootstrap(assay.roc_auc_score, y, s, n_resamples=400, rng=1, stratify=True)
    assert stratified.n_undefined == 0


def test_bca_on_a_perfect_classifier_falls_back_with_a_warning():
    y = np.array([0, 0, 0, 1, 1, 1] * 5)
    s = y + 0.1 * np.arange(30) / 30
    with pytest.warns(DegenerateDataWarning):
        result = assay.bootstrap(
            assay.roc_auc_score, y, s, n_resamples=100, rng=1, method="bca", stratify=True
        )
    assert result.method == "percentile"
    assert result.confidence_interval == (1.0, 1.0)


def test_auc_jackknife_equals_leaving_each_row_out():
    rng = np.random.default_rng(8)
    y = rng.integers(0, 2, 40)
    s = np.round(rng.normal(size=40), 1)
    w = rng.integers(1, 4, 40).astype(float)
    for weights in (None, w):
        plan = _bootstrap.ranking_plan(y, s, pos_label=None, sample_weight=weights, clusters=None)
        values, counts = resample.auc_jackknife(*plan.atoms)
        expected = sorted(
            assay.roc_auc_score(
                np.delete(y, i),
                np.delete(s, i),
                sample_weight=None if weights is None else np.delete(weights, i),
            )
            for i in range(40)
        )
        got = sorted(np.repeat(values, counts.astype(int)))
        np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_callable_metrics_with_and_without_sample_weight():
    y, s = binormal_scores(500, rng=2)

    def auc_weighted(y_true, y_score, sample_weight=None):
        return assay.roc_auc_score(y_true, y_score, sample_weight=sample_weight)

    def auc_rows(y_true, y_score):
        return assay.roc_auc_score(y_true, y_score)

    weighted = assay.bootstrap(auc_weighted, y, s, n_resamples=30, rng=4)
    rows = assay.bootstrap(auc_rows, y, s, n_resamples=30, rng=4)
    # integer weights equal repetition: the same replicates either way
    np.testing.assert_allclose(
        weighted.bootstrap_distribution, rows.bootstrap_distribution, rtol=FLOAT_RTOL
    )
    assert weighted.metric == "auc_weighted"


def test_metric_by_name():
    y, s = binormal_scores(500, rng=2)
    by_name = assay.bootstrap("roc_auc_score", y, s, n_resamples=30, rng=4)
    by_function = assay.bootstrap(assay.roc_auc_score, y, s, n_resamples=30, rng=4)
    np.testing.assert_array_equal(
        by_name.bootstrap_distribution, by_function.bootstrap_distribution
    )


def test_progress_line(capsys):
    y, s = binormal_scores(500, rng=2)
    assay.bootstrap(assay.roc_auc_score, y, s, n_resamples=30, rng=4, progress=True)
    assert "bootstrap: 30/30 replicates" in capsys.readouterr().err


def test_interrupt_between_chunks_stops_cleanly(monkeypatch, capsys):
    calls = []

    def run(first, out):
        calls.append(first)
        if len(calls) == 2:
            raise KeyboardInterrupt
        out[:] = 0.0

    with pytest.raises(KeyboardInterrupt):
        _resampling.run_in_chunks(run, 100, 10, progress=True, description="bootstrap")
    assert calls == [0, 10]
    assert capsys.readouterr().err.endswith("\n")  # the progress line was closed


Y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
S = np.linspace(0, 1, 8)


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"n_resamples": 0}, ValueError, r"`n_resamples` must be an integer >= 1; got 0"),
        ({"confidence_level": 1.5}, ValueError, r"`confidence_level` must be in \(0, 1\)"),
        ({"method": "normal"}, ValueError, r"`method` must be one of \['percentile', 'basic'"),
        ({"resampling": "jackknife"}, ValueError, r"`resampling` must be one of"),
        ({"stratify": True, "resampling": "poisson"}, ValueError, r"needs `resampling='multi"),
        ({"groups": [0, 1] * 4, "stratify": True}, ValueError, r"`groups` resamples whole cl"),
        ({"groups": [0, 1, 2]}, ValueError, r"`groups` has length 3 but there are 8 samples"),
        ({"rng": -1}, ValueError, r"`rng` must be None, an integer in \[0, 2\*\*64\) or a nu"),
        ({"rng": "seed"}, ValueError, r"`rng` must be None"),
    ],
)
def test_bad_options(kwargs, error, message):
    with pytest.raises(error, match=message):
        assay.bootstrap(assay.roc_auc_score, Y, S, **kwargs)


def test_bad_metrics():
    with pytest.raises(ValueError, match=r"`metric`='auc' is not an assay metric; known names"):
        assay.bootstrap("auc", Y, S)
    with pytest.raises(TypeError, match=r"`metric` must be an assay metric, its name, or a cal"):
        assay.bootstrap(42, Y, S)
    with pytest.raises(ValueError, match=r"returned an array of shape \(2,\); the bootstrap"):
        assay.bootstrap(assay.f1_score, Y, (S > 0.5).astype(int), average=None)

    def broken(y_true, y_pred, sample_weight=None):
        if sample_weight is not None and sample_weight.sum() != len(y_true):
            raise ZeroDivisionError("boom")
        return 0.5

    with pytest.raises(
        RuntimeError,
        match=r"`metric` raised ZeroDivisionError on bootstrap "
        r"replicate \d+: boom",
    ):
        assay.bootstrap(broken, Y, S, n_resamples=5, rng=1, resampling="poisson")


def test_inputs_are_validated_by_the_metric():
    with pytest.raises(ValueError, match=r"`y_score` contains 1 NaN values"):
        assay.bootstrap(assay.roc_auc_score, Y, np.where(S > 0.9, np.nan, S))

"""assay.bootstrap: replicates against a naive bootstrap, paths against each other,
reproducibility, and bad input."""

from __future__ import annotations

import functools

import numba
import numpy as np
import pytest

import assay
import assay.reference as reference
from assay import DegenerateDataWarning, UndefinedMetricWarning
from assay._kernels import estimates, jackknife, pieces, resample, streaming
from assay.datasets import binormal_scores
from assay.metrics._registry import METRICS, variants_of
from assay.resampling import _plans, _resampling

# The kernels accumulate float64 sums; the reference computes exactly and rounds once.
FLOAT_RTOL = 1e-12
# The streamed kernel runs on one worker below: its serial kernel, the threads' function
# itself, whose values equal the parallel kernel's bit for bit on 2 and 3 threads
# (tests/_kernels/test_serial_kernels.py).  Compiling the parallel kernel for every scan
# and scheme here cost most of this file's time with an empty kernel cache.
ONE_WORKER = 1


def naive_ranking_metric(y, s, sample_weight, name, **options):
    """An independent numpy twin of the ranking metrics, for replicates too large for the
    exact reference: tie groups by ``np.unique``, weighted counts by ``np.bincount``, the
    curves and areas written out from their definitions (checked against
    ``assay.reference`` by ``test_the_naive_twin_is_the_reference``)."""
    w = np.asarray(sample_weight, dtype=float)
    _, group = np.unique(-np.asarray(s, dtype=float), return_inverse=True)
    positive = np.bincount(group, weights=w * (y == 1))
    negative = np.bincount(group, weights=w * (y == 0))
    kept = positive + negative > 0  # a group of zero weight is no point of the curves
    positive, negative = positive[kept], negative[kept]
    p, n = positive.sum(), negative.sum()
    tp, fp = np.cumsum(positive), np.cumsum(negative)
    recall, precision = tp / p, tp / (tp + fp)
    recall_before = np.concatenate([[0.0], recall[:-1]])
    if name == "roc_auc_score" and options.get("max_fpr") is None:
        return float(np.sum(negative * (tp - positive / 2)) / (p * n))
    if name == "roc_auc_score":  # McClish's standardised partial area, up to max_fpr
        max_fpr = options["max_fpr"]
        fpr, tpr = np.concatenate([[0.0], fp / n]), np.concatenate([[0.0], tp / p])
        stop = np.searchsorted(fpr, max_fpr, side="right")
        tpr_at = np.interp(max_fpr, fpr[stop - 1 : stop + 1], tpr[stop - 1 : stop + 1])
        x, height = np.append(fpr[:stop], max_fpr), np.append(tpr[:stop], tpr_at)
        area = float(np.sum(np.diff(x) * (height[1:] + height[:-1]) / 2))
        low, high = max_fpr**2 / 2, max_fpr
        return 0.5 * (1 + (area - low) / (high - low))
    if name == "average_precision_score":
        return float(np.sum((recall - recall_before) * precision))
    if name == "pr_auc_score" and options["method"] == "trapezoid":
        precision_before = np.concatenate([[1.0], precision[:-1]])
        return float(np.sum((recall - recall_before) * (precision + precision_before) / 2))
    if name == "pr_auc_score" and options["method"] == "interpolated":
        envelope = np.maximum.accumulate(precision[::-1])[::-1]
        return float(np.sum((recall - recall_before) * envelope))
    if name == "lift_score":  # the tie group straddling the cut counts in proportion
        cut = options["fraction"] * (p + n)
        size = positive + negative
        above = np.concatenate([[0.0], np.cumsum(size)[:-1]])
        inside = np.clip(cut - above, 0.0, size)
        return float(np.sum(positive * inside / size) / p / options["fraction"])
    if name == "pr_auc_score" and options["method"] == "11-point":
        # recall >= i / 10 compared as 10 TP >= i P (integer counts: exact)
        levels = [precision[10 * tp >= i * p] for i in range(11)]
        return float(np.mean([level.max() if level.size else 0.0 for level in levels]))
    if name == "equal_error_rate" and options["method"] == "interpolate":
        fpr = np.concatenate([[0.0], fp / n])
        tp_all, fp_all = np.concatenate([[0.0], tp]), np.concatenate([[0.0], fp])
        gap = fp_all * p - (p - tp_all) * n  # n p (FPR - FNR), exact for integer counts
        k = int(np.argmax(gap >= 0))  # the first point with FPR >= FNR (k >= 1)
        if gap[k] == 0:
            return float(fpr[k])
        t = -gap[k - 1] / (gap[k] - gap[k - 1])  # where the segment meets FPR = FNR
        return float(fpr[k - 1] + t * (fpr[k] - fpr[k - 1]))
    if name == "equal_error_rate" and options["method"] == "nearest":
        fpr = np.concatenate([[0.0], fp / n])
        fnr = np.concatenate([[1.0], 1 - tp / p])
        k = int(np.argmin(np.abs(fpr - fnr)))  # the first minimiser
        return float((fpr[k] + fnr[k]) / 2)
    raise ValueError(name)


def scan_options(name, keywords):
    """The kernels' scan options of registry metric ``name`` with public ``keywords``."""
    return METRICS[name].scan_options(**keywords)


def metric_of_replicate(atoms, name, options, counts, library=reference):
    """The metric of a replicate built explicitly from its atom counts (rows with their
    counts as weights), computed by ``library``: the exact reference, or the naive numpy
    twin above for replicates too large for it."""
    # scores decrease along the merged order and are equal within a tie group
    w = counts * atoms.value if atoms.weighted else counts.astype(float)
    y = atoms.is_positive.astype(int)
    s = -np.concatenate([[0], np.cumsum(~atoms.continues[:-1])]).astype(float)
    if not (np.any(w[y == 1] > 0) and np.any(w[y == 0] > 0)) or not np.any(w > 0):
        return np.nan
    if library == "naive":
        return naive_ranking_metric(y, s, w, name, **options)
    return getattr(library, name)(y, s, sample_weight=w, **options)


NAIVE_CASES = variants_of("ranking")
"""Every ranking metric of the registry with each of its declared variants."""


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize(("name", "options"), NAIVE_CASES)
def test_the_naive_twin_is_the_reference(name, options, seed):
    # ties (one decimal), zero weights (rows a replicate did not draw) and repeats
    rng = np.random.default_rng(seed)
    n = 40
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = np.round(rng.normal(size=n) + y, 1)
    w = rng.integers(0, 4, n).astype(float)
    w[:2] = 1.0
    expected = getattr(reference, name)(y, s, sample_weight=w, **options)
    assert naive_ranking_metric(y, s, w, name, **options) == pytest.approx(
        expected, rel=FLOAT_RTOL
    )


@pytest.mark.parametrize(("name", "options"), NAIVE_CASES)
@pytest.mark.parametrize(
    "data_kind, scheme",
    [
        ("distinct", resample.MULTINOMIAL),
        ("distinct", resample.STRATIFIED),
        ("distinct", resample.POISSON),
        ("tied", resample.MULTINOMIAL),
        ("tied", resample.STRATIFIED),
        ("tied", resample.POISSON),
        ("weighted", resample.MULTINOMIAL),
        ("clusters", resample.MULTINOMIAL),
    ],
)
def test_streamed_replicates_equal_the_reference_on_their_counts(name, options, data_kind, scheme):
    # The kernel's replicate against an independent computation of the metric of the
    # replicate built explicitly from the same counts (traced from the same stream;
    # integer weights = repetition).
    # 9000 rows: several blocks of 4096, the last one partial.
    rng = np.random.default_rng(3)
    n = 9000
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n) + y
    if data_kind == "tied":
        s = np.round(s, 1)
    w = rng.integers(1, 4, n).astype(float) if data_kind == "weighted" else None
    clusters = rng.integers(0, 500, n) if data_kind == "clusters" else None
    plan = _plans.stream_plan(
        y, s, pos_label=None, sample_weight=w, clusters=clusters,
        keyed=scheme == resample.POISSON,
    )  # fmt: skip
    atoms = plan.atoms
    assert atoms.cells == (data_kind == "tied")
    draw = resample.Draw(scheme, np.uint64(12345), 0)
    out = np.empty(3)
    streaming.bootstrap_ranking(
        atoms, plan.clusters, scan_options(name, options), draw, out, ONE_WORKER
    )
    for r in range(out.shape[0]):
        value, counts = streaming.traced_replicate(
            atoms, plan.clusters, scan_options(name, options), draw._replace(first_replicate=r)
        )
        assert value == out[r] or (np.isnan(value) and np.isnan(out[r]))
        sizes = atoms.value.astype(int) if atoms.cells else np.ones(plan.n_atoms, int)
        if scheme == resample.STRATIFIED:  # class totals fixed
            assert counts[atoms.is_positive].sum() == sizes[atoms.is_positive].sum()
            assert counts[~atoms.is_positive].sum() == sizes[~atoms.is_positive].sum()
        elif scheme == resample.MULTINOMIAL and data_kind != "clusters":
            assert counts.sum() == sizes.sum()
        # a cell's count is how many of its rows were drawn: rows of one cell are alike;
        # the replicate is too large for the exact reference: its naive numpy twin
        expected = metric_of_replicate(atoms, name, options, counts, library="naive")
        assert out[r] == pytest.approx(expected, rel=FLOAT_RTOL, nan_ok=True)


@pytest.mark.parametrize("data_kind", ["distinct", "tied", "weighted"])
def test_small_streamed_replicates_equal_the_exact_reference(data_kind):
    # independent oracle: the slow exact reference on a few hundred rows
    rng = np.random.default_rng(4)
    n = 300
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(size=n) + y, 1 if data_kind == "tied" else 8)
    w = rng.random(n) if data_kind == "weighted" else None
    plan = _plans.stream_plan(y, s, pos_label=None, sample_weight=w, clusters=None)
    for name, options in NAIVE_CASES:
        for r in range(3):
            value, counts = streaming.traced_replicate(
                plan.atoms,
                plan.clusters,
                scan_options(name, options),
                resample.Draw(resample.MULTINOMIAL, np.uint64(5), r),
            )
            expected = metric_of_replicate(plan.atoms, name, options, counts, library=reference)
            assert value == pytest.approx(expected, rel=FLOAT_RTOL)


def test_unit_counts_reproduce_the_plain_kernels_exactly():
    # the scan over the atoms of the data themselves (what a permutation replicate
    # scans) gives the plain metrics' floats, bit for bit
    y, s = binormal_scores(5000, rng=4)
    table = assay.confusion_matrix_at_thresholds(y, s)
    positive = np.diff(np.concatenate([[0.0], table.tps]))
    negative = np.diff(np.concatenate([[0.0], table.fps]))
    for name, options in NAIVE_CASES:
        value = pieces.scan(scan_options(name, options), positive, negative, True)
        assert value == getattr(assay, name)(y, s, **options)


@pytest.mark.parametrize(
    "data_kind", ["distinct", "tied", "grouped", "float32", "clustered", "keyed"]
)
def test_the_estimate_folded_over_the_atoms_is_the_metric_bit_for_bit(data_kind):
    # a bootstrap of unweighted rows takes its estimate from the replicates' fold over the
    # atoms (no plain scan compiled): every row counted once gives the metric's float
    generator = np.random.default_rng(12)
    n = 20000 if data_kind == "grouped" else 3000  # grouped: few distinct scores, in cells
    y = (generator.random(n) < 0.3).astype(np.int64)
    s = generator.standard_normal(n) + y
    if data_kind in ("tied", "grouped"):
        s = np.round(s, 1)
    if data_kind == "float32":
        s = s.astype(np.float32)
    clusters = generator.integers(0, 50, n) if data_kind == "clustered" else None
    for name, options in NAIVE_CASES:
        metric = getattr(assay, name)
        expected = metric(y, s, **options)
        plan = _plans.stream_plan(
            y, s, pos_label=None, sample_weight=None, clusters=clusters,
            keyed=data_kind == "keyed",
        )  # fmt: skip
        keyed = data_kind == "keyed"
        schemes = [resample.POISSON] if keyed else [resample.MULTINOMIAL, resample.STRATIFIED]
        for scheme in schemes:  # the replicates' kernel of each scheme, counting the data
            value = estimates.folded_estimate(
                plan.atoms, plan.clusters, scan_options(name, options), scheme
            )
            assert value == expected, (name, options, scheme)
        if not options:
            result = assay.bootstrap(metric, y, s, n_resamples=5, rng=1, groups=clusters)
            assert result.estimate == expected, name


def test_lift_takes_the_streaming_paths(monkeypatch):
    # bootstrap, compare and permutation_test find the lift's scan in the registry: the
    # generic paths (the metric called on every replicate) are never reached
    from assay.resampling import _bootstrap, _paired_replicates, _permutation

    def generic(*args, **kwargs):
        raise AssertionError("the generic path was taken")

    monkeypatch.setattr(_bootstrap, "_rows_distribution", generic)
    monkeypatch.setattr(_paired_replicates, "_rows_pairs", generic)
    monkeypatch.setattr(_permutation, "_rows_null", generic)
    y, s = binormal_scores(3000, rng=4)
    weaker = s + np.random.default_rng(5).normal(size=s.shape)
    result = assay.bootstrap(assay.lift_score, y, s, fraction=0.1, n_resamples=100, rng=2)
    assert result.estimate == assay.lift_score(y, s, 0.1)
    # the range is [0, 1 / fraction], not the unit interval: nothing is clipped at 1
    assert 1.0 < result.confidence_interval.low < result.estimate
    assert result.estimate < result.confidence_interval.high <= 10.0
    partial = functools.partial(assay.lift_score, fraction=0.1)
    again = assay.bootstrap(partial, y, s, n_resamples=100, rng=2)
    np.testing.assert_array_equal(again.bootstrap_distribution, result.bootstrap_distribution)
    compared = assay.compare(assay.lift_score, y, s, weaker, fraction=0.1, n_resamples=50, rng=3)
    assert compared.difference == assay.lift_score(y, s, 0.1) - assay.lift_score(y, weaker, 0.1)
    permuted = assay.compare(assay.lift_score, y, s, weaker, fraction=0.1, n_resamples=50,
                             rng=3, method="permutation")  # fmt: skip
    assert permuted.difference == compared.difference
    tested = assay.permutation_test(assay.lift_score, y, s, fraction=0.1, n_resamples=50, rng=3)
    assert np.all(tested.null_distribution < result.estimate)


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
        matrix.ravel().astype(np.int64), 2, resample.Draw(resample.STRATIFIED, np.uint64(1), 0),
        counts, 2,
    )  # fmt: skip
    np.testing.assert_array_equal(counts[:, :2].sum(axis=1), 70)
    np.testing.assert_array_equal(counts[:, 2:].sum(axis=1), 30)
    multinomial = np.empty((50, 4), dtype=np.int64)
    resample.bootstrap_cells(
        matrix.ravel().astype(np.int64), 2, resample.Draw(resample.MULTINOMIAL, np.uint64(1), 0),
        multinomial, 2,
    )  # fmt: skip
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


@pytest.mark.parametrize("rows", [40, 5000])  # 5000 tied rows are grouped into cells
def test_auc_jackknife_equals_leaving_each_row_out(rows):
    rng = np.random.default_rng(8)
    y = rng.integers(0, 2, rows)
    s = np.round(rng.normal(size=rows), 1)
    w = rng.integers(1, 4, rows).astype(float)
    for weights in (None, w):
        plan = _plans.stream_plan(y, s, pos_label=None, sample_weight=weights, clusters=None)
        values, counts = jackknife.auc_jackknife(plan.atoms)
        got = np.sort(np.repeat(values, counts.astype(int)))
        check = range(rows) if rows <= 40 else rng.choice(rows, 40, replace=False)
        for i in check:
            expected = assay.roc_auc_score(
                np.delete(y, i),
                np.delete(s, i),
                sample_weight=None if weights is None else np.delete(weights, i),
            )
            position = np.searchsorted(got, expected)
            nearest = got[max(0, position - 1) : position + 1]
            assert np.min(np.abs(nearest - expected)) <= 1e-12 * expected
        assert got.shape[0] == rows


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


@pytest.mark.parametrize("tied", [False, True])
def test_grouped_jackknife_removes_each_group(tied):
    rng = np.random.default_rng(9)
    n = 5000
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n) + y
    if tied:
        s = np.round(s, 1)  # cells: each group removes an even share of every cell
    plan = _plans.stream_plan(y, s, pos_label=None, sample_weight=None, clusters=None)
    atoms = plan.atoms
    n_groups = 7
    group_of_atom = np.arange(plan.n_atoms) % n_groups
    out = np.empty(n_groups)
    groups = streaming.Clusters(group_of_atom, n_groups)
    options = scan_options("average_precision_score", {})
    jackknife.grouped_jackknife(atoms, groups, options, out, 2)
    for g in range(n_groups):
        if atoms.cells:
            sizes = atoms.value.astype(np.int64)
            counts = sizes - ((g + 1) * sizes // n_groups - g * sizes // n_groups)
        else:
            counts = (group_of_atom != g).astype(np.int64)
        expected = metric_of_replicate(
            atoms, "average_precision_score", {}, counts, library="naive"
        )
        assert out[g] == pytest.approx(expected, rel=FLOAT_RTOL)
    # the shares of a cell over all groups add up to the cell
    if atoms.cells:
        sizes = atoms.value.astype(np.int64)
        shares = sum((g + 1) * sizes // n_groups - g * sizes // n_groups for g in range(7))
        np.testing.assert_array_equal(shares, sizes)


def test_basic_interval_is_kept_in_the_range_of_the_metric():
    from assay.resampling._intervals import basic_interval

    y_true, y_score = binormal_scores(60, auc=0.97, prevalence=0.5, rng=0)
    result = assay.bootstrap(
        assay.roc_auc_score, y_true, y_score, method="basic", n_resamples=500, rng=1
    )
    # 2 * estimate - q(alpha / 2) lies above an AUC of 1 here
    formula = basic_interval(result.bootstrap_distribution, result.estimate, 0.95)
    assert formula.high > 1.0
    assert result.confidence_interval == (formula.low, 1.0)
    # an error rate near 0 is cut at 0, a count (normalize=False) is not cut at 1
    y_pred = (y_score > 0.5).astype(int)
    errors = assay.bootstrap(
        assay.error_rate, y_true, y_pred, method="basic", n_resamples=500, rng=2
    )
    assert errors.confidence_interval.low >= 0.0
    counts = assay.bootstrap(
        assay.accuracy_score, y_true, y_pred, method="basic", n_resamples=500, rng=2,
        normalize=False,
    )  # fmt: skip
    assert counts.confidence_interval.high > 1.0

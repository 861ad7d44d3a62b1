"""assay.compare and assay.permutation_test: kernels against slow recomputations with the
same draws, fast paths against the generic path, exact enumeration, and bad input."""

from __future__ import annotations

import functools
import itertools

import numba
import numpy as np
import pytest

import assay
import assay.reference as reference
from assay._kernels import estimates, paired, resample, streaming
from assay._kernels._rng import shuffle, stream
from assay._kernels.scans.average_precision import AveragePrecision
from assay._kernels.scans.roc_auc import RocAuc
from assay.datasets import binormal_scores
from assay.resampling import _joint_cells, _plans
from assay.resampling._compare import paired_comparison

FLOAT_RTOL = 1e-12
# The kernels below run on one worker: their serial kernel, the threads' function itself.
# Its values equal the parallel kernel's bit for bit on 2 and 3 threads
# (tests/_kernels/test_serial_kernels.py); compiling the parallel kernel once more for
# every scheme and scan here cost most of this file's time with an empty kernel cache.
ONE_WORKER = 1


def two_models(n=400, seed=0, tied=False):
    y, strong = binormal_scores(n, auc=0.8, rng=seed)
    weak = strong + np.random.default_rng(seed + 1).normal(scale=0.5, size=n)
    if tied:
        strong, weak = np.round(strong, 1), np.round(weak, 1)
    return y, strong, weak


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("scheme", [resample.MULTINOMIAL, resample.STRATIFIED, resample.POISSON])
def test_paired_bootstrap_replicates_share_their_row_counts(weighted, scheme):
    # Model A's replicate is the streamed replicate of A's order (traced counts); model B
    # must be the metric of the same rows with the same counts, in B's order.
    y, a, b = two_models(n=6000, tied=True)  # several blocks, ties in both models
    w = np.random.default_rng(5).integers(0, 3, y.shape[0]).astype(float) if weighted else None
    plan = _plans.paired_stream_plan(
        y, a, b, pos_label=None, sample_weight=w, clusters=None,
        keyed=scheme == resample.POISSON,
    )  # fmt: skip
    out_a = np.empty(4)
    out_b = np.empty(4)
    draw = resample.Draw(scheme, np.uint64(77), 0)
    streaming.paired_bootstrap_ranking(
        plan.a, plan.b, plan.a_position_of_b, plan.clusters, RocAuc(), draw, out_a, out_b,
        ONE_WORKER,
    )  # fmt: skip
    for r in range(4):
        value_a, counts = streaming.traced_replicate(
            plan.a, plan.clusters, RocAuc(), draw._replace(first_replicate=r)
        )
        assert out_a[r] == value_a
        counts_b = counts[plan.a_position_of_b]
        scores_b = -np.concatenate([[0], np.cumsum(~plan.b.continues[:-1])]).astype(float)
        weights_b = counts_b * (plan.b.value if plan.b.weighted else 1.0)
        expected_b = assay.roc_auc_score(
            plan.b.is_positive.astype(int), scores_b, sample_weight=weights_b
        )
        assert out_b[r] == pytest.approx(expected_b, rel=FLOAT_RTOL)


@pytest.mark.parametrize(
    ("weighted", "scheme", "clustered"),
    [
        (False, resample.MULTINOMIAL, False),
        (False, resample.STRATIFIED, False),
        (False, resample.POISSON, False),
        (True, resample.MULTINOMIAL, False),
        (True, resample.POISSON, False),
        (False, resample.MULTINOMIAL, True),
    ],
)
def test_paired_bootstrap_in_lanes_equals_the_one_by_one_kernel(weighted, scheme, clustered):
    # Eight replicates folded together in B's order (counts kept as bytes) must give the
    # values of the kernel that folds one replicate at a time from int64 counts, bit for
    # bit; 21 replicates leave a last batch of five lanes.
    y, a, b = two_models(n=6000, tied=True)
    w = np.random.default_rng(5).integers(0, 3, y.shape[0]).astype(float) if weighted else None
    groups = np.random.default_rng(6).integers(0, 40, y.shape[0]) if clustered else None
    plan = _plans.paired_stream_plan(
        y, a, b, pos_label=None, sample_weight=w, clusters=_plans.cluster_codes(groups, 6000),
        keyed=scheme == resample.POISSON,
    )  # fmt: skip
    for options in (RocAuc(), AveragePrecision()):  # scans folded in one pass
        expected = np.empty(21), np.empty(21)
        found = np.empty(21), np.empty(21)
        draw = resample.Draw(scheme, np.uint64(78), 3)
        arguments = (plan.a, plan.b, plan.a_position_of_b, plan.clusters, options, draw)
        streaming.paired_bootstrap_ranking(*arguments, *expected, ONE_WORKER)
        paired.paired_bootstrap_lanes(*arguments, *found, ONE_WORKER)
        np.testing.assert_array_equal(found[0], expected[0])
        np.testing.assert_array_equal(found[1], expected[1])


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("alike", [2000, 256])
def test_paired_bootstrap_in_lanes_redoes_a_count_too_large_for_a_byte(alike, workers):
    # ``alike`` alike rows (both scores and the class equal) draw one Poisson(alike) count
    # together: far above 255 (every replicate is redone with int64 counts), or near it
    # (some replicates are, in runs of several and alone between others)
    y, a, b = two_models(n=3000)
    y[:alike], a[:alike], b[:alike] = 1, 0.25, -0.5
    plan = _plans.paired_stream_plan(
        y, a, b, pos_label=None, sample_weight=None, clusters=None, keyed=True
    )
    expected = np.empty(21), np.empty(21)
    found = np.empty(21), np.empty(21)
    draw = resample.Draw(resample.POISSON, np.uint64(79), 0)
    arguments = (plan.a, plan.b, plan.a_position_of_b, plan.clusters, RocAuc(), draw)
    streaming.paired_bootstrap_ranking(*arguments, *expected, ONE_WORKER)
    paired.paired_bootstrap_lanes(*arguments, *found, workers)
    saturated = [
        streaming.traced_replicate(
            plan.a, plan.clusters, RocAuc(), draw._replace(first_replicate=r)
        )[1].max()
        >= 255
        for r in range(21)
    ]
    assert all(saturated) if alike == 2000 else 3 <= sum(saturated) <= 18
    np.testing.assert_array_equal(found[0], expected[0])
    np.testing.assert_array_equal(found[1], expected[1])


@pytest.mark.parametrize("stratify", [False, True])
def test_paired_replicates_of_model_a_are_its_bootstrap_alone(stratify):
    # Untied, unweighted scores: model A's paired replicates are bit for bit those of
    # `bootstrap` of A alone with the same seed (what `assay.report` relies on).
    y, a, b = two_models(n=5000)
    result, replicates = paired_comparison(
        assay.roc_auc_score, y, a, b, n_resamples=40, rng=12, stratify=stratify
    )
    alone = assay.bootstrap(assay.roc_auc_score, y, a, n_resamples=40, rng=12, stratify=stratify)
    assert replicates.a_alone
    np.testing.assert_array_equal(replicates.values_a, alone.bootstrap_distribution)
    assert result.estimate_a == alone.estimate
    public = assay.compare(assay.roc_auc_score, y, a, b, n_resamples=40, rng=12, stratify=stratify)
    assert result.confidence_interval == public.confidence_interval
    assert result.pvalue == public.pvalue
    np.testing.assert_array_equal(result.resampled_differences, public.resampled_differences)


@pytest.mark.parametrize(
    "keywords",
    [{"tied": True}, {"weighted": True}, {"clustered": True}, {"resampling": "poisson"}],
)
def test_paired_replicates_of_model_a_are_not_claimed_alone_otherwise(keywords):
    y, a, b = two_models(n=500, tied=keywords.get("tied", False))
    options = {"resampling": keywords.get("resampling", "multinomial")}
    if keywords.get("weighted"):
        options["sample_weight"] = np.random.default_rng(3).integers(1, 3, 500).astype(float)
    if keywords.get("clustered"):
        options["groups"] = np.random.default_rng(4).integers(0, 50, 500)
    _, replicates = paired_comparison(
        assay.roc_auc_score, y, a, b, n_resamples=8, rng=12, **options
    )
    assert not replicates.a_alone


@pytest.mark.parametrize("data_kind", ["distinct", "tied", "float32", "clustered", "keyed"])
def test_estimates_folded_over_the_sorted_atoms_are_the_metric_bit_for_bit(data_kind):
    # unweighted scores and the default options: both estimates are the replicates' fold
    # over each model's sorted atoms (no plain scan compiled), every row counted once
    generator = np.random.default_rng(14)
    y = (generator.random(3000) < 0.3).astype(np.int64)
    s = generator.standard_normal(3000) + y
    s2 = generator.standard_normal(3000) + 0.5 * y
    if data_kind == "tied":
        s, s2 = np.round(s, 1), np.round(s2, 1)
    if data_kind == "float32":
        s, s2 = s.astype(np.float32), s2.astype(np.float32)
    keywords = {
        "clustered": {"groups": generator.integers(0, 60, 3000)},
        "keyed": {"resampling": "poisson"},
    }.get(data_kind, {})
    for name in ("roc_auc_score", "average_precision_score", "pr_auc_score", "equal_error_rate"):
        metric = getattr(assay, name)
        result, replicates = paired_comparison(metric, y, s, s2, n_resamples=5, rng=1, **keywords)
        assert replicates is not None and replicates.estimates is not None
        assert result.estimate_a == metric(y, s), name
        assert result.estimate_b == metric(y, s2), name
        assert result.difference == metric(y, s) - metric(y, s2), name


@pytest.mark.parametrize("data_kind", ["distinct", "tied", "clustered", "keyed"])
@pytest.mark.parametrize("lanes", [False, True])
def test_both_paired_kernels_give_the_estimates_bit_for_bit(data_kind, lanes):
    # compare's estimates come from the kernel that draws its replicates, one at a time
    # or eight at a time (lanes), counting every row once
    y, s, s2 = two_models(n=3000, seed=15, tied=data_kind == "tied")
    if data_kind == "tied":
        s2 = np.round(s2 * 3) / 3  # few distinct scores: long tie groups
    clustered = data_kind == "clustered"
    clusters = np.random.default_rng(16).integers(0, 40, 3000) if clustered else None
    keyed = data_kind == "keyed"
    scheme = resample.POISSON if keyed else resample.MULTINOMIAL
    plan = _plans.paired_stream_plan(
        y, s, s2, pos_label=None, sample_weight=None, clusters=clusters, keyed=keyed
    )
    for options, metric in ((RocAuc(), assay.roc_auc_score),
                            (AveragePrecision(), assay.average_precision_score)):  # fmt: skip
        value_a, value_b = estimates.paired_folded_estimates(
            plan.a, plan.b, plan.a_position_of_b, plan.clusters, options, scheme, lanes
        )
        assert value_a == metric(y, s), (metric, data_kind)
        assert value_b == metric(y, s2), (metric, data_kind)


def test_compare_in_lanes_takes_its_estimates_from_the_lanes():
    # above LANES_MIN_ATOMS rows the replicates are drawn eight at a time: the estimates
    # too (no kernel that draws one replicate at a time is compiled for them)
    from assay.resampling import _paired_replicates

    y, s, s2 = two_models(n=_paired_replicates.LANES_MIN_ATOMS + 100, seed=17)
    plan = _plans.paired_stream_plan(y, s, s2, pos_label=None, sample_weight=None, clusters=None)
    assert _paired_replicates.in_lanes(plan, RocAuc(), 16)
    result, replicates = paired_comparison(assay.roc_auc_score, y, s, s2, n_resamples=16, rng=2)
    assert replicates is not None and replicates.estimates is not None
    assert result.estimate_a == assay.roc_auc_score(y, s)
    assert result.estimate_b == assay.roc_auc_score(y, s2)


@pytest.mark.parametrize(
    "dtypes", [(np.int64,) * 3, (bool, bool, bool), (np.int8, np.int64, np.uint8)]
)
def test_joint_codes_of_small_integer_labels_are_those_of_np_unique(dtypes):
    # The lookup-table coding must give the labels and joint codes of np.unique over the
    # three arrays (which sorts 3n values), negative labels and mixed dtypes included.
    rng = np.random.default_rng(21)
    low = 0 if bool in dtypes or np.uint8 in dtypes else -3
    high = 2 if bool in dtypes else 5
    truth, a, b = (rng.integers(low, high, 300).astype(dtype) for dtype in dtypes)
    labels, codes = np.unique(np.concatenate([truth, a, b]), return_inverse=True)
    k = labels.shape[0]
    expected = (codes[:300] * k + codes[300:600]) * k + codes[600:]
    found_labels, found = _joint_cells._small_integer_codes(truth, a, b)
    np.testing.assert_array_equal(found_labels, labels)
    assert found_labels.dtype == labels.dtype
    np.testing.assert_array_equal(found, expected)


def test_label_permutation_replicates_equal_a_naive_recomputation():
    y, s, _ = two_models(n=200, tied=True)
    result = assay.permutation_test(assay.roc_auc_score, y, s, n_resamples=6, rng=11)
    order = np.argsort(-s, kind="stable")
    for r in range(6):
        labels = (y[order] == 1).copy()
        shuffle(labels, np.uint64(stream(np.uint64(11), np.uint64(r))))
        expected = reference.roc_auc_score(labels.astype(int), s[order])
        assert result.null_distribution[r] == pytest.approx(expected, rel=FLOAT_RTOL)


@pytest.mark.parametrize("method", ["bootstrap", "permutation"])
@pytest.mark.parametrize("metric", [assay.f1_score, assay.matthews_corrcoef])
def test_joint_cells_and_rows_paths_give_the_same_distribution(metric, method):
    # Different draws, same distribution: B = 3000 keeps Monte-Carlo error of the mean
    # near sd / 55 and of the sd near sd / 77; the bounds below are > 5 such errors.
    y, a, b = two_models(n=1500)
    pred_a, pred_b = (a > 0.5).astype(int), (b > 0.5).astype(int)

    def generic(y_true, y_pred, sample_weight=None):
        return metric(y_true, y_pred, sample_weight=sample_weight)

    fast = assay.compare(metric, y, pred_a, pred_b, method=method, n_resamples=3000, rng=1)
    slow = assay.compare(generic, y, pred_a, pred_b, method=method, n_resamples=3000, rng=2)
    assert fast.difference == slow.difference
    sd = np.std(fast.resampled_differences)
    assert abs(np.mean(fast.resampled_differences) - np.mean(slow.resampled_differences)) < (
        0.15 * sd
    )
    assert abs(np.std(slow.resampled_differences) / sd - 1) < 0.1


def test_confusion_label_permutation_path_against_the_generic_path():
    y, s, _ = two_models(n=1500)
    y_pred = (s > 0.5).astype(int)

    def generic(y_true, y_pred, sample_weight=None):
        return assay.f1_score(y_true, y_pred, sample_weight=sample_weight)

    fast = assay.permutation_test(assay.f1_score, y, y_pred, n_resamples=3000, rng=1)
    slow = assay.permutation_test(generic, y, y_pred, n_resamples=3000, rng=2,
                                  alternative="greater")  # fmt: skip
    sd = np.std(fast.null_distribution)
    assert abs(fast.null_distribution.mean() - slow.null_distribution.mean()) < 0.15 * sd
    assert abs(np.std(slow.null_distribution) / sd - 1) < 0.1
    assert fast.statistic == slow.statistic


def test_exact_permutation_test_by_enumeration():
    y = np.array([0, 0, 1, 1, 0, 1])
    s = np.array([0.1, 0.3, 0.35, 0.8, 0.2, 0.5])
    result = assay.permutation_test(assay.roc_auc_score, y, s)
    assert result.exact and result.n_resamples == 20  # C(6, 3)
    aucs = [
        assay.roc_auc_score(np.isin(np.arange(6), chosen).astype(int), s)
        for chosen in itertools.combinations(range(6), 3)
    ]
    observed = assay.roc_auc_score(y, s)
    assert result.pvalue == pytest.approx(np.mean(np.array(aucs) >= observed - 1e-12))
    assert result.rng_seed is None


def test_exact_paired_permutation_by_enumeration():
    y = np.array([0, 1, 1, 0, 1, 0, 1, 1])
    a = np.array([0, 1, 1, 0, 1, 0, 1, 0])
    b = np.array([0, 1, 0, 1, 1, 1, 1, 0])
    result = assay.compare(assay.accuracy_score, y, a, b, method="permutation",
                           alternative="greater")  # fmt: skip
    assert result.method == "permutation (exact)"
    differing = np.flatnonzero(a != b)  # rows 2, 3, 5: 8 swap patterns
    differences = []
    for pattern in itertools.product((0, 1), repeat=3):
        swap = np.zeros(8, bool)
        swap[differing[np.array(pattern, bool)]] = True
        new_a, new_b = np.where(swap, b, a), np.where(swap, a, b)
        differences.append(assay.accuracy_score(y, new_a) - assay.accuracy_score(y, new_b))
    observed = assay.accuracy_score(y, a) - assay.accuracy_score(y, b)
    assert result.n_resamples == 8
    assert result.pvalue == pytest.approx(np.mean(np.array(differences) >= observed - 1e-12))


@pytest.mark.parametrize(
    "call",
    [
        lambda: assay.compare(assay.roc_auc_score, *two_models(300), n_resamples=40, rng=5),
        lambda: assay.compare(assay.roc_auc_score, *two_models(300), method="permutation",
                              n_resamples=40, rng=5),
        lambda: assay.compare(assay.f1_score, two_models(300)[0],
                              (two_models(300)[1] > 0.5).astype(int),
                              (two_models(300)[2] > 0.5).astype(int), n_resamples=40, rng=5),
        lambda: assay.permutation_test(assay.roc_auc_score, *two_models(300)[:2],
                                       n_resamples=40, rng=5),
        lambda: assay.compare(assay.mean_squared_error, two_models(300)[1],
                              two_models(300)[2], two_models(300)[2] + 0.1,
                              method="permutation", n_resamples=40, rng=5),
    ],
)  # fmt: skip
def test_results_do_not_depend_on_threads(call):
    base = call()
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        single = call()
    finally:
        numba.set_num_threads(previous)
    first = getattr(base, "resampled_differences", None)
    if first is None:
        first, second = base.null_distribution, single.null_distribution
    else:
        second = single.resampled_differences
    np.testing.assert_array_equal(first, second)
    assert base.pvalue == single.pvalue


def test_compare_reports_both_estimates():
    y, a, b = two_models(2000)
    result = assay.compare(assay.roc_auc_score, y, a, b, n_resamples=300, rng=1)
    assert result.estimate_a == assay.roc_auc_score(y, a)
    assert result.estimate_b == assay.roc_auc_score(y, b)
    assert result.difference == result.estimate_a - result.estimate_b
    low, high = result.confidence_interval
    assert low < result.difference < high
    # the weak model is clearly worse at n = 2000: every replicate is above 0, so the
    # percentile interval excludes 0 at every level and its inversion is p = 0
    assert result.pvalue == 0.0 and result.resampled_differences.min() > 0.0


def test_identical_models_do_not_differ():
    y, a, _ = two_models(300)
    result = assay.compare(assay.roc_auc_score, y, a, a.copy(), method="permutation")
    assert result.difference == 0.0 and result.pvalue == 1.0


Y, A, B = two_models(40)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"method": "wilcoxon"}, r"`method` must be one of \['bootstrap', 'permutation'\]"),
        ({"interval": "bc"}, r"`interval` must be one of \['percentile', 'basic', 'bca'\]"),
        ({"alternative": "both"}, r"`alternative` must be one of \['two-sided', 'less'"),
        ({"method": "permutation", "stratify": True}, r"apply to the bootstrap; the paired"),
        ({"stratify": True, "resampling": "poisson"}, r"needs `resampling='multinomial'`"),
        ({"n_resamples": 0}, r"`n_resamples` must be an integer >= 1"),
        ({"confidence_level": 0.0}, r"`confidence_level` must be in \(0, 1\)"),
    ],
)
def test_compare_bad_options(kwargs, message):
    with pytest.raises(ValueError, match=message):
        assay.compare(assay.roc_auc_score, Y, A, B, **kwargs)


def test_compare_shapes_must_match():
    with pytest.raises(ValueError, match=r"`pred_a` and `pred_b` have different shapes"):
        assay.compare(assay.roc_auc_score, Y, A, B[:-1])


def test_permutation_test_bad_options():
    with pytest.raises(ValueError, match=r"`alternative` must be one of"):
        assay.permutation_test(assay.roc_auc_score, Y, A, alternative="more")
    with pytest.raises(ValueError, match=r"`sample_weight` was given but `metric` does not"):
        assay.permutation_test(lambda t, p: 0.5, Y, A, sample_weight=np.ones(40))


@pytest.mark.parametrize(
    "call",
    [
        lambda f: assay.bootstrap(f, Y, A, sample_weight=np.ones(40)),
        lambda f: assay.compare(f, Y, A, B, sample_weight=np.ones(40)),
        lambda f: assay.permutation_test(f, Y, A, sample_weight=np.ones(40)),
    ],
)
def test_weights_need_a_metric_that_takes_them(call):
    with pytest.raises(ValueError, match=r"`sample_weight` was given but `metric` does not"):
        call(lambda y_true, y_pred: 0.5)


# --- Scores where predicted labels are expected -----------------------------------------

THRESHOLD_FIRST = r"threshold them first \(e\.g\. `score >= 0\.5`\)"


@pytest.mark.parametrize("method", ["bootstrap", "permutation"])
@pytest.mark.parametrize("metric", [assay.accuracy_score, assay.f1_score, assay.cohen_kappa_score])
def test_compare_of_a_confusion_metric_refuses_probabilities(metric, method):
    y, a, b = two_models(n=200)
    label_b = (b > 0.5).astype(int)
    with pytest.raises(
        ValueError, match=rf"^`pred_a` holds continuous values .*{THRESHOLD_FIRST}"
    ):
        assay.compare(metric, y, a, label_b, method=method, n_resamples=50, rng=0)
    if metric is not assay.cohen_kappa_score:  # two raters: a class of one rater is allowed
        with pytest.raises(ValueError, match=r"^`pred_b` holds float values \[2\.0\] that are"):
            assay.compare(metric, y, label_b, np.where(a > 0.9, 2.0, label_b), method=method,
                          n_resamples=50, rng=0)  # fmt: skip


@pytest.mark.parametrize("method", ["bootstrap", "permutation"])
def test_compare_of_float_labels_equals_compare_of_integer_labels(method):
    # the joint-cells path reads float labels 0.0/1.0 exactly like integers
    y, a, b = two_models(n=300)
    pred_a, pred_b = (a > 0.5).astype(int), (b > 0.5).astype(int)
    as_integers = assay.compare(assay.f1_score, y, pred_a, pred_b, method=method,
                                n_resamples=200, rng=4)  # fmt: skip
    as_floats = assay.compare(assay.f1_score, y, pred_a.astype(float), pred_b.astype(float),
                              method=method, n_resamples=200, rng=4)  # fmt: skip
    np.testing.assert_array_equal(
        as_floats.resampled_differences, as_integers.resampled_differences
    )
    assert as_floats.pvalue == as_integers.pvalue


def test_compare_counts_a_class_named_in_labels():
    y, a, b = two_models(n=200)
    pred_a = np.where(a > 0.9, 2.0, (a > 0.5).astype(float))
    pred_b = (b > 0.5).astype(float)
    options = {"average": "macro", "labels": [0, 1, 2], "zero_division": 0.0}
    result = assay.compare(assay.f1_score, y, pred_a, pred_b, n_resamples=50, rng=0, **options)
    assert result.estimate_a == assay.f1_score(y, pred_a.astype(int), **options)
    with pytest.raises(ValueError, match=r"^`pred_a` holds float values \[2\.0\] that are not"):
        assay.compare(assay.f1_score, y, pred_a, pred_b, n_resamples=50, rng=0, average="macro")


@pytest.mark.parametrize(
    "call",
    [
        lambda y, p: assay.bootstrap(assay.accuracy_score, y, p, n_resamples=50, rng=0),
        lambda y, p: assay.bootstrap(assay.f1_score, y, p, n_resamples=50, rng=0, method="bca"),
        lambda y, p: assay.permutation_test(assay.accuracy_score, y, p, n_resamples=50, rng=0),
        lambda y, p: assay.permutation_test(assay.recall_score, y, p, n_resamples=50, rng=0),
    ],
)
def test_bootstrap_and_permutation_of_a_confusion_metric_refuse_probabilities(call):
    y, a, _ = two_models(n=200)
    with pytest.raises(
        ValueError, match=rf"^`y_pred` holds continuous values .*{THRESHOLD_FIRST}"
    ):
        call(y, a)


def test_bootstrap_refuses_sparse_input():
    sparse = pytest.importorskip("scipy.sparse")
    y, a, _ = two_models(n=50)
    # a sparse matrix is a multilabel indicator (as in scikit-learn), never a 1-D target
    with pytest.raises(
        ValueError,
        match=r"^`y_true` is a multilabel indicator \(a sparse csr_matrix of shape \(1, 50\)\) "
        r"but `y_pred` is not",
    ):
        assay.bootstrap(assay.accuracy_score, sparse.csr_matrix(y), y, n_resamples=10, rng=0)
    with pytest.raises(ValueError, match=r"^`y_score` is a scipy\.sparse csr_array; sparse input"):
        assay.bootstrap(assay.roc_auc_score, y, sparse.csr_array(a[None, :]), n_resamples=10)


def test_a_partial_of_an_assay_metric_keeps_the_fast_path_and_its_options():
    # `compare` and `bootstrap` have a `method` of their own: a metric option of that
    # name is passed in a partial, which is unwrapped into the metric's fast path
    y, a = binormal_scores(2000, auc=0.8, rng=3)
    b = a + np.random.default_rng(4).normal(size=a.shape)
    partial_auc = functools.partial(assay.roc_auc_score, max_fpr=0.5)
    as_partial = assay.compare(partial_auc, y, a, b, n_resamples=200, rng=5)
    as_keyword = assay.compare(assay.roc_auc_score, y, a, b, n_resamples=200, rng=5, max_fpr=0.5)
    np.testing.assert_array_equal(
        as_partial.resampled_differences, as_keyword.resampled_differences
    )
    assert as_partial.metric == "roc_auc_score(max_fpr=0.5)"
    eleven = functools.partial(assay.pr_auc_score, method="11-point")
    result = assay.bootstrap(eleven, y, a, n_resamples=50, rng=6)
    assert result.estimate == assay.pr_auc_score(y, a, method="11-point")
    with pytest.raises(ValueError, match=r"`metric` already binds max_fpr; pass each option once"):
        assay.compare(partial_auc, y, a, b, n_resamples=10, rng=0, max_fpr=0.3)


@pytest.mark.parametrize("keyed", [False, True])
def test_paired_plan_lays_model_b_out_as_a_stable_sort(keyed):
    # Model B's rows in decreasing score order (ties in input order, as numpy's stable
    # sort of the negated scores), each with its class, its tie flag and its position
    # in model A's order (A's order as numpy's stable sort too, unless keyed: then alike
    # rows are moved together within A's tie groups, and only the classes are checked).
    y, a, b = two_models(n=6000, tied=True)
    plan = _plans.paired_stream_plan(
        y, a, b, pos_label=None, sample_weight=None, clusters=None, keyed=keyed
    )
    order_b = np.argsort(-b, kind="stable")
    np.testing.assert_array_equal(plan.b.is_positive, y[order_b] == 1)
    np.testing.assert_array_equal(plan.b.continues[:-1], b[order_b][1:] == b[order_b][:-1])
    assert not plan.b.continues[-1]
    assert plan.a_position_of_b.dtype == np.int64
    np.testing.assert_array_equal(np.sort(plan.a_position_of_b), np.arange(6000))
    np.testing.assert_array_equal(plan.a.is_positive[plan.a_position_of_b], plan.b.is_positive)
    if not keyed:
        position_in_a = np.empty(6000, dtype=np.int64)
        position_in_a[np.argsort(-a, kind="stable")] = np.arange(6000)
        np.testing.assert_array_equal(plan.a_position_of_b, position_in_a[order_b])

"""Ranking metrics of multilabel scores: the label ranking metrics (coverage error, LRAP,
ranking loss) and the multilabel averages of ROC AUC, average precision and PR AUC,
against the exact reference, against scikit-learn, and their errors and warnings."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
import assay.reference as reference
from assay.exceptions import UndefinedMetricWarning
from tests.strategies import multilabel_ranking_data

# float64 sums over a few dozen rows and labels against an exactly rounded result (the
# reference) or another float64 order of summation (scikit-learn): a few ulps.
FLOAT_RTOL = 1e-12
FLOAT_ATOL = 1e-12

LABEL_RANKING = (
    "coverage_error",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
)
AVERAGES = (None, "micro", "macro", "weighted", "samples")
# The averages are tested on 5 summaries x 5 averages: a quarter of the profile's examples
# each keeps the file fast (the thorough profile of the slow run still draws 150).
FEW_EXAMPLES = settings(max_examples=max(10, settings.default.max_examples // 4))
# the binary summaries with their options, each reaching a different scan
SUMMARIES = (
    ("roc_auc_score", {}),
    ("roc_auc_score", {"max_fpr": 0.5}),
    ("average_precision_score", {}),
    ("pr_auc_score", {"method": "trapezoid"}),
    ("pr_auc_score", {"method": "interpolated"}),
)


def quiet(function, *args, **kwargs):
    """The value of a call whose undefined cases (NaN) are compared, not warned about."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return function(*args, **kwargs)


def assert_close(ours, theirs) -> None:
    np.testing.assert_allclose(ours, theirs, rtol=FLOAT_RTOL, atol=FLOAT_ATOL, equal_nan=True)


# --- Against the exact reference. ---


@pytest.mark.parametrize("name", LABEL_RANKING)
@given(data=multilabel_ranking_data())
def test_label_ranking_metrics_equal_the_reference(name, data) -> None:
    y, s, w = data
    ours = getattr(assay, name)(y, s, sample_weight=w)
    assert_close(ours, getattr(reference, name)(y, s, sample_weight=w))


@pytest.mark.parametrize(("name", "options"), SUMMARIES)
@pytest.mark.parametrize("average", AVERAGES)
@FEW_EXAMPLES
@given(data=multilabel_ranking_data(min_labels=2))
def test_multilabel_averages_equal_the_reference(name, options, average, data) -> None:
    y, s, w = data
    ours = quiet(getattr(assay, name), y, s, sample_weight=w, average=average, **options)
    theirs = getattr(reference, name)(y, s, sample_weight=w, average=average, **options)
    assert_close(ours, theirs)


@pytest.mark.parametrize("average", AVERAGES)
@FEW_EXAMPLES
@given(data=multilabel_ranking_data(min_labels=3), kind=st.sampled_from(["pr", "ap"]))
def test_multiclass_scores_need_not_be_probabilities(average, data, kind) -> None:
    # a multi-class target with any per-class scores is the one-hot multilabel problem
    y, s, w = data
    n, k = y.shape
    if n < k:
        return  # every class must occur: one column per class of y_true
    labels = (np.arange(n) + y.sum(axis=1)) % k
    if np.unique(labels).shape[0] != k:
        return
    function = "pr_auc_score" if kind == "pr" else "average_precision_score"
    ours = quiet(getattr(assay, function), labels, s, sample_weight=w, average=average)
    theirs = getattr(reference, function)(labels, s, sample_weight=w, average=average)
    assert_close(ours, theirs)


def test_samples_rows_equal_the_binary_metric_of_each_row() -> None:
    # 'samples' averages the binary value of each row over its labels (ties included)
    y = np.array([[1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 0]])
    s = np.array([[0.5, 0.5, 0.2, 0.1], [3.0, 1.0, 1.0, 0.0], [0.1, 0.9, 0.9, 0.3]])
    for name in ("roc_auc_score", "average_precision_score"):
        rows = [getattr(assay, name)(y[i], s[i]) for i in range(3)]
        assert_close(getattr(assay, name)(y, s, average="samples"), np.mean(rows))
        w = np.array([1.0, 0.0, 2.5])
        expected = np.average(rows, weights=w)
        assert_close(getattr(assay, name)(y, s, average="samples", sample_weight=w), expected)


# --- Against scikit-learn. ---


@pytest.mark.parametrize("name", LABEL_RANKING)
@given(data=multilabel_ranking_data(min_labels=2))
def test_label_ranking_metrics_agree_with_scikit_learn(name, data) -> None:
    y, s, w = data
    assert_close(
        getattr(assay, name)(y, s, sample_weight=w), getattr(skm, name)(y, s, sample_weight=w)
    )


def test_edge_rows_agree_with_scikit_learn() -> None:
    # a row without relevant labels, a row with all, a row of ties, one ordinary row
    y = np.array([[0, 0, 0], [1, 1, 1], [1, 0, 1], [0, 1, 0]])
    s = np.array([[0.3, 0.2, 0.1], [0.0, 0.5, 0.5], [0.4, 0.4, 0.4], [0.9, 0.1, 0.4]])
    for name in LABEL_RANKING:
        assert_close(getattr(assay, name)(y, s), getattr(skm, name)(y, s))
    assert assay.coverage_error([[0, 0, 0]], [[1, 2, 3]]) == 0.0
    assert assay.label_ranking_average_precision_score([[0, 0, 0]], [[1, 2, 3]]) == 1.0
    assert assay.label_ranking_average_precision_score([[1, 1, 1]], [[1, 2, 3]]) == 1.0
    assert assay.label_ranking_loss([[1, 1, 1]], [[1, 2, 3]]) == 0.0
    # a tie between a relevant and an irrelevant label is a whole error of the loss,
    # half an error of the AUC of the row
    assert assay.label_ranking_loss([[1, 0]], [[0.5, 0.5]]) == 1.0
    assert assay.roc_auc_score([[1, 0]], [[0.5, 0.5]], average="samples") == 0.5


@pytest.mark.parametrize(("name", "options"), SUMMARIES[:3])
@pytest.mark.parametrize("average", AVERAGES)
@FEW_EXAMPLES
@given(data=multilabel_ranking_data(min_labels=2, max_n=20))
def test_multilabel_averages_agree_with_scikit_learn_where_defined(
    name, options, average, data
) -> None:
    y, s, w = data
    ours = quiet(getattr(assay, name), y, s, sample_weight=w, average=average, **options)
    if np.any(np.isnan(ours)):
        return  # undefined (scikit-learn returns NaN for AUC but 0 for AP there)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = getattr(skm, name)(y, s, sample_weight=w, average=average, **options)
    assert_close(ours, theirs)


def test_multiclass_average_precision_of_decision_values_agrees_with_scikit_learn() -> None:
    rng = np.random.default_rng(5)
    y = rng.integers(0, 4, 60)
    s = np.round(rng.normal(size=(60, 4)), 1)  # any real values, ties included
    for average in AVERAGES:
        ours = assay.average_precision_score(y, s, average=average)
        assert_close(ours, skm.average_precision_score(y, s, average=average))


def test_sparse_indicators_equal_dense() -> None:
    y = np.array([[1, 0, 1], [0, 0, 1], [1, 1, 0], [0, 0, 0]])
    s = np.array([[0.2, 0.1, 0.9], [0.3, 0.3, 0.3], [0.8, 0.1, 0.5], [0.1, 0.2, 0.3]])
    for sparse in (scipy.sparse.csr_matrix(y), scipy.sparse.csc_array(y)):
        for name in LABEL_RANKING:
            assert getattr(assay, name)(sparse, s) == getattr(assay, name)(y, s)
        ours = assay.average_precision_score(sparse, s, average="micro")
        assert ours == assay.average_precision_score(y, s, average="micro")


# --- The averages' rules. ---


def test_weighted_average_leaves_out_labels_without_positives() -> None:
    y = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 0]])
    s = np.array([[0.9, 0.2, 0.4], [0.3, 0.8, 0.1], [0.6, 0.1, 0.5]])
    per_label = quiet(assay.roc_auc_score, y, s, average=None)
    assert np.isnan(per_label[2])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning: the label of weight 0 does not enter
        weighted = assay.roc_auc_score(y, s, average="weighted")
    assert_close(weighted, np.average(per_label[:2], weights=[2, 2]))


def test_an_undefined_label_is_named_at_the_callers_line() -> None:
    y = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 1]])
    s = np.array([[0.9, 0.2, 0.4], [0.3, 0.8, 0.1], [0.6, 0.1, 0.5]])
    with pytest.warns(UndefinedMetricWarning, match=r"columns of `y_true`\) 2 have") as record:
        macro = assay.roc_auc_score(y, s)
    assert np.isnan(macro)
    assert record[0].filename == __file__
    with pytest.warns(
        UndefinedMetricWarning, match=r"1 row\(s\) of `y_true` \(the first: row 2\)"
    ):
        assert np.isnan(assay.roc_auc_score(y, s, average="samples"))
    y[:, 0] = 0
    with pytest.warns(UndefinedMetricWarning, match=r"columns of `y_true`\) 0 have no positives"):
        per_label = assay.average_precision_score(y, s, average=None)
    assert np.isnan(per_label[0]) and not np.any(np.isnan(per_label[1:]))


def test_a_row_of_weight_zero_does_not_count() -> None:
    y = np.array([[1, 0, 0], [0, 0, 0], [0, 1, 1]])
    s = np.array([[0.1, 0.9, 0.4], [0.5, 0.6, 0.7], [0.2, 0.8, 0.3]])
    w = np.array([1.0, 0.0, 3.0])
    kept = [0, 2]
    for name in LABEL_RANKING:
        ours = getattr(assay, name)(y, s, sample_weight=w)
        assert_close(ours, getattr(assay, name)(y[kept], s[kept], sample_weight=w[kept]))
    # the empty row is undefined for 'samples' but weighs nothing
    ours = assay.average_precision_score(y, s, sample_weight=w, average="samples")
    kept_only = assay.average_precision_score(
        y[kept], s[kept], sample_weight=w[kept], average="samples"
    )
    assert_close(ours, kept_only)


# --- Errors. ---


@pytest.mark.parametrize("name", LABEL_RANKING)
def test_label_ranking_errors(name) -> None:
    function = getattr(assay, name)
    s = np.zeros((2, 3))
    with pytest.raises(ValueError, match=r"multilabel indicator of 0/1 values; it contains \[2\]"):
        function([[0, 1, 2], [1, 0, 0]], s)
    with pytest.raises(ValueError, match=r"must be a 2-D multilabel indicator .* shape \(3,\)"):
        function([0, 1, 1], s)
    with pytest.raises(ValueError, match=r"the same shape .* got \(2, 3\) and \(2, 4\)"):
        function([[0, 1, 1], [1, 0, 0]], np.zeros((2, 4)))
    with pytest.raises(ValueError, match=r"`y_score` contains 1 non-finite values"):
        function([[0, 1, 1], [1, 0, 0]], [[0.0, np.nan, 1.0], [0.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match=r"`y_true` must be a multilabel indicator .* dtype <U1"):
        function([["a", "b", "a"], ["a", "a", "a"]], s)
    with pytest.raises(ValueError, match=r"`y_true` is empty"):
        function(np.zeros((0, 3)), np.zeros((0, 3)))
    with pytest.raises(ValueError, match=r"`sample_weight` has length 3 but there are 2"):
        function([[0, 1, 1], [1, 0, 0]], s, sample_weight=[1, 1, 1])


def test_multilabel_option_errors() -> None:
    y = [[0, 1, 1], [1, 0, 0]]
    s = np.zeros((2, 3))
    with pytest.raises(ValueError, match=r"`average` must be one of .* got 'binary'"):
        assay.roc_auc_score(y, s, average="binary")
    with pytest.raises(ValueError, match=r"`pos_label` applies to binary targets only .* got 2"):
        assay.average_precision_score(y, s, pos_label=2)
    with pytest.raises(ValueError, match=r"`labels` applies to multi-class targets only"):
        assay.roc_auc_score(y, s, labels=[0, 1, 2])
    with pytest.raises(ValueError, match=r"`max_fpr` must be in \(0, 1\]; got 0"):
        assay.roc_auc_score(y, s, max_fpr=0)
    with pytest.raises(ValueError, match=r"the same shape .* got \(2, 3\) and \(2, 2\)"):
        assay.pr_auc_score(y, np.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"`y_true` has 3 classes but `y_score` has 4 columns"):
        assay.average_precision_score([0, 1, 2, 2], np.zeros((4, 4)))

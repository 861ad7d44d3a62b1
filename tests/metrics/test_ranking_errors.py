"""Bad input to the ranking functions: clear errors; single classes: NaN and a warning."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import assay
from assay import UndefinedMetricWarning
from assay.metrics._registry import METRICS

# The curves, and every ranking metric of the registry (with its first declared variant:
# the options it needs, if any).
BINARY_FUNCTIONS = {
    **{
        function.__name__: function
        for function in (
            assay.roc_curve,
            assay.precision_recall_curve,
            assay.det_curve,
            assay.confusion_matrix_at_thresholds,
        )
    },
    **{
        name: functools.partial(declaration.function, **declaration.variants[0])
        for name, declaration in METRICS.items()
        if declaration.computed_from == "ranking"
    },
}
binary_functions = pytest.mark.parametrize(
    "function", list(BINARY_FUNCTIONS.values()), ids=list(BINARY_FUNCTIONS)
)


@binary_functions
@pytest.mark.parametrize(
    "y_true, y_score, message",
    [
        ([0, 1, 1], [0.1, np.nan, np.nan], r"`y_score` contains 2 NaN values; scores must be"),
        ([0, 1, 1], [0.1, np.inf, -np.inf], r"`y_score` contains 2 infinite values"),
        ([], [], r"`y_true` is empty; at least one sample is needed"),
        ([0, 1, 1], [0.1, 0.2], r"`y_true` and `y_score` have different lengths: 3 and 2"),
        ([0.5, 1.0, 0.0], [0.1, 0.2, 0.3], r"`y_true` holds continuous values \(e\.g\. 0\.5\)"),
        ([0, 1, 2], [0.1, 0.2, 0.3], r"`y_true` holds 3 classes \[0, 1, 2\]; this metric needs"),
        (["a", "b", "b"], [0.1, 0.2, 0.3], r"pass `pos_label` to name the positive class"),
        ([0, 1, 1], ["x", "y", "z"], r"`y_score` must be numeric; got dtype <U1"),
    ],
)
def test_bad_targets_and_scores(function, y_true, y_score, message) -> None:
    with pytest.raises(ValueError, match=message):
        function(y_true, y_score)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_finite_scores_whose_sum_overflows_are_accepted(dtype) -> None:
    """The finiteness check sums the scores first (a finite sum proves them finite); a
    sum that overflows is checked value by value, and huge finite scores pass."""
    huge = np.finfo(dtype).max
    scores = np.array([huge, huge, -huge, huge / 2], dtype=dtype)
    # positives huge and huge / 2 against negatives huge and -huge: a tie, two wins, a loss
    assert assay.roc_auc_score([0, 1, 0, 1], scores) == 2.5 / 4
    scores[1] = np.nan
    with pytest.raises(ValueError, match=r"`y_score` contains 1 NaN values"):
        assay.roc_auc_score([0, 1, 0, 1], scores)


# the areas that take a multilabel indicator (one score column per label)
MULTILABEL_AREAS = {"roc_auc_score", "average_precision_score", "pr_auc_score"}


@binary_functions
def test_a_2d_target_is_multilabel_or_refused(function) -> None:
    name = getattr(function, "func", function).__name__
    if name in MULTILABEL_AREAS:
        message = r"`y_true` and `y_score` must have the same shape .* \(2, 2\) and \(2,\)"
    else:
        message = r"`y_true` must be 1-D, got an array of shape \(2, 2\)"
    with pytest.raises(ValueError, match=message):
        function([[0, 1], [1, 0]], [0.1, 0.2])


def test_multiclass_target_to_roc_auc_says_how_to_go_multiclass() -> None:
    with pytest.raises(ValueError, match=r"binary targets\. For more classes pass `y_score` of"):
        assay.roc_auc_score([0, 1, 2], [0.1, 0.2, 0.3])


@binary_functions
def test_absent_pos_label(function) -> None:
    with pytest.raises(ValueError, match=r"`pos_label`=2 is not one of the labels in `y_true`"):
        function([0, 1, 1], [0.1, 0.2, 0.3], pos_label=2)


@binary_functions
@pytest.mark.parametrize(
    "weights, message",
    [
        ([1.0, -1.0, 2.0], r"`sample_weight` contains 1 negative values; weights must be non-ne"),
        ([1.0, np.nan, 2.0], r"`sample_weight` contains 1 NaN values; weights must be finite"),
        ([1.0, np.inf, 2.0], r"`sample_weight` contains 1 infinite values"),
        ([0.0, 0.0, 0.0], r"`sample_weight` sums to zero; at least one weight must be positive"),
        ([1.0, 1.0], r"`sample_weight` has length 2 but there are 3 samples"),
    ],
)
def test_bad_weights(function, weights, message) -> None:
    with pytest.raises(ValueError, match=message):
        function([0, 1, 1], [0.1, 0.2, 0.3], sample_weight=weights)


@pytest.mark.parametrize(
    "function, message",
    [
        (assay.roc_auc_score, "Only one class is present in `y_true`; ROC AUC is undefined"),
        (assay.equal_error_rate, "Only one class is present in `y_true`; the equal error"),
        (assay.average_precision_score, "No positive samples in `y_true`; average precision"),
        (assay.pr_auc_score, "No positive samples in `y_true`; the area under the precision"),
    ],
)
def test_single_class_gives_nan_and_a_warning(function, message) -> None:
    with pytest.warns(UndefinedMetricWarning, match=message):
        value = function([0, 0, 0], [0.1, 0.2, 0.3])
    assert np.isnan(value)


def test_single_class_roc_auc_with_zero_weights_is_nan() -> None:
    # the only positive has zero weight: it is absent
    with pytest.warns(UndefinedMetricWarning, match="Only one class"):
        assert np.isnan(assay.roc_auc_score([0, 1, 0], [0.1, 0.2, 0.3], sample_weight=[1, 0, 1]))


def test_precision_measures_are_defined_without_negatives() -> None:
    # every prediction is correct: precision 1 everywhere, AP = 1
    assert assay.average_precision_score([1, 1, 1], [0.1, 0.2, 0.3]) == 1.0
    assert assay.pr_auc_score([1, 1, 1], [0.1, 0.2, 0.3]) == 1.0


def test_curves_of_a_single_class_warn_and_hold_nan() -> None:
    with pytest.warns(UndefinedMetricWarning, match="No positive samples .* true positive"):
        fpr, tpr, _ = assay.roc_curve([0, 0], [0.1, 0.2])
    assert np.all(np.isnan(tpr)) and not np.any(np.isnan(fpr))
    with pytest.warns(UndefinedMetricWarning, match="No negative samples .* false positive"):
        fpr, tpr, _ = assay.roc_curve([1, 1], [0.1, 0.2])
    assert np.all(np.isnan(fpr))
    with pytest.warns(UndefinedMetricWarning, match="No positive samples .* recall"):
        _, recall, _ = assay.precision_recall_curve([0, 0], [0.1, 0.2])
    assert np.all(np.isnan(recall[:-1]))
    with pytest.warns(UndefinedMetricWarning, match="No positive samples .* false negative"):
        assay.det_curve([0, 0], [0.1, 0.2])
    with pytest.warns(UndefinedMetricWarning, match="No negative samples .* false positive"):
        assay.det_curve([1, 1], [0.1, 0.2])


def test_warnings_point_at_the_caller() -> None:
    with pytest.warns(UndefinedMetricWarning) as record:
        assay.roc_auc_score([0, 0], [0.1, 0.2])
    assert record[0].filename == __file__


@pytest.mark.parametrize("max_fpr", [0, -0.5, 1.5, "half"])
def test_bad_max_fpr(max_fpr) -> None:
    with pytest.raises(ValueError, match=r"`max_fpr` must be in \(0, 1\]"):
        assay.roc_auc_score([0, 1], [0.1, 0.2], max_fpr=max_fpr)


def test_bad_method_names() -> None:
    with pytest.raises(ValueError, match=r"`method` must be one of \['trapezoid', 'interp"):
        assay.pr_auc_score([0, 1], [0.1, 0.2], method="average")
    with pytest.raises(ValueError, match=r"`method` must be one of \['interpolate', 'nearest'"):
        assay.equal_error_rate([0, 1], [0.1, 0.2], method="linear")


PROBA = np.array([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.1, 0.8], [0.3, 0.4, 0.3]])
PROBA2 = np.array([[0.7, 0.3], [0.2, 0.8], [0.1, 0.9], [0.5, 0.5]])
Y3 = np.array([0, 1, 2, 1])


@pytest.mark.parametrize(
    "kwargs, y_score, message",
    [
        ({}, PROBA, r"choose `multi_class='ovr'` \(one-vs-rest\) or `multi_class='ovo'`"),
        ({"multi_class": "ovr", "max_fpr": 0.5}, PROBA, r"`max_fpr` \(partial AUC\) is defi"),
        ({"multi_class": "ovo", "average": "micro"}, PROBA, r"`average` must be one of \['ma"),
        ({"multi_class": "ovo", "average": None}, PROBA, r"`average` must be one of"),
        ({"multi_class": "all"}, PROBA, r"`multi_class` must be one of \['raise', 'ovr', 'ovo'"),
        ({"multi_class": "ovr"}, PROBA * 2, r"`y_score` contains 2 values outside \[0, 1\]"),
        ({"multi_class": "ovr"}, PROBA * 0.5, r"`y_score` rows must be probabilities summing"),
        ({"multi_class": "ovr"}, PROBA2, r"`y_true` has 3 classes but `y_score` has 2 col"),
        ({"multi_class": "ovr", "labels": [0, 1, 1]}, PROBA, r"`labels` must be unique"),
        ({"multi_class": "ovr", "labels": [0, 1, 5]}, PROBA, r"`y_true` contains labels not in"),
        ({"multi_class": "ovr", "labels": [0, 1]}, PROBA, r"`labels` has 2 classes but `y_sc"),
    ],
)
def test_multiclass_errors(kwargs, y_score, message) -> None:
    with pytest.raises(ValueError, match=message):
        assay.roc_auc_score(Y3, y_score, **kwargs)


def test_multiclass_nan_scores_are_rejected() -> None:
    proba = PROBA.copy()
    proba[0, 0] = np.nan
    with pytest.raises(ValueError, match=r"`y_score` contains 1 NaN values; probabilities"):
        assay.roc_auc_score(Y3, proba, multi_class="ovr")


def test_a_column_vector_of_scores_is_binary_input() -> None:
    column = np.array([[0.1], [0.4], [0.35], [0.8]])
    assert assay.roc_auc_score([0, 0, 1, 1], column) == 0.75
    with pytest.raises(ValueError, match=r"`y_score` must be 1-D, got an array of shape"):
        assay.roc_auc_score([0, 0, 1, 1], np.zeros((4, 1, 1)))


def test_multiclass_average_precision_rejects_pos_label() -> None:
    with pytest.raises(ValueError, match=r"`pos_label` applies to binary targets only"):
        assay.average_precision_score(Y3, PROBA, pos_label=2)


def test_multiclass_class_without_rows_is_nan_with_a_warning() -> None:
    proba = np.hstack([PROBA, np.zeros((4, 1))])
    message = r"Class 3 in `labels` has no samples in `y_true`; its one-vs-rest value is und"
    with pytest.warns(UndefinedMetricWarning, match=message):
        per_class = assay.roc_auc_score(
            Y3, proba, multi_class="ovr", average=None, labels=[0, 1, 2, 3]
        )
    assert np.isnan(per_class[3]) and not np.any(np.isnan(per_class[:3]))


# --- The two columns of predict_proba, sparse scores, absent classes --------------------

Y2 = np.array([0, 1, 1, 0])
TWO_COLUMNS = (
    r"^`{}` has 2 columns \(shape \(4, 2\)\), like the output of `predict_proba` for a binary "
    r"problem; this metric needs one score per sample, that of the positive class: pass its "
    r"column, e\.g\. `{}\[:, 1\]`"
)


@binary_functions
def test_two_probability_columns_of_a_binary_target_say_which_column(function) -> None:
    with pytest.raises(ValueError, match=TWO_COLUMNS.format("y_score", "y_score")):
        function(Y2, PROBA2)
    with pytest.raises(ValueError, match=TWO_COLUMNS.format("y_score", "y_score")):
        function(np.array(["no", "yes", "yes", "no"]), PROBA2, pos_label="yes")


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda y, s: assay.auc_ci(y, s), "y_score"),
        (lambda y, s: assay.delong_test(y, s, s[:, 1]), "score_a"),
        (lambda y, s: assay.delong_test(y, s[:, 1], s), "score_b"),
        (lambda y, s: assay.delong_covariance(y, s[:, 1], s), "scores\\[1\\]"),
        (lambda y, s: assay.bootstrap(assay.roc_auc_score, y, s, n_resamples=10), "y_score"),
        (lambda y, s: assay.compare(assay.pr_auc_score, y, s, s, n_resamples=10), "y_score"),
    ],
)
def test_two_probability_columns_in_the_inference_functions(call, name) -> None:
    with pytest.raises(ValueError, match=TWO_COLUMNS.format(name, name)):
        call(Y2, PROBA2)


def test_two_columns_stay_multi_class_input_when_asked_for() -> None:
    # one-vs-rest of two complementary columns: both classes' areas equal the binary one
    binary = assay.roc_auc_score(Y2, PROBA2[:, 1])
    per_class = assay.roc_auc_score(Y2, PROBA2, multi_class="ovr", average=None)
    np.testing.assert_array_equal(per_class, [binary, binary])


def test_two_columns_of_more_classes_keep_the_multi_class_message() -> None:
    with pytest.raises(ValueError, match=r"choose `multi_class='ovr'` \(one-vs-rest\) or"):
        assay.roc_auc_score(Y3, PROBA2)


@pytest.mark.parametrize("function", [assay.roc_auc_score, assay.roc_curve, assay.auc_ci])
def test_sparse_scores_are_refused(function) -> None:
    sparse = pytest.importorskip("scipy.sparse")
    with pytest.raises(ValueError, match=r"^`y_score` is a scipy\.sparse csr_matrix; sparse"):
        function(Y2, sparse.csr_matrix([[0.1, 0.9, 0.8, 0.3]]))
    # a sparse column (a sparse matrix of several columns is a multilabel indicator)
    with pytest.raises(ValueError, match=r"^`y_true` is a scipy\.sparse csr_array; sparse"):
        function(sparse.csr_array(Y2[:, None]), [0.1, 0.9, 0.8, 0.3])


def test_sparse_multi_class_scores_are_refused() -> None:
    sparse = pytest.importorskip("scipy.sparse")
    with pytest.raises(ValueError, match=r"^`y_score` is a scipy\.sparse csr_matrix; sparse"):
        assay.roc_auc_score(Y3, sparse.csr_matrix(PROBA), multi_class="ovr")


@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_one_vs_one_names_the_class_absent_from_y_true(average) -> None:
    proba = np.hstack([PROBA, np.zeros((4, 1))])
    message = (
        r"^Class 3 in `labels` has no samples in `y_true`; the one-vs-one area of each pair "
        r"with it is undefined \(NaN returned\)\.$"
    )
    with pytest.warns(UndefinedMetricWarning, match=message) as record:
        value = assay.roc_auc_score(
            Y3, proba, multi_class="ovo", average=average, labels=[0, 1, 2, 3]
        )
    assert np.isnan(value)
    assert len(record) == 1  # one warning naming the class, not one per pair
    assert record[0].filename == __file__


def test_one_vs_one_names_every_absent_class_and_weighted_absence() -> None:
    proba = np.hstack([PROBA, np.zeros((4, 2))])
    with pytest.warns(UndefinedMetricWarning, match=r"^Classes \[3, 4\] in `labels` have no sa"):
        assay.roc_auc_score(Y3, proba, multi_class="ovo", labels=[0, 1, 2, 3, 4])
    weights = np.array([1.0, 1.0, 0.0, 1.0])  # class 2's only row weighs nothing
    message = r"^Class 2 has no samples of positive weight in `y_true`; the one-vs-one area"
    with pytest.warns(UndefinedMetricWarning, match=message):
        assay.roc_auc_score(Y3, PROBA, multi_class="ovo", sample_weight=weights)

"""The confusion matrix, its label handling, and the metric-from-matrix interface."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st

import assay
from assay.exceptions import UndefinedMetricWarning
from assay.metrics._cell_metrics import f1_from_confusion
from assay.metrics._confusion import averaging_options, labelled_confusion, one_vs_rest_cells
from assay.metrics._registry import METRICS
from tests.strategies import class_labels

CONFUSION_METRICS = {
    name: declaration
    for name, declaration in METRICS.items()
    if declaration.computed_from == "confusion"
}
"""The metrics of the confusion matrix, from the registry."""

# Normalized matrices are ratios of exact sums computed in another order by
# scikit-learn: they agree to rounding of one division.
SKLEARN_RTOL = 1e-12


def quiet(function, *args, **kwargs):
    """Call ``function`` with every warning silenced (scikit-learn's and ours)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def rows_from_matrix(matrix, labels):
    """(y_true, y_pred): ``matrix[i, j]`` rows of true ``labels[i]``, predicted ``labels[j]``."""
    matrix = np.asarray(matrix)
    labels = np.asarray(labels)
    true_index, pred_index = np.indices(matrix.shape)
    counts = matrix.ravel()
    return (
        np.repeat(labels[true_index.ravel()], counts),
        np.repeat(labels[pred_index.ravel()], counts),
    )


@st.composite
def labels_subset(draw, y_true, y_pred):
    """Some of the present labels in a drawn order, maybe with an absent label added."""
    present = np.unique(np.concatenate([y_true, y_pred]))
    chosen = draw(st.lists(st.sampled_from(list(present)), min_size=1, unique=True))
    if draw(st.booleans()) and present.dtype.kind != "b":
        absent = "absent" if present.dtype.kind in "US" else present.max() + 100
        chosen.insert(draw(st.integers(0, len(chosen))), absent)
    return np.asarray(chosen)


# --------------------------------------------------------------------------------------
# Agreement with scikit-learn


@given(data=class_labels(), normalize=st.sampled_from([None, "true", "pred", "all"]))
def test_confusion_matrix_matches_sklearn(data, normalize):
    y_true, y_pred, weight = data
    ours = quiet(assay.confusion_matrix, y_true, y_pred, sample_weight=weight, normalize=normalize)
    theirs = quiet(skm.confusion_matrix, y_true, y_pred, sample_weight=weight, normalize=normalize)
    if normalize is None:
        assert ours.dtype == (np.int64 if weight is None else np.float64)
        np.testing.assert_array_equal(ours, theirs)
    else:
        np.testing.assert_allclose(ours, theirs, rtol=SKLEARN_RTOL, atol=0)


@given(data=st.data())
def test_confusion_matrix_with_labels_matches_sklearn(data):
    y_true, y_pred, weight = data.draw(class_labels())
    labels = data.draw(labels_subset(y_true, y_pred))
    if not np.isin(labels, y_true).any():
        with pytest.raises(ValueError, match="occurs in `y_true`"):
            assay.confusion_matrix(y_true, y_pred, labels=labels)
        return
    ours = assay.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=weight)
    theirs = quiet(skm.confusion_matrix, y_true, y_pred, labels=labels, sample_weight=weight)
    np.testing.assert_array_equal(ours, theirs)


@given(data=class_labels(kinds=("int",)))
def test_every_label_kind_counts_alike(data):
    """The same codes under every label kind (fast paths and np.unique) give one matrix."""
    y_true, y_pred, weight = data
    expected = assay.confusion_matrix(y_true, y_pred, sample_weight=weight)
    k = int(max(y_true.max(), y_pred.max())) + 1
    tables = [
        np.arange(k) - 3,
        np.arange(k) * 1000,  # lookup-table path
        np.arange(k) * 2**40,  # wider than n: np.unique path
        np.arange(k, dtype=np.float64) / 1.0,
        np.arange(k, dtype=np.int8),
        np.array([f"{c:03d}" for c in range(k)]),
        np.array([f"{c:03d}" for c in range(k)], dtype=object),
    ]
    present = np.unique(np.concatenate([y_true, y_pred]))
    for table in tables:
        # float predictions must be labels of y_true or of `labels` (sorted: same order)
        labels = table[present] if table.dtype.kind == "f" else None
        matrix = assay.confusion_matrix(
            table[y_true], table[y_pred], labels=labels, sample_weight=weight
        )
        np.testing.assert_array_equal(matrix, expected[np.ix_(*2 * [np.arange(len(present))])])
    if k <= 2:
        booleans = np.array([False, True])
        matrix = assay.confusion_matrix(booleans[y_true], booleans[y_pred], sample_weight=weight)
        np.testing.assert_array_equal(matrix, expected)


def test_classes_keep_the_label_dtype():
    confusion = labelled_confusion(np.array([1.0, 3.0]), np.array([1, 1], dtype=np.int32))
    assert confusion.classes.dtype == np.float64
    np.testing.assert_array_equal(confusion.classes, [1.0, 3.0])
    confusion = labelled_confusion([True, True], [False, True])
    assert confusion.classes.dtype == bool
    confusion = labelled_confusion(np.array([3, 9], dtype=np.uint8), np.array([9, 9], np.uint8))
    assert confusion.classes.dtype == np.uint8


def test_huge_integer_labels_take_the_general_path():
    big = np.array([2**62, -(2**62), 5], dtype=np.int64)
    matrix = assay.confusion_matrix(big, big[::-1])  # classes -2**62, 5, 2**62
    np.testing.assert_array_equal(matrix, [[1, 0, 0], [0, 0, 1], [0, 1, 0]])
    unsigned = np.array([2**64 - 1, 0], dtype=np.uint64)
    np.testing.assert_array_equal(assay.confusion_matrix(unsigned, unsigned), np.eye(2))
    floats = np.array([2.0**60, 1.0])
    np.testing.assert_array_equal(assay.confusion_matrix(floats, floats), np.eye(2))


def test_zero_weight_rows_keep_their_labels():
    """scikit-learn's rule: a label seen only with zero weight still has a row."""
    matrix = assay.confusion_matrix([0, 1, 2], [0, 1, 2], sample_weight=[1.0, 0.0, 2.0])
    np.testing.assert_array_equal(matrix, np.diag([1.0, 0.0, 2.0]))


def test_normalize_warns_on_empty_rows():
    with pytest.warns(UndefinedMetricWarning, match="1 empty rows") as record:
        matrix = assay.confusion_matrix([0, 0], [0, 1], labels=[0, 1], normalize="true")
    assert record[0].filename == __file__
    np.testing.assert_array_equal(matrix, [[0.5, 0.5], [0.0, 0.0]])


# --------------------------------------------------------------------------------------
# Invariances


@given(data=class_labels(), seed=st.integers(0, 2**32 - 1))
def test_row_order_does_not_matter(data, seed):
    y_true, y_pred, weight = data
    order = np.random.default_rng(seed).permutation(y_true.shape[0])
    shuffled_weight = None if weight is None else weight[order]
    np.testing.assert_array_equal(
        assay.confusion_matrix(y_true, y_pred, sample_weight=weight),
        assay.confusion_matrix(y_true[order], y_pred[order], sample_weight=shuffled_weight),
    )


@given(data=class_labels())
def test_integer_weights_are_repetitions(data):
    y_true, y_pred, _ = data
    repeats = np.arange(y_true.shape[0]) % 3 + 1
    weighted = assay.confusion_matrix(y_true, y_pred, sample_weight=repeats)
    repeated = assay.confusion_matrix(np.repeat(y_true, repeats), np.repeat(y_pred, repeats))
    np.testing.assert_array_equal(weighted, repeated)


@given(data=class_labels())
def test_unit_weights_are_no_weights(data):
    y_true, y_pred, _ = data
    unweighted = assay.confusion_matrix(y_true, y_pred)
    unit = assay.confusion_matrix(y_true, y_pred, sample_weight=np.ones(y_true.shape[0]))
    assert unit.dtype == np.float64
    np.testing.assert_array_equal(unit, unweighted)


# --------------------------------------------------------------------------------------
# Cells and the metric-from-matrix interface


def test_one_vs_rest_cells_of_the_iris_matrix():
    # "Classification validation", "Confusion Matrix": kNN (k = 5) on Iris.
    cells = one_vs_rest_cells([[50, 0, 0], [0, 47, 3], [0, 2, 48]])
    np.testing.assert_array_equal(cells.tp, [50, 47, 48])
    np.testing.assert_array_equal(cells.fp, [0, 2, 3])
    np.testing.assert_array_equal(cells.fn, [0, 3, 2])
    np.testing.assert_array_equal(cells.tn, [100, 98, 97])
    np.testing.assert_array_equal(cells.positives, [50, 50, 50])
    np.testing.assert_array_equal(cells.predicted_positives, [50, 49, 51])
    pooled = cells.pooled()
    assert (pooled.tp[0], pooled.fp[0], pooled.fn[0], pooled.tn[0]) == (145, 5, 5, 295)


@given(data=class_labels(min_classes=2))
def test_every_registered_metric_is_its_public_function_of_the_matrix(data):
    """The registry is the single declaration: public value == from_confusion(matrix)."""
    y_true, y_pred, weight = data
    confusion = labelled_confusion(y_true, y_pred, sample_weight=weight)
    for name, metric in CONFUSION_METRICS.items():
        public = metric.function
        kwargs, options = {}, {}
        if "average" in metric.confusion_options:
            kwargs = {"average": "macro", "zero_division": 0.0}
            _, options = averaging_options(
                confusion, average="macro", pos_label=1, labels_given=False
            )
            options["zero_division"] = 0.0
        if "beta" in metric.confusion_options:
            kwargs["beta"] = options["beta"] = 2.0
        args = (y_true, y_pred)
        if name == "expected_cost":
            k = confusion.matrix.shape[0]
            cost = np.arange(k * k, dtype=np.float64).reshape(k, k)
            args, options = (y_true, y_pred, cost), {"cost_matrix": cost}
        expected = quiet(public, *args, sample_weight=weight, **kwargs)
        value = quiet(metric.from_confusion, confusion.matrix, **options)
        np.testing.assert_array_equal(value, expected, err_msg=name)


@given(data=class_labels(min_classes=2, max_classes=4), n_stack=st.integers(1, 4))
def test_from_confusion_accepts_a_stack_of_matrices(data, n_stack):
    """A resampling procedure may pass (B, k, k) matrices at once."""
    y_true, y_pred, weight = data
    matrix = labelled_confusion(y_true, y_pred, sample_weight=weight).matrix
    stack = np.stack([matrix * (b + 1) for b in range(n_stack)])
    for average in [None, "micro", "macro", "weighted"]:
        one = f1_from_confusion(matrix, average=average, zero_division=np.nan)
        many = f1_from_confusion(stack, average=average, zero_division=np.nan)
        for b in range(n_stack):  # scaling every cell leaves a ratio unchanged
            np.testing.assert_allclose(many[b], one, rtol=1e-15, atol=0)
    for name, metric in CONFUSION_METRICS.items():
        options = {"cost_matrix": np.ones(matrix.shape)} if name == "expected_cost" else {}
        if "average" in metric.confusion_options:
            options["average"] = "weighted"
        if "beta" in metric.confusion_options:
            options["beta"] = 0.5
        single = quiet(metric.from_confusion, matrix, **options)
        stacked = quiet(metric.from_confusion, np.stack([matrix, matrix]), **options)
        np.testing.assert_array_equal(stacked[0], single, err_msg=name)
        np.testing.assert_array_equal(stacked[1], single, err_msg=name)


# --------------------------------------------------------------------------------------
# Errors


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"y_true": [0, 1], "y_pred": [0]},
            "`y_true` and `y_pred` have different lengths: 2 and 1",
        ),
        ({"y_true": [], "y_pred": []}, "`y_true` is empty"),
        ({"y_true": [[[0, 1]]], "y_pred": [[[0, 1]]]}, "`y_true` must be 1-D"),
        (
            {"y_true": [[0, 1]], "y_pred": [[0, 1]]},
            "`confusion_matrix` does not support multilabel targets",
        ),
        (
            {"y_true": [0.5, 1.0], "y_pred": [0, 1]},
            r"`y_true` holds continuous values \(e.g. 0.5\)",
        ),
        ({"y_true": [0, 1], "y_pred": [0.0, 1.25]}, "`y_pred` holds continuous values"),
        ({"y_true": [0.0, np.nan], "y_pred": [0, 1]}, "`y_true` contains 1 NaN values"),
        ({"y_true": [0.0, np.inf], "y_pred": [0, 1]}, "`y_true` contains 1 infinite values"),
        ({"y_true": ["a", "b"], "y_pred": [0, 1]}, "`y_true` holds string labels but `y_pred`"),
        (
            {"y_true": np.array(["a", 1], dtype=object), "y_pred": ["a", "b"]},
            r"`y_true` mixes labels of different types, e\.g\. 'a' \(str\) and 1 \(int\)",
        ),
        (  # an object array is judged by its first element
            {"y_true": np.array(["a", 1], dtype=object), "y_pred": [0, 1]},
            "`y_true` holds string labels but `y_pred` holds numbers",
        ),
        ({"y_true": np.array([1, 2], "M8[D]"), "y_pred": [0, 1]}, "`y_true` has dtype"),
        (
            {"y_true": [0, 1], "y_pred": [0, 1], "sample_weight": [1.0]},
            "`sample_weight` has length 1",
        ),
        ({"y_true": [0, 1], "y_pred": [0, 1], "sample_weight": [1, -1]}, "1 negative values"),
        ({"y_true": [0, 1], "y_pred": [0, 1], "sample_weight": [1, np.nan]}, "1 NaN values"),
        ({"y_true": [0, 1], "y_pred": [0, 1], "sample_weight": [0, 0]}, "sums to zero"),
        ({"y_true": [0, 1], "y_pred": [0, 1], "labels": []}, "`labels` is empty"),
        ({"y_true": [0, 1], "y_pred": [0, 1], "labels": [[0, 1]]}, "`labels` must be 1-D"),
        ({"y_true": [0, 1], "y_pred": [0, 1], "labels": [1, 1]}, "contains repeated labels"),
        ({"y_true": [0, 1], "y_pred": [0, 1], "labels": ["a"]}, "`labels` holds string labels"),
        ({"y_true": [0, 1], "y_pred": [1, 1], "labels": [2, 3]}, r"None of `labels` \[2, 3\]"),
        ({"y_true": [0, 1], "y_pred": [0, 1], "normalize": "rows"}, "`normalize` must be one of"),
    ],
)
def test_confusion_matrix_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        assay.confusion_matrix(**kwargs)


# --- Scores where predicted labels are expected -----------------------------------------

# Probabilities with exact 0.0 and 1.0 among them: read as labels, each 1.0 would count
# as a correct prediction of class 1.
PROBA_TRUE = np.array([0, 1, 1, 0, 1, 0])
PROBA = np.array([0.2, 1.0, 0.7, 0.0, 1.0, 0.4])
EXTRA_ARGUMENTS = {
    "expected_cost": {"cost_matrix": [[0.0, 1.0], [1.0, 0.0]]},
    "fbeta_score": {"beta": 2.0},
}


def _label_functions():
    """Every public function of assay.metrics that takes predicted labels: the confusion
    metrics of the registry, the confusion matrix and the report."""
    functions = {name: declaration.function for name, declaration in CONFUSION_METRICS.items()}
    functions["confusion_matrix"] = assay.confusion_matrix
    functions["classification_report"] = assay.classification_report
    return sorted(functions.items())


LABEL_FUNCTIONS = _label_functions()
label_functions = pytest.mark.parametrize(
    "name, function", LABEL_FUNCTIONS, ids=[name for name, _ in LABEL_FUNCTIONS]
)


@label_functions
def test_probabilities_as_predictions_are_refused(name, function):
    argument = "y2" if name == "cohen_kappa_score" else "y_pred"
    message = (
        rf"^`{argument}` holds continuous values \(e\.g\. 0\.2\): scores or probabilities, "
        r"not class labels; threshold them first \(e\.g\. `score >= 0\.5`\)"
    )
    with pytest.raises(ValueError, match=message):
        function(PROBA_TRUE, PROBA, **EXTRA_ARGUMENTS.get(name, {}))


# Two raters (Cohen's kappa) have no reference labels: see the test of kappa below.
TARGET_FUNCTIONS = [(name, f) for name, f in LABEL_FUNCTIONS if name != "cohen_kappa_score"]


@pytest.mark.parametrize(
    "name, function", TARGET_FUNCTIONS, ids=[name for name, _ in TARGET_FUNCTIONS]
)
def test_integral_float_scores_outside_the_classes_are_refused(name, function):
    scores = np.array([0.0, 3.0, 2.0, 0.0, 1.0, 1.0])
    message = r"^`y_pred` holds float values \[2\.0, 3\.0\] that are not labels of `y_true`"
    with pytest.raises(ValueError, match=message):
        function(PROBA_TRUE, scores, **EXTRA_ARGUMENTS.get(name, {}))


@label_functions
def test_thresholded_probabilities_are_labels(name, function):
    """Probabilities that are all exactly 0.0 or 1.0 are labels: same value as integers."""
    extra = EXTRA_ARGUMENTS.get(name, {})
    if name == "classification_report":  # class names differ ("1.0" and "1"); rows do not
        extra = {"output_dict": True}
    as_floats = quiet(function, PROBA_TRUE, (PROBA >= 0.5).astype(np.float64), **extra)
    as_integers = quiet(function, PROBA_TRUE, (PROBA >= 0.5).astype(np.int64), **extra)
    if isinstance(as_floats, dict):
        assert list(as_floats.values()) == list(as_integers.values())
    else:
        np.testing.assert_array_equal(np.asarray(as_floats), np.asarray(as_integers))


@label_functions
def test_sequences_of_sequences_and_sparse_targets_are_refused(name, function):
    sparse = pytest.importorskip("scipy.sparse")
    extra = EXTRA_ARGUMENTS.get(name, {})
    first = "y1" if name == "cohen_kappa_score" else "y_true"
    legacy = np.array([[0], [1, 2], [], [2]], dtype=object)
    with pytest.raises(ValueError, match=rf"^`{first}` holds sequences of labels"):
        function(legacy, legacy, **extra)
    with pytest.raises(ValueError, match=rf"^`{first}` holds sequences of labels"):
        function([[0], [1, 2], [], [2]], [0, 1, 0, 1], **extra)
    # a sparse column of labels (a sparse matrix of several columns is a multilabel
    # indicator, see tests/metrics/test_multilabel.py)
    column = sparse.csr_matrix(PROBA_TRUE.reshape(-1, 1))
    with pytest.raises(ValueError, match=rf"^`{first}` is a scipy\.sparse csr_matrix; sparse"):
        function(column, PROBA_TRUE, **extra)


def test_cohen_kappa_refuses_scores_from_either_rater():
    message = r"^`y1` holds continuous values \(e\.g\. 0\.2\): scores or probabilities, not cl"
    with pytest.raises(ValueError, match=message):
        assay.cohen_kappa_score(PROBA, PROBA_TRUE)
    # a class that one rater alone uses is disagreement, not a score
    assert assay.cohen_kappa_score([0.0, 1.0, 2.0], [0.0, 1.0, 1.0]) == pytest.approx(
        assay.cohen_kappa_score([0, 1, 2], [0, 1, 1]), abs=0.0
    )


def test_float_predictions_of_a_class_named_in_labels_are_labels():
    y_true, y_pred = [0, 1, 1, 0], [0.0, 2.0, 1.0, 0.0]
    with pytest.raises(ValueError, match=r"`y_pred` holds float values \[2\.0\]"):
        assay.confusion_matrix(y_true, y_pred)
    np.testing.assert_array_equal(
        assay.confusion_matrix(y_true, y_pred, labels=[0, 1, 2]),
        assay.confusion_matrix(y_true, [0, 2, 1, 0], labels=[0, 1, 2]),
    )

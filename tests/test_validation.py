"""The shared input checks of assay._validation and their messages."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from assay import _labels as labels_module
from assay import _validation as v


@given(hnp.arrays(st.sampled_from([np.int8, np.int64, np.uint16, np.bool_]), st.integers(0, 50)))
def test_distinct_values_equals_numpy_unique(values: np.ndarray) -> None:
    result = v.distinct_values(values)
    np.testing.assert_array_equal(result, np.unique(values))
    assert result.dtype == values.dtype


def test_distinct_values_of_a_wide_integer_range_falls_back_to_unique() -> None:
    values = np.array([0, 2**40, -(2**40), 0], dtype=np.int64)
    np.testing.assert_array_equal(v.distinct_values(values), [-(2**40), 0, 2**40])


@pytest.mark.parametrize(
    "y, pos_label, expected_mask, expected_label",
    [
        ([0, 1, 1], None, [False, True, True], 1),
        ([-1, 1, -1], None, [False, True, False], 1),
        ([True, False], None, [True, False], True),
        ([0.0, 1.0], None, [False, True], 1),
        ([0, 0], None, [False, False], 1),  # a single class is accepted here
        (["no", "yes"], "yes", [False, True], "yes"),
        (["no", "no"], "yes", [False, False], "yes"),  # absent but only one class present
        ([1, 2, 2], 2, [False, True, True], 2),
    ],
)
def test_binary_target(y, pos_label, expected_mask, expected_label) -> None:
    mask, label = v.binary_target(y, pos_label)
    np.testing.assert_array_equal(mask, expected_mask)
    assert label == expected_label


@pytest.mark.parametrize(
    "y, pos_label, message",
    [
        ([0.5, 1.0], None, r"`y_true` holds continuous values \(e\.g\. 0\.5\); this metric nee"),
        ([0, 1, 2], None, r"`y_true` holds 3 classes \[0, 1, 2\]; this metric needs binary"),
        ([1, 2], None, r"`y_true` holds labels \[1, 2\]; pass `pos_label` to name the positi"),
        ([0, 1], 2, r"`pos_label`=2 is not one of the labels in `y_true` \[0, 1\]"),
        ([0.0, np.nan], None, r"`y_true` contains 1 NaN values; labels must be finite"),
        ([], None, r"`y_true` is empty"),
    ],
)
def test_binary_target_errors(y, pos_label, message) -> None:
    with pytest.raises(ValueError, match=message):
        v.binary_target(y, pos_label)


def test_format_values_shortens_long_lists() -> None:
    assert v.format_values(np.arange(3)) == "[0, 1, 2]"
    assert v.format_values(range(20), limit=2) == "[0, 1, ... (20 in all)]"


@pytest.mark.parametrize("value", ["warn", 0, 1, 0.0, 1.0, np.nan])
def test_zero_division_choices(value) -> None:
    result = v.check_zero_division(value)
    assert result == value or (np.isnan(result) and np.isnan(value))


@pytest.mark.parametrize("value", ["nan", 0.5, None, "ignore", 2])
def test_zero_division_rejects_other_values(value) -> None:
    with pytest.raises(ValueError, match=r"`zero_division` must be 'warn', 0, 1 or numpy.nan"):
        v.check_zero_division(value)


def test_check_option_message() -> None:
    assert v.check_option(None, "average", ("macro", None)) is None
    with pytest.raises(ValueError, match=r"`average` must be one of \['macro', None\]; got 'x'"):
        v.check_option("x", "average", ("macro", None))


def test_probabilities_two_dimensional() -> None:
    proba = v.as_probabilities([[0.2, 0.8]], "proba", ndim=2)
    assert proba.dtype == np.float64 and proba.flags.c_contiguous
    with pytest.raises(ValueError, match=r"`proba` must be 2-D \(n_samples, n_classes\)"):
        v.as_probabilities([0.2, 0.8], "proba", ndim=2)
    with pytest.raises(ValueError, match=r"`proba` is empty"):
        v.as_probabilities(np.zeros((0, 2)), "proba", ndim=2)
    with pytest.raises(ValueError, match=r"`proba` contains 1 values outside \[0, 1\]"):
        v.as_probabilities([[0.5, 0.5], [1.5, 0.0]], "proba", ndim=2)


def test_scores_are_contiguous_float64() -> None:
    scores = v.as_scores(np.arange(10)[::2])
    assert scores.dtype == np.float64 and scores.flags.c_contiguous
    np.testing.assert_array_equal(scores, [0, 2, 4, 6, 8])


def test_same_length_skips_missing_arrays() -> None:
    assert v.check_same_length(a=np.zeros(3), b=None, c=np.ones(3)) == 3


@given(
    hnp.arrays(
        st.sampled_from([np.int64, np.int8, np.float64]),
        st.integers(0, 60),
        elements=st.integers(-2, 2),
    ),
    st.integers(1, 4),
    st.booleans(),
)
def test_few_distinct_values(values: np.ndarray, limit: int, as_bool: bool) -> None:
    if as_bool:
        values = values > 0
    expected = np.unique(values)
    result = v.few_distinct_values(values, limit)
    if expected.shape[0] > limit:
        assert result is None
    else:
        assert result is not None
        np.testing.assert_array_equal(result, expected)


_CHUNK = labels_module._CHUNK  # rows checked at once against the values found


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([np.uint8, np.int8, np.int64, np.float32, np.bool_]),
    st.integers(1, 3 * _CHUNK + 7),
    st.lists(
        st.tuples(
            st.one_of(
                st.integers(0, 3 * _CHUNK + 6),
                st.sampled_from([_CHUNK - 1, _CHUNK, 2 * _CHUNK - 1, 2 * _CHUNK]),
            ),
            st.integers(0, 3),
        ),
        max_size=3,
    ),
    st.integers(1, 3),
)
@example(np.int8, 3 * _CHUNK, [(2 * _CHUNK, 2)], 2)  # a new value just after known ones
@example(np.int8, 3 * _CHUNK, [(_CHUNK - 1, 3), (2 * _CHUNK, 2)], 3)  # one a chunk
@example(np.int64, 2 * _CHUNK, [(_CHUNK + 5, 2)], 3)  # between the lowest and the highest
def test_few_distinct_values_in_long_runs(dtype, n, others, limit) -> None:
    """Rows are checked a chunk at a time against the values seen (the lowest and the
    highest first): a value met late in a chunk, first in one, or in a later one, is
    found wherever it lies."""
    values = np.zeros(n, dtype=dtype)
    values[n // 3 :] = 1
    for position, value in others:
        if position < n:
            values[position] = value
    expected = np.unique(values)
    result = v.few_distinct_values(values, limit)
    if expected.shape[0] > limit:
        assert result is None
    else:
        assert result is not None
        np.testing.assert_array_equal(result, expected)


def test_signed_labels_keep_their_values_and_order() -> None:
    labels = np.array([3, -1, 3, -1, -128], dtype=np.int8)
    np.testing.assert_array_equal(v.few_distinct_values(labels, 3), [-128, -1, 3])
    assert v.few_distinct_values(labels, 2) is None


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int64, np.uint64, np.float16])
def test_few_distinct_values_keep_the_labels_dtype(dtype) -> None:
    labels = np.array([0, 1, 1, 0, 1], dtype=dtype)
    found = v.few_distinct_values(labels, 2)
    assert found is not None and found.dtype == dtype
    np.testing.assert_array_equal(found, np.array([0, 1], dtype=dtype))
    one = v.few_distinct_values(labels[1:3], 1)
    assert one is not None and one.dtype == dtype
    np.testing.assert_array_equal(one, np.array([1], dtype=dtype))
    assert v.few_distinct_values(labels, 1) is None
    empty = v.few_distinct_values(labels[:0], 2)
    assert empty is not None and empty.shape == (0,) and empty.dtype == dtype


def test_few_distinct_values_of_large_unsigned_and_strided_labels() -> None:
    top = np.iinfo(np.uint64).max
    labels = np.array([top, 0, top, top - 1], dtype=np.uint64)
    np.testing.assert_array_equal(v.few_distinct_values(labels, 3), [0, top - 1, top])
    strided = np.repeat(np.array([5, 7], dtype=np.int16), 3)[::2]  # 5, 5, 7
    np.testing.assert_array_equal(v.few_distinct_values(strided, 2), [5, 7])


@pytest.mark.parametrize(
    "labels", [[np.nan], [np.nan, np.nan, 1.0], [0.0, 1.0, np.nan], [1.0] * 70_000 + [np.nan]]
)
def test_few_distinct_values_of_labels_with_nan_is_none(labels) -> None:
    assert v.few_distinct_values(np.array(labels), 2) is None
    assert v.few_distinct_values(np.array(labels, dtype=np.float32), 5) is None


def test_few_distinct_values_of_strings() -> None:
    np.testing.assert_array_equal(v.few_distinct_values(np.array(["b", "a", "b"]), 2), ["a", "b"])
    assert v.few_distinct_values(np.array(["b", "a", "c"]), 2) is None


# --- Predicted labels: the one check shared by every function that takes them. ---

# The message that says to threshold scores, for a prediction argument named NAME.
THRESHOLD_HINT = r"threshold them first \(e\.g\. `score >= 0\.5`\)"


@pytest.mark.parametrize(
    "y_true, y_pred, kwargs",
    [
        ([0, 1, 1], [0, 2, 1], {}),  # integer class absent from y_true: allowed
        ([0, 1, 1], [True, False, True], {}),
        ([0, 1, 1], [0.0, 1.0, 1.0], {}),  # probabilities all exactly 0/1 are labels
        ([0.0, 1.0, 1.0], np.array([0, 1, 1], dtype=np.int8), {}),
        ([0, 0, 0], [0.0, 1.0, 1.0], {}),  # single-class 0/1 target: 1.0 is its other label
        ([-1, -1, -1], [1.0, -1.0, 1.0], {}),  # likewise for -1/1
        ([0, 1, 1], [0.0, 2.0, 1.0], {"labels": [0, 1, 2]}),  # a class named in `labels`
        ([3, 3, 4], [5.0, 3.0, 4.0], {"pos_label": 5}),
        (["a", "b"], ["b", "c"], {}),
        (np.array(["a", "b"], dtype=object), ["b", "a"], {}),
        (np.array([0, 1], dtype=object), np.array([1.0, 0.0], dtype=object), {}),
        ([0.0, 1.0], [2.0, 1.0], {"symmetric": True}),  # raters: no set is the reference
    ],
)
def test_predicted_labels_accepted(y_true, y_pred, kwargs) -> None:
    truth, predicted = v.as_label_pair(y_true, y_pred, **kwargs)
    assert truth.ndim == predicted.ndim == 1
    assert truth.shape == predicted.shape


def test_object_arrays_of_numbers_are_read_as_numbers() -> None:
    _, predicted = v.as_label_pair([0, 1], np.array([1, 0], dtype=object))
    assert predicted.dtype == np.int64


@pytest.mark.parametrize(
    "y_true, y_pred, kwargs, message",
    [
        ([0, 1, 1], [0.2, 0.9, 1.0], {}, r"^`y_pred` holds continuous values \(e\.g\. 0\.2\)"),
        ([0, 1, 1], [-1.5, 3.0, 1.0], {}, r"`y_pred` holds continuous values \(e\.g\. -1\.5\)"),
        (
            [0, 1],
            np.array([0.25, 1.0], dtype=object),
            {},
            r"`y_pred` holds continuous values \(e\.g\. 0\.25\): scores or probabilities",
        ),
        ([0, 1], [0.0, 0.5], {"symmetric": True}, r"`y_pred` holds continuous values"),
        ([0.5, 1.0], [0, 1], {"symmetric": True}, r"`y_true` holds continuous values.*thresh"),
        (
            [0, 1, 1],
            [0.0, 2.0, 3.0],
            {},
            r"^`y_pred` holds float values \[2\.0, 3\.0\] that are not labels of `y_true` "
            r"\[0, 1\]; float predictions must be labels of the target \(or of `labels`\): "
            r"threshold scores first \(e\.g\. `score >= 0\.5`\)",
        ),
        ([1, 2, 2], [0.0, 1.0, 2.0], {}, r"float values \[0\.0\] that are not labels"),
        ([0, 1, 1], [0.0, 2.0, 1.0], {"labels": [0, 1]}, r"float values \[2\.0\]"),
        ([0, 1], [0.0, np.nan], {}, r"`y_pred` contains 1 NaN values; labels must be finite"),
        ([0, 1], ["a", "b"], {}, r"`y_pred` holds string labels but `y_true` holds numbers"),
        (["a", "b"], [0.5, 1.0], {}, r"`y_true` holds string labels but `y_pred` holds numbers"),
        (
            np.array(["a", "b"], dtype=object),
            [0, 1],
            {},
            r"`y_true` holds string labels but `y_pred` holds numbers",
        ),
        ([0.5, 1.0], [0, 1], {}, r"`y_true` holds continuous values \(e\.g\. 0\.5\); this metr"),
        ([0, 1], [0, 1, 1], {}, r"`y_true` and `y_pred` have different lengths: 2 and 3"),
        ([0, 1], np.array(["2020-01-01"] * 2, "M8[D]"), {}, r"`y_pred` has dtype datetime64"),
    ],
)
def test_predicted_labels_refused(y_true, y_pred, kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        v.as_label_pair(y_true, y_pred, **kwargs)


def test_predicted_labels_name_the_arguments() -> None:
    with pytest.raises(ValueError, match=rf"^`pred_b` holds continuous values .*{THRESHOLD_HINT}"):
        v.as_label_pair([0, 1], [0.3, 0.6], names=("y_true", "pred_b"))
    with pytest.raises(ValueError, match=r"not labels of `y1` \[0, 1\]"):
        v.as_label_pair([0, 1], [0.0, 4.0], names=("y1", "y2"))


# --- Input formats refused with a message of their own. ---


def _sparse_inputs():
    sparse = pytest.importorskip("scipy.sparse")
    row = np.array([[0, 1, 1, 0]])
    return [sparse.csr_matrix(row), sparse.csr_array(row), sparse.coo_matrix(row.T)]


@pytest.mark.parametrize("index", range(3))
def test_sparse_input_is_refused(index) -> None:
    values = _sparse_inputs()[index]
    kind = type(values).__name__
    message = rf"^`y_true` is a scipy\.sparse {kind}; sparse input is not supported: pass a dense"
    with pytest.raises(ValueError, match=message):
        v.as_1d(values, "y_true")
    with pytest.raises(ValueError, match=message):
        v.as_1d(np.asarray(values), "y_true")  # numpy wraps it in a 0-d object array
    with pytest.raises(ValueError, match=r"^`y_score` is a scipy\.sparse"):
        v.as_scores(values)
    with pytest.raises(ValueError, match=r"^`proba` is a scipy\.sparse"):
        v.as_probabilities(values, "proba", ndim=2)
    with pytest.raises(ValueError, match=r"^`y_pred` is a scipy\.sparse"):
        v.as_finite_array(values, "y_pred")


LEGACY = (
    r"holds sequences of labels \(e\.g\. {}\), the legacy multi-label format \(a sequence "
    r"of sequences\), which is not supported: pass one class label per sample"
)


@pytest.mark.parametrize(
    "values, example",
    [
        (np.array([[], [1, 2]], dtype=object), r"\[1, 2\]"),
        ([[1], [1, 2]], r"\[1\]"),
        ([(), (0,), (0, 2)], r"\(0,\)"),
        ([{1}, {1, 2}], r"\{1\}"),
        (np.array([np.array([0]), np.array([0, 1])], dtype=object), r"\[0\]"),
    ],
)
def test_sequences_of_sequences_are_refused(values, example) -> None:
    with pytest.raises(ValueError, match="^`y_true` " + LEGACY.format(example)):
        v.as_1d(values, "y_true")


def test_object_labels_that_are_not_sequences_pass() -> None:
    labels = np.array(["a", 1, 2.5], dtype=object)
    assert v.as_1d(labels, "y_true") is labels


def test_two_score_columns_say_to_take_the_positive_column() -> None:
    proba = np.array([[0.8, 0.2], [0.3, 0.7]])
    message = (
        r"^`y_score` has 2 columns \(shape \(2, 2\)\), like the output of `predict_proba` "
        r"for a binary problem; this metric needs one score per sample, that of the "
        r"positive class: pass its column, e\.g\. `y_score\[:, 1\]`"
    )
    with pytest.raises(ValueError, match=message):
        v.as_scores(proba)
    with pytest.raises(ValueError, match=r"`y_score` must be 1-D, got an array of shape \(2, 3\)"):
        v.as_scores(np.full((2, 3), 1 / 3))
    with pytest.raises(ValueError, match=r"`groups` must be 1-D, got an array of shape \(2, 2\)"):
        v.as_1d(proba, "groups")  # not scores: no advice about columns

"""classification_report: text and dict identical to scikit-learn's."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st

import assay
from tests.metrics.test_confusion import labels_subset, quiet
from tests.strategies import class_labels

# The dict holds unrounded floats computed in another order by scikit-learn.
SKLEARN_RTOL = 1e-12


def assert_reports_equal(ours: dict, theirs: dict) -> None:
    assert list(ours) == list(theirs)
    for key, value in theirs.items():
        if isinstance(value, dict):
            assert list(ours[key]) == list(value)
            for column, number in value.items():
                np.testing.assert_allclose(ours[key][column], number, rtol=SKLEARN_RTOL)
        else:
            np.testing.assert_allclose(ours[key], value, rtol=SKLEARN_RTOL)


@given(
    data=st.data(),
    digits=st.integers(0, 5),
    zero_division=st.sampled_from(["warn", 0.0, 1.0, np.nan]),
)
def test_report_matches_sklearn(data, digits, zero_division):
    y_true, y_pred, weight = data.draw(class_labels(kinds=("int", "str", "float", "bool")))
    kwargs = {"sample_weight": weight, "zero_division": zero_division}
    if data.draw(st.booleans()):
        kwargs["labels"] = data.draw(labels_subset(y_true, y_pred))
    if data.draw(st.booleans()):
        n_names = len(kwargs.get("labels", np.unique(np.concatenate([y_true, y_pred]))))
        kwargs["target_names"] = [f"class number {i}" for i in range(n_names)]
    text = quiet(assay.classification_report, y_true, y_pred, digits=digits, **kwargs)
    expected = quiet(skm.classification_report, y_true, y_pred, digits=digits, **kwargs)
    # scikit-learn prints integer supports as floats ("1.0") when no row is correct,
    # so the text is compared when some row is correct
    if np.any(y_true == y_pred):
        assert text == expected
    ours = quiet(assay.classification_report, y_true, y_pred, output_dict=True, **kwargs)
    theirs = quiet(skm.classification_report, y_true, y_pred, output_dict=True, **kwargs)
    assert_reports_equal(ours, theirs)


def test_report_of_the_iris_matrix():
    # The kNN matrix of the "Classification validation" slides,
    # [[50, 0, 0], [0, 47, 3], [0, 2, 48]]; per-class
    # precision 1, 47/49, 48/51 and recall 1, 47/50, 48/50.
    from tests.metrics.test_confusion import rows_from_matrix

    y_true, y_pred = rows_from_matrix([[50, 0, 0], [0, 47, 3], [0, 2, 48]], [0, 1, 2])
    report = assay.classification_report(
        y_true, y_pred, target_names=["setosa", "versicolor", "virginica"], output_dict=True
    )
    assert report["versicolor"]["precision"] == pytest.approx(47 / 49, rel=1e-15)
    assert report["virginica"]["recall"] == pytest.approx(48 / 50, rel=1e-15)
    assert report["setosa"]["support"] == 50.0
    assert report["accuracy"] == pytest.approx(145 / 150, rel=1e-15)


def test_report_errors():
    with pytest.raises(ValueError, match="`target_names` has 1 names but 2 classes"):
        assay.classification_report([0, 1], [0, 1], target_names=["a"])
    with pytest.raises(ValueError, match="`target_names` has 3 names but 1 classes"):
        assay.classification_report([0, 1], [0, 1], labels=[1], target_names=["a", "b", "c"])
    with pytest.raises(ValueError, match="`digits` must be a non-negative integer; got -1"):
        assay.classification_report([0, 1], [0, 1], digits=-1)
    with pytest.raises(ValueError, match=r"`digits` must be a non-negative integer; got 2\.5"):
        assay.classification_report([0, 1], [0, 1], digits=2.5)
    with pytest.raises(ValueError, match="`zero_division` must be"):
        assay.classification_report([0, 1], [0, 1], zero_division="nan")
    with pytest.raises(ValueError, match="different lengths"):
        assay.classification_report([0, 1], [0])

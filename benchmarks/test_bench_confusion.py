"""Confusion-matrix metrics: assay against scikit-learn (the peer), same data, same run.

Goal at n = 1e7 (from the project's foundation issue): at least 10x faster than
scikit-learn, integer (int64) labels.  Two classes: the binormal labels against the
prediction ``score >= 0.5``; five classes: uniform labels, 70% predicted right.
"""

from __future__ import annotations

import pytest

GOAL = 10.0

# (function, number of classes, `average` argument or None for the function's default)
CASES = [
    pytest.param("confusion_matrix", 5, None, id="confusion_matrix-5_classes"),
    pytest.param("accuracy_score", 5, None, id="accuracy_score-5_classes"),
    pytest.param("f1_score", 2, "binary", id="f1_score-binary"),
    pytest.param("f1_score", 5, "macro", id="f1_score-macro-5_classes"),
    pytest.param("matthews_corrcoef", 2, None, id="matthews_corrcoef-binary"),
    pytest.param("matthews_corrcoef", 5, None, id="matthews_corrcoef-5_classes"),
]


@pytest.mark.parametrize("implementation", ["sklearn", "assay"])  # peer first, back to back
@pytest.mark.parametrize(("function", "n_classes", "average"), CASES)
def test_confusion_metric(
    benchmark_pair, labels, function, n_classes, average, n_samples, implementation
):
    y_true, y_pred = labels(n_samples, n_classes)
    kwargs = {} if average is None else {"average": average}
    benchmark_pair(function, (y_true, y_pred), kwargs, goal=GOAL)

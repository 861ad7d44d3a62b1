"""expected_cost and bayes_decision: definitions, source examples, errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import assay
from assay.exceptions import UndefinedMetricWarning
from tests.metrics.test_confusion import rows_from_matrix
from tests.strategies import class_labels

# Costs are small integers and weights exact (multiples of 1/8): the totals are exact,
# the means are one division away from the row-by-row sum.
COST_RTOL = 1e-12


@given(data=st.data(), normalize=st.sampled_from(["all", None, "true"]))
def test_expected_cost_is_the_mean_cost_per_row(data, normalize):
    y_true, y_pred, weight = data.draw(class_labels(kinds=("int", "str", "shifted")))
    classes = np.unique(np.concatenate([y_true, y_pred]))
    k = classes.shape[0]
    cost = data.draw(hnp.arrays(np.int64, (k, k), elements=st.integers(-5, 20)))
    w = np.ones(y_true.shape[0]) if weight is None else weight
    row_cost = cost[np.searchsorted(classes, y_true), np.searchsorted(classes, y_pred)]
    if normalize is None:
        expected = np.sum(w * row_cost)
    elif normalize == "all":
        expected = np.sum(w * row_cost) / np.sum(w)
    else:  # the sum over true classes of the class-conditional mean cost
        expected, empty = 0.0, False
        for label in classes:
            rows = y_true == label
            if w[rows].sum() > 0:
                expected += np.sum((w * row_cost)[rows]) / np.sum(w[rows])
            else:  # a class without true rows adds 0.0, with a warning
                empty = True
        if empty:
            with pytest.warns(UndefinedMetricWarning, match="no class-conditional cost"):
                value = assay.expected_cost(
                    y_true, y_pred, cost, sample_weight=weight, normalize="true"
                )
            assert value == pytest.approx(expected, rel=COST_RTOL, abs=1e-12)
            return
    value = assay.expected_cost(y_true, y_pred, cost, sample_weight=weight, normalize=normalize)
    assert value == pytest.approx(expected, rel=COST_RTOL, abs=1e-12)


def test_zero_one_cost_is_the_error_rate():
    # Wu, "Evaluation", section 2.2: minimizing the error rate is cost minimization with
    # the cost matrix [[0, 1], [1, 0]].
    y_true, y_pred = rows_from_matrix([[8, 2], [20, 970]], [1, 0])
    cost = assay.expected_cost(y_true, y_pred, [[0, 1], [1, 0]])
    assert cost == pytest.approx(assay.error_rate(y_true, y_pred), rel=1e-15)


def test_profit_example_of_honavar():
    # Honavar, "Evaluating model performance", "Introducing Costs & Benefits": confusion
    # [[8, 2], [20, 970]] with the
    # actual-1 row first; profit $10 per responder reached, cost $1 per offer sent to a
    # non-responder (profit matrix [[80, 0], [-20, 0]] in totals): net profit $60.
    y_true, y_pred = rows_from_matrix([[8, 2], [20, 970]], [1, 0])
    cost = [[-10, 0], [1, 0]]  # a cost is a negative profit
    total = assay.expected_cost(y_true, y_pred, cost, labels=[1, 0], normalize=None)
    assert total == -60.0
    assert assay.expected_cost(y_true, y_pred, cost, labels=[1, 0]) == pytest.approx(-0.06)


def test_exercise_9_of_wu():
    # Wu, "Evaluation", exercise 9: total cost tr(C^T A); tr(C^T Â) with Â row-normalized.
    matrix = np.array([[5, 1, 0], [2, 6, 2], [0, 0, 4]])
    cost = np.array([[0.0, 2.0, 8.0], [1.0, 0.0, 3.0], [6.0, 1.0, 0.0]])
    y_true, y_pred = rows_from_matrix(matrix, [0, 1, 2])
    total = assay.expected_cost(y_true, y_pred, cost, normalize=None)
    assert total == np.trace(cost.T @ matrix) == 2 + 2 + 6
    normalized = matrix / matrix.sum(axis=1, keepdims=True)
    per_class = assay.expected_cost(y_true, y_pred, cost, normalize="true")
    assert per_class == pytest.approx(np.trace(cost.T @ normalized), rel=1e-15)
    assert per_class == pytest.approx(2 / 6 + (2 + 6) / 10 + 0 / 4, rel=1e-15)


def test_cost_matrix_of_section_2_2():
    # Wu, "Evaluation", eq. 13: c00 = 0, c01 = 10, c10 = 1000, c11 = 10 (0 qualified, 1 defective).
    y_true = [0, 0, 0, 1, 1]
    y_pred = [0, 1, 0, 0, 1]
    cost = [[0, 10], [1000, 10]]
    assert assay.expected_cost(y_true, y_pred, cost, normalize=None) == 1020.0
    assert assay.expected_cost(y_true, y_pred, cost) == 204.0


# --------------------------------------------------------------------------------------
# bayes_decision


@given(
    data=st.data(),
    k=st.integers(1, 5),
    n=st.integers(1, 50),
)
def test_bayes_decision_minimises_the_conditional_risk(data, k, n):
    counts = data.draw(hnp.arrays(np.int64, (n, k), elements=st.integers(0, 4)))
    counts[counts.sum(axis=1) == 0, 0] = 1
    proba = counts / counts.sum(axis=1, keepdims=True)
    cost = data.draw(hnp.arrays(np.int64, (k, k), elements=st.integers(-3, 10)))
    decisions = assay.bayes_decision(proba, cost)
    assert decisions.dtype == np.int64
    risk = proba @ cost
    np.testing.assert_allclose(risk[np.arange(n), decisions], risk.min(axis=1), atol=1e-12)
    names = np.array([f"class {j}" for j in range(k)])
    np.testing.assert_array_equal(
        assay.bayes_decision(proba, cost, labels=names), names[decisions]
    )


def test_ties_go_to_the_first_class():
    np.testing.assert_array_equal(assay.bayes_decision([[0.5, 0.5]], [[0, 1], [1, 0]]), [0])
    np.testing.assert_array_equal(assay.bayes_decision([[0.25] * 4], np.zeros((4, 4))), [0])


def _exercise_7_posteriors(x):
    """Pr(y | x) of Wu, "Evaluation", exercise 7: p(x | 1) = N(-1, 0.25), p(x | 2) = N(1, 0.25)
    (0.25 the variance), equal priors."""
    log_1 = -((x + 1) ** 2) / (2 * 0.25)
    log_2 = -((x - 1) ** 2) / (2 * 0.25)
    p_1 = 1.0 / (1.0 + np.exp(log_2 - log_1))
    return np.column_stack([p_1, 1.0 - p_1])


def test_exercise_7_of_wu():
    x = np.linspace(-3, 3, 6001)
    proba = _exercise_7_posteriors(x)
    # (c) 0-1 costs: decide the most probable class, class 1 iff x < 0
    decided = assay.bayes_decision(proba, [[0, 1], [1, 0]], labels=[1, 2])
    away = np.abs(x) > 1e-9
    np.testing.assert_array_equal(decided[away], np.where(x < 0, 1, 2)[away])
    # (d) costs [[0, 10], [1, 0]]: decide 1 iff Pr(2|x) < 10 Pr(1|x), i.e. the likelihood
    # ratio exp(8x) < 10, i.e. x < ln(10) / 8 = 0.2878...
    threshold = math.log(10) / 8
    decided = assay.bayes_decision(proba, [[0, 10], [1, 0]], labels=[1, 2])
    away = np.abs(x - threshold) > 1e-9
    np.testing.assert_array_equal(decided[away], np.where(x < threshold, 1, 2)[away])


# --------------------------------------------------------------------------------------
# Errors


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (
            ([0, 1], [0, 1], [[0, 1, 2], [1, 0, 2]]),
            {},
            r"must be a square 2-D array, got shape \(2, 3\)",
        ),
        (([0, 1], [0, 1], [0, 1]), {}, r"must be a square 2-D array, got shape \(2,\)"),
        (([0, 1], [0, 1], np.zeros((3, 3))), {}, r"has shape \(3, 3\) but there are 2 classes"),
        (([0, 1], [0, 1], [[0, np.nan], [1, 0]]), {}, "`cost_matrix` contains 1 NaN values"),
        (([0, 1], [0, 1], [[0, np.inf], [1, 0]]), {}, "`cost_matrix` contains 1 infinite"),
        (([0, 1], [0, 1], [["a", "b"], ["c", "d"]]), {}, "`cost_matrix` must be numeric"),
        (([0, 1], [0, 1], np.zeros((0, 0))), {}, "`cost_matrix` is empty"),
        (
            ([0, 1, 2], [0, 1, 1], np.zeros((2, 2))),
            {"labels": [0, 1]},
            r"labels \[2\] that are not in `labels`",
        ),
        (([0, 1], [0, 1], np.zeros((2, 2))), {"normalize": "pred"}, "`normalize` must be one of"),
        (([0, 1], [0], np.zeros((2, 2))), {}, "different lengths"),
        (([0, 1], [0, 1], np.zeros((2, 2))), {"sample_weight": [0, 0]}, "sums to zero"),
        (([0.5, 1], [0, 1], np.zeros((2, 2))), {}, "continuous values"),
    ],
)
def test_expected_cost_errors(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        assay.expected_cost(*args, **kwargs)


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (([0.5, 0.5], [[0, 1], [1, 0]]), {}, "`proba` must be 2-D"),
        (([[1.2, -0.2]], [[0, 1], [1, 0]]), {}, "2 values outside"),
        (([[0.5, np.nan]], [[0, 1], [1, 0]]), {}, "`proba` contains 1 NaN values"),
        (
            ([[0.5, 0.4]], [[0, 1], [1, 0]]),
            {},
            r"1 rows that do not sum to 1 \(e.g. row 0 sums to 0.9",
        ),
        ((np.zeros((0, 2)), [[0, 1], [1, 0]]), {}, "`proba` is empty"),
        (([[0.5, 0.5]], [[0, 1, 1], [1, 0, 1]]), {}, "must be a square 2-D array"),
        (([[0.5, 0.5]], np.eye(3)), {}, r"has shape \(3, 3\) but there are 2 classes"),
        (([[0.5, 0.5]], [[0, np.inf], [1, 0]]), {}, "`cost_matrix` contains 1 infinite"),
        (
            ([[0.5, 0.5]], [[0, 1], [1, 0]]),
            {"labels": ["a"]},
            "`labels` must be 1-D with one label",
        ),
        (([[0.5, 0.5]], [[0, 1], [1, 0]]), {"labels": ["a", "a"]}, "repeated labels"),
    ],
)
def test_bayes_decision_errors(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        assay.bayes_decision(*args, **kwargs)

"""Does each model beat the majority-class baseline?  :func:`assay.compare_to_baseline`.

Per model, one-sided paired tests ("the model is better") against the predictor whose
values fill the report's baseline column: the test set's majority class (by weight; a tie
goes to the positive class, as in that column), passed to ``compare_to_baseline`` as
``majority_class``.

- ``error_rate``: the error rate at the report's threshold.  Unweighted, McNemar's exact
  test of the model's predictions against the baseline's (O(n), nothing resampled); with
  weights, the paired bootstrap (``compare_to_baseline``'s choice: McNemar's counts are
  unweighted).
- ``expected_cost``: with a cost matrix, the expected cost by the paired bootstrap, with
  the report's resamples, confidence level and seed.

With groups both are left out (a note says why): McNemar's test and
``compare_to_baseline``'s bootstrap treat the rows as independent, which grouped rows are
not.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from assay.reports._result import BaselineTest

__all__ = ["ALTERNATIVE", "GROUPS_NOTE", "baseline_row", "baseline_tests"]

ALTERNATIVE = "less"
"""The model is better: its error rate (or expected cost) is lower than the baseline's."""

GROUPS_NOTE = (
    "The tests against the majority-class baseline are left out: McNemar's test and "
    "compare_to_baseline's paired bootstrap treat the rows as independent, and this report "
    "has groups."
)


def baseline_row(key: str, name: str, result: Any, confidence_level: float) -> BaselineTest:
    if hasattr(result, "difference"):  # the paired bootstrap (ComparisonResult)
        low, high = result.confidence_interval
        estimate, interval = float(result.difference), (float(low), float(high))
        statistic, method = None, f"{result.interval} paired bootstrap"
    else:  # McNemar's test: its estimate is the accuracy difference, model - baseline
        estimate, interval = 0.0 - float(result.estimate), None  # 0.0, never -0.0
        statistic, method = float(result.statistic), result.method
    pvalue = float(result.pvalue)
    better = estimate < 0 if ALTERNATIVE == "less" else estimate > 0
    return BaselineTest(
        key=key,
        name=name,
        estimate=estimate,
        interval=interval,
        statistic=statistic,
        pvalue=pvalue,
        alternative=ALTERNATIVE,
        method=method,
        confidence_level=confidence_level,
        beats_baseline=bool(pvalue < 1 - confidence_level and better),
    )


def baseline_tests(
    y_true: np.ndarray,
    y_pred: np.ndarray,
    majority: int,
    cost_matrix: Any,
    resampled: dict[str, Any],
) -> tuple[BaselineTest, ...]:
    """The model's tests against the majority-class predictor (``majority`` for every row).

    ``resampled`` holds the report's resampling keywords; with groups there are no tests.
    """
    import assay

    if resampled["groups"] is not None:
        return ()
    common = {
        "majority_class": majority,
        "alternative": ALTERNATIVE,
        "n_resamples": resampled["n_resamples"],
        "confidence_level": resampled["confidence_level"],
        "sample_weight": resampled["sample_weight"],
        "rng": resampled["rng"],
        "resampling": resampled.get("resampling", "multinomial"),
    }
    level = resampled["confidence_level"]
    error = assay.compare_to_baseline("error_rate", y_true, y_pred, **common)
    rows = [baseline_row("error_rate", "error rate", error, level)]
    if cost_matrix is not None:
        cost = assay.compare_to_baseline(
            assay.expected_cost, y_true, y_pred, cost_matrix=np.asarray(cost_matrix), **common
        )
        rows.append(baseline_row("expected_cost", "expected cost", cost, level))
    return tuple(rows)

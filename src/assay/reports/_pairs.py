"""The rows of the report's paired tests, and Holm's adjustment of their p-values."""

from __future__ import annotations

import math
from dataclasses import replace
from itertools import combinations
from typing import Any

from assay.reports._result import PairReport, TestRow


def paired_test_row(key: str, name: str, result: Any, method: str) -> TestRow:
    """A paired test's row; its Holm-adjusted p-value is filled in across the pairs."""
    interval = result.confidence_interval
    statistic = getattr(result, "statistic", None)
    estimate = getattr(result, "difference", None)
    return TestRow(
        key,
        name,
        float(result.estimate if estimate is None else estimate),
        None if interval is None else (float(interval[0]), float(interval[1])),
        None if statistic is None else float(statistic),
        float(result.pvalue),
        math.nan,
        method,
    )


def holm_pairs(
    names: list[str], tested: list[list[TestRow]], notes: tuple[str, ...] = ()
) -> tuple[PairReport, ...]:
    """The pairs' reports, with Holm's adjustment, one family per test: that test's
    p-values across the pairs."""
    import assay

    for key in dict.fromkeys(row.key for rows in tested for row in rows):
        where = [(i, j) for i, rows in enumerate(tested) for j, row in enumerate(rows)
                 if row.key == key]  # fmt: skip
        adjusted = assay.adjust_pvalues([tested[i][j].pvalue for i, j in where], method="holm")
        for (i, j), value in zip(where, adjusted, strict=True):
            tested[i][j] = replace(tested[i][j], pvalue_holm=float(value))
    return tuple(
        PairReport(a, b, tuple(rows), notes)
        for (a, b), rows in zip(combinations(names, 2), tested, strict=True)
    )

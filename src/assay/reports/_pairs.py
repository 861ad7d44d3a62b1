"""The rows of the report's paired tests, and Holm's adjustment of their p-values."""

from __future__ import annotations

import math
from dataclasses import replace
from itertools import combinations
from typing import Any

import numpy as np

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


WEIGHTED_PAIRS_NOTE = "McNemar's test is left out: it needs unweighted counts."


def pair_reports(
    names: list[str],
    y_true: np.ndarray,
    y_scores: dict[str, np.ndarray],
    y_preds: dict[str, np.ndarray],
    confidence_level: float,
    common: dict[str, Any],
    resampled: dict[str, Any],
    auc_pairs: dict[tuple[str, str], tuple[Any, Any]],
    f1_pairs: dict[tuple[str, str], Any] | None = None,
) -> tuple[PairReport, ...]:
    """Every pair's DeLong test, McNemar's test (unweighted, ungrouped), and the paired
    bootstrap of ROC AUC (``auc_pairs``) and F1 (``f1_pairs``, or ``compare``'s),
    Holm-adjusted across the pairs."""
    import assay

    weighted = common["sample_weight"] is not None
    grouped = resampled["groups"] is not None
    tested: list[list[TestRow]] = []
    for a, b in combinations(names, 2):
        delong = assay.delong_test(
            y_true, y_scores[a], y_scores[b], confidence_level=confidence_level, **common
        )
        rows = [
            paired_test_row("delong", "ROC AUC difference, DeLong's test", delong, delong.method)
        ]
        if not (weighted or grouped):
            test = assay.mcnemar(y_true, y_preds[a], y_preds[b])
            rows.append(
                paired_test_row(
                    "mcnemar", "accuracy difference, McNemar's test", test, test.method
                )
            )
        auc = auc_pairs[(a, b)][0]
        if f1_pairs is not None:  # from the report's draw
            f1 = f1_pairs[(a, b)]
        else:
            f1 = assay.compare(
                assay.f1_score, y_true, y_preds[a], y_preds[b], zero_division=np.nan,
                **resampled,
            )  # fmt: skip
        for key, label, result in (
            ("roc_auc_bootstrap", "ROC AUC difference", auc),
            ("f1_bootstrap", "F1 difference", f1),
        ):
            method = f"{result.interval} paired bootstrap"
            rows.append(paired_test_row(key, f"{label}, paired bootstrap", result, method))
        tested.append(rows)
    notes: tuple[str, ...] = ()
    if weighted:
        notes = (WEIGHTED_PAIRS_NOTE,)
    elif grouped:
        notes = ("McNemar's test is left out: it treats the rows as independent, and this "
                 "report has groups.",)  # fmt: skip
    return holm_pairs(names, tested, notes)

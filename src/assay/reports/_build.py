"""``assay.report``: every number comes from one call of a public assay function, but for
the bootstrap rows, paired bootstraps and bands of the default report.

Those come from the report's one draw of replicates (:mod:`assay.reports._draw`) when the
rows are unweighted and ungrouped and the bootstrap is multinomial: every model's bootstrap
intervals and bands, and every pair's ROC AUC and F1 differences, are read off the same
replicates (:mod:`assay.reports._drawn_cells` for the threshold metrics).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from assay._files import read_columns
from assay._procedure_checks import check_confidence_level, check_n_resamples
from assay._validation import resolve_seed
from assay.reports._baseline_tests import GROUPS_NOTE, baseline_tests
from assay.reports._curves import CURVE_GRIDS, poisson_replicates, with_curves
from assay.reports._draw import draw_replicates
from assay.reports._drawn_cells import cell_matrices, drawn_f1_pairs, drawn_metric, joint_codes
from assay.reports._pairs import pair_reports
from assay.reports._progress import Steps, Warnings
from assay.reports._ranked import RankedModel, ranked_model, ranking_metrics
from assay.reports._replicates import (
    auc_bootstrap,
    auc_comparisons,
    drawn_comparisons,
    shared_replicates,
)
from assay.reports._resampling import Arguments, check_resampling, is_dask_frame
from assay.reports._result import (
    MetricRow,
    ModelReport,
    Report,
    Settings,
    data_summary,
)

DELONG_GROUPS_NOTE = (
    "DeLong's interval and test treat the rows as independent, which grouped rows are not: "
    "with groups, read the bootstrap rows, which resample whole groups."
)

# How many of the first rows with a missing value an error message lists.
_SHOWN_ROWS = 5


def _names(value: Any, argument: str, allow_none: bool = False) -> list[str]:
    if value is None and allow_none:
        return []
    names = [value] if isinstance(value, str) else list(value) if value is not None else []
    if not names or not all(isinstance(name, str) for name in names):
        raise ValueError(f"`{argument}` must be a column name or a list of them; got {value!r}.")
    if len(set(names)) != len(names):
        raise ValueError(f"`{argument}` names a column more than once: {names!r}.")
    return names


def _optional_name(value: Any, argument: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ValueError(f"`{argument}` must be a column name or None; got {value!r}.")
    return value


def _read(data: Any, columns: list[str]) -> tuple[dict[str, np.ndarray], str]:
    if isinstance(data, (str, os.PathLike)):
        return read_columns(data, columns), os.fspath(data)
    if hasattr(data, "columns") and hasattr(data, "__getitem__"):  # a DataFrame
        present = [str(name) for name in data.columns]
        source = f"{type(data).__name__} with {len(data):,} rows"
    elif isinstance(data, Mapping):
        present = [str(name) for name in data]
        source = f"mapping of {len(present)} columns"
    else:
        raise TypeError(
            "`data` must be a mapping of column names to arrays, a DataFrame or a path to "
            f"a CSV or Parquet file; got {type(data).__name__}."
        )
    absent = [name for name in columns if name not in present]
    if absent:
        raise ValueError(
            f"column(s) {', '.join(repr(name) for name in absent)} not found in `data`; "
            f"its columns are {', '.join(repr(name) for name in present)}."
        )
    table = {}
    for name in columns:
        column = data[name]
        table[name] = column.to_numpy() if hasattr(column, "to_numpy") else np.asarray(column)
    lengths = {name: len(values) for name, values in table.items()}
    if len(set(lengths.values())) > 1:
        raise ValueError(f"the columns of `data` differ in length: {lengths}.")
    return table, source


def _missing(values: np.ndarray) -> np.ndarray:
    if values.dtype.kind == "f":
        return np.isnan(values)
    if values.dtype.kind == "O":
        return np.array(
            [item is None or (isinstance(item, float) and math.isnan(item)) for item in values],
            dtype=bool,
        )
    if values.dtype.kind == "M":
        return np.isnat(values)
    return np.zeros(len(values), dtype=bool)


def _drop_missing(table: dict[str, np.ndarray], dropna: bool) -> tuple[dict[str, Any], int]:
    masks = {name: _missing(values) for name, values in table.items()}
    any_missing = np.zeros(len(next(iter(table.values()))), dtype=bool)
    for name, mask in masks.items():
        if mask.any() and not dropna:
            rows = np.flatnonzero(mask)[:_SHOWN_ROWS].tolist()
            raise ValueError(
                f"column {name!r} has {int(mask.sum()):,} missing value(s) (first rows, "
                f"counted from 0: {', '.join(map(str, rows))}); drop those rows with "
                "dropna=True (--dropna)."
            )
        any_missing |= mask
    if not any_missing.any():  # no copy of the columns
        return table, 0
    keep = ~any_missing
    return {name: values[keep] for name, values in table.items()}, int(any_missing.sum())


def _plain(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def _positive_label(labels: list[Any], pos_label: Any, target: str) -> Any:
    if pos_label is not None:
        for label in labels:
            if label == pos_label or (isinstance(pos_label, str) and str(label) == pos_label):
                return label
        raise ValueError(
            f"`pos_label` {pos_label!r} is not a label of column {target!r}: {labels}."
        )
    as_set = set(labels)
    for negative, positive in ((0, 1), (-1, 1), (False, True)):
        if as_set == {negative, positive} and all(not isinstance(x, str) for x in labels):
            return positive
    raise ValueError(
        f"column {target!r} holds labels {labels}; pass `pos_label` (--pos-label) to say "
        "which one is the positive class."
    )


def _float_column(values: np.ndarray, name: str) -> np.ndarray:
    try:
        return np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"column {name!r} must hold numbers; got {values[:3].tolist()}."
        ) from None


def _predicted(
    column: np.ndarray, name: str, labels: list[Any], positive: Any, target: str
) -> np.ndarray:
    """A prediction column as 0/1 bytes (1: the positive label)."""
    unknown = sorted({_plain(v) for v in np.unique(column)} - set(labels), key=str)
    if unknown:
        raise ValueError(
            f"column {name!r} holds labels {unknown} that are not labels of {target!r} ({labels})."
        )
    return (column == positive).astype(np.int8)


def _cost(cost: Any) -> tuple[tuple[float, float], tuple[float, float]] | None:
    if cost is None:
        return None
    try:
        matrix = np.asarray(cost, dtype=np.float64).reshape(2, 2)
    except (TypeError, ValueError):
        raise ValueError(
            "`cost` must be a 2 x 2 cost matrix [[c00, c01], [c10, c11]] (rows true, "
            f"columns predicted) or its 4 entries; got {cost!r}."
        ) from None
    if not np.isfinite(matrix).all():
        raise ValueError(f"`cost` must be finite; got {matrix.tolist()}.")
    return (
        (float(matrix[0, 0]), float(matrix[0, 1])),
        (float(matrix[1, 0]), float(matrix[1, 1])),
    )


def report(
    data: Any,
    *,
    target: str,
    scores: str | Sequence[str],
    pred: str | Sequence[str] | None = None,
    weight: str | None = None,
    group: str | None = None,
    pos_label: Any = None,
    threshold: float = 0.5,
    cost: Any = None,
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    rng: Any = None,
    resampling: str | None = None,
    dropna: bool = False,
    progress: bool = False,
) -> Report:
    """Evaluate one or more scored models on a labelled data set.

    Parameters
    ----------
    data : mapping, DataFrame, dask DataFrame or path
        A mapping of column names to arrays, a pandas DataFrame, or the path of a CSV file,
        a Parquet file, a directory of Parquet files or a glob pattern of them (only the
        named columns are read; Parquet needs pyarrow, the ``files`` extra).  A dask
        DataFrame is evaluated on Dask (the current client's cluster, see Notes).
    target : str
        The column of true labels (two distinct values).
    scores : str or list of str
        The columns of scores, one per model (higher means more likely positive).
    pred : str or list of str, optional
        Columns of predicted labels, one per score column; by default the prediction is
        ``score >= threshold``.
    weight : str, optional
        A column of sample weights.
    group : str, optional
        A column of groups (clusters): the bootstrap resamples whole groups.
    pos_label : optional
        The positive label; needed unless the labels are {0, 1}, {-1, 1} or booleans.
        A string matches a label whose text is that string (as on the command line).
    threshold : float, default=0.5
        Scores at or above it are predicted positive.
    cost : array-like, optional
        A 2 x 2 cost matrix ``[[c00, c01], [c10, c11]]`` (rows true, columns predicted):
        adds the expected cost (:func:`assay.expected_cost`).
    n_resamples : int, default=1000
        Bootstrap replicates of every resampled interval and paired difference.
    confidence_level : float, default=0.95
    rng : None, int or numpy.random.Generator
        Resolved once to the report's seed (``settings.rng_seed``); every resampled
        number is the assay function called with ``rng=settings.rng_seed``, or (the
        bootstrap rows, the paired bootstraps and the bands, see Notes) the report's draw.
    resampling : {"multinomial", "poisson"}, optional
        How the bootstrap draws its replicates (``settings.resampling``): n rows from the
        n rows (the classical bootstrap; the default on one machine), or every row
        counted Poisson(1) times (the default, and the only choice, on Dask).  The
        Poisson report of a dask DataFrame equals the Poisson report of the same rows on
        one machine, its curves' Poisson bands included; neither takes a ``group``.
    dropna : bool, default=False
        Drop the rows with a missing value in a used column (counted in
        ``data.n_dropped``) instead of raising.
    progress : bool, default=False
        Write a line on standard error before each long step, and the resampling
        functions' progress lines.

    Returns
    -------
    Report
        Per model: ROC AUC (DeLong and bootstrap intervals), average precision, AUC-PR,
        equal error rate; at the threshold the confusion matrix, error rate (Wilson
        interval), precision, recall, F1, MCC, balanced accuracy (bootstrap intervals) and
        the expected cost; each against the majority-class baseline, and one-sided paired
        tests that the model beats it (:func:`assay.compare_to_baseline` of the error rate
        and the expected cost; left out with groups); the ROC and
        precision-recall curves with simultaneous bootstrap bands. Per pair of models:
        DeLong's test, McNemar's test, paired bootstrap differences of ROC AUC and F1, with
        p-values Holm-adjusted across the pairs.

    Raises
    ------
    ValueError
        A column is absent or has missing values (without ``dropna``), the target does not
        hold exactly two labels, or an argument is invalid; ``resampling='multinomial'``
        with a dask DataFrame; ``group`` with ``resampling='poisson'``.

    Notes
    -----
    The majority-class baseline predicts the most frequent (by weight) class for every row
    (ties: the positive class) and gives every row the same score; its values are the
    same functions applied to that constant prediction and score.  The tests against it
    (``ModelReport.baseline_tests``) are :func:`assay.compare_to_baseline` with that class
    as ``majority_class`` and ``alternative='less'`` (the model's error rate or expected
    cost is lower): McNemar's exact test for the unweighted error rate, the paired
    bootstrap otherwise.

    Unweighted and ungrouped, with the multinomial bootstrap, the report draws ONE set
    of replicates (the classical, unstratified bootstrap, drawn over the first model's
    sorted rows as :func:`assay.compare` draws it) and reads every model's ROC AUC, ROC
    curve, precision-recall curve and confusion matrix off each replicate: a pair's
    replicate differences are exactly the difference of its two models' replicates.  The
    first model's ROC AUC interval (untied scores) and its ROC AUC pairs are those of
    :func:`assay.bootstrap` and :func:`assay.compare`; the bands are made as
    :func:`assay.roc_band` makes its own, from these unstratified replicates (the
    standalone bands keep the class sizes fixed).  The tests against the baseline are
    :func:`assay.compare_to_baseline`'s own draws.

    On Dask (a dask DataFrame) every number is computed by :mod:`assay.dask` or, for the
    confusion-matrix quantities, by the same single-machine code given the confusion
    cells summed over the partitions; no row reaches the client.  The report is the
    single-machine report with ``resampling='poisson'`` of the same rows, number for
    number (see the user guide page "A report of scored predictions").

    Examples
    --------
    >>> import numpy as np, assay
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 200)
    >>> data = {"y": y, "a": y + rng.normal(size=200), "b": y + rng.normal(size=200) * 2}
    >>> result = assay.report(data, target="y", scores=["a", "b"], n_resamples=50, rng=1)
    >>> round(result.model("a").row("roc_auc").estimate, 4)
    0.7574
    >>> result.model("a").row("roc_auc").estimate == assay.roc_auc_score(y, data["a"])
    True
    """
    score_names = _names(scores, "scores")
    pred_names = _names(pred, "pred", allow_none=True)
    if pred_names and len(pred_names) != len(score_names):
        raise ValueError(
            f"`pred` names {len(pred_names)} column(s) for {len(score_names)} score "
            "column(s); give one prediction column per score column."
        )
    if not isinstance(target, str):
        raise ValueError(f"`target` must be a column name; got {target!r}.")
    weight = _optional_name(weight, "weight")
    group = _optional_name(group, "group")
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float, np.number)):
        raise ValueError(f"`threshold` must be a number; got {threshold!r}.")
    if not math.isfinite(threshold):
        raise ValueError(f"`threshold` must be finite; got {threshold!r}.")
    cost_matrix = _cost(cost)
    n_resamples = check_n_resamples(n_resamples)
    confidence_level = check_confidence_level(confidence_level)
    on_dask = is_dask_frame(data)
    resampling = check_resampling(resampling, on_dask, group)
    seed = resolve_seed(rng)
    steps = Steps(progress)
    if on_dask:
        from assay.reports._dask import dask_report

        arguments = Arguments(
            target, score_names, pred_names, weight, pos_label, threshold, cost_matrix,
            n_resamples, confidence_level, seed, dropna, progress,
        )  # fmt: skip
        return dask_report(data, arguments, f"dask DataFrame of {data.npartitions} partitions")

    named = [target, *score_names, *pred_names, weight, group]
    columns = list(dict.fromkeys(name for name in named if name is not None))
    steps(f"reading {len(columns)} column(s)")
    table, source = _read(data, columns)
    table, n_dropped = _drop_missing(table, dropna)
    n_rows = len(table[target])
    labels = sorted({_plain(value) for value in np.unique(table[target])}, key=str)
    if len(labels) != 2:
        raise ValueError(
            f"column {target!r} must hold exactly two labels; it holds {len(labels)}: "
            f"{labels[:10]}."
        )
    positive = _positive_label(labels, pos_label, target)
    # labels and predictions as 0/1 bytes: one byte a row each, whatever the columns
    y_true = (table[target] == positive).astype(np.int8)
    sample_weight = None if weight is None else _float_column(table[weight], weight)
    groups = None if group is None else table[group]
    y_scores = {name: _float_column(table[name], name) for name in score_names}
    y_preds = {}
    for index, name in enumerate(score_names):
        if pred_names:
            y_preds[name] = _predicted(table[pred_names[index]], pred_names[index], labels,
                                       positive, target)  # fmt: skip
        else:
            y_preds[name] = (y_scores[name] >= threshold).astype(np.int8)
    # The label and prediction columns live on as bytes: the columns read are let go
    # (a file's label column is a third of the columns read at two models).
    del table
    # The public functions take them as booleans (the same bytes): their label checks and
    # confusion counts then need no int64 copy of a column.
    truth = y_true.view(np.bool_)
    decisions = {name: prediction.view(np.bool_) for name, prediction in y_preds.items()}

    if sample_weight is None:
        positive_weight = float(np.count_nonzero(y_true))
        total_weight = float(n_rows)
    else:
        positive_weight = float(sample_weight[y_true == 1].sum())
        total_weight = float(sample_weight.sum())
    majority, summary = data_summary(
        source, target, n_rows, n_dropped, labels, positive, (positive_weight, total_weight),
        weight=weight, group=group,
    )  # fmt: skip
    settings = Settings(threshold, cost_matrix, n_resamples, confidence_level, seed, resampling)
    common = {"sample_weight": sample_weight}
    resampled = {
        "n_resamples": n_resamples,
        "confidence_level": confidence_level,
        "groups": groups,
        "sample_weight": sample_weight,
        "rng": seed,
        "resampling": resampling,
        "progress": progress,
    }
    caught = Warnings()
    with caught.about("majority-class baseline"):
        baseline = _baseline(truth, majority, cost_matrix, common)
    ranked = {}
    for name in score_names:  # one sort of each model for its ranking numbers
        with caught.about(f"model {name!r}"):
            ranked[name] = ranked_model(truth, y_scores[name], sample_weight, confidence_level)
    drawn = None
    matrices: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    f1_pairs = None
    if resampling == "multinomial" and sample_weight is None and groups is None:
        # one draw: every model's ROC AUC replicates, curves and confusion matrices
        steps("bootstrap replicates")
        codes = joint_codes(y_true, [y_preds[name] for name in score_names])
        drawn = draw_replicates(
            y_true, y_scores, CURVE_GRIDS, n_resamples, seed, progress, codes=codes
        )
        with caught.about("paired tests"):
            estimates = {name: ranked[name].roc_auc for name in score_names}
            auc_pairs, auc_replicates = drawn_comparisons(
                score_names, estimates, drawn.models, resampled
            )
        if codes is not None and drawn.cells is not None:
            data_cells = np.bincount(codes, minlength=drawn.cells.shape[1])[None, :]
            for index, name in enumerate(score_names):
                matrices[name] = (
                    cell_matrices(drawn.cells, index),
                    cell_matrices(data_cells, index)[0],
                )
            with caught.about("paired tests"):
                f1_pairs = drawn_f1_pairs(score_names, truth, decisions, matrices, resampled)
    else:
        if len(score_names) > 1:
            steps("paired bootstrap of ROC AUC")
        with caught.about("paired tests"):
            auc_pairs = auc_comparisons(score_names, truth, y_scores, resampled)
        auc_replicates = shared_replicates(score_names, auc_pairs)
    models = []
    for index, name in enumerate(score_names):
        steps(f"model {name!r}")
        prediction = pred_names[index] if pred_names else f"{name} >= {threshold}"
        with caught.about(f"model {name!r}"):
            models.append(
                _model(
                    name,
                    prediction,
                    truth,
                    y_scores[name],
                    decisions[name],
                    ranked[name],
                    cost_matrix,
                    confidence_level,
                    common,
                    resampled,
                    baseline,
                    auc_replicates.get(name),
                    matrices.get(name),
                )
            )
        with caught.about(f"model {name!r} against the majority-class baseline"):
            tests = baseline_tests(truth, decisions[name], majority, cost_matrix, resampled)
            models[-1] = replace(models[-1], baseline_tests=tests)
    steps("paired tests")
    with caught.about("paired tests"):
        pairs = pair_reports(
            score_names, truth, y_scores, decisions, confidence_level, common, resampled,
            auc_pairs, f1_pairs,
        )  # fmt: skip
    steps("curves")
    with caught.about("curves"):
        replicates = None if drawn is None else drawn.models
        poisson = None
        if resampling == "poisson" and sample_weight is None:
            poisson = poisson_replicates(truth, y_scores, settings)
        curved, notes = with_curves(tuple(models), replicates, summary, settings, poisson)
    caught.emit()
    if group is not None:
        notes = (*notes, DELONG_GROUPS_NOTE, GROUPS_NOTE)
    return Report(summary, settings, curved, pairs, notes)


def _bounds(interval: Any) -> tuple[float, float]:
    return (float(interval[0]), float(interval[1]))


# The threshold metrics with bootstrap intervals: key, name, function, keywords.
def _threshold_metrics(cost_matrix: Any) -> list[tuple[str, str, Any, dict[str, Any]]]:
    import assay

    undefined: dict[str, Any] = {"zero_division": np.nan}
    metrics: list[tuple[str, str, Any, dict[str, Any]]]
    metrics = [
        ("precision", "precision", assay.precision_score, undefined),
        ("recall", "recall", assay.recall_score, undefined),
        ("f1", "F1", assay.f1_score, undefined),
        ("mcc", "MCC", assay.matthews_corrcoef, undefined),
        ("balanced_accuracy", "balanced accuracy", assay.balanced_accuracy_score, {}),
    ]
    if cost_matrix is not None:
        cost = {"cost_matrix": np.asarray(cost_matrix)}
        metrics.append(("expected_cost", "expected cost", assay.expected_cost, cost))
    return metrics


def _baseline(
    y_true: np.ndarray, majority: int, cost_matrix: Any, common: dict
) -> dict[str, float]:
    """The metrics of the majority-class predictor (a constant prediction and score)."""
    import assay
    from assay.metrics._sorted import sort_binary

    constant_pred = np.full(len(y_true), bool(majority))
    constant_score = np.zeros(len(y_true))
    values = {"roc_auc": float(assay.roc_auc_score(y_true, constant_score, **common))}
    values.update(ranking_metrics(sort_binary(y_true, constant_score, **common)))
    values["error_rate"] = float(assay.error_rate(y_true, constant_pred, **common))
    for key, _, function, keywords in _threshold_metrics(cost_matrix):
        values[key] = float(function(y_true, constant_pred, **keywords, **common))
    return values


def _model(
    name: str,
    prediction: str,
    y_true: np.ndarray,
    score: np.ndarray,
    y_pred: np.ndarray,
    ranked: RankedModel,
    cost_matrix: Any,
    confidence_level: float,
    common: dict,
    resampled: dict,
    baseline: dict[str, float],
    auc_replicates: tuple[float, np.ndarray] | None,
    drawn_matrices: tuple[np.ndarray, np.ndarray] | None = None,
) -> ModelReport:
    import assay

    delong = ranked.delong
    booted = auc_bootstrap(y_true, score, auc_replicates, resampled)
    rows = [
        MetricRow(
            "roc_auc",
            "ROC AUC",
            float(delong.estimate),
            _bounds(delong.confidence_interval),
            "DeLong (logit)",
            baseline["roc_auc"],
        ),
        MetricRow(
            "roc_auc_bootstrap",
            "ROC AUC",
            float(booted.estimate),
            _bounds(booted.confidence_interval),
            "percentile bootstrap",
            baseline["roc_auc"],
        ),
    ]
    names = {"average_precision": "average precision", "pr_auc": "AUC-PR (trapezoid)"}
    names["equal_error_rate"] = "equal error rate"
    for key, value in ranked.ranking.items():
        rows.append(MetricRow(key, names[key], value, None, None, baseline[key]))
    matrix = assay.confusion_matrix(y_true, y_pred, labels=[0, 1], **common)
    error = assay.error_rate_ci(y_true, y_pred, confidence_level=confidence_level, **common)
    rows.append(
        MetricRow(
            "error_rate",
            "error rate",
            float(error.estimate),
            _bounds(error.confidence_interval),
            "Wilson",
            baseline["error_rate"],
        )
    )
    for key, label, function, keywords in _threshold_metrics(cost_matrix):
        result = None
        if drawn_matrices is not None:  # the report's draw: its replicates' matrices, the data's
            result = drawn_metric(function, keywords, y_true, y_pred, *drawn_matrices, resampled)
        if result is None:
            result = assay.bootstrap(function, y_true, y_pred, **resampled, **keywords)
        rows.append(
            MetricRow(
                key,
                label,
                float(result.estimate),
                _bounds(result.confidence_interval),
                "percentile bootstrap",
                baseline[key],
            )
        )
    cells = (
        (float(matrix[0, 0]), float(matrix[0, 1])),
        (float(matrix[1, 0]), float(matrix[1, 1])),
    )
    return ModelReport(name, prediction, cells, tuple(rows))

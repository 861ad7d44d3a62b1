"""``assay.report`` of a dask DataFrame: the one-machine Poisson report, computed on Dask.

Every number is either a function of :mod:`assay.dask` (ROC AUC with DeLong's interval,
its Poisson bootstrap, AP, AUC-PR, EER, DeLong's test, the paired Poisson bootstrap of
ROC AUC) or the single-machine code given cells summed over the partitions (the
confusion matrices, their Wilson interval and Poisson bootstraps, McNemar's test, the
paired bootstrap of F1, the majority-class baseline: :mod:`assay.reports._cells`).  The
Dask functions are built lazily and computed together, so the calls on the same score
column share their shuffles (two: DeLong's and the scans'); only counts and ``O(B)``
replicate vectors reach the client.

With sample weights the threshold metrics' bootstraps, the paired bootstrap of F1 and the
tests against the baseline are those of :mod:`assay.dask` (a weighted row draws its own
Poisson count, keyed by its position, so the cells cannot be summed before the draw), and
McNemar's test is left out, as on one machine.

What the Dask report does not do, and says so: groups (a multinomial draw of whole
groups: refused, as with ``resampling='poisson'`` on one machine.  The curves' Poisson
bands are drawn bucket by bucket (:mod:`assay.dask._bands`): each model's Poisson
replicates of the one-machine report, from the shuffle and the drawn totals of its
bootstrap of ROC AUC (the same tasks).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from assay.dask._confusion import Outcome
from assay.reports._baseline_tests import ALTERNATIVE, baseline_row
from assay.reports._build import (
    _baseline,
    _bounds,
    _plain,
    _positive_label,
    _threshold_metrics,
)
from assay.reports._cells import (
    as_matrix,
    baseline_joint,
    cells_bootstrap,
    cells_compare,
    cells_error_rate_ci,
    cells_mcnemar,
    class_rows,
    metric_of_cells,
)
from assay.reports._curves import CURVE_GRIDS, with_curves
from assay.reports._pairs import WEIGHTED_PAIRS_NOTE, holm_pairs, paired_test_row
from assay.reports._progress import Steps, Warnings
from assay.reports._resampling import Arguments
from assay.reports._result import (
    BaselineTest,
    MetricRow,
    ModelReport,
    PairReport,
    Report,
    Settings,
    TestRow,
    data_summary,
)

__all__ = ["dask_report"]

_RANKING_NAMES = {
    "average_precision": ("average precision", "average_precision_score"),
    "pr_auc": ("AUC-PR (trapezoid)", "pr_auc_score"),
    "equal_error_rate": ("equal error rate", "equal_error_rate"),
}


def _import_dask() -> Any:
    try:
        import distributed  # noqa: F401

        import assay.dask
    except ImportError as error:
        raise ImportError(
            "A report on Dask needs dask[dataframe] and distributed; install them with "
            "`pip install 'assay[dask]'`."
        ) from error
    return assay.dask


def _checked_frame(frame: Any, arguments: Arguments) -> tuple[Any, int]:
    """The used columns, without the rows with a missing value (``dropna``), and the
    number of rows dropped."""
    import dask

    named = [arguments.target, *arguments.scores, *arguments.pred, arguments.weight]
    columns = list(dict.fromkeys(name for name in named if name is not None))
    present = [str(name) for name in frame.columns]
    absent = [name for name in columns if name not in present]
    if absent:
        raise ValueError(
            f"column(s) {', '.join(repr(name) for name in absent)} not found in `data`; "
            f"its columns are {', '.join(repr(name) for name in present)}."
        )
    frame = frame[columns]
    missing, n_incomplete = dask.compute(
        [frame[name].isna().sum() for name in columns], frame.isna().any(axis=1).sum()
    )
    for name, count in zip(columns, missing, strict=True):
        if count and not arguments.dropna:
            raise ValueError(
                f"column {name!r} has {int(count):,} missing value(s); drop those rows with "
                "dropna=True (--dropna)."
            )
    if n_incomplete:
        frame = frame.dropna(subset=columns)
    numbers = [*arguments.scores, *([arguments.weight] if arguments.weight else [])]
    for name in numbers:
        if frame[name].dtype.kind not in "biuf":
            raise ValueError(
                f"column {name!r} must hold numbers; its type is {frame[name].dtype}."
            )
    return frame, int(n_incomplete)


def _labels(column: Any) -> list[Any]:
    return sorted({_plain(value) for value in column.drop_duplicates().compute()}, key=str)


def _coded(frame: Any, arguments: Arguments, labels: list[Any], positive: Any) -> Any:
    """The labels and predictions as 0/1 bytes and the scores as floats: columns ``y``,
    ``score_i`` and ``pred_i`` of model ``i``, and ``w`` (the weights as floats)."""
    target = arguments.target
    coded = {"y": (frame[target] == positive).astype("int8")}
    if arguments.weight is not None:
        coded["w"] = frame[arguments.weight].astype("float64")
    for index, name in enumerate(arguments.scores):
        score = frame[name].astype("float64")
        coded[f"score_{index}"] = score
        if arguments.pred:
            column = arguments.pred[index]
            unknown = sorted(set(_labels(frame[column])) - set(labels), key=str)
            if unknown:
                raise ValueError(
                    f"column {column!r} holds labels {unknown} that are not labels of "
                    f"{target!r} ({labels})."
                )
            coded[f"pred_{index}"] = (frame[column] == positive).astype("int8")
        else:
            coded[f"pred_{index}"] = (score >= arguments.threshold).astype("int8")
    return frame.assign(**coded)[list(coded)]


def _joint(coded: Any, a: int, b: int) -> Any:
    """The lazy counts of the joint cells ``(t * 2 + pred_a) * 2 + pred_b``."""
    code = (coded["y"].astype("int64") * 2 + coded[f"pred_{a}"]) * 2 + coded[f"pred_{b}"]
    return code.value_counts()


def _dense(counts: Any) -> np.ndarray:
    joint = np.zeros(8, dtype=np.int64)
    for code, count in counts.items():
        joint[int(code)] = int(count)
    return joint


def _baseline_tests(
    matrix: np.ndarray, majority: int, cost_matrix: Any, cells: dict[str, Any]
) -> tuple[BaselineTest, ...]:
    """The model's tests against the majority-class predictor from its confusion cells:
    the numbers of :func:`assay.compare_to_baseline` on the rows (McNemar's test of the
    error rate; the paired Poisson bootstrap of the expected cost)."""
    import assay

    joint = baseline_joint(matrix, majority)
    # the error rate is lower exactly when the accuracy (McNemar's estimate) is higher
    error = cells_mcnemar(joint, alternative="greater" if ALTERNATIVE == "less" else "less")
    level = cells["confidence_level"]
    tests = [baseline_row("error_rate", "error rate", error, level)]
    if cost_matrix is not None:
        keywords = {"cost_matrix": np.asarray(cost_matrix)}
        majority_matrix = np.zeros((2, 2), dtype=np.int64)
        majority_matrix[:, majority] = matrix.sum(axis=1)
        estimates = (
            metric_of_cells(assay.expected_cost, matrix, keywords),
            metric_of_cells(assay.expected_cost, majority_matrix, keywords),
        )
        cost = cells_compare(
            assay.expected_cost, joint, estimates, keywords, alternative=ALTERNATIVE, **cells
        )
        tests.append(baseline_row("expected_cost", "expected cost", cost, level))
    return tuple(tests)


def _check_frequencies(weight: Any) -> None:
    """The weights are frequencies (whole numbers), as the Wilson interval of the error
    rate needs: the error of :func:`assay.error_rate_ci` on one machine, before any work."""
    fractional = weight[np.isfinite(weight) & (weight != weight.round())]
    n_fractional = int(fractional.size.compute())
    if n_fractional:
        example = float(fractional.head(1, npartitions=-1).iloc[0])
        raise ValueError(
            f"`sample_weight` contains {n_fractional} non-integer values (e.g. {example!r}); "
            "error_rate_ci reads weights as frequencies (repeat counts), which must be "
            "whole numbers."
        )


def _counted(coded: Any, weighted: bool) -> dict[str, Any]:
    """The rows, the positives and the class weights (lazy reductions)."""
    y = coded["y"]
    counted: dict[str, Any] = {"n_rows": y.size, "n_positive": y.sum()}
    if weighted:
        counted["positive_weight"] = coded["w"][y == 1].sum()
        counted["total_weight"] = coded["w"].sum()
    return counted


def _weighted_quantities(
    coded: Any, a: Arguments, majority: int, resampled: dict[str, Any]
) -> dict[str, Any]:
    """What a weighted report resamples on Dask, as :func:`assay.dask.bootstrap` and
    :func:`assay.dask.compare` resample it, from the rows drawn once for all: every
    threshold metric's bootstrap, every model's tests against the majority class, every
    pair's paired bootstrap of F1 (lazy :class:`Outcome` objects)."""
    import assay
    from assay.dask._cells_resampling import confusion_call, shared_result, shared_rows

    y = coded["y"]
    n_models = len(a.scores)
    columns = {"y_true": y, **{f"pred_{i}": coded[f"pred_{i}"] for i in range(n_models)}}
    columns["baseline"] = (y * 0 + majority).astype("int8")
    seed, b_count = resampled["rng"], resampled["n_resamples"]
    drawn = shared_rows(columns, coded["w"], seed, b_count)
    common = {"confidence_level": resampled["confidence_level"], "n_resamples": b_count,
              "seed": seed}  # fmt: skip
    bootstrap = {**common, "method": "percentile"}
    lazy: dict[str, Any] = {}
    for i in range(n_models):
        for key, _, function, keywords in _threshold_metrics(a.cost_matrix):
            call = confusion_call(function, bootstrap, **keywords)
            lazy[f"{key}_bootstrap_{i}"] = shared_result(call, drawn, (0, i + 1))
        tested: list[tuple[str, Any, dict[str, Any]]] = [("error_rate", assay.error_rate, {})]
        if a.cost_matrix is not None:
            cost = {"cost_matrix": np.asarray(a.cost_matrix)}
            tested.append(("expected_cost", assay.expected_cost, cost))
        against = {**common, "interval": "basic", "alternative": ALTERNATIVE}
        for key, function, keywords in tested:
            call = confusion_call(function, against, **keywords)
            lazy[f"{key}_baseline_{i}"] = shared_result(call, drawn, (0, i + 1, n_models + 1))
    paired = {**common, "interval": "basic", "alternative": "two-sided"}
    f1 = confusion_call(assay.f1_score, paired, zero_division=np.nan)
    for i, j in combinations(range(n_models), 2):
        lazy[f"f1_compare_{i}_{j}"] = shared_result(f1, drawn, (0, i + 1, j + 1))
    return lazy


def _curves_graph(y: Any, score: Any, seed: int, n_resamples: int) -> Any:
    """The lazy curves of the data and of every Poisson replicate of one model at the
    report's grids, from the ranking job of its ROC AUC (the same tasks, computed once)."""
    from assay.dask._bands import band_curves_graph
    from assay.dask._graph import ranking_job
    from assay.dask._ranking import SCAN_CALLS

    job = ranking_job(y, score, None, None, SCAN_CALLS["roc_auc_score"].multiclass_hint)
    return band_curves_graph(job, CURVE_GRIDS, seed, n_resamples)


def dask_report(frame: Any, arguments: Arguments, source: str) -> Report:
    """The report of the rows of the dask DataFrame ``frame`` (see the module)."""
    on_dask = _import_dask()
    import assay
    import dask

    a = arguments
    weighted = a.weight is not None
    steps = Steps(a.progress)
    steps("reading the columns on Dask")
    frame, n_dropped = _checked_frame(frame, a)
    labels = _labels(frame[a.target])
    if len(labels) != 2:
        raise ValueError(
            f"column {a.target!r} must hold exactly two labels; it holds {len(labels)}: "
            f"{labels[:10]}."
        )
    positive = _positive_label(labels, a.pos_label, a.target)
    coded = _coded(frame, a, labels, positive).persist()
    y = coded["y"]
    w = coded["w"] if weighted else None
    if weighted:
        _check_frequencies(w)
    n_models = len(a.scores)
    seed, level, b_count = a.seed, a.confidence_level, a.n_resamples
    resampled = {"n_resamples": b_count, "confidence_level": level, "rng": seed}
    # dask DataFrame reductions and the delayed graphs of assay.dask: computed apart (a
    # compute of both kinds would materialise the frame's expressions)
    counted = _counted(coded, weighted)
    for i, j in combinations(range(n_models), 2):
        counted[f"joint_{i}_{j}"] = _joint(coded, i, j)
    keys = list(counted)
    found: dict[str, Any] = dict(zip(keys, dask.compute(*counted.values()), strict=True))
    n_rows, n_positive = int(found["n_rows"]), int(found["n_positive"])
    positive_weight, total_weight = float(n_positive), float(n_rows)
    if weighted:
        positive_weight = float(found["positive_weight"])
        total_weight = float(found["total_weight"])
    majority, summary = data_summary(
        source, a.target, n_rows, n_dropped, labels, positive, (positive_weight, total_weight),
        weight=a.weight, group=None,
    )  # fmt: skip
    lazy: dict[str, Any] = {}
    for i in range(n_models):
        score = coded[f"score_{i}"]
        lazy[f"auc_ci_{i}"] = on_dask.auc_ci(
            y, score, confidence_level=level, sample_weight=w, compute=False
        )
        lazy[f"bootstrap_{i}"] = on_dask.bootstrap(
            assay.roc_auc_score, y, score, **resampled, sample_weight=w, compute=False
        )
        for key, (_, function) in _RANKING_NAMES.items():
            lazy[f"{key}_{i}"] = getattr(on_dask, function)(
                y, score, sample_weight=w, compute=False
            )
        lazy[f"matrix_{i}"] = on_dask.confusion_matrix(
            y, coded[f"pred_{i}"], labels=[0, 1], sample_weight=w, compute=False
        )
        if not weighted:  # the curves' Poisson replicates (weighted: no curves)
            lazy[f"curves_{i}"] = _curves_graph(y, score, seed, b_count)
    for i, j in combinations(range(n_models), 2):
        score_a, score_b = coded[f"score_{i}"], coded[f"score_{j}"]
        lazy[f"delong_{i}_{j}"] = on_dask.delong_test(
            y, score_a, score_b, confidence_level=level, sample_weight=w, compute=False
        )
        lazy[f"compare_{i}_{j}"] = on_dask.compare(
            assay.roc_auc_score, y, score_a, score_b, **resampled, sample_weight=w,
            compute=False,
        )  # fmt: skip
    if weighted:
        lazy.update(_weighted_quantities(coded, a, majority, resampled))
    steps(f"computing {len(lazy) + len(counted)} quantities on Dask")
    keys = list(lazy)
    found.update(zip(keys, dask.compute(*lazy.values()), strict=True))
    for key in keys:  # the weighted resamplings' outcomes: their values (warnings dropped)
        if isinstance(found[key], Outcome):
            found[key] = found[key].value

    settings = Settings(a.threshold, a.cost_matrix, b_count, level, seed, "poisson")
    # draws from the cells take O(B cells): no progress lines for them
    cells: dict[str, Any] = {"n_resamples": b_count, "confidence_level": level, "seed": seed,
             "progress": False}  # fmt: skip
    caught = Warnings()
    with caught.about("majority-class baseline"):
        class_labels, class_counts = class_rows(n_rows - n_positive, n_positive)
        class_weights = (
            np.array([total_weight - positive_weight, positive_weight])
            if weighted
            else class_counts
        )
        baseline = _baseline(class_labels, majority, a.cost_matrix,
                             {"sample_weight": class_weights})  # fmt: skip
    models = []
    f1: dict[int, float] = {}
    for i, name in enumerate(a.scores):
        steps(f"model {name!r}")
        prediction = a.pred[i] if a.pred else f"{name} >= {a.threshold}"
        with caught.about(f"model {name!r}"):
            delong, booted = found[f"auc_ci_{i}"], found[f"bootstrap_{i}"]
            rows: list[MetricRow] = [
                MetricRow("roc_auc", "ROC AUC", float(delong.estimate),
                          _bounds(delong.confidence_interval), "DeLong (logit)",
                          baseline["roc_auc"]),
                MetricRow("roc_auc_bootstrap", "ROC AUC", float(booted.estimate),
                          _bounds(booted.confidence_interval), "percentile bootstrap",
                          baseline["roc_auc"]),
            ]  # fmt: skip
            for key, (label, _) in _RANKING_NAMES.items():
                value = float(found[f"{key}_{i}"])
                rows.append(MetricRow(key, label, value, None, None, baseline[key]))
            matrix = as_matrix(found[f"matrix_{i}"])
            error = cells_error_rate_ci(matrix, level)
            rows.append(MetricRow("error_rate", "error rate", float(error.estimate),
                                  _bounds(error.confidence_interval), "Wilson",
                                  baseline["error_rate"]))  # fmt: skip
            for key, label, function, keywords in _threshold_metrics(a.cost_matrix):
                if weighted:
                    result = found[f"{key}_bootstrap_{i}"]
                else:
                    result = cells_bootstrap(function, matrix, keywords, **cells)
                if key == "f1":
                    f1[i] = float(result.estimate)
                rows.append(MetricRow(key, label, float(result.estimate),
                                      _bounds(result.confidence_interval),
                                      "percentile bootstrap", baseline[key]))  # fmt: skip
            confusion = (
                (float(matrix[0, 0]), float(matrix[0, 1])),
                (float(matrix[1, 0]), float(matrix[1, 1])),
            )
            if weighted:
                tested = ["error_rate", *(["expected_cost"] if a.cost_matrix is not None else [])]
                against = tuple(
                    baseline_row(key, key.replace("_", " "), found[f"{key}_baseline_{i}"], level)
                    for key in tested
                )
            else:
                against = _baseline_tests(matrix, majority, a.cost_matrix, cells)
            models.append(
                ModelReport(name, prediction, confusion, tuple(rows), baseline_tests=against)
            )
    steps("paired tests")
    pairs: tuple[PairReport, ...] = ()
    with caught.about("paired tests"):
        tested_pairs: list[list[TestRow]] = []
        for i, j in combinations(range(n_models), 2):
            delong = found[f"delong_{i}_{j}"]
            tests: list[TestRow] = [
                paired_test_row("delong", "ROC AUC difference, DeLong's test", delong,
                                delong.method),
            ]  # fmt: skip
            if weighted:
                f1_pair = found[f"f1_compare_{i}_{j}"]
            else:
                joint = _dense(found[f"joint_{i}_{j}"])
                mcnemar = cells_mcnemar(joint)
                tests.append(paired_test_row("mcnemar", "accuracy difference, McNemar's test",
                                             mcnemar, mcnemar.method))  # fmt: skip
                f1_pair = cells_compare(
                    assay.f1_score, joint, (f1[i], f1[j]), {"zero_division": np.nan}, **cells
                )
            compared: tuple[tuple[str, str, Any], ...] = (
                ("roc_auc_bootstrap", "ROC AUC difference", found[f"compare_{i}_{j}"]),
                ("f1_bootstrap", "F1 difference", f1_pair),
            )
            for key, label, comparison in compared:
                method = f"{comparison.interval} paired bootstrap"
                tests.append(paired_test_row(key, f"{label}, paired bootstrap", comparison,
                                             method))  # fmt: skip
            tested_pairs.append(tests)
        pair_notes: tuple[str, ...] = (WEIGHTED_PAIRS_NOTE,) if weighted else ()
        pairs = holm_pairs(list(a.scores), tested_pairs, pair_notes)
    with caught.about("curves"):
        poisson = None if weighted else {
            name: found[f"curves_{i}"] for i, name in enumerate(a.scores)
        }  # fmt: skip
        curved, notes = with_curves(tuple(models), None, summary, settings, poisson)
    caught.emit(stacklevel=4)
    return Report(summary, settings, curved, pairs, notes)

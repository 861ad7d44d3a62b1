"""The report's result objects: frozen, with ``to_dict`` (the ``assay.report/2`` schema)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

SCHEMA = "assay.report/2"


def _number(value: float | None) -> float | None:
    """JSON has no NaN: an undefined value is null."""
    if value is None or math.isnan(value):
        return None
    return float(value)


def _interval(interval: tuple[float, float] | None) -> list[float | None] | None:
    return None if interval is None else [_number(interval[0]), _number(interval[1])]


@dataclass(frozen=True)
class MetricRow:
    """One metric of one model: estimate, interval (or None) and the majority baseline."""

    key: str
    name: str
    estimate: float
    interval: tuple[float, float] | None
    interval_method: str | None
    baseline: float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "estimate": _number(self.estimate),
            "interval": _interval(self.interval),
            "interval_method": self.interval_method,
            "baseline": _number(self.baseline),
        }


@dataclass(frozen=True)
class CurveReport:
    """A curve read at a fixed grid, with its bootstrap confidence band.

    ``curve`` is ``'roc'`` (true positive rate at the false positive rates ``grid``) or
    ``'precision_recall'`` (precision at the recalls ``grid``); ``kind`` is the band's
    kind (made from the replicates as :func:`assay.roc_band` and
    :func:`assay.precision_recall_band` make theirs); ``method`` says which replicates:
    the report's own unstratified draw, where those functions keep the class sizes, or
    in a Poisson report those functions' own Poisson replicates.
    """

    curve: str
    kind: str
    grid: tuple[float, ...]
    estimate: tuple[float, ...]
    lower: tuple[float, ...]
    upper: tuple[float, ...]
    method: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "curve": self.curve,
            "kind": self.kind,
            "grid": [_number(value) for value in self.grid],
            "estimate": [_number(value) for value in self.estimate],
            "lower": [_number(value) for value in self.lower],
            "upper": [_number(value) for value in self.upper],
            "method": self.method,
        }


@dataclass(frozen=True)
class BaselineTest:
    """A one-sided paired test that a model beats the majority-class baseline.

    ``estimate`` is the model's metric minus the baseline's on the same rows (for the
    error rate and the expected cost: negative is better), ``alternative`` the side that
    says "the model is better" (``'less'``), ``interval`` the one-sided interval of the
    difference where the test has one (the paired bootstrap; McNemar's test has none;
    its open end is infinite, ``null`` in JSON).
    ``beats_baseline`` is ``pvalue < 1 - confidence_level`` and a difference on the
    better side; a row that says otherwise is not constructed.
    """

    __test__ = False  # not a pytest test class, despite its name

    key: str
    name: str
    estimate: float
    interval: tuple[float, float] | None
    statistic: float | None
    pvalue: float
    alternative: str
    method: str
    confidence_level: float
    beats_baseline: bool

    def __post_init__(self) -> None:
        if self.alternative not in ("less", "greater"):
            raise ValueError(
                f"`alternative` of a baseline test must be 'less' or 'greater' (the side on "
                f"which the model is better); got {self.alternative!r}."
            )
        better = self.estimate < 0 if self.alternative == "less" else self.estimate > 0
        significant = self.pvalue < 1 - self.confidence_level
        if self.beats_baseline != (significant and better):
            raise ValueError(
                f"`beats_baseline`={self.beats_baseline} contradicts p = {self.pvalue!r} at "
                f"confidence level {self.confidence_level!r} and the difference "
                f"{self.estimate!r} (alternative {self.alternative!r}): the model beats the "
                "baseline exactly when p < 1 - confidence_level and the difference is on "
                "the better side."
            )
        if self.interval is not None and not any(map(math.isnan, self.interval)):
            excludes_zero = (
                self.interval[1] < 0 if self.alternative == "less" else (self.interval[0] > 0)
            )
            if excludes_zero != significant:
                raise ValueError(
                    f"the interval {list(self.interval)} of the difference and p = "
                    f"{self.pvalue!r} disagree: at confidence level {self.confidence_level!r} "
                    "the interval excludes 0 exactly when p < 1 - confidence_level."
                )

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "estimate": _number(self.estimate),
            "interval": None
            if self.interval is None
            else [None if math.isinf(end) else _number(end) for end in self.interval],
            "statistic": _number(self.statistic),
            "pvalue": _number(self.pvalue),
            "alternative": self.alternative,
            "method": self.method,
            "confidence_level": self.confidence_level,
            "beats_baseline": self.beats_baseline,
        }


@dataclass(frozen=True)
class ModelReport:
    """One score column: its confusion matrix at the threshold, its metric rows, its curves,
    and its tests against the majority-class baseline."""

    name: str
    prediction: str
    confusion_matrix: tuple[tuple[float, float], tuple[float, float]]
    rows: tuple[MetricRow, ...]
    curves: tuple[CurveReport, ...] = ()
    baseline_tests: tuple[BaselineTest, ...] = ()

    def curve(self, curve: str) -> CurveReport:
        """The curve ``'roc'`` or ``'precision_recall'``."""
        for item in self.curves:
            if item.curve == curve:
                return item
        raise KeyError(f"no curve {curve!r}; the curves are {[c.curve for c in self.curves]}.")

    def row(self, key: str) -> MetricRow:
        """The row with this key (``'roc_auc'``, ``'f1'``, ...)."""
        for row in self.rows:
            if row.key == key:
                return row
        raise KeyError(f"no row {key!r}; the rows are {[row.key for row in self.rows]}.")

    def baseline_test(self, key: str) -> BaselineTest:
        """The test against the majority baseline of the metric ``key`` (``'error_rate'``,
        ``'expected_cost'``)."""
        for test in self.baseline_tests:
            if test.key == key:
                return test
        keys = [test.key for test in self.baseline_tests]
        raise KeyError(f"no baseline test {key!r}; the baseline tests are {keys}.")

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "prediction": self.prediction,
            "confusion_matrix": [[float(cell) for cell in line] for line in self.confusion_matrix],
            "metrics": [row.to_dict() for row in self.rows],
            "curves": [curve.to_dict() for curve in self.curves],
            "baseline_tests": [test.to_dict() for test in self.baseline_tests],
        }


@dataclass(frozen=True)
class TestRow:
    """One paired test of two models, with its p-value Holm-adjusted across the pairs."""

    key: str
    name: str
    estimate: float
    interval: tuple[float, float] | None
    statistic: float | None
    pvalue: float
    pvalue_holm: float
    method: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "estimate": _number(self.estimate),
            "interval": _interval(self.interval),
            "statistic": _number(self.statistic),
            "pvalue": _number(self.pvalue),
            "pvalue_holm": _number(self.pvalue_holm),
            "method": self.method,
        }


@dataclass(frozen=True)
class PairReport:
    """Model A against model B (A - B): the paired tests."""

    model_a: str
    model_b: str
    rows: tuple[TestRow, ...]
    notes: tuple[str, ...] = ()

    def row(self, key: str) -> TestRow:
        """The test with this key (``'delong'``, ``'mcnemar'``, ...)."""
        for row in self.rows:
            if row.key == key:
                return row
        raise KeyError(f"no test {key!r}; the tests are {[row.key for row in self.rows]}.")

    def to_dict(self) -> dict[str, Any]:
        return {
            "model_a": self.model_a,
            "model_b": self.model_b,
            "tests": [row.to_dict() for row in self.rows],
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class DataSummary:
    """The data the report was computed on (after dropping missing rows)."""

    source: str
    target: str
    n_rows: int
    n_dropped: int
    labels: tuple[Any, ...]
    pos_label: Any
    positive_weight: float
    total_weight: float
    prevalence: float
    majority_label: Any
    weight: str | None
    group: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "target": self.target,
            "n_rows": self.n_rows,
            "n_dropped": self.n_dropped,
            "labels": list(self.labels),
            "pos_label": self.pos_label,
            "positive_weight": self.positive_weight,
            "total_weight": self.total_weight,
            "prevalence": _number(self.prevalence),
            "majority_label": self.majority_label,
            "weight": self.weight,
            "group": self.group,
        }


def data_summary(
    source: str,
    target: str,
    n_rows: int,
    n_dropped: int,
    labels: Any,
    positive: Any,
    weights: tuple[float, float],
    *,
    weight: str | None,
    group: str | None,
) -> tuple[int, DataSummary]:
    """The majority class (1: the positive one; a tie goes to it) and the data's summary,
    from the positives' and all rows' ``weights``."""
    positive_weight, total_weight = weights
    majority = 1 if positive_weight >= total_weight - positive_weight else 0
    summary = DataSummary(
        source=source,
        target=target,
        n_rows=n_rows,
        n_dropped=n_dropped,
        labels=tuple(labels),
        pos_label=positive,
        positive_weight=positive_weight,
        total_weight=total_weight,
        prevalence=positive_weight / total_weight if total_weight > 0 else math.nan,
        majority_label=positive if majority == 1 else next(x for x in labels if x != positive),
        weight=weight,
        group=group,
    )
    return majority, summary


@dataclass(frozen=True)
class Settings:
    """How the report was computed: enough to compute every number again."""

    threshold: float
    cost_matrix: tuple[tuple[float, float], tuple[float, float]] | None
    n_resamples: int
    confidence_level: float
    rng_seed: int
    resampling: str = "multinomial"
    """How the bootstrap draws its replicates: ``'multinomial'`` (n rows drawn from the
    n rows) or ``'poisson'`` (every row counted Poisson(1) times; the same replicates
    on one machine and on Dask)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "threshold": self.threshold,
            "cost_matrix": None
            if self.cost_matrix is None
            else [list(line) for line in self.cost_matrix],
            "n_resamples": self.n_resamples,
            "confidence_level": self.confidence_level,
            "rng_seed": self.rng_seed,
            "resampling": self.resampling,
        }


@dataclass(frozen=True)
class Report:
    """An evaluation report of one or more models on one labelled data set.

    ``str`` is a one-line summary; :meth:`to_text`, :meth:`to_markdown`,
    :meth:`to_html`, :meth:`to_dict` and :meth:`to_json` give the whole report.
    """

    data: DataSummary
    settings: Settings
    models: tuple[ModelReport, ...]
    pairs: tuple[PairReport, ...]
    notes: tuple[str, ...] = ()

    def model(self, name: str) -> ModelReport:
        """The part of the report on the model (score column) ``name``."""
        for model in self.models:
            if model.name == name:
                return model
        raise KeyError(f"no model {name!r}; the models are {[m.name for m in self.models]}.")

    def __str__(self) -> str:
        aucs = ", ".join(f"{m.name} {m.row('roc_auc').estimate:.4f}" for m in self.models)
        return (
            f"Report of {len(self.models)} model(s) on {self.data.n_rows:,} rows "
            f"(prevalence {self.data.prevalence:.4f}): ROC AUC {aucs}"
        )

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data (schema ``assay.report/2``; NaN becomes null)."""
        return {
            "schema": SCHEMA,
            "data": self.data.to_dict(),
            "settings": self.settings.to_dict(),
            "models": [model.to_dict() for model in self.models],
            "pairs": [pair.to_dict() for pair in self.pairs],
            "notes": list(self.notes),
        }

    def to_json(self, indent: int | None = 2) -> str:
        """The report as JSON text (:meth:`to_dict`)."""
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False)

    def to_text(self) -> str:
        """The report as aligned plain-text tables for a terminal."""
        from assay.reports._formats import to_text

        return to_text(self)

    def to_markdown(self) -> str:
        """The report as Markdown (pipe tables)."""
        from assay.reports._formats import to_markdown

        return to_markdown(self)

    def to_html(self) -> str:
        """The report as one self-contained HTML page (inline CSS, no network)."""
        from assay.reports._formats import to_html

        return to_html(self)

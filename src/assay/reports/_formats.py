"""The report as text, Markdown and HTML: one list of titled tables, three renderings."""

from __future__ import annotations

import math
from html import escape
from typing import TYPE_CHECKING

from assay._version import __version__
from assay.reports._svg import Series, confusion_grid, curve_chart

if TYPE_CHECKING:
    from assay.reports._result import Report, TestRow

Table = tuple[str, str, list[str], list[list[str]]]  # section id, title, header, rows

_DIGITS = 4


def _value(value: float | None) -> str:
    if value is None:
        return ""
    if math.isnan(value):
        return "n/a"
    return f"{value:.{_DIGITS}f}"


def _pvalue(value: float, n_resamples: int | None = None) -> str:
    """A p-value; a resampled one of exactly 0 as ``< 1/B`` (no replicate reached 0)."""
    if math.isnan(value):
        return "n/a"
    if value == 0.0 and n_resamples:
        return f"< {1 / n_resamples:.2g}"
    return f"{value:.3g}"


def _resamples_of(test: TestRow, report: Report) -> int | None:
    """The number of resamples behind a test's p-value (None: not resampled)."""
    return report.settings.n_resamples if test.key.endswith("_bootstrap") else None


def _interval(interval: tuple[float, float] | None) -> str:
    if interval is None:
        return ""
    return f"[{_value(interval[0])}, {_value(interval[1])}]"


def _count(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:.4g}"


def _overview(report: Report) -> list[str]:
    data, settings = report.data, report.settings
    lines = [
        f"data: {data.source}; {data.n_rows:,} rows"
        + (f" ({data.n_dropped:,} with missing values dropped)" if data.n_dropped else ""),
        f"target {data.target!r}: labels {list(data.labels)}, positive {data.pos_label!r}, "
        f"prevalence {_value(data.prevalence)} "
        f"({_count(data.positive_weight)} of {_count(data.total_weight)}"
        + (f", weights {data.weight!r}" if data.weight else "")
        + f"); majority class {data.majority_label!r}",
        f"threshold {settings.threshold:g}; {settings.confidence_level:.0%} intervals; "
        f"{settings.n_resamples} bootstrap resamples"
        + (f" of groups {data.group!r}" if data.group else "")
        + (" (Poisson)" if settings.resampling == "poisson" else "")
        + f"; seed {settings.rng_seed}",
    ]
    if settings.cost_matrix is not None:
        lines.append(f"cost matrix (rows true, columns predicted): {settings.cost_matrix}")
    return lines


def tables(report: Report) -> list[Table]:
    """Every table of the report, in order."""
    result: list[Table] = []
    for index, model in enumerate(report.models):
        rows = [
            [
                row.name,
                _value(row.estimate),
                _interval(row.interval),
                row.interval_method or "",
                _value(row.baseline),
            ]
            for row in model.rows
        ]
        result.append(
            (
                f"model-{index}",
                f"Model {model.name} (prediction: {model.prediction})",
                ["metric", "estimate", "interval", "interval method", "majority baseline"],
                rows,
            )
        )
        if model.baseline_tests:
            result.append(_baseline_table(report, index))
        (tn, fp), (fn, tp) = model.confusion_matrix
        result.append(
            (
                f"confusion-{index}",
                f"Confusion matrix of {model.name}",
                ["", "predicted negative", "predicted positive"],
                [
                    ["true negative", _count(tn), _count(fp)],
                    ["true positive", _count(fn), _count(tp)],
                ],
            )
        )
    if report.pairs:
        rows = [
            [
                f"{pair.model_a} - {pair.model_b}",
                test.name,
                _value(test.estimate),
                _interval(test.interval),
                _pvalue(test.pvalue, _resamples_of(test, report)),
                _pvalue(test.pvalue_holm, _resamples_of(test, report)),
            ]
            for pair in report.pairs
            for test in pair.rows
        ]
        result.append(
            (
                "pairs",
                "Paired comparisons (A - B; Holm-adjusted across pairs)",
                ["pair", "test", "estimate", "interval", "p", "p (Holm)"],
                rows,
            )
        )
    return result


def _baseline_table(report: Report, index: int) -> Table:
    """The model's one-sided tests against the majority baseline: part of its section."""
    model = report.models[index]
    rows = [
        [
            test.name,
            test.method,
            _value(test.estimate),
            _interval(test.interval),
            "" if test.statistic is None else _count(test.statistic),
            _pvalue(test.pvalue, report.settings.n_resamples if test.interval else None),
            "yes" if test.beats_baseline else "no",
        ]
        for test in model.baseline_tests
    ]
    level = f"{1 - report.settings.confidence_level:.2g}"
    return (
        f"model-{index}",
        f"Does {model.name} beat the majority baseline? (one-sided: model better; "
        f"beats it: p < {level})",
        ["metric", "test", "model - baseline", "interval", "statistic", "p", "beats it"],
        rows,
    )


def _notes(report: Report) -> list[str]:
    pair_notes = [note for pair in report.pairs for note in pair.notes]
    return list(dict.fromkeys([*report.notes, *pair_notes]))


def _aligned(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(line[i]) for line in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            cell.ljust(width)
            if i == 0 or (not cell[:1].isdigit() and cell[:1] not in "-[" and cell != "n/a")
            else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return [line(header), "  ".join("-" * width for width in widths), *map(line, rows)]


def to_text(report: Report) -> str:
    """Aligned plain-text tables."""
    out = [f"assay {__version__} report", *_overview(report)]
    for _, title, header, rows in tables(report):
        out += ["", title, *_aligned(header, rows)]
    out += ["", *_notes(report)] if _notes(report) else []
    return "\n".join(out) + "\n"


def _markdown_cell(text: str) -> str:
    return text.replace("|", "\\|")


def to_markdown(report: Report) -> str:
    """Markdown: the overview as a list, each table a pipe table."""
    out = ["# assay report", "", *[f"- {line}" for line in _overview(report)]]
    previous = ""
    for section, title, header, rows in tables(report):
        level = "###" if section == previous else "##"  # a second table of one section
        previous = section
        out += ["", f"{level} {_markdown_cell(title)}", ""]
        out.append("| " + " | ".join(map(_markdown_cell, header)) + " |")
        out.append("|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|")
        out += ["| " + " | ".join(map(_markdown_cell, row)) + " |" for row in rows]
    if _notes(report):
        out += ["", *[f"- {note}" for note in _notes(report)]]
    return "\n".join(out) + "\n"


_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
h3 { font-size: 1em; margin-top: 1.2em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { padding: 0.25em 0.7em; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f3f3f3; }
.overview li { margin: 0.2em 0; }
.figures { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
figure { margin: 0.5em 0; }
figcaption, .caption { color: #555; font-size: 0.9em; max-width: 40em; }
svg { display: block; max-width: 100%; height: auto; }
"""


def to_html(report: Report) -> str:
    """One self-contained page: inline CSS, inline SVG plots, no script, no network."""
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>assay report: {escape(report.data.source)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        f"<h1>assay {escape(__version__)} report</h1>",
        '<section id="overview" class="data"><ul class="overview">',
        *[f"<li>{escape(line)}</li>" for line in _overview(report)],
        "</ul></section>",
        *_plots(report),
    ]
    listed = tables(report)
    for number, (section, title, header, rows) in enumerate(listed):
        kind = section.split("-")[0]
        continued = number > 0 and listed[number - 1][0] == section
        closes = number + 1 == len(listed) or listed[number + 1][0] != section
        if continued:  # a second table of the section above
            out.append(f"<h3>{escape(title)}</h3>")
        else:
            out.append(f'<section id="{section}" class="{kind}"><h2>{escape(title)}</h2>')
        grid = _confusion_svg(report, int(section.split("-")[1])) if kind == "confusion" else ""
        out.append('<div class="figures"><table>' if grid else "<table>")
        out.append("<tr>" + "".join(f"<th>{escape(cell)}</th>" for cell in header) + "</tr>")
        out += ["<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows]
        end = "</section>" if closes else ""
        out.append(f"</table>{grid}</div>{end}" if grid else f"</table>{end}")
    if _notes(report):
        out.append('<section id="notes" class="notes"><ul>')
        out += [f"<li>{escape(note)}</li>" for note in _notes(report)]
        out.append("</ul></section>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def _confusion_svg(report: Report, index: int) -> str:
    model = report.models[index]
    (tn, fp), (fn, tp) = model.confusion_matrix
    counts = ((_count(tn), _count(fp)), (_count(fn), _count(tp)))
    title = f"Confusion matrix of {model.name} (rows true, columns predicted)"
    return confusion_grid(f"confusion-grid-{index}", title, model.confusion_matrix, counts)


def _series(report: Report, curve: str) -> list[Series]:
    series = []
    for model in report.models:
        drawn = model.curve(curve)
        if curve == "roc":
            row = model.row("roc_auc")
            low, high = row.interval if row.interval is not None else (math.nan, math.nan)
            label = f"{model.name}: AUC {_value(row.estimate)} [{_value(low)}, {_value(high)}]"
        else:
            label = f"{model.name}: AP {_value(model.row('average_precision').estimate)}"
        series.append(Series(label, drawn.grid, drawn.estimate, drawn.lower, drawn.upper))
    return series


def _plots(report: Report) -> list[str]:
    """The ``plots`` section: ROC and precision-recall curves with their bands (inline SVG)."""
    out = ['<section id="plots" class="plots"><h2>Curves</h2>']
    if not report.models or not all(model.curves for model in report.models):
        out.append('<p class="caption">No curves: see the notes at the end.</p></section>')
        return out
    settings = report.settings
    kind = report.models[0].curve("roc").kind
    roc_interval = report.models[0].row("roc_auc").interval_method or "no interval"
    if settings.resampling == "poisson":
        replicates = "Poisson resamples of each model's rows (every row counted Poisson(1) times)"
    else:
        replicates = (
            "resamples of the rows (unstratified; the replicates of every bootstrap interval here)"
        )
    out.append(
        f'<p class="caption">Shaded: {kind} {settings.confidence_level:.0%} bootstrap bands '
        f"from the report's {settings.n_resamples} {replicates}, seed {settings.rng_seed}. "
        f"ROC AUC intervals: {escape(roc_interval)}.</p>"
    )
    prevalence = report.data.prevalence
    charts = [
        curve_chart("plot-roc", "ROC curves", "false positive rate", "true positive rate",
                    _series(report, "roc"), ((0.0, 0.0), (1.0, 1.0)), "chance (diagonal)"),
        curve_chart("plot-precision-recall", "Precision-recall curves", "recall",
                    "precision", _series(report, "precision_recall"),
                    ((0.0, prevalence), (1.0, prevalence)),
                    f"prevalence {_value(prevalence)} (no skill)"),
    ]  # fmt: skip
    out.append('<div class="figures">')
    out += [f"<figure>{chart}</figure>" for chart in charts]
    out += ["</div>", "</section>"]
    return out

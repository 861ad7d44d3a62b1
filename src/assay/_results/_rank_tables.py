"""The ranking of many models written out: aligned text, Markdown and HTML.

Each output is built from the same pieces: the summary lines (the Friedman test, the
critical differences, the Nemenyi groups) and two tables (the models by average rank;
every pair of models).  Numbers are rounded for reading; ``to_json`` keeps every digit.
"""

from __future__ import annotations

import html
import io
import math
from typing import Any, NamedTuple

import numpy as np

from assay._results import _summary

__all__: list[str] = []

# Marks an adjusted p-value at or below alpha in the tables.
SIGNIFICANT = "*"

_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 68em;
       color: #222; line-height: 1.4; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.5em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { padding: 0.2em 0.7em; border-bottom: 1px solid #ddd; }
th { text-align: left; background: #f4f4f4; white-space: nowrap; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
p.note { color: #555; font-size: 0.9em; }
figure { margin: 1em 0; } figure svg { width: 100%; max-width: 46em; height: auto; }
""".strip()


class Table(NamedTuple):
    """A table to write out: a title, the column headers, rows of text."""

    title: str
    headers: tuple[str, ...]
    rows: list[tuple[str, ...]]
    numeric: tuple[bool, ...]  # right-aligned columns


def _p(value: float, alpha: float | None = None) -> str:
    """A p-value to three significant digits, starred when at most ``alpha``."""
    if math.isnan(value):
        return "-"
    star = SIGNIFICANT if alpha is not None and value <= alpha else ""
    return f"{value:.3g}{star}"


def _rank(value: float) -> str:
    return f"{value:.3f}"


def summary_lines(result: Any) -> list[str]:
    """The tests in words: the data, the Friedman test, the critical differences."""
    friedman = result.friedman
    direction = "higher" if result.higher_is_better else "lower"
    lines = [
        f"Ranking of {result.n_models} models over {result.n_datasets} data sets "
        f"({direction} scores are better; alpha = {result.alpha:g})",
        f"Friedman test: chi2({friedman.df:g}) = {_summary.short(friedman.statistic)}, "
        f"p = {_summary.short(friedman.pvalue)}; Iman-Davenport "
        f"{_summary.statistic_symbol('F-test', friedman.iman_davenport_df)} = "
        f"{_summary.short(friedman.iman_davenport_statistic)}, "
        f"p = {_summary.short(friedman.iman_davenport_pvalue)}",
    ]
    pvalue = friedman.iman_davenport_pvalue
    if math.isnan(pvalue):
        pvalue = friedman.pvalue
    lines.append(
        "The average ranks differ significantly."
        if pvalue <= result.alpha
        else "No significant difference between the average ranks "
        "(the post-hoc tests below are for information)."
    )
    lines.append(
        f"Critical difference of average ranks: Nemenyi {_rank(result.critical_difference)}, "
        f"Bonferroni-Dunn {_rank(result.bonferroni_dunn_critical_difference)}"
        + (f" (control: {result.control})" if result.control is not None else "")
    )
    names = result.model_names
    groups = [", ".join(names[j] for j in clique) for clique in result.cliques]
    lines.append(
        "Groups not separated by the Nemenyi test: "
        + ("; ".join(f"[{group}]" for group in groups) if groups else "none (every pair differs)")
    )
    return lines


def models_table(result: Any) -> Table:
    """One row per model, best average rank first; the tests against the control."""
    headers: tuple[str, ...] = ("", "model", "average rank", "mean score")
    control = result.bonferroni_dunn
    if control is not None:
        headers += ("z vs control", "p", "Bonferroni-Dunn p", "Holm p")
    rows: list[tuple[str, ...]] = []
    means = np.asarray(result.scores).mean(axis=0)
    for position, j in enumerate(result.order, start=1):
        row: tuple[str, ...] = (
            str(position),
            result.model_names[j],
            _rank(result.average_ranks[j]),
            _summary.value(float(means[j])),
        )
        if control is not None:
            if j == control.control:
                row += ("control", "", "", "")
            else:
                row += (
                    f"{control.z_statistic[j]:.3f}",
                    _p(control.pvalues[j]),
                    _p(control.adjusted_pvalues[j], result.alpha),
                    _p(control.holm_adjusted_pvalues[j], result.alpha),
                )
        rows.append(row)
    numeric = (True, False, True, True) + (True,) * (len(headers) - 4)
    return Table("Models by average rank", headers, rows, numeric)


def pairs_table(result: Any) -> Table:
    """One row per pair of models (the better-ranked first): Nemenyi and Wilcoxon."""
    headers = (
        "model A",
        "model B",
        "rank difference",
        "Nemenyi p",
        "wins-losses-ties of A",
        "R+",
        "R-",
        "Wilcoxon p",
        "Holm p",
    )
    order = result.order
    rows: list[tuple[str, ...]] = []
    for first, i in enumerate(order):
        for j in order[first + 1 :]:
            wins, losses = int(result.wilcoxon_wins[i, j]), int(result.wilcoxon_wins[j, i])
            rows.append(
                (
                    result.model_names[i],
                    result.model_names[j],
                    _rank(result.average_ranks[j] - result.average_ranks[i]),
                    _p(result.nemenyi.adjusted_pvalues[i, j], result.alpha),
                    f"{wins}-{losses}-{result.n_datasets - wins - losses}",
                    f"{result.wilcoxon_rank_sums[i, j]:g}",
                    f"{result.wilcoxon_rank_sums[j, i]:g}",
                    _p(result.wilcoxon_pvalues[i, j]),
                    _p(result.wilcoxon_adjusted_pvalues[i, j], result.alpha),
                )
            )
    numeric = (False, False, *(True,) * 7)
    return Table("Pairs of models", headers, rows, numeric)


def notes(result: Any) -> list[str]:
    """What the stars and the columns mean."""
    lines = [
        f"{SIGNIFICANT} adjusted p-value at most alpha = {result.alpha:g}.",
        "Nemenyi p: single-step p-value of the difference of average ranks (all pairs); "
        "Wilcoxon: signed-rank test of the paired scores, R+ (R-) the rank sum of the "
        f"data sets won by A (B), zero method '{result.zero_method}'; Holm p: adjusted "
        f"over the {result.n_models * (result.n_models - 1) // 2} pairs.",
    ]
    if result.bonferroni_dunn is not None:
        lines.append(
            "z vs control > 0: the model ranks better than the control; Bonferroni-Dunn "
            f"and Holm adjust over the {result.n_models - 1} comparisons with the control."
        )
    lines.append(
        'J. Demsar, "Statistical comparisons of classifiers over multiple data sets", '
        "JMLR 7 (2006)."
    )
    return lines


def _aligned(table: Table) -> list[str]:
    widths = [
        max(len(text) for text in column)
        for column in zip(table.headers, *table.rows, strict=True)
    ]

    def line(cells: tuple[str, ...]) -> str:
        padded = (
            cell.rjust(width) if right else cell.ljust(width)
            for cell, width, right in zip(cells, widths, table.numeric, strict=True)
        )
        return "  ".join(padded).rstrip()

    return [table.title, line(table.headers), *(line(row) for row in table.rows)]


def text(result: Any) -> str:
    """The aligned terminal summary (``str(result)``)."""
    lines = summary_lines(result)
    for table in (models_table(result), pairs_table(result)):
        lines += ["", *_aligned(table)]
    return "\n".join([*lines, "", *notes(result)])


def _markdown_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("*", "\\*")


def _markdown_table(table: Table) -> list[str]:
    align = ["---:" if right else ":---" for right in table.numeric]
    rows = [table.headers, *table.rows]
    body = ["| " + " | ".join(_markdown_cell(cell) for cell in row) + " |" for row in rows]
    return [f"### {table.title}", "", body[0], "| " + " | ".join(align) + " |", *body[1:]]


def markdown(result: Any) -> str:
    """The summary as Markdown (a heading, a list of the tests, two tables, notes)."""
    first, *rest = summary_lines(result)
    lines = [f"## {first}", "", *(f"- {line}" for line in rest)]
    for table in (models_table(result), pairs_table(result)):
        lines += ["", *_markdown_table(table)]
    lines += ["", *(_markdown_cell(line) + "  " for line in notes(result))]
    return "\n".join(lines).rstrip() + "\n"


def _html_table(table: Table) -> str:
    escape = html.escape
    head = "".join(f"<th>{escape(cell)}</th>" for cell in table.headers)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="number">{escape(cell)}</td>' if right else f"<td>{escape(cell)}</td>"
            for cell, right in zip(row, table.numeric, strict=True)
        )
        + "</tr>"
        for row in table.rows
    )
    return (
        f"<h2>{escape(table.title)}</h2>"
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


def html_fragment(result: Any, diagram: str = "") -> str:
    """The summary, the diagram (an HTML snippet, if any) and the tables as HTML."""
    escape = html.escape
    first, *rest = summary_lines(result)
    items = "".join(f"<li>{escape(line)}</li>" for line in rest)
    tables = "".join(_html_table(table) for table in (models_table(result), pairs_table(result)))
    footer = "".join(f'<p class="note">{escape(line)}</p>' for line in notes(result))
    return (
        f'<div class="assay-ranking"><h1>{escape(first)}</h1><ul>{items}</ul>'
        f"{diagram}{tables}{footer}</div>"
    )


def diagram_figure(result: Any) -> Any:
    """The critical difference diagram on a new matplotlib Figure (no pyplot state).

    Raises ImportError without matplotlib.
    """
    from matplotlib.figure import Figure

    from assay.plot import critical_difference_diagram

    n_bars = len(result.cliques) if result.bonferroni_dunn is None else 1
    figure = Figure(figsize=(7.0, 1.0 + 0.25 * ((result.n_models + 1) // 2 + n_bars)))
    critical_difference_diagram(result, ax=figure.subplots())
    return figure


def diagram_svg(result: Any) -> str | None:
    """The critical difference diagram as inline SVG text; None without matplotlib."""
    try:
        import matplotlib

        figure = diagram_figure(result)
    except ImportError:
        return None
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "assay"}):
        figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    svg = buffer.getvalue()
    return svg[svg.index("<svg") :]


def html_page(result: Any, *, diagram: bool = True) -> str:
    """One self-contained HTML page: inline CSS and SVG, nothing fetched."""
    title = summary_lines(result)[0]
    figure = ""
    if diagram:
        svg = diagram_svg(result)
        figure = (
            '<figure class="cd-diagram">'
            + svg
            + "<figcaption>Critical difference diagram (best on the right).</figcaption>"
            "</figure>"
            if svg is not None
            else '<p class="note">The critical difference diagram is omitted: it needs '
            "matplotlib (<code>pip install 'assay[plot]'</code>).</p>"
        )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head>"
        f"<body>{html_fragment(result, figure)}</body></html>\n"
    )

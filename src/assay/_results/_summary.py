"""Pieces of the one-line summaries (``str(result)``) and of the notebook tables.

Numbers are shown rounded for reading; ``repr`` and ``to_dict`` keep every digit.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Sequence
from typing import Any

__all__: list[str] = []

# A pair list in a summary shows at most this many pairs, then "and N more".
_SHOWN_PAIRS = 5

_BOOTSTRAP_METHODS = {"bca": "BCa", "percentile": "percentile", "basic": "basic"}

_INTERVAL_METHODS = {
    "wilson": "Wilson",
    "wilson_cc": "continuity-corrected Wilson",
    "normal": "normal",
    "agresti_coull": "Agresti-Coull",
    "clopper_pearson": "Clopper-Pearson",
    "jeffreys": "Jeffreys",
    "hoeffding": "Hoeffding",
    "newcombe": "Newcombe",
    "t": "t",
    "delong": "DeLong",
    "hanley_mcneil": "Hanley-McNeil",
    "nadeau-bengio": "Nadeau-Bengio corrected t",
}

# The symbol of a test's statistic, by a phrase of its ``method`` (first match wins).
_STATISTIC_SYMBOLS = (
    ("F-test", "F"),
    ("t-test", "t"),
    ("Cochran's Q", "Q"),
    ("chi-squared", "chi2"),
    ("normal z", "z"),
    ("McNemar", "b"),  # the exact tests count the discordant pairs won by model A
    ("Wilcoxon", "W+"),
    ("sign test", "wins"),
)


# Loss name (``bootstrap_632``, ``decompose``) -> readable name.
_LOSS_NAMES = {
    "zero_one": "zero-one loss",
    "squared": "squared loss",
    "absolute": "absolute loss",
}


def metric_name(name: str) -> str:
    """The readable name of metric ``name`` declared in the metric registry
    (``'roc_auc_score'`` -> ``'ROC AUC'``); any other name (a user's callable) unchanged.

    The registry is imported on use: the metrics package imports the results.
    """
    from assay.metrics._registry import readable_metric_name

    return readable_metric_name(name)


def loss_name(name: str) -> str:
    """Readable loss name (``'zero_one'`` -> ``'zero-one loss'``); a callable's name
    comes back unchanged (a metric's readable name when it is an assay metric)."""
    return _LOSS_NAMES.get(name, metric_name(name))


def value(number: float | None) -> str:
    """A metric value or an estimate: four decimals, or four significant digits when
    the value is very small or very large."""
    if number is None:
        return "None"
    if math.isfinite(number) and (number == 0.0 or 1e-3 <= abs(number) < 1e4):
        return f"{number:.4f}"
    return f"{number:.4g}"


def short(number: float | None) -> str:
    """A statistic or a p-value: three significant digits."""
    return "None" if number is None else f"{number:.3g}"


def count(number: float) -> str:
    """A count (or a total weight): an integer when it is one."""
    return f"{number:.6g}"


def level(confidence_level: float | None) -> str:
    """``0.95`` -> ``'95%'``."""
    if confidence_level is None:
        return ""
    return f"{round(100.0 * confidence_level, 6):g}%"


def interval(bounds: Sequence[float] | None) -> str:
    """``' [low, high]'``, or ``''`` when there is no interval or it is undefined."""
    if bounds is None or any(math.isnan(bound) for bound in bounds):
        return ""
    low, high = bounds
    return f" [{value(low)}, {value(high)}]"


def plural(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def bootstrap_method(method: str) -> str:
    """``'bca'`` -> ``'BCa'``; an unknown method as it is."""
    return _BOOTSTRAP_METHODS.get(method, method)


def interval_method(method: str) -> str:
    """``'wilson'`` -> ``'Wilson'``; an unknown method as it is."""
    return _INTERVAL_METHODS.get(method, method)


def statistic_symbol(method: str, df: Any) -> str:
    """The symbol of a test statistic (``'t'``, ``'z'``, ``'chi2'``...) from the test's
    ``method``, with its degrees of freedom: ``'t(9)'``, ``'F(10, 5)'``."""
    if "DeLong" in method:
        symbol = "z" if df is None else "t"  # the unpaired test has Welch's df
    else:
        symbol = next((s for phrase, s in _STATISTIC_SYMBOLS if phrase in method), "statistic")
    degrees = df if isinstance(df, tuple) else () if df is None else (df,)
    if degrees and not any(math.isnan(d) for d in degrees):
        symbol += "(" + ", ".join(f"{d:.4g}" for d in degrees) + ")"
    return symbol


def alternative(name: str, separator: str = "") -> str:
    """``''`` for a two-sided test, ``'one-sided, greater'`` and ``separator`` otherwise."""
    return "" if name == "two-sided" else f"one-sided, {name}{separator}"


def named_pairs(pairs: Iterable[tuple[str, str]]) -> str:
    """``'a vs c, b vs c'``: at most a few pairs, then how many more."""
    pairs = list(pairs)
    shown = ", ".join(f"{first} vs {second}" for first, second in pairs[:_SHOWN_PAIRS])
    if len(pairs) > _SHOWN_PAIRS:
        shown += f" and {len(pairs) - _SHOWN_PAIRS} more"
    return shown


def html_table(title: str, summary: str, rows: Iterable[tuple[str, str]]) -> str:
    """A small HTML table: the type's name, the one-line summary, then one row per field.

    Every piece of text is escaped.
    """
    escape = html.escape
    body = "".join(
        f'<tr><th style="text-align: left">{escape(name)}</th>'
        f'<td style="text-align: left"><code>{escape(text)}</code></td></tr>'
        for name, text in rows
    )
    return (
        '<table class="assay-result">'
        f'<caption style="text-align: left"><b>{escape(title)}</b>: {escape(summary)}</caption>'
        f"<tbody>{body}</tbody></table>"
    )

"""Formatting and reading helpers shared by the tables of :mod:`report`.

Sizes, durations and verdicts as the tables print them, and one suite's measurements
read from the pytest-benchmark JSON (``suite_entries``), with the linear extrapolation
of a peer timed on part of its replicates (``whole_call_seconds``).
"""

from __future__ import annotations

import math
from typing import Any


def format_size(n: int) -> str:
    exponent = round(math.log10(n))
    return f"1e{exponent}" if 10**exponent == n else str(n)


def format_seconds(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds * 1e6:.3g} µs"


def verdict(met: bool) -> str:
    return "yes" if met else "**no**"


def format_duration(seconds: float) -> str:
    """:func:`format_seconds`, with minutes and hours for long (extrapolated) calls."""
    if seconds >= 7200:
        return f"{seconds / 3600:.1f} h"
    if seconds >= 600:
        return f"{seconds / 60:.0f} min"
    return format_seconds(seconds)


def whole_call_seconds(info: dict[str, Any], median: float) -> float:
    """The time of the whole call: the median itself, or its linear extrapolation.

    A partial run timed ``k`` replicates and ``f`` fixed evaluations of the statistic
    (the point estimate); the whole call makes ``B + f`` of them, plus ``e`` more for a
    jackknife (BCa), so it is extrapolated as ``median * (B + f + e) / (k + f)``.
    """
    if not info.get("extrapolated"):
        return median
    fixed = info["fixed_evaluations"]
    evaluations = info["n_resamples"] + fixed + info["extra_evaluations"]
    return median * evaluations / (info["replicates_timed"] + fixed)


def suite_entries(speed: dict[str, Any], suite: str) -> dict[tuple[str, str, int], dict[str, Any]]:
    """One suite's measurements by (case, implementation, n); ``seconds`` is the whole call
    (the median, or its extrapolation for a peer timed on part of its replicates)."""
    entries = {}
    for bench in speed["benchmarks"]:
        info = bench["extra_info"]
        if info.get("suite") != suite:
            continue
        median = bench["stats"]["median"]
        entries[(info["case"], info["implementation"], info["n_samples"])] = {
            "info": info,
            "median": median,
            "rounds": bench["stats"]["rounds"],
            "seconds": whole_call_seconds(info, median),
        }
    return entries


def judge(value: float, goal_met: bool, goal: str, judged: bool) -> tuple[str, str]:
    return (goal, verdict(goal_met)) if judged else ("", "")


def case_sizes(entries: dict[tuple[str, str, int], Any], case: str, side: str) -> list[int]:
    return sorted(n for (c, s, n) in entries if c == case and s == side)

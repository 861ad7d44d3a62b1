"""Markdown tables for docs/performance.md from the benchmark results.

Run from the repository root after the suites and scripts::

    python benchmarks/report.py .benchmarks/speed.json --update docs/performance.md

reads the pytest-benchmark JSON (``--benchmark-json``) and, from the same directory,
``memory.json`` (``benchmarks/memory.py``) and ``compile_time.json``
(``benchmarks/compile_time.py``) when they exist.  Without ``--update`` the tables are
printed; with it they replace the text between the two ``report.py`` markers of the
page.  Every row says whether its goal is met; a missed goal is printed in bold.

The resampling suite (``test_bench_bootstrap.py``) times some peers on part of their
replicates; their time for the whole call is extrapolated linearly (see
:func:`whole_call_seconds`) and every such figure is labelled "extrapolated".
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from pathlib import Path
from typing import Any

BEGIN = "<!-- begin: tables written by benchmarks/report.py -->"
END = "<!-- end: tables written by benchmarks/report.py -->"
GOAL_SIZE = 10_000_000  # the speed goals are stated at n = 1e7
SORT_JOBS = ("descending_order", "sort_with_weights")

RESAMPLING_SUITE = "resampling"
# Goals of issue 3 (resampling engine), each with the size where it is judged.
PEER_SPEEDUP_GOAL = 100.0  # percentile interval of AUC, at least this much faster than a peer
PEER_SPEEDUP_SIZE = 1_000_000
# "well under a minute" at n = 1e7, read as at most half a minute
ABSOLUTE_GOAL_SECONDS = 30.0
ABSOLUTE_GOAL_SIZE = 10_000_000
BCA_GOAL = 1.5  # BCa at most this many times the percentile interval
BCA_GOAL_SIZE = 1_000_000
CONFUSION_GOAL = 2.0  # 10,000-replicate interval at most this many times one evaluation
CONFUSION_GOAL_SIZE = 10_000_000
RESAMPLING_MEMORY_GOAL = 3.0  # memory.py's RESAMPLING_GOAL: peak increase / input bytes
BOOTSTRAP_COMPILE_RESAMPLES = 200  # compile_time.py's BOOTSTRAP_RESAMPLES

SECTIONS = [
    ("Ranking scores", ("roc_auc_score", "average_precision_score")),
    ("Curves", ("roc_curve", "precision_recall_curve")),
    (
        "Confusion-matrix metrics",
        ("confusion_matrix", "accuracy_score", "f1_score", "matthews_corrcoef"),
    ),
]


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


def _variant(info: dict[str, Any]) -> str:
    parts = []
    if "ties" in info:
        parts.append("ties" if info["ties"] else "distinct")
    if "weighted" in info:
        parts.append("weighted" if info["weighted"] else "unweighted")
    if "n_classes" in info:
        parts.append(f"{info['n_classes']} classes")
    if info.get("average"):
        parts.append(f"average={info['average']}")
    return ", ".join(parts)


def pairs(speed: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per benchmark group: assay's and the peer's medians and their ratio."""
    groups: dict[str, dict[str, Any]] = defaultdict(dict)
    for bench in speed["benchmarks"]:
        info = bench["extra_info"]
        if info.get("suite") in (
            RESAMPLING_SUITE,
            DELONG_SUITE,
            PROTOCOLS_SUITE,
            BIAS_VARIANCE_SUITE,
        ):
            continue
        groups[bench["group"]][info["implementation"]] = bench
    rows = []
    for sides in groups.values():
        others = [side for side in sides if side != "assay"]
        if "assay" not in sides or len(others) != 1:
            continue
        info = sides["assay"]["extra_info"]
        mine = sides["assay"]["stats"]
        peer = sides[others[0]]["stats"]
        ratio = peer["median"] / mine["median"]
        at_goal_size = info["n_samples"] == GOAL_SIZE
        rows.append(
            {
                "function": info["function"],
                "peer_name": info.get("peer", "scikit-learn"),
                "peer_call": info.get("peer_call"),
                "variant": _variant(info),
                "n_samples": info["n_samples"],
                "assay": mine["median"],
                "peer": peer["median"],
                "rounds": f"{mine['rounds']} / {peer['rounds']}",
                "ratio": ratio,
                "goal": info["goal"],
                "met": (ratio >= info["goal"]) if at_goal_size else None,
            }
        )
    return rows


def sorting_table(rows: list[dict[str, Any]]) -> list[str]:
    """The sort kernels against NumPy (no goal beyond beating np.argsort)."""
    section = [row for row in rows if row["function"] in SORT_JOBS]
    if not section:
        return []
    section.sort(key=lambda row: (row["function"], row["peer_call"], row["n_samples"]))
    lines = [
        "### Sorting (requirement: beat `np.argsort` on float64 keys)",
        "",
        "| kernel | NumPy peer | n | assay median | NumPy median | ratio (NumPy / assay) |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for row in section:
        lines.append(
            f"| `{row['function']}` | `{row['peer_call']}` | {format_size(row['n_samples'])} | "
            f"{format_seconds(row['assay'])} | {format_seconds(row['peer'])} | "
            f"{row['ratio']:.2f}x |"
        )
    return [*lines, ""]


def speed_tables(speed: dict[str, Any]) -> list[str]:
    rows = pairs(speed)
    lines = sorting_table(rows)
    for title, functions in SECTIONS:
        section = [row for row in rows if row["function"] in functions]
        if not section:
            continue
        section.sort(
            key=lambda row: (functions.index(row["function"]), row["variant"], row["n_samples"])
        )
        goal = section[0]["goal"]
        lines += [
            f"### {title} (goal: at least {goal:g}x faster than scikit-learn at n = 1e7)",
            "",
            "| function | data | n | assay median | scikit-learn median | "
            "ratio (scikit-learn / assay) | rounds (assay / scikit-learn) | goal | met? |",
            "|---|---|---:|---:|---:|---:|---:|---:|---|",
        ]
        for row in section:
            goal_cell, met_cell = "", ""
            if row["met"] is not None:
                goal_cell, met_cell = f"≥ {row['goal']:g}x", verdict(row["met"])
            lines.append(
                f"| `{row['function']}` | {row['variant']} | {format_size(row['n_samples'])} | "
                f"{format_seconds(row['assay'])} | {format_seconds(row['peer'])} | "
                f"{row['ratio']:.1f}x | {row['rounds']} | {goal_cell} | {met_cell} |"
            )
        judged = [row for row in section if row["met"] is not None]
        if judged:
            n_met = sum(row["met"] for row in judged)
            lines += ["", f"Goal met in {n_met} of {len(judged)} cases at n = 1e7."]
        else:
            lines += ["", "No case was run at n = 1e7, where the goal is stated."]
        lines.append("")
    return lines


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


def _rounds_text(rounds: int) -> str:
    return f"{rounds} round" + ("" if rounds == 1 else "s")


def _how_timed(entry: dict[str, Any]) -> str:
    info = entry["info"]
    rounds = _rounds_text(entry["rounds"])
    if not info.get("extrapolated"):
        return f"all {info['n_resamples']} replicates, {rounds}"
    fixed = info["fixed_evaluations"]
    timed = f"{info['replicates_timed']} replicates"
    if fixed:
        timed += " and the estimate"
    whole = f"{info['n_resamples']}"
    if info["extra_evaluations"]:
        whole += f" + {info['extra_evaluations']:,} jackknife"
    return f"**extrapolated** from {timed} ({rounds}) to {whole} evaluations"


def _judge(value: float, goal_met: bool, goal: str, judged: bool) -> tuple[str, str]:
    return (goal, verdict(goal_met)) if judged else ("", "")


def _sizes(entries: dict[tuple[str, str, int], Any], case: str, side: str) -> list[int]:
    return sorted(n for (c, s, n) in entries if c == case and s == side)


def peer_table(entries: dict[tuple[str, str, int], dict[str, Any]]) -> list[str]:
    case = "roc_auc-percentile"
    peers = sorted({side for (c, side, _) in entries if c == case and side != "assay"})
    if not peers or not _sizes(entries, case, "assay"):
        return []
    lines = [
        "### Resampling: percentile interval of ROC AUC, 1000 replicates (goal: at least "
        f"{PEER_SPEEDUP_GOAL:g}x faster than each peer at n = {format_size(PEER_SPEEDUP_SIZE)})",
        "",
        "| peer | n | peer time | assay median | ratio (peer / assay) | how the peer was timed "
        "| goal | met? |",
        "|---|---:|---:|---:|---:|---|---:|---|",
    ]
    versions = {}
    for peer in peers:
        for n in _sizes(entries, case, peer):
            theirs, mine = entries[(case, peer, n)], entries.get((case, "assay", n))
            if mine is None:
                continue
            versions[peer] = theirs["info"].get("peer_version")
            ratio = theirs["seconds"] / mine["seconds"]
            peer_time = format_duration(theirs["seconds"])
            if theirs["info"].get("extrapolated"):
                peer_time += " (extrapolated)"
            goal, met = _judge(
                ratio,
                ratio >= PEER_SPEEDUP_GOAL,
                f"≥ {PEER_SPEEDUP_GOAL:g}x",
                n == PEER_SPEEDUP_SIZE,
            )
            lines.append(
                f"| {peer} | {format_size(n)} | {peer_time} | {format_seconds(mine['seconds'])} "
                f"| {ratio:,.0f}x | {_how_timed(theirs)} | {goal} | {met} |"
            )
    batches = sorted(
        {
            (n, entry["info"]["batch"])
            for (c, side, n), entry in entries.items()
            if side == "scipy" and "batch" in entry["info"]
        }
    )
    lines += [
        "",
        "Peers: "
        + ", ".join(f"{peer} ({version})" for peer, version in versions.items())
        + ". scipy's `batch` (resamples per vectorized call): "
        + ", ".join(f"{batch} at {format_size(n)}" for n, batch in batches)
        + ". assay runs on "
        + str(entries[(case, "assay", _sizes(entries, case, "assay")[0])]["info"]["threads"])
        + " threads, the peers on one.",
        "",
    ]
    return lines


def assay_interval_table(entries: dict[tuple[str, str, int], dict[str, Any]]) -> list[str]:
    """assay's percentile and BCa intervals of AUC; scipy's BCa for comparison."""
    sizes = _sizes(entries, "roc_auc-percentile", "assay")
    if not sizes:
        return []
    lines = [
        "### Resampling: assay's intervals of ROC AUC, 1000 replicates (goals: BCa at most "
        f"{BCA_GOAL:g}x the percentile interval at n = {format_size(BCA_GOAL_SIZE)}; the "
        f"percentile interval at n = {format_size(ABSOLUTE_GOAL_SIZE)} in well under a minute, "
        f"read as at most {ABSOLUTE_GOAL_SECONDS:g} s)",
        "",
        "| n | percentile | BCa | ratio (BCa / percentile) | goal | met? | scipy BCa, batched "
        "| scipy's jackknife without `batch` |",
        "|---:|---:|---:|---:|---|---|---:|---|",
    ]
    for n in sizes:
        percentile = entries[("roc_auc-percentile", "assay", n)]
        bca = entries.get(("roc_auc-bca", "assay", n))
        goals, verdicts = [], []
        if n == ABSOLUTE_GOAL_SIZE:
            goals.append(f"percentile ≤ {ABSOLUTE_GOAL_SECONDS:g} s")
            verdicts.append(verdict(percentile["seconds"] <= ABSOLUTE_GOAL_SECONDS))
        bca_cell, ratio_cell = "not measured", ""
        if bca is not None:
            ratio = bca["seconds"] / percentile["seconds"]
            bca_cell, ratio_cell = format_seconds(bca["seconds"]), f"{ratio:.2f}x"
            if n == BCA_GOAL_SIZE:
                goals.append(f"BCa ≤ {BCA_GOAL:g}x")
                verdicts.append(verdict(ratio <= BCA_GOAL))
        scipy = entries.get(("roc_auc-bca", "scipy", n))
        scipy_cell, memory_cell = "not measured", ""
        if scipy is not None:
            scipy_cell = format_duration(scipy["seconds"])
            if scipy["info"].get("extrapolated"):
                scipy_cell += " (extrapolated)"
            unbatched = scipy["info"]["unbatched_jackknife_bytes"] / 2**30
            memory_cell = f"{unbatched:,.1f} GiB at once (not run)"
        lines.append(
            f"| {format_size(n)} | {format_seconds(percentile['seconds'])} | {bca_cell} | "
            f"{ratio_cell} | {'; '.join(goals)} | {'; '.join(verdicts)} | {scipy_cell} | "
            f"{memory_cell} |"
        )
    lines += [
        "",
        "scipy's BCa evaluates the statistic once per left-out row (its jackknife); where "
        "that is too long to run, its time is extrapolated as (1000 + n) times the time of "
        "one replicate of its percentile run.",
        "",
    ]
    return lines


def confusion_resampling_table(entries: dict[tuple[str, str, int], dict[str, Any]]) -> list[str]:
    cases = sorted({case for (case, _, _) in entries if case.endswith("-bootstrap")})
    if not cases:
        return []
    lines = [
        "### Resampling: intervals of confusion-matrix metrics, 10,000 replicates (goal: at "
        f"most {CONFUSION_GOAL:g}x one evaluation of the metric at "
        f"n = {format_size(CONFUSION_GOAL_SIZE)})",
        "",
        "| metric | n | one evaluation | bootstrap, 10,000 replicates | "
        "ratio (bootstrap / one evaluation) | rounds (bootstrap / one evaluation) | goal | met? |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for case in cases:
        for n in _sizes(entries, case, "assay"):
            mine = entries[(case, "assay", n)]
            one = entries.get((case, "one evaluation", n))
            if one is None:
                continue
            ratio = mine["seconds"] / one["seconds"]
            goal, met = _judge(
                ratio, ratio <= CONFUSION_GOAL, f"≤ {CONFUSION_GOAL:g}x", n == CONFUSION_GOAL_SIZE
            )
            lines.append(
                f"| `{mine['info']['function']}` | {format_size(n)} | "
                f"{format_seconds(one['seconds'])} | {format_seconds(mine['seconds'])} | "
                f"{ratio:.2f}x | {mine['rounds']} / {one['rounds']} | {goal} | {met} |"
            )
    return [*lines, ""]


def resampling_tables(speed: dict[str, Any]) -> list[str]:
    entries = suite_entries(speed, RESAMPLING_SUITE)
    return (
        peer_table(entries) + assay_interval_table(entries) + confusion_resampling_table(entries)
    )


def resampling_memory_table(memory: dict[str, Any]) -> list[str]:
    cases = memory.get("resampling_cases") or []
    if not cases:
        return []
    lines = [
        f"### Resampling: peak memory at n = {format_size(memory['n_samples'])} (goal: "
        f"`bootstrap` at most {RESAMPLING_MEMORY_GOAL:g}x the bytes of its input arrays)",
        "",
        "| call | inputs | assay peak increase | ratio (assay / inputs) | goal | met? | "
        f"scikit-learn loop peak increase ({memory['loop_replicates']} replicates) |",
        "|---|---:|---:|---:|---:|---|---:|",
    ]
    for case in cases:
        mine, loop = case["assay"], case["sklearn loop"]
        lines.append(
            f"| `{case['case']}` | {case['input_mib']:.1f} MiB | "
            f"{mine['peak_increase_mib']:.1f} MiB | {case['ratio_to_input']:.3f} | "
            f"≤ {RESAMPLING_MEMORY_GOAL:g} | "
            f"{verdict(case['goal_met'])} | {loop['peak_increase_mib']:.1f} MiB |"
        )
    lines += [
        "",
        "Measured like the table above (fresh process, `VmHWM` after a reset, minus the "
        "baseline); the inputs are the int64 labels and float64 scores. Every replicate of "
        "the scikit-learn loop reaches the same peak, so a few replicates show the peak of "
        "the whole loop.",
        "",
    ]
    return lines


def resampling_summary(speed: dict[str, Any], memory: dict[str, Any] | None) -> list[str]:
    entries = suite_entries(speed, RESAMPLING_SUITE)
    lines = []
    case = "roc_auc-percentile"
    mine = entries.get((case, "assay", PEER_SPEEDUP_SIZE))
    if mine is not None:
        ratios = {
            side: entries[(c, side, n)]["seconds"] / mine["seconds"]
            for (c, side, n) in entries
            if c == case and n == PEER_SPEEDUP_SIZE and side != "assay"
        }
        missed = {side: ratio for side, ratio in ratios.items() if ratio < PEER_SPEEDUP_GOAL}
        line = (
            f"- Resampling, percentile interval of AUC at n = {format_size(PEER_SPEEDUP_SIZE)} "
            f"at least {PEER_SPEEDUP_GOAL:g}x faster than each peer: met against "
            f"{len(ratios) - len(missed)} of {len(ratios)} peers"
        )
        if missed:
            line += "; **missed** against " + "; ".join(
                f"{side} ({ratio:.0f}x)" for side, ratio in missed.items()
            )
        lines.append(line + ".")
    mine = entries.get((case, "assay", ABSOLUTE_GOAL_SIZE))
    if mine is not None:
        met = mine["seconds"] <= ABSOLUTE_GOAL_SECONDS
        lines.append(
            f"- Resampling, the same interval at n = {format_size(ABSOLUTE_GOAL_SIZE)} in at "
            f"most {ABSOLUTE_GOAL_SECONDS:g} s: {'met' if met else '**missed**'} "
            f"({format_seconds(mine['seconds'])})."
        )
    percentile = entries.get((case, "assay", BCA_GOAL_SIZE))
    bca = entries.get(("roc_auc-bca", "assay", BCA_GOAL_SIZE))
    if percentile is not None and bca is not None:
        ratio = bca["seconds"] / percentile["seconds"]
        met = ratio <= BCA_GOAL
        lines.append(
            f"- Resampling, BCa at n = {format_size(BCA_GOAL_SIZE)} at most {BCA_GOAL:g}x the "
            f"percentile interval: {'met' if met else '**missed**'} ({ratio:.2f}x)."
        )
    judged = []
    for (c, side, n), entry in sorted(entries.items()):
        one = entries.get((c, "one evaluation", n))
        if side == "assay" and c.endswith("-bootstrap") and n == CONFUSION_GOAL_SIZE and one:
            judged.append((entry["info"]["function"], entry["seconds"] / one["seconds"]))
    if judged:
        missed = [(name, ratio) for name, ratio in judged if ratio > CONFUSION_GOAL]
        line = (
            f"- Resampling, 10,000-replicate interval of a confusion metric at "
            f"n = {format_size(CONFUSION_GOAL_SIZE)} at most {CONFUSION_GOAL:g}x one "
            f"evaluation: met in {len(judged) - len(missed)} of {len(judged)} metrics"
        )
        if missed:
            line += "; **missed** by " + "; ".join(
                f"`{name}` ({ratio:.2f}x)" for name, ratio in missed
            )
        lines.append(line + ".")
    cases = (memory or {}).get("resampling_cases") or []
    if cases:
        missed = [case for case in cases if not case["goal_met"]]
        line = (
            f"- Resampling, peak memory of `bootstrap` at n = {format_size(memory['n_samples'])} "
            f"at most {RESAMPLING_MEMORY_GOAL:g}x its inputs: met in "
            f"{len(cases) - len(missed)} of {len(cases)} calls"
        )
        if missed:
            line += "; **missed** by " + "; ".join(
                f"`{case['case']}` ({case['ratio_to_input']:.3f}x)" for case in missed
            )
        lines.append(line + ".")
    return lines


def memory_table(memory: dict[str, Any]) -> list[str]:
    if not memory["cases"]:
        return []
    lines = [
        f"### Peak memory of one call at n = {format_size(memory['n_samples'])} "
        "(goal: assay at most half of scikit-learn)",
        "",
        "| call | scikit-learn peak increase | assay peak increase | "
        "ratio (assay / scikit-learn) | goal | met? | assay one-time (first small call) |",
        "|---|---:|---:|---:|---:|---|---:|",
    ]
    judged = []
    for case in memory["cases"]:
        peer, mine = case["sklearn"], case["assay"]
        if "skipped" in peer or "skipped" in mine:
            reason = peer.get("skipped") or mine.get("skipped")
            lines.append(f"| `{case['case']}` | not measured: {reason} | | | | | |")
            continue
        one_time = max(run["first_small_call_kib"] for run in mine["runs"]) / 1024
        judged.append(case["goal_met"])
        lines.append(
            f"| `{case['case']}` | {peer['peak_increase_mib']:.1f} MiB | "
            f"{mine['peak_increase_mib']:.1f} MiB | {case['ratio']:.3f} | ≤ 0.5 | "
            f"{verdict(case['goal_met'])} | {one_time:.0f} MiB |"
        )
    input_mib = memory["cases"][0]["assay"]["runs"][0]["input_kib"] / 1024
    resets = {
        run["peak_was_reset"]
        for case in memory["cases"]
        for side in ("sklearn", "assay")
        for run in case[side].get("runs", [])
    }
    lines += [
        "",
        f"Goal met in {sum(judged)} of {len(judged)} calls. Inputs of the ranking calls: "
        f"{input_mib:.0f} MiB (not counted). "
        + (
            "One fresh process per cell."
            if memory["repeats"] == 1
            else f"Median of {memory['repeats']} fresh processes per cell."
        )
        + ("" if resets == {True} else " **The peak counter could not be reset in some runs.**"),
        "",
    ]
    return lines


def compile_table(compile_time: dict[str, Any]) -> list[str]:
    def ms(value: float | None) -> str:
        return "not measured" if value is None else format_seconds(value)

    lines = [
        f"### Compilation and import (median of {compile_time['repeats']} fresh processes, "
        f"{compile_time['rows']} rows)",
        "",
        "| | assay, cold cache | assay, warm cache | assay, steady state | "
        "scikit-learn, first call | scikit-learn, steady state |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for function, result in compile_time["functions"].items():
        mine, peer = result["assay"], result["sklearn"]
        label = f"first call of `{function}`"
        if function == "bootstrap":
            label = (
                "first call of `bootstrap(roc_auc_score)`, "
                f"{BOOTSTRAP_COMPILE_RESAMPLES} replicates"
            )
        lines.append(
            f"| {label} | {ms(mine['cold_first_call_seconds'])} | "
            f"{ms(mine['warm_first_call_seconds'])} | {ms(mine['steady_call_seconds'])} | "
            f"{ms(peer['first_call_seconds'])} | {ms(peer['steady_call_seconds'])} |"
        )
    first = next(iter(compile_time["functions"].values()))
    lines += [""]
    if "bootstrap" in compile_time["functions"]:
        lines += [
            "The `bootstrap` row is `assay.bootstrap(assay.roc_auc_score, ...)` with "
            f"{BOOTSTRAP_COMPILE_RESAMPLES} replicates on 1,000 rows; its scikit-learn columns "
            "are a loop of `roc_auc_score` over as many resamples (real work, not loading).",
            "",
        ]
    lines += [
        f"`import assay`: {ms(first['assay']['import_seconds'])}; "
        f"`import sklearn.metrics`: {ms(first['sklearn']['import_seconds'])} "
        "(numpy and the other dependencies included, interpreter start-up excluded).",
        "",
    ]
    return lines


def versions(speed: dict[str, Any]) -> list[str]:
    machine = speed["machine_info"]
    libraries = machine.get("library_versions", {})
    described = ", ".join(f"{name} {version}" for name, version in libraries.items())
    commit = speed.get("commit_info", {})
    source = ""
    if commit.get("id"):
        source = f" (source: commit `{commit['id'][:7]}`"
        source += ", with uncommitted changes)" if commit.get("dirty") else ")"
    return [
        f"Measured {speed['datetime'][:10]} with Python {machine['python_version']}, "
        f"{described}{source}; pytest-benchmark {speed['version']}.",
        "",
    ]


def summary(speed: dict[str, Any], memory: dict[str, Any] | None) -> list[str]:
    """One line per goal: how many cases meet it, and the ratios of those that miss."""
    rows = [row for row in pairs(speed) if row["met"] is not None]
    lines = ["### Goals at a glance", ""]
    for title, functions in SECTIONS:
        section = [row for row in rows if row["function"] in functions]
        if not section:
            continue
        missed = [row for row in section if not row["met"]]
        line = (
            f"- {title}, at least {section[0]['goal']:g}x faster at n = 1e7: met in "
            f"{len(section) - len(missed)} of {len(section)} cases"
        )
        if missed:
            line += "; **missed** by " + "; ".join(
                f"`{row['function']}` ({row['variant']}, {row['ratio']:.1f}x)" for row in missed
            )
        lines.append(line + ".")
    if memory is not None and memory["cases"]:
        judged = [case for case in memory["cases"] if "ratio" in case]
        missed = [case for case in judged if not case["goal_met"]]
        line = (
            f"- Peak memory at n = {format_size(memory['n_samples'])}, assay at most half of "
            f"scikit-learn: met in {len(judged) - len(missed)} of {len(judged)} calls"
        )
        if missed:
            line += "; **missed** by " + "; ".join(
                f"`{case['case']}` ({case['ratio']:.2f})" for case in missed
            )
        lines.append(line + ".")
    lines += resampling_summary(speed, memory)
    lines += delong_summary(speed)
    lines += protocols_summary(speed) + bias_variance_summary(speed)
    return [*lines, ""]


# --- DeLong inference (benchmarks/test_bench_delong.py): its own suite and tables. ---

DELONG_SUITE = "delong"  # test_bench_delong.py's SUITE


def delong_summary(speed: dict[str, Any]) -> list[str]:
    """One line per DeLong call judged at its goal size."""
    entries = suite_entries(speed, DELONG_SUITE)
    lines = []
    for function, what in (("auc_ci", "one model"), ("delong_test", "two models")):
        case = f"{function}-vs-roc_auc_score"
        for (c, side, n), mine in sorted(entries.items()):
            one = entries.get((case, "one roc_auc_score", n))
            if c != case or side != "assay" or one is None or n != mine["info"]["goal_size"]:
                continue
            goal = mine["info"]["goal"]
            ratio = mine["seconds"] / one["seconds"]
            verdict_text = "met" if ratio <= goal else "**missed**"
            lines.append(
                f"- DeLong, `{function}` ({what}) at n = {format_size(n)} at most {goal:g}x one "
                f"`roc_auc_score`: {verdict_text} ({ratio:.2f}x)."
            )
    return lines


def delong_tables(speed: dict[str, Any]) -> list[str]:
    """(a) ``delong_test`` against one ``roc_auc_score`` (goal); (b) against pairwise numpy."""
    entries = suite_entries(speed, DELONG_SUITE)
    lines: list[str] = []
    rows = []
    for function, what in (("auc_ci", "one model"), ("delong_test", "two models")):
        case = f"{function}-vs-roc_auc_score"
        for n in _sizes(entries, case, "assay"):
            mine = entries[(case, "assay", n)]
            one = entries.get((case, "one roc_auc_score", n))
            if one is None:
                continue
            goal, goal_size = mine["info"]["goal"], mine["info"]["goal_size"]
            ratio = mine["seconds"] / one["seconds"]
            goal_cell, met = _judge(ratio, ratio <= goal, f"≤ {goal:g}x", n == goal_size)
            rows.append(
                f"| `{function}` ({what}) | {format_size(n)} | "
                f"{format_seconds(one['seconds'])} | {format_seconds(mine['seconds'])} | "
                f"{ratio:.2f}x | {one['rounds']} / {mine['rounds']} | {goal_cell} | {met} |"
            )
            threads = mine["info"]["threads"]
    if rows:
        lines += [
            f"### DeLong against one `roc_auc_score` (goal: at most {goal:g}x at "
            f"n = {format_size(goal_size)})",
            "",
            "| call | n | one `roc_auc_score` | DeLong | ratio | rounds | goal | met? |",
            "|---|---:|---:|---:|---:|---:|---|---|",
            *rows,
            "",
            "`auc_ci` needs only sums over the sorted scores (no row positions). "
            "`delong_test` pairs each row's placements in the two models, so it sorts both "
            "models' scores carrying the row positions, one model per thread on up to "
            f"{threads} threads from n = 1e5 (on one thread below); `roc_auc_score` sorts "
            "one model's scores alone, without positions.",
            "",
        ]
    case = "delong_test-vs-pairwise"
    for n in _sizes(entries, case, "assay"):
        mine = entries[(case, "assay", n)]
        pairwise = entries.get((case, "numpy pairwise", n))
        if pairwise is None:
            continue
        lines += [
            f"### DeLong's test at n = {format_size(n)}: assay against the O(n_pos n_neg) "
            "numpy computation (no goal; ratio reported)",
            "",
            "| n | numpy, all pairs (blocks of "
            f"{pairwise['info']['block']} positives) | assay `delong_test` "
            "| ratio (numpy / assay) | goal | met? |",
            "|---:|---:|---:|---:|---|---|",
            f"| {format_size(n)} | {format_seconds(pairwise['seconds'])} | "
            f"{format_seconds(mine['seconds'])} | "
            f"{pairwise['seconds'] / mine['seconds']:,.0f}x | none | n/a |",
            "",
        ]
    return lines


# --- Estimation protocols (benchmarks/test_bench_protocols.py): cross-validation overhead. ---

PROTOCOLS_SUITE = "protocols"  # test_bench_protocols.py's SUITE


def protocols_tables(speed: dict[str, Any]) -> list[str]:
    """Overhead per fold of ``cross_validate`` with a trivial model, against scikit-learn,
    the bare row copies, and the fit time of a real model (goal: negligible next to it)."""
    entries = suite_entries(speed, PROTOCOLS_SUITE)
    case = "cross_validate-overhead"
    rows = []
    share = None
    for n in _sizes(entries, case, "assay"):
        mine = entries[(case, "assay", n)]
        peer = entries.get((case, "scikit-learn", n))
        floor = entries.get((case, "row copies", n))
        folds = mine["info"]["n_folds"]
        share = mine["info"]["negligible_share"]
        fit = mine["info"]["reference_fit_seconds"]
        per_fold = mine["seconds"] / folds
        peer_cell = format_seconds(peer["seconds"] / folds) if peer else "n/a"
        ratio_cell = f"{mine['seconds'] / peer['seconds']:.2f}x" if peer else "n/a"
        floor_cell = format_seconds(floor["seconds"] / folds) if floor else "n/a"
        of_fit = per_fold / fit
        rows.append(
            f"| {format_size(n)} | {format_seconds(per_fold)} | {peer_cell} | {ratio_cell} | "
            f"{floor_cell} | {format_seconds(fit)} | {100 * of_fit:.1f} % | "
            f"≤ {100 * share:g} % of the fit | {verdict(of_fit <= share)} |"
        )
    if not rows:
        return []
    return [
        "### Cross-validation overhead per fold (trivial model, 10-fold, accuracy)",
        "",
        "| n | assay per fold | scikit-learn per fold | ratio (assay / sklearn) | row copies "
        "per fold | LogisticRegression fit (90 % of rows) | overhead / fit | goal | met? |",
        "|---:|---:|---:|---:|---:|---:|---:|---|---|",
        *rows,
        "",
        "The model fits nothing and predicts zeros, so a call's time is all overhead: the "
        "stratified folds, taking the rows of X and y, a fresh model per fold, predicting "
        'and scoring. "Row copies" is the part no protocol can avoid when it hands a '
        "model its own training matrix (`X[train]`, `y[train]`, `X[test]`, `y[test]` of "
        'the same folds, made ahead). "Negligible" is judged against the fit of a '
        "scikit-learn `LogisticRegression` on one training fold, a cheap real model.",
        "",
    ]


# --- Bias-variance Monte Carlo (benchmarks/test_bench_bias_variance.py): its own tables. ---

BIAS_VARIANCE_SUITE = "bias_variance"  # test_bench_bias_variance.py's SUITE
BIAS_VARIANCE_CASES = (
    (
        "monte-carlo-vs-polyfit",
        "numpy.polyfit loop",
        "independent training sets: `assay.bias_variance(PolynomialRegression(15), "
        "PolynomialExample(), ...)` against a Python loop of `numpy.polyfit`/`numpy.polyval`, "
        "both followed by the same `assay.decompose`",
    ),
    (
        "bootstrap-vs-mlxtend",
        "mlxtend",
        "bootstrap replicates of one training set of 100 rows: assay's bootstrap fallback "
        "against mlxtend's `bias_variance_decomp(make_pipeline(PolynomialFeatures(15), "
        "LinearRegression()), ..., loss='mse')`",
    ),
)


def _bias_variance_case(speed: dict[str, Any], case: str) -> dict[str, Any]:
    """implementation -> (extra_info, stats) of one case of the bias-variance suite."""
    found = {}
    for bench in speed["benchmarks"]:
        info = bench["extra_info"]
        if info.get("suite") == BIAS_VARIANCE_SUITE and info.get("case") == case:
            found[info["implementation"]] = (info, bench["stats"])
    return found


def bias_variance_tables(speed: dict[str, Any]) -> list[str]:
    """The Figure 5 experiment at degree 15 (100 rows per training set, 1000 test points)
    against a numpy.polyfit loop (goal 50x) and mlxtend (goal 20x), judged at 1000 rounds."""
    rows = []
    notes = []
    for case, peer_name, described in BIAS_VARIANCE_CASES:
        found = _bias_variance_case(speed, case)
        if "assay" not in found or peer_name not in found:
            continue
        info, mine = found["assay"]
        peer = found[peer_name][1]
        ratio = peer["median"] / mine["median"]
        goal = info["goal"]
        judged = info["n_rounds"] == info["goal_rounds"]
        goal_cell, met = _judge(ratio, ratio >= goal, f"≥ {goal:g}x", judged)
        rows.append(
            f"| {peer_name} | {info['n_rounds']} | {format_seconds(peer['median'])} | "
            f"{format_seconds(mine['median'])} | {ratio:.1f}x | "
            f"{peer['rounds']} / {mine['rounds']} | {goal_cell} | {met} |"
        )
        notes.append(f"- **{peer_name}**: {described}.")
    if not rows:
        return []
    return [
        "### Bias-variance Monte Carlo (polynomial of degree 15, 100 training rows, "
        "1000 test points)",
        "",
        "| peer | rounds | peer | assay | ratio (peer / assay) | timed rounds | goal | met? |",
        "|---|---:|---:|---:|---:|---:|---|---|",
        *rows,
        "",
        *notes,
        "",
        "Goals are judged at 1000 rounds; assay's time is the whole call, decomposition included.",
        "",
    ]


def protocols_summary(speed: dict[str, Any]) -> list[str]:
    """One line: the per-fold overhead of ``cross_validate`` at the largest size measured."""
    entries = suite_entries(speed, PROTOCOLS_SUITE)
    case = "cross_validate-overhead"
    sizes = _sizes(entries, case, "assay")
    if not sizes:
        return []
    mine = entries[(case, "assay", sizes[-1])]
    info = mine["info"]
    share = mine["seconds"] / info["n_folds"] / info["reference_fit_seconds"]
    met = "met" if share <= info["negligible_share"] else "**missed**"
    return [
        f"- Cross-validation overhead per fold at n = {format_size(sizes[-1])} at most "
        f"{100 * info['negligible_share']:g} % of a LogisticRegression fit (our reading of "
        f'"negligible"): {met} ({100 * share:.1f} %).'
    ]


def bias_variance_summary(speed: dict[str, Any]) -> list[str]:
    """One line per bias-variance peer judged at its goal's number of rounds."""
    lines = []
    for case, peer_name, _ in BIAS_VARIANCE_CASES:
        found = _bias_variance_case(speed, case)
        if "assay" not in found or peer_name not in found:
            continue
        info, mine = found["assay"]
        if info["n_rounds"] != info["goal_rounds"]:
            continue
        ratio = found[peer_name][1]["median"] / mine["median"]
        met = "met" if ratio >= info["goal"] else "**missed**"
        lines.append(
            f"- Bias-variance Monte Carlo, {info['n_rounds']} rounds, at least "
            f"{info['goal']:g}x faster, against {peer_name}: {met} ({ratio:.1f}x)."
        )
    return lines


def _load(path: Path) -> dict[str, Any] | None:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def build(speed_path: Path) -> str:
    speed = json.loads(speed_path.read_text(encoding="utf-8"))
    memory = _load(speed_path.parent / "memory.json")
    compile_time = _load(speed_path.parent / "compile_time.json")
    lines = versions(speed) + summary(speed, memory) + speed_tables(speed)
    lines += resampling_tables(speed)
    lines += delong_tables(speed)
    lines += protocols_tables(speed)
    lines += bias_variance_tables(speed)
    if memory is not None:
        lines += memory_table(memory) + resampling_memory_table(memory)
    if compile_time is not None:
        lines += compile_table(compile_time)
    return "\n".join(lines).rstrip() + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("speed", type=Path, help="pytest-benchmark JSON (--benchmark-json)")
    parser.add_argument("--update", type=Path, help="page whose marked region is replaced")
    arguments = parser.parse_args()
    tables = build(arguments.speed)
    if arguments.update is None:
        print(tables, end="")
        return
    page = arguments.update.read_text(encoding="utf-8")
    if BEGIN not in page or END not in page:
        raise SystemExit(f"{arguments.update} lacks the markers {BEGIN!r} and {END!r}.")
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    arguments.update.write_text(f"{head}{BEGIN}\n\n{tables}\n{END}{tail}", encoding="utf-8")
    print(f"tables written into {arguments.update}")


if __name__ == "__main__":
    main()

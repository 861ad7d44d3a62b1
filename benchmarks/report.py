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
:func:`_report_format.whole_call_seconds`) and every such figure is labelled "extrapolated".

This module writes the speed tables against scikit-learn, the memory and compilation
tables and the summary; the resampling tables are in ``_report_resampling.py``, those of
the DeLong, protocols and bias-variance suites in ``_report_suites.py``, the shared
formatting in ``_report_format.py``.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from _report_format import format_seconds, format_size, verdict
from _report_resampling import (
    RESAMPLING_SUITE,
    resampling_memory_table,
    resampling_summary,
    resampling_tables,
)
from _report_suites import (
    BIAS_VARIANCE_SUITE,
    DELONG_SUITE,
    PROTOCOLS_SUITE,
    bias_variance_summary,
    bias_variance_tables,
    delong_summary,
    delong_tables,
    protocols_summary,
    protocols_tables,
)

BEGIN = "<!-- begin: tables written by benchmarks/report.py -->"
END = "<!-- end: tables written by benchmarks/report.py -->"
GOAL_SIZE = 10_000_000  # the speed goals are stated at n = 1e7
SORT_JOBS = ("descending_order", "sort_with_weights", "radix_sort_floats")
BOOTSTRAP_COMPILE_RESAMPLES = 200  # compile_time.py's BOOTSTRAP_RESAMPLES

SECTIONS = [
    ("Ranking scores", ("roc_auc_score", "average_precision_score")),
    ("Curves", ("roc_curve", "precision_recall_curve")),
    (
        "Confusion-matrix metrics",
        ("confusion_matrix", "accuracy_score", "f1_score", "matthews_corrcoef"),
    ),
]


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
        if "n_samples" not in info:  # the bands' suite: its table is in the plots guide
            continue
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
        "`radix_sort_floats` has no goal: `assay` times it against `ndarray.sort()` once per "
        "machine and uses the faster (see *Choosing the sort where assay runs* below).",
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

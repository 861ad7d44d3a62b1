"""The resampling tables of docs/performance.md (``test_bench_bootstrap.py``, ``memory.py``).

Peers against assay's percentile interval of ROC AUC, assay's percentile and BCa
intervals, the intervals of confusion-matrix metrics, the peak memory of ``bootstrap``,
and their lines in the summary.  Some peers are timed on part of their replicates: their
whole call is extrapolated (:func:`_report_format.whole_call_seconds`) and labelled so.
"""

from __future__ import annotations

from typing import Any

from _report_format import (
    case_sizes,
    format_duration,
    format_seconds,
    format_size,
    judge,
    suite_entries,
    verdict,
)

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


def peer_table(entries: dict[tuple[str, str, int], dict[str, Any]]) -> list[str]:
    case = "roc_auc-percentile"
    peers = sorted({side for (c, side, _) in entries if c == case and side != "assay"})
    if not peers or not case_sizes(entries, case, "assay"):
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
        for n in case_sizes(entries, case, peer):
            theirs, mine = entries[(case, peer, n)], entries.get((case, "assay", n))
            if mine is None:
                continue
            versions[peer] = theirs["info"].get("peer_version")
            ratio = theirs["seconds"] / mine["seconds"]
            peer_time = format_duration(theirs["seconds"])
            if theirs["info"].get("extrapolated"):
                peer_time += " (extrapolated)"
            goal, met = judge(
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
        + str(entries[(case, "assay", case_sizes(entries, case, "assay")[0])]["info"]["threads"])
        + " threads, the peers on one.",
        "",
    ]
    return lines


def assay_interval_table(entries: dict[tuple[str, str, int], dict[str, Any]]) -> list[str]:
    """assay's percentile and BCa intervals of AUC; scipy's BCa for comparison."""
    sizes = case_sizes(entries, "roc_auc-percentile", "assay")
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
        for n in case_sizes(entries, case, "assay"):
            mine = entries[(case, "assay", n)]
            one = entries.get((case, "one evaluation", n))
            if one is None:
                continue
            ratio = mine["seconds"] / one["seconds"]
            goal, met = judge(
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

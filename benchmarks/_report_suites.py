"""The tables of the suites with their own goals: DeLong inference, the overhead of the
estimation protocols, and the bias-variance Monte Carlo (one table and one summary line
or more each)."""

from __future__ import annotations

from typing import Any

from _report_format import case_sizes, format_seconds, format_size, judge, suite_entries, verdict

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
        for n in case_sizes(entries, case, "assay"):
            mine = entries[(case, "assay", n)]
            one = entries.get((case, "one roc_auc_score", n))
            if one is None:
                continue
            goal, goal_size = mine["info"]["goal"], mine["info"]["goal_size"]
            ratio = mine["seconds"] / one["seconds"]
            goal_cell, met = judge(ratio, ratio <= goal, f"≤ {goal:g}x", n == goal_size)
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
    for n in case_sizes(entries, case, "assay"):
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
    for n in case_sizes(entries, case, "assay"):
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
        goal_cell, met = judge(ratio, ratio >= goal, f"≥ {goal:g}x", judged)
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
    sizes = case_sizes(entries, case, "assay")
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

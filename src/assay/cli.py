"""Command line: ``assay demo``, ``assay selfcheck``, ``assay report``, ``assay rank``,
``assay --version``."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np

from assay import _compile_ahead, _rank_cli
from assay._version import __version__
from assay.reports._cli import add_parser as add_report_parser

DEMO_SEED = 20261125
DEMO_SIZE = 1_000_000
DEMO_RESAMPLES = 1000


def _timed(function: Callable[[], Any]) -> tuple[Any, float, float]:
    """Result, time of the first call (compilation included) and of a second call."""
    start = time.perf_counter()
    function()
    first = time.perf_counter() - start
    start = time.perf_counter()
    result = function()
    return result, first, time.perf_counter() - start


def _format_value(value: Any) -> str:
    if isinstance(value, tuple):  # a curve
        return f"{len(value[0]):,} points"
    return f"{float(value):.6f}"


def demo(n_samples: int = DEMO_SIZE, seed: int = DEMO_SEED, out: Any = None) -> int:
    """Evaluate a synthetic binormal test set and print every main metric with timings.

    The resampling steps' kernels are compiled meanwhile in a second process where that
    helps (see :mod:`assay._compile_ahead`)."""
    helper = _compile_ahead.start(n_samples, seed)
    try:
        return _demo(n_samples, seed, out or sys.stdout, helper)
    finally:
        _compile_ahead.stop(helper)


def _demo(n_samples: int, seed: int, out: Any, helper: Any) -> int:
    import assay
    from assay.metrics._registry import METRICS, metric_name, variants_of

    rows = _compile_ahead.demo_rows(n_samples, seed)
    y_true, y_score, _ = rows
    y_pred = (y_score >= 0.5).astype(np.int64)
    print(
        f"assay {__version__} demo: {n_samples:,} scored predictions from the binormal "
        f"model\n(population AUC {_compile_ahead.DEMO_AUC}, prevalence "
        f"{_compile_ahead.DEMO_PREVALENCE}, seed {seed}; "
        "assay.datasets.binormal_scores)\n",
        file=out,
    )
    # every ranking metric of the registry with each of its declared variants
    variants = [
        partial(METRICS[name].function, **options) for name, options in variants_of("ranking")
    ]
    cases: list[tuple[str, Callable[[], Any]]] = [
        (
            metric_name(metric) if metric.keywords else metric_name(metric.func),
            partial(metric, y_true, y_score),
        )
        for metric in variants
    ]
    cases += [
        ("roc_curve", lambda: tuple(assay.roc_curve(y_true, y_score))),
        ("precision_recall_curve", lambda: tuple(assay.precision_recall_curve(y_true, y_score))),
    ]
    for metric in (
        assay.accuracy_score,
        assay.precision_score,
        assay.recall_score,
        assay.specificity_score,
        assay.f1_score,
        assay.matthews_corrcoef,
    ):
        cases.append((f"{metric.__name__} (score >= 0.5)", partial(metric, y_true, y_pred)))
    width = max(len(name) for name, _ in cases)
    print(f"{'metric':<{width}}  {'value':>16}  {'first call':>11}  {'next call':>10}", file=out)
    for name, function in cases:
        value, first, second = _timed(function)
        print(
            f"{name:<{width}}  {_format_value(value):>16}  {first:>10.3f}s  {second:>9.3f}s",
            file=out,
        )
    print(
        "\nThe first call includes compiling (or loading from the disk cache) the kernels.",
        file=out,
    )
    if _compile_ahead.finish(helper):
        print(
            "The kernels of the three steps below were made ready meanwhile by a second "
            "process\n(compiled into the disk cache beside the first calls above, or found "
            "there).",
            file=out,
        )
    print(file=out)
    bootstrap, compare, delong = _compile_ahead.resampling_steps(rows, DEMO_RESAMPLES, seed)
    start = time.perf_counter()
    interval = bootstrap()
    elapsed = time.perf_counter() - start
    low, high = interval.confidence_interval
    print(
        f"95% bootstrap interval of the ROC AUC ({DEMO_RESAMPLES} replicates, percentile): "
        f"[{low:.4f}, {high:.4f}], standard error {interval.standard_error:.5f} "
        f"({elapsed:.2f} s, first call)",
        file=out,
    )
    start = time.perf_counter()
    comparison = compare()
    elapsed = time.perf_counter() - start
    low, high = comparison.confidence_interval
    # a p of 0: no replicate reached 0, which B replicates resolve only as p < 1/B
    pvalue = comparison.pvalue
    shown = f"< {1 / DEMO_RESAMPLES:.2g}" if pvalue == 0 else f"= {pvalue:.4g}"
    print(
        f"Paired bootstrap, AUC(model) - AUC(model + noise): {comparison.difference:.4f} "
        f"[{low:.4f}, {high:.4f}], p {shown} ({elapsed:.2f} s)",
        file=out,
    )
    start = time.perf_counter()
    test = delong()
    elapsed = time.perf_counter() - start
    assert test.confidence_interval is not None
    low, high = test.confidence_interval
    print(
        f"DeLong's test of the same difference (no resampling): {test.estimate:.4f} "
        f"[{low:.4f}, {high:.4f}], z = {test.statistic:.1f} ({elapsed:.2f} s)",
        file=out,
    )
    return 0


def selfcheck(n_trials: int = 200, seed: int = DEMO_SEED, out: Any = None) -> int:
    """Run every kernel-backed function against assay.reference; 1 on any disagreement."""
    from assay._selfcheck import run_selfcheck

    failures = run_selfcheck(n_trials=n_trials, seed=seed, out=out or sys.stdout)
    return 1 if failures else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="assay",
        description="Fast, statistically honest evaluation of classifiers and regressors.",
    )
    parser.add_argument("--version", action="version", version=f"assay {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="command")
    demo_parser = commands.add_parser(
        "demo", help="evaluate a built-in synthetic test set of 1,000,000 predictions"
    )
    demo_parser.add_argument("--n-samples", type=int, default=DEMO_SIZE)
    demo_parser.add_argument("--seed", type=int, default=DEMO_SEED)
    check_parser = commands.add_parser(
        "selfcheck", help="check every kernel against the slow reference implementation"
    )
    check_parser.add_argument("--n-trials", type=int, default=200)
    check_parser.add_argument("--seed", type=int, default=DEMO_SEED)
    rank_parser = _rank_cli.add_parser(commands)
    add_report_parser(commands)
    arguments = parser.parse_args(argv)
    if getattr(arguments, "handler", None) is not None:
        return int(arguments.handler(arguments))
    if arguments.command == "demo":
        if arguments.n_samples < 1:
            parser.error("--n-samples must be at least 1")
        return demo(arguments.n_samples, arguments.seed)
    if arguments.command == "selfcheck":
        if arguments.n_trials < 1:
            parser.error("--n-trials must be at least 1")
        return selfcheck(arguments.n_trials, arguments.seed)
    if arguments.command == "rank":
        return _rank_cli.run(arguments, rank_parser)
    parser.print_help()
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

"""``assay report FILE --target COL --score COL ...``: the report from the command line."""

from __future__ import annotations

import argparse
import sys
from typing import Any

FORMATS = ("text", "json", "markdown", "html")


def _cost(text: str) -> list[float]:
    try:
        values = [float(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--cost takes four numbers c00,c01,c10,c11; got {text!r}"
        ) from None
    if len(values) != 4:
        raise argparse.ArgumentTypeError(
            f"--cost takes four numbers c00,c01,c10,c11; got {len(values)} in {text!r}"
        )
    return values


def add_parser(commands: Any) -> None:
    """Register the ``report`` subcommand on ``commands`` (argparse subparsers)."""
    parser = commands.add_parser(
        "report",
        help="evaluate the score columns of a CSV or Parquet file against its labels",
        description="Evaluate one or more models' scores (columns of FILE) against the true "
        "labels: ROC AUC, AP, AUC-PR, EER, the threshold metrics with intervals, the "
        "majority-class baseline and whether each model beats it, and paired tests between "
        "the models.",
    )
    parser.add_argument(
        "file", metavar="FILE", help="CSV, Parquet, or a directory/glob of Parquet"
    )
    parser.add_argument("--target", required=True, metavar="COL", help="the true labels")
    parser.add_argument(
        "--score", required=True, action="append", metavar="COL", help="a model's scores (repeat)"
    )
    parser.add_argument(
        "--pred",
        action="append",
        metavar="COL",
        help="a model's predicted labels (one per --score)",
    )
    parser.add_argument("--weight", metavar="COL", help="sample weights")
    parser.add_argument("--group", metavar="COL", help="groups resampled whole by the bootstrap")
    parser.add_argument("--pos-label", metavar="L", help="the positive label")
    parser.add_argument("--threshold", type=float, default=0.5, metavar="T")
    parser.add_argument("--cost", type=_cost, metavar="c00,c01,c10,c11", help="cost matrix")
    parser.add_argument("--resamples", type=int, default=1000, metavar="B")
    parser.add_argument("--confidence", type=float, default=0.95, metavar="LEVEL")
    parser.add_argument("--seed", type=int, default=None, metavar="S")
    parser.add_argument("--format", choices=FORMATS, default="text")
    parser.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    parser.add_argument("--dropna", action="store_true", help="drop rows with missing values")
    parser.add_argument("--quiet", action="store_true", help="no progress on standard error")
    parser.set_defaults(handler=run)


def run(arguments: argparse.Namespace) -> int:
    """Compute the report, write it; errors in the data are one line on stderr, exit 2."""
    from assay.reports._build import report

    try:
        result = report(
            arguments.file,
            target=arguments.target,
            scores=arguments.score,
            pred=arguments.pred,
            weight=arguments.weight,
            group=arguments.group,
            pos_label=arguments.pos_label,
            threshold=arguments.threshold,
            cost=arguments.cost,
            n_resamples=arguments.resamples,
            confidence_level=arguments.confidence,
            rng=arguments.seed,
            dropna=arguments.dropna,
            progress=not arguments.quiet,
        )
    except (ValueError, FileNotFoundError, ImportError) as error:
        print(f"assay report: error: {error}", file=sys.stderr)
        return 2
    render = {
        "text": result.to_text,
        "json": lambda: result.to_json() + "\n",
        "markdown": result.to_markdown,
        "html": result.to_html,
    }[arguments.format]
    text = render()
    if arguments.output:
        with open(arguments.output, "w", encoding="utf-8") as stream:
            stream.write(text)
    else:
        sys.stdout.write(text)
    return 0

"""``assay rank``: rank many models over many data sets from a CSV or Parquet file.

The file is long (one row per data set and model: ``--dataset``, ``--model`` and
``--score`` name the columns) or wide (``--wide``: one row per data set, its name in
the first column or in ``--dataset``, one column per model).  Only the named columns
are read.  The result is :func:`assay.rank_models`'s, written as text, JSON, Markdown
or a self-contained HTML page; ``--png`` saves the critical difference diagram.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path
from typing import Any

from assay._files import column_names, read_table

__all__ = ["add_parser", "run"]

FORMATS = ("text", "json", "markdown", "html")
# The output format implied by the suffix of -o when --format is not given.
_SUFFIX_FORMATS = {".json": "json", ".md": "markdown", ".html": "html", ".htm": "html"}


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the ``rank`` subcommand to ``commands`` (argparse subparsers)."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "rank",
        help="rank many models over many data sets (Friedman, Nemenyi, Wilcoxon, CD diagram)",
        description=(
            "Rank models over data sets from a CSV or Parquet file: average ranks, the "
            "Friedman test with the Iman-Davenport F, Nemenyi and Bonferroni-Dunn critical "
            "differences, Holm against a control, pairwise Wilcoxon tests with Holm."
        ),
    )
    parser.add_argument(
        "file",
        metavar="FILE",
        help="a CSV file, or Parquet: a file, a directory or a glob pattern (needs pyarrow)",
    )
    parser.add_argument("--dataset", metavar="COL", help="the column of data set names")
    parser.add_argument("--model", metavar="COL", help="the column of model names (long table)")
    parser.add_argument("--score", metavar="COL", help="the column of scores (long table)")
    parser.add_argument(
        "--wide",
        action="store_true",
        help="one row per data set, one column per model (data set names in the first "
        "column, or in --dataset)",
    )
    parser.add_argument(
        "--lower-is-better", action="store_true", help="the scores are losses or error rates"
    )
    parser.add_argument("--alpha", type=float, default=0.05, help="significance level (0.05)")
    parser.add_argument("--control", metavar="NAME", help="compare every model with this one")
    parser.add_argument(
        "--zero-method",
        choices=("wilcox", "pratt", "zsplit"),
        default="wilcox",
        help="data sets with equal scores in the Wilcoxon tests (default: wilcox, dropped)",
    )
    parser.add_argument(
        "--format", choices=FORMATS, help="output format (default: from -o's suffix, else text)"
    )
    parser.add_argument("-o", "--output", metavar="OUT", help="write to OUT instead of stdout")
    parser.add_argument("--png", metavar="OUT", help="save the critical difference diagram")
    return parser


# --- The command. ---


def _table_and_options(arguments: argparse.Namespace, parser: argparse.ArgumentParser) -> Any:
    if arguments.wide:
        if arguments.model is not None or arguments.score is not None:
            parser.error("--wide takes no --model or --score: every column but the data set's")
        names = column_names(arguments.file)
        dataset = arguments.dataset if arguments.dataset is not None else names[0]
        models = [name for name in names if name != dataset]
        table = read_table(arguments.file, [dataset, *models], set(models))
        return table, {"dataset": dataset}
    needed = {"--dataset": arguments.dataset, "--model": arguments.model}
    needed["--score"] = arguments.score
    missing = [flag for flag, value in needed.items() if value is None]
    if missing:
        parser.error(
            f"a long table needs {' '.join(f'{flag} COL' for flag in missing)} "
            "(or --wide for one column per model)"
        )
    columns = [arguments.dataset, arguments.model, arguments.score]
    if len(set(columns)) != 3:
        parser.error("--dataset, --model and --score must name three different columns")
    table = read_table(arguments.file, columns, {arguments.score})
    return table, {
        "dataset": arguments.dataset,
        "model": arguments.model,
        "score": arguments.score,
    }


def _render(result: Any, output_format: str) -> str:
    if output_format == "json":
        return result.to_json(indent=2) + "\n"
    if output_format == "markdown":
        return str(result.to_markdown())
    if output_format == "html":
        return str(result.to_html())
    return str(result) + "\n"


def run(arguments: argparse.Namespace, parser: argparse.ArgumentParser, out: Any = None) -> int:
    """Run ``assay rank``; 0 on success, 1 when the file or its data are refused."""
    from assay import rank_models
    from assay._results import _rank_tables

    out = out or sys.stdout
    if not 0.0 < arguments.alpha < 1.0:
        parser.error(f"--alpha must be in (0, 1); got {arguments.alpha}")
    output_format = arguments.format
    if output_format is None:
        suffix = Path(arguments.output).suffix.lower() if arguments.output else ""
        output_format = _SUFFIX_FORMATS.get(suffix, "text")
    try:
        table, columns = _table_and_options(arguments, parser)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = rank_models(
                table,
                **columns,
                higher_is_better=not arguments.lower_is_better,
                alpha=arguments.alpha,
                control=arguments.control,
                zero_method=arguments.zero_method,
            )
    except (ImportError, OSError, ValueError) as error:
        print(f"assay rank: error: {error}", file=sys.stderr)
        return 1
    for warning in caught:
        print(f"assay rank: warning: {warning.message}", file=sys.stderr)
    text = _render(result, output_format)
    if arguments.output:
        Path(arguments.output).write_text(text, encoding="utf-8")
    else:
        out.write(text)
    if arguments.png:
        try:
            figure = _rank_tables.diagram_figure(result)
        except ImportError:
            print(
                "assay rank: error: --png needs matplotlib (`pip install 'assay[plot]'`).",
                file=sys.stderr,
            )
            return 1
        figure.savefig(arguments.png, format="png", dpi=150, bbox_inches="tight")
    return 0

"""``assay report FILE --target COL --score COL ...``: the report from the command line."""

from __future__ import annotations

import argparse
import logging
import sys
from dataclasses import replace
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


def _workers(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"--local-cluster takes a number of worker processes (1 or more); got {text!r}"
        )
    return value


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
    parser.add_argument(
        "--resampling",
        choices=("multinomial", "poisson"),
        default=None,
        help="the bootstrap's draw: multinomial (default on one machine) or poisson (the "
        "only one on Dask; the same numbers on one machine and on Dask)",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on the Dask cluster of this scheduler (Parquet only; Poisson resampling)",
    )
    where.add_argument(
        "--local-cluster",
        type=_workers,
        metavar="N",
        help="run on a local Dask cluster of N worker processes (Parquet only; Poisson)",
    )
    parser.add_argument("--format", choices=FORMATS, default="text")
    parser.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    parser.add_argument("--dropna", action="store_true", help="drop rows with missing values")
    parser.add_argument("--quiet", action="store_true", help="no progress on standard error")
    parser.set_defaults(handler=run)


def run(arguments: argparse.Namespace) -> int:
    """Compute the report, write it; errors in the data are one line on stderr, exit 2."""
    from assay.reports._build import report

    options = {
        "target": arguments.target,
        "scores": arguments.score,
        "pred": arguments.pred,
        "weight": arguments.weight,
        "group": arguments.group,
        "pos_label": arguments.pos_label,
        "threshold": arguments.threshold,
        "cost": arguments.cost,
        "n_resamples": arguments.resamples,
        "confidence_level": arguments.confidence,
        "rng": arguments.seed,
        "resampling": arguments.resampling,
        "dropna": arguments.dropna,
        "progress": not arguments.quiet,
    }
    try:
        if arguments.scheduler is not None or arguments.local_cluster is not None:
            result = _on_dask(arguments, options)
        else:
            result = report(arguments.file, **options)
    except (ValueError, OSError, ImportError, NotImplementedError) as error:
        # OSError: a file that cannot be read, a scheduler that cannot be reached
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


def _on_dask(arguments: argparse.Namespace, options: dict[str, Any]) -> Any:
    """The report of the Parquet ``FILE`` on a Dask cluster: a local one of
    ``--local-cluster`` worker processes (started and closed here) or the one of
    ``--scheduler``; the columns are read by the workers (dask.dataframe)."""
    from assay import _files
    from assay.reports._build import report
    from assay.reports._resampling import check_resampling

    check_resampling(arguments.resampling, True, arguments.group)
    path = arguments.file
    if not _files._is_parquet(path, "FILE"):
        raise ValueError(
            f"FILE {path!r} is CSV; --scheduler and --local-cluster read Parquet (a file, "
            "a directory or a glob pattern of them). Convert it, or drop the option to "
            "compute on one machine (--resampling poisson gives the same numbers)."
        )
    try:
        import dask.dataframe as dd
        import distributed
    except ImportError as error:
        raise ImportError(
            "--scheduler and --local-cluster need dask[dataframe] and distributed; install "
            "them with `pip install 'assay[dask]'`."
        ) from error
    named = [arguments.target, *arguments.score, *(arguments.pred or []), arguments.weight]
    columns = list(dict.fromkeys(name for name in named if name is not None))
    files = _files._parquet_files(path, "FILE")
    _files._row_groups(path, columns, "FILE")  # the columns' presence and types, checked
    if arguments.local_cluster is not None:
        where = f"a local Dask cluster of {arguments.local_cluster} worker process(es)"
    else:
        where = f"the Dask scheduler at {arguments.scheduler}"
    if not arguments.quiet:
        print(f"report: on {where}; Poisson resampling", file=sys.stderr)
    if arguments.local_cluster is not None:
        cluster = distributed.LocalCluster(
            n_workers=arguments.local_cluster,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            worker_dashboard_address=None,
            # the scheduler runs in this process: its shuffle plugin's notices at level
            # WARNING (each shuffle started and ended) would flood standard error
            silence_logs=logging.ERROR,
        )
        address: Any = cluster
    else:
        cluster, address = None, arguments.scheduler
    try:
        with distributed.Client(address):  # current: the graphs below are built for it
            frame = dd.read_parquet(files, columns=columns)
            result = report(frame, **options)
    finally:
        if cluster is not None:
            cluster.close()
    return replace(result, data=replace(result.data, source=path))

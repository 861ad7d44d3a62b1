"""Time and peak memory of ``assay.report``: two models, n = 1e7 rows, 1000 resamples.

Run from the repository root::

    python benchmarks/report_speed.py                 # n = 1e7, writes .benchmarks/report.json
    python benchmarks/report_speed.py --n 1000000     # a quicker look
    python benchmarks/report_speed.py --cost 0,1,5,0  # with the expected cost and its tests

Goal: under a minute once compiled, peak memory at most 3x the bytes of the columns read
(the label as int64 and two float64 score columns: 24 bytes a row).  The data is written
to a Parquet file, and the report reads it (reading is timed with the rest).  The measured
call runs in a fresh process that first makes a report of the first 1,000 rows (the
kernels come from the Numba disk cache, filled beforehand by a separate warm-up process),
then resets the peak resident set size (``/proc/self/clear_refs``) and reports the peak
above the resident size before the call, as ``benchmarks/memory.py`` does.  There is no
peer: no other library makes this report; each part's peer is in the resampling and
DeLong benchmarks.

What a replicate costs: the report draws one set of replicates for all its resampled
numbers (one draw per replicate over the first model's sorted rows; each model then
folds its ROC AUC and both curves, the draw also counts the confusion cells).  Measured
at ``--n 1000000 --resamples 200`` against the code that drew four times per replicate
(load 6-8.6 on 2 cores, processes alternating): the report's own seconds 14.2 against
18.5 (ratio 0.77); see docs/performance.md for the steps and the 1e7 run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SEED = 20261126
N_RESAMPLES = 1000
BYTES_PER_ROW = 8 + 8 + 8  # label (int64) and two scores (float64)


def _status(field: str) -> int:
    """A field of /proc/self/status in bytes (VmRSS, VmHWM)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def measure(path: str, n_resamples: int, cost: list[float] | None = None) -> dict[str, float]:
    """In this (fresh) process: warm up on a small file, then time and measure one report."""
    import assay

    small = str(Path(path).with_name("small.parquet"))  # written by the parent
    assay.report(small, target="y", scores=["a", "b"], cost=cost, n_resamples=20, rng=SEED)
    try:
        Path("/proc/self/clear_refs").write_text("5")
        reset = True
    except OSError:
        reset = False
    baseline = _status("VmRSS")
    start = time.perf_counter()
    result = assay.report(
        path, target="y", scores=["a", "b"], cost=cost, n_resamples=n_resamples, rng=SEED
    )
    seconds = time.perf_counter() - start
    peak = _status("VmHWM") - baseline
    return {
        "n_rows": result.data.n_rows,
        "n_resamples": n_resamples,
        "seconds": seconds,
        "peak_extra_bytes": peak,
        "column_bytes": result.data.n_rows * BYTES_PER_ROW,
        "peak_over_columns": peak / (result.data.n_rows * BYTES_PER_ROW),
        "peak_was_reset": reset,
        "roc_auc_a": result.model("a").row("roc_auc").estimate,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000_000)
    parser.add_argument("--resamples", type=int, default=N_RESAMPLES)
    parser.add_argument(
        "--cost", help="a cost matrix c00,c01,c10,c11: adds the expected cost and its tests"
    )
    parser.add_argument("--output", default=str(ROOT / ".benchmarks" / "report.json"))
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # the child process
    arguments = parser.parse_args()
    if arguments.measure:
        cost = None if arguments.cost is None else [float(x) for x in arguments.cost.split(",")]
        print(json.dumps(measure(arguments.measure, arguments.resamples, cost)))
        return
    import pyarrow as pa
    import pyarrow.parquet as pq

    from assay.datasets import binormal_scores

    with tempfile.TemporaryDirectory() as folder:
        y, a = binormal_scores(arguments.n, auc=0.85, prevalence=0.2, rng=SEED)
        b = a + np.random.default_rng(SEED + 1).normal(size=arguments.n)
        path = str(Path(folder) / "scores.parquet")
        pq.write_table(pa.table({"y": y.astype(np.int64), "a": a, "b": b}), path)
        # the warm-up's file: reading the first rows of the big one would leave
        # pyarrow's buffers of the whole file in the measured process before its baseline
        first = slice(0, 1000)
        small = {"y": y[first].astype(np.int64), "a": a[first], "b": b[first]}
        pq.write_table(pa.table(small), str(Path(folder) / "small.parquet"))
        del y, a, b
        child = [sys.executable, __file__, "--measure", path]
        child += [] if arguments.cost is None else ["--cost", arguments.cost]
        child += ["--resamples"]
        subprocess.run([*child, "20"], check=True, capture_output=True)  # fill the cache
        done = subprocess.run(
            [*child, str(arguments.resamples)], check=True, capture_output=True, text=True
        )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    print(json.dumps(figures, indent=2))
    Path(arguments.output).parent.mkdir(parents=True, exist_ok=True)
    Path(arguments.output).write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()

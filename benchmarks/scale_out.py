"""Exact evaluation on Dask against one machine and against Spark MLlib, on Parquet files.

Run from the repository root (needs the ``dask`` extra; the Spark peer needs ``pyspark``
and a Java runtime, and is skipped with a message where either is missing)::

    python benchmarks/scale_out.py --rows 1e7                 # 64 files in .benchmarks/
    python benchmarks/scale_out.py --rows 1e8 --resamples 1000 --spark

The data: ``--rows`` rows in ``--files`` Parquet files, float32 scores and int8 labels
(binormal, AUC about 0.85, prevalence 0.3), written once per size and reused.  Each
measurement is taken after a warm-up on a small file and after one untimed call of each
metric on all the rows (on one machine: the paths of large inputs, the parallel scan and
the one-time choice of the sort; on Dask: the workers' memory grown to what the calls
take, as in a session's later calls), so no Numba compilation is timed, on the client or
on the workers:

* one machine: the columns read into memory with pyarrow (not timed), then
  ``assay.roc_auc_score``, ``average_precision_score``, ``roc_curve`` and the Poisson
  bootstrap of ROC AUC;
* Dask: the same calls of :mod:`assay.dask` on ``dd.read_parquet`` of the files, on a
  ``LocalCluster`` of ``--workers`` single-threaded worker processes (reading is timed,
  since the workers read the files as part of the computation);
* Spark MLlib (``--spark``): ``BinaryClassificationEvaluator`` with ``numBins=0`` (MLlib's
  ``BinaryClassificationMetrics`` without binning, run in the JVM) on the same files with
  ``local[WORKERS]``: ``areaUnderROC`` and ``areaUnderPR`` (Spark's
  AUC-PR is a trapezoid area through the point (0, first precision), not assay's average
  precision: the values differ by definition, the timings are comparable).

Reported for each call: wall seconds, CPU seconds of the processes that did the work (the
client process for one machine, the worker processes for Dask; Spark's JVM is one process
and its CPU time is read from ``/proc``), rows per CPU second (the throughput per core),
and for Dask the peak resident memory of the busiest worker.  Dask's results are checked
equal to one machine's.  Each exact call is timed ``--repeats`` times on each side (3 by
default) and the median of each measure is reported (every run is kept in the output
file): on a shared machine one run of the same code varies by a third, and on a virtual
machine that hands free memory back to its host by up to three times (docs/scale-out.md,
"Fresh memory"), so the throughput ratio is also printed for the fastest run of each side.
A bootstrap is timed once.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SEED = 20261126
PREVALENCE = 0.3
SEPARATION = 1.466  # binormal: AUC = Phi(SEPARATION / sqrt(2)) = 0.85


def write_files(directory: Path, rows: int, files: int) -> None:
    """``rows`` rows in ``files`` Parquet files (float32 score, int8 label), reproducible."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    directory.mkdir(parents=True, exist_ok=True)
    bounds = np.linspace(0, rows, files + 1).astype(np.int64)
    for index in range(files):
        size = int(bounds[index + 1] - bounds[index])
        rng = np.random.default_rng([SEED, index])
        label = (rng.random(size) < PREVALENCE).astype(np.int8)
        score = (rng.standard_normal(size) + SEPARATION * label).astype(np.float32)
        table = pa.table({"label": label, "score": score})
        pq.write_table(table, directory / f"part-{index:04d}.parquet")
    (directory / "_complete").write_text(f"{rows} {files}\n")


def data_directory(rows: int, files: int, base: Path) -> Path:
    directory = base / f"scale-out-{rows}-{files}"
    marker = directory / "_complete"
    if not marker.exists() or marker.read_text().split() != [str(rows), str(files)]:
        shutil.rmtree(directory, ignore_errors=True)
        print(f"writing {rows:,} rows in {files} files to {directory} ...", flush=True)
        write_files(directory, rows, files)
    return directory


def _rss_peak() -> int:
    """This process's peak resident set size since the last reset, in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


def _reset_peak() -> bool:
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def _cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


def _timed(call: Callable[[], Any]) -> tuple[Any, float, float]:
    cpu, wall = _cpu_seconds(), time.perf_counter()
    value = call()
    return value, time.perf_counter() - wall, _cpu_seconds() - cpu


def _summary(value: Any) -> Any:
    if hasattr(value, "confidence_interval"):
        low, high = value.confidence_interval
        return [float(value.estimate), float(low), float(high)]
    if isinstance(value, tuple):
        return [int(np.asarray(part).shape[0]) for part in value]
    return float(value)


def single_machine(directory: Path, resamples: int, repeats: int) -> dict[str, Any]:
    import pyarrow.dataset as ds

    import assay

    table = ds.dataset(str(directory), format="parquet").to_table(columns=["label", "score"])
    label = table["label"].to_numpy()
    score = table["score"].to_numpy()
    calls = _calls(assay, resamples)
    for call in calls.values():  # compile on a small slice
        call(label[:2000], score[:2000])
    for name, call in calls.items():  # and the large-input paths: the parallel scan, the
        if not name.startswith("bootstrap"):  # sort's calibration (once per machine)
            call(label, score)
    results: dict[str, Any] = {}
    for name, call in calls.items():
        runs = []
        for _ in range(_repeats_of(name, repeats)):
            value, wall, cpu = _timed(lambda call=call: call(label, score))
            runs.append({"wall": wall, "cpu": cpu})
            print(f"  one machine  {name:<24} {wall:8.2f} s wall {cpu:8.2f} s CPU", flush=True)
        results[name] = {**_medians(runs), "runs": runs, "value": _summary(value)}
    return results


def _repeats_of(name: str, repeats: int) -> int:
    """Timed runs of a call: ``repeats`` of the exact calls, one of a bootstrap."""
    return 1 if name.startswith("bootstrap") else repeats


def _fastest_cpu(result: dict[str, Any]) -> float:
    """The least CPU time of one call's runs: on a machine whose fresh memory sometimes
    costs many times its usual price, the run that paid least of it."""
    return float(min(run["cpu"] for run in result["runs"]))


def _medians(runs: list[dict[str, float]]) -> dict[str, float]:
    """The median of each measure over the runs of one call."""
    return {key: float(np.median([run[key] for run in runs])) for key in runs[0]}


def _calls(module: Any, resamples: int) -> dict[str, Callable[[Any, Any], Any]]:
    import assay

    calls = {
        "roc_auc_score": module.roc_auc_score,
        "average_precision_score": module.average_precision_score,
        "roc_curve": module.roc_curve,
    }
    if resamples:
        calls[f"bootstrap ({resamples})"] = lambda y, s: module.bootstrap(
            assay.roc_auc_score, y, s, n_resamples=resamples, resampling="poisson", rng=SEED
        )
    return calls


class _WorkerPeaks:
    """Peak resident memory of each worker, polled while a computation runs."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self) -> None:
        while not self._stop.wait(0.25):
            try:
                peaks = self.client.run(_rss_peak)
            except Exception:  # a worker restarting: keep polling
                continue
            self.peak = max(self.peak, *peaks.values())

    def __enter__(self) -> _WorkerPeaks:
        self.client.run(_reset_peak)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, *self.client.run(_rss_peak).values())


def on_dask(
    directory: Path,
    resamples: int,
    workers: int,
    memory_limit: str,
    malloc_trim: bool = True,
    repeats: int = 1,
) -> dict[str, Any]:
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    import assay.dask
    import dask

    if not malloc_trim:
        # Dask's nannies start workers with MALLOC_TRIM_THRESHOLD_=65536 (freed memory
        # goes back to the system at once, so large arrays are mapped and faulted in
        # afresh every time); the other variables of its default are kept
        environ = dict(dask.config.get("distributed.nanny.pre-spawn-environ"))
        environ.pop("MALLOC_TRIM_THRESHOLD_", None)
        dask.config.set({"distributed.nanny.pre-spawn-environ": environ})
    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        memory_limit=memory_limit,
        dashboard_address=":0",
        silence_logs=logging.ERROR,
    )
    client = Client(cluster)
    try:
        calls = _calls(assay.dask, resamples)
        first = sorted(directory.glob("*.parquet"))[0]
        small = dd.read_parquet(str(first)).head(2000, compute=False).repartition(npartitions=2)
        # one file in several partitions too: its sorts take the large inputs' sort (from
        # 2**16 rows), which each worker loads or calibrates on its first use
        one_file = dd.read_parquet(str(first)).repartition(npartitions=4)
        for call in calls.values():  # compile on every worker
            call(small["label"], small["score"])
            call(one_file["label"], one_file["score"])
        for name, call in calls.items():  # and, as on one machine, one untimed call on
            if not name.startswith("bootstrap"):  # all the rows (the workers' memory
                frame = dd.read_parquet(str(directory))  # grown to what the calls take)
                call(frame["label"], frame["score"])
        results: dict[str, Any] = {}
        for name, call in calls.items():
            runs = []
            for _ in range(_repeats_of(name, repeats)):
                frame = dd.read_parquet(str(directory))
                before = sum(client.run(_cpu_seconds).values())
                with _WorkerPeaks(client) as peaks:
                    value, wall, client_cpu = _timed(
                        lambda call=call, frame=frame: call(frame["label"], frame["score"])
                    )
                cpu = sum(client.run(_cpu_seconds).values()) - before
                # client_cpu: this process, the caller (a curve is joined here) and the
                # scheduler
                runs.append({"wall": wall, "cpu": cpu, "client_cpu": client_cpu,
                             "worker_peak_bytes": float(peaks.peak)})  # fmt: skip
                print(
                    f"  Dask         {name:<24} {wall:8.2f} s wall {cpu:8.2f} s CPU"
                    f" (client and scheduler {client_cpu:6.2f} s)"
                    f"  worker peak {peaks.peak / 2**20:7.0f} MiB",
                    flush=True,
                )
            summary = _medians(runs)
            summary["worker_peak_bytes"] = max(run["worker_peak_bytes"] for run in runs)
            results[name] = {**summary, "runs": runs, "value": _summary(value)}
        return results
    finally:
        client.close()
        cluster.close()


def _jvm_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])) / ticks


def on_spark(directory: Path, workers: int) -> dict[str, Any] | None:
    try:
        from pyspark.ml.evaluation import BinaryClassificationEvaluator
        from pyspark.sql import SparkSession
    except ImportError:
        print("  Spark: pyspark is not installed; skipped", flush=True)
        return None
    if shutil.which("java") is None:
        print("  Spark: no Java runtime on PATH; skipped", flush=True)
        return None
    spark = (
        SparkSession.builder.master(f"local[{workers}]")
        .config("spark.driver.memory", "8g")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    jvm_pid = int(spark.sparkContext._jvm.ProcessHandle.current().pid())
    try:
        results: dict[str, Any] = {}
        for name in ("areaUnderROC", "areaUnderPR"):
            # the evaluator runs MLlib's BinaryClassificationMetrics inside the JVM (no
            # Python worker); numBins=0: every distinct score is a threshold (exact)
            frame = spark.read.parquet(str(directory)).selectExpr(
                "CAST(score AS DOUBLE) AS score", "CAST(label AS DOUBLE) AS label"
            )
            evaluator = BinaryClassificationEvaluator(
                rawPredictionCol="score", labelCol="label", metricName=name, numBins=0
            )
            evaluator.evaluate(frame.limit(2000))  # warm-up: classes loaded, code generated
            before = _jvm_cpu_seconds(jvm_pid)
            start = time.perf_counter()
            value = evaluator.evaluate(frame)
            wall = time.perf_counter() - start
            cpu = _jvm_cpu_seconds(jvm_pid) - before
            results[name] = {"wall": wall, "cpu": cpu, "value": float(value)}
            print(
                f"  Spark MLlib  {name:<24} {wall:8.2f} s wall {cpu:8.2f} s CPU  value {value!r}",
                flush=True,
            )
        return results
    finally:
        spark.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=float, default=1e7)
    parser.add_argument("--files", type=int, default=64)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-limit", default="4GiB", help="per Dask worker")
    parser.add_argument(
        "--resamples", type=int, default=1000, help="of the bootstrap (0: no bootstrap)"
    )
    parser.add_argument("--spark", action="store_true", help="also time Spark MLlib")
    parser.add_argument("--data", type=Path, default=ROOT / ".benchmarks")
    parser.add_argument("--skip-single", action="store_true", help="do not time one machine")
    parser.add_argument(
        "--no-malloc-trim",
        action="store_true",
        help="start the workers without Dask's default MALLOC_TRIM_THRESHOLD_",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="timed runs of each exact call on each side (the median is reported; "
        "a bootstrap runs once)",
    )
    parser.add_argument("-o", "--output", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    rows = int(args.rows)
    directory = data_directory(rows, args.files, args.data)
    record: dict[str, Any] = {
        "rows": rows,
        "files": args.files,
        "workers": args.workers,
        "memory_limit": args.memory_limit,
        "resamples": args.resamples,
        "repeats": args.repeats,
        "load_before": os.getloadavg(),
        "python": sys.version.split()[0],
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
        ).stdout.strip(),
    }
    print(f"{rows:,} rows, {args.files} files, load {os.getloadavg()[0]:.1f}", flush=True)
    if not args.skip_single:
        record["single"] = single_machine(directory, args.resamples, args.repeats)
    record["malloc_trim"] = not args.no_malloc_trim
    record["dask"] = on_dask(
        directory,
        args.resamples,
        args.workers,
        args.memory_limit,
        not args.no_malloc_trim,
        args.repeats,
    )
    if args.spark:
        record["spark"] = on_spark(directory, args.workers)
    record["load_after"] = os.getloadavg()
    if "single" in record:
        for name, dask_result in record["dask"].items():
            single = record["single"][name]
            same = single["value"] == dask_result["value"]
            ratio = single["cpu"] / dask_result["cpu"]
            fastest = _fastest_cpu(single) / _fastest_cpu(dask_result)
            print(
                f"  {name:<24} Dask throughput per core / one machine's: {ratio:5.2f}"
                f" (fastest runs: {fastest:5.2f})   same result: {same}",
                flush=True,
            )
    output = args.output or args.data / f"scale-out-{rows}.json"
    output.write_text(json.dumps(record, indent=2) + "\n")
    print(f"written {output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

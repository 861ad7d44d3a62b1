"""Import time and first-call (compilation) time of assay, against scikit-learn (the peer).

Run from the repository root::

    python benchmarks/compile_time.py                # writes .benchmarks/compile_time.json

assay's kernels are compiled by Numba on their first call and written to a disk cache;
later processes load them from there.  Every figure comes from a fresh process:

* ``import``: wall time of ``import assay`` (peer: ``import sklearn.metrics``), numpy and
  the other dependencies included, interpreter start-up excluded;
* ``cold``: the first call with an empty cache: ``NUMBA_CACHE_DIR`` points at a new
  temporary directory, so Numba compiles every kernel the call needs and writes it there;
* ``warm``: the first call in a new process with the same ``NUMBA_CACHE_DIR``: the
  kernels are loaded from the disk cache;
* ``steady``: the second call in the same process (nothing left to compile or load);
* the peer's first and second call in a fresh process, for comparison (scikit-learn
  compiles nothing, but its first call imports some modules lazily).

Calls use 1,000 rows, so the figures are compilation and loading, not computation
(except ``bootstrap``: ``assay.bootstrap(assay.roc_auc_score, ...)`` with
``BOOTSTRAP_RESAMPLES`` replicates, whose counterpart is a loop of scikit-learn's
``roc_auc_score`` over as many resamples, so its steady state is real work on both sides).
Each figure is the median over ``--repeats`` processes (each cold run with its own
new cache directory).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

N_ROWS = 1_000
FUNCTIONS = ("roc_auc_score", "f1_score", "bootstrap")
# ``bootstrap`` is ``assay.bootstrap(assay.roc_auc_score, ...)`` with this many replicates;
# its scikit-learn counterpart is a loop of ``roc_auc_score`` over as many resamples.
BOOTSTRAP_RESAMPLES = 200


def _bootstrap_call(implementation: str, module: Any) -> Any:
    if implementation == "assay":

        def call(y_true: Any, y_score: Any) -> Any:
            return module.bootstrap(
                module.roc_auc_score, y_true, y_score, n_resamples=BOOTSTRAP_RESAMPLES, rng=0
            )

        return call
    import _resampling_peers

    def loop(y_true: Any, y_score: Any) -> Any:
        return _resampling_peers.sklearn_loop(y_true, y_score, BOOTSTRAP_RESAMPLES, 0)

    return loop


def measure_in_this_process(implementation: str, function_name: str) -> dict[str, Any]:
    """Import time, first and second call; runs inside the fresh child process."""
    start = time.perf_counter()
    if implementation == "assay":
        import assay as module
    else:
        import sklearn.metrics as module
    import_seconds = time.perf_counter() - start
    if function_name == "bootstrap":
        function = _bootstrap_call(implementation, module)
    else:
        function = getattr(module, function_name, None)
    if function is None:
        return {"import_seconds": import_seconds, "skipped": f"no {function_name}"}

    import numpy as np

    generator = np.random.default_rng(0)
    y_true = (generator.random(N_ROWS) < 0.2).astype(np.int64)
    y_score = generator.standard_normal(N_ROWS) + y_true
    arguments = (
        (y_true, y_score)
        if function_name in ("roc_auc_score", "bootstrap")
        else (
            y_true,
            (y_score >= 0.5).astype(np.int64),
        )
    )
    times = []
    for _ in range(2):
        start = time.perf_counter()
        function(*arguments)
        times.append(time.perf_counter() - start)
    return {
        "import_seconds": import_seconds,
        "first_call_seconds": times[0],
        "second_call_seconds": times[1],
    }


def _child(implementation: str, function: str, cache_directory: str | None) -> dict[str, Any]:
    environment = dict(os.environ)
    if cache_directory is not None:
        environment["NUMBA_CACHE_DIR"] = cache_directory
    completed = subprocess.run(
        [sys.executable, __file__, "--child", implementation, function],
        check=True,
        capture_output=True,
        text=True,
        env=environment,
    )
    return json.loads(completed.stdout.strip().splitlines()[-1])


def _median(runs: list[dict[str, Any]], key: str) -> float | None:
    values = [run[key] for run in runs if key in run]
    return statistics.median(values) if values else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="processes per figure")
    parser.add_argument("--output", default=".benchmarks/compile_time.json", help="JSON file")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child:
        print(json.dumps(measure_in_this_process(*arguments.child)))
        return

    started = time.perf_counter()
    results: dict[str, Any] = {}
    for function in FUNCTIONS:
        cold, warm, cache_files = [], [], []
        for _ in range(arguments.repeats):
            with tempfile.TemporaryDirectory() as cache_directory:
                cold.append(_child("assay", function, cache_directory))
                cache_files.append(len(list(Path(cache_directory).rglob("*.nbi"))))
                warm.append(_child("assay", function, cache_directory))
        peer = [_child("sklearn", function, None) for _ in range(arguments.repeats)]
        results[function] = {
            "assay": {
                "cold_first_call_seconds": _median(cold, "first_call_seconds"),
                "warm_first_call_seconds": _median(warm, "first_call_seconds"),
                "steady_call_seconds": _median(warm, "second_call_seconds"),
                "import_seconds": _median(cold + warm, "import_seconds"),
                "kernels_cached_by_cold_run": cache_files,
                "skipped": cold[0].get("skipped"),
                "cold_runs": cold,
                "warm_runs": warm,
            },
            "sklearn": {
                "first_call_seconds": _median(peer, "first_call_seconds"),
                "steady_call_seconds": _median(peer, "second_call_seconds"),
                "import_seconds": _median(peer, "import_seconds"),
                "runs": peer,
            },
        }

    def show(value: float | None) -> str:
        return "skipped" if value is None else f"{value * 1e3:9.1f}"

    print(f"milliseconds, median of {arguments.repeats} fresh processes, {N_ROWS} rows")
    print(f"{'':32} {'cold':>9} {'warm':>9} {'steady':>9} {'sklearn 1st':>12}")
    for function, result in results.items():
        mine, peer = result["assay"], result["sklearn"]
        print(
            f"{function + ' first call':32} {show(mine['cold_first_call_seconds'])} "
            f"{show(mine['warm_first_call_seconds'])} {show(mine['steady_call_seconds'])} "
            f"{show(peer['first_call_seconds']):>12}"
        )
    first = next(iter(results.values()))
    print(
        f"{'import assay':32} {show(first['assay']['import_seconds'])}   "
        f"(import sklearn.metrics: {show(first['sklearn']['import_seconds']).strip()})"
    )

    output = Path(arguments.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    document = {
        "rows": N_ROWS,
        "repeats": arguments.repeats,
        "seconds": time.perf_counter() - started,
        "functions": results,
    }
    output.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    print(f"written to {output}")


if __name__ == "__main__":
    main()

"""Peak memory of one call, assay against scikit-learn (the peer), at n = 1e7.

Run from the repository root::

    python benchmarks/memory.py                      # writes .benchmarks/memory.json

Goals: assay's peak memory at most half of scikit-learn's for the same call (the
project's foundation issue); ``assay.bootstrap`` of ROC AUC with 1000 replicates at most
3x the bytes of its input arrays (issue 3: memory O(n + B), never O(n * B)).  The
bootstrap's peer for comparison is a loop of scikit-learn's ``roc_auc_score`` over
numpy-resampled rows (``_resampling_peers.sklearn_loop``); it is measured with
``LOOP_REPLICATES`` replicates, since every replicate reaches the same peak.

Numba allocates outside ``tracemalloc``, so memory is read from the operating system.
Each measurement runs in a fresh process that

1. imports the implementation and loads the input arrays from ``.npy`` files (no
   temporaries, so the process's peak so far is the data itself),
2. calls the function once on the first 1,000 rows: assay's kernels are loaded from the
   Numba disk cache, which the parent process filled beforehand by calling every
   function once in a separate process, so no compilation happens in a measured process;
   the peer's lazily imported modules are loaded too,
3. resets the kernel's peak-RSS counter (``echo 5 > /proc/self/clear_refs``; whether
   that worked is recorded as ``peak_was_reset``) and reads the resident set size
   (``VmRSS``) as the baseline,
4. makes the call on the full data, keeping its result,
5. reads the peak resident set size ``VmHWM``; the figure reported is peak minus
   baseline: the extra memory the call needed at its worst moment, its result included.

``resource.getrusage(...).ru_maxrss`` is not used: the reset does not clear it, and after
``fork`` + ``exec`` it still holds the parent process's peak.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

MIB = 2**20
WARMUP_ROWS = 1_000
GOAL = 0.5  # assay's peak increase at most this share of the peer's

# name: (function, input arrays, keyword arguments)
CASES: dict[str, tuple[str, tuple[str, ...], dict[str, Any]]] = {
    "roc_auc_score [ties=False]": ("roc_auc_score", ("y_true", "y_score"), {}),
    "roc_auc_score [ties=True]": ("roc_auc_score", ("y_true", "y_score_ties"), {}),
    "average_precision_score [ties=False]": (
        "average_precision_score",
        ("y_true", "y_score"),
        {},
    ),
    "average_precision_score [ties=True]": (
        "average_precision_score",
        ("y_true", "y_score_ties"),
        {},
    ),
    # big inputs: 5 bytes a row; goal: peak increase at most 1.5x the input bytes
    "roc_auc_score [float32 scores, uint8 labels]": (
        "roc_auc_score",
        ("y_true_uint8", "y_score_float32"),
        {},
    ),
    "roc_curve [ties=False]": ("roc_curve", ("y_true", "y_score"), {}),
    "roc_curve [ties=True]": ("roc_curve", ("y_true", "y_score_ties"), {}),
    "f1_score [n_classes=2, average=binary]": ("f1_score", ("y_true", "y_pred"), {}),
    "f1_score [n_classes=5, average=macro]": (
        "f1_score",
        ("y_true_5", "y_pred_5"),
        {"average": "macro"},
    ),
}
IMPLEMENTATIONS = ("sklearn", "assay")

BOOTSTRAP_RESAMPLES = 1000
LOOP_REPLICATES = 3
RESAMPLING_GOAL = 3.0  # assay.bootstrap's peak increase at most this many times its inputs
# name: (assay's call, the peer's call, input arrays, keyword arguments of assay's call)
RESAMPLING_CASES: dict[str, tuple[str, str, tuple[str, ...], dict[str, Any]]] = {
    "bootstrap(roc_auc_score), 1000 replicates [ties=False]": (
        "bootstrap_roc_auc",
        "sklearn_loop",
        ("y_true", "y_score"),
        {"n_resamples": BOOTSTRAP_RESAMPLES, "rng": 0},
    ),
    "bootstrap(roc_auc_score), 1000 replicates [ties=True]": (
        "bootstrap_roc_auc",
        "sklearn_loop",
        ("y_true", "y_score_ties"),
        {"n_resamples": BOOTSTRAP_RESAMPLES, "rng": 0},
    ),
}


def _resampling_call(name: str) -> Any:
    """The calls of ``RESAMPLING_CASES``, by name."""
    if name == "bootstrap_roc_auc":
        import assay

        def bootstrap_roc_auc(y_true: Any, y_score: Any, **kwargs: Any) -> Any:
            return assay.bootstrap(assay.roc_auc_score, y_true, y_score, **kwargs)

        return bootstrap_roc_auc
    import _resampling_peers

    def sklearn_loop(y_true: Any, y_score: Any, **kwargs: Any) -> Any:
        return _resampling_peers.sklearn_loop(y_true, y_score, LOOP_REPLICATES, 0)

    return sklearn_loop


def _status_kib(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"/proc/self/status has no {field} line")


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as clear_refs:
            clear_refs.write("5")
    except OSError:
        return False
    return True


def measure_in_this_process(spec: dict[str, Any]) -> dict[str, Any]:
    """Steps 1-5 of the module docstring; runs inside the fresh child process."""
    import gc

    if spec["implementation"] == "resampling":
        function = _resampling_call(spec["function"])
    else:
        if spec["implementation"] == "assay":
            import assay as module
        else:
            import sklearn.metrics as module
        function = getattr(module, spec["function"], None)
    if function is None:
        return {"skipped": f"{spec['implementation']} has no {spec['function']}"}
    arrays = [np.load(path) for path in spec["paths"]]
    kwargs = spec["kwargs"]
    rss_with_data = _status_kib("VmRSS")
    function(*(array[:WARMUP_ROWS] for array in arrays), **kwargs)
    gc.collect()
    rss_after_warmup = _status_kib("VmRSS")
    peak_was_reset = _reset_peak()
    baseline = _status_kib("VmRSS")
    peak_before_call = _status_kib("VmHWM")
    result = function(*arrays, **kwargs)
    peak = _status_kib("VmHWM")
    del result
    return {
        "baseline_kib": baseline,
        "peak_kib": peak,
        "peak_before_call_kib": peak_before_call,
        "peak_increase_kib": peak - baseline,
        "peak_was_reset": peak_was_reset,
        "first_small_call_kib": rss_after_warmup - rss_with_data,
        "input_kib": sum(array.nbytes for array in arrays) // 1024,
    }


def _child(spec: dict[str, Any]) -> dict[str, Any]:
    completed = subprocess.run(
        [sys.executable, __file__, "--child", json.dumps(spec)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(completed.stdout.strip().splitlines()[-1])


def _write_inputs(directory: Path, n_samples: int) -> dict[str, str]:
    import _data  # only in the parent: a measured child imports nothing it does not need

    y_true, y_score = _data.binary(n_samples)
    y_true_5, y_pred_5 = _data.multiclass(n_samples)
    arrays = {
        "y_true": y_true,
        "y_score": y_score,
        "y_score_ties": _data.rounded_scores(n_samples),
        "y_true_uint8": np.asarray(y_true, dtype=np.uint8),
        "y_score_float32": np.asarray(y_score, dtype=np.float32),
        "y_pred": _data.binary_predictions(n_samples),
        "y_true_5": y_true_5,
        "y_pred_5": y_pred_5,
    }
    paths = {}
    for name, array in arrays.items():
        paths[name] = str(directory / f"{name}.npy")
        np.save(paths[name], array)
    _data.binary.cache_clear()  # the parent keeps no copy while the children run
    _data.rounded_scores.cache_clear()
    _data.binary_predictions.cache_clear()
    _data.multiclass.cache_clear()
    return paths


def _warm_disk_cache(paths: dict[str, str]) -> None:
    """Call every assay function once in a separate process: compile into the disk cache."""
    code = "\n".join(
        [
            "import numpy as np, assay",
            f"arrays = {{k: np.load(v)[:{WARMUP_ROWS}] for k, v in {paths!r}.items()}}",
            *(
                f"getattr(assay, {function!r}, lambda *a, **k: None)"
                f"(*(arrays[name] for name in {inputs!r}), **{kwargs!r})"
                for function, inputs, kwargs in CASES.values()
            ),
            *(
                "assay.bootstrap(assay.roc_auc_score, "
                f"*(arrays[name] for name in {inputs!r}), **{kwargs!r})"
                for _, _, inputs, kwargs in RESAMPLING_CASES.values()
            ),
        ]
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def _mib(kib: float) -> float:
    return kib / 1024


def _measure(spec: dict[str, Any], repeats: int) -> dict[str, Any]:
    """Median peak increase over ``repeats`` fresh processes, or why it was skipped."""
    runs = [_child(spec) for _ in range(repeats)]
    if "skipped" in runs[0]:
        return {"skipped": runs[0]["skipped"]}
    return {
        "peak_increase_mib": statistics.median(_mib(run["peak_increase_kib"]) for run in runs),
        "runs": runs,
    }


def _metric_cases(paths: dict[str, str], repeats: int) -> list[dict[str, Any]]:
    print(f"{'case':46} {'scikit-learn':>13} {'assay':>8} {'ratio':>7} {'x inputs':>9}")
    results = []
    for case, (function, inputs, kwargs) in CASES.items():
        row: dict[str, Any] = {"case": case, "function": function, "kwargs": kwargs}
        for implementation in IMPLEMENTATIONS:
            spec = {
                "implementation": implementation,
                "function": function,
                "paths": [paths[name] for name in inputs],
                "kwargs": kwargs,
            }
            row[implementation] = _measure(spec, repeats)
        peer, mine = row["sklearn"], row["assay"]
        if "skipped" in peer or "skipped" in mine:
            print(f"{case:46} skipped: {peer.get('skipped') or mine.get('skipped')}")
        else:
            row["ratio"] = mine["peak_increase_mib"] / peer["peak_increase_mib"]
            row["goal_met"] = row["ratio"] <= GOAL
            row["ratio_to_input"] = mine["peak_increase_mib"] / _mib(mine["runs"][0]["input_kib"])
            print(
                f"{case:46} {peer['peak_increase_mib']:13.1f} "
                f"{mine['peak_increase_mib']:8.1f} {row['ratio']:7.3f} "
                f"{row['ratio_to_input']:9.2f}"
            )
        results.append(row)
    return results


def _resampling_cases(paths: dict[str, str], repeats: int) -> list[dict[str, Any]]:
    print(f"{'case':56} {'inputs':>7} {'assay':>8} {'x inputs':>9} {'loop':>8}")
    results = []
    for case, (call, peer_call, inputs, kwargs) in RESAMPLING_CASES.items():
        row: dict[str, Any] = {"case": case, "call": call, "kwargs": kwargs}
        for side, function in (("assay", call), ("sklearn loop", peer_call)):
            spec = {
                "implementation": "resampling",
                "function": function,
                "paths": [paths[name] for name in inputs],
                "kwargs": kwargs,
            }
            row[side] = _measure(spec, repeats)
        mine = row["assay"]
        input_mib = _mib(mine["runs"][0]["input_kib"])
        row["input_mib"] = input_mib
        row["ratio_to_input"] = mine["peak_increase_mib"] / input_mib
        row["goal_met"] = row["ratio_to_input"] <= RESAMPLING_GOAL
        print(
            f"{case:56} {input_mib:7.1f} {mine['peak_increase_mib']:8.1f} "
            f"{row['ratio_to_input']:9.2f} {row['sklearn loop']['peak_increase_mib']:8.1f}"
        )
        results.append(row)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", default="1e7", help="number of rows (default 1e7)")
    parser.add_argument("--repeats", type=int, default=1, help="fresh processes per cell")
    parser.add_argument("--output", default=".benchmarks/memory.json", help="JSON file")
    parser.add_argument(
        "--only",
        choices=("metrics", "resampling"),
        help="measure only the metric calls or only the resampling calls",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child:
        print(json.dumps(measure_in_this_process(json.loads(arguments.child))))
        return

    n_samples = int(float(arguments.n))
    started = time.perf_counter()
    results: list[dict[str, Any]] = []
    resampling: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as directory:
        paths = _write_inputs(Path(directory), n_samples)
        _warm_disk_cache(paths)
        print(f"peak memory increase of one call at n = {n_samples:.0e} (MiB)")
        if arguments.only != "resampling":
            results = _metric_cases(paths, arguments.repeats)
        if arguments.only != "metrics":
            resampling = _resampling_cases(paths, arguments.repeats)

    output = Path(arguments.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    document = {
        "n_samples": n_samples,
        "goal": f"assay's peak increase <= {GOAL} x scikit-learn's",
        "resampling_goal": f"assay.bootstrap's peak increase <= {RESAMPLING_GOAL} x its inputs",
        "loop_replicates": LOOP_REPLICATES,
        "repeats": arguments.repeats,
        "machine": platform.platform(),
        "seconds": time.perf_counter() - started,
        "cases": results,
        "resampling_cases": resampling,
    }
    output.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    print(f"written to {output}")


if __name__ == "__main__":
    main()

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
* the number of functions the cold first call compiled (Numba's ``"numba:compile"``
  events, its own helpers included): each costs a fixed price of typing and lowering;
* the peer's first and second call in a fresh process, for comparison (scikit-learn
  compiles nothing, but its first call imports some modules lazily).

Every public function is measured (``CALLS``; ``--functions`` picks some), and
``assay demo`` as a whole process with an empty cache.  Calls use 1,000 rows, so the
figures are compilation and loading, not computation
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
# ``bootstrap`` is ``assay.bootstrap(assay.roc_auc_score, ...)`` with this many replicates;
# its scikit-learn counterpart is a loop of ``roc_auc_score`` over as many resamples.
BOOTSTRAP_RESAMPLES = 200
# Every public function, as one call on the arrays of ``_arrays`` (``y``: binary labels,
# ``s``/``s2``: two models' scores, ``p``/``p2``: their predictions, ``y5``/``p5``: five
# classes, ``r``/``r2``: regression targets and predictions, ``fold_a``/``fold_b``: ten
# fold scores of two models, ``table``: scores of four models on eight data sets).
CALLS = {
    "roc_auc_score": "assay.roc_auc_score(y, s)",
    "average_precision_score": "assay.average_precision_score(y, s)",
    "pr_auc_score": "assay.pr_auc_score(y, s)",
    "equal_error_rate": "assay.equal_error_rate(y, s)",
    "roc_curve": "assay.roc_curve(y, s)",
    "precision_recall_curve": "assay.precision_recall_curve(y, s)",
    "det_curve": "assay.det_curve(y, s)",
    "confusion_matrix_at_thresholds": "assay.confusion_matrix_at_thresholds(y, s)",
    "f1_score": "assay.f1_score(y, p)",
    "fbeta_score": "assay.fbeta_score(y, p, beta=2.0)",
    "precision_score": "assay.precision_score(y, p)",
    "recall_score": "assay.recall_score(y, p)",
    "specificity_score": "assay.specificity_score(y, p)",
    "npv_score": "assay.npv_score(y, p)",
    "false_positive_rate": "assay.false_positive_rate(y, p)",
    "false_negative_rate": "assay.false_negative_rate(y, p)",
    "false_discovery_rate": "assay.false_discovery_rate(y, p)",
    "accuracy_score": "assay.accuracy_score(y, p)",
    "error_rate": "assay.error_rate(y, p)",
    "balanced_accuracy_score": "assay.balanced_accuracy_score(y, p)",
    "matthews_corrcoef": "assay.matthews_corrcoef(y, p)",
    "cohen_kappa_score": "assay.cohen_kappa_score(y, p)",
    "confusion_matrix": "assay.confusion_matrix(y5, p5)",
    "classification_report": "assay.classification_report(y5, p5)",
    "expected_cost": "assay.expected_cost(y, p, [[0, 1], [5, 0]])",
    "mean_squared_error": "assay.mean_squared_error(r, r2)",
    "root_mean_squared_error": "assay.root_mean_squared_error(r, r2)",
    "mean_absolute_error": "assay.mean_absolute_error(r, r2)",
    "r2_score": "assay.r2_score(r, r2)",
    "bootstrap": (
        f"assay.bootstrap(assay.roc_auc_score, y, s, n_resamples={BOOTSTRAP_RESAMPLES}, rng=0)"
    ),
    "compare": "assay.compare(assay.roc_auc_score, y, s, s2, rng=0)",
    "permutation_test": (
        "assay.permutation_test(assay.roc_auc_score, y, s, n_resamples=200, rng=0)"
    ),
    "delong_test": "assay.delong_test(y, s, s2)",
    "delong_test_unpaired": "assay.delong_test_unpaired(y, s, y, s2)",
    "delong_covariance": "assay.delong_covariance(y, s, s2)",
    "auc_ci": "assay.auc_ci(y, s)",
    "error_rate_ci": "assay.error_rate_ci(y, p)",
    "mcnemar": "assay.mcnemar(y, p, p2)",
    "cochrans_q": "assay.cochrans_q(y, p, p2, 1 - p)",
    "sign_test": "assay.sign_test(fold_a, fold_b)",
    "wilcoxon_signed_rank": "assay.wilcoxon_signed_rank(fold_a, fold_b)",
    "paired_ttest": "assay.paired_ttest(fold_a, fold_b)",
    "welch_ttest": "assay.welch_ttest(fold_a, fold_b)",
    "friedman": "assay.friedman(table)",
    "nemenyi": "assay.nemenyi(table)",
    "mean_ci": "assay.mean_ci(r)",
    "proportion_ci": "assay.proportion_ci(30, 100)",
}
# scikit-learn's counterpart, where it has one (``sklearn`` is ``sklearn.metrics``)
_PEER_NAMES = """roc_auc_score average_precision_score roc_curve precision_recall_curve
det_curve f1_score fbeta_score precision_score recall_score accuracy_score
balanced_accuracy_score matthews_corrcoef cohen_kappa_score confusion_matrix
classification_report mean_squared_error root_mean_squared_error mean_absolute_error
r2_score""".split()
PEER_CALLS = {name: CALLS[name].replace("assay.", "sklearn.", 1) for name in _PEER_NAMES}
PEER_CALLS["bootstrap"] = "_resampling_peers.sklearn_loop(y, s, BOOTSTRAP_RESAMPLES, 0)"
FUNCTIONS = tuple(CALLS)
# ``assay demo`` with an empty cache (goal: under 20 s) is timed as a whole process
DEMO = "assay demo"


def _arrays() -> dict[str, Any]:
    import numpy as np

    generator = np.random.default_rng(0)
    y = (generator.random(N_ROWS) < 0.2).astype(np.int64)
    s = generator.standard_normal(N_ROWS) + y
    s2 = generator.standard_normal(N_ROWS) + 0.5 * y
    r = generator.standard_normal(N_ROWS)
    return {
        "y": y,
        "s": s,
        "s2": s2,
        "p": (s >= 0.5).astype(np.int64),
        "p2": (s2 >= 0.5).astype(np.int64),
        "y5": generator.integers(0, 5, N_ROWS),
        "p5": generator.integers(0, 5, N_ROWS),
        "r": r,
        "r2": r + 0.3 * generator.standard_normal(N_ROWS),
        "fold_a": 0.8 + 0.02 * generator.standard_normal(10),
        "fold_b": 0.79 + 0.02 * generator.standard_normal(10),
        "table": 0.8 + 0.05 * generator.random((8, 4)),
    }


def measure_in_this_process(implementation: str, function_name: str) -> dict[str, Any]:
    """Import time, first and second call; runs inside the fresh child process."""
    start = time.perf_counter()
    if implementation == "assay":
        import assay as module

        calls = CALLS
    else:
        import sklearn.metrics as module

        calls = PEER_CALLS
    import_seconds = time.perf_counter() - start
    if function_name not in calls:
        return {"import_seconds": import_seconds, "skipped": f"no {function_name}"}
    namespace = {
        **_arrays(),
        implementation: module,
        "BOOTSTRAP_RESAMPLES": BOOTSTRAP_RESAMPLES,
    }
    if function_name == "bootstrap" and implementation == "sklearn":
        import _resampling_peers

        namespace["_resampling_peers"] = _resampling_peers
    code = compile(calls[function_name], function_name, "eval")
    compiled = _count_compilations() if implementation == "assay" else []
    times = []
    for _ in range(2):
        start = time.perf_counter()
        eval(code, namespace)  # the call of CALLS / PEER_CALLS
        times.append(time.perf_counter() - start)
        if len(times) == 1:
            first_call_compilations = len(compiled)
    result = {
        "import_seconds": import_seconds,
        "first_call_seconds": times[0],
        "second_call_seconds": times[1],
    }
    if implementation == "assay":
        result["first_call_compilations"] = first_call_compilations
    return result


def _count_compilations() -> list[str]:
    """A list that receives the name of every function Numba compiles from now on (its
    ``"numba:compile"`` events; loading from the disk cache is no compilation)."""
    from numba.core import event

    compiled: list[str] = []

    class _Listener(event.Listener):
        def on_start(self, event_: Any) -> None:
            pass

        def on_end(self, event_: Any) -> None:
            dispatcher = (event_.data or {}).get("dispatcher")
            compiled.append(getattr(getattr(dispatcher, "py_func", None), "__qualname__", "?"))

    event.register("numba:compile", _Listener())
    return compiled


def _demo_seconds(cache_directory: str) -> float:
    """Wall time of ``assay demo`` in a fresh process with ``cache_directory`` as cache."""
    environment = dict(os.environ, NUMBA_CACHE_DIR=cache_directory)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "assay.cli", "demo"],
        check=True,
        capture_output=True,
        env=environment,
    )
    return time.perf_counter() - start


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
    parser.add_argument(
        "--functions", nargs="+", choices=FUNCTIONS, default=FUNCTIONS, help="a subset"
    )
    parser.add_argument("--no-demo", action="store_true", help="skip the `assay demo` run")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child:
        print(json.dumps(measure_in_this_process(*arguments.child)))
        return

    started = time.perf_counter()
    results: dict[str, Any] = {}
    for function in arguments.functions:
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
                "functions_compiled_by_cold_run": [
                    run.get("first_call_compilations") for run in cold
                ],
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
        print(  # progress, for long runs
            f"{function}: cold {_median(cold, 'first_call_seconds')} s, "
            f"{cache_files} kernel files, "
            f"{[run.get('first_call_compilations') for run in cold]} functions compiled",
            file=sys.stderr,
            flush=True,
        )

    demo = []
    if not arguments.no_demo:
        for _ in range(arguments.repeats):
            with tempfile.TemporaryDirectory() as cache_directory:
                demo.append(_demo_seconds(cache_directory))

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
    if demo:
        print(f"{DEMO + ' (empty cache)':32} {show(statistics.median(demo))}")
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
        "demo_cold_seconds": statistics.median(demo) if demo else None,
        "demo_runs": demo,
    }
    output.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    print(f"written to {output}")


if __name__ == "__main__":
    main()

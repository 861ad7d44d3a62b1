"""``assay demo``'s resampling steps, and their kernels compiled ahead in a second process.

A fresh environment compiles every kernel on its first call: about 18 s of the demo's
first run, of which the three resampling steps (``bootstrap``, ``compare``,
``delong_test``) take about 10 s.  While the demo compiles and times the metrics in
its own process, a second process (``python -m assay._compile_ahead N SEED``) calls the
same three steps on the same rows with few replicates; each kernel it compiles is
written to the disk cache, from which the demo loads it when it reaches those steps
(the cache's lock keeps two processes' writes apart: :mod:`assay._kernels._cache`).
The compilation work is the same; it is spread over two cores.

No second process is started where it cannot help: with one core, with Numba's JIT
disabled, or without a writable cache location.  The demo waits for it before the
resampling steps (and stops it if it is still running after :data:`WAIT_SECONDS`);
if it failed, the demo compiles what it needs itself, as it would have anyway.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

DEMO_AUC = 0.85  # the binormal model of the demo's rows: its population AUC
DEMO_PREVALENCE = 0.2
WAIT_SECONDS = 300.0
AHEAD_RESAMPLES = 10  # enough to compile every kernel the demo's 1000 replicates use


def demo_rows(n_samples: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The demo's labels, scores, and a weaker model's scores (the scores plus noise)."""
    from assay.datasets import binormal_scores

    y_true, y_score = binormal_scores(
        n_samples, auc=DEMO_AUC, prevalence=DEMO_PREVALENCE, rng=seed
    )
    weaker = y_score + np.random.default_rng(seed + 1).normal(scale=0.5, size=n_samples)
    return y_true, y_score, weaker


def resampling_steps(
    rows: tuple[np.ndarray, np.ndarray, np.ndarray], n_resamples: int, seed: int
) -> list[Callable[[], Any]]:
    """The demo's three resampling steps, each a call: the bootstrap interval of the ROC
    AUC, the paired bootstrap of two models' AUCs, DeLong's test of the same."""
    import assay

    y_true, y_score, weaker = rows
    return [
        lambda: assay.bootstrap(
            assay.roc_auc_score, y_true, y_score, n_resamples=n_resamples, rng=seed
        ),
        lambda: assay.compare(
            assay.roc_auc_score, y_true, y_score, weaker, n_resamples=n_resamples, rng=seed
        ),
        lambda: assay.delong_test(y_true, y_score, weaker),
    ]


def _cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1  # pragma: no cover - every Linux has the affinity


def can_help() -> bool:
    """Whether a second process can compile for this one: two cores or more, Numba's
    JIT on, and a writable cache location."""
    from assay._kernels import _jit
    from assay._kernels._cache import jit_is_disabled

    return _cores() >= 2 and not jit_is_disabled() and _jit.CACHE


def start(n_samples: int, seed: int) -> subprocess.Popen[bytes] | None:
    """The second process, compiling the resampling steps' kernels for ``n_samples``
    rows and ``seed`` (None: it cannot help)."""
    if not can_help():
        return None
    command = [sys.executable, "-m", "assay._compile_ahead", str(n_samples), str(seed)]
    try:
        return subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
    except OSError:  # no process can be started here: the demo compiles as before
        return None


def finish(process: subprocess.Popen[bytes] | None, timeout: float = WAIT_SECONDS) -> bool:
    """Wait for the second process (stopped after ``timeout`` seconds); whether it
    compiled everything (exit status 0)."""
    if process is None:
        return False
    try:
        return process.wait(timeout=timeout) == 0
    except subprocess.TimeoutExpired:
        stop(process)
        return False


def stop(process: subprocess.Popen[bytes] | None) -> None:
    """Stop the second process if it is still running."""
    if process is not None and process.poll() is None:
        process.kill()
        process.wait()


def compile_ahead(n_samples: int, seed: int) -> None:
    """Call the demo's resampling steps on its rows with a few replicates."""
    for step in resampling_steps(demo_rows(n_samples, seed), AHEAD_RESAMPLES, seed):
        step()


if __name__ == "__main__":
    compile_ahead(int(sys.argv[1]), int(sys.argv[2]))

"""The ranking scores under each sort: np.sort, the radix sort, and the calibrated choice.

Run from the repository root::

    python benchmarks/sort_choice.py                 # n = 1e7, 5 repeats
    python benchmarks/sort_choice.py --n 1e6 --repeats 3

Unweighted ``roc_auc_score`` and ``average_precision_score`` of distinct float64 scores,
and of the same scores as float32, and ``delong_test`` of two float64 models (which
sorts int64 words, one per row), are timed in one process with ``ASSAY_SORT`` set to
``numpy``, ``radix`` and ``auto`` in turn (alternating, after one untimed call of
each); the medians and the median ratio radix / numpy of the pairs are printed.  The
three values of every call are checked to be bit-identical.  The first line prints the
calibrated choice of this machine and how long reading (or making) it took.
"""

from __future__ import annotations

import argparse
import functools
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import assay
from assay import _sort_choice

SORTS = ("numpy", "radix", "auto")
METRICS = {
    "roc_auc_score": assay.roc_auc_score,
    "average_precision_score": assay.average_precision_score,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e7, help="rows (default 1e7)")
    parser.add_argument("--repeats", type=int, default=5, help="timed calls per sort")
    arguments = parser.parse_args()
    n = int(arguments.n)
    generator = np.random.default_rng(0)
    y_true = (generator.random(n) < 0.5).astype(np.int64)
    scores = generator.random(n) + 0.3 * y_true
    start = time.perf_counter()
    choice = _sort_choice.calibrated_choices()
    print(f"calibrated choice {choice} ({1000 * (time.perf_counter() - start):.1f} ms)")
    for dtype in ("float64", "float32"):
        y_score = scores.astype(dtype)
        for name, function in METRICS.items():
            call = functools.partial(function, y_true, y_score)
            _compare(f"{name} {dtype} n={n:.0e}", call, arguments)
    other = scores + generator.normal(scale=0.5, size=n)

    def delong() -> tuple[float, float]:
        result = assay.delong_test(y_true, scores, other)
        return result.estimate, result.statistic

    _compare(f"delong_test float64 n={n:.0e}", delong, arguments)
    os.environ.pop("ASSAY_SORT")


def _compare(label: str, call: Callable[[], Any], arguments: argparse.Namespace) -> None:
    """Time ``call`` under each sort (after checking that its values are bit-identical)."""
    values = set()
    for sort in SORTS:
        os.environ["ASSAY_SORT"] = sort
        values.add(np.asarray(call(), dtype=np.float64).tobytes())
    assert len(values) == 1, f"{label} differs between the sorts"
    seconds: dict[str, list[float]] = {sort: [] for sort in SORTS}
    for _ in range(arguments.repeats):
        for sort in SORTS:
            os.environ["ASSAY_SORT"] = sort
            start = time.perf_counter()
            call()
            seconds[sort].append(time.perf_counter() - start)
    medians = ", ".join(f"{sort} {np.median(seconds[sort]):.3f} s" for sort in SORTS)
    ratio = np.median(np.divide(seconds["radix"], seconds["numpy"]))
    print(f"{label}: {medians}; radix / numpy {ratio:.2f}")


if __name__ == "__main__":
    main()

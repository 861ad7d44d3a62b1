"""The parallel scan of the two sorted classes against the one-piece merge.

Run from the repository root::

    python benchmarks/parallel_scan.py --sizes 1e5,1e6,1e7 --repeats 7

For each size n (the binormal scores of ``benchmarks/_data.py``, distinct scores) and
each thread count (1 and 2, ``numba.set_num_threads``), in one process, the two variants
run in turn, one piece then pieces, ``--repeats`` times after a warm-up:

* ``merge``: the scan alone over the already sorted classes: the one-piece merge
  (``scan_merged``) against the cuts and the parallel scan with ``pieces_for(n)`` pieces;
* ``call``: the whole public function (validation, the sort of each class, the scan),
  with the size threshold of the parallel scan set above n, then to 0.

Printed: the median wall seconds of each variant, the median of the pairwise ratios
(pieces / one piece; below 1 the parallel scan is faster), and the median CPU seconds of
each variant (all threads; the work done, whatever the load).  On a loaded machine the
wall figures show no gain from a second thread when the scheduler gives the process the
same share of the processors for one thread or two (Linux's autogroup does, per session).
The parallel kernels are loaded or compiled during the warm-up, so the figures are
steady-state ones.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numba
import numpy as np

import assay
from _data import binary
from assay._kernels import pieces
from assay.metrics._ranking import average_precision_options, roc_auc_options
from assay.metrics._sorted import sort_binary

FUNCTIONS = {
    "roc_auc_score": (assay.roc_auc_score, roc_auc_options()),
    "average_precision_score": (assay.average_precision_score, average_precision_options()),
}


def _seconds(call: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of one call."""
    start, start_cpu = time.perf_counter(), time.process_time()
    call()
    return time.perf_counter() - start, time.process_time() - start_cpu


def _alternate(
    one_piece: Callable[[], object], in_pieces: Callable[[], object], repeats: int
) -> tuple[float, ...]:
    """Median wall seconds of each variant, the median pairwise ratio and the median CPU
    seconds of each variant, after a warm-up."""
    one_piece()
    in_pieces()
    serial, parallel = [], []
    for _ in range(repeats):
        serial.append(_seconds(one_piece))
        parallel.append(_seconds(in_pieces))
    ratios = [p[0] / s[0] for p, s in zip(parallel, serial, strict=True)]
    return (
        statistics.median(wall for wall, _ in serial),
        statistics.median(wall for wall, _ in parallel),
        statistics.median(ratios),
        statistics.median(cpu for _, cpu in serial),
        statistics.median(cpu for _, cpu in parallel),
    )


def _parallel_scan(options: object, arguments: tuple, exact: bool, n_pieces: int) -> float:
    cuts_a, cuts_b = pieces.merged_cuts(arguments[0], arguments[1], np.int64(n_pieces))
    a, b, wa, wb, use_weights = arguments
    return float(
        pieces.scan_merged_parallel(
            options, a, b, wa, wb, np.bool_(use_weights), np.bool_(exact), cuts_a, cuts_b
        )
    )


def _whole_call(function: Callable[..., float], y: np.ndarray, s: np.ndarray, threshold: int):
    def call() -> float:
        pieces.PARALLEL_MIN_ENTRIES = threshold
        return function(y, s)

    return call


def _rows(name: str, size: int, repeats: int) -> dict[str, tuple[float, ...]]:
    """The two comparisons of one function at one size (see the module docstring)."""
    function, options = FUNCTIONS[name]
    y, s = binary(size)
    sorted_data = sort_binary(y, s)
    data = sorted_data.kernel_arguments
    exact = sorted_data.integer_counts
    n_pieces = pieces.pieces_for(size)
    return {
        "merge": _alternate(
            lambda: pieces.scan_merged(options, *data, exact),
            lambda: _parallel_scan(options, data, exact, n_pieces),
            repeats,
        ),
        "call": _alternate(
            _whole_call(function, y, s, size + 1), _whole_call(function, y, s, 0), repeats
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1e5,1e6,1e7")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument(
        "--piece-entries", type=int, default=pieces.PIECE_ENTRIES, help="entries per piece"
    )
    arguments = parser.parse_args()
    pieces.PIECE_ENTRIES = arguments.piece_entries
    default_threshold = pieces.PARALLEL_MIN_ENTRIES
    print(
        "what | n | threads | pieces | one piece (s) | pieces (s) | pieces / one piece "
        "| CPU one piece (s) | CPU pieces (s)"
    )
    for size in (int(float(text)) for text in arguments.sizes.split(",")):
        for threads in (int(text) for text in arguments.threads.split(",")):
            numba.set_num_threads(threads)
            for name in FUNCTIONS:
                for what, figures in _rows(name, size, arguments.repeats).items():
                    serial, parallel, ratio, serial_cpu, parallel_cpu = figures
                    print(
                        f"{what} {name} | {size:.0e} | {threads} | {pieces.pieces_for(size)} | "
                        f"{serial:.4f} | {parallel:.4f} | {ratio:.2f} | {serial_cpu:.4f} | "
                        f"{parallel_cpu:.4f}",
                        flush=True,
                    )
    pieces.PARALLEL_MIN_ENTRIES = default_threshold


if __name__ == "__main__":
    main()

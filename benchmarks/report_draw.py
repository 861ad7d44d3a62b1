"""CPU time of the report's one draw alone (``report_replicates``), per row and replicate.

Run from the repository root::

    python benchmarks/report_draw.py                  # n = 1e7, 32 replicates, 3 repeats
    python benchmarks/report_draw.py --n 1000000 --resamples 64

The data are those of ``benchmarks/report_speed.py`` (binormal scores of two models,
prevalence 0.2) with the joint cells of the label and both predictions at 0.5.  The
paired plan is built once; the kernel is called once untimed (the kernels come from the
disk cache or compile), then timed ``--repeats`` times on two threads.  Printed: wall and
process CPU seconds, and CPU nanoseconds per row and replicate (the figure that
``docs/performance.md`` follows for the report's draw).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

SEED = 20261126


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000_000)
    parser.add_argument("--resamples", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    arguments = parser.parse_args()

    import assay
    from assay._kernels import report_draws, resample
    from assay.datasets import binormal_scores
    from assay.metrics._registry import resolve_metric_call
    from assay.reports._curves import CURVE_GRIDS
    from assay.resampling._plans import paired_stream_plan

    n = arguments.n
    y, a = binormal_scores(n, auc=0.85, prevalence=0.2, rng=SEED)
    b = a + np.random.default_rng(SEED + 1).normal(size=n)
    codes = (4 * y + 2 * (a >= 0.5) + (b >= 0.5)).astype(np.uint8)
    declaration, _, _, keywords = resolve_metric_call(assay.roc_auc_score, {})
    options = declaration.scan_options(**keywords)
    plan = paired_stream_plan(y, a, b, pos_label=None, sample_weight=None, clusters=None,
                              row_codes=codes)  # fmt: skip
    grids = CURVE_GRIDS

    def draw(count: int) -> None:
        roc, recall = grids.roc.shape[0], grids.precision_recall.shape[0]
        outs = report_draws.Outs(
            np.empty(count), np.empty(count), np.empty((count, roc)),
            np.empty((count, recall)), np.empty((count, roc)), np.empty((count, recall)),
            np.zeros((count, int(codes.max()) + 1), dtype=np.int64),
        )  # fmt: skip
        report_draws.report_replicates(
            plan.a, plan.b, plan.a_position_of_b, plan.clusters, plan.codes_a, options,
            resample.Draw(resample.MULTINOMIAL, np.uint64(SEED), 0), grids, outs, 2,
        )  # fmt: skip

    draw(16)
    for _ in range(arguments.repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        draw(arguments.resamples)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        per = cpu / arguments.resamples / n * 1e9
        print(f"n={n:,} resamples={arguments.resamples}: {wall:.2f} s wall, {cpu:.2f} s CPU, "
              f"{per:.2f} ns of CPU per row and replicate")  # fmt: skip


if __name__ == "__main__":
    main()

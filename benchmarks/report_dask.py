"""The data of the ``assay report`` timings on one machine and on Dask (docs/scale-out.md).

``python benchmarks/report_dask.py DIRECTORY [ROWS] [FILES]`` writes ROWS (default 1e6)
binormal rows (AUC 0.85, prevalence 0.2, literal seeds) with two models' scores in FILES
(default 8) Parquet files; then time, in alternating fresh processes::

    assay report DIRECTORY --target y --score a --score b --resamples 200 --seed 1 \\
        --format json --quiet --resampling poisson
    assay report DIRECTORY --target y --score a --score b --resamples 200 --seed 1 \\
        --format json --quiet --local-cluster 2

(the two print the same JSON).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from assay.datasets import binormal_scores

SEED = 20261126


def write(directory: Path, rows: int = 1_000_000, files: int = 8) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    y, a = binormal_scores(rows, auc=0.85, prevalence=0.2, rng=SEED)
    b = a + np.random.default_rng(SEED + 1).normal(scale=0.5, size=rows)
    directory.mkdir(parents=True, exist_ok=True)
    for index, part in enumerate(np.array_split(np.arange(rows), files)):
        table = pa.table({"y": y[part].astype(np.int8), "a": a[part], "b": b[part]})
        pq.write_table(table, directory / f"part-{index:02d}.parquet")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    write(Path(arguments[0]), *(int(value) for value in arguments[1:3]))

"""Given a seed, every resampling procedure gives the same bits for any number of threads.

The other thread tests compare one thread with the machine's default (two on a small
machine).  Here a fresh interpreter is started with ``NUMBA_NUM_THREADS=4``, whatever
the cores, and runs each procedure with 1, 2, 3 and 4 threads; every run must reproduce,
bit for bit, the replicates this process computes with its own default.  Replicate ``b``
draws from the random stream keyed by (seed, b) and is summed by one thread alone, so
neither the thread count nor the chunking may change a bit.
"""

from __future__ import annotations

import numpy as np

from tests._kernels._isolated import last_json_line, run_python

# Shared by this process and the child: the data and the calls, each returning replicates.
CALLS = """
import numpy as np
import assay
from assay.datasets import binormal_scores

y_true, y_score = binormal_scores(600, rng=4)
other = y_score + np.random.default_rng(5).normal(size=600)
labels = (y_score > 0.5).astype(int)
weights = np.random.default_rng(6).random(600)
clusters = np.arange(600) % 37


def replicates():
    runs = {
        "auc": assay.bootstrap(assay.roc_auc_score, y_true, y_score, n_resamples=64, rng=1),
        "auc poisson": assay.bootstrap(
            assay.roc_auc_score, y_true, y_score, resampling="poisson", n_resamples=64, rng=1
        ),
        "auc weighted clusters": assay.bootstrap(
            assay.average_precision_score, y_true, y_score, sample_weight=weights,
            groups=clusters, n_resamples=64, rng=1,
        ),
        "f1 cells": assay.bootstrap(assay.f1_score, y_true, labels, n_resamples=64, rng=1),
        "mse rows": assay.bootstrap(
            assay.mean_squared_error, y_score, other, n_resamples=64, rng=1
        ),
    }
    values = {name: result.bootstrap_distribution for name, result in runs.items()}
    values["compare"] = assay.compare(
        assay.roc_auc_score, y_true, y_score, other, n_resamples=64, rng=1
    ).resampled_differences
    values["compare permutation"] = assay.compare(
        assay.roc_auc_score, y_true, y_score, other, method="permutation",
        n_resamples=64, rng=1,
    ).resampled_differences
    values["permutation"] = assay.permutation_test(
        assay.roc_auc_score, y_true, y_score, n_resamples=64, rng=1
    ).null_distribution
    return {name: [float(v).hex() for v in array] for name, array in values.items()}
"""


def test_replicates_are_identical_for_one_to_four_threads():
    namespace: dict = {}
    exec(CALLS, namespace)  # the same calls in this process, default thread count
    expected = namespace["replicates"]()
    process = run_python(
        CALLS
        + """
import json
import numba

found = {}
for threads in (1, 2, 3, 4):
    numba.set_num_threads(threads)
    found[threads] = replicates()
print(json.dumps(found))
""",
        environment={"NUMBA_NUM_THREADS": "4"},
        warnings_as_errors=False,  # a threading-layer warning is no failure here
    )
    found = last_json_line(process)
    assert sorted(found) == ["1", "2", "3", "4"]
    for threads, values in found.items():
        assert values.keys() == expected.keys()
        for name, hexes in values.items():
            np.testing.assert_array_equal(
                [float.fromhex(h) for h in hexes],
                [float.fromhex(h) for h in expected[name]],
                err_msg=f"{name} with {threads} threads",
            )

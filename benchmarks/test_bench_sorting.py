"""Sort once: the radix sort of the kernels against NumPy's sorts (the peer).

The issue's requirement: a sort that beats ``np.argsort`` on float64 keys.  Two jobs:

* ``descending_order``: a stable descending permutation of float64 scores (what a
  bootstrap needs to re-weight sorted rows), against ``np.argsort(-x, kind="stable")``
  (the stable peer) and ``np.argsort(-x)`` (NumPy's default, unstable; vectorised on
  AVX-512 machines);
* ``sort_with_weights``: scores sorted with their weights carried along (the weighted
  ranking path), against ``np.argsort`` followed by gathering scores and weights.

* ``radix_sort_floats``: negated scores sorted ascending in place (the unweighted
  ranking path), float64 and float32, against ``ndarray.sort()``.  These are the two
  sorts the calibration of ``assay._sort_choice`` chooses between; which one wins
  depends on the machine, so no goal is stated for it.

No goal is stated beyond "beats np.argsort".
"""

from __future__ import annotations

import numpy as np
import pytest

import _data
from assay._kernels import ranking as ranking_kernels
from assay._kernels import sorting
from assay._sort_choice import descending_order

PEER = "NumPy"
implementations = pytest.mark.parametrize("implementation", ["numpy", "assay"])


def _scores(n_samples: int) -> np.ndarray:
    return _data.scores(n_samples, False)[1]


def _pair(benchmark, function, setup, *, job: str, peer_call: str, n_samples: int, side: str):
    exponent = round(np.log10(n_samples))
    size = f"1e{exponent}" if 10**exponent == n_samples else str(n_samples)
    benchmark.group = f"{job} vs {peer_call} [n={size}]"
    benchmark.extra_info.update(
        {
            "function": job,
            "implementation": side,
            "peer": PEER,
            "peer_call": peer_call,
            "n_samples": n_samples,
            "goal": 1.0,
        }
    )
    benchmark.pedantic(function, setup=setup, rounds=5, iterations=1, warmup_rounds=1)


@implementations
@pytest.mark.parametrize("peer_call", ["np.argsort(kind='stable')", "np.argsort()"])
def test_descending_order(benchmark, implementation, peer_call, n_samples) -> None:
    scores = _scores(n_samples)
    kind = "stable" if "stable" in peer_call else None
    expected = np.argsort(-scores, kind="stable")
    np.testing.assert_array_equal(descending_order(scores), expected)
    if implementation == "assay":
        function = descending_order
    else:

        def function(x):
            return np.argsort(-x, kind=kind)

    _pair(
        benchmark,
        function,
        lambda: ((scores,), {}),
        job="descending_order",
        peer_call=peer_call,
        n_samples=n_samples,
        side=implementation,
    )


@implementations
def test_sort_with_weights(benchmark, implementation, n_samples) -> None:
    scores = -_scores(n_samples)  # the kernels sort negated scores ascending
    weights = _data.weights(n_samples)

    def argsort_and_gather(x, w):
        order = np.argsort(x)
        return x[order], w[order]

    function = (
        ranking_kernels.sort_with_weights if implementation == "assay" else (argsort_and_gather)
    )
    _pair(
        benchmark,
        function,
        lambda: ((scores.copy(), weights.copy()), {}),
        job="sort_with_weights",
        peer_call="np.argsort() + gather",
        n_samples=n_samples,
        side=implementation,
    )


@implementations
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_radix_sort_floats(benchmark, implementation, dtype, n_samples) -> None:
    values = -_scores(n_samples).astype(dtype)  # the kernels sort negated scores ascending
    np.testing.assert_array_equal(sorting.radix_sort_floats(values.copy()), np.sort(values))
    function = sorting.radix_sort_floats if implementation == "assay" else np.ndarray.sort
    _pair(
        benchmark,
        function,
        lambda: ((values.copy(),), {}),
        job="radix_sort_floats",
        peer_call=f"ndarray.sort() ({dtype})",
        n_samples=n_samples,
        side=implementation,
    )

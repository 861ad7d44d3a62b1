"""Every ranking metric and curve has the same bits whichever sort ordered the scores.

Unweighted scores are sorted by ``np.sort`` or by the radix sort, as the calibration
of :mod:`assay._sort_choice` (or ``ASSAY_SORT``) decides.  The radix sort turns -0.0
into +0.0 and need not keep tied values in np.sort's order; neither may change a
result: both runs are compared bit for bit, on tied scores, signed zeros, float32
scores, tiny inputs and inputs large enough for the radix sort's bucket pass.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import assay
from assay.metrics._registry import METRICS, variants_of
from tests.strategies import binary_ranking_data

FUNCTIONS: dict[str, Callable[..., Any]] = {
    f"{name}{options}": functools.partial(METRICS[name].function, **options)
    for name, options in variants_of("ranking")
}
FUNCTIONS |= {
    "roc_curve": assay.roc_curve,
    "roc_curve(drop_intermediate=False)": lambda y, s: assay.roc_curve(
        y, s, drop_intermediate=False
    ),
    "precision_recall_curve": assay.precision_recall_curve,
    "det_curve": assay.det_curve,
    "cumulative_gain_curve": assay.cumulative_gain_curve,
    "confusion_matrix_at_thresholds": assay.confusion_matrix_at_thresholds,
}


def _bits(result: Any) -> list[bytes]:
    """The raw bytes of a value or of every array of a curve (-0.0 differs from 0.0)."""
    if isinstance(result, float | np.floating):
        return [np.float64(result).tobytes()]
    return [np.ascontiguousarray(part).tobytes() for part in result]


def _under(sort: str, function: Callable[..., Any], y: Any, s: Any) -> list[bytes]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ASSAY_SORT", sort)
        return _bits(function(y, s))


def _same_bits_under_both_sorts(y_true: np.ndarray, y_score: np.ndarray) -> None:
    for name, function in FUNCTIONS.items():
        by_numpy = _under("numpy", function, y_true, y_score)
        by_radix = _under("radix", function, y_true, y_score)
        assert by_numpy == by_radix, name


@given(binary_ranking_data(max_n=60, both_classes=True), st.booleans())
def test_every_ranking_result_has_the_same_bits_under_both_sorts(
    data: tuple[np.ndarray, np.ndarray, np.ndarray | None], as_float32: bool
) -> None:
    y_true, y_score, _ = data  # the sort is chosen for unweighted scores only
    if as_float32:
        y_score = y_score.astype(np.float32)
    _same_bits_under_both_sorts(y_true, y_score)


@pytest.mark.skipif(
    os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"),
    reason="600,000 rows through every ranking function need compiled kernels",
)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_large_tied_inputs_have_the_same_bits_under_both_sorts(dtype: type) -> None:
    # more rows per class than the radix sort's bucket threshold, and more distinct
    # scores than are grouped by hashing, so both classes are sorted row by row
    rng = np.random.default_rng(20261128)
    n = 600_000
    y_true = (rng.random(n) < 0.5).astype(np.int64)
    y_score = np.round(rng.normal(size=n) + y_true, 5).astype(dtype)  # ties
    y_score[rng.integers(0, n, 2000)] = -0.0
    y_score[rng.integers(0, n, 2000)] = 0.0
    _same_bits_under_both_sorts(y_true, y_score)

"""The parallel scan of the two sorted classes equals the one-piece scan.

The merged order of the positives' and the negatives' sorted scores is cut into pieces
at tie-group boundaries (:func:`~assay._kernels.pieces.merged_cuts`), the pieces are
folded on all threads and combined in order.  With integer counts the result must be
bit-identical to the one-piece merge (:func:`~assay._kernels.pieces.scan_merged`) for any
number of pieces and threads; with fractional weights it agrees to rounding, and for a
fixed number of pieces it is the same on any number of threads.
"""

from __future__ import annotations

import contextlib
import math
import os

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numba.core import types

import assay
from assay import reference
from assay._kernels import pieces
from assay._kernels.scans import SCANS
from assay._kernels.scans.roc_auc import RocAuc
from assay.metrics._registry import METRICS, variants_of
from assay.metrics._sorted import sort_binary
from tests.strategies import binary_ranking_data

# Fractional weights: the class totals and each piece's starting weight are summed piece
# by piece instead of in one run, so values agree to a few roundings (relative).
WEIGHTED_TOLERANCE = 1e-12
# Against the exact reference: a handful of float roundings in the kernel.
REFERENCE_TOLERANCE = 1e-12

CASES = [
    (METRICS[name].scan_options(**options), name, options)
    for name, options in variants_of("ranking")
]
IDS = [f"{type(options).__name__}{tuple(options)}" for options, _, _ in CASES]

THREAD_COUNTS = [
    pytest.param(
        threads,
        marks=pytest.mark.skipif(
            threads > numba.config.NUMBA_NUM_THREADS, reason="fewer threads available"
        ),
    )
    for threads in (1, 2)
]


@contextlib.contextmanager
def numba_threads(n_threads):
    """Numba's thread count set to ``n_threads`` inside the block, then restored."""
    before = numba.get_num_threads()
    numba.set_num_threads(n_threads)
    try:
        yield
    finally:
        numba.set_num_threads(before)


def _same(value, expected):
    return value == expected or (math.isnan(value) and math.isnan(expected))


def test_every_declared_scan_is_tested():
    assert {type(options) for options, _, _ in CASES} == set(SCANS)


@pytest.mark.parametrize("n_threads", THREAD_COUNTS)
@pytest.mark.parametrize(("options", "name", "kwargs"), CASES, ids=IDS)
@given(data=binary_ranking_data(max_n=120), n_pieces=st.integers(1, 12))
def test_parallel_scan_equals_one_piece(n_threads, options, name, kwargs, data, n_pieces):
    y_true, y_score, sample_weight = data
    sorted_data = sort_binary(y_true, y_score, sample_weight=sample_weight)
    arguments = sorted_data.kernel_arguments
    exact = sorted_data.integer_counts
    cuts_a, cuts_b = pieces.merged_cuts(arguments[0], arguments[1], np.int64(n_pieces))
    whole = pieces.scan_merged(options, *arguments, exact)
    with numba_threads(n_threads):
        split = pieces.scan_merged_parallel(options, *arguments, np.bool_(exact), cuts_a, cuts_b)
    if exact:
        assert _same(split, whole)  # bit for bit
    elif math.isnan(whole):
        assert math.isnan(split)
    else:
        assert split == pytest.approx(whole, rel=WEIGHTED_TOLERANCE, abs=1e-15)


@given(data=binary_ranking_data(max_n=120), n_pieces=st.integers(1, 12))
def test_weighted_parallel_scan_is_the_same_on_one_and_two_threads(data, n_pieces):
    # with fractional weights the result depends on the cuts, never on the threads
    y_true, y_score, sample_weight = data
    sorted_data = sort_binary(y_true, y_score, sample_weight=sample_weight)
    arguments = sorted_data.kernel_arguments
    exact = np.bool_(sorted_data.integer_counts)
    cuts_a, cuts_b = pieces.merged_cuts(arguments[0], arguments[1], np.int64(n_pieces))
    for options, _, _ in CASES:
        values = []
        for threads in sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)}):
            with numba_threads(threads):
                values.append(
                    pieces.scan_merged_parallel(options, *arguments, exact, cuts_a, cuts_b)
                )
        assert all(_same(value, values[0]) for value in values)


@given(data=binary_ranking_data(max_n=120), n_pieces=st.integers(1, 20))
def test_cuts_never_split_a_tie_group(data, n_pieces):
    y_true, y_score, sample_weight = data
    sorted_data = sort_binary(y_true, y_score, sample_weight=sample_weight)
    a, b = sorted_data.positive_scores, sorted_data.negative_scores
    cuts_a, cuts_b = pieces.merged_cuts(a, b, np.int64(n_pieces))
    assert cuts_a.shape == cuts_b.shape == (n_pieces + 1,)
    assert (cuts_a[0], cuts_b[0], cuts_a[-1], cuts_b[-1]) == (0, 0, a.shape[0], b.shape[0])
    assert np.all(np.diff(cuts_a) >= 0) and np.all(np.diff(cuts_b) >= 0)
    for cut_a, cut_b in zip(cuts_a[1:-1], cuts_b[1:-1], strict=True):
        above = np.concatenate([a[:cut_a], b[:cut_b]])
        below = np.concatenate([a[cut_a:], b[cut_b:]])
        if above.size and below.size:
            assert above.max() < below.min()  # every tie group wholly on one side


@given(n=st.integers(1, 500), n_positive_share=st.floats(0.0, 1.0), n_pieces=st.integers(1, 20))
def test_cuts_of_distinct_scores_balance_the_pieces(n, n_positive_share, n_pieces):
    scores = np.random.default_rng(7).permutation(n).astype(np.float64)
    positive = np.arange(n) < round(n_positive_share * n)
    a = np.sort(scores[positive])
    b = np.sort(scores[~positive])
    cuts_a, cuts_b = pieces.merged_cuts(a, b, np.int64(n_pieces))
    sizes = np.diff(cuts_a) + np.diff(cuts_b)
    # piece j starts at merged position floor(j n / n_pieces)
    expected = np.diff((np.arange(n_pieces + 1) * n) // n_pieces)
    np.testing.assert_array_equal(sizes, expected)


def test_the_piece_count_depends_on_the_size_only():
    assert pieces.pieces_for(0) == 1
    assert pieces.pieces_for(pieces.PIECE_ENTRIES - 1) == 1
    assert pieces.pieces_for(3 * pieces.PIECE_ENTRIES) == 3
    assert pieces.pieces_for(10**12) == pieces.MAX_PIECES
    with numba_threads(1):
        assert pieces.pieces_for(10**7) == pieces.pieces_for(10**7 + 1) > 1


# --- The public functions take the parallel path above the threshold. ---

PUBLIC_CALLS = [
    (assay.roc_auc_score, {}),
    (assay.roc_auc_score, {"max_fpr": 0.3}),
    (assay.average_precision_score, {}),
    (assay.pr_auc_score, {"method": "trapezoid"}),
    (assay.pr_auc_score, {"method": "interpolated"}),
    (assay.pr_auc_score, {"method": "11-point"}),
    (assay.equal_error_rate, {"method": "interpolate"}),
    (assay.equal_error_rate, {"method": "nearest"}),
]


@pytest.fixture
def parallel_calls(monkeypatch):
    """Lower the threshold so that small inputs take the parallel path; count its calls."""
    calls = []
    kernel = pieces.scan_merged_parallel

    def counted(*arguments):
        calls.append(arguments[7].shape[0] - 1)  # the number of pieces
        return kernel(*arguments)

    monkeypatch.setattr(pieces, "scan_merged_parallel", counted)
    monkeypatch.setattr(pieces, "PARALLEL_MIN_ENTRIES", 16)
    monkeypatch.setattr(pieces, "PIECE_ENTRIES", 8)
    return calls


@pytest.mark.parametrize(("function", "kwargs"), PUBLIC_CALLS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_public_functions_take_the_parallel_path_above_the_threshold(
    function, kwargs, dtype, parallel_calls
):
    rng = np.random.default_rng(20261126)
    n = 300
    y_true = rng.integers(0, 2, n)
    y_score = np.round(rng.normal(y_true, 1.0), 1).astype(dtype)  # distinct and tied
    weights = rng.integers(0, 4, n).astype(np.float64)
    for sample_weight in (None, weights):
        parallel = function(y_true, y_score, sample_weight=sample_weight, **kwargs)
        name = function.__name__
        expected = getattr(reference, name)(y_true, y_score, sample_weight=sample_weight, **kwargs)
        assert parallel == pytest.approx(expected, rel=REFERENCE_TOLERANCE)
        with pytest.MonkeyPatch.context() as serial:
            serial.setattr(pieces, "PARALLEL_MIN_ENTRIES", 2 * n)
            assert function(y_true, y_score, sample_weight=sample_weight, **kwargs) == parallel
    assert len(parallel_calls) == 2
    assert all(n_pieces > 1 for n_pieces in parallel_calls)


def test_below_the_threshold_the_one_piece_scan_runs(parallel_calls):
    y_true = np.array([0, 1, 1, 0, 1])
    y_score = np.array([0.1, 0.9, 0.4, 0.4, 0.8])
    assert assay.roc_auc_score(y_true, y_score) == reference.roc_auc_score(y_true, y_score)
    assert parallel_calls == []


@pytest.mark.skipif(
    os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"),
    reason="nothing is compiled with NUMBA_DISABLE_JIT=1",
)
def test_the_parallel_scan_compiles_its_pieces_once_without_literal_arguments():
    # a fresh dispatcher types every callee again (the cached kernel brings its own)
    sorted_data = sort_binary(
        np.array([0, 1, 1, 0, 1, 0]), np.array([0.1, 0.9, 0.4, 0.4, 0.8, 0.3])
    )
    a, b, wa, wb, use_weights = sorted_data.kernel_arguments
    cuts_a, cuts_b = pieces.merged_cuts(a, b, np.int64(3))
    fresh = numba.njit(parallel=True)(pieces.scan_merged_parallel.__wrapped__.py_func)
    options = RocAuc()
    value = fresh(options, a, b, wa, wb, np.bool_(use_weights), np.bool_(True), cuts_a, cuts_b)
    assert value == reference.roc_auc_score([0, 1, 1, 0, 1, 0], [0.1, 0.9, 0.4, 0.4, 0.8, 0.3])
    options_type = numba.typeof(options)
    float64_arrays = numba.typeof(a)
    for helper in (pieces._piece_weights, pieces._piece_below, pieces._piece_state):
        for signature in helper.signatures:
            # the loop index always as int64 (once as uint64 it compiled every helper twice)
            assert types.uint64 not in signature, (helper, signature)
            assert not any(isinstance(argument, types.Literal) for argument in signature)
    # (the position of the positives' scores among each helper's arguments)
    for helper, scores_position in ((pieces._piece_below, 3), (pieces._piece_state, 4)):
        of_this_call = [
            signature
            for signature in helper.signatures
            if signature[0] == options_type and signature[scores_position] == float64_arrays
        ]
        assert len(of_this_call) == 1, helper
    # the scan's own direction only
    assert not [signature for signature in pieces._merged_backward.signatures
                if signature[0] == options_type]  # fmt: skip

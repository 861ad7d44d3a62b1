"""Curves in pieces: each piece's kept points from its prefix and one atom of lookahead.

The atoms are split at random cut points (empty pieces included) into 1 to 50 pieces;
the concatenated points must be the one-piece curve -- bit for bit with integer counts,
for every drop rule -- and the curve without dropping must be the reference's cutoff
table.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from assay import reference
from assay._kernels import pieces
from assay._kernels.ranking import (
    DROP_COLLINEAR,
    DROP_FLAT_RECALL,
    DROP_NONE,
    curve_piece,
    curve_points,
    merged_curve_piece,
)
from tests._kernels.test_scans import atoms_of, integer_counts
from tests.strategies import binary_ranking_data

MODES = {"none": DROP_NONE, "collinear": DROP_COLLINEAR, "flat recall": DROP_FLAT_RECALL}
# Fractional weights: the prefix is summed piece by piece, so cumulative weights agree
# to a few roundings.
WEIGHTED_TOLERANCE = 1e-12


def merged_layout(y_true, y_score, sample_weight):
    """The two classes' negated scores, ascending, with their weights (the kernels' input)."""
    weights = np.ones(y_true.shape[0]) if sample_weight is None else sample_weight
    keep = weights > 0
    arrays = []
    for label in (1, 0):
        rows = keep & (y_true == label)
        negated = -y_score[rows]
        order = np.argsort(negated, kind="stable")
        arrays.append((negated[order], weights[rows][order]))
    (a, wa), (b, wb) = arrays
    return a, b, wa, wb


def random_cuts(m, seed):
    """0 = c_0 <= c_1 <= ... <= c_k = m, k in 1..50; equal cuts make empty pieces."""
    rng = np.random.default_rng(seed)
    n_pieces = int(rng.integers(1, 51))
    inner = np.sort(rng.integers(0, m + 1, size=n_pieces - 1))
    return np.array([0, *inner, m], dtype=np.int64)


@pytest.mark.parametrize("mode", MODES.values(), ids=MODES.keys())
@given(data=binary_ranking_data(max_n=80), cut_seed=st.integers(0, 2**32 - 1))
def test_curve_in_pieces_equals_the_one_piece_curve(mode, data, cut_seed):
    y_true, y_score, sample_weight = data
    scores, positive, negative = atoms_of(y_true, y_score, sample_weight)
    cuts = random_cuts(scores.shape[0], cut_seed)
    split = pieces.curve_pieces(scores, positive, negative, cuts, mode)
    whole = curve_points(*merged_layout(y_true, y_score, sample_weight), True, mode, False)
    np.testing.assert_array_equal(split[0], whole[0])  # the thresholds
    if integer_counts(sample_weight):
        np.testing.assert_array_equal(split[1], whole[1])
        np.testing.assert_array_equal(split[2], whole[2])
    else:
        np.testing.assert_allclose(split[1], whole[1], rtol=WEIGHTED_TOLERANCE, atol=0)
        np.testing.assert_allclose(split[2], whole[2], rtol=WEIGHTED_TOLERANCE, atol=0)


@given(data=binary_ranking_data(max_n=60), cut_seed=st.integers(0, 2**32 - 1))
def test_cutoff_table_in_pieces_is_the_reference(data, cut_seed):
    y_true, y_score, sample_weight = data
    scores, positive, negative = atoms_of(y_true, y_score, sample_weight)
    cuts = random_cuts(scores.shape[0], cut_seed)
    thresholds, tps, fps = pieces.curve_pieces(scores, positive, negative, cuts, DROP_NONE)
    _, expected_fps, _, expected_tps, expected_thresholds = (
        reference.confusion_matrix_at_thresholds(y_true, y_score, sample_weight=sample_weight)
    )
    np.testing.assert_array_equal(thresholds, expected_thresholds)
    np.testing.assert_allclose(tps, expected_tps, rtol=1e-12, atol=0)
    np.testing.assert_allclose(fps, expected_fps, rtol=1e-12, atol=0)


def test_the_first_and_last_points_stay_whatever_the_cut():
    # three collinear atoms: only the middle one is dropped, in any split
    scores = np.array([3.0, 2.0, 1.0])
    positive = np.array([1.0, 1.0, 1.0])
    negative = np.array([1.0, 1.0, 1.0])
    for cuts in ([0, 3], [0, 1, 3], [0, 2, 3], [0, 1, 2, 3], [0, 0, 1, 1, 3, 3]):
        thresholds, tps, fps = pieces.curve_pieces(
            scores, positive, negative, np.array(cuts, dtype=np.int64), DROP_COLLINEAR
        )
        np.testing.assert_array_equal(thresholds, [3.0, 1.0])
        np.testing.assert_array_equal(tps, [1.0, 3.0])
        np.testing.assert_array_equal(fps, [1.0, 3.0])


@pytest.mark.parametrize("mode", MODES.values(), ids=MODES.keys())
@given(data=binary_ranking_data(max_n=80), cut_seed=st.integers(0, 2**32 - 1))
def test_a_piece_of_sorted_classes_gives_the_points_of_its_atoms(mode, data, cut_seed):
    """merged_curve_piece (the atoms visited by a merge of a piece's two sorted classes)
    writes what curve_piece writes from the piece's atoms, bit for bit, weights too."""
    y_true, y_score, sample_weight = data
    scores, positive, negative = atoms_of(y_true, y_score, sample_weight)
    a, b, wa, wb = merged_layout(y_true, y_score, sample_weight)
    m = scores.shape[0]
    if m <= 2:
        mode = DROP_NONE
    cuts = random_cuts(m, cut_seed)
    tp = fp = 0.0
    empty = np.empty(0)
    for start, end in itertools.pairwise(cuts):
        after = (positive[end], negative[end]) if end < m else (-1.0, -1.0)
        expected = [np.empty(end - start) for _ in range(3)]
        kept = curve_piece(scores[start:end], positive[start:end], negative[start:end], tp, fp,
                           after, mode, *expected)  # fmt: skip
        # the piece's rows of each class: the negated scores of its atoms
        low, high = (-scores[start], -scores[end - 1]) if end > start else (0.0, -1.0)
        classes = [(x[(x >= low) & (x <= high)], w[(x >= low) & (x <= high)])
                   for x, w in ((a, wa), (b, wb))]  # fmt: skip
        use_weights = sample_weight is not None
        (pa, pw), (na, nw) = classes if use_weights else [(x, empty) for x, _ in classes]
        arguments = (pa, na, pw, nw, use_weights)
        got = [np.empty(end - start) for _ in range(3)]
        assert merged_curve_piece(*arguments, tp, fp, after, mode, empty, empty, empty) == kept
        assert merged_curve_piece(*arguments, tp, fp, after, mode, *got) == kept
        for column, want in zip(got, expected, strict=True):
            np.testing.assert_array_equal(column[:kept], want[:kept])
        tp += positive[start:end].sum()
        fp += negative[start:end].sum()

"""Twice the ROC area in float64 when ``2 P N < 2**53``: the same bits as the int64 sum.

Every term ``q (2 TP + p)`` of twice the area and every partial sum is an integer of at
most ``2 P N``; below ``2**53`` float64 represents them all, so no operation rounds and the
float64 sum is the int64 sum.  Checked here on random integer counts up to just below the
bound: both paths of the fold bit for bit, against the exact fraction, and in pieces.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from assay._kernels import pieces, streaming
from assay._kernels.resample import MULTINOMIAL, POISSON, STRATIFIED
from assay._kernels.scans import Context, below_identity, scan_finish
from assay._kernels.scans.roc_auc import RocAuc

OPTIONS = RocAuc()
# class totals: small, middling, and 2 P N = 2**53 - 2**27 (the largest below the bound)
TOTALS = [(7, 5), (40_000, 90_000), (2**26 - 1, 2**26)]


def random_counts(total_positive, total_negative, n_atoms, seed):
    """Integer counts of ``n_atoms`` tie groups with the given class totals."""
    rng = np.random.default_rng(seed)
    positive = rng.multinomial(total_positive, np.full(n_atoms, 1.0 / n_atoms))
    negative = rng.multinomial(total_negative, np.full(n_atoms, 1.0 / n_atoms))
    return positive.astype(np.float64), negative.astype(np.float64)


def folded(positive, negative, small):
    total_positive = float(positive.sum())
    total_negative = float(negative.sum())
    context = Context(total_positive, total_negative, True, small)
    state = pieces.fold_piece(OPTIONS, context, below_identity(OPTIONS), positive, negative, 0,
                              positive.shape[0], 0.0, 0.0)  # fmt: skip
    return scan_finish(OPTIONS, context, state)


def exact_auc(positive, negative):
    """The area from Python integers (ties one half), rounded once."""
    twice_area = 0
    above = 0
    for p, q in zip(positive.astype(int).tolist(), negative.astype(int).tolist(), strict=True):
        twice_area += q * (2 * above + p)
        above += p
    total_positive = int(positive.sum())
    total_negative = int(negative.sum())
    return float(Fraction(twice_area, 2 * total_positive * total_negative))


@pytest.mark.parametrize(("total_positive", "total_negative"), TOTALS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_float_area_equals_integer_area(total_positive, total_negative, seed):
    positive, negative = random_counts(total_positive, total_negative, 200, seed)
    as_integers = folded(positive, negative, small=False)
    as_floats = folded(positive, negative, small=True)
    assert np.float64(as_floats).tobytes() == np.float64(as_integers).tobytes()
    # both exact sums over 2 P N, two floats below 2**53: one correctly rounded division
    assert as_floats == exact_auc(positive, negative)


@pytest.mark.parametrize(("total_positive", "total_negative"), TOTALS)
def test_float_area_in_pieces_equals_one_piece(total_positive, total_negative):
    positive, negative = random_counts(total_positive, total_negative, 300, 3)
    context = pieces.make_context(float(total_positive), float(total_negative), True)
    assert context.small
    one_piece = pieces.scan(OPTIONS, positive, negative, True)
    rng = np.random.default_rng(4)
    for n_pieces in (2, 7, 40):
        inner = np.sort(rng.choice(np.arange(1, 300), n_pieces - 1, replace=False))
        cuts = np.concatenate(([0], inner, [300])).astype(np.int64)
        in_pieces = pieces.scan_pieces(OPTIONS, positive, negative, cuts, True)
        assert np.float64(in_pieces).tobytes() == np.float64(one_piece).tobytes()


def test_small_context_stops_at_the_bound():
    assert pieces.make_context(2.0**26 - 1, 2.0**26, True).small
    assert not pieces.make_context(2.0**26, 2.0**26, True).small  # 2 P N = 2**53
    assert pieces.make_context(2.0**26, 2.0**26, True).exact
    assert not pieces.make_context(3.0, 4.0, False).small  # fractional weights


def test_streamed_replicates_use_float_sums_only_under_a_bound():
    # a multinomial or stratified replicate of n rows has 2 P N <= n**2 / 2
    for scheme in (MULTINOMIAL, STRATIFIED):
        assert streaming._small(scheme, False, 2**27 - 1)
        assert not streaming._small(scheme, False, 2**27)
        assert not streaming._small(scheme, True, 10)  # clusters: any number of rows
    assert not streaming._small(POISSON, False, 10)  # Poisson: any number of rows

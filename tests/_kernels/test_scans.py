"""The scan contract: every ranking metric folded piecewise equals its one-piece value.

The atoms are split at random cut points into 1 to 50 pieces; each piece is folded from
its exclusive prefix and the states are combined.  With integer counts the result must
be bit-identical to the one-piece fold; with fractional weights it agrees to rounding.
Both are checked against :mod:`assay.reference` too.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from assay import reference
from assay._kernels import pieces
from assay._kernels.atoms import tie_groups
from assay._kernels.scans import SCANS
from assay._kernels.scans._exact import EXACT_ZERO, exact_add, exact_merge, exact_value
from assay._kernels.scans.pr_auc_eleven_point import PrAucElevenPoint
from assay._scaling import power_of_two_scale
from assay.metrics._registry import METRICS, variants_of
from tests.strategies import binary_ranking_data

# Fractional weights: the totals are summed piece by piece instead of in one run, so
# values agree to a few roundings of the sums (relative).
WEIGHTED_TOLERANCE = 1e-12
# Against the exact reference: a handful of float roundings in the kernel.
REFERENCE_TOLERANCE = 1e-12

# (options, reference function, its keyword arguments): every ranking metric of the
# registry with each of its declared variants.
CASES = [
    (METRICS[name].scan_options(**options), getattr(reference, name), options)
    for name, options in variants_of("ranking")
]
IDS = [f"{type(options).__name__}{tuple(options)}" for options, _, _ in CASES]


def atoms_of(y_true, y_score, sample_weight):
    """The atoms by plain numpy: distinct scores descending, each class's weight."""
    weights = np.ones(y_true.shape[0]) if sample_weight is None else sample_weight
    keep = weights > 0
    scores = y_score[keep] + 0.0
    positive_rows = y_true[keep] == 1
    values, inverse = np.unique(-scores, return_inverse=True)
    positive = np.bincount(inverse, weights=weights[keep] * positive_rows, minlength=len(values))
    negative = np.bincount(inverse, weights=weights[keep] * ~positive_rows, minlength=len(values))
    return -values, positive, negative


def integer_counts(sample_weight):
    return sample_weight is None or bool(np.all(sample_weight == np.round(sample_weight)))


def float_recall_is_faithful(y_true, sample_weight):
    """Whether float64 sums of the positives' weights keep every positive's share.

    The 11-point AUC-PR is discontinuous in the recall: with positive weights 1 and 1e-55
    the total rounds to 1, a recall of 1 / (1 + 1e-55) reads as 1, and the level 1.0 is
    reached in float64 but not in exact arithmetic.  No float64 computation can tell; the
    documented limit is a ratio of positive weights below 2**40.
    """
    weights = sample_weight[(y_true == 1) & (sample_weight > 0)]
    return weights.size == 0 or float(weights.max() / weights.min()) < 2.0**40


def test_every_declared_scan_is_tested():
    assert {type(options) for options, _, _ in CASES} == set(SCANS)


@pytest.mark.parametrize(("options", "reference_function", "kwargs"), CASES, ids=IDS)
@given(data=binary_ranking_data(max_n=80), cut_seed=st.integers(0, 2**32 - 1))
def test_pieces_equal_one_piece_and_reference(options, reference_function, kwargs, data,
                                              cut_seed):  # fmt: skip
    y_true, y_score, sample_weight = data
    if isinstance(options, PrAucElevenPoint) and not integer_counts(sample_weight):
        assume(float_recall_is_faithful(y_true, sample_weight))
    # the scans take fractional weights as the metrics give them: scaled by a power of two
    # that puts the largest in [0.5, 1) (exact), so products of class totals cannot
    # underflow; integer counts are taken as they are
    scaled = sample_weight
    if not integer_counts(sample_weight):
        scaled = sample_weight * power_of_two_scale(float(sample_weight.max()))
    _, positive, negative = atoms_of(y_true, y_score, scaled)
    m = positive.shape[0]
    rng = np.random.default_rng(cut_seed)
    n_pieces = int(rng.integers(1, min(50, m) + 1)) if m else 1
    inner = np.sort(rng.choice(np.arange(1, m), size=n_pieces - 1, replace=False)) if m > 1 else []
    cuts = np.array([0, *inner, m], dtype=np.int64)
    exact = integer_counts(sample_weight)
    whole = pieces.scan(options, positive, negative, exact)
    split = pieces.scan_pieces(options, positive, negative, cuts, exact)
    expected = reference_function(y_true, y_score, sample_weight=sample_weight, **kwargs)
    if math.isnan(expected):
        assert math.isnan(whole) and math.isnan(split)
        return
    if exact:
        assert split == whole  # bit for bit
    else:
        assert split == pytest.approx(whole, rel=WEIGHTED_TOLERANCE, abs=1e-15)
    assert whole == pytest.approx(expected, rel=REFERENCE_TOLERANCE, abs=1e-15)


@given(data=binary_ranking_data(max_n=80))
def test_tie_groups_merge_the_sorted_classes(data):
    y_true, y_score, sample_weight = data
    weights = np.ones(y_true.shape[0]) if sample_weight is None else sample_weight
    keep = weights > 0
    positive_rows = keep & (y_true == 1)
    negative_rows = keep & (y_true == 0)
    a = -y_score[positive_rows]
    b = -y_score[negative_rows]
    order_a = np.argsort(a, kind="stable")
    order_b = np.argsort(b, kind="stable")
    scores, positive, negative = tie_groups(
        a[order_a], b[order_b], weights[positive_rows][order_a], weights[negative_rows][order_b],
        True,
    )  # fmt: skip
    expected_scores, expected_positive, expected_negative = atoms_of(
        y_true, y_score, sample_weight
    )
    np.testing.assert_array_equal(scores, expected_scores)
    np.testing.assert_allclose(positive, expected_positive, rtol=1e-15)
    np.testing.assert_allclose(negative, expected_negative, rtol=1e-15)


# --- The exact accumulator. ---

_TERMS = st.lists(
    st.floats(2.0**-70, 2.0**60, allow_nan=False, allow_infinity=False), min_size=1, max_size=60
)


def _words(words):
    """A triple returned to Python as plain ints, as the kernels' uint64 words again."""
    return tuple(np.uint64(word) for word in words)


def _as_fraction(words):
    low, middle, high = (int(word) for word in words)
    return Fraction(low + (middle << 64) + (high << 128), 2**128)


@given(terms=_TERMS, seed=st.integers(0, 2**32 - 1))
def test_exact_sum_is_exact_and_order_free(terms, seed):
    words = EXACT_ZERO
    for term in terms:
        words = _words(exact_add(words, term))
    shuffled = np.random.default_rng(seed).permutation(terms)
    half = len(terms) // 2
    first, second = EXACT_ZERO, EXACT_ZERO
    for term in shuffled[:half]:
        first = _words(exact_add(first, float(term)))
    for term in shuffled[half:]:
        second = _words(exact_add(second, float(term)))
    assert _words(exact_merge(first, second)) == words
    exact = sum(Fraction(term) for term in terms)
    assert _as_fraction(words) == exact  # nothing lost
    assert exact_value(words) == pytest.approx(float(exact), rel=4 * 2.0**-52)


def test_exact_sum_carries_across_words():
    words = EXACT_ZERO
    term = 2.0**-65 * (2.0**53 - 1)  # straddles the boundary of the low and middle words
    for _ in range(2**12):
        words = _words(exact_add(words, term))
    assert _as_fraction(words) == 2**12 * Fraction(term)
    big = EXACT_ZERO
    for _ in range(3):
        big = _words(exact_add(big, 2.0**61 - 2.0**10))  # carries into the high word
    assert _as_fraction(exact_merge(big, words)) == 3 * Fraction(2**61 - 2**10) + 2**12 * Fraction(
        term
    )

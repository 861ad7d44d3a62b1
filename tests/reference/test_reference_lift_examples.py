"""The reference lift and cumulative gain on examples worked by hand, and its rule for
ties against the mean over every order of the tied rows (enumerated).

Each expected value is derived in the comment next to it.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

import assay.reference as ref

# Wu, "Evaluation", exercise 5, Table 3: ten rows, scores 1.0 down to 0.1, five positives
# (class 1; class 2 written as 0). Ranked: + - + + - + - - + -.
TABLE3_LABELS = [1, 0, 1, 1, 0, 1, 0, 0, 1, 0]
TABLE3_SCORES = [1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1]


def exact(value: float, expected: Fraction | int) -> bool:
    """The reference rounds its exact result once: equality with the rounded fraction."""
    return value == float(Fraction(expected))


@pytest.mark.parametrize(
    ("fraction", "lift"),
    [
        # top 1 row (+): gain 1/5, lift (1/5) / (1/10) = 2
        (0.1, Fraction(2)),
        # top 2 rows (+ -): gain 1/5, lift 1
        (0.2, Fraction(1)),
        # top 2.5 rows: + - and half of the third row (+): gain 1.5/5, lift 0.3 / 0.25 = 6/5
        (0.25, Fraction(6, 5)),
        # top 5 rows (+ - + + -): gain 3/5, lift 6/5
        (0.5, Fraction(6, 5)),
        # all rows: gain 1, lift 1
        (1.0, Fraction(1)),
    ],
)
def test_table_3_of_wu(fraction, lift) -> None:
    assert exact(ref.lift_score(TABLE3_LABELS, TABLE3_SCORES, fraction), lift)


def test_table_3_with_a_fraction_that_is_not_a_round_float() -> None:
    # 0.3 is the float 5404319552844595 / 2**54, a hair under 3/10: the cut at
    # 10 * 0.3 rows lies just inside the third row (+), so the gain is
    # (1 + (10 f - 2)) / 5 = (10 f - 1) / 5 and the lift (10 f - 1) / (5 f), exactly.
    f = Fraction(0.3)
    assert f < Fraction(3, 10)
    assert exact(ref.lift_score(TABLE3_LABELS, TABLE3_SCORES, 0.3), (10 * f - 1) / (5 * f))


def test_ties_count_in_proportion() -> None:
    # Groups: 0.9 = {+}, 0.5 = {-, +, +}, 0.2 = {-}, 0.1 = {-}; six rows, three positives.
    labels = [1, 0, 1, 1, 0, 0]
    scores = [0.9, 0.5, 0.5, 0.5, 0.2, 0.1]
    # top 3 rows: row 1 and 2 of the 3 units of the tied group, which hold 2 positives:
    # gain (1 + 2 * 2/3) / 3 = 7/9, lift (7/9) / (1/2) = 14/9
    assert exact(ref.lift_score(labels, scores, 0.5), Fraction(14, 9))
    # top 1.5 rows: row 1 and half a unit of the tied group, which holds 2/3 positives:
    # gain (1 + 1/2 * 2/3) / 3 = 4/9, lift (4/9) / (1/4) = 16/9
    assert exact(ref.lift_score(labels, scores, 0.25), Fraction(16, 9))


def test_weights_measure_the_population() -> None:
    # + (weight 3), - (weight 1), + (weight 4), - (weight 2): T = 10, P = 7.
    labels = [1, 0, 1, 0]
    scores = [4, 3, 2, 1]
    weights = [3, 1, 4, 2]
    # top 30% = the first 3 units: all of the first row, gain 3/7, lift (3/7) / (3/10) = 10/7
    assert exact(ref.lift_score(labels, scores, 0.3, sample_weight=weights), Fraction(10, 7))
    # top 60% = 6 units: rows 1 and 2 (4 units) and 2 of the 4 units of row 3:
    # gain (3 + 2) / 7 = 5/7, lift (5/7) / (3/5) = 25/21
    assert exact(ref.lift_score(labels, scores, 0.6, sample_weight=weights), Fraction(25, 21))
    # integer weights are repetitions
    repeated = ref.lift_score(np.repeat(labels, weights), np.repeat(scores, weights), 0.6)
    assert repeated == ref.lift_score(labels, scores, 0.6, sample_weight=weights)


def test_constant_scores_and_one_class() -> None:
    # one tie group: it straddles every cut and gives the share f of its positives: lift 1
    assert ref.lift_score([1, 0, 0, 1, 0], [0.5] * 5, 0.37) == 1.0
    # only positives: the top share f holds the share f of them: lift 1
    assert ref.lift_score([1, 1, 1], [3, 2, 1], 0.5) == 1.0
    # no positives: 0/0
    assert math.isnan(ref.lift_score([0, 0, 0], [3, 2, 1], 0.5))


def test_cumulative_gain_curve_by_hand() -> None:
    fraction, gain, thresholds = ref.cumulative_gain_curve(
        [1, 0, 1, 1, 0, 0], [0.9, 0.5, 0.5, 0.5, 0.2, 0.1]
    )
    # (rows at or above t) / 6 and (positives at or above t) / 3, from (0, 0) at +inf
    assert fraction.tolist() == [0.0, 1 / 6, 4 / 6, 5 / 6, 1.0]
    assert gain.tolist() == [0.0, 1 / 3, 1.0, 1.0, 1.0]
    assert thresholds.tolist() == [np.inf, 0.9, 0.5, 0.2, 0.1]
    _, no_positives, _ = ref.cumulative_gain_curve([0, 0], [0.3, 0.1])
    assert np.all(np.isnan(no_positives))


def _gain_of_a_strict_order(labels: list[int], cut: Fraction) -> Fraction:
    """Positives among the first ``cut`` rows of a strict order (one unit each; a row
    the cut splits counts with the part of it above the cut)."""
    reached = Fraction(0)
    for position, label in enumerate(labels):
        reached += label * min(max(cut - position, Fraction(0)), Fraction(1))
    return reached


@pytest.mark.parametrize(
    ("labels", "scores"),
    [
        ([1, 0, 1, 1, 0, 0], [0.9, 0.5, 0.5, 0.5, 0.2, 0.1]),
        ([0, 1, 1, 0, 1, 0, 0], [3, 3, 2, 2, 2, 2, 1]),
        ([1, 0, 0, 1], [1, 1, 1, 1]),
    ],
)
@pytest.mark.parametrize("fraction", [0.1, 0.25, 0.5, 0.6, 0.9, 1.0])
def test_ties_are_the_mean_over_every_order_of_the_tied_rows(labels, scores, fraction) -> None:
    # Break the ties every possible way (all permutations of the rows, scores kept
    # descending) and average the gain of the strict orders: that is the rule for ties.
    n = len(labels)
    cut = Fraction(fraction) * n
    gains = []
    for order in itertools.permutations(range(n)):
        if all(scores[a] >= scores[b] for a, b in itertools.pairwise(order)):
            gains.append(_gain_of_a_strict_order([labels[i] for i in order], cut))
    mean_gain = sum(gains) / len(gains) / sum(labels)
    assert exact(ref.lift_score(labels, scores, fraction), mean_gain / Fraction(fraction))

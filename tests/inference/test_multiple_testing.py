"""adjust_pvalues: reference twin, statsmodels, published examples, properties, errors."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests

import assay.reference as reference
from assay import adjust_pvalues
from assay.inference._multiple_testing import ADJUSTMENT_METHODS

# Our method name -> statsmodels' name for the same procedure.
STATSMODELS_NAMES = {
    "bonferroni": "bonferroni",
    "sidak": "sidak",
    "holm": "holm",
    "hochberg": "simes-hochberg",
    "bh": "fdr_bh",
    "by": "fdr_by",
}
# The public code works in floats (a product, a cumulative max/min; Sidak through
# log1p/expm1), the reference in exact fractions rounded once: a few ulps apart.
RELATIVE_TOLERANCE = 1e-12

FWER_ORDER = ("bonferroni", "holm", "hochberg")  # each rejects at least what the previous does


@st.composite
def pvalue_families(draw: st.DrawFn, allow_nan: bool = True) -> np.ndarray:
    """1 to 12 p-values with ties, exact 0 and 1, tiny values and (optionally) NaN."""
    pool = draw(
        st.lists(
            st.one_of(
                st.floats(0.0, 1.0),
                st.sampled_from([0.0, 1.0, 0.05, 1e-300, 0.5]),
            ),
            min_size=1,
            max_size=6,
        )
    )
    size = draw(st.integers(1, 12))
    values = [draw(st.sampled_from(pool)) for _ in range(size)]
    if allow_nan:
        nan_positions = draw(st.lists(st.integers(0, size - 1), max_size=3))
        for position in nan_positions:
            values[position] = np.nan
    return np.array(values, dtype=np.float64)


@pytest.mark.parametrize("method", ADJUSTMENT_METHODS)
@given(pvalues=pvalue_families())
def test_matches_the_reference_decision_rules(method: str, pvalues: np.ndarray) -> None:
    expected = np.array(reference.adjust_pvalues(pvalues, method=method))
    np.testing.assert_allclose(
        adjust_pvalues(pvalues, method=method), expected, rtol=RELATIVE_TOLERANCE, atol=0
    )


@pytest.mark.parametrize("method", ADJUSTMENT_METHODS)
def test_matches_statsmodels_on_random_families(method: str) -> None:
    rng = np.random.default_rng(20061)
    # few repetitions: statsmodels' 'holm' takes ~0.1 s per call
    for size in (1, 2, 3, 10, 100):
        for _ in range(4):
            pvalues = rng.uniform(size=size) ** 3  # many small values
            if size > 2:
                pvalues[1] = pvalues[0]  # a tie
            expected = multipletests(pvalues, method=STATSMODELS_NAMES[method])[1]
            np.testing.assert_allclose(
                adjust_pvalues(pvalues, method=method), expected, rtol=RELATIVE_TOLERANCE
            )


def test_benjamini_hochberg_1995_example() -> None:
    # Benjamini & Hochberg (1995), JRSS B 57, section 4: 15 p-values from a study of
    # myocardial infarction; at level 0.05 the Bonferroni-type procedures (Holm,
    # Hochberg) reject 3 hypotheses, the false discovery rate procedure rejects 4.
    pvalues = np.array(
        [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459,
         0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.0000]
    )  # fmt: skip
    assert np.count_nonzero(adjust_pvalues(pvalues, method="holm") <= 0.05) == 3
    assert np.count_nonzero(adjust_pvalues(pvalues, method="hochberg") <= 0.05) == 3
    assert np.count_nonzero(adjust_pvalues(pvalues, method="bh") <= 0.05) == 4
    # the BH value of the 4th is max over the step-up tail: min(15 * 0.0095 / 4, ...)
    assert adjust_pvalues(pvalues, method="bh")[3] == pytest.approx(15 * 0.0095 / 4, rel=1e-12)


def test_demsar_holm_example() -> None:
    # Demsar (2006), section 3.2.2: p = 0.016, 0.019, 0.607 against alpha / i = 0.017,
    # 0.025, 0.050; Holm and Hochberg reject the first two, Bonferroni only the first.
    pvalues = np.array([0.016, 0.019, 0.607])
    np.testing.assert_allclose(adjust_pvalues(pvalues, method="holm"), [0.048, 0.048, 0.607])
    assert (adjust_pvalues(pvalues, method="holm") <= 0.05).tolist() == [True, True, False]
    assert (adjust_pvalues(pvalues, method="hochberg") <= 0.05).tolist() == [True, True, False]
    assert (adjust_pvalues(pvalues, method="bonferroni") <= 0.05).tolist() == [True, False, False]


def test_sidak_is_the_family_wise_error_of_gamas_formula() -> None:
    # Gama, "Evaluation of classification and regression algorithms", "Adjustment for
    # Multiple Tests": alpha_n = 1 - (1 - a)^n. Two tests,
    # each at a = 0.05, have family-wise error 1 - 0.95^2 = 0.0975. (The slide's example
    # substitutes the confidence 0.95 for a and prints 0.9975; that number is garbled.)
    np.testing.assert_allclose(adjust_pvalues([0.05, 0.05], method="sidak"), [0.0975, 0.0975])
    assert adjust_pvalues([1e-20, 0.5], method="sidak")[0] == pytest.approx(2e-20, rel=1e-12)


def test_r_p_adjust_conventions() -> None:
    # R's ?p.adjust: NA values stay NA and are not counted in n; results in input order.
    pvalues = [0.04, np.nan, 0.01, 0.03]
    adjusted = adjust_pvalues(pvalues, method="bonferroni")
    assert np.isnan(adjusted[1])
    np.testing.assert_allclose(adjusted[[0, 2, 3]], [0.12, 0.03, 0.09])
    np.testing.assert_allclose(
        adjust_pvalues(pvalues, method="holm")[[0, 2, 3]], [0.06, 0.03, 0.06]
    )


@pytest.mark.parametrize("method", ADJUSTMENT_METHODS)
@given(pvalues=pvalue_families())
def test_adjusted_values_are_valid_probabilities_in_input_order(
    method: str, pvalues: np.ndarray
) -> None:
    adjusted = adjust_pvalues(pvalues, method=method)
    missing = np.isnan(pvalues)
    assert np.array_equal(np.isnan(adjusted), missing)
    defined_p, defined_adjusted = pvalues[~missing], adjusted[~missing]
    assert np.all(defined_adjusted <= 1.0)
    assert np.all(defined_adjusted >= defined_p * (1 - 1e-12))
    # a smaller p-value never gets a larger adjusted one (ties get equal values)
    order = np.argsort(defined_p, kind="stable")
    assert np.all(np.diff(defined_adjusted[order]) >= -1e-15)
    # permuting the family permutes the adjusted values
    permutation = np.random.default_rng(7).permutation(pvalues.shape[0])
    np.testing.assert_array_equal(
        adjust_pvalues(pvalues[permutation], method=method), adjusted[permutation]
    )


@given(pvalues=pvalue_families())
def test_procedures_are_ordered_by_power(pvalues: np.ndarray) -> None:
    missing = np.isnan(pvalues)
    adjusted = {
        method: adjust_pvalues(pvalues, method=method)[~missing] for method in ADJUSTMENT_METHODS
    }
    slack = 1e-12
    for weaker, stronger in itertools.pairwise(FWER_ORDER):
        assert np.all(adjusted[stronger] <= adjusted[weaker] + slack)
    assert np.all(adjusted["sidak"] <= adjusted["bonferroni"] + slack)
    assert np.all(adjusted["bh"] <= adjusted["hochberg"] + slack)
    assert np.all(adjusted["by"] >= adjusted["bh"] - slack)


@pytest.mark.parametrize("method", ADJUSTMENT_METHODS)
def test_a_family_of_one_is_unchanged(method: str) -> None:
    for p in (0.0, 0.03, 1.0):
        assert adjust_pvalues([p], method=method).tolist() == [p]
        assert adjust_pvalues(p, method=method).tolist() == [p]


@pytest.mark.parametrize("method", ADJUSTMENT_METHODS)
def test_empty_and_all_missing_families(method: str) -> None:
    assert adjust_pvalues([], method=method).shape == (0,)
    assert np.isnan(adjust_pvalues([np.nan, np.nan], method=method)).all()


def test_default_method_is_holm() -> None:
    pvalues = [0.01, 0.02, 0.2]
    np.testing.assert_array_equal(adjust_pvalues(pvalues), adjust_pvalues(pvalues, method="holm"))


@pytest.mark.parametrize(
    ("pvalues", "method", "message"),
    [
        (["a", "b"], "holm", r"`pvalues` must be numeric; got dtype <U1\."),
        ([[0.1, 0.2]], "holm", r"`pvalues` must be 1-D, got an array of shape \(1, 2\)\."),
        (
            [0.1, 1.5, -0.2],
            "holm",
            r"`pvalues` contains 2 values outside \[0, 1\] \(e\.g\. 1\.5\); p-values must be "
            r"in \[0, 1\] \(NaN marks a missing one\)\.",
        ),
        ([0.1, np.inf], "bh", r"`pvalues` contains 1 values outside \[0, 1\] \(e\.g\. inf\)"),
        (
            [0.1],
            "fdr_bh",
            r"`method` must be one of \['bonferroni', 'sidak', 'holm', 'hochberg', 'bh', "
            r"'by'\]; got 'fdr_bh'\.",
        ),
    ],
)
def test_error_messages(pvalues: object, method: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        adjust_pvalues(pvalues, method=method)

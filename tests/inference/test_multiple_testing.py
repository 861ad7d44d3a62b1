"""adjust_pvalues: reference twin, statsmodels, published examples, properties, errors."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import assume, given
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
    "holm-sidak": "holm-sidak",
    "hochberg": "simes-hochberg",
    "hommel": "hommel",
    "bh": "fdr_bh",
    "by": "fdr_by",
    "tsbh": "fdr_tsbh",
}
# The reference enumerates every subset of the family for Hommel's closed test: small
# families only.
HOMMEL_FAMILY_SIZE = 8
# Methods whose reference runs the decision rule at every candidate level.
DECISION_RULE_METHODS = tuple(
    method for method in ADJUSTMENT_METHODS if method not in ("hommel", "tsbh")
)
# The public code works in floats (a product, a cumulative max/min; Sidak through
# log1p/expm1), the reference in exact fractions rounded once: a few ulps apart.
RELATIVE_TOLERANCE = 1e-12

FWER_ORDER = ("bonferroni", "holm", "hochberg")  # each rejects at least what the previous does


@st.composite
def pvalue_families(draw: st.DrawFn, allow_nan: bool = True, max_size: int = 12) -> np.ndarray:
    """1 to ``max_size`` p-values with ties, exact 0 and 1, tiny values and (optionally)
    NaN."""
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
    size = draw(st.integers(1, max_size))
    values = [draw(st.sampled_from(pool)) for _ in range(size)]
    if allow_nan:
        nan_positions = draw(st.lists(st.integers(0, size - 1), max_size=3))
        for position in nan_positions:
            values[position] = np.nan
    return np.array(values, dtype=np.float64)


@pytest.mark.parametrize("method", DECISION_RULE_METHODS)
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


@given(pvalues=pvalue_families(max_size=HOMMEL_FAMILY_SIZE))
def test_hommel_matches_the_closed_test_of_simes_tests(pvalues: np.ndarray) -> None:
    expected = np.array(reference.adjust_pvalues(pvalues, method="hommel"))
    np.testing.assert_allclose(
        adjust_pvalues(pvalues, method="hommel"), expected, rtol=RELATIVE_TOLERANCE, atol=0
    )


def _first_stage_is_clear(pvalues: np.ndarray, alpha: float) -> bool:
    """No Benjamini-Hochberg value within rounding of ``alpha``: there the first-stage
    decision of the two-stage procedure depends on the last bit of a float product."""
    bh = adjust_pvalues(pvalues, method="bh")
    defined = bh[~np.isnan(bh)]
    return not np.any(np.abs(defined - alpha) <= 1e-9 * alpha)


@given(pvalues=pvalue_families(), alpha=st.sampled_from([0.05, 0.1, 0.2, 0.5]))
def test_two_stage_bh_matches_the_reference(pvalues: np.ndarray, alpha: float) -> None:
    assume(_first_stage_is_clear(pvalues, alpha))
    expected = np.array(reference.adjust_pvalues(pvalues, method="tsbh", alpha=alpha))
    np.testing.assert_allclose(
        adjust_pvalues(pvalues, method="tsbh", alpha=alpha),
        expected,
        rtol=RELATIVE_TOLERANCE,
        atol=0,
    )


def test_reference_hommel_enumeration_on_a_hand_worked_family() -> None:
    # p = (0.01, 0.02, 0.04): the Simes values are {1}: 0.01, {2}: 0.02, {3}: 0.04,
    # {1,2}: min(0.02, 0.02) = 0.02, {1,3}: min(0.02, 0.04) = 0.02, {2,3}: min(0.04, 0.04)
    # = 0.04, {1,2,3}: min(0.03, 0.03, 0.04) = 0.03; the largest over the subsets holding
    # each hypothesis: 0.03, 0.04, 0.04.
    assert reference.adjust_pvalues([0.01, 0.02, 0.04], method="hommel") == pytest.approx(
        [0.03, 0.04, 0.04], rel=1e-15
    )
    np.testing.assert_allclose(
        adjust_pvalues([0.01, 0.02, 0.04], method="hommel"), [0.03, 0.04, 0.04], rtol=1e-15
    )


# The R p.adjust / multtest results published with statsmodels
# (statsmodels/stats/tests/test_multi.py): raw p-values (ascending) with R's adjusted
# values.  multtest's mt.rawp2adjp "SidakSD" is the Holm-Sidak step-down procedure,
# "TSBH_0.05" the two-stage BH procedure at 0.05.
R_RAW_1 = [5.23656777208e-05, 2.8140506198e-04, 1.49877310796e-02, 2.02732688798e-02,
           0.177096952723, 0.642193923795, 0.680845947633, 0.71626938238,
           0.838541367553, 0.967833824309]  # fmt: skip
R_HOLM_SIDAK_1 = [
    5.2353339704891422e-04, 2.5297966317768816e-03, 1.1379719679449507e-01,
    1.3356756197485375e-01, 6.8947825122356643e-01,
] + [9.9413539782557070e-01] * 5  # fmt: skip
R_RAW_3 = [0.001, 0.002, 0.003, 0.004, 0.005, 0.05, 0.06, 0.07, 0.08, 0.09]
R_HOLM_SIDAK_3 = [0.00995511979025177, 0.0178566699880266, 0.02374950634358763,
                  0.02766623106147537, 0.02962749064373438] + [0.2262190625000001] * 5  # fmt: skip
R_TSBH_3 = [0.005] * 5 + [0.04166666666666667, 0.04285714285714286, 0.04375,
                          0.04444444444444445, 0.045]  # fmt: skip
# R's p.adjust(p, method = "hommel") on 40 p-values.
R_RAW_HOMMEL = [
    0.00116, 0.00924, 0.01075, 0.01437, 0.01784, 0.01918, 0.02751, 0.02871, 0.03054,
    0.03246, 0.04259, 0.06879, 0.0691, 0.08081, 0.08593, 0.08993, 0.09386, 0.09412,
    0.09718, 0.09758, 0.09781, 0.09788, 0.13282, 0.20191, 0.21757, 0.24031, 0.26061,
    0.26762, 0.29474, 0.32901, 0.41386, 0.51479, 0.52461, 0.53389, 0.56276, 0.62967,
    0.72178, 0.73403, 0.87182, 0.95384,
]  # fmt: skip
R_HOMMEL = [
    0.0464, 0.25872, 0.29025, 0.3495714285714286, 0.41032, 0.44114, 0.57771, 0.60291,
    0.618954, 0.6492, 0.7402725000000001, 0.86749, 0.86749, 0.8889100000000001,
    0.8971477777777778, 0.8993,
] + [0.9175374999999999] * 6 + [0.95384] * 18  # fmt: skip
# R prints 15 significant digits; the published values carry a few ulps of R's float
# arithmetic, which sums and multiplies in another order.
R_TOLERANCE = 1e-13
# R's Sidak values are 1 - (1 - p)^k as written, which loses up to a few ulps of 1 by
# cancellation for small p (assay's equal the exact value, rounded once: 0.00052353339704871
# for the smallest, where R's table has 0.00052353339704891).
R_CANCELLATION = 1e-15


@pytest.mark.parametrize(
    ("raw", "method", "expected"),
    [
        (R_RAW_1, "holm-sidak", R_HOLM_SIDAK_1),
        (R_RAW_3, "holm-sidak", R_HOLM_SIDAK_3),
        (R_RAW_3, "tsbh", R_TSBH_3),
        (R_RAW_HOMMEL, "hommel", R_HOMMEL),
    ],
)
def test_r_published_values(raw: list[float], method: str, expected: list[float]) -> None:
    adjusted = adjust_pvalues(raw, method=method)
    np.testing.assert_allclose(adjusted, expected, rtol=R_TOLERANCE, atol=R_CANCELLATION)
    if method != "hommel":  # the reference enumerates every subset: small families only
        np.testing.assert_allclose(
            adjusted, reference.adjust_pvalues(raw, method=method), rtol=RELATIVE_TOLERANCE
        )
    # the input order does not matter
    reversed_adjusted = adjust_pvalues(raw[::-1], method=method)
    np.testing.assert_allclose(
        reversed_adjusted[::-1], expected, rtol=R_TOLERANCE, atol=R_CANCELLATION
    )


def test_two_stage_bh_depends_on_alpha_through_the_first_stage() -> None:
    # at 0.05 the BH rule rejects 5 of the 10 (R_RAW_3), so the BH values are halved; at
    # 0.001 it rejects none and the values are the BH values.
    bh = adjust_pvalues(R_RAW_3, method="bh")
    np.testing.assert_allclose(adjust_pvalues(R_RAW_3, method="tsbh"), bh / 2, rtol=1e-15)
    np.testing.assert_array_equal(adjust_pvalues(R_RAW_3, method="tsbh", alpha=0.001), bh)
    # every hypothesis rejected at the first stage: m_0 = 0 is not used, the BH values stay
    np.testing.assert_array_equal(adjust_pvalues(R_RAW_3, method="tsbh", alpha=0.5), bh)


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
    if method != "tsbh":  # the two-stage values are BH's times m_0 / m, possibly below p
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
    assert np.all(adjusted["holm-sidak"] <= adjusted["holm"] + slack)
    assert np.all(adjusted["holm-sidak"] <= adjusted["sidak"] + slack)
    assert np.all(adjusted["hommel"] <= adjusted["hochberg"] + slack)
    assert np.all(adjusted["tsbh"] <= adjusted["bh"] + slack)
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
            r"`method` must be one of \['bonferroni', 'sidak', 'holm', 'holm-sidak', "
            r"'hochberg', 'hommel', 'bh', 'by', \.\.\. \(9 in all\)\]; got 'fdr_bh'\.",
        ),
    ],
)
def test_error_messages(pvalues: object, method: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        adjust_pvalues(pvalues, method=method)


@pytest.mark.parametrize("alpha", [0.0, 1.0, -0.1, 1.5, "0.05", True])
def test_alpha_must_be_a_level(alpha: object) -> None:
    with pytest.raises(ValueError, match=r"`alpha` must be in \(0, 1\); got "):
        adjust_pvalues([0.01, 0.2], method="tsbh", alpha=alpha)

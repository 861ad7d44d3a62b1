"""McNemar's test and Cochran's Q (``assay.inference._contingency``).

Expected values come from: published examples (source named at each test; every
number re-derived here from the formula), the reference twins in
``assay.reference`` (exact binomial sums with ``math.comb``), and
``statsmodels.stats.contingency_tables`` where it agrees with the definition.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats import contingency_tables as sm

import assay
from assay import reference
from assay.exceptions import DegenerateDataWarning

# p-values from scipy's binomial/chi-squared functions vs exact fractions or statsmodels
# (same functions): agreement to a few ulps of the tail sums.
P_TOLERANCE = 1e-12
# Printed numbers are rounded to the digits shown in the source.
PRINTED_4 = 5e-5

METHODS = ("exact", "midp", "asymptotic")
ALTERNATIVES = ("two-sided", "greater", "less")


def _table(b: int, c: int, n11: int = 5, n00: int = 3) -> list[list[int]]:
    return [[n11, b], [c, n00]]


# --- Worked examples --------------------------------------------------------------------


def test_fagerland_lydersen_laake_2013_example() -> None:
    # Fagerland, Lydersen & Laake (2013), BMC Med. Res. Methodol. 13:91, airway
    # hyper-responsiveness before/after: discordant counts 1 and 7.  They report the
    # exact conditional p = 0.070, mid-p = 0.039 and asymptotic McNemar p = 0.034.
    # By hand with X ~ Bin(8, 1/2): exact = 2 P(X <= 1) = 2 * 9/256 = 18/256;
    # mid-p = 2 (P(X <= 1) - P(X = 1)/2) = 2 * (1 + 4)/256 = 10/256;
    # chi2 = (7 - 1)^2 / 8 = 4.5.
    table = [[1, 1], [7, 12]]
    assert assay.mcnemar(table=table).pvalue == pytest.approx(18 / 256, abs=P_TOLERANCE)
    assert assay.mcnemar(table=table, method="midp").pvalue == pytest.approx(
        10 / 256, abs=P_TOLERANCE
    )
    asymptotic = assay.mcnemar(table=table, method="asymptotic", correction=False)
    assert asymptotic.statistic == pytest.approx(4.5, abs=1e-15)
    assert asymptotic.df == 1.0
    assert round(asymptotic.pvalue, 3) == 0.034
    assert asymptotic.pvalue == pytest.approx(stats.chi2.sf(4.5, 1), abs=P_TOLERANCE)


def test_cardillo_matlab_example_with_edwards_correction() -> None:
    # G. Cardillo, "McNemar test", MATLAB Central File Exchange 15472: x = [101 59; 121 33]
    # gives "McNemar chi-square (with Yates'es correction) = 20.672222, p = 0.000005".
    # By hand: (|59 - 121| - 1)^2 / 180 = 3721 / 180 = 20.672222...
    result = assay.mcnemar(table=[[101, 59], [121, 33]], method="asymptotic")
    assert result.statistic == pytest.approx(3721 / 180, rel=1e-15)
    assert round(result.statistic, 6) == 20.672222
    assert round(result.pvalue, 6) == 0.000005


def test_agresti_presidential_approval_example() -> None:
    # Agresti, Categorical Data Analysis (2nd ed., 2002), section 10.1: approval of the
    # president in two surveys, [[794, 150], [86, 570]]; z = (86 - 150)/sqrt(236) = -4.17,
    # z^2 = 17.36 (no continuity correction).  The z of "Estimation of the hypothesis
    # real risk" is |z| = 4.17.
    result = assay.mcnemar(table=[[794, 150], [86, 570]], method="asymptotic", correction=False)
    assert result.statistic == pytest.approx(64**2 / 236, rel=1e-15)
    assert round(result.statistic, 2) == 17.36
    assert round(result.details["z_source"], 2) == 4.17
    assert result.details["z_source"] ** 2 == pytest.approx(result.statistic, rel=1e-14)


def test_details_name_the_cells_as_the_risk_notes() -> None:
    # "Estimation of the hypothesis real risk": n01 = wrong by h1 only, n10 = wrong by h2
    # only, z = |n01 - n10| / sqrt(n01 + n10).
    y_true = np.array(["a", "b", "a", "b", "a", "b", "a"])
    pred_a = np.array(["a", "b", "b", "b", "a", "a", "b"])  # wrong on rows 2, 5, 6
    pred_b = np.array(["b", "b", "a", "a", "a", "b", "b"])  # wrong on rows 0, 3, 6
    result = assay.mcnemar(y_true, pred_a, pred_b)
    details = result.details
    assert (details["n11"], details["n10"], details["n01"], details["n00"]) == (2, 2, 2, 1)
    assert details["n_discordant"] == 4
    assert details["z_source"] == 0.0
    assert result.estimate == 0.0


# --- Agreement with the table, the reference and statsmodels ---------------------------


@st.composite
def _labels_and_predictions(draw):
    n = draw(st.integers(1, 40))
    labels = st.sampled_from([0, 1, 2])
    y_true = draw(st.lists(labels, min_size=n, max_size=n))
    pred_a = draw(st.lists(labels, min_size=n, max_size=n))
    pred_b = draw(st.lists(labels, min_size=n, max_size=n))
    return np.array(y_true), np.array(pred_a), np.array(pred_b)


@given(
    _labels_and_predictions(),
    st.sampled_from(METHODS),
    st.sampled_from(ALTERNATIVES),
    st.booleans(),
)
def test_labels_agree_with_table_and_reference(data, method, alternative, correction) -> None:
    y_true, pred_a, pred_b = data
    expected = reference.mcnemar(
        y_true, pred_a, pred_b, method=method, alternative=alternative, correction=correction
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        result = assay.mcnemar(
            y_true, pred_a, pred_b, method=method, alternative=alternative, correction=correction
        )
        table = [
            [expected["n11"], expected["n10"]],
            [expected["n01"], expected["n00"]],
        ]
        from_table = assay.mcnemar(
            table=table, method=method, alternative=alternative, correction=correction
        )
    for found in (result, from_table):
        assert found.pvalue == pytest.approx(expected["pvalue"], abs=P_TOLERANCE)
        np.testing.assert_allclose(found.statistic, expected["statistic"], rtol=1e-14)
        assert found.df == expected["df"]
        assert found.estimate == pytest.approx(expected["estimate"], abs=1e-15)
        np.testing.assert_allclose(found.details["z_source"], expected["z_source"], rtol=1e-14)
        assert 0.0 <= found.pvalue <= 1.0


@given(st.integers(0, 60), st.integers(0, 60), st.sampled_from(METHODS))
def test_reference_on_large_and_lopsided_tables(b, c, method) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        result = assay.mcnemar(table=_table(b, c), method=method)
    expected = reference.mcnemar(table=_table(b, c), method=method)
    assert result.pvalue == pytest.approx(expected["pvalue"], abs=P_TOLERANCE)


@given(st.integers(0, 80), st.integers(0, 80))
def test_exact_agrees_with_statsmodels(b, c) -> None:
    if b + c == 0:
        return  # the degenerate table has its own test
    ours = assay.mcnemar(table=_table(b, c))
    theirs = sm.mcnemar(np.array(_table(b, c)), exact=True)
    assert ours.pvalue == pytest.approx(theirs.pvalue, abs=P_TOLERANCE)
    # statsmodels reports min(b, c) as the exact statistic; assay reports b
    assert min(ours.details["n10"], ours.details["n01"]) == theirs.statistic


@given(st.integers(0, 80), st.integers(0, 80), st.booleans())
def test_asymptotic_agrees_with_statsmodels_when_b_differs_from_c(b, c, correction) -> None:
    if b == c:
        return  # statsmodels over-corrects there (next test)
    ours = assay.mcnemar(table=_table(b, c), method="asymptotic", correction=correction)
    theirs = sm.mcnemar(np.array(_table(b, c)), exact=False, correction=correction)
    assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-14)
    assert ours.pvalue == pytest.approx(theirs.pvalue, abs=P_TOLERANCE)


@pytest.mark.parametrize("b", [1, 2, 10])
def test_corrected_statistic_is_zero_when_b_equals_c(b) -> None:
    # max(|b - c| - 1, 0)^2 = 0: p = 1.  statsmodels 0.15 computes (|b - c| - 1)^2 / (b + c)
    # = 1 / (2 b) > 0 here (b = c = 2: chi2 = 0.25, p = 0.617), as documented.
    result = assay.mcnemar(table=_table(b, b), method="asymptotic")
    assert result.statistic == 0.0
    assert result.pvalue == 1.0
    theirs = sm.mcnemar(np.array(_table(b, b)), exact=False, correction=True)
    assert theirs.statistic == pytest.approx(1 / (2 * b))
    if b == 2:
        assert round(theirs.pvalue, 3) == 0.617


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("correction", [True, False])
def test_no_discordant_pairs_give_p_one_with_a_warning(method, alternative, correction) -> None:
    with pytest.warns(DegenerateDataWarning, match="no discordant pairs"):
        result = assay.mcnemar(
            table=[[10, 0], [0, 4]],
            method=method,
            alternative=alternative,
            correction=correction,
        )
    assert result.pvalue == 1.0
    if method == "asymptotic":
        assert math.isnan(result.statistic)
    else:
        assert result.statistic == 0.0
    assert math.isnan(result.details["z_source"])


def test_statsmodels_behaviour_on_no_discordant_pairs_is_as_documented() -> None:
    # The guide and the docstring say: exact -> p = 1; asymptotic corrected -> inf and 0;
    # uncorrected -> NaN and NaN.  Pinned here so the docs stay true.
    table = np.array([[10, 0], [0, 4]])
    assert sm.mcnemar(table, exact=True).pvalue == 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        corrected = sm.mcnemar(table, exact=False, correction=True)
        uncorrected = sm.mcnemar(table, exact=False, correction=False)
    assert corrected.statistic == np.inf and corrected.pvalue == 0.0
    assert np.isnan(uncorrected.statistic) and np.isnan(uncorrected.pvalue)


def test_warning_points_at_the_caller() -> None:
    with pytest.warns(DegenerateDataWarning) as record:
        assay.mcnemar(table=[[3, 0], [0, 3]])
    assert record[0].filename == __file__


# --- Properties ---------------------------------------------------------------------


@given(st.integers(0, 40), st.integers(0, 40))
def test_midp_is_below_exact_and_one_sided_tails_cover_everything(b, c) -> None:
    if b + c == 0:
        return
    exact = assay.mcnemar(table=_table(b, c))
    midp = assay.mcnemar(table=_table(b, c), method="midp")
    assert midp.pvalue <= exact.pvalue
    greater = assay.mcnemar(table=_table(b, c), alternative="greater").pvalue
    less = assay.mcnemar(table=_table(b, c), alternative="less").pvalue
    # P(X >= b) + P(X <= b) = 1 + P(X = b)
    assert greater + less == pytest.approx(1 + stats.binom.pmf(b, b + c, 0.5), abs=1e-12)
    # swapping the models swaps the one-sided alternatives
    swapped = assay.mcnemar(table=[[5, c], [b, 3]], alternative="less").pvalue
    assert swapped == pytest.approx(greater, abs=1e-15)


def test_one_sided_exact_by_hand() -> None:
    # b = 7, c = 1: P(X >= 7) = (8 + 1)/256 for X ~ Bin(8, 1/2)
    result = assay.mcnemar(table=[[0, 7], [1, 0]], alternative="greater")
    assert result.pvalue == pytest.approx(9 / 256, abs=P_TOLERANCE)
    midp = assay.mcnemar(table=[[0, 7], [1, 0]], alternative="greater", method="midp")
    assert midp.pvalue == pytest.approx((1 + 4) / 256, abs=P_TOLERANCE)
    z = assay.mcnemar(table=[[0, 7], [1, 0]], alternative="greater", method="asymptotic")
    assert z.statistic == pytest.approx(5 / math.sqrt(8), rel=1e-15)
    assert z.df is None
    assert z.pvalue == pytest.approx(stats.norm.sf(5 / math.sqrt(8)), abs=P_TOLERANCE)


def test_correction_is_ignored_by_the_binomial_methods() -> None:
    for method in ("exact", "midp"):
        with_correction = assay.mcnemar(table=_table(3, 9), method=method, correction=True)
        without = assay.mcnemar(table=_table(3, 9), method=method, correction=False)
        assert with_correction.pvalue == without.pvalue


def test_result_fields() -> None:
    result = assay.mcnemar(table=[[1, 1], [7, 12]], method="asymptotic")
    assert result.method == "McNemar, asymptotic (chi-squared with continuity correction)"
    assert result.alternative == "two-sided"
    statistic, pvalue = result
    assert (statistic, pvalue) == (result.statistic, result.pvalue)
    assert result.estimate == pytest.approx(-6 / 21)


# --- Input errors ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({}, r"^Give either `table` or all three of `y_true`, `pred_a` and `pred_b`\.$"),
        ({"y_true": [0, 1]}, r"^Give either `table` or all three"),
        (
            {"y_true": [0], "pred_a": [0], "pred_b": [1], "table": [[1, 0], [0, 1]]},
            r"^Give either `table` or `y_true`, `pred_a` and `pred_b`, not both\.$",
        ),
        ({"table": [1, 2, 3, 4]}, r"^`table` must be a 2x2 table of counts; got shape \(4,\)\.$"),
        ({"table": [["a", "b"], ["c", "d"]]}, r"^`table` must be numeric; got dtype <U1\.$"),
        (
            {"table": [[1, -2], [3, 4]]},
            r"^`table` must hold non-negative integer counts; got \[1, -2, 3, 4\]\.$",
        ),
        (
            {"table": [[1, 2.5], [3, 4]]},
            r"^`table` must hold non-negative integer counts; got \[1\.0, 2\.5, 3\.0, 4\.0\]\.$",
        ),
        ({"table": [[1, np.nan], [3, 4]]}, r"^`table` must hold finite counts; got \[1\.0, nan"),
        ({"table": [[0, 0], [0, 0]]}, r"^`table` is all zeros; at least one example is needed\.$"),
        (
            {"y_true": [0, 1, 1], "pred_a": [0, 1], "pred_b": [0, 1, 1]},
            r"^`y_true` and `pred_a` have different lengths: 3 and 2\.$",
        ),
        (
            {"table": [[1, 2], [3, 4]], "method": "fisher"},
            r"^`method` must be one of \['exact', 'midp', 'asymptotic'\]; got 'fisher'\.$",
        ),
        (
            {"table": [[1, 2], [3, 4]], "alternative": "both"},
            r"^`alternative` must be one of \['two-sided', 'less', 'greater'\]; got 'both'\.$",
        ),
    ],
)
def test_mcnemar_input_errors(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        assay.mcnemar(**kwargs)


def _saturated_probabilities(n: int = 200, seed: int = 3):
    """Labels and two models' probabilities; model A outputs exactly 1.0 on most positives."""
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 2, n)
    proba_a = np.where(y_true == 1, 1.0, rng.uniform(0.0, 0.6, n))
    proba_a[:5] = 0.55  # a few positives below 1.0
    proba_b = rng.uniform(0.0, 1.0, n)
    return y_true, proba_a, proba_b


THRESHOLD_FIRST = r"threshold them first \(e\.g\. `score >= 0\.5`\)"


def test_mcnemar_refuses_probabilities_for_labels() -> None:
    # Read as labels, each probability of exactly 1.0 would be a correct prediction of
    # class 1 and every other value a wrong one: a p-value near 0 for no reason.
    y_true, proba_a, proba_b = _saturated_probabilities()
    message = rf"^`pred_a` holds continuous values \(e\.g\. 0\.\d+\): scores .*{THRESHOLD_FIRST}"
    with pytest.raises(ValueError, match=message):
        assay.mcnemar(y_true, proba_a, proba_b)
    with pytest.raises(ValueError, match=r"^`pred_b` holds continuous values"):
        assay.mcnemar(y_true, (proba_a >= 0.5).astype(int), proba_b)
    # scores (not probabilities) are refused the same way, not read as "no discordant pairs"
    with pytest.raises(ValueError, match=r"^`pred_a` holds continuous values"):
        assay.mcnemar(y_true, 4.0 * proba_a - 2.0, 4.0 * proba_b - 2.0)


def test_mcnemar_thresholded_probabilities_equal_integer_labels() -> None:
    y_true, proba_a, proba_b = _saturated_probabilities()
    labels_a, labels_b = proba_a >= 0.5, proba_b >= 0.5
    as_floats = assay.mcnemar(y_true, labels_a.astype(float), labels_b.astype(float))
    as_integers = assay.mcnemar(y_true, labels_a.astype(int), labels_b.astype(int))
    assert as_floats.details == as_integers.details
    assert as_floats.pvalue == as_integers.pvalue


@pytest.mark.parametrize(
    "pred_a, message",
    [
        (
            [0.0, 2.0, 1.0, 1.0],
            r"^`pred_a` holds float values \[2\.0\] that are not labels of `y_tr",
        ),
        (["0", "1", "1", "0"], r"^`pred_a` holds string labels but `y_true` holds numbers"),
        (np.array([[0], [1], [0, 1], []], dtype=object), r"^`pred_a` holds sequences of labels"),
    ],
)
def test_mcnemar_predictions_must_be_labels_of_y_true(pred_a, message) -> None:
    with pytest.raises(ValueError, match=message):
        assay.mcnemar([0, 1, 1, 0], pred_a, [0, 1, 0, 0])


# --- Cochran's Q ------------------------------------------------------------------------


def test_cochrans_q_by_hand() -> None:
    # Column totals C = (5, 3, 2), N = 10, row totals R = (2, 1, 3, 1, 2, 1), sum R^2 = 20:
    # Q = 2 (3 * 38 - 100) / (30 - 20) = 2.8, 2 degrees of freedom.
    successes = [[1, 1, 0], [1, 0, 0], [1, 1, 1], [0, 0, 1], [1, 1, 0], [1, 0, 0]]
    result = assay.cochrans_q(successes=successes)
    assert result.statistic == pytest.approx(2.8, rel=1e-15)
    assert result.df == 2.0
    assert result.pvalue == pytest.approx(math.exp(-1.4), abs=P_TOLERANCE)  # chi2(2) tail
    assert list(result.details["successes_per_model"]) == [5, 3, 2]
    assert result.details["n"] == 6 and result.details["n_informative"] == 5
    assert result.method == "Cochran's Q"


@st.composite
def _success_matrices(draw):
    n = draw(st.integers(1, 30))
    k = draw(st.integers(2, 5))
    cells = draw(st.lists(st.integers(0, 1), min_size=n * k, max_size=n * k))
    return np.array(cells).reshape(n, k)


@given(_success_matrices())
def test_cochrans_q_agrees_with_reference_and_statsmodels(successes) -> None:
    expected = reference.cochrans_q(successes=successes)
    row_totals = successes.sum(axis=1)
    degenerate = bool(np.all((row_totals == 0) | (row_totals == successes.shape[1])))
    if degenerate:
        with pytest.warns(DegenerateDataWarning, match="solved by all models or by none"):
            result = assay.cochrans_q(successes=successes)
        assert math.isnan(result.statistic) and result.pvalue == 1.0
        assert math.isnan(expected["statistic"]) and expected["pvalue"] == 1.0
        return
    result = assay.cochrans_q(successes=successes)
    assert result.statistic == pytest.approx(expected["statistic"], rel=1e-14)
    assert result.pvalue == pytest.approx(expected["pvalue"], abs=P_TOLERANCE)
    if np.unique(successes).shape[0] == 2:  # statsmodels reads "success" as the largest value
        theirs = sm.cochrans_q(successes)
        assert result.statistic == pytest.approx(theirs.statistic, rel=1e-12, abs=1e-12)
        assert result.pvalue == pytest.approx(theirs.pvalue, abs=1e-12)
        assert result.df == theirs.df


@given(_labels_and_predictions())
def test_cochrans_q_of_two_models_is_mcnemars_uncorrected_chi_squared(data) -> None:
    y_true, pred_a, pred_b = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        q = assay.cochrans_q(y_true, pred_a, pred_b)
        chi2 = assay.mcnemar(y_true, pred_a, pred_b, method="asymptotic", correction=False)
    np.testing.assert_allclose(q.statistic, chi2.statistic, rtol=1e-14)
    np.testing.assert_allclose(q.pvalue, chi2.pvalue, rtol=1e-12)


def test_cochrans_q_labels_and_successes_agree() -> None:
    rng = np.random.default_rng(11)
    y_true = rng.integers(0, 3, 50)
    predictions = [np.where(rng.random(50) < p, y_true, (y_true + 1) % 3) for p in (0.6, 0.7, 0.8)]
    successes = np.column_stack([prediction == y_true for prediction in predictions])
    from_labels = assay.cochrans_q(y_true, *predictions)
    from_successes = assay.cochrans_q(successes=successes)
    assert from_labels.statistic == from_successes.statistic
    assert from_labels.pvalue == from_successes.pvalue
    expected = reference.cochrans_q(y_true, *predictions)
    assert from_labels.statistic == pytest.approx(expected["statistic"], rel=1e-14)


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        ((), {}, r"^Give either `successes` or `y_true` and the predictions\.$"),
        (
            ([0, 1], [0, 1], [1, 1]),
            {"successes": [[1, 0], [0, 1]]},
            r"^Give either `successes` or `y_true` and the predictions, not both\.$",
        ),
        (([0, 1], [0, 1]), {}, r"^Cochran's Q compares at least 2 models; got 1\.$"),
        ((), {"successes": [[1], [0]]}, r"^Cochran's Q compares at least 2 models; got 1\.$"),
        (
            (),
            {"successes": [1, 0, 1]},
            r"^`successes` must be 2-D \(n_examples, n_models\); got an array of shape \(3,\)\.$",
        ),
        (
            (),
            {"successes": [[1, 2], [0, 1]]},
            r"^`successes` must hold only 0 and 1 \(or booleans\); got \[2\]\.$",
        ),
        (
            (),
            {"successes": [["a", "b"]]},
            r"^`successes` must be numeric; got dtype <U1\.$",
        ),
        (
            (),
            {"successes": np.zeros((0, 3))},
            r"^`successes` is empty; at least one example is needed\.$",
        ),
        (
            ([0, 1, 1], [0, 1, 1], [0, 1]),
            {},
            r"^`y_true` and `predictions\[1\]` have different lengths: 3 and 2\.$",
        ),
    ],
)
def test_cochrans_q_input_errors(args, kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        assay.cochrans_q(*args, **kwargs)


def test_cochrans_q_refuses_probabilities_for_labels() -> None:
    y_true, proba_a, proba_b = _saturated_probabilities()
    labels_a = (proba_a >= 0.5).astype(int)
    message = rf"^`predictions\[2\]` holds continuous values .*{THRESHOLD_FIRST}"
    with pytest.raises(ValueError, match=message):
        assay.cochrans_q(y_true, labels_a, labels_a, proba_b)
    with pytest.raises(ValueError, match=r"^`predictions\[0\]` holds continuous values"):
        assay.cochrans_q(y_true, proba_a, labels_a)


# --- Type-I error under the null (slow) -------------------------------------------------

ALPHA = 0.05
N_SIMULATIONS = 4000
# Three Monte-Carlo standard errors of a rejection rate of 0.05 over N_SIMULATIONS runs.
MONTE_CARLO = 3 * math.sqrt(ALPHA * (1 - ALPHA) / N_SIMULATIONS)


@pytest.mark.slow
@pytest.mark.parametrize(
    "method, correction",
    [("exact", True), ("midp", True), ("asymptotic", True), ("asymptotic", False)],
)
def test_mcnemar_type_one_error(method, correction) -> None:
    # Two models of equal accuracy whose errors are correlated: each of 200 examples is
    # discordant with probability 0.1, then equally likely to favour either model.
    # Exact and corrected tests are conservative (rate at most alpha, up to Monte-Carlo
    # error); mid-p and uncorrected stay close to alpha but may exceed it slightly.
    rng = np.random.default_rng(20250101)
    rejections = 0
    for _ in range(N_SIMULATIONS):
        discordant = rng.binomial(200, 0.1)
        b = rng.binomial(discordant, 0.5)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            result = assay.mcnemar(
                table=[[150, b], [discordant - b, 50]], method=method, correction=correction
            )
        rejections += result.pvalue <= ALPHA
    rate = rejections / N_SIMULATIONS
    assert rate <= ALPHA + MONTE_CARLO
    if method == "exact" or correction:
        assert rate > 0.01  # conservative, not absurdly so
    else:
        assert rate >= ALPHA - MONTE_CARLO

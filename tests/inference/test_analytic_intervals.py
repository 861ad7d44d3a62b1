"""Analytic intervals: proportion_ci, error_rate_ci, difference_ci and mean_ci.

Expected values come from (named at each test):

- the lecture texts ("Estimation of the hypothesis real risk": the z table and the
  zeta(x, K) table; Honavar, "Evaluating model performance": "error 0.1 on 100
  samples", the z table with five decimals; Wu, "Evaluation": the t critical value
  tinv(1 - 0.05/2, 6) = 2.4469), each number re-checked against ``scipy.stats`` here;
- published examples: Newcombe (1998b, Statistics in Medicine 17, 873-890), example
  (a), and Fagerland, Lydersen & Laake (2015, Statistical Methods in Medical Research
  24, 224-254), the 7/34 vs 1/34 trial, as tabulated to the printed digits;
- ``statsmodels.stats.proportion`` (``proportion_confint``, all five methods;
  ``confint_proportions_2indep``, 'newcomb' and 'wald'), which implements the same
  definitions except the Jeffreys endpoints (see the test);
- the reference twins in ``assay.reference`` and the defining properties of the
  intervals (the Wilson bounds solve the score equation; the Clopper-Pearson bounds
  put alpha/2 of binomial probability in each tail; exact coverage).
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

import assay
from assay import difference_ci, error_rate_ci, mean_ci, proportion_ci
from assay import reference as ref
from assay._results import IntervalArrayResult, IntervalResult
from assay.exceptions import DegenerateDataWarning

METHODS = ("wilson", "normal", "agresti_coull", "clopper_pearson", "jeffreys")
# statsmodels' names for the same five intervals ('beta' is Clopper-Pearson).
STATSMODELS_NAMES = {
    "wilson": "wilson",
    "normal": "normal",
    "agresti_coull": "agresti_coull",
    "clopper_pearson": "beta",
    "jeffreys": "jeffreys",
}
LEVELS = (0.5, 0.8, 0.9, 0.95, 0.99, 0.999)

# Closed formulas of a few float operations, evaluated in a different order (the Wilson
# lower bound here comes from the product of the roots): bounds are in [0, 1], so an
# absolute difference of a few ulps of 1.
FORMULA_AGREEMENT = 1e-12
# Beta quantiles by two routes to the same Boost inverse (scipy.special.betaincinv here,
# scipy.stats.beta.ppf in statsmodels and the reference): agreement to ~1e-15 seen;
# the margin covers extreme shape parameters.
BETA_QUANTILE_AGREEMENT = 1e-10
# A value printed with d decimals is within half a unit of its last digit.
HALF_UNIT_4_DECIMALS = 0.5e-4


def _quiet(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call ``function`` ignoring the zero-width warning of the normal intervals."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return function(*args, **kwargs)


@st.composite
def counts(draw: st.DrawFn) -> tuple[int, int]:
    """``(k, n)``: tiny to large ``n``, with ``k`` often at 0, 1, n - 1 or n."""
    n = draw(st.one_of(st.integers(1, 12), st.integers(13, 2_000), st.integers(2_000, 10**7)))
    k = draw(st.one_of(st.sampled_from([0, min(1, n), max(n - 1, 0), n]), st.integers(0, n)))
    return k, n


levels = st.sampled_from(LEVELS)
methods = st.sampled_from(METHODS)


# --- Worked examples of the lecture texts -----------------------------------------------


def test_honavar_error_of_a_tenth_on_100_examples() -> None:
    # Honavar, "Confidence interval for proportions": error 0.1 on 100 test samples,
    # 90 % interval 0.1 ± 1.64485 sqrt(0.09/100) "= 0.1 ± 0.05"; the half-width is
    # 1.64485 * 0.03 = 0.0493, printed rounded to 0.05.
    result = proportion_ci(10, 100, confidence_level=0.90, method="normal")
    low, high = result.confidence_interval
    assert result.estimate == 0.1
    assert result.standard_error == pytest.approx(0.03, abs=1e-15)
    assert (high - low) / 2 == pytest.approx(1.64485 * 0.03, abs=HALF_UNIT_4_DECIMALS * 0.03)
    assert round((high - low) / 2, 2) == 0.05
    assert low == pytest.approx(0.1 - 0.0493456, abs=1e-7)


@pytest.mark.parametrize(
    ("confidence_level", "printed_z"),
    # Honavar, table "Critical (z) value to be used in confidence interval calculation".
    [
        (0.50, 0.67449),
        (0.75, 1.15035),
        (0.90, 1.64485),
        (0.95, 1.95996),
        (0.97, 2.17009),
        (0.99, 2.57583),
        (0.999, 3.29053),
    ],
)
def test_honavar_z_table(confidence_level: float, printed_z: float) -> None:
    # The z of the normal interval is its half-width over its standard error.
    result = proportion_ci(50, 100, confidence_level=confidence_level, method="normal")
    low, high = result.confidence_interval
    z = (high - low) / 2 / result.standard_error
    assert z == pytest.approx(printed_z, abs=0.5e-5)


@pytest.mark.parametrize(
    ("confidence_level", "printed_zeta"),
    # "Estimation of the hypothesis real risk", the table of zeta(x) after the interval
    # of the real risk.  Its "68 %"
    # column is the one-sigma level, 68.27 %: z(0.68) = 0.9945 would print as 0.99.
    [
        (0.50, 0.67),
        (0.6827, 1.00),
        (0.80, 1.28),
        (0.90, 1.64),
        (0.95, 1.96),
        (0.98, 2.33),
        (0.99, 2.58),
    ],
)
def test_risk_notes_zeta_table(confidence_level: float, printed_zeta: float) -> None:
    result = proportion_ci(30, 100, confidence_level=confidence_level, method="normal")
    low, high = result.confidence_interval
    assert (high - low) / 2 / result.standard_error == pytest.approx(printed_zeta, abs=0.005)


def test_wu_t_critical_value_with_six_degrees_of_freedom() -> None:
    # Wu, "Evaluation": "tinv(1-0.05/2,6) ... is 2.4469": seven values, 6 degrees of freedom.
    values = [0.02, -0.01, 0.03, 0.015, 0.0, 0.025, 0.01]
    result = mean_ci(values)
    assert result.details["df"] == 6
    assert round(result.details["critical_value"], 4) == 2.4469
    s = float(np.std(values, ddof=1))
    low, high = result.confidence_interval
    assert high - low == pytest.approx(2 * 2.4469118511 * s / math.sqrt(7), rel=1e-9)


@pytest.mark.parametrize(
    ("folds", "printed"),
    # "Estimation of the hypothesis real risk", table of zeta(x, K) for x = 90 %, 95 %, 98 %, 99 %.
    [
        (2, (2.92, 4.30, 6.96, 9.92)),
        (5, (2.02, 2.57, 3.36, 4.03)),
        (10, (1.81, 2.23, 2.76, 3.17)),
        (30, (1.70, 2.04, 2.46, 2.75)),
    ],
)
def test_risk_notes_zeta_k_table_holds_t_quantiles_with_k_degrees_of_freedom(
    folds: int, printed: tuple[float, ...]
) -> None:
    # The printed zeta(x, K) are Student t quantiles with K degrees of freedom (e.g.
    # zeta(95 %, 10) = 2.23 = t(0.975, 10) = 2.228), i.e. the critical values for K + 1
    # folds.  The right critical value for K folds has K - 1 degrees of freedom (source
    # Wu, "Evaluation", Algorithm 2: "the degree of freedom is not n"), and that is what mean_ci
    # uses: the table's values come out of mean_ci for K + 1 values, not K.
    rng = np.random.default_rng(folds)
    for level, zeta in zip((0.90, 0.95, 0.98, 0.99), printed, strict=True):
        with_one_more = mean_ci(rng.normal(size=folds + 1), confidence_level=level)
        assert with_one_more.details["critical_value"] == pytest.approx(zeta, abs=0.005)
        with_k = mean_ci(rng.normal(size=folds), confidence_level=level)
        assert with_k.details["critical_value"] == pytest.approx(
            stats.t.ppf(0.5 + level / 2, folds - 1), rel=1e-12
        )
    ten_folds = mean_ci(rng.normal(size=10))
    assert round(ten_folds.details["critical_value"], 3) == 2.262  # not the table's 2.23


# --- Published examples of the difference of two proportions ---------------------------


def test_newcombe_1998_example_a() -> None:
    # Newcombe (1998b), table II, example (a): 56/70 - 48/80 = 0.2, method 10
    # (the hybrid score interval) 0.0524 to 0.3339.
    result = difference_ci(56, 70, 48, 80, method="newcombe")
    low, high = result.confidence_interval
    assert result.estimate == pytest.approx(0.2, abs=1e-15)
    assert round(low, 4) == 0.0524
    assert round(high, 4) == 0.3339


def test_fagerland_2015_perondi_trial() -> None:
    # Fagerland, Lydersen & Laake (2015), 7/34 vs 1/34 (Perondi et al. 2004), as
    # tabulated with two significant digits: Wald 0.029 to 0.32, Newcombe hybrid
    # score 0.019 to 0.34.
    low, high = difference_ci(7, 34, 1, 34, method="normal").confidence_interval
    assert (round(low, 3), round(high, 2)) == (0.029, 0.32)
    low, high = difference_ci(7, 34, 1, 34, method="newcombe").confidence_interval
    assert (round(low, 3), round(high, 2)) == (0.019, 0.34)


def test_risk_notes_difference_formula_by_hand() -> None:
    # "Estimation of the hypothesis real risk":
    # d ± zeta(x) sqrt(p1(1-p1)/t1 + p2(1-p2)/t2), here 17 errors in 100
    # against 20 in 100 ("0.17 ... better than 0.20?"), at 95 %.
    result = difference_ci(17, 100, 20, 100, method="normal")
    standard_error = math.sqrt(0.17 * 0.83 / 100 + 0.2 * 0.8 / 100)
    z = stats.norm.ppf(0.975)
    assert result.standard_error == pytest.approx(standard_error, rel=1e-14)
    assert result.confidence_interval.low == pytest.approx(-0.03 - z * standard_error, rel=1e-13)
    assert result.confidence_interval.high == pytest.approx(-0.03 + z * standard_error, rel=1e-13)
    assert result.confidence_interval.low < 0 < result.confidence_interval.high


# --- Agreement with statsmodels ---------------------------------------------------------


@given(data=counts(), confidence_level=levels, method=methods)
def test_proportion_ci_matches_statsmodels(
    data: tuple[int, int], confidence_level: float, method: str
) -> None:
    k, n = data
    low, high = _quiet(
        proportion_ci, k, n, confidence_level=confidence_level, method=method
    ).confidence_interval
    expected_low, expected_high = proportion_confint(
        k, n, alpha=1 - confidence_level, method=STATSMODELS_NAMES[method]
    )
    if method == "jeffreys":
        # statsmodels takes the plain beta quantiles at k = 0 and k = n; Brown, Cai &
        # DasGupta (2001, section 4.1.2) set the bound to 0 (k = 0) and 1 (k = n).
        expected_low = 0.0 if k == 0 else expected_low
        expected_high = 1.0 if k == n else expected_high
    tolerance = (
        BETA_QUANTILE_AGREEMENT if method in ("clopper_pearson", "jeffreys") else FORMULA_AGREEMENT
    )
    assert low == pytest.approx(expected_low, abs=tolerance)
    assert high == pytest.approx(expected_high, abs=tolerance)


def test_jeffreys_endpoint_convention_differs_from_statsmodels_only_at_the_ends() -> None:
    low, high = proportion_ci(0, 20, method="jeffreys").confidence_interval
    statsmodels_low, statsmodels_high = proportion_confint(0, 20, method="jeffreys")
    assert low == 0.0 < statsmodels_low < 1e-4
    assert high == pytest.approx(statsmodels_high, abs=1e-15)
    low, high = proportion_ci(20, 20, method="jeffreys").confidence_interval
    statsmodels_low, statsmodels_high = proportion_confint(20, 20, method="jeffreys")
    assert high == 1.0 > statsmodels_high > 1 - 1e-4
    assert low == pytest.approx(statsmodels_low, abs=1e-15)


@given(first=counts(), second=counts(), confidence_level=levels)
def test_difference_ci_matches_statsmodels(
    first: tuple[int, int], second: tuple[int, int], confidence_level: float
) -> None:
    (k1, n1), (k2, n2) = first, second
    alpha = 1 - confidence_level
    newcombe = difference_ci(k1, n1, k2, n2, confidence_level=confidence_level)
    expected = confint_proportions_2indep(k1, n1, k2, n2, method="newcomb", alpha=alpha)
    np.testing.assert_allclose(newcombe.confidence_interval, expected, atol=FORMULA_AGREEMENT)
    wald = _quiet(
        difference_ci, k1, n1, k2, n2, confidence_level=confidence_level, method="normal"
    )
    # statsmodels leaves the Wald bounds unclipped.
    expected = np.clip(
        confint_proportions_2indep(k1, n1, k2, n2, method="wald", alpha=alpha), -1, 1
    )
    np.testing.assert_allclose(wald.confidence_interval, expected, atol=FORMULA_AGREEMENT)


@given(data=counts(), confidence_level=levels)
def test_wilson_cc_matches_scipy(data: tuple[int, int], confidence_level: float) -> None:
    k, n = data
    low, high = proportion_ci(
        k, n, confidence_level=confidence_level, method="wilson_cc"
    ).confidence_interval
    expected = stats.binomtest(k, n).proportion_ci(confidence_level, method="wilsoncc")
    assert low == pytest.approx(expected.low, abs=FORMULA_AGREEMENT)
    assert high == pytest.approx(expected.high, abs=FORMULA_AGREEMENT)


@given(data=counts(), confidence_level=levels)
def test_wilson_cc_bounds_solve_the_corrected_score_equation(
    data: tuple[int, int], confidence_level: float
) -> None:
    # Newcombe (1998a), method 4: the bounds are the p0 with
    # |k/n - p0| - 1/(2n) = z sqrt(p0 (1 - p0) / n); 0 at k = 0 and 1 at k = n.
    k, n = data
    z = stats.norm.ppf(0.5 + confidence_level / 2)
    low, high = proportion_ci(
        k, n, confidence_level=confidence_level, method="wilson_cc"
    ).confidence_interval
    plain = proportion_ci(k, n, confidence_level=confidence_level).confidence_interval
    assert low <= plain.low and high >= plain.high  # wider than Wilson's on both sides
    if k == 0:
        assert low == 0.0
    else:
        residual = (k / n - low - 0.5 / n) ** 2 - z * z * low * (1 - low) / n
        assert abs(residual) <= 1e-12 * (1 + z * z / n)
        assert low <= k / n - 0.5 / n
    if k == n:
        assert high == 1.0
    else:
        residual = (high - k / n - 0.5 / n) ** 2 - z * z * high * (1 - high) / n
        assert abs(residual) <= 1e-12 * (1 + z * z / n)
        assert high >= k / n + 0.5 / n


@st.composite
def count_arrays(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    """``(k, n)`` arrays that broadcast: shapes (m,), (m,) / (m,), () / (a, 1), (b,)."""
    m = draw(st.integers(0, 5))
    trials = [draw(st.integers(1, 2_000)) for _ in range(m)]
    successes = [draw(st.integers(0, t)) for t in trials]
    layout = draw(st.sampled_from(["same", "one n", "outer"]))
    if layout == "same":
        return np.array(successes, dtype=np.int64), np.array(trials, dtype=np.int64)
    if layout == "one n":
        n = draw(st.integers(1, 2_000))
        return np.array([min(k, n) for k in successes], dtype=np.int64), np.array(n)
    n_column = draw(st.lists(st.integers(2_000, 10**6), min_size=1, max_size=3))
    return np.array(successes, dtype=np.int64), np.array(n_column)[:, None]


ALL_METHODS = (*METHODS, "wilson_cc", "hoeffding")


@given(data=count_arrays(), confidence_level=levels, method=st.sampled_from(ALL_METHODS))
def test_arrays_of_counts_give_the_scalar_intervals(
    data: tuple[np.ndarray, np.ndarray], confidence_level: float, method: str
) -> None:
    k, n = data
    result = _quiet(proportion_ci, k, n, confidence_level=confidence_level, method=method)
    shape = np.broadcast_shapes(k.shape, n.shape)
    assert isinstance(result, IntervalArrayResult)
    assert result.shape == shape
    low, high = result.confidence_interval
    for array in (result.estimate, low, high, result.standard_error, result.n):
        assert array.shape == shape
    k_full, n_full = np.broadcast_to(k, shape), np.broadcast_to(n, shape)
    for index in np.ndindex(shape):
        one = _quiet(
            proportion_ci,
            int(k_full[index]),
            int(n_full[index]),
            confidence_level=confidence_level,
            method=method,
        )
        # bit for bit: one implementation of the bounds serves both
        assert result.estimate[index] == one.estimate
        assert (low[index], high[index]) == tuple(one.confidence_interval)
        assert result.standard_error[index] == one.standard_error
        assert result.n[index] == one.n and result.details["k"][index] == one.details["k"]
        item = result[index]
        assert isinstance(item, IntervalResult)
        assert item.to_dict() == one.to_dict()


def test_array_result_is_self_consistent() -> None:
    k = np.array([[0, 5, 10], [3, 7, 10]])
    result = proportion_ci(k, 10, method="wilson_cc")
    assert result.shape == (2, 3) and len(result) == 2
    low, high = result.confidence_interval
    assert np.all((low <= result.estimate) & (result.estimate <= high))
    assert low[0, 0] == 0.0 and high[0, 2] == 1.0 and high[1, 2] == 1.0
    row = result[1]
    assert isinstance(row, IntervalArrayResult) and row.shape == (3,)
    np.testing.assert_array_equal(row.confidence_interval.low, low[1])
    np.testing.assert_array_equal(row.details["k"], [3, 7, 10])
    # read-only arrays: the result cannot be edited into contradicting itself
    with pytest.raises(ValueError, match="read-only"):
        result.estimate[0, 0] = 0.5
    with pytest.raises(ValueError, match="read-only"):
        low[0, 0] = 0.5
    plain = json.loads(result.to_json())
    assert plain["confidence_interval"]["low"] == low.tolist()
    assert plain["n"] == [[10] * 3] * 2
    assert str(result).startswith("6 95% continuity-corrected Wilson intervals, shape (2, 3): ")
    assert "IntervalArrayResult(" in repr(result)
    with pytest.raises(ValueError, match=r"`n` has shape \(2,\), `estimate` \(3,\)"):
        IntervalArrayResult(
            estimate=[0.1, 0.2, 0.3],
            confidence_interval=([0, 0, 0], [1, 1, 1]),
            standard_error=[0.1, 0.1, 0.1],
            confidence_level=0.95,
            method="wilson",
            n=[10, 10],
        )


def test_empty_arrays_of_counts() -> None:
    result = proportion_ci([], [])
    assert result.shape == (0,)
    assert str(result) == "0 95% Wilson intervals, shape (0,)"


def test_wald_zero_width_warns_once_for_an_array() -> None:
    with pytest.warns(DegenerateDataWarning, match=r"2 of the 4 counts have `k` = 0 or `k` = `n`"):
        proportion_ci([0, 3, 10, 4], 10, method="normal")


# --- Agreement with the reference ------------------------------------------------------


@given(data=counts(), confidence_level=levels, method=st.sampled_from((*METHODS, "wilson_cc")))
def test_proportion_ci_matches_reference(
    data: tuple[int, int], confidence_level: float, method: str
) -> None:
    k, n = data
    result = _quiet(proportion_ci, k, n, confidence_level=confidence_level, method=method)
    estimate, low, high = ref.proportion_ci(k, n, confidence_level=confidence_level, method=method)
    assert result.estimate == estimate
    assert result.confidence_interval.low == pytest.approx(low, abs=BETA_QUANTILE_AGREEMENT)
    assert result.confidence_interval.high == pytest.approx(high, abs=BETA_QUANTILE_AGREEMENT)
    assert result.standard_error == pytest.approx(math.sqrt(estimate * (1 - estimate) / n))
    assert (result.method, result.n, result.confidence_level) == (method, n, confidence_level)
    assert result.details["k"] == k


@given(
    first=counts(),
    second=counts(),
    confidence_level=levels,
    method=st.sampled_from(["newcombe", "normal"]),
)
def test_difference_ci_matches_reference(
    first: tuple[int, int], second: tuple[int, int], confidence_level: float, method: str
) -> None:
    (k1, n1), (k2, n2) = first, second
    result = _quiet(
        difference_ci, k1, n1, k2, n2, confidence_level=confidence_level, method=method
    )
    estimate, low, high = ref.difference_ci(
        k1, n1, k2, n2, confidence_level=confidence_level, method=method
    )
    assert result.estimate == pytest.approx(estimate, abs=1e-15)
    assert result.confidence_interval.low == pytest.approx(low, abs=FORMULA_AGREEMENT)
    assert result.confidence_interval.high == pytest.approx(high, abs=FORMULA_AGREEMENT)
    assert result.n == n1 + n2
    assert dict(result.details) == {
        "estimate_1": k1 / n1,
        "estimate_2": k2 / n2,
        "n1": n1,
        "n2": n2,
    }


fold_scores = st.lists(
    st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False), min_size=2, max_size=40
)


@given(values=fold_scores, confidence_level=levels, method=st.sampled_from(["t", "normal"]))
def test_mean_ci_matches_reference(
    values: list[float], confidence_level: float, method: str
) -> None:
    result = _quiet(mean_ci, values, confidence_level=confidence_level, method=method)
    estimate, low, high = ref.mean_ci(values, confidence_level=confidence_level, method=method)
    # np.mean / np.std against exact fractions: a few ulps of the largest value.
    tolerance = 1e-12 * max(1.0, max(abs(v) for v in values))
    assert result.estimate == pytest.approx(estimate, abs=tolerance)
    assert result.confidence_interval.low == pytest.approx(low, abs=tolerance)
    assert result.confidence_interval.high == pytest.approx(high, abs=tolerance)
    assert result.n == len(values)
    assert math.isfinite(result.confidence_interval.low)
    assert math.isfinite(result.confidence_interval.high)


labels_and_weights = st.integers(1, 30).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 2), min_size=n, max_size=n),
        st.lists(st.integers(0, 2), min_size=n, max_size=n),
        st.one_of(st.none(), st.lists(st.integers(0, 5), min_size=n, max_size=n)),
    )
)


@given(data=labels_and_weights, confidence_level=levels, method=methods)
def test_error_rate_ci_matches_reference(
    data: tuple[list[int], list[int], list[int] | None], confidence_level: float, method: str
) -> None:
    y_true, y_pred, weights = data
    if weights is not None and sum(weights) == 0:
        weights[0] = 1
    result = _quiet(
        error_rate_ci,
        y_true,
        y_pred,
        confidence_level=confidence_level,
        method=method,
        sample_weight=weights,
    )
    estimate, low, high = ref.error_rate_ci(
        y_true, y_pred, confidence_level=confidence_level, method=method, sample_weight=weights
    )
    assert result.estimate == pytest.approx(estimate, abs=1e-15)
    assert result.estimate == pytest.approx(
        assay.error_rate(y_true, y_pred, sample_weight=weights), abs=1e-15
    )
    assert result.confidence_interval.low == pytest.approx(low, abs=BETA_QUANTILE_AGREEMENT)
    assert result.confidence_interval.high == pytest.approx(high, abs=BETA_QUANTILE_AGREEMENT)
    expected_n = len(y_true) if weights is None else sum(weights)
    assert result.n == expected_n


# --- Defining properties ---------------------------------------------------------------


@given(data=counts(), confidence_level=levels)
def test_wilson_bounds_solve_the_score_equation(
    data: tuple[int, int], confidence_level: float
) -> None:
    # Wilson (1927): the bounds are the p0 with |k/n - p0| = z sqrt(p0 (1 - p0) / n).
    k, n = data
    z = stats.norm.ppf(0.5 + confidence_level / 2)
    low, high = proportion_ci(k, n, confidence_level=confidence_level).confidence_interval
    for bound in (low, high):
        residual = (k / n - bound) ** 2 - z * z * bound * (1 - bound) / n
        # Both terms are at most ~ (1 + z^2/n): the residual vanishes to rounding.
        assert abs(residual) <= 1e-12 * (1 + z * z / n)
    assert low <= k / n <= high


@given(data=counts(), confidence_level=levels)
def test_clopper_pearson_bounds_leave_alpha_half_in_each_binomial_tail(
    data: tuple[int, int], confidence_level: float
) -> None:
    # Clopper & Pearson (1934): P(X >= k | low) = alpha/2 and P(X <= k | high) = alpha/2.
    k, n = data
    alpha = 1 - confidence_level
    low, high = proportion_ci(
        k, n, confidence_level=confidence_level, method="clopper_pearson"
    ).confidence_interval
    if k == 0:
        assert low == 0.0
    else:
        assert stats.binom.sf(k - 1, n, low) == pytest.approx(alpha / 2, rel=1e-6)
    if k == n:
        assert high == 1.0
    else:
        assert stats.binom.cdf(k, n, high) == pytest.approx(alpha / 2, rel=1e-6)


@given(data=counts(), confidence_level=levels, method=methods)
def test_bounds_are_ordered_nested_and_symmetric(
    data: tuple[int, int], confidence_level: float, method: str
) -> None:
    k, n = data
    low, high = _quiet(
        proportion_ci, k, n, confidence_level=confidence_level, method=method
    ).confidence_interval
    assert 0.0 <= low <= high <= 1.0
    # Swapping successes and failures mirrors the interval around 1/2.
    mirrored = _quiet(
        proportion_ci, n - k, n, confidence_level=confidence_level, method=method
    ).confidence_interval
    assert mirrored.low == pytest.approx(1 - high, abs=BETA_QUANTILE_AGREEMENT)
    assert mirrored.high == pytest.approx(1 - low, abs=BETA_QUANTILE_AGREEMENT)
    # A higher confidence level gives a wider interval containing the narrower one.
    wider = _quiet(proportion_ci, k, n, confidence_level=0.9999, method=method)
    assert wider.confidence_interval.low <= low + 1e-15
    assert wider.confidence_interval.high >= high - 1e-15


@given(first=counts(), second=counts(), method=st.sampled_from(["newcombe", "normal"]))
def test_difference_is_antisymmetric(
    first: tuple[int, int], second: tuple[int, int], method: str
) -> None:
    (k1, n1), (k2, n2) = first, second
    forward = _quiet(difference_ci, k1, n1, k2, n2, method=method)
    backward = _quiet(difference_ci, k2, n2, k1, n1, method=method)
    assert backward.estimate == -forward.estimate
    assert backward.confidence_interval.low == pytest.approx(
        -forward.confidence_interval.high, abs=FORMULA_AGREEMENT
    )
    assert -1.0 <= forward.confidence_interval.low <= forward.estimate
    assert forward.estimate <= forward.confidence_interval.high <= 1.0


def _exact_coverage(p: float, n: int, method: str, confidence_level: float = 0.95) -> float:
    """Probability that the interval of k ~ Binomial(n, p) contains p (a finite sum)."""
    covered = 0.0
    for k in range(n + 1):
        low, high = _quiet(
            proportion_ci, k, n, confidence_level=confidence_level, method=method
        ).confidence_interval
        if low <= p <= high:
            covered += stats.binom.pmf(k, n, p)
    return covered


def test_exact_coverage() -> None:
    # Exact coverage (a sum over the n + 1 outcomes, no simulation).  Clopper-Pearson
    # is conservative by construction: coverage >= 95 % for every p.  Wilson at
    # p = 0.1, n = 100 oscillates near the nominal level (it is 0.936 there; Brown,
    # Cai & DasGupta 2001, figure 5, show the same oscillation).  The Wald interval
    # of the lecture texts collapses near the edges: at n = 30, p = 0.01 it covers p
    # only for k = 1, 2, 3 (k = 0 gives the point 0; from k = 4 on the lower bound
    # 0.133 - 1.96 * 0.062 = 0.012 exceeds p), a probability of 0.26.
    grid = np.linspace(0.01, 0.99, 50)
    assert min(_exact_coverage(p, 30, "clopper_pearson") for p in grid) >= 0.95
    assert 0.93 <= _exact_coverage(0.1, 100, "wilson") <= 0.96
    one_to_three = stats.binom.cdf(3, 30, 0.01) - stats.binom.pmf(0, 30, 0.01)
    assert _exact_coverage(0.01, 30, "normal") == pytest.approx(one_to_three, rel=1e-12)
    assert round(one_to_three, 2) == 0.26


# --- error_rate_ci ----------------------------------------------------------------------


def test_error_rate_ci_counts_misclassified_rows() -> None:
    y_true = ["cat", "dog", "cat", "bird", "dog", "cat"]
    y_pred = ["cat", "cat", "cat", "bird", "bird", "cat"]
    result = error_rate_ci(y_true, y_pred, method="clopper_pearson")
    expected = proportion_ci(2, 6, method="clopper_pearson")
    assert result.confidence_interval == expected.confidence_interval
    assert (result.estimate, result.n, result.details["n_errors"]) == (2 / 6, 6, 2)


def test_error_rate_ci_integer_weights_are_repetitions() -> None:
    y_true = [0, 1, 1, 0, 1]
    y_pred = [0, 0, 1, 1, 1]
    weights = [2, 3, 0, 1, 4]
    repeated_true = np.repeat(y_true, weights)
    repeated_pred = np.repeat(y_pred, weights)
    weighted = error_rate_ci(y_true, y_pred, sample_weight=weights)
    repeated = error_rate_ci(repeated_true, repeated_pred)
    assert weighted.confidence_interval == repeated.confidence_interval
    assert (weighted.n, weighted.details["n_errors"]) == (10, 4)
    # Whole floats are whole numbers.
    as_floats = error_rate_ci(y_true, y_pred, sample_weight=[2.0, 3.0, 0.0, 1.0, 4.0])
    assert as_floats.confidence_interval == weighted.confidence_interval


def test_error_rate_ci_refuses_fractional_weights() -> None:
    with pytest.raises(
        ValueError,
        match=r"`sample_weight` contains 2 non-integer values \(e\.g\. 0\.5\); error_rate_ci "
        r"reads weights as frequencies",
    ):
        error_rate_ci([0, 1, 1], [0, 1, 0], sample_weight=[0.5, 1.0, 2.5])


def test_error_rate_ci_reuses_the_label_checks_of_error_rate() -> None:
    with pytest.raises(ValueError, match="`y_true` and `y_pred` have different lengths: 3 and 2"):
        error_rate_ci([0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match=r"`y_true` holds continuous values \(e\.g\. 0\.5\)"):
        error_rate_ci([0.5, 1.0], [0, 1])
    with pytest.raises(ValueError, match="`sample_weight` contains 1 negative values"):
        error_rate_ci([0, 1], [0, 1], sample_weight=[1, -1])


def test_error_rate_ci_refuses_scores_for_predicted_labels() -> None:
    with pytest.raises(
        ValueError,
        match=r"^`y_pred` holds continuous values \(e\.g\. 0\.9\): scores or probabilities, "
        r"not class labels; threshold them first \(e\.g\. `score >= 0\.5`\)",
    ):
        error_rate_ci([0, 1, 1], [1.0, 0.9, 0.0])
    with pytest.raises(ValueError, match=r"^`y_pred` holds float values \[3\.0\] that are not"):
        error_rate_ci([0, 1, 1], [1.0, 3.0, 0.0])


# --- mean_ci ----------------------------------------------------------------------------


def test_mean_ci_by_hand() -> None:
    values = [0.81, 0.79, 0.84, 0.80, 0.83]
    result = mean_ci(values, confidence_level=0.9)
    mean, s = 0.814, math.sqrt(sum((v - 0.814) ** 2 for v in values) / 4)
    c = stats.t.ppf(0.95, 4)
    assert result.estimate == pytest.approx(mean, rel=1e-14)
    assert result.standard_error == pytest.approx(s / math.sqrt(5), rel=1e-12)
    assert result.details["standard_deviation"] == pytest.approx(s, rel=1e-12)
    assert result.confidence_interval.low == pytest.approx(mean - c * s / math.sqrt(5), rel=1e-12)
    normal = mean_ci(values, confidence_level=0.9, method="normal")
    assert normal.details["critical_value"] == pytest.approx(stats.norm.ppf(0.95), rel=1e-14)
    assert "df" not in normal.details
    assert normal.confidence_interval.high < result.confidence_interval.high


def test_mean_ci_of_equal_values_is_a_point_with_a_warning() -> None:
    with pytest.warns(
        DegenerateDataWarning, match=r"all 4 values of `values` are equal"
    ) as record:
        result = mean_ci([0.1, 0.1, 0.1, 0.1])
    assert record[0].filename == __file__  # points at the caller
    assert result.confidence_interval == (0.1, 0.1)
    assert (result.estimate, result.standard_error) == (0.1, 0.0)


@pytest.mark.slow
def test_mean_ci_t_interval_covers_at_the_nominal_level() -> None:
    # Five normal fold scores: the t interval (4 degrees of freedom) covers the true
    # mean 95 % of the time; the normal critical value (1.96 < 2.776) covers only
    # about 88 %.  20,000 replicates: Monte Carlo standard error 0.0015, so 0.95 ±
    # 0.006 is four standard errors.
    rng = np.random.default_rng(20251126)
    samples = rng.normal(loc=0.8, scale=0.05, size=(20_000, 5))
    covered = {"t": 0, "normal": 0}
    for sample in samples:
        for method in covered:
            low, high = mean_ci(sample, method=method).confidence_interval
            covered[method] += low <= 0.8 <= high
    assert covered["t"] / 20_000 == pytest.approx(0.95, abs=0.006)
    assert covered["normal"] / 20_000 < 0.9


# --- Degenerate inputs ------------------------------------------------------------------


@pytest.mark.parametrize("k", [0, 25])
def test_wald_interval_at_zero_or_all_warns(k: int) -> None:
    with pytest.warns(
        DegenerateDataWarning,
        match=rf"`k` = {k} of `n` = 25: the normal \(Wald\) interval has zero width",
    ) as record:
        result = proportion_ci(k, 25, method="normal")
    assert record[0].filename == __file__
    assert result.confidence_interval == (k / 25, k / 25)
    # The other methods give a proper interval and do not warn.
    for method in ("wilson", "agresti_coull", "clopper_pearson", "jeffreys"):
        low, high = proportion_ci(k, 25, method=method).confidence_interval
        assert high - low > 0.05


def test_error_rate_ci_normal_without_errors_warns() -> None:
    with pytest.warns(
        DegenerateDataWarning,
        match=r"0 misclassified of 3 examples: the normal \(Wald\) interval has zero width",
    ) as record:
        error_rate_ci([0, 1, 1], [0, 1, 1], method="normal")
    assert record[0].filename == __file__


def test_difference_normal_with_both_proportions_at_the_edge_warns() -> None:
    with pytest.warns(
        DegenerateDataWarning,
        match=r"both proportions are 0 or 1 \(`k1`/`n1` = 0/20, `k2`/`n2` = 30/30\)",
    ) as record:
        result = difference_ci(0, 20, 30, 30, method="normal")
    assert record[0].filename == __file__
    assert result.confidence_interval == (-1.0, -1.0)
    low, high = difference_ci(0, 20, 30, 30).confidence_interval
    assert -1.0 <= low < high < -0.7


def test_result_fields_and_scalar_count_types() -> None:
    result = proportion_ci(np.int64(3), 10.0, confidence_level=0.9, method="jeffreys")
    assert result.to_dict()["confidence_interval"] == {
        "low": result.confidence_interval.low,
        "high": result.confidence_interval.high,
    }
    assert result.n == 10 and isinstance(result.n, int)
    assert (
        proportion_ci(np.array(3), 10).confidence_interval
        == proportion_ci(3, 10).confidence_interval
    )


# --- Error messages ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "n", "message"),
    [
        (2.5, 10, r"`k` must be a whole number \(a count\); got 2\.5\."),
        ("3", 10, r"`k` must be a whole number \(a count\); got '3'\."),
        (True, 10, r"`k` must be a whole number \(a count\); got True\."),
        (float("nan"), 10, r"`k` must be a whole number \(a count\); got nan\."),
        (3, float("inf"), r"`n` must be a whole number \(a count\); got inf\."),
        (None, 10, r"`k` must be a whole number \(a count\); got None\."),
        (-1, 10, r"`k` must be non-negative; got -1\."),
        (0, -5, r"`n` must be non-negative; got -5\."),
        (0, 0, r"`n` must be at least 1 \(the number of trials\); got 0\."),
        (12, 10, r"`k` = 12 exceeds `n` = 10; a count of successes cannot exceed"),
        (
            [1, 2.5, 3],
            10,
            r"`k` contains 1 values that are not whole numbers \(e\.g\. 2\.5\); counts "
            r"must be whole numbers\.",
        ),
        ([1, np.nan], 10, r"`k` contains 1 values that are not whole numbers \(e\.g\. nan\)"),
        (
            [True, False],
            10,
            r"`k` must hold whole numbers \(counts\); got an array of dtype bool\.",
        ),
        (["1"], 10, r"`k` must hold whole numbers \(counts\); got an array of dtype <U1\."),
        (
            [1, -2, -3],
            10,
            r"`k` contains 2 negative values \(e\.g\. -2\); counts must be non-negative\.",
        ),
        (
            [1, 2],
            [10, 0],
            r"`n` must be at least 1 \(the number of trials\); 1 values are 0\.",
        ),
        (
            [1, 12, 13],
            [10, 10, 20],
            r"`k` exceeds `n` at 1 positions \(e\.g\. 12 of 10\); a count of successes "
            r"cannot exceed the number of trials\.",
        ),
        (
            [1, 2, 3],
            [10, 20],
            r"`k` of shape \(3,\) and `n` of shape \(2,\) do not broadcast together "
            r"\(numpy's broadcasting rules\)\.",
        ),
        (
            [1],
            [2**60],
            r"`n` contains 1 counts above 2\*\*53 \(e\.g\. 1152921504606846976\); an array "
            r"of counts is computed in float64",
        ),
    ],
)
def test_proportion_ci_count_errors(k: Any, n: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        proportion_ci(k, n)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((1.5, 10, 1, 10), r"`k1` must be a whole number \(a count\); got 1\.5\."),
        ((1, 0, 1, 10), r"`n1` must be at least 1 \(the number of trials\); got 0\."),
        ((1, 10, -2, 10), r"`k2` must be non-negative; got -2\."),
        ((1, 10, 11, 10), r"`k2` = 11 exceeds `n2` = 10"),
    ],
)
def test_difference_ci_count_errors(arguments: tuple[Any, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        difference_ci(*arguments)


@pytest.mark.parametrize("confidence_level", [0.0, 1.0, 95, -0.5, "0.95", True])
def test_confidence_level_errors(confidence_level: Any) -> None:
    message = r"`confidence_level` must be in \(0, 1\); got "
    with pytest.raises(ValueError, match=message):
        proportion_ci(1, 10, confidence_level=confidence_level)
    with pytest.raises(ValueError, match=message):
        error_rate_ci([0, 1], [1, 1], confidence_level=confidence_level)
    with pytest.raises(ValueError, match=message):
        difference_ci(1, 10, 2, 10, confidence_level=confidence_level)
    with pytest.raises(ValueError, match=message):
        mean_ci([0.1, 0.2], confidence_level=confidence_level)


def test_method_errors() -> None:
    with pytest.raises(
        ValueError,
        match=r"`method` must be one of \['wilson', 'wilson_cc', 'normal', 'agresti_coull', "
        r"'clopper_pearson', 'jeffreys', 'hoeffding'\]; got 'wald'\.",
    ):
        proportion_ci(1, 10, method="wald")
    with pytest.raises(ValueError, match=r"`method` must be one of \['wilson'.*; got 'wald'\."):
        proportion_ci([1, 2], 10, method="wald")
    with pytest.raises(ValueError, match=r"`method` must be one of \['wilson'.*; got 'exact'\."):
        error_rate_ci([0, 1], [1, 1], method="exact")
    with pytest.raises(
        ValueError, match=r"`method` must be one of \['newcombe', 'normal'\]; got 'wilson'\."
    ):
        difference_ci(1, 10, 2, 10, method="wilson")
    with pytest.raises(ValueError, match=r"`method` must be one of \['t', 'normal'\]; got 'z'\."):
        mean_ci([0.1, 0.2], method="z")


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ([0.8, float("nan"), 0.7], r"`values` contains 1 NaN values; values must be finite\."),
        ([0.8, float("inf")], r"`values` contains 1 infinite values; values must be finite\."),
        ([0.8], r"`values` holds 1 value; the interval of a mean needs at least 2"),
        ([], r"`values` is empty; at least one value is needed\."),
        ([[0.8, 0.7], [0.6, 0.5]], r"`values` must be 1-D, got an array of shape \(2, 2\)\."),
        (["a", "b"], r"`values` must be numeric; got dtype <U1\."),
    ],
)
def test_mean_ci_errors(values: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        mean_ci(values)

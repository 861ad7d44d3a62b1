"""t-tests and the 5x2cv tests over per-fold scores (``assay.inference._fold_tests``).

Expected values come from: the worked examples of the lecture texts (Wu, "Evaluation";
Honavar, "Evaluating model performance"; Gama, "Evaluation of classification and
regression algorithms"; each number re-derived here, and where the printed number is
wrong the test says so), hand computations, the reference twins in ``assay.reference``
(exact fractions), and ``scipy.stats.ttest_rel`` / ``ttest_ind(equal_var=False)``.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy import stats

import assay
from assay import reference
from assay.exceptions import DegenerateDataWarning

# Same formula, different order of floating-point operations (numpy vs exact fractions,
# or scipy): agreement to a few ulps, well inside this.
ROUNDING = 1e-10
ALTERNATIVES = ("two-sided", "greater", "less")

# --- Worked examples of the lecture texts ----------------------------------------------

# Honavar, "Comparing models": accuracies of models A and B on 10 splits.
HONAVAR_A = [80, 84, 89, 78, 90, 81, 80, 88, 76, 86]
HONAVAR_B = [82, 87, 90, 82, 91, 83, 80, 89, 77, 88]


def test_honavar_paired_example_as_the_data_give_it() -> None:
    # Differences B - A: 2, 3, 1, 4, 1, 2, 0, 1, 1, 2; mean 1.7.  Their sum of squared
    # deviations is 12.1 (= 0.09 + 1.69 + 0.49 + 5.29 + 0.49 + 0.09 + 2.89 + 0.49 + 0.49
    # + 0.09), not the 13.7 printed on the slide, so t = 1.7 sqrt(10) / sqrt(12.1 / 9)
    # = 51 / 11 = 4.6364 (p = 0.0012256), not the printed t = 4.3572, p = 0.001831.
    result = assay.paired_ttest(HONAVAR_B, HONAVAR_A)
    assert result.estimate == pytest.approx(1.7, rel=1e-15)
    assert result.statistic == pytest.approx(51 / 11, rel=1e-14)
    assert result.df == 9.0
    assert result.pvalue == pytest.approx(2 * stats.t.sf(51 / 11, 9), rel=1e-12)
    assert round(result.pvalue, 7) == 0.0012256
    assert result.standard_error == pytest.approx(math.sqrt(12.1 / 9 / 10), rel=1e-14)


def test_honavar_printed_numbers_follow_from_the_misprinted_sum_of_squares() -> None:
    # The slide's t = 4.3572 and p = 0.001831 are what 13.7 would give: a typo in the
    # sum, not in the method (two-sided p, 9 degrees of freedom).
    t = 1.7 * math.sqrt(10) / math.sqrt(13.7 / 9)
    assert round(t, 4) == 4.3572
    assert round(2 * stats.t.sf(t, 9), 6) == 0.001831
    differences = np.subtract(HONAVAR_B, HONAVAR_A)
    assert np.sum((differences - differences.mean()) ** 2) == pytest.approx(12.1)


# Gama, "Conducting t-test in R": R's t.test(a, b) is Welch's test.
GAMA_A = [0.100, 0.094, 0.109, 0.091, 0.096, 0.104, 0.102, 0.089, 0.091, 0.106]
GAMA_B = [0.104, 0.113, 0.107, 0.106, 0.123, 0.108, 0.104, 0.119, 0.095, 0.114]


def test_gama_welch_example_from_r() -> None:
    # Printed: t = -3.2721, df = 17.598, p-value = 0.004333,
    # 95 percent confidence interval: -0.018238664 -0.003961336; means 0.0982 and 0.1093.
    result = assay.welch_ttest(GAMA_A, GAMA_B)
    assert round(result.statistic, 4) == -3.2721
    assert round(result.df, 3) == 17.598
    assert round(result.pvalue, 6) == 0.004333
    low, high = result.confidence_interval
    assert round(low, 9) == -0.018238664
    assert round(high, 9) == -0.003961336
    assert result.estimate == pytest.approx(0.0982 - 0.1093, abs=1e-15)


def test_wu_critical_values_for_six_degrees_of_freedom() -> None:
    # Wu, "Evaluation", section 5.3: tinv(1 - 0.05/2, 6) = 2.4469 (two-tailed) and
    # tinv(1 - 0.05, 6) = 1.9432 (one-tailed).  With n = 7 folds (6 df) the interval's
    # half-width is the critical value times the standard error.
    a = [0.12, 0.15, 0.11, 0.14, 0.13, 0.16, 0.10]
    b = [0.10, 0.14, 0.12, 0.11, 0.12, 0.13, 0.10]
    two_tailed = assay.paired_ttest(a, b, confidence_level=0.95)
    one_tailed = assay.paired_ttest(a, b, confidence_level=0.90)
    for result, critical in ((two_tailed, 2.4469), (one_tailed, 1.9432)):
        half_width = result.confidence_interval.high - result.estimate
        assert round(half_width / result.standard_error, 4) == critical
    # and the test rejects at alpha exactly where |t| exceeds the critical value
    t = two_tailed.statistic
    assert (two_tailed.pvalue < 0.05) == (abs(t) > 2.4469)
    greater = assay.paired_ttest(a, b, alternative="greater")
    assert (greater.pvalue < 0.05) == (t > 1.9432)


def test_5x2cv_tests_by_hand() -> None:
    # Differences p = [[2, 0], [1, 1], [0, 2], [3, 1], [1, 1]]: s_i^2 = 2, 0, 2, 2, 0
    # (sum 6).  Dietterich: t = p_1^(1) / sqrt(6 / 5) = 2 / sqrt(1.2) = 1.825742, 5 df.
    # Alpaydin: F = sum p^2 / (2 * 6) = 22 / 12 = 1.833333, (10, 5) df.
    b = np.full((5, 2), 70.0)
    a = b + np.array([[2, 0], [1, 1], [0, 2], [3, 1], [1, 1]])
    t = assay.ttest_5x2cv(a, b)
    assert t.statistic == pytest.approx(2 / math.sqrt(1.2), rel=1e-14)
    assert t.df == 5.0
    assert t.pvalue == pytest.approx(2 * stats.t.sf(2 / math.sqrt(1.2), 5), rel=1e-12)
    assert t.estimate == 2.0
    assert list(t.details["variances"]) == [2.0, 0.0, 2.0, 2.0, 0.0]
    assert t.details["mean_difference"] == pytest.approx(1.2)
    f = assay.ftest_5x2cv(a, b)
    assert f.statistic == pytest.approx(22 / 12, rel=1e-14)
    assert f.df == (10.0, 5.0)
    assert f.pvalue == pytest.approx(stats.f.sf(22 / 12, 10, 5), rel=1e-12)
    assert f.estimate == pytest.approx(1.2)


def test_corrected_resampled_ttest_by_hand() -> None:
    # J = 4 differences 1, 2, 3, 2: mean 2, s^2 = 2/3.  With n_test/n_train = 1/9:
    # variance (1/4 + 1/9) * 2/3 = 13/54, t = 2 / sqrt(13/54) = 4.0762, 3 df.
    a = [11.0, 12.0, 13.0, 12.0]
    b = [10.0, 10.0, 10.0, 10.0]
    result = assay.corrected_resampled_ttest(a, b, 900, 100)
    assert result.statistic == pytest.approx(2 / math.sqrt(13 / 54), rel=1e-14)
    assert result.df == 3.0
    assert result.details["variance_factor"] == pytest.approx(1 / 4 + 1 / 9)
    # the uncorrected paired t is larger by sqrt((1/J + n_test/n_train) / (1/J))
    paired = assay.paired_ttest(a, b)
    ratio = paired.statistic / result.statistic
    assert ratio == pytest.approx(math.sqrt((1 / 4 + 1 / 9) * 4), rel=1e-14)


# --- Agreement with scipy and the reference --------------------------------------------


def _scores(min_size: int = 2, max_size: int = 30):
    # Small grid values: many ties and exact zeros among the differences.
    values = st.sampled_from([0.0, 0.25, 0.5, 0.7, 0.8, 0.81, 0.9, 1.0, 3.5])
    return st.lists(values, min_size=min_size, max_size=max_size)


@st.composite
def _pairs(draw, min_size: int = 2):
    a = draw(_scores(min_size))
    b = draw(st.lists(st.floats(-5, 5, width=32), min_size=len(a), max_size=len(a)))
    if draw(st.booleans()):
        b = [x + draw(st.sampled_from([0.0, 0.5, -0.25])) for x in a]
    return np.array(a), np.array(b, dtype=np.float64)


def _degenerate(differences: np.ndarray) -> bool:
    return bool(np.all(differences == differences[0]))


def _assert_matches(result, expected) -> None:
    np.testing.assert_allclose(result.statistic, expected["statistic"], rtol=ROUNDING)
    np.testing.assert_allclose(result.pvalue, expected["pvalue"], rtol=ROUNDING, atol=1e-15)
    np.testing.assert_allclose(result.estimate, expected["estimate"], rtol=ROUNDING, atol=1e-15)
    np.testing.assert_allclose(
        result.standard_error, expected["standard_error"], rtol=ROUNDING, atol=1e-15
    )
    if result.confidence_interval is not None:
        np.testing.assert_allclose(
            result.confidence_interval, expected["confidence_interval"], rtol=ROUNDING
        )


@given(_pairs(), st.sampled_from(ALTERNATIVES), st.sampled_from([0.8, 0.95]))
def test_paired_ttest_agrees_with_reference_and_scipy(data, alternative, level) -> None:
    a, b = data
    expected = reference.paired_ttest(a, b, alternative=alternative, confidence_level=level)
    if _degenerate(a - b):
        with pytest.warns(DegenerateDataWarning):
            result = assay.paired_ttest(a, b, alternative=alternative, confidence_level=level)
        _assert_matches(result, expected)
        return
    result = assay.paired_ttest(a, b, alternative=alternative, confidence_level=level)
    _assert_matches(result, expected)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RuntimeWarning)
        theirs = stats.ttest_rel(a, b, alternative=alternative)
    if any("Precision loss" in str(warning.message) for warning in caught):
        return  # scipy loses the tiny spread of nearly equal differences; assay does not
    np.testing.assert_allclose(result.statistic, theirs.statistic, rtol=1e-9)
    np.testing.assert_allclose(result.pvalue, theirs.pvalue, rtol=1e-9, atol=1e-15)
    assert result.df == theirs.df
    # one-sided alternatives give scipy's one-sided interval (an infinite end)
    np.testing.assert_allclose(
        result.confidence_interval, theirs.confidence_interval(level), rtol=1e-9
    )


@given(_scores(), _scores(), st.sampled_from(ALTERNATIVES))
def test_welch_ttest_agrees_with_reference_and_scipy(a, b, alternative) -> None:
    a, b = np.array(a), np.array(b) * 0.9 + 0.01
    expected = reference.welch_ttest(a, b, alternative=alternative)
    if _degenerate(a) and _degenerate(b):
        with pytest.warns(DegenerateDataWarning):
            result = assay.welch_ttest(a, b, alternative=alternative)
        assert math.isnan(result.statistic)
        np.testing.assert_allclose(result.pvalue, expected["pvalue"])
        return
    result = assay.welch_ttest(a, b, alternative=alternative)
    _assert_matches(result, expected)
    np.testing.assert_allclose(result.df, expected["df"], rtol=ROUNDING)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RuntimeWarning)
        theirs = stats.ttest_ind(a, b, equal_var=False, alternative=alternative)
    if any("Precision loss" in str(warning.message) for warning in caught):
        # scipy flags a constant sample; its result is still right when the other
        # sample varies, which is checked separately below
        if not (_degenerate(a) or _degenerate(b)):
            return
    np.testing.assert_allclose(result.statistic, theirs.statistic, rtol=1e-9)
    np.testing.assert_allclose(result.pvalue, theirs.pvalue, rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(result.df, theirs.df, rtol=1e-9)
    np.testing.assert_allclose(
        result.confidence_interval, theirs.confidence_interval(0.95), rtol=1e-9
    )


@given(_pairs(), st.sampled_from(ALTERNATIVES), st.integers(1, 1000), st.integers(1, 1000))
def test_corrected_resampled_ttest_agrees_with_reference(data, alternative, train, test) -> None:
    a, b = data
    expected = reference.corrected_resampled_ttest(a, b, train, test, alternative=alternative)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        result = assay.corrected_resampled_ttest(a, b, train, test, alternative=alternative)
    _assert_matches(result, expected)


# Ten paired fold scores (hand-made) for the one-sided intervals.
ONE_SIDED_A = np.array([0.81, 0.84, 0.80, 0.83, 0.82, 0.85, 0.79, 0.83, 0.84, 0.81])
ONE_SIDED_B = np.array([0.80, 0.82, 0.80, 0.81, 0.80, 0.84, 0.79, 0.81, 0.83, 0.80])


@pytest.mark.parametrize("level", [0.9, 0.95, 0.99])
def test_one_sided_paired_interval_is_scipys(level: float) -> None:
    for alternative in ("greater", "less"):
        result = assay.paired_ttest(
            ONE_SIDED_A, ONE_SIDED_B, alternative=alternative, confidence_level=level
        )
        theirs = stats.ttest_rel(ONE_SIDED_A, ONE_SIDED_B, alternative=alternative)
        np.testing.assert_allclose(
            result.confidence_interval, theirs.confidence_interval(level), rtol=ROUNDING
        )
        one_sample = stats.ttest_1samp(ONE_SIDED_A - ONE_SIDED_B, 0.0, alternative=alternative)
        np.testing.assert_allclose(
            result.confidence_interval, one_sample.confidence_interval(level), rtol=ROUNDING
        )
    greater = assay.paired_ttest(ONE_SIDED_A, ONE_SIDED_B, alternative="greater")
    less = assay.paired_ttest(ONE_SIDED_A, ONE_SIDED_B, alternative="less")
    assert greater.confidence_interval.high == math.inf
    assert less.confidence_interval.low == -math.inf
    # the one-sided bound is the t_{n-1, level} quantile away, not t_{n-1, (1+level)/2}
    critical = stats.t.ppf(0.95, 9)
    assert greater.confidence_interval.low == pytest.approx(
        greater.estimate - critical * greater.standard_error, rel=ROUNDING
    )


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_one_sided_corrected_interval_uses_the_corrected_standard_error(alternative) -> None:
    # Nadeau & Bengio: se = sqrt((1 / J + n_test / n_train) s^2); the one-sided interval is
    # the set of differences the one-sided corrected test does not reject at 1 - level.
    result = assay.corrected_resampled_ttest(
        ONE_SIDED_A, ONE_SIDED_B, 900, 100, alternative=alternative, confidence_level=0.9
    )
    differences = ONE_SIDED_A - ONE_SIDED_B
    se = math.sqrt((1 / 10 + 100 / 900) * np.var(differences, ddof=1))
    bound = stats.t.ppf(0.9, 9) * se
    mean = differences.mean()
    expected = (mean - bound, math.inf) if alternative == "greater" else (-math.inf, mean + bound)
    np.testing.assert_allclose(result.confidence_interval, expected, rtol=ROUNDING)
    twin = reference.corrected_resampled_ttest(
        ONE_SIDED_A, ONE_SIDED_B, 900, 100, alternative=alternative, confidence_level=0.9
    )
    np.testing.assert_allclose(
        result.confidence_interval, twin["confidence_interval"], rtol=ROUNDING
    )


@given(_pairs(), st.sampled_from(ALTERNATIVES), st.sampled_from([0.8, 0.9, 0.95]))
def test_interval_excludes_zero_exactly_when_the_test_rejects(data, alternative, level) -> None:
    a, b = data
    assume(not _degenerate(a - b))
    for result in (
        assay.paired_ttest(a, b, alternative=alternative, confidence_level=level),
        assay.corrected_resampled_ttest(
            a, b, 90, 10, alternative=alternative, confidence_level=level
        ),
    ):
        low, high = result.confidence_interval
        # away from the boundary, where rounding decides
        assume(abs(result.pvalue - (1 - level)) > 1e-9)
        assert (not low <= 0.0 <= high) == (result.pvalue < 1 - level)


@given(
    st.lists(st.floats(0, 1, width=16), min_size=10, max_size=10),
    st.lists(st.floats(0, 1, width=16), min_size=10, max_size=10),
    st.sampled_from(ALTERNATIVES),
)
def test_5x2cv_tests_agree_with_reference(a, b, alternative) -> None:
    a, b = np.reshape(a, (5, 2)), np.reshape(b, (5, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        t = assay.ttest_5x2cv(a, b, alternative=alternative)
        f = assay.ftest_5x2cv(a, b)
    expected_t = reference.ttest_5x2cv(a, b, alternative=alternative)
    expected_f = reference.ftest_5x2cv(a, b)
    np.testing.assert_allclose(t.statistic, expected_t["statistic"], rtol=ROUNDING)
    np.testing.assert_allclose(t.pvalue, expected_t["pvalue"], rtol=ROUNDING, atol=1e-15)
    np.testing.assert_allclose(f.statistic, expected_f["statistic"], rtol=ROUNDING)
    np.testing.assert_allclose(f.pvalue, expected_f["pvalue"], rtol=ROUNDING, atol=1e-15)


@given(_pairs(min_size=3))
def test_one_sided_p_values_add_up_to_one(data) -> None:
    a, b = data
    if _degenerate(a - b):
        return
    greater = assay.paired_ttest(a, b, alternative="greater").pvalue
    less = assay.paired_ttest(a, b, alternative="less").pvalue
    two_sided = assay.paired_ttest(a, b).pvalue
    assert greater + less == pytest.approx(1.0, abs=1e-12)
    assert two_sided == pytest.approx(2 * min(greater, less), rel=1e-12)


def test_swapping_models_flips_the_sign() -> None:
    forward = assay.paired_ttest(HONAVAR_A, HONAVAR_B, alternative="less")
    backward = assay.paired_ttest(HONAVAR_B, HONAVAR_A, alternative="greater")
    assert forward.statistic == -backward.statistic
    assert forward.pvalue == pytest.approx(backward.pvalue, rel=1e-14)
    assert forward.confidence_interval.low == pytest.approx(-backward.confidence_interval.high)


# --- Degenerate inputs ------------------------------------------------------------------


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_identical_scores_give_p_one(alternative) -> None:
    scores = [0.8, 0.7, 0.9, 0.85]
    with pytest.warns(DegenerateDataWarning, match="identical.*p-value is 1"):
        result = assay.paired_ttest(scores, scores, alternative=alternative)
    assert math.isnan(result.statistic)
    assert result.pvalue == 1.0
    assert result.estimate == 0.0 and result.standard_error == 0.0
    assert all(math.isnan(bound) for bound in result.confidence_interval)
    with pytest.warns(DegenerateDataWarning):
        corrected = assay.corrected_resampled_ttest(scores, scores, 90, 10)
    assert corrected.pvalue == 1.0
    with pytest.warns(DegenerateDataWarning):
        assert assay.ttest_5x2cv(np.ones((5, 2)), np.ones((5, 2))).pvalue == 1.0
    with pytest.warns(DegenerateDataWarning):
        assert assay.ftest_5x2cv(np.ones((5, 2)), np.ones((5, 2))).pvalue == 1.0
    with pytest.warns(DegenerateDataWarning):
        assert assay.welch_ttest([0.5, 0.5], [0.5, 0.5, 0.5]).pvalue == 1.0


def test_constant_nonzero_differences_give_nan_never_inf() -> None:
    a = [9.0, 8.0, 7.0, 6.0]
    b = [8.5, 7.5, 6.5, 5.5]  # every difference exactly 0.5
    with pytest.warns(DegenerateDataWarning, match="zero variance but are not all zero"):
        result = assay.paired_ttest(a, b)
    assert math.isnan(result.statistic) and math.isnan(result.pvalue)
    assert result.estimate == 0.5
    with pytest.warns(DegenerateDataWarning):
        welch = assay.welch_ttest([1.0, 1.0], [2.0, 2.0])
    assert math.isnan(welch.statistic) and math.isnan(welch.pvalue)
    assert welch.estimate == -1.0
    # 5x2cv: both folds of every replication differ by the same amount, not all zero
    a5 = np.zeros((5, 2))
    b5 = np.repeat(np.arange(5.0)[:, None], 2, axis=1)  # p_1^(1) = 0, others not
    with pytest.warns(DegenerateDataWarning):
        t = assay.ttest_5x2cv(a5, b5)
    assert math.isnan(t.statistic) and math.isnan(t.pvalue)
    with pytest.warns(DegenerateDataWarning):
        f = assay.ftest_5x2cv(a5, b5)
    assert math.isnan(f.statistic) and math.isnan(f.pvalue)


def test_one_constant_sample_is_fine_for_welch() -> None:
    result = assay.welch_ttest([1.0, 1.0, 1.0], [0.5, 0.7, 0.9, 0.4])
    with warnings.catch_warnings():  # scipy warns of precision loss on a constant sample
        warnings.simplefilter("ignore", RuntimeWarning)
        theirs = stats.ttest_ind([1.0, 1.0, 1.0], [0.5, 0.7, 0.9, 0.4], equal_var=False)
    assert result.df == pytest.approx(3.0)  # all the variance is b's: n_b - 1
    assert result.pvalue == pytest.approx(theirs.pvalue, rel=1e-12)


def test_degenerate_warning_points_at_the_caller() -> None:
    with pytest.warns(DegenerateDataWarning) as record:
        assay.paired_ttest([1.0, 2.0], [1.0, 2.0])
    with pytest.warns(DegenerateDataWarning) as record_f:
        assay.ftest_5x2cv(np.ones((5, 2)), np.ones((5, 2)))
    assert record[0].filename == __file__
    assert record_f[0].filename == __file__


# --- Input errors ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "function, args, kwargs, message",
    [
        (
            assay.paired_ttest,
            ([1, 2, 3], [1, 2]),
            {},
            r"^`a` and `b` have different lengths: 3 and 2\.$",
        ),
        (
            assay.paired_ttest,
            ([1], [2]),
            {},
            r"^`a` and `b` hold 1 paired value; at least 2 are needed\.$",
        ),
        (
            assay.paired_ttest,
            ([1, np.nan], [1, 2]),
            {},
            r"^`a` contains 1 NaN values; scores must be finite\.$",
        ),
        (
            assay.paired_ttest,
            ([1, 2], [1, np.inf]),
            {},
            r"^`b` contains 1 infinite values; scores must be finite\.$",
        ),
        (
            assay.paired_ttest,
            ([[1, 2], [3, 4]], [1, 2]),
            {},
            r"^`a` must be 1-D, got an array of shape \(2, 2\)\.$",
        ),
        (assay.paired_ttest, ([], []), {}, r"^`a` is empty; at least one value is needed\.$"),
        (assay.paired_ttest, (["x", "y"], [1, 2]), {}, r"^`a` must be numeric; got dtype <U1\.$"),
        (
            assay.paired_ttest,
            ([1, 2], [2, 1]),
            {"alternative": "two"},
            r"^`alternative` must be one of \['two-sided', 'less', 'greater'\]; got 'two'\.$",
        ),
        (
            assay.paired_ttest,
            ([1, 2], [2, 1]),
            {"confidence_level": 95},
            r"^`confidence_level` must be in \(0, 1\); got 95\.$",
        ),
        (assay.welch_ttest, ([1], [1, 2, 3]), {}, r"^`a` holds 1 value; at least 2 are needed\.$"),
        (assay.welch_ttest, ([1, 2], [3]), {}, r"^`b` holds 1 value; at least 2 are needed\.$"),
        (
            assay.corrected_resampled_ttest,
            ([1, 2], [2, 1], 0, 10),
            {},
            r"^`n_train` must be a positive number; got 0\.$",
        ),
        (
            assay.corrected_resampled_ttest,
            ([1, 2], [2, 1], 90, -1.5),
            {},
            r"^`n_test` must be a positive number; got -1\.5\.$",
        ),
        (
            assay.corrected_resampled_ttest,
            ([1, 2], [2, 1], 90, True),
            {},
            r"^`n_test` must be a positive number; got True\.$",
        ),
        (
            assay.corrected_resampled_ttest,
            ([1, 2], [2, 1], "90", 10),
            {},
            r"^`n_train` must be a positive number; got '90'\.$",
        ),
        (
            assay.corrected_resampled_ttest,
            ([1, 2, 3], [2, 1], 90, 10),
            {},
            r"^`a` and `b` have different lengths: 3 and 2\.$",
        ),
        (
            assay.ttest_5x2cv,
            (np.ones((2, 5)), np.ones((5, 2))),
            {},
            r"^`a` must have shape \(5, 2\) \(5 replications of 2-fold cross-validation\); "
            r"got shape \(2, 5\)\.$",
        ),
        (
            assay.ftest_5x2cv,
            (np.ones((5, 2)), np.ones(10)),
            {},
            r"^`b` must have shape \(5, 2\) .*got shape \(10,\)\.$",
        ),
        (
            assay.ttest_5x2cv,
            (np.full((5, 2), np.nan), np.ones((5, 2))),
            {},
            r"^`a` contains 10 NaN values; scores must be finite\.$",
        ),
    ],
)
def test_input_errors(function, args, kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        function(*args, **kwargs)


# --- Type-I error under the null (slow) -------------------------------------------------

ALPHA = 0.05
N_SIMULATIONS = 5000
# Three Monte-Carlo standard errors of a rejection rate of 0.05.
MONTE_CARLO = 3 * math.sqrt(ALPHA * (1 - ALPHA) / N_SIMULATIONS)


@pytest.mark.slow
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_paired_ttest_type_one_error(alternative) -> None:
    # Independent normal differences with mean 0 (the test's own assumptions): the
    # rejection rate is alpha within Monte-Carlo error, and the interval covers 0 with
    # probability 0.95.
    rng = np.random.default_rng(7)
    rejections = covered = 0
    for _ in range(N_SIMULATIONS):
        b = rng.normal(0.8, 0.05, 10)
        a = b + rng.normal(0.0, 0.02, 10)
        result = assay.paired_ttest(a, b, alternative=alternative)
        rejections += result.pvalue <= ALPHA
        covered += result.confidence_interval.low <= 0.0 <= result.confidence_interval.high
    assert abs(rejections / N_SIMULATIONS - ALPHA) <= MONTE_CARLO
    assert abs(covered / N_SIMULATIONS - 0.95) <= MONTE_CARLO


@pytest.mark.slow
def test_welch_ttest_type_one_error_with_unequal_variances() -> None:
    rng = np.random.default_rng(8)
    rejections = 0
    for _ in range(N_SIMULATIONS):
        result = assay.welch_ttest(rng.normal(0, 1, 6), rng.normal(0, 4, 15))
        rejections += result.pvalue <= ALPHA
    assert abs(rejections / N_SIMULATIONS - ALPHA) <= MONTE_CARLO

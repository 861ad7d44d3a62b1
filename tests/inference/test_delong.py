"""DeLong inference: ``delong_covariance``, ``auc_ci``, ``delong_test``, ``delong_test_unpaired``.

Expected values come from, as named at each test:

* pROC's own test suite and documentation on its ``aSAH`` data (shipped here as
  ``tests/data/asah.csv``, see ``tests/data/README.md``): ``tests/testthat/test-var.R``,
  ``test-ci.auc.R`` and ``test-roc.test.R`` of https://github.com/xrobin/pROC, and the
  ``ci.auc`` output printed in pROC's documentation (0.7314, 0.6301-0.8326);
* Hanley & McNeil (1982), Radiology 143, 29-36: the 109 CT images rated 1-5 of their
  Table 1 (58 normal: 33, 6, 6, 11, 2; 51 abnormal: 3, 2, 2, 11, 33), A = 0.893 and
  SE = 0.032 as printed in the paper (three decimals);
* ``statsmodels.stats.nonparametric.rank_compare_2indep``, whose variance of the
  probability of superiority (Brunner & Munzel) is DeLong's variance of one AUC;
* an independent O(n_pos * n_neg) numpy computation written in this module, and the
  exact reference :mod:`assay.reference` on hypothesis-generated inputs.

No Python library offers a weighted DeLong covariance: the weighted case is checked
against the reference (same definition, exact fractions) and the two invariances that
define it (unit weights change nothing; integer weights repeat rows).
"""

from __future__ import annotations

import csv
import math
import warnings
from fractions import Fraction
from pathlib import Path
from statistics import NormalDist

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import assay
import assay.reference as reference
from assay._kernels import delong as delong_kernels
from assay.exceptions import DegenerateDataWarning, UndefinedMetricWarning
from tests.strategies import near_tied_scores, sample_weights, scores

ASAH = Path(__file__).resolve().parents[1] / "data" / "asah.csv"

# pROC's values are printed with 15 significant digits; the computations agree to the
# last few ulps (different order of summation), far below this.
PROC_RELATIVE = 1e-12
# assay against the exact reference or an independent float computation: sums of at
# most a few hundred terms of order 1, rounded differently.
ROUNDING = 1e-10
ABSOLUTE = 1e-13


def _asah() -> dict[str, np.ndarray]:
    with ASAH.open(encoding="utf-8") as handle:
        rows = list(csv.reader(line for line in handle if not line.startswith("#")))
    header, body = rows[0], rows[1:]
    columns = {name: [row[i] for row in body] for i, name in enumerate(header)}
    data = {"outcome": np.array(columns["outcome"])}
    for name in ("wfns", "s100b", "ndka"):
        data[name] = np.array(columns[name], dtype=np.float64)
    return data


@pytest.fixture(scope="module")
def asah() -> dict[str, np.ndarray]:
    return _asah()


def _close(actual: float, expected: float, rel: float = ROUNDING) -> bool:
    if math.isnan(expected):
        return math.isnan(actual)
    return math.isclose(actual, expected, rel_tol=rel, abs_tol=ABSOLUTE)


# --------------------------------------------------------------- pROC on the aSAH data


def test_asah_file_is_the_proc_data_set(asah):
    """113 patients, 41 with a poor outcome (pROC's ``aSAH``: 72 Good, 41 Poor)."""
    assert asah["outcome"].shape == (113,)
    assert int(np.count_nonzero(asah["outcome"] == "Poor")) == 41
    assert set(asah["wfns"].tolist()) == {1.0, 2.0, 3.0, 4.0, 5.0}


@pytest.mark.parametrize(
    ("marker", "variance"),
    # pROC tests/testthat/test-var.R: var(r.wfns), var(r.ndka), var(r.s100b)
    [("wfns", 0.00146991470882363), ("ndka", 0.0031908105493913), ("s100b", 0.00266868245717244)],
)
def test_variance_matches_proc(asah, marker, variance):
    result = assay.auc_ci(asah["outcome"], asah[marker], pos_label="Poor")
    assert math.isclose(result.details["variance"], variance, rel_tol=PROC_RELATIVE)
    assert math.isclose(result.standard_error**2, variance, rel_tol=PROC_RELATIVE)
    _, covariance = assay.delong_covariance(asah["outcome"], asah[marker], pos_label="Poor")
    assert math.isclose(covariance[0, 0], variance, rel_tol=PROC_RELATIVE)


def test_auc_ci_matches_proc_ci_auc(asah):
    """pROC test-ci.auc.R: ci.auc(r.ndka) = (0.501244999271703, 0.611957994579946,
    0.722670989888189); pROC's documentation prints ci.auc(aSAH$outcome, aSAH$s100b)
    as 0.7314 (0.6301-0.8326) and the AUC of s100b as 0.7314."""
    ndka = assay.auc_ci(asah["outcome"], asah["ndka"], pos_label="Poor", interval="normal")
    assert math.isclose(ndka.estimate, 0.611957994579946, rel_tol=PROC_RELATIVE)
    low, high = ndka.confidence_interval
    assert math.isclose(low, 0.501244999271703, rel_tol=PROC_RELATIVE)
    assert math.isclose(high, 0.722670989888189, rel_tol=PROC_RELATIVE)
    assert ndka.method == "delong" and ndka.n == 113
    assert ndka.details["n_positive"] == 41 and ndka.details["n_negative"] == 72
    s100b = assay.auc_ci(asah["outcome"], asah["s100b"], pos_label="Poor", interval="normal")
    assert round(s100b.estimate, 4) == 0.7314
    assert [round(bound, 4) for bound in s100b.confidence_interval] == [0.6301, 0.8326]


# pROC tests/testthat/test-roc.test.R, paired DeLong (roc.test defaults):
# t1 = roc.test(r.wfns, r.s100b), t2 = roc.test(r.wfns, r.ndka), t3 = roc.test(r.ndka, r.s100b)
PROC_PAIRED = [
    ("wfns", "s100b", 2.20898359144091, 0.0271757822291882, 0.0104061769564846, 0.174214419249478),
    (
        "wfns",
        "ndka",
        2.79777591868904,
        0.00514557970691098,
        0.0634011709339876,
        0.3600405634833566,
    ),
    (
        "ndka",
        "s100b",
        -1.39077002573558,
        0.164295175223054,
        -0.2876917446341914,
        0.0488706064228094,
    ),
]


@pytest.mark.parametrize(("a", "b", "z", "pvalue", "low", "high"), PROC_PAIRED)
def test_paired_test_matches_proc_roc_test(asah, a, b, z, pvalue, low, high):
    result = assay.delong_test(asah["outcome"], asah[a], asah[b], pos_label="Poor")
    assert math.isclose(result.statistic, z, rel_tol=PROC_RELATIVE)
    assert math.isclose(result.pvalue, pvalue, rel_tol=PROC_RELATIVE)
    assert math.isclose(result.confidence_interval.low, low, rel_tol=PROC_RELATIVE)
    assert math.isclose(result.confidence_interval.high, high, rel_tol=PROC_RELATIVE)
    assert result.df is None and result.alternative == "two-sided"
    assert result.method == "DeLong's test for two correlated ROC curves"
    assert result.estimate == pytest.approx(result.details["auc_a"] - result.details["auc_b"])
    reversed_result = assay.delong_test(asah["outcome"], asah[b], asah[a], pos_label="Poor")
    assert math.isclose(reversed_result.statistic, -z, rel_tol=PROC_RELATIVE)
    assert math.isclose(reversed_result.pvalue, pvalue, rel_tol=PROC_RELATIVE)


@pytest.mark.parametrize(
    # test-roc.test.R, "one-sided roc.test work and produce expected results"
    ("alternative", "pvalue"),
    [("greater", 0.0135878911145941), ("less", 0.986412108885406)],
)
def test_one_sided_paired_test_matches_proc(asah, alternative, pvalue):
    result = assay.delong_test(
        asah["outcome"], asah["wfns"], asah["s100b"], alternative=alternative, pos_label="Poor"
    )
    assert math.isclose(result.pvalue, pvalue, rel_tol=PROC_RELATIVE)
    assert math.isclose(result.statistic, 2.20898359144091, rel_tol=PROC_RELATIVE)


# test-roc.test.R, unpaired: t1up = roc.test(r.wfns, r.s100b, paired = FALSE), etc.
PROC_UNPAIRED = [
    ("wfns", "s100b", 1.43490640926908, 0.152825378808796),
    ("wfns", "ndka", 3.10125096778969, 0.00220950791756457),
    ("ndka", "s100b", -1.55995743389685, 0.120192832430845),
]


@pytest.mark.parametrize(("a", "b", "statistic", "pvalue"), PROC_UNPAIRED)
def test_unpaired_test_matches_proc_roc_test(asah, a, b, statistic, pvalue):
    y = asah["outcome"]
    result = assay.delong_test_unpaired(y, asah[a], y, asah[b], pos_label="Poor")
    assert math.isclose(result.statistic, statistic, rel_tol=PROC_RELATIVE)
    assert math.isclose(result.pvalue, pvalue, rel_tol=PROC_RELATIVE)
    assert result.method == "DeLong's test for two ROC curves"
    assert result.df is not None and 100 < result.df < 226  # at most N_A + N_B - 2


@pytest.mark.parametrize(
    # test-roc.test.R, "unpaired one-sided roc.test work and produce expected results"
    ("alternative", "pvalue"),
    [("greater", 0.076412689404398), ("less", 0.923587310595602)],
)
def test_one_sided_unpaired_test_matches_proc(asah, alternative, pvalue):
    y = asah["outcome"]
    result = assay.delong_test_unpaired(
        y, asah["wfns"], y, asah["s100b"], alternative=alternative, pos_label="Poor"
    )
    assert math.isclose(result.pvalue, pvalue, rel_tol=PROC_RELATIVE)


def test_identical_curves_give_z_0_and_p_1_as_proc(asah):
    """test-roc.test.R: roc.test(r.wfns, r.wfns) has p-value 1 and Z = 0; assay warns."""
    with pytest.warns(DegenerateDataWarning, match="variance of the difference"):
        result = assay.delong_test(asah["outcome"], asah["wfns"], asah["wfns"], pos_label="Poor")
    assert (result.statistic, result.pvalue, result.standard_error) == (0.0, 1.0, 0.0)
    assert tuple(result.confidence_interval) == (0.0, 0.0)
    # pROC computes a one-sided p-value from Z = 0 too: pnorm(-0) = 1/2
    with pytest.warns(DegenerateDataWarning, match="variance of the difference"):
        greater = assay.delong_test(
            asah["outcome"],
            asah["wfns"],
            2 * asah["wfns"],
            alternative="greater",
            pos_label="Poor",
        )
    assert (greater.statistic, greater.pvalue) == (0.0, 0.5)


def test_asah_against_the_reference(asah):
    """The exact O(n^2) reference on the same 113 rows (three models, ties in wfns)."""
    y, columns = asah["outcome"], (asah["s100b"], asah["wfns"], asah["ndka"])
    aucs, covariance = assay.delong_covariance(y, *columns, pos_label="Poor")
    expected_aucs, expected_covariance = reference.delong_covariance(y, *columns, pos_label="Poor")
    np.testing.assert_allclose(aucs, expected_aucs, rtol=ROUNDING)
    np.testing.assert_allclose(covariance, expected_covariance, rtol=ROUNDING)


# --------------------------------------------------------------- Hanley & McNeil (1982)


def _hanley_mcneil_table() -> tuple[np.ndarray, np.ndarray]:
    """Hanley & McNeil (1982), Table 1: ratings 1 (definitely normal) .. 5 of 109 images."""
    normal, abnormal = [33, 6, 6, 11, 2], [3, 2, 2, 11, 33]
    ratings = np.arange(1.0, 6.0)
    y = np.r_[np.zeros(sum(normal), dtype=int), np.ones(sum(abnormal), dtype=int)]
    x = np.r_[np.repeat(ratings, normal), np.repeat(ratings, abnormal)]
    return y, x


def test_hanley_mcneil_published_example():
    """A = 0.893 and SE(A) = 0.032 for the 109 rated CT images (printed to 3 decimals)."""
    y, x = _hanley_mcneil_table()
    result = assay.auc_ci(y, x, method="hanley_mcneil")
    assert round(result.estimate, 3) == 0.893
    assert round(result.standard_error, 3) == 0.032
    assert result.method == "hanley_mcneil"
    a = result.estimate  # the formula itself, with Q1 = A/(2-A), Q2 = 2A^2/(1+A)
    q1, q2 = a / (2 - a), 2 * a * a / (1 + a)
    variance = (a * (1 - a) + 50 * (q1 - a * a) + 57 * (q2 - a * a)) / (51 * 58)
    assert math.isclose(result.details["variance"], variance, rel_tol=ROUNDING)


def test_hanley_mcneil_rows_as_weights():
    """The ten (rating, class) cells with their counts as weights give the same answer."""
    y, x = _hanley_mcneil_table()
    ratings = np.arange(1.0, 6.0)
    cells_y = np.r_[np.zeros(5, dtype=int), np.ones(5, dtype=int)]
    cells_x = np.r_[ratings, ratings]
    counts = np.array([33, 6, 6, 11, 2, 3, 2, 2, 11, 33], dtype=float)
    for method in ("delong", "hanley_mcneil"):
        rows = assay.auc_ci(y, x, method=method)
        cells = assay.auc_ci(cells_y, cells_x, method=method, sample_weight=counts)
        assert math.isclose(cells.estimate, rows.estimate, rel_tol=ROUNDING)
        assert math.isclose(cells.standard_error, rows.standard_error, rel_tol=ROUNDING)


# --------------------------------------------------------------- independent computations


def _pairwise_delong(y: np.ndarray, score_matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """O(n_pos * n_neg) DeLong covariance with numpy broadcasting, from the definition."""
    positives, negatives = score_matrix[:, y == 1], score_matrix[:, y == 0]
    psi = (positives[:, :, None] > negatives[:, None, :]) + 0.5 * (
        positives[:, :, None] == negatives[:, None, :]
    )
    v10, v01 = psi.mean(axis=2), psi.mean(axis=1)
    aucs = v10.mean(axis=1)
    covariance = np.cov(v10) / v10.shape[1] + np.cov(v01) / v01.shape[1]
    return aucs, np.atleast_2d(covariance)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_against_an_independent_pairwise_computation(seed):
    generator = np.random.default_rng(seed)
    n = 400
    y = (generator.random(n) < 0.3).astype(int)
    latent = y + generator.normal(size=n)
    matrix = np.vstack(
        [
            latent + generator.normal(scale=0.5, size=n),
            np.round(latent + generator.normal(scale=1.0, size=n), 1),  # ties
            np.round(generator.normal(size=n)),  # heavy ties, no signal
        ]
    )
    aucs, covariance = assay.delong_covariance(y, *matrix)
    expected_aucs, expected_covariance = _pairwise_delong(y, matrix)
    np.testing.assert_allclose(aucs, expected_aucs, rtol=ROUNDING)
    np.testing.assert_allclose(covariance, expected_covariance, rtol=ROUNDING, atol=ABSOLUTE)


def test_single_auc_variance_equals_statsmodels_brunner_munzel():
    """statsmodels' ``rank_compare_2indep(positives, negatives)``: ``prob1`` is the AUC and
    ``var_prob`` (Brunner-Munzel, placements with ddof=1) is DeLong's variance."""
    from statsmodels.stats.nonparametric import rank_compare_2indep

    generator = np.random.default_rng(7)
    y = generator.integers(0, 2, 300)
    x = np.round(generator.normal(size=300) + 0.8 * y, 1)
    expected = rank_compare_2indep(x[y == 1], x[y == 0], use_t=False)
    result = assay.auc_ci(y, x, interval="normal")  # statsmodels' Wald interval
    assert math.isclose(result.estimate, expected.prob1, rel_tol=ROUNDING)
    assert math.isclose(result.details["variance"], expected.var_prob, rel_tol=ROUNDING)
    low, high = expected.conf_int(alpha=0.05)
    assert math.isclose(result.confidence_interval.low, low, rel_tol=ROUNDING)
    assert math.isclose(result.confidence_interval.high, high, rel_tol=ROUNDING)


def test_auc_matches_roc_auc_score():
    generator = np.random.default_rng(3)
    y = generator.integers(0, 2, 1000)
    a, b = generator.normal(size=1000) + y, np.round(generator.normal(size=1000) + y, 1)
    weights = generator.random(1000)
    for sample_weight in (None, weights):
        aucs, _ = assay.delong_covariance(y, a, b, sample_weight=sample_weight)
        for auc, score in zip(aucs, (a, b), strict=True):
            expected = assay.roc_auc_score(y, score, sample_weight=sample_weight)
            if sample_weight is None:  # the same sums in the same order
                assert auc == expected
            else:  # the class totals are summed in another order
                assert math.isclose(auc, expected, rel_tol=1e-14)
        ci = assay.auc_ci(y, b, sample_weight=sample_weight)
        assert ci.estimate == assay.roc_auc_score(y, b, sample_weight=sample_weight)


def _near_ties(generator: np.random.Generator, n: int) -> np.ndarray:
    """Scores 0-3 ulps above values of both signs and extreme magnitudes (ties too)."""
    values = generator.choice([-1e300, -2.0, 1e-300, 0.5, 3.0], size=n)
    steps = generator.integers(0, 4, n)
    for step in range(1, 4):
        values = np.where(steps >= step, np.nextafter(values, np.inf), values)
    return values


def test_scores_differing_in_their_last_bits_are_told_apart():
    """Scores whose keys vary in all 64 bits and rows a few ulps apart: the sort on the
    leading bits puts such rows in one run, which must be ordered by the full scores."""
    generator = np.random.default_rng(11)
    n = 300
    y = (generator.random(n) < 0.4).astype(int)
    matrix = np.vstack([_near_ties(generator, n), _near_ties(generator, n)])
    # the case under test: neighbours in the sort on leading bits with different scores
    m = int(y.sum())
    words, class_keys, index_bits, exact = delong_kernels.packed_words(matrix[0], y == 1, m)
    words.sort()
    positions = words & ((1 << index_bits) - 1)
    keys = class_keys[np.where(words >> index_bits & 1 == 1, positions, m + positions)]
    shared = (words[1:] >> (index_bits + 1)) == (words[:-1] >> (index_bits + 1))
    assert not exact and np.any(shared & (keys[1:] != keys[:-1]))
    aucs, covariance = assay.delong_covariance(y, *matrix)
    expected_aucs, expected_covariance = _pairwise_delong(y, matrix)
    np.testing.assert_allclose(aucs, expected_aucs, rtol=ROUNDING)
    np.testing.assert_allclose(covariance, expected_covariance, rtol=ROUNDING, atol=ABSOLUTE)
    result = assay.delong_test(y, *matrix)
    reference_result = reference.delong_test(y, *matrix)
    _assert_test_equals(result, reference_result)


def test_models_on_threads_give_the_same_bits(monkeypatch):
    """From ``_PARALLEL_MIN_ROWS`` rows the models run on threads: same bits as one thread."""
    from assay.inference import _delong

    generator = np.random.default_rng(12)
    n = 2000
    y = generator.integers(0, 2, n)
    matrix = np.vstack([generator.normal(size=n) + y, _near_ties(generator, n), y * 0.5])
    weights = generator.random(n)
    for sample_weight in (None, weights):
        serial = assay.delong_covariance(y, *matrix, sample_weight=sample_weight)
        monkeypatch.setattr(_delong, "_PARALLEL_MIN_ROWS", 0)
        threaded = assay.delong_covariance(y, *matrix, sample_weight=sample_weight)
        monkeypatch.undo()
        np.testing.assert_array_equal(threaded.aucs, serial.aucs)
        np.testing.assert_array_equal(threaded.covariance, serial.covariance)


def test_models_of_many_rows_are_sorted_one_after_the_other(monkeypatch):
    """Above ``_PARALLEL_MAX_ROWS`` rows one thread sorts the models in turn (each
    model's sort words would add up in memory); between the bounds, one per model."""
    from assay.inference import _delong

    threads = []
    run = _delong._run_on_threads

    def counted(task, count, n_threads):
        threads.append(n_threads)
        return run(task, count, n_threads)

    monkeypatch.setattr(_delong, "_run_on_threads", counted)
    monkeypatch.setattr(_delong, "_PARALLEL_MIN_ROWS", 0)
    generator = np.random.default_rng(13)
    y = generator.integers(0, 2, 500)
    a, b = generator.normal(size=500) + y, generator.normal(size=500) + y
    threaded = assay.delong_test(y, a, b)
    monkeypatch.setattr(_delong, "_PARALLEL_MAX_ROWS", 499)
    serial = assay.delong_test(y, a, b)
    assert threads == [min(2, _delong.n_workers()), 1]
    assert (serial.statistic, serial.pvalue) == (threaded.statistic, threaded.pvalue)


def _large_near_tied_models(generator: np.random.Generator, n: int = 200_000):
    """``(y, a, b)``: two correlated models on ``n`` rows, half of A's scores near ties."""
    y = (generator.random(n) < 0.3).astype(int)
    latent = generator.normal(size=n) + y
    a = np.where(generator.random(n) < 0.5, latent, _near_ties(generator, n))
    return y, a, latent + generator.normal(size=n)


def test_large_near_tied_data_agree_with_the_one_model_path():
    """At 2e5 rows (positions of 17 bits, collisions in the leading bits of the scores),
    the paired placements give the AUCs of ``roc_auc_score`` and the variances of
    ``auc_ci``, which sorts the scores without positions (another code path)."""
    y, a, b = _large_near_tied_models(np.random.default_rng(13))
    aucs, covariance = assay.delong_covariance(y, a, b)
    for index, score in enumerate((a, b)):
        assert aucs[index] == assay.roc_auc_score(y, score)
        variance = assay.auc_ci(y, score).details["variance"]
        assert math.isclose(covariance[index, index], variance, rel_tol=ROUNDING)


def _under_sort(monkeypatch, sort, function, *args, **kwargs):
    """``function(*args, **kwargs)`` with ``ASSAY_SORT`` forcing ``sort``."""
    with monkeypatch.context() as patch:
        patch.setenv("ASSAY_SORT", sort)
        return _quiet(function, *args, **kwargs)


def _same_bits(first, second) -> None:
    for left, right in zip(first, second, strict=True):
        assert np.asarray(left).tobytes() == np.asarray(right).tobytes()


@pytest.mark.parametrize("weighted", [False, True])
def test_the_radix_sort_of_the_words_gives_np_sorts_bits(monkeypatch, weighted):
    """The placements' words are sorted by np.sort or by the radix sort (the calibrated
    choice): 2e5 rows (the radix sort's bucket pass; positions of 18 bits) with near
    ties (rows sharing a prefix of the words), two models, the same bits either way."""
    generator = np.random.default_rng(14)
    y, a, b = _large_near_tied_models(generator)
    weights = generator.random(y.shape[0]) if weighted else None
    results = {}
    for sort in ("numpy", "radix"):
        covariance = _under_sort(monkeypatch, sort, assay.delong_covariance, y, a, b,
                                 sample_weight=weights)  # fmt: skip
        test = _under_sort(monkeypatch, sort, assay.delong_test, y, a, b, sample_weight=weights)
        results[sort] = (covariance.aucs, covariance.covariance, test.statistic, test.pvalue)
    _same_bits(results["numpy"], results["radix"])


# --------------------------------------------------------------- hypothesis vs reference


@st.composite
def problems(draw: st.DrawFn, max_models: int = 3):
    """(y, score matrix, weights): tiny n, ties, constant scores, zero weights, k models."""
    n = draw(st.integers(1, 12))
    y = np.asarray(draw(hnp.arrays(np.int64, n, elements=st.integers(0, 1))))
    k = draw(st.integers(1, max_models))
    matrix = np.vstack([draw(st.one_of(scores(n), near_tied_scores(n))) for _ in range(k)])
    weights = draw(sample_weights(n))
    return y, matrix, weights


def _float_agrees_on_estimability(y: np.ndarray, weights: np.ndarray | None) -> bool:
    """Whether float sums of the weights put each class total on the same side of 1 as
    the exact sums (DeLong's variance needs a total above 1).  A weight of 1e-215 added
    to a weight of 1 is lost in float64 but not in the reference's fractions: such
    inputs are on the boundary of the definition and are skipped."""
    if weights is None:
        return True
    for mask in (y == 1, y == 0):
        exact = sum((Fraction(w) for w in weights[mask]), Fraction(0))
        if (float(weights[mask].sum()) > 1.0) != (exact > 1):
            return False
    return True


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return function(*args, **kwargs)


def _assert_arrays_close(actual: np.ndarray, expected: np.ndarray) -> None:
    np.testing.assert_allclose(actual, expected, rtol=ROUNDING, atol=ABSOLUTE, equal_nan=True)


@given(problems())
def test_covariance_equals_reference(problem):
    y, matrix, weights = problem
    assume(_float_agrees_on_estimability(y, weights))
    aucs, covariance = _quiet(assay.delong_covariance, y, *matrix, sample_weight=weights)
    expected_aucs, expected_covariance = reference.delong_covariance(
        y, *matrix, sample_weight=weights
    )
    _assert_arrays_close(aucs, expected_aucs)
    _assert_arrays_close(covariance, expected_covariance)


@given(
    problems(max_models=1),
    st.sampled_from(["delong", "hanley_mcneil"]),
    st.sampled_from(["logit", "normal"]),
)
def test_auc_ci_equals_reference(problem, method, interval):
    y, matrix, weights = problem
    assume(_float_agrees_on_estimability(y, weights))
    result = _quiet(
        assay.auc_ci, y, matrix[0], method=method, interval=interval, sample_weight=weights
    )
    estimate, (low, high), standard_error = reference.auc_ci(
        y, matrix[0], method=method, interval=interval, sample_weight=weights
    )
    assert _close(result.estimate, estimate)
    assert _close(result.standard_error, standard_error)
    assert _close(result.confidence_interval.low, low)
    assert _close(result.confidence_interval.high, high)


_DIFFERENCE_FIELDS = ("statistic", "pvalue", "estimate", "standard_error")


def _assert_test_equals(result, expected) -> None:
    for field in _DIFFERENCE_FIELDS:
        assert _close(getattr(result, field), expected[field]), field
    for mine, theirs in zip(
        result.confidence_interval, expected["confidence_interval"], strict=True
    ):
        assert _close(mine, theirs)


@given(problems(max_models=2), st.sampled_from(["two-sided", "greater", "less"]))
def test_paired_test_equals_reference(problem, alternative):
    y, matrix, weights = problem
    assume(_float_agrees_on_estimability(y, weights))
    score_b = matrix[1] if matrix.shape[0] > 1 else matrix[0][::-1].copy()
    result = _quiet(
        assay.delong_test, y, matrix[0], score_b, alternative=alternative, sample_weight=weights
    )
    expected = reference.delong_test(
        y, matrix[0], score_b, alternative=alternative, sample_weight=weights
    )
    _assert_test_equals(result, expected)


@given(problems(max_models=1), problems(max_models=1), st.sampled_from(["two-sided", "less"]))
def test_unpaired_test_equals_reference(first, second, alternative):
    (y_a, matrix_a, weights_a), (y_b, matrix_b, weights_b) = first, second
    assume(_float_agrees_on_estimability(y_a, weights_a))
    assume(_float_agrees_on_estimability(y_b, weights_b))
    arguments = (y_a, matrix_a[0], y_b, matrix_b[0])
    options = {
        "alternative": alternative,
        "sample_weight_a": weights_a,
        "sample_weight_b": weights_b,
    }
    result = _quiet(assay.delong_test_unpaired, *arguments, **options)
    expected = reference.delong_test_unpaired(*arguments, **options)
    _assert_test_equals(result, expected)
    assert _close(result.df, expected["df"])


# --------------------------------------------------------------- weights: the invariances


@given(problems())
def test_unit_weights_are_exactly_no_weights(problem):
    y, matrix, _ = problem
    plain = _quiet(assay.delong_covariance, y, *matrix)
    unit = _quiet(assay.delong_covariance, y, *matrix, sample_weight=np.ones(y.shape[0]))
    np.testing.assert_array_equal(unit.aucs, plain.aucs)
    np.testing.assert_array_equal(unit.covariance, plain.covariance)
    plain_test = _quiet(assay.delong_test, y, matrix[0], matrix[-1])
    unit_test = _quiet(
        assay.delong_test, y, matrix[0], matrix[-1], sample_weight=np.ones(y.shape[0])
    )
    for field in _DIFFERENCE_FIELDS:
        np.testing.assert_array_equal(getattr(unit_test, field), getattr(plain_test, field))


@given(problems(max_models=2))
def test_both_sorts_of_the_words_give_the_same_bits(problem):
    y, matrix, weights = problem
    with pytest.MonkeyPatch.context() as monkeypatch:
        by_numpy = _under_sort(monkeypatch, "numpy", assay.delong_covariance, y, *matrix,
                               sample_weight=weights)  # fmt: skip
        by_radix = _under_sort(monkeypatch, "radix", assay.delong_covariance, y, *matrix,
                               sample_weight=weights)  # fmt: skip
    _same_bits(by_numpy, by_radix)


@given(problems(), st.data())
def test_integer_weights_equal_repeated_rows(problem, data):
    y, matrix, _ = problem
    counts = np.asarray(
        data.draw(hnp.arrays(np.int64, y.shape[0], elements=st.integers(0, 3))), dtype=np.int64
    )
    if counts.sum() == 0:
        counts[0] = 1
    weighted = _quiet(assay.delong_covariance, y, *matrix, sample_weight=counts.astype(float))
    repeated = _quiet(assay.delong_covariance, np.repeat(y, counts), *np.repeat(matrix, counts, 1))
    _assert_arrays_close(weighted.aucs, repeated.aucs)
    _assert_arrays_close(weighted.covariance, repeated.covariance)
    for method in ("delong", "hanley_mcneil"):
        by_weight = _quiet(
            assay.auc_ci, y, matrix[0], method=method, sample_weight=counts.astype(float)
        )
        by_rows = _quiet(
            assay.auc_ci, np.repeat(y, counts), np.repeat(matrix[0], counts), method=method
        )
        assert _close(by_weight.standard_error, by_rows.standard_error)


def test_zero_weights_drop_rows():
    generator = np.random.default_rng(11)
    y = generator.integers(0, 2, 60)
    a, b = np.round(generator.random((2, 60)), 1)
    weights = generator.integers(0, 3, 60).astype(float)
    keep = weights > 0
    full = assay.delong_test(y, a, b, sample_weight=weights)
    dropped = assay.delong_test(y[keep], a[keep], b[keep], sample_weight=weights[keep])
    for field in _DIFFERENCE_FIELDS:
        assert _close(getattr(full, field), getattr(dropped, field))


def test_scaling_the_weights_keeps_aucs_and_divides_the_covariance():
    """Frequency weights: doubling every weight doubles the class sizes (documented)."""
    generator = np.random.default_rng(5)
    y = generator.integers(0, 2, 80)
    a, b = generator.normal(size=(2, 80)) + y
    weights = generator.integers(1, 4, 80).astype(float)
    once = assay.delong_covariance(y, a, b, sample_weight=weights)
    twice = assay.delong_covariance(y, a, b, sample_weight=2 * weights)
    np.testing.assert_allclose(twice.aucs, once.aucs, rtol=1e-15)
    assert np.all(twice.covariance < once.covariance) or np.all(np.abs(once.covariance) < 1e-15)
    assert twice.n_positive == 2 * once.n_positive


def test_row_order_does_not_matter():
    generator = np.random.default_rng(9)
    y = generator.integers(0, 2, 50)
    a, b = np.round(generator.normal(size=(2, 50)) + y, 1)
    weights = generator.random(50)
    order = generator.permutation(50)
    first = assay.delong_test(y, a, b, sample_weight=weights)
    second = assay.delong_test(y[order], a[order], b[order], sample_weight=weights[order])
    for field in _DIFFERENCE_FIELDS:
        assert _close(getattr(first, field), getattr(second, field))


# --------------------------------------------------------------- results and degenerate data


def test_covariance_result_unpacks_and_is_read_only():
    result = assay.delong_covariance([0, 1, 0, 1, 1, 0], [1, 2, 3, 4, 5, 0], [3, 2, 1, 5, 4, 0])
    aucs, covariance = result
    assert aucs.shape == (2,) and covariance.shape == (2, 2)
    np.testing.assert_array_equal(covariance, covariance.T)
    with pytest.raises(ValueError, match="read-only"):
        covariance[0, 0] = 1.0
    assert result.to_dict()["covariance"] == covariance.tolist()
    assert "AucCovariance(" in repr(result)


def test_one_class_gives_nan_and_a_warning():
    y, x = [1, 1, 1], [0.1, 0.2, 0.3]
    with pytest.warns(UndefinedMetricWarning, match="Only one class"):
        aucs, covariance = assay.delong_covariance(y, x)
    assert np.isnan(aucs).all() and np.isnan(covariance).all()
    with pytest.warns(UndefinedMetricWarning, match="Only one class"):
        interval = assay.auc_ci(y, x)
    assert math.isnan(interval.estimate) and math.isnan(interval.confidence_interval.low)
    with pytest.warns(UndefinedMetricWarning, match="Only one class"):
        test = assay.delong_test(y, x, x)
    assert math.isnan(test.statistic) and math.isnan(test.pvalue)
    with pytest.warns(UndefinedMetricWarning, match="Only one class"):
        unpaired = assay.delong_test_unpaired(y, x, [0, 1], [0.3, 0.5])
    assert math.isnan(unpaired.pvalue)


def test_a_single_positive_has_no_delong_variance():
    y, x = [0, 0, 1, 0], [0.1, 0.4, 0.3, 0.2]
    with pytest.warns(DegenerateDataWarning, match="more than one of each"):
        interval = assay.auc_ci(y, x)
    assert interval.estimate == 2 / 3 and math.isnan(interval.standard_error)
    assert all(math.isnan(bound) for bound in interval.confidence_interval)
    hanley = assay.auc_ci(y, x, method="hanley_mcneil")  # defined for one positive
    assert hanley.standard_error > 0
    with pytest.warns(DegenerateDataWarning, match="more than one of each"):
        test = assay.delong_test(y, x, [0.4, 0.1, 0.15, 0.2])
    assert math.isnan(test.pvalue) and test.estimate == pytest.approx(2 / 3 - 1 / 3)
    with pytest.warns(DegenerateDataWarning, match="total weight above 1"):
        _, covariance = assay.delong_covariance(
            [0, 1, 1, 0], x, sample_weight=[1.0, 0.25, 0.5, 1.0]
        )
    assert np.isnan(covariance).all()


def test_perfect_separation_gives_a_zero_width_interval_with_a_warning():
    y, x = [0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9]
    for method in ("delong", "hanley_mcneil"):
        with pytest.warns(DegenerateDataWarning, match="standard error of the AUC is 0"):
            result = assay.auc_ci(y, x, method=method)
        assert result.estimate == 1.0 and tuple(result.confidence_interval) == (1.0, 1.0)


def test_zero_variance_with_a_difference_gives_nan_not_inf():
    """Perfect scores (all placements 1) against constant ones (all 1/2): d = 0.5, Var = 0."""
    y = [0, 0, 1, 1, 0, 1]
    with pytest.warns(DegenerateDataWarning, match="statistic is undefined"):
        result = assay.delong_test(y, [0.1, 0.2, 0.8, 0.9, 0.3, 0.7], [0.5] * 6)
    assert result.estimate == 0.5 and result.standard_error == 0.0
    assert math.isnan(result.statistic) and math.isnan(result.pvalue)


def test_rounding_of_the_auc_does_not_fake_a_variance():
    """All placements equal (a single positive above every negative): the variance is
    exactly 0 even though the AUC, computed with these weights, rounds to 1 - 1e-16.
    (Found by hypothesis: the rounding alone used to give Var ~ 1e-33 and z ~ 1e16.)"""
    y = np.array([0, 0, 0, 0, 1])
    weights = np.array([9.129, 6.067, 7.296, 5.437, 9.352])
    low, high = np.array([1.0, 0.0, 0.0, 0.0, -1.0]), np.array([-1.0, 0.0, 0.0, 0.0, 1.0])
    assert assay.roc_auc_score(y, high, sample_weight=weights) != 1.0  # rounded: 1 - 2e-16
    with pytest.warns(DegenerateDataWarning, match="statistic is undefined"):
        result = assay.delong_test(y, low, high, sample_weight=weights)
    assert result.standard_error == 0.0 and math.isnan(result.statistic)
    _, covariance = assay.delong_covariance(y, low, high, sample_weight=weights)
    np.testing.assert_array_equal(covariance, np.zeros((2, 2)))
    thirds = np.full(6, 2.9999999999999982)  # weights that are not exact
    y_b, score_b = np.array([0, 0, 1, 0, 0, 0]), np.array([1.0, 0.0, 2.0, 0.0, 0.0, 0.0])
    with pytest.warns(DegenerateDataWarning, match="standard error of the AUC is 0"):
        interval = assay.auc_ci(y_b, score_b, sample_weight=thirds)
    assert interval.standard_error == 0.0


def test_interval_of_the_auc_stays_in_the_unit_interval():
    y, x = [0, 0, 1, 1, 0, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.5, 0.7]
    normal = assay.auc_ci(y, x, interval="normal")
    assert normal.confidence_interval.high == 1.0  # clipped, as pROC does
    assert normal.estimate + 1.96 * normal.standard_error > 1.0
    # the default is the logit interval: inside (0, 1) unclipped, with its two bounds
    # at logit(A) -/+ z SE / (A (1 - A)) (A = 7/8, so A (1 - A) = 7/64 and logit A = ln 7)
    result = assay.auc_ci(y, x)
    assert result.details["interval"] == "logit"
    low, high = result.confidence_interval
    step = NormalDist().inv_cdf(0.975) * result.standard_error * 64 / 7
    assert math.isclose(math.log(low / (1 - low)), math.log(7) - step, rel_tol=ROUNDING)
    assert math.isclose(math.log(high / (1 - high)), math.log(7) + step, rel_tol=ROUNDING)
    assert 0.0 < low < result.estimate < high < 1.0


def test_confidence_level_and_alternative_are_honoured(asah):
    y = asah["outcome"]
    wide = assay.delong_test(
        y, asah["wfns"], asah["s100b"], confidence_level=0.99, pos_label="Poor"
    )
    narrow = assay.delong_test(
        y, asah["wfns"], asah["s100b"], confidence_level=0.8, pos_label="Poor"
    )
    assert wide.confidence_interval.low < narrow.confidence_interval.low
    assert wide.confidence_level == 0.99
    z = 2.20898359144091
    half_width = wide.estimate - wide.confidence_interval.low
    assert math.isclose(half_width / wide.standard_error, 2.5758293035489, rel_tol=1e-12)
    assert math.isclose(wide.estimate / wide.standard_error, z, rel_tol=PROC_RELATIVE)


# --------------------------------------------------------------- input checks


def test_errors_name_the_argument_and_the_rule():
    y, x = [0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4]
    with pytest.raises(ValueError, match="`scores` is empty; pass at least one score vector"):
        assay.delong_covariance(y)
    with pytest.raises(
        ValueError, match=r"`y_true` and `scores\[1\]` have different lengths: 4 and 3"
    ):
        assay.delong_covariance(y, x, x[:3])
    with pytest.raises(ValueError, match="`score_b` contains 1 NaN values"):
        assay.delong_test(y, x, [0.1, np.nan, 0.3, 0.4])
    with pytest.raises(ValueError, match=r"`method` must be one of \['delong', 'hanley_mcneil'\]"):
        assay.auc_ci(y, x, method="bootstrap")
    with pytest.raises(ValueError, match=r"`interval` must be one of \['logit', 'normal'\]"):
        assay.auc_ci(y, x, interval="wald")
    with pytest.raises(ValueError, match=r"`confidence_level` must be in \(0, 1\); got 95"):
        assay.auc_ci(y, x, confidence_level=95)
    with pytest.raises(ValueError, match="`alternative` must be one of"):
        assay.delong_test(y, x, x, alternative="two.sided")
    with pytest.raises(ValueError, match="`alternative` must be one of"):
        assay.delong_test_unpaired(y, x, y, x, alternative="bigger")
    with pytest.raises(ValueError, match="`sample_weight` contains 1 negative values"):
        assay.delong_test(y, x, x, sample_weight=[1, -1, 1, 1])
    with pytest.raises(ValueError, match="pass `pos_label`"):
        assay.auc_ci(["a", "b", "a", "b"], x)
    with pytest.raises(
        ValueError, match="`y_true_a` and `score_a` have different lengths: 4 and 3"
    ):
        assay.delong_test_unpaired(y, x[:3], y, x)
    with pytest.raises(ValueError, match="`sample_weight_b` sums to zero"):
        assay.delong_test_unpaired(y, x, y, x, sample_weight_b=[0, 0, 0, 0])
    with pytest.raises(ValueError, match="`y_true_b` holds 3 classes"):
        assay.delong_test_unpaired(y, x, [0, 1, 2, 1], x)


def test_warnings_point_at_the_callers_line():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assay.delong_test([0, 1, 0, 1], [1, 2, 3, 4], [1, 2, 3, 4])
        assay.auc_ci([1, 1], [0.2, 0.3])
        assay.delong_test_unpaired([0, 1, 1], [1, 2, 3], [0, 1], [1, 2])
    assert len(caught) == 3
    assert all(Path(warning.filename).name == Path(__file__).name for warning in caught)


# --------------------------------------------------------------- type I error (slow)


def _correlated_null(generator: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
    """Two models with equal AUC (same marginal score law), correlated through the rows."""
    y = (generator.random(n) < 0.35).astype(int)
    shared = generator.normal(size=n)
    noise = generator.normal(size=(2, n))
    a = y + 0.6 * shared + 0.8 * noise[0]
    b = y + 0.6 * shared + 0.8 * noise[1]
    return y, a, b


# 1000 data sets: the rejection rate at alpha = 0.05 has a binomial standard deviation of
# 0.0069, so [0.035, 0.065] is about +-2.2 standard deviations around the nominal level.
TYPE_ONE_DATA_SETS = 1000
TYPE_ONE_BAND = (0.035, 0.065)


@pytest.mark.slow
def test_paired_test_type_one_error_rate():
    generator = np.random.default_rng(20240611)
    rejections = 0
    for _ in range(TYPE_ONE_DATA_SETS):
        y, a, b = _correlated_null(generator, 200)
        rejections += assay.delong_test(y, a, b).pvalue < 0.05
    rate = rejections / TYPE_ONE_DATA_SETS
    assert TYPE_ONE_BAND[0] <= rate <= TYPE_ONE_BAND[1], rate


@pytest.mark.slow
def test_unpaired_test_type_one_error_rate():
    generator = np.random.default_rng(20240612)
    rejections = 0
    for _ in range(TYPE_ONE_DATA_SETS):
        y_a, a, _ = _correlated_null(generator, 150)
        y_b, _, b = _correlated_null(generator, 250)
        rejections += assay.delong_test_unpaired(y_a, a, y_b, b).pvalue < 0.05
    rate = rejections / TYPE_ONE_DATA_SETS
    assert TYPE_ONE_BAND[0] <= rate <= TYPE_ONE_BAND[1], rate


# ------------------------------------------------------- coverage of auc_ci (slow)

# 2000 binormal data sets per setting: the coverage of a 95 % interval has a binomial
# standard deviation of 0.0049, so [0.935, 0.965] is about +-3 standard deviations.
COVERAGE_DATA_SETS = 2000
COVERAGE_BAND = (0.935, 0.965)


def _coverage(auc: float, per_class: int, interval: str, seed: int) -> float:
    generator = np.random.default_rng(seed)
    shift = math.sqrt(2.0) * NormalDist().inv_cdf(auc)  # P(X_pos > X_neg) = auc
    y = np.r_[np.ones(per_class, dtype=int), np.zeros(per_class, dtype=int)]
    covered = 0
    for _ in range(COVERAGE_DATA_SETS):
        scores = np.r_[generator.normal(shift, 1.0, per_class), generator.normal(size=per_class)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)  # a sample AUC of 1
            low, high = assay.auc_ci(y, scores, interval=interval).confidence_interval
        covered += low <= auc <= high
    return covered / COVERAGE_DATA_SETS


@pytest.mark.slow
@pytest.mark.parametrize(
    ("auc", "per_class", "seed"),
    [(0.9, 20, 20260101), (0.95, 20, 20260102), (0.95, 50, 20260103), (0.98, 200, 20260104)],
)
def test_logit_interval_keeps_its_coverage_near_an_auc_of_one(auc, per_class, seed):
    coverage = _coverage(auc, per_class, "logit", seed)
    assert COVERAGE_BAND[0] <= coverage <= COVERAGE_BAND[1], coverage


@pytest.mark.slow
def test_normal_interval_undercovers_near_an_auc_of_one():
    """Why the logit interval is the default: 20 rows per class and AUC 0.95."""
    assert _coverage(0.95, 20, "normal", 20260102) < 0.9

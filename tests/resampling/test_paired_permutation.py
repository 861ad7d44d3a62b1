"""The paired permutation test of a ranking metric swaps each model's mid-distribution
values, so it does not depend on the scale of either model's scores.

Expected values come from the definition ``F_mid(s) = W(score < s) + W(score = s) / 2``
computed in exact fractions here, and from ``scipy.stats.rankdata``.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.special import logit
from scipy.stats import rankdata

import assay
from assay.metrics._registry import METRICS, variants_of
from assay.resampling._paired_permutation import mid_distribution_codes
from tests.strategies import INCREASING_TRANSFORMS, paired_ranking_data

FLOAT_RTOL = 1e-12  # float sums of the same terms in another order

# Every ranking metric of the registry with each of its declared variants; a partial
# carries the options (compare's own `method` chooses bootstrap or permutation).
RANKING_METRICS = [
    (functools.partial(METRICS[name].function, **options), {})
    for name, options in variants_of("ranking")
]


def mid_distribution(scores, weights=None) -> list[Fraction]:
    """``W(score < s) + W(score = s) / 2`` of every row, in exact fractions (O(n^2))."""
    w = [Fraction(1)] * len(scores) if weights is None else [Fraction(x) for x in weights]
    return [
        sum((w[j] for j in range(len(scores)) if scores[j] < s), Fraction(0))
        + sum((w[j] for j in range(len(scores)) if scores[j] == s), Fraction(0)) / 2
        for s in scores
    ]


def same_order_and_ties(x, y) -> bool:
    return bool(np.all(np.isfinite(y)) and np.array_equal(rankdata(x), rankdata(y)))


@given(paired_ranking_data(max_n=30))
def test_codes_order_both_models_like_their_exact_mid_distribution_values(data):
    _, a, b, w = data
    codes_a, codes_b = mid_distribution_codes(a, b, w)
    exact = mid_distribution(a, w) + mid_distribution(b, w)
    dense = {value: rank for rank, value in enumerate(sorted(set(exact)))}
    np.testing.assert_array_equal(
        np.concatenate([codes_a, codes_b]), [dense[value] for value in exact]
    )


def check_scale_invariance(data, transform_a, transform_b, metric, exact):
    y, a, b, w = data
    new_a = INCREASING_TRANSFORMS[transform_a](a)
    new_b = INCREASING_TRANSFORMS[transform_b](b)
    assume(same_order_and_ties(a, new_a) and same_order_and_ties(b, new_b))
    function, options = metric
    # 2**8 patterns cover every swap of up to 8 rows (exact); 40 random draws otherwise

    def run(first, second):
        return assay.compare(function, y, first, second, method="permutation",
                             n_resamples=2**8 if exact else 40, sample_weight=w, rng=17,
                             **options)  # fmt: skip

    before, after = run(a, b), run(new_a, new_b)
    assume(before.method == ("permutation (exact)" if exact else "permutation"))
    assert after.method == before.method
    np.testing.assert_array_equal(after.resampled_differences, before.resampled_differences)
    assert after.pvalue == before.pvalue
    # the metric depends on each model's order only: the observed difference is unchanged
    assert after.difference == pytest.approx(before.difference, rel=FLOAT_RTOL, abs=1e-15)
    if exact:  # the identity pattern is enumerated: it gives the observed difference
        gap = np.min(np.abs(before.resampled_differences - before.difference))
        assert gap <= FLOAT_RTOL * max(1.0, abs(before.difference))


transform_names = st.sampled_from(sorted(INCREASING_TRANSFORMS))


@given(paired_ranking_data(max_n=8), transform_names, transform_names,
       st.sampled_from(RANKING_METRICS))  # fmt: skip
def test_exact_permutation_test_does_not_depend_on_the_scale_of_either_model(
    data, transform_a, transform_b, metric
):
    check_scale_invariance(data, transform_a, transform_b, metric, exact=True)


@given(paired_ranking_data(min_n=12, max_n=40), transform_names, transform_names,
       st.sampled_from(RANKING_METRICS))  # fmt: skip
def test_random_permutation_test_does_not_depend_on_the_scale_of_either_model(
    data, transform_a, transform_b, metric
):
    check_scale_invariance(data, transform_a, transform_b, metric, exact=False)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("tied", [False, True])
@pytest.mark.parametrize("metric", [assay.roc_auc_score, assay.average_precision_score])
def test_fast_path_swaps_the_mid_distribution_values_of_the_definition(metric, tied, weighted):
    # The generic path swaps what it is given (a callable is not known to be a ranking
    # metric) and reads the same swap bits as the fast path: given the mid-distribution
    # values of the definition, it must give the fast path's replicates.
    rng = np.random.default_rng(4)
    y = (rng.random(150) < 0.4).astype(int)
    a = y + rng.normal(size=150)
    b = np.exp(2.0 * (y + rng.normal(size=150)))  # another scale
    if tied:
        a, b = np.round(a, 1), np.round(b, 0)
    w = rng.integers(0, 17, 150) / 8.0 if weighted else None  # dyadic: exact sums
    mid_a = np.array([float(v) for v in mid_distribution(a, w)])
    mid_b = np.array([float(v) for v in mid_distribution(b, w)])

    def generic(y_true, y_score, sample_weight=None):
        return metric(y_true, y_score, sample_weight=sample_weight)

    fast = assay.compare(metric, y, a, b, method="permutation", n_resamples=60,
                         sample_weight=w, rng=3)  # fmt: skip
    slow = assay.compare(generic, y, mid_a, mid_b, method="permutation", n_resamples=60,
                         sample_weight=w, rng=3)  # fmt: skip
    np.testing.assert_allclose(
        fast.resampled_differences, slow.resampled_differences, rtol=FLOAT_RTOL, atol=1e-15
    )
    assert fast.pvalue == slow.pvalue


def exact_weighted_auc(y, values, weights) -> Fraction:
    """Weighted ROC AUC from its definition over (positive, negative) pairs, ties 1/2."""
    w = [Fraction(x) for x in weights]
    total = Fraction(0)
    for i, j in itertools.product(range(len(y)), repeat=2):
        if y[i] == 1 and y[j] == 0:
            wins = 1 if values[i] > values[j] else Fraction(1, 2) if values[i] == values[j] else 0
            total += w[i] * w[j] * wins
    positive = sum((w[i] for i in range(len(y)) if y[i] == 1), Fraction(0))
    negative = sum((w[i] for i in range(len(y)) if y[i] == 0), Fraction(0))
    return total / (positive * negative)


def test_exact_enumeration_keeps_ties_between_the_models_exact():
    # Row 0 of A and row 1 of B have the same mid-distribution value, 23/20, as sums of
    # the same weights in different orders: float prefix sums give 2.3 and
    # 2.3000000000000003, which would break the tie when both rows land in one model.
    y = np.array([1, 0, 1, 0])
    w = np.array([0.1, 0.1, 0.7, 0.3])
    a = np.array([3.0, 0.0, 1.0, 2.0])
    b = np.array([0.0, 3.0, 2.0, 1.0])
    mid_a, mid_b = mid_distribution(a, w), mid_distribution(b, w)
    assert mid_a[0] == mid_b[1]
    rows = [i for i in range(4) if mid_a[i] != mid_b[i]]
    expected = []
    for pattern in itertools.product((False, True), repeat=len(rows)):
        new_a, new_b = list(mid_a), list(mid_b)
        for row, swap in zip(rows, pattern, strict=True):
            if swap:
                new_a[row], new_b[row] = mid_b[row], mid_a[row]
        expected.append(exact_weighted_auc(y, new_a, w) - exact_weighted_auc(y, new_b, w))
    observed = exact_weighted_auc(y, list(a), w) - exact_weighted_auc(y, list(b), w)
    result = assay.compare(assay.roc_auc_score, y, a, b, method="permutation",
                           sample_weight=w, alternative="greater")  # fmt: skip
    assert result.method == "permutation (exact)"
    assert result.n_resamples == 2 ** len(rows)
    np.testing.assert_allclose(
        np.sort(result.resampled_differences),
        np.sort([float(value) for value in expected]),
        rtol=FLOAT_RTOL,
        atol=1e-15,
    )
    assert result.pvalue == pytest.approx(np.mean([value >= observed for value in expected]))


def test_breast_cancer_probabilities_and_their_logits_give_the_same_pvalue():
    # A logistic regression against a random forest on 228 test rows: the logit is a
    # strictly increasing function of the probability (same AUC, same ranking), so the
    # test must not change. Swapping raw scores gave p = 0.0084 and p = 0.1732.
    from sklearn.datasets import load_breast_cancer
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.4, random_state=0, stratify=y
    )
    linear = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)
    forest = RandomForestClassifier(random_state=0).fit(X_train, y_train)
    p_a = linear.predict_proba(X_test)[:, 1]
    p_b = forest.predict_proba(X_test)[:, 1]
    logit_a = logit(p_a)
    assert same_order_and_ties(p_a, logit_a)

    def pvalue(scores_a, scores_b):
        return assay.compare(assay.roc_auc_score, y_test, scores_a, scores_b,
                             method="permutation", n_resamples=1999, rng=0).pvalue  # fmt: skip

    raw = pvalue(p_a, p_b)
    assert pvalue(logit_a, p_b) == raw
    assert pvalue(rankdata(p_a), rankdata(p_b)) == raw  # midranks: the swapped scale


def test_per_class_scores_are_refused_with_the_bootstrap_as_the_way_out():
    rng = np.random.default_rng(0)
    y = np.arange(30) % 3
    p_a = rng.dirichlet(np.ones(3), 30)
    p_b = rng.dirichlet(np.ones(3), 30)
    with pytest.raises(ValueError, match=r"needs binary scores .* shape \(30, 3\).*'bootstrap'"):
        assay.compare(assay.roc_auc_score, y, p_a, p_b, method="permutation",
                      multi_class="ovr")  # fmt: skip

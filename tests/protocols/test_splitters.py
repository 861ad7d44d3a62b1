"""Splitters: partitions, stratification, reproducibility, scikit-learn's folds, errors."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn import model_selection

from assay import DegenerateDataWarning
from assay.protocols import (
    BootstrapOutOfBag,
    KFold,
    LeaveOneOut,
    RepeatedKFold,
    RepeatedStratifiedKFold,
    StratifiedKFold,
    holdout,
)
from assay.reference import _protocols as reference

# Wu, "Evaluation", exercise 8: ten examples, two of class 1, eight of class 2.
EXERCISE_8_LABELS = [1, 1, 2, 2, 2, 2, 2, 2, 2, 2]


@st.composite
def class_labels(draw: st.DrawFn, min_size: int = 2, max_size: int = 60) -> np.ndarray:
    """Labels with 1 to 4 classes of any sizes (rare classes included)."""
    n = draw(st.integers(min_size, max_size))
    n_classes = draw(st.integers(1, 4))
    values = draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n))
    return np.array(values, dtype=np.int64)


def _tests(splitter, X, y=None):
    return [test for _, test in splitter.split(X, y)]


def _assert_partition(splits, n, tests_cover=True):
    """Each split's train and test are disjoint and cover the rows; the tests partition."""
    seen = np.zeros(n, dtype=np.int64)
    for train, test in splits:
        assert train.dtype == np.int64 and test.dtype == np.int64
        assert np.all(np.diff(test) > 0) and np.all(np.diff(train) > 0)
        assert not np.intersect1d(train, test).size
        assert train.size + test.size == n
        seen[test] += 1
    if tests_cover:
        assert np.all(seen == 1)


# --- KFold ---


@given(n=st.integers(2, 80), k=st.integers(2, 10), shuffle=st.booleans(), seed=st.integers(0, 99))
def test_kfold_is_a_partition_with_balanced_sizes(n, k, shuffle, seed):
    if k > n:
        return
    splitter = KFold(k, shuffle=shuffle, rng=seed if shuffle else None)
    splits = list(splitter.split(np.zeros((n, 2))))
    assert len(splits) == splitter.get_n_splits() == k
    _assert_partition(splits, n)
    sizes = [test.size for _, test in splits]
    # Wu, "Evaluation", eq. 8: sizes n // k + 1 for the first n % k folds, n // k for the rest
    assert sizes == [n // k + (1 if i < n % k else 0) for i in range(k)]


@given(n=st.integers(2, 60), k=st.integers(2, 8))
def test_unshuffled_kfold_matches_the_reference_and_sklearn(n, k):
    if k > n:
        return
    fold_of = np.empty(n, dtype=np.int64)
    for fold, test in enumerate(_tests(KFold(k), np.zeros(n))):
        fold_of[test] = fold
    assert fold_of.tolist() == reference.kfold_assignment(n, k)
    theirs = [test.tolist() for _, test in model_selection.KFold(k).split(np.zeros(n))]
    assert [test.tolist() for test in _tests(KFold(k), np.zeros(n))] == theirs


def test_kfold_is_reproducible_and_seeds_differ():
    X = np.zeros(50)
    first = _tests(KFold(5, shuffle=True, rng=11), X)
    again = _tests(KFold(5, shuffle=True, rng=11), X)
    other = _tests(KFold(5, shuffle=True, rng=12), X)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))
    # the splitter fixes its seed once: two calls to split give the same folds
    splitter = KFold(5, shuffle=True, rng=np.random.default_rng(3))
    assert all(
        np.array_equal(a, b) for a, b in zip(_tests(splitter, X), _tests(splitter, X), strict=True)
    )
    assert splitter.seed is not None
    # without a seed each splitter draws its own, but keeps it
    unseeded = KFold(5, shuffle=True)
    assert all(
        np.array_equal(a, b) for a, b in zip(_tests(unseeded, X), _tests(unseeded, X), strict=True)
    )


# --- StratifiedKFold ---


@pytest.mark.parametrize("seed", range(200))
def test_exercise_8_each_fold_gets_one_class_1_example(seed):
    # Wu, "Evaluation", exercise 8(d): with stratified sampling the class-1 histogram over two
    # folds is always (1, 1); checked for 200 seeds, and for the repeated splitter.
    y = np.array(EXERCISE_8_LABELS)
    for splitter in (
        StratifiedKFold(2, shuffle=True, rng=seed),
        RepeatedStratifiedKFold(2, n_repeats=5, rng=seed),
    ):
        for train, test in splitter.split(y, y):
            assert test.size == 5
            assert Counter(y[test].tolist()) == {1: 1, 2: 4}
            assert Counter(y[train].tolist()) == {1: 1, 2: 4}


def test_exercise_8_unstratified_split_gives_0_2_with_probability_4_9():
    # Wu, "Evaluation", exercise 8(b): a random 5/5 split puts both class-1 examples on one
    # side with probability 2 * C(8, 3) / C(10, 5) = 112 / 252 = 4/9 (worked by hand).
    assert math.isclose(2 * math.comb(8, 3) / math.comb(10, 5), 4 / 9)
    y = np.array(EXERCISE_8_LABELS)
    trials = 4000
    both_on_one_side = sum(
        np.count_nonzero(y[holdout(10, 5, rng=seed)[1]] == 1) != 1 for seed in range(trials)
    )
    # binomial standard error sqrt(p (1 - p) / trials) = 0.0079; allow 4.5 of them
    assert abs(both_on_one_side / trials - 4 / 9) < 4.5 * math.sqrt(4 / 9 * 5 / 9 / trials)


@given(y=class_labels(), k=st.integers(2, 6), seed=st.integers(0, 50))
def test_stratified_kfold_shares_are_floor_or_ceil(y, k, seed):
    counts = np.bincount(y)
    counts = counts[counts > 0]
    if k > y.size or np.all(counts < k):
        return
    splitter = StratifiedKFold(k, shuffle=True, rng=seed)
    with pytest.warns(DegenerateDataWarning) if counts.min() < k else _no_warning():
        splits = list(splitter.split(np.zeros(y.size), y))
    _assert_partition(splits, y.size)
    sizes = [test.size for _, test in splits]
    assert sizes == [y.size // k + (1 if i < y.size % k else 0) for i in range(k)]
    for label in np.unique(y):
        n_c = int(np.count_nonzero(y == label))
        for _, test in splits:
            assert np.count_nonzero(y[test] == label) in (n_c // k, -(-n_c // k))


class _no_warning:
    def __enter__(self):
        return self

    def __exit__(self, *args):
        return False


@given(y=class_labels(), k=st.integers(2, 6))
def test_unshuffled_stratified_kfold_matches_the_reference_and_sklearn(y, k):
    counts = np.bincount(y)
    counts = counts[counts > 0]
    if k > y.size or counts.min() < k:  # scikit-learn warns for rare classes; skip those
        return
    ours = _tests(StratifiedKFold(k), np.zeros(y.size), y)
    fold_of = np.empty(y.size, dtype=np.int64)
    for fold, test in enumerate(ours):
        fold_of[test] = fold
    assert fold_of.tolist() == reference.stratified_kfold_assignment(y.tolist(), k)
    theirs = _tests(model_selection.StratifiedKFold(k), np.zeros(y.size), y)
    assert [t.tolist() for t in ours] == [t.tolist() for t in theirs]


def test_stratified_kfold_accepts_string_labels_and_column_vectors():
    y = np.array(["b", "a", "b", "a", "b", "a"])
    tests = _tests(StratifiedKFold(3), np.zeros(6), y)
    assert all(sorted(y[test].tolist()) == ["a", "b"] for test in tests)
    tests = _tests(StratifiedKFold(3), np.zeros(6), y.reshape(-1, 1))
    assert len(tests) == 3


def test_stratified_kfold_warns_for_a_class_smaller_than_k():
    y = np.array([0] * 10 + [1] * 2)
    with pytest.warns(DegenerateDataWarning, match="smallest class has only 2 members"):
        splits = list(StratifiedKFold(3).split(np.zeros(12), y))
    _assert_partition(splits, 12)


# --- Repeated ---


def test_repeated_kfold_repeats_are_partitions_and_repeat_0_is_kfold():
    X = np.zeros(23)
    splitter = RepeatedKFold(4, n_repeats=3, rng=5)
    splits = list(splitter.split(X))
    assert len(splits) == splitter.get_n_splits() == 12
    for repeat in range(3):
        _assert_partition(splits[4 * repeat : 4 * repeat + 4], 23)
    first = [test for _, test in splits[:4]]
    assert all(
        np.array_equal(a, b)
        for a, b in zip(first, _tests(KFold(4, shuffle=True, rng=5), X), strict=True)
    )
    assert not np.array_equal(splits[0][1], splits[4][1])
    again = list(RepeatedKFold(4, n_repeats=3, rng=5).split(X))
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(splits, again, strict=True))


def test_repeated_stratified_repeat_0_is_shuffled_stratified_kfold():
    y = np.array([0] * 7 + [1] * 5 + [2] * 4)
    splits = list(RepeatedStratifiedKFold(3, n_repeats=2, rng=9).split(y, y))
    single = _tests(StratifiedKFold(3, shuffle=True, rng=9), y, y)
    assert all(np.array_equal(a[1], b) for a, b in zip(splits[:3], single, strict=True))
    _assert_partition(splits[3:], y.size)


def test_splitters_work_as_cv_in_sklearn():
    from sklearn.dummy import DummyClassifier

    X = np.zeros((20, 1))
    y = np.array([0, 1] * 10)
    for splitter, count in (
        (KFold(4), 4),
        (StratifiedKFold(5, shuffle=True, rng=0), 5),
        (RepeatedStratifiedKFold(2, 3, rng=0), 6),
        (LeaveOneOut(), 20),
        (BootstrapOutOfBag(7, rng=0), 7),
    ):
        scores = model_selection.cross_val_score(DummyClassifier(), X, y, cv=splitter)
        assert scores.shape == (count,)


# --- LeaveOneOut ---


def test_leave_one_out():
    splits = list(LeaveOneOut().split(np.zeros((5, 3))))
    _assert_partition(splits, 5)
    assert [test.tolist() for _, test in splits] == [[0], [1], [2], [3], [4]]
    assert LeaveOneOut().get_n_splits(np.zeros(5)) == 5
    assert repr(LeaveOneOut()) == "LeaveOneOut()"


# --- BootstrapOutOfBag ---


@given(n=st.integers(2, 40), seed=st.integers(0, 1000))
def test_bootstrap_train_is_n_draws_and_test_is_the_out_of_bag_rows(n, seed):
    for train, test in BootstrapOutOfBag(5, rng=seed).split(np.zeros(n)):
        assert train.shape == (n,) and train.dtype == np.int64
        assert test.size > 0  # an empty out-of-bag set is redrawn
        assert np.array_equal(test, np.setdiff1d(np.arange(n), train))


def test_bootstrap_redraws_an_empty_out_of_bag_set():
    # with n = 2 half of the plain draws leave nothing out of bag (2!/2^2 = 1/2);
    # every split still has a test row, and the draws differ between resamples
    splits = list(BootstrapOutOfBag(50, rng=4).split(np.zeros(2)))
    assert all(test.size == 1 and np.all(train != test[0]) for train, test in splits)
    assert {int(test[0]) for _, test in splits} == {0, 1}


def test_bootstrap_out_of_bag_fraction_is_near_0_368():
    # (1 - 1/n)^n -> 1/e = 0.368 ("Estimation of the hypothesis real risk", the .632 bootstrap)
    n = 1000
    fractions = [test.size / n for _, test in BootstrapOutOfBag(200, rng=0).split(np.zeros(n))]
    assert abs(np.mean(fractions) - (1 - 1 / n) ** n) < 0.003


def test_stratified_bootstrap_keeps_the_class_counts():
    y = np.array([0] * 6 + [1] * 3 + [2] * 1)
    for train, test in BootstrapOutOfBag(30, stratify=True, rng=2).split(y, y):
        assert np.array_equal(np.bincount(y[train], minlength=3), [6, 3, 1])
        assert test.size > 0


def test_bootstrap_is_reproducible():
    X = np.zeros(30)
    first = list(BootstrapOutOfBag(4, rng=8).split(X))
    again = list(BootstrapOutOfBag(4, rng=8).split(X))
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(first, again, strict=True))


# --- holdout ---


@pytest.mark.parametrize(
    ("n", "test_size", "expected"),
    [(10, 0.25, 3), (10, 0.3, 3), (7, 0.5, 4), (100, 0.2, 20), (10, 4, 4), (3, 0.01, 1)],
)
def test_holdout_sizes_follow_train_test_split(n, test_size, expected):
    train, test = holdout(n, test_size, rng=0)
    assert test.size == expected
    _, theirs = model_selection.train_test_split(np.arange(n), test_size=test_size, random_state=0)
    assert theirs.size == expected
    _assert_partition([(train, test)], n, tests_cover=False)


@given(y=class_labels(min_size=4), fraction=st.floats(0.05, 0.95), seed=st.integers(0, 99))
def test_stratified_holdout_shares_match_the_reference(y, fraction, seed):
    n = y.size
    n_test = math.ceil(fraction * n)
    if n_test >= n:
        return
    train, test = holdout(n, fraction, stratify=y, rng=seed)
    _assert_partition([(train, test)], n, tests_cover=False)
    assert test.size == n_test
    order = list(dict.fromkeys(y.tolist()))  # classes in order of first appearance
    counts = [int(np.count_nonzero(y == label)) for label in order]
    expected = reference.holdout_test_counts(counts, n_test)
    assert [int(np.count_nonzero(y[test] == label)) for label in order] == expected
    for label, share, count in zip(order, expected, counts, strict=True):
        quota = n_test * count / n
        assert math.floor(quota) <= share <= math.ceil(quota), label


def test_holdout_is_reproducible():
    assert np.array_equal(holdout(50, 0.3, rng=1)[1], holdout(50, 0.3, rng=1)[1])
    assert not np.array_equal(holdout(50, 0.3, rng=1)[1], holdout(50, 0.3, rng=2)[1])


def test_reference_holdout_counts_worked_example():
    # 10 rows, classes of 2 and 8, 3 test rows: quotas 0.6 and 2.4 -> 1 and 2
    assert reference.holdout_test_counts([2, 8], 3) == [1, 2]
    # quotas 1.5 and 1.5 tie: the first class gets the extra row
    assert reference.holdout_test_counts([5, 5], 3) == [2, 1]


# --- errors ---


@pytest.mark.parametrize("n_splits", [1, 0, 2.0, True, "3"])
def test_bad_n_splits(n_splits):
    for kind in (KFold, StratifiedKFold, RepeatedKFold, RepeatedStratifiedKFold):
        with pytest.raises(ValueError, match="`n_splits` must be an integer >= 2"):
            kind(n_splits)


def test_split_errors():
    with pytest.raises(ValueError, match="`n_splits`=6 is greater than the number of samples 5"):
        list(KFold(6).split(np.zeros(5)))
    with pytest.raises(ValueError, match="`n_splits`=6 is greater than the number of samples 5"):
        list(RepeatedKFold(6, 2, rng=0).split(np.zeros(5)))
    with pytest.raises(ValueError, match="`X` and `y` have different lengths: 5 and 4"):
        list(KFold(2).split(np.zeros(5), np.zeros(4)))
    with pytest.raises(ValueError, match="`X` and `y` have different lengths: 5 and 4"):
        list(StratifiedKFold(2).split(np.zeros(5), [0, 1, 0, 1]))
    with pytest.raises(ValueError, match="`rng` has no effect when `shuffle` is False"):
        KFold(3, rng=0)
    with pytest.raises(ValueError, match="`n_repeats` must be an integer >= 1; got 0"):
        RepeatedKFold(2, 0)
    with pytest.raises(ValueError, match="`y` is required for stratified splitting"):
        list(StratifiedKFold(2).split(np.zeros(4)))
    with pytest.raises(ValueError, match="`y` must be 1-D for stratified splitting"):
        list(StratifiedKFold(2).split(np.zeros(4), np.zeros((4, 2))))
    with pytest.raises(ValueError, match="`y` contains NaN or infinite values"):
        list(StratifiedKFold(2).split(np.zeros(4), [0.0, 1.0, np.nan, 1.0]))
    with pytest.raises(ValueError, match=r"greater than the number of members of every class"):
        list(StratifiedKFold(3).split(np.zeros(4), [0, 0, 1, 1]))
    with pytest.raises(ValueError, match="`X` is None"):
        list(KFold(2).split(None))
    with pytest.raises(ValueError, match="leave-one-out needs at least 2 samples; got 1"):
        list(LeaveOneOut().split(np.zeros(1)))
    with pytest.raises(ValueError, match="`X` is required: leave-one-out"):
        LeaveOneOut().get_n_splits()
    with pytest.raises(ValueError, match="`n_resamples` must be an integer >= 1; got 0"):
        BootstrapOutOfBag(0)
    with pytest.raises(ValueError, match="the bootstrap needs at least 2 samples; got 1"):
        list(BootstrapOutOfBag(3, rng=0).split(np.zeros(1)))
    with pytest.raises(ValueError, match="every class of `y` has a single row"):
        list(BootstrapOutOfBag(3, stratify=True, rng=0).split(np.zeros(3), [0, 1, 2]))
    with pytest.raises(ValueError, match="`rng` must be None, an integer"):
        KFold(3, shuffle=True, rng=-1)


@pytest.mark.parametrize(
    ("n", "test_size", "message"),
    [
        (10, 0.0, r"`test_size`=0.0 as a fraction must be in \(0, 1\)"),
        (10, 1.0, r"`test_size`=1.0 as a fraction must be in \(0, 1\)"),
        (10, 10, r"`test_size`=10 as a count must be in \[1, 9\]"),
        (10, 0, r"`test_size`=0 as a count must be in \[1, 9\]"),
        (10, 0.95, r"`test_size`=0.95 leaves no training sample out of 10"),
        (10, "half", "`test_size` must be a fraction in"),
        (10, True, "`test_size` must be a fraction in"),
        (1, 0.5, "`n` must be an integer >= 2; got 1"),
    ],
)
def test_holdout_errors(n, test_size, message):
    with pytest.raises(ValueError, match=message):
        holdout(n, test_size)


def test_holdout_stratify_length():
    with pytest.raises(ValueError, match="`stratify` has length 3 but `n` is 4"):
        holdout(4, 0.5, stratify=[0, 1, 0])


def test_repr_shows_the_seed():
    assert repr(KFold(3)) == "KFold(n_splits=3, shuffle=False, seed=None)"
    assert repr(RepeatedKFold(2, 5, rng=4)) == "RepeatedKFold(n_splits=2, n_repeats=5, seed=4)"
    assert "stratify=True" in repr(BootstrapOutOfBag(3, stratify=True, rng=1))

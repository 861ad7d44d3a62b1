"""Splitters: k-fold (plain, stratified, repeated) and leave-one-out; the holdout and the
bootstrap out-of-bag splitter are in :mod:`assay.protocols._holdout_bootstrap`.

Every splitter yields ``(train_index, test_index)`` pairs of int64 arrays through
``split(X, y=None, groups=None)`` and counts them with ``get_n_splits(...)``: the
protocol of scikit-learn's splitters, so an assay splitter can be passed as ``cv=`` to
scikit-learn too.  Test indices are sorted; training indices are sorted too, except for
the bootstrap, whose training set is a draw with replacement (in the order drawn).

Randomness: ``rng`` (None, a seed or a numpy Generator) is resolved once, when the
splitter is made, into a 64-bit seed (:attr:`seed`).  Repeat ``r`` (or bootstrap
resample ``r``) draws from its own numpy stream keyed by ``(seed, r)``, so every call to
``split`` gives the same splits, and repeat 0 of :class:`RepeatedKFold` is the split of
:class:`KFold` with ``shuffle=True`` and the same seed.

Folds (Stone 1974; Wu, "Evaluation", section 1.4, eqs. 6-8): the folds are disjoint,
their union is the data, and their sizes differ by at most one: the first ``n % k``
folds get ``n // k + 1`` rows, the others ``n // k`` (scikit-learn's rule).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

from assay._procedure_checks import check_integer
from assay._validation import few_distinct_values, format_values, resolve_seed
from assay.exceptions import DegenerateDataWarning

__all__ = [
    "KFold",
    "LeaveOneOut",
    "RepeatedKFold",
    "RepeatedStratifiedKFold",
    "StratifiedKFold",
]

# Integer labels with at most this many classes skip the sort of np.unique.
_FEW_CLASSES = 64


def _stream(seed: int, index: int) -> np.random.Generator:
    """The numpy random stream of repeat (or resample) ``index`` under ``seed``."""
    return np.random.default_rng(np.random.SeedSequence([seed, index]))


def _n_samples(X: Any, y: Any = None) -> int:
    """Number of rows of ``X`` (checked against ``y`` when it is given)."""
    if X is None:
        if y is None:
            raise ValueError("`X` is None; pass the data (or at least `y`) to split.")
        X = y
    n = int(X.shape[0]) if hasattr(X, "shape") and len(X.shape) > 0 else len(X)
    if y is not None:
        n_y = int(y.shape[0]) if hasattr(y, "shape") and len(y.shape) > 0 else len(y)
        if n_y != n:
            raise ValueError(f"`X` and `y` have different lengths: {n} and {n_y}.")
    return n


def _labels(y: Any, n: int | None = None) -> np.ndarray:
    """Class codes 0..c-1 of ``y`` in order of first appearance (scikit-learn's order)."""
    if y is None:
        raise ValueError("`y` is required for stratified splitting; got None.")
    labels = np.asarray(y)
    if labels.ndim == 2 and labels.shape[1] == 1:
        labels = labels.ravel()
    if labels.ndim != 1:
        raise ValueError(f"`y` must be 1-D for stratified splitting; got shape {labels.shape}.")
    if n is not None and labels.shape[0] != n:
        raise ValueError(f"`X` and `y` have different lengths: {n} and {labels.shape[0]}.")
    if labels.dtype.kind == "f" and not np.all(np.isfinite(labels)):
        raise ValueError("`y` contains NaN or infinite values; class labels must be finite.")
    if labels.dtype.kind in "biu" and labels.shape[0] > 0:
        classes = few_distinct_values(labels, _FEW_CLASSES)
        if classes is not None:  # fast path: a few integer classes, no sort of the rows
            firsts = np.array([int(np.argmax(labels == value)) for value in classes])
            rank = np.argsort(np.argsort(firsts, kind="stable"), kind="stable")
            positions = np.searchsorted(classes, labels)
            return rank.astype(np.int64)[positions]
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    order = np.argsort(np.argsort(first, kind="stable"), kind="stable")
    return order[inverse.ravel()].astype(np.int64)


def _stratified_fold_of(
    codes: np.ndarray, n_splits: int, stream: np.random.Generator | None
) -> np.ndarray:
    """Fold number of every row: classes dealt round robin, then contiguous blocks.

    Sorting the rows by class and dealing the sorted list to the folds like cards
    (position ``p`` goes to fold ``p % k``) fixes how many rows of each class every
    fold gets: ``floor(n_c / k)`` or ``ceil(n_c / k)``, with fold sizes as in
    :class:`KFold`.  Within a class, the rows (in data order, or permuted by ``stream``)
    then fill fold 0's share, fold 1's share, and so on.
    """
    n_classes = int(codes.max()) + 1
    sorted_codes = np.sort(codes)
    positions = np.arange(codes.shape[0]) % n_splits
    cells = np.bincount(positions * n_classes + sorted_codes, minlength=n_splits * n_classes)
    allocation = cells.reshape(n_splits, n_classes)
    fold_of = np.empty(codes.shape[0], dtype=np.int64)
    for code in range(n_classes):
        members = np.flatnonzero(codes == code)
        if stream is not None:
            members = stream.permutation(members)
        fold_of[members] = np.repeat(np.arange(n_splits), allocation[:, code])
    return fold_of


def _folds_from_assignment(
    fold_of: np.ndarray, n_splits: int
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``(train, test)`` per fold; both sorted int64."""
    for fold in range(n_splits):
        in_test = fold_of == fold
        yield (
            np.flatnonzero(~in_test).astype(np.int64, copy=False),
            np.flatnonzero(in_test).astype(np.int64, copy=False),
        )


def _kfold_assignment(n: int, n_splits: int, stream: np.random.Generator | None) -> np.ndarray:
    """Fold number of every row: contiguous blocks of the (permuted) rows."""
    sizes = np.full(n_splits, n // n_splits, dtype=np.int64)
    sizes[: n % n_splits] += 1
    blocks = np.repeat(np.arange(n_splits, dtype=np.int64), sizes)
    order = np.arange(n) if stream is None else stream.permutation(n)
    fold_of = np.empty(n, dtype=np.int64)
    fold_of[order] = blocks
    return fold_of


def _check_folds_vs_rows(n_splits: int, n: int) -> None:
    if n_splits > n:
        raise ValueError(
            f"`n_splits`={n_splits} is greater than the number of samples {n}; "
            "every fold needs at least one sample."
        )


def _check_folds_vs_classes(codes: np.ndarray, n_splits: int, stacklevel: int) -> None:
    """Error when every class is smaller than ``n_splits``; warning when one is."""
    counts = np.bincount(codes)
    if np.all(counts < n_splits):
        raise ValueError(
            f"`n_splits`={n_splits} is greater than the number of members of every class "
            f"(class sizes {format_values(counts)}); use fewer folds."
        )
    if counts.min() < n_splits:
        warnings.warn(
            f"The smallest class has only {int(counts.min())} members, fewer than "
            f"`n_splits`={n_splits}: some test folds have no member of that class.",
            DegenerateDataWarning,
            stacklevel=stacklevel,
        )


class _Splitter:
    """Shared ``repr`` and seed handling."""

    seed: int | None

    def __repr__(self) -> str:
        fields = ", ".join(f"{key}={value!r}" for key, value in self._params().items())
        return f"{type(self).__name__}({fields})"

    def _params(self) -> dict[str, Any]:
        return {}


class KFold(_Splitter):
    """k-fold cross-validation: k disjoint folds of (nearly) equal size.

    Parameters
    ----------
    n_splits : int, default=5
        Number of folds, at least 2.
    shuffle : bool, default=False
        Permute the rows before cutting them into contiguous folds.  Without it the
        folds are contiguous blocks in data order (as in scikit-learn).
    rng : None, int or numpy.random.Generator, default=None
        Seed of the permutation (only with ``shuffle=True``), resolved once when the
        splitter is made: every call to :meth:`split` gives the same folds.

    Raises
    ------
    ValueError
        ``n_splits`` not an integer >= 2; ``rng`` given with ``shuffle=False``;
        :meth:`split` with more folds than rows, or ``X`` and ``y`` of different
        lengths.

    Notes
    -----
    Wu, "Evaluation", section 1.4 (eqs. 6-8 and Algorithm 1): the folds are disjoint,
    cover the data, and have sizes ``n // k + 1`` (the first ``n % k`` folds) or
    ``n // k``.
    Every row is tested exactly once and used ``k - 1`` times for training.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.protocols import KFold
    >>> [test.tolist() for _, test in KFold(3).split(np.zeros(7))]
    [[0, 1, 2], [3, 4], [5, 6]]
    """

    def __init__(self, n_splits: int = 5, *, shuffle: bool = False, rng: Any = None) -> None:
        self.n_splits = check_integer(n_splits, "n_splits", 2)
        self.shuffle = bool(shuffle)
        if not self.shuffle and rng is not None:
            raise ValueError(
                "`rng` has no effect when `shuffle` is False; pass shuffle=True or rng=None."
            )
        self.seed = resolve_seed(rng) if self.shuffle else None

    def _params(self) -> dict[str, Any]:
        return {"n_splits": self.n_splits, "shuffle": self.shuffle, "seed": self.seed}

    def _assignment(self, X: Any, y: Any) -> np.ndarray:
        n = _n_samples(X, y)
        _check_folds_vs_rows(self.n_splits, n)
        stream = _stream(self.seed, 0) if self.seed is not None else None
        return _kfold_assignment(n, self.n_splits, stream)

    def split(
        self, X: Any, y: Any = None, groups: Any = None
    ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Yield ``(train_index, test_index)`` for each fold (int64, sorted)."""
        yield from _folds_from_assignment(self._assignment(X, y), self.n_splits)

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        """Number of splits: ``n_splits``."""
        return self.n_splits


class StratifiedKFold(KFold):
    """Stratified k-fold: every fold keeps the class proportions of ``y`` as closely as
    whole rows allow.

    Parameters
    ----------
    n_splits : int, default=5
        Number of folds, at least 2.
    shuffle : bool, default=False
        Permute the rows of each class before they are dealt to the folds.
    rng : None, int or numpy.random.Generator, default=None
        Seed of the permutations (only with ``shuffle=True``), resolved once.

    Raises
    ------
    ValueError
        As :class:`KFold`; ``y`` missing, not 1-D or not finite; ``n_splits`` larger
        than every class.

    Warns
    -----
    DegenerateDataWarning
        A class has fewer members than ``n_splits`` (some test folds lack it).

    Notes
    -----
    A class of ``n_c`` rows puts ``floor(n_c / k)`` or ``ceil(n_c / k)`` rows in every
    fold, and the fold sizes are those of :class:`KFold`.  The shares come from sorting
    the rows by class (classes in order of first appearance in ``y``) and dealing them
    to the folds round robin, so the remainder of one class starts where the previous
    class's remainder stopped; within a class, the rows fill the folds in contiguous
    blocks (stratification: Kohavi 1995).  Wu, "Evaluation", exercise 8: with labels
    1, 1, 2, 2, 2, 2, 2, 2, 2, 2 and two folds, each fold always holds exactly one
    example of class 1.

    This is the allocation of scikit-learn's ``StratifiedKFold`` (since 0.22): without
    shuffling the folds are identical to scikit-learn's.  With shuffling they differ:
    scikit-learn shuffles each class's *fold labels* with its own random state, assay
    permutes each class's *rows* with the stream keyed by ``(seed, 0)``.  Unlike
    scikit-learn, which warns with a ``UserWarning``, assay warns with
    :class:`~assay.DegenerateDataWarning`.

    Examples
    --------
    >>> from assay.protocols import StratifiedKFold
    >>> y = [1, 1, 2, 2, 2, 2, 2, 2, 2, 2]
    >>> splitter = StratifiedKFold(2, shuffle=True, rng=7)
    >>> [sorted(y[i] for i in test) for _, test in splitter.split(y, y)]
    [[1, 2, 2, 2, 2], [1, 2, 2, 2, 2]]
    """

    def _assignment(self, X: Any, y: Any) -> np.ndarray:
        n = _n_samples(X, None)
        codes = _labels(y, n)
        _check_folds_vs_rows(self.n_splits, n)
        # the warning points at the caller of split(): _check <- _assignment <- split
        _check_folds_vs_classes(codes, self.n_splits, stacklevel=4)
        stream = _stream(self.seed, 0) if self.seed is not None else None
        return _stratified_fold_of(codes, self.n_splits, stream)


class RepeatedKFold(_Splitter):
    """k-fold cross-validation repeated with a new random permutation each time.

    Parameters
    ----------
    n_splits : int, default=5
        Folds per repeat, at least 2.
    n_repeats : int, default=10
        Number of repeats, at least 1.
    rng : None, int or numpy.random.Generator, default=None
        Seed, resolved once; repeat ``r`` permutes the rows with the stream keyed by
        ``(seed, r)``.

    Raises
    ------
    ValueError
        ``n_splits`` < 2, ``n_repeats`` < 1; in :meth:`split`, as :class:`KFold`.

    Notes
    -----
    Wu, "Evaluation", section 1.4: "a commonly used CV schedule is 10 times average of
    10-fold cross-validation".  The splits come repeat by repeat: splits
    ``r * k`` to ``r * k + k - 1`` are the folds of repeat ``r``.  With ``n_splits=2``
    and ``n_repeats=5`` this is the 5x2cv design of Dietterich (1998).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.protocols import RepeatedKFold
    >>> splitter = RepeatedKFold(2, n_repeats=3, rng=0)
    >>> splitter.get_n_splits()
    6
    >>> all(len(test) == 2 for _, test in splitter.split(np.zeros(4)))
    True
    """

    _stratified = False

    def __init__(self, n_splits: int = 5, n_repeats: int = 10, *, rng: Any = None) -> None:
        self.n_splits = check_integer(n_splits, "n_splits", 2)
        self.n_repeats = check_integer(n_repeats, "n_repeats", 1)
        self.seed = resolve_seed(rng)

    def _params(self) -> dict[str, Any]:
        return {"n_splits": self.n_splits, "n_repeats": self.n_repeats, "seed": self.seed}

    def split(
        self, X: Any, y: Any = None, groups: Any = None
    ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Yield ``(train_index, test_index)``: the k folds of repeat 0, then repeat 1, ..."""
        assert self.seed is not None
        if self._stratified:
            n = _n_samples(X, None)
            codes = _labels(y, n)
            _check_folds_vs_rows(self.n_splits, n)
            _check_folds_vs_classes(codes, self.n_splits, stacklevel=3)
        else:
            n = _n_samples(X, y)
            _check_folds_vs_rows(self.n_splits, n)
        for repeat in range(self.n_repeats):
            stream = _stream(self.seed, repeat)
            if self._stratified:
                fold_of = _stratified_fold_of(codes, self.n_splits, stream)
            else:
                fold_of = _kfold_assignment(n, self.n_splits, stream)
            yield from _folds_from_assignment(fold_of, self.n_splits)

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        """Number of splits: ``n_splits * n_repeats``."""
        return self.n_splits * self.n_repeats


class RepeatedStratifiedKFold(RepeatedKFold):
    """Stratified k-fold repeated with new random permutations of each class.

    Parameters
    ----------
    n_splits : int, default=5
        Folds per repeat, at least 2.
    n_repeats : int, default=10
        Number of repeats, at least 1.
    rng : None, int or numpy.random.Generator, default=None
        Seed, resolved once; repeat ``r`` uses the stream keyed by ``(seed, r)``.

    Raises
    ------
    ValueError
        As :class:`RepeatedKFold` and :class:`StratifiedKFold`.

    Warns
    -----
    DegenerateDataWarning
        A class has fewer members than ``n_splits``.

    Notes
    -----
    Each repeat is a :class:`StratifiedKFold` with ``shuffle=True``; repeat 0 equals
    ``StratifiedKFold(n_splits, shuffle=True, rng=seed)``.

    Examples
    --------
    >>> from assay.protocols import RepeatedStratifiedKFold
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1]
    >>> splitter = RepeatedStratifiedKFold(2, n_repeats=5, rng=3)
    >>> {sum(y[i] for i in test) for _, test in splitter.split(y, y)}
    {2}
    """

    _stratified = True


class LeaveOneOut(_Splitter):
    """Leave-one-out: n splits, each testing one row on a model trained on the others.

    Raises
    ------
    ValueError
        :meth:`split` with fewer than 2 rows.

    Notes
    -----
    k-fold cross-validation with ``k = n`` ("Estimation of the hypothesis real risk",
    "the estimate by the leave-one-out method"; Gama, "Evaluation of classification and
    regression algorithms", "Leave-One-Out").  Its estimate of the error is often more
    variable than that of 5- or 10-fold cross-validation (Kohavi 1995; "Estimation of
    the hypothesis real risk").
    A one-row test fold cannot be stratified, and ranking metrics (AUC) are undefined
    on it: pool the out-of-fold scores instead (:func:`cross_validate`'s
    ``oof_score``).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.protocols import LeaveOneOut
    >>> [(train.tolist(), test.tolist()) for train, test in LeaveOneOut().split(np.zeros(3))]
    [([1, 2], [0]), ([0, 2], [1]), ([0, 1], [2])]
    """

    seed = None

    def split(
        self, X: Any, y: Any = None, groups: Any = None
    ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Yield ``(train_index, test_index)`` with ``test_index = [i]``."""
        n = _n_samples(X, y)
        if n < 2:
            raise ValueError(f"leave-one-out needs at least 2 samples; got {n}.")
        everything = np.arange(n, dtype=np.int64)
        for row in range(n):
            yield np.delete(everything, row), everything[row : row + 1].copy()

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        """Number of splits: the number of rows of ``X`` (required)."""
        if X is None:
            raise ValueError("`X` is required: leave-one-out makes one split per row.")
        return _n_samples(X, y)

"""The splits that are not folds: the bootstrap with its out-of-bag rows, and the holdout.

Both follow the conventions of :mod:`assay.protocols._splitters`: indices are int64
arrays, test indices sorted, and randomness comes from the numpy stream keyed by
``(seed, r)`` of a seed resolved once.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator
from typing import Any, overload

import numpy as np

from assay._procedure_checks import check_integer
from assay._validation import resolve_seed
from assay.protocols._splitters import _labels, _n_samples, _Splitter, _stream

__all__ = ["BootstrapOutOfBag", "holdout"]

# A bootstrap draw whose out-of-bag set is empty is redrawn at most this many times;
# for n >= 2 rows the chance of that many empty draws in a row is below 2**-1000.
_MAX_REDRAWS = 1000


class BootstrapOutOfBag(_Splitter):
    """Bootstrap resamples for training, their out-of-bag rows for testing.

    Parameters
    ----------
    n_resamples : int, default=200
        Number of resamples (splits), at least 1.
    stratify : bool, default=False
        Draw each class's rows with replacement from that class (``n_c`` draws), so
        every training set keeps the class counts of ``y`` exactly.
    rng : None, int or numpy.random.Generator, default=None
        Seed, resolved once; resample ``r`` draws from the stream keyed by ``(seed, r)``.

    Raises
    ------
    ValueError
        ``n_resamples`` < 1; in :meth:`split`, fewer than 2 rows, ``stratify=True``
        with every class a single row (the out-of-bag set would always be empty), or
        ``X`` and ``y`` of different lengths.

    Notes
    -----
    Training set: ``n`` draws with replacement ("Estimation of the hypothesis real
    risk", "bootstrap"; Gama, "Evaluation of classification and regression algorithms":
    "the train set is augmented by including some cases more than once"), returned
    in the order drawn, so indices repeat.  Test set: the rows never drawn (the
    out-of-bag rows, about ``(1 - 1/n)^n ~ 36.8 %`` of them), sorted.

    An empty out-of-bag set (probability ``n! / n^n`` for a plain resample: 1/2 at
    ``n = 2``, 2/9 at ``n = 3``, below 1e-4 from ``n = 12``) has nothing to test: the
    resample is then redrawn from the same stream, so the splits are draws *conditional*
    on a non-empty test set, and every split has one.  This is the convention of
    Efron & Tibshirani's leave-one-out bootstrap, which averages only over resamples
    that leave a row out.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.protocols import BootstrapOutOfBag
    >>> splitter = BootstrapOutOfBag(3, rng=1)
    >>> for train, test in splitter.split(np.zeros(6)):
    ...     assert len(train) == 6 and not set(train) & set(test) and len(test) > 0
    """

    def __init__(self, n_resamples: int = 200, *, stratify: bool = False, rng: Any = None) -> None:
        self.n_resamples = check_integer(n_resamples, "n_resamples", 1)
        self.stratify = bool(stratify)
        self.seed = resolve_seed(rng)

    def _params(self) -> dict[str, Any]:
        return {"n_resamples": self.n_resamples, "stratify": self.stratify, "seed": self.seed}

    def split(
        self, X: Any, y: Any = None, groups: Any = None
    ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Yield ``(train_index, test_index)``: the draw and its out-of-bag rows."""
        assert self.seed is not None
        if self.stratify:
            n = _n_samples(X, None)
            codes = _labels(y, n)
            members = [np.flatnonzero(codes == code) for code in range(int(codes.max()) + 1)]
            if all(group.shape[0] == 1 for group in members):
                raise ValueError(
                    "stratified bootstrap: every class of `y` has a single row, so the "
                    "out-of-bag set is always empty; use stratify=False."
                )
        else:
            n = _n_samples(X, y)
            members = [np.arange(n, dtype=np.int64)]
        if n < 2:
            raise ValueError(f"the bootstrap needs at least 2 samples; got {n}.")
        for resample in range(self.n_resamples):
            stream = _stream(self.seed, resample)
            for _ in range(_MAX_REDRAWS):
                train = np.concatenate(
                    [
                        group[stream.integers(0, group.shape[0], group.shape[0])]
                        for group in members
                    ]
                ).astype(np.int64)
                drawn = np.zeros(n, dtype=bool)
                drawn[train] = True
                if not drawn.all():
                    break
            else:  # pragma: no cover - probability below 2**-1000
                raise RuntimeError("could not draw a bootstrap resample with out-of-bag rows.")
            yield train, np.flatnonzero(~drawn).astype(np.int64)

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        """Number of splits: ``n_resamples``."""
        return self.n_resamples


def _test_count(n: int, test_size: Any, name: str = "test_size") -> int:
    """Rows for ``test_size`` (scikit-learn's ``train_test_split`` rounding)."""
    what = "test" if name == "test_size" else "validation"
    if isinstance(test_size, numbers.Integral) and not isinstance(test_size, bool):
        if not 1 <= int(test_size) < n:
            raise ValueError(
                f"`{name}`={test_size!r} as a count must be in [1, {n - 1}] "
                f"(positive and smaller than the number of samples {n})."
            )
        return int(test_size)
    if isinstance(test_size, numbers.Real) and not isinstance(test_size, bool):
        if not 0.0 < float(test_size) < 1.0:
            raise ValueError(f"`{name}`={test_size!r} as a fraction must be in (0, 1).")
        n_test = int(np.ceil(float(test_size) * n))
        if n_test >= n:
            raise ValueError(
                f"`{name}`={test_size!r} leaves no training sample out of {n} "
                f"(ceil({test_size!r} * {n}) = {n_test} {what} samples)."
            )
        return n_test
    raise ValueError(
        f"`{name}` must be a fraction in (0, 1) or a count of samples; got {test_size!r}."
    )


def _largest_remainder(counts: np.ndarray, total: int) -> np.ndarray:
    """Integers proportional to ``counts`` summing to ``total`` (Hamilton's method).

    Each class gets ``floor(q_c)`` of its quota ``q_c = total * n_c / n`` and the units
    left go to the largest remainders, ties to the class that appears first.  Quotas
    are exact rationals (integer arithmetic), so no rounding decides a tie.
    """
    n = int(counts.sum())
    numerators = counts.astype(object) * total  # exact: q_c = numerator / n
    shares = np.array([int(value // n) for value in numerators], dtype=np.int64)
    remainders = np.array([int(value % n) for value in numerators], dtype=np.int64)
    left = total - int(shares.sum())
    order = np.argsort(-remainders, kind="stable")
    shares[order[:left]] += 1
    return shares


@overload
def holdout(
    n: int,
    test_size: float | int,
    *,
    validation_size: None = None,
    stratify: Any = None,
    rng: Any = None,
) -> tuple[np.ndarray, np.ndarray]: ...


@overload
def holdout(
    n: int,
    test_size: float | int,
    *,
    validation_size: float | int,
    stratify: Any = None,
    rng: Any = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...


def holdout(
    n: int,
    test_size: float | int,
    *,
    validation_size: float | int | None = None,
    stratify: Any = None,
    rng: Any = None,
) -> tuple[np.ndarray, np.ndarray] | tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random train/test split of ``n`` rows (the holdout method), or train/validation/test.

    Parameters
    ----------
    n : int
        Number of rows, at least 2.
    test_size : float or int
        A fraction in (0, 1) of the rows, or a count in ``[1, n - 1]``.  A fraction
        gives ``ceil(test_size * n)`` test rows, as scikit-learn's
        ``train_test_split`` (the training set gets the rest).
    validation_size : float or int, optional
        Also set aside a validation set (a three-way split): a fraction in (0, 1) of
        all ``n`` rows (``ceil(validation_size * n)`` rows) or a count, taken from the
        rows left after the test set was drawn.  Training, validation and test sets
        are disjoint and the training set keeps at least one row.
    stratify : array-like of shape (n,), optional
        Class labels: the test set (and the validation set) take from each class a
        share proportional to its size (see Notes).
    rng : None, int or numpy.random.Generator, default=None
        Seed of the random choice.

    Returns
    -------
    train_index, test_index : numpy.ndarray of int64
        Disjoint, sorted, together ``0 .. n - 1`` (without ``validation_size``).
    train_index, validation_index, test_index : numpy.ndarray of int64
        With ``validation_size``: disjoint, sorted, together ``0 .. n - 1``.

    Raises
    ------
    ValueError
        ``n`` not an integer >= 2 (>= 3 with a validation set); ``test_size`` or
        ``validation_size`` out of range or of the wrong type, or the two together
        leaving no training row; ``stratify`` of the wrong length.

    Notes
    -----
    Gama, "Evaluation of classification and regression algorithms", "Method train and
    test (holdout)": train on a part (e.g. 70 %), test on the rest; "stratified
    selection is better".  With ``stratify``, class ``c``
    (``n_c`` rows) gives the test set ``floor(q_c)`` or ``ceil(q_c)`` rows, where
    ``q_c = n_test * n_c / n``: the largest-remainder (Hamilton) allocation, ties to the
    class that appears first; the chosen rows are a uniform random subset of the
    class.  scikit-learn (``StratifiedShuffleSplit``) also allocates floor-or-ceil
    shares but breaks ties at random.  A small class can thus end up with no test row
    (when ``q_c < 1/2`` roughly).

    The three-way split (Wu, "Evaluation", section 1.3: "randomly split the set of all
    available data into three disjoint sets", e.g. ``n/10`` for testing, ``n/10`` for
    validation and the rest for training) first draws the test set exactly as the
    two-way split does, with the same stream, and then the validation set from the
    remaining rows, continuing the stream: the test set of
    ``holdout(n, t, validation_size=v, rng=s)`` is that of ``holdout(n, t, rng=s)``.
    With ``stratify``, the validation rows are allocated by the same largest-remainder
    rule over the class counts left after the test draw.

    Examples
    --------
    >>> from assay.protocols import holdout
    >>> train, test = holdout(10, 0.25, rng=0)
    >>> len(train), len(test)
    (7, 3)
    >>> train, validation, test = holdout(20, 0.1, validation_size=0.1, rng=0)
    >>> len(train), len(validation), len(test)
    (16, 2, 2)
    """
    n = check_integer(n, "n", 2)
    n_test = _test_count(n, test_size)
    n_validation = None
    if validation_size is not None:
        n_validation = _test_count(n, validation_size, "validation_size")
        if n_test + n_validation >= n:
            raise ValueError(
                f"`test_size`={test_size!r} and `validation_size`={validation_size!r} "
                f"leave no training sample out of {n} ({n_test} test and {n_validation} "
                "validation samples)."
            )
    stream = np.random.default_rng(resolve_seed(rng))
    in_test = np.zeros(n, dtype=bool)
    codes = None
    if stratify is None:
        in_test[stream.permutation(n)[:n_test]] = True
    else:
        codes = _labels(stratify)
        if codes.shape[0] != n:
            raise ValueError(f"`stratify` has length {codes.shape[0]} but `n` is {n}.")
        shares = _largest_remainder(np.bincount(codes), n_test)
        for code, share in enumerate(shares):
            members = np.flatnonzero(codes == code)
            in_test[stream.permutation(members)[:share]] = True
    test_index = np.flatnonzero(in_test).astype(np.int64)
    if n_validation is None:
        return np.flatnonzero(~in_test).astype(np.int64), test_index
    # the validation rows come from the rest, drawn after the test rows on the same stream
    in_validation = np.zeros(n, dtype=bool)
    rest = np.flatnonzero(~in_test)
    if codes is None:
        in_validation[stream.permutation(rest)[:n_validation]] = True
    else:
        left = np.bincount(codes[rest], minlength=int(codes.max()) + 1)
        shares = _largest_remainder(left, n_validation)
        for code, share in enumerate(shares):
            members = rest[codes[rest] == code]
            in_validation[stream.permutation(members)[:share]] = True
    train_index = np.flatnonzero(~in_test & ~in_validation).astype(np.int64)
    return train_index, np.flatnonzero(in_validation).astype(np.int64), test_index

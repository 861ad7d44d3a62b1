"""Results of the comparisons of many models over many data sets (Friedman, post-hoc)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import numpy as np

from assay._results import _summary
from assay._results._base import (
    _format_field,
    _ResultMixin,
)

# --- Results of the comparisons of many models over many data sets (Friedman, post-hoc). ---


def _read_only_array(values: Any, dtype: type) -> np.ndarray:
    """A read-only copy of ``values`` with its shape kept (1-D or 2-D)."""
    array: np.ndarray = np.array(values, dtype=dtype, copy=True)
    array.flags.writeable = False
    return array


def _format_rank_field(value: Any) -> str:
    """Like ``_format_field``, but a 2-D or boolean array is shown by its shape."""
    if isinstance(value, np.ndarray) and (value.ndim != 1 or value.dtype == np.bool_):
        return f"array(shape={value.shape}, dtype={value.dtype})"
    return _format_field(value)


class _RankResultMixin(_ResultMixin):
    """``repr`` that summarises matrices; ``to_dict`` as for every result."""

    _format_value = staticmethod(_format_rank_field)


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class FriedmanResult(_RankResultMixin):
    """Friedman test of k models over N data sets, with the Iman-Davenport F.

    Unpacks like scipy's test results: ``statistic, pvalue = result`` (the
    chi-squared statistic and its p-value).

    Attributes
    ----------
    statistic : float
        Friedman's ``chi^2_F`` (tie-corrected when ``tie_correction``; NaN when
        undefined).
    pvalue : float
        ``P(chi^2_{k-1} >= statistic)``.
    df : float
        ``k - 1``.
    iman_davenport_statistic : float
        ``F_F = (N - 1) chi^2_F / (N (k - 1) - chi^2_F)`` (NaN when undefined).
    iman_davenport_pvalue : float
        ``P(F_{k-1, (k-1)(N-1)} >= F_F)``.
    iman_davenport_df : tuple of two floats
        ``(k - 1, (k - 1)(N - 1))``.
    average_ranks : numpy.ndarray of shape (n_models,)
        ``R_j``, the mean over the data sets of each model's rank (1 = best).
    ranks : numpy.ndarray of shape (n_datasets, n_models)
        The rank of each model on each data set (midranks for ties).
    n_datasets : int
        ``N``, the number of data sets (rows).
    n_models : int
        ``k``, the number of models (columns).
    model_names : tuple of str
        The names of the models, in column order.
    higher_is_better : bool
        Whether the highest score was ranked first.
    tie_correction : bool
        Whether ``chi^2_F`` was divided by the tie correction factor.
    method : str
        ``'Friedman'`` or ``'Friedman, tie-corrected'``.

    Notes
    -----
    Frozen: fields cannot be reassigned and the arrays are read-only.  Results
    compare by identity.
    """

    statistic: float
    pvalue: float
    df: float
    iman_davenport_statistic: float
    iman_davenport_pvalue: float
    iman_davenport_df: tuple[float, float]
    average_ranks: np.ndarray
    ranks: np.ndarray
    n_datasets: int
    n_models: int
    model_names: tuple[str, ...]
    higher_is_better: bool
    tie_correction: bool
    method: str

    def __post_init__(self) -> None:
        self._normalise(
            floats=("statistic", "pvalue", "df", "iman_davenport_statistic"),
            ints=("n_datasets", "n_models"),
            strings=("method",),
            arrays=("average_ranks",),
        )
        object.__setattr__(self, "iman_davenport_pvalue", float(self.iman_davenport_pvalue))
        object.__setattr__(
            self, "iman_davenport_df", tuple(float(value) for value in self.iman_davenport_df)
        )
        object.__setattr__(self, "ranks", _read_only_array(self.ranks, np.float64))
        object.__setattr__(self, "model_names", tuple(str(name) for name in self.model_names))
        object.__setattr__(self, "higher_is_better", bool(self.higher_is_better))
        object.__setattr__(self, "tie_correction", bool(self.tie_correction))

    def __iter__(self) -> Iterator[float]:
        """``statistic, pvalue = result``, as with scipy's test results."""
        return iter((self.statistic, self.pvalue))

    def __str__(self) -> str:
        """``Friedman test: chi2(3) = 9.28, p = 0.0258; Iman-Davenport F(3, 39) = 3.69,
        p = 0.0197 (4 models, 14 data sets)``."""
        corrected = " (tie-corrected)" if self.tie_correction else ""
        df = _summary.statistic_symbol("F-test", self.iman_davenport_df)
        return (
            f"Friedman test{corrected}: chi2({self.df:g}) = {_summary.short(self.statistic)}, "
            f"p = {_summary.short(self.pvalue)}; Iman-Davenport {df} = "
            f"{_summary.short(self.iman_davenport_statistic)}, "
            f"p = {_summary.short(self.iman_davenport_pvalue)} "
            f"({self.n_models} models, {self.n_datasets} data sets)"
        )


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class PosthocResult(_RankResultMixin):
    """Post-hoc comparison of average ranks: Nemenyi (all pairs) or Bonferroni-Dunn.

    For ``method='nemenyi'`` the comparison fields are (k, k) matrices indexed by
    pairs of models; for ``method='bonferroni-dunn'`` they are (k,) vectors, entry
    ``j`` comparing model ``j`` with the control.  Entries that are no comparison
    (the diagonal, the control itself) are NaN (False in boolean fields).

    Attributes
    ----------
    method : str
        ``'nemenyi'`` or ``'bonferroni-dunn'``.
    alpha : float
        Family-wise significance level.
    average_ranks : numpy.ndarray of shape (n_models,)
        Average rank of each model (1 = best).
    model_names : tuple of str
        The names of the models, in column order.
    n_datasets : int
        ``N``, the number of data sets.
    n_models : int
        ``k``, the number of models.
    control : int or None
        Index of the control model (Bonferroni-Dunn), None for Nemenyi.
    critical_value : float
        ``q_alpha``: the studentized range quantile over ``sqrt(2)`` (Nemenyi) or the
        normal quantile ``z_{1 - alpha / (2 (k - 1))}`` (Bonferroni-Dunn).
    standard_error : float
        ``sqrt(k (k + 1) / (6 N))``, the standard error of a difference of average
        ranks.
    critical_difference : float
        ``CD = critical_value * standard_error``.
    z_statistic : numpy.ndarray
        Nemenyi: ``(R_i - R_j) / SE`` at ``[i, j]``; Bonferroni-Dunn:
        ``(R_control - R_j) / SE`` at ``[j]`` (positive when ``j`` ranks better).
    pvalues : numpy.ndarray
        Unadjusted two-sided normal p-values ``2 P(Z >= |z|)`` of each comparison.
    adjusted_pvalues : numpy.ndarray
        Family-wise adjusted p-values: the studentized range p-value of
        ``|z| sqrt(2)`` (Nemenyi) or ``min(1, (k - 1) p)`` (Bonferroni-Dunn).
    significant : numpy.ndarray of bool
        ``|R_i - R_j| >= critical_difference`` (equivalently, adjusted p-value
        ``<= alpha``).
    significant_pairs : tuple of (int, int)
        The significant comparisons as ``(i, j)`` pairs with ``i < j``.
    significant_pair_names : tuple of (str, str)
        The same pairs by model name: ``(model_names[i], model_names[j])``.
    cliques : tuple of tuple of int or None
        Nemenyi: the maximal groups of models (ordered by average rank, best first)
        in which no two differ significantly, each of two or more models (the bars
        of a critical difference diagram).  None for Bonferroni-Dunn.
    holm_adjusted_pvalues : numpy.ndarray or None
        Bonferroni-Dunn only: Holm's step-down adjusted p-values of the ``k - 1``
        comparisons with the control (Demsar 2006, section 3.2.2).
    holm_significant : numpy.ndarray of bool or None
        Bonferroni-Dunn only: ``holm_adjusted_pvalues <= alpha``.
    higher_is_better : bool
        Whether the highest score was ranked first.

    Notes
    -----
    Frozen: fields cannot be reassigned and the arrays are read-only.  Results
    compare by identity.
    """

    method: str
    alpha: float
    average_ranks: np.ndarray
    model_names: tuple[str, ...]
    n_datasets: int
    n_models: int
    control: int | None
    critical_value: float
    standard_error: float
    critical_difference: float
    z_statistic: np.ndarray
    pvalues: np.ndarray
    adjusted_pvalues: np.ndarray
    significant: np.ndarray
    significant_pairs: tuple[tuple[int, int], ...]
    significant_pair_names: tuple[tuple[str, str], ...] = dataclasses.field(init=False)
    cliques: tuple[tuple[int, ...], ...] | None
    holm_adjusted_pvalues: np.ndarray | None
    holm_significant: np.ndarray | None
    higher_is_better: bool

    def __post_init__(self) -> None:
        self._normalise(
            floats=("alpha", "critical_value", "standard_error", "critical_difference"),
            ints=("n_datasets", "n_models"),
            strings=("method",),
            arrays=("average_ranks",),
        )
        for name in ("z_statistic", "pvalues", "adjusted_pvalues"):
            object.__setattr__(self, name, _read_only_array(getattr(self, name), np.float64))
        object.__setattr__(self, "significant", _read_only_array(self.significant, np.bool_))
        if self.holm_adjusted_pvalues is not None:
            object.__setattr__(
                self,
                "holm_adjusted_pvalues",
                _read_only_array(self.holm_adjusted_pvalues, np.float64),
            )
        if self.holm_significant is not None:
            object.__setattr__(
                self, "holm_significant", _read_only_array(self.holm_significant, np.bool_)
            )
        object.__setattr__(self, "model_names", tuple(str(name) for name in self.model_names))
        object.__setattr__(self, "control", None if self.control is None else int(self.control))
        object.__setattr__(
            self,
            "significant_pairs",
            tuple((int(i), int(j)) for i, j in self.significant_pairs),
        )
        object.__setattr__(
            self,
            "significant_pair_names",
            tuple((self.model_names[i], self.model_names[j]) for i, j in self.significant_pairs),
        )
        if self.cliques is not None:
            object.__setattr__(
                self,
                "cliques",
                tuple(tuple(int(member) for member in clique) for clique in self.cliques),
            )
        object.__setattr__(self, "higher_is_better", bool(self.higher_is_better))

    def __str__(self) -> str:
        """``Nemenyi test (alpha = 0.05): CD = 1.48, 1 significant pair: a vs c
        (3 models, 5 data sets)``."""
        if self.control is None:
            test = "Nemenyi test"
        else:
            test = f"Bonferroni-Dunn test against {self.model_names[self.control]}"
        pairs = self.significant_pair_names
        found = (
            f"{_summary.plural(len(pairs), 'significant pair')}: {_summary.named_pairs(pairs)}"
            if pairs
            else "no significant pair"
        )
        holm = ""
        if self.holm_significant is not None:
            holm = f"; Holm: {int(self.holm_significant.sum())} significant"
        return (
            f"{test} (alpha = {self.alpha:g}): CD = {_summary.short(self.critical_difference)}, "
            f"{found}{holm} ({self.n_models} models, {self.n_datasets} data sets)"
        )

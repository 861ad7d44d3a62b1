"""Post-hoc tests after Friedman's: which of k models differ (Demsar 2006, section 3.2).

Nemenyi compares all pairs, Bonferroni-Dunn (or Holm) every model against a control,
each with the critical difference ``CD = q_alpha sqrt(k (k + 1) / (6 N))`` on the
average ranks of :mod:`assay.inference._ranks`; :func:`rank_cliques` gives the bars of
a critical difference diagram.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from assay import _special as special
from assay._procedure_checks import check_open_unit
from assay._results import PosthocResult
from assay._validation import format_values
from assay.inference._multiple_testing import adjust_pvalues
from assay.inference._ranks import _check_bool, _ranks, _score_table, _twice_rank_sums
from assay.inference._studentized_range import studentized_range_isf, studentized_range_sf

__all__ = ["bonferroni_dunn", "nemenyi", "rank_cliques"]


def rank_cliques(average_ranks: Any, critical_difference: float) -> tuple[tuple[int, ...], ...]:
    """Maximal groups of models whose average ranks differ by less than the CD.

    Models are taken in order of average rank (best first); a group is a run of
    consecutive models whose extreme ranks differ by less than ``critical_difference``
    (so no pair in it is significantly different).  Only runs of two or more models
    that are not inside another run are kept: the bars of a critical difference
    diagram (Demsar 2006, section 3.2.4).
    """
    ranks = np.asarray(average_ranks, dtype=np.float64)
    order = np.argsort(ranks, kind="stable")
    sorted_ranks = ranks[order]
    k = sorted_ranks.shape[0]
    cliques: list[tuple[int, ...]] = []
    last_end = 0
    for start in range(k):
        end = start
        while (
            end + 1 < k and abs(sorted_ranks[end + 1] - sorted_ranks[start]) < critical_difference
        ):
            end += 1
        if end > start and end > last_end:  # longer than one, not inside the previous run
            cliques.append(tuple(int(model) for model in order[start : end + 1]))
            last_end = end
    return tuple(cliques)


def _rank_summary(
    scores: Any, higher_is_better: Any, model_names: Any
) -> tuple[np.ndarray, list[int], int, int, tuple[str, ...]]:
    higher_is_better = _check_bool(higher_is_better, "higher_is_better")
    table, names = _score_table(scores, model_names)
    n, k = table.shape
    ranks = _ranks(table, higher_is_better)
    return ranks, _twice_rank_sums(ranks), n, k, names


def _two_sided_normal(z: np.ndarray) -> np.ndarray:
    """``2 P(Z >= |z|)``, accurate in the tail; NaN stays NaN."""
    return 2.0 * special.ndtr(-np.abs(z))


def nemenyi(
    scores: Any,
    *,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    model_names: Any = None,
) -> PosthocResult:
    """Nemenyi post-hoc test: which pairs of models differ in average rank?

    Parameters
    ----------
    scores : array-like of shape (n_datasets, n_models), or mapping
        The performance of each model (column) on each data set (row); a DataFrame's
        columns or a mapping's keys name the models (see :func:`friedman`).
    alpha : float, default 0.05
        Family-wise significance level, in (0, 1).
    higher_is_better : bool, default True
        True for scores (highest gets rank 1), False for losses.
    model_names : sequence of str, optional
        Names of the models, in column order (default: as for :func:`friedman`).

    Returns
    -------
    PosthocResult
        ``critical_difference``, the (k, k) matrices ``z_statistic``, ``pvalues``,
        ``adjusted_pvalues`` and ``significant``, ``significant_pairs`` and the
        ``cliques`` of models not significantly different.

    Raises
    ------
    ValueError
        For the inputs refused by :func:`friedman`, or ``alpha`` outside (0, 1).

    Notes
    -----
    Two models differ significantly when their average ranks differ by at least
    (Nemenyi 1963; Demsar 2006, section 3.2.2; Gama, "Evaluation of classification and
    regression algorithms")::

        CD = q_alpha sqrt(k (k + 1) / (6 N))

    where ``q_alpha`` is the upper ``alpha`` quantile of the studentized range of k
    independent standard normals (infinite degrees of freedom) divided by
    ``sqrt(2)``.  It is computed for any k by integrating the range distribution
    (not read from a table): for ``alpha = 0.05`` and k = 2..10 it gives 1.960,
    2.344, 2.569, 2.728, 2.850, 2.948, 3.031, 3.102, 3.164; Demsar's Table 5(a)
    and Gama's slides print 2.343 and 2.949 for k = 3 and 7: studentized range table
    values rounded to three decimals (3.314 and 4.170) divided by
    ``sqrt(2)``.

    ``z = (R_i - R_j) / sqrt(k (k + 1) / (6 N))``; ``pvalues`` are the unadjusted
    two-sided normal p-values, ``adjusted_pvalues`` the single-step Nemenyi
    p-values ``P(range > |z| sqrt(2))``, so that ``adjusted <= alpha`` exactly when
    ``|R_i - R_j| >= CD``.  The p-values stay accurate far into the tail (scipy's
    ``studentized_range.sf`` computes ``1 - cdf`` and loses values below about
    1e-15).

    Run it after a significant :func:`friedman` test.  When one model is singled
    out in advance (a new method against existing ones), compare with that control
    instead (:func:`bonferroni_dunn`): k - 1 comparisons instead of k (k - 1) / 2
    give more power.

    References
    ----------
    J. Demsar, "Statistical comparisons of classifiers over multiple data sets",
    JMLR 7 (2006) 1-30.

    P. Nemenyi, *Distribution-free multiple comparisons*, PhD thesis, Princeton
    University (1963).

    Examples
    --------
    >>> from assay import nemenyi
    >>> scores = [[0.90, 0.85, 0.80], [0.70, 0.72, 0.60], [0.88, 0.80, 0.79],
    ...           [0.95, 0.93, 0.90], [0.60, 0.55, 0.58]]
    >>> result = nemenyi(scores, model_names=["a", "b", "c"])
    >>> round(result.critical_difference, 3)
    1.482
    >>> result.significant_pairs, result.cliques
    (((0, 2),), ((0, 1), (1, 2)))
    >>> result.significant_pair_names
    (('a', 'c'),)
    """
    alpha = check_open_unit(alpha, "alpha")
    ranks, twice_sums, n, k, names = _rank_summary(scores, higher_is_better, model_names)
    average_ranks = ranks.mean(axis=0)
    standard_error = math.sqrt(k * (k + 1) / (6.0 * n))
    critical_value = studentized_range_isf(alpha, k) / math.sqrt(2.0)
    critical_difference = critical_value * standard_error
    sums = np.asarray(twice_sums, dtype=np.float64)
    z = (sums[:, None] - sums[None, :]) / (2.0 * n * standard_error)
    np.fill_diagonal(z, np.nan)
    off_diagonal = ~np.eye(k, dtype=bool)
    adjusted = np.full((k, k), np.nan)
    magnitudes = np.abs(z[off_diagonal])
    distinct, inverse = np.unique(magnitudes, return_inverse=True)
    adjusted[off_diagonal] = studentized_range_sf(distinct * math.sqrt(2.0), k)[inverse]
    significant = off_diagonal & (
        np.abs(average_ranks[:, None] - average_ranks[None, :]) >= critical_difference
    )
    pairs = tuple((int(i), int(j)) for i, j in zip(*np.nonzero(np.triu(significant)), strict=True))
    return PosthocResult(
        method="nemenyi",
        alpha=alpha,
        average_ranks=average_ranks,
        model_names=names,
        n_datasets=n,
        n_models=k,
        control=None,
        critical_value=critical_value,
        standard_error=standard_error,
        critical_difference=critical_difference,
        z_statistic=z,
        pvalues=_two_sided_normal(z),
        adjusted_pvalues=adjusted,
        significant=significant,
        significant_pairs=pairs,
        cliques=rank_cliques(average_ranks, critical_difference),
        holm_adjusted_pvalues=None,
        holm_significant=None,
        higher_is_better=higher_is_better,
    )


def bonferroni_dunn_critical_value(alpha: float, n_models: int) -> float:
    """``q_alpha = z_{1 - alpha / (2 (k - 1))}`` of the Bonferroni-Dunn test (k models)."""
    return -float(special.ndtri(alpha / (2.0 * (n_models - 1))))


def _control_index(control: Any, names: tuple[str, ...]) -> int:
    k = len(names)
    if isinstance(control, numbers.Integral) and not isinstance(control, bool | np.bool_):
        if 0 <= int(control) < k:
            return int(control)
    elif isinstance(control, str) and control in names:
        return names.index(control)
    raise ValueError(
        f"`control` must be a model index in [0, {k - 1}] or one of the model names "
        f"{format_values(names)}; got {control!r}."
    )


def bonferroni_dunn(
    scores: Any,
    *,
    control: int | str,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    model_names: Any = None,
) -> PosthocResult:
    """Bonferroni-Dunn and Holm post-hoc tests: which models differ from a control?

    Parameters
    ----------
    scores : array-like of shape (n_datasets, n_models), or mapping
        The performance of each model (column) on each data set (row); a DataFrame's
        columns or a mapping's keys name the models (see :func:`friedman`).
    control : int or str
        The control model: its column index, or its name in ``model_names``.
    alpha : float, default 0.05
        Family-wise significance level, in (0, 1).
    higher_is_better : bool, default True
        True for scores (highest gets rank 1), False for losses.
    model_names : sequence of str, optional
        Names of the models, in column order (default: as for :func:`friedman`).

    Returns
    -------
    PosthocResult
        ``critical_difference`` and (k,) vectors comparing each model with the
        control: ``z_statistic``, ``pvalues``, Bonferroni ``adjusted_pvalues``,
        ``significant``, and Holm's ``holm_adjusted_pvalues`` and
        ``holm_significant``.  The control's own entries are NaN (False).

    Raises
    ------
    ValueError
        For the inputs refused by :func:`friedman`, ``alpha`` outside (0, 1), or a
        ``control`` that is neither a column index nor a model name.

    Notes
    -----
    With ``SE = sqrt(k (k + 1) / (6 N))`` and ``z_j = (R_control - R_j) / SE``, the
    Bonferroni-Dunn test (Dunn 1961; Demsar 2006, section 3.2.2) rejects when
    ``|R_control - R_j| >= CD = q_alpha SE`` with
    ``q_alpha = z_{1 - alpha / (2 (k - 1))}``, that is when the two-sided normal
    p-value times ``k - 1`` is at most ``alpha``.  For ``alpha = 0.05`` and k = 2..10
    ``q_alpha`` is 1.960, 2.241, 2.394, 2.498, 2.576, 2.638, 2.690, 2.734, 2.773;
    Demsar's Table 5(b) prints 2.724 for k = 9, and Gama's slides ("Evaluation of
    classification and regression algorithms") also print 2.648 for k = 7.

    Holm's step-down procedure on the same k - 1 p-values (Demsar 2006, section
    3.2.2) rejects at least as much and is recommended over Bonferroni-Dunn; its
    adjusted p-values are ``adjust_pvalues(pvalues, method='holm')``.

    References
    ----------
    J. Demsar, "Statistical comparisons of classifiers over multiple data sets",
    JMLR 7 (2006) 1-30.

    O. J. Dunn, "Multiple comparisons among means", JASA 56 (1961) 52-64.

    S. Holm, "A simple sequentially rejective multiple test procedure",
    Scandinavian Journal of Statistics 6 (1979) 65-70.

    Examples
    --------
    >>> from assay import bonferroni_dunn
    >>> scores = [[0.90, 0.85, 0.80], [0.70, 0.72, 0.60], [0.88, 0.80, 0.79],
    ...           [0.95, 0.93, 0.90], [0.60, 0.55, 0.58]]
    >>> result = bonferroni_dunn(scores, control=2)
    >>> round(result.critical_difference, 3)
    1.418
    >>> result.significant.tolist(), result.holm_significant.tolist()
    ([True, False, False], [True, False, False])
    """
    alpha = check_open_unit(alpha, "alpha")
    ranks, twice_sums, n, k, names = _rank_summary(scores, higher_is_better, model_names)
    control_index = _control_index(control, names)
    average_ranks = ranks.mean(axis=0)
    standard_error = math.sqrt(k * (k + 1) / (6.0 * n))
    critical_value = bonferroni_dunn_critical_value(alpha, k)
    critical_difference = critical_value * standard_error
    sums = np.asarray(twice_sums, dtype=np.float64)
    z = (sums[control_index] - sums) / (2.0 * n * standard_error)
    z[control_index] = np.nan
    pvalues = _two_sided_normal(z)
    others = np.arange(k) != control_index
    significant = others & (
        np.abs(average_ranks[control_index] - average_ranks) >= critical_difference
    )
    holm = adjust_pvalues(pvalues, method="holm")
    pairs = tuple(
        (min(control_index, int(j)), max(control_index, int(j)))
        for j in np.flatnonzero(significant)
    )
    return PosthocResult(
        method="bonferroni-dunn",
        alpha=alpha,
        average_ranks=average_ranks,
        model_names=names,
        n_datasets=n,
        n_models=k,
        control=control_index,
        critical_value=critical_value,
        standard_error=standard_error,
        critical_difference=critical_difference,
        z_statistic=z,
        pvalues=pvalues,
        adjusted_pvalues=adjust_pvalues(pvalues, method="bonferroni"),
        significant=significant,
        significant_pairs=pairs,
        cliques=None,
        holm_adjusted_pvalues=holm,
        holm_significant=others & (holm <= alpha),
        higher_is_better=higher_is_better,
    )

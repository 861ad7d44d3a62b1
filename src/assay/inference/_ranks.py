"""Comparing k models over N data sets by their ranks (Demsar 2006).

The pipeline: rank the models on each data set (1 = best, midranks for ties), test
whether the average ranks differ (Friedman's chi-squared and the Iman-Davenport F),
then find which models differ (Nemenyi for all pairs, Bonferroni-Dunn or Holm against
a control) with the critical difference ``CD = q_alpha sqrt(k (k + 1) / (6 N))``.

Everything that decides a result is computed from integers: the rank sums are
half-integers, so ``chi^2_F``, ``F_F`` and the zero tests of their denominators are
exact; floats appear only in the final divisions and the p-values.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np
from scipy import special

from assay._results import FriedmanResult, PosthocResult
from assay._validation import as_finite_array, format_values
from assay.exceptions import DegenerateDataWarning
from assay.inference._multiple_testing import adjust_pvalues
from assay.inference._studentized_range import studentized_range_isf, studentized_range_sf

__all__ = ["bonferroni_dunn", "friedman", "nemenyi", "rank_cliques"]


# --- Input and ranks. ---


def _model_names(scores: Any, model_names: Any, n_models: int) -> tuple[str, ...]:
    """``model_names`` as distinct strings; defaults to a DataFrame's columns or 'model j'."""
    if model_names is None:
        columns = getattr(scores, "columns", None)
        if columns is None:
            return tuple(f"model {j}" for j in range(n_models))
        model_names = list(columns)
    if isinstance(model_names, str):
        raise ValueError(
            f"`model_names` must be a sequence of {n_models} names; got the string "
            f"{model_names!r}."
        )
    names = tuple(str(name) for name in model_names)
    if len(names) != n_models:
        raise ValueError(
            f"`model_names` has {len(names)} names but `scores` has {n_models} models (columns)."
        )
    if len(set(names)) != n_models:
        repeated = sorted({name for name in names if names.count(name) > 1})
        raise ValueError(
            f"`model_names` must be distinct; {format_values(repeated)} appear more than once."
        )
    return names


def _mapping_table(scores: Mapping[Any, Any]) -> tuple[np.ndarray, list[str]]:
    """A mapping ``{model name: its score on each data set}`` as columns, and the names."""
    columns = {str(name): np.asarray(values) for name, values in scores.items()}
    shapes = {name: column.shape for name, column in columns.items()}
    if len(set(shapes.values())) > 1 or any(len(shape) != 1 for shape in shapes.values()):
        raise ValueError(
            "`scores` given as a mapping must map each model name to its scores on the same "
            f"data sets (1-D, all of one length); got shapes {shapes}."
        )
    table = np.column_stack(list(columns.values())) if columns else np.empty((0, 0))
    return table, list(columns)


def _score_table(scores: Any, model_names: Any) -> tuple[np.ndarray, tuple[str, ...]]:
    """``scores`` as a finite float64 (N, k) table with N >= 2 and k >= 2, and the names."""
    if isinstance(scores, Mapping):
        scores, keys = _mapping_table(scores)
        model_names = keys if model_names is None else model_names
    table = as_finite_array(scores, "scores", what="scores", max_ndim=2)
    if table.ndim != 2:
        raise ValueError(
            "`scores` must be 2-D (n_datasets, n_models): one row per data set, one "
            f"column per model; got an array of shape {table.shape}."
        )
    n_datasets, n_models = table.shape
    if n_models < 2:
        raise ValueError(
            f"`scores` has {n_models} model (column); at least 2 models are needed to "
            "compare them."
        )
    if n_datasets < 2:
        raise ValueError(
            f"`scores` has {n_datasets} data set (row); at least 2 data sets are needed "
            "for a test over data sets."
        )
    return table, _model_names(scores, model_names, n_models)


def _ranks(table: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """Rank of each model on each data set: 1 = best, ties get the mean of their ranks."""
    oriented = -table if higher_is_better else table
    from scipy.stats import rankdata  # imported on use: scipy.stats is slow to import

    return np.asarray(rankdata(oriented, method="average", axis=1), dtype=np.float64)


def _twice_rank_sums(ranks: np.ndarray) -> list[int]:
    """``2 S_j`` as Python ints, where ``S_j`` is the (half-integer) rank sum of model j."""
    return [int(value) for value in np.rint(2.0 * ranks.sum(axis=0)).astype(np.int64)]


def _tie_sum(table: np.ndarray) -> int:
    """``sum over data sets and tie groups of (t^3 - t)``, t the size of the group."""
    ordered = np.sort(table, axis=1)
    starts = np.ones(ordered.shape, dtype=bool)
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    sizes = np.bincount(np.cumsum(starts.ravel()) - 1).astype(np.int64)
    return int(np.sum(sizes**3 - sizes))


def _check_bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"`{name}` must be True or False; got {value!r}.")
    return bool(value)


# --- The Friedman test. ---


def friedman(
    scores: Any,
    *,
    higher_is_better: bool = True,
    tie_correction: bool = False,
    model_names: Any = None,
) -> FriedmanResult:
    """Friedman test of k models over N data sets, with the Iman-Davenport F.

    Ranks the models on each data set and tests the null hypothesis that all models
    perform equally, so that their average ranks differ only by chance.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, n_models), or mapping
        The performance of each model (column) on each data set (row), e.g. the
        cross-validated AUC.  A pandas DataFrame works; its columns name the models.
        Or a mapping ``{model name: scores on each data set}`` (the columns of a
        DataFrame built from it), whose keys name the models.
    higher_is_better : bool, default True
        True for scores such as accuracy or AUC (the highest gets rank 1); False for
        losses and error rates (the lowest gets rank 1).
    tie_correction : bool, default False
        Divide ``chi^2_F`` by the tie correction factor, as
        ``scipy.stats.friedmanchisquare`` and R's ``friedman.test`` do.  The default
        is Demsar's formula (no correction), which reproduces the published examples.
    model_names : sequence of str, optional
        Names of the models, in column order (default: the DataFrame's columns or the
        mapping's keys, else ``'model 0'``, ``'model 1'``, ...).

    Returns
    -------
    FriedmanResult
        ``statistic`` (``chi^2_F``) and ``pvalue``, ``iman_davenport_statistic``
        (``F_F``) and ``iman_davenport_pvalue``, the average and per-data-set ranks.
        Unpacks as ``statistic, pvalue = result``.

    Raises
    ------
    ValueError
        If ``scores`` is not numeric, not 2-D, holds NaN or infinite values, has
        fewer than 2 models or fewer than 2 data sets; if ``model_names`` has the
        wrong length or repeats a name; if a flag is not a bool.

    Warns
    -----
    DegenerateDataWarning
        With 2 models (the test is then a sign test; the results are computed).
        When every data set ties all models (the ranks carry no information): the
        statistics are 0 with p-value 1, or NaN with ``tie_correction``.  When every
        data set ranks the models identically (without ties, unless
        ``tie_correction``): ``F_F`` has a zero denominator and is NaN, with its
        p-value (``chi^2_F`` stays defined).

    Notes
    -----
    With ``r_ij`` the rank of model j on data set i (midranks for ties) and
    ``R_j = (1/N) sum_i r_ij`` (Friedman 1937; Demsar 2006, section 3.2.2; Gama,
    "Evaluation of classification and regression algorithms", "Approach based on
    Ranks")::

        chi^2_F = 12 N / (k (k + 1)) [sum_j R_j^2 - k (k + 1)^2 / 4]    (k - 1 df)
        F_F     = (N - 1) chi^2_F / (N (k - 1) - chi^2_F)   ((k - 1), (k - 1)(N - 1) df)

    Iman and Davenport (1980) showed ``chi^2_F`` to be conservative; Demsar
    recommends ``F_F``.  The chi-squared approximation needs about ``N > 10`` and
    ``k > 5`` (Demsar 2006); for fewer, prefer ``F_F``.

    With ``tie_correction=True``, ``chi^2_F`` is divided by
    ``C = 1 - sum (t^3 - t) / (N (k^3 - k))`` over the tie groups of every data set,
    and ``F_F`` is computed from the corrected value; it then equals the two-way
    ANOVA F statistic on the midranks (data sets as blocks).  Without ties both
    choices agree.

    With ``k = 2`` the statistic is ``(W - L)^2 / N`` for W wins and L losses of the
    first model: a two-sided sign test in which a tie counts as half a win (with
    ``tie_correction=True``, ``(W - L)^2 / (W + L)``: ties dropped).  Demsar
    recommends the Wilcoxon signed-rank test for two models.

    References
    ----------
    J. Demsar, "Statistical comparisons of classifiers over multiple data sets",
    JMLR 7 (2006) 1-30.

    M. Friedman, "The use of ranks to avoid the assumption of normality implicit in
    the analysis of variance", JASA 32 (1937) 675-701.

    R. L. Iman and J. M. Davenport, "Approximations of the critical region of the
    Friedman statistic", Communications in Statistics A 9 (1980) 571-595.

    Examples
    --------
    >>> from assay import friedman
    >>> scores = [[0.90, 0.85, 0.80], [0.70, 0.72, 0.60], [0.88, 0.80, 0.79],
    ...           [0.95, 0.93, 0.90], [0.60, 0.55, 0.58]]
    >>> result = friedman(scores)
    >>> result.average_ranks.tolist()
    [1.2, 2.0, 2.8]
    >>> round(result.statistic, 3), round(result.iman_davenport_statistic, 3)
    (6.4, 7.111)
    """
    higher_is_better = _check_bool(higher_is_better, "higher_is_better")
    tie_correction = _check_bool(tie_correction, "tie_correction")
    table, names = _score_table(scores, model_names)
    n, k = table.shape
    ranks = _ranks(table, higher_is_better)
    twice_sums = _twice_rank_sums(ranks)
    # sum_j (2 S_j - N (k + 1))^2 = 4 sum_j (S_j - N (k + 1) / 2)^2, an exact integer
    spread = sum((value - n * (k + 1)) ** 2 for value in twice_sums)
    # chi^2_F = 12 sum_j (S_j - N(k+1)/2)^2 / (N k (k+1)) = 3 spread / (N k (k+1)); the
    # tie correction replaces N k (k^2 - 1) by N k (k^2 - 1) - ties in both statistics.
    ties = _tie_sum(table)
    scale = n * k * (k * k - 1) - (ties if tie_correction else 0)
    if k == 2:
        warnings.warn(
            "`scores` has 2 models: the Friedman test is then a two-sided sign test "
            "(see the Notes); a Wilcoxon signed-rank test is usually more powerful.",
            DegenerateDataWarning,
            stacklevel=2,
        )
    statistic = iman_davenport = math.nan
    if ties == n * k * (k * k - 1):
        # every data set ties all models: all ranks are (k + 1) / 2 and spread == 0
        warnings.warn(
            "Every data set ties all models: the ranks carry no information; "
            + (
                "the tie-corrected chi^2_F is 0/0, so both statistics are NaN."
                if tie_correction
                else "chi^2_F = F_F = 0 with p-value 1."
            ),
            DegenerateDataWarning,
            stacklevel=2,
        )
        if not tie_correction:
            statistic = iman_davenport = 0.0
    else:
        statistic = 3 * spread * (k - 1) / scale  # int / int: correctly rounded
        denominator = n * scale - 3 * spread
        if denominator == 0:
            warnings.warn(
                "Every data set ranks the models identically: the Iman-Davenport F has "
                "a zero denominator (it is unbounded) and is reported as NaN; use the "
                "chi-squared p-value.",
                DegenerateDataWarning,
                stacklevel=2,
            )
        else:
            iman_davenport = 3 * spread * (n - 1) / denominator
    df_id = (float(k - 1), float((k - 1) * (n - 1)))
    return FriedmanResult(
        statistic=statistic,
        pvalue=_sf(_chi2_sf, statistic, k - 1),
        df=float(k - 1),
        iman_davenport_statistic=iman_davenport,
        iman_davenport_pvalue=_sf(_f_sf, iman_davenport, *df_id),
        iman_davenport_df=df_id,
        average_ranks=ranks.mean(axis=0),
        ranks=ranks,
        n_datasets=n,
        n_models=k,
        model_names=names,
        higher_is_better=higher_is_better,
        tie_correction=tie_correction,
        method="Friedman, tie-corrected" if tie_correction else "Friedman",
    )


def _chi2_sf(statistic: float, df: float) -> float:
    """Upper tail of the chi-squared distribution (``scipy.stats.chi2.sf``)."""
    return float(special.chdtrc(df, statistic))


def _f_sf(statistic: float, df_numerator: float, df_denominator: float) -> float:
    """Upper tail of the F distribution (``scipy.stats.f.sf``)."""
    return float(special.fdtrc(df_numerator, df_denominator, statistic))


def _sf(survival: Any, statistic: float, *df: float) -> float:
    """``survival(statistic, *df)`` as a float; NaN stays NaN."""
    return math.nan if math.isnan(statistic) else float(survival(statistic, *df))


# --- Post-hoc tests. ---


def _check_alpha(alpha: Any) -> float:
    if (
        isinstance(alpha, bool)
        or not isinstance(alpha, numbers.Real)
        or not 0.0 < float(alpha) < 1.0
    ):
        shown = alpha.item() if isinstance(alpha, np.generic) else alpha
        raise ValueError(f"`alpha` must be in (0, 1); got {shown!r}.")
    return float(alpha)


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
    alpha = _check_alpha(alpha)
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
    alpha = _check_alpha(alpha)
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

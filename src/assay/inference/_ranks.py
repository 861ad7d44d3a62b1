"""Comparing k models over N data sets by their ranks (Demsar 2006).

The pipeline: rank the models on each data set (1 = best, midranks for ties), test
whether the average ranks differ (Friedman's chi-squared and the Iman-Davenport F),
then find which models differ (the post-hoc tests of
:mod:`assay.inference._posthoc`: Nemenyi for all pairs, Bonferroni-Dunn or Holm
against a control) with the critical difference ``CD = q_alpha sqrt(k (k + 1) / (6 N))``.

Everything that decides a result is computed from integers: the rank sums are
half-integers, so ``chi^2_F``, ``F_F`` and the zero tests of their denominators are
exact; floats appear only in the final divisions and the p-values.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from assay import _special as special
from assay._results import FriedmanResult
from assay._ties import average_ranks
from assay._validation import as_finite_array, format_values
from assay.exceptions import DegenerateDataWarning

__all__ = ["friedman"]


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
    return average_ranks(-table if higher_is_better else table)


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

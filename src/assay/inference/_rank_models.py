"""Ranking many models over many data sets: the analysis of Demsar (2006) in one call.

:func:`rank_models` takes the scores of k models on N data sets (a long table of
``(data set, model, score)`` rows or a wide one, a row per data set and a column per
model), checks that every model has exactly one finite score on every data set, and
runs the tests of :mod:`assay.inference._ranks` and :mod:`assay.inference._posthoc`
and the paired Wilcoxon tests of :mod:`assay.inference._sign_tests` on it.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from assay._procedure_checks import check_open_unit
from assay._results import RankModelsResult
from assay._validation import check_option, format_values
from assay.exceptions import DegenerateDataWarning
from assay.inference._multiple_testing import adjust_pvalues
from assay.inference._posthoc import (
    _control_index,
    bonferroni_dunn,
    bonferroni_dunn_critical_value,
    nemenyi,
)
from assay.inference._ranks import _check_bool, friedman
from assay.inference._sign_tests import ZERO_METHODS, wilcoxon_signed_rank

__all__ = ["rank_models"]

# Fewer data sets than this give no usable test over data sets (a Wilcoxon test of
# two pairs cannot reach p < 0.5).
MIN_DATASETS = 3
MIN_MODELS = 2


# --- The table: long or wide, as an (N, k) array with the names of its rows and columns. ---


def _column_names(table: Any) -> list[Any] | None:
    """The column names of a DataFrame or the keys of a mapping; None for an array."""
    columns = getattr(table, "columns", None)
    if columns is not None:
        return list(columns)
    if isinstance(table, Mapping):
        return list(table)
    return None


def _column(table: Any, name: Any, argument: str, columns: list[Any]) -> np.ndarray:
    if name not in columns:
        raise ValueError(
            f"`{argument}` names the column {name!r}, which `table` does not have; its "
            f"columns are {format_values(columns, limit=20)}."
        )
    return np.asarray(table[name])


def _scores_column(values: Any, name: str) -> np.ndarray:
    try:
        return np.asarray(values, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise ValueError(
            f"The score column {name!r} must hold numbers; got values such as "
            f"{format_values(np.asarray(values, dtype=object).reshape(-1)[:3])}."
        ) from None


def _first_appearance(values: np.ndarray) -> tuple[list[Any], np.ndarray]:
    """The distinct values in order of first appearance, and each value's position."""
    positions: dict[Any, int] = {}
    codes = np.empty(values.shape[0], dtype=np.int64)
    for row, value in enumerate(values.tolist()):
        codes[row] = positions.setdefault(value, len(positions))
    return list(positions), codes


def _long_table(
    table: Any, dataset: Any, model: Any, score: Any
) -> tuple[np.ndarray, list[Any], list[Any]]:
    """A long table of (data set, model, score) rows as an (N, k) table."""
    given = {"dataset": dataset, "model": model, "score": score}
    if any(value is None for value in given.values()):
        named = ", ".join(f"{key}={value!r}" for key, value in given.items() if value is not None)
        raise ValueError(
            "A long table needs all three of `dataset`, `model` and `score` (the columns "
            f"of the data set, the model and the score); got only {named}."
        )
    columns = _column_names(table)
    if columns is None:
        raise ValueError(
            "With `dataset`, `model` and `score`, `table` must be a DataFrame or a mapping "
            f"of column name to values; got {type(table).__name__}."
        )
    datasets = _column(table, dataset, "dataset", columns).reshape(-1)
    models = _column(table, model, "model", columns).reshape(-1)
    scores = _scores_column(_column(table, score, "score", columns), str(score))
    lengths = {dataset: datasets.shape[0], model: models.shape[0], score: scores.shape[0]}
    if len(set(lengths.values())) > 1:
        raise ValueError(f"The columns of `table` must have one length; got {lengths}.")
    dataset_names, rows = _first_appearance(datasets)
    model_names, cols = _first_appearance(models)
    bad = np.flatnonzero(~np.isfinite(scores))
    if bad.shape[0]:
        first = int(bad[0])
        raise ValueError(
            f"The score column {score!r} has {bad.shape[0]} missing or non-finite values "
            f"(NaN or infinite), the first on row {first} (data set "
            f"{datasets.tolist()[first]!r}, model {models.tolist()[first]!r}); every "
            "(data set, model) pair needs a finite score."
        )
    shape = (len(dataset_names), len(model_names))
    cells = rows * shape[1] + cols
    counts = np.bincount(cells, minlength=shape[0] * shape[1])
    repeated = np.flatnonzero(counts > 1)
    if repeated.shape[0]:
        pairs = [(dataset_names[c // shape[1]], model_names[c % shape[1]]) for c in repeated]
        raise ValueError(
            f"`table` has more than one row for {len(pairs)} (data set, model) pairs, e.g. "
            f"{format_values(pairs, limit=3)}; each pair must appear once (average repeated "
            "runs first)."
        )
    missing = np.flatnonzero(counts == 0)
    if missing.shape[0]:
        pairs = [(dataset_names[c // shape[1]], model_names[c % shape[1]]) for c in missing]
        raise ValueError(
            f"`table` has no score for {len(pairs)} (data set, model) pairs, e.g. "
            f"{format_values(pairs, limit=3)}; every model needs a score on every data set "
            "(drop the incomplete data sets or models first)."
        )
    wide = np.empty(shape[0] * shape[1])
    wide[cells] = scores
    return wide.reshape(shape), dataset_names, model_names


def _wide_table(
    table: Any, dataset: Any, model_names: Any
) -> tuple[np.ndarray, list[Any], list[Any]]:
    """A wide table (a row per data set, a column per model) as an (N, k) array."""
    columns = _column_names(table)
    dataset_names: list[Any] | None = None
    if dataset is not None:
        if columns is None:
            raise ValueError(
                "`dataset` names a column, so `table` must be a DataFrame or a mapping of "
                f"column name to values; got {type(table).__name__}."
            )
        dataset_names = _column(table, dataset, "dataset", columns).reshape(-1).tolist()
        columns = [name for name in columns if name != dataset]
        table = {name: np.asarray(table[name]) for name in columns}
    elif hasattr(table, "index") and columns is not None:
        dataset_names = list(table.index)
    if columns is not None:
        values = [np.asarray(table[name]) for name in columns]
        lengths = {str(name): value.shape for name, value in zip(columns, values, strict=True)}
        if len(set(lengths.values())) > 1 or any(len(shape) != 1 for shape in lengths.values()):
            raise ValueError(
                "The model columns of `table` must be 1-D and of one length; got shapes "
                f"{lengths}."
            )
        array = np.column_stack(values) if values else np.empty((0, 0))
        model_names = columns if model_names is None else model_names
    else:
        array = np.asarray(table)
    if array.ndim != 2:
        raise ValueError(
            "`table` must be 2-D (a row per data set, a column per model), or a long "
            "table with `dataset`, `model` and `score`; got an array of shape "
            f"{array.shape}."
        )
    try:
        scores = np.asarray(array, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"The scores in `table` must be numbers; got dtype {array.dtype}."
        ) from None
    n_datasets, n_models = scores.shape
    if model_names is None:
        model_names = [f"model {j}" for j in range(n_models)]
    elif isinstance(model_names, str) or len(list(model_names)) != n_models:
        raise ValueError(
            f"`model_names` must hold one name for each of the {n_models} models "
            f"(columns); got {model_names!r}."
        )
    if dataset_names is None:
        dataset_names = [f"data set {i}" for i in range(n_datasets)]
    bad = np.argwhere(~np.isfinite(scores))
    if bad.shape[0]:
        row, col = (int(index) for index in bad[0])
        raise ValueError(
            f"`table` has {bad.shape[0]} missing or non-finite scores (NaN or infinite), "
            f"the first for model {list(model_names)[col]!r} on data set "
            f"{dataset_names[row]!r}; every (data set, model) pair needs a finite score."
        )
    return scores, dataset_names, list(model_names)


def _checked_names(names: list[Any], what: str) -> tuple[str, ...]:
    texts = tuple(str(name) for name in names)
    if len(set(texts)) != len(texts):
        repeated = sorted({text for text in texts if texts.count(text) > 1})
        raise ValueError(f"The {what} names must be distinct; {format_values(repeated)} repeat.")
    return texts


def _check_size(scores: np.ndarray, datasets: tuple[str, ...], models: tuple[str, ...]) -> None:
    n_datasets, n_models = scores.shape
    if n_models < MIN_MODELS:
        raise ValueError(
            f"`table` has {n_models} model{'' if n_models == 1 else 's'} "
            f"{format_values(models)}; at least {MIN_MODELS} are needed to compare models."
        )
    if n_datasets < MIN_DATASETS:
        raise ValueError(
            f"`table` has {n_datasets} data set{'' if n_datasets == 1 else 's'} "
            f"{format_values(datasets)}; at least {MIN_DATASETS} are needed to rank models "
            "over data sets."
        )


# --- The tests. ---


def _pairwise_wilcoxon(
    oriented: np.ndarray, zero_method: str, names: tuple[str, ...]
) -> tuple[dict[str, np.ndarray], list[str]]:
    """Wilcoxon's signed-rank test of every pair of models, Holm-adjusted over the pairs.

    ``oriented`` is the score table with the better score the higher.  Returns the (k, k)
    matrices and the pairs whose scores are equal on every data set.
    """
    k = oriented.shape[1]
    rank_sums = np.full((k, k), np.nan)
    pvalues = np.full((k, k), np.nan)
    wins = np.zeros((k, k), dtype=np.int64)
    upper = np.triu_indices(k, 1)
    equal_pairs = []
    for i, j in zip(*upper, strict=True):
        a, b = oriented[:, i], oriented[:, j]
        wins[i, j] = np.count_nonzero(a > b)
        wins[j, i] = np.count_nonzero(a < b)
        if np.array_equal(a, b):
            equal_pairs.append(f"{names[i]} vs {names[j]}")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)  # reported once, below
            test = wilcoxon_signed_rank(a, b, zero_method=zero_method)
        rank_sums[i, j] = test.details["r_plus"]
        rank_sums[j, i] = test.details["r_minus"]
        pvalues[i, j] = pvalues[j, i] = test.pvalue
    adjusted = np.full((k, k), np.nan)
    adjusted[upper] = adjust_pvalues(pvalues[upper], method="holm")
    adjusted.T[upper] = adjusted[upper]
    return {
        "wilcoxon_rank_sums": rank_sums,
        "wilcoxon_wins": wins,
        "wilcoxon_pvalues": pvalues,
        "wilcoxon_adjusted_pvalues": adjusted,
    }, equal_pairs


def rank_models(
    table: Any,
    *,
    dataset: Any = None,
    model: Any = None,
    score: Any = None,
    higher_is_better: bool = True,
    alpha: float = 0.05,
    control: Any = None,
    model_names: Any = None,
    zero_method: str = "wilcox",
) -> RankModelsResult:
    """Rank k models over N data sets: Friedman, Nemenyi, Bonferroni-Dunn, Holm, Wilcoxon.

    The whole comparison of many models over many data sets recommended by Demsar
    (2006) in one call: average ranks, the Friedman test with the Iman-Davenport F, the
    Nemenyi critical difference and the groups of models it does not separate, the
    Bonferroni-Dunn critical difference and Holm's test of each model against a control,
    and Wilcoxon's signed-rank test of every pair of models, Holm-adjusted over the
    pairs.

    Parameters
    ----------
    table : DataFrame, mapping of column name to values, or 2-D array
        The scores.  *Long*: one row per (data set, model) pair, with the columns named
        by ``dataset``, ``model`` and ``score``.  *Wide*: one row per data set and one
        column per model (a DataFrame, whose index names the data sets; a mapping
        ``{model name: scores}``; or an array of shape (n_datasets, n_models)).
        pandas is not needed: a mapping of column name to array works for both forms.
    dataset : column name, optional
        Long table: the column of the data set names.  Wide table: the column that
        names the data sets, every other column being a model.
    model, score : column name, optional
        The columns of the model names and of the scores of a long table.  Giving
        either makes ``table`` long; then all three names are needed.
    higher_is_better : bool, default True
        True for scores such as accuracy or AUC (the highest ranks first); False for
        losses and error rates (the lowest ranks first), as in :func:`friedman`.
    alpha : float, default 0.05
        Family-wise significance level of every test, in (0, 1).
    control : str or int, optional
        The model the others are compared with (a new method against existing ones):
        its name (or column index).  Adds the Bonferroni-Dunn and Holm tests against it.
    model_names : sequence of str, optional
        Names of the columns of a wide array (default ``'model 0'``, ``'model 1'``, ...).
    zero_method : {"wilcox", "pratt", "zsplit"}, default "wilcox"
        Data sets on which two models score the same, in the Wilcoxon tests (see
        :func:`assay.wilcoxon_signed_rank`); Demsar splits their ranks (``'zsplit'``).

    Returns
    -------
    RankModelsResult
        ``average_ranks`` and ``ranks``, ``friedman`` (a :class:`FriedmanResult`),
        ``nemenyi`` and ``bonferroni_dunn`` (:class:`PosthocResult`, the latter None
        without a control), ``critical_difference`` (Nemenyi) and
        ``bonferroni_dunn_critical_difference``, ``cliques``, and the (k, k) Wilcoxon
        matrices.  ``str(result)`` is an aligned summary; ``to_markdown()``,
        ``to_html()`` and ``to_json()`` write it out.

    Raises
    ------
    ValueError
        If a named column is missing; if a (data set, model) pair has no score, more
        than one, or a NaN or infinite one; if there are fewer than 2 models or 3 data
        sets; if names repeat; for an unknown ``control``, an ``alpha`` outside (0, 1),
        a bad ``zero_method`` or a non-bool ``higher_is_better``.

    Warns
    -----
    DegenerateDataWarning
        From :func:`assay.friedman` (2 models; ranks that carry no information), and
        once, naming them, for pairs of models with equal scores on every data set
        (their Wilcoxon p-value is 1).

    Notes
    -----
    The ranks are those of :func:`assay.friedman` (1 = best, midranks for ties); the
    tests are :func:`assay.friedman`, :func:`assay.nemenyi`, :func:`assay.bonferroni_dunn`
    and :func:`assay.wilcoxon_signed_rank`, whose Notes give the formulas.  The Nemenyi
    critical difference is ``CD = q_alpha sqrt(k (k + 1) / (6 N))`` with the
    studentized range quantile; the Bonferroni-Dunn one uses
    ``q_alpha = z_{1 - alpha / (2 (k - 1))}`` and holds for comparisons with one
    control.  Demsar (2006) recommends the post-hoc tests only after the Friedman
    (Iman-Davenport) test rejects, and the Wilcoxon test for a pair of models; with
    ``k (k - 1) / 2`` pairs its p-values are Holm-adjusted here.

    References
    ----------
    J. Demsar, "Statistical comparisons of classifiers over multiple data sets",
    JMLR 7 (2006) 1-30.

    S. Garcia and F. Herrera, "An extension on 'Statistical comparisons of classifiers
    over multiple data sets' for all pairwise comparisons", JMLR 9 (2008) 2677-2694.

    Examples
    --------
    >>> from assay import rank_models
    >>> table = {"data set": ["a"] * 3 + ["b"] * 3 + ["c"] * 3 + ["d"] * 3,
    ...          "model": ["x", "y", "z"] * 4,
    ...          "accuracy": [0.90, 0.85, 0.80, 0.70, 0.72, 0.60,
    ...                       0.88, 0.80, 0.79, 0.95, 0.93, 0.90]}
    >>> result = rank_models(table, dataset="data set", model="model", score="accuracy")
    >>> result.model_names, result.average_ranks.tolist()
    (('x', 'y', 'z'), [1.25, 1.75, 3.0])
    >>> result.wilcoxon_wins.tolist()  # [i, j]: data sets on which i beats j
    [[0, 3, 4], [1, 0, 4], [0, 0, 0]]
    >>> print(str(result).splitlines()[0])
    Ranking of 3 models over 4 data sets (higher scores are better; alpha = 0.05)
    """
    higher_is_better = _check_bool(higher_is_better, "higher_is_better")
    alpha = check_open_unit(alpha, "alpha")
    zero_method = check_option(zero_method, "zero_method", ZERO_METHODS)
    if model is not None or score is not None:
        scores, datasets, models = _long_table(table, dataset, model, score)
        if model_names is not None:
            raise ValueError(
                "`model_names` names the columns of a wide array; a long table takes the "
                f"names from its `model` column {model!r}."
            )
    else:
        scores, datasets, models = _wide_table(table, dataset, model_names)
    dataset_names = _checked_names(datasets, "data set")
    names = _checked_names(models, "model")
    _check_size(scores, dataset_names, names)
    control_index = None if control is None else _control_index(control, names)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DegenerateDataWarning)
        friedman_result = friedman(scores, higher_is_better=higher_is_better, model_names=names)
    for warning in caught:  # at the caller's line, not friedman's
        warnings.warn(str(warning.message), warning.category, stacklevel=2)
    nemenyi_result = nemenyi(
        scores, alpha=alpha, higher_is_better=higher_is_better, model_names=names
    )
    control_result = None
    if control_index is not None:
        control_result = bonferroni_dunn(
            scores,
            control=control_index,
            alpha=alpha,
            higher_is_better=higher_is_better,
            model_names=names,
        )
    n_datasets, n_models = scores.shape
    wilcoxon, equal_pairs = _pairwise_wilcoxon(
        scores if higher_is_better else -scores, zero_method, names
    )
    if equal_pairs:
        warnings.warn(
            f"{len(equal_pairs)} pair{'' if len(equal_pairs) == 1 else 's'} of models "
            f"score{'s' if len(equal_pairs) == 1 else ''} the same on every data set "
            f"({', '.join(equal_pairs)}): no evidence of a difference, Wilcoxon p-value 1.",
            DegenerateDataWarning,
            stacklevel=2,
        )
    return RankModelsResult(
        model_names=names,
        dataset_names=dataset_names,
        n_datasets=n_datasets,
        n_models=n_models,
        scores=scores,
        ranks=friedman_result.ranks,
        average_ranks=friedman_result.average_ranks,
        higher_is_better=higher_is_better,
        alpha=alpha,
        friedman=friedman_result,
        nemenyi=nemenyi_result,
        critical_difference=nemenyi_result.critical_difference,
        bonferroni_dunn_critical_difference=bonferroni_dunn_critical_value(alpha, n_models)
        * nemenyi_result.standard_error,
        control=None if control_index is None else names[control_index],
        bonferroni_dunn=control_result,
        zero_method=zero_method,
        **wilcoxon,
        wilcoxon_significant=wilcoxon["wilcoxon_adjusted_pvalues"] <= alpha,
    )

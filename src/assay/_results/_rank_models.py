"""The result of :func:`assay.rank_models`: every test of a ranking of many models."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from assay._results import _rank_tables
from assay._results._base import _plain, _ResultMixin
from assay._results._ranks import FriedmanResult, PosthocResult, _format_rank_field


def _format_ranking_field(value: Any) -> str:
    """A nested test result by its one-line summary; anything else as for the rank tests."""
    if isinstance(value, _ResultMixin):
        return f"<{type(value).__name__}: {value}>"
    return _format_rank_field(value)


def _read_only(values: Any, dtype: type) -> np.ndarray:
    array: np.ndarray = np.array(values, dtype=dtype, copy=True)
    array.flags.writeable = False
    return array


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class RankModelsResult(_ResultMixin):
    """The ranking of k models over N data sets (:func:`assay.rank_models`).

    Models are in the order of the table (first appearance in a long table); every
    (k,) and (k, k) field follows that order.  ``order`` lists them best first.

    Attributes
    ----------
    model_names : tuple of str
        The models.
    dataset_names : tuple of str
        The data sets.
    n_datasets, n_models : int
        ``N`` and ``k``.
    scores : numpy.ndarray of shape (n_datasets, n_models)
        The score of each model on each data set.
    ranks : numpy.ndarray of shape (n_datasets, n_models)
        The rank of each model on each data set (1 = best, midranks for ties).
    average_ranks : numpy.ndarray of shape (n_models,)
        The mean rank of each model over the data sets.
    higher_is_better : bool
        Whether the highest score ranked first.
    alpha : float
        Family-wise significance level of every test.
    friedman : FriedmanResult
        The Friedman test with the Iman-Davenport F.
    nemenyi : PosthocResult
        The Nemenyi test of all pairs (its ``cliques`` are the groups of a critical
        difference diagram).
    critical_difference : float
        The Nemenyi critical difference of average ranks.
    bonferroni_dunn_critical_difference : float
        The Bonferroni-Dunn critical difference (for comparisons with one control).
    control : str or None
        The control model, if one was given.
    bonferroni_dunn : PosthocResult or None
        Bonferroni-Dunn and Holm tests of every model against the control (None
        without a control).
    zero_method : str
        How the Wilcoxon tests treat data sets on which two models score the same.
    wilcoxon_rank_sums : numpy.ndarray of shape (n_models, n_models)
        At ``[i, j]``: the sum of the signed-rank test's ranks of the data sets on which
        model i beats model j (``R+`` of i against j; ``[j, i]`` is its ``R-``).
    wilcoxon_wins : numpy.ndarray of int, shape (n_models, n_models)
        At ``[i, j]``: on how many data sets model i scores better than model j.
    wilcoxon_pvalues : numpy.ndarray of shape (n_models, n_models)
        Two-sided p-values of the signed-rank tests (symmetric, NaN diagonal).
    wilcoxon_adjusted_pvalues : numpy.ndarray of shape (n_models, n_models)
        The same, Holm-adjusted over the ``k (k - 1) / 2`` pairs.
    wilcoxon_significant : numpy.ndarray of bool, shape (n_models, n_models)
        ``wilcoxon_adjusted_pvalues <= alpha``.

    Notes
    -----
    Frozen: fields cannot be reassigned and the arrays are read-only.  ``str`` is an
    aligned summary of several lines; ``to_markdown()`` and ``to_html()`` write the
    same as Markdown tables and as a self-contained HTML page.
    """

    model_names: tuple[str, ...]
    dataset_names: tuple[str, ...]
    n_datasets: int
    n_models: int
    scores: np.ndarray
    ranks: np.ndarray
    average_ranks: np.ndarray
    higher_is_better: bool
    alpha: float
    friedman: FriedmanResult
    nemenyi: PosthocResult
    critical_difference: float
    bonferroni_dunn_critical_difference: float
    control: str | None
    bonferroni_dunn: PosthocResult | None
    zero_method: str
    wilcoxon_rank_sums: np.ndarray
    wilcoxon_wins: np.ndarray
    wilcoxon_pvalues: np.ndarray
    wilcoxon_adjusted_pvalues: np.ndarray
    wilcoxon_significant: np.ndarray

    _format_value = staticmethod(_format_ranking_field)

    def __post_init__(self) -> None:
        self._normalise(
            floats=("alpha", "critical_difference", "bonferroni_dunn_critical_difference"),
            ints=("n_datasets", "n_models"),
            strings=("zero_method",),
        )
        for name in (
            "scores",
            "ranks",
            "average_ranks",
            "wilcoxon_rank_sums",
            "wilcoxon_pvalues",
            "wilcoxon_adjusted_pvalues",
        ):
            object.__setattr__(self, name, _read_only(getattr(self, name), np.float64))
        object.__setattr__(self, "wilcoxon_wins", _read_only(self.wilcoxon_wins, np.int64))
        object.__setattr__(
            self, "wilcoxon_significant", _read_only(self.wilcoxon_significant, np.bool_)
        )
        for name in ("model_names", "dataset_names"):
            object.__setattr__(self, name, tuple(str(item) for item in getattr(self, name)))
        object.__setattr__(self, "higher_is_better", bool(self.higher_is_better))

    @property
    def order(self) -> tuple[int, ...]:
        """The model indices from the best average rank to the worst (ties: table order)."""
        return tuple(int(j) for j in np.argsort(self.average_ranks, kind="stable"))

    @property
    def cliques(self) -> tuple[tuple[int, ...], ...]:
        """The Nemenyi groups: maximal runs of models (best first) whose average ranks
        differ by less than the critical difference."""
        return self.nemenyi.cliques or ()

    def to_dict(self) -> dict[str, Any]:
        """The fields as plain JSON data; the nested test results as their own
        ``to_dict()``."""
        return {
            field.name: (
                getattr(self, field.name).to_dict()
                if isinstance(getattr(self, field.name), _ResultMixin)
                else _plain(getattr(self, field.name))
            )
            for field in dataclasses.fields(self)
        }

    def __str__(self) -> str:
        """An aligned summary: the tests, the models by average rank, every pair."""
        return _rank_tables.text(self)

    def to_markdown(self) -> str:
        """The summary as Markdown: the tests as a list, the models and pairs as tables."""
        return _rank_tables.markdown(self)

    def to_html(self, *, diagram: bool = True) -> str:
        """One self-contained HTML page (inline CSS, no network): the tests, the tables
        and, when ``diagram`` and matplotlib is installed, the critical difference
        diagram as inline SVG (otherwise a note says it is omitted)."""
        return _rank_tables.html_page(self, diagram=diagram)

    def _repr_html_(self) -> str:
        """The tables as an HTML fragment (Jupyter), without the diagram."""
        return _rank_tables.html_fragment(self)

"""The paired bootstrap of ROC AUC of every pair of models, and the models' own bootstrap
intervals from its replicates.

A report of unweighted, ungrouped rows with the multinomial bootstrap takes both from its
one draw (:mod:`assay.reports._draw`, :func:`drawn_comparisons`).  Otherwise (weights,
groups or the Poisson bootstrap) every pair is ``compare``'s own paired bootstrap: a
paired bootstrap streams each replicate over model A's sorted rows exactly as the
bootstrap of model A alone does when those rows are unweighted, unclustered and their
scores untied: model A's replicates are then that bootstrap's, bit for bit, and the
report need not draw them again.  Each model but the last is model A of its pair with the
next model; the last one (and any model whose scores are tied) is bootstrapped on its own.
"""

from __future__ import annotations

from itertools import combinations, pairwise
from typing import TYPE_CHECKING, Any

import numpy as np

from assay.metrics._registry import metric_range, resolve_metric_call
from assay.resampling._bootstrap import bootstrap_result
from assay.resampling._compare import bootstrap_comparison, paired_comparison
from assay.resampling._paired_replicates import PairedReplicates

if TYPE_CHECKING:
    from assay.reports._draw import ModelReplicates

__all__ = ["auc_bootstrap", "auc_comparisons", "drawn_comparisons", "shared_replicates"]


def auc_comparisons(
    names: list[str], y_true: np.ndarray, y_scores: dict[str, np.ndarray], resampled: dict
) -> dict[tuple[str, str], tuple[Any, Any]]:
    """The paired bootstrap of ROC AUC of every pair: ``compare``'s result, and both
    models' replicates."""
    import assay

    return {
        (a, b): paired_comparison(
            assay.roc_auc_score, y_true, y_scores[a], y_scores[b], **resampled
        )
        for a, b in combinations(names, 2)
    }


def drawn_comparisons(
    names: list[str],
    estimates: dict[str, float],
    drawn: dict[str, ModelReplicates],
    resampled: dict,
) -> tuple[dict[tuple[str, str], tuple[Any, Any]], dict[str, tuple[float, np.ndarray]]]:
    """The paired bootstrap of ROC AUC of every pair, and every model's estimate and
    replicates, from the report's one draw and the models' ROC AUCs (``estimates``, the
    values of ``roc_auc_score``): a pair's replicate differences are the difference of its
    two models' replicates (``compare``'s basic interval and p-value of them; for a pair of
    the first model with another, ``compare``'s own result)."""
    import assay

    declaration, _, name, _ = resolve_metric_call(assay.roc_auc_score, {})
    comparisons = {}
    for a, b in combinations(names, 2):
        replicates = PairedReplicates(drawn[a].roc_auc, drawn[b].roc_auc, None)
        result = bootstrap_comparison(
            replicates,
            estimates[a],
            estimates[b],
            interval="basic",
            confidence_level=resampled["confidence_level"],
            alternative="two-sided",
            n_resamples=resampled["n_resamples"],
            seed=resampled["rng"],
            name=name,
            declaration=declaration,
            stacklevel=3,
        )
        comparisons[(a, b)] = (result, replicates)
    shared = {model: (estimates[model], drawn[model].roc_auc) for model in names}
    return comparisons, shared


def shared_replicates(
    names: list[str], comparisons: dict[tuple[str, str], tuple[Any, Any]]
) -> dict[str, tuple[float, np.ndarray]]:
    """The ROC AUC replicates of the models that a paired bootstrap drew already.

    A paired bootstrap draws model A's replicates exactly as ``bootstrap`` of model A
    alone with the same seed (when its rows are unweighted, unclustered and its scores
    untied: ``a_alone``); each model but the last is model A of the pair with the next
    model, whose replicates then serve its bootstrap interval.
    """
    shared = {}
    for first, second in pairwise(names):
        result, replicates = comparisons[(first, second)]
        if replicates is not None and replicates.a_alone:
            shared[first] = (result.estimate_a, replicates.values_a)
    return shared


def auc_bootstrap(
    y_true: np.ndarray,
    score: np.ndarray,
    shared: tuple[float, np.ndarray] | None,
    resampled: dict,
) -> Any:
    """``bootstrap(roc_auc_score, ...)``: from the estimate and replicates of a paired
    bootstrap (the same values, one pass fewer) or drawn here."""
    import assay

    if shared is None:
        return assay.bootstrap(assay.roc_auc_score, y_true, score, **resampled)
    estimate, replicates = shared
    declaration, function, name, keywords = resolve_metric_call(assay.roc_auc_score, {})
    return bootstrap_result(
        replicates,
        estimate,
        None,
        method="percentile",
        confidence_level=resampled["confidence_level"],
        n_resamples=resampled["n_resamples"],
        seed=resampled["rng"],
        name=name,
        value_range=metric_range(declaration, function, keywords),
        stacklevel=3,
    )

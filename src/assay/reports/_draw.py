"""The report's one draw of bootstrap replicates, shared by the ranking rows, pairs and bands.

A report of unweighted, ungrouped rows with the multinomial bootstrap draws ONE set of
replicates: replicate ``r`` counts the rows as the classical (unstratified) bootstrap
does, drawn over the first model's sorted rows from ``stream(seed, r)``, exactly as
``assay.compare(assay.roc_auc_score, y, first, other, rng=seed)`` draws it.  From those
counts, in one pass per replicate over each model's sorted rows
(:func:`assay._kernels.report_draws.report_replicates`), come every model's

* ROC AUC replicates (the percentile bootstrap row ``roc_auc_bootstrap``);
* ROC and precision-recall curves at the report's grids (the simultaneous bands);

and the replicate's joint cells of the label and every model's prediction at the threshold
(:mod:`assay.reports._drawn_cells`: the threshold metrics and the paired F1),

and the paired ROC AUC differences of every pair are the differences of the two models'
replicates.  The first model's ROC AUC replicates are those of ``assay.bootstrap`` of the
first model alone when its scores are untied; the pairs of the first model with another
are ``assay.compare``'s, value for value.  The bands resample without strata, so a
replicate's class sizes vary (the standalone bands keep them fixed); a replicate that
draws no positive or no negative row has no curves and is left out of the bands.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from assay._kernels import bands, paired, report_draws, resample
from assay.metrics._registry import resolve_metric_call
from assay.resampling._bands import empty_curves
from assay.resampling._plans import paired_stream_plan
from assay.resampling._resampling import Progress, chunk_size, workers_for

__all__ = ["Drawn", "ModelReplicates", "draw_replicates"]


class ModelReplicates(NamedTuple):
    """One model's replicates of the report's draw, and its curves on the data."""

    roc_auc: np.ndarray  # (n_resamples,)
    roc: np.ndarray  # (n_resamples, grid points): true positive rate at ``grids.roc``
    precision: np.ndarray  # (n_resamples, grid points): precision at the recalls
    roc_estimate: np.ndarray
    precision_estimate: np.ndarray


class Drawn(NamedTuple):
    """The report's draw: every model's replicates, and the joint cells of every replicate
    (replicates x cells; None when no codes were given)."""

    models: dict[str, ModelReplicates]
    cells: np.ndarray | None


def _curves_of_data(atoms: Any, grids: bands.Grids) -> tuple[np.ndarray, np.ndarray]:
    n_positive = int(np.count_nonzero(atoms.is_positive))
    n = atoms.is_positive.shape[0]
    ones = np.ones(n, dtype=np.int64)
    return bands.curves_at_grids(
        atoms.is_positive, atoms.continues, ones, n_positive, n - n_positive, grids
    )


def draw_replicates(
    y_true: np.ndarray,
    y_scores: dict[str, np.ndarray],
    grids: bands.Grids,
    n_resamples: int,
    seed: int,
    progress: bool = False,
    codes: np.ndarray | None = None,
) -> Drawn:
    """Every model's replicates of the report's one draw (see the module's notes).

    ``y_scores``: the models' scores in the report's order (the first one's sorted rows
    carry the draw).  With more than two models each further model is a pass of its
    own over the first model's rows (the same draw again) and its own.  ``codes``: every
    row's joint cell (uint8, 0 .. ``n_cells - 1``), counted in the first pass.
    """
    import assay

    declaration, _, _, keywords = resolve_metric_call(assay.roc_auc_score, {})
    assert declaration is not None and declaration.scan_options is not None
    options = declaration.scan_options(**keywords)
    names = list(y_scores)
    first = names[0]
    others = names[1:] or [first]
    drawn: dict[str, ModelReplicates] = {}
    n_cells = 0 if codes is None else int(codes.max()) + 1 if codes.size else 1
    cells = np.zeros((n_resamples, n_cells), dtype=np.int64)
    for other in others:
        counting = codes is not None and other == others[0]
        plan = paired_stream_plan(y_true, y_scores[first], y_scores[other], pos_label=None,
                                  sample_weight=None, clusters=None,
                                  row_codes=codes if counting else None)  # fmt: skip
        outs_cells = cells if counting else np.zeros((n_resamples, 0), dtype=np.int64)
        alone = other == first
        a_position_of_b = np.empty(0, dtype=np.int64) if alone else plan.a_position_of_b
        out_a = np.empty(n_resamples, dtype=np.float64)
        out_b = np.empty(n_resamples, dtype=np.float64)
        curves_a = empty_curves(n_resamples, grids)
        curves_b = empty_curves(n_resamples, grids)
        workers = workers_for(n_resamples * 3 * plan.n_atoms)
        size = chunk_size(n_resamples, 3 * plan.n_atoms, workers)
        batches = paired.LANES * workers  # whole batches of eight for every worker
        size = min(n_resamples, max(batches, size - size % batches))
        bar = Progress(n_resamples, "bootstrap", progress)
        try:
            for start in range(0, n_resamples, size):
                stop = min(start + size, n_resamples)
                report_draws.report_replicates(
                    plan.a, plan.b, a_position_of_b, plan.clusters, plan.codes_a, options,
                    resample.Draw(resample.MULTINOMIAL, np.uint64(seed), start), grids,
                    report_draws.Outs(
                        out_a[start:stop], out_b[start:stop],
                        curves_a[0][start:stop], curves_a[1][start:stop],
                        curves_b[0][start:stop], curves_b[1][start:stop],
                        outs_cells[start:stop],
                    ),
                    workers,
                )  # fmt: skip
                bar.update(stop - start)
        finally:
            bar.close()
        if first not in drawn:
            drawn[first] = ModelReplicates(out_a, *curves_a, *_curves_of_data(plan.a, grids))
        if not alone:
            drawn[other] = ModelReplicates(out_b, *curves_b, *_curves_of_data(plan.b, grids))
        del plan
    return Drawn(drawn, None if codes is None else cells)

"""The report's curves: ROC and precision-recall curves with simultaneous bootstrap bands."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from assay.reports._result import CurveReport, DataSummary, ModelReport, Settings
from assay.resampling._bands import curve_bands

if TYPE_CHECKING:
    from assay._results._bands import CurveBand

BAND_KIND = "simultaneous"
"""The kind of every band in the report: a band drawn around a whole curve is read as a
statement about the whole curve, which only the simultaneous (sup-t) band makes."""

ROC_GRID = np.linspace(0.0, 1.0, 101)
"""False positive rates at which the ROC curve and its band are read."""

PRECISION_RECALL_GRID = np.linspace(0.01, 1.0, 100)
"""Recalls at which precision and its band are read (precision is undefined at recall 0)."""


POISSON_NOTE = (
    "The ROC and precision-recall curves are left out: their simultaneous bands draw "
    "multinomial replicates (a fixed number of rows), which have no Poisson or Dask form "
    "yet, and this report resamples with resampling='poisson'."
)
"""The note of a Poisson report (one machine or Dask) in place of its curves."""


def _values(array: np.ndarray) -> tuple[float, ...]:
    return tuple(float(value) for value in array)


def _curve(band: CurveBand) -> CurveReport:
    return CurveReport(
        curve=band.curve,
        kind=band.kind,
        grid=_values(band.grid),
        estimate=_values(band.estimate),
        lower=_values(band.lower),
        upper=_values(band.upper),
    )


def with_curves(
    models: tuple[ModelReport, ...],
    y_true: np.ndarray,
    y_scores: dict[str, np.ndarray],
    data: DataSummary,
    settings: Settings,
) -> tuple[tuple[ModelReport, ...], tuple[str, ...]]:
    """The models with their ROC and precision-recall curves, and the report's notes.

    Each model's two curves are :func:`assay.roc_band` and
    :func:`assay.precision_recall_band` called with the report's resamples, confidence
    level and seed, ``kind=BAND_KIND``, drawn together: one pass over the sorted rows per
    replicate reads both curves (the same values as the two calls).  Those bands resample
    rows without weights and without groups, with the multinomial draw: a weighted, grouped
    or Poisson-resampled report gets no curves and a note that says why.
    """
    if settings.resampling == "poisson":
        return models, (POISSON_NOTE,)
    if data.weight is not None or data.group is not None:
        what = "sample weights" if data.weight is not None else "groups"
        note = (
            f"The ROC and precision-recall curves are left out: their bands resample "
            f"single unweighted rows, and this report has {what}."
        )
        return models, (note,)
    drawn = []
    for model in models:
        bands = curve_bands(
            y_true,
            y_scores[model.name],
            roc_grid=ROC_GRID,
            recall_grid=PRECISION_RECALL_GRID,
            n_resamples=settings.n_resamples,
            confidence_level=settings.confidence_level,
            kind=BAND_KIND,
            rng=settings.rng_seed,
        )
        drawn.append(replace(model, curves=tuple(_curve(band) for band in bands)))
    return tuple(drawn), ()

"""The report's curves: ROC and precision-recall curves with simultaneous bootstrap bands
from the report's one draw of replicates (:mod:`assay.reports._draw`)."""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from assay._kernels.bands import Grids
from assay.exceptions import UndefinedMetricWarning
from assay.reports._result import CurveReport, DataSummary, ModelReport, Settings
from assay.resampling._bands import band_of_replicates

if TYPE_CHECKING:
    from assay._results._bands import CurveBand
    from assay.reports._draw import ModelReplicates

BAND_KIND = "simultaneous"
"""The kind of every band in the report: a band drawn around a whole curve is read as a
statement about the whole curve, which only the simultaneous (sup-t) band makes."""

BAND_METHOD = (
    "simultaneous (sup-t) bootstrap band from the report's replicates (multinomial, "
    "unstratified: the draw of every resampled number of the report)"
)
"""The method of every band in the report (``CurveReport.method``)."""

ROC_GRID = np.linspace(0.0, 1.0, 101)
"""False positive rates at which the ROC curve and its band are read."""

PRECISION_RECALL_GRID = np.linspace(0.01, 1.0, 100)
"""Recalls at which precision and its band are read (precision is undefined at recall 0)."""

CURVE_GRIDS = Grids(ROC_GRID, PRECISION_RECALL_GRID)
"""Both grids, as the kernels take them."""


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
        method=BAND_METHOD,
    )


def _band(
    curve: str, grid: np.ndarray, estimate: np.ndarray, curves: np.ndarray, settings: Settings
) -> CurveBand:
    """The band of one curve from the report's replicates; a replicate without curves (no
    positive or no negative row drawn, NaN) is left out with a warning, as ``bootstrap``
    leaves out an undefined replicate."""
    defined = ~np.isnan(curves).any(axis=1)
    n_undefined = int(curves.shape[0] - np.count_nonzero(defined))
    if n_undefined:
        warnings.warn(
            f"The {curve} curve was undefined in {n_undefined} of {curves.shape[0]} "
            "bootstrap replicates (no positive or no negative row drawn); they are left "
            "out of its band.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        curves = curves[defined]
    band = band_of_replicates(
        curve, grid, estimate, curves, settings.confidence_level, BAND_KIND, settings.rng_seed
    )
    if curves.shape[0] == 0:  # no replicate has the curve: no band (NaN), as no interval
        undefined = np.full(grid.shape[0], np.nan)
        band = replace(band, lower=undefined, upper=undefined)
    return band


def with_curves(
    models: tuple[ModelReport, ...],
    replicates: dict[str, ModelReplicates] | None,
    data: DataSummary,
    settings: Settings,
) -> tuple[tuple[ModelReport, ...], tuple[str, ...]]:
    """The models with their ROC and precision-recall curves, and the report's notes.

    Each model's two curves are read at ``ROC_GRID`` and ``PRECISION_RECALL_GRID`` on the
    data and on every replicate of the report's one draw (``replicates``,
    :mod:`assay.reports._draw`), and banded as :func:`assay.roc_band` and
    :func:`assay.precision_recall_band` band their replicates (``kind=BAND_KIND``).  The
    draw resamples rows without weights and without groups, with the multinomial draw: a
    weighted, grouped or Poisson-resampled report gets no curves and a note that says why.
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
    assert replicates is not None
    drawn = []
    for model in models:
        drawn_model = replicates[model.name]
        roc = _band("roc", ROC_GRID, drawn_model.roc_estimate, drawn_model.roc, settings)
        precision = _band(
            "precision_recall",
            PRECISION_RECALL_GRID,
            drawn_model.precision_estimate,
            drawn_model.precision,
            settings,
        )
        drawn.append(replace(model, curves=(_curve(roc), _curve(precision))))
    return tuple(drawn), ()

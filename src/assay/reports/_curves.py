"""The report's curves: ROC and precision-recall curves with simultaneous bootstrap bands
from the report's one draw of replicates (:mod:`assay.reports._draw`), or, in a Poisson
report, from each model's Poisson replicates (:func:`assay.roc_band` and
:func:`assay.precision_recall_band` with ``resampling="poisson"``; on Dask the same
replicates, drawn bucket by bucket by :mod:`assay.dask._bands`)."""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from assay._kernels.bands import Grids
from assay.exceptions import UndefinedMetricWarning
from assay.reports._result import CurveReport, DataSummary, ModelReport, Settings
from assay.resampling._bands import (
    Curves,
    band_of_defined_replicates,
    band_of_replicates,
    poisson_curves,
)

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
"""The method of every band of a multinomial report (``CurveReport.method``)."""

POISSON_BAND_METHOD = (
    "simultaneous (sup-t) bootstrap band of Poisson replicates (every row counted "
    "Poisson(1) times: assay.roc_band and assay.precision_recall_band with "
    "resampling='poisson' and the report's seed)"
)
"""The method of every band of a Poisson report (``CurveReport.method``)."""

ROC_GRID = np.linspace(0.0, 1.0, 101)
"""False positive rates at which the ROC curve and its band are read."""

PRECISION_RECALL_GRID = np.linspace(0.01, 1.0, 100)
"""Recalls at which precision and its band are read (precision is undefined at recall 0)."""

CURVE_GRIDS = Grids(ROC_GRID, PRECISION_RECALL_GRID)
"""Both grids, as the kernels take them."""


def _values(array: np.ndarray) -> tuple[float, ...]:
    return tuple(float(value) for value in array)


def _curve(band: CurveBand, method: str = BAND_METHOD) -> CurveReport:
    return CurveReport(
        curve=band.curve,
        kind=band.kind,
        grid=_values(band.grid),
        estimate=_values(band.estimate),
        lower=_values(band.lower),
        upper=_values(band.upper),
        method=method,
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


def poisson_replicates(
    y_true: np.ndarray, y_scores: dict[str, np.ndarray], settings: Settings
) -> dict[str, tuple[Curves, Curves]]:
    """Every model's curves of the data and of its Poisson replicates at the report's
    grids (:func:`assay.resampling._bands.poisson_curves`, the report's seed)."""
    return {
        name: poisson_curves(y_true, scores, CURVE_GRIDS, settings.n_resamples,
                             settings.rng_seed)
        for name, scores in y_scores.items()
    }  # fmt: skip


def _poisson_curves(
    models: tuple[ModelReport, ...],
    drawn: dict[str, tuple[Curves, Curves]],
    settings: Settings,
) -> tuple[ModelReport, ...]:
    """Every model's curves with the Poisson bands of its own rows: ``drawn[name]``, the
    curves of the data and of every Poisson replicate
    (:func:`assay.resampling._bands.poisson_curves`, or the same drawn on Dask), banded as
    :func:`assay.roc_band` and :func:`assay.precision_recall_band` band them with
    ``kind=BAND_KIND``, ``resampling="poisson"`` and the report's seed (an undefined
    replicate is left out with a warning)."""
    common = (settings.confidence_level, BAND_KIND, settings.rng_seed, "poisson")
    banded = []
    for model in models:
        (roc_estimate, precision_estimate), (roc, precision) = drawn[model.name]
        bands = (
            band_of_defined_replicates("roc", ROC_GRID, roc_estimate, roc, *common),
            band_of_defined_replicates("precision_recall", PRECISION_RECALL_GRID,
                                       precision_estimate, precision, *common),
        )  # fmt: skip
        curves = tuple(_curve(band, POISSON_BAND_METHOD) for band in bands)
        banded.append(replace(model, curves=curves))
    return tuple(banded)


def with_curves(
    models: tuple[ModelReport, ...],
    replicates: dict[str, ModelReplicates] | None,
    data: DataSummary,
    settings: Settings,
    poisson: dict[str, tuple[Curves, Curves]] | None = None,
) -> tuple[tuple[ModelReport, ...], tuple[str, ...]]:
    """The models with their ROC and precision-recall curves, and the report's notes.

    Each model's two curves are read at ``ROC_GRID`` and ``PRECISION_RECALL_GRID`` on the
    data and on every replicate, and banded as :func:`assay.roc_band` and
    :func:`assay.precision_recall_band` band their replicates (``kind=BAND_KIND``).  The
    replicates resample single unweighted rows: a weighted or grouped report gets no
    curves and a note that says why.  A multinomial report's replicates are its one draw
    (``replicates``, :mod:`assay.reports._draw`); a Poisson report's are each model's
    own Poisson replicates (``poisson``: its curves of the data and of every replicate,
    see :func:`_poisson_curves`).
    """
    if data.weight is not None or data.group is not None:
        what = "sample weights" if data.weight is not None else "groups"
        note = (
            f"The ROC and precision-recall curves are left out: their bands resample "
            f"single unweighted rows, and this report has {what}."
        )
        return models, (note,)
    if settings.resampling == "poisson":
        assert poisson is not None
        return _poisson_curves(models, poisson, settings), ()
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

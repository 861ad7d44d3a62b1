"""Displays of ranking curves: ROC, precision-recall and DET, with confidence bands.

The displays follow scikit-learn's: build one from predictions
(``from_predictions(y_true, y_score, ...)``) or from a fitted estimator
(``from_estimator(estimator, X, y, ...)``), draw it with ``plot(ax=...)`` and read the
drawn artists from ``line_``, ``band_``, ``ax_`` and ``figure_``.  Several models go on
one axes by passing the same ``ax``, or at once by passing ``y_score`` as a mapping of
names to scores (a list of displays is then returned).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from assay import _special as special
from assay._results._bands import CurveBand
from assay.inference._delong import auc_ci
from assay.metrics import (
    average_precision_score,
    det_curve,
    equal_error_rate,
    precision_recall_curve,
    roc_curve,
)
from assay.plot._common import axes, estimator_scores, interval_text, named_scores
from assay.resampling import bootstrap
from assay.resampling._bands import precision_recall_band, roc_band

__all__ = ["DetCurveDisplay", "PrecisionRecallDisplay", "RocCurveDisplay"]

_BAND_ALPHA = 0.2  # opacity of a band, drawn in the colour of its line
_BAND_KINDS = (None, "pointwise", "simultaneous")


def _resampling(options: dict[str, Any]) -> dict[str, Any]:
    """The options of a band or a bootstrap interval among ``from_predictions``'s."""
    keys = ("n_resamples", "confidence_level", "resampling", "rng")
    return {key: options[key] for key in keys}


class _CurveDisplay:
    """A curve (x, y), a summary for the legend and an optional band."""

    _summary_label = ""
    _xlabel = ""
    _ylabel = ""

    def __init__(
        self,
        x: Any,
        y: Any,
        *,
        summary: float | None,
        summary_interval: Any,
        confidence_level: float,
        band: CurveBand | None,
        name: str | None,
        pos_label: Any,
    ) -> None:
        self._x = np.asarray(x, dtype=np.float64)
        self._y = np.asarray(y, dtype=np.float64)
        self._summary = summary
        self._summary_interval = summary_interval
        self.confidence_level = confidence_level
        self.band = band
        self.name = name
        self.pos_label = pos_label
        self.ax_: Any = None
        self.figure_: Any = None
        self.line_: Any = None
        self.band_: Any = None

    def _label(self, name: str | None) -> str | None:
        parts = []
        if self._summary is not None:
            parts.append(
                interval_text(
                    self._summary_label,
                    self._summary,
                    self._summary_interval,
                    self.confidence_level,
                )
            )
        if name is None:
            return parts[0] if parts else None
        return f"{name} ({parts[0]})" if parts else name

    def _drawn_xy(self) -> tuple[np.ndarray, np.ndarray]:
        return self._x, self._y

    def _decorate(self, ax: Any) -> None:
        ax.set_xlabel(self._xlabel)
        ax.set_ylabel(self._ylabel)

    def plot(self, ax: Any = None, *, name: str | None = None, **line_kwargs: Any) -> Any:
        """Draw the curve (and its band, if any) on ``ax`` (a new figure when None).

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            Where to draw; pass the same axes again to add another model.
        name : str, optional
            Name of the curve in the legend (default: the display's ``name``).
        **line_kwargs
            Passed to ``ax.plot`` for the curve.

        Returns
        -------
        self
            With ``ax_``, ``figure_``, ``line_`` and ``band_`` (None without a band).
        """
        ax = axes(ax, type(self).__name__)
        label = self._label(self.name if name is None else name)
        x, y = self._drawn_xy()
        (self.line_,) = ax.plot(x, y, label=label, **line_kwargs)
        self.band_ = None
        if self.band is not None:
            self.band_ = ax.fill_between(
                self.band.grid,
                self.band.lower,
                self.band.upper,
                color=self.line_.get_color(),
                alpha=_BAND_ALPHA,
                linewidth=0,
            )
        self._decorate(ax)
        if label is not None:
            ax.legend(loc=self._legend_location, fontsize="small")
        self.ax_ = ax
        self.figure_ = ax.figure
        return self

    _legend_location = "lower right"

    @classmethod
    def _from_one(cls, y_true: Any, y_score: Any, **kwargs: Any) -> Any:  # pragma: no cover
        raise NotImplementedError

    @classmethod
    def from_predictions(
        cls,
        y_true: Any,
        y_score: Any,
        *,
        pos_label: Any = None,
        name: str | None = None,
        ax: Any = None,
        band: str | None = "pointwise",
        interval: bool = True,
        n_resamples: int = 1000,
        confidence_level: float = 0.95,
        resampling: str = "multinomial",
        rng: Any = None,
        **line_kwargs: Any,
    ) -> Any:
        """Compute the curve of ``y_score`` against ``y_true`` and draw it.

        ``y_score`` may map names to scores (several models): they are drawn on one
        axes and a list of displays is returned.  See the class docstring for the
        parameters.
        """
        if band not in _BAND_KINDS:
            raise ValueError(
                f"`band` must be one of [None, 'pointwise', 'simultaneous']; got {band!r}."
            )
        displays = []
        for model, scores in named_scores(y_score, name):
            display = cls._from_one(
                y_true,
                scores,
                pos_label=pos_label,
                name=model,
                band=band,
                interval=interval,
                n_resamples=n_resamples,
                confidence_level=confidence_level,
                resampling=resampling,
                rng=rng,
            )
            ax = display.plot(ax=ax, **line_kwargs).ax_
            displays.append(display)
        return displays if isinstance(y_score, Mapping) else displays[0]

    @classmethod
    def from_estimator(
        cls,
        estimator: Any,
        X: Any,
        y: Any,
        *,
        response_method: str = "auto",
        pos_label: Any = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> Any:
        """Scores of a fitted estimator on ``X`` (``predict_proba`` or
        ``decision_function``), then :meth:`from_predictions`."""
        scores = estimator_scores(estimator, X, response_method, pos_label)
        name = type(estimator).__name__ if name is None else name
        return cls.from_predictions(y, scores, pos_label=pos_label, name=name, **kwargs)


class RocCurveDisplay(_CurveDisplay):
    """ROC curve, its AUC with a DeLong interval, and a bootstrap band.

    Parameters
    ----------
    fpr, tpr : array-like
        The curve's points (:func:`assay.roc_curve`).
    roc_auc : float, optional
        Shown in the legend.
    roc_auc_interval : (float, float), optional
        Confidence interval of ``roc_auc``, shown in the legend.
    confidence_level : float, default=0.95
        Level of the interval and of the band.
    band : CurveBand, optional
        A band of :func:`assay.roc_band`, drawn around the curve.
    name : str, optional
        Name in the legend.
    pos_label : optional
        The positive class.

    Attributes
    ----------
    line_ : matplotlib.lines.Line2D
        The curve.
    band_ : matplotlib.collections.PolyCollection or None
        The band.
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    Notes
    -----
    ``from_predictions(y_true, y_score, *, pos_label=None, name=None, ax=None,
    band='pointwise', interval=True, n_resamples=1000, confidence_level=0.95,
    resampling='multinomial', rng=None, **line_kwargs)``: the AUC's interval is
    DeLong's on the logit scale (:func:`assay.auc_ci`); ``band`` is None,
    ``'pointwise'`` or ``'simultaneous'`` and ``resampling`` ``'multinomial'`` or
    ``'poisson'`` (:func:`assay.roc_band`, which says how each is built).
    ``from_estimator(estimator, X, y, *, response_method='auto', ...)`` scores ``X``
    first.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from assay.plot import RocCurveDisplay
    >>> y = np.repeat([0, 1], 100)
    >>> score = np.random.default_rng(0).normal(size=200) + y
    >>> display = RocCurveDisplay.from_predictions(y, score, name="model", rng=0)
    >>> display.line_.get_label()
    'model (AUC = 0.740, 95% CI [0.666, 0.803])'
    """

    _summary_label = "AUC"
    _xlabel = "False positive rate"
    _ylabel = "True positive rate"

    def __init__(
        self,
        *,
        fpr: Any,
        tpr: Any,
        roc_auc: float | None = None,
        roc_auc_interval: Any = None,
        confidence_level: float = 0.95,
        band: CurveBand | None = None,
        name: str | None = None,
        pos_label: Any = None,
    ) -> None:
        super().__init__(fpr, tpr, summary=roc_auc, summary_interval=roc_auc_interval,
                         confidence_level=confidence_level, band=band, name=name,
                         pos_label=pos_label)  # fmt: skip
        self.fpr, self.tpr = self._x, self._y
        self.roc_auc, self.roc_auc_interval = roc_auc, roc_auc_interval

    def _decorate(self, ax: Any) -> None:
        super()._decorate(ax)
        if not any(line.get_gid() == "chance" for line in ax.lines):
            ax.plot([0, 1], [0, 1], color="grey", linestyle=":", linewidth=1, gid="chance")
        ax.set_xlim(-0.01, 1.01)
        ax.set_ylim(-0.01, 1.01)
        ax.set_aspect("equal")

    @classmethod
    def _from_one(cls, y_true: Any, y_score: Any, **kwargs: Any) -> RocCurveDisplay:
        pos_label = kwargs["pos_label"]
        fpr, tpr, _ = roc_curve(y_true, y_score, pos_label=pos_label)
        result = auc_ci(y_true, y_score, pos_label=pos_label,
                        confidence_level=kwargs["confidence_level"])  # fmt: skip
        band = None
        if kwargs["band"] is not None:
            band = roc_band(y_true, y_score, pos_label=pos_label, kind=kwargs["band"],
                            **_resampling(kwargs))  # fmt: skip
        return cls(
            fpr=fpr,
            tpr=tpr,
            roc_auc=result.estimate,
            roc_auc_interval=tuple(result.confidence_interval) if kwargs["interval"] else None,
            confidence_level=kwargs["confidence_level"],
            band=band,
            name=kwargs["name"],
            pos_label=pos_label,
        )


class PrecisionRecallDisplay(_CurveDisplay):
    """Precision-recall curve, its average precision with a bootstrap interval, a band.

    Parameters
    ----------
    precision, recall : array-like
        The curve's points (:func:`assay.precision_recall_curve`).
    average_precision : float, optional
        Shown in the legend.
    average_precision_interval : (float, float), optional
        Confidence interval of ``average_precision``, shown in the legend.
    prevalence : float, optional
        Share of positives: the precision of a classifier without skill (a dotted line).
    confidence_level : float, default=0.95
    band : CurveBand, optional
        A band of :func:`assay.precision_recall_band`.
    name : str, optional
    pos_label : optional

    Attributes
    ----------
    line_, band_, ax_, figure_
        As :class:`RocCurveDisplay`'s.

    Notes
    -----
    The curve is drawn as steps (the area under the steps is the average precision).
    ``from_predictions`` and ``from_estimator`` take the options of
    :class:`RocCurveDisplay`'s; the interval of the average precision is the
    bootstrap's (:func:`assay.bootstrap`, ``n_resamples`` replicates drawn as
    ``resampling`` says).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from assay.plot import PrecisionRecallDisplay
    >>> y = np.repeat([0, 1], 100)
    >>> score = np.random.default_rng(0).normal(size=200) + y
    >>> display = PrecisionRecallDisplay.from_predictions(y, score, band=None, rng=0)
    >>> display.line_.get_label()
    'AP = 0.750, 95% CI [0.665, 0.820]'
    """

    _summary_label = "AP"
    _xlabel = "Recall"
    _ylabel = "Precision"
    _legend_location = "lower left"

    def __init__(
        self,
        *,
        precision: Any,
        recall: Any,
        average_precision: float | None = None,
        average_precision_interval: Any = None,
        prevalence: float | None = None,
        confidence_level: float = 0.95,
        band: CurveBand | None = None,
        name: str | None = None,
        pos_label: Any = None,
    ) -> None:
        super().__init__(recall, precision, summary=average_precision,
                         summary_interval=average_precision_interval,
                         confidence_level=confidence_level, band=band, name=name,
                         pos_label=pos_label)  # fmt: skip
        self.recall, self.precision = self._x, self._y
        self.average_precision = average_precision
        self.average_precision_interval = average_precision_interval
        self.prevalence = prevalence

    def plot(self, ax: Any = None, *, name: str | None = None, **line_kwargs: Any) -> Any:
        line_kwargs.setdefault("drawstyle", "steps-post")
        return super().plot(ax, name=name, **line_kwargs)

    plot.__doc__ = _CurveDisplay.plot.__doc__

    def _decorate(self, ax: Any) -> None:
        super()._decorate(ax)
        if self.prevalence is not None:
            ax.axhline(self.prevalence, color="grey", linestyle=":", linewidth=1)
        ax.set_xlim(-0.01, 1.01)
        ax.set_ylim(-0.01, 1.01)

    @classmethod
    def _from_one(cls, y_true: Any, y_score: Any, **kwargs: Any) -> PrecisionRecallDisplay:
        pos_label = kwargs["pos_label"]
        precision, recall, _ = precision_recall_curve(y_true, y_score, pos_label=pos_label)
        if kwargs["interval"]:
            result = bootstrap(average_precision_score, y_true, y_score, pos_label=pos_label,
                               **_resampling(kwargs))  # fmt: skip
            value, interval = result.estimate, tuple(result.confidence_interval)
        else:
            value = average_precision_score(y_true, y_score, pos_label=pos_label)
            interval = None
        band = None
        if kwargs["band"] is not None:
            band = precision_recall_band(y_true, y_score, pos_label=pos_label,
                                         kind=kwargs["band"], **_resampling(kwargs))  # fmt: skip
        return cls(
            precision=precision,
            recall=recall,
            average_precision=value,
            average_precision_interval=interval,
            prevalence=float(precision[0]) if precision.size else None,
            confidence_level=kwargs["confidence_level"],
            band=band,
            name=kwargs["name"],
            pos_label=pos_label,
        )


_DET_TICKS = (0.001, 0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.99, 0.999)


class DetCurveDisplay(_CurveDisplay):
    """Detection error trade-off curve on normal-deviate axes, with its equal error rate.

    Parameters
    ----------
    fpr, fnr : array-like
        The curve's points (:func:`assay.det_curve`).
    equal_error_rate : float, optional
        Shown in the legend.
    name : str, optional
    pos_label : optional

    Attributes
    ----------
    line_, ax_, figure_
        As :class:`RocCurveDisplay`'s (``band_`` is None: no band on this plot).

    Notes
    -----
    Both axes are probit-scaled: a rate ``r`` is drawn at ``Phi^-1(r)``, so that two
    normal score distributions give a straight line (Martin et al. 1997).  Points at a
    rate of 0 or 1 lie at infinity and are not drawn.  ``from_predictions`` takes the
    options of :class:`RocCurveDisplay`'s; ``band`` and ``interval`` are ignored.

    References
    ----------
    A. Martin, G. Doddington, T. Kamm, M. Ordowski and M. Przybocki, "The DET curve in
    assessment of detection task performance", Eurospeech 1997.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from assay.plot import DetCurveDisplay
    >>> y = np.repeat([0, 1], 100)
    >>> score = np.random.default_rng(0).normal(size=200) + y
    >>> DetCurveDisplay.from_predictions(y, score).line_.get_label()
    'EER = 0.320'
    """

    _summary_label = "EER"
    _xlabel = "False positive rate"
    _ylabel = "False negative rate"
    _legend_location = "upper right"

    def __init__(
        self,
        *,
        fpr: Any,
        fnr: Any,
        equal_error_rate: float | None = None,
        name: str | None = None,
        pos_label: Any = None,
    ) -> None:
        super().__init__(fpr, fnr, summary=equal_error_rate, summary_interval=None,
                         confidence_level=0.95, band=None, name=name,
                         pos_label=pos_label)  # fmt: skip
        self.fpr, self.fnr = self._x, self._y
        self.equal_error_rate = equal_error_rate

    def _drawn_xy(self) -> tuple[np.ndarray, np.ndarray]:
        x, y = special.ndtri(self._x), special.ndtri(self._y)
        finite = np.isfinite(x) & np.isfinite(y)
        return x[finite], y[finite]

    def _decorate(self, ax: Any) -> None:
        super()._decorate(ax)
        ticks = special.ndtri(np.array(_DET_TICKS))
        labels = [f"{tick:.0%}" if 0.01 <= tick <= 0.99 else f"{tick:.1%}" for tick in _DET_TICKS]
        ax.set_xticks(ticks, labels)
        ax.set_yticks(ticks, labels)
        ax.set_xlim(ticks[0], ticks[-1])
        ax.set_ylim(ticks[0], ticks[-1])

    @classmethod
    def _from_one(cls, y_true: Any, y_score: Any, **kwargs: Any) -> DetCurveDisplay:
        pos_label = kwargs["pos_label"]
        fpr, fnr, _ = det_curve(y_true, y_score, pos_label=pos_label)
        return cls(
            fpr=fpr,
            fnr=fnr,
            equal_error_rate=equal_error_rate(y_true, y_score, pos_label=pos_label),
            name=kwargs["name"],
            pos_label=pos_label,
        )

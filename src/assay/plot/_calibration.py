"""The reliability diagram: observed frequency against mean forecast, bin by bin.

Like scikit-learn's ``CalibrationDisplay``: build one from predictions
(``from_predictions(y_true, y_prob, ...)``) or from a fitted estimator
(``from_estimator(estimator, X, y, ...)``), draw it with ``plot(ax=...)`` and read the
drawn artists from ``line_``, ``diagonal_``, ``ax_`` and ``figure_``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from assay.metrics._calibration import binned_forecasts
from assay.plot._common import axes, estimator_scores

__all__ = ["CalibrationDisplay"]

_DIAGONAL_LABEL = "perfectly calibrated"


class CalibrationDisplay:
    """Reliability diagram of binary forecasts.

    Parameters
    ----------
    prob_true : array-like
        Observed frequency of the positive class in each non-empty bin.
    prob_pred : array-like
        Mean forecast in each non-empty bin.
    bin_weight : array-like
        Weight (number of rows without weights) of each non-empty bin.
    expected_calibration_error : float or None
        ECE of the same bins, shown in the legend.
    name : str, optional
        Name of the model in the legend.
    pos_label : label, optional
        The positive class (shown in the axis label).

    Attributes
    ----------
    line_ : matplotlib.lines.Line2D
        The curve: one marker per bin at ``(prob_pred, prob_true)``.
    diagonal_ : matplotlib.lines.Line2D or None
        The diagonal of perfect calibration (None when not drawn by this display).
    ax_, figure_
        The axes and figure drawn on.

    Notes
    -----
    Bins as :func:`assay.calibration_curve` forms them (Niculescu-Mizil and Caruana
    2005, section 4).  Points below the diagonal are over-forecasts; a curve flatter
    than the diagonal is the mark of over-confidence.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from assay.plot import CalibrationDisplay
    >>> display = CalibrationDisplay.from_predictions(
    ...     [0, 0, 1, 1, 1, 0], [0.1, 0.3, 0.7, 0.9, 0.6, 0.4], n_bins=2
    ... )
    >>> display.line_.get_ydata().tolist()
    [0.0, 1.0]
    """

    def __init__(
        self,
        prob_true: Any,
        prob_pred: Any,
        *,
        bin_weight: Any,
        expected_calibration_error: float | None = None,
        name: str | None = None,
        pos_label: Any = None,
    ) -> None:
        self.prob_true = np.asarray(prob_true, dtype=np.float64)
        self.prob_pred = np.asarray(prob_pred, dtype=np.float64)
        self.bin_weight = np.asarray(bin_weight, dtype=np.float64)
        self.expected_calibration_error = expected_calibration_error
        self.name = name
        self.pos_label = pos_label
        self.ax_: Any = None
        self.figure_: Any = None
        self.line_: Any = None
        self.diagonal_: Any = None

    def _label(self, name: str | None) -> str | None:
        if self.expected_calibration_error is None:
            return name
        text = f"ECE = {self.expected_calibration_error:.3f}"
        return text if name is None else f"{name} ({text})"

    def plot(
        self, ax: Any = None, *, name: str | None = None, ref_line: bool = True, **line_kwargs: Any
    ) -> CalibrationDisplay:
        """Draw the curve and the diagonal on ``ax`` (a new figure when None).

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            Where to draw; pass the same axes again to add another model (the diagonal
            is drawn once per axes).
        name : str, optional
            Name of the curve in the legend (default: the display's ``name``).
        ref_line : bool, default=True
            Draw the diagonal ``prob_true = prob_pred``.
        **line_kwargs
            Passed to ``ax.plot`` for the curve (default marker: squares).

        Returns
        -------
        self
            With ``ax_``, ``figure_``, ``line_`` and ``diagonal_``.
        """
        ax = axes(ax, type(self).__name__)
        self.diagonal_ = None
        drawn = any(line.get_label() == _DIAGONAL_LABEL for line in ax.get_lines())
        if ref_line and not drawn:
            (self.diagonal_,) = ax.plot(
                [0.0, 1.0], [0.0, 1.0], linestyle=":", color="black", label=_DIAGONAL_LABEL
            )
        options = {"marker": "s", **line_kwargs}
        label = self._label(self.name if name is None else name)
        (self.line_,) = ax.plot(self.prob_pred, self.prob_true, label=label, **options)
        positive = "" if self.pos_label is None else f" (positive class: {self.pos_label})"
        ax.set_xlabel(f"Mean predicted probability{positive}")
        ax.set_ylabel(f"Fraction of positives{positive}")
        ax.set_xlim(-0.01, 1.01)
        ax.set_ylim(-0.01, 1.01)
        ax.set_aspect("equal")
        ax.legend(loc="upper left", fontsize="small")
        self.ax_ = ax
        self.figure_ = ax.figure
        return self

    @classmethod
    def from_predictions(
        cls,
        y_true: Any,
        y_prob: Any,
        *,
        n_bins: int = 5,
        strategy: str = "uniform",
        pos_label: Any = None,
        sample_weight: Any = None,
        name: str | None = None,
        ax: Any = None,
        ref_line: bool = True,
        **line_kwargs: Any,
    ) -> CalibrationDisplay:
        """Bin the forecasts ``y_prob`` of ``y_true`` and draw the diagram.

        ``n_bins``, ``strategy``, ``pos_label`` and ``sample_weight`` as
        :func:`assay.calibration_curve`; the legend shows the ECE of the same bins.
        """
        bins = binned_forecasts(
            y_true,
            y_prob,
            sample_weight=sample_weight,
            pos_label=pos_label,
            n_bins=n_bins,
            strategy=strategy,
        )[0]
        gaps = np.abs(bins.observed_frequency - bins.mean_forecast)
        display = cls(
            bins.observed_frequency,
            bins.mean_forecast,
            bin_weight=bins.weight,
            expected_calibration_error=float(np.sum(bins.weight * gaps) / np.sum(bins.weight)),
            name=name,
            pos_label=pos_label,
        )
        return display.plot(ax=ax, ref_line=ref_line, **line_kwargs)

    @classmethod
    def from_estimator(
        cls,
        estimator: Any,
        X: Any,
        y: Any,
        *,
        pos_label: Any = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> CalibrationDisplay:
        """The positive class's column of ``estimator.predict_proba(X)``, then
        :meth:`from_predictions`."""
        probabilities = estimator_scores(estimator, X, "predict_proba", pos_label)
        name = type(estimator).__name__ if name is None else name
        return cls.from_predictions(y, probabilities, pos_label=pos_label, name=name, **kwargs)

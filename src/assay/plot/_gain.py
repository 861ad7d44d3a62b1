"""Cumulative gain and lift charts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from assay.metrics import cumulative_gain_curve, lift_score
from assay.plot._common import axes, named_scores

__all__ = ["CumulativeGainDisplay"]

_KINDS = ("gain", "lift")


class CumulativeGainDisplay:
    """Cumulative gain (or lift) against the share of the population targeted.

    ``gain[k]`` is the share of the positives among the top ``fraction[k]`` of the
    population ranked by score (:func:`assay.cumulative_gain_curve`); the lift is
    ``gain / fraction``, how many times more positives the ranking finds than a random
    choice of the same size (Witten and Frank 2005, section 5.7).

    Parameters
    ----------
    fraction, gain : array-like
        The curve's points, from (0, 0) to (1, 1).
    lift_at : float, optional
        The lift at ``lift_fraction``, shown in the legend.
    lift_fraction : float, default=0.1
    name : str, optional
        Name in the legend.

    Attributes
    ----------
    line_ : matplotlib.lines.Line2D
        The curve: gain, or lift (the point at fraction 0 left out).
    kind : str
        ``'gain'`` or ``'lift'``.
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    Notes
    -----
    ``from_predictions(y_true, y_score, *, kind='gain', lift_fraction=0.1,
    pos_label=None, name=None, ax=None, **line_kwargs)``; ``y_score`` may map names to
    scores (several models on one axes, a list of displays returned).  A random ranking
    is the dotted diagonal (gain) or the line at 1 (lift).

    References
    ----------
    I. H. Witten and E. Frank, *Data Mining: Practical Machine Learning Tools and
    Techniques*, 2nd ed., Morgan Kaufmann (2005), section 5.7.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from assay.plot import CumulativeGainDisplay
    >>> y = [1, 0, 1, 0, 0, 0, 1, 0, 0, 0]
    >>> score = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.0]
    >>> display = CumulativeGainDisplay.from_predictions(y, score, lift_fraction=0.3)
    >>> display.line_.get_label()
    'lift at 30% = 2.22'
    """

    def __init__(
        self,
        *,
        fraction: Any,
        gain: Any,
        lift_at: float | None = None,
        lift_fraction: float = 0.1,
        name: str | None = None,
    ) -> None:
        self.fraction = np.asarray(fraction, dtype=np.float64)
        self.gain = np.asarray(gain, dtype=np.float64)
        self.lift_at = lift_at
        self.lift_fraction = lift_fraction
        self.name = name
        self.kind = "gain"
        self.line_: Any = None
        self.ax_: Any = None
        self.figure_: Any = None

    def _label(self, name: str | None) -> str | None:
        summary = None
        if self.lift_at is not None:
            summary = f"lift at {self.lift_fraction:.0%} = {self.lift_at:.2f}"
        if name is None:
            return summary
        return f"{name} ({summary})" if summary else name

    def plot(
        self, ax: Any = None, *, kind: str = "gain", name: str | None = None, **line_kwargs: Any
    ) -> CumulativeGainDisplay:
        """Draw the gain (``kind='gain'``) or the lift (``kind='lift'``) on ``ax``."""
        if kind not in _KINDS:
            raise ValueError(f"`kind` must be one of ['gain', 'lift']; got {kind!r}.")
        ax = axes(ax, type(self).__name__)
        self.kind = kind
        label = self._label(self.name if name is None else name)
        if kind == "gain":
            x, y = self.fraction, self.gain
        else:
            inside = self.fraction > 0
            x, y = self.fraction[inside], self.gain[inside] / self.fraction[inside]
        (self.line_,) = ax.plot(x, y, label=label, **line_kwargs)
        if not any(line.get_gid() == "random" for line in ax.lines):
            random = ([0, 1], [0, 1]) if kind == "gain" else ([0, 1], [1, 1])
            ax.plot(*random, color="grey", linestyle=":", linewidth=1, gid="random")
        ax.set_xlabel("Share of the population targeted (highest scores first)")
        ax.set_ylabel("Share of the positives found" if kind == "gain" else "Lift")
        if label is not None:
            ax.legend(loc="lower right" if kind == "gain" else "upper right", fontsize="small")
        self.ax_ = ax
        self.figure_ = ax.figure
        return self

    @classmethod
    def from_predictions(
        cls,
        y_true: Any,
        y_score: Any,
        *,
        kind: str = "gain",
        lift_fraction: float = 0.1,
        pos_label: Any = None,
        name: str | None = None,
        ax: Any = None,
        **line_kwargs: Any,
    ) -> Any:
        """Compute the curve of each model's scores and draw it (see the class Notes)."""
        displays = []
        for model, scores in named_scores(y_score, name):
            fraction, gain, _ = cumulative_gain_curve(y_true, scores, pos_label=pos_label)
            display = cls(
                fraction=fraction,
                gain=gain,
                lift_at=lift_score(y_true, scores, lift_fraction, pos_label=pos_label),
                lift_fraction=lift_fraction,
                name=model,
            )
            ax = display.plot(ax, kind=kind, **line_kwargs).ax_
            displays.append(display)
        return displays if isinstance(y_score, Mapping) else displays[0]

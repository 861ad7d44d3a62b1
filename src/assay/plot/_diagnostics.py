"""Displays of a threshold's choice, a paired comparison and a bias-variance sweep."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from assay._results import BiasVarianceResult, ComparisonResult
from assay.metrics import confusion_matrix_at_thresholds
from assay.plot._common import axes, interval_text

__all__ = ["BiasVarianceDisplay", "PairedDifferenceDisplay", "ThresholdDisplay"]


def _ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """``numerator / denominator``, NaN where the denominator is 0 (undefined, not drawn)."""
    out = np.full(numerator.shape, np.nan)
    np.divide(numerator, denominator, out=out, where=denominator > 0)
    return out


class ThresholdDisplay:
    """Precision, recall, F1 and the expected cost against the decision threshold.

    Entry ``i`` of every array describes the rule "predict positive iff score >=
    ``thresholds[i]``" (:func:`assay.confusion_matrix_at_thresholds`).

    Parameters
    ----------
    thresholds, precision, recall, f1 : array-like
        The curves (precision is NaN where nothing is predicted positive).
    expected_cost : array-like, optional
        Mean cost per row at each threshold under a cost matrix.

    Attributes
    ----------
    lines_ : dict of str to matplotlib.lines.Line2D
        ``'precision'``, ``'recall'``, ``'f1'`` and, with a cost, ``'expected_cost'``.
    best_threshold_ : float or None
        The threshold of least expected cost (the highest of equal ones), marked by a
        vertical line.
    ax_ : matplotlib.axes.Axes
        The axes of the rates; the cost has its own scale on ``cost_ax_`` (a twin).
    cost_ax_ : matplotlib.axes.Axes or None
    figure_ : matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from assay.plot import ThresholdDisplay
    >>> y = [0, 0, 1, 1, 0, 1]
    >>> score = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7]
    >>> cost = [[0, 1], [0, -10]]  # a mailing costs 1, a buyer brings 10
    >>> display = ThresholdDisplay.from_predictions(y, score, cost_matrix=cost)
    >>> display.best_threshold_
    0.35
    """

    def __init__(
        self,
        *,
        thresholds: Any,
        precision: Any,
        recall: Any,
        f1: Any,
        expected_cost: Any = None,
    ) -> None:
        self.thresholds = np.asarray(thresholds, dtype=np.float64)
        self.precision = np.asarray(precision, dtype=np.float64)
        self.recall = np.asarray(recall, dtype=np.float64)
        self.f1 = np.asarray(f1, dtype=np.float64)
        self.expected_cost = (
            None if expected_cost is None else np.asarray(expected_cost, dtype=np.float64)
        )
        self.lines_: dict[str, Any] = {}
        self.best_threshold_: float | None = None
        self.ax_: Any = None
        self.cost_ax_: Any = None
        self.figure_: Any = None

    @classmethod
    def from_predictions(
        cls,
        y_true: Any,
        y_score: Any,
        *,
        cost_matrix: Any = None,
        pos_label: Any = None,
        ax: Any = None,
    ) -> ThresholdDisplay:
        """Compute the curves at every distinct score and draw them.

        ``cost_matrix[i][j]`` is the cost of predicting ``j`` for true class ``i`` (0:
        negative, 1: positive), as in :func:`assay.expected_cost`.
        """
        table = confusion_matrix_at_thresholds(y_true, y_score, pos_label=pos_label)
        tn, fp, fn, tp = table.tns, table.fps, table.fns, table.tps
        cost = None
        if cost_matrix is not None:
            matrix = np.asarray(cost_matrix, dtype=np.float64)
            if matrix.shape != (2, 2) or not np.all(np.isfinite(matrix)):
                raise ValueError(
                    "`cost_matrix` must be a finite 2 x 2 array (rows: true class, "
                    f"columns: predicted class); got shape {matrix.shape}."
                )
            cells = matrix[0, 0] * tn + matrix[0, 1] * fp + matrix[1, 0] * fn + matrix[1, 1] * tp
            cost = cells / (tn + fp + fn + tp)
        display = cls(
            thresholds=table.thresholds,
            precision=_ratio(tp, tp + fp),
            recall=_ratio(tp, tp + fn),
            f1=_ratio(2 * tp, 2 * tp + fp + fn),
            expected_cost=cost,
        )
        return display.plot(ax=ax)

    def plot(self, ax: Any = None) -> ThresholdDisplay:
        """Draw on ``ax`` (a new figure when None); returns self."""
        ax = axes(ax, type(self).__name__)
        self.lines_ = {}
        for key, label, values in (
            ("precision", "precision", self.precision),
            ("recall", "recall", self.recall),
            ("f1", "F1", self.f1),
        ):
            (self.lines_[key],) = ax.plot(self.thresholds, values, label=label)
        ax.set_xlabel("Threshold (predict positive if score >= threshold)")
        ax.set_ylabel("Rate")
        ax.set_ylim(-0.01, 1.01)
        handles = list(self.lines_.values())
        self.cost_ax_ = None
        self.best_threshold_ = None
        if self.expected_cost is not None:
            self.cost_ax_ = ax.twinx()
            (line,) = self.cost_ax_.plot(self.thresholds, self.expected_cost, color="black",
                                         linestyle="--", label="expected cost")  # fmt: skip
            self.cost_ax_.set_ylabel("Expected cost per row")
            self.lines_["expected_cost"] = line
            handles.append(line)
            best = int(np.argmin(self.expected_cost))  # thresholds decrease: the highest
            self.best_threshold_ = float(self.thresholds[best])
            ax.axvline(self.best_threshold_, color="grey", linestyle=":", linewidth=1)
        ax.legend(handles=handles, loc="center right", fontsize="small")
        self.ax_ = ax
        self.figure_ = ax.figure
        return self


def _pvalue_text(result: ComparisonResult) -> str:
    """``p = 0.012``; a p-value of 0 is below the resolution of the replicates."""
    if result.pvalue == 0 and result.n_resamples > 0:
        return f"p < {1 / result.n_resamples:.2g}"
    return f"p = {result.pvalue:.3g}"


class PairedDifferenceDisplay:
    """The bootstrap distribution of a paired difference A - B, its interval and 0.

    Attributes
    ----------
    result : ComparisonResult
        What is drawn (:func:`assay.compare`).
    bars_ : matplotlib.container.BarContainer
        The histogram of ``result.resampled_differences``.
    interval_ : matplotlib.patches.Rectangle
        The confidence interval, shaded.
    estimate_line_, zero_line_ : matplotlib.lines.Line2D
        The observed difference, and 0 (no difference).
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np, assay
    >>> from assay.plot import PairedDifferenceDisplay
    >>> generator = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], 200)
    >>> a, b = generator.normal(size=(2, 400)) + [[1.0], [0.5]] * y
    >>> result = assay.compare(assay.roc_auc_score, y, a, b, n_resamples=500, rng=1)
    >>> display = PairedDifferenceDisplay.from_comparison(result)
    >>> display.zero_line_.get_xdata()[0]
    0.0
    """

    def __init__(self, result: ComparisonResult) -> None:
        if not isinstance(result, ComparisonResult):
            raise TypeError(
                "`result` must be the ComparisonResult of assay.compare(); got "
                f"{type(result).__name__}."
            )
        if result.resampled_differences.size == 0:
            raise ValueError(
                f"`result` holds no resampled differences (method {result.method!r}); "
                "draw the comparison of a bootstrap."
            )
        self.result = result
        self.bars_: Any = None
        self.interval_: Any = None
        self.estimate_line_: Any = None
        self.zero_line_: Any = None
        self.ax_: Any = None
        self.figure_: Any = None

    @classmethod
    def from_comparison(
        cls, result: ComparisonResult, *, ax: Any = None, bins: int = 50
    ) -> PairedDifferenceDisplay:
        """Draw ``result`` (see the class docstring); ``bins`` of the histogram."""
        return cls(result).plot(ax=ax, bins=bins)

    def plot(self, ax: Any = None, *, bins: int = 50) -> PairedDifferenceDisplay:
        """Draw on ``ax`` (a new figure when None); returns self."""
        ax = axes(ax, type(self).__name__)
        result = self.result
        _, _, self.bars_ = ax.hist(result.resampled_differences, bins=bins, color="tab:blue",
                                   alpha=0.6, label="bootstrap replicates")  # fmt: skip
        low, high = result.confidence_interval
        self.interval_ = ax.axvspan(low, high, color="tab:orange", alpha=0.2,
                                    label=f"{result.confidence_level:.0%} interval")  # fmt: skip
        self.estimate_line_ = ax.axvline(
            result.difference,
            color="tab:orange",
            label=interval_text("A - B", result.difference, (low, high), result.confidence_level)
            + f", {_pvalue_text(result)}",
        )
        self.zero_line_ = ax.axvline(0.0, color="black", linestyle="--", label="no difference")
        ax.set_xlabel(f"Difference of {result.metric} (A - B)")
        ax.set_ylabel("Replicates")
        ax.legend(fontsize="small")
        self.ax_ = ax
        self.figure_ = ax.figure
        return self


_TERMS = (
    ("average_bias", "bias"),
    ("average_variance", "variance"),
    ("average_noise", "noise"),
    ("average_expected_loss", "expected loss"),
)


class BiasVarianceDisplay:
    """Bias, variance, noise and expected loss against model complexity.

    The average terms of one :func:`assay.bias_variance` (or :func:`assay.decompose`)
    result per complexity, as Figure 5 of Wu, "Evaluation": the bias falls and the
    variance rises with complexity, and the expected loss is least between.

    Attributes
    ----------
    lines_ : dict of str to matplotlib.lines.Line2D
        ``'bias'`` (squared bias for squared loss), ``'variance'``, ``'noise'``,
        ``'expected loss'``.
    best_complexity_ : float
        The complexity of least expected loss, marked by a vertical line.
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np, assay
    >>> from assay.plot import BiasVarianceDisplay
    >>> generator = np.random.default_rng(0)
    >>> truth = np.sin(np.linspace(0, 3, 20))
    >>> results = [assay.decompose(truth + generator.normal(0, s, (30, 20)) + 0.5 / s,
    ...                            None, truth=truth) for s in (0.1, 0.3, 0.6)]
    >>> display = BiasVarianceDisplay.from_results([1, 2, 3], results)
    >>> sorted(display.lines_)
    ['bias', 'expected loss', 'noise', 'variance']
    """

    def __init__(self, complexity: Any, results: Sequence[BiasVarianceResult]) -> None:
        self.complexity = np.asarray(complexity, dtype=np.float64).reshape(-1)
        self.results = list(results)
        if not all(isinstance(result, BiasVarianceResult) for result in self.results):
            raise TypeError(
                "`results` must hold BiasVarianceResult objects (assay.bias_variance)."
            )
        if len(self.results) != self.complexity.shape[0]:
            raise ValueError(
                f"`results` has {len(self.results)} results but `complexity` has "
                f"{self.complexity.shape[0]} values."
            )
        self.lines_: dict[str, Any] = {}
        self.best_complexity_ = float("nan")
        self.ax_: Any = None
        self.figure_: Any = None

    @classmethod
    def from_results(
        cls,
        complexity: Any,
        results: Sequence[BiasVarianceResult],
        *,
        ax: Any = None,
        xlabel: str = "Model complexity",
    ) -> BiasVarianceDisplay:
        """Draw the terms of ``results[i]`` at ``complexity[i]``."""
        return cls(complexity, results).plot(ax=ax, xlabel=xlabel)

    def plot(self, ax: Any = None, *, xlabel: str = "Model complexity") -> BiasVarianceDisplay:
        """Draw on ``ax`` (a new figure when None); returns self."""
        ax = axes(ax, type(self).__name__)
        squared = all(result.loss == "squared" for result in self.results)
        self.lines_ = {}
        for field, key in _TERMS:
            values = [getattr(result, field) for result in self.results]
            label = "bias²" if key == "bias" and squared else key
            (self.lines_[key],) = ax.plot(self.complexity, values, marker="o", label=label)
        losses = np.array([result.average_expected_loss for result in self.results])
        self.best_complexity_ = float(self.complexity[int(np.argmin(losses))])
        ax.axvline(self.best_complexity_, color="grey", linestyle=":", linewidth=1)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(f"Average {self.results[0].loss} loss" if self.results else "Loss")
        ax.legend(fontsize="small")
        self.ax_ = ax
        self.figure_ = ax.figure
        return self

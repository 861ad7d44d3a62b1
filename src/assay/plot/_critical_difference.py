"""The critical difference diagram (Demsar 2006, section 3.2.4): a layout, then a drawing.

:func:`critical_difference_layout` places everything in data coordinates without
matplotlib (a plain, testable computation); :class:`CriticalDifferenceDisplay` draws a
layout in scikit-learn's display style (``plot(ax=...)``, ``ax_``, ``figure_``);
:func:`critical_difference_diagram` does both.  matplotlib is imported when drawing.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from assay._results import PosthocResult, RankModelsResult
from assay.inference._posthoc import rank_cliques

__all__ = [
    "CriticalDifferenceDisplay",
    "CriticalDifferenceLayout",
    "critical_difference_diagram",
    "critical_difference_layout",
]

# Layout of the diagram, in data units below the rank axis (y = 0).
_CLIQUE_TOP = 0.25  # first clique bar
_CLIQUE_STEP = 0.15  # between clique bars
_CLIQUE_OVERHANG = 0.03  # a clique bar reaches this far past its extreme members
_ROW_GAP = 0.3  # between the label rows
_TICK = 0.08  # half-length of a tick of the rank axis
_LABEL_GAP = 0.05  # between a label's line and its text
# Rough width of one character of a label, in inches (10 pt sans-serif).
_CHAR_WIDTH = 0.085
_BAR_WIDTH = 3.0  # points: the clique and control bars
_LINE_WIDTH = 1.0  # points: the axis and the CD bar
_LABEL_LINE_WIDTH = 0.8


class ModelLabel(NamedTuple):
    """Where one model hangs from the rank axis and where its label goes."""

    model: int  # column index in the result
    text: str
    rank: float  # x of the model on the rank axis
    y: float  # height of the horizontal line to the label
    x_end: float  # x where the line ends and the label starts
    on_right: bool  # the better half is labelled on the right
    bold: bool  # the control model of a Bonferroni-Dunn test


class Bar(NamedTuple):
    """A horizontal bar from ``low`` to ``high`` (ranks) at height ``y``."""

    low: float
    high: float
    y: float
    members: tuple[int, ...]  # the models it joins (a clique); () for other bars


class CriticalDifferenceLayout(NamedTuple):
    """Everything a critical difference diagram shows, in data coordinates.

    The x axis is the average rank (drawn reversed: rank 1, the best, on the right);
    y = 0 is the rank axis, the labels hang below it and the CD bar sits above it.
    """

    n_models: int
    method: str  # 'nemenyi' or 'bonferroni-dunn'
    critical_difference: float
    ticks: tuple[int, ...]  # 1..k
    labels: tuple[ModelLabel, ...]  # best first
    cliques: tuple[Bar, ...]  # Nemenyi: the groups not significantly different
    cd_bar: Bar | None  # Nemenyi: the length of one CD, above the axis
    control_bar: Bar | None  # Bonferroni-Dunn: one CD on each side of the control
    x_limits: tuple[float, float]  # (left, right) before room for the labels
    y_limits: tuple[float, float]  # (bottom, top)


def _posthoc(result: Any) -> PosthocResult:
    """The post-hoc test a diagram shows: a PosthocResult, or that of a ranking."""
    if isinstance(result, RankModelsResult):
        return result.nemenyi if result.bonferroni_dunn is None else result.bonferroni_dunn
    if isinstance(result, PosthocResult):
        return result
    raise TypeError(
        "`result` must be the PosthocResult of nemenyi() or bonferroni_dunn(), or the "
        f"result of rank_models(); got {type(result).__name__}."
    )


def critical_difference_layout(
    result: Any, *, names: Any = None, show_ranks: bool = True
) -> CriticalDifferenceLayout:
    """The positions of everything in a critical difference diagram (no matplotlib).

    Parameters
    ----------
    result : PosthocResult or RankModelsResult
        :func:`assay.nemenyi`, :func:`assay.bonferroni_dunn` or :func:`assay.rank_models`
        (its Bonferroni-Dunn test when it has a control, else its Nemenyi test).
    names : sequence of str, optional
        Labels of the models in column order (default: the result's model names).
    show_ranks : bool, default True
        Append the average rank to each label.

    Returns
    -------
    CriticalDifferenceLayout
        The labels (best first, the better half on the right), the clique bars, the CD
        bar or the control bar, and the limits of the axes.

    Raises
    ------
    TypeError
        If ``result`` is none of the three results.
    ValueError
        If ``names`` does not hold one name per model.

    Notes
    -----
    The cliques are the maximal runs of models, in rank order, whose extreme average
    ranks differ by less than the CD (:func:`assay.inference._posthoc.rank_cliques`).

    Examples
    --------
    >>> from assay import nemenyi
    >>> from assay.plot import critical_difference_layout
    >>> scores = [[0.90, 0.85, 0.80], [0.70, 0.72, 0.60], [0.88, 0.80, 0.79],
    ...           [0.95, 0.93, 0.90], [0.60, 0.55, 0.58]]
    >>> layout = critical_difference_layout(nemenyi(scores, model_names=["a", "b", "c"]))
    >>> [label.text for label in layout.labels]
    ['a (1.20)', 'b (2.00)', 'c (2.80)']
    >>> [bar.members for bar in layout.cliques]
    [(0, 1), (1, 2)]
    """
    posthoc = _posthoc(result)
    k = posthoc.n_models
    labels = list(posthoc.model_names if names is None else (str(name) for name in names))
    if len(labels) != k:
        raise ValueError(f"`names` has {len(labels)} names but the result has {k} models.")
    ranks = np.asarray(posthoc.average_ranks, dtype=np.float64)
    if show_ranks:
        labels = [f"{label} ({rank:.2f})" for label, rank in zip(labels, ranks, strict=True)]
    order = np.argsort(ranks, kind="stable")  # best first
    n_right = (k + 1) // 2  # the better half is labelled on the right
    n_rows = max(n_right, k - n_right)
    cd = posthoc.critical_difference
    nemenyi = posthoc.method == "nemenyi"
    cliques = rank_cliques(ranks, cd) if nemenyi else ()
    n_bars = len(cliques) if nemenyi else 1
    first_row = _CLIQUE_TOP + _CLIQUE_STEP * n_bars + 0.15
    left_end, right_end = k + 0.2, 1 - 0.2  # the axis is reversed: rank k on the left

    placed = []
    for position, model in enumerate(order):
        on_right = position < n_right
        row = position if on_right else k - 1 - position
        placed.append(
            ModelLabel(
                model=int(model),
                text=labels[model],
                rank=float(ranks[model]),
                y=-(first_row + _ROW_GAP * row),
                x_end=right_end if on_right else left_end,
                on_right=on_right,
                bold=model == posthoc.control,
            )
        )
    bars = tuple(
        Bar(
            low=float(ranks[list(clique)].min()) - _CLIQUE_OVERHANG,
            high=float(ranks[list(clique)].max()) + _CLIQUE_OVERHANG,
            y=-(_CLIQUE_TOP + _CLIQUE_STEP * bar),
            members=tuple(clique),
        )
        for bar, clique in enumerate(cliques)
    )
    cd_bar = control_bar = None
    if nemenyi:
        cd_bar = Bar(low=k - cd, high=float(k), y=5 * _TICK, members=())
    else:
        control = int(posthoc.control) if posthoc.control is not None else 0
        control_bar = Bar(
            low=max(1.0, float(ranks[control]) - cd),
            high=min(float(k), float(ranks[control]) + cd),
            y=-_CLIQUE_TOP,
            members=(control,),
        )
    bottom = -(first_row + _ROW_GAP * (n_rows - 1)) - 0.2
    return CriticalDifferenceLayout(
        n_models=k,
        method=posthoc.method,
        critical_difference=float(cd),
        ticks=tuple(range(1, k + 1)),
        labels=tuple(placed),
        cliques=bars,
        cd_bar=cd_bar,
        control_bar=control_bar,
        x_limits=(left_end, right_end),
        y_limits=(bottom, 7 * _TICK),
    )


# --- Drawing. ---


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise ImportError(
            "critical_difference_diagram needs matplotlib; install it with "
            "`pip install 'assay[plot]'` (or `pip install matplotlib`)."
        ) from error
    return plt


def _label_space(n_models: int, longest: int, width_inches: float) -> float:
    """Data units to reserve on each side for labels of ``longest`` characters."""
    share = min(0.3, _CHAR_WIDTH * longest / max(width_inches, 1.0))
    return share * (n_models + 1.0) / (1.0 - 2.0 * share)


class CriticalDifferenceDisplay:
    """Critical difference diagram, in the style of scikit-learn's displays.

    Build it with :meth:`from_result` (or :func:`critical_difference_diagram`), or
    from a :class:`CriticalDifferenceLayout` and draw it with :meth:`plot`.

    Parameters
    ----------
    layout : CriticalDifferenceLayout
        What to draw (:func:`critical_difference_layout`).

    Attributes
    ----------
    layout : CriticalDifferenceLayout
        What is drawn.
    ax_ : matplotlib.axes.Axes
        The axes drawn on (after :meth:`plot`).
    figure_ : matplotlib.figure.Figure
        Its figure.
    bars_ : list of matplotlib.lines.Line2D
        The thick bars: the cliques (Nemenyi) or the control's interval.
    labels_ : list of matplotlib.text.Text
        The model labels, best first.
    """

    def __init__(self, layout: CriticalDifferenceLayout) -> None:
        self.layout = layout
        self.ax_: Any = None
        self.figure_: Any = None
        self.bars_: list[Any] = []
        self.labels_: list[Any] = []

    @classmethod
    def from_result(
        cls, result: Any, *, ax: Any = None, names: Any = None, show_ranks: bool = True
    ) -> CriticalDifferenceDisplay:
        """Lay out and draw the diagram of ``result`` (see :func:`critical_difference_diagram`)."""
        layout = critical_difference_layout(result, names=names, show_ranks=show_ranks)
        return cls(layout).plot(ax=ax)

    def plot(self, ax: Any = None) -> CriticalDifferenceDisplay:
        """Draw the layout on ``ax`` (a new figure when None); returns ``self``."""
        layout = self.layout
        k = layout.n_models
        plt = _pyplot()
        if ax is None:
            n_bars = len(layout.cliques) if layout.cd_bar is not None else 1
            _, ax = plt.subplots(figsize=(7.0, 1.0 + 0.25 * ((k + 1) // 2 + n_bars)))
        figure_width = float(ax.figure.get_figwidth()) * float(ax.get_position().width)
        longest = max(len(label.text) for label in layout.labels)
        space = _label_space(k, longest, figure_width)
        thin = {"color": "black", "linewidth": _LINE_WIDTH}

        ax.plot([k, 1], [0, 0], **thin)
        for tick in layout.ticks:
            ax.plot([tick, tick], [-_TICK, _TICK], **thin)
            ax.text(tick, 2 * _TICK, str(tick), ha="center", va="bottom")
        self.labels_ = []
        for label in layout.labels:
            ax.plot(
                [label.rank, label.rank, label.x_end],
                [0, label.y, label.y],
                color="black",
                linewidth=_LABEL_LINE_WIDTH,
            )
            self.labels_.append(
                ax.text(
                    label.x_end + (-_LABEL_GAP if label.on_right else _LABEL_GAP),
                    label.y,
                    label.text,
                    ha="left" if label.on_right else "right",
                    va="center",
                    fontweight="bold" if label.bold else "normal",
                )
            )
        thick = [*layout.cliques] + ([layout.control_bar] if layout.control_bar else [])
        self.bars_ = [
            ax.plot(
                [bar.high, bar.low],
                [bar.y, bar.y],
                color="black",
                linewidth=_BAR_WIDTH,
                solid_capstyle="butt",
            )[0]
            for bar in thick
        ]
        if layout.cd_bar is not None:
            bar = layout.cd_bar
            ax.plot([bar.high, bar.low], [bar.y, bar.y], **thin)
            for x in (bar.high, bar.low):
                ax.plot([x, x], [bar.y - _TICK / 2, bar.y + _TICK / 2], **thin)
            ax.text((bar.low + bar.high) / 2, bar.y + _TICK, "CD", ha="center", va="bottom")
        left, right = layout.x_limits
        ax.set_xlim(left + space, right - space)
        ax.set_ylim(*layout.y_limits)
        ax.set_axis_off()
        self.ax_ = ax
        self.figure_ = ax.figure
        return self


def critical_difference_diagram(
    result: Any,
    *,
    ax: Any = None,
    names: Any = None,
    show_ranks: bool = True,
) -> CriticalDifferenceDisplay:
    """Critical difference diagram of a post-hoc test (Demsar 2006, Figure 1).

    The top line is the axis of average ranks, best (rank 1) on the right.  Each
    model hangs from its average rank, labelled on the left (worse half) or right
    (better half).  For a Nemenyi test, thick bars join the groups of models that
    are not significantly different and a bar above the axis shows the critical
    difference.  For a Bonferroni-Dunn test, a thick bar marks the interval of one CD
    on both sides of the control (in bold): a model whose rank lies outside it
    differs significantly from the control.

    Parameters
    ----------
    result : PosthocResult or RankModelsResult
        The result of :func:`assay.nemenyi`, :func:`assay.bonferroni_dunn` or
        :func:`assay.rank_models` (drawn with its Bonferroni-Dunn test when it has a
        control, else with its Nemenyi test).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure is created when None.
    names : sequence of str, optional
        Labels of the models in column order (default: the result's model names).
    show_ranks : bool, default True
        Append the average rank to each label.

    Returns
    -------
    CriticalDifferenceDisplay
        With ``ax_``, ``figure_``, ``bars_`` (the thick bars), ``labels_`` and the
        ``layout`` it drew.

    Raises
    ------
    TypeError
        If ``result`` is none of the three results.
    ValueError
        If ``names`` does not hold one name per model.
    ImportError
        If matplotlib is not installed.

    Notes
    -----
    The layout follows Demsar (2006), section 3.2.4: lowest ranks to the right;
    groups not significantly different connected (Nemenyi); the CD interval
    around the control (Bonferroni-Dunn).  Each group is a maximal run of models, in
    rank order, whose extreme ranks differ by less than the CD; the positions are
    computed by :func:`critical_difference_layout`.

    References
    ----------
    J. Demsar, "Statistical comparisons of classifiers over multiple data sets",
    JMLR 7 (2006) 1-30.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from assay import nemenyi
    >>> from assay.plot import critical_difference_diagram
    >>> scores = [[0.90, 0.85, 0.80], [0.70, 0.72, 0.60], [0.88, 0.80, 0.79],
    ...           [0.95, 0.93, 0.90], [0.60, 0.55, 0.58]]
    >>> display = critical_difference_diagram(nemenyi(scores, model_names=["a", "b", "c"]))
    >>> [text.get_text() for text in display.labels_]
    ['a (1.20)', 'b (2.00)', 'c (2.80)']
    >>> len(display.bars_), display.figure_ is display.ax_.figure
    (2, True)
    """
    return CriticalDifferenceDisplay.from_result(result, ax=ax, names=names, show_ranks=show_ranks)

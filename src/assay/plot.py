"""Plots (optional: needs matplotlib, ``pip install 'assay[plot]'``).

matplotlib is imported when a plot is drawn, not when this module is imported, so
``import assay.plot`` works without it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from assay._results import PosthocResult

__all__ = ["critical_difference_diagram"]

# Layout of the diagram, in data units below the rank axis (y = 0).
_CLIQUE_TOP = 0.25  # first clique bar
_CLIQUE_STEP = 0.15  # between clique bars
_ROW_GAP = 0.3  # between the label rows
_TICK = 0.08  # half-length of a tick of the rank axis
# Rough width of one character of a label, in inches (10 pt sans-serif).
_CHAR_WIDTH = 0.085


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


def critical_difference_diagram(
    result: PosthocResult,
    *,
    ax: Any = None,
    names: Any = None,
    show_ranks: bool = True,
) -> Any:
    """Critical difference diagram of a post-hoc test (Demsar 2006, Figure 1).

    The top line is the axis of average ranks, best (rank 1) on the right.  Each
    model hangs from its average rank, labelled on the left (worse half) or right
    (better half).  For a Nemenyi test, thick bars join the groups of models that
    are not significantly different (``result.cliques``) and a bar above the axis
    shows the critical difference.  For a Bonferroni-Dunn test, a thick bar marks
    the interval of one CD on both sides of the control: a model whose rank lies
    outside it differs significantly from the control.

    Parameters
    ----------
    result : PosthocResult
        The result of :func:`assay.nemenyi` or :func:`assay.bonferroni_dunn`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure is created when None.
    names : sequence of str, optional
        Labels of the models in column order (default: ``result.model_names``).
    show_ranks : bool, default True
        Append the average rank to each label.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on (its ``figure`` attribute is the figure).

    Raises
    ------
    TypeError
        If ``result`` is not a :class:`~assay._results.PosthocResult`.
    ValueError
        If ``names`` does not hold one name per model.
    ImportError
        If matplotlib is not installed.

    Notes
    -----
    The layout follows Demsar (2006), section 3.2.4: lowest ranks to the right;
    groups not significantly different connected (Nemenyi); the CD interval
    around the control (Bonferroni-Dunn).  Each group is a run of models, in rank
    order, whose extreme ranks differ by less than the CD
    (:func:`assay.inference._posthoc.rank_cliques`).

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
    >>> ax = critical_difference_diagram(nemenyi(scores, model_names=["a", "b", "c"]))
    >>> sorted(text.get_text() for text in ax.texts if text.get_text()[0] in "abc")
    ['a (1.20)', 'b (2.00)', 'c (2.80)']
    """
    if not isinstance(result, PosthocResult):
        raise TypeError(
            "`result` must be the PosthocResult of nemenyi() or bonferroni_dunn(); got "
            f"{type(result).__name__}."
        )
    k = result.n_models
    labels = list(result.model_names if names is None else (str(name) for name in names))
    if len(labels) != k:
        raise ValueError(f"`names` has {len(labels)} names but the result has {k} models.")
    ranks = np.asarray(result.average_ranks, dtype=np.float64)
    if show_ranks:
        labels = [f"{label} ({rank:.2f})" for label, rank in zip(labels, ranks, strict=True)]
    order = np.argsort(ranks, kind="stable")  # best first
    n_right = (k + 1) // 2  # the better half is labelled on the right
    n_rows = max(n_right, k - n_right)
    cliques = result.cliques if result.method == "nemenyi" and result.cliques else ()
    n_bars = len(cliques) if result.method == "nemenyi" else 1
    first_row = _CLIQUE_TOP + _CLIQUE_STEP * n_bars + 0.15
    height = 1.0 + 0.25 * (n_rows + n_bars)

    if ax is None:
        plt = _pyplot()
        _, ax = plt.subplots(figsize=(7.0, height))
    else:
        _pyplot()
    figure_width = float(ax.figure.get_figwidth()) * float(ax.get_position().width)
    space = _label_space(k, max(len(label) for label in labels), figure_width)
    left_end, right_end = k + 0.2, 1 - 0.2  # the axis is reversed: rank k on the left

    # the axis of ranks
    ax.plot([k, 1], [0, 0], color="black", linewidth=1)
    for tick in range(1, k + 1):
        ax.plot([tick, tick], [-_TICK, _TICK], color="black", linewidth=1)
        ax.text(tick, 2 * _TICK, str(tick), ha="center", va="bottom")

    # the models
    for position, model in enumerate(order):
        on_right = position < n_right
        row = position if on_right else k - 1 - position
        y = -(first_row + _ROW_GAP * row)
        end = right_end if on_right else left_end
        ax.plot([ranks[model], ranks[model], end], [0, y, y], color="black", linewidth=0.8)
        ax.text(
            end + (-0.05 if on_right else 0.05),
            y,
            labels[model],
            ha="left" if on_right else "right",
            va="center",
            fontweight="bold" if model == result.control else "normal",
        )

    if result.method == "nemenyi":
        for bar, clique in enumerate(cliques):
            members = ranks[list(clique)]
            y = -(_CLIQUE_TOP + _CLIQUE_STEP * bar)
            ax.plot(
                [members.max() + 0.03, members.min() - 0.03],
                [y, y],
                color="black",
                linewidth=3,
                solid_capstyle="butt",
            )
        top = 5 * _TICK
        cd = result.critical_difference
        ax.plot([k, k - cd], [top, top], color="black", linewidth=1)
        for x in (k, k - cd):
            ax.plot([x, x], [top - _TICK / 2, top + _TICK / 2], color="black", linewidth=1)
        ax.text(k - cd / 2, top + _TICK, "CD", ha="center", va="bottom")
    else:
        control = int(result.control) if result.control is not None else 0
        low = max(1.0, ranks[control] - result.critical_difference)
        high = min(float(k), ranks[control] + result.critical_difference)
        ax.plot(
            [high, low],
            [-_CLIQUE_TOP, -_CLIQUE_TOP],
            color="black",
            linewidth=3,
            solid_capstyle="butt",
        )

    bottom = -(first_row + _ROW_GAP * (n_rows - 1)) - 0.2
    ax.set_xlim(left_end + space, right_end - space)
    ax.set_ylim(bottom, 7 * _TICK)
    ax.set_axis_off()
    return ax

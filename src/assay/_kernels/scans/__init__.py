"""Ranking metrics as scans over sorted atoms: each metric written once.

The atoms are the tie groups of the scores in descending order, each with its positive
weight ``p`` and negative weight ``q`` (ARCHITECTURE, the scan contract).  A ranking
metric is declared here by one module that defines an *options* named tuple and five
functions of a :class:`Scan`:

``start(options, context, below) -> state``
    The state of an empty piece.
``fold(options, context, state, tp, fp, p, q) -> state``
    Fold one tie group into the state; ``tp`` and ``fp`` are the positive and the
    negative weight of every atom above it (the exclusive prefix).
``combine(options, upper, lower) -> state``
    The state of two consecutive pieces (``upper`` holds the higher scores); it is
    associative, so pieces may be folded separately and combined in order.
``finish(options, context, state) -> float``
    The metric from the combined state.

``context`` is a :class:`Context`: the class totals of all atoms and whether the counts
are exact integers (then sums are kept in integers or exact fixed point, and a
piecewise result is bit-identical to the one-piece result) and small enough for float64
sums of integers to be exact.  A metric that needs what
lies *below* a piece (interpolated precision is a maximum over lower thresholds)
declares a :class:`BelowPass`; its ``summary`` is folded over every piece first and
the combined summary of the pieces below is passed to ``start`` as ``below``.  A
metric declared ``backward`` folds each piece from its lowest score up.

The options named tuple selects the metric inside kernels: kernels are specialised per
options type by Numba (dispatch at compile time through :func:`numba.extending.overload`,
so only the metrics actually used are compiled and the compiled code is cached).
Modules of this package are collected automatically: adding a metric is adding a
module that defines ``SCAN`` (and its entry in the metric registry).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import Any, NamedTuple

from numba.extending import overload

from assay._kernels._jit import OVERLOAD_OPTIONS


class Context(NamedTuple):
    """What every fold may read: the class totals and the kind of counts."""

    total_positive: float
    total_negative: float
    exact: bool
    """Counts are integers and ``2 P N < 2**61``: sums are kept exactly."""
    small: bool
    """Counts are integers and ``2 P N < 2**53``: a float64 sum of integer terms whose
    total is at most ``2 P N`` never rounds (every term and partial sum is an integer
    below ``2**53``), so it equals the exact sum bit for bit and costs less."""


class BelowPass(NamedTuple):
    """An extra pass for metrics that need a summary of the atoms below a piece."""

    identity: Callable[..., Any]
    """``identity(options)``: the summary of nothing (below the lowest piece)."""
    fold: Callable[..., Any]
    """``fold(options, context, summary, tp, fp, p, q)``: fold one tie group."""
    combine: Callable[..., Any]
    """``combine(options, upper, lower)``: the summary of two consecutive pieces."""


class Scan(NamedTuple):
    """The declaration of one ranking metric as a scan (see the module docstring)."""

    options: type
    start: Callable[..., Any]
    fold: Callable[..., Any]
    combine: Callable[..., Any]
    finish: Callable[..., Any]
    needs_totals: bool = False
    """``fold`` reads the class totals (a streamed replicate, whose totals are known only
    at its end, then records its atoms first).  A property of the options type, not of
    its values, so that kernels choose the recording path when they compile."""
    below: BelowPass | None = None
    backward: bool = False

    def records(self, options: Any = None) -> bool:
        """Whether a single streamed pass cannot fold this scan (totals, below, backward)."""
        return self.needs_totals or self.below is not None or self.backward


# Kernel-side functions carry no annotations: Numba compares the overload's parameters
# with the implementation's, annotations included.
def _no_summary(options):
    return 0.0


def _no_summary_fold(options, context, summary, tp, fp, p, q):
    return summary


def _no_summary_combine(options, upper, lower):
    return upper


_NO_BELOW = BelowPass(_no_summary, _no_summary_fold, _no_summary_combine)

SCANS: dict[type, Scan] = {}
"""Every declared scan, by its options type."""


def _collect() -> None:
    for module_info in pkgutil.iter_modules(__path__):
        if module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        scan = module.SCAN
        SCANS[scan.options] = scan


def _scan_of(options: Any) -> Scan:
    instance_class = getattr(options, "instance_class", None)
    if instance_class not in SCANS:
        raise TypeError(f"no ranking scan is declared for options of type {options}")
    return SCANS[instance_class]


# --- Dispatch.  Inside kernels each function below is replaced at compile time by the
# declared function of the options' scan (an ``overload``); called from Python -- with
# Numba's JIT disabled, for coverage -- it dispatches on the options' type.


def _declared(options: Any) -> Scan:
    return SCANS[type(options)]


def scan_start(options: Any, context: Any, below: Any) -> Any:
    """The start state of ``options``' scan."""
    return _declared(options).start(options, context, below)


def scan_fold(options: Any, context: Any, state: Any, tp: Any, fp: Any, p: Any, q: Any) -> Any:
    """Fold one tie group."""
    return _declared(options).fold(options, context, state, tp, fp, p, q)


def scan_combine(options: Any, upper: Any, lower: Any) -> Any:
    """Combine the states of two consecutive pieces."""
    return _declared(options).combine(options, upper, lower)


def scan_finish(options: Any, context: Any, state: Any) -> Any:
    """The metric from a state."""
    return _declared(options).finish(options, context, state)


def _below_of(options: Any) -> BelowPass:
    return _declared(options).below or _NO_BELOW


def below_identity(options: Any) -> Any:
    """The empty summary of the below pass."""
    return _below_of(options).identity(options)


def below_fold(options: Any, context: Any, summary: Any, tp: Any, fp: Any, p: Any,
               q: Any) -> Any:  # fmt: skip
    """Fold one tie group into a below summary."""
    return _below_of(options).fold(options, context, summary, tp, fp, p, q)


def below_combine(options: Any, upper: Any, lower: Any) -> Any:
    """Combine two consecutive pieces' below summaries."""
    return _below_of(options).combine(options, upper, lower)


def scan_records(options: Any) -> bool:
    """Whether a streamed replicate must record its atoms and scan them at its end."""
    return _declared(options).records(options)


def folds_backward(options: Any) -> bool:
    """Whether the scan folds a piece from its lowest score up."""
    return _declared(options).backward


@overload(scan_start, jit_options=OVERLOAD_OPTIONS, inline="always")
def _start(options, context, below):
    return _scan_of(options).start


@overload(scan_fold, jit_options=OVERLOAD_OPTIONS, inline="always")
def _fold(options, context, state, tp, fp, p, q):
    return _scan_of(options).fold


@overload(scan_combine, jit_options=OVERLOAD_OPTIONS, inline="always")
def _combine(options, upper, lower):
    return _scan_of(options).combine


@overload(scan_finish, jit_options=OVERLOAD_OPTIONS, inline="always")
def _finish(options, context, state):
    return _scan_of(options).finish


@overload(below_identity, jit_options=OVERLOAD_OPTIONS, inline="always")
def _below_identity(options):
    return (_scan_of(options).below or _NO_BELOW).identity


@overload(below_fold, jit_options=OVERLOAD_OPTIONS, inline="always")
def _below_fold(options, context, summary, tp, fp, p, q):
    return (_scan_of(options).below or _NO_BELOW).fold


@overload(below_combine, jit_options=OVERLOAD_OPTIONS, inline="always")
def _below_combine(options, upper, lower):
    return (_scan_of(options).below or _NO_BELOW).combine


@overload(scan_records, jit_options=OVERLOAD_OPTIONS, inline="always")
def _scan_records(options):
    if _scan_of(options).records():
        return lambda options: True
    return lambda options: False


@overload(folds_backward, jit_options=OVERLOAD_OPTIONS, inline="always")
def _folds_backward(options):
    if _scan_of(options).backward:
        return lambda options: True
    return lambda options: False


_collect()

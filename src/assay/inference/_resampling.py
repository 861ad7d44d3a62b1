"""Machinery shared by the resampling procedures: seeds, metrics, chunks, progress.

* :func:`resolve_seed` turns ``rng`` into the 64-bit master seed that keys every
  replicate's random stream (ARCHITECTURE rule 5); it is reported back to the user.
* :func:`resolve_metric` finds a metric's declaration in the registry (rule 8), or
  accepts any callable for the generic path.
* :func:`run_in_chunks` runs replicates in chunks so that a progress bar can follow and
  Ctrl-C stops between chunks.  The replicate index, not the chunk, keys the random
  streams, so results do not depend on the chunk size or the number of threads.
"""

from __future__ import annotations

import functools
import inspect
import numbers
import reprlib
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

import numba
import numpy as np

from assay.metrics._registry import METRICS, MetricDeclaration

__all__: list[str] = []

_SEED_LIMIT = 2**64
# A chunk of replicates visits about this many atoms in all: a few tenths of a second.
_CHUNK_WORK = 1 << 25


def resolve_seed(rng: Any) -> int:
    """The master seed (0 <= seed < 2**64) for ``rng``: None, an integer or a Generator.

    None draws a fresh seed from the operating system's entropy; a Generator gives one
    draw of 64 bits (so the same Generator state gives the same results).
    """
    if rng is None:
        return int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0])
    if isinstance(rng, np.random.Generator):
        return int(rng.integers(0, _SEED_LIMIT, dtype=np.uint64))
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        if 0 <= int(rng) < _SEED_LIMIT:
            return int(rng)
    raise ValueError(
        f"`rng` must be None, an integer in [0, 2**64) or a numpy.random.Generator; got {rng!r}."
    )


def n_workers() -> int:
    """Threads to split replicates between (Numba's current thread count)."""
    return int(numba.get_num_threads())


def metric_name(metric: Any) -> str:
    """A readable name of a callable metric, for results and messages.

    A registry function gives its public name; a ``functools.partial`` the name of
    what it wraps with its bound arguments, ``f1_score(average='macro')`` (never
    ``'partial'``); another callable its ``__name__``, else its type's name.
    """
    if isinstance(metric, functools.partial):
        bound = [reprlib.repr(value) for value in metric.args]
        bound += [f"{key}={reprlib.repr(value)}" for key, value in metric.keywords.items()]
        return f"{metric_name(metric.func)}({', '.join(bound)})"
    for declaration in METRICS.values():
        if declaration.function is metric:
            return declaration.name
    return str(getattr(metric, "__name__", type(metric).__name__))


def resolve_metric(metric: Any) -> tuple[MetricDeclaration | None, Callable[..., Any], str]:
    """(declaration or None, function, name) of ``metric``: an assay metric, its name,
    or any callable ``f(y_true, y_pred, ...)`` (the generic path)."""
    if isinstance(metric, str):
        if metric not in METRICS:
            raise ValueError(
                f"`metric`={metric!r} is not an assay metric; known names: "
                f"{', '.join(sorted(METRICS))}."
            )
        declaration = METRICS[metric]
        return declaration, declaration.function, declaration.name
    for declaration in METRICS.values():
        if declaration.function is metric:
            return declaration, metric, declaration.name
    if callable(metric):
        return None, metric, metric_name(metric)
    raise TypeError(
        "`metric` must be an assay metric, its name, or a callable "
        f"f(y_true, y_pred, sample_weight=...); got {metric!r}."
    )


def accepts_sample_weight(function: Callable[..., Any]) -> bool:
    """Whether ``function`` takes a ``sample_weight`` keyword."""
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False
    return "sample_weight" in parameters or any(
        p.kind is p.VAR_KEYWORD for p in parameters.values()
    )


def check_weights_supported(function: Callable[..., Any], sample_weight: Any) -> None:
    """A callable metric must take ``sample_weight`` when weights are given."""
    if sample_weight is not None and not accepts_sample_weight(function):
        raise ValueError("`sample_weight` was given but `metric` does not accept it.")


def chunk_size(n_resamples: int, atoms_per_replicate: int, workers: int) -> int:
    """Replicates per chunk: a multiple of the worker count, about ``_CHUNK_WORK`` atoms."""
    size = max(1, _CHUNK_WORK // max(1, atoms_per_replicate))
    size = max(workers, size - size % workers)
    return min(size, n_resamples)


# On a terminal the progress line is rewritten at most this often (seconds).
_TERMINAL_INTERVAL = 0.25
# Elsewhere (a log file, a CI job) a plain line is written at every tenth of the work...
_LOG_STEPS = 10
# ... and after this many seconds without a line, so that a long run shows it is alive.
_LOG_INTERVAL = 10.0


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # no isatty, or a closed stream
        return False


class Progress:
    """A minimal progress report on stderr: ``bootstrap: 1200/2000 replicates (60%, 3.1 s)``.

    On a terminal, one line rewritten in place (carriage return) at most every
    ``_TERMINAL_INTERVAL`` seconds.  On any other stream (a log), plain lines: one at
    each tenth of the work, one after ``_LOG_INTERVAL`` seconds without a line, and the
    last state when closed.  ``clock`` (seconds, monotonic) is replaceable for tests.
    """

    def __init__(
        self,
        total: int,
        description: str,
        enabled: bool,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self.done = 0
        self.description = description
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.start = clock()
        self.terminal = enabled and _is_terminal(self.stream)
        self.last_written = self.start
        self.shown = -1  # the `done` count last written, -1 before the first line
        self.shown_step = 0  # the tenths of the work reached by the last line

    def _text(self, now: float) -> str:
        percent = 100 * self.done // self.total if self.total else 100
        return (
            f"{self.description}: {self.done}/{self.total} replicates "
            f"({percent}%, {now - self.start:.1f} s)"
        )

    def _write(self, now: float) -> None:
        text = self._text(now)
        self.stream.write(f"\r{text}" if self.terminal else f"{text}\n")
        self.stream.flush()
        self.last_written = now
        self.shown = self.done
        self.shown_step = self._step()

    def _step(self) -> int:
        return _LOG_STEPS * self.done // self.total if self.total else _LOG_STEPS

    def update(self, count: int) -> None:
        self.done += count
        if not self.enabled:
            return
        now = self.clock()
        waited = now - self.last_written
        if self.terminal:
            due = waited >= _TERMINAL_INTERVAL or self.done >= self.total
        else:
            due = self._step() > self.shown_step or waited >= _LOG_INTERVAL
        if due:
            self._write(now)

    def close(self) -> None:
        """Write the last state if it was not shown, and end the terminal's line."""
        if not self.enabled:
            return
        if self.done != self.shown:
            self._write(self.clock())
        if self.terminal:
            self.stream.write("\n")
            self.stream.flush()


def run_in_chunks(
    run: Callable[[int, np.ndarray], None],
    n_resamples: int,
    size: int,
    *,
    progress: bool,
    description: str,
) -> np.ndarray:
    """Fill an array of ``n_resamples`` values by ``run(first, out_slice)`` per chunk.

    Ctrl-C (KeyboardInterrupt) is honoured between chunks: the progress line is closed
    and the interrupt propagates, leaving nothing half-done behind.
    """
    out = np.empty(n_resamples, dtype=np.float64)
    bar = Progress(n_resamples, description, progress)
    try:
        for first in range(0, n_resamples, size):
            count = min(size, n_resamples - first)
            run(first, out[first : first + count])
            bar.update(count)
    finally:
        bar.close()
    return out

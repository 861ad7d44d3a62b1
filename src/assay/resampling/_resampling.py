"""Machinery shared by the resampling procedures: seeds, metrics, chunks, progress.

(Seeds are resolved by :func:`assay._validation.resolve_seed`, metrics by
:func:`assay.metrics._registry.resolve_metric`, the thread count is
:func:`assay._kernels._jit.n_workers` (:func:`~assay._kernels._jit.workers_for` for a call
of a given size); they are re-exported here for the engine.)
* :func:`run_in_chunks` runs replicates in chunks so that a progress bar can follow and
  Ctrl-C stops between chunks.  The replicate index, not the chunk, keys the random
  streams, so results do not depend on the chunk size or the number of threads.
"""

from __future__ import annotations

import inspect
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

import numpy as np

from assay._kernels._jit import n_workers, workers_for
from assay._validation import resolve_seed
from assay.metrics._registry import metric_name, resolve_metric, resolve_metric_call

__all__ = [
    "metric_name",
    "n_workers",
    "resolve_metric",
    "resolve_metric_call",
    "resolve_seed",
    "workers_for",
]

# A chunk of replicates visits about this many atoms in all: a few tenths of a second.
_CHUNK_WORK = 1 << 25


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

"""The same warning from many folds or replicates, shown once with a count (STYLE 13).

A protocol calls the user's model and metrics once per split or resample; a warning
they raise (a class missing from a fold, a solver that did not converge) would reach
the user once per call, or once in all if Python's default filter has already seen its
line.  :class:`RepeatedWarnings` collects the warnings raised during the calls and
re-emits each distinct one (same category, same message) once, at the user's line, with
the number of calls that raised it::

    with RepeatedWarnings("splits") as collected:
        outputs = [collected.call(evaluate, split) for split in splits]
    collected.emit(stacklevel=2)

The calls may run on threads (:meth:`RepeatedWarnings.call` records which call is
running on each thread); the collection itself is installed by the thread that enters
the ``with`` block, for the whole process, as :class:`warnings.catch_warnings` is.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable
from types import TracebackType
from typing import Any, TypeVar

__all__: list[str] = []

_Result = TypeVar("_Result")


class RepeatedWarnings:
    """Collect the warnings of repeated calls; re-emit each distinct one once, counted.

    Parameters
    ----------
    unit : str
        What one call is, in the plural, for the count: ``"splits"``, ``"resamples"``.
    """

    def __init__(self, unit: str) -> None:
        self.unit = unit
        self.n_calls = 0
        # (category, message) -> indices of the calls that raised it, in first-seen order
        self._seen: dict[tuple[type[Warning], str], set[int]] = {}
        self._lock = threading.Lock()
        self._current = threading.local()
        self._catcher: warnings.catch_warnings | None = None

    def __enter__(self) -> RepeatedWarnings:
        self._catcher = warnings.catch_warnings()
        self._catcher.__enter__()
        warnings.simplefilter("always")  # every occurrence reaches _record, none is lost
        warnings.showwarning = self._record
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        assert self._catcher is not None
        self._catcher.__exit__(kind, error, traceback)
        self._catcher = None

    def call(self, function: Callable[..., _Result], *args: Any) -> _Result:
        """``function(*args)``, its warnings counted as those of one more call."""
        with self._lock:
            index = self.n_calls
            self.n_calls += 1
        self._current.index = index
        try:
            return function(*args)
        finally:
            self._current.index = None

    def _record(
        self,
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: Any = None,
        line: str | None = None,
    ) -> None:
        index = getattr(self._current, "index", None)
        key = (category, str(message))
        with self._lock:
            calls = self._seen.setdefault(key, set())
            # a warning raised outside any call counts as one call of its own
            calls.add(-1 - len(calls) if index is None else index)

    @property
    def counts(self) -> list[tuple[type[Warning], str, int]]:
        """``(category, message, number of calls that raised it)``, first seen first."""
        return [(category, text, len(calls)) for (category, text), calls in self._seen.items()]

    def emit(self, stacklevel: int) -> None:
        """Warn once per distinct warning; ``stacklevel`` as for :func:`warnings.warn`
        called by the caller of ``emit`` (2: that caller's caller)."""
        for category, text, count in self.counts:
            if self.n_calls > 1:
                text = f"{text} [in {count} of {self.n_calls} {self.unit}]"
            warnings.warn(text, category, stacklevel=stacklevel + 1)

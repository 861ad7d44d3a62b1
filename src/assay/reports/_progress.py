"""The report's warnings (each shown once, at the user's line) and its progress lines."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager


class Warnings:
    """The warnings of the called functions, each shown once (with a count) at the user's line."""

    def __init__(self) -> None:
        self.seen: dict[tuple[type[Warning], str], int] = {}

    @contextmanager
    def about(self, what: str) -> Iterator[None]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield
        for warning in caught:
            key = (warning.category, f"{what}: {warning.message}")
            self.seen[key] = self.seen.get(key, 0) + 1

    def emit(self, stacklevel: int = 3) -> None:
        """Warn from ``report``'s caller (stacklevel: here, ``report``, its caller)."""
        for (category, text), count in self.seen.items():
            suffix = f" (seen {count} times)" if count > 1 else ""
            warnings.warn(text + suffix, category, stacklevel=stacklevel)


class Steps:
    """One line on standard error before each long step (``progress=True``)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str) -> None:
        if self.enabled:
            sys.stderr.write(f"report: {text}\n")
            sys.stderr.flush()

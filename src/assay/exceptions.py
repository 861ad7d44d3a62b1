"""Warning and error classes raised by assay.

Every warning assay emits is a subclass of :class:`AssayWarning`, so users can
filter all of them at once (``warnings.simplefilter("ignore", AssayWarning)``)
or one kind at a time.
"""

from __future__ import annotations

__all__ = [
    "AssayError",
    "AssayWarning",
    "CompilationCacheWarning",
    "DegenerateDataWarning",
    "SelfCheckError",
    "UndefinedMetricWarning",
]


class AssayWarning(UserWarning):
    """Base class of every warning emitted by assay."""


class UndefinedMetricWarning(AssayWarning):
    """A metric is ill-defined on the given data (for example 0/0).

    The value returned is NaN, or the value chosen with ``zero_division``.
    """


class DegenerateDataWarning(AssayWarning):
    """The data make a procedure degenerate (for example, all values equal)."""


class CompilationCacheWarning(AssayWarning):
    """Compiled kernels cannot be cached on disk; each process recompiles them."""


class AssayError(Exception):
    """Base class of the errors specific to assay (bad input raises ValueError/TypeError)."""


class SelfCheckError(AssayError):
    """A compiled kernel disagreed with the reference implementation."""

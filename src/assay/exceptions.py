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
    "IgnoredOptionWarning",
    "SelfCheckError",
    "ThreadingLayerWarning",
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


class IgnoredOptionWarning(AssayWarning):
    """An option given has no effect with the other options of the call.

    For example ``pos_label`` with an ``average`` other than ``'binary'``: every class is
    counted, and ``pos_label`` is not used (``labels=[pos_label]`` scores that class).
    """


class CompilationCacheWarning(AssayWarning):
    """The disk cache of compiled kernels cannot be used as it is.

    Either no cache location is writable (each process then recompiles the kernels), or
    a cache file could not be read or updated (it is deleted and the kernel recompiled;
    the next process uses the rebuilt cache).  Results are unaffected.
    """


class ThreadingLayerWarning(AssayWarning):
    """Numba's threading layer in use is not both fork-safe and thread-safe.

    Either the ``tbb`` library is missing and parallel kernels run on Numba's
    ``workqueue`` layer (assay's calls from several threads then take turns), or they
    run on GNU OpenMP (a process forked after a parallel call cannot call them).
    """


class AssayError(Exception):
    """Base class of the errors specific to assay (bad input raises ValueError/TypeError)."""


class SelfCheckError(AssayError):
    """A compiled kernel disagreed with the reference implementation."""

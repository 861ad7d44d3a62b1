"""The only place where Numba compilation options are set.

Every kernel in :mod:`assay._kernels` is decorated with :func:`jit` (or
:func:`jit_parallel`).  Options, fixed for the whole package:

* ``cache=True`` -- compiled code is written to disk next to the sources (or to
  Numba's user-wide cache directory) and reused by later processes.  When no
  writable cache location exists (a read-only install without a writable home),
  caching is switched off and a :class:`~assay.exceptions.CompilationCacheWarning`
  says so once; results are unaffected, only start-up is slower.
* ``nogil=True`` -- kernels release the GIL so callers may use threads.
* ``error_model="numpy"`` -- division by zero gives inf/NaN as in NumPy instead of
  raising; kernels never rely on Python exceptions.
* no ``fastmath`` -- results must be reproducible and IEEE-exact.

Numba notices an edit to a kernel's own source file but not to a function it calls
from another module; :func:`_drop_stale_cache` therefore clears this package's cache
whenever any kernel source (or the Numba version) changes.

Kernels never call ``numba.get_num_threads()`` internally: Numba silently refuses to
cache such functions.  Thread counts are passed in as arguments.
"""

from __future__ import annotations

import hashlib
import os
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numba

from assay.exceptions import CompilationCacheWarning

F = TypeVar("F", bound=Callable[..., Any])


def _cache_probe() -> int:  # pragma: no cover - only compiled, never called
    return 0


def _cache_is_usable() -> bool:
    """Whether Numba finds a writable cache location for this directory's modules."""
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return True  # nothing is compiled, nothing to cache
    try:
        numba.njit(cache=True)(_cache_probe)
    except RuntimeError:
        return False
    return True


def _sources_digest() -> str:
    """Digest of every kernel source file and of the Numba version."""
    digest = hashlib.sha256(numba.__version__.encode())
    for path in sorted(_KERNEL_DIRECTORY.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _drop_stale_cache() -> None:
    """Delete cached kernels compiled from other versions of the kernel sources.

    Numba invalidates a cached function when *its own* source file changes, but not when
    a function it calls from another module does (a kernel of ``resample.py`` inlines
    the random streams of ``_rng.py``).  So the whole in-tree cache of this package is
    keyed by one digest of all kernel sources: when the digest changes (an upgrade, an
    edit), the cached ``.nbi``/``.nbc`` files are removed and recompiled on first use.
    """
    cache_directory = _KERNEL_DIRECTORY / "__pycache__"
    marker = cache_directory / "assay-kernel-sources.sha256"
    try:
        digest = _sources_digest()
        if marker.is_file() and marker.read_text() == digest:
            return
        cache_directory.mkdir(exist_ok=True)
        for stale in [*cache_directory.glob("*.nbi"), *cache_directory.glob("*.nbc")]:
            stale.unlink(missing_ok=True)
        marker.write_text(digest)
    except OSError:  # a read-only install: Numba then uses its user-wide cache
        return


_KERNEL_DIRECTORY = Path(__file__).resolve().parent
CACHE = _cache_is_usable()
if CACHE and os.environ.get("NUMBA_CACHE_DIR", "") == "":
    _drop_stale_cache()
if not CACHE:
    warnings.warn(
        "assay cannot write compiled kernels to disk (the package directory and "
        "Numba's user cache directory are read-only); every new process will "
        "recompile them. Set NUMBA_CACHE_DIR to a writable directory to fix this.",
        CompilationCacheWarning,
        stacklevel=2,
    )

_OPTIONS: dict[str, Any] = {
    "cache": CACHE,
    "nogil": True,
    "error_model": "numpy",
    "fastmath": False,
}


# Options of the functions that Numba compiles inline from an ``overload`` (the
# compile-time dispatch of the ranking scans); they are cached with their callers.
OVERLOAD_OPTIONS: Any = {"cache": CACHE, "nogil": True, "error_model": "numpy"}


def jit(function: F) -> F:
    """Compile ``function`` with the package's options (serial kernel)."""
    return numba.njit(**_OPTIONS)(function)


def jit_parallel(function: F) -> F:
    """Compile ``function`` with the package's options and ``parallel=True``."""
    return numba.njit(parallel=True, **_OPTIONS)(function)

"""The disk cache of compiled kernels: where it lives, when it is stale, what if it is broken.

Numba writes a compiled kernel to two files in a cache directory: an index
(``<module>.<function>-<line>.pyXY.nbi``) and one data file per signature
(``....<k>.nbc``).  The directory is the first of these that is writable: the folder
``NUMBA_CACHE_DIR`` names, the ``__pycache__`` next to the source, Numba's user-wide
cache folder.  This module adds three things to Numba's cache, wherever it lives:

* **Usable or not.**  :func:`cache_is_usable` tells whether any location is writable;
  when none is, caching is switched off (see :mod:`assay._kernels._jit`).
* **Stale kernels are dropped.**  Numba invalidates a cached kernel when *its own*
  source file changes, but not when a function it calls from another module does (a
  kernel of ``resample.py`` inlines the random streams of ``_rng.py``).  So every cache
  directory holding assay kernels is keyed by one digest of the Numba version and of
  all kernel sources (:func:`sources_digest`); when the digest differs from the one
  recorded in the directory, the directory's ``.nbi``/``.nbc`` files are deleted and
  recompiled on first use (:func:`ensure_fresh`).  This happens once per directory and
  process, before the first kernel is loaded from it.
* **A broken cache is rebuilt.**  A cache file that cannot be read (truncated by a full
  disk or a killed process, overwritten) would make Numba raise ``EOFError`` or
  ``UnpicklingError`` in every later process.  :class:`RecoveringCache` deletes the
  kernel's files instead, warns once per process with a
  :class:`~assay.exceptions.CompilationCacheWarning`, and lets Numba recompile; the
  kernel is then written afresh, so the next process is clean.
* **Processes take turns.**  Numba writes each file atomically, but a kernel's index and
  its data files are separate: two processes saving two signatures of one kernel at once
  can both read the old index, both number their data file 1, and leave the index
  naming one signature beside the other's code.  Every load and save of a kernel, and
  the stale check, hold the directory's lock (:func:`directory_lock`, an exclusive
  ``flock`` on POSIX), so the index and the data files change together.
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import os
import sys
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numba
from numba.core.caching import FunctionCache

from assay.exceptions import CompilationCacheWarning

if sys.platform != "win32":
    import fcntl

KERNEL_DIRECTORY = Path(__file__).resolve().parent
MARKER_NAME = "assay-kernel-sources.sha256"
LOCK_NAME = "assay-kernels.lock"
_CACHE_SUFFIXES = (".nbi", ".nbc")

_checked_directories: set[Path] = set()
_warned_directories: set[Path] = set()
_lock = threading.Lock()
_held_locks = threading.local()  # the cache directories whose lock this thread holds


def _cache_probe() -> int:  # pragma: no cover - only compiled, never called
    return 0


def cache_is_usable() -> bool:
    """Whether Numba finds a writable cache location for the kernels' directory."""
    if jit_is_disabled():
        return True  # nothing is compiled, nothing to cache
    try:
        numba.njit(cache=True)(_cache_probe)
    except RuntimeError:
        return False
    return True


def jit_is_disabled() -> bool:
    """Whether ``NUMBA_DISABLE_JIT`` runs every kernel as plain Python."""
    return os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")


def sources_digest(source_directory: Path) -> str:
    """Digest of the Numba version, every kernel source (subpackages included), and the
    sources next to a kernel.

    ``source_directory`` is the folder of the module whose kernels share one cache
    directory: the kernels' own folder, or a module elsewhere in the package that
    compiles its own functions with the kernels' options (and may call kernels).
    """
    digest = hashlib.sha256(numba.__version__.encode())
    # the kernels' folder with its subpackages (the ranking scans), and the caller's folder
    paths = set(KERNEL_DIRECTORY.rglob("*.py")) | set(source_directory.resolve().glob("*.py"))
    root = KERNEL_DIRECTORY.parent
    for path in sorted(paths):
        name = path.relative_to(root) if path.is_relative_to(root) else path.name
        digest.update(str(name).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _cache_files(cache_directory: Path) -> list[Path]:
    return [path for suffix in _CACHE_SUFFIXES for path in cache_directory.glob(f"*{suffix}")]


@contextlib.contextmanager
def directory_lock(cache_directory: Path) -> Iterator[None]:
    """Hold the lock of a cache directory: one process at a time reads or writes its kernels.

    An exclusive ``flock`` on the file ``assay-kernels.lock`` in the directory, released
    when the block ends (or the process dies).  A thread that holds it already enters
    again.  Where no lock can be had (Windows, a directory that cannot be created, a
    read-only one), the block runs without it.
    """
    if sys.platform == "win32":  # pragma: no cover - Numba's atomic file replacement only
        yield
        return
    held = _held_locks.__dict__.setdefault("directories", set())
    if cache_directory in held:
        yield
        return
    try:
        cache_directory.mkdir(parents=True, exist_ok=True)
        handle = open(cache_directory / LOCK_NAME, "ab")
    except OSError:  # pragma: no cover - a read-only cache location; Numba then skips it
        yield
        return
    with handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        held.add(cache_directory)
        try:
            yield
        finally:
            held.discard(cache_directory)
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def drop_stale_cache(cache_directory: Path, source_directory: Path) -> None:
    """Delete the compiled kernels in ``cache_directory`` unless they come from these sources.

    The digest of :func:`sources_digest` is recorded in the directory; a directory
    without it (or with another one) has its ``.nbi`` and ``.nbc`` files removed.
    """
    marker = cache_directory / MARKER_NAME
    try:
        digest = sources_digest(source_directory)
        with directory_lock(cache_directory):
            if marker.is_file() and marker.read_text() == digest:
                return
            cache_directory.mkdir(parents=True, exist_ok=True)
            for stale in _cache_files(cache_directory):
                stale.unlink(missing_ok=True)
            marker.write_text(digest)
    except OSError:  # pragma: no cover - a read-only cache location; Numba then skips it
        return


def ensure_fresh(cache_directory: Path, source_directory: Path) -> None:
    """:func:`drop_stale_cache` once per cache directory and process."""
    with _lock:
        if cache_directory in _checked_directories:
            return
        _checked_directories.add(cache_directory)
        drop_stale_cache(cache_directory, source_directory)


def _is_internal_frame(frame: Any) -> bool:
    """A frame of the import machinery, which :func:`warnings.warn` does not count."""
    filename = frame.f_code.co_filename
    return "importlib" in filename and "_bootstrap" in filename


def user_stacklevel() -> int:
    """``stacklevel`` of the first caller outside assay and Numba (for ``warnings.warn``).

    Counted as :func:`warnings.warn` counts: frames of the import machinery are skipped,
    so a warning raised while ``import assay`` runs points at the user's import line.
    """
    frame = sys._getframe(1)
    level = 1
    while True:
        module = frame.f_globals.get("__name__", "")
        if module.partition(".")[0] not in ("assay", "numba"):
            return level
        caller = frame.f_back
        while caller is not None and _is_internal_frame(caller):
            caller = caller.f_back
        if caller is None:
            return level
        frame = caller
        level += 1


class RecoveringCache(FunctionCache):
    """Numba's per-kernel disk cache, which rebuilds files it cannot read or update.

    Installed on a dispatcher by :func:`recover_unreadable_files`; it adds no state to
    Numba's ``FunctionCache``, only the handling of unreadable files.
    """

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        with directory_lock(Path(self.cache_path)):
            try:
                return super().load_overload(sig, target_context)
            except Exception as error:  # any unreadable file: EOFError, UnpicklingError, ...
                self._discard(error, "could not be read")
                return None  # Numba compiles the kernel and saves it afresh

    def save_overload(self, sig: Any, data: Any) -> None:
        with directory_lock(Path(self.cache_path)):
            try:
                super().save_overload(sig, data)
            except Exception as error:  # an unreadable index, or a failed write
                self._discard(error, "could not be updated")

    def _discard(self, error: Exception, what: str) -> None:
        """Delete this kernel's index and data files, and warn once per directory."""
        cache_directory = Path(self.cache_path)
        pattern = glob.escape(self._impl.filename_base)
        for path in [
            *cache_directory.glob(f"{pattern}.nbi"),
            *cache_directory.glob(f"{pattern}.*.nbc"),
        ]:
            try:
                path.unlink(missing_ok=True)
            except OSError:  # pragma: no cover - removed by another process meanwhile
                pass
        with _lock:
            if cache_directory in _warned_directories:
                return
            _warned_directories.add(cache_directory)
        warnings.warn(
            f"assay's cache of compiled kernels in {cache_directory} {what} "
            f"({type(error).__name__}: {error}); the damaged files were deleted and the "
            "kernel is compiled again. Results are unaffected; the next process uses the "
            "rebuilt cache.",
            CompilationCacheWarning,
            stacklevel=user_stacklevel(),
        )


def recover_unreadable_files(dispatcher: Any) -> None:
    """Make a cached dispatcher rebuild unreadable cache files, after dropping stale ones.

    The dispatcher's ``FunctionCache`` becomes a :class:`RecoveringCache` (same state,
    one more behaviour), and its cache directory is checked against the current kernel
    sources (:func:`ensure_fresh`) before anything is loaded from it.
    """
    cache = getattr(dispatcher, "_cache", None)
    if type(cache) is not FunctionCache:
        return
    cache.__class__ = RecoveringCache
    source_directory = Path(dispatcher.py_func.__code__.co_filename).resolve().parent
    ensure_fresh(Path(cache.cache_path).resolve(), source_directory)

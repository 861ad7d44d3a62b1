"""The only place where Numba compilation options and the threading layer are set.

Every kernel in :mod:`assay._kernels` is decorated with :func:`jit` (or
:func:`jit_parallel`).  Options, fixed for the whole package:

* ``cache=True`` -- compiled code is written to disk (see :mod:`assay._kernels._cache`
  for where, and for what happens to stale or unreadable files) and reused by later
  processes.  When no writable cache location exists (a read-only install without a
  writable home), caching is switched off and a
  :class:`~assay.exceptions.CompilationCacheWarning` says so once; results are
  unaffected, only start-up is slower.
* ``nogil=True`` -- kernels release the GIL so callers may use threads.
* ``error_model="numpy"`` -- division by zero gives inf/NaN as in NumPy instead of
  raising; kernels never rely on Python exceptions.
* no ``fastmath`` -- results must be reproducible and IEEE-exact.

Kernels never call ``numba.get_num_threads()`` internally: Numba silently refuses to
cache such functions.  Thread counts are passed in as arguments.

While Numba compiles an assay kernel, Python's cyclic garbage collector is paused
(:class:`_CollectorPause`): its full collections would walk every object of the process
again and again while the compiler's objects pile up.

Threading layer
---------------
Numba runs the ``prange`` loops of parallel kernels on one of three thread pools, chosen
once per process when the first parallel function runs:

* ``tbb`` (Intel oneTBB) -- safe with threads and with ``fork``;
* ``omp`` (OpenMP) -- safe with threads; on Linux it is GNU OpenMP, which kills a child
  process that forks after a parallel call (``multiprocessing``'s fork pools then hang);
* ``workqueue`` -- safe with ``fork``; aborts the process when two threads run
  parallel functions at the same time.

Unless the user chose (``NUMBA_THREADING_LAYER`` or ``NUMBA_THREADING_LAYER_PRIORITY``
in the environment, or ``numba.config.THREADING_LAYER`` set before importing assay),
assay asks Numba for its ``"forksafe"`` layer: ``tbb`` when the library can be loaded,
else OpenMP where it is fork-safe (not on Linux), else ``workqueue``.  The ``tbb``
wheel installs the library outside Numba's search path (for example in
``<venv>/lib``), so assay loads it first from where that wheel put it
(:func:`_load_tbb_library`).  A layer the user chose is respected.

Whatever the layer, assay keeps its own calls safe: when the layer in use is
``workqueue``, :func:`jit_parallel` kernels take one process-wide lock, so assay never
runs two parallel regions at once.  Once per process, at the first parallel call, a
:class:`~assay.exceptions.ThreadingLayerWarning` says when the layer in use is not
both fork- and thread-safe and assay did not get it by the user's choice of exactly
that: ``workqueue`` picked because tbb is missing (concurrent calls then wait for each
other), or OpenMP on Linux (a forked child dies).
"""

from __future__ import annotations

import contextvars
import ctypes
import functools
import gc
import os
import site
import sys
import threading
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba
from numba.core import event as numba_event

from assay._kernels._cache import (
    cache_is_usable,
    jit_is_disabled,
    recover_unreadable_files,
    user_stacklevel,
)
from assay.exceptions import CompilationCacheWarning, ThreadingLayerWarning

F = TypeVar("F", bound=Callable[..., Any])
_numba_config: Any = numba.config  # its settings are set at run time, unknown to mypy

# -- the compilation cache ---------------------------------------------------------------

CACHE = cache_is_usable()
if not CACHE:
    warnings.warn(
        "assay cannot write compiled kernels to disk (the package directory and "
        "Numba's user cache directory are read-only); every new process will "
        "recompile them. Set NUMBA_CACHE_DIR to a writable directory to fix this.",
        CompilationCacheWarning,
        stacklevel=user_stacklevel(),  # the user's `import assay`, not an assay module
    )

# -- the threading layer -----------------------------------------------------------------

_NUMBA_DEFAULT_PRIORITY = ["tbb", "omp", "workqueue"]
# The file name of oneTBB's run-time library, which Numba loads by this name.
_TBB_LIBRARY = {"linux": "libtbb.so.12", "darwin": "libtbb.12.dylib", "win32": "tbb12.dll"}


def _threads_started() -> str | None:
    """The threading layer in use, or None while Numba has not started its threads."""
    try:
        return str(numba.threading_layer())
    except ValueError:  # "Threading layer is not initialized."
        return None


def _tbb_library_candidates() -> list[Path]:
    """Where the ``tbb`` wheel puts its library: the data folder of the environment."""
    name = _TBB_LIBRARY.get(sys.platform)
    if name is None:
        return []
    roots = [Path(sys.prefix), Path(site.getuserbase())]
    folders = ["Library/bin"] if sys.platform == "win32" else ["lib"]
    found = [root / folder / name for root in roots for folder in folders]
    if not any(path.is_file() for path in found):  # an unusual layout: ask the wheel
        from importlib import metadata

        try:
            files = metadata.files("tbb") or []
        except metadata.PackageNotFoundError:
            files = []
        found += [Path(str(file.locate())) for file in files if file.name == name]
    return [path for path in found if path.is_file()]


def _load_tbb_library() -> bool:
    """Load the oneTBB library of the ``tbb`` wheel so that Numba finds it by name.

    Numba loads ``libtbb.so.12`` (``libtbb.12.dylib``, ``tbb12.dll``) by its bare name,
    which the system's loader finds only in its own search path, not in the folder of
    a virtual environment where pip puts it.  A library already loaded under that name
    is found by it.  Returns whether a file was loaded (not whether Numba will accept
    its version: it checks that itself, and falls back to another layer).
    """
    mode = getattr(os, "RTLD_GLOBAL", 0)
    for path in _tbb_library_candidates():
        try:
            ctypes.CDLL(str(path), mode=mode)
        except OSError:
            continue
        return True
    return False


def _choose_threading_layer() -> bool:
    """Ask Numba for a fork- and thread-safe layer unless the user chose one.

    Returns whether the user chose the layer (or it was already running when assay
    was imported); then assay only loads the tbb library, so that a choice of ``tbb``
    also works with the ``tbb`` wheel.
    """
    if jit_is_disabled() or _threads_started() is not None:
        return True
    requested = str(_numba_config.THREADING_LAYER).lower()
    priority = list(_numba_config.THREADING_LAYER_PRIORITY)
    user_chose = requested != "default" or priority != _NUMBA_DEFAULT_PRIORITY
    if requested in ("default", "tbb", "safe", "threadsafe", "forksafe"):
        _load_tbb_library()
    if not user_chose:
        _numba_config.THREADING_LAYER = "forksafe"
    return user_chose


_USER_CHOSE_LAYER = _choose_threading_layer()
_REQUESTED_LAYER = str(_numba_config.THREADING_LAYER).lower()


class _LayerState:
    """What assay knows about the layer in use; settled after the first parallel call."""

    def __init__(self) -> None:
        self.lock = threading.Lock()  # held around parallel kernels under workqueue
        self.settled = False
        self.serialise = True  # until the layer is known: the first call launches it

    def settle(self) -> None:
        """Record the layer Numba started, and warn once if it is not fully safe."""
        layer = _threads_started()
        if layer is None or self.settled:
            return
        with _settle_lock:
            if self.settled:
                return
            self.serialise = layer == "workqueue"
            self.settled = True
        message = _layer_warning(layer)
        if message is not None:
            warnings.warn(message, ThreadingLayerWarning, stacklevel=user_stacklevel())


def _layer_warning(layer: str) -> str | None:
    """The warning about ``layer``, or None when it is safe or exactly the user's choice."""
    if layer == "omp" and sys.platform.startswith("linux"):
        return (
            "Numba runs assay's parallel kernels with GNU OpenMP (threading layer 'omp'), "
            "which kills a child process that forks after a parallel call "
            "(multiprocessing's fork pools then hang). Install the 'tbb' package and leave "
            "NUMBA_THREADING_LAYER unset (or set it to 'tbb'), or use the 'spawn' start "
            "method."
        )
    if layer == "workqueue" and not (_USER_CHOSE_LAYER and _REQUESTED_LAYER == "workqueue"):
        return (
            "The tbb library is not available, so Numba runs assay's parallel kernels "
            "with its 'workqueue' threading layer, which is fork-safe but allows one "
            "parallel region at a time: calls to assay from several threads take turns. "
            "Install the 'tbb' package (pip or conda) to run them concurrently, or set "
            "NUMBA_THREADING_LAYER=workqueue to choose this layer and silence this warning. "
            "Your own parallel Numba functions share this layer: do not call them from "
            "several threads at once."
        )
    return None


_settle_lock = threading.Lock()
_LAYER = _LayerState()


def _fresh_lock_after_fork() -> None:
    """A forked child gets a new lock: the parent's may be held by a thread not copied."""
    _LAYER.lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_lock_after_fork)

# -- the collector while a kernel compiles -----------------------------------------------


class _CollectorPause(numba_event.Listener):
    """Pauses Python's cyclic garbage collector while Numba compiles an assay kernel.

    Compiling a kernel creates some hundred thousand Python objects that outlive it
    (Numba's types, typing caches, compiled libraries).  The collector counts them and
    runs full collections while they pile up, each one walking every object of the
    process; in a process that holds pandas and scikit-learn that is 0.2 to 0.3 s of a
    cold ``compare`` (docs/performance.md).  The pause lasts from the start of the
    outermost compilation of an assay kernel (Numba's ``"numba:compile"`` event, its
    nested compilations included) to its end, also when it fails; objects left unreachable
    meanwhile are collected by the next collection after it.  A collector the host
    process turned off stays off; ``gc.collect()`` still works during the pause.  Numba
    emits these events under its compiler lock, one compilation at a time; the lock here
    only guards the count.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0  # compilations open inside the outermost assay kernel's
        self._paused = False  # whether this listener turned the collector off

    def on_start(self, event: Any) -> None:
        with self._lock:
            if self._depth == 0:
                dispatcher = (event.data or {}).get("dispatcher")
                module = getattr(getattr(dispatcher, "py_func", None), "__module__", None)
                if not str(module).startswith("assay."):
                    return  # not assay's: the host's own compilations are left alone
                self._paused = gc.isenabled()
                if self._paused:
                    gc.disable()
            self._depth += 1

    def on_end(self, event: Any) -> None:
        with self._lock:
            if self._depth == 0:
                return
            self._depth -= 1
            if self._depth == 0 and self._paused:
                self._paused = False
                gc.enable()


_reloaded_pause = globals().get("COLLECTOR_PAUSE")
if _reloaded_pause is not None:  # this module reloaded: one listener, not two
    numba_event.unregister("numba:compile", _reloaded_pause)
COLLECTOR_PAUSE = _CollectorPause()
numba_event.register("numba:compile", COLLECTOR_PAUSE)

# -- the decorators ----------------------------------------------------------------------

_OPTIONS: dict[str, Any] = {
    "cache": CACHE,
    "nogil": True,
    "error_model": "numpy",
    "fastmath": False,
}


# Options of the functions an ``overload`` supplies (the compile-time dispatch of the
# ranking scans, of a scan's direction and of a draw's scheme): they are compiled with,
# and cached with, the kernel that calls them, so they keep no cache of their own.  (An
# overload marked ``inline="always"`` is compiled on its own as well, to type it, and then
# typed once more inside its caller: the choice of a direction or a scheme, whose function
# is large, is a plain call instead.)
OVERLOAD_OPTIONS: Any = {"nogil": True, "error_model": "numpy"}


def jit(function: F) -> F:
    """Compile ``function`` with the package's options (serial kernel)."""
    dispatcher = numba.njit(**_OPTIONS)(function)
    if CACHE:
        recover_unreadable_files(dispatcher)
    return cast(F, dispatcher)


def jit_inline(function: F) -> F:
    """Compile ``function`` with the package's options, inlined into the kernels calling it.

    A kernel that calls it gets its body (Numba inlines it before typing), so it is
    not compiled on its own for that caller: no function of its own to type, lower,
    optimise, link and write to the cache, which is a fixed cost per compiled function
    that small helpers pay several times over their own size.  Called from Python it is
    an ordinary cached kernel.  For small helpers only: a large one is typed again in
    every caller, and Numba's typing grows faster than the size of a function (the
    binomial sampler with its two algorithms inlined compiled slower than as five
    functions).
    """
    dispatcher = numba.njit(inline="always", **_OPTIONS)(function)
    if CACHE:
        recover_unreadable_files(dispatcher)
    return cast(F, dispatcher)


def jit_parallel(function: F) -> F:
    """Compile ``function`` with the package's options and ``parallel=True``.

    The result is called from Python only (never from another kernel): a thin wrapper
    that runs the compiled function under the process-wide lock while the threading
    layer is ``workqueue`` (or not started yet), and records the layer after the first
    call.  The compiled dispatcher is its ``__wrapped__``.
    """
    dispatcher = numba.njit(parallel=True, **_OPTIONS)(function)
    if CACHE:
        recover_unreadable_files(dispatcher)
    if jit_is_disabled():
        return cast(F, dispatcher)

    @functools.wraps(function)
    def parallel_kernel(*args: Any) -> Any:
        if _LAYER.serialise:
            with _LAYER.lock:
                result = dispatcher(*args)
        else:
            result = dispatcher(*args)
        if not _LAYER.settled:
            _LAYER.settle()
        return result

    parallel_kernel.__wrapped__ = dispatcher
    return cast(F, parallel_kernel)


def n_workers() -> int:
    """Threads to split replicates or rounds between (Numba's current thread count).

    Read here, in Python, and passed to kernels as an argument (a kernel that reads it
    itself is not cached by Numba)."""
    return int(numba.get_num_threads())


PARALLEL_MIN_WORK = 1 << 25
"""Below this much work (atoms visited by all the replicates of a call) a resampling call
runs its serial kernel on the calling thread alone (:func:`workers_for`), above it on
:func:`n_workers` threads (:func:`run_workers`).

The threshold was chosen when the threads were a ``prange`` kernel's, loaded from the disk
cache once per process and starting Numba's threads at its first call: a replicate visits
an atom in about 1.8 ns of CPU, so 2**25 visits take some 60 ms on one thread, and below
that a second thread saved less than that load and start cost a new process
(docs/performance.md, "Serial kernels for small calls").  Python threads cost less to
start; the threshold is kept."""


def run_workers(
    kernel: Callable[..., Any],
    arguments: tuple[Any, ...],
    workers: int,
    scratch: Callable[[], tuple[Any, ...]] | None = None,
) -> None:
    """``kernel(*arguments, *scratch(), worker, workers)`` for every ``worker < workers``,
    each on a Python thread of its own (worker 0 on the calling one); an exception in any
    is raised here.  ``scratch`` allocates one thread's own buffers (none without it): a
    kernel given its buffers compiles no allocation.

    ``kernel`` is a serial kernel that computes one thread's share of a resampling call
    (the replicates ``worker, worker + workers, ...``); it releases the GIL (``nogil``),
    so the threads run at once.  Unlike a ``prange`` kernel that would call it on Numba's
    threads, nothing more is compiled for it (the serial kernel, which a small call runs
    with ``workers == 1``, is all), no threading layer is started, and its threads have
    ended when this returns (nothing left running across a ``fork``).  Each replicate is
    computed by the same function from its own stream, so the values do not depend on
    ``workers``.  Each helper thread runs in a copy of the caller's context, so settings
    kept in context variables, such as NumPy's ``np.errstate``, apply on every thread as
    they do on the calling one.
    """
    errors: list[BaseException] = []

    def share(worker: int) -> None:
        try:
            kernel(*arguments, *(scratch() if scratch else ()), worker, workers)
        except BaseException as error:  # re-raised in the calling thread
            errors.append(error)

    helpers = [
        threading.Thread(target=contextvars.copy_context().run, args=(share, worker))
        for worker in range(1, workers)
    ]
    for helper in helpers:
        helper.start()
    share(0)
    for helper in helpers:
        helper.join()
    if errors:
        raise errors[0]


def workers_for(work: int) -> int:
    """Threads for a resampling call that visits about ``work`` atoms in all: one (its
    serial kernel) below :data:`PARALLEL_MIN_WORK`, else :func:`n_workers`.  The values
    do not depend on the choice: every replicate is computed by the same function from its
    own random stream, on any number of threads."""
    return n_workers() if work >= PARALLEL_MIN_WORK else 1

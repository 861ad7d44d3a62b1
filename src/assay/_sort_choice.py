"""Which sort orders unweighted scores: NumPy's ``np.sort`` or the package's radix sort.

The ranking functions sort the negated scores of each class ascending (see
:mod:`assay.metrics._sorted`), and DeLong's placements sort one non-negative int64 word
per row (its score's key with its class and position, see
:func:`assay._kernels.delong.packed_words`).  Two sorts give the same result: ``np.sort``
(in place, no extra memory; a vectorised sort on x86 CPUs with AVX2 or AVX-512, much
slower where its vectorised code is not in effect) and the radix sort
(:func:`assay._kernels.sorting.radix_sort_floats` of order-preserving keys, 32-bit for
float32 scores, and of the words, whose bits are those of non-negative float64 values;
it needs a scratch buffer as large as the input).
Which one is faster depends on the machine, even between machines with the same CPU
flags, so it is measured where assay runs:

* **Calibration, once per dtype.**  The first sort of at least
  :data:`CALIBRATION_MIN_ROWS` values of a dtype (float64, float32 or int64) in a
  process times both sorts on a fixed synthetic sample of that dtype
  (:data:`SAMPLE_SIZE` distinct values, :data:`REPEATS` alternating repeats, the
  minimum of each); the other dtypes are measured only when they are first sorted, so
  a user of float64 scores never compiles the radix sort of float32 keys (about 1.5 s
  on a cold first call).  The radix sort is
  chosen for a dtype when its time is below :data:`RADIX_MARGIN` times np.sort's (10%
  faster); otherwise np.sort (which needs no scratch memory) stays.  Smaller inputs
  always use np.sort and never trigger the calibration; nothing is measured at import.
* **Cached beside the compiled kernels.**  Each dtype's result is written as a small
  JSON file into the directory where Numba caches the sorting kernels (see
  :mod:`assay._kernels._cache`), named by a digest of what it depends on: the CPU
  (model name and flags from ``/proc/cpuinfo``, or :mod:`platform`), the versions of
  NumPy, Numba and assay, and the source of the radix sort.  Later processes read it
  instead of measuring.  A file that cannot be read or does not match is ignored and
  rewritten; where nothing can be written (a read-only installation), the calibration
  runs once per process.
* **Forced.**  The environment variable ``ASSAY_SORT`` set to ``numpy`` or ``radix``
  forces that sort for every input, whatever its size (``auto`` or unset: the
  calibrated choice).  Read at every sort, so it can be changed at run time.

The choice changes only speed: both sorts give the same ascending values (the radix
sort turns -0.0 into +0.0, which compares equal and forms the same tie group), so every
ranking metric, curve and DeLong result has the same bits whichever sort ran.  Under
``NUMBA_DISABLE_JIT`` the radix sort is plain Python: np.sort is used unless forced.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import threading
import time
from pathlib import Path
from typing import Any

import numba
import numpy as np

from assay._kernels import order, sorting
from assay._kernels._cache import jit_is_disabled
from assay._version import __version__

ENVIRONMENT_VARIABLE = "ASSAY_SORT"
METHODS = ("numpy", "radix")
CALIBRATION_MIN_ROWS = 1 << 16
"""Inputs of fewer rows use np.sort and do not trigger the calibration (which costs
about as much as fifty sorts of this many rows, once per machine: its result is cached).
On a CPU where the calibration chose the radix sort, it was also 2.6 to 3.9 times as
fast as np.sort from 10**5 to 10**6 rows (float32 and float64; the radix sort's fixed
cost makes the two even near 2 * 10**4 rows)."""
SAMPLE_SIZE = 1 << 20
REPEATS = 3
RADIX_MARGIN = 0.9
"""The radix sort is chosen when its time is below this fraction of np.sort's."""
_SEED = 20261126
_FILE_PREFIX = "assay-sort-choice-"
_FORMAT = 2
DTYPES = ("float64", "float32", "int64")

_lock = threading.Lock()
_choices: dict[str, str] = {}  # this process's calibrated choice per dtype, once known


def forced_method() -> str | None:
    """The sort ``ASSAY_SORT`` forces (``numpy`` or ``radix``), or None for the calibrated one."""
    raw = os.environ.get(ENVIRONMENT_VARIABLE, "")
    value = raw.strip().lower()
    if value in ("", "auto"):
        return None
    if value not in METHODS:
        raise ValueError(
            f"The environment variable {ENVIRONMENT_VARIABLE} is {raw!r}; it must be "
            "'numpy', 'radix' or 'auto' (or unset)."
        )
    return value


def sort_method(dtype: np.dtype[Any], n_rows: int) -> str:
    """The sort for ``n_rows`` values of ``dtype`` (float64, float32 or int64): numpy or
    radix."""
    forced = forced_method()
    if forced is not None:
        return forced
    if n_rows < CALIBRATION_MIN_ROWS or jit_is_disabled():
        return "numpy"
    return calibrated_choice(np.dtype(dtype).name)


def sort_in_place(values: np.ndarray, method: str) -> None:
    """Sort float64, float32 or non-negative int64 ``values`` ascending in place with
    ``method``.

    The radix sort orders int64 values by their bits as unsigned integers, which is
    their order only when none is negative: a negative value is an error (checked,
    whichever the method, so that a caller's mistake shows on every machine).
    """
    if values.dtype == np.int64:
        if values.shape[0] and int(values.min()) < 0:
            raise ValueError("sort_in_place sorts non-negative int64 values only")
        if method == "radix":
            # a non-negative int64 has the bits of a non-negative float64 (or of a NaN
            # pattern) whose order-preserving key keeps the integer's order: the float
            # radix sort orders it, exactly, with the kernel the scores' sort compiles
            sorting.radix_sort_floats(values.view(np.float64))
        else:
            values.sort()
    elif method == "radix":
        sorting.radix_sort_floats(values)
    else:
        values.sort()


def _sample(dtype: str, size: int) -> np.ndarray:
    """The calibration's values of ``dtype``: negated uniform probabilities (distinct, as
    the ranking functions sort them) for floats; for int64, uniform non-negative values
    over 63 bits (as DeLong's words, whose varying bits span nearly the whole word)."""
    rng = np.random.default_rng(_SEED)
    if dtype == "int64":
        return rng.integers(0, np.iinfo(np.int64).max, size=size, dtype=np.int64)
    return (-rng.random(size)).astype(dtype)


# -- the calibration and its cache ------------------------------------------------------


def cpu_description() -> str:
    """The CPU as the operating system describes it: model name and feature flags."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    fields: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            if fields:
                break  # the first processor is enough
            continue
        name, _, value = line.partition(":")
        fields.setdefault(name.strip(), value.strip())
    model = fields.get("model name") or fields.get("Processor") or platform.processor()
    flags = fields.get("flags") or fields.get("Features") or ""
    return f"{platform.machine()} | {model} | {flags}"


def calibration_key() -> dict[str, str]:
    """What a calibration depends on: the CPU and the versions of the code that sorts
    (NumPy, Numba, assay, and the source of the radix sort itself)."""
    radix_source = Path(sorting.__file__).read_bytes()
    return {
        "cpu": cpu_description(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "assay": __version__,
        "radix_sort": hashlib.sha256(radix_source).hexdigest()[:16],
    }


def calibration_file(directory: Path, key: dict[str, str], dtype: str) -> Path:
    """The file in ``directory`` holding the calibration of ``dtype`` for ``key``."""
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
    return directory / f"{_FILE_PREFIX}{dtype}-{digest}.json"


def kernel_cache_directory() -> Path | None:
    """Where Numba caches the sorting kernels, or None when it caches nothing."""
    cache = getattr(sorting.sort_float_bits, "_cache", None)
    path = getattr(cache, "cache_path", None)
    return None if path is None else Path(path)


def calibrate(
    dtype: str, sample_size: int = SAMPLE_SIZE, repeats: int = REPEATS
) -> dict[str, Any]:
    """Time np.sort against the radix sort on a fixed sample of ``dtype`` (``"float64"``,
    ``"float32"`` or ``"int64"``); the record to cache.

    The sample is ``sample_size`` values of that dtype (:func:`_sample`).  The two sorts
    alternate ``repeats`` times on fresh copies; the minimum time of each is kept.
    """
    values = _sample(dtype, sample_size)
    # load (or compile) the kernels first, those of large inputs included (the bucket
    # pass), so that no timed sort compiles
    sort_in_place(values[: sorting.MSD_THRESHOLD].copy(), "radix")
    best = {method: float("inf") for method in METHODS}
    for _ in range(repeats):
        for method in METHODS:
            work = values.copy()
            start = time.perf_counter()
            sort_in_place(work, method)
            best[method] = min(best[method], time.perf_counter() - start)
    choice = "radix" if best["radix"] < RADIX_MARGIN * best["numpy"] else "numpy"
    return {"format": _FORMAT, "dtype": dtype, "sample_size": sample_size, "repeats": repeats,
            "seconds": best, "choice": choice}  # fmt: skip


def read_calibration(path: Path, key: dict[str, str], dtype: str) -> str | None:
    """The choice recorded in ``path`` for ``key`` and ``dtype``; None if missing,
    unreadable or another's."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("format") != _FORMAT:
        return None
    if record.get("key") != key or record.get("dtype") != dtype:
        return None
    choice = record.get("choice")
    return choice if choice in METHODS else None


def write_calibration(path: Path, key: dict[str, str], record: dict[str, Any]) -> bool:
    """Write ``record`` for ``key`` to ``path`` atomically; False if it cannot be written."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(json.dumps({**record, "key": key}, indent=1), encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        try:
            temporary.unlink(missing_ok=True)
        except OSError:  # pragma: no cover - the directory vanished meanwhile
            pass
        return False
    return True


def load_or_calibrate(directory: Path | None, dtype: str) -> str:
    """The choice for ``dtype`` cached in ``directory``, or a fresh calibration (cached
    there if possible)."""
    key = calibration_key()
    path = None if directory is None else calibration_file(directory, key, dtype)
    if path is not None:
        cached = read_calibration(path, key, dtype)
        if cached is not None:
            return cached
    record = calibrate(dtype)
    if path is not None:
        write_calibration(path, key, record)
    return str(record["choice"])


def calibrated_choice(dtype: str) -> str:
    """This process's choice for ``dtype`` (``"float64"``, ``"float32"`` or ``"int64"``):
    read from the cache or measured, once."""
    with _lock:
        if dtype not in _choices:
            _choices[dtype] = load_or_calibrate(kernel_cache_directory(), dtype)
        return _choices[dtype]


def calibrated_choices() -> dict[str, str]:
    """The choice for every dtype (each read from the cache or measured, once)."""
    return {name: calibrated_choice(name) for name in DTYPES}


def forget_calibration() -> None:
    """Drop this process's choices, so the next large sort reads or measures them again."""
    with _lock:
        _choices.clear()


# -- stable orders ------------------------------------------------------------------------

NUMPY_ORDER_MAX = 1 << 12
"""Up to this many scores :func:`descending_order` is NumPy's stable argsort (it compiles
nothing and is fast there)."""


def descending_order(scores: np.ndarray) -> np.ndarray:
    """Stable permutation putting float64 ``scores`` in descending order (int64 indices).

    Up to :data:`NUMPY_ORDER_MAX` scores NumPy's stable argsort of the negated scores;
    above it, one packed word per row (the top varying bits of the score's
    order-preserving key, then the row number: :mod:`assay._kernels.order`) sorted by
    :func:`sort_in_place` (the calibrated sort of int64 values), rows whose scores differ
    only below the prefix then put in order.  The same permutation either way: equal
    scores (-0.0 and +0.0 among them) keep their input order.
    """
    n = scores.shape[0]
    if n <= NUMPY_ORDER_MAX:
        return np.argsort(-scores, kind="stable").astype(np.int64, copy=False)
    words, index_bits, exact = order.row_words(scores)
    sort_in_place(words, sort_method(words.dtype, n))
    return order.rows_of_sorted_words(words, scores, index_bits, exact)

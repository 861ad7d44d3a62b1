"""The disk cache of compiled kernels across processes: a damaged cache is rebuilt, a stale
one is dropped wherever it lives (here: a temporary NUMBA_CACHE_DIR).

Every scenario runs in fresh interpreters, the way the cache is used: one process writes
it, a later one reads it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import assay.reference as reference

from ._isolated import PACKAGE_PARENT, last_json_line, run_python

pytestmark = pytest.mark.skipif(
    os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"),
    reason="nothing is compiled or cached with NUMBA_DISABLE_JIT=1",
)

Y_TRUE = [0, 0, 1, 1, 0, 1, 1, 0, 1, 0]
Y_SCORE = [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.55, 0.5, 0.7, 0.3]

AUC_IN_A_NEW_PROCESS = f"""
import json, warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import assay

    value = assay.roc_auc_score({Y_TRUE}, {Y_SCORE})
print(json.dumps({{
    "value": value,
    "warnings": [[w.category.__name__, str(w.message)] for w in caught],
}}))
"""


def auc_in_a_new_process(cache_directory: Path) -> dict:
    process = run_python(
        AUC_IN_A_NEW_PROCESS, environment={"NUMBA_CACHE_DIR": str(cache_directory)}
    )
    return dict(last_json_line(process))


@pytest.fixture(scope="module")
def written_cache(tmp_path_factory) -> Path:
    """A NUMBA_CACHE_DIR in which one process compiled and saved roc_auc_score's kernels."""
    cache = tmp_path_factory.mktemp("kernel-cache")
    report = auc_in_a_new_process(cache)
    assert report["warnings"] == []
    assert list(cache.rglob("*.nbi")) and list(cache.rglob("*.nbc"))
    return cache


def truncate(path: Path) -> None:
    """Cut the file in half, as a process killed or a disk filled while it was written."""
    content = path.read_bytes()
    path.write_bytes(content[: len(content) // 2])


def overwrite(path: Path) -> None:
    """Replace the file's content by bytes that are no pickle."""
    path.write_bytes(b"\x00 not a Numba cache file \xff" * 8)


@pytest.mark.parametrize("damage", [truncate, overwrite], ids=["truncated", "overwritten"])
@pytest.mark.parametrize("suffix", [".nbi", ".nbc"], ids=["index", "data"])
def test_an_unreadable_cache_file_is_rebuilt_with_a_warning(
    written_cache, tmp_path, suffix, damage
) -> None:
    cache = tmp_path / "cache"
    shutil.copytree(written_cache, cache)
    damaged = sorted(
        cache.rglob(f"pieces.scan_merged_forward-*{suffix}")
    )  # the AUC kernel's own files
    assert damaged
    for path in damaged:
        damage(path)
    expected = reference.roc_auc_score(Y_TRUE, Y_SCORE)

    first = auc_in_a_new_process(cache)
    assert first["value"] == pytest.approx(expected, rel=1e-12)
    assert len(first["warnings"]) == 1  # once per process, however many files
    category, message = first["warnings"][0]
    assert category == "CompilationCacheWarning"
    assert "could not be read" in message and "compiled again" in message

    second = auc_in_a_new_process(cache)  # the cache was rebuilt: clean again
    assert second == {"value": first["value"], "warnings": []}


CALL_IN_A_NEW_PROCESS = """
import json
from assay._kernels import fingerprint_caller

print(json.dumps({"value": fingerprint_caller.caller()}))
"""

# Two kernel modules added to the copy of the package: a kernel, and one in another module
# that calls it. Numba notices an edit of a cached kernel's own file, not of its callee's.
CALLEE = """
from assay._kernels._jit import jit


@jit
def callee():
    return {value}
"""
CALLER = """
from assay._kernels._jit import jit
from assay._kernels.fingerprint_callee import callee


@jit
def caller():
    return callee() + 0
"""


def test_a_changed_kernel_source_drops_the_cache_in_numba_cache_dir(tmp_path) -> None:
    package_parent = tmp_path / "package"
    kernels = package_parent / "assay" / "_kernels"
    shutil.copytree(
        PACKAGE_PARENT / "assay",
        package_parent / "assay",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    (kernels / "fingerprint_callee.py").write_text(CALLEE.format(value=1))
    (kernels / "fingerprint_caller.py").write_text(CALLER)
    cache = tmp_path / "cache"

    def call_in_a_new_process(cache_directory: Path) -> int:
        process = run_python(
            CALL_IN_A_NEW_PROCESS,
            environment={"NUMBA_CACHE_DIR": str(cache_directory)},
            package_parent=package_parent,
        )
        return int(last_json_line(process)["value"])

    assert call_in_a_new_process(cache) == 1
    assert list(cache.rglob("fingerprint_caller.caller-*.nbc"))  # written to NUMBA_CACHE_DIR
    (kernels / "fingerprint_callee.py").write_text(CALLEE.format(value=2))
    assert call_in_a_new_process(cache) == 2  # the edited callee, not the cached caller
    assert call_in_a_new_process(tmp_path / "empty cache") == 2

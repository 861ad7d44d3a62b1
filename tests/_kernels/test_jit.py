"""Compilation options: kernels are cached on disk, or warn once when they cannot be."""

from __future__ import annotations

import importlib
import os

import pytest

from assay import CompilationCacheWarning
from assay._kernels import _jit
from assay._kernels import ranking as ranking_kernels

jit_disabled = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")


@pytest.mark.skipif(jit_disabled, reason="nothing is compiled with NUMBA_DISABLE_JIT=1")
def test_kernels_are_cached_on_disk() -> None:
    assert _jit.CACHE
    assert type(ranking_kernels.roc_auc._cache).__name__ == "FunctionCache"
    assert ranking_kernels.roc_auc.targetoptions["nogil"]
    assert ranking_kernels.roc_auc.targetoptions["error_model"] == "numpy"


@pytest.mark.skipif(jit_disabled, reason="nothing is compiled with NUMBA_DISABLE_JIT=1")
def test_no_writable_cache_location_switches_caching_off_with_a_warning(monkeypatch) -> None:
    def refuse_cache(**options):
        if options.get("cache"):
            raise RuntimeError("cannot cache function: no locator available")
        return lambda function: function

    monkeypatch.setattr(_jit.numba, "njit", refuse_cache)
    assert _jit._cache_is_usable() is False
    try:
        with pytest.warns(CompilationCacheWarning, match="cannot write compiled kernels"):
            reloaded = importlib.reload(_jit)
        assert reloaded.CACHE is False
        assert reloaded._OPTIONS["cache"] is False
    finally:
        monkeypatch.undo()
        importlib.reload(_jit)
    assert _jit.CACHE


def test_cached_kernels_are_dropped_when_any_kernel_source_changes(tmp_path, monkeypatch) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "b.py").write_text("y = 2\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    monkeypatch.setattr(_jit, "_KERNEL_DIRECTORY", tmp_path)

    def cached_files() -> set[str]:
        return {p.name for p in cache.iterdir() if p.suffix in (".nbi", ".nbc")}

    (cache / "a.f-1.py311.nbi").write_text("")
    (cache / "a.f-1.py311.1.nbc").write_text("")
    _jit._drop_stale_cache()  # no marker yet: unknown provenance, dropped
    assert cached_files() == set()
    (cache / "a.f-1.py311.nbi").write_text("")
    _jit._drop_stale_cache()  # same sources: kept
    assert cached_files() == {"a.f-1.py311.nbi"}
    (tmp_path / "b.py").write_text("y = 3\n")  # a callee elsewhere changed
    _jit._drop_stale_cache()
    assert cached_files() == set()

"""Compilation options: kernels are cached on disk, or warn once when they cannot be; stale
cached kernels are dropped."""

from __future__ import annotations

import importlib
import os

import pytest

from assay import CompilationCacheWarning
from assay._kernels import _cache, _jit, pieces
from assay._kernels import resample as resample_kernels

jit_disabled = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")


@pytest.mark.skipif(jit_disabled, reason="nothing is compiled with NUMBA_DISABLE_JIT=1")
def test_kernels_are_cached_on_disk() -> None:
    assert _jit.CACHE
    assert type(pieces.scan_merged_forward._cache).__name__ == "RecoveringCache"
    assert type(resample_kernels.bootstrap_cells.__wrapped__._cache).__name__ == "RecoveringCache"
    assert pieces.scan_merged_forward.targetoptions["nogil"]
    assert pieces.scan_merged_forward.targetoptions["error_model"] == "numpy"


@pytest.mark.skipif(jit_disabled, reason="nothing is compiled with NUMBA_DISABLE_JIT=1")
def test_no_writable_cache_location_switches_caching_off_with_a_warning(monkeypatch) -> None:
    def refuse_cache(**options):
        if options.get("cache"):
            raise RuntimeError("cannot cache function: no locator available")
        return lambda function: function

    monkeypatch.setattr(_jit.numba, "njit", refuse_cache)
    assert _cache.cache_is_usable() is False
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
    kernels = tmp_path / "kernels"
    elsewhere = tmp_path / "elsewhere"
    for folder in (kernels, elsewhere):
        folder.mkdir()
    (kernels / "a.py").write_text("x = 1\n")
    (kernels / "b.py").write_text("y = 2\n")
    (elsewhere / "c.py").write_text("z = 3\n")
    monkeypatch.setattr(_cache, "KERNEL_DIRECTORY", kernels)
    for edit, (source_directory, cache) in enumerate(
        [
            (kernels, tmp_path / "cache of the kernels"),  # any folder: in-tree or NUMBA_CACHE_DIR
            (elsewhere, tmp_path / "cache of elsewhere"),  # a module outside that calls kernels
        ]
    ):
        cache.mkdir()

        def cached_files(cache=cache) -> set[str]:
            return {p.name for p in cache.iterdir() if p.suffix in (".nbi", ".nbc")}

        (cache / "a.f-1.py311.nbi").write_text("")
        (cache / "a.f-1.py311.1.nbc").write_text("")
        _cache.drop_stale_cache(cache, source_directory)  # no marker: unknown provenance
        assert cached_files() == set()
        (cache / "a.f-1.py311.nbi").write_text("")
        _cache.drop_stale_cache(cache, source_directory)  # same sources: kept
        assert cached_files() == {"a.f-1.py311.nbi"}
        (kernels / "b.py").write_text(f"y = {3 + edit}\n")  # a kernel elsewhere changed
        _cache.drop_stale_cache(cache, source_directory)
        assert cached_files() == set()
    (tmp_path / "cache of elsewhere" / "c.f-1.py311.nbi").write_text("")
    (elsewhere / "c.py").write_text("z = 4\n")  # a module next to the cached one changed
    _cache.drop_stale_cache(tmp_path / "cache of elsewhere", elsewhere)
    assert not (tmp_path / "cache of elsewhere" / "c.f-1.py311.nbi").exists()

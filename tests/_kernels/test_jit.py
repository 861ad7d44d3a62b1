"""Compilation options: kernels are cached on disk, or warn once when they cannot be; stale
cached kernels are dropped."""

from __future__ import annotations

import gc
import importlib
import os

import numba
import numpy as np
import pytest
from numba.core import event

from assay import CompilationCacheWarning
from assay._kernels import _cache, _jit, atoms, pieces
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


class _CollectorDuringCompilation(event.Listener):
    """Whether the collector was on when each compilation started (registered after
    assay's listener, so it sees the state assay's listener left)."""

    def __init__(self) -> None:
        self.enabled_at_start: list[tuple[str, bool]] = []

    def on_start(self, event_) -> None:
        dispatcher = event_.data["dispatcher"]
        self.enabled_at_start.append((dispatcher.py_func.__module__, gc.isenabled()))

    def on_end(self, event_) -> None:
        pass


@pytest.fixture
def collector_during_compilation():
    listener = _CollectorDuringCompilation()
    event.register("numba:compile", listener)
    was_enabled = gc.isenabled()
    try:
        yield listener
    finally:
        event.unregister("numba:compile", listener)
        if was_enabled:
            gc.enable()


def _not_assay(continues):
    return continues.sum()


@pytest.mark.skipif(jit_disabled, reason="nothing is compiled with NUMBA_DISABLE_JIT=1")
def test_the_collector_is_paused_while_an_assay_kernel_compiles(collector_during_compilation):
    continues = np.array([True, False, True, False, False])
    gc.enable()
    kernel = numba.njit(atoms.count_groups.py_func)  # new: compiled now
    assert kernel(continues) == 3
    assert collector_during_compilation.enabled_at_start[0] == ("assay._kernels.atoms", False)
    assert gc.isenabled()  # on again once compiled
    assert _jit.COLLECTOR_PAUSE._depth == 0
    # another library's (or the host's) compilation is left alone
    collector_during_compilation.enabled_at_start.clear()
    assert numba.njit(_not_assay)(continues) == 2
    assert collector_during_compilation.enabled_at_start[0] == (__name__, True)


@pytest.mark.skipif(jit_disabled, reason="nothing is compiled with NUMBA_DISABLE_JIT=1")
def test_a_failed_compilation_turns_the_collector_on_again(collector_during_compilation):
    gc.enable()
    kernel = numba.njit(atoms.count_groups.py_func)
    with pytest.raises(numba.core.errors.TypingError):
        kernel("not an array")
    assert collector_during_compilation.enabled_at_start[0][1] is False
    assert gc.isenabled()
    assert _jit.COLLECTOR_PAUSE._depth == 0


@pytest.mark.skipif(jit_disabled, reason="nothing is compiled with NUMBA_DISABLE_JIT=1")
def test_a_collector_the_host_turned_off_stays_off(collector_during_compilation):
    gc.disable()
    kernel = numba.njit(atoms.count_groups.py_func)
    assert kernel(np.array([False, False])) == 2
    assert collector_during_compilation.enabled_at_start[0][1] is False
    assert not gc.isenabled()  # the host's choice

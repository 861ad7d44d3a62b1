"""``assay demo``'s second process, which compiles the resampling steps' kernels ahead."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from assay import _compile_ahead, cli
from assay._kernels import _jit
from tests._kernels._isolated import RECORD_COMPILATIONS, last_json_line, run_python


@pytest.mark.parametrize("reason", ["one core", "no JIT", "no cache"])
def test_no_second_process_where_it_cannot_help(monkeypatch, reason) -> None:
    assert _compile_ahead.can_help()  # this machine: two cores, JIT and cache on
    if reason == "one core":
        monkeypatch.setattr(_compile_ahead, "_cores", lambda: 1)
    elif reason == "no JIT":
        monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    else:
        monkeypatch.setattr(_jit, "CACHE", False)  # no writable location found at import
    assert not _compile_ahead.can_help()
    assert _compile_ahead.start(1000, 1) is None
    assert not _compile_ahead.finish(None)
    _compile_ahead.stop(None)  # nothing to stop


def test_the_second_process_runs_the_demo_steps() -> None:
    process = _compile_ahead.start(2000, 7)
    assert process is not None
    assert process.args[1:] == ["-m", "assay._compile_ahead", "2000", "7"]
    assert _compile_ahead.finish(process)
    assert process.returncode == 0


def test_a_second_process_that_cannot_start_is_none(monkeypatch) -> None:
    monkeypatch.setattr(_compile_ahead.sys, "executable", "/nonexistent/python")
    assert _compile_ahead.start(1000, 1) is None


def test_a_second_process_that_fails_or_hangs_is_not_waited_for() -> None:
    failing = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    assert not _compile_ahead.finish(failing)
    hanging = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    assert not _compile_ahead.finish(hanging, timeout=0.2)
    assert hanging.poll() is not None  # stopped


def test_the_steps_are_the_demos_rows_and_calls() -> None:
    from assay.datasets import binormal_scores

    rows = _compile_ahead.demo_rows(500, 11)
    y_true, y_score = binormal_scores(500, auc=0.85, prevalence=0.2, rng=11)
    np.testing.assert_array_equal(rows[0], y_true)
    np.testing.assert_array_equal(rows[1], y_score)
    noise = np.random.default_rng(12).normal(scale=0.5, size=500)
    np.testing.assert_array_equal(rows[2], y_score + noise)
    bootstrap, compare, delong = _compile_ahead.resampling_steps(rows, 20, 11)
    assert bootstrap().n_resamples == 20
    assert compare().n_resamples == 20
    assert delong().confidence_interval is not None


@pytest.mark.parametrize("helps", [True, False])
def test_the_demo_says_when_a_second_process_made_the_kernels_ready(
    monkeypatch, capsys, helps
) -> None:
    started = []
    start = _compile_ahead.start
    monkeypatch.setattr(_compile_ahead, "can_help", lambda: helps)
    monkeypatch.setattr(
        _compile_ahead, "start", lambda n, seed: started.append((n, seed)) or start(n, seed)
    )
    assert cli.main(["demo", "--n-samples", "3000", "--seed", "4"]) == 0
    output = capsys.readouterr().out
    assert started == [(3000, 4)]
    assert ("made ready meanwhile by a second process" in output) == helps
    assert "95% bootstrap interval of the ROC AUC (1000 replicates" in output


_COMPILED_BY_THE_STEPS = (
    RECORD_COMPILATIONS
    + """
import json
from assay import _compile_ahead

rows = _compile_ahead.demo_rows(ROWS, 5)
record_compilations()
for step in _compile_ahead.resampling_steps(rows, 1000, 5):
    step()
print(json.dumps(compiled))
"""
)


@pytest.mark.slow  # compiles the resampling steps' kernels from nothing
def test_after_the_second_process_the_demos_steps_compile_nothing(tmp_path) -> None:
    environment = {"NUMBA_CACHE_DIR": str(tmp_path)}
    rows = 200_000  # above the sizes where the sorts and scans choose their paths
    ahead = run_python(
        f"from assay import _compile_ahead; _compile_ahead.compile_ahead({rows}, 5)",
        environment=environment,
    )
    assert ahead.returncode == 0, ahead.stderr
    code = _COMPILED_BY_THE_STEPS.replace("ROWS", str(rows))
    assert last_json_line(run_python(code, environment=environment)) == []

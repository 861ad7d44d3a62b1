"""The progress report of the resampling functions: throttled on a terminal, plain
lines in a log.  Time comes from a fake clock; nothing here measures the wall clock."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest

import assay
from assay.resampling import _resampling
from assay.resampling._resampling import Progress, run_in_chunks


class _Stream(io.StringIO):
    """A text stream that says whether it is a terminal."""

    def __init__(self, terminal: bool) -> None:
        super().__init__()
        self.terminal = terminal

    def isatty(self) -> bool:
        return self.terminal


class _Clock:
    """Seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


# A tick of 1/64 s is exact in binary, so sums of ticks compare exactly.
TICK = 1.0 / 64.0


def _run(terminal: bool, total: int, tick: float) -> str:
    """``total`` updates of one replicate each, ``tick`` seconds apart; the output."""
    stream, clock = _Stream(terminal), _Clock()
    progress = Progress(total, "bootstrap", True, stream=stream, clock=clock)
    for _ in range(total):
        clock.now += tick
        progress.update(1)
    progress.close()
    return stream.getvalue()


def test_a_log_gets_a_plain_line_at_every_tenth() -> None:
    # 1000 updates in 15.6 s: a line at each 10% (no 10-second silence to fill)
    text = _run(terminal=False, total=1000, tick=TICK)
    assert "\r" not in text
    lines = text.splitlines()
    assert text.endswith("\n") and len(lines) == 10
    assert [line.split(" replicates")[0] for line in lines] == [
        f"bootstrap: {done}/1000" for done in range(100, 1001, 100)
    ]
    assert lines[-1] == "bootstrap: 1000/1000 replicates (100%, 15.6 s)"


def test_a_slow_run_shows_it_is_alive_in_a_log() -> None:
    # 20 updates 4 s apart: a 10% step every 2 updates (8 s), never 10 s without a line
    text = _run(terminal=False, total=20, tick=4.0)
    assert "\r" not in text and len(text.splitlines()) == 10
    # 1000 updates 4 s apart: the 10% steps are 100 updates (400 s) apart; in between, a
    # line after every 3 updates (12 s >= 10 s of silence): 33 of them (at 3, 6, ..., 99
    # past the step), then the step's own line, in each of the 10 steps
    lines = _run(terminal=False, total=1000, tick=4.0).splitlines()
    assert len(lines) == 10 * (33 + 1)
    assert lines[0] == "bootstrap: 3/1000 replicates (0%, 12.0 s)"
    assert lines[33] == "bootstrap: 100/1000 replicates (10%, 400.0 s)"
    assert lines[34] == "bootstrap: 103/1000 replicates (10%, 412.0 s)"


def test_a_terminal_line_is_rewritten_a_few_times_a_second() -> None:
    # 1000 updates 1/64 s apart (15.625 s): rewritten every 16 ticks (0.25 s), then the
    # final state, then the newline
    text = _run(terminal=True, total=1000, tick=TICK)
    assert text.count("\r") == 1000 // 16 + 1
    assert text.count("\r") <= 4 * 15.625 + 1  # at most four times a second
    assert text.count("\n") == 1 and text.endswith("\n")
    assert text.rsplit("\r", 1)[1] == "bootstrap: 1000/1000 replicates (100%, 15.6 s)\n"


def test_fast_updates_on_a_terminal_write_only_the_end() -> None:
    text = _run(terminal=True, total=500, tick=0.0)
    assert text == "\rbootstrap: 500/500 replicates (100%, 0.0 s)\n"


@pytest.mark.parametrize("terminal", [True, False])
def test_close_shows_where_an_interrupted_run_stopped(terminal: bool) -> None:
    stream, clock = _Stream(terminal), _Clock()
    progress = Progress(100, "permutation", True, stream=stream, clock=clock)
    clock.now = 0.1
    progress.update(5)  # not yet shown: under 10% and under 0.25 s
    progress.close()
    prefix = "\r" if terminal else ""
    assert stream.getvalue() == f"{prefix}permutation: 5/100 replicates (5%, 0.1 s)\n"


def test_disabled_progress_writes_nothing() -> None:
    stream = _Stream(terminal=True)
    progress = Progress(10, "bootstrap", False, stream=stream, clock=_Clock())
    progress.update(10)
    progress.close()
    assert stream.getvalue() == ""


def test_a_stream_without_isatty_is_a_log() -> None:
    class Plain:
        def __init__(self) -> None:
            self.parts: list[str] = []

        def write(self, text: str) -> None:
            self.parts.append(text)

        def flush(self) -> None:
            pass

    stream = Plain()
    progress = Progress(2, "bootstrap", True, stream=stream, clock=_Clock())  # type: ignore[arg-type]
    progress.update(2)
    progress.close()
    assert stream.parts == ["bootstrap: 2/2 replicates (100%, 0.0 s)\n"]


def test_many_chunks_into_a_log_write_ten_lines(monkeypatch, capsys) -> None:
    # capsys' stderr is not a terminal: 1000 chunks give 10 lines, not 1000 carriage
    # returns.  No line for a silence: this test must not depend on the machine's speed.
    monkeypatch.setattr(_resampling, "_LOG_INTERVAL", math.inf)

    def run(first: int, out: np.ndarray) -> None:
        out[:] = first

    values = run_in_chunks(run, 1000, 1, progress=True, description="bootstrap")
    np.testing.assert_array_equal(values, np.arange(1000.0))
    err = capsys.readouterr().err
    assert "\r" not in err and len(err.splitlines()) == 10


def test_bootstrap_progress_in_a_log(monkeypatch, capsys) -> None:
    monkeypatch.setattr(_resampling, "_LOG_INTERVAL", math.inf)
    y = np.array([0, 1] * 50)
    score = np.linspace(0.0, 1.0, 100)
    assay.bootstrap(assay.roc_auc_score, y, score, n_resamples=30, rng=4, progress=True)
    err = capsys.readouterr().err
    assert "\r" not in err
    assert err.splitlines()[-1].startswith("bootstrap: 30/30 replicates (100%, ")

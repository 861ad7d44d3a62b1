"""Shared data and the timing protocol of the benchmark suites.

Every benchmark times assay against a named peer (scikit-learn) on the same data in the
same run.  A test is parametrized over ``implementation`` ("sklearn", "assay"), and the
fixture :func:`benchmark_pair` puts both into one pytest-benchmark group, so each group
holds exactly the pair being compared.  ``benchmarks/report.py`` turns the JSON written
by ``--benchmark-json`` into the tables of ``docs/performance.md``.

Sizes come from the environment variable ``ASSAY_BENCH_SIZES`` (default
``"1e5,1e6,1e7"``); ``ASSAY_BENCH_SIZES=1e4`` makes a quick smoke run.

Protocol of one measurement (identical for assay and its peer):

1. one untimed call on the first 1,000 rows (compiles assay's Numba kernels for these
   argument types, or loads them from the disk cache; imports the peer's lazy modules),
2. one untimed call on the full data: its result is checked against the peer's result
   (so a wrong answer is never benchmarked) and its duration sets the number of rounds,
3. ``rounds`` timed calls (one iteration each); the tables use the median.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import _data
import assay

DEFAULT_SIZES = "1e5,1e6,1e7"
PEER = "scikit-learn"
WARMUP_ROWS = 1_000
# Timed rounds: enough to fill about ROUND_BUDGET_SECONDS, within [MIN_ROUNDS, MAX_ROUNDS].
ROUND_BUDGET_SECONDS = 5.0
MIN_ROUNDS = 3
MAX_ROUNDS = 25
# Agreement between assay and the peer: only float summation order may differ.
RELATIVE_TOLERANCE = 1e-9
ABSOLUTE_TOLERANCE = 1e-12


def parse_sizes(text: str) -> list[int]:
    """``"1e5,1e6"`` -> ``[100000, 1000000]``."""
    sizes = []
    for item in text.split(","):
        value = float(item.strip())
        if value < 1 or value != int(value):
            raise ValueError(f"ASSAY_BENCH_SIZES must list positive integers; got {item!r}.")
        sizes.append(int(value))
    return sizes


def format_size(n: int) -> str:
    """``10_000_000`` -> ``"1e7"``; other numbers as they are."""
    exponent = round(math.log10(n))
    return f"1e{exponent}" if 10**exponent == n else str(n)


SIZES = parse_sizes(os.environ.get("ASSAY_BENCH_SIZES", DEFAULT_SIZES))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "n_samples" in metafunc.fixturenames:
        metafunc.parametrize("n_samples", SIZES, ids=[f"n={format_size(n)}" for n in SIZES])


def pytest_benchmark_update_machine_info(config: Any, machine_info: dict[str, Any]) -> None:
    import numba
    import sklearn

    machine_info["library_versions"] = {
        "assay": assay.__version__,
        "numpy": np.__version__,
        "numba": numba.__version__,
        "scikit-learn": sklearn.__version__,
    }
    machine_info["sizes"] = SIZES


# ----------------------------------------------------------------------------- data


@pytest.fixture(scope="session")
def binary_scores() -> Callable[..., tuple[np.ndarray, np.ndarray, np.ndarray | None]]:
    """``(n, ties, weighted) -> (y_true, y_score, sample_weight or None)``.

    Scores from :func:`assay.datasets.binormal_scores` (AUC 0.85, prevalence 0.2);
    ``ties`` rounds them to 2 decimals (at most 101 distinct values); ``weighted`` adds
    uniform random weights in [0, 1).  Arrays are made once per session and shared.
    """

    def make(n_samples: int, ties: bool, weighted: bool = False):
        y_true, y_score = _data.scores(n_samples, ties)
        return y_true, y_score, _data.weights(n_samples) if weighted else None

    return make


@pytest.fixture(scope="session")
def labels() -> Callable[[int, int], tuple[np.ndarray, np.ndarray]]:
    """``(n, n_classes) -> (y_true, y_pred)``, int64 labels, made once per session.

    Two classes: the binormal labels and the prediction ``score >= 0.5``.  Five
    classes: uniform labels, 70% predicted right, the rest uniform over the classes.
    """
    return _data.labels


# ------------------------------------------------------------------------ protocol


def rounds_for(seconds: float, long_run_seconds: float | None = None) -> int:
    """Timed rounds for a call of ``seconds``: about ``ROUND_BUDGET_SECONDS`` worth, within
    [``MIN_ROUNDS``, ``MAX_ROUNDS``]; one round for a call longer than ``long_run_seconds``."""
    if long_run_seconds is not None and seconds > long_run_seconds:
        return 1
    return int(min(MAX_ROUNDS, max(MIN_ROUNDS, ROUND_BUDGET_SECONDS // max(seconds, 1e-9))))


def time_checked_call(
    benchmark: Any,
    *,
    group: str,
    info: dict[str, Any],
    call: Callable[[], Any],
    warmup: Callable[[], Any],
    check: Callable[[Any], None] | None = None,
    long_run_seconds: float | None = None,
) -> Any:
    """The protocol of the suites that time one call (no peer pair): a warm-up call (on
    1,000 rows, or a few rounds), one untimed full call whose result is ``check``-ed and
    whose duration sets the rounds, then the timed rounds.  ``info`` goes into the JSON's
    ``extra_info`` with the first call's duration and Numba's thread count.  Returns the
    untimed call's result."""
    import numba

    warmup()
    start = time.perf_counter()
    result = call()
    first_full_call = time.perf_counter() - start
    if check is not None:
        check(result)
    benchmark.group = group
    benchmark.extra_info.update(
        {**info, "first_full_call_seconds": first_full_call, "threads": numba.get_num_threads()}
    )
    rounds = rounds_for(first_full_call, long_run_seconds)
    benchmark.pedantic(call, rounds=rounds, iterations=1, warmup_rounds=0)
    return result


def _resolve(implementation: str, name: str) -> Callable[..., Any]:
    import sklearn.metrics

    function = getattr(assay, name, None)
    if function is None:
        pytest.skip(f"assay.{name} is not implemented yet; its pair is not measured.")
    return function if implementation == "assay" else getattr(sklearn.metrics, name)


def _head(value: Any) -> Any:
    if isinstance(value, np.ndarray) and value.ndim >= 1:
        return value[:WARMUP_ROWS]
    return value


def assert_same_answer(assay_result: Any, peer_result: Any, what: str) -> None:
    """Scalars, arrays and tuples of arrays agree to ``RELATIVE_TOLERANCE``."""
    if isinstance(peer_result, tuple):
        assert isinstance(assay_result, tuple) and len(assay_result) == len(peer_result), what
        for mine, theirs in zip(assay_result, peer_result, strict=True):
            assert_same_answer(mine, theirs, what)
        return
    mine = np.asarray(assay_result, dtype=np.float64)
    theirs = np.asarray(peer_result, dtype=np.float64)
    assert mine.shape == theirs.shape, f"{what}: shapes {mine.shape} and {theirs.shape} differ"
    assert np.allclose(mine, theirs, rtol=RELATIVE_TOLERANCE, atol=ABSOLUTE_TOLERANCE), (
        f"{what}: assay and {PEER} disagree"
    )


# The peer's answer per group, kept until assay's side of the pair is checked against it
# (the test modules list "sklearn" before "assay", so the two run back to back).
_peer_answers: dict[str, Any] = {}


@pytest.fixture
def benchmark_pair(benchmark: Any, request: pytest.FixtureRequest) -> Callable[..., Any]:
    """Time one side of an (assay, peer) pair; see the module docstring for the protocol.

    Call it as ``benchmark_pair(name, args, kwargs, goal=...)``: ``name`` is the function's
    name in both ``assay`` and ``sklearn.metrics``; ``goal`` is the speed-up over the peer
    that assay aims for at the largest size (recorded for the report).  The group is the
    function's name and the test's parameters other than ``implementation``.
    """
    params = dict(request.node.callspec.params)
    implementation = params.pop("implementation")
    described = ", ".join(
        f"n={format_size(value)}" if key == "n_samples" else f"{key}={value}"
        for key, value in params.items()
        if key != "function" and value is not None
    )

    def run(name: str, args: tuple, kwargs: dict | None = None, *, goal: float) -> Any:
        kwargs = kwargs or {}
        group = f"{name} [{described}]"
        function = _resolve(implementation, name)
        function(*map(_head, args), **{k: _head(v) for k, v in kwargs.items()})

        start = time.perf_counter()
        result = function(*args, **kwargs)
        first_full_call = time.perf_counter() - start
        if implementation == "assay":
            peer_result = _peer_answers.pop(group, None)
            if peer_result is None:  # the peer was deselected: compute its answer untimed
                peer_result = _resolve("sklearn", name)(*args, **kwargs)
            assert_same_answer(result, peer_result, group)
        else:
            _peer_answers[group] = result
        del result

        rounds = rounds_for(first_full_call)
        benchmark.group = group
        benchmark.extra_info.update(
            {
                "function": name,
                "implementation": implementation,
                "peer": PEER,
                "goal": goal,
                "first_full_call_seconds": first_full_call,
                **params,
            }
        )
        return benchmark.pedantic(
            function, args=args, kwargs=kwargs, rounds=rounds, iterations=1, warmup_rounds=0
        )

    return run

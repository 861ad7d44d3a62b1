"""Development sessions for assay: ``nox -l`` lists them, ``nox -s NAME`` runs one.

Every session runs in a fresh virtual environment made with the standard library's
``venv`` from the interpreter that runs nox, so pip is all it needs.

The default test command is written once, in README.md (the second command at the top),
and read from there by this file and by ``.ci/run``, so the three never disagree.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import nox
from nox.command import CommandFailed

nox.needs_version = ">=2024.3"
nox.options.default_venv_backend = "venv"
nox.options.error_on_external_run = True
nox.options.sessions = ["lint", "tests", "docs"]

ROOT = Path(__file__).resolve().parent
README = ROOT / "README.md"
BENCHMARKS = ROOT / "benchmarks"
MKDOCS_CONFIG = ROOT / "docs" / "_config" / "mkdocs.yml"
LINT_PATHS = ("src", "tests", "benchmarks", "noxfile.py", "docs/_config")

# The line of README.md that installs the test dependencies and runs the tests.
_TEST_LINE = re.compile(r'^pip install -e "\.\[test\]" && (?P<command>python -m pytest\b.*)$')


def default_test_command() -> list[str]:
    """The test command of README.md, split into arguments.

    Returns
    -------
    list of str
        For example ``["python", "-m", "pytest", "-m", "not slow", "-n", "auto", ...]``.

    Raises
    ------
    RuntimeError
        If README.md has no line ``pip install -e ".[test]" && python -m pytest ...``.
    """
    for line in README.read_text(encoding="utf-8").splitlines():
        match = _TEST_LINE.match(line.strip())
        if match:
            return shlex.split(match["command"])
    message = (
        'README.md must contain the line `pip install -e ".[test]" && python -m pytest ...` '
        "(the project's default test command); none was found."
    )
    raise RuntimeError(message)


def run_all(session: nox.Session, commands: list[list[str]]) -> None:
    """Run every command, even after one fails, then fail if any failed."""
    failed = []
    for command in commands:
        try:
            session.run(*command)
        except CommandFailed:
            failed.append(shlex.join(command))
    if failed:
        session.error("failed: " + "; ".join(failed))


@nox.session
def tests(session: nox.Session) -> None:
    """The default test run (README's command): every test not marked slow."""
    session.install("-e", ".[test]")
    session.run(*default_test_command(), *session.posargs)


@nox.session
def tests_nojit(session: nox.Session) -> None:
    """The default test run with Numba's JIT off, measuring coverage of src/assay.

    With ``NUMBA_DISABLE_JIT=1`` every kernel runs as plain Python, so coverage sees the
    kernel bodies too.
    """
    session.install("-e", ".[test]", "pytest-cov")
    session.run(
        *default_test_command(),
        "--cov=assay",
        "--cov-branch",
        "--cov-report=term-missing:skip-covered",
        *session.posargs,
        env={"NUMBA_DISABLE_JIT": "1"},
    )


@nox.session
def slow(session: nox.Session) -> None:
    """Every test, those marked slow included, with the thorough hypothesis profile.

    The thorough profile draws ten times more examples from random seeds, so each run
    explores new inputs (the default profile is derandomized for reproducible CI).
    """
    session.install("-e", ".[test]")
    session.run(
        "python",
        "-m",
        "pytest",
        *session.posargs,
        env={"ASSAY_HYPOTHESIS_PROFILE": "thorough"},
    )


@nox.session
def peers(session: nox.Session) -> None:
    """scikit-learn's own metric tests run against assay (``-m peers``).

    A shim rebinds the metric functions assay shares with scikit-learn inside
    scikit-learn's installed test modules; every failure must be listed as a deliberate
    deviation (tests/peers/deviations.txt, explained in docs/differences.md) or as a
    feature not yet supported (tests/peers/not_yet_supported.txt).  Listed tests that
    pass now are reported, so that the lists shrink.  Not in the default run: it takes
    minutes on two cores.
    """
    session.install("-e", ".[test]", "scikit-learn")
    session.run("python", "-m", "pytest", "-m", "peers", "tests/peers", "-s", *session.posargs)


@nox.session
def browser(session: nox.Session) -> None:
    """The browser tests only (``-m browser``): the HTML report rendered by headless Chromium.

    They need Debian's ``chromium`` on the path and are skipped, with that reason, where it
    is absent.  The default test run includes them too (a few seconds where Chromium is
    installed); this session runs them alone, e.g. after a change to the HTML report.
    """
    session.install("-e", ".[test]")
    session.run("python", "-m", "pytest", "-m", "browser", "-rs", *session.posargs)


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks against their peers, then the tables of docs/performance.md.

    Runs the pytest-benchmark suites in benchmarks/ (speed, same run as scikit-learn),
    then the peak-memory and compile-time scripts, then rewrites the tables between
    the markers of docs/performance.md from the three JSON files in ``.benchmarks/``.
    ``ASSAY_BENCH_SIZES=1e4 nox -s bench`` makes a quick smoke run (do not commit its
    tables).
    """
    session.install(".[test]")
    requirements = BENCHMARKS / "requirements.txt"
    if requirements.is_file():
        session.install("-r", str(requirements.relative_to(ROOT)))
    results = ROOT / ".benchmarks"
    results.mkdir(exist_ok=True)
    speed = str((results / "speed.json").relative_to(ROOT))
    session.run(
        "python",
        "-m",
        "pytest",
        "benchmarks/",
        "--benchmark-only",
        f"--benchmark-json={speed}",
        *session.posargs,
    )
    session.run("python", "benchmarks/memory.py")
    session.run("python", "benchmarks/compile_time.py")
    session.run("python", "benchmarks/report.py", speed, "--update", "docs/performance.md")


@nox.session(name="dask-slow")
def dask_slow(session: nox.Session) -> None:
    """The slow tests of assay.dask on local clusters, the out-of-core test among them.

    The out-of-core test writes 2e7 rows of Parquet files (some 100 MB) under the
    temporary directory and evaluates them on two worker processes limited to 768 MiB
    each (minutes on two cores); the default test run deselects it.
    """
    session.install("-e", ".[test,dask]")
    session.run("python", "-m", "pytest", "tests/dask", "-m", "slow", *session.posargs)


@nox.session(name="scale-out")
def scale_out(session: nox.Session) -> None:
    """Dask against one machine and Spark MLlib on Parquet files (benchmarks/scale_out.py).

    Installs the ``dask`` extra and pyspark (Spark's peer needs a Java runtime on PATH;
    without one it is skipped), then runs the script with the given arguments, e.g.
    ``nox -s scale-out -- --rows 1e8 --spark``.
    """
    session.install(".[dask]", "pyspark")
    session.run("python", "benchmarks/scale_out.py", *(session.posargs or ["--spark"]))


@nox.session
def lint(session: nox.Session) -> None:
    """ruff (lint and format check) on the code, mypy on src/."""
    session.install("-e", ".[dev,plot]")
    paths = [path for path in LINT_PATHS if (ROOT / path).exists()]
    run_all(
        session,
        [
            ["ruff", "check", *paths],
            ["ruff", "format", "--check", *paths],
            ["mypy", "src"],
        ],
    )


@nox.session
def docs(session: nox.Session) -> None:
    """Build the documentation offline into site/; any warning is an error."""
    session.install("-e", ".[docs]")
    config = str(MKDOCS_CONFIG.relative_to(ROOT))
    session.run("mkdocs", "build", "--strict", "--config-file", config, *session.posargs)
    session.log(f"documentation written to {ROOT / 'site' / 'index.html'}")

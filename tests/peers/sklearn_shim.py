"""A pytest plugin that runs scikit-learn's own metric tests against assay.

scikit-learn ships its tests inside the installed package (``sklearn/metrics/tests``).
This plugin imports those test modules as they are and, in each, rebinds every name that
was imported from ``sklearn.metrics`` to assay's function of the same name, where assay
has one.  Only the tests that call at least one rebound function are kept; the others
test scikit-learn alone.

Each test's outcome is then checked against two lists kept next to this file:

- ``deviations.txt``: tests that fail because assay deliberately differs from
  scikit-learn (each line names the deviation of ``docs/differences.md`` it follows from);
- ``not_yet_supported.txt``: tests that fail because assay does not have the feature yet
  (multilabel targets, ...).

A listed test is expected to fail (``xfail``, not strict: one that now passes is shown as
XPASS in the summary and listed at the end, so that the lists shrink as features land).
A failure on neither list fails the run.

Run it with ``nox -s peers`` (or ``python -m pytest -c tests/peers/peers.ini`` followed
by the test modules, e.g. ``sklearn.metrics.tests.test_ranking``).
"""

from __future__ import annotations

import os
import types
from pathlib import Path
from typing import Any

import pytest
import sklearn.metrics

import assay

HERE = Path(__file__).resolve().parent
LISTS = {"deviation": HERE / "deviations.txt", "not yet supported": HERE / "not_yet_supported.txt"}

# The functions assay shares with scikit-learn, by name.
SHARED = sorted(
    name
    for name in set(assay.__all__) & set(dir(sklearn.metrics))
    if callable(getattr(sklearn.metrics, name)) and callable(getattr(assay, name))
)


def read_list(path: Path) -> dict[str, str]:
    """``{test id: reason}`` from a list file: ``<test id>  # <reason>`` per line."""
    entries = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        test_id, _, reason = line.partition("  # ")
        entries[test_id.strip()] = reason.strip()
    return entries


def rebind(module: types.ModuleType) -> set[str]:
    """Replace, in ``module``, scikit-learn's shared metric functions by assay's."""
    rebound = set()
    for name in SHARED:
        theirs = getattr(sklearn.metrics, name)
        if getattr(module, name, None) is theirs:
            setattr(module, name, getattr(assay, name))
            rebound.add(name)
    return rebound


def _names_used(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= _names_used(constant)
    return names


def _uses(item: pytest.Item, rebound: set[str]) -> bool:
    function: Any = getattr(item, "function", None)
    code = getattr(function, "__code__", None)
    if code is None:
        return False
    names = _names_used(code)
    # parametrized tests may receive a shared function as an argument
    callspec = getattr(item, "callspec", None)
    params = callspec.params.values() if callspec is not None else ()
    shared = [getattr(assay, name) for name in rebound]
    return bool(names & rebound) or any(
        any(value is function for function in shared) for value in params
    )


_REBOUND: dict[str, set[str]] = {}
_SHORT_IDS: dict[str, str] = {}  # pytest's node id -> "test_module.py::test_name[...]"
_LISTED: dict[str, tuple[str, str]] = {}


def pytest_configure(config: pytest.Config) -> None:
    for kind, path in LISTS.items():
        for test_id, reason in read_list(path).items():
            _LISTED[test_id] = (kind, reason)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    kept, dropped = [], []
    for item in items:
        module = getattr(item, "module", None)
        if module is None:
            dropped.append(item)
            continue
        if module.__name__ not in _REBOUND:
            _REBOUND[module.__name__] = rebind(module)
        if not _uses(item, _REBOUND[module.__name__]):
            dropped.append(item)
            continue
        _SHORT_IDS[item.nodeid] = _short_id(item.path, item.nodeid)
        listed = _LISTED.get(_SHORT_IDS[item.nodeid])
        if listed is not None:
            kind, reason = listed
            item.add_marker(pytest.mark.xfail(reason=f"{kind}: {reason}", strict=False))
        kept.append(item)
    config.hook.pytest_deselected(items=dropped)
    items[:] = kept


def _short_id(path: Any, nodeid: str) -> str:
    """``test_ranking.py::test_auc[...]`` whatever the path to the installed package."""
    _, _, rest = nodeid.partition("::")
    return f"{Path(str(path)).name}::{rest}"


_RECORD = os.environ.get("ASSAY_PEERS_RECORD")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """With ``ASSAY_PEERS_RECORD=<file>``: append each failure (test id, first line of its
    message) to that file, to review when the lists are updated."""
    if _RECORD and report.failed and not hasattr(report, "wasxfail"):
        message = str(report.longrepr.reprcrash.message) if report.longrepr else ""  # type: ignore[union-attr]
        first_line = message.strip().splitlines()[0] if message.strip() else ""
        with open(_RECORD, "a", encoding="utf-8") as record:
            record.write(f"{_SHORT_IDS.get(report.nodeid, report.nodeid)}\t{first_line}\n")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    passed_now = [
        _SHORT_IDS.get(report.nodeid, report.nodeid)
        for report in terminalreporter.stats.get("xpassed", [])
    ]
    if passed_now:
        terminalreporter.section("listed as failing, but passed now: remove from the lists")
        for test_id in passed_now:
            terminalreporter.line(test_id)

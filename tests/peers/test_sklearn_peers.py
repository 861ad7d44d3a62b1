"""scikit-learn's own metric tests, run against assay through a small import shim.

The shim (``sklearn_shim.py`` beside this file) rebinds, in scikit-learn's installed test
modules, the metric functions assay shares to assay's; a failure must be listed as a
deliberate deviation (``deviations.txt``, explained in ``docs/differences.md``) or as a
feature assay does not have yet (``not_yet_supported.txt``).  Run by ``nox -s peers``;
marked ``slow`` too, since it runs several hundred tests in a child pytest (minutes on
two busy cores), so the default run leaves it out.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DIFFERENCES = ROOT / "docs" / "differences.md"
# scikit-learn's test modules of the metrics assay shares (test_common's tables of
# metrics hold scikit-learn's functions in partial objects the shim does not reach).
PEER_MODULES = (
    "sklearn.metrics.tests.test_classification",
    "sklearn.metrics.tests.test_ranking",
    "sklearn.metrics.tests.test_regression",
)

pytest.importorskip("sklearn")


def _entries(name: str) -> dict[str, str]:
    entries = {}
    for line in (HERE / name).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            test_id, _, reason = line.partition("  # ")
            entries[test_id.strip()] = reason.strip()
    return entries


def test_every_listed_deviation_is_explained_in_differences_md() -> None:
    explained = set(re.findall(r"^- \*\*([a-z0-9-]+)\*\*: ", DIFFERENCES.read_text(), re.M))
    used = set(_entries("deviations.txt").values())
    assert used <= explained, f"not in docs/differences.md: {sorted(used - explained)}"


def test_no_test_is_on_both_lists() -> None:
    assert not set(_entries("deviations.txt")) & set(_entries("not_yet_supported.txt"))


@pytest.mark.peers
@pytest.mark.slow
def test_scikit_learn_metric_tests_pass_or_are_listed() -> None:
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "src"), str(HERE), environment.get("PYTHONPATH", "")]
    )
    command = [sys.executable, "-m", "pytest", "-c", str(HERE / "peers.ini"), *PEER_MODULES]
    run = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr
    assert run.returncode == 0, f"unlisted failures: {summary}\n{run.stdout[-4000:]}"
    if "passed now" in run.stdout:  # listed tests that pass now: the lists can shrink
        print(run.stdout[run.stdout.index("listed as failing") :])

"""``assay report --local-cluster N`` / ``--scheduler ADDRESS``: the report on Dask.

The run on a local cluster (a subprocess that starts and closes the cluster) gives the
JSON of the one-machine report with ``--resampling poisson``, value for value; the
errors come before any cluster starts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import assay
from assay import cli

pytest.importorskip("distributed")

from tests.dask.test_report import assert_same_report

SEED = 5
N_RESAMPLES = 10
SOURCE = str(Path(assay.__file__).parents[1])
FILE_SIZES = (4_000, 1_000, 5_000)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    rng = np.random.default_rng(21)
    n = sum(FILE_SIZES)
    y = (rng.random(n) < 0.4).astype(np.int64)
    rows = pd.DataFrame({"y": y, "a": np.round(y + rng.normal(size=n), 2),
                         "b": y + 2 * rng.normal(size=n), "w": 1.0, "g": 0})  # fmt: skip
    directory = tmp_path_factory.mktemp("cli-dask")
    start = 0
    for index, size in enumerate(FILE_SIZES):
        rows.iloc[start : start + size].to_parquet(directory / f"scores-{index}.parquet")
        start += size
    rows.to_csv(directory.parent / "scores.csv", index=False)
    return directory


ARGUMENTS = ["--target", "y", "--score", "a", "--score", "b", "--resamples", str(N_RESAMPLES),
             "--seed", str(SEED), "--format", "json"]  # fmt: skip


@pytest.mark.parametrize("weight", [None, "w"])
def test_local_cluster_gives_the_one_machine_poisson_report(files, weight) -> None:
    environment = dict(os.environ, PYTHONPATH=SOURCE)
    pattern = str(files / "*.parquet")
    weighted = [] if weight is None else ["--weight", weight]
    done = subprocess.run(
        [sys.executable, "-m", "assay.cli", "report", pattern, *ARGUMENTS, *weighted,
         "--local-cluster", "2"],
        capture_output=True, text=True, env=environment, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "report: on a local Dask cluster of 2 worker process(es); Poisson resampling" in (
        done.stderr
    )
    expected = assay.report(pattern, target="y", scores=["a", "b"], n_resamples=N_RESAMPLES,
                            rng=SEED, resampling="poisson", weight=weight)  # fmt: skip
    assert_same_report(json.loads(done.stdout), json.loads(expected.to_json()))


def _error(capsys, *arguments: str) -> str:
    assert cli.main(["report", *arguments]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err


def test_errors_before_any_cluster_starts(files, capsys, monkeypatch) -> None:
    where = str(files)
    csv = str(files.parent / "scores.csv")
    err = _error(capsys, where, *ARGUMENTS, "--local-cluster", "2", "--resampling", "multinomial")
    assert err.startswith("assay report: error: `resampling='multinomial'` draws n rows")
    err = _error(capsys, csv, *ARGUMENTS, "--scheduler", "tcp://127.0.0.1:1")
    assert f"error: FILE {csv!r} is CSV; --scheduler and --local-cluster read Parquet" in err
    err = _error(capsys, where, *ARGUMENTS, "--local-cluster", "2", "--weight", "nope")
    assert "error: column(s) 'nope' not found in" in err  # weights are read on Dask
    err = _error(capsys, where, *ARGUMENTS, "--local-cluster", "2", "--group", "g")
    assert "error: `group` ('g') resamples whole groups with a multinomial draw" in err
    err = _error(capsys, where, "--target", "y", "--score", "z", "--local-cluster", "2")
    assert "error: column(s) 'z' not found in" in err
    monkeypatch.setitem(sys.modules, "distributed", None)
    err = _error(capsys, where, *ARGUMENTS, "--local-cluster", "2")
    assert "--scheduler and --local-cluster need dask[dataframe] and distributed; install " \
           "them with `pip install 'assay[dask]'`" in err  # fmt: skip


def test_bad_local_cluster_is_a_usage_error(capsys) -> None:
    for value in ("0", "two"):
        with pytest.raises(SystemExit) as exit_info:
            cli.main(["report", "x.parquet", "--target", "y", "--score", "a",
                      "--local-cluster", value])  # fmt: skip
        assert exit_info.value.code == 2
        assert "--local-cluster takes a number of worker processes (1 or more)" in (
            capsys.readouterr().err
        )
    with pytest.raises(SystemExit):
        cli.main(["report", "x.parquet", "--target", "y", "--score", "a",
                  "--local-cluster", "2", "--scheduler", "tcp://127.0.0.1:1"])  # fmt: skip
    assert "not allowed with argument" in capsys.readouterr().err

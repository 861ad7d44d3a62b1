"""``assay report`` run in a subprocess on real CSV and Parquet files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import assay
from assay import cli

SEED = 42
N_RESAMPLES = 20
SOURCE = str(Path(assay.__file__).parents[1])


def _run(*arguments: str) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join([SOURCE, *filter(None, [os.environ.get("PYTHONPATH")])])
    environment = dict(os.environ, PYTHONPATH=path)
    return subprocess.run(
        [sys.executable, "-m", "assay.cli", "report", *arguments],
        capture_output=True, text=True, env=environment, timeout=600, check=False,
    )  # fmt: skip


def _data() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(8)
    y = (rng.random(150) < 0.4).astype(np.int64)
    return {"y": y, "a": y + rng.normal(size=150), "b": y + 2 * rng.normal(size=150)}


@pytest.fixture(scope="module")
def csv_file(tmp_path_factory) -> Path:
    data = _data()
    path = tmp_path_factory.mktemp("cli") / "scores.csv"
    rows = [
        "y,a,b",
        *(f"{y},{float(a)!r},{float(b)!r}" for y, a, b in zip(*data.values(), strict=True)),
    ]
    path.write_text("\n".join(rows) + "\n")
    return path


def test_json_equals_the_python_report(csv_file, tmp_path) -> None:
    out = tmp_path / "report.json"
    done = _run(str(csv_file), "--target", "y", "--score", "a", "--score", "b",
                "--resamples", str(N_RESAMPLES), "--seed", str(SEED), "--format", "json",
                "--cost", "0,1,5,0", "-o", str(out))  # fmt: skip
    assert done.returncode == 0, done.stderr
    expected = assay.report(
        _data(), target="y", scores=["a", "b"], cost=[0, 1, 5, 0],
        n_resamples=N_RESAMPLES, rng=SEED,
    ).to_dict()  # fmt: skip
    document = json.loads(out.read_text())
    assert document["models"] == expected["models"]
    assert document["pairs"] == expected["pairs"]
    assert "report: model 'a'" in done.stderr  # progress on standard error
    assert done.stdout == ""


@pytest.mark.parametrize(("fmt", "start"), [("text", "assay "), ("markdown", "# assay report"),
                                            ("html", "<!DOCTYPE html>")])  # fmt: skip
def test_formats_on_stdout(csv_file, fmt, start) -> None:
    done = _run(str(csv_file), "--target", "y", "--score", "a", "--resamples", "10",
                "--seed", "1", "--format", fmt, "--quiet")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(start) and done.stderr == ""


def test_parquet_and_dropna(tmp_path) -> None:
    pyarrow = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    data = _data()
    score = data["a"].copy()
    score[[3, 8]] = np.nan
    pq.write_table(pyarrow.table(dict(data, a=score)), tmp_path / "scores.parquet")
    arguments = [str(tmp_path / "scores.parquet"), "--target", "y", "--score", "a",
                 "--resamples", "10", "--seed", "1", "--format", "json", "--quiet"]  # fmt: skip
    failed = _run(*arguments)
    assert failed.returncode == 2
    assert failed.stderr.startswith(
        "assay report: error: column 'a' has 2 missing value(s) (first rows, counted from 0: 3, 8)"
    )
    done = _run(*arguments, "--dropna")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["data"]["n_dropped"] == 2


def test_bad_cost_is_a_usage_error(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["report", "x.csv", "--target", "y", "--score", "a", "--cost", "1,2"])
    assert exit_info.value.code == 2
    assert "--cost takes four numbers c00,c01,c10,c11; got 2 in '1,2'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["report", "x.csv", "--target", "y", "--score", "a", "--cost", "a,b,c,d"])
    assert "--cost takes four numbers c00,c01,c10,c11; got 'a,b,c,d'" in capsys.readouterr().err


def test_missing_file_is_an_error_line(capsys, tmp_path) -> None:
    code = cli.main(["report", str(tmp_path / "absent.csv"), "--target", "y", "--score", "a"])
    assert code == 2
    assert "assay report: error: `data`: no such file" in capsys.readouterr().err


def test_help_lists_report(capsys) -> None:
    assert cli.main([]) == 0
    assert "report" in capsys.readouterr().out

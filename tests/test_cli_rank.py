"""``assay rank``: CSV and Parquet files, long and wide tables, every output format."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import assay
from assay import cli
from tests.inference.test_rank_models import DATASETS, DEMSAR, NAMES

LONG_COLUMNS = ["--dataset", "data set", "--model", "learner", "--score", "auc"]


def _write_long(path: Path, rows: list[tuple[str, str, str]] | None = None) -> Path:
    """Demsar's table as a long CSV with an extra column the command must ignore."""
    if rows is None:
        rows = [
            (DATASETS[i], NAMES[j], repr(float(DEMSAR[i, j])))
            for i in range(DEMSAR.shape[0])
            for j in range(DEMSAR.shape[1])
        ]
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["data set", "learner", "notes", "auc"])
        writer.writerows((dataset, model, "x, y", score) for dataset, model, score in rows)
    return path


def _write_wide(path: Path) -> Path:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", *NAMES])
        writer.writerows([DATASETS[i], *map(repr, DEMSAR[i].tolist())] for i in range(14))
    return path


def _run(*arguments: str | Path) -> subprocess.CompletedProcess:
    """``assay rank ...`` in a new process, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "assay.cli", "rank", *map(str, arguments)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def _expected(**kwargs):  # type: ignore[no-untyped-def]
    return assay.rank_models(DEMSAR, model_names=NAMES, **kwargs)


# --- In a subprocess, on real files. ---


def test_long_csv_prints_the_summary(tmp_path: Path) -> None:
    path = _write_long(tmp_path / "results.csv")
    process = _run(path, *LONG_COLUMNS, "--control", "C4.5")
    assert process.returncode == 0, process.stderr
    assert process.stdout == str(_expected(control="C4.5")) + "\n"
    assert process.stderr == ""


def test_parquet_to_json(tmp_path: Path) -> None:
    pyarrow = pytest.importorskip("pyarrow")
    from pyarrow import parquet

    columns = {
        "data set": [DATASETS[i] for i in range(14) for _ in range(4)],
        "learner": NAMES * 14,
        "auc": DEMSAR.ravel().tolist(),
        "unused": [b"\x00"] * 56,  # a binary column the command never reads
    }
    parquet.write_table(pyarrow.table(columns), tmp_path / "results.parquet")
    out = tmp_path / "ranking.json"
    process = _run(tmp_path / "results.parquet", *LONG_COLUMNS, "--lower-is-better", "-o", out)
    assert process.returncode == 0, process.stderr
    assert process.stdout == ""
    data = json.loads(out.read_text())  # the format from the suffix
    expected = json.loads(_expected(higher_is_better=False).to_json())
    assert (
        data.pop("dataset_names") == DATASETS and expected.pop("dataset_names")[0] == "data set 0"
    )
    assert data == expected and data["higher_is_better"] is False


def test_wide_csv_to_html_and_png(tmp_path: Path) -> None:
    path = _write_wide(tmp_path / "wide.csv")
    page, picture = tmp_path / "ranking.html", tmp_path / "cd.png"
    process = _run(path, "--wide", "--format", "html", "-o", page, "--png", picture)
    assert process.returncode == 0, process.stderr
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and "<svg" in text and "C4.5+m+cf" in text
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_data_exit_with_status_1_and_a_message(tmp_path: Path) -> None:
    rows = [(DATASETS[i], NAMES[j], "0.5") for i in range(3) for j in range(2)]
    path = _write_long(tmp_path / "results.csv", rows[:-1])
    process = _run(path, *LONG_COLUMNS)
    assert process.returncode == 1 and process.stdout == ""
    assert process.stderr.startswith(
        "assay rank: error: `table` has no score for 1 (data set, model) pairs, e.g. "
        "[('breast cancer wisconsin', 'C4.5+m')]"
    )


# --- In this process: the options and the errors. ---


def test_markdown_to_stdout(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = _write_long(tmp_path / "results.csv")
    assert cli.main(["rank", str(path), *LONG_COLUMNS, "--format", "markdown"]) == 0
    assert capsys.readouterr().out == _expected().to_markdown()


def test_alpha_and_zero_method_are_passed_on(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = _write_wide(tmp_path / "wide.csv")
    arguments = ["rank", str(path), "--wide", "--alpha", "0.1", "--zero-method", "zsplit"]
    assert cli.main([*arguments, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["alpha"] == 0.1 and data["zero_method"] == "zsplit"
    assert data["wilcoxon_rank_sums"][1][0] == 93.0  # Demsar's R+ of C4.5+m over C4.5


def test_wide_table_with_a_named_data_set_column(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "wide.csv"
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([NAMES[0], "data set", *NAMES[1:]])
        for i in range(14):
            writer.writerow([DEMSAR[i, 0], DATASETS[i], *DEMSAR[i, 1:]])
    assert (
        cli.main(["rank", str(path), "--wide", "--dataset", "data set", "--format", "json"]) == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["model_names"] == NAMES and data["dataset_names"] == DATASETS


def test_parquet_reads_only_the_named_columns(tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    pyarrow = pytest.importorskip("pyarrow")
    from pyarrow import parquet

    columns = {"data set": DATASETS * 4, "learner": [n for n in NAMES for _ in range(14)]}
    columns["auc"] = DEMSAR.T.ravel().tolist()
    columns["extra"] = list(range(56))
    parquet.write_table(pyarrow.table(columns), tmp_path / "results.pq")
    read = []
    real_read_table = parquet.read_table

    def recording_read_table(path, columns=None, **kwargs):  # type: ignore[no-untyped-def]
        read.append(columns)
        return real_read_table(path, columns=columns, **kwargs)

    monkeypatch.setattr(parquet, "read_table", recording_read_table)
    assert cli.main(["rank", str(tmp_path / "results.pq"), *LONG_COLUMNS]) == 0
    assert read == [["data set", "learner", "auc"]]
    assert capsys.readouterr().out == str(_expected()) + "\n"


def test_missing_csv_cells_are_missing_scores(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    rows = [(DATASETS[i], NAMES[j], "0.5") for i in range(3) for j in range(2)]
    rows[5] = (*rows[5][:2], "")  # an empty cell
    path = _write_long(tmp_path / "results.csv", rows)
    assert cli.main(["rank", str(path), *LONG_COLUMNS]) == 1
    assert (
        "The score column 'auc' has 1 missing or non-finite values (NaN or infinite), the "
        "first on row 5 (data set 'breast cancer wisconsin', model 'C4.5+m')"
    ) in capsys.readouterr().err


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            [*LONG_COLUMNS[:-1], "AUC"],
            "column(s) 'AUC' not found in ",  # the file's path, then its columns:
        ),
        (
            [*LONG_COLUMNS[:-1], "AUC"],
            "results.csv'; its columns are 'data set', 'learner', 'notes', 'auc'.",
        ),
        (
            [*LONG_COLUMNS[:-1], "notes"],
            "line 2: column 'notes' holds 'x, y', which is not a number",
        ),
        (
            [*LONG_COLUMNS, "--control", "C5.0"],
            "`control` must be a model index in [0, 3] or one of the model names",
        ),
    ],
)  # fmt: skip
def test_data_errors(tmp_path: Path, capsys, arguments: list, message: str) -> None:  # type: ignore[no-untyped-def]
    path = _write_long(tmp_path / "results.csv")
    assert cli.main(["rank", str(path), *arguments]) == 1
    error = capsys.readouterr().err
    assert error.startswith("assay rank: error: ") and message in error


def test_file_errors(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert cli.main(["rank", str(tmp_path / "absent.csv"), *LONG_COLUMNS]) == 1
    error = capsys.readouterr().err
    assert "`FILE`: no such file '" in error and "absent.csv'." in error
    (tmp_path / "empty.csv").write_text("")
    assert cli.main(["rank", str(tmp_path / "empty.csv"), "--wide"]) == 1
    assert "empty.csv is empty: no header line." in capsys.readouterr().err
    (tmp_path / "ragged.csv").write_text("a,b,c\nx,0.5\n")
    assert cli.main(["rank", str(tmp_path / "ragged.csv"), "--wide"]) == 1
    assert "ragged.csv, line 2: 2 fields where the header has 3." in capsys.readouterr().err


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--model", "learner"], "a long table needs --dataset COL --score COL (or --wide"),
        (["--wide", "--score", "auc"], "--wide takes no --model or --score"),
        ([*LONG_COLUMNS, "--alpha", "1.5"], "--alpha must be in (0, 1); got 1.5"),
        (["--dataset", "auc", *LONG_COLUMNS[2:]], "must name three different columns"),
        ([*LONG_COLUMNS, "--format", "pdf"], "invalid choice: 'pdf'"),
    ],
)  # fmt: skip
def test_usage_errors_exit_with_status_2(
    tmp_path: Path, capsys, arguments: list, message: str
) -> None:  # type: ignore[no-untyped-def]
    path = _write_long(tmp_path / "results.csv")
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["rank", str(path), *arguments])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_warnings_go_to_stderr_as_one_line(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "wide.csv"
    path.write_text("name,a,b\nx,1,1\ny,2,2\nz,3,3\n")
    assert cli.main(["rank", str(path), "--wide"]) == 0
    captured = capsys.readouterr()
    assert "assay rank: warning: `scores` has 2 models" in captured.err
    assert (
        "assay rank: warning: 1 pair of models scores the same on every data set" in captured.err
    )
    assert captured.out.startswith("Ranking of 2 models over 3 data sets")


def test_help_lists_rank(capsys) -> None:  # type: ignore[no-untyped-def]
    assert cli.main([]) == 0
    assert "rank" in capsys.readouterr().out
    assert np.isfinite(DEMSAR).all()


def test_parquet_directory_and_glob(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    pyarrow = pytest.importorskip("pyarrow")
    from pyarrow import parquet

    wide = pyarrow.table({"name": DATASETS, **{n: DEMSAR[:, j] for j, n in enumerate(NAMES)}})
    (tmp_path / "parts").mkdir()
    parquet.write_table(wide.slice(0, 6), tmp_path / "parts" / "part-0.parquet")
    parquet.write_table(wide.slice(6), tmp_path / "parts" / "part-1.parquet")
    for source in (tmp_path / "parts", tmp_path / "parts" / "part-*.parquet"):
        assert cli.main(["rank", str(source), "--wide"]) == 0
        assert capsys.readouterr().out == str(_expected()) + "\n"

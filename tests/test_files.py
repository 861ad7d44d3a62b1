"""Reading the named columns of CSV and Parquet files written to a temporary folder."""

from __future__ import annotations

import numpy as np
import pytest

import assay
from assay._files import read_columns, read_csv

pyarrow = pytest.importorskip("pyarrow")
import pyarrow.parquet as pq  # noqa: E402

SEED = 11
N_RESAMPLES = 20


def _table(n: int = 120, seed: int = 3) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(np.int64)
    return {
        "id": np.arange(n),
        "label": np.where(y == 1, "yes", "no"),
        "score": y + rng.normal(size=n),
        "other": rng.normal(size=n),
    }


def _write_csv(path, table: dict[str, np.ndarray], blanks: dict[str, list[int]] | None = None):
    blanks = blanks or {}
    names = list(table)
    lines = [",".join(names)]
    for i in range(len(table[names[0]])):
        cells = [
            "" if i in blanks.get(name, []) else repr(float(table[name][i]))
            if table[name].dtype.kind == "f" else str(table[name][i])
            for name in names
        ]  # fmt: skip
        lines.append(",".join(cells))
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("engine", ["pyarrow", "csv"])
def test_csv_reads_only_the_named_columns(tmp_path, engine) -> None:
    table = _table()
    path = _write_csv(tmp_path / "scores.csv", table)
    columns = read_csv(str(path), ["score", "label"], engine=engine)
    assert list(columns) == ["score", "label"]
    np.testing.assert_array_equal(columns["score"], table["score"])  # repr round-trips
    assert columns["label"].tolist() == table["label"].tolist()


@pytest.mark.parametrize("engine", ["pyarrow", "csv"])
def test_csv_blank_fields_are_missing(tmp_path, engine) -> None:
    table = _table()
    path = _write_csv(tmp_path / "scores.csv", table, {"score": [5], "label": [7], "id": [9]})
    columns = read_csv(str(path), ["score", "label", "id"], engine=engine)
    assert np.isnan(columns["score"][5]) and np.isnan(columns["id"][9])
    assert columns["label"][7] is None


def test_csv_engines_agree(tmp_path) -> None:
    path = _write_csv(tmp_path / "scores.csv", _table())
    fast = read_csv(str(path), ["id", "score", "label"], engine="pyarrow")
    plain = read_csv(str(path), ["id", "score", "label"], engine="csv")
    for name in fast:
        assert fast[name].tolist() == plain[name].tolist(), name


@pytest.mark.parametrize("engine", ["pyarrow", "csv"])
def test_csv_missing_column(tmp_path, engine) -> None:
    path = _write_csv(tmp_path / "scores.csv", _table())
    with pytest.raises(ValueError, match=r"column\(s\) 'nope' not found in '.*scores.csv'; its "
                       r"columns are 'id', 'label', 'score', 'other'"):  # fmt: skip
        read_csv(str(path), ["score", "nope"], engine=engine)


def test_parquet_file_directory_and_glob(tmp_path) -> None:
    table = _table()
    whole = pyarrow.table(table)
    pq.write_table(whole, tmp_path / "all.parquet")
    folder = tmp_path / "parts"
    folder.mkdir()
    pq.write_table(whole.slice(0, 50), folder / "part-0.parquet")
    pq.write_table(whole.slice(50), folder / "part-1.parquet")
    for source in (tmp_path / "all.parquet", folder, str(folder / "part-*.parquet")):
        columns = read_columns(source, ["label", "score"])
        np.testing.assert_array_equal(columns["score"], table["score"])
        assert columns["label"].tolist() == table["label"].tolist()


def test_parquet_errors(tmp_path) -> None:
    pq.write_table(pyarrow.table(_table()), tmp_path / "all.parquet")
    with pytest.raises(ValueError, match=r"column\(s\) 'nope' not found in '.*all.parquet'"):
        read_columns(tmp_path / "all.parquet", ["nope"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match=r"the directory '.*empty' matches no Parquet file"):
        read_columns(tmp_path / "empty", ["score"])
    with pytest.raises(ValueError, match=r"the pattern '.*none-\*.parquet' matches no Parquet"):
        read_columns(str(tmp_path / "none-*.parquet"), ["score"])
    with pytest.raises(FileNotFoundError, match=r"`data`: no such file or directory '.*absent'"):
        read_columns(tmp_path / "absent", ["score"])
    with pytest.raises(FileNotFoundError, match=r"`data`: no such file '.*absent.csv'"):
        read_columns(tmp_path / "absent.csv", ["score"])


def test_report_from_csv_and_parquet_equals_from_arrays(tmp_path) -> None:
    table = _table()
    csv_path = _write_csv(tmp_path / "scores.csv", table)
    parquet_path = tmp_path / "scores.parquet"
    pq.write_table(pyarrow.table(table), parquet_path)
    keywords = {"target": "label", "scores": "score", "pos_label": "yes",
                "n_resamples": N_RESAMPLES, "rng": SEED}  # fmt: skip
    expected = assay.report(table, **keywords).to_dict()
    for path in (csv_path, parquet_path):
        got = assay.report(path, **keywords).to_dict()
        assert got["models"] == expected["models"], path
        assert got["data"]["n_rows"] == len(table["id"]) and got["data"]["source"] == str(path)

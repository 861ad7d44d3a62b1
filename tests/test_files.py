"""Reading the named columns of CSV and Parquet files written to a temporary folder."""

from __future__ import annotations

import numpy as np
import pytest

import assay
from assay._files import column_names, read_columns, read_csv, read_table

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


@pytest.mark.parametrize("engine", ["pyarrow", "csv"])
def test_csv_header_errors(tmp_path, engine) -> None:
    (tmp_path / "empty.csv").write_text("")
    with pytest.raises(ValueError, match=r"empty.csv is empty: no header line\."):
        read_csv(str(tmp_path / "empty.csv"), ["score"], engine=engine)
    (tmp_path / "twice.csv").write_text("a,b,a\n1,2,3\n")
    with pytest.raises(ValueError, match=r"twice.csv repeats a column name in its header"):
        read_csv(str(tmp_path / "twice.csv"), ["b"], engine="csv")


def test_csv_short_line_is_an_error(tmp_path) -> None:
    # pyarrow refuses it in its own words; the csv engine names the line.
    (tmp_path / "ragged.csv").write_text("a,b,c\n1,2,3\n4,5\n")
    with pytest.raises(ValueError, match=r"ragged.csv, line 3: 2 fields where the header has 3\."):
        read_csv(str(tmp_path / "ragged.csv"), ["a"], engine="csv")


@pytest.mark.parametrize("engine", ["pyarrow", "csv"])
def test_csv_byte_order_mark_is_not_part_of_the_first_name(tmp_path, engine) -> None:
    (tmp_path / "bom.csv").write_bytes("\ufeffid,score\n1,0.5\n2,0.25\n".encode())
    columns = read_csv(str(tmp_path / "bom.csv"), ["id", "score"], engine=engine)
    assert columns["id"].tolist() == [1, 2] and columns["score"].tolist() == [0.5, 0.25]


def test_the_format_is_told_by_the_content_not_the_suffix(tmp_path) -> None:
    table = _table()
    pq.write_table(pyarrow.table(table), tmp_path / "scores.data")
    _write_csv(tmp_path / "scores.tsv", table)
    for name in ("scores.data", "scores.tsv"):
        columns = read_columns(tmp_path / name, ["label", "score"])
        np.testing.assert_array_equal(columns["score"], table["score"])
        assert columns["label"].tolist() == table["label"].tolist()


def test_column_names_of_csv_and_parquet(tmp_path) -> None:
    table = _table()
    _write_csv(tmp_path / "scores.csv", table)
    (tmp_path / "parts").mkdir()
    pq.write_table(pyarrow.table(table), tmp_path / "parts" / "part-0.parquet")
    for source in (tmp_path / "scores.csv", tmp_path / "parts", str(tmp_path / "parts/*.parquet")):
        assert column_names(source) == ["id", "label", "score", "other"]


def test_read_table_numbers_and_text(tmp_path) -> None:
    (tmp_path / "long.csv").write_text("name,score\na,0.5\nb,NA\nc,\n")
    got = read_table(tmp_path / "long.csv", ["name", "score"], {"score"})
    assert got["name"] == ["a", "b", "c"] and got["score"][0] == 0.5
    assert np.isnan(got["score"][1]) and np.isnan(got["score"][2])
    pq.write_table(pyarrow.table({"name": ["a", "b"], "score": [0.5, None]}), tmp_path / "l.pq")
    got = read_table(tmp_path / "l.pq", ["name", "score"], {"score"})
    assert got["name"] == ["a", "b"] and got["score"][0] == 0.5 and np.isnan(got["score"][1])


def test_read_table_names_the_bad_value(tmp_path) -> None:
    (tmp_path / "long.csv").write_text("name,score\na,0.5\nb,high\n")
    with pytest.raises(
        ValueError, match=r"long.csv, line 3: column 'score' holds 'high', which is not a number\."
    ):
        read_table(tmp_path / "long.csv", ["name", "score"], {"score"})
    pq.write_table(pyarrow.table({"name": ["a", "b"], "score": ["0.5", "x"]}), tmp_path / "l.pq")
    with pytest.raises(
        ValueError, match=r"l.pq, row 1: column 'score' holds '0.5', which is not a number\."
    ):
        read_table(tmp_path / "l.pq", ["name", "score"], {"score"})


def test_parquet_row_groups_are_read_one_by_one_into_arrays_of_all_rows(tmp_path) -> None:
    # Row groups of 3 rows (and files of 5 and 2): each group is converted and copied
    # into arrays the reader owns (writeable, not pyarrow's buffers), with the values
    # and types of pyarrow's conversion of the whole table; an integer column with a
    # missing value in one group only is float with NaN, text and booleans with a
    # missing value are objects, as for the whole table.
    whole = pyarrow.table(
        {
            "count": pyarrow.array([1, 2, None, 4, 5, 6, 7, 8], pyarrow.int64()),
            "score": np.linspace(0.0, 1.0, 8),
            "label": pyarrow.array(list("abcdefgh")),
            "flag": pyarrow.array([True, None, False, True, True, False, True, True]),
            "row": np.arange(8),
        }
    )
    pq.write_table(whole, tmp_path / "groups.parquet", row_group_size=3)
    folder = tmp_path / "parts"
    folder.mkdir()
    pq.write_table(whole.slice(0, 5), folder / "part-0.parquet", row_group_size=2)
    pq.write_table(whole.slice(5), folder / "part-1.parquet")
    names = list(whole.column_names)
    for source in (tmp_path / "groups.parquet", folder):
        read = read_columns(source, names)
        for name in names:
            expected = whole.column(name).to_numpy()
            assert read[name].dtype == expected.dtype
            assert read[name].flags.writeable and read[name].flags.owndata
            assert [x if x == x else "nan" for x in read[name].tolist()] == [
                x if x == x else "nan" for x in expected.tolist()
            ]

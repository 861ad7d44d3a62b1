"""Read the named columns of a data file: CSV (pyarrow or the csv module) or Parquet."""

from __future__ import annotations

import csv
import glob
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

_PARQUET_SUFFIXES = (".parquet", ".pq")


def _missing_columns_error(path: Any, wanted: Sequence[str], present: Sequence[str]) -> ValueError:
    absent = [name for name in wanted if name not in present]
    return ValueError(
        f"column(s) {', '.join(repr(name) for name in absent)} not found in {str(path)!r}; "
        f"its columns are {', '.join(repr(name) for name in present)}."
    )


def _parquet_files(path: str) -> list[str]:
    if os.path.isdir(path):
        files = sorted(
            str(file) for file in Path(path).rglob("*") if file.suffix in _PARQUET_SUFFIXES
        )
        where = f"directory {path!r}"
    elif glob.has_magic(path):
        files = sorted(glob.glob(path, recursive=True))
        where = f"pattern {path!r}"
    else:
        return [path]
    if not files:
        raise ValueError(f"`data`: the {where} matches no Parquet file (.parquet or .pq).")
    return files


def _import_pyarrow(what: str) -> Any:
    try:
        import pyarrow
    except ImportError as error:  # pragma: no cover - pyarrow is installed in the test runs
        raise ImportError(f"Reading {what} needs pyarrow: pip install 'assay[files]'.") from error
    return pyarrow


def read_parquet(path: str, columns: Sequence[str]) -> dict[str, np.ndarray]:
    """The named columns of a Parquet file, a directory of them or a glob pattern."""
    _import_pyarrow("Parquet files")
    import pyarrow as pa
    import pyarrow.parquet as pq

    tables = []
    for file in _parquet_files(path):
        present = pq.read_schema(file).names
        if any(name not in present for name in columns):
            raise _missing_columns_error(file, columns, present)
        tables.append(pq.read_table(file, columns=list(columns)))
    table = tables[0] if len(tables) == 1 else pa.concat_tables(tables, promote_options="default")
    return {name: table.column(name).to_numpy() for name in columns}


def _read_csv_pyarrow(path: str, columns: Sequence[str]) -> dict[str, np.ndarray]:
    import pyarrow.csv as pacsv

    with open(path, newline="") as stream:
        header = next(csv.reader(stream), [])
    if any(name not in header for name in columns):
        raise _missing_columns_error(path, columns, header)
    # An empty field is missing in a text column too, as in a numeric one.
    options = pacsv.ConvertOptions(include_columns=columns, strings_can_be_null=True)
    table = pacsv.read_csv(path, convert_options=options)
    return {name: table.column(name).to_numpy() for name in columns}


def _convert_text(values: list[str]) -> np.ndarray:
    """Integers, else floats, else strings; an empty field is missing (NaN or None)."""
    present = [value for value in values if value != ""]
    for kind in (int, float):
        try:
            numbers = [kind(value) for value in present]
        except ValueError:
            continue
        if kind is int and len(present) == len(values):
            return np.array(numbers, dtype=np.int64)
        return np.array([float(value) if value != "" else np.nan for value in values])
    return np.array([value if value != "" else None for value in values], dtype=object)


def _read_csv_stdlib(path: str, columns: Sequence[str]) -> dict[str, np.ndarray]:
    with open(path, newline="") as stream:
        reader = csv.reader(stream)
        header = next(reader, [])
        if any(name not in header for name in columns):
            raise _missing_columns_error(path, columns, header)
        positions = [header.index(name) for name in columns]
        fields: list[list[str]] = [[] for _ in columns]
        for row in reader:
            if not row:
                continue
            for values, position in zip(fields, positions, strict=True):
                values.append(row[position].strip() if position < len(row) else "")
    return {name: _convert_text(values) for name, values in zip(columns, fields, strict=True)}


def read_csv(path: str, columns: Sequence[str], *, engine: str = "auto") -> dict[str, np.ndarray]:
    """The named columns of a CSV file with a header line: pyarrow if installed, else csv."""
    if engine == "auto":
        try:
            import pyarrow.csv  # noqa: F401
        except ImportError:  # pragma: no cover - pyarrow is installed in the test runs
            engine = "csv"
        else:
            engine = "pyarrow"
    if engine == "pyarrow":
        return _read_csv_pyarrow(path, columns)
    return _read_csv_stdlib(path, columns)


def read_columns(path: Any, columns: Sequence[str]) -> dict[str, np.ndarray]:
    """Dispatch on the file: CSV (.csv, .csv.gz read by pyarrow), else Parquet."""
    text = os.fspath(path)
    lower = text.lower()
    if lower.endswith((".csv", ".txt")):
        if not os.path.exists(text):
            raise FileNotFoundError(f"`data`: no such file {text!r}.")
        return read_csv(text, columns)
    if not (os.path.exists(text) or glob.has_magic(text)):
        raise FileNotFoundError(f"`data`: no such file or directory {text!r}.")
    return read_parquet(text, columns)

"""Read the named columns of a data file: CSV (pyarrow or the csv module) or Parquet.

One reader for every command: ``assay report`` takes NumPy arrays (:func:`read_columns`),
``assay rank`` lists of text and floats (:func:`read_table`) and the column names of a
file (:func:`column_names`).  A path is Parquet when it is a directory, a glob pattern or
a file that starts with Parquet's magic bytes; any other file is CSV with a header line.
Only the named columns are read.
"""

from __future__ import annotations

import csv
import glob
import math
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

_PARQUET_SUFFIXES = (".parquet", ".pq")
_PARQUET_MAGIC = b"PAR1"
# CSV fields read as a missing number by read_table.
_MISSING = ("", "na", "nan", "null", "none")


def _missing_columns_error(path: Any, wanted: Sequence[str], present: Sequence[str]) -> ValueError:
    absent = [name for name in wanted if name not in present]
    return ValueError(
        f"column(s) {', '.join(repr(name) for name in absent)} not found in {str(path)!r}; "
        f"its columns are {', '.join(repr(name) for name in present)}."
    )


def _is_parquet(path: str, argument: str) -> bool:
    """Whether ``path`` is Parquet; FileNotFoundError naming ``argument`` when absent."""
    if os.path.isdir(path) or (glob.has_magic(path) and not os.path.exists(path)):
        return True
    if not os.path.exists(path):
        what = "file" if path.lower().endswith((".csv", ".txt")) else "file or directory"
        raise FileNotFoundError(f"`{argument}`: no such {what} {path!r}.")
    with open(path, "rb") as stream:
        return stream.read(len(_PARQUET_MAGIC)) == _PARQUET_MAGIC


def _parquet_files(path: str, argument: str) -> list[str]:
    if os.path.isdir(path):
        files = sorted(
            str(file) for file in Path(path).rglob("*") if file.suffix in _PARQUET_SUFFIXES
        )
        where = f"directory {path!r}"
    elif glob.has_magic(path) and not os.path.exists(path):
        files = sorted(glob.glob(path, recursive=True))
        where = f"pattern {path!r}"
    else:
        return [path]
    if not files:
        raise ValueError(f"`{argument}`: the {where} matches no Parquet file (.parquet or .pq).")
    return files


def _import_pyarrow(what: str) -> Any:
    try:
        import pyarrow
    except ImportError as error:  # pragma: no cover - pyarrow is installed in the test runs
        raise ImportError(f"Reading {what} needs pyarrow: pip install 'assay[files]'.") from error
    return pyarrow


def _parquet_table(path: str, columns: Sequence[str], argument: str) -> Any:
    """The named columns of a Parquet file, directory or glob as one pyarrow table."""
    _import_pyarrow("Parquet files")
    import pyarrow as pa
    import pyarrow.parquet as pq

    tables = []
    for file in _parquet_files(path, argument):
        present = pq.read_schema(file).names
        if any(name not in present for name in columns):
            raise _missing_columns_error(file, columns, present)
        tables.append(pq.read_table(file, columns=list(columns)))
    return tables[0] if len(tables) == 1 else pa.concat_tables(tables, promote_options="default")


def _row_groups(path: str, columns: Sequence[str], argument: str) -> tuple[int, Iterator[Any]]:
    """The number of rows, and the named columns of every row group of every file."""
    _import_pyarrow("Parquet files")
    import pyarrow as pa
    import pyarrow.parquet as pq

    files = [pq.ParquetFile(file) for file in _parquet_files(path, argument)]
    schemas = []
    for name, file in zip(_parquet_files(path, argument), files, strict=True):
        present = file.schema_arrow.names
        if any(column not in present for column in columns):
            raise _missing_columns_error(name, columns, present)
        schemas.append(pa.schema([file.schema_arrow.field(column) for column in columns]))
    if len(schemas) > 1:  # the files' columns must merge as one table's would
        pa.unify_schemas(schemas, promote_options="default")
    groups = (
        file.read_row_group(group, columns=list(columns))
        for file in files
        for group in range(file.num_row_groups)
    )
    return sum(file.metadata.num_rows for file in files), groups


def read_parquet(
    path: str, columns: Sequence[str], argument: str = "data"
) -> dict[str, np.ndarray]:
    """The named columns of a Parquet file, a directory of them or a glob pattern.

    Read one row group at a time into arrays of all the rows: reading the whole table at
    once holds every column's compressed and decoded buffers together (3.3x the
    columns at its peak at 1e7 rows, 1.6x this way).  A column whose row groups convert to one
    number or date type fills one array; any other (missing values in an integer
    column, text) is converted group by group and joined, as NumPy joins those types.
    """
    n_rows, groups = _row_groups(path, columns, argument)
    filled: dict[str, np.ndarray] = {}
    pieces: dict[str, list[np.ndarray]] = {name: [] for name in columns}
    start = 0
    for group in groups:
        size = group.num_rows
        for name in columns:
            values = group.column(name).to_numpy()
            if not pieces[name] and name not in filled and values.dtype.kind in "biufmM":
                filled[name] = np.empty(n_rows, dtype=values.dtype)
            if name in filled and values.dtype == filled[name].dtype:
                filled[name][start : start + size] = values
                continue
            if name in filled:  # a group of another type: join the pieces instead
                pieces[name].append(filled.pop(name)[:start])
            pieces[name].append(np.array(values))
        start += size
        del group
    _release_unused_memory()
    columns_read = {}
    for name in columns:
        if name in filled:
            columns_read[name] = filled[name]
        elif pieces[name]:
            columns_read[name] = np.concatenate(pieces[name])
        else:  # no row group: the empty column of its type
            columns_read[name] = _parquet_table(path, [name], argument).column(name).to_numpy()
    return columns_read


def _release_unused_memory() -> None:
    """Give the decoding buffers that pyarrow's allocator keeps back to the system."""
    import pyarrow as pa

    pa.default_memory_pool().release_unused()


def _csv_header(path: str) -> list[str]:
    with open(path, newline="", encoding="utf-8-sig") as stream:
        header = next(csv.reader(stream), None)
    if not header:
        raise ValueError(f"{path} is empty: no header line.")
    return header


def _csv_rows(path: str, columns: Sequence[str]) -> Iterator[tuple[int, list[str]]]:
    """(line number, the named fields) of every non-blank line after the header."""
    with open(path, newline="", encoding="utf-8-sig") as stream:
        reader = csv.reader(stream)
        header = next(reader, None)
        if not header:
            raise ValueError(f"{path} is empty: no header line.")
        if len(set(header)) != len(header):
            raise ValueError(f"{path} repeats a column name in its header: {header}.")
        if any(name not in header for name in columns):
            raise _missing_columns_error(path, columns, header)
        positions = [header.index(name) for name in columns]
        for line, row in enumerate(reader, start=2):
            if not row:
                continue
            if len(row) != len(header):
                raise ValueError(
                    f"{path}, line {line}: {len(row)} fields where the header has {len(header)}."
                )
            yield line, [row[position] for position in positions]


def _read_csv_pyarrow(path: str, columns: Sequence[str]) -> dict[str, np.ndarray]:
    import pyarrow.csv as pacsv

    header = _csv_header(path)
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
    fields: list[list[str]] = [[] for _ in columns]
    for _, row in _csv_rows(path, columns):
        for values, cell in zip(fields, row, strict=True):
            values.append(cell.strip())
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


def read_columns(
    path: Any, columns: Sequence[str], argument: str = "data"
) -> dict[str, np.ndarray]:
    """The named columns of a CSV or Parquet file (a directory or glob of Parquet files)."""
    text = os.fspath(path)
    if _is_parquet(text, argument):
        return read_parquet(text, columns, argument)
    return read_csv(text, columns)


def column_names(path: Any, argument: str = "data") -> list[str]:
    """The column names of a CSV file's header or of a Parquet file's schema (the first one's)."""
    text = os.fspath(path)
    if not _is_parquet(text, argument):
        return _csv_header(text)
    _import_pyarrow("Parquet files")
    import pyarrow.parquet as pq

    return list(pq.read_schema(_parquet_files(text, argument)[0]).names)


def _number(text: str, column: str, line: int, path: str) -> float:
    if text.strip().lower() in _MISSING:
        return math.nan
    try:
        return float(text)
    except ValueError:
        raise ValueError(
            f"{path}, line {line}: column {column!r} holds {text!r}, which is not a number."
        ) from None


def _parquet_numbers(items: list, column: str, path: str) -> list:
    for row, item in enumerate(items, start=1):
        if item is not None and (isinstance(item, bool) or not isinstance(item, (int, float))):
            raise ValueError(
                f"{path}, row {row}: column {column!r} holds {item!r}, which is not a number."
            )
    return [math.nan if item is None else item for item in items]


def read_table(
    path: Any, columns: Sequence[str], numeric: set[str], argument: str = "FILE"
) -> dict[str, list]:
    """The named ``columns`` of a CSV or Parquet file as lists, the ``numeric`` ones floats.

    A CSV field that is empty or NA, or a Parquet null, is NaN in a numeric column; a
    value that is not a number is an error naming the column and its line (CSV) or row
    (Parquet).  The other columns are read as text (CSV) or as stored (Parquet).
    """
    text = os.fspath(path)
    if _is_parquet(text, argument):
        table = _parquet_table(text, columns, argument)
        values = {name: table.column(name).to_pylist() for name in columns}
        return {
            name: _parquet_numbers(items, name, text) if name in numeric else items
            for name, items in values.items()
        }
    result: dict[str, list] = {name: [] for name in columns}
    for line, row in _csv_rows(text, columns):
        for name, cell in zip(columns, row, strict=True):
            result[name].append(_number(cell, name, line, text) if name in numeric else cell)
    return result

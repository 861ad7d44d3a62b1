"""Result types shared by the whole package: curves, the confidence interval, the mixin."""

from __future__ import annotations

import dataclasses
import json
import math
import types
from typing import Any, NamedTuple

import numpy as np

from assay._results import _summary


class RocCurve(NamedTuple):
    """ROC curve: ``fpr[i]``, ``tpr[i]`` for predictions ``score >= thresholds[i]``."""

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray


class PrecisionRecallCurve(NamedTuple):
    """Precision-recall curve (increasing thresholds; one more point than thresholds)."""

    precision: np.ndarray
    recall: np.ndarray
    thresholds: np.ndarray


class DetCurve(NamedTuple):
    """Detection error trade-off curve: false positive and false negative rates."""

    fpr: np.ndarray
    fnr: np.ndarray
    thresholds: np.ndarray


class CumulativeGainCurve(NamedTuple):
    """Cumulative gain curve: the top ``fraction[i]`` of the population, by weight, holds
    ``gain[i]`` of the positive weight (``score >= thresholds[i]``)."""

    fraction: np.ndarray
    gain: np.ndarray
    thresholds: np.ndarray


class ConfusionAtThresholds(NamedTuple):
    """Cutoff table: the binary confusion matrix at every distinct threshold."""

    tns: np.ndarray
    fps: np.ndarray
    fns: np.ndarray
    tps: np.ndarray
    thresholds: np.ndarray


# --- Results of the inference functions (bootstrap, compare, permutation_test). ---

# Arrays in a repr show this many values at each end, then "...".
_REPR_EDGE_ITEMS = 3


class ConfidenceInterval(NamedTuple):
    """A two-sided confidence interval; unpacks like scipy's: ``low, high = interval``.

    The confidence level is not stored here but on the result that owns the interval
    (``result.confidence_level``).

    Attributes
    ----------
    low : float
        Lower bound (NaN when the interval is undefined).
    high : float
        Upper bound (NaN when the interval is undefined).
    """

    low: float
    high: float

    def to_dict(self) -> dict[str, float | None]:
        """The bounds as plain Python floats, ``{"low": ..., "high": ...}``; an undefined
        (NaN) or infinite bound is None, so that the dictionary is valid JSON."""
        return {"low": _json_float(self.low), "high": _json_float(self.high)}


# A matrix in a repr is shown whole up to this many values, else by its shape.
_REPR_MATRIX_VALUES = 36


def _format_matrix(values: np.ndarray) -> str:
    """A small 2-D array in full, a larger one (or more axes) by its shape."""
    if values.ndim == 2 and values.size <= _REPR_MATRIX_VALUES:
        rows = ", ".join("[" + ", ".join(f"{v:.6g}" for v in row) + "]" for row in values)
        return f"array([{rows}])"
    return f"array(shape={values.shape}, dtype={values.dtype})"


def _format_array(values: np.ndarray) -> str:
    """One-line summary of a 1-D array: the first and last values and the shape."""
    if values.ndim != 1:
        return _format_matrix(values)
    if values.shape[0] == 0:
        return "array([], dtype=float64)"
    n = values.shape[0]
    summarised = n > 2 * _REPR_EDGE_ITEMS
    shown = (
        [*values[:_REPR_EDGE_ITEMS], None, *values[-_REPR_EDGE_ITEMS:]] if summarised else values
    )
    text = ", ".join("..." if v is None else f"{v:.6g}" for v in shown)
    return f"array([{text}], shape=({n},))" if summarised else f"array([{text}])"


def _format_field(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return _format_array(value)
    if isinstance(value, ConfidenceInterval):
        return f"ConfidenceInterval(low={value.low!r}, high={value.high!r})"
    if isinstance(value, types.MappingProxyType):
        items = ", ".join(f"{key!r}: {_format_field(item)}" for key, item in value.items())
        return "{" + items + "}"
    return repr(value)


def _json_float(value: Any) -> float | None:
    """``value`` as a Python float, or None when it is NaN or infinite (not JSON)."""
    number = float(value)
    return number if math.isfinite(number) else None


def _finite_or_none(values: Any) -> Any:
    """Nested lists of numbers with every NaN or infinity replaced by None."""
    if isinstance(values, list):
        return [_finite_or_none(item) for item in values]
    return None if isinstance(values, float) and not math.isfinite(values) else values


def _plain(value: Any) -> Any:
    """``value`` as plain JSON data (floats, ints, str, None, lists, dicts).

    A NaN or infinite float becomes None: JSON has no such numbers.
    """
    if isinstance(value, ConfidenceInterval):
        return value.to_dict()
    if isinstance(value, np.ndarray):
        values = value.tolist()
        if value.dtype.kind in "fc" and not np.all(np.isfinite(value)):
            values = _finite_or_none(values)
        return values
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, types.MappingProxyType | dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


def _read_only_float_array(values: Any) -> np.ndarray:
    array = np.array(values, dtype=np.float64, copy=True).reshape(-1)
    array.flags.writeable = False
    return array


class _ResultMixin:
    """What every result dataclass shares: ``str`` (one line, defined by each result),
    ``repr`` (one field per line), ``_repr_html_`` (a table for notebooks), ``to_dict``
    and ``to_json``.  All but ``str`` go over the dataclass fields, so a new field is
    shown and serialised without further code."""

    # How a field's value is written in ``repr`` and in the HTML table.
    _format_value = staticmethod(_format_field)

    def _field_texts(self) -> list[tuple[str, str]]:
        return [
            (field.name, self._format_value(getattr(self, field.name)))
            for field in dataclasses.fields(self)  # type: ignore[arg-type]
        ]

    def __repr__(self) -> str:
        lines = [f"    {name}={text}," for name, text in self._field_texts()]
        return "\n".join([f"{type(self).__name__}(", *lines, ")"])

    def _repr_html_(self) -> str:
        """A small HTML table (Jupyter): the summary, then one row per field."""
        return _summary.html_table(type(self).__name__, str(self), self._field_texts())

    def to_dict(self) -> dict[str, Any]:
        """The fields as plain Python data: valid JSON, ready for ``json.dumps``.

        Arrays become lists, the confidence interval becomes ``{"low": ..., "high": ...}``,
        and an undefined (NaN) or infinite value becomes None, so that
        ``json.dumps(result.to_dict(), allow_nan=False)`` succeeds.
        """
        return {
            field.name: _plain(getattr(self, field.name))
            for field in dataclasses.fields(self)  # type: ignore[arg-type]
        }

    def to_json(self, **json_kwargs: Any) -> str:
        """``to_dict()`` as a JSON string (``json.dumps``; ``allow_nan=False`` unless
        ``json_kwargs`` say otherwise, e.g. ``indent=2``)."""
        return json.dumps(self.to_dict(), **{"allow_nan": False, **json_kwargs})

    def _normalise(
        self,
        floats: tuple[str, ...] = (),
        ints: tuple[str, ...] = (),
        strings: tuple[str, ...] = (),
        arrays: tuple[str, ...] = (),
    ) -> None:
        """Store fields as plain floats/ints/str and read-only float64 arrays."""
        for name in floats:
            object.__setattr__(self, name, float(getattr(self, name)))
        for name in ints:
            object.__setattr__(self, name, int(getattr(self, name)))
        for name in strings:
            object.__setattr__(self, name, str(getattr(self, name)))
        for name in arrays:
            object.__setattr__(self, name, _read_only_float_array(getattr(self, name)))
        names = {field.name for field in dataclasses.fields(self)}  # type: ignore[arg-type]
        if "rng_seed" in names:
            seed = getattr(self, "rng_seed", None)
            object.__setattr__(self, "rng_seed", None if seed is None else int(seed))
        interval = getattr(self, "confidence_interval", None)
        if interval is not None:
            low, high = interval
            object.__setattr__(
                self, "confidence_interval", ConfidenceInterval(float(low), float(high))
            )


def _optional_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _read_only_details(details: Any) -> types.MappingProxyType[str, Any]:
    """A read-only copy of ``details``; arrays in it are copied and made read-only."""
    copied = {}
    for key, value in dict(details or {}).items():
        if isinstance(value, np.ndarray):
            value = value.copy()
            value.flags.writeable = False
        copied[str(key)] = value
    return types.MappingProxyType(copied)

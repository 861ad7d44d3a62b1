"""Result types shared by the whole package: curves, the confidence interval, the mixin."""

from __future__ import annotations

import dataclasses
import types
from typing import Any, NamedTuple

import numpy as np


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

    def to_dict(self) -> dict[str, float]:
        """The bounds as plain Python floats: ``{"low": ..., "high": ...}``."""
        return {"low": float(self.low), "high": float(self.high)}


def _format_array(values: np.ndarray) -> str:
    """One-line summary of a 1-D array: the first and last values and the shape."""
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


def _plain(value: Any) -> Any:
    """``value`` as plain Python data (floats, ints, str, None, lists, dicts)."""
    if isinstance(value, ConfidenceInterval):
        return value.to_dict()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, types.MappingProxyType | dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def _read_only_float_array(values: Any) -> np.ndarray:
    array = np.array(values, dtype=np.float64, copy=True).reshape(-1)
    array.flags.writeable = False
    return array


class _ResultMixin:
    """``repr`` (one field per line) and ``to_dict`` shared by the result dataclasses."""

    def __repr__(self) -> str:
        lines = [
            f"    {field.name}={_format_field(getattr(self, field.name))},"
            for field in dataclasses.fields(self)  # type: ignore[arg-type]
        ]
        return "\n".join([f"{type(self).__name__}(", *lines, ")"])

    def to_dict(self) -> dict[str, Any]:
        """The fields as plain Python data, ready for ``json.dumps``.

        Floats stay floats (an undefined value is ``float('nan')``, which ``json.dumps``
        writes as ``NaN``), arrays become lists, the confidence interval becomes
        ``{"low": ..., "high": ...}``.
        """
        return {
            field.name: _plain(getattr(self, field.name))
            for field in dataclasses.fields(self)  # type: ignore[arg-type]
        }

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

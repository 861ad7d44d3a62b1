"""Many analytic intervals at once: the result of an interval function given arrays."""

from __future__ import annotations

import dataclasses
import types
from typing import Any

import numpy as np

from assay._results import _summary
from assay._results._base import (
    ConfidenceInterval,
    _format_field,
    _plain,
    _read_only_details,
    _ResultMixin,
)
from assay._results._inference import IntervalResult


def _format_interval_array_field(value: Any) -> str:
    if isinstance(value, ConfidenceInterval) and isinstance(value.low, np.ndarray):
        return (
            f"ConfidenceInterval(low={_format_field(value.low)}, high={_format_field(value.high)})"
        )
    return _format_field(value)


def _array_interval(low: np.ndarray, high: np.ndarray) -> ConfidenceInterval:
    """A :class:`ConfidenceInterval` whose bounds are arrays (of one shape)."""
    bounds: Any = (low, high)
    return ConfidenceInterval(*bounds)


def _read_only_array(values: Any, dtype: Any) -> np.ndarray:
    array = np.array(values, dtype=dtype, copy=True)
    array.flags.writeable = False
    return array


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class IntervalArrayResult(_ResultMixin):
    """Many point estimates with their confidence intervals, as arrays of one shape.

    Returned by :func:`assay.proportion_ci` for arrays of counts.  Element ``i`` of
    every array field is the corresponding field of the single interval at ``i``, and
    ``result[i]`` is that interval as an :class:`IntervalResult`.

    Attributes
    ----------
    estimate : numpy.ndarray
        The point estimates.  Read-only, as every array here.
    confidence_interval : ConfidenceInterval
        ``(low, high)``: two arrays of the shape of ``estimate``.
    standard_error : numpy.ndarray
        The standard errors of the estimates.
    confidence_level : float
        Nominal coverage of every interval, in (0, 1).
    method : str
        How the intervals were computed, e.g. ``'wilson'``.
    n : numpy.ndarray of int64
        The number of observations behind each estimate (trials).
    details : mapping
        Method-specific arrays of the same shape (read-only), e.g. ``details['k']``.
    """

    estimate: np.ndarray
    confidence_interval: ConfidenceInterval
    standard_error: np.ndarray
    confidence_level: float
    method: str
    n: np.ndarray
    details: types.MappingProxyType[str, Any] = dataclasses.field(
        default_factory=lambda: types.MappingProxyType({})
    )

    _format_value = staticmethod(_format_interval_array_field)

    def __post_init__(self) -> None:
        estimate = _read_only_array(self.estimate, np.float64)
        bounds = tuple(self.confidence_interval)
        low, high = (
            _read_only_array(bounds[0], np.float64),
            _read_only_array(bounds[1], np.float64),
        )
        standard_error = _read_only_array(self.standard_error, np.float64)
        n = _read_only_array(self.n, np.int64)
        for name, array in (("confidence_interval", low), ("confidence_interval", high),
                            ("standard_error", standard_error), ("n", n)):  # fmt: skip
            if array.shape != estimate.shape:
                raise ValueError(
                    f"`{name}` has shape {array.shape}, `estimate` {estimate.shape}; every "
                    "array of the result has one shape."
                )
        object.__setattr__(self, "estimate", estimate)
        object.__setattr__(self, "confidence_interval", _array_interval(low, high))
        object.__setattr__(self, "standard_error", standard_error)
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "confidence_level", float(self.confidence_level))
        object.__setattr__(self, "method", str(self.method))
        object.__setattr__(self, "details", _read_only_details(self.details))

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of every array of the result."""
        return tuple(self.estimate.shape)

    def __len__(self) -> int:
        """The length of the first axis (as ``len`` of the arrays)."""
        return len(self.estimate)

    def __getitem__(self, index: Any) -> IntervalResult | IntervalArrayResult:
        """The interval at ``index`` (an :class:`IntervalResult`), or for a slice the
        intervals there (an :class:`IntervalArrayResult`)."""
        estimate = self.estimate[index]
        low, high = (np.asarray(bound) for bound in self.confidence_interval)
        details = {key: np.asarray(value)[index] for key, value in self.details.items()}
        if np.ndim(estimate) == 0:
            return IntervalResult(
                estimate=float(estimate),
                confidence_interval=ConfidenceInterval(float(low[index]), float(high[index])),
                standard_error=float(self.standard_error[index]),
                confidence_level=self.confidence_level,
                method=self.method,
                n=int(self.n[index]),
                details=types.MappingProxyType(
                    {key: np.asarray(value).item() for key, value in details.items()}
                ),
            )
        return IntervalArrayResult(
            estimate=estimate,
            confidence_interval=_array_interval(low[index], high[index]),
            standard_error=self.standard_error[index],
            confidence_level=self.confidence_level,
            method=self.method,
            n=self.n[index],
            details=types.MappingProxyType(details),
        )

    def to_dict(self) -> dict[str, Any]:
        """The fields as plain Python data (nested lists for the arrays; the interval as
        ``{"low": [...], "high": [...]}``), valid JSON: NaN and infinities become None."""
        low, high = (np.asarray(bound) for bound in self.confidence_interval)
        return {
            field.name: (
                {"low": _plain(low), "high": _plain(high)}
                if field.name == "confidence_interval"
                else _plain(getattr(self, field.name))
            )
            for field in dataclasses.fields(self)
        }

    def __str__(self) -> str:
        """``3 95% Wilson intervals, shape (3,): 0.1000 [0.0552, 0.1744], ...``."""
        count = self.estimate.size
        shown = []
        for flat in range(min(count, 2)):
            index = np.unravel_index(flat, self.estimate.shape)
            item = self[index]
            assert isinstance(item, IntervalResult)  # a full index gives one interval
            shown.append(
                f"{_summary.value(item.estimate)}"
                f"{_summary.interval(item.confidence_interval) or ' [undefined]'}"
            )
        more = ", ..." if count > len(shown) else ""
        return (
            f"{count} {_summary.level(self.confidence_level)} "
            f"{_summary.interval_method(self.method)} intervals, shape {self.shape}"
            f"{': ' if shown else ''}{', '.join(shown)}{more}"
        )

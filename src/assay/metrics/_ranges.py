"""The ranges of the registry's metrics, and how an interval is kept inside one.

Every declared metric states the values it can take (:attr:`MetricDeclaration.value_range
<assay.metrics._registry.MetricDeclaration>`, or a function of its options); resampling
clips an interval to that range (:func:`clip_to_range`); a user's callable may state its
own (:func:`metric_range`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from assay.metrics._registry import MetricDeclaration

__all__: list[str] = []

UNIT_INTERVAL = (0.0, 1.0)
CORRELATION_RANGE = (-1.0, 1.0)
NON_NEGATIVE = (0.0, np.inf)
UNBOUNDED = (-np.inf, np.inf)


def clip_to_range(
    low: float, high: float, value_range: tuple[float, float]
) -> tuple[float, float]:
    """``(low, high)`` moved inside ``value_range``; NaN bounds stay NaN.

    Clipping never lowers the coverage of an interval of a quantity that lies in the
    range: the true value is inside the clipped interval exactly when it is inside the
    original one.
    """
    lowest, highest = value_range
    return float(np.clip(low, lowest, highest)), float(np.clip(high, lowest, highest))


def metric_range(
    declaration: MetricDeclaration | None, function: Any, options: dict[str, Any]
) -> tuple[float, float]:
    """The range of a metric called with keyword ``options``.

    A declared metric's comes from the registry; any other callable may state its own as
    an attribute ``value_range = (lowest, highest)``; otherwise it is unbounded.
    """
    if declaration is not None:
        return declaration.range_for(**options)
    stated = getattr(function, "value_range", None)
    if stated is None:
        return UNBOUNDED
    try:
        lowest, highest = (float(bound) for bound in stated)
    except (TypeError, ValueError):
        raise ValueError(
            "a metric's `value_range` attribute must be a pair (lowest, highest) of "
            f"numbers; got {stated!r}."
        ) from None
    if not lowest <= highest:
        raise ValueError(
            f"a metric's `value_range` attribute must satisfy lowest <= highest; got {stated!r}."
        )
    return lowest, highest


def _count_range(normalize: Any = True, **_: Any) -> tuple[float, float]:
    """accuracy_score / error_rate: a rate, or a (weighted) count with normalize=False."""
    return UNIT_INTERVAL if normalize else NON_NEGATIVE


def _balanced_accuracy_range(adjusted: Any = False, **_: Any) -> tuple[float, float]:
    """balanced_accuracy_score: adjusted, chance is 0 and the lowest value -1/(K-1) >= -1."""
    return CORRELATION_RANGE if adjusted else UNIT_INTERVAL


def _brier_range(scale_by_half: Any = "auto", **_: Any) -> tuple[float, float]:
    """brier_score_loss: [0, 1] halved, [0, 2] summed over classes ('auto': either)."""
    return UNIT_INTERVAL if scale_by_half is True else (0.0, 2.0)

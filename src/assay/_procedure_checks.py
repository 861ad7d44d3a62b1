"""Checks of the options of the statistical procedures: one place for their wording.

The confidence level, the number of resamples, the alternative hypothesis, and the
integer or positive numeric parameters of the protocols (folds, repeats, degrees,
noise variances).  Messages name the argument, the rule and the offending value, as in
:mod:`assay._validation` (the checks of the data).
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from assay._validation import check_option, format_values

__all__ = [
    "ALTERNATIVES",
    "check_alternative",
    "check_confidence_level",
    "check_integer",
    "check_n_resamples",
    "check_open_unit",
    "check_positive",
]

ALTERNATIVES = ("two-sided", "less", "greater")


def _shown(value: Any) -> Any:
    """``value`` for a message: numpy scalars as plain Python scalars."""
    return value.item() if isinstance(value, np.generic) else value


def check_open_unit(value: Any, name: str) -> float:
    """``value`` as a float strictly between 0 and 1 (a level, a fraction)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not 0.0 < float(value) < 1.0
    ):
        raise ValueError(f"`{name}` must be in (0, 1); got {_shown(value)!r}.")
    return float(value)


def check_confidence_level(confidence_level: Any) -> float:
    """``confidence_level`` as a float strictly between 0 and 1."""
    return check_open_unit(confidence_level, "confidence_level")


def check_integer(value: Any, name: str, minimum: int) -> int:
    """``value`` as a Python int >= ``minimum`` (a float such as 5.0 or a bool is refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"`{name}` must be an integer >= {minimum}; got {_shown(value)!r}.")
    return int(value)


def check_n_resamples(n_resamples: Any, name: str = "n_resamples") -> int:
    """``n_resamples`` as a Python int >= 1 (a float such as 1000.0 is refused)."""
    return check_integer(n_resamples, name, 1)


def check_positive(value: Any, name: str) -> float:
    """``value`` as a positive finite float (a bool is refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"`{name}` must be a positive finite number; got {_shown(value)!r}.")
    number = float(value)
    if not (math.isfinite(number) and number > 0.0):
        raise ValueError(f"`{name}` must be a positive finite number; got {_shown(value)!r}.")
    return number


def check_alternative(alternative: Any) -> str:
    """``alternative`` must be 'two-sided', 'less' or 'greater'."""
    if not isinstance(alternative, str):
        raise ValueError(
            f"`alternative` must be one of {format_values(ALTERNATIVES)}; got {alternative!r}."
        )
    return str(check_option(alternative, "alternative", ALTERNATIVES))

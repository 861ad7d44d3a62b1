"""Hypothesis strategies shared by the test suite.

They aim at the inputs that break evaluation code: heavy ties, constant scores, a
single class, zero and integer weights, tiny and moderately large n.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

# Scores drawn from a handful of values produce heavy ties; the other branch gives
# (almost surely) distinct floats, including negative values and both signed zeros.
_TIED_VALUES = (-1.5, -0.0, 0.0, 0.25, 0.5, 0.75, 1.0, 3.0)


@st.composite
def scores(draw: st.DrawFn, n: int) -> np.ndarray:
    """A float64 score vector of length ``n``: tied, constant or continuous."""
    kind = draw(st.sampled_from(["tied", "constant", "continuous"]))
    if kind == "constant":
        return np.full(n, draw(st.sampled_from(_TIED_VALUES)))
    if kind == "tied":
        values = draw(hnp.arrays(np.float64, n, elements=st.sampled_from(_TIED_VALUES)))
        return np.asarray(values, dtype=np.float64)
    values = draw(
        hnp.arrays(
            np.float64,
            n,
            elements=st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False, width=64),
        )
    )
    return np.asarray(values, dtype=np.float64)


@st.composite
def sample_weights(draw: st.DrawFn, n: int) -> np.ndarray | None:
    """None, integer weights (zeros included) or positive float weights; never all zero."""
    kind = draw(st.sampled_from(["none", "integer", "float"]))
    if kind == "none":
        return None
    if kind == "integer":
        weights = np.asarray(
            draw(hnp.arrays(np.int64, n, elements=st.integers(0, 3))), dtype=np.float64
        )
    else:
        weights = np.asarray(
            draw(
                hnp.arrays(
                    np.float64,
                    n,
                    elements=st.floats(0.0, 10.0, allow_nan=False, allow_infinity=False),
                )
            ),
            dtype=np.float64,
        )
    if not np.any(weights > 0):
        weights[draw(st.integers(0, n - 1))] = 1.0
    return weights


@st.composite
def binary_ranking_data(
    draw: st.DrawFn, min_n: int = 1, max_n: int = 200, both_classes: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(y_true, y_score, sample_weight)`` with y_true in {0, 1}.

    With ``both_classes=True`` each class carries positive weight.
    """
    n = draw(st.integers(max(min_n, 2 if both_classes else 1), max_n))
    y_true = np.asarray(draw(hnp.arrays(np.int64, n, elements=st.integers(0, 1))))
    y_score = draw(scores(n))
    weight = draw(sample_weights(n))
    if both_classes:
        w = np.ones(n) if weight is None else weight
        for label in (0, 1):
            if not np.any((y_true == label) & (w > 0)):
                i = draw(st.integers(0, n - 1))
                y_true[i] = label
                if weight is not None:
                    weight[i] = max(weight[i], 1.0)
                w = np.ones(n) if weight is None else weight
        # both labels now present with positive weight unless one row had to serve both
        if not all(np.any((y_true == lab) & (w > 0)) for lab in (0, 1)):
            y_true[:] = np.arange(n) % 2
            if weight is not None:
                weight[:2] = np.maximum(weight[:2], 1.0)
    return y_true, y_score, weight


@st.composite
def multiclass_labels(
    draw: st.DrawFn, min_n: int = 1, max_n: int = 200, min_classes: int = 2, max_classes: int = 6
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(y_true, y_pred, sample_weight)``: integer labels over 2 to 6 classes."""
    n = draw(st.integers(min_n, max_n))
    k = draw(st.integers(min_classes, max_classes))
    y_true = np.asarray(draw(hnp.arrays(np.int64, n, elements=st.integers(0, k - 1))))
    y_pred = np.asarray(draw(hnp.arrays(np.int64, n, elements=st.integers(0, k - 1))))
    return y_true, y_pred, draw(sample_weights(n))

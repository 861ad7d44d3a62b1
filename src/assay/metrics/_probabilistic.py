"""Scores of probabilistic predictions: the log loss and the Brier score.

Both take the class probabilities a classifier's ``predict_proba`` returns, with
scikit-learn's signatures and values; :mod:`assay.metrics._calibration` bins binary
forecasts (the calibration curve, the calibration errors, the Murphy decomposition of
the Brier score).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from assay._labels import distinct_values, numbers_of_objects
from assay._validation import (
    as_1d,
    as_probabilities,
    as_sample_weight,
    check_option,
    check_probability_rows,
    check_same_length,
    format_values,
)

__all__ = ["brier_score_loss", "log_loss"]

# A probability is clipped to [eps, 1 - eps] before its logarithm is taken (the machine
# epsilon of float64, scikit-learn's rule since version 1.5): a certain wrong forecast
# costs -log(eps) = 36.04 instead of infinity.
_EPS = float(np.finfo(np.float64).eps)

# Labels for which the positive class of a binary target is 1 (scikit-learn's sets).
_INFERABLE_LABEL_SETS = ({0, 1}, {-1, 1})


class ProbabilisticTarget(NamedTuple):
    """A target and its forecasts, checked: one-hot truth and one probability column
    per class."""

    indicator: np.ndarray
    """(n, k) float64: 1.0 in the column of each row's true class."""
    probabilities: np.ndarray
    """(n, k) float64 class probabilities (a 1-D forecast ``p`` becomes ``[1 - p, p]``)."""
    weights: np.ndarray | None
    """Row weights, or None."""


def positive_rows(y_true: np.ndarray, pos_label: Any, name: str = "y_true") -> np.ndarray:
    """Boolean positive rows of a binary target, by scikit-learn's rule for probabilities.

    ``pos_label=None``: 1 for labels within {0, 1} or {-1, 1} (or booleans), else the
    larger of two numeric labels; string labels need ``pos_label``.  A ``pos_label``
    that is not one of two present labels is an error (scikit-learn counts every row
    as negative).
    """
    classes = distinct_values(y_true)
    if classes.shape[0] > 2:
        raise ValueError(
            f"`{name}` holds {classes.shape[0]} classes {format_values(classes)}; a 1-D "
            "`y_proba` is the probability of the positive class of a binary target "
            "(pass one column per class for more)."
        )
    if pos_label is None:
        if classes.dtype.kind == "b" or (
            classes.dtype.kind in "iuf"
            and any(set(classes.tolist()) <= allowed for allowed in _INFERABLE_LABEL_SETS)
        ):
            pos_label = 1
        elif classes.dtype.kind in "iuf":
            pos_label = classes[-1]
        else:
            raise ValueError(
                f"`{name}` holds labels {format_values(classes)}; pass `pos_label` to "
                "name the positive class (it is inferred only for numeric labels)."
            )
    elif classes.shape[0] == 2 and not np.any(classes == pos_label):
        raise ValueError(
            f"`pos_label`={pos_label!r} is not one of the labels in `{name}` "
            f"{format_values(classes)}."
        )
    return np.asarray(y_true == pos_label, dtype=bool)


def probabilistic_target(
    y_true: Any, y_proba: Any, sample_weight: Any, labels: Any, name: str = "y_proba"
) -> ProbabilisticTarget:
    """Check a multi-class target and its probabilities (scikit-learn's rules).

    The columns of a 2-D ``y_proba`` are ``labels`` in the order given, else the sorted
    classes of ``y_true``.  A 1-D ``y_proba`` is the probability of the larger
    of two classes.  Rows of a 2-D ``y_proba`` must sum to 1.
    """
    truth = numbers_of_objects(as_1d(y_true, "y_true"))
    array = np.asarray(y_proba)
    if array.ndim == 2 and array.shape[1] == 1:  # one column: the positive class's
        y_proba = array[:, 0]
        array = y_proba
    probabilities = as_probabilities(y_proba, name, ndim=2 if array.ndim == 2 else 1)
    n = check_same_length(y_true=truth, **{name: probabilities})
    weights = as_sample_weight(sample_weight, n)
    if probabilities.ndim == 1:
        probabilities = np.column_stack([1.0 - probabilities, probabilities])
    else:
        check_probability_rows(probabilities, name)
    if labels is None:
        classes = distinct_values(truth)
    else:
        classes = numbers_of_objects(as_1d(labels, "labels"))  # the columns' order
        if distinct_values(classes).shape[0] != classes.shape[0]:
            raise ValueError(
                f"`labels` {format_values(classes)} names a class twice; each column of "
                f"`{name}` is one class."
            )
        missing = np.setdiff1d(distinct_values(truth), classes)
        if missing.shape[0]:
            raise ValueError(
                f"`y_true` holds labels {format_values(missing)} that are not in `labels` "
                f"{format_values(classes)}."
            )
    k = probabilities.shape[1]
    if classes.shape[0] != k:
        where = "`labels`" if labels is not None else "`y_true`"
        hint = "" if labels is not None else "; pass every class with `labels`"
        raise ValueError(
            f"{where} has {classes.shape[0]} classes {format_values(classes)} but "
            f"`{name}` has {k} columns (one probability per class is needed){hint}."
        )
    indicator = np.zeros((n, k))
    order = np.argsort(classes, kind="stable")
    indicator[np.arange(n), order[np.searchsorted(classes[order], truth)]] = 1.0
    return ProbabilisticTarget(indicator, probabilities, weights)


def log_loss(
    y_true: Any,
    y_proba: Any,
    *,
    normalize: bool = True,
    sample_weight: Any = None,
    labels: Any = None,
) -> float:
    """Log loss (cross-entropy) of class probabilities: ``-log`` of the true class's.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        Class probabilities in [0, 1], columns in the sorted order of the classes
        (``predict_proba``); 1-D: the probability of the larger of two classes.
    normalize : bool, default=True
        The weighted mean loss per sample; False: the weighted sum.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    labels : array-like, default=None
        All the classes, in the order of the columns of ``y_proba`` (any order, as
        :func:`roc_auc_score` takes them); default: the sorted classes of ``y_true``.

    Returns
    -------
    float
        The loss (non-negative; 0 is perfect).

    Raises
    ------
    ValueError
        Probabilities outside [0, 1] or not finite; rows of a 2-D ``y_proba`` that do
        not sum to 1 (within 1e-6); a number of classes that differs from the number of
        columns (a single class in ``y_true`` needs ``labels``); labels of ``y_true``
        missing from ``labels``; bad weights; lengths that differ.

    Notes
    -----
    ``L = -sum_i w_i log(clip(p_i,y_i)) / sum_i w_i``, with the probabilities clipped to
    ``[eps, 1 - eps]`` (``eps`` the machine epsilon of float64): scikit-learn's values
    (version 1.5 and later).  Where scikit-learn only warns about rows that do not sum to
    1, assay refuses them: they are not probabilities, and their loss means nothing.
    The logarithmic scoring rule (Good 1952) is strictly proper.

    References
    ----------
    I. J. Good, "Rational decisions", J. R. Stat. Soc. B 14 (1952) 107-114.

    Examples
    --------
    >>> from assay.metrics import log_loss
    >>> round(log_loss(["spam", "ham", "ham", "spam"],
    ...                [[.1, .9], [.9, .1], [.8, .2], [.35, .65]]), 5)
    0.21616
    """
    target = probabilistic_target(y_true, y_proba, sample_weight, labels)
    true_class = np.sum(target.indicator * np.clip(target.probabilities, _EPS, 1.0 - _EPS), 1)
    losses = -np.log(true_class)
    if normalize:
        return float(np.average(losses, weights=target.weights))
    return float(np.sum(losses if target.weights is None else losses * target.weights))


def brier_score_loss(
    y_true: Any,
    y_proba: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    labels: Any = None,
    scale_by_half: Any = "auto",
) -> float:
    """Brier score: the mean squared difference between probabilities and outcomes.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        1-D: the probability of the positive class of a binary target; 2-D: class
        probabilities, columns in the sorted order of the classes.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    pos_label : label, default=None
        The positive class of a 1-D ``y_proba``: by default 1 for labels within
        {0, 1} or {-1, 1}, else the larger of two numeric labels (strings need it).
    labels : array-like, default=None
        All the classes of a 2-D ``y_proba``, in the order of its columns; default: the
        sorted classes of ``y_true``.
    scale_by_half : bool or 'auto', default='auto'
        Halve the sum over the classes, so that the score lies in [0, 1]; 'auto' halves
        for two classes only (the usual binary Brier score) and keeps the range [0, 2]
        for more.

    Returns
    -------
    float
        The score (0 is perfect).

    Raises
    ------
    ValueError
        As :func:`log_loss`; a 1-D ``y_proba`` with more than two classes, string labels
        without ``pos_label``, a ``pos_label`` that is not one of two present labels,
        a bad ``scale_by_half``.

    Notes
    -----
    ``BS = sum_i w_i sum_c (o_ic - p_ic)^2 / sum_i w_i`` (Brier 1950), halved as
    ``scale_by_half`` says: for a binary target, ``sum_i w_i (o_i - p_i)^2 / sum_i w_i``.
    scikit-learn's values; where scikit-learn counts every row as negative for a
    ``pos_label`` absent from ``y_true``, assay raises (with two classes present).
    :func:`brier_decomposition` splits it into reliability, resolution and
    uncertainty (Murphy 1973).

    References
    ----------
    G. W. Brier, "Verification of forecasts expressed in terms of probability",
    Monthly Weather Review 78 (1950) 1-3.

    Examples
    --------
    >>> from assay.metrics import brier_score_loss
    >>> round(brier_score_loss([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]), 6)
    0.0375
    """
    check_option(scale_by_half, "scale_by_half", ("auto", True, False))
    if np.asarray(y_proba).ndim == 2:
        target = probabilistic_target(y_true, y_proba, sample_weight, labels)
        indicator, probabilities, weights = target
        halve = probabilities.shape[1] < 3 if scale_by_half == "auto" else bool(scale_by_half)
        squares = np.sum((indicator - probabilities) ** 2, axis=1)
        return float(np.average(squares, weights=weights)) * (0.5 if halve else 1.0)
    truth = numbers_of_objects(as_1d(y_true, "y_true"))
    forecast = as_probabilities(y_proba, "y_proba")
    n = check_same_length(y_true=truth, y_proba=forecast)
    weights = as_sample_weight(sample_weight, n)
    outcome = positive_rows(truth, pos_label).astype(np.float64)
    # two columns [1 - p, p]: the squares of both add up to twice the binary square
    squares = (outcome - forecast) ** 2 * 2.0
    halve = True if scale_by_half == "auto" else bool(scale_by_half)
    return float(np.average(squares, weights=weights)) * (0.5 if halve else 1.0)

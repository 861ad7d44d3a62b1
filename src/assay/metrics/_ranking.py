"""Areas and summaries of the ranking curves: AUC, partial AUC, AP, AUC-PR, EER.

Each score is a single linear sweep over the tie groups of the sorted scores
(:mod:`assay._kernels.ranking`); nothing is re-sorted and no curve is stored for
AUC, AP and the trapezoidal AUC-PR.  Ties count one half everywhere.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from assay._kernels.pieces import scan_sorted
from assay._kernels.scans.average_precision import AveragePrecision
from assay._kernels.scans.equal_error_rate import EqualErrorRate
from assay._kernels.scans.partial_roc_auc import PartialRocAuc
from assay._kernels.scans.pr_auc_eleven_point import PrAucElevenPoint
from assay._kernels.scans.pr_auc_interpolated import PrAucInterpolated
from assay._kernels.scans.pr_auc_trapezoid import PrAucTrapezoid
from assay._kernels.scans.roc_auc import RocAuc
from assay._validation import (
    as_1d,
    check_option,
    few_distinct_values,
    reject_sparse,
    two_column_scores_message,
)
from assay.metrics._label_ranking import is_multilabel_target
from assay.metrics._multiclass_ranking import MulticlassData, one_vs_one, one_vs_rest
from assay.metrics._multilabel_ranking import (
    average_precision_summary,
    multilabel_score,
    one_hot_score,
    pr_auc_summary,
    roc_auc_summary,
)
from assay.metrics._sorted import SortedBinary, sort_binary, warn_undefined

__all__ = [
    "average_precision_score",
    "equal_error_rate",
    "pr_auc_score",
    "roc_auc_score",
]

# The scan of each rule of ``pr_auc_score``.
PR_AUC_SCANS = {
    "trapezoid": PrAucTrapezoid,
    "interpolated": PrAucInterpolated,
    "11-point": PrAucElevenPoint,
}
EER_METHODS = ("interpolate", "nearest")
"""The rules of ``equal_error_rate``'s ``method``."""
ROC_AUC_MULTICLASS_HINT = (
    " For more classes pass `y_score` of shape (n_samples, n_classes) with "
    "`multi_class='ovr'` or `'ovo'`."
)
"""The end of ``roc_auc_score``'s error for a binary call with more than two classes."""


# --- The scan options of each metric, from its public keyword options (the registry and
# the resampling procedures select a metric's scan with these). ---


def roc_auc_options(max_fpr: float | None = None, **_: Any) -> RocAuc | PartialRocAuc:
    # the partial area is a scan of its own type: the full area's kernels never compile
    # the partial area's recording path (a streamed replicate of it records its groups)
    if max_fpr is None or float(max_fpr) >= 1.0:
        return RocAuc()
    return PartialRocAuc(float(max_fpr))


def average_precision_options(**_: Any) -> AveragePrecision:
    return AveragePrecision()


def pr_auc_options(method: str = "trapezoid", **_: Any) -> Any:
    return PR_AUC_SCANS[method]()


def equal_error_rate_options(method: str = "interpolate", **_: Any) -> EqualErrorRate:
    return EqualErrorRate(interpolated=method == "interpolate")


def is_full_roc_auc(options: Any) -> bool:
    """Whether the scan options are the full ROC AUC (which has a closed-form jackknife)."""
    return isinstance(options, RocAuc)


# --- Each ranking metric as a function of the sorted data (one weighted sweep). ---
# ``stacklevel`` counts from the function's own frame as in :func:`warnings.warn`
# (2: its caller). A resampling procedure calls these with replicate weights.


def roc_auc_from_sorted(
    data: SortedBinary, *, max_fpr: float | None = None, stacklevel: int = 2
) -> float:
    """ROC AUC (or McClish partial AUC) of sorted data; NaN and a warning for one class."""
    if not (data.has_positives and data.has_negatives):
        warn_undefined(
            "Only one class is present in `y_true`; ROC AUC is undefined (NaN returned).",
            stacklevel=stacklevel + 1,
        )
        return float("nan")
    options = roc_auc_options(max_fpr)
    return float(scan_sorted(options, *data.kernel_arguments, data.integer_counts))


def average_precision_from_sorted(data: SortedBinary, *, stacklevel: int = 2) -> float:
    """Step-sum AP of sorted data; NaN and a warning without positives."""
    if not data.has_positives:
        warn_undefined(
            "No positive samples in `y_true`; average precision is undefined (NaN returned).",
            stacklevel=stacklevel + 1,
        )
        return float("nan")
    return float(scan_sorted(AveragePrecision(), *data.kernel_arguments, data.integer_counts))


def pr_auc_from_sorted(
    data: SortedBinary, *, method: str = "trapezoid", stacklevel: int = 2
) -> float:
    """Area under the PR curve of sorted data by ``method``; NaN without positives."""
    if not data.has_positives:
        warn_undefined(
            "No positive samples in `y_true`; the area under the precision-recall "
            "curve is undefined (NaN returned).",
            stacklevel=stacklevel + 1,
        )
        return float("nan")
    options = pr_auc_options(method)
    return float(scan_sorted(options, *data.kernel_arguments, data.integer_counts))


def equal_error_rate_from_sorted(
    data: SortedBinary, *, method: str = "interpolate", stacklevel: int = 2
) -> float:
    """EER of sorted data by ``method``; NaN and a warning for one class."""
    if not (data.has_positives and data.has_negatives):
        warn_undefined(
            "Only one class is present in `y_true`; the equal error rate is undefined "
            "(NaN returned).",
            stacklevel=stacklevel + 1,
        )
        return float("nan")
    options = equal_error_rate_options(method)
    return float(scan_sorted(options, *data.kernel_arguments, data.integer_counts))


def _check_max_fpr(max_fpr: Any) -> float | None:
    if max_fpr is None:
        return None
    if not isinstance(max_fpr, (int, float, np.floating, np.integer)) or not (
        0.0 < float(max_fpr) <= 1.0
    ):
        raise ValueError(f"`max_fpr` must be in (0, 1]; got {max_fpr!r}.")
    return float(max_fpr)


def _refuse_binary_options(pos_label: Any, labels: Any = None) -> None:
    """Raise for options of binary (``pos_label``) or multi-class (``labels``) targets
    given with a multilabel or one-hot problem, whose positive value is 1."""
    if pos_label not in (None, 1):
        raise ValueError(
            f"`pos_label` applies to binary targets only (a multilabel or multi-class "
            f"target's positive value is 1); leave it as None, got {pos_label!r}."
        )
    if labels is not None:
        raise ValueError(
            "`labels` applies to multi-class targets only; a multilabel `y_true` names "
            "its labels by column."
        )


def _refuse_binary_two_columns(y_true: Any, score_array: np.ndarray) -> None:
    """Raise for the two columns of ``predict_proba`` given with a binary target."""
    if score_array.shape[1] == 2 and few_distinct_values(as_1d(y_true, "y_true"), 2) is not None:
        raise ValueError(two_column_scores_message("y_score", score_array.shape))


def roc_auc_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    sample_weight: Any = None,
    max_fpr: float | None = None,
    multi_class: str = "raise",
    labels: Any = None,
    pos_label: Any = None,
) -> Any:
    """Area under the ROC curve: binary, multi-class (one-vs-rest or Hand & Till) or
    multilabel.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        Targets. Binary targets with labels other than {0, 1}, {-1, 1} or booleans
        need ``pos_label``; more than two classes need a 2-D ``y_score``. A 2-D 0/1
        indicator (or a scipy.sparse one) is a multilabel target: each column is a
        binary problem scored by the same column of ``y_score``.
    y_score : array-like of shape (n_samples,), (n_samples, n_classes) or \
(n_samples, n_labels)
        Binary: scores of the positive class (any real values); the two columns of
        ``predict_proba`` for a binary target are refused (pass the positive class's
        column, ``y_score[:, 1]``) unless ``multi_class`` asks for them. Multi-class:
        probabilities of each class, rows summing to 1, columns ordered like
        ``labels``. Multilabel: any finite scores, one column per label.
    average : {"macro", "weighted", "micro", "samples"} or None, default="macro"
        Multi-class and multilabel. "macro": unweighted mean over classes, labels (or
        class pairs); "weighted": weighted by class (pair) prevalence, or by each
        label's positive weight (labels without positives do not enter); "micro"
        (one-vs-rest and multilabel): one binary AUC over the raveled indicator
        matrix; "samples" (multilabel only): the AUC of each row over its labels,
        averaged over rows with the sample weights; None (one-vs-rest and
        multilabel): the per-class or per-label areas.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; zero-weight rows are ignored.
    max_fpr : float in (0, 1], default=None
        Binary and multilabel: the McClish-standardized partial area over FPR in
        [0, max_fpr] (of each label, or row, or of the raveled matrix).
    multi_class : {"raise", "ovr", "ovo"}, default="raise"
        Multi-class strategy; "raise" refuses multi-class input.
    labels : array-like of shape (n_classes,), default=None
        Multi-class only: the class of each column of ``y_score`` (default: sorted
        distinct labels of ``y_true``).
    pos_label : int, float, bool or str, default=None
        Binary only: the positive class. (scikit-learn has no such argument and takes
        the larger label as positive; assay asks rather than guesses.)

    Returns
    -------
    float or ndarray
        The area; an array of per-class areas for ``average=None``.

    Raises
    ------
    ValueError
        On invalid input or options (see the messages).

    Warns
    -----
    UndefinedMetricWarning
        A single class in ``y_true``, or (multi-class) a class of ``labels`` without
        samples in ``y_true``, or (multilabel) a label column or, for "samples", a row
        without both positives and negatives, named in the message: that area is NaN
        (and so is a mean over it).

    Notes
    -----
    Binary: ``AUC = sum_k N_k (2 TP_{k-1} + P_k) / (2 P N)`` over the tie groups
    (descending scores), i.e. the trapezoidal area under the ROC curve, equal to the
    Mann-Whitney probability that a positive scores above a negative with ties
    counting one half (Wu, "Evaluation", section 3.2; Fawcett 2006). Weighted: each
    (positive, negative) pair weighs the product of their weights.

    Partial AUC (McClish 1989): the area ``A`` over FPR in [0, max_fpr] (linear
    interpolation inside the crossing segment), reported as
    ``0.5 (1 + (A - max_fpr^2 / 2) / (max_fpr - max_fpr^2 / 2))``, as scikit-learn does.

    One-vs-one (Hand & Till 2001): for each pair of classes (a, b), on the rows of a
    and b only, ``A(a, b) = (AUC(a vs b, column a) + AUC(b vs a, column b)) / 2``;
    "macro" averages the pairs, "weighted" weights them by their share of the total
    weight. Unlike scikit-learn, sample weights are supported here.

    References
    ----------
    D. J. Hand and R. J. Till, "A simple generalisation of the area under the ROC
    curve for multiple class classification problems", Machine Learning 45 (2001).
    D. K. McClish, "Analyzing a portion of the ROC curve", Medical Decision Making 9
    (1989).

    Examples
    --------
    >>> import assay
    >>> assay.roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> assay.roc_auc_score([0, 1, 0, 1], [0.5, 0.5, 0.2, 0.9])  # a tie counts 1/2
    0.875
    >>> y_true = [[1, 0], [0, 1], [1, 1], [0, 0]]  # multilabel: two labels
    >>> y_score = [[0.9, 0.2], [0.3, 0.8], [0.6, 0.4], [0.1, 0.5]]
    >>> assay.roc_auc_score(y_true, y_score, average=None)
    array([1.  , 0.75])
    """
    check_option(multi_class, "multi_class", ("raise", "ovr", "ovo"))
    if is_multilabel_target(y_true):
        _refuse_binary_options(pos_label, labels)
        max_fpr = _check_max_fpr(max_fpr)
        area = partial(roc_auc_from_sorted, max_fpr=max_fpr)
        summary = roc_auc_summary(area, max_fpr)
        return multilabel_score(y_true, y_score, sample_weight, summary, average, stacklevel=2)
    reject_sparse(y_score, "y_score")
    score_array = np.asarray(y_score)
    multiclass_input = score_array.ndim == 2 and score_array.shape[1] > 1
    if not multiclass_input:
        max_fpr = _check_max_fpr(max_fpr)
        data = sort_binary(
            y_true,
            score_array,
            pos_label=pos_label,
            sample_weight=sample_weight,
            multiclass_hint=ROC_AUC_MULTICLASS_HINT,
        )
        return roc_auc_from_sorted(data, max_fpr=max_fpr, stacklevel=2)
    if multi_class == "raise":
        _refuse_binary_two_columns(y_true, score_array)
        raise ValueError(
            "`y_score` has one column per class: choose `multi_class='ovr'` "
            "(one-vs-rest) or `multi_class='ovo'` (Hand & Till one-vs-one)."
        )
    if max_fpr is not None and max_fpr != 1:
        raise ValueError("`max_fpr` (partial AUC) is defined for binary targets only.")
    if multi_class == "ovr":
        check_option(average, "average", ("macro", "weighted", "micro", None))
    else:
        check_option(average, "average", ("macro", "weighted"))
    problem = MulticlassData(y_true, score_array, labels, sample_weight)
    if multi_class == "ovo":
        return one_vs_one(problem, roc_auc_from_sorted, average, stacklevel=2)  # type: ignore[arg-type]
    return one_vs_rest(problem, roc_auc_from_sorted, average, stacklevel=2)


def average_precision_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    pos_label: Any = None,
    sample_weight: Any = None,
) -> Any:
    """Average precision: the step-sum summary of the precision-recall curve.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        Targets: binary; multi-class with a 2-D ``y_score`` (one-vs-rest, classes in
        sorted order); or a multilabel 0/1 indicator (dense or scipy.sparse).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores of the positive class; or one column of scores per class (any finite
        values, e.g. ``decision_function``) or per label. Two columns for a binary
        target (``predict_proba``) are refused: pass the positive class's column,
        ``y_score[:, 1]``.
    average : {"macro", "weighted", "micro", "samples"} or None, default="macro"
        Multi-class and multilabel averaging of the per-class (per-label) values, as
        in :func:`roc_auc_score`; "samples" averages the AP of each row over its
        labels (classes).
    pos_label : int, float, bool or str, default=None
        Binary only: the positive class.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; zero-weight rows are ignored.

    Returns
    -------
    float or ndarray
        AP, or the per-class values for ``average=None``.

    Warns
    -----
    UndefinedMetricWarning
        Without positives AP is 0/0: NaN (scikit-learn returns 0 in that case); the
        labels (or rows, for "samples") without positives are named.

    Notes
    -----
    ``AP = sum_k (R_k - R_{k-1}) P_k`` with ``R_k = TP_k / P`` and
    ``P_k = TP_k / (TP_k + FP_k)`` over the tie groups: rectangles, not trapezoids
    (Wu, "Evaluation", exercise 5(b)). Identical to scikit-learn's
    ``average_precision_score``. Other summaries of the same curve are available
    through :func:`pr_auc_score`.

    Examples
    --------
    >>> import assay
    >>> round(assay.average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 6)
    0.833333
    """
    summary = average_precision_summary(average_precision_from_sorted)
    if is_multilabel_target(y_true):
        _refuse_binary_options(pos_label)
        return multilabel_score(y_true, y_score, sample_weight, summary, average, stacklevel=2)
    reject_sparse(y_score, "y_score")
    score_array = np.asarray(y_score)
    if score_array.ndim == 2 and score_array.shape[1] > 1:
        _refuse_binary_two_columns(y_true, score_array)
        _refuse_binary_options(pos_label)
        return one_hot_score(y_true, score_array, sample_weight, summary, average, stacklevel=2)
    data = sort_binary(y_true, score_array, pos_label=pos_label, sample_weight=sample_weight)
    return average_precision_from_sorted(data, stacklevel=2)


def pr_auc_score(
    y_true: Any,
    y_score: Any,
    *,
    method: str = "trapezoid",
    average: str | None = "macro",
    pos_label: Any = None,
    sample_weight: Any = None,
) -> Any:
    """Area under the precision-recall curve, by a named interpolation rule.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        Binary targets; or multi-class with a 2-D ``y_score`` (one-vs-rest); or a
        multilabel 0/1 indicator (dense or scipy.sparse).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores; higher means more positive (one column per class or label).
    method : {"trapezoid", "interpolated", "11-point"}, default="trapezoid"
        "trapezoid": straight lines between consecutive points, starting from the
        pseudo-point (recall 0, precision 1) (Wu, "Evaluation", exercise 5(a)).
        "interpolated": all-point interpolated AP, precision at recall r replaced by
        the best precision at any recall >= r (PASCAL VOC 2010 onwards).
        "11-point": mean interpolated precision at recall 0, 0.1, ..., 1 (PASCAL VOC
        2007).
    average : {"macro", "weighted", "micro", "samples"} or None, default="macro"
        Multi-class and multilabel averaging, as in :func:`average_precision_score`
        ("samples" scans each row on its own: slower than the other averages).
    pos_label : int, float, bool or str, default=None
        Binary only: the positive class.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; zero-weight rows are ignored.

    Returns
    -------
    float or ndarray
        The area, or the per-class (per-label) areas for ``average=None``.

    Warns
    -----
    UndefinedMetricWarning
        Without positives the area is undefined: NaN (the labels or rows without
        positives are named).

    Notes
    -----
    With points ``(r_k, p_k)`` per tie group (recall ``TP_k / P``, precision
    ``TP_k / (TP_k + FP_k)``):

    * trapezoid: ``sum_k (r_k - r_{k-1}) (p_k + p_{k-1}) / 2``, ``(r_0, p_0) = (0, 1)``;
    * interpolated: ``sum_k (r_k - r_{k-1}) max_{j >= k} p_j``, ``r_0 = 0``;
    * 11-point: ``mean_{i=0..10} max {p_j : r_j >= i / 10}`` (0 if no such point).

    The step sum of :func:`average_precision_score` is a fourth rule; the four
    generally differ (see the user guide).

    The 11-point rule jumps where a recall crosses a level: with fractional weights a
    recall within 1e-12 (relative) of a level counts as reaching it, since sums of the
    positives' weights round differently in different orders; and positive weights
    whose ratio exceeds 2**40 may reach a level in float64 that they miss exactly
    (``1 + 1e-55`` is 1 in float64).  Integer and unit weights are compared exactly.

    References
    ----------
    M. Everingham et al., "The PASCAL Visual Object Classes (VOC) Challenge",
    IJCV 88 (2010).

    Examples
    --------
    Table 3 of Wu's "Evaluation" chapter (class 1 positive):

    >>> import assay
    >>> labels = [1, 2, 1, 1, 2, 1, 2, 2, 1, 2]
    >>> scores = [1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1]
    >>> round(assay.pr_auc_score(labels, scores, pos_label=1), 6)
    0.690556
    """
    check_option(method, "method", tuple(PR_AUC_SCANS))
    summary = pr_auc_summary(partial(pr_auc_from_sorted, method=method))
    if is_multilabel_target(y_true):
        _refuse_binary_options(pos_label)
        return multilabel_score(y_true, y_score, sample_weight, summary, average, stacklevel=2)
    if np.ndim(y_score) == 2 and np.shape(y_score)[1] > 1:
        _refuse_binary_two_columns(y_true, np.asarray(y_score))
        _refuse_binary_options(pos_label)
        return one_hot_score(y_true, y_score, sample_weight, summary, average, stacklevel=2)
    data = sort_binary(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    return pr_auc_from_sorted(data, method=method, stacklevel=2)


def equal_error_rate(
    y_true: Any,
    y_score: Any,
    *,
    method: str = "interpolate",
    pos_label: Any = None,
    sample_weight: Any = None,
) -> float:
    """Equal error rate: where the false positive rate equals the false negative rate.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary targets.
    y_score : array-like of shape (n_samples,)
        Scores; higher means more positive.
    method : {"interpolate", "nearest"}, default="interpolate"
        "interpolate": the crossing of the ROC curve (drawn with straight segments)
        with the line FPR = FNR. "nearest": the ROC point where |FPR - FNR| is
        smallest (the first such point from the highest threshold), reported as
        (FPR + FNR) / 2.
    pos_label : int, float, bool or str, default=None
        The positive class.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; zero-weight rows are ignored.

    Returns
    -------
    float
        The EER in [0, 1]; lower is better.

    Warns
    -----
    UndefinedMetricWarning
        With a single class the EER is undefined: NaN.

    Notes
    -----
    The EER (or cross-over rate) is the value at which FPR = FNR = 1 - TPR, found
    where the ROC curve meets the anti-diagonal from (0, 1) to (1, 0) ("Estimation of
    the hypothesis real risk", section 5.7.2.1, Figure 5.15). The ROC points used are
    (0, 0) and one point per tie group.

    Examples
    --------
    >>> import assay
    >>> assay.equal_error_rate([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.5
    """
    check_option(method, "method", EER_METHODS)
    data = sort_binary(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    return equal_error_rate_from_sorted(data, method=method, stacklevel=2)

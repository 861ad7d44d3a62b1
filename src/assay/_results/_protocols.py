"""Results of the estimation protocols (cross-validation, .632, bias-variance)."""

from __future__ import annotations

import dataclasses
import types
from typing import Any

import numpy as np

from assay._results import _summary
from assay._results._base import (
    _format_field,
    _optional_float,
    _plain,
    _read_only_float_array,
    _ResultMixin,
)
from assay._results._inference import IntervalResult, TestResult

# --- Result of decompose (bias-variance decomposition of a prediction matrix). ---


def _optional_read_only_array(values: Any) -> np.ndarray | None:
    return None if values is None else _read_only_float_array(values)


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class BiasVarianceResult(_ResultMixin):
    """Bias-variance decomposition of the predictions of many models at the same points.

    Every per-point array has shape ``(n_points,)``; the ``average_*`` fields are their
    means over the points.  The terms are those of Domingos (2000); see
    :func:`assay.decompose` for what is decomposed under each loss.

    Attributes
    ----------
    loss : str
        ``'squared'``, ``'zero_one'`` or ``'absolute'``.
    target : str
        What the bias is measured against: ``'truth'`` (the true function ``F``, or the
        Bayes-optimal label) or ``'y_true'`` (the observed labels).
    main_prediction : numpy.ndarray
        The main prediction at each point: the mean (squared loss), the median
        (absolute loss) or the mode (zero-one loss) over the rounds.
    expected_loss : numpy.ndarray
        The decomposed loss at each point (see :func:`assay.decompose`).
    bias : numpy.ndarray
        ``L(target, main_prediction)``: the squared bias for squared loss, 0 or 1 for
        zero-one loss.
    variance : numpy.ndarray
        ``E_D[L(main_prediction, f)]`` over the rounds (divisor ``n_rounds``).
    noise : numpy.ndarray
        ``E_t[L(t, target)]``: given, estimated from ``y_true``, or 0 (see
        :func:`assay.decompose`).
    net_variance : numpy.ndarray
        The variance's contribution to the loss: ``variance`` (squared loss),
        ``c2 * variance`` (zero-one loss), ``expected_loss - bias`` (absolute loss).
    unbiased_variance, biased_variance : numpy.ndarray or None
        Zero-one loss only: the variance where the main prediction is right
        (``bias == 0``) or wrong (``bias == 1``), 0 elsewhere.
    noise_coefficient, variance_coefficient : numpy.ndarray or None
        Zero-one loss only: Domingos' ``c1`` and ``c2``, so that
        ``expected_loss == noise_coefficient * noise + bias + variance_coefficient * variance``.
    observed_loss : numpy.ndarray or None
        ``E_D[L(y_true, f)]``, the mean loss over the rounds against the observed
        labels (None when ``y_true`` was not given).
    average_expected_loss, average_bias, average_variance, average_noise : float
        Means over the points.
    average_net_variance : float
        Mean of ``net_variance``.
    average_unbiased_variance, average_biased_variance : float or None
        Means of the zero-one variance parts (None for other losses).
    average_observed_loss : float or None
        Mean of ``observed_loss`` (None without ``y_true``).
    n_rounds : int
        Number of rounds (models, rows of the prediction matrix).
    n_points : int
        Number of test points (columns of the prediction matrix).

    Notes
    -----
    Frozen: fields cannot be reassigned and the arrays are read-only.  Results compare
    by identity.

    References
    ----------
    P. Domingos, "A unified bias-variance decomposition and its applications",
    Proceedings of the 17th International Conference on Machine Learning (2000).
    """

    loss: str
    target: str
    main_prediction: np.ndarray
    expected_loss: np.ndarray
    bias: np.ndarray
    variance: np.ndarray
    noise: np.ndarray
    net_variance: np.ndarray
    unbiased_variance: np.ndarray | None
    biased_variance: np.ndarray | None
    noise_coefficient: np.ndarray | None
    variance_coefficient: np.ndarray | None
    observed_loss: np.ndarray | None
    average_expected_loss: float
    average_bias: float
    average_variance: float
    average_noise: float
    average_net_variance: float
    average_unbiased_variance: float | None
    average_biased_variance: float | None
    average_observed_loss: float | None
    n_rounds: int
    n_points: int

    def __post_init__(self) -> None:
        self._normalise(
            floats=(
                "average_expected_loss",
                "average_bias",
                "average_variance",
                "average_noise",
                "average_net_variance",
            ),
            ints=("n_rounds", "n_points"),
            strings=("loss", "target"),
            arrays=(
                "main_prediction",
                "expected_loss",
                "bias",
                "variance",
                "noise",
                "net_variance",
            ),
        )
        for name in (
            "unbiased_variance",
            "biased_variance",
            "noise_coefficient",
            "variance_coefficient",
            "observed_loss",
        ):
            object.__setattr__(self, name, _optional_read_only_array(getattr(self, name)))
        for name in (
            "average_unbiased_variance",
            "average_biased_variance",
            "average_observed_loss",
        ):
            object.__setattr__(self, name, _optional_float(getattr(self, name)))

    def __str__(self) -> str:
        """``Bias-variance decomposition of the squared loss against truth: expected loss
        0.2500, bias 0.1000, variance 0.1200, noise 0.0300 (100 rounds, 50 points)``."""
        return (
            f"Bias-variance decomposition of the {_summary.loss_name(self.loss)} against "
            f"{self.target}: expected loss {_summary.value(self.average_expected_loss)}, "
            f"bias {_summary.value(self.average_bias)}, "
            f"variance {_summary.value(self.average_variance)}, "
            f"noise {_summary.value(self.average_noise)} "
            f"({self.n_rounds} rounds, {self.n_points} points)"
        )


# --- Results of cross-validation (assay.protocols.cross_validate, compare_models). ---


def _read_only_mapping(values: Any, convert: Any) -> types.MappingProxyType[str, Any]:
    return types.MappingProxyType({str(key): convert(value) for key, value in values.items()})


def _read_only_any_array(values: Any, dtype: Any = None) -> np.ndarray:
    array = np.array(values, dtype=dtype, copy=True)
    array.flags.writeable = False
    return array


def _optional_any_array(values: Any) -> np.ndarray | None:
    return None if values is None else _read_only_any_array(values)


def _format_cv_field(value: Any) -> str:
    """Like ``_format_field``, but any array that is not 1-D float is shown by shape."""
    if isinstance(value, np.ndarray) and (value.ndim != 1 or value.dtype.kind not in "iuf"):
        return f"array(shape={value.shape}, dtype={value.dtype})"
    if isinstance(value, types.MappingProxyType) and any(
        isinstance(item, _ResultMixin) for item in value.values()
    ):
        items = ", ".join(
            f"{key!r}: {type(item).__name__}(estimate={item.estimate!r}, "
            f"confidence_interval={_format_field(item.confidence_interval)})"
            for key, item in value.items()
        )
        return "{" + items + "}"
    if isinstance(value, TestResult):
        return f"TestResult(statistic={value.statistic!r}, pvalue={value.pvalue!r}, ...)"
    if isinstance(value, _ResultMixin):
        return f"{type(value).__name__}(...)"
    return _format_field(value)


def _plain_cv(value: Any) -> Any:
    """``_plain``, extended to nested results (their ``to_dict``) inside mappings."""
    if isinstance(value, _ResultMixin):
        return value.to_dict()
    if isinstance(value, types.MappingProxyType | dict):
        return {key: _plain_cv(item) for key, item in value.items()}
    return _plain(value)


class _CrossValidationReprMixin(_ResultMixin):
    """One field per line, with 2-D and label arrays summarised by their shape;
    ``to_dict`` converts the nested results too."""

    def to_dict(self) -> dict[str, Any]:
        """The fields as plain Python data, nested results included (``json.dumps``-ready)."""
        return {
            field.name: _plain_cv(getattr(self, field.name))
            for field in dataclasses.fields(self)  # type: ignore[arg-type]
        }

    _format_value = staticmethod(_format_cv_field)


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class CrossValidationResult(_CrossValidationReprMixin):
    """Per-split scores, their summary, and the pooled out-of-fold predictions.

    Returned by :func:`assay.protocols.cross_validate`.

    Attributes
    ----------
    metrics : tuple of str
        Names of the metrics, in the order asked for.
    scores : mapping of str to numpy.ndarray
        Per metric, the score on every split (in the order of the splits).
    mean : mapping of str to float
        Per metric, the mean over the splits (Wu, "Evaluation", eq. 9).
    std : mapping of str to float
        Per metric, the sample standard deviation over the splits (``ddof=1``).
    interval : mapping of str to IntervalResult
        Per metric, the t interval of the mean (:func:`assay.mean_ci`): it treats the
        splits' scores as independent, which they are not (see
        :func:`~assay.protocols.cross_validate`).  Clipped to the metric's range
        (``details['unclipped_interval']`` when a bound moved).
    corrected_interval : mapping of str to IntervalResult
        Per metric, the same interval with Nadeau & Bengio's variance factor
        ``1 / J + n_test / n_train`` in place of ``1 / J``, clipped likewise.
    confidence_level : float
        Nominal coverage of both intervals.
    n_train, n_test : numpy.ndarray of int64
        Training and test rows of every split.
    fit_time, score_time : numpy.ndarray
        Seconds spent fitting, and predicting plus scoring, on every split.
    oof_pred : numpy.ndarray of shape (n_rounds, n_samples)
        Out-of-fold predictions, pooled per round: row ``r`` holds, for every sample
        tested in round ``r``, the prediction of the model that did not see it.
    oof_score : numpy.ndarray of shape (n_rounds, n_samples) or None
        The same for the continuous scores (decision function or probability of the
        positive class), when they were computed; NaN where ``oof_fold`` is -1.  For
        a multi-class target, shape (n_rounds, n_samples, n_classes): the class
        probabilities, classes in sorted order.
    oof_fold : numpy.ndarray of int64, shape (n_rounds, n_samples)
        The split whose test set holds the sample in that round; -1 where the sample
        was not tested in that round (its ``oof_pred`` entry is then meaningless).
    rng_seed : int or None
        Seed of the splitter that assay made or was given (None when the splits
        carry no seed, e.g. an explicit list of splits or ``KFold`` without shuffling).
    """

    metrics: tuple[str, ...]
    scores: types.MappingProxyType[str, np.ndarray]
    mean: types.MappingProxyType[str, float]
    std: types.MappingProxyType[str, float]
    interval: types.MappingProxyType[str, IntervalResult]
    corrected_interval: types.MappingProxyType[str, IntervalResult]
    confidence_level: float
    n_train: np.ndarray
    n_test: np.ndarray
    fit_time: np.ndarray
    score_time: np.ndarray
    oof_pred: np.ndarray
    oof_score: np.ndarray | None
    oof_fold: np.ndarray
    rng_seed: int | None = None

    def __post_init__(self) -> None:
        self._normalise(floats=("confidence_level",), arrays=("fit_time", "score_time"))
        object.__setattr__(self, "metrics", tuple(str(name) for name in self.metrics))
        object.__setattr__(self, "scores", _read_only_mapping(self.scores, _read_only_float_array))
        object.__setattr__(self, "mean", _read_only_mapping(self.mean, float))
        object.__setattr__(self, "std", _read_only_mapping(self.std, float))
        for name in ("interval", "corrected_interval"):
            object.__setattr__(self, name, _read_only_mapping(getattr(self, name), lambda v: v))
        for name in ("n_train", "n_test", "oof_fold"):
            object.__setattr__(self, name, _read_only_any_array(getattr(self, name), np.int64))
        object.__setattr__(self, "oof_pred", _read_only_any_array(self.oof_pred))
        object.__setattr__(self, "oof_score", _optional_any_array(self.oof_score))

    @property
    def n_splits(self) -> int:
        """Number of splits (train/test pairs) evaluated."""
        return int(self.n_test.shape[0])

    def __str__(self) -> str:
        """``Cross-validation, 10 splits: accuracy 0.8500 [0.8012, 0.8988] (mean, 95%
        corrected t interval)``."""
        scores = ", ".join(
            f"{_summary.metric_name(name)} {_summary.value(self.mean[name])}"
            f"{_summary.interval(self.corrected_interval[name].confidence_interval)}"
            for name in self.metrics
        )
        return (
            f"Cross-validation, {_summary.plural(self.n_splits, 'split')}: {scores} "
            f"(mean, {_summary.level(self.confidence_level)} corrected t interval)"
        )


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class ModelComparisonResult(_CrossValidationReprMixin):
    """Two models scored on the same splits, and the tests of their difference.

    Returned by :func:`assay.protocols.compare_models`.

    Attributes
    ----------
    metric : str
        The metric compared.
    greater_is_better : bool or None
        Whether a larger value of the metric is better (None for a callable metric
        that does not say).
    scores_a, scores_b : numpy.ndarray
        The metric of model A and model B on every split.
    differences : numpy.ndarray
        ``scores_a - scores_b``, split by split.
    paired_ttest : TestResult
        :func:`assay.paired_ttest` on the split scores (it ignores the overlap of the
        training sets; its type-I error is inflated for cross-validation).
    corrected_ttest : TestResult
        :func:`assay.corrected_resampled_ttest` with the mean training and test sizes.
    ttest_5x2cv, ftest_5x2cv : TestResult or None
        Dietterich's 5x2cv t-test and Alpaydin's F-test, when the splits are five
        repeats of 2-fold cross-validation; None otherwise.
    n_train, n_test : numpy.ndarray of int64
        Training and test rows of every split.
    result_a, result_b : CrossValidationResult
        The full cross-validation of each model.
    """

    metric: str
    greater_is_better: bool | None
    scores_a: np.ndarray
    scores_b: np.ndarray
    differences: np.ndarray
    paired_ttest: TestResult
    corrected_ttest: TestResult
    ttest_5x2cv: TestResult | None
    ftest_5x2cv: TestResult | None
    n_train: np.ndarray
    n_test: np.ndarray
    result_a: CrossValidationResult
    result_b: CrossValidationResult

    def __post_init__(self) -> None:
        self._normalise(strings=("metric",), arrays=("scores_a", "scores_b", "differences"))
        for name in ("n_train", "n_test"):
            object.__setattr__(self, name, _read_only_any_array(getattr(self, name), np.int64))

    def __str__(self) -> str:
        """``accuracy, A - B over 10 splits, corrected resampled t-test: t(9) = 1.23,
        p = 0.25; estimate 0.0200 [-0.0167, 0.0567] (95%)``."""
        return (
            f"{_summary.metric_name(self.metric)}, A - B over "
            f"{_summary.plural(self.differences.shape[0], 'split')}, {self.corrected_ttest}"
        )


# --- Result of bootstrap_632 (bootstrap estimators of the prediction error). ---


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class Bootstrap632Result(_ResultMixin):
    """Bootstrap estimate of a model's prediction error: leave-one-out, .632 or .632+.

    Attributes
    ----------
    estimate : float
        The estimate of ``method``.
    method : str
        ``'oob'`` (the leave-one-out bootstrap ``Err^(1)``), ``'.632'`` or ``'.632+'``.
    loss : str
        Name of the loss (``'zero_one'``, ``'squared'``, ``'absolute'`` or the name of a
        callable).
    training_error : float
        ``err``, the resubstitution error of the model fitted on all rows.
    oob_error : float
        ``Err^(1)``: the mean over the rows of each row's mean loss over the resamples
        that left it out (rows never left out are skipped).
    no_information_error : float or None
        ``gamma``, the error expected if labels and predictions were independent
        (``'.632+'`` only, else None).
    relative_overfitting_rate : float or None
        ``R'`` in [0, 1] (``'.632+'`` only, else None).
    weight : float
        The weight ``w`` of ``Err^(1)``: 1 (``'oob'``), 0.632 (``'.632'``),
        ``0.632 / (1 - 0.368 R')`` (``'.632+'``).
    oob_errors : numpy.ndarray of shape (n_resamples,)
        Each resample's mean loss on its out-of-bag rows (NaN for a resample that left
        no row out).  Read-only.
    n_resamples : int
        Number of bootstrap resamples.
    n_samples : int
        Number of rows.
    n_never_oob : int
        Number of rows that no resample left out (skipped by ``Err^(1)``).
    rng_seed : int or None
        The seed the resamples were drawn from.

    Notes
    -----
    Frozen: fields cannot be reassigned and the array is read-only.  Results compare
    by identity.

    References
    ----------
    B. Efron and R. Tibshirani, "Improvements on cross-validation: the .632+ bootstrap
    method", Journal of the American Statistical Association 92, 548-560 (1997).
    """

    estimate: float
    method: str
    loss: str
    training_error: float
    oob_error: float
    no_information_error: float | None
    relative_overfitting_rate: float | None
    weight: float
    oob_errors: np.ndarray
    n_resamples: int
    n_samples: int
    n_never_oob: int
    rng_seed: int | None

    def __post_init__(self) -> None:
        self._normalise(
            floats=("estimate", "training_error", "oob_error", "weight"),
            ints=("n_resamples", "n_samples", "n_never_oob"),
            strings=("method", "loss"),
            arrays=("oob_errors",),
        )
        for name in ("no_information_error", "relative_overfitting_rate"):
            object.__setattr__(self, name, _optional_float(getattr(self, name)))

    def __str__(self) -> str:
        """``.632+ bootstrap estimate of the zero-one loss: 0.1800 (training 0.1000,
        out-of-bag 0.2200; 200 resamples)``."""
        method = "leave-one-out" if self.method == "oob" else self.method
        return (
            f"{method} bootstrap estimate of the {_summary.loss_name(self.loss)}: "
            f"{_summary.value(self.estimate)} (training {_summary.value(self.training_error)}, "
            f"out-of-bag {_summary.value(self.oob_error)}; {self.n_resamples} resamples)"
        )

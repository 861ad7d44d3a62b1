"""``assay selfcheck``: every kernel-backed function against :mod:`assay.reference`.

Each trial draws fresh random inputs of the kinds that break evaluation code (heavy
ties, constant scores, a single class, zero and integer weights, tiny n), calls the
public function and its slow exact twin with the same options, and compares: exactly
for counts of integer weights, to ``RTOL`` otherwise.  A disagreement is printed with
the inputs needed to reproduce it.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np

from assay.metrics._confusion import AVERAGES
from assay.metrics._registry import METRICS, variants_of

# float64 accumulation against an exactly rounded result, over at most a few hundred
# rows: a few ulps; this leaves a wide margin while catching any real mistake.
RTOL = 1e-9
ATOL = 1e-12

Inputs = tuple[tuple[Any, ...], dict[str, Any]]


def _weights(rng: np.random.Generator, n: int) -> np.ndarray | None:
    kind = rng.integers(0, 3)
    if kind == 0:
        return None
    weights = rng.integers(0, 4, n).astype(float) if kind == 1 else rng.random(n) * 3
    if not np.any(weights > 0):
        weights[0] = 1.0
    return weights


def _scores(rng: np.random.Generator, n: int) -> np.ndarray:
    kind = rng.integers(0, 3)
    if kind == 0:
        return np.round(rng.normal(size=n), 1)  # heavy ties
    if kind == 1:
        return np.full(n, 0.5)  # constant
    return rng.normal(size=n)


def _binary_ranking(rng: np.random.Generator, both_classes: bool) -> Inputs:
    n = int(rng.integers(2, 120))
    y = rng.integers(0, 2, n)
    if both_classes:
        y[:2] = (0, 1)
    s = _scores(rng, n)
    w = _weights(rng, n)
    if both_classes and w is not None:
        w[:2] = np.maximum(w[:2], 1.0)
    return (y, s), {"sample_weight": w}


def _two_models(rng: np.random.Generator) -> Inputs:
    """Binary labels and the scores of two models on them (DeLong's covariance)."""
    (y, s), options = _binary_ranking(rng, True)
    other = s + np.round(rng.normal(size=s.shape[0]), int(rng.integers(0, 3)))
    return (y, s, other), options


def _multiclass_ranking(rng: np.random.Generator) -> Inputs:
    k = int(rng.integers(3, 5))
    n = int(rng.integers(k, 60))
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    counts = rng.integers(0, 4, (n, k)).astype(float)
    counts[counts.sum(axis=1) == 0, 0] = 1.0
    proba = counts / counts.sum(axis=1, keepdims=True)
    w = _weights(rng, n)
    if w is not None:
        w[:k] = np.maximum(w[:k], 1.0)
    return (y, proba), {"sample_weight": w}


def _multilabel_ranking(rng: np.random.Generator) -> Inputs:
    """A multilabel indicator (rows with no, some or all relevant labels) and its scores."""
    n = int(rng.integers(1, 30))
    n_labels = int(rng.integers(2, 7))
    y = (rng.random((n, n_labels)) < rng.random()).astype(int)
    s = np.round(rng.normal(size=(n, n_labels)), int(rng.integers(0, 3)))  # ties
    return (y, s), {"sample_weight": _weights(rng, n)}


def _multilabel_labels(rng: np.random.Generator) -> Inputs:
    """Two multilabel indicators (rows and columns may be empty) and weights."""
    n = int(rng.integers(1, 40))
    n_labels = int(rng.integers(2, 6))
    y_true = (rng.random((n, n_labels)) < rng.random()).astype(int)
    flip = rng.random((n, n_labels)) < 0.3
    return (y_true, np.where(flip, 1 - y_true, y_true)), {"sample_weight": _weights(rng, n)}


def _labels(rng: np.random.Generator, binary: bool) -> Inputs:
    n = int(rng.integers(1, 120))
    k = 2 if binary else int(rng.integers(2, 7))
    y_true = rng.integers(0, k, n)
    y_pred = np.where(rng.random(n) < 0.6, y_true, rng.integers(0, k, n))
    return (y_true, y_pred), {"sample_weight": _weights(rng, n)}


def _regression(rng: np.random.Generator) -> Inputs:
    n = int(rng.integers(2, 120))
    y_true = np.round(rng.normal(size=n), 2)
    y_pred = y_true + np.round(rng.normal(scale=0.5, size=n), 2)
    return (y_true, y_pred), {"sample_weight": _weights(rng, n)}


def _forecasts(rng: np.random.Generator) -> Inputs:
    """Binary labels and forecast probabilities: on a coarse grid (ties, bin edges),
    constant, or continuous."""
    n = int(rng.integers(1, 120))
    y = rng.integers(0, 2, n)
    kind = rng.integers(0, 3)
    if kind == 0:
        p = np.round(rng.random(n), 1)
    elif kind == 1:
        p = np.full(n, 0.25)
    else:
        p = rng.random(n)
    return (y, p), {"sample_weight": _weights(rng, n)}


def _class_probabilities(rng: np.random.Generator) -> Inputs:
    (y, proba), options = _multiclass_ranking(rng)
    return (y, proba), {**options, "labels": np.arange(proba.shape[1])}


def _costs(rng: np.random.Generator) -> Inputs:
    (y_true, y_pred), options = _labels(rng, binary=False)
    k = int(max(y_true.max(), y_pred.max())) + 1
    cost = rng.integers(-2, 10, (k, k)).astype(float)
    return (y_true, y_pred, cost), {**options, "labels": np.arange(k)}


def _decisions(rng: np.random.Generator) -> Inputs:
    k = int(rng.integers(2, 5))
    n = int(rng.integers(1, 60))
    proba = rng.dirichlet(np.ones(k), size=n)
    # random float costs: exact ties between decisions have probability zero
    return (proba, rng.normal(size=(k, k))), {}


@dataclass(frozen=True)
class Check:
    """One public function, how to draw its inputs, and the options to vary."""

    name: str
    draw: Callable[[np.random.Generator], Inputs]
    variants: tuple[dict[str, Any], ...] = ({},)


_AVERAGES = tuple({"average": a} for a in (None, "micro", "macro", "weighted"))
_MULTILABEL_AVERAGES = (None, "micro", "macro", "weighted", "samples")
# The one-vs-rest ratios of the registry: the metrics taking exactly the standard
# `average` values (MCC adds 'multiclass', F-beta needs `beta`: checked on their own).
_RATE_METRICS = tuple(
    name
    for name, declaration in METRICS.items()
    if declaration.averages == AVERAGES and "beta" not in declaration.confusion_options
)

CHECKS: tuple[Check, ...] = (
    Check("confusion_matrix_at_thresholds", lambda r: _binary_ranking(r, False)),
    Check("roc_curve", lambda r: _binary_ranking(r, True), ({"drop_intermediate": False},)),
    Check(
        "precision_recall_curve",
        lambda r: _binary_ranking(r, True),
        ({"drop_intermediate": False},),
    ),
    Check("det_curve", lambda r: _binary_ranking(r, True)),
    Check("roc_auc_score", lambda r: _binary_ranking(r, True), ({}, {"max_fpr": 0.3})),
    Check("roc_auc_score", _multiclass_ranking, ({"multi_class": "ovr"}, {"multi_class": "ovo"})),
    Check("average_precision_score", lambda r: _binary_ranking(r, True)),
    Check("delong_covariance", _two_models),
    Check(
        "pr_auc_score",
        lambda r: _binary_ranking(r, True),
        ({"method": "trapezoid"}, {"method": "interpolated"}),
    ),
    Check(
        "equal_error_rate",
        lambda r: _binary_ranking(r, True),
        ({"method": "interpolate"}, {"method": "nearest"}),
    ),
    Check(
        "lift_score",
        lambda r: _binary_ranking(r, False),
        ({"fraction": 0.1}, {"fraction": 0.37}, {"fraction": 1.0}),
    ),
    Check("cumulative_gain_curve", lambda r: _binary_ranking(r, False)),
    *(
        Check(name, _multilabel_ranking)
        for name in (
            "coverage_error",
            "label_ranking_average_precision_score",
            "label_ranking_loss",
        )
    ),
    *(
        Check(name, _multilabel_ranking, tuple({"average": a} for a in _MULTILABEL_AVERAGES))
        for name in ("roc_auc_score", "average_precision_score")
    ),
    Check("confusion_matrix", lambda r: _labels(r, False), ({}, {"normalize": "true"})),
    Check("accuracy_score", lambda r: _labels(r, False)),
    Check("error_rate", lambda r: _labels(r, False)),
    Check("balanced_accuracy_score", lambda r: _labels(r, False)),
    Check("cohen_kappa_score", lambda r: _labels(r, False)),
    Check("matthews_corrcoef", lambda r: _labels(r, False), ({}, *_AVERAGES)),
    *(
        Check(
            name, lambda r: _labels(r, False), tuple({**a, "zero_division": 0} for a in _AVERAGES)
        )
        for name in _RATE_METRICS
    ),
    Check("fbeta_score", lambda r: _labels(r, True), ({"beta": 2.0, "zero_division": 0},)),
    Check("hamming_loss", lambda r: _labels(r, False)),
    Check("hamming_loss", _multilabel_labels),
    Check("zero_one_loss", lambda r: _labels(r, False), ({}, {"normalize": False})),
    Check("zero_one_loss", _multilabel_labels, ({}, {"normalize": False})),
    *(
        Check(
            name,
            _multilabel_labels,
            tuple({"average": a, "zero_division": 0} for a in _MULTILABEL_AVERAGES),
        )
        for name in ("f1_score", "jaccard_score")
    ),
    Check("expected_cost", _costs, ({}, {"normalize": None}, {"normalize": "true"})),
    Check("bayes_decision", _decisions),
    Check("mean_squared_error", _regression),
    Check("root_mean_squared_error", _regression),
    Check("mean_absolute_error", _regression),
    Check("r2_score", _regression),
    Check("log_loss", _forecasts, ({"labels": [0, 1]}, {"labels": [0, 1], "normalize": False})),
    Check("log_loss", _class_probabilities),
    Check("brier_score_loss", _forecasts, ({}, {"scale_by_half": False})),
    Check("brier_score_loss", _class_probabilities),
    *(
        Check(name, _forecasts, ({}, {"strategy": "quantile", "n_bins": 4}, {"n_bins": 3}))
        for name in (
            "calibration_curve",
            "expected_calibration_error",
            "maximum_calibration_error",
        )
    ),
)


def _close(ours: Any, theirs: Any) -> bool:
    if isinstance(theirs, dict):
        return (
            isinstance(ours, dict)
            and ours.keys() == theirs.keys()
            and all(_close(ours[key], theirs[key]) for key in theirs)
        )
    if isinstance(theirs, (tuple, list)):
        if not isinstance(ours, (tuple, list)) and hasattr(ours, "__iter__"):
            ours = tuple(ours)  # a result that unpacks like the reference's tuple
        return len(ours) == len(theirs) and all(
            _close(a, b) for a, b in zip(ours, theirs, strict=True)
        )
    a = np.asarray(ours)
    b = np.asarray(theirs)
    if a.shape != b.shape:
        return False
    if a.dtype.kind in "biuf" and b.dtype.kind in "biuf":
        return bool(np.allclose(a, b, rtol=RTOL, atol=ATOL, equal_nan=True))
    return bool(np.array_equal(a, b))


def _trials(check: Check, n_trials: int, seed: int) -> Iterator[tuple[Inputs, dict[str, Any]]]:
    rng = np.random.default_rng([seed, sum(map(ord, check.name))])
    for trial in range(n_trials):
        yield check.draw(rng), check.variants[trial % len(check.variants)]


def _replicate_checks(n_trials: int, seed: int, out: TextIO | None) -> int:
    """Bootstrap replicates of ranking metrics against the reference on their counts.

    A replicate's counts are traced from its random stream; the reference metric of the
    rows weighted by those counts must equal the kernel's replicate value.
    """
    import assay.reference as reference
    from assay._kernels import resample, streaming
    from assay.resampling._plans import stream_plan

    metrics = variants_of("ranking")
    schemes = (resample.MULTINOMIAL, resample.STRATIFIED, resample.POISSON)
    rng = np.random.default_rng([seed, 7])
    bad = 0
    for trial in range(n_trials):
        (y, s), options = _binary_ranking(rng, True)
        weights = options["sample_weight"]
        name, keywords = metrics[trial % len(metrics)]
        scan_options = METRICS[name].scan_options
        assert scan_options is not None
        scheme = schemes[trial % len(schemes)]
        plan = stream_plan(
            y,
            s,
            pos_label=None,
            sample_weight=weights,
            clusters=None,
            keyed=scheme == resample.POISSON,
        )
        atoms = plan.atoms
        value, counts = streaming.traced_replicate(
            atoms,
            plan.clusters,
            scan_options(**keywords),
            resample.Draw(scheme, np.uint64(seed), trial),
        )
        w = counts * atoms.value if atoms.weighted else counts.astype(float)
        labels = atoms.is_positive.astype(int)
        scores = -np.concatenate([[0], np.cumsum(~atoms.continues[:-1])]).astype(float)
        expected = np.nan  # no row drawn; the reference is NaN where the metric is undefined
        if np.any(w > 0):
            expected = getattr(reference, name)(labels, scores, sample_weight=w, **keywords)
        if not _close(value, expected):
            bad += 1
            if bad <= 3:
                print(
                    f"DISAGREE bootstrap replicate of {name}: assay {value!r}, "
                    f"reference {expected!r}",
                    file=out,
                )
    status = "ok      " if bad == 0 else "FAILED  "
    print(f"{status} bootstrap replicates (ranking): {n_trials - bad}/{n_trials}", file=out)
    return bad


def run_selfcheck(n_trials: int = 200, seed: int = 0, out: TextIO | None = None) -> int:
    """Compare every checked function with its reference twin; return the failure count."""
    import assay
    import assay.reference as reference

    failures = 0
    start = time.perf_counter()
    for check in CHECKS:
        ours_function = getattr(assay, check.name, None)
        theirs_function = getattr(reference, check.name)
        if ours_function is None:
            print(f"MISSING  {check.name}: not in the public API", file=out)
            failures += 1
            continue
        bad = 0
        for (arguments, options), variant in _trials(check, n_trials, seed):
            keywords = {**options, **variant}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # ill-defined cases are expected here
                try:
                    ours = ours_function(*arguments, **keywords)
                    theirs = theirs_function(*arguments, **keywords)
                except Exception as error:  # a crash is a disagreement too
                    ours, theirs = repr(error), "no error"
            if not _close(ours, theirs):
                bad += 1
                if bad <= 3:
                    print(
                        f"DISAGREE {check.name}({keywords}):\n  inputs: {arguments!r}\n"
                        f"  assay: {ours!r}\n  reference: {theirs!r}",
                        file=out,
                    )
        status = "ok      " if bad == 0 else "FAILED  "
        print(f"{status} {check.name} {check.variants}: {n_trials - bad}/{n_trials}", file=out)
        failures += bad
    failures += _replicate_checks(n_trials, seed, out)
    elapsed = time.perf_counter() - start
    verdict = "all agree" if failures == 0 else f"{failures} disagreements"
    print(
        f"\nselfcheck: {len(CHECKS) + 1} checks x {n_trials} trials, {verdict} ({elapsed:.1f} s)",
        file=out,
    )
    return failures

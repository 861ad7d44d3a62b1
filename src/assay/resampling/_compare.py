"""``assay.compare``: does model A beat model B on the same test set? (paired).

Both models are scored on the same rows, so their estimates are correlated; a paired
procedure keeps the pairing.

``method="bootstrap"``
    Both models see the same replicate (the same row counts); the interval comes from
    the replicates of the difference ``metric(A) - metric(B)``, and the p-value inverts
    that interval (:mod:`assay.resampling._interval_pvalues`), so the two never disagree.
``method="permutation"``
    Under the null hypothesis that the two models are exchangeable, each row's two
    values are swapped with probability 1/2: the predictions, or for a ranking metric
    each model's mid-distribution values (its midranks; see
    :mod:`assay.resampling._paired_permutation`); the p-value is the share of such
    replicates whose difference is at least as extreme as the observed one, with
    ``(count + 1) / (B + 1)`` (or exact enumeration of every swap pattern of the rows
    where the two values differ, when there are at most ``n_resamples`` patterns).

Fast paths, from the metric's declaration: ranking metrics of binary scores (both models
sorted once; a permutation replicate walks the two models' sorted midranks together),
confusion-matrix metrics of unweighted labels (the joint (truth, A, B) cells: a bootstrap
replicate is a multinomial draw of the cells, a permutation replicate a binomial split of
every discordant cell with its mirror), and a generic path for everything else
(:mod:`assay.resampling._paired_replicates`).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from assay._procedure_checks import check_alternative, check_confidence_level, check_n_resamples
from assay._results import ComparisonResult, ConfidenceInterval
from assay._validation import check_option
from assay.exceptions import UndefinedMetricWarning
from assay.resampling._interval_pvalues import difference_range, summary_interval_and_pvalue
from assay.resampling._intervals import bootstrap_summary, drop_undefined
from assay.resampling._paired_permutation import (
    differing_rows,
    exact_permutation_differences,
    permutation_values,
)
from assay.resampling._paired_replicates import PairedReplicates, paired_distribution
from assay.resampling._plans import (
    call_metric,
    check_predicted_labels,
    replicate_options,
    scalar,
)
from assay.resampling._pvalues import permutation_pvalue
from assay.resampling._resampling import (
    check_weights_supported,
    resolve_metric_call,
    resolve_seed,
)

__all__ = ["compare", "paired_comparison"]


def compare(
    metric: Any,
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    *,
    method: str = "bootstrap",
    n_resamples: int | None = None,
    confidence_level: float = 0.95,
    alternative: str = "two-sided",
    interval: str = "basic",
    stratify: bool = False,
    groups: Any = None,
    resampling: str = "multinomial",
    sample_weight: Any = None,
    rng: Any = None,
    progress: bool = False,
    **metric_kwargs: Any,
) -> ComparisonResult:
    """Paired comparison of two models on the same test set: is the difference real?

    Parameters
    ----------
    metric : callable or str
        An assay metric or its name (fast paths), or any callable
        ``f(y_true, y_pred, **metric_kwargs)`` returning a number.
    y_true : array-like of shape (n_samples,)
        True targets, shared by both models.
    pred_a, pred_b : array-like
        Predictions or scores of model A and model B, row by row.
    method : {"bootstrap", "permutation"}, default="bootstrap"
        Paired bootstrap (an interval of the difference and the p-value that inverts
        it) or paired permutation test (a p-value; no interval; for a ranking metric it
        swaps each model's midranks, see Notes).
    n_resamples : int, optional
        Replicates: 2000 for the bootstrap, 9999 for the permutation test by default.
    confidence_level : float in (0, 1), default=0.95
        Coverage of the bootstrap interval of the difference.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        The alternative hypothesis about ``metric(A) - metric(B)``.  With a one-sided
        alternative the bootstrap interval is one-sided at ``confidence_level``:
        ``(low, upper end)`` for ``"greater"``, ``(lower end, high)`` for ``"less"``,
        where the ends are those of the range of the difference (``high - low`` of the
        metric's declared range, e.g. 1 for an AUC; infinite for a callable).
    interval : {"basic", "percentile", "bca"}, default="basic"
        Bootstrap interval of the difference, and the one its p-value inverts: basic
        (reverse percentile), percentile, or bias-corrected and accelerated, with the
        jackknife in closed form for ROC AUC (both models' placements) and
        confusion-matrix metrics (one value per joint cell), a delete-a-group
        jackknife over 100 groups of rows otherwise.  The default has the best
        coverage in the simulation of the Notes.
    stratify : bool, default=False
        Bootstrap only: keep the class counts fixed in every replicate.
    groups : array-like of shape (n_samples,), default=None
        Bootstrap only: resample whole clusters of rows.
    resampling : {"multinomial", "poisson"}, default="multinomial"
        Bootstrap only: classical or Poisson bootstrap (unweighted rows keyed by both
        scores and the class: the replicates do not depend on the order of the rows).
    sample_weight : array-like of shape (n_samples,), default=None
        Row weights.
    rng : None, int or numpy.random.Generator, default=None
        Source of the master seed (reported in the result).
    progress : bool, default=False
        Print a progress line on standard error.
    **metric_kwargs
        Options passed to ``metric``.

    Returns
    -------
    ComparisonResult
        ``estimate_a``, ``estimate_b``, ``difference`` (A - B), ``confidence_interval``
        of the difference (NaN for the permutation test), ``pvalue``, ``alternative``,
        ``method``, ``interval`` (the interval method used), ``n_resamples``,
        ``n_undefined``, ``rng_seed`` and the resampled differences.

    Raises
    ------
    ValueError
        Bad options or inputs (see the messages).
    RuntimeError
        A callable ``metric`` raised on a replicate.

    Warns
    -----
    UndefinedMetricWarning
        When the difference was undefined in some replicates (left out and counted in
        ``n_undefined``): where either model's metric is undefined, by the rule of
        :func:`assay.bootstrap` (no positive drawn, a zero denominator, a replicate that
        drew only rows of weight zero), in the same words; when it is undefined in every
        permutation replicate, the p-value is NaN.
    DegenerateDataWarning
        When BCa is undefined on the data (all replicates equal, all on one side of the
        difference, an undefined acceleration): the percentile interval and its p-value
        are reported instead, and ``result.interval`` is ``'percentile'``.

    Notes
    -----
    Bootstrap: both models are evaluated on the same replicate, so the distribution of
    the difference keeps their correlation.  The p-value is the level at which the
    reported interval's bound reaches 0, so that ``pvalue < 1 - confidence_level``
    exactly when the interval excludes 0, at every level.  With ``q`` the type-7
    quantile of the replicates, ``u<=`` the largest level with ``q(u) <= c`` and ``u>=``
    the smallest with ``q(u) >= c``, the one-sided p-values are

    - percentile: ``u<=(0)`` (greater), ``1 - u>=(0)`` (less): the interpolated share
      of replicates on the far side of 0;
    - basic: ``1 - u>=(2 d)`` (greater), ``u<=(2 d)`` (less): the interpolated centred
      test, the share of ``d* - d`` beyond ``d`` (Hall & Wilson 1991);
    - BCa: Efron's (1987) level solved for the tail at which the bound reaches 0,
      ``Phi(y / (1 + a y) - z0)`` with ``y = Phi^-1(u<=(0)) - z0`` (greater), and the
      mirror image with ``u>=(0)`` (less);

    and the two-sided p-value is twice the smaller one (at most 1).  A p-value of 0
    means that every replicate lies on one side of 0: the widest interval the
    replicates support excludes 0 (its resolution is about ``1 / n_resamples``).

    Permutation: each row's two values are exchanged with probability 1/2 (the row's
    weight stays with the row); the p-value is ``(count + 1) / (B + 1)`` (Phipson &
    Smyth 2010), or exact when every swap pattern of the rows whose two values differ
    can be enumerated (at most ``n_resamples`` patterns). The values swapped are:

    - for labels, regression predictions and a callable ``metric``: the predictions
      themselves, which both models give on one scale;
    - for a ranking metric of binary scores (ROC AUC, partial AUC, AP, AUC-PR, EER):
      each model's mid-distribution values over the rows,
      ``F(s) = W(score < s) + W(score = s) / 2`` with ``W`` the total weight (without
      weights: the midranks minus 1/2), computed exactly. Two models' scores live on
      scales of their own (a probability, a logit, a margin); swapped raw, the test
      would depend on them. ``F`` is strictly increasing in each model's scores, so
      every ranking metric and the observed difference are unchanged, and the test
      is the same for any increasing transform of either model's scores. Ties count
      one half, ties between one model's value and the other's included.

    The null hypothesis of the ranking test is that, given the class, each row's two
    values ``(F_A(a), F_B(b))`` are exchangeable, ``F_A`` and ``F_B`` being the models'
    score distributions: the two models rank the rows equally well in every respect,
    which implies identical ROC curves (Venkatraman & Begg 1996; Bandos, Rockette & Gur
    2005 swap each subject's two ranks the same way, with the difference of the AUCs as
    the statistic, as here). It is not the hypothesis of equal AUCs alone: models that
    are not exchangeable (crossing ROC curves, AUCs of different variability) can be
    rejected at equal AUCs; for equal AUCs use ``method="bootstrap"`` or
    :func:`assay.delong_test`. The ranks are estimated
    from the sample, so the level holds approximately: on 1000 null data sets of 300
    rows with the models on different scales, it rejected in 3.5 % to 6.3 % at 5 %
    (swapping raw scores: 0 % to 1.9 %). Per-class (2-D) scores are refused: their rows
    must sum to 1, and no rank scale keeps them so.

    The lecture texts compare two classifiers with McNemar's test on the same idea
    ("Estimation of the hypothesis real risk", "Comparing two hypotheses"; Wu,
    "Evaluation", exercise 10).

    Coverage of the 95 % intervals of the difference (1000 simulated data sets per
    row, B = 1000; Monte Carlo standard error 0.7 points; the designs are in the slow
    test ``tests/inference/test_compare_coverage.py``, which reruns them):

    | data                                  | percentile | basic | BCa   |
    |---------------------------------------|------------|-------|-------|
    | AUC 0.99 vs 0.98, n = 300 (skewed)    | 0.939      | 0.950 | 0.916 |
    | AUC 0.80 vs 0.75, n = 300             | 0.947      | 0.946 | 0.949 |
    | AUC 0.80 vs 0.75, n = 2000            | 0.952      | 0.953 | 0.953 |
    | accuracy 0.85 vs 0.80, n = 300        | 0.942      | 0.948 | 0.937 |

    The basic interval, the default, is within Monte Carlo error of the best in every
    row and the closest to 95 % where the bootstrap distribution is skewed (two AUCs
    near 1), where BCa and, less so, the percentile interval undercover.

    References
    ----------
    B. Efron, "Better bootstrap confidence intervals", JASA 82 (1987).

    P. Hall and S. R. Wilson, "Two guidelines for bootstrap hypothesis testing",
    Biometrics 47 (1991).

    A. C. Davison and D. V. Hinkley, *Bootstrap Methods and their Application* (1997),
    ch. 4-5.

    B. Phipson and G. K. Smyth, "Permutation p-values should never be zero: calculating
    exact p-values when permutations are randomly drawn", Statistical Applications in
    Genetics and Molecular Biology 9 (2010).

    E. S. Venkatraman and C. B. Begg, "A distribution-free procedure for comparing
    receiver operating characteristic curves from a paired experiment", Biometrika 83
    (1996), 835-848.

    A. I. Bandos, H. E. Rockette and D. Gur, "A permutation test sensitive to
    differences in areas for comparing ROC curves from a paired design", Statistics in
    Medicine 24 (2005), 2873-2893.

    Examples
    --------
    >>> import numpy as np
    >>> import assay
    >>> from assay.datasets import binormal_scores
    >>> y_true, strong = binormal_scores(5000, auc=0.85, rng=0)
    >>> weak = strong + np.random.default_rng(1).normal(scale=0.3, size=5000)
    >>> result = assay.compare(assay.roc_auc_score, y_true, strong, weak,
    ...                        n_resamples=500, rng=2)
    >>> bool(result.difference > 0 and result.pvalue < 0.05)
    True
    >>> low, high = result.confidence_interval  # the interval the p-value inverts
    >>> result.interval, bool(low > 0 or high < 0)
    ('basic', True)
    """
    return paired_comparison(
        metric,
        y_true,
        pred_a,
        pred_b,
        method=method,
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        alternative=alternative,
        interval=interval,
        stratify=stratify,
        groups=groups,
        resampling=resampling,
        sample_weight=sample_weight,
        rng=rng,
        progress=progress,
        stacklevel=3,
        **metric_kwargs,
    )[0]


def paired_comparison(
    metric: Any,
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    *,
    method: str = "bootstrap",
    n_resamples: int | None = None,
    confidence_level: float = 0.95,
    alternative: str = "two-sided",
    interval: str = "basic",
    stratify: bool = False,
    groups: Any = None,
    resampling: str = "multinomial",
    sample_weight: Any = None,
    rng: Any = None,
    progress: bool = False,
    stacklevel: int = 2,
    **metric_kwargs: Any,
) -> tuple[ComparisonResult, PairedReplicates | None]:
    """:func:`compare`, and both models' replicates (None for exact enumeration).

    ``assay.report`` takes each model's bootstrap replicates from here instead of
    bootstrapping every model on its own.  ``stacklevel`` of a warning: 2 points at
    the caller of this function.
    """
    declaration, function, name, metric_kwargs = resolve_metric_call(metric, metric_kwargs)
    check_option(method, "method", ("bootstrap", "permutation"))
    permutation = method == "permutation"
    n_resamples = check_n_resamples(
        n_resamples if n_resamples is not None else (9999 if permutation else 2000)
    )
    confidence_level = check_confidence_level(confidence_level)
    alternative = check_alternative(alternative)
    check_option(interval, "interval", ("percentile", "basic", "bca"))
    check_option(resampling, "resampling", ("multinomial", "poisson"))
    if permutation and (stratify or groups is not None or resampling != "multinomial"):
        raise ValueError(
            "`stratify`, `groups` and `resampling` apply to the bootstrap; the paired "
            "permutation test swaps the two models' predictions row by row."
        )
    if stratify and resampling == "poisson":
        raise ValueError(
            "`stratify=True` keeps the class counts fixed, which needs `resampling='multinomial'`."
        )
    if groups is not None and (stratify or resampling == "poisson"):
        raise ValueError(
            "`groups` resamples whole clusters with a multinomial draw; it cannot be "
            "combined with `stratify=True` or `resampling='poisson'`."
        )
    if np.shape(pred_a) != np.shape(pred_b):
        raise ValueError(
            f"`pred_a` and `pred_b` have different shapes: {np.shape(pred_a)} and "
            f"{np.shape(pred_b)}."
        )
    check_weights_supported(function, sample_weight)
    check_predicted_labels(
        declaration, y_true, {"pred_a": pred_a, "pred_b": pred_b}, metric_kwargs
    )
    seed = resolve_seed(rng)
    # unweighted scores with the metric's default options: the paired bootstrap folds
    # both estimates over the sorted atoms (no plain scan compiled for them)
    fold_estimates = (
        not permutation
        and declaration is not None
        and declaration.scan_options is not None
        and sample_weight is None
        and not metric_kwargs
        and np.ndim(y_true) == 1
        and np.ndim(pred_a) == 1
    )

    def estimates() -> tuple[float, float]:
        return (
            scalar(call_metric(function, y_true, pred_a, sample_weight, metric_kwargs), name),
            scalar(call_metric(function, y_true, pred_b, sample_weight, metric_kwargs), name),
        )

    if not fold_estimates:
        estimate_a, estimate_b = estimates()

    replicates: PairedReplicates | None = None
    swapped_a, swapped_b = pred_a, pred_b
    if permutation:
        swapped_a, swapped_b = permutation_values(declaration, pred_a, pred_b, sample_weight)
    differing = differing_rows(swapped_a, swapped_b)
    exact = permutation and 2 ** min(differing.shape[0], 62) <= n_resamples
    if exact:
        options = replicate_options(declaration, function, metric_kwargs)
        differences = exact_permutation_differences(
            function, y_true, swapped_a, swapped_b, sample_weight, options, differing
        )
        n_undefined = int(np.count_nonzero(np.isnan(differences)))
        differences = differences[~np.isnan(differences)]
        n_resamples = differences.shape[0] + n_undefined
    else:
        try:
            replicates = paired_distribution(
                declaration,
                function,
                y_true,
                swapped_a,
                swapped_b,
                permutation=permutation,
                stratify=stratify,
                groups=groups,
                resampling=resampling,
                sample_weight=sample_weight,
                seed=seed,
                n_resamples=n_resamples,
                progress=progress,
                metric_kwargs=metric_kwargs,
                bca=interval == "bca" and not permutation,
                fold_estimates=fold_estimates,
            )
        except Exception:
            if fold_estimates:  # the metric's own error first, as when it is called first
                estimates()
            raise
        if fold_estimates:
            estimate_a, estimate_b = replicates.estimates or estimates()
        differences = replicates.values_a - replicates.values_b
        if permutation:
            differences, n_undefined = drop_undefined(differences)
    difference = estimate_a - estimate_b
    if permutation:
        if n_undefined and not differences.shape[0]:  # as the bootstrap: NaN, a warning
            warnings.warn(
                f"The difference is undefined in every permutation replicate ({n_undefined}); "
                "the p-value is NaN.",
                category=UndefinedMetricWarning,
                stacklevel=stacklevel,
            )
            pvalue = float("nan")
        else:
            if n_undefined:
                warnings.warn(
                    f"The difference was undefined in {n_undefined} of {n_resamples} "
                    "permutation replicates; they are left out.",
                    category=UndefinedMetricWarning,
                    stacklevel=stacklevel,
                )
            pvalue = permutation_pvalue(differences, difference, alternative, exact=exact)
        interval_found = ConfidenceInterval(float("nan"), float("nan"))
    else:
        assert replicates is not None
        result = bootstrap_comparison(
            replicates,
            estimate_a,
            estimate_b,
            interval=interval,
            confidence_level=confidence_level,
            alternative=alternative,
            n_resamples=n_resamples,
            seed=seed,
            name=name,
            declaration=declaration,
            stacklevel=stacklevel + 1,
        )
        return result, replicates
    result = ComparisonResult(
        estimate_a=estimate_a,
        estimate_b=estimate_b,
        difference=difference,
        confidence_interval=interval_found,
        pvalue=float(pvalue),
        alternative=alternative,
        method=method + (" (exact)" if exact else ""),
        interval=None,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        n_undefined=n_undefined,
        rng_seed=None if exact else seed,
        metric=name,
        resampled_differences=differences,
    )
    return result, replicates


def bootstrap_comparison(
    replicates: PairedReplicates,
    estimate_a: float,
    estimate_b: float,
    *,
    interval: str,
    confidence_level: float,
    alternative: str,
    n_resamples: int,
    seed: int,
    name: str,
    declaration: Any,
    stacklevel: int,
) -> ComparisonResult:
    """The paired bootstrap's result from both models' replicates: the interval of the
    difference and the p-value that inverts it (``stacklevel`` of a warning: 2 points at
    the caller of this function)."""
    jackknife = replicates.jackknife
    difference = estimate_a - estimate_b
    summary = bootstrap_summary(
        replicates.values_a - replicates.values_b,
        difference,
        method=interval,
        confidence_level=confidence_level,
        jackknife_values=None if jackknife is None else jackknife[0],
        jackknife_counts=None if jackknife is None else jackknife[1],
        stacklevel=stacklevel + 1,
    )
    interval_found, pvalue = summary_interval_and_pvalue(
        summary,
        difference,
        jackknife,
        confidence_level,
        alternative,
        difference_range(declaration),
    )
    return ComparisonResult(
        estimate_a=estimate_a,
        estimate_b=estimate_b,
        difference=difference,
        confidence_interval=interval_found,
        pvalue=float(pvalue),
        alternative=alternative,
        method="bootstrap",
        interval=summary.method,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        n_undefined=summary.n_undefined,
        rng_seed=seed,
        metric=name,
        resampled_differences=summary.bootstrap_distribution,
    )

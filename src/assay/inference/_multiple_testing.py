"""Multiple-testing corrections: adjusted p-values for a family of hypotheses.

An adjusted p-value is the smallest family-wise level (or false discovery rate) at
which the hypothesis would be rejected by the procedure: reject ``H_i`` at level
``alpha`` exactly when ``adjusted[i] <= alpha``.  The definitions follow R's
``p.adjust`` (R Core Team, ``?p.adjust``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from assay._procedure_checks import check_open_unit
from assay._validation import check_option

__all__ = ["ADJUSTMENT_METHODS", "adjust_pvalues"]

ADJUSTMENT_METHODS = (
    "bonferroni",
    "sidak",
    "holm",
    "holm-sidak",
    "hochberg",
    "hommel",
    "bh",
    "by",
    "tsbh",
)


def _as_pvalues(pvalues: Any) -> np.ndarray:
    """``pvalues`` as a 1-D float64 array of values in [0, 1] or NaN."""
    array = np.asarray(pvalues)
    if array.dtype.kind not in "biuf":
        raise ValueError(f"`pvalues` must be numeric; got dtype {array.dtype}.")
    if array.ndim == 0:
        array = array.reshape(1)
    if array.ndim != 1:
        raise ValueError(f"`pvalues` must be 1-D, got an array of shape {array.shape}.")
    array = np.array(array, dtype=np.float64)
    defined = array[~np.isnan(array)]
    outside = defined[(defined < 0.0) | (defined > 1.0)]
    if outside.shape[0]:
        raise ValueError(
            f"`pvalues` contains {outside.shape[0]} values outside [0, 1] (e.g. "
            f"{outside[0].item()!r}); p-values must be in [0, 1] (NaN marks a missing one)."
        )
    return array


def _hommel(sorted_p: np.ndarray) -> np.ndarray:
    """Hommel's adjusted values of ascending p-values: the closed test of Simes tests.

    The adjusted value of ``p_(i)`` is the largest Simes p-value
    ``min_j k q_(j) / j`` over the subsets of size ``k`` that contain it.  The Simes
    value only grows when a member grows, so for each ``k`` the largest is reached with
    ``p_(i)`` and the ``k - 1`` largest other p-values (Wright 1992): ``min(k p_(i),
    c_k)`` with ``c_k = min_{j=2..k} k p_(m-k+j) / j`` while ``i <= m - k``, and the
    Simes value of the ``k`` largest p-values for the others.
    """
    m = sorted_p.shape[0]
    adjusted = sorted_p.copy()  # k = 1: the hypothesis alone
    for k in range(2, m + 1):
        tail = sorted_p[m - k + 1 :]  # the k - 1 largest p-values, ascending
        c_k = float(np.min(k * tail / np.arange(2, k + 1, dtype=np.float64)))
        largest_k = min(k * float(sorted_p[m - k]), c_k)  # Simes value of the k largest
        worst = np.full(m, largest_k)
        worst[: m - k] = np.minimum(k * sorted_p[: m - k], c_k)
        np.maximum(adjusted, worst, out=adjusted)
    return np.minimum(adjusted, 1.0)


def _step_up(raw: np.ndarray) -> np.ndarray:
    """``min_{j >= i} raw_j``: the step-up adjustment of values in ascending p order."""
    return np.minimum.accumulate(raw[::-1])[::-1]


def adjust_pvalues(pvalues: Any, *, method: str = "holm", alpha: float = 0.05) -> np.ndarray:
    """Adjust p-values for multiple testing (Bonferroni, Sidak, Holm, Hommel, BH, ...).

    Parameters
    ----------
    pvalues : array-like of shape (m,)
        The unadjusted p-values of a family of hypotheses, each in [0, 1].  NaN marks
        a missing p-value: it stays NaN and is not counted in the family size ``m``
        (as in R's ``p.adjust``).  A scalar is treated as a family of one.
    method : {'holm', 'bonferroni', 'sidak', 'holm-sidak', 'hochberg', 'hommel', 'bh', \
'by', 'tsbh'}, default 'holm'
        The procedure.  'bonferroni', 'sidak', 'holm', 'holm-sidak', 'hochberg' and
        'hommel' control the family-wise error rate; 'bh' (Benjamini-Hochberg), 'by'
        (Benjamini-Yekutieli) and 'tsbh' (the two-stage Benjamini-Hochberg procedure)
        control the false discovery rate.
    alpha : float, default 0.05
        The false discovery rate of the first stage of 'tsbh', in (0, 1); the other
        methods do not use it.  The 'tsbh' values hold for this level only: reject
        hypothesis ``i`` at false discovery rate ``alpha`` when ``adjusted[i] <= alpha``.

    Returns
    -------
    numpy.ndarray of shape (m,)
        The adjusted p-values, in the order of the input, each in [0, 1] (NaN where
        the input is NaN).  Reject hypothesis ``i`` at level ``alpha`` when
        ``adjusted[i] <= alpha``.

    Raises
    ------
    ValueError
        If ``pvalues`` is not numeric, not 1-D, or holds a value outside [0, 1]
        (infinities included), if ``method`` is not one of the nine names, or if
        ``alpha`` is not in (0, 1).

    Notes
    -----
    With ``m`` defined p-values sorted as ``p_(1) <= ... <= p_(m)``:

    - Bonferroni: ``min(1, m p_i)``.
    - Sidak: ``1 - (1 - p_i)^m``, the exact family-wise error of ``m`` independent
      tests each run at level ``p_i`` (Šidák 1967).  Gama, "Evaluation of classification
      and regression algorithms", writes the same formula as
      ``alpha_n = 1 - (1 - a)^n`` ("Adjustment for Multiple Tests"); its worked example
      substitutes the confidence 0.95 for ``a`` and prints 0.9975, where the
      family-wise error of two tests at ``a = 0.05`` is ``1 - 0.95^2 = 0.0975``.
    - Holm (1979), step-down: ``max_{j <= i} min(1, (m - j + 1) p_(j))``.
    - Holm-Sidak, step-down with Sidak's bound in place of Bonferroni's:
      ``max_{j <= i} 1 - (1 - p_(j))^(m - j + 1)`` (Holm 1979, section 5; exact for
      independent tests, as Sidak's).
    - Hochberg (1988), step-up: ``min_{j >= i} min(1, (m - j + 1) p_(j))``.
    - Hommel (1988): the closed test of Simes tests, ``max_{I containing i}
      min(1, min_j |I| p_(j:I) / j)`` over every subset ``I`` of the family, with
      ``p_(j:I)`` the ``j``-th smallest p-value in ``I``; computed as Wright (1992)
      describes, in ``O(m^2)`` operations.  It rejects at least what Hochberg's
      procedure rejects.
    - Benjamini-Hochberg (1995), step-up: ``min_{j >= i} min(1, m p_(j) / j)``.
    - Benjamini-Yekutieli (2001): the BH value times ``c(m) = sum_{i=1}^m 1/i``,
      capped at 1 (valid under any dependence).
    - Two-stage Benjamini-Hochberg (Benjamini, Krieger & Yekutieli 2006, the
      variant of ``statsmodels``' 'fdr_tsbh'): the BH procedure at level ``alpha``
      rejects ``r`` hypotheses; when ``0 < r < m``, ``m_0 = m - r`` estimates the
      number of true hypotheses and the BH values are multiplied by ``m_0 / m`` (the BH
      procedure run at level ``alpha m / m_0``); otherwise they are the BH values.

    Tied p-values get equal adjusted values.  The values agree with R's
    ``p.adjust`` (methods "bonferroni", "holm", "hochberg", "hommel", "BH", "BY") and
    with ``statsmodels.stats.multitest.multipletests`` (methods 'bonferroni', 'sidak',
    'holm', 'holm-sidak', 'simes-hochberg', 'hommel', 'fdr_bh', 'fdr_by', and
    'fdr_tsbh' with its default ``maxiter=1``).  Demsar (2006, section 3.2.2)
    recommends Holm's procedure for comparing classifiers with a control.

    References
    ----------
    Z. Šidák, "Rectangular confidence regions for the means of multivariate normal
    distributions", JASA 62 (1967) 626-633.

    S. Holm, "A simple sequentially rejective multiple test procedure",
    Scandinavian Journal of Statistics 6 (1979) 65-70.

    Y. Hochberg, "A sharper Bonferroni procedure for multiple tests of
    significance", Biometrika 75 (1988) 800-802.

    G. Hommel, "A stagewise rejective multiple test procedure based on a modified
    Bonferroni test", Biometrika 75 (1988) 383-386.

    S. P. Wright, "Adjusted p-values for simultaneous inference", Biometrics 48 (1992)
    1005-1013.

    Y. Benjamini and Y. Hochberg, "Controlling the false discovery rate",
    JRSS B 57 (1995) 289-300.

    Y. Benjamini and D. Yekutieli, "The control of the false discovery rate in
    multiple testing under dependency", Annals of Statistics 29 (2001) 1165-1188.

    Y. Benjamini, A. M. Krieger and D. Yekutieli, "Adaptive linear step-up procedures
    that control the false discovery rate", Biometrika 93 (2006) 491-507.

    J. Demsar, "Statistical comparisons of classifiers over multiple data sets",
    JMLR 7 (2006) 1-30.

    Examples
    --------
    >>> from assay import adjust_pvalues
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.005], method="holm").round(4).tolist()
    [0.03, 0.06, 0.06, 0.02]
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.005], method="bh").round(4).tolist()
    [0.02, 0.04, 0.04, 0.02]
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.005], method="hommel").round(4).tolist()
    [0.03, 0.04, 0.04, 0.02]
    """
    check_option(method, "method", ADJUSTMENT_METHODS)
    alpha = check_open_unit(alpha, "alpha")
    values = _as_pvalues(pvalues)
    adjusted = np.full(values.shape, np.nan)
    defined = np.flatnonzero(~np.isnan(values))
    m = defined.shape[0]
    if m == 0:
        return adjusted
    p = values[defined]
    if method == "bonferroni":
        adjusted[defined] = np.minimum(1.0, m * p)
        return adjusted
    if method == "sidak":
        # 1 - (1 - p)^m without cancellation for small p (p = 1 gives log1p(-1) = -inf)
        with np.errstate(divide="ignore"):
            adjusted[defined] = np.minimum(1.0, -np.expm1(m * np.log1p(-p)))
        return adjusted
    order = np.argsort(p, kind="stable")
    sorted_p = p[order]
    position = np.arange(1, m + 1, dtype=np.float64)  # j = 1..m
    remaining = m - position + 1.0  # m - j + 1 hypotheses not yet rejected
    if method == "holm":
        steps = np.maximum.accumulate(np.minimum(1.0, remaining * sorted_p))
    elif method == "holm-sidak":
        with np.errstate(divide="ignore"):
            steps = np.maximum.accumulate(
                np.minimum(1.0, -np.expm1(remaining * np.log1p(-sorted_p)))
            )
    elif method == "hochberg":
        steps = _step_up(np.minimum(1.0, remaining * sorted_p))
    elif method == "hommel":
        steps = _hommel(sorted_p)
    else:  # 'bh', 'by' or 'tsbh'
        factor = float(np.sum(1.0 / position)) if method == "by" else 1.0
        steps = _step_up(np.minimum(1.0, factor * m * sorted_p / position))
        if method == "tsbh":
            rejected = int(np.count_nonzero(steps <= alpha))  # the first stage
            if 0 < rejected < m:
                steps = steps * ((m - rejected) / m)
    result = np.empty(m)
    result[order] = steps
    adjusted[defined] = result
    return adjusted

"""Distribution-free bounds on the risk: Hoeffding's inequality with a union bound.

For a finite class ``H`` of hypotheses and ``N`` test examples drawn independently,

``P(max_{h in H} |R_emp(h) - R(h)| > eps) <= 2 |H| exp(-2 N eps^2)``

("Estimation of the hypothesis real risk", Theorem 6.5.1, where ``|H|`` is written
``dim(H)``).  Setting the right-hand side to ``delta`` gives the ``eps`` that holds with
probability at least ``1 - delta`` (:func:`risk_bound`) and, solved for ``N``, the
test-set size that guarantees a given ``eps`` (:func:`risk_bound_sample_size`).
With ``|H| = 1`` it is Hoeffding's interval of one proportion
(``proportion_ci(..., method='hoeffding')``).
"""

from __future__ import annotations

import math
from typing import Any

from assay._procedure_checks import check_integer, check_open_unit, check_positive

__all__ = ["risk_bound", "risk_bound_sample_size"]


def _log_term(n_hypotheses: Any, delta: Any) -> float:
    """``log(2 |H| / delta)`` after checking both (any size of ``|H|``: Python ints)."""
    hypotheses = check_integer(n_hypotheses, "n_hypotheses", 1)
    delta = check_open_unit(delta, "delta")
    return math.log(2) + math.log(hypotheses) - math.log(delta)


def _epsilon(n: int, log_term: float) -> float:
    return math.sqrt(log_term / (2.0 * n))


def risk_bound(n: Any, *, n_hypotheses: Any = 1, delta: Any = 0.05) -> float:
    """The deviation ``eps`` between empirical and true risk that holds with probability
    ``1 - delta``, uniformly over a finite class of hypotheses.

    Parameters
    ----------
    n : int
        Number of independent test examples, at least 1.
    n_hypotheses : int, default=1
        ``|H|``, the number of hypotheses the bound holds for at once (e.g. the models
        or hyperparameter values compared on the same test set).
    delta : float, default=0.05
        Probability that the bound fails, in (0, 1).

    Returns
    -------
    float
        ``eps = sqrt(log(2 |H| / delta) / (2 n))``: with probability at least
        ``1 - delta``, ``|R_emp(h) - R(h)| <= eps`` for every ``h`` in ``H`` at once.

    Raises
    ------
    ValueError
        ``n`` or ``n_hypotheses`` not an integer >= 1; ``delta`` outside (0, 1).

    Notes
    -----
    Hoeffding's inequality for one hypothesis, ``P(|R_emp - R| > eps) <= 2 exp(-2 N
    eps^2)`` for a loss in [0, 1] (the zero-one loss: an error rate), and the union
    bound over ``|H|`` hypotheses give
    ``P(max_h |R_emp(h) - R(h)| > eps) <= 2 |H| exp(-2 N eps^2)``
    ("Estimation of the hypothesis real risk", "Upper bounding the risk using
    statistical learning theory", Theorem 6.5.1).  Equating the right-hand side to
    ``delta`` and solving for ``eps`` gives the result.  The bound holds for any data
    distribution, so it is wider than the intervals that use the variance (Wilson's):
    see the guide's comparison.  ``eps`` grows only with ``log |H|``: choosing the
    best of many models on one test set costs little in the bound.

    References
    ----------
    W. Hoeffding, "Probability inequalities for sums of bounded random variables",
    JASA 58 (1963).

    Examples
    --------
    >>> import assay
    >>> round(assay.risk_bound(1000), 4)
    0.0429
    >>> round(assay.risk_bound(1000, n_hypotheses=100), 4)
    0.0644
    """
    n = check_integer(n, "n", 1)
    return _epsilon(n, _log_term(n_hypotheses, delta))


def risk_bound_sample_size(epsilon: Any, *, n_hypotheses: Any = 1, delta: Any = 0.05) -> int:
    """The number of test examples for which :func:`risk_bound` is at most ``epsilon``.

    Parameters
    ----------
    epsilon : float
        The deviation to guarantee, positive.
    n_hypotheses : int, default=1
        ``|H|``, the number of hypotheses the bound holds for at once.
    delta : float, default=0.05
        Probability that the bound fails, in (0, 1).

    Returns
    -------
    int
        The smallest ``n`` with ``risk_bound(n, n_hypotheses=..., delta=...) <=
        epsilon``: ``ceil(log(2 |H| / delta) / (2 epsilon^2))``.

    Raises
    ------
    ValueError
        ``epsilon`` not a positive finite number; ``n_hypotheses`` not an integer
        >= 1; ``delta`` outside (0, 1).

    Notes
    -----
    The inverse of :func:`risk_bound` ("Estimation of the hypothesis real risk",
    Theorem 6.5.1, solved for ``N``).  The result is checked against
    :func:`risk_bound` itself, so that the two never disagree by a rounding:
    ``risk_bound(n) <= epsilon < risk_bound(n - 1)``.

    Examples
    --------
    How many test examples make an error rate within 0.01 of the true one with 95 %
    probability, for one model, and for the best of 1000 models?

    >>> import assay
    >>> assay.risk_bound_sample_size(0.01)
    18445
    >>> assay.risk_bound_sample_size(0.01, n_hypotheses=1000)
    52984
    """
    epsilon = check_positive(epsilon, "epsilon")
    log_term = _log_term(n_hypotheses, delta)
    n = max(1, math.ceil(log_term / (2.0 * epsilon * epsilon)))
    while n > 1 and _epsilon(n - 1, log_term) <= epsilon:
        n -= 1
    while _epsilon(n, log_term) > epsilon:
        n += 1
    return n

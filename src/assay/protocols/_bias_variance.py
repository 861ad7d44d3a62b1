"""The bias-variance Monte Carlo: many training sets, one model each, one prediction matrix.

Built-in learners on built-in generators run compiled end to end
(:mod:`assay._kernels.montecarlo`); any fit/predict model or generator callable runs as a
Python loop over rounds.  Either way row ``r`` of the prediction matrix comes from a
training set drawn for round ``r`` alone, and :func:`assay.decompose` splits it.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from assay._kernels import montecarlo
from assay._kernels._jit import jit, n_workers
from assay._kernels._rng import next_below, stream
from assay._procedure_checks import check_integer
from assay._results import BiasVarianceResult
from assay._validation import as_finite_array, check_option, resolve_seed
from assay._warnings import RepeatedWarnings
from assay.protocols._bias_variance_builtins import (
    _BUILT_IN_LEARNERS,
    KNNClassifier,
    KNNRegressor,
    PolynomialExample,
    PolynomialRegression,
    Ridge,
    TwoGaussiansExample,
)
from assay.protocols._decomposition import decompose

__all__ = ["bias_variance"]

_LOSSES = ("squared", "zero_one", "absolute")


# --- kernels specific to the driver ------------------------------------------------------


@jit
def _draw_training_sets(seed, generator, parameters, x, y):
    """Round ``r``'s training set into ``x[r]``, ``y[r]``: the draws of the compiled path."""
    for r in range(x.shape[0]):
        state = stream(seed, np.uint64(r))
        if generator == montecarlo.POLYNOMIAL_DATA:
            montecarlo.draw_polynomial(
                x[r], y[r], parameters[0], parameters[1], parameters[2], state
            )
        else:
            montecarlo.draw_two_gaussians(
                x[r], y[r], parameters[0], parameters[1], parameters[2], parameters[3], state
            )


@jit
def _bootstrap_indices(seed, n, out):
    """Row ``r`` of ``out``: ``out.shape[1]`` indices drawn uniformly from ``0..n-1``."""
    for r in range(out.shape[0]):
        state = stream(seed, np.uint64(r))
        for i in range(out.shape[1]):
            value, state = next_below(n, state)
            out[r, i] = value


# --- the driver ---------------------------------------------------------------------------


def _generator_code(generator: Any) -> tuple[int, np.ndarray]:
    if isinstance(generator, PolynomialExample):
        low, high = generator.x_range
        return montecarlo.POLYNOMIAL_DATA, np.array([low, high, float(generator.noise_sd)])
    first, second = generator.means
    parameters = [first, second, math.sqrt(generator.variance), float(generator.prior)]
    return montecarlo.TWO_GAUSSIANS, np.array(parameters)


def _learner_code(learner: Any) -> tuple[int, int, float, int]:
    """(learner code, degree, alpha, k) for the kernels."""
    if isinstance(learner, PolynomialRegression):
        return montecarlo.LEAST_SQUARES, learner.degree, 0.0, 1
    if isinstance(learner, Ridge):
        return montecarlo.LEAST_SQUARES, learner.degree, float(learner.alpha), 1
    if isinstance(learner, KNNRegressor):
        return montecarlo.KNN_REGRESSION, 0, 0.0, learner.n_neighbors
    return montecarlo.KNN_CLASSIFICATION, 0, 0.0, learner.n_neighbors


def _model_factory(learner: Any) -> Callable[[], Any]:
    """A function returning a fresh, unfitted model for every round."""
    if not isinstance(learner, type) and hasattr(learner, "fit") and hasattr(learner, "predict"):
        return lambda: copy.deepcopy(learner)
    if callable(learner):

        def build() -> Any:
            model = learner()
            if not (hasattr(model, "fit") and hasattr(model, "predict")):
                raise TypeError(
                    "`learner` is a factory, but what it returned has no fit/predict "
                    f"methods: {model!r}."
                )
            return model

        return build
    raise TypeError(
        "`learner` must be a built-in learner (PolynomialRegression, Ridge, KNNRegressor, "
        "KNNClassifier), an object with fit and predict methods, or a zero-argument "
        f"factory returning one; got {learner!r}."
    )


def _as_features(values: Any, name: str) -> np.ndarray:
    array = as_finite_array(values, name, what="features")
    return np.ascontiguousarray(array[:, None] if array.ndim == 1 else array)


def _training_set(result: Any, n_train: int) -> tuple[np.ndarray, np.ndarray]:
    if not (isinstance(result, tuple) and len(result) == 2):
        raise ValueError(
            f"`generator(n, rng)` must return a pair (X, y); got {type(result).__name__}."
        )
    x = _as_features(result[0], "X (from the generator)")
    y = as_finite_array(result[1], "y (from the generator)", what="labels", max_ndim=1)
    if x.shape[0] != y.shape[0] or x.shape[0] != n_train:
        raise ValueError(
            f"`generator(n, rng)` must return n = {n_train} rows of X and of y; got "
            f"{x.shape[0]} and {y.shape[0]}."
        )
    return x, y


def _round_rng(seed: int, r: int) -> np.random.Generator:
    """The numpy Generator of round ``r`` for Python generators: keyed by (seed, r)."""
    return np.random.default_rng([seed, r])


def bias_variance(
    learner: Any,
    generator: Any,
    X_test: Any,
    *,
    y_test: Any = None,
    loss: str = "squared",
    n_rounds: int = 200,
    n_train: int | None = 100,
    rng: Any = None,
    truth: Any = None,
    noise_variance: Any = None,
    X_train: Any = None,
    y_train: Any = None,
    n_jobs: int = 1,
    return_predictions: bool = False,
) -> BiasVarianceResult | tuple[BiasVarianceResult, np.ndarray]:
    """Bias, variance and noise of a learner by Monte Carlo over independent training sets.

    Round ``r`` draws its own training set of ``n_train`` rows from ``generator``, fits
    a fresh model, and predicts the test points into row ``r`` of a (``n_rounds``,
    ``n_test``) prediction matrix, which :func:`assay.decompose` splits into bias,
    variance and noise.

    Parameters
    ----------
    learner : built-in learner, model or factory
        :class:`PolynomialRegression`, :class:`Ridge`, :class:`KNNRegressor` or
        :class:`KNNClassifier` (compiled), or any object with ``fit(X, y)`` and
        ``predict(X)`` (deep-copied unfitted for every round), or a zero-argument
        callable returning such an object.
    generator : built-in generator, callable or None
        :class:`PolynomialExample` or :class:`TwoGaussiansExample` (drawn compiled, from
        the round's counter-based stream), or ``generator(n, rng) -> (X, y)`` called
        with a ``numpy.random.Generator`` seeded by ``[seed, r]`` for round ``r``.
        None: bootstrap ``X_train``, ``y_train`` instead (see Notes).
    X_test : array-like of shape (n_test,) or (n_test, n_features)
        The test points (polynomial learners: one feature).
    y_test : array-like of shape (n_test,), optional
        Observed labels of the test points, passed to :func:`assay.decompose` as
        ``y_true``.
    loss : {'squared', 'zero_one', 'absolute'}, default='squared'
    n_rounds : int, default=200
        Training sets (models), at least 2.
    n_train : int, default=100
        Rows per training set.  With ``generator=None``, None means ``len(y_train)``.
    rng : None, int or numpy.random.Generator
        Seed of the whole experiment; round ``r`` depends on ``(seed, r)`` only.
    truth : array-like of shape (n_test,), optional
        The noise-free target at the test points.  Defaults for built-in generators:
        ``F(X_test)`` for :class:`PolynomialExample` with squared or absolute loss, the
        Bayes label for :class:`TwoGaussiansExample` with zero-one loss.
    noise_variance : float, optional
        ``sigma^2`` (squared loss with ``truth``); defaults to ``noise_sd**2`` for
        :class:`PolynomialExample`.
    X_train, y_train : array-like, optional
        The one training set to bootstrap when ``generator`` is None.
    n_jobs : int, default=1
        Threads for the Python loop over rounds (results do not depend on it); the
        compiled path uses Numba's threads.
    return_predictions : bool, default=False
        Also return the prediction matrix.

    Returns
    -------
    BiasVarianceResult or (BiasVarianceResult, numpy.ndarray)
        The result of :func:`assay.decompose` (and the prediction matrix).

    Raises
    ------
    ValueError
        If ``n_rounds < 2``, ``n_train`` is not a positive integer (or too small for the
        learner), ``loss`` is unknown, ``X_train`` and ``y_train`` differ in length, a
        generator returns the wrong number of rows, or a built-in learner and generator
        do not fit together (a classifier on regression data or the converse, a
        polynomial of several features).
    TypeError
        If ``learner`` is none of the accepted kinds, or ``generator`` is not callable.

    Warns
    -----
    Warning
        A warning of a Python learner in several rounds is shown once, with its class
        and message and ``[in j of J rounds]``.

    Notes
    -----
    The decomposition is eq. 28 of Wu, "Evaluation", section 4.3 (Geman, Bienenstock &
    Doursat 1992), ``E[(y - f)^2] = (F - E f)^2 + E[(f - E f)^2] + sigma^2``, the
    expectations over independent training sets ``D``; other losses follow Domingos
    (2000) (and Gama, "Evaluation of classification and regression algorithms"), see
    :func:`assay.decompose`.

    Built-in learners: polynomials are fitted in the Legendre basis of
    ``t = (2x - low - high) / (high - low)``, with ``[low, high]`` the smallest interval
    holding the generator's ``x_range`` (or every training ``x``) and ``X_test``: by the
    corrected semi-normal equations (Cholesky and one correction step; Björck 1987)
    when the basis is well conditioned (estimated condition number below about 1e4),
    else by Householder QR.  Degree 15 on 100 uniform points agrees with
    ``numpy.polynomial.legendre.legfit`` to about 1e-12 and with ``numpy.polyfit`` to
    about 1e-11, relative to the largest prediction.  Least squares predictions do not
    depend on the interval; the ridge penalty does (it is on the Legendre
    coefficients).  k-NN uses squared Euclidean distance; a tie in distance goes to the
    row drawn first, a tie in votes to the smallest label.  Compiled rounds are
    bit-identical for any number of threads.

    **Bootstrap fallback** (``generator=None``): round ``r`` trains on ``n_train`` rows
    drawn with replacement from the one set ``(X_train, y_train)``.  This measures how
    the learner varies over resamples *of that sample*, not over training sets from the
    population: the variance is that of the bootstrap world (it misses the variation
    between samples and, with repeated rows, is usually smaller), and the bias is
    relative to what the learner does on that sample.  It is what mlxtend's
    ``bias_variance_decomp`` computes; prefer a generator when one exists.

    References
    ----------
    P. Domingos, "A unified bias-variance decomposition and its applications",
    Proceedings of the 17th International Conference on Machine Learning (2000).

    S. Geman, E. Bienenstock and R. Doursat, "Neural networks and the bias/variance
    dilemma", Neural Computation 4, 1-58 (1992).

    Å. Björck, "Stability analysis of the method of seminormal equations for linear
    least squares problems", Linear Algebra and its Applications 88/89, 31-48 (1987).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.protocols import PolynomialExample, PolynomialRegression, bias_variance
    >>> x_test = np.linspace(-1, 1, 5)
    >>> linear = bias_variance(PolynomialRegression(1), PolynomialExample(), x_test, rng=0)
    >>> quadratic = bias_variance(PolynomialRegression(2), PolynomialExample(), x_test, rng=0)
    >>> bool(linear.average_bias > quadratic.average_bias)
    True
    """
    check_option(loss, "loss", _LOSSES)
    n_rounds = check_integer(n_rounds, "n_rounds", 2)
    n_jobs = check_integer(n_jobs, "n_jobs", 1)
    x_test = _as_features(X_test, "X_test")
    built_in = isinstance(learner, _BUILT_IN_LEARNERS)
    factory = None if built_in else _model_factory(learner)
    seed = resolve_seed(rng)
    builtin_generator = isinstance(generator, (PolynomialExample, TwoGaussiansExample))
    if generator is None:
        x_sets, y_sets, n_train = _bootstrap_sets(X_train, y_train, n_train, n_rounds, seed)
    else:
        n_train = check_integer(n_train, "n_train", 1)
        if not (builtin_generator or callable(generator)):
            raise TypeError(
                "`generator` must be PolynomialExample, TwoGaussiansExample, a callable "
                f"generator(n, rng) -> (X, y), or None; got {generator!r}."
            )
        x_sets, y_sets = None, None
    if built_in:
        _check_learner_fits(learner, generator, x_test, n_train)
    if builtin_generator and built_in:
        predictions = _compiled_monte_carlo(learner, generator, x_test, n_rounds, n_train, seed)
    else:
        if x_sets is None:
            x_sets, y_sets = _python_training_sets(generator, n_rounds, n_train, seed)
        assert y_sets is not None
        if built_in:
            predictions = _compiled_rounds(learner, x_sets, y_sets, x_test)
        else:
            assert factory is not None
            predictions = _python_rounds(factory, x_sets, y_sets, x_test, n_jobs)
    if truth is None and builtin_generator:
        if isinstance(generator, PolynomialExample) and loss != "zero_one":
            truth = generator.truth(x_test[:, 0])
            if loss == "squared" and noise_variance is None:
                noise_variance = float(generator.noise_sd) ** 2
        elif isinstance(generator, TwoGaussiansExample) and loss == "zero_one":
            truth = generator.bayes_label(x_test[:, 0])
    if y_test is None and truth is None:
        raise ValueError(
            "`y_test` and `truth` are both None and the generator gives no truth for "
            f"loss={loss!r}; pass the test labels or the noise-free target."
        )
    result = decompose(predictions, y_test, loss=loss, truth=truth, noise_variance=noise_variance)
    return (result, predictions) if return_predictions else result


def _check_learner_fits(learner: Any, generator: Any, x_test: np.ndarray, n_train: int) -> None:
    classifier = isinstance(learner, KNNClassifier)
    if isinstance(generator, PolynomialExample) and classifier:
        raise ValueError("KNNClassifier needs class labels; PolynomialExample gives real targets.")
    if isinstance(generator, TwoGaussiansExample) and not classifier:
        raise ValueError(
            f"{type(learner).__name__} is a regression learner; TwoGaussiansExample gives "
            "class labels (use KNNClassifier)."
        )
    if isinstance(learner, (PolynomialRegression, Ridge)):
        if x_test.shape[1] != 1:
            raise ValueError(
                f"polynomial learners take one feature; `X_test` has {x_test.shape[1]} columns."
            )
        if isinstance(learner, PolynomialRegression) and n_train <= learner.degree:
            raise ValueError(
                f"a polynomial of degree {learner.degree} needs `n_train` > degree; "
                f"got n_train={n_train}."
            )
    if isinstance(learner, (KNNRegressor, KNNClassifier)) and learner.n_neighbors > n_train:
        raise ValueError(
            f"`n_neighbors`={learner.n_neighbors} exceeds the training-set size n_train={n_train}."
        )


def _basis_interval(
    x_sets: np.ndarray | None, x_test: np.ndarray, generator: Any
) -> tuple[float, float]:
    if isinstance(generator, PolynomialExample):
        low, high = generator.x_range
    else:
        assert x_sets is not None
        low, high = float(x_sets[..., 0].min()), float(x_sets[..., 0].max())
    low = min(low, float(x_test[:, 0].min()))
    high = max(high, float(x_test[:, 0].max()))
    if not high > low:
        high = low + 1.0
    return low, high


def _compiled_monte_carlo(
    learner: Any, generator: Any, x_test: np.ndarray, n_rounds: int, n_train: int, seed: int
) -> np.ndarray:
    code, degree, alpha, k = _learner_code(learner)
    generator_code, parameters = _generator_code(generator)
    low, high = (
        _basis_interval(None, x_test, generator)
        if code == montecarlo.LEAST_SQUARES
        else (0.0, 1.0)
    )
    predictions = np.empty((n_rounds, x_test.shape[0]))
    montecarlo.monte_carlo(
        np.uint64(seed), n_train, generator_code, parameters, code, degree, alpha, k, 2,
        low, high, x_test, predictions, n_workers(),
    )  # fmt: skip
    if code == montecarlo.KNN_CLASSIFICATION:
        predictions = np.asarray(generator.labels)[predictions.astype(np.int64)]
    return predictions


def _compiled_rounds(
    learner: Any, x_sets: np.ndarray, y_sets: np.ndarray, x_test: np.ndarray
) -> np.ndarray:
    code, degree, alpha, k = _learner_code(learner)
    if x_sets.shape[2] != x_test.shape[1]:
        raise ValueError(
            f"training sets have {x_sets.shape[2]} features but `X_test` has {x_test.shape[1]}."
        )
    classes = np.empty(0)
    n_classes = 1
    if code == montecarlo.KNN_CLASSIFICATION:
        classes = np.unique(y_sets)
        y_sets = np.searchsorted(classes, y_sets).astype(np.float64)
        n_classes = classes.shape[0]
    low, high = (
        _basis_interval(x_sets, x_test, None) if code == montecarlo.LEAST_SQUARES else (0.0, 1.0)
    )
    predictions = np.empty((x_sets.shape[0], x_test.shape[0]))
    montecarlo.fit_predict_rounds(
        np.ascontiguousarray(x_sets), np.ascontiguousarray(y_sets), code, degree, alpha, k,
        n_classes, low, high, x_test, predictions, n_workers(),
    )  # fmt: skip
    if code == montecarlo.KNN_CLASSIFICATION:
        predictions = classes[predictions.astype(np.int64)]
    return predictions


def _python_training_sets(
    generator: Any, n_rounds: int, n_train: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    if isinstance(generator, (PolynomialExample, TwoGaussiansExample)):
        code, parameters = _generator_code(generator)
        x = np.empty((n_rounds, n_train, 1))
        y = np.empty((n_rounds, n_train))
        _draw_training_sets(np.uint64(seed), code, parameters, x, y)
        if isinstance(generator, TwoGaussiansExample):
            y = np.asarray(generator.labels)[y.astype(np.int64)]
        return x, y
    sets = [
        _training_set(generator(n_train, _round_rng(seed, r)), n_train) for r in range(n_rounds)
    ]
    features = {x.shape[1] for x, _ in sets}
    if len(features) != 1:
        raise ValueError(
            f"`generator` returned training sets of different widths: {sorted(features)}."
        )
    return np.stack([x for x, _ in sets]), np.stack([y for _, y in sets])


def _bootstrap_sets(
    X_train: Any, y_train: Any, n_train: int | None, n_rounds: int, seed: int
) -> tuple[np.ndarray, np.ndarray, int]:
    if X_train is None or y_train is None:
        raise ValueError(
            "`generator` is None: pass `X_train` and `y_train` to bootstrap, or a generator."
        )
    x = _as_features(X_train, "X_train")
    y = as_finite_array(y_train, "y_train", what="labels", max_ndim=1)
    if x.shape[0] != y.shape[0]:
        raise ValueError(
            f"`X_train` and `y_train` have different lengths: {x.shape[0]} and {y.shape[0]}."
        )
    size = x.shape[0] if n_train is None else check_integer(n_train, "n_train", 1)
    indices = np.empty((n_rounds, size), dtype=np.int64)
    _bootstrap_indices(np.uint64(seed), x.shape[0], indices)
    return x[indices], y[indices], size


def _python_rounds(
    factory: Callable[[], Any],
    x_sets: np.ndarray,
    y_sets: np.ndarray,
    x_test: np.ndarray,
    n_jobs: int,
) -> np.ndarray:
    predictions = np.empty((x_sets.shape[0], x_test.shape[0]))

    def run(r: int) -> None:
        model = factory()
        model.fit(x_sets[r], y_sets[r])
        values = np.asarray(model.predict(x_test), dtype=np.float64).reshape(-1)
        if values.shape[0] != x_test.shape[0]:
            raise ValueError(
                f"`predict` returned {values.shape[0]} values for {x_test.shape[0]} test points."
            )
        predictions[r] = values

    # a warning of the learner in every round reaches the user once, counted
    with RepeatedWarnings("rounds") as repeated:
        if n_jobs == 1:
            for r in range(x_sets.shape[0]):
                repeated.call(run, r)
        else:
            with ThreadPoolExecutor(max_workers=n_jobs) as pool:
                list(pool.map(lambda r: repeated.call(run, r), range(x_sets.shape[0])))
    repeated.emit(stacklevel=3)  # frames: _python_rounds, bias_variance, the user
    return predictions

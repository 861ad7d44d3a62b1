"""Estimation protocols: splitters, cross-validation, bootstrap estimators of the error,
hyperparameter selection on held-out data, and the bias-variance decomposition.

How an error rate is estimated (holdout, k-fold, leave-one-out, bootstrap, .632) and
where the error comes from (bias, variance, noise).
"""

from __future__ import annotations

from assay.protocols._bias_variance import bias_variance
from assay.protocols._bias_variance_builtins import (
    KNNClassifier,
    KNNRegressor,
    PolynomialExample,
    PolynomialRegression,
    Ridge,
    TwoGaussiansExample,
)
from assay.protocols._bootstrap_estimators import bootstrap_632
from assay.protocols._cross_validation import cross_validate
from assay.protocols._decomposition import decompose
from assay.protocols._generators import (
    bayes_error_rate,
    polynomial_regression_data,
    polynomial_truth,
    two_gaussians,
)
from assay.protocols._holdout_bootstrap import BootstrapOutOfBag, holdout
from assay.protocols._model_selection import compare_models, one_standard_error_rule
from assay.protocols._nested import nested_cross_validate
from assay.protocols._selection import select_hyperparameter
from assay.protocols._splitters import (
    KFold,
    LeaveOneOut,
    RepeatedKFold,
    RepeatedStratifiedKFold,
    StratifiedKFold,
)

__all__: list[str] = [
    "BootstrapOutOfBag",
    "KFold",
    "KNNClassifier",
    "KNNRegressor",
    "LeaveOneOut",
    "PolynomialExample",
    "PolynomialRegression",
    "RepeatedKFold",
    "RepeatedStratifiedKFold",
    "Ridge",
    "StratifiedKFold",
    "TwoGaussiansExample",
    "bayes_error_rate",
    "bias_variance",
    "bootstrap_632",
    "compare_models",
    "cross_validate",
    "decompose",
    "holdout",
    "nested_cross_validate",
    "one_standard_error_rule",
    "polynomial_regression_data",
    "polynomial_truth",
    "select_hyperparameter",
    "two_gaussians",
]

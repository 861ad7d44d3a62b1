"""The public API: flat, complete, and consistent with the submodules' declarations."""

from __future__ import annotations

import importlib
import inspect

import assay
from assay import metrics

METRIC_MODULES = (
    "_curves",
    "_ranking",
    "_confusion",
    "_classification",
    "_rates",
    "_agreement",
    "_report",
    "_costs",
    "_regression",
)


def test_metrics_package_exports_every_submodule_name() -> None:
    declared = set()
    for name in METRIC_MODULES:
        declared |= set(importlib.import_module(f"assay.metrics.{name}").__all__)
    assert set(metrics.__all__) == declared
    assert len(metrics.__all__) == len(declared)


def test_top_level_exports_every_metric() -> None:
    for name in metrics.__all__:
        assert getattr(assay, name) is getattr(metrics, name)
        assert name in assay.__all__
    for name in assay.__all__:
        assert hasattr(assay, name)


def test_every_public_function_has_a_numpydoc_docstring_with_an_example() -> None:
    for name in metrics.__all__:
        function = getattr(assay, name)
        doc = inspect.getdoc(function) or ""
        for section in ("Parameters", "Returns", "Examples"):
            assert f"{section}\n---" in doc, f"{name} lacks a {section} section"


def test_keyword_only_options() -> None:
    # like scikit-learn: data positionally, every option by keyword
    for name in metrics.__all__:
        parameters = list(inspect.signature(getattr(assay, name)).parameters.values())
        positional = [p for p in parameters if p.kind is p.POSITIONAL_OR_KEYWORD]
        assert len(positional) <= 3, name

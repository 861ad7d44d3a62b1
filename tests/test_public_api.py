"""The public API: flat, complete, and consistent with the submodules' declarations.

"Public" is ``assay.__all__`` and the ``__all__`` of every public subpackage: the API
(``datasets``, ``exceptions``, ``inference``, ``metrics``, ``plot``, ``protocols``,
``reports``) and the slow reference twin ``assay.reference``.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from types import ModuleType
from typing import Any

import pytest

import assay
from assay import metrics

METRIC_MODULES = (
    "_curves",
    "_lift",
    "_ranking",
    "_label_ranking",
    "_confusion",
    "_classification",
    "_rates",
    "_agreement",
    "_report",
    "_set_metrics",
    "_costs",
    "_regression",
    "_thresholds",
    "_baselines",
    "_probabilistic",
    "_calibration",
)
API_SUBPACKAGES: tuple[str, ...] = (
    "datasets",
    "exceptions",
    "inference",
    "metrics",
    "protocols",
    "reports",
)
if importlib.util.find_spec("matplotlib") is not None:  # the optional plotting extra
    API_SUBPACKAGES += ("plot",)
REFERENCE = "reference"
# Whose data may be given positionally or, instead, as a contingency table (``table=``):
# their data parameters have a default (None), the one exception to "no optional
# positional parameter".
DATA_OR_TABLE = {"mcnemar", "cochrans_q"}
MAX_POSITIONAL = 4  # the data: e.g. compare(metric, y_true, pred_a, pred_b)


def _module(name: str) -> ModuleType:
    return importlib.import_module(f"assay.{name}")


def _public(subpackages: tuple[str, ...]) -> list[tuple[str, Any]]:
    """(qualified name, object) of every name exported by ``assay`` and ``subpackages``."""
    found = [(f"assay.{name}", getattr(assay, name)) for name in assay.__all__]
    for package in subpackages:
        module = _module(package)
        found += [(f"assay.{package}.{name}", getattr(module, name)) for name in module.__all__]
    return found


def _functions(subpackages: tuple[str, ...]) -> list[tuple[str, Any]]:
    return [(name, obj) for name, obj in _public(subpackages) if inspect.isfunction(obj)]


def _id(item: Any) -> str:
    return item if isinstance(item, str) else ""


def test_metrics_package_exports_every_submodule_name() -> None:
    declared = set()
    for name in METRIC_MODULES:
        declared |= set(importlib.import_module(f"assay.metrics.{name}").__all__)
    assert set(metrics.__all__) == declared
    assert len(metrics.__all__) == len(declared)


@pytest.mark.parametrize("package", (*API_SUBPACKAGES, REFERENCE))
def test_every_exported_name_exists_once(package: str) -> None:
    module = _module(package)
    assert len(module.__all__) == len(set(module.__all__)) > 0
    for name in module.__all__:
        assert hasattr(module, name), f"assay.{package}.{name}"


def test_top_level_names_are_the_subpackages_objects() -> None:
    assert len(assay.__all__) == len(set(assay.__all__))
    by_name: dict[str, list[Any]] = {}
    for package in API_SUBPACKAGES:
        module = _module(package)
        for name in module.__all__:
            by_name.setdefault(name, []).append(getattr(module, name))
    for name in assay.__all__:
        obj = getattr(assay, name)
        if inspect.ismodule(obj) or name == "__version__":
            continue
        assert name in by_name, f"assay.{name} is exported by no public subpackage"
        assert all(other is obj for other in by_name[name]), f"assay.{name} differs"
    # what the user reaches at the top level of these subpackages, all of it
    for package in ("exceptions", "inference", "metrics"):
        for name in _module(package).__all__:
            assert name in assay.__all__, f"assay.{package}.{name} is not in assay.__all__"


@pytest.mark.parametrize(
    ("name", "function"),
    _functions(API_SUBPACKAGES),
    ids=_id,
)
def test_every_public_function_has_a_numpydoc_docstring_with_an_example(
    name: str, function: Any
) -> None:
    doc = inspect.getdoc(function) or ""
    for section in ("Parameters", "Returns", "Examples"):
        assert f"{section}\n---" in doc, f"{name} lacks a {section} section"


def test_every_public_class_is_documented() -> None:
    for name, obj in _public(API_SUBPACKAGES):
        if not inspect.isclass(obj):
            continue
        doc = inspect.getdoc(obj) or ""
        assert doc.strip(), f"{name} has no docstring"
        if hasattr(obj, "split"):  # a splitter of the protocols
            assert "Examples\n---" in doc, f"{name} lacks an Examples section"


def test_every_reference_function_states_its_definition() -> None:
    # the reference is the tests' twin: its docstrings give the definition it computes
    for name, function in _functions((REFERENCE,)):
        assert len((inspect.getdoc(function) or "").strip()) > 20, name


@pytest.mark.parametrize(
    ("name", "function"),
    _functions((*API_SUBPACKAGES, REFERENCE)),
    ids=_id,
)
def test_keyword_only_options(name: str, function: Any) -> None:
    # like scikit-learn: data positionally, every option by keyword
    parameters = list(inspect.signature(function).parameters.values())
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    assert len(positional) <= MAX_POSITIONAL, name
    if function.__name__ not in DATA_OR_TABLE:
        optional = [p.name for p in positional if p.default is not p.empty]
        assert not optional, f"{name}: options {optional} must be keyword-only"

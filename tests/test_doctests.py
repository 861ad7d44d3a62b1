"""Every example in the package's docstrings runs and prints what it says."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import assay

OPTIONAL = {"assay.plot": "matplotlib"}


def _modules() -> list[str]:
    names = ["assay"]
    for module in pkgutil.walk_packages(assay.__path__, prefix="assay."):
        names.append(module.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    for package, requirement in OPTIONAL.items():
        if name == package or name.startswith(package + "."):
            pytest.importorskip(requirement)
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"

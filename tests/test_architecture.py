"""Rules of the source layout that no other test would notice breaking.

* Every module under ``src/assay`` stays under :data:`MAX_LINES` lines (the house
  style), apart from the exceptions listed with their reason in
  :data:`LONG_MODULE_EXCEPTIONS`; an exception that is no longer needed must go.
* The protocols use the other packages (``assay.metrics``, ``assay.inference``,
  ``assay.resampling``, ...) through their public names only: no ``assay.<package>._x``
  module and no underscored name imported from one.  The one exception is the registry of
  metrics, ``assay.metrics._registry``: it is the shared declaration that every procedure
  reads (ARCHITECTURE rule 8), not a private detail of the metric functions.  The
  top-level private modules (``assay._validation``, ``assay._results``,
  ``assay._kernels``, ...) are the shared core of the library, not another package.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import assay

SOURCE_ROOT = Path(assay.__file__).parent

MAX_LINES = 600
"""Lines of a module (``str.splitlines`` of its text), docstrings and comments included."""

LONG_MODULE_EXCEPTIONS: dict[str, str] = {}
"""Modules allowed over :data:`MAX_LINES`, by path under ``src/assay``, with the reason."""

PROTOCOLS = "assay.protocols"
SHARED_PRIVATE_MODULES = frozenset({"assay.metrics._registry"})
"""Private modules of another package that the protocols may import (see the module
docstring)."""


def _modules() -> list[Path]:
    modules = sorted(SOURCE_ROOT.rglob("*.py"))
    assert modules, f"no modules under {SOURCE_ROOT}"
    return modules


def _line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _relative(path: Path) -> str:
    return path.relative_to(SOURCE_ROOT).as_posix()


def test_every_module_stays_under_the_line_limit() -> None:
    too_long = [
        f"{_relative(path)}: {_line_count(path)} lines"
        for path in _modules()
        if _line_count(path) > MAX_LINES and _relative(path) not in LONG_MODULE_EXCEPTIONS
    ]
    assert not too_long, f"modules over {MAX_LINES} lines (split them by what they do): {too_long}"


def test_each_long_module_exception_is_still_needed() -> None:
    for relative in sorted(LONG_MODULE_EXCEPTIONS):
        path = SOURCE_ROOT / relative
        assert path.exists(), f"{relative} is listed in LONG_MODULE_EXCEPTIONS but does not exist"
        assert _line_count(path) > MAX_LINES, (
            f"{relative} has {_line_count(path)} lines, within the limit of {MAX_LINES}: "
            "remove it from LONG_MODULE_EXCEPTIONS"
        )


def _package_of(module: str) -> str:
    """``assay.<package>`` of a module of assay (``assay.<name>`` for a top-level one)."""
    return ".".join(module.split(".")[:2])


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def foreign_private_imports(source: str, module: str) -> list[str]:
    """Imports in ``source`` (the text of ``module``) of a private module or name of
    another public package of assay, as ``"line: what"``.

    A package is another public one when it is a subpackage ``assay.<name>`` whose name
    has no leading underscore and which is not ``module``'s own package.
    """
    own = _package_of(module)

    def foreign(target: str) -> bool:
        parts = target.split(".")
        return (
            parts[0] == "assay"
            and len(parts) >= 2
            and not _is_private(parts[1])
            and (SOURCE_ROOT / parts[1]).is_dir()
            and _package_of(target) != own
        )

    def private_part(target: str) -> bool:
        return any(_is_private(part) for part in target.split(".")[2:])

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if foreign(alias.name) and private_part(alias.name):
                    if alias.name not in SHARED_PRIVATE_MODULES:
                        found.append(f"{node.lineno}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")[: -node.level]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if not foreign(target):
                continue
            if private_part(target) and target not in SHARED_PRIVATE_MODULES:
                found.append(f"{node.lineno}: from {target} import ...")
                continue
            for alias in node.names:
                name = f"{target}.{alias.name}"
                if _is_private(alias.name) and name not in SHARED_PRIVATE_MODULES:
                    found.append(f"{node.lineno}: from {target} import {alias.name}")
    return found


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from assay.inference._delong import auc_ci", ["1: from assay.inference._delong"]),
        ("import assay.resampling._plans", ["1: import assay.resampling._plans"]),
        ("from assay.inference import _ranks", ["1: from assay.inference import _ranks"]),
        ("from assay.metrics._cell_metrics import f1", ["1: from assay.metrics._cell_metrics"]),
        ("from ..resampling._compare import compare", ["1: from assay.resampling._compare"]),
        ("def f():\n    from assay.metrics import _ranking", ["2: from assay.metrics import"]),
        ("from assay.metrics._registry import METRICS", []),
        ("from assay.metrics import _registry", []),
        ("from assay.inference import mean_ci", []),
        ("from assay._validation import resolve_seed", []),
        ("from assay._kernels._rng import stream", []),
        ("from assay.protocols._splitters import _labels", []),
        ("from ._splitters import _stream", []),
    ],
)
def test_the_private_import_check_sees_what_it_must(source: str, expected: list[str]) -> None:
    found = foreign_private_imports(source, f"{PROTOCOLS}._example")
    assert len(found) == len(expected), found
    for line, prefix in zip(found, expected, strict=True):
        assert line.startswith(prefix), (line, prefix)


def test_protocols_import_no_private_name_of_another_package() -> None:
    sources = sorted((SOURCE_ROOT / "protocols").glob("*.py"))
    assert sources, "no protocols sources found"
    found = [
        f"protocols/{path.name}:{line}"
        for path in sources
        for line in foreign_private_imports(
            path.read_text(encoding="utf-8"), f"{PROTOCOLS}.{path.stem}"
        )
    ]
    assert not found, f"protocols import private names of other packages: {found}"

"""The Python examples of README.md run as written (their printed values are checked in
the modules' own tests; here the code must simply work on a fresh install)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def test_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index: int) -> None:
    exec(compile(BLOCKS[index], f"README.md example {index + 1}", "exec"), {})

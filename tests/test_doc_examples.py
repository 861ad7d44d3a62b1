"""The code examples of README.md and of the documentation run, and print what they say.

See ``tests/doc_examples.py`` for the rules: a comment after an expression states its
value and is checked; a block that states nothing fails unless marked not run.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.doc_examples import (
    VERBATIM,
    check_page,
    listing_problems,
    matches,
    parse_stated_value,
    python_blocks,
)

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
PAGES_WITH_CODE = [page for page in PAGES if python_blocks(page)]


def test_the_pages_with_examples_are_found() -> None:
    names = {page.relative_to(ROOT).as_posix() for page in PAGES_WITH_CODE}
    assert {"README.md", "docs/index.md", "docs/guide/ranking.md"} <= names
    assert len(names) >= 15


@pytest.mark.parametrize("page", PAGES_WITH_CODE, ids=lambda page: page.name)
def test_page_examples(page: Path) -> None:
    report = check_page(page)
    assert not report.problems, "\n".join(report.problems)
    assert report.checked > 0


PAGES_WITH_LISTINGS = [
    page
    for page in PAGES_WITH_CODE
    if any(VERBATIM.match(block.not_run_reason or "") for block in python_blocks(page))
]


def test_the_architecture_page_quotes_the_source() -> None:
    assert ROOT / "docs" / "architecture.md" in PAGES_WITH_LISTINGS


@pytest.mark.parametrize("page", PAGES_WITH_LISTINGS, ids=lambda page: page.name)
def test_listings_are_verbatim(page: Path) -> None:
    problems = listing_problems(page, ROOT)
    assert not problems, "\n".join(problems)


# --- the checker itself --------------------------------------------------------------------


def page(tmp_path: Path, markdown: str) -> Path:
    path = tmp_path / "page.md"
    path.write_text(textwrap.dedent(markdown), encoding="utf-8")
    return path


def test_a_listing_must_quote_consecutive_lines_of_its_file(tmp_path: Path) -> None:
    (tmp_path / "module.py").write_text(
        "def f(x):\n    y = x + 1\n\n    return y\n", encoding="utf-8"
    )
    quoted = page(
        tmp_path,
        """
        <!-- not run: verbatim from `module.py` -->
        ```python
        y = x + 1

        return y
        ```
        """,
    )
    assert listing_problems(quoted, tmp_path) == []  # one common indentation removed
    drifted = page(
        tmp_path,
        """
        <!-- not run: verbatim from `module.py` -->
        ```python
        y = x + 2
        return y
        ```
        """,
    )
    assert listing_problems(drifted, tmp_path) == [
        "page.md:3: the listing is not verbatim from module.py"
    ]


def test_checker_accepts_a_correct_page(tmp_path: Path) -> None:
    report = check_page(
        page(
            tmp_path,
            """
            ```python
            import math
            x = [1.0, 2.0, float("nan")]
            x[0] / 3          # 0.3333...: truncated digits
            round(2 / 3, 4)   # 0.6667 = 2/3 rounded
            x                 # [1.0, 2.0, nan]
            (x[0], "a"), 7    # ((1.0, 'a'), 7)
            math.sqrt(-1)
            # ValueError: math domain ...
            ```

            <!-- not run: a signature, not a call -->
            ```python
            f(a, *, b=None)
            ```

            ```python
            >>> x[1] * 2
            4.0
            ```
            """,
        )
    )
    assert report.problems == []
    assert report.checked == 6


@pytest.mark.parametrize(
    ("code", "problem"),
    [
        ("1 / 3   # 0.334", "computes 0.333"),
        ("[1, 2]  # [1, 2, 3]", "computes [1, 2]"),
        ("1 + 1   # two", "does not start with a value"),
        ("x = 1   # 1", "states no value"),
        ("int('a')", "raised ValueError"),
        ("1 + 1\n# ValueError: nope", "raised nothing"),
        ("import warnings\nwarnings.warn('w', UserWarning) # None", "emits UserWarning"),
        ("1 + 1   # 2, with UserWarning", "not emitted"),
    ],
)
def test_checker_reports(tmp_path: Path, code: str, problem: str) -> None:
    report = check_page(page(tmp_path, f"```python\n{code}\n```\n"))
    assert any(problem in line for line in report.problems), report.problems


def test_a_doctest_block_without_output_fails(tmp_path: Path) -> None:
    report = check_page(page(tmp_path, "```python\n>>> x = 1\n```\n"))
    assert any("no output" in line for line in report.problems)


@pytest.mark.parametrize(
    ("stated", "actual", "expected"),
    [
        ("0.68", 0.68, True),
        ("0.68", 0.6849, True),
        ("0.68", 0.6851, False),
        ("0.7277...", 0.72777, True),
        ("0.7277...", 0.7289, False),
        ("4.75e-10", 4.7512e-10, True),
        ("4.75e-10", 4.76e-10, False),
        ("1.56e-67", 1.5575e-67, True),
        ("2.56e-67", 1.5575e-67, False),  # a tiny value is checked at its own digits
        ("2", 2, True),
        ("2", 2.5, False),
        ("True", True, True),
        ("nan", float("nan"), True),
        ("nan", 0.0, False),
        ("'delong'", "delong", True),
        ("(0.85, 0.86)", (0.8499, 0.8601), True),
        ("0.85, 0.86", (0.8499, 0.8601), True),
        ("[1.0, ...]", [1.0, 2.0, 3.0], True),
        ("array([0, 1, 1])", [0, 1, 1], False),
        ("Point(x=1, ...)", None, False),
    ],
)
def test_stated_values(stated: str, actual: object, expected: bool) -> None:
    assert matches(parse_stated_value(stated), actual) is expected

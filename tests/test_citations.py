"""Citations a reader can resolve: no numbered "source texts", no private file names.

The lecture texts behind assay's definitions are cited by author and title (Wu,
"Evaluation"; Honavar, "Evaluating model performance"; ...) and listed on the
documentation's bibliography page.  Readers do not have the numbered text files the
project was specified from, so a citation such as "source 003", "(004, Bootstrap)" or a
file name of those texts resolves to nothing.  This test scans every text file of the
package, the documentation, the tests, the benchmarks and the README for such forms.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCANNED_FOLDERS = ("src", "docs", "tests", "benchmarks")
SCANNED_FILES = ("README.md", "noxfile.py", "pyproject.toml")
TEXT_SUFFIXES = {".py", ".md", ".yml", ".yaml", ".toml", ".txt", ".cfg", ".js", ".rst"}
# This file states the forbidden forms as examples, so it is the one file not scanned.
THIS_FILE = Path(__file__).resolve()

FORBIDDEN = {
    # "source 003", "Source text 001", "sources 001 and 004", "source_003" in a test name
    "a numbered source text": re.compile(
        r"(?<![a-z])sources?(?:[ _]+texts?)?[ _]+00[0-4](?!\d)", re.I
    ),
    # a lecture text's number on its own: "(004, Bootstrap)", "in 003", "000 (Wu)";
    # numbers such as 1,000, 0.004 or 10_000 are not tokens of their own
    "a lecture text's number": re.compile(r"(?<![\w.,])00[0-4](?![\w])"),
    # the names of the text files and their folder
    "a file name of the lecture texts": re.compile(r"\b00[0-4]_[0-9a-f]{16}\b|shared[/\\]seeds"),
}


def scanned_paths() -> list[Path]:
    paths = [ROOT / name for name in SCANNED_FILES if (ROOT / name).is_file()]
    for folder in SCANNED_FOLDERS:
        paths.extend(
            path
            for path in sorted((ROOT / folder).rglob("*"))
            if path.is_file() and path.suffix in TEXT_SUFFIXES and path != THIS_FILE
        )
    return paths


def offending_lines(text: str) -> list[tuple[int, str, str]]:
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for kind, pattern in FORBIDDEN.items():
            if pattern.search(line):
                found.append((number, kind, line.strip()))
    return found


@pytest.mark.parametrize(
    "line",
    [
        "(source 003, 'Correlation Coefficient')",
        "Source text 001 prints a table",
        "sources 001 and 004",
        "def test_binary_example_of_source_003():",
        'Efron (1979); 004, "Bootstrap".',
        "# 000 (Wu), section 5.3",
        "(Demsar 2006; 004)",
        "polynomial data (../shared/seeds/000, section 4.3)",
        "see 003_f66c94c31bac3c5c.txt",
    ],
)
def test_the_scan_finds_numbered_citations(line: str) -> None:
    assert offending_lines(line)


@pytest.mark.parametrize(
    "line",
    [
        'Wu, "Evaluation", section 5.2',
        "1,000,000 rows and 10_000 resamples, a p-value of 0.004",
        "rng=20261125; (1 - 0.05/2)",
        "the source of the data",
    ],
)
def test_the_scan_accepts_ordinary_text(line: str) -> None:
    assert offending_lines(line) == []


def test_the_scan_covers_the_package_docs_tests_and_readme() -> None:
    paths = {path.relative_to(ROOT).as_posix() for path in scanned_paths()}
    for expected in (
        "README.md",
        "src/assay/__init__.py",
        "docs/bibliography.md",
        "docs/_config/mkdocs.yml",
        "tests/test_doc_examples.py",
    ):
        assert expected in paths


def test_no_numbered_source_citations() -> None:
    problems = [
        f"{path.relative_to(ROOT)}:{number}: {kind}: {line}"
        for path in scanned_paths()
        for number, kind, line in offending_lines(path.read_text(encoding="utf-8"))
    ]
    assert not problems, (
        "Cite the lecture texts by author and title (see docs/bibliography.md), "
        "never by number or file name:\n" + "\n".join(problems)
    )


def test_the_bibliography_names_every_lecture_text() -> None:
    text = " ".join((ROOT / "docs" / "bibliography.md").read_text(encoding="utf-8").split())
    for citation in (
        'J. Wu, "Evaluation"',
        '"Estimation of the hypothesis real risk"',
        '"Classification validation"',
        'V. G. Honavar, "Evaluating model performance"',
        'J. Gama, "Evaluation of classification and regression algorithms"',
    ):
        assert citation in text
    config = (ROOT / "docs" / "_config" / "mkdocs.yml").read_text(encoding="utf-8")
    assert "bibliography.md" in config

"""Run the Python examples of the documentation and check the values they state.

The examples of README.md and of the documentation pages are written for a reader:

```python
y_true = [1, 0, 1, 0]
assay.roc_auc_score(y_true, [0.8, 0.8, 0.4, 0.2])   # 0.625: ties count one half
assay.roc_auc_score(["no", "yes"], [0.1, 0.4])
# ValueError: `y_true` holds labels ['no', 'yes']; pass `pos_label` ...
```

The rules, which :func:`check_page` enforces:

* Every ```python block of a page runs, in order, in one namespace per page.
* An *expression statement* (not an assignment) followed by a comment states its value:
  the comment starts with the value, and anything after it (``: why``, ``= 55/65``,
  ``(note)``) is prose.  The comment is the one at the end of the statement's last line
  or, if there is none, the comment lines right below it.  A comment that does not start
  with a value is an error, so a value cannot be missed by a typo.
* Values: numbers, ``nan``, ``True``/``False``/``None``, quoted strings, ``[...]``,
  ``(...)`` and ``Name(field=value, ...)`` (``Name`` is the type's name, each field an
  attribute), ``array([...])``, and bare ``a, b`` for a tuple.  A number matches when the
  actual value rounds to it at the digits shown; ``0.7277...`` (trailing dots) means
  "these digits, then more" and matches within one unit of the last digit shown.  An
  element ``...`` matches anything (or the rest of a sequence, at its end).
* ``ExceptionName: message`` states that the statement raises; ``...`` in the message
  stands for any text.
* A warning that the statement emits must be named in its comment (``0.5, with
  UndefinedMetricWarning``), and a warning named there must be emitted.
* A block with ``>>>`` prompts is a doctest (ELLIPSIS, NORMALIZE_WHITESPACE) instead.
* Every block states at least one value, unless the line above it is
  ``<!-- not run: <reason> -->``.
* A block not run because it quotes the source, ``<!-- not run: verbatim from `path` -->``
  (``path`` from the repository root), must be a run of consecutive lines of that file, up
  to one common indentation (:func:`listing_problems`), so a listing cannot drift from the
  code it shows.
"""

from __future__ import annotations

import ast
import contextlib
import doctest
import io
import math
import re
import textwrap
import tokenize
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

FENCE = re.compile(
    r"^(?P<indent>[ ]*)```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```", re.S | re.M
)
NOT_RUN = re.compile(r"<!--\s*not run:\s*(?P<reason>\S.*?)\s*-->\s*$")
WARNING_NAME = re.compile(r"\b([A-Z]\w*Warning)\b")


@dataclass
class Block:
    page: str
    line: int  # line of the opening fence
    code: str
    not_run_reason: str | None = None


@dataclass
class Report:
    checked: int = 0
    problems: list[str] = field(default_factory=list)


def python_blocks(path: Path) -> list[Block]:
    """The ```python blocks of a Markdown file, with their not-run marks."""
    text = path.read_text(encoding="utf-8")
    blocks = []
    for match in FENCE.finditer(text):
        if match["lang"] not in ("python", "pycon"):
            continue
        line = text.count("\n", 0, match.start()) + 1
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        reason = NOT_RUN.search(before)
        code = "\n".join(
            row[len(match["indent"]) :] if row.startswith(match["indent"]) else row
            for row in match["body"].splitlines()
        )
        blocks.append(Block(path.name, line, code, reason["reason"] if reason else None))
    return blocks


# --- stated values -----------------------------------------------------------------------


class _Any:
    """The element ``...``: matches anything."""


@dataclass
class _Number:
    value: float
    text: str
    truncated: bool  # written with trailing "..."


@dataclass
class _Sequence:
    items: list[Any]
    kind: str  # "list", "tuple" or "array"


@dataclass
class _Call:
    name: str
    fields: dict[str, Any]
    open_ended: bool


_TOKEN = re.compile(
    r"""\s*(?:
    (?P<number>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?P<dots>\.\.\.)?)
    |(?P<string>'[^']*'|"[^"]*")
    |(?P<ellipsis>\.\.\.)
    |(?P<name>[A-Za-z_]\w*)
    |(?P<punct>[\[\](),=])
    )""",
    re.X,
)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def peek(self) -> re.Match[str] | None:
        return _TOKEN.match(self.text, self.pos)

    def take(self, punct: str) -> bool:
        token = self.peek()
        if token and token["punct"] == punct:
            self.pos = token.end()
            return True
        return False

    def value(self) -> Any:
        token = self.peek()
        if token is None:
            raise ValueError("no value")
        if token["number"]:
            self.pos = token.end()
            text = token["number"].removesuffix("...") if token["dots"] else token["number"]
            return _Number(float(text), text, bool(token["dots"]))
        if token["string"]:
            self.pos = token.end()
            return token["string"][1:-1]
        if token["ellipsis"]:
            self.pos = token.end()
            return _Any()
        if token["punct"] in ("[", "("):
            self.pos = token.end()
            closing = "]" if token["punct"] == "[" else ")"
            items = self.items(closing)
            return _Sequence(items, "list" if closing == "]" else "tuple")
        if token["name"]:
            name = token["name"]
            constants = {"nan": math.nan, "inf": math.inf, "True": True, "False": False}
            after = _TOKEN.match(self.text, token.end())
            if after and after["punct"] == "(":
                self.pos = after.end()
                return self.call(name)
            if name in constants or name == "None":
                self.pos = token.end()
                return None if name == "None" else constants[name]
        raise ValueError("no value")

    def items(self, closing: str) -> list[Any]:
        items: list[Any] = []
        while not self.take(closing):
            items.append(self.value())
            if not self.take(","):
                if not self.take(closing):
                    raise ValueError(f"expected {closing!r}")
                break
        return items

    def call(self, name: str) -> Any:
        if name == "array":
            content = self.value()
            if not isinstance(content, _Sequence):
                raise ValueError("expected array([...])")
            closing = self.text.find(")", self.pos)  # skips a dtype=... argument
            if closing < 0:
                raise ValueError("expected ')'")
            self.pos = closing + 1
            return _Sequence(content.items, "array")
        fields: dict[str, Any] = {}
        open_ended = False
        while not self.take(")"):
            token = self.peek()
            if token and token["ellipsis"]:
                self.pos = token.end()
                open_ended = True
            else:
                key = self._keyword()
                if key is None:
                    raise ValueError("expected field=value")
                fields[key] = self.value()
            if not self.take(","):
                if not self.take(")"):
                    raise ValueError("expected ')'")
                break
        return _Call(name, fields, open_ended)

    def _keyword(self) -> str | None:
        token = self.peek()
        if token and token["name"]:
            after = _TOKEN.match(self.text, token.end())
            if after and after["punct"] == "=":
                self.pos = after.end()
                return token["name"]
        return None


def parse_stated_value(comment: str) -> Any:
    """The value a comment starts with; ``ValueError`` if it starts with prose."""
    parser = _Parser(comment)
    try:
        values = [parser.value()]
    except ValueError:
        raise ValueError(f"the comment {comment!r} does not start with a value") from None
    while True:
        start = parser.pos
        if not parser.take(","):
            break
        try:
            values.append(parser.value())
        except ValueError:
            parser.pos = start
            break
        if parser.pos < len(comment) and comment[parser.pos].isalnum():
            parser.pos = start  # "0.5, with ..." : the word is prose
            values.pop()
            break
    rest = comment[parser.pos :]
    if rest and (rest[0].isalnum() or rest[0] in "_.'\""):
        raise ValueError(f"the comment {comment!r} does not start with a value")
    return values[0] if len(values) == 1 else _Sequence(values, "tuple")


def _tolerance(number: _Number) -> float:
    if not number.truncated and not re.search(r"[.eE]", number.text):  # an integer: exact
        return 1e-12 * max(1.0, abs(number.value))
    mantissa, _, exponent = number.text.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    unit = 10.0 ** (int(exponent or 0) - decimals)
    # relative slack only: an absolute floor would let any tiny stated value match
    return (unit if number.truncated else unit / 2) * (1 + 1e-9)


def matches(expected: Any, actual: Any) -> bool:
    """Whether ``actual`` is the value a comment states."""
    if isinstance(expected, _Any):
        return True
    if isinstance(expected, _Number):
        if isinstance(actual, (bool, np.bool_)) or not isinstance(actual, (int, float, np.number)):
            return False
        return bool(abs(float(actual) - expected.value) <= _tolerance(expected))
    if isinstance(expected, float) and math.isnan(expected):
        return isinstance(actual, (float, np.floating)) and bool(np.isnan(actual))
    if isinstance(expected, float):  # inf
        return bool(actual == expected)
    if expected is None or isinstance(expected, bool):
        return actual is expected or (isinstance(actual, np.bool_) and bool(actual) is expected)
    if isinstance(expected, str):
        return isinstance(actual, str) and actual == expected
    if isinstance(expected, _Sequence):
        if expected.kind == "array" and not isinstance(actual, np.ndarray):
            return False
        if isinstance(actual, np.ndarray):
            actual = actual.tolist()
        if isinstance(actual, (str, bytes, dict)) or not hasattr(actual, "__iter__"):
            return False
        actual = list(actual)
        items = expected.items
        if items and isinstance(items[-1], _Any):
            items = items[:-1]
            actual = actual[: len(items)]
        return len(items) == len(actual) and all(map(matches, items, actual))
    if isinstance(expected, _Call):
        if type(actual).__name__ != expected.name:
            return False
        return all(
            hasattr(actual, key) and matches(value, getattr(actual, key))
            for key, value in expected.fields.items()
        )
    raise TypeError(f"unknown stated value {expected!r}")


# --- running a block ---------------------------------------------------------------------


def _comments(code: str) -> dict[int, str]:
    comments = {}
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.string[1:].strip()
    return comments


def _stated(statement: ast.stmt, lines: list[str], comments: dict[int, str]) -> tuple[str, str]:
    """(the stating comment, all the comment text that belongs to the statement)."""
    own = [comments[n] for n in range(statement.lineno, statement.end_lineno + 1) if n in comments]
    below = []
    number = statement.end_lineno + 1
    while number <= len(lines) and lines[number - 1].strip().startswith("#"):
        below.append(comments[number])
        number += 1
    stated = comments.get(statement.end_lineno) or " ".join(below)
    return stated, " ".join(own + below)


def _exception_matches(stated: str, error: BaseException) -> bool:
    name, _, message = stated.partition(":")
    names = {cls.__name__ for cls in type(error).__mro__}
    if name.strip() not in names:
        return False
    pattern = ".*".join(re.escape(" ".join(part.split())) for part in message.split("..."))
    return re.fullmatch(pattern, " ".join(str(error).split()), flags=re.S) is not None


def _run_statement(statement: ast.stmt, namespace: dict[str, Any], where: str) -> Any:
    if isinstance(statement, ast.Expr):
        code = compile(ast.Expression(statement.value), where, "eval")
        return eval(code, namespace)
    exec(compile(ast.Module([statement], type_ignores=[]), where, "exec"), namespace)
    return None


def run_script_block(block: Block, namespace: dict[str, Any], report: Report) -> None:
    tree = ast.parse(block.code)
    lines = block.code.splitlines()
    comments = _comments(block.code)
    checked_before = report.checked
    for statement in tree.body:
        where = f"{block.page}:{block.line + statement.lineno}"
        stated, commentary = _stated(statement, lines, comments)
        checks_value = isinstance(statement, ast.Expr) and bool(stated)
        raises = checks_value and re.match(r"[A-Z]\w*(Error|Exception)\s*:", stated) is not None
        printed = io.StringIO()
        with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(printed):
            warnings.simplefilter("always")
            try:
                value = _run_statement(statement, namespace, where)
                error = None
            except Exception as exception:  # compared with the stated exception below
                error = exception
        if error is not None:
            if raises and _exception_matches(stated, error):
                report.checked += 1
            else:
                report.problems.append(f"{where}: raised {type(error).__name__}: {error}")
                return
        elif raises:
            report.problems.append(f"{where}: states {stated!r} but raised nothing")
        elif checks_value:
            try:
                expected = parse_stated_value(stated)
            except ValueError as why:
                report.problems.append(f"{where}: {why}")
                continue
            if matches(expected, value):
                report.checked += 1
            else:
                report.problems.append(f"{where}: states {stated!r}, computes {value!r}")
        emitted = {warning.category.__name__ for warning in caught}
        named = set(WARNING_NAME.findall(commentary))
        for name in sorted(emitted - named):
            report.problems.append(f"{where}: emits {name}, which its comment does not name")
        for name in sorted(named - emitted) if checks_value else ():
            report.problems.append(f"{where}: its comment names {name}, which is not emitted")
    if report.checked == checked_before:
        report.problems.append(
            f"{block.page}:{block.line}: the block states no value; state one in a comment or "
            "mark it <!-- not run: reason -->"
        )


def run_doctest_block(block: Block, namespace: dict[str, Any], report: Report) -> None:
    name = f"{block.page}:{block.line}"
    test = doctest.DocTestParser().get_doctest(block.code, namespace, name, block.page, block.line)
    if not any(example.want for example in test.examples):
        report.problems.append(f"{name}: the doctest block shows no output to check")
        return
    output = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = runner.run(test, out=output.write, clear_globs=False)
    namespace.update(test.globs)
    if result.failed:
        report.problems.append(f"{name}: {result.failed} example(s) failed\n{output.getvalue()}")
    report.checked += result.attempted - result.failed


VERBATIM = re.compile(r"^verbatim from `(?P<path>[^`]+)`$")


def _quoted_at(lines: list[str], source: list[str], start: int) -> bool:
    """Whether ``lines`` are ``source[start:]``'s next lines, up to one common indentation."""
    first = source[start]
    indent = first[: len(first) - len(first.lstrip())]
    if start + len(lines) > len(source):
        return False
    return all(
        (line == "" and quoted.strip() == "") or quoted == indent + line
        for line, quoted in zip(lines, source[start : start + len(lines)], strict=True)
    )


def listing_problems(path: Path, root: Path) -> list[str]:
    """The listings of a page that are not verbatim runs of lines of the file they name."""
    problems = []
    for block in python_blocks(path):
        match = VERBATIM.match(block.not_run_reason or "")
        if match is None:
            continue
        source = (root / match["path"]).read_text(encoding="utf-8").splitlines()
        lines = textwrap.dedent(block.code).strip("\n").splitlines()
        if not any(_quoted_at(lines, source, start) for start in range(len(source))):
            problems.append(
                f"{block.page}:{block.line}: the listing is not verbatim from {match['path']}"
            )
    return problems


def check_page(path: Path) -> Report:
    """Run every Python block of a page; the report lists what did not hold."""
    report = Report()
    namespace: dict[str, Any] = {"__name__": "__doc_example__"}
    for block in python_blocks(path):
        if block.not_run_reason:
            continue
        if re.search(r"^\s*>>> ", block.code, flags=re.M):
            run_doctest_block(block, namespace, report)
        else:
            run_script_block(block, namespace, report)
        if report.problems and "raised" in report.problems[-1]:
            break  # later blocks depend on this one
    return report

"""The report rendered as text, Markdown and HTML: every section and number present."""

from __future__ import annotations

from html.parser import HTMLParser

import numpy as np
import pytest

import assay

SEED = 5
N_RESAMPLES = 20


@pytest.fixture(scope="module")
def result():
    rng = np.random.default_rng(2)
    y = (rng.random(200) < 0.3).astype(np.int64)
    data = {"y": y, "good": y + rng.normal(size=200), "poor": y + 3 * rng.normal(size=200)}
    return assay.report(
        data, target="y", scores=["good", "poor"], cost=[0, 1, 5, 0],
        n_resamples=N_RESAMPLES, rng=SEED,
    )  # fmt: skip


def _shown(value: float) -> str:
    return f"{value:.4f}"


def test_text_table_is_aligned_and_complete(result) -> None:
    text = result.to_text()
    for model in result.models:
        assert f"Model {model.name} (prediction: {model.name} >= 0.5)" in text
        for row in model.rows:
            assert row.name in text and _shown(row.estimate) in text
    assert "Paired comparisons (A - B; Holm-adjusted across pairs)" in text
    assert "McNemar" in text and "seed 5" in text
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("metric"))
    rule = lines[header + 1]
    gaps = [i for i, char in enumerate(rule) if char == " "]  # between the dash runs
    assert len(gaps) == 2 * 4  # five columns, two spaces between each
    for line in lines[header : header + 2 + len(result.models[0].rows)]:
        assert len(line) <= len(rule)
        assert all(i >= len(line) or line[i] == " " for i in gaps), line


def test_markdown_tables(result) -> None:
    markdown = result.to_markdown()
    assert markdown.startswith("# assay report\n")
    assert markdown.count("## Model ") == 2 and "## Paired comparisons" in markdown
    table_lines = [line for line in markdown.splitlines() if line.startswith("|")]
    assert all(line.endswith("|") for line in table_lines)
    # every table row has as many cells as its header
    assert "| metric | estimate | interval | interval method | majority baseline |" in markdown


class _Sections(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.sections: list[str] = []
        self.tags: set[str] = set()
        self.cells: list[str] = []
        self._in_cell = False

    def handle_starttag(self, tag, attrs) -> None:
        self.tags.add(tag)
        if tag == "section":
            self.sections.append(dict(attrs)["id"])
        self._in_cell = tag in ("td", "th")

    def handle_data(self, data) -> None:
        if self._in_cell:
            self.cells.append(data)


def test_html_is_self_contained_and_has_every_section(result) -> None:
    page = result.to_html()
    parser = _Sections()
    parser.feed(page)
    assert parser.sections == [
        "overview", "plots", "model-0", "confusion-0", "model-1", "confusion-1", "pairs",
    ]  # fmt: skip
    assert "style" in parser.tags and "script" not in parser.tags
    assert "http" not in page  # nothing fetched from the network
    tn = result.model("good").confusion_matrix[0][0]
    assert f"{int(tn):,}" in parser.cells
    assert _shown(result.model("poor").row("roc_auc").estimate) in parser.cells


def test_html_escapes_names() -> None:
    y = np.array([0, 1] * 20)
    data = {"y": y, "<b>&": y + np.random.default_rng(4).normal(size=40)}
    page = assay.report(data, target="y", scores="<b>&", n_resamples=N_RESAMPLES, rng=1).to_html()
    assert "<b>&" not in page and "&lt;b&gt;&amp;" in page


def test_a_resampled_pvalue_of_zero_is_shown_below_one_over_the_resamples() -> None:
    # two models far apart: no paired bootstrap replicate of the AUC difference reaches 0
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1], 150)
    data = {"y": y, "good": 3 * y + rng.normal(size=300), "poor": rng.normal(size=300)}
    result = assay.report(data, target="y", scores=["good", "poor"], n_resamples=50, rng=SEED)
    row = result.pairs[0].row("roc_auc_bootstrap")
    assert row.pvalue == 0.0  # the value itself is kept (and in JSON)
    assert result.to_dict()["pairs"][0]["tests"][2]["pvalue"] == 0.0
    line = next(x for x in result.to_text().splitlines() if "ROC AUC difference, paired" in x)
    assert line.split()[-4:] == ["<", "0.02", "<", "0.02"]  # 1 / 50, raw and Holm
    delong = next(x for x in result.to_text().splitlines() if "DeLong's test" in x)
    assert "<" not in delong  # an analytic p-value is printed as computed

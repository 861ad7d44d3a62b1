"""The report's curves and the inline SVG of its HTML page, read back from the page."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from dataclasses import replace
from html.parser import HTMLParser

import numpy as np
import pytest

import assay
from assay.reports._svg import Series, curve_chart

SEED = 11
N_RESAMPLES = 20
N_ROWS = 200

PIXEL_TOLERANCE = 0.005 + 1e-9
"""Coordinates are written with two decimals of a pixel: a drawn point is within half a
hundredth of a pixel of the exact one (plus float slack)."""

SECTIONS = {
    "overview": "data",
    "plots": "plots",
    "model-0": "model",
    "confusion-0": "confusion",
    "model-1": "model",
    "confusion-1": "confusion",
    "pairs": "pairs",
}


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(4)
    y = (rng.random(N_ROWS) < 0.3).astype(np.int64)
    return {"y": y, "good": y + rng.normal(size=N_ROWS), "poor": y + 3 * rng.normal(size=N_ROWS)}


@pytest.fixture(scope="module")
def result(data):
    return assay.report(data, target="y", scores=["good", "poor"], n_resamples=N_RESAMPLES,
                        rng=SEED)  # fmt: skip


@pytest.fixture(scope="module")
def page(result):
    return result.to_html()


def _svg(page: str, svg_id: str) -> ElementTree.Element:
    """The inline ``<svg id=...>`` of the page, parsed as XML."""
    match = re.search(rf'<svg id="{svg_id}".*?</svg>', page, flags=re.DOTALL)
    assert match, f"no <svg id={svg_id!r}> in the page"
    return ElementTree.fromstring(match.group(0))


def _points(element: ElementTree.Element) -> np.ndarray:
    pairs = [pair.split(",") for pair in element.attrib["points"].split()]
    return np.array(pairs, dtype=np.float64)


def _to_data(svg: ElementTree.Element, pixels: np.ndarray) -> np.ndarray:
    """Pixels back to the unit square, through the drawn frame (the plotting area)."""
    frame = next(e for e in svg.iter("rect") if e.attrib.get("class") == "frame")
    x, y = float(frame.attrib["x"]), float(frame.attrib["y"])
    width, height = float(frame.attrib["width"]), float(frame.attrib["height"])
    return np.column_stack([(pixels[:, 0] - x) / width, 1.0 - (pixels[:, 1] - y) / height])


def _pixel_tolerance(svg: ElementTree.Element) -> float:
    frame = next(e for e in svg.iter("rect") if e.attrib.get("class") == "frame")
    return PIXEL_TOLERANCE / min(float(frame.attrib["width"]), float(frame.attrib["height"]))


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.sections: dict[str, str] = {}
        self.svgs: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        attributes = dict(attrs)
        if tag == "section":
            self.sections[attributes["id"]] = attributes.get("class", "")
        if tag == "svg":
            self.svgs.append(attributes["id"])


def test_curves_are_the_public_curves_banded_from_the_reports_draw(result, data) -> None:
    # The curves are the data's own (those of the public bands); the bands come from the
    # report's draw (checked against the reference in test_report_draw.py).
    settings = dict(n_resamples=N_RESAMPLES, rng=SEED, kind="simultaneous")
    for model in result.models:
        roc = assay.roc_band(data["y"], data[model.name], grid=np.linspace(0, 1, 101), **settings)
        grid = np.linspace(0.01, 1.0, 100)
        pr = assay.precision_recall_band(data["y"], data[model.name], grid=grid, **settings)
        for band in (roc, pr):
            drawn = model.curve(band.curve)
            assert drawn.kind == "simultaneous" and "unstratified" in drawn.method
            for name in ("grid", "estimate"):
                np.testing.assert_array_equal(getattr(drawn, name), getattr(band, name))
            assert np.all(np.asarray(drawn.lower) <= drawn.estimate)
            assert np.all(np.asarray(drawn.upper) >= drawn.estimate)


def test_curves_are_in_the_json_document(result) -> None:
    document = result.to_dict()
    assert document["schema"] == "assay.report/2"  # the bands' replicates changed
    assert document["notes"] == []
    curves = document["models"][1]["curves"]
    assert [curve["curve"] for curve in curves] == ["roc", "precision_recall"]
    assert set(curves[0]) == {"curve", "kind", "grid", "estimate", "lower", "upper", "method"}
    assert curves[0]["upper"] == list(result.model("poor").curve("roc").upper)


def test_asking_for_an_absent_curve_names_the_curves(result) -> None:
    with pytest.raises(KeyError, match=r"no curve 'det'; the curves are \['roc', 'precision_"):
        result.model("good").curve("det")


def test_every_section_has_its_id_and_class(page) -> None:
    parser = _Ids()
    parser.feed(page)
    assert parser.sections == SECTIONS
    assert parser.svgs == [
        "plot-roc", "plot-precision-recall", "confusion-grid-0", "confusion-grid-1",
    ]  # fmt: skip


def test_the_page_fetches_nothing(page) -> None:
    lowered = page.lower()
    for external in ("http", "src=", "href=", "<script", "<link", "url(", "@import"):
        assert external not in lowered, external


CHARTS = [("plot-roc", "roc"), ("plot-precision-recall", "precision_recall")]


@pytest.mark.parametrize(("svg_id", "curve"), CHARTS)
def test_each_line_is_the_curve_and_lies_in_its_band(result, page, svg_id, curve) -> None:
    svg = _svg(page, svg_id)
    tolerance = _pixel_tolerance(svg)
    groups = [g for g in svg.iter("g") if g.attrib.get("class") == "series"]
    assert len(groups) == len(result.models)
    for group, model in zip(groups, result.models, strict=True):
        drawn = model.curve(curve)
        line = _to_data(svg, _points(group.find("polyline")))
        np.testing.assert_allclose(line[:, 0], drawn.grid, rtol=0, atol=tolerance)
        np.testing.assert_allclose(line[:, 1], drawn.estimate, rtol=0, atol=tolerance)
        band = _to_data(svg, _points(group.find("polygon")))
        n_grid = len(drawn.grid)
        upper, lower = band[:n_grid], band[n_grid:][::-1]
        np.testing.assert_allclose(upper[:, 1], drawn.upper, rtol=0, atol=tolerance)
        np.testing.assert_allclose(lower[:, 1], drawn.lower, rtol=0, atol=tolerance)
        # the estimate line lies inside the band polygon, at every vertex
        np.testing.assert_array_equal(upper[:, 0], line[:, 0])
        assert np.all(lower[:, 1] <= line[:, 1]) and np.all(line[:, 1] <= upper[:, 1])


def test_reference_lines_and_legends(result, page) -> None:
    roc = _svg(page, "plot-roc")
    tolerance = _pixel_tolerance(roc)
    (diagonal,) = [e for e in roc.iter("line") if e.attrib.get("class") == "reference"]
    ends = np.array([[float(diagonal.attrib[k]) for k in (f"x{i}", f"y{i}")] for i in (1, 2)])
    np.testing.assert_allclose(_to_data(roc, ends), [[0, 0], [1, 1]], atol=tolerance)
    texts = [element.text for element in roc.iter("text")]
    row = result.model("good").row("roc_auc")
    low, high = row.interval
    assert f"good: AUC {row.estimate:.4f} [{low:.4f}, {high:.4f}]" in texts
    assert "false positive rate" in texts and "true positive rate" in texts

    pr = _svg(page, "plot-precision-recall")
    (flat,) = [e for e in pr.iter("line") if e.attrib.get("class") == "reference"]
    ends = np.array([[float(flat.attrib[k]) for k in (f"x{i}", f"y{i}")] for i in (1, 2)])
    prevalence = result.data.prevalence
    np.testing.assert_allclose(_to_data(pr, ends), [[0, prevalence], [1, prevalence]],
                               atol=tolerance)  # fmt: skip
    assert f"prevalence {prevalence:.4f} (no skill)" in [e.text for e in pr.iter("text")]


def test_confusion_grid_shows_the_counts_shaded_by_row_share(result, page) -> None:
    for index, model in enumerate(result.models):
        svg = _svg(page, f"confusion-grid-{index}")
        cells = [e for e in svg.iter("rect") if e.attrib.get("class") == "cell"]
        counts = [e.text for e in svg.iter("text") if e.attrib.get("class") == "count"]
        matrix = np.array(model.confusion_matrix)
        assert counts == [f"{int(value):,}" for value in matrix.ravel()]
        for cell in cells:
            row, column = int(cell.attrib["data-row"]), int(cell.attrib["data-column"])
            share = matrix[row, column] / matrix[row].sum()
            assert float(cell.attrib["fill-opacity"]) == pytest.approx(share, abs=5e-4)


def test_weighted_report_has_no_curves_and_says_why(data) -> None:
    weighted = dict(data, w=np.full(N_ROWS, 2.0))
    result = assay.report(weighted, target="y", scores=["good", "poor"], weight="w",
                          n_resamples=N_RESAMPLES, rng=SEED)  # fmt: skip
    note = (
        "The ROC and precision-recall curves are left out: their bands resample single "
        "unweighted rows, and this report has sample weights."
    )
    assert result.notes == (note,) and all(model.curves == () for model in result.models)
    page = result.to_html()
    assert "No curves: see the notes at the end." in page and note in page
    assert note in result.to_text() and '<svg id="plot-roc"' not in page
    grouped = dict(data, g=np.arange(N_ROWS) // 4)
    result = assay.report(grouped, target="y", scores="good", group="g",
                          n_resamples=N_RESAMPLES, rng=SEED)  # fmt: skip
    assert result.notes[0].endswith("this report has groups.")


def test_chart_skips_undefined_points_and_escapes_labels() -> None:
    series = Series("<a & b>", [0.0, 0.5, 1.0], [0.0, float("nan"), 1.0], [0, 0, 0], [1, 1, 1])
    svg = ElementTree.fromstring(
        curve_chart("c", "t", "x", "y", [series], ((0, 0), (1, 1)), "ref")
    )
    line = next(svg.iter("polyline"))
    assert len(_points(line)) == 2  # the NaN point is left out, not drawn at a wrong place
    assert "<a & b>" in [element.text for element in svg.iter("text")]  # escaped, parsed back


def test_a_long_legend_widens_the_chart() -> None:
    short = Series("a", [0.0, 1.0], [0.0, 1.0], [0.0, 0.0], [1.0, 1.0])
    long = replace(short, label="a" * 80 + ": AUC 0.5 [0.4, 0.6]")
    widths = [
        float(ElementTree.fromstring(
            curve_chart("c", "t", "x", "y", [item], ((0, 0), (1, 1)), "ref")
        ).attrib["width"])
        for item in (short, long)
    ]  # fmt: skip
    # a 12-pixel sans-serif character is at least 6 pixels wide: the text fits the width
    assert widths[1] > 6 * len(long.label) > widths[0]


def test_the_caption_names_the_reports_unstratified_draw(result, page) -> None:
    # the bands come from the report's one draw of rows (not from draws within each class)
    plots = page[page.index('<section id="plots"') :]
    text = plots[plots.index('<p class="caption">') : plots.index("</p>")]
    n = result.settings.n_resamples
    assert f"from the report's {n} resamples of the rows (unstratified" in text
    assert "within each class" not in text

"""The documentation build's pictures (docs/_config/pictures.py), made without mkdocs."""

from __future__ import annotations

import importlib.util
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from types import SimpleNamespace

import pytest

HOOK = Path(__file__).resolve().parents[1] / "docs" / "_config" / "pictures.py"


@pytest.fixture
def pictures(monkeypatch):
    monkeypatch.setattr(sys, "path", list(sys.path))  # the hook puts src/ first: undone after
    spec = importlib.util.spec_from_file_location("docs_pictures", HOOK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_report_pictures_are_the_page_and_its_roc_chart_as_an_svg_file(pictures) -> None:
    made = pictures.report_pages()
    assert sorted(made) == ["report-example.html", "report-roc.svg"]
    page = made["report-example.html"].decode("utf-8")
    assert page.startswith("<!DOCTYPE html>") and '<svg id="plot-roc"' in page
    chart = ElementTree.fromstring(made["report-roc.svg"])
    assert chart.tag == "{http://www.w3.org/2000/svg}svg"  # a standalone file needs it
    assert chart.attrib["id"] == "plot-roc"


def test_a_report_without_its_roc_chart_stops_the_build(pictures, monkeypatch) -> None:
    without = SimpleNamespace(to_html=lambda: "<!DOCTYPE html><html></html>")
    monkeypatch.setattr(pictures, "_report", lambda: without)
    with pytest.raises(RuntimeError, match='the HTML report has no <svg id="plot-roc">'):
        pictures.report_pages()

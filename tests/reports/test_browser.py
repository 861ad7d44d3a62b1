"""The HTML report rendered by a real browser: headless Chromium, offline.

Marked ``browser`` (``nox -s browser`` runs only these); skipped, with the reason, where
no ``chromium`` is on the path.  The page is opened from a file with the network off
(no DNS, no background requests), so a page that needed a fetch would render without it.
"""

from __future__ import annotations

import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

import assay

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
WINDOW = (1200, 2400)
TIMEOUT_SECONDS = 120  # a cold start of Chromium on a busy machine takes a few seconds

MIN_GREY_STD = 0.05
"""Standard deviation of the screenshot's grey levels (0 to 1) below which it is blank:
a white page with a few lines of text stays near 0.02; the report's plots and tables give
about 0.1."""

MIN_CURVE_PIXELS = 500
"""Pixels of the first model's colour (the ROC and PR lines and legend) that the plots
must paint: a page whose SVG did not render has none."""

FIRST_COLOUR = np.array([0x00, 0x72, 0xB2]) / 255  # PALETTE[0] of assay.reports._svg
COLOUR_TOLERANCE = 0.06  # anti-aliasing blends the line's edge pixels into the background

SECTIONS = ["overview", "plots", "model-0", "confusion-0", "model-1", "confusion-1", "pairs"]
SVGS = ["plot-roc", "plot-precision-recall", "confusion-grid-0", "confusion-grid-1"]


def _chromium(*arguments: str, profile: Path) -> subprocess.CompletedProcess[str]:
    command = [
        str(CHROMIUM),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        *arguments,
    ]
    return subprocess.run(
        command, capture_output=True, text=True, timeout=TIMEOUT_SECONDS, check=True
    )


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.sections: list[str] = []
        self.svgs: list[str] = []
        self.polylines = 0

    def handle_starttag(self, tag, attrs) -> None:
        attributes = dict(attrs)
        if tag == "section":
            self.sections.append(attributes["id"])
        elif tag == "svg":
            self.svgs.append(attributes["id"])
        elif tag == "polyline":
            self.polylines += 1


@pytest.fixture(scope="module")
def page_file(tmp_path_factory) -> Path:
    rng = np.random.default_rng(6)
    y = (rng.random(400) < 0.3).astype(np.int64)
    data = {"y": y, "good": y + rng.normal(size=400), "poor": y + 3 * rng.normal(size=400)}
    result = assay.report(data, target="y", scores=["good", "poor"], n_resamples=50, rng=3)
    path = tmp_path_factory.mktemp("report") / "report.html"
    path.write_text(result.to_html(), encoding="utf-8")
    return path


@pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium on the path (Debian: apt install chromium)"
)
def test_the_browser_renders_every_section_and_the_plots(page_file, tmp_path) -> None:
    import matplotlib.image

    screenshot = tmp_path / "report.png"
    _chromium(
        f"--screenshot={screenshot}",
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
        page_file.as_uri(),
        profile=tmp_path / "profile-screenshot",
    )
    pixels = matplotlib.image.imread(screenshot)[:, :, :3]
    assert pixels.shape[:2] == (WINDOW[1], WINDOW[0])
    assert pixels.mean(axis=2).std() > MIN_GREY_STD
    near_first = np.abs(pixels - FIRST_COLOUR).max(axis=2) < COLOUR_TOLERANCE
    assert near_first.sum() > MIN_CURVE_PIXELS

    dom = _chromium("--dump-dom", page_file.as_uri(), profile=tmp_path / "profile-dom").stdout
    elements = _Elements()
    elements.feed(dom)
    assert elements.sections == SECTIONS
    assert elements.svgs == SVGS
    assert elements.polylines == 4  # two models on each of the two charts

"""mkdocs hook: the guides' pictures, drawn by assay's code at every build.

No picture is committed: each one is made here, from small data, by the code of this
checkout, and added to the site as a generated file (so ``mkdocs build --strict`` checks
the links to it).  The pictures, under ``guide/pictures/``:

* ``roc-band.svg`` (guide/plots.md): two ROC curves with simultaneous bands;
* ``critical-difference.svg`` (guide/rank.md): the critical difference diagram of the
  guide's example (Demsar 2006, Table 6);
* ``report-example.html`` and ``report-roc.svg`` (guide/report.md): the HTML report of
  the guide's example and its ROC chart.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files

SOURCE = Path(__file__).resolve().parents[2] / "src"
FOLDER = "guide/pictures"
SVG_NAMESPACE = 'xmlns="http://www.w3.org/2000/svg"'


def _assay() -> ModuleType:
    """This checkout's assay (not another installed copy), with matplotlib drawing to files."""
    if str(SOURCE) not in sys.path:
        sys.path.insert(0, str(SOURCE))
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "assay"  # the same ids at every build
    import assay

    return assay


def _svg(figure: Any) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    return buffer.getvalue()


def roc_band() -> bytes:
    import numpy as np

    _assay()
    from assay.plot import RocCurveDisplay

    generator = np.random.default_rng(0)
    y = np.repeat([0, 1], 300)
    scores = {
        "model A": generator.normal(size=600) + 1.2 * y,
        "model B": generator.normal(size=600) + 0.6 * y,
    }
    displays = RocCurveDisplay.from_predictions(y, scores, band="simultaneous", rng=0)
    displays[0].figure_.set_size_inches(5.5, 5.0)
    return _svg(displays[0].figure_)


def critical_difference() -> bytes:
    import numpy as np

    assay = _assay()
    from assay.plot import critical_difference_diagram

    names = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    auc = np.array([
        [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
        [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
        [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
        [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
        [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
        [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
        [0.972, 0.981, 0.97501, 0.975], [0.957, 0.978, 0.946, 0.970],
    ])  # fmt: skip
    result = assay.rank_models(auc, model_names=names)
    return _svg(critical_difference_diagram(result).figure_)


def _report() -> Any:
    import numpy as np

    assay = _assay()
    from assay.datasets import binormal_scores

    y, scores = binormal_scores(2000, auc=0.85, prevalence=0.2, rng=1)
    weaker = scores + np.random.default_rng(2).normal(size=2000)
    data = {"label": y, "model_a": scores, "model_b": weaker}
    return assay.report(data, target="label", scores=["model_a", "model_b"],
                        n_resamples=200, rng=7)  # fmt: skip


def report_pages() -> dict[str, bytes]:
    page = _report().to_html()
    chart = re.search(r'<svg id="plot-roc".*?</svg>', page, flags=re.DOTALL)
    if chart is None:
        raise RuntimeError('the HTML report has no <svg id="plot-roc">')
    standalone = chart.group(0).replace("<svg ", f"<svg {SVG_NAMESPACE} ", 1)
    return {
        "report-example.html": page.encode("utf-8"),
        "report-roc.svg": standalone.encode("utf-8"),
    }


PICTURES: dict[str, Callable[[], bytes]] = {
    "roc-band.svg": roc_band,
    "critical-difference.svg": critical_difference,
}


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add every picture to the site's files (mkdocs' ``on_files`` event)."""
    import matplotlib.pyplot as plt
    from mkdocs.structure.files import File

    made = {name: draw() for name, draw in PICTURES.items()}
    made.update(report_pages())
    plt.close("all")
    for name, content in made.items():
        files.append(File.generated(config, f"{FOLDER}/{name}", content=content))
    return files

"""A small SVG writer for the HTML report: curves with bands, and confusion-matrix grids.

Plain text out, no dependency: the report's HTML page needs neither matplotlib nor a
network connection.  Both axes of a chart run from 0 to 1; the plotting area is the
``<rect class="frame">``, so a point ``(x, y)`` of a curve is drawn at
``(frame.x + x * frame.width, frame.y + (1 - y) * frame.height)``, rounded to
:data:`DECIMALS` decimals of a pixel.  The ``<svg>`` elements carry no namespace
declaration: inline in HTML they need none (a standalone ``.svg`` file adds
``xmlns="http://www.w3.org/2000/svg"``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

DECIMALS = 2
"""Decimals of a pixel kept in the coordinates."""

PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
"""Okabe and Ito's colours, distinct for readers with colour-vision deficiencies."""

TICKS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)

_FONT = 'font-family="system-ui, sans-serif" font-size="12"'
_LEGEND_LINE = 18  # pixels per legend entry
_CHARACTER_WIDTH = 7.5  # pixels, generous for a 12-pixel sans-serif font: long legends fit


@dataclass(frozen=True)
class Frame:
    """The plotting area in pixels; it shows the unit square."""

    x: float
    y: float
    width: float
    height: float

    def to_x(self, value: float) -> float:
        return self.x + value * self.width

    def to_y(self, value: float) -> float:
        return self.y + (1.0 - value) * self.height


@dataclass(frozen=True)
class Series:
    """One curve with its band: ``y`` and ``[lower, upper]`` at the points ``x``."""

    label: str
    x: Sequence[float]
    y: Sequence[float]
    lower: Sequence[float]
    upper: Sequence[float]


def _number(value: float) -> str:
    text = f"{value:.{DECIMALS}f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _points(frame: Frame, xs: Sequence[float], ys: Sequence[float]) -> str:
    return " ".join(
        f"{_number(frame.to_x(x))},{_number(frame.to_y(y))}"
        for x, y in zip(xs, ys, strict=True)
        if math.isfinite(x) and math.isfinite(y)
    )


def _attributes(**attributes: object) -> str:
    return " ".join(
        f'{name.rstrip("_").replace("_", "-")}="{escape(str(value))}"'
        for name, value in attributes.items()
    )


def _text(x: float, y: float, text: str, **attributes: object) -> str:
    extra = f" {_attributes(**attributes)}" if attributes else ""
    return f'<text x="{_number(x)}" y="{_number(y)}"{extra}>{escape(text)}</text>'


def _axes(frame: Frame, xlabel: str, ylabel: str) -> list[str]:
    out = []
    for tick in TICKS:
        x, y = frame.to_x(tick), frame.to_y(tick)
        bottom, left = frame.y + frame.height, frame.x
        out.append(
            f'<line class="grid" x1="{_number(x)}" y1="{_number(frame.y)}" '
            f'x2="{_number(x)}" y2="{_number(bottom)}" stroke="#e5e5e5"/>'
        )
        out.append(
            f'<line class="grid" x1="{_number(left)}" y1="{_number(y)}" '
            f'x2="{_number(left + frame.width)}" y2="{_number(y)}" stroke="#e5e5e5"/>'
        )
        out.append(
            f'<line class="tick" x1="{_number(x)}" y1="{_number(bottom)}" '
            f'x2="{_number(x)}" y2="{_number(bottom + 5)}" stroke="#333"/>'
        )
        out.append(
            f'<line class="tick" x1="{_number(left - 5)}" y1="{_number(y)}" '
            f'x2="{_number(left)}" y2="{_number(y)}" stroke="#333"/>'
        )
        out.append(_text(x, bottom + 18, f"{tick:.1f}", text_anchor="middle"))
        out.append(_text(left - 8, y + 4, f"{tick:.1f}", text_anchor="end"))
    out.append(
        f'<rect class="frame" x="{_number(frame.x)}" y="{_number(frame.y)}" '
        f'width="{_number(frame.width)}" height="{_number(frame.height)}" '
        'fill="none" stroke="#333"/>'
    )
    middle_x, middle_y = frame.to_x(0.5), frame.to_y(0.5)
    bottom = frame.y + frame.height
    out.append(_text(middle_x, bottom + 38, xlabel, class_="xlabel", text_anchor="middle"))
    out.append(
        _text(
            frame.x - 42,
            middle_y,
            ylabel,
            class_="ylabel",
            text_anchor="middle",
            transform=f"rotate(-90 {_number(frame.x - 42)} {_number(middle_y)})",
        )
    )
    return out


def curve_chart(
    chart_id: str,
    title: str,
    xlabel: str,
    ylabel: str,
    series: Sequence[Series],
    reference: tuple[tuple[float, float], tuple[float, float]],
    reference_label: str,
) -> str:
    """An SVG chart of curves with shaded bands, a dashed reference line and a legend.

    Each series is a ``<g class="series">`` holding a ``<polygon class="band">`` (the
    upper bound from left to right, then the lower bound back) and a
    ``<polyline class="estimate">``.
    """
    frame = Frame(x=60.0, y=30.0, width=320.0, height=320.0)
    legend_top = frame.y + frame.height + 62
    longest = max([len(reference_label), *(len(item.label) for item in series)])
    width = max(frame.x + frame.width + 20, frame.x + 30 + _CHARACTER_WIDTH * longest)
    height = legend_top + _LEGEND_LINE * (len(series) + 1)
    out = [
        f'<svg id="{escape(chart_id)}" class="chart" '
        f'viewBox="0 0 {_number(width)} {_number(height)}" width="{_number(width)}" '
        f'height="{_number(height)}" role="img" {_FONT}>',
        f"<title>{escape(title)}</title>",
        _text(frame.x, 18, title, class_="title", font_weight="bold"),
        *_axes(frame, xlabel, ylabel),
    ]
    (x0, y0), (x1, y1) = reference
    out.append(
        f'<line class="reference" x1="{_number(frame.to_x(x0))}" y1="{_number(frame.to_y(y0))}" '
        f'x2="{_number(frame.to_x(x1))}" y2="{_number(frame.to_y(y1))}" stroke="#777" '
        'stroke-dasharray="5 4"/>'
    )
    legend = ['<g class="legend">']
    for index, item in enumerate(series):
        colour = PALETTE[index % len(PALETTE)]
        band_x = [*item.x, *reversed(item.x)]
        band_y = [*item.upper, *reversed(item.lower)]
        out += [
            f'<g class="series" data-series="{index}">',
            f'<polygon class="band" points="{_points(frame, band_x, band_y)}" '
            f'fill="{colour}" fill-opacity="0.18" stroke="none"/>',
            f'<polyline class="estimate" points="{_points(frame, item.x, item.y)}" '
            f'fill="none" stroke="{colour}" stroke-width="2"/>',
            "</g>",
        ]
        y = legend_top + _LEGEND_LINE * index
        legend += [
            f'<rect x="{_number(frame.x)}" y="{_number(y - 9)}" width="22" height="10" '
            f'fill="{colour}" fill-opacity="0.18"/>',
            f'<line x1="{_number(frame.x)}" y1="{_number(y - 4)}" x2="{_number(frame.x + 22)}" '
            f'y2="{_number(y - 4)}" stroke="{colour}" stroke-width="2"/>',
            _text(frame.x + 30, y, item.label),
        ]
    y = legend_top + _LEGEND_LINE * len(series)
    legend += [
        f'<line x1="{_number(frame.x)}" y1="{_number(y - 4)}" x2="{_number(frame.x + 22)}" '
        f'y2="{_number(y - 4)}" stroke="#777" stroke-dasharray="5 4"/>',
        _text(frame.x + 30, y, reference_label),
        "</g>",
    ]
    return "\n".join([*out, *legend, "</svg>"])


def confusion_grid(
    grid_id: str,
    title: str,
    cells: tuple[tuple[float, float], tuple[float, float]],
    counts: tuple[tuple[str, str], tuple[str, str]],
) -> str:
    """A 2 x 2 grid (rows true, columns predicted) shaded by each row's share.

    A cell's shade is its share of its row (the rates per true class: TNR and FPR on
    the negatives' row, FNR and TPR on the positives'); ``counts`` are the texts shown.
    """
    size, left, top = 100.0, 100.0, 44.0
    width, height = left + 2 * size + 10, top + 2 * size + 10
    out = [
        f'<svg id="{escape(grid_id)}" class="confusion-grid" '
        f'viewBox="0 0 {_number(width)} {_number(height)}" width="{_number(width)}" '
        f'height="{_number(height)}" role="img" {_FONT}>',
        f"<title>{escape(title)}</title>",
        _text(left + size, top - 24, "predicted", text_anchor="middle", font_weight="bold"),
        _text(left + size / 2, top - 8, "negative", text_anchor="middle"),
        _text(left + 1.5 * size, top - 8, "positive", text_anchor="middle"),
        _text(left - 10, top + size / 2 - 4, "true", text_anchor="end", font_weight="bold"),
        _text(left - 10, top + size / 2 + 12, "negative", text_anchor="end"),
        _text(left - 10, top + 1.5 * size - 4, "true", text_anchor="end", font_weight="bold"),
        _text(left - 10, top + 1.5 * size + 12, "positive", text_anchor="end"),
    ]
    for row in range(2):
        total = cells[row][0] + cells[row][1]
        for column in range(2):
            share = cells[row][column] / total if total > 0 else 0.0
            x, y = left + column * size, top + row * size
            ink = "#fff" if share > 0.55 else "#222"
            count_style = {"class_": "count", "text_anchor": "middle", "fill": ink}
            count_style["font_weight"] = "bold"
            share_style = {"text_anchor": "middle", "fill": ink, "font_size": "10"}
            out += [
                f'<rect class="cell" data-row="{row}" data-column="{column}" '
                f'x="{_number(x)}" y="{_number(y)}" width="{_number(size)}" '
                f'height="{_number(size)}" fill="#0072B2" fill-opacity="{share:.3f}" '
                'stroke="#333"/>',
                _text(x + size / 2, y + size / 2, counts[row][column], **count_style),
                _text(x + size / 2, y + size / 2 + 16, f"{share:.1%} of row", **share_style),
            ]
    out.append("</svg>")
    return "\n".join(out)

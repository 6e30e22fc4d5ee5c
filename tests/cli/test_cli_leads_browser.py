"""The lead page (``ddsolver leads --format html``) and the notebook fragments in a real
browser: headless Chromium (driven as in test_cli_html_browser.py, over the DevTools pipe)
lays the page out, a script counts what is shown, and screenshots are read back pixel by
pixel: the page is not blank, and every lead's chart is on screen with its bars drawn in
the chart's colours.

Skipped where Chromium is not installed (``.ci/run`` installs it when it can).
"""

from __future__ import annotations

import base64
import json
import struct
import zlib
from pathlib import Path

import pytest

from cardgames.hands import Deal
from ddsolver import cli, dd_table
from ddsolver.formats.leads_html import MADE_COLOUR, SET_COLOUR
from ddsolver.leads import analyse_leads

from .test_cli_html_browser import CHROMIUM, Chromium

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed "
                                "(apt-get install chromium): the HTML page is not checked "
                                "in a browser")

ARGS = ["--hand", "KQ72.J83.T94.A65", "--contract", "4S", "--declarer", "S",
        "--south", "5+ spades, 12+ hcp", "--samples", "30", "--seed", "9", "--quiet"]
DEAL = "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872"
WIDTH = 1000


# ---- a PNG read back (8-bit RGB or RGBA, as Chromium writes them) ----------------------------

def png_pixels(data: bytes) -> tuple[int, int, list[tuple[int, int, int]]]:
    """Width, height and the pixels (RGB) of a PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    width = height = 0
    channels = 3
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), (depth, colour)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    prev = bytearray(stride)
    pixels = []
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        pixels += [tuple(line[i:i + 3]) for i in range(0, stride, channels)]
        prev = line
    return width, height, pixels  # type: ignore[return-value]


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _near(p: tuple[int, int, int], q: tuple[int, int, int], tol: int = 24) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(p, q))


def _shot(browser: Chromium, box: dict | None = None, scale: float = 0.5) -> tuple:
    """A screenshot (of ``box``, in CSS px, else the whole page) read back."""
    params: dict = {"format": "png", "captureBeyondViewport": True}
    if box is None:
        size = browser.evaluate("[document.documentElement.scrollWidth,"
                                " document.documentElement.scrollHeight]")
        box = {"x": 0, "y": 0, "width": size[0], "height": size[1]}
    params["clip"] = {**box, "scale": scale}
    data = base64.b64decode(browser.page("Page.captureScreenshot", **params)["data"])
    return png_pixels(data)


def _not_blank(pixels: list[tuple[int, int, int]]) -> float:
    """The share of pixels that are not (nearly) white."""
    return sum(1 for p in pixels if min(p) < 235) / len(pixels)


_CHARTS = r"""(() => {
  const shown = e => { for (let x = e; x; x = x.parentElement) {
                         const s = getComputedStyle(x);
                         if (s.display === "none" || s.visibility !== "visible"
                             || parseFloat(s.opacity) === 0) return false; }
                       return true; };
  const out = [];
  for (const f of document.querySelectorAll("figure.lead-chart")) {
    const svg = f.querySelector("svg.dist");
    const r = svg ? svg.getBoundingClientRect() : null;
    out.push({lead: f.dataset.lead, svg: !!svg, shown: svg ? shown(svg) : false,
              bars: svg ? svg.querySelectorAll("rect.bar").length : 0,
              counts: svg ? [...svg.querySelectorAll("text.count")].map(
                  t => parseInt(t.textContent)) : [],
              box: r ? {x: r.left + window.scrollX, y: r.top + window.scrollY,
                        width: r.width, height: r.height} : null});
  }
  return {charts: out, width: document.documentElement.clientWidth,
          scrollWidth: document.documentElement.scrollWidth,
          table: document.querySelectorAll("table.leads tbody tr").length};
})()"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    assert CHROMIUM is not None
    chromium = Chromium(CHROMIUM, tmp_path_factory.mktemp("chromium-profile"))
    chromium.page("Emulation.setDeviceMetricsOverride", width=WIDTH, height=900,
                  deviceScaleFactor=1, mobile=False)
    yield chromium
    chromium.close()


def test_lead_page_shows_every_leads_chart(browser, tmp_path, capsys):
    target = tmp_path / "leads.html"
    assert cli.main(["leads", *ARGS, "--format", "html", "-o", str(target)]) == 0
    assert cli.main(["leads", *ARGS, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    browser.open(target.as_uri())
    page = browser.evaluate(_CHARTS)
    assert page["scrollWidth"] <= page["width"], "the page is wider than the window"
    assert page["table"] == len(report["rows"])
    charts = page["charts"]
    assert [c["lead"] for c in charts] == [r["label"] for r in report["rows"]]
    for chart in charts:
        assert chart["svg"] and chart["shown"], chart["lead"]
        assert chart["box"]["width"] > 100 and chart["box"]["height"] > 50, chart["lead"]
        assert chart["bars"] == len(chart["counts"]) and sum(chart["counts"]) == 30

    width, height, pixels = _shot(browser, scale=0.25)
    assert width > 100 and height > 100
    assert _not_blank(pixels) > 0.02, "the page looks blank"

    # Each chart, on screen: its bars in the set and made colours (only the bars have
    # those colours; the plot's band between the interval above and the labels below).
    set_rgb, made_rgb = _rgb(SET_COLOUR), _rgb(MADE_COLOUR)
    for chart, row in zip(charts, report["rows"]):
        box = chart["box"]
        _, _, pixels = _shot(browser, box, scale=0.5)
        assert _not_blank(pixels) > 0.02, f"{chart['lead']}: the chart is blank"
        top, bottom = box["height"] * 40 / 168, box["height"] * (168 - 34) / 168
        plot = {**box, "y": box["y"] + top, "height": bottom - top}
        _, _, pixels = _shot(browser, plot, scale=1)
        set_pixels = sum(1 for p in pixels if _near(p, set_rgb))
        made_pixels = sum(1 for p in pixels if _near(p, made_rgb))
        assert (set_pixels > 20) == (row["p_set"] > 0), (chart["lead"], set_pixels)
        assert (made_pixels > 20) == (row["p_set"] < 1), (chart["lead"], made_pixels)


def test_notebook_fragments_show_in_a_browser(browser, tmp_path):
    deal = Deal.from_pbn(DEAL)
    report = analyse_leads("KQ72.J83.T94.A65", "4S", "S", "none", samples=8, seed=4,
                           constraints={"S": "5+ spades"})
    page = tmp_path / "notebook.html"
    page.write_text("<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>"
                    f"{deal._repr_html_()}{dd_table(deal)._repr_html_()}"
                    f"{report._repr_html_()}</body></html>", encoding="utf-8")
    browser.open(Path(page).as_uri())
    shown = browser.evaluate(
        "[document.querySelectorAll('.hand').length,"
        " document.querySelectorAll('table.dd td').length,"
        " document.querySelectorAll('svg.dist').length,"
        " getComputedStyle(document.querySelector('.sym.red')).color]")
    assert shown[0] == 8            # the deal's four hands, the report's leader + 3 unknown
    assert shown[1] == 20
    assert shown[2] == len(report.rows)
    assert shown[3] == "rgb(200, 16, 46)"     # hearts and diamonds in red
    _, _, pixels = _shot(browser, scale=0.25)
    assert _not_blank(pixels) > 0.02


def test_the_leaders_table_fits_a_phone(browser, tmp_path):
    """The table of the leads made at the table, by player, had no scrolling box of its
    own: at a phone's width it made the whole page scroll sideways."""
    target = tmp_path / "session.html"
    data = Path(__file__).resolve().parents[2] / "data"
    assert cli.main(["leads", str(data / "played.pbn"), "--samples", "6", "--seed", "1",
                     "--format", "html", "-o", str(target), "-q"]) == 0
    assert 'class="leaders"' in target.read_text(encoding="utf-8")
    browser.page("Emulation.setDeviceMetricsOverride", width=390, height=800,
                 deviceScaleFactor=2, mobile=True)
    try:
        browser.open(target.as_uri())
        width, scroll = browser.evaluate("[document.documentElement.clientWidth,"
                                         " document.documentElement.scrollWidth]")
    finally:
        browser.page("Emulation.setDeviceMetricsOverride", width=WIDTH, height=900,
                     deviceScaleFactor=1, mobile=False)
    assert scroll <= width, "the page is wider than the phone"

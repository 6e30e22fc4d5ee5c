"""The HTML hand records (``ddsolver report``) in a real browser: headless Chromium lays the
page out for print, and the test checks what a reader of the printout would see.

Chromium is driven through its DevTools protocol over a pipe (``--remote-debugging-pipe``:
JSON messages separated by NUL bytes on file descriptors 3 and 4), so the page needs no
script of its own and no port is opened.  The page is laid out with print media at the
width a printed A4 page leaves inside its margins (the narrower of A4 and Letter), and a
script evaluated by the browser measures every board: each one's diagram (four hands and
the compass) and double-dummy table are there, visible, inside their board and on the
page, with the right cards and numbers; nothing is wider than the page.  Then the page is
printed to PDF on A4 and on Letter and, where poppler's ``pdftotext`` is installed, the
PDF is read back: every board is on it, no board is split across two pages, and no word
lies outside the paper.

Skipped where Chromium is not installed (Debian/Ubuntu: ``apt-get install chromium
poppler-utils``; ``.ci/run`` installs them when it can).
"""

from __future__ import annotations

import base64
import json
import math
import os
import re
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from cardgames import pbn
from cardgames.cards import Seat, Suit
from ddsolver import cli, dd_table
from ddsolver.solver import STRAIN_ORDER

CHROMIUM = next((p for p in (shutil.which(n) for n in ("chromium", "chromium-browser",
                                                       "google-chrome")) if p), None)
PDFTOTEXT = shutil.which("pdftotext")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed "
                                "(apt-get install chromium): the HTML report is not checked "
                                "in a browser")

DATA = Path(__file__).resolve().parents[2] / "data"
MM = 96 / 25.4                  # CSS px per mm
MARGIN_MM = 10                  # the report's @page margin
PAPERS = {"A4": (210, 297), "Letter": (215.9, 279.4)}   # mm
# The narrowest printable width: the page is laid out at it.
CONTENT_WIDTH = min(w for w, _ in PAPERS.values()) * MM - 2 * MARGIN_MM * MM
_SYMBOLS = {Suit.SPADES: "\u2660", Suit.HEARTS: "\u2665", Suit.DIAMONDS: "\u2666",
            Suit.CLUBS: "\u2663"}
_RANK_TEXT = {"A": "A", "K": "K", "Q": "Q", "J": "J", "T": "10"}


# ---- a small DevTools client -----------------------------------------------------------

class Chromium:
    """Headless Chromium and one page, over the DevTools pipe."""

    def __init__(self, executable: str, profile: Path):
        # fd 3: commands to the browser; fd 4: its answers and events.
        self.proc = subprocess.Popen(
            ["sh", "-c", 'exec "$0" "$@" 3<&0 4>&1 0</dev/null 1>/dev/null', executable,
             "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--no-first-run", "--no-default-browser-check", "--remote-debugging-pipe",
             f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self._next_id = 0
        self._buffer = b""
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target,
                                 flatten=True)["sessionId"]

    def _read(self, timeout: float = 60) -> dict[str, Any]:
        assert self.proc.stdout is not None
        while b"\0" not in self._buffer:
            ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
            if not ready:
                raise RuntimeError(f"Chromium said nothing for {timeout} s")
            chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\0")
        self.proc.stdin.flush()
        while True:
            answer = self._read()
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer["result"]
            self.events.append(answer)

    def page(self, method: str, **params: Any) -> dict[str, Any]:
        return self.call(method, self.session, **params)

    def open(self, url: str, timeout: float = 60) -> None:
        self.page("Page.enable")
        self.events.clear()
        self.page("Page.navigate", url=url)
        deadline = time.monotonic() + timeout
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            assert time.monotonic() < deadline, "the page did not load"
            self.events.append(self._read())

    def evaluate(self, expression: str) -> Any:
        result = self.page("Runtime.evaluate", expression=expression, returnByValue=True)
        assert "exceptionDetails" not in result, result
        return result["result"]["value"]

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except (RuntimeError, OSError, ValueError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# What the script in the browser measures: the page's width, and per board its box and
# the box, visibility and text of each part.
_MEASURE = r"""(() => {
  const box = e => { const r = e.getBoundingClientRect();
                     return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                             width: r.width, height: r.height}; };
  const shown = e => { for (let x = e; x; x = x.parentElement) {
                         const s = getComputedStyle(x);
                         if (s.display === "none" || s.visibility !== "visible"
                             || parseFloat(s.opacity) === 0) return false; }
                       return true; };
  const page = {width: document.documentElement.clientWidth,
                scrollWidth: document.documentElement.scrollWidth, boards: [], wide: []};
  for (const e of document.body.querySelectorAll("*")) {
    const r = e.getBoundingClientRect();
    if (r.width > 0 && (r.right > page.width + 0.5 || r.left < -0.5))
      page.wide.push(e.tagName + "." + e.className + " " + r.left + ".." + r.right);
    if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1
        && getComputedStyle(e).overflowX !== "visible")
      page.wide.push(e.tagName + "." + e.className + " clips its content");
  }
  for (const b of document.querySelectorAll("section.board")) {
    const board = {box: box(b), shown: shown(b), parts: {}, outside: []};
    const n = b.querySelector(".number");
    board.number = n ? n.textContent : null;
    for (const sel of [".hand.north", ".hand.east", ".hand.south", ".hand.west", ".compass",
                       "table.dd"]) {
      const e = b.querySelector(sel);
      board.parts[sel] = e ? {box: box(e), shown: shown(e), text: e.innerText} : null;
    }
    const r = b.getBoundingClientRect();
    for (const e of b.querySelectorAll("*")) {
      const q = e.getBoundingClientRect();
      if (q.width > 0 && (q.left < r.left - 0.5 || q.right > r.right + 0.5
                          || q.top < r.top - 0.5 || q.bottom > r.bottom + 0.5))
        board.outside.push(e.tagName + "." + e.className);
    }
    page.boards.push(board);
  }
  return page;
})()"""


# ---- the report under test ---------------------------------------------------------------

@pytest.fixture(scope="module")
def report(tmp_path_factory) -> tuple[Path, list[pbn.Game]]:
    """Hand records of 20 boards, more than three printed pages: the endings of the
    problems file twice over, then the first 8 full deals of the example session (whose
    long suits make the widest diagrams), renumbered 1 to 20."""
    tmp = tmp_path_factory.mktemp("html")
    problems = (DATA / "problems.pbn").read_text(encoding="utf-8")
    session = (DATA / "session.pbn").read_text(encoding="utf-8").split("\n\n")[:8]
    parts = [problems, problems, *session]
    number = iter(range(1, 100))
    text = re.sub(r'\[Board "\d+"\]', lambda m: f'[Board "{next(number)}"]',
                  "\n\n".join(parts))
    source = tmp / "boards.pbn"
    source.write_text(text, encoding="utf-8")
    target = tmp / "boards.html"
    assert cli.main(["report", str(source), "--html", str(target), "-q"]) == 0
    with pbn.load_path(source) as reader:
        games = list(reader)
    assert [g.board for g in games] == list(range(1, 21))
    return target, games


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    assert CHROMIUM is not None
    chromium = Chromium(CHROMIUM, tmp_path_factory.mktemp("chromium-profile"))
    yield chromium
    chromium.close()


def _suit_line(hand, suit: Suit) -> str:
    ranks = [str(c)[1:] for c in hand if c.suit == suit]
    return _SYMBOLS[suit] + (" ".join(_RANK_TEXT.get(r, r) for r in ranks) or "\u2014")


def _inside(part: dict[str, float], whole: dict[str, float]) -> bool:
    return (part["left"] >= whole["left"] - 0.5 and part["right"] <= whole["right"] + 0.5
            and part["top"] >= whole["top"] - 0.5 and part["bottom"] <= whole["bottom"] + 0.5)


def test_every_board_is_laid_out_whole_and_on_the_printed_page(report, browser):
    target, games = report
    browser.page("Emulation.setEmulatedMedia", media="print")
    browser.page("Emulation.setScrollbarsHidden", hidden=True)   # paper has none
    browser.page("Emulation.setDeviceMetricsOverride", width=math.floor(CONTENT_WIDTH),
                 height=1000, deviceScaleFactor=1, mobile=False)
    browser.open(target.as_uri())
    page = browser.evaluate(_MEASURE)

    assert page["width"] == math.floor(CONTENT_WIDTH)
    assert page["scrollWidth"] <= page["width"], "the page is wider than the paper"
    assert page["wide"] == [], "wider than the page, or clipped"
    assert len(page["boards"]) == len(games)
    for board, game in zip(page["boards"], games):
        name = f"board {game.board}"
        assert board["number"] == f"Board {game.board}", name
        assert board["shown"] and board["box"]["width"] > 0 and board["box"]["height"] > 0
        assert board["outside"] == [], f"{name}: parts outside the board"
        for selector, part in board["parts"].items():
            assert part is not None, f"{name}: no {selector}"
            assert part["shown"], f"{name}: {selector} is hidden"
            assert part["box"]["width"] > 0 and part["box"]["height"] > 0, f"{name}: {selector}"
            assert _inside(part["box"], board["box"]), f"{name}: {selector} sticks out"
        # The cards, as the reader sees them.
        for seat in Seat:
            lines = board["parts"][f".hand.{seat.name.lower()}"]["text"].split("\n")
            hand = game.deal[seat]
            assert [line.strip() for line in lines[1:]] == [_suit_line(hand, s) for s in Suit], \
                f"{name}: {seat.name}"
        # The double-dummy table: rows N S E W, strains in STRAIN_ORDER.
        rows = [line.split("\t") for line in board["parts"]["table.dd"]["text"].split("\n")]
        table = dd_table(game.deal)
        shown = {row[0].strip(): [int(v) for v in row[1:]] for row in rows[1:]}
        assert shown == {d.letter: [table.tricks(d, s) for s in STRAIN_ORDER]
                         for d in (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)}, name


def _pdf_words(pdf: Path) -> list[tuple[float, float, list[tuple[str, float, float, float, float]]]]:
    """Per page: (width, height, [(word, xmin, ymin, xmax, ymax), ...]), from pdftotext."""
    assert PDFTOTEXT is not None
    xml = subprocess.run([PDFTOTEXT, "-bbox", str(pdf), "-"], capture_output=True, text=True,
                         check=True).stdout
    xml = re.sub(r"<!DOCTYPE[^>]*>", "", xml)
    root = ElementTree.fromstring(xml)
    ns = {"x": "http://www.w3.org/1999/xhtml"}
    pages = []
    for page in root.iter("{http://www.w3.org/1999/xhtml}page"):
        words = [(w.text or "", float(w.get("xMin", 0)), float(w.get("yMin", 0)),
                  float(w.get("xMax", 0)), float(w.get("yMax", 0)))
                 for w in page.findall("x:word", ns)]
        pages.append((float(page.get("width", 0)), float(page.get("height", 0)), words))
    return pages


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_printed_pdf_holds_every_board_whole(report, browser, tmp_path, paper):
    target, games = report
    browser.page("Emulation.clearDeviceMetricsOverride")
    browser.page("Emulation.setEmulatedMedia", media="")
    browser.open(target.as_uri())
    width_mm, height_mm = PAPERS[paper]
    pdf_data = browser.page("Page.printToPDF", paperWidth=width_mm / 25.4,
                            paperHeight=height_mm / 25.4, printBackground=True,
                            displayHeaderFooter=False)["data"]
    pdf = tmp_path / f"report-{paper}.pdf"
    pdf.write_bytes(base64.b64decode(pdf_data))
    assert pdf.read_bytes().startswith(b"%PDF")
    if PDFTOTEXT is None:
        pytest.skip("pdftotext (poppler-utils) is not installed: the PDF is not read back")
    pages = _pdf_words(pdf)
    # Six boards a page (two across, three down), and a short last page at most.
    assert math.ceil(len(games) / 6) <= len(pages) <= math.ceil(len(games) / 6) + 1
    numbers_seen = []
    for k, (width, height, words) in enumerate(pages, 1):
        assert abs(width - width_mm / 25.4 * 72) < 1 and abs(height - height_mm / 25.4 * 72) < 1
        for text, x0, y0, x1, y1 in words:
            assert 0 <= x0 and x1 <= width and 0 <= y0 and y1 <= height, \
                f"page {k}: {text!r} is off the paper"
        texts = [w[0] for w in words]
        numbers = [texts[i + 1] for i, t in enumerate(texts[:-1]) if t == "Board"]
        numbers_seen += numbers
        # Each board prints one DD table, whose header is the one "NT" word: a board split
        # over two pages would leave its number on one and its table on the next.
        assert len(numbers) == texts.count("NT"), f"page {k}: a board is split"
    # (pdftotext reads the two columns in its own order.)
    assert sorted(numbers_seen, key=int) == [str(g.board) for g in games]


def test_a_long_board_label_wraps_and_keeps_both_columns_on_the_page(browser, tmp_path):
    """A Board tag such as "Segment 2, Board 14 (Open)" was set on one line and pushed the
    right-hand column of boards off the page (the ♦ and ♣ columns of their tables cut
    off in print)."""
    boards = (DATA / "session.pbn").read_text(encoding="utf-8").split("\n\n")[:2]
    boards[0] = re.sub(r'\[Board "\d+"\]', '[Board "Segment 2, Board 14 (Open Room)"]',
                       boards[0])
    source = tmp_path / "long.pbn"
    source.write_text("\n\n".join(boards), encoding="utf-8")
    target = tmp_path / "long.html"
    assert cli.main(["report", str(source), "--html", str(target), "-q"]) == 0
    browser.page("Emulation.setEmulatedMedia", media="print")
    browser.page("Emulation.setScrollbarsHidden", hidden=True)
    browser.page("Emulation.setDeviceMetricsOverride", width=math.floor(CONTENT_WIDTH),
                 height=1000, deviceScaleFactor=1, mobile=False)
    browser.open(target.as_uri())
    page = browser.evaluate(_MEASURE)
    assert page["scrollWidth"] <= page["width"], "the page is wider than the paper"
    assert page["wide"] == [], "wider than the page, or clipped"
    first, second = page["boards"]
    assert first["number"] == "Board Segment 2, Board 14 (Open Room)"
    assert abs(first["box"]["width"] - second["box"]["width"]) < 1, "columns of one width"
    for board in page["boards"]:
        assert board["outside"] == []
        assert _inside(board["parts"]["table.dd"]["box"], board["box"])

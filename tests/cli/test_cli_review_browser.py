"""The review page (``ddsolver review --format html``) in a real browser: headless
Chromium (driven over the DevTools pipe, as in test_cli_html_browser.py) opens it at a
phone's width; every board is there, nothing is wider than the screen, every trick of
every board is reached with the buttons and the arrow keys (one step shown at a time, the
diagram holding the cards still to play), the numbers on the page are the JSON's, and
without script every step and every trick is shown.

Skipped where Chromium is not installed (``.ci/run`` installs it when it can).
"""

from __future__ import annotations

import json

import pytest
from ddsfiles import real_lin_files

from ddsolver import cli

from .test_cli_html_browser import CHROMIUM, Chromium

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed "
                                "(apt-get install chromium): the review page is not "
                                "checked in a browser")

PHONE = 390

_PAGE = r"""(() => {
  const shown = e => { for (let x = e; x; x = x.parentElement) {
                         if (getComputedStyle(x).display === "none") return false; }
                       return true; };
  return {width: document.documentElement.clientWidth,
          scrollWidth: document.documentElement.scrollWidth,
          boards: [...document.querySelectorAll("section.board")].map(b => ({
            title: b.querySelector("h2").textContent,
            steps: b.querySelectorAll(".stepper .step").length,
            shown: [...b.querySelectorAll(".stepper .step")].map(shown),
            costly: b.querySelectorAll("table.tricks td.costly").length,
            dd: [...b.querySelectorAll("table.tricks .dd")].map(e => +e.textContent),
            rows: b.querySelectorAll("table.tricks tbody tr").length}))};
})()"""


def _step(index: int, action: str) -> str:
    """Do ``action`` on board ``index``'s stepper (a button's class, or a key), then say
    which steps are shown, what the caption says, and the cards in each hand."""
    act = (f"box.querySelector('.{action}').click();" if action in
           ("next", "prev", "first", "last") else
           f"box.dispatchEvent(new KeyboardEvent('keydown', {{key: '{action}', "
           "bubbles: true}));")
    return f"""(() => {{
      const box = document.querySelectorAll("section.board")[{index}]
                          .querySelector(".stepper");
      {act}
      const steps = [...box.querySelectorAll(".step")];
      const on = steps.filter(s => getComputedStyle(s).display !== "none");
      const hands = on.length !== 1 ? [] : [...on[0].querySelectorAll(".hand")].map(h =>
          [...h.querySelectorAll(".suit")].map(s => s.textContent.slice(1))
              .join(" ").split(/\\s+/).filter(t => t && t !== "\\u2014").length);
      return {{on: steps.map(s => getComputedStyle(s).display !== "none"),
               where: box.querySelector(".where").textContent, hands: hands,
               current: [...box.closest("section").querySelectorAll(
                   "table.tricks tbody tr")].findIndex(r => r.classList.contains("current"))}};
    }})()"""


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    assert CHROMIUM is not None
    path = next(p for p in real_lin_files() if p.name == "test_vugraph.lin")
    tmp = tmp_path_factory.mktemp("review")
    html, js = tmp / "review.html", tmp / "review.json"
    argv = ["review", str(path), "--player", "Liggins", "--seed", "1", "--samples", "20",
            "-q"]
    assert cli.main([*argv, "--format", "html", "-o", str(html)]) == 0
    assert cli.main([*argv, "--format", "json", "-o", str(js)]) == 0
    chromium = Chromium(CHROMIUM, tmp_path_factory.mktemp("chromium-profile"))
    chromium.page("Emulation.setDeviceMetricsOverride", width=PHONE, height=800,
                  deviceScaleFactor=2, mobile=True)
    yield chromium, html, json.loads(js.read_text())
    chromium.close()


def test_every_board_and_its_numbers_at_a_phones_width(page):
    browser, html, review = page
    browser.open(html.as_uri())
    shown = browser.evaluate(_PAGE)
    assert shown["scrollWidth"] <= shown["width"], "the page is wider than a phone"
    boards = review["boards"]
    assert len(shown["boards"]) == len(boards)
    for b, s in zip(boards, shown["boards"]):
        assert b["label"] in s["title"]
        steps = (len(b["played"]) + 3) // 4 + 1   # a trick in progress has a step too
        assert s["steps"] == steps
        assert s["shown"] == [True] + [False] * (steps - 1)   # the script shows one step
        assert s["dd"] == b["trace"][1:]                    # DD after each card
        assert s["costly"] == len(b["costly"])
        assert s["rows"] == (len(b["played"]) + 3) // 4


def test_every_trick_is_reached_with_the_buttons_and_the_keys(page):
    browser, html, review = page
    browser.open(html.as_uri())
    for index, b in enumerate(review["boards"]):
        tricks = len(b["played"]) // 4
        for k in range(1, tricks + 1):
            state = browser.evaluate(_step(index, "next"))
            assert state["on"].index(True) == k and state["on"].count(True) == 1
            assert state["where"] == f"after trick {k} of {tricks}"
            assert state["hands"] == [13 - k] * 4       # the cards still to play
            assert state["current"] == k - 1            # the trick's row marked
        end = tricks
        if len(b["played"]) % 4:   # the play stops inside a trick: a step for it
            end += 1
            state = browser.evaluate(_step(index, "next"))
            assert state["on"].index(True) == end and state["current"] == tricks
            assert state["where"].startswith(f"in trick {end}, at ")
        assert browser.evaluate(_step(index, "next"))["on"].index(True) == end  # stays
        assert browser.evaluate(_step(index, "ArrowLeft"))["on"].index(True) == end - 1
        assert browser.evaluate(_step(index, "ArrowRight"))["on"].index(True) == end
        assert browser.evaluate(_step(index, "first"))["where"] == "before the lead"
        assert browser.evaluate(_step(index, "prev"))["on"].index(True) == 0
        assert browser.evaluate(_step(index, "last"))["on"].index(True) == end


def test_without_script_every_step_and_trick_is_shown(page):
    browser, html, review = page
    browser.page("Emulation.setScriptExecutionDisabled", value=True)
    try:
        browser.open(html.as_uri())
        shown = browser.evaluate(_PAGE)
    finally:
        browser.page("Emulation.setScriptExecutionDisabled", value=False)
    for b, s in zip(review["boards"], shown["boards"]):
        assert all(s["shown"]) and s["steps"] == (len(b["played"]) + 3) // 4 + 1
        assert s["rows"] == (len(b["played"]) + 3) // 4


def test_a_lead_made_by_the_player_has_its_analysis_charted(page, tmp_path):
    browser, _, _ = page
    path = next(p for p in real_lin_files() if p.name == "sample.lin" and "rthorst" in str(p))
    html, js = tmp_path / "helgemo.html", tmp_path / "helgemo.json"
    argv = ["review", str(path), "--player", "Helgemo", "--seed", "1", "--samples", "20",
            "-q"]
    assert cli.main([*argv, "--format", "html", "-o", str(html)]) == 0
    assert cli.main([*argv, "--format", "json", "-o", str(js)]) == 0
    led = [b for b in json.loads(js.read_text())["boards"] if b["lead"] is not None]
    assert led
    browser.open(html.as_uri())
    charts = browser.evaluate(r"""(() => [...document.querySelectorAll("section.board")]
      .filter(b => b.querySelector("details.lead-analysis")).map(b => {
        const d = b.querySelector("details.lead-analysis");
        const before = document.documentElement.scrollWidth;
        d.open = true;
        const svgs = [...d.querySelectorAll("svg.dist")];
        return {title: b.querySelector("h2").textContent, before: before,
                charts: svgs.length, drawn: svgs.every(s => s.getBoundingClientRect().width > 0),
                rows: d.querySelectorAll("table.leads tbody tr").length,
                width: document.documentElement.clientWidth,
                scroll: document.documentElement.scrollWidth};
      }))()""")
    assert [c["title"].split(" \u2014")[0] for c in charts] == [b["label"] for b in led]
    for c in charts:
        assert c["drawn"] and c["charts"] == c["rows"] > 1
        # Closed or open, the page is no wider than the phone: the analysis scrolls inside.
        assert c["before"] <= c["width"] and c["scroll"] <= c["width"]


def test_the_page_prints_every_board_with_its_tricks(page, tmp_path):
    """Printed (A4), the controls are gone, every board is on paper with its facts and its
    table of tricks, each step's diagram but the first left out."""
    import base64
    import shutil
    import subprocess

    browser, html, review = page
    browser.page("Emulation.setEmulatedMedia", media="print")
    try:
        browser.open(html.as_uri())
        shown = browser.evaluate(r"""(() => ({
          controls: [...document.querySelectorAll(".stepper .controls")]
              .filter(e => getComputedStyle(e).display !== "none").length,
          steps: [...document.querySelectorAll("section.board")].map(b =>
              [...b.querySelectorAll(".stepper .step")]
                  .filter(e => getComputedStyle(e).display !== "none").length)}))()""")
        data = browser.page("Page.printToPDF", paperWidth=210 / 25.4,
                            paperHeight=297 / 25.4, printBackground=True)["data"]
    finally:
        browser.page("Emulation.setEmulatedMedia", media="")
    assert shown["controls"] == 0 and shown["steps"] == [1] * len(review["boards"])
    pdf = tmp_path / "review.pdf"
    pdf.write_bytes(base64.b64decode(data))
    assert pdf.read_bytes().startswith(b"%PDF")
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed: the PDF is not read back")
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    # One space for every run of white space: a board's heading names its file, and where
    # the checkout's path is long enough the line wraps inside "(board 33)".
    text = " ".join(text.split())
    for b in review["boards"]:
        assert f"(board {b['board']})" in text
    assert text.count("cards in play order") == sum(1 for b in review["boards"] if b["played"])


_SHOWN_STEPS = r"""(() => [...document.querySelectorAll("section.board")].map(b =>
  [...b.querySelectorAll(".stepper .step")].map((e, i) => [e, i])
      .filter(([e]) => getComputedStyle(e).display !== "none").map(([, i]) => i)))()"""


def test_printed_after_stepping_the_page_shows_the_step_on_screen(page):
    # Printing after stepping a board used to print two diagrams for it: the first step
    # (the print rule's) and the one on screen.
    browser, html, review = page
    browser.open(html.as_uri())
    browser.evaluate(_step(0, "next"))
    browser.evaluate(_step(0, "next"))
    browser.page("Emulation.setEmulatedMedia", media="print")
    try:
        shown = browser.evaluate(_SHOWN_STEPS)
    finally:
        browser.page("Emulation.setEmulatedMedia", media="")
    assert shown == [[2]] + [[0]] * (len(review["boards"]) - 1)


def test_the_arrow_keys_step_the_board_in_view(page):
    # They used to step the first board, wherever the page was scrolled.
    browser, html, review = page
    assert len(review["boards"]) >= 3
    browser.open(html.as_uri())
    moved = browser.evaluate(r"""(() => {
      const boards = document.querySelectorAll("section.board");
      boards[2].scrollIntoView();
      document.body.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight",
                                                                bubbles: true}));
      return [...boards].map(b => +b.querySelector(".stepper").dataset.at);
    })()""")
    assert moved[2] == 1 and moved[:2] == [0, 0]


def test_the_arrow_keys_step_the_board_whose_diagram_is_in_view(page):
    """Scrolled past a board's diagram and buttons, with only its trick table left at the
    top of the screen and the next board's diagram below, the keys stepped the board out
    of view."""
    browser, html, review = page
    browser.open(html.as_uri())
    moved = browser.evaluate(r"""(() => {
      const boards = [...document.querySelectorAll("section.board")];
      const stepper = boards[0].querySelector(".stepper");
      const tricks = boards[0].querySelector("table.tricks");
      window.scrollTo(0, stepper.getBoundingClientRect().bottom + window.scrollY + 2);
      const left = tricks.getBoundingClientRect().bottom > 0;
      const next = boards[1].querySelector(".stepper").getBoundingClientRect();
      document.body.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight",
                                                                bubbles: true}));
      return {left: left, nextShown: next.top < window.innerHeight,
              at: boards.map(b => +b.querySelector(".stepper").dataset.at)};
    })()""")
    assert moved["left"] and moved["nextShown"], "the layout this test needs"
    assert moved["at"][:2] == [0, 1]

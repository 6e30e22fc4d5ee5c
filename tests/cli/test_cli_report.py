"""``ddsolver report --html``: the hand records, read back with html.parser and checked
against the deals, the facade's tables and par."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from cardgames import pbn
from cardgames.cards import Seat, Suit
from ddsolver import batch as boards
from ddsolver import cli, dd_table
from ddsolver.formats.tags import optimum_score_tag
from ddsolver.par import par as par_of
from ddsolver.store import ResultStore

DATA = Path(__file__).resolve().parents[2] / "data"
SESSION = DATA / "session.pbn"
PROBLEMS = DATA / "problems.pbn"
ENDING = "N:A2.J.. ..KQ.K 4..2.A K3.Q.."
_RANKS = {"A": "A", "K": "K", "Q": "Q", "J": "J", "T": "10"}


class BoardsParser(HTMLParser):
    """Collects, per ``<section class="board">``: the board number, dealer and vulnerability
    text, the cards of each hand by suit, the DD table cells and the par line."""

    def __init__(self):
        super().__init__()
        self.boards: list[dict] = []
        self.stack: list[tuple[str, dict]] = []
        self.text_target: tuple | None = None
        self.tags: set[str] = set()
        self.external: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.add(tag)
        for name in ("src", "href"):
            if name in attrs:
                self.external.append(attrs[name])
        cls = attrs.get("class", "") or ""
        if tag == "section" and "board" in cls.split():
            self.boards.append({"id": attrs.get("id"), "hands": {}, "dd": {}, "par": None,
                                "info": "", "par_score": None})
        board = self.boards[-1] if self.boards else None
        if board is not None:
            if tag == "div" and "hand" in cls.split():
                self.seat = attrs["data-seat"]
                board["hands"][self.seat] = {}
            elif tag == "div" and cls == "suit":
                self.text_target = ("suit", self.seat, attrs["data-suit"])
                board["hands"][self.seat][attrs["data-suit"]] = ""
            elif tag == "td" and "data-declarer" in attrs:
                self.text_target = ("dd", attrs["data-declarer"], attrs["data-strain"])
            elif tag == "p" and cls == "par":
                self.text_target = ("par",)
                board["par"] = ""
                board["par_score"] = int(attrs["data-score"])
            elif tag == "div" and cls == "info":
                self.text_target = ("info",)
        self.stack.append((tag, attrs))

    def handle_endtag(self, tag):
        while self.stack:
            open_tag, attrs = self.stack.pop()
            if open_tag == tag:
                break
        if tag in ("div", "td", "p") and self.text_target is not None:
            kind = self.text_target[0]
            if (kind == "suit" and tag == "div") or (kind == "dd" and tag == "td") or \
               (kind == "par" and tag == "p") or (kind == "info" and tag == "div"):
                self.text_target = None

    def handle_data(self, data):
        if self.text_target is None or not self.boards:
            return
        board = self.boards[-1]
        kind = self.text_target[0]
        if kind == "suit":
            _, seat, suit = self.text_target
            board["hands"][seat][suit] += data
        elif kind == "dd":
            _, declarer, strain = self.text_target
            board["dd"][(declarer, strain)] = int(data)
        elif kind == "par":
            board["par"] += data
        elif kind == "info":
            board["info"] += data


def parse_report(text: str) -> BoardsParser:
    parser = BoardsParser()
    parser.feed(text)
    parser.close()
    return parser


def hand_text(hand, suit: Suit) -> str:
    cards = [str(c)[1:] for c in hand if c.suit == suit]
    return " ".join(_RANKS.get(r, r) for r in cards)


def check_board(board: dict, game: pbn.Game) -> None:
    deal = game.deal
    for seat in Seat:
        hand = deal[seat]
        for suit in Suit:
            shown = board["hands"][seat.letter][suit.name[0]]
            expected = hand_text(hand, suit)
            # The suit symbol comes first; a void shows a dash.
            assert shown[1:] == (expected or "\u2014"), (game.board, seat, suit, shown)
    table = dd_table(deal)
    assert board["dd"] == {(d.letter, s.letter): table.tricks(d, s)
                           for d, s, _ in table}
    assert f"Board {game.board}" in board["info"]


def test_report_shows_every_board_its_hands_table_and_par(run_cli, tmp_path):
    target = tmp_path / "problems.html"
    status, out, err = run_cli("report", PROBLEMS, "--html", target, "-j", "2")
    assert status == 0
    assert out == "" and f"hand records written to {target}" in err
    text = target.read_text(encoding="utf-8")
    report = parse_report(text)
    with pbn.load_path(PROBLEMS) as reader:
        games = list(reader)
    assert len(report.boards) == 6
    for board, game in zip(report.boards, games):
        check_board(board, game)
    # Endings have no par; full deals show par from their Dealer and Vulnerable tags.
    assert [b["par"] for b in report.boards[:4]] == [None] * 4
    for board, game in zip(report.boards[4:], games[4:]):
        expected = par_of(dd_table(game.deal), vul=game.vulnerable, dealer=game.dealer)
        assert board["par_score"] == expected.score
        assert optimum_score_tag(expected) in board["par"]
    assert "NS 2220" in report.boards[4]["par"] and "7NT NS =" in report.boards[4]["par"]
    assert "Dealer: North" in report.boards[4]["info"]
    assert "Vul: N-S" in report.boards[4]["info"]
    assert "3-card ending" in report.boards[0]["info"]


def test_report_is_self_contained_and_print_friendly(run_cli, tmp_path):
    target = tmp_path / "r.html"
    assert run_cli("report", PROBLEMS, "--html", target, "-q")[0] == 0
    text = target.read_text(encoding="utf-8")
    report = parse_report(text)
    assert text.startswith("<!DOCTYPE html>")
    assert '<meta charset="utf-8">' in text
    assert "script" not in report.tags and "img" not in report.tags and "link" not in report.tags
    assert report.external == []
    assert "break-inside:avoid" in text and "@media print" in text
    # Suit symbols, hearts and diamonds in red.
    for symbol in "\u2660\u2665\u2666\u2663":
        assert symbol in text
    assert '<span class="sym red">\u2665</span>' in text
    assert "<title>ddsolver double-dummy problems</title>" in text


def test_report_of_session_boards_reuses_the_table_store(run_cli, tmp_path, monkeypatch):
    with pbn.load_path(SESSION) as reader:
        games = list(reader)[:2]
    path = tmp_path / "two.pbn"
    path.write_text(pbn.dumps(games))
    db = tmp_path / "tables.sqlite"
    assert run_cli("table", path, "--db", db, "-q", "-j", "2")[0] == 0

    def no_solving(deals, **kwargs):
        assert list(deals) == [], "the report solved a deal the store holds"
        return iter(())

    monkeypatch.setattr(boards, "iter_dd_tables", no_solving)
    target = tmp_path / "two.html"
    status, _, err = run_cli("report", path, "--html", target, "--db", db,
                         "--title", "Two <boards> & more")
    assert status == 0, err
    assert f"2 from {db}, 0 solved now" in err
    text = target.read_text(encoding="utf-8")
    assert "<h1>Two &lt;boards&gt; &amp; more</h1>" in text
    report = parse_report(text)
    monkeypatch.undo()
    for board, game in zip(report.boards, games):
        check_board(board, game)
        expected = par_of(dd_table(game.deal), vul=game.vulnerable, dealer=game.dealer)
        assert board["par_score"] == expected.score
    assert [b["id"] for b in report.boards] == ["board-1", "board-2"]


def test_report_skips_a_bad_board_and_says_so(run_cli, tmp_path):
    path = tmp_path / "bad.pbn"
    path.write_text(f'[Board "1"]\n[Deal "{ENDING}"]\n\n'
                    f'[Board "2"]\n[Deal "{ENDING.replace("KQ", "KX")}"]\n\n'
                    f'[Board "3"]\n[Deal "{ENDING}"]\n')
    target = tmp_path / "bad.html"
    status, _, err = run_cli("report", path, "--html", target, "-q")
    assert status == 1
    assert f"{path}:5:" in err and "Traceback" not in err
    text = target.read_text(encoding="utf-8")
    assert [b["id"] for b in parse_report(text).boards] == ["board-1", "board-3"]
    assert "1 board could not be read or solved" in text


def test_report_page_says_which_boards_are_left_out_or_incomplete_and_why(run_cli, tmp_path):
    suits = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    path = tmp_path / "bad.pbn"
    path.write_text(f'[Board "1"]\n[Deal "{ENDING}"]\n\n'
                    f'[Board "2"\n[Deal "{ENDING}"]\n\n'            # line 4: no ']'
                    f'[Board "3"]\n[Dealer "Q"]\n[Deal "{suits}"]\n\n'  # line 8: bad dealer
                    f'[Board "4"]\n[Deal "{ENDING.replace("KQ", "KX")}"]\n\n'  # line 12
                    f'[Board "5"]\n[Deal "{ENDING}"]\n')
    target = tmp_path / "bad.html"
    status, _, err = run_cli("report", path, "--html", target, "-q")
    assert status == 1
    messages = err.splitlines()
    assert [m.split(": ")[0] for m in messages] == [f"{path}:4", f"{path}:8", f"{path}:12"]
    assert "Dealer must be N, E, S or W" in messages[1] and "par is left out" in messages[1]
    text = target.read_text(encoding="utf-8")
    report = parse_report(text)
    assert [b["id"] for b in report.boards] == ["board-1", "board-3", "board-5"]
    assert report.boards[1]["par"] is None  # board 3: the table, but no par
    # The notice names every problem (file, line, reason), before the boards on the page.
    notice = re.search(r'<aside class="problems"[^>]*>(.*?)</aside>', text, re.S)
    assert notice is not None
    shown = html.unescape(re.sub(r"<[^>]+>", "\n", notice.group(1)))
    for message in messages:
        assert message in shown.splitlines()
    assert "2 boards could not be read or solved and are left out" in shown
    assert "1 board is shown without par" in shown
    assert re.search(r"\.problems\{[^}]*order:-1", text)


def test_interrupted_report_keeps_its_tables_and_resumes(run_cli, tmp_path, monkeypatch):
    db = tmp_path / "tables.sqlite"
    target = tmp_path / "r.html"
    real_put = ResultStore.put_table
    calls = 0

    def put(self, key, table):
        nonlocal calls
        real_put(self, key, table)
        calls += 1
        if calls == 2:
            raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(ResultStore, "put_table", put)
        status, _, err = run_cli("report", PROBLEMS, "--html", target, "--db", db, "-j", "1")
    assert status == 130
    assert "2 new tables saved" in err and "--resume" in err and "Traceback" not in err
    status, _, err = run_cli("report", PROBLEMS, "--html", target, "--db", db, "--resume")
    assert status == 0
    assert f"2 from {db}, 4 solved now" in err
    assert len(parse_report(target.read_text(encoding="utf-8")).boards) == 6


def test_report_to_standard_output(run_cli):
    status, out, _ = run_cli("report", PROBLEMS, "--html", "-", "-q")
    assert status == 0
    assert len(parse_report(out).boards) == 6
    assert 'class="problems"' not in out  # no notice when all went well


def test_source_date_epoch_dates_the_page(run_cli, monkeypatch):
    """The page carries the day it was made, so it differed from day to day; with
    SOURCE_DATE_EPOCH the same files give the same bytes."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    status, first, _ = run_cli("report", PROBLEMS, "--html", "-", "-q")
    assert status == 0 and "2023-11-14" in first
    import time

    import ddsolver.cli.report as report_module

    def strftime(form: str, when: object = None) -> str:   # today is 2031-05-18
        return "2031-05-18" if when is None else time.strftime(form, when)  # type: ignore
    later = type("Clock", (), {"strftime": staticmethod(strftime),
                               "gmtime": staticmethod(time.gmtime)})
    monkeypatch.setattr(report_module, "time", later)     # another day
    assert run_cli("report", PROBLEMS, "--html", "-", "-q")[1] == first
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert "2031-05-18" in run_cli("report", PROBLEMS, "--html", "-", "-q")[1]


def test_report_usage_errors(run_cli, tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["report", str(PROBLEMS)])            # --html is required
    assert exc.value.code == 2
    capsys.readouterr()
    status, _, err = run_cli("report", PROBLEMS, "--html", PROBLEMS)
    assert status == 2 and "is an input file" in err
    status, _, err = run_cli("report", PROBLEMS, "--html", tmp_path / "no" / "x.html")
    assert status == 2 and "cannot write" in err


def test_report_help_has_examples(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["report", "--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    assert "examples:" in text and "ddsolver report data/session.pbn --html" in text


def test_a_vugraph_deal_is_shown_once_for_both_rooms(run_cli, tmp_path):
    deal = "md|1SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|"
    path = tmp_path / "match.lin"
    path.write_text(f"qx|o1|{deal}\nqx|c1|{deal}\n")
    html = tmp_path / "match.html"
    status, _, err = run_cli("report", path, "--html", html)
    assert status == 0, err
    assert html.read_text().count('id="board-1') == 1
    assert "2 boards (1 deal, 2 tables)" in err


def test_the_title_is_the_first_event_named_and_a_board_label_is_kept(run_cli, tmp_path):
    # An unnamed first Event ("?") gave the file name as the title though the next game
    # names its event; a Board tag such as "4-1" was shown as "Board ?".
    deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    path = tmp_path / "boards.pbn"
    path.write_text(f'[Event "?"]\n[Board "1"]\n[Deal "{deal}"]\n\n'
                    f'[Event "Spring <Pairs> & Teams"]\n[Board "4-1"]\n[Deal "{deal}"]\n')
    html = tmp_path / "boards.html"
    status, _, err = run_cli("report", path, "--html", html, "-q")
    assert status == 0, err
    page = html.read_text()
    assert "<title>Spring &lt;Pairs&gt; &amp; Teams</title>" in page
    assert 'class="number">Board 4-1<' in page

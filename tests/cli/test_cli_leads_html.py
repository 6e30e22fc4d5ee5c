"""``ddsolver leads --format html``: one self-contained page, to a file (``-o``) or to
standard output, whose numbers are the JSON report's numbers (the visible table and
captions read back), with one well-formed SVG chart per lead whose bars add up to the
sample; the same seed gives the same bytes; a PBN file's boards share one page; and the
cases a chart cannot show (one deal, no board analysed) are said in words.  Small
samples and fixed seeds keep it fast.  (The page in a browser: test_cli_leads_browser.py.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from html_pages import bar_counts, close, lead_rows, number, pair, parse, svgs

from ddsolver.leads import lead_groups

HAND = ("--hand", "KQ72.J83.T94.A65", "--contract", "4S", "--declarer", "S")
ARGS = (*HAND, "--south", "5+ spades, 12+ hcp", "--north", "hcp<=10", "--samples", "24",
        "--seed", "5", "--quiet")

# North 17 hcp 4=3=2=4, South 13 hcp 3=3=4=3: 1NT - 3NT by the book.  East leads.
DEAL = "N:KQ42.K87.A8.KQ52 987.T5.QJ543.A87 AJ6.A64.KT62.J96 T53.QJ932.97.T43"
_DIGITS = {"mean": 3, "se": 3, "var": 2, "sd": 2, "score": 1, "score_se": 1,
           "diff_tricks": 3, "diff_tricks_se": 3, "diff_imps": 2, "diff_imps_se": 2,
           "mp_vs_best": 1, "mp_vs_best_se": 1, "mp_field": 1, "mp_field_se": 1}


def _game(board: int | str, auction: str, extra: str = "") -> str:
    calls = auction.split()
    lines = "\n".join(" ".join(calls[i:i + 4]) for i in range(0, len(calls), 4))
    return (f'[Board "{board}"]\n[East "Evans <E>"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
            f'[Deal "{DEAL}"]\n{extra}[Auction "N"]\n{lines}\n')


def _check(page: str, report: dict) -> None:
    """The page's section for ``report`` (a JSON report) shows its numbers."""
    root = parse(page)
    rows = lead_rows(root)
    assert list(rows) == [r["label"] for r in report["rows"]]
    for r in report["rows"]:
        shown = rows[r["label"]]
        assert int(shown["n"]) == r["n"] == report["samples"]
        for key, digits in _DIGITS.items():
            assert close(number(shown[key.replace("_", "-")]), r[key], digits), (r["label"], key)
        assert close(number(shown["p-set"]), r["p_set"], 1, 100)
        assert close(number(shown["p-best"]), r["p_best"], 1, 100)
        lo, hi = pair(shown["ci"])
        assert close(lo, r["ci"][0], 2) and close(hi, r["ci"][1], 2)
        lo, hi = pair(shown["p-set-ci"])
        assert close(lo, r["p_set_ci"][0], 1, 100) and close(hi, r["p_set_ci"][1], 1, 100)
    charts = svgs(page)
    assert len(charts) == len(report["rows"]), "one chart per lead"
    for r, svg in zip(report["rows"], charts):
        counts = bar_counts(svg)
        assert sum(counts.values()) == report["samples"]
        mean = sum(t * k for t, k in counts.items()) / report["samples"]
        assert abs(mean - r["mean"]) < 1e-9, "the bars are this lead's deals"
        down = 8 - int(report["contract"][0])      # the defence's tricks that beat it
        p_set = sum(k for t, k in counts.items() if t >= down) / report["samples"]
        assert abs(p_set - r["p_set"]) < 1e-9
    for figure, r in zip(root.iter("figure", "lead-chart"), report["rows"]):
        assert figure.attrs["data-lead"] == r["label"]
        assert close(number(figure.find("span", "mean").text()), r["mean"], 3)
        assert close(number(figure.find("span", "p-set").text()), r["p_set"], 1, 100)
    settings = {tr.find("th").text(): tr.find("td").text() for tr in
                root.find("table", "settings").iter("tr")}
    assert settings["Seed"] == str(report["seed"])
    assert settings["Deals sampled"].split()[0] == str(report["samples"])


def test_page_to_a_file_shows_the_json_reports_numbers(run_cli, tmp_path):
    target = tmp_path / "leads.html"
    status, out, err = run_cli("leads", *ARGS, "--format", "html", "-o", target)
    assert status == 0, err
    assert out == ""
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<script" not in page.lower() and not re.search(r"\b(src|href)=", page)
    status, out, _ = run_cli("leads", *ARGS, "--format", "json")
    assert status == 0
    report = json.loads(out)
    _check(page, report)
    text = parse(page).text()
    # The constraints as the report has them ("hcp<=10" reads "0-10 hcp"), by seat.
    items = [li.text() for li in parse(page).find("ul", "constraints").iter("li")]
    assert items[:2] == [f"{name}: {report['constraints'][key]} [alone "
                         f"{100 * report['seat_acceptance_rates'][key]:.3g}% of deals]"
                         for key, name in (("N", "North (dummy)"), ("S", "South (declarer)"))]
    assert "Opening lead by West against 4\u2660 by South" in text


def test_page_to_standard_output_is_the_same_bytes_every_run(run_cli, tmp_path):
    target = tmp_path / "leads.html"
    assert run_cli("leads", *ARGS, "--format", "html", "-o", target)[0] == 0
    status, out, _ = run_cli("leads", *ARGS, "--format", "html")
    assert status == 0
    assert out == target.read_text(encoding="utf-8")
    assert run_cli("leads", *ARGS, "--format", "html")[1] == out


def test_one_deal_says_so_and_draws_no_interval(run_cli):
    status, out, err = run_cli("leads", *HAND, "--samples", "1", "--seed", "2", "--quiet",
                               "--format", "html")
    assert status == 0, err
    assert "Traceback" not in err
    assert "Only one deal was sampled" in parse(out).text()
    for svg in svgs(out):
        assert sum(bar_counts(svg).values()) == 1
    assert not re.search(r"nan|inf", "".join(re.findall(r"<svg\b.*?</svg>", out, re.S)),
                         re.I)
    status, js, _ = run_cli("leads", *HAND, "--samples", "1", "--seed", "2", "--quiet",
                            "--format", "json")
    _check(out, json.loads(js))


def test_boards_of_a_file_share_one_page(run_cli, tmp_path):
    path = tmp_path / "boards.pbn"
    nt = "1NT Pass 3NT Pass Pass Pass"
    path.write_text("% PBN 2.1\n" + "\n".join([
        _game(1, nt, '[Play "E"]\nD4 - - -\n*\n'), _game(2, "Pass Pass Pass Pass"),
        _game(3, nt)]), encoding="utf-8")
    fast = ("--samples", "6", "--seed", "1", "--quiet")
    status, page, err = run_cli("leads", path, *fast, "--format", "html")
    status_json, js, _ = run_cli("leads", path, *fast, "--format", "json")
    assert status == status_json
    data = json.loads(js)
    root = parse(page)
    sections = [s for s in root.iter("section", "lead-report") if "leaders" not in s.classes]
    assert len(sections) == len(data["boards"]) == 2
    for section, board in zip(sections, data["boards"]):
        where = section.find("p", "where").text()
        assert where == f"{board['source']}:{board['line']} board {board['board']}"
        start = page.rindex("<section", 0, page.index(f'id="{section.attrs["id"]}"'))
        end = page.index("</section>", start) + len("</section>")
        _check(page[start:end], board)
    # The lead made at the table, and the summary by player (the name escaped).
    assert "Lead at the table: D4 by Evans <E>" in root.text()
    leaders = root.find("table", "leaders")
    assert leaders is not None and "Evans <E> (E)" in leaders.text()
    assert "Evans <E>" not in page


def test_a_board_left_out_is_listed_on_the_page(run_cli, tmp_path):
    """The page said "1 report" and nothing of the board skipped (standard error did)."""
    path = tmp_path / "boards.pbn"
    short = DEAL[:-1]       # West a card short: the board cannot be analysed
    path.write_text("% PBN 2.1\n" + _game(1, "1NT Pass 3NT Pass Pass Pass") + "\n" +
                    _game(2, "1NT Pass 3NT Pass Pass Pass").replace(DEAL, short),
                    encoding="utf-8")
    status, page, err = run_cli("leads", path, "--samples", "6", "--seed", "1",
                                "--format", "html")
    assert status == 1
    notice = parse(page).find("aside", "problems")
    assert notice is not None and "The input has 1 problem: boards left out" in notice.text()
    reported = next(line for line in err.splitlines() if "board 2" in line)
    assert reported.removeprefix("ddsolver leads: ") in notice.text()


def test_no_board_analysed_is_still_a_page_that_says_so(run_cli, tmp_path):
    path = tmp_path / "passed.pbn"
    path.write_text("% PBN 2.1\n" + _game(1, "Pass Pass Pass Pass"), encoding="utf-8")
    status, page, err = run_cli("leads", path, "--samples", "4", "--seed", "1", "--quiet",
                                "--format", "html")
    assert "Traceback" not in err
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "No board was analysed" in parse(page).text()
    assert "<svg" not in page


def test_bad_output_path_is_a_usage_error(run_cli, tmp_path):
    status, out, err = run_cli("leads", *ARGS, "--format", "html", "-o",
                               tmp_path / "missing" / "x.html")
    assert status == 2 and "Traceback" not in err and out == ""
    assert not (tmp_path / "missing").exists()


def test_page_opens_from_a_path_with_spaces(run_cli, tmp_path):
    target = Path(tmp_path / "my leads.html")
    assert run_cli("leads", *ARGS, "--format", "html", "-o", target)[0] == 0
    assert target.read_text(encoding="utf-8").count("<svg") == len(lead_groups(HAND[1]))


def test_a_board_named_not_numbered_is_named_everywhere(run_cli, tmp_path):
    """BridgeComposer numbers a chapter's deals "4-1": the headings and the CSV dropped
    such a name (JSON keeps ``board`` a number or null), and a message about the board
    said no board at all."""
    path = tmp_path / "chapter.pbn"
    nt = "1NT Pass 3NT Pass Pass Pass"
    path.write_text("% PBN 2.1\n" + "\n".join([
        _game("4-1", nt), _game("07", nt), _game("4-2", nt).replace(DEAL, DEAL[:-1])]),
        encoding="utf-8")
    fast = ("--samples", "4", "--seed", "1", "--quiet")
    outputs = {fmt: run_cli("leads", path, *fast, "--format", fmt)
               for fmt in ("html", "text", "csv", "json")}
    for status, _, err in outputs.values():
        assert status == 1 and "board 4-2: " in err   # West a card short: left out
    boards = json.loads(outputs["json"][1])["boards"]
    assert [b["board"] for b in boards] == [None, 7] and "name" not in boards[0]
    places = [f"{b['source']}:{b['line']} board {name}" for b, name in zip(boards, ("4-1", "7"))]
    root = parse(outputs["html"][1])
    assert [p.text() for p in root.iter("p", "where")] == places
    text = outputs["text"][1].splitlines()
    assert all(place in text for place in places)
    cells = [line.split(",")[:3] for line in outputs["csv"][1].splitlines()[1:]]
    assert {c[2] for c in cells} == {"4-1", "7"}

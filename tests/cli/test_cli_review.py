"""``ddsolver review``: a player's boards from his seat, checked against what the other
commands say of the same boards (the double-dummy solve, ``ddsolver play``'s costly
cards, the lead analysis), a mistake single dummy shows told from one only double dummy
shows, the summary adding up, the same seed giving the same review, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ddsfiles import real_lin_files

from cardgames import lin
from ddsolver import Solver

DATA = Path(__file__).resolve().parents[2] / "data"


def _problem_one(tmp_path: Path) -> Path:
    """Problem 1 of data/single_dummy.pbn (7NT, three cards each), played as South
    ("Sam") leads the 8, West follows small and North finesses the ten, losing to East's
    queen."""
    board = (DATA / "single_dummy.pbn").read_text().split("{Problem 2")[0]
    board = board.replace('[Play "S"]\n*', '[Play "S"]\nS8 S6 ST SQ\n*')
    board = board.replace('[Board "1"]', '[Board "1"]\n[South "Sam"]\n[North "Nat"]')
    path = tmp_path / "one.pbn"
    path.write_text(board)
    return path


def _vugraph() -> Path:
    return next(p for p in real_lin_files() if p.name == "test_vugraph.lin")


def test_a_vugraph_players_boards_against_the_other_commands(run_cli):
    path = _vugraph()
    status, out, err = run_cli("review", path, "--player", "liggins", "--seed", "1",
                               "--samples", "20", "--format", "json", "-q")
    assert (status, err) == (0, "")
    review = json.loads(out)
    games = [g for g in lin.load_path(path)
             if "Liggins" in [g.tag(s) for s in ("North", "East", "South", "West")]]
    assert [b["board"] for b in review["boards"]] == [g.board for g in games]
    status, out, _ = run_cli("play", path, "--format", "json", "-q")
    analysed = {(a["board"], a["contract"], tuple(c["card"] for c in a["cards"])): a
                for a in json.loads(out)}
    solver = Solver()
    for b, g in zip(review["boards"], games):
        seat = b["seat"]
        declarer = g.declarer
        assert b["dd"] == solver.solve(g.deal, g.contract[1] if g.contract[1] != "N"
                                       else "NT", declarer)
        a = analysed[(g.board, g.contract, tuple(str(c) for c in g.play))]
        side = ({declarer.letter, declarer.partner.letter} if b["role"] == "declarer"
                else {seat} if b["role"] == "defender" else set())
        expected = [(e["card"], e["cost"]) for e in a["errors"] if e["seat"] in side]
        assert [(c["card"], c["cost"]) for c in b["costly"]] == expected
    s = review["summary"]
    assert s["boards"] == len(games)
    assert s["declarer_tricks"] == sum(c["cost"] for b in review["boards"]
                                       if b["role"] == "declarer" for c in b["costly"])
    assert s["score"] - s["par_score"] == sum(b["score"] - b["par_score"]
                                              for b in review["boards"])
    assert s["declarer_points"] == sum(b["points_lost"]["play"] for b in review["boards"]
                                       if b["role"] == "declarer")
    # Board 36: 4S by North, 12 tricks double dummy, one lost by North's S5: 480 -> 450.
    (b36,) = [b for b in review["boards"] if b["board"] == 36]
    assert b36["points_lost"]["play"] == 30 and b36["dd"] == 12


def test_a_lead_is_judged_and_the_same_seed_gives_the_same_review(run_cli):
    path = next(p for p in real_lin_files() if p.name == "sample.lin"
                and "rthorst" in str(p))
    argv = ("review", path, "--player", "Helgemo", "--seed", "3", "--samples", "20",
            "--format", "json", "-q")
    status, first, _ = run_cli(*argv)
    assert status == 0
    boards = json.loads(first)["boards"]
    led = [b for b in boards if b["lead"] is not None]
    assert led and all(b["role"] == "defender" for b in led)
    for b in led:
        assert 1 <= b["lead"]["place"] <= b["lead"]["leads"]
    assert run_cli(*argv)[1] == first


def test_a_costly_card_that_was_a_mistake_from_the_players_seat_too(run_cli, tmp_path):
    # Problem 1 of data/single_dummy.pbn played out: South leads the 8, West follows
    # small and North finesses the ten, losing to East's queen.  Rising with the ace was
    # better from South's view (it loses only to West's SQ76), so the ten is a mistake
    # single dummy too.
    path = _problem_one(tmp_path)
    status, out, err = run_cli("review", path, "--player", "sam", "--seed", "1",
                               "--format", "json", "-q")
    assert (status, err) == (0, "")
    (b,) = json.loads(out)["boards"]
    assert b["role"] == "declarer"
    (c,) = b["costly"]
    # Double dummy the ten costs all three tricks (East wins the queen and the defenders'
    # hearts take the rest); declarer's side could take the three, 13 with the 10 won
    # before the ending: 7NT made (1520) against 7NT three down (150): 1670 points.
    assert b["dd"] == 13 and b["points_lost"] == {"lead": 0, "play": 1670, "claim": 0}
    assert (c["card"], c["seat"], c["cost"], c["visible"]) == ("ST", "N", 3, True)
    assert c["single_dummy"]["best"] == "SA"
    status, text, _ = run_cli("review", path, "--player", "Sam", "--seed", "1", "-q")
    assert "N ST cost 3 tricks double dummy; a mistake from your seat too: SA" in text
    # the better card's value first, then the played card's (they were the other way)
    sd = c["single_dummy"]
    assert (f"SA was better single dummy (SA {sd['best_value']:.2f}, ST {sd['value']:.2f}; "
            in text) and sd["best_value"] > sd["value"]


def test_a_board_without_a_contract_is_not_scored_as_passed_out(run_cli, tmp_path):
    # A hand record (deal, no auction, no contract) used to be reviewed as "passed out"
    # and its 0 set against par in the session's points; a board passed out is scored.
    deal = ('[Deal "N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 '
            '543.T98.76.QT872"]\n')
    games = ('[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[South "Sam"]\n' + deal +
             '\n[Board "2"]\n[Dealer "N"]\n[Vulnerable "None"]\n[South "Sam"]\n' + deal +
             '[Auction "N"]\nPass Pass Pass Pass\n')
    path = tmp_path / "records.pbn"
    path.write_text(games)
    status, out, err = run_cli("review", path, "--player", "sam", "--seed", "1",
                               "--format", "json", "-q")
    assert (status, err) == (0, "")
    report = json.loads(out)
    first, second = report["boards"]
    assert (first["role"], first["score"]) == ("no contract recorded", None)
    assert (second["role"], second["score"]) == ("passed out", 0)
    assert first["par"] == second["par"] and first["par_score"] == 430   # his side: 3NT+1
    summary = report["summary"]
    assert summary["scored"] == 1 and summary["par_score"] == second["par_score"]
    status, text, _ = run_cli("review", path, "--player", "sam", "--seed", "1", "-q")
    assert "no contract recorded (no auction that ends, no Contract tag)" in text
    assert "(on the 1 board with a result and a par)" in text


@pytest.mark.parametrize("argv, status, message", [
    (("--player", " "), 2, "--player names"),
    (("--player", "nobody"), 1, "sat at no board"),
    (("--player", "Liggins", "--seed", "x"), 2, "--seed must be"),
])
def test_bad_input(run_cli, argv, status, message):
    got, out, err = run_cli("review", _vugraph(), *argv, "-q")
    assert got == status and message in err and "Traceback" not in err


def test_a_result_without_a_play_is_no_claim_and_odd_digits_are_no_number(run_cli, tmp_path):
    deal = ('[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. '
            '...AKQJT98765432"]\n')
    path = tmp_path / "r.pbn"
    path.write_text('[Board "1"]\n[South "sam"]\n[Dealer "N"]\n[Vulnerable "None"]\n' + deal +
                    '[Contract "1S"]\n[Declarer "N"]\n[Result "7"]\n\n'
                    '[Board "2"]\n[South "sam"]\n[Dealer "E"]\n[Vulnerable "None"]\n' + deal +
                    '[Contract "1S"]\n[Declarer "N"]\n[Result "\u00b2"]\n')
    status, out, err = run_cli("review", path, "--player", "sam", "--seed", "1",
                               "--format", "json", "-q")
    assert status == 0 and "Traceback" not in err
    one, two = json.loads(out)["boards"]
    assert one["claim"] is None and one["tricks"] == 7 and one["claim_tricks"] == 0
    assert two["tricks"] is None
    status, _, err = run_cli("review", path, "--player", "sam", "--seed", "\u00b2", "-q")
    assert status == 2 and "--seed must be" in err


def test_a_stored_review_is_not_worked_out_again(run_cli, tmp_path):
    path = _vugraph()
    db = tmp_path / "review.sqlite"
    argv = ("review", path, "--player", "Liggins", "--seed", "1", "--samples", "20",
            "--format", "json")
    status, first, err = run_cli(*argv, "--db", db)
    assert status == 0 and "0 from" in err and "8 reviewed now" in err
    status, again, err = run_cli(*argv, "--db", db, "--resume")
    assert status == 0 and "resuming with 8 reviewed boards" in err
    assert "8 from" in err and "0 reviewed now" in err
    assert again == first                    # the stored reviews give the same report
    # Other settings are another review: worked out anew.
    status, _, err = run_cli(*argv[:-2], "--samples", "21", "--db", db)
    assert status == 0 and "0 from" in err and "8 reviewed now" in err
    status, _, err = run_cli(*argv, "--resume", "--db", tmp_path / "missing.sqlite")
    assert status == 2 and "missing.sqlite" in err


def test_the_declarers_line_at_his_first_choice(run_cli, tmp_path):
    # Problem 1 of data/single_dummy.pbn: the best line makes in 19 of 20 worlds single
    # dummy (αμ at depth 4 says so), 20 of 20 by PIMC's fused count; South's S8 is one.
    path = _problem_one(tmp_path)
    lines = {}
    for method in ("alphamu", "pimc"):
        status, out, _ = run_cli("review", path, "--player", "sam", "--seed", "1",
                                 "--method", method, "--depth", "4", "--format", "json", "-q")
        assert status == 0
        review = json.loads(out)
        lines[method] = review["boards"][0]["line"]
        assert review["summary"]["lines_judged"] == 1
    assert lines["alphamu"]["card"] == "S8" and lines["alphamu"]["index"] == 0
    assert lines["alphamu"]["chance"] == pytest.approx(0.95)
    assert lines["alphamu"]["best_chance"] == pytest.approx(0.95)
    assert lines["pimc"]["chance"] == pytest.approx(1.0)


def test_the_page_lists_the_boards_left_out(run_cli, tmp_path):
    """The page summed up the boards it had (points against par and all) and said nothing
    of one skipped for a card the player does not hold; a player at no board got a page
    of "0 boards"."""
    good = _problem_one(tmp_path).read_text()
    bad = good.replace('[Board "1"]', '[Board "2"]').replace("S8 S6 ST SQ", "S7 S6 ST SQ")
    path = tmp_path / "two.pbn"
    path.write_text(good + "\n" + bad)
    status, page, err = run_cli("review", path, "--player", "Sam", "--samples", "4",
                                "--seed", "1", "--format", "html")
    assert status == 1
    notice = page[page.index('<aside class="problems"'):page.index("</aside>")]
    assert "The input has 1 problem: boards left out of this review" in notice
    reported = next(line for line in err.splitlines() if "two.pbn" in line)
    assert "two.pbn" in reported and "two.pbn:" in notice
    status, page, err = run_cli("review", path, "--player", "nobody", "--samples", "4",
                                "--seed", "1", "--format", "html")
    assert status == 1 and "nobody sat at no board of the files" in page   # as spelt


def test_the_page_draws_every_card_one_way(run_cli):
    """Captions said "North H5" and the advice "HJ/HT was better" beside cards drawn as
    ♥5: the page now writes every card with its suit symbol."""
    import html
    import re
    status, page, _ = run_cli("review", _vugraph(), "--player", "Liggins", "--samples", "4",
                              "--seed", "1", "--format", "html", "-q")
    assert status == 0
    body = re.sub(r"<script>.*?</script>|<style>.*?</style>", "", page, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", body))
    assert re.findall(r"\b[SHDC](?:[2-9TJQKA]|10)\b", text) == []
    assert "\u2660" in text or "\u2665" in text

"""The LIN reader (:mod:`cardgames.lin`): every board of the real files of
``../shared/reallin`` read, checked against what the files say elsewhere (the vugraph
archives' results lists, the plays' legality, the claims); each writer's quirk on a small
record; bad records as errors at their line and column, the rest of the file read; and
mutated files that read or fail, never crash."""

from __future__ import annotations

import re

import pytest
from ddsfiles import real_lin_files
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgames import lin, pbn
from cardgames.cards import Seat
from cardgames.errors import CardgamesError
from cardgames.play import Position
from cardgames.scoring import Contract

SEATS = {"N": Seat.NORTH, "E": Seat.EAST, "S": Seat.SOUTH, "W": Seat.WEST}
FULL = ("md|1SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,CAKQJT98765432|")


def _played_out(game: pbn.Game) -> Position | None:
    """The game's play replayed by the rules (raises on an illegal card)."""
    if game.contract in (None, "Pass") or game.deal is None:
        return None
    pos = Position(game.deal, Contract.parse(game.contract).strain,
                   game.declarer.lho)  # type: ignore[union-attr]
    for card in game.play:
        pos.play(card)
    return pos


def test_every_board_of_the_real_files_reads_and_its_play_is_legal():
    files = real_lin_files()
    total = 0
    for path in files:
        text = path.read_bytes().decode("latin-1")
        games = list(lin.load_path(path))           # strict: any error fails the test
        # One board per deal given (md|), in the file's order, each at its record's line.
        assert len(games) == len(re.findall(r"md\|", text)), path
        assert [g.line for g in games] == sorted(g.line for g in games), path
        for game in games:
            deal = game.deal
            assert deal is not None and deal.is_complete, (path, game.line)
            pos = _played_out(game)
            if game.play:
                assert pos is not None
            if "mc|" not in text and pos is not None and pos.is_terminal:
                assert game.tag("Result") is None
        total += len(games)
    assert total == 153


def _results_list(text: str) -> tuple[int, list[str]]:
    """A vugraph archive's first board and its ``rs|`` list (open, closed for each
    board)."""
    vg = re.search(r"vg\|([^|]*)\|", text)
    rs = re.search(r"rs\|([^|]*)\|", text)
    assert vg and rs
    first = int(vg.group(1).split(",")[3])
    return first, [x.strip() for x in rs.group(1).split(",")]


def test_vugraph_boards_agree_with_the_archives_results_lists():
    checked = 0
    for path in real_lin_files():
        text = path.read_bytes().decode("latin-1")
        if "rs|" not in text or "vg|" not in text:
            continue
        first, results = _results_list(text)
        if not any(results):
            continue
        for game in lin.load_path(path):
            room = game.tag("Room")
            entry = results[2 * (game.board - first) + (room == "Closed")]
            m = re.fullmatch(r"(\d)([CDHSN])([NESW])(x{0,2})([=+-]\d*)", entry,
                             re.IGNORECASE)
            assert m, entry
            level, strain, declarer, doubled, outcome = m.groups()
            contract = Contract.parse(game.contract)
            assert contract.level == int(level), (path, game.board, room)
            assert contract.strain.letter[0] == strain.upper()
            assert contract.doubled == len(doubled)
            assert game.declarer == SEATS[declarer.upper()]
            tricks = int(level) + 6 + (0 if outcome == "=" else int(outcome))
            result = game.tag("Result")
            pos = _played_out(game)
            if result is not None:
                assert int(result) == tricks, (path, game.board, room)
            elif pos is not None and pos.is_terminal:
                assert pos.tricks_won(game.declarer) == tricks, (path, game.board, room)
            checked += 1
    assert checked >= 60


def test_players_rooms_alerts_claims_and_comments_of_a_vugraph_archive():
    path = next(p for p in real_lin_files() if p.name == "test_vugraph.lin")
    games = list(lin.load_path(path))
    open33, closed33 = games[0], games[1]
    assert (open33.board, open33.tag("Room"), closed33.tag("Room")) == (33, "Open", "Closed")
    # pn| lists the open room's South, West, North, East, then the closed room's.
    assert [open33.tag(s) for s in ("South", "West", "North", "East")] == [
        "Crouch", "Hyett", "Liggins", "Wolfarth"]
    assert closed33.tag("South") == "Kovachev"
    assert open33.tag("Event") == "Schapiro Spring 4s, Final - EXTRA TIME"
    assert open33.tag("Scoring") == "IMP"       # vg|...,I,...: teams
    assert open33.auction[:3] == ["1NT", "Pass", "2C"]
    notes = [t.value for t in open33.tags if t.name == "Note"]
    assert notes[0] == "1:14-16"
    assert any("Crouch noted for penalty" in c for c in open33.trailing_comments)


@pytest.mark.parametrize("record, check", [
    # three hands and a trailing comma (BBO), the fourth the rest of the pack
    ("pn|a,b,c,d|st||md|3SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|sv|o|",
     lambda g: g.deal[Seat.EAST].to_pbn() == "...AKQJT98765432"),
    # ... and without the comma (TMPbn2LinVG, bridge-wrangler)
    ("md|3SAKQJT98765432,HAKQJT98765432,DAKQJT98765432|sv|0|",
     lambda g: g.deal[Seat.EAST].to_pbn() == "...AKQJT98765432" and g.dealer == Seat.NORTH),
    # cards in any order and case, empty suits as adjacent letters
    ("md|2s23456789tjqka,h2345678910JQKA,D23456789TJQKA,|",
     lambda g: g.deal[Seat.SOUTH].to_pbn() == "AKQJT98765432..." and g.dealer == Seat.WEST),
    # vulnerability in every spelling
    (FULL + "sv|N|", lambda g: g.vulnerable == "ns"),
    (FULL + "sv|e|", lambda g: g.vulnerable == "ew"),
    (FULL + "sv|B|", lambda g: g.vulnerable == "both"),
    (FULL + "sv|-|", lambda g: g.vulnerable == "none"),
    # the board from qx| or ah|; the dealer from the board when md| gives none
    ("qx|c7,BOARD 7|md|SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|",
     lambda g: (g.board, g.tag("Room"), g.dealer) == (7, "Closed", Seat.SOUTH)),
    ("ah|Board 12|" + FULL, lambda g: g.board == 12),
    # alerts, with and without an explanation; a passed-out board
    (FULL + "mb|1N!|an|15-17|mb|2C!|mb|p|mb|p|mb|p|",
     lambda g: g.auction == ["1NT", "2C", "Pass", "Pass", "Pass"] and
     [t.value for t in g.tags if t.name == "Note"] == ["1:15-17", "2:alerted"]),
    (FULL + "mb|p|mb|P|mb|p|mb|p|", lambda g: g.contract == "Pass" and g.declarer is None),
    (FULL + "mb|1S|mb|d|mb|r|mb|p|mb|p|mb|p|",
     lambda g: g.contract == "1SXX" and g.declarer == Seat.SOUTH),
])
def test_quirks_of_the_writers(record, check):
    games = list(lin.loads(record))
    assert len(games) == 1 and check(games[0])


def test_values_across_lines_comment_lines_links_and_a_claim_mid_trick():
    text = ("% a converter's header\n%\n"
            "pn|S1,W1,N1,E1|md|3SAKQJT98765432,HAKQJT98765432,DAKQJT98765432|sv|o\n"
            "|mb|7S|mb|p|mb|p|mb|p|pg||\npc|cA|pc|s2|pc|H2|pc|D2|pg||\npc|sA|mc|13|\n")
    (game,) = list(lin.loads(text))
    assert game.vulnerable == "none" and game.contract == "7S" and game.declarer == Seat.NORTH
    assert [str(c) for c in game.play] == ["CA", "S2", "H2", "D2", "SA"]
    assert game.tag("Result") == "13" and game.tag("North") == "N1" and game.line == 3
    url = ("https://www.bridgebase.com/tools/handviewer.html?lin=pn%7Cx,y,z,w%7Cmd%7C3"
           "SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,%7Csv%7Cb%7C")
    (linked,) = list(lin.loads(url + "\n"))
    assert linked.vulnerable == "both" and linked.tag("South") == "x"
    (bare,) = list(lin.loads(url.split("?", 1)[1] + "\n"))     # the lin= string alone
    assert bare.deal == linked.deal and bare.tag("South") == "x"
    assert lin.looks_like_lin(url) and lin.looks_like_lin("%x\n\nqx|o1|")
    assert lin.looks_like_lin(url.split("?", 1)[1])
    assert not lin.looks_like_lin('[Event "x"]\npn|a|')


@pytest.mark.parametrize("bad, reason", [
    ("md|3SAKQJT98765432,HAKQJT98765432,DAKQJT9876543Z,|", "is not a rank"),
    ("md|3SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,CAKQJT98765432,SA|",
     "a deal has four"),
    ("md|7SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|", "dealer is 1"),
    ("md|3SAAKQJT9876543,HAKQJT98765432,DAKQJT98765432,|", "twice"),
])
def test_a_board_whose_deal_does_not_read_is_an_error_and_the_rest_is_read(bad, reason):
    good = "qx|o1|" + FULL + "sv|o|"
    text = good + "\n" + "qx|o2|" + bad + "\n" + good.replace("o1", "o3") + "\n"
    with pytest.raises(lin.LINError, match=reason) as info:
        list(lin.loads(text, source="f.lin"))
    assert str(info.value).startswith("f.lin:2: column ")
    errors: list = []
    games = list(lin.loads(text, source="f.lin", strict=False, on_error=errors.append))
    assert [g.board for g in games] == [1, 3]
    assert len(errors) == 1 and errors[0].line == 2


@pytest.mark.parametrize("bad, reason, kept", [
    (FULL + "sv|q|", r"column 71: sv\|q\|: vulnerability", "deal"),
    (FULL + "mb|1S|mb|8N|", r"column 77: mb\|8N\|: not a call", "deal"),
    # the call at fault, not the first
    (FULL + "mb|1S|mb|1C|mb|p|mb|p|mb|p|", r"column 77: mb\|1C\|: the auction does not read",
     "deal"),
    (FULL + "mb|1S|mb|p|mb|p|mb|p|pc|SZ|", r"column 92: pc\|SZ\|: not a card", "auction"),
    (FULL + "mb|1S|mb|p|mb|p|mb|p|pc|H2|pc|H2|", "already been played", "auction"),
    (FULL + "mb|1S|mb|p|mb|p|mb|p|pc|D2|", "cannot play D2", "auction"),
    (FULL + "pc|D2|", "without a contract", "deal"),
    (FULL + "mb|1S|mb|p|mb|p|mb|p|mc|14|", "0 to 13", "play"),
    (FULL + "mb|1S|mb|p|mb|p|mb|p|mc|²|", "0 to 13", "play"),
])
def test_what_does_not_read_is_left_out_said_at_its_column(bad, reason, kept):
    """A board keeps what reads -- the deal always, the auction if it reads, the play if it
    follows the rules -- and the rest is an error at its column (the board still counts
    as not read whole: exit status 1 in the commands)."""
    good = "qx|o1|" + FULL + "sv|o|"
    text = good + "\n" + "qx|o2|" + bad + "\n" + good.replace("o1", "o3") + "\n"
    with pytest.raises(lin.LINError, match=reason):
        list(lin.loads(text, source="f.lin"))
    errors: list = []
    games = list(lin.loads(text, source="f.lin", strict=False, on_error=errors.append))
    assert [g.board for g in games] == [1, 2, 3]
    assert len(errors) == 1 and errors[0].line == 2 and "left out" in str(errors[0])
    # a part left out, not a board: what tells the commands not to count a board lost
    assert isinstance(errors[0], lin.LINPartError)
    board = games[1]
    assert board.deal is not None and board.deal.is_complete
    assert bool(board.auction) == (kept in ("auction", "play"))
    assert bool(board.play) == (kept == "play" and "pc|" in bad)
    assert board.tag("Result") is None


def test_pairs_before_a_records_deal_belong_to_its_board():
    # One-line records whose pn|, sv| and ah| come before md| (and a deal-only record).
    text = ("pn|a,b,c,d|st||sv|n|ah|Board 5|" + FULL + "mb|p|mb|p|mb|p|mb|p|\n"
            "pn|e,f,g,h|st||sv|b|ah|Board 6|" + FULL + "\n"
            "qx|o7|" + FULL + "pn|i,j,k,l|sv|e|mb|1S|mb|p|mb|p|mb|p|\n")
    games = list(lin.loads(text))
    assert [(g.board, g.vulnerable, g.tag("South")) for g in games] == [
        (5, "ns", "a"), (6, "both", "e"), (7, "ew", "i")]
    assert games[2].contract == "1S"


def test_a_new_header_is_for_the_boards_after_it():
    text = ("vg|Event A,Seg 1,I,1,2,X,0,Y,0|pn|a,b,c,d,e,f,g,h|qx|o1|" + FULL +
            "mb|p|mb|p|mb|p|mb|p|\nvg|Event B,Seg 2,P,1,2,X,0,Y,0|pn|A,B,C,D,E,F,G,H|\n"
            "qx|o2|" + FULL + "\n")
    one, two = list(lin.loads(text))
    assert (one.tag("Event"), one.tag("Scoring"), one.tag("South")) == (
        "Event A, Seg 1", "IMP", "a")
    assert (two.tag("Event"), two.tag("Scoring"), two.tag("South")) == (
        "Event B, Seg 2", "MP", "A")


def test_text_that_is_not_a_pair_is_an_error_where_it_stands():
    errors: list = []
    games = list(lin.loads("qx|o1|" + FULL + "\nthis is not lin\nqx|o2|" + FULL,
                           strict=False, on_error=errors.append))
    assert [g.board for g in games] == [1, 2]
    assert len(errors) == 1 and errors[0].line == 2 and "not a LIN key" in str(errors[0])


def test_open_games_tells_lin_from_pbn_by_content(tmp_path):
    as_lin = tmp_path / "board.pbn"            # the name says PBN, the content LIN
    as_lin.write_text("qx|o4|" + FULL)
    as_pbn = tmp_path / "board.lin"
    as_pbn.write_text('[Board "4"]\n[Deal "N:AKQJT98765432... .AKQJT98765432.. '
                      '..AKQJT98765432. ...AKQJT98765432"]\n')
    for path in (as_lin, as_pbn):
        with lin.open_games(path) as reader:
            games = list(reader)
        assert [g.board for g in games] == [4]
        assert games[0].deal is not None and games[0].deal.is_complete


_PIECES = st.sampled_from(["|", "||", "\n", "\r\n", "md|", "mb|", "pc|", "mc|", "qx|o1|",
                           "pn|", ",", "!", "an|", "sv|", "%", "x", "SA", "1N", "3S",
                           "\x00", "é"])


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_mutated_real_files_read_or_fail_with_a_line(data):
    files = real_lin_files()
    path = data.draw(st.sampled_from(files))
    text = path.read_bytes().decode("latin-1")
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 12))
        text = text[:at] + data.draw(_PIECES) + text[at + cut:]
    errors: list = []
    games = list(lin.loads(text, source="m.lin", strict=False, on_error=errors.append))
    for err in errors:
        assert isinstance(err, lin.LINError) and err.line is not None
        assert str(err).startswith("m.lin:")
    for game in games:
        game.validate()


def test_to_lin_writes_notes_and_alerts_and_reads_back_the_same_board():
    # A note is an explanation (an|); an alert (!) is a call written with "*", or one
    # whose note says so ("Alert. ...", "Alerted").  Every note was written as an alert.
    game = pbn.Game.from_pbn(
        '[Board "5"]\n[West "?"]\n[North "n|1"]\n[Dealer "N"]\n[Vulnerable "EW"]\n'
        '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n'
        '[Auction "N"]\n1NT =1= Pass 2C* =2= Pass\n2D =3= Pass 2H* Pass\nPass Pass\n'
        '[Note "1:15-17"]\n[Note "2:Stayman"]\n[Note "3:Alert. no major"]\n'
        '[Play "W"]\nC2 S2 H2 D3\n*\n[Result "7"]\n')
    record = lin.to_lin(game)
    assert "mb|1N|an|15-17|mb|p|mb|2C!|an|Stayman|mb|p|mb|2D!|an|Alert. no major|mb|p|" \
        "mb|2H!|mb|p|mb|p|" in record
    assert "pn|,,n/1,|" in record and "mc|7|" in record and "sv|e|" in record
    (back,) = list(lin.loads(record))
    assert (back.board, back.deal, back.auction, back.play, back.tag("Result")) == (
        game.board, game.deal, game.auction, game.play, "7")
    assert back.auction_notes == game.auction_notes[:6] + [("alerted", True)] + \
        game.auction_notes[7:]
    assert [t.value for t in back.tags if t.name == "Note"] == [
        "1:15-17", "2:Stayman", "3:Alert. no major", "4:alerted"]
    assert lin.to_lin(back) == record          # and so on, the same


def _records(n: int) -> str:          # n one-line hand records
    return ("pn|a,b,c,d|st||md|3SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|sv|o|"
            "mb|1S|mb|p|mb|p|mb|p|pc|HA|pc|SA|pc|C2|pc|D2|mc|13|\n") * n


def _commentary(n: int) -> str:       # one vugraph board with n comments
    return "qx|o1|" + FULL + "".join(f"nt|comment {i}|pg||\n" for i in range(n))


def _long_value(n: int) -> str:       # a value that runs over n lines
    return "qx|o1|" + FULL + "nt|" + "more\n" * n + "|"


@pytest.mark.parametrize("shape, n", [(_records, 500), (_commentary, 6000),
                                      (_long_value, 6000)],
                         ids=["records", "commentary", "long-value"])
def test_reading_time_grows_linearly(shape, n):
    from timing import assert_linear, fastest

    def seconds(k: int) -> float:
        text = shape(k)
        return fastest(lambda: list(lin.loads(text, strict=False)))
    assert_linear(seconds, n)


def test_text_without_pairs_or_a_board_without_end_stops_or_is_dropped():
    def endless():
        yield "qx|o1|" + FULL + "\n"
        while True:
            yield "y\n"
    reader = lin.LINReader(endless(), strict=False, source="stdin")
    assert [g.board for g in reader] == [1]
    assert len(reader.errors) == lin.MAX_BAD_LINES + 1
    assert "the reading stops" in str(reader.errors[-1])
    many = ("qx|o1|" + FULL + "nt|x|" * (lin.MAX_BOARD_PAIRS + 5) + "\nqx|o2|" + FULL)
    reader = lin.LINReader(iter(many.splitlines(keepends=True)), strict=False, source="s")
    assert [g.board for g in reader] == [2]
    assert len(reader.errors) == 1 and "more than 100,000 pairs" in str(reader.errors[0])


def test_a_bom_a_long_line_and_a_long_value(tmp_path):
    bom = tmp_path / "bom.lin"
    bom.write_bytes(b"\xef\xbb\xbfpn|a,b,c,d|st||" + FULL.encode() + b"\n")
    with lin.open_games(bom) as reader:
        assert isinstance(reader, lin.LINReader) and [g.tag("South") for g in reader] == ["a"]
    long = tmp_path / "long.lin"
    long.write_bytes(b"pn|" + b"x" * (lin.MAX_LINE + 10) + b"\n" + b"qx|o1|" + FULL.encode())
    errors: list = []
    with lin.open_games(long, strict=False, on_error=errors.append) as reader:
        assert list(reader) == []
    assert len(errors) == 1 and "longer than 1,048,576" in str(errors[0])
    errors = []
    games = list(lin.loads("qx|o1|nt|" + "x" * (lin.MAX_VALUE + 1) + "|" + FULL,
                           strict=False, on_error=errors.append))
    assert len(games) == 1 and "longer than 65,536" in str(errors[0])


_DEAL = '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n'


def test_to_lin_writes_what_its_reader_takes_back():
    """What a PBN board may hold that a LIN record may not: passes after the auction has
    ended (not written), no deal (four unknown hands, so that the record still begins a
    board of its own), a play that breaks the rules (refused: written without it)."""
    passes = pbn.Game.from_pbn('[Board "1"]\n[Dealer "N"]\n' + _DEAL +
                               '[Auction "N"]\n1S Pass Pass Pass\nPass Pass\n')
    record = lin.to_lin(passes)
    assert record.count("mb|p|") == 3
    (back,) = list(lin.loads(record))
    assert back.auction == ["1S", "Pass", "Pass", "Pass"] and back.contract is not None
    no_deal = pbn.Game.from_pbn('[Board "2"]\n[Dealer "E"]\n[Auction "E"]\n1H Pass Pass Pass\n')
    both = lin.dumps([no_deal, passes])
    assert "md|4,,,|" in both    # LIN numbers the dealer S=1 W N E
    assert [g.board for g in lin.loads(both)] == [2, 1]
    empty = pbn.Game.from_pbn('[Board "3"]\n[Dealer "N"]\n[Deal "N:- - - -"]\n')
    assert "md|3,,,|" in lin.to_lin(empty)    # not SHDC for a hand with no cards
    illegal = pbn.Game.from_pbn('[Board "4"]\n[Dealer "N"]\n' + _DEAL +
                                '[Auction "N"]\n1S Pass Pass Pass\n[Play "E"]\nSA - - -\n*\n')
    with pytest.raises(CardgamesError, match="card 1 of the play, SA"):
        lin.to_lin(illegal)
    assert "pc|" not in lin.to_lin(illegal, play=False)
    unknown = pbn.Game.from_pbn('[Board "5"]\n[Dealer "N"]\n' + _DEAL +
                                '[Auction "N"]\n- 1S Pass Pass\nPass\n')
    with pytest.raises(CardgamesError, match="'-', is not a call LIN can write"):
        lin.to_lin(unknown, play=False)
    assert "mb|" not in lin.to_lin(unknown, play=False, auction=False)
    ending = pbn.Game.from_pbn('[Board "6"]\n[Deal "N:AKQJT9876543... .AKQJT9876543.. '
                               '..AKQJT9876543. ...AKQJT9876543"]\n')
    with pytest.raises(lin.LINWriteError, match="12-card hands"):
        lin.to_lin(ending)


def test_to_lin_writes_the_lead_tag_of_a_board_without_play():
    """Results files give the opening lead as a Lead tag, with no play: ``convert --to
    lin`` dropped it without a word (``leads`` on the LIN then had no lead at the table)."""
    text = '[Board "1"]\n[Dealer "N"]\n' + _DEAL + '[Auction "N"]\n1S Pass Pass Pass\n'
    leader = Seat.parse("E")       # 1S by North
    card = min(pbn.Game.from_pbn(text).deal[leader])
    (back,) = list(lin.loads(lin.to_lin(pbn.Game.from_pbn(text + f'[Lead "{card}"]\n'))))
    assert back.play == [card] and back.opening_leader == leader
    assert "pc|" not in lin.to_lin(pbn.Game.from_pbn(text + '[Lead "?"]\n'))
    for lead, message in (("HX", "the Lead tag 'HX' is not a card"),
                          (str(min(pbn.Game.from_pbn(text).deal[Seat.parse("S")])),
                           "the Lead tag's card")):
        game = pbn.Game.from_pbn(text + f'[Lead "{lead}"]\n')
        with pytest.raises(CardgamesError, match=message):
            lin.to_lin(game)
        assert "pc|" not in lin.to_lin(game, play=False)
    no_auction = pbn.Game.from_pbn('[Board "1"]\n' + _DEAL + '[Lead "SA"]\n')
    with pytest.raises(CardgamesError, match="the board has a lead but no auction"):
        lin.to_lin(no_auction)


def test_to_lin_takes_the_dealer_from_the_auction_when_no_dealer_tag_says():
    # Board 1's number makes North dealer; the Auction section says East called first.
    # Without a digit the reader would take North and move every call a seat.
    game = pbn.Game.from_pbn('[Board "1"]\n' + _DEAL + '[Auction "E"]\nPass 1NT Pass Pass\n'
                             'Pass\n')
    record = lin.to_lin(game)
    assert record.startswith("st||md|4")
    (back,) = list(lin.loads(record))
    assert back.dealer == Seat.EAST and back.auction == game.auction
    assert back.declarer == game.declarer == Seat.SOUTH
    # A Dealer tag and an Auction section that disagree: LIN has one dealer for both.
    clash = pbn.Game.from_pbn('[Board "1"]\n[Dealer "N"]\n' + _DEAL +
                              '[Auction "E"]\nPass 1NT Pass Pass\nPass\n')
    with pytest.raises(CardgamesError, match="Dealer tag says N, the Auction section starts "
                                             "with E"):
        lin.to_lin(clash, play=False)
    assert lin.to_lin(clash, play=False, auction=False).startswith("st||md|3")


def test_to_lin_keeps_a_name_with_a_comma_in_its_seat():
    game = pbn.Game.from_pbn('[West "Smith, J"]\n[North "N"]\n[Board "1"]\n'
                             '[Deal "N:AKQJT98765432... .AKQJT98765432.. '
                             '..AKQJT98765432. ...AKQJT98765432"]\n')
    (back,) = list(lin.loads(lin.to_lin(game)))
    assert (back.tag("West"), back.tag("North"), back.tag("East")) == ("Smith  J", "N", None)


def test_a_hand_neither_whole_nor_unknown_is_refused_as_the_writer_refuses_it():
    errors: list = []
    assert list(lin.loads("md|3SAKQ2,,,|", strict=False, on_error=errors.append)) == []
    assert "does not hold 13 cards" in str(errors[0])
    (game,) = list(lin.loads("md|3,,,|"))        # four unknown hands: a board, no deal
    assert lin.to_lin(game).startswith("st||md|3,,,|")


def test_arguments_of_the_wrong_kind_are_type_errors():
    with pytest.raises(TypeError, match="LIN text must be a string"):
        lin.loads(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="writes a pbn.Game"):
        lin.to_lin(None)  # type: ignore[arg-type]
    game = pbn.Game.from_pbn('[Board "1"]\n')
    with pytest.raises(TypeError, match="tag Event must be a string"):
        game.set_tag("Event", None)  # type: ignore[arg-type]


def test_another_room_of_a_deal_is_told_as_the_pbn_reader_tells_it():
    # A vugraph file holds each deal twice (open and closed room): the second says which
    # game it repeats, so that a tool solves and shows the deal once.
    deal = "md|1SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|"
    other = "md|1HAKQJT98765432,SAKQJT98765432,DAKQJT98765432,|"
    games = list(lin.loads(f"qx|o1|{deal}\nqx|c1|{deal}\nqx|o2|{other}\nqx|c2|{other}\n"
                           "qx|o3|md|3,,,|\nqx|c3|md|3,,,|\n"))
    assert [g.same_deal_as for g in games] == [None, 0, None, 2, None, None]


def test_the_event_and_scoring_go_out_as_a_vugraph_header_and_come_back():
    # LIN to PBN gave a vugraph's vg| as Event and Scoring tags; PBN to LIN dropped them.
    deal = '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n'
    games = [pbn.Game.from_pbn(f'[Event "Spring Cup, Round 2"]\n[Scoring "IMP"]\n'
                               f'[Board "{n}"]\n{deal}') for n in (1, 2)]
    games.append(pbn.Game.from_pbn(f'[Event "Club pairs"]\n[Scoring "MP"]\n[Board "3"]\n{deal}'))
    games.append(pbn.Game.from_pbn(f'[Event "?"]\n[Board "4"]\n{deal}'))
    text = lin.dumps(games)
    assert text.count("vg|") == 3    # where the header changes, not on every board
    assert text.startswith("vg|Spring Cup,Round 2,I,")
    back = list(lin.loads(text))
    assert [(g.tag("Event"), g.tag("Scoring")) for g in back] == [
        ("Spring Cup, Round 2", "IMP"), ("Spring Cup, Round 2", "IMP"), ("Club pairs", "MP"),
        (None, None)]   # an empty header: board 4 names no event, so none comes back


# ---- where a board ends, what is skipped, line ends, numbers (the QA's findings) ---------

def test_a_record_after_a_board_of_a_deal_alone_keeps_its_own_pairs():
    """Players, vulnerability and number given before a record's deal are that record's,
    not the board before's, when the board before has nothing but its deal: as dumps()
    writes them (a vg| first on the line), indented, or opened by st|| or sv|."""
    games = [pbn.Game.from_pbn(f'[Event "{event}"]\n[Board "{n}"]\n[West "W{n}"]\n'
                               f'[North "N{n}"]\n[East "E{n}"]\n[South "S{n}"]\n'
                               f'[Vulnerable "{vul}"]\n{_DEAL}')
             for n, event, vul in ((1, "Monday Pairs", "None"), (2, "Tuesday Pairs", "NS"))]
    back = list(lin.loads(lin.dumps(games)))
    assert [(g.board, g.tag("Event"), g.tag("South"), g.vulnerable) for g in back] == [
        (1, "Monday Pairs", "S1", "none"), (2, "Tuesday Pairs", "S2", "ns")]
    deal = FULL.replace("md|1", "md|3")
    indented = (f" pn|a,b,c,d|st||{deal}ah|Board 1|sv|o|\n"
                f" pn|e,f,g,h|st||{deal}ah|Board 2|sv|n|\n")
    assert [(g.board, g.tag("South"), g.vulnerable) for g in lin.loads(indented)] == [
        (1, "a", "none"), (2, "e", "ns")]
    before = (f"st||sv|n|ah|Board 5|{deal}\nst||sv|b|ah|Board 6|{deal}\n"
              f"sv|e|ah|Board 7|{deal}\n")
    assert [(g.board, g.vulnerable) for g in lin.loads(before)] == [
        (5, "ns"), (6, "both"), (7, "ew")]
    # Two records on one line, the second opened by its players after the first's deal.
    assert [(g.board, g.tag("South")) for g in lin.loads(
        f"qx|o1|{deal}pn|a,b,c,d|ah|Board 2|{deal}")] == [(1, None), (2, "a")]


def test_pairs_after_a_deal_are_its_own_unless_a_deal_follows_them():
    # A writer that breaks its lines between pairs: the sv| and ah| starting the second
    # line are the board's own, since its auction (no deal) follows them.
    (game,) = list(lin.loads(f"pn|a,b,c,d|{FULL}rh||\nah|Board 3|sv|n|\n"
                             "mb|1S|mb|p|mb|p|mb|p|\n"))
    assert (game.board, game.vulnerable, game.contract, game.tag("South")) == (
        3, "ns", "1S", "a")
    # After an auction, a heading followed by a deal opens the next board.
    one, two = list(lin.loads(f"ah|Board 1|{FULL}mb|p|mb|p|mb|p|mb|p|sv|b|ah|Board 2|{FULL}"))
    assert (one.board, one.vulnerable, two.board, two.vulnerable) == (1, None, 2, "both")


def test_a_claim_that_no_contract_can_have_is_said_not_dropped():
    text = (f"qx|o1|{FULL}sv|o|mc|10|\n"                             # no auction
            f"qx|o2|{FULL}sv|o|mb|1S|mb|p|mb|p|mb|p|mc|99|\n"        # no such result
            f"qx|o3|{FULL}mb|p|mb|p|mb|p|mb|p|mc|5|\n")              # passed out
    errors: list = []
    games = list(lin.loads(text, source="c.lin", strict=False, on_error=errors.append))
    assert [g.board for g in games] == [1, 2, 3]
    assert all(g.tag("Result") is None for g in games)
    assert [(e.line, type(e)) for e in errors] == [(n, lin.LINPartError) for n in (1, 2, 3)]
    assert "c.lin:1: column 76: mc|10|: a claim, but no contract" in str(errors[0])
    assert "the result is left out" in str(errors[2])


def test_a_contract_without_an_auction_is_refused_as_data_and_kept_as_a_comment():
    """LIN gives a contract only by its auction: a board with Contract, Declarer and Result
    tags alone cannot be written whole (the caller, told so, writes it without its play
    and result), and a comment keeps what they said."""
    game = pbn.Game.from_pbn('[Board "3"]\n[Dealer "S"]\n' + _DEAL +
                             '[Declarer "N"]\n[Contract "7S"]\n[Result "13"]\n')
    with pytest.raises(CardgamesError, match=r"a contract \(7S by N\) and a result \(13\) but "
                                             "no auction ending in its contract"):
        lin.to_lin(game)
    record = lin.to_lin(game, play=False)
    assert "mc|" not in record and "nt|Contract 7S by N, result 13|" in record
    errors: list = []
    (back,) = list(lin.loads(record, strict=False, on_error=errors.append))
    assert errors == [] and back.trailing_comments == ("{Contract 7S by N, result 13}",)
    # A contract alone, a result alone, a result that is no trick count: all said.
    alone = pbn.Game.from_pbn('[Board "3"]\n' + _DEAL + '[Contract "3NT"]\n')
    with pytest.raises(CardgamesError, match=r"a contract \(3NT\) but no auction"):
        lin.to_lin(alone)
    bid = ('[Board "1"]\n[Dealer "N"]\n' + _DEAL + '[Auction "N"]\n1S Pass Pass Pass\n')
    with pytest.raises(CardgamesError, match="'NS 11' is not a number of tricks"):
        lin.to_lin(pbn.Game.from_pbn(bid + '[Result "NS 11"]\n'))
    # (North ruffs the first trick: 1 to 13 tricks)
    with pytest.raises(CardgamesError, match=r"the result, 0 tricks, is not one the play "
                                             r"leaves possible \(1 to 13\)"):
        lin.to_lin(pbn.Game.from_pbn(bid + '[Result "0"]\n[Play "E"]\nH2 D2 C2 SA\n*\n'))


def test_text_that_is_not_a_pair_is_skipped_to_the_next_key_of_its_line():
    """A stray bar in a value leaves text that is no pair: it is left out, said as a part
    of the board, and the rest of the line is read (the board is not cut short)."""
    record = (f"pn|a,b,c,d|st||{FULL}ah|Board 1|mb|p|mb|1H!|an|Unusual|two suits|"
              "mb|p|mb|p|mb|p|pc|DA|pc|C2|")
    errors: list = []
    (game,) = list(lin.loads(record, source="s.lin", strict=False, on_error=errors.append))
    assert game.auction == ["Pass", "1H", "Pass", "Pass", "Pass"]
    assert [str(c) for c in game.play] == ["DA", "C2"]
    assert [t.value for t in game.tags if t.name == "Note"] == ["1:Unusual"]
    (err,) = errors
    assert isinstance(err, lin.LINPartError)
    assert str(err).startswith("s.lin:1: column 114: 'two suits' is not a LIN key")
    assert str(err).endswith("left out, the reading goes on at column 124")
    # Text that stands in no board is no part of one: an error that a board is not read.
    errors = []
    assert list(lin.loads("not lin at all\n", strict=False, on_error=errors.append)) == []
    assert [type(e) for e in errors] == [lin.LINError]


_CR_RECORDS = [f"pn|s{n},w,n,e|st||{FULL}ah|Board {n}|sv|o|" for n in (1, 2, 3)]


@pytest.mark.parametrize("end", ["\r", "\r\n", "\n"], ids=["cr", "crlf", "lf"])
def test_every_line_end_ends_a_line_however_the_file_is_read(tmp_path, end):
    text = end.join(_CR_RECORDS) + end
    path = tmp_path / "cr.lin"
    path.write_bytes(text.encode())
    readings = [list(lin.loads(text)), list(lin.load_path(path))]
    with lin.open_games(path) as reader:
        readings.append(list(reader))
    with open(path, "rb") as raw:         # a binary file parts its lines at \n alone
        readings.append(list(lin.load(raw)))
    with open(path, newline="") as kept:
        readings.append(list(lin.load(kept)))
    for games in readings:
        assert [(g.board, g.tag("South"), g.line) for g in games] == [
            (1, "s1", 1), (2, "s2", 2), (3, "s3", 3)]


def test_a_crlf_cut_between_two_reads_is_one_line_end(tmp_path):
    # The reader reads a file by pieces (the first 16 KiB, to tell LIN from PBN, then 64
    # KiB at a time): a \r ending one piece and the \n starting the next are one line end,
    # not an empty line between.
    first = f"qx|o1|{FULL}nt|"
    first += "x" * ((1 << 14) - len(first) - 2) + "|\r"
    path = tmp_path / "cut.lin"
    path.write_bytes((first + f"\nqx|o2|{FULL}\r\nqx|o3|{FULL}").encode())
    with lin.open_games(path) as reader:
        assert [(g.board, g.line) for g in reader] == [(1, 1), (2, 2), (3, 3)]


@pytest.mark.parametrize("record, board, said", [
    ("ah|Board 1 of 24|", 1, None),
    ("ah|Bd 3 Round 2|", 3, None),
    ("ah|Board 4-1|", 4, None),
    ("ah|Board 12 (Open)|", 12, None),
    ("ah|12|", 12, None),
    ("ah|Round 2 Table 3|", None, "no board number read in the heading"),
    ("qx|o0|", None, "board number 0: a board is numbered 1 to 999,999"),
    ("qx|c1234567|", None, "board number 1234567: a board is numbered"),
    ("qx|o999999|", 999999, None),
    ("qx|x5|", None, "not a room and a board number"),
    ("qx|o,BOARD 7|", 7, None),
    ("ah|Board: 3|", 3, None),
    ("ah|Board-3|", 3, None),
    ("ah|Board_3|", 3, None),
])
def test_board_numbers_are_read_from_their_word_or_said(record, board, said):
    errors: list = []
    (game,) = list(lin.loads(record + "md|SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|",
                             strict=False, on_error=errors.append))
    assert game.board == board
    if said is None:
        assert errors == []
    else:
        assert len(errors) == 1 and said in str(errors[0])
        assert isinstance(errors[0], lin.LINPartError)


def test_a_link_whose_bars_stand_as_they_are_is_not_url_decoded():
    url = ("https://www.bridgebase.com/tools/handviewer.html?lin=pn|Ann,Bob,Cy,Di|st||"
           + FULL + "sv|o|mb|1S|an|5+ spades; 100% sure|mb|p|mb|p|mb|p|&v=3")
    (game,) = list(lin.loads(url))
    assert game.tag("South") == "Ann" and game.contract == "1S"
    assert [t.value for t in game.tags if t.name == "Note"] == ["1:5+ spades; 100% sure"]


def test_a_bbo_link_with_bars_and_escapes_is_decoded_but_for_plus():
    """BBO's own links keep their bars and escape the rest (%20, %2C): read as they
    stood, the players and the board number were lost."""
    url = ("https://www.bridgebase.com/tools/handviewer.html?lin=pn%7CSusan%20Siegel%2C"
           "Jerry%20Cohen,Ann,Bob|st||" + FULL + "rh||ah|Board%2017|sv|o|mb|1S|"
           "an|5+%20spades|mb|p|mb|p|mb|p|&v=3")
    (game,) = list(lin.loads(url))
    assert game.tag("South") == "Susan Siegel" and game.tag("West") == "Jerry Cohen"
    assert game.board == 17
    assert [t.value for t in game.tags if t.name == "Note"] == ["1:5+ spades"]


def test_a_record_of_no_deal_gives_the_next_its_players_only():
    """A qx| record with no deal kept reading into the next record: board 6 took board
    5's vulnerability and heading (and its number, had its own qx| none)."""
    text = "qx|o5|ah|Board 5|sv|b|pn|a,b,c,d|\nqx|c6|" + FULL
    (game,) = list(lin.loads(text, strict=False))
    assert game.board == 6 and game.tag("Vulnerable") is None and game.tag("South") == "a"


def test_calls_with_no_deal_and_no_number_are_no_board():
    errors: list = []
    text = "mb|1S|mb|p|mb|p|mb|p|pc|SA|\nqx|o2|" + FULL
    games = list(lin.loads(text, source="n.lin", strict=False, on_error=errors.append))
    assert [g.board for g in games] == [2]
    assert [(type(e), e.line) for e in errors] == [(lin.LINError, 1)]
    assert "no deal (md|) and no board number" in str(errors[0])
    # With a number the board is read with what it has (the play has no deal to follow).
    errors = []
    (game,) = list(lin.loads("qx|o3|mb|1S|mb|p|mb|p|mb|p|", strict=False,
                             on_error=errors.append))
    assert (game.board, game.contract, errors) == (3, "1S", [])


def test_to_lin_writes_the_comments_of_a_game_wherever_they_stand():
    game = pbn.Game.from_pbn('% PBN 2.1\n[Board "1"]\n[Dealer "N"]\n' + _DEAL +
                             '{Lesson: North should open 4S here.}\n'
                             '[Auction "N"]\n1S {too timid} Pass Pass Pass\n'
                             '[Play "E"]\nH2 D2 C2 SA ; the only lead\n*\n{The end.}\n')
    record = lin.to_lin(game)
    assert record.endswith("nt|Lesson: North should open 4S here.|pg||nt|too timid|pg||"
                           "nt|the only lead|pg||nt|The end.|pg||")
    assert "PBN 2.1" not in record        # a % line is for programs, not readers
    (back,) = list(lin.loads(record))
    assert back.trailing_comments == ("{Lesson: North should open 4S here.}", "{too timid}",
                                      "{the only lead}", "{The end.}")

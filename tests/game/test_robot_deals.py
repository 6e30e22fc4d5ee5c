"""The robot that bids random deals by the bidding system's tables (bench/robot_deals.py),
for the lead benchmark on random deals: its auctions are legal and complete, the same seed
gives the same file, the file reads back as the boards it wrote, and the system's inference
of each auction holds the hands that bid it."""

from __future__ import annotations

import pytest
from bench_scripts import load_bench_script

from cardgames.auction import Auction, Call
from cardgames.bidding import default_system, infer
from cardgames.cards import Seat, Strain
from cardgames.hands import Deal
from cardgames.pbn import loads
from ddsolver.board_leads import lead_board


@pytest.fixture(scope="module")
def robot_deals():
    return load_bench_script("robot_deals")


@pytest.fixture(scope="module")
def made(robot_deals):
    return robot_deals.robot_file(40, seed=7)


def test_same_seed_same_file_and_another_seed_another(robot_deals, made):
    text, _, _ = made
    short = robot_deals.robot_file(15, seed=7)[0]
    assert robot_deals.robot_file(15, seed=7)[0] == short
    boards = short.rstrip().split("\n\n")[1:]        # after the header's comment lines
    assert len(boards) == 15 and boards == text.split("\n\n")[1:16]
    assert robot_deals.robot_file(15, seed=8)[0] != short


def test_the_file_reads_back_as_the_boards_written(made):
    text, _, tally = made
    games = list(loads(text))
    assert len(games) == 40
    kinds = {"notrump": 0, "suit": 0, "passed out": 0}
    for game in games:
        assert game.deal is not None and game.deal.is_complete
        board = lead_board(game, "robot")
        if board is None:
            kinds["passed out"] += 1
            continue
        assert board.auction is not None and board.auction.is_complete
        assert board.contract == board.auction.contract
        kinds["notrump" if board.contract.strain == Strain.NOTRUMP else "suit"] += 1
    assert kinds == {k: tally.get(k, 0) for k in kinds}
    assert kinds["notrump"] and kinds["suit"]


def test_the_inference_holds_the_robots_hands(made):
    """The robot bids only what the tables say its hand shows, so the system's reading of
    its auctions holds its hands (a few leaks where it passes in a context no table knows
    and the fallback reads more into the pass: counted, and few)."""
    text, _, tally = made
    system = default_system()
    hands = inside = 0
    for game in loads(text):
        board = lead_board(game, "robot")
        if board is None:
            continue
        for seat, c in infer(board.auction, system).constraints.items():
            hands += 1
            inside += c.accepts(game.deal[seat])
    assert hands == tally["hands"] > 100
    assert inside == tally["inside"] >= 0.97 * hands


def test_the_robot_bids_by_the_tables(robot_deals):
    robot = robot_deals.Robot(default_system())
    deal = Deal.from_pbn("N:AQ5.KJ4.A972.K83 T9872.Q52.8.J742 K6.A873.KQ54.QT5 J43.T96.JT63.A96")
    a = Auction("N")
    assert robot.call(a, deal.north).name == "1NT"                     # 16, balanced
    a = a.then("1NT", "P")
    assert robot.call(a, deal.south).name in ("2C", "3NT")             # 13, four hearts
    weak = Deal.from_pbn("N:KQT98.52.J84.743 A4.AK3.KQ52.AQ86 J73.QJ9874.A6.K2 652.T6.T973.JT95")
    assert robot.call(Auction("N"), weak.north).is_pass                # 6, five spades
    # every call it makes is one the system reads as a hand like the one that made it
    auction = robot.auction(deal, Seat.NORTH)
    assert auction.dealer == Seat.NORTH and auction.is_complete
    assert auction.contract is not None
    got = infer(auction, default_system()).constraints
    assert got and all(c.accepts(deal[s]) for s, c in got.items())


def test_the_robot_preempts_as_a_standard_card(robot_deals, made):
    """The system reads a weak two from five cards and a three-bid from six (real players
    stray so); the robot makes them as a standard card does: six cards, seven, 5-10 HCP,
    the strong 2C with 22 or more.  Before, the most specific call made them from every
    such hand and 41% of its deals opened with a weak two or a preempt (real: 6-15%)."""
    robot = robot_deals.Robot(default_system())
    opening = Auction("N")
    for hand, call in (("KQT987.52.J84.74", "2S"),      # 6, six spades
                       ("KQT9872.5.J84.74", "3S"),      # 6, seven spades
                       ("KQT98.52.J84.743", "P"),       # 6, five spades
                       ("KQT987.AK2.84.74", "1S"),      # 12
                       ("AKQ95.AK4.AQ5.K2", "2C"),      # 25
                       ("AKQ95.AK42.A85.2", "1S")):     # 20, four losers
        got = robot.call(opening, Deal.from_pbn(f"N:{hand} - - -").north)
        assert got == Call.parse(call), hand
    text, _, _ = made
    boards = [b for b in (lead_board(g, "robot") for g in loads(text)) if b is not None]
    openings = [next((c for c in b.auction if c.is_bid), None) for b in boards]
    preempts = [c for c in openings if c is not None and c.name not in ("2C", "2NT")
                and c.level >= 2]
    assert len(preempts) <= len(openings) / 4     # 41% before


def test_the_opener_bids_over_a_new_suit(robot_deals):
    """A new suit from partner is forcing: the opener finds a rebid where no table of
    the system lists one (1C-1D with four hearts, read as natural) instead of passing."""
    robot = robot_deals.Robot(default_system())
    auction = Auction("N").then("1C", "P", "1D", "P")
    got = robot.call(auction, Deal.from_pbn("N:A2.KJ75.Q3.KJ852 - - -").north)
    assert got == Call.parse("1H")
    # not when partner's call was a raise, no-trump, or the other side came in
    assert robot.call(Auction("N").then("1C", "P", "1NT", "P"),
                      Deal.from_pbn("N:A2.KJ75.Q3.KJ852 - - -").north).is_pass
    assert not robot._forced(Auction("N").then("1C", "1S", "1NT", "P"))
    assert not robot._forced(Auction("N").then("1H", "P", "2H", "P"))
    assert robot._forced(Auction("N").then("1H", "P", "2C", "P"))


def test_the_robot_competes(robot_deals, made):
    """A natural overcall is made though no table answers it (partner may pass it), a
    takeout double of a weak two is not (partner could not answer it), one of a minor is
    (the system reads partner's answers); and the other side bids on a fair share of the
    deals (at real tables and in robot matches about half)."""
    robot = robot_deals.Robot(default_system())
    one_heart = Auction("N").then("1H")
    assert robot.call(one_heart, Deal.from_pbn(
        "E:AT873.Q75.A2.Q72 - - -").east).name == "1S"          # 12, five spades
    assert robot.call(one_heart, Deal.from_pbn(
        "E:AQ2.Q75.KJ32.Q72 - - -").east).is_pass                # 14, balanced, no suit
    assert robot.call(Auction("N").then("2H"), Deal.from_pbn(
        "E:AQ52.2.KJ32.KJ75 - - -").east).is_pass                # 14: no table after 2H X P
    assert robot.call(Auction("N").then("1C"), Deal.from_pbn(
        "E:AQ52.KJ75.KJ32.2 - - -").east).name == "X"            # the table after 1C X P
    text, _, _ = made
    both = boards = 0
    for game in loads(text):
        board = lead_board(game, "robot")
        if board is None:
            continue
        boards += 1
        bids = [seat for _, seat, call in board.auction.seated() if not call.is_pass]
        both += len({seat in (bids[0], bids[0].partner) for seat in bids}) == 2
    assert both >= boards / 6          # 9 of 40 here; 2 when overcalls waited for a table


def test_the_robot_overcalls_notrump_with_a_stopper(robot_deals):
    """A 1NT overcall shows a stopper in their suit (the system's [notrump] table): the
    robot makes it, as the inference reads it, only with one."""
    robot = robot_deals.Robot(default_system())
    one_heart = Auction("N").then("1H")
    assert robot.call(one_heart, Deal.from_pbn(
        "E:AQ2.K75.KJ32.Q72 - - -").east).name == "1NT"         # 17, balanced, Kxx
    assert robot.call(one_heart, Deal.from_pbn(
        "E:AQ2.Q5.KJ32.KQ72 - - -").east).name != "1NT"         # 17, Qx: no stopper


def test_bids_as_keeps_the_deals_the_robot_bids_so(robot_deals, made):
    """``bids_as`` (the bench's --robot-reading: deals kept only when the robot would bid
    the auction so) holds every deal the robot bid, and throws out most of them with the
    hands moved round the table (the same auction from other hands)."""
    text, _, _ = made
    robot = robot_deals.Robot(default_system(), seed=7)      # the robot that bid the file
    kept = rotated = boards = 0
    for game in loads(text):
        board = lead_board(game, "robot")
        if board is None:
            continue
        boards += 1
        test = robot_deals.bids_as(robot, board.auction, board.leader)
        kept += test(game.deal)
        # asking the leader's own calls too changes nothing on the deal it bid
        assert robot_deals.bids_as(robot, board.auction)(game.deal)
        rotated += test(game.deal.rotate(1))
    assert kept == boards > 20
    assert rotated < boards / 2

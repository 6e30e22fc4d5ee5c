#!/usr/bin/env python3
"""Random deals bid by a robot that follows the bidding system's tables: BEN's protocol
for its published opening-lead figures (DDOLAR on 1,000 random deals its own bidding
reached), on our system.

On the real boards of ``../shared/realpbn`` the auctions are real players', and the
system's reading of them is a model of those players (calibrated, not exact).  Here the
auctions come from the system itself, so the inference reads each one as it was meant:
the like-for-like setting for comparing the lead engine with BEN's figures, which were
measured on random deals with BEN bidding them.

The robot, at each turn, looks up the table of the auction's context as
:func:`cardgames.bidding.infer` does (``BiddingSystem.context``), and of the legal calls
that table lists whose usual constraint (the system's ``[stray]`` widening left out) the
hand meets, makes the most specific one: the one the fewest random hands meet -- of those
its partner has a table to answer, or that are natural (a suit bid of five or more, a
balanced no-trump: an overcall, which partner may pass), while any such call fits.  Weak
twos, preempts and the strong 2C it makes as a standard card does (``MAKING``: six cards,
seven, eight; 22 or more), narrower than the system reads them.  When none fits, or no
table knows the context, it passes -- except the opener facing partner's new suit, which
is forcing: then the cheapest call the system reads that the hand meets (a new suit up the
line, the own suit again, a raise).  It is a measuring device, not a bidder:
it never competes by the natural reading or the fallbacks, so its passes there can break
what the fallback reads into a pass (those leaks are counted by the inference's
calibration on the file, ``bench_lead_quality.py`` on it, and printed here).

The deals are written as a PBN file (Board, Dealer and Vulnerable by the board number,
Deal, Auction, Contract, Declarer; no play), which ``bench_lead_quality.py FILE
--no-table-lead`` then measures as it measures the real boards::

    python bench/robot_deals.py --deals 1000 --seed 1 -o /tmp/robot.pbn
    python bench/bench_lead_quality.py /tmp/robot.pbn --no-table-lead --samples 200 \\
        --contracts notrump --modes inference

The same seed gives the same file.  See bench/README.md.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np
from bench_env import prefer_checkout, say, whole

prefer_checkout()

from cardgames import pbn  # noqa: E402
from cardgames.auction import Auction, Call  # noqa: E402
from cardgames.bidding import BiddingSystem, Rule, default_system, infer  # noqa: E402
from cardgames.cards import Card, Seat, Strain  # noqa: E402
from cardgames.constraint_syntax import parse_constraint  # noqa: E402
from cardgames.constraints import Any, Constraint, usual  # noqa: E402
from cardgames.hands import Deal, Hand  # noqa: E402
from cardgames.sampling import acceptance_rates  # noqa: E402
from cardgames.scoring import board_dealer, board_vulnerability, game_level  # noqa: E402

PASS = Call.parse("P")
CALLS = [Call.parse(c) for c in ("X", "XX")] + \
    [Call.parse(f"{level}{strain}") for level in range(1, 8) for strain in "CDHSN"]
RATE_DEALS = 4000   # random hands measuring how specific a call's constraint is
# Weak twos, preempts and the strong 2C as a standard card makes them, by the rule's name
# in the system and the level.  The system's ranges are wider, written to read real players
# (a five-card weak two, a six-card three-bid, 2C with 20), and the most specific call would
# pick them far more often than players open them (a weak two or a preempt on 41% of the
# robot's deals against 6-15% in the real files).
MAKING: dict[tuple[str, int], str] = {
    ("weak two", 2): "6 {suit}, 5-10 hcp",
    ("weak jump overcall", 2): "6 {suit}, 5-10 hcp",
    ("preempt", 3): "7 {suit}, 5-10 hcp",
    ("preempt", 4): "8+ {suit}, 5-10 hcp",
    ("strong, artificial", 2): "22+ hcp or (19+ hcp, ltc<=3)",
}
_RATES: dict[tuple[Constraint, int], float] = {}   # (constraint, seed) -> its rate


class Robot:
    """Bids a hand by the system's tables (see the module's docstring)."""

    def __init__(self, system: BiddingSystem, seed: int = 1):
        self.system = system
        self.seed = seed
        self.no_table: Counter = Counter()   # contexts no table knows, met by the robot
        self.forced: Counter = Counter()     # of them, where the hand broke the pass
        self.games: Counter = Counter()      # of them, where the robot bid game
        self.rebids: Counter = Counter()     # the opener's calls over a forcing new suit

    def rate(self, c: Constraint) -> float:
        """The share of random hands ``c`` accepts (cached)."""
        got = _RATES.get((c, self.seed))
        if got is None:
            got = acceptance_rates({}, {Seat.NORTH: c}, self.seed, RATE_DEALS)[Seat.NORTH]
            _RATES[c, self.seed] = got
        return got

    def call(self, auction: Auction, hand: Hand) -> Call:
        """The robot's call for ``hand`` at the end of ``auction``."""
        key = self.system.context(auction, len(auction))
        table = self.system.contexts.get(key)
        if table is not None:
            # the suits shown so far, for the stoppers of a no-trump bid: read once a turn
            shown = infer(auction, self.system).shown if self.system.notrump is not None and \
                any(c.strain == Strain.NOTRUMP for c in table) else {}
            fits = [(call, self._stopped(auction, call, rule, shown))
                    for call, rule in table.items() if auction.is_legal(call)]
            # A call partner could not answer by a table (a feature ask, Jacoby 2NT, a
            # double of a weak two) would be passed, as no real partner passes it: made
            # only when no other call fits.
            made = self._most_specific(hand, [(c, k) for c, k in fits
                                              if self._answerable(auction, c, k)]) or \
                self._most_specific(hand, fits)
            if made is not None:
                return made
            return self._rebid(auction, hand) if self._forced(auction) else PASS
        # No table: pass unless the pass says something the hand breaks (the fallback's
        # "opener passes: at most 18"), or partner's bid below game and the side's points
        # make game (then game); then the most specific call the natural reading or the
        # fallbacks read that the hand meets.
        self.no_table[key] += 1
        game = self._game(auction, hand)
        if game is not None:
            self.games[key] += 1
            return game
        if self._forced(auction):
            return self._rebid(auction, hand)
        passing = self.meaning(auction, PASS)
        if passing is None or usual(passing).accepts(hand):
            return PASS
        self.forced[key] += 1
        return self._most_specific(
            hand, [(call, self.meaning(auction, call)) for call in CALLS
                   if auction.is_legal(call)]) or PASS

    def _stopped(self, auction: Auction, call: Call, rule: Rule,
                 shown: Mapping[Seat, frozenset[int]]) -> Constraint:
        """The hand the robot makes a table's ``call`` with (:func:`_made`), and for a
        no-trump bid the stoppers the system's ``[notrump]`` table reads into it given the
        suits ``shown`` so far, as the inference reads them (the fallback path gets them
        from the inference itself)."""
        made = _made(call, rule)
        if self.system.notrump is None or call.strain != Strain.NOTRUMP:
            return made
        stops = self.system.notrump.constraint(auction.then(call), len(auction), shown, made,
                                               rule.name)
        return made if stops is None else made & stops

    def _forced(self, auction: Auction) -> bool:
        """Whether a pass is out of the question: the opener facing partner's new suit
        (below game; the other side has only passed), which a standard card makes
        forcing for one round."""
        seat = auction.next_seat
        ours = (seat, seat.partner)
        if not all(c.is_pass or (c.is_bid and auction.seat(i) in ours)
                   for i, c in enumerate(auction.calls)):
            return False
        bids = [(auction.seat(i), c) for i, c in enumerate(auction.calls) if c.is_bid]
        if len(bids) < 2 or bids[0][0] != seat or bids[-1][0] != seat.partner:
            return False
        bid = bids[-1][1]
        assert bid.strain is not None
        return (bid.strain != Strain.NOTRUMP and bid.level < game_level(bid.strain)
                and all(c.strain != bid.strain for _, c in bids[:-1]))

    def _rebid(self, auction: Auction, hand: Hand) -> Call:
        """The opener's call over a forcing new suit: the cheapest call whose meaning in
        the system (by its table, as natural, or by its fallbacks) says something and
        the hand meets -- a new suit up the line, the own suit again, a raise; a pass
        only when none does."""
        self.rebids[self.system.context(auction, len(auction))] += 1
        for call in CALLS:
            if auction.is_legal(call):
                c = self.meaning(auction, call)
                if c is not None and not isinstance(c, Any) and usual(c).accepts(hand):
                    return call
        return PASS

    def _answerable(self, auction: Auction, call: Call, shows: Constraint) -> bool:
        """Whether partner can answer ``call`` (which ``shows`` that hand): by a table
        after it and a pass, or by passing it -- a pass, a game bid, or a natural call (a
        suit bid of five or more of its suit, a no-trump bid of a balanced hand: an
        overcall) need no table."""
        if call.is_pass:
            return True
        if call.is_bid:
            assert call.strain is not None
            if call.level >= game_level(call.strain):
                return True
            least = [lo for lo, _ in usual(shows).length_bounds()]
            if (min(least) >= 2 if call.strain == Strain.NOTRUMP
                    else least[int(call.strain)] >= 5):
                return True
        after = auction.then(call)
        if after.is_complete or not after.is_legal(PASS):
            return True
        after = after.then(PASS)
        return self.system.context(after, len(after)) in self.system.contexts

    def _game(self, auction: Auction, hand: Hand) -> Call | None:
        """Game, when partner made the last bid, below game, and the points partner has
        shown and the hand's own make 25: four of partner's major with three cards of
        it, else 3NT, if the system reads the call as a hand like this one."""
        seat = auction.next_seat
        last = next(((i, c) for i, c in reversed(list(enumerate(auction.calls)))
                     if c.is_bid), None)
        if last is None or auction.seat(last[0]) != seat.partner:
            return None
        bid = last[1]
        assert bid.strain is not None
        if bid.level >= game_level(bid.strain):
            return None
        shown = infer(auction, self.system).constraints.get(seat.partner)
        partner_min = shown.hcp_bounds()[0] if shown is not None else 0
        if partner_min + hand.hcp < self.system.game:
            return None
        tries = []
        if int(bid.strain) in (0, 1) and hand.length(int(bid.strain)) >= 3:
            tries.append(Call.bid(4, bid.strain))
        tries.append(Call.parse("3NT"))
        for call in tries:
            if auction.is_legal(call):
                c = self.meaning(auction, call)
                if c is not None and usual(c).accepts(hand):
                    return call
        return None

    def meaning(self, auction: Auction, call: Call) -> Constraint | None:
        """What the system reads into ``call`` at the end of ``auction`` (None: nothing)."""
        return infer(auction.then(call), self.system).meanings[-1].constraint

    def _most_specific(self, hand: Hand, calls: Sequence[tuple[Call, Constraint | None]]
                       ) -> Call | None:
        best: tuple[float, int, Call] | None = None
        for order, (call, c) in enumerate(calls):
            if c is None:
                continue
            c = usual(c)
            if not c.accepts(hand):
                continue
            key = (self.rate(c), order, call)
            if best is None or key[:2] < best[:2]:
                best = key
        return None if best is None else best[2]

    def auction(self, deal: Deal, dealer: Seat) -> Auction:
        """The whole auction of ``deal`` from ``dealer``, each seat bid by the robot."""
        auction = Auction(dealer)
        while not auction.is_complete:
            auction = auction.then(self.call(auction, _hand(deal, auction.next_seat)))
        return auction


@functools.cache
def _made(call: Call, rule: Rule) -> Constraint:
    """The hand the robot makes ``call`` with: the rule's, narrowed by ``MAKING`` (built
    once: the robot bids every sampled deal under ``bids_as``)."""
    making = MAKING.get((rule.name, call.level)) if call.is_bid else None
    if making is None:
        return rule.constraint
    assert call.strain is not None
    return usual(rule.constraint) & parse_constraint(
        making.format(suit=call.strain.name.lower()))


def bids_as(robot: Robot, auction: Auction, known: Seat | None = None
            ) -> Callable[[Deal], bool]:
    """A test of a deal: whether the robot, bidding its four hands, makes the calls of
    ``auction`` -- BEN's sampler's check of its samples against its own bidding, here
    against the robot's.  The calls of ``known`` (the opening leader, whose hand every
    sample shares) are not asked again; the test stops at the first call that differs."""
    # The auction before each call asked, built once: the test runs on every sampled deal.
    asked = [(auction[:i], seat, call) for i, seat, call in auction.seated() if seat != known]

    def accept(deal: Deal) -> bool:
        return all(robot.call(before, _hand(deal, seat)) == call
                   for before, seat, call in asked)

    return accept


def _hand(deal: Deal, seat: Seat) -> Hand:
    hand = deal[seat]
    assert hand is not None
    return hand


def random_deal(rng: np.random.Generator) -> Deal:
    cards = rng.permutation(52)
    deck = [Card.from_index(int(i)) for i in cards]
    return Deal.from_hands(*(Hand.from_cards(deck[13 * s:13 * s + 13]) for s in range(4)))


def pbn_game(board: int, deal: Deal, auction: Auction, event: str) -> pbn.Game:
    """One board as a PBN game: Event, Board, Dealer, Vulnerable (by the board number),
    Deal, Declarer, Contract and Auction."""
    game = pbn.Game(line=None)
    game.set_tag("Event", event)
    game.set_tag("Board", str(board))
    game.set_tag("Dealer", auction.dealer.letter)
    game.set_tag("Vulnerable", str(board_vulnerability(board)))
    game.set_tag("Deal", deal.to_pbn())
    contract = auction.contract
    if contract is not None and contract.declarer is not None:
        game.set_tag("Declarer", contract.declarer.letter)
    game.set_tag("Contract", "Pass" if contract is None else contract.call)
    calls = ["Pass" if c.is_pass else c.name for c in auction]
    rows = tuple(" ".join(calls[i:i + 4]) for i in range(0, len(calls), 4))
    return pbn.Game([*game.tags, pbn.Tag("Auction", auction.dealer.letter, section=rows)])


def robot_file(deals: int, seed: int, system: BiddingSystem | None = None
               ) -> tuple[str, Robot, dict[str, int]]:
    """The PBN text of ``deals`` random deals (``seed``) bid by the robot, the robot (its
    tallies), and the figures: the contracts by kind, and how many hands the system's
    inference of their own auction holds (``inside`` of ``hands``)."""
    system = system or default_system()
    robot = Robot(system, seed)
    rng = np.random.default_rng(seed)
    tally: Counter = Counter()
    games = []
    for board in range(1, deals + 1):
        deal = random_deal(rng)
        auction = robot.auction(deal, board_dealer(board))
        contract = auction.contract
        tally["passed out" if contract is None else
              "notrump" if contract.strain == Strain.NOTRUMP else "suit"] += 1
        for seat, c in infer(auction, system).constraints.items():
            tally["hands"] += 1
            tally["inside"] += c.accepts(_hand(deal, seat))
        games.append(pbn_game(board, deal, auction, "ddsolver robot deals"))
    first, rest = pbn.dumps(games).split("\n", 1)      # "% PBN 2.1", then the games
    made = f"% robot deals: bench/robot_deals.py --deals {deals} --seed {seed}"
    return f"{first}\n{made}\n\n{rest}", robot, dict(tally)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=whole(1), default=1000, help="random deals (1000)")
    parser.add_argument("--seed", type=whole(0), default=1, help="seed of the deals (1)")
    parser.add_argument("-o", "--output", type=Path, required=True, help="the PBN file")
    args = parser.parse_args(argv)
    text, robot, tally = robot_file(args.deals, args.seed)
    args.output.write_text(text, encoding="utf-8")
    say(f"{args.output}: {args.deals} deals; " +
        ", ".join(f"{k} {tally.get(k, 0)}" for k in ("notrump", "suit", "passed out")) +
        f"; hands inside the constraint the system infers for them: {tally['inside']} of "
        f"{tally['hands']}")
    if robot.no_table:
        say(f"turns in a context no table knows: {sum(robot.no_table.values())}; the most "
            "frequent: " + "; ".join(f"[{k}] {v}" for k, v in robot.no_table.most_common(8)))
        say(f"of them, game bid on the side's points: {sum(robot.games.values())}; "
            f"the hand broke what a pass says: {sum(robot.forced.values())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The αμ search: single-dummy card play for declarer that does not fool itself.

Sampling the hidden hands and solving each world double dummy (PIMC, :mod:`ddsolver.advise`)
lets the search take a different line in every world, as if declarer knew which world he is
in (*strategy fusion*): a two-way finesse for a queen looks like a sure trick.  αμ (Cazenave
and Ventos, "The αμ Search Algorithm for the Game of Bridge", 2020; "Optimizing αμ", 2021)
repairs this for declarer's side:

* **Max nodes** (declarer or dummy to play): the same card for every world, since declarer
  cannot tell them apart -- his cards are the same in all of them.  The value is the union
  of the children's values.
* **Min nodes** (a defender to play): the defenders are given perfect information (the safe
  assumption): in each world they pick their own card.  A card is played in the worlds
  where its holder may play it, and declarer, who sees it, goes on with those worlds only.
* **Values** are Pareto fronts of make/fail vectors over the worlds: a vector says, for one
  strategy of declarer's, in which worlds the contract makes; a front keeps the vectors no
  other beats in every world.  At a Min node the fronts of the defenders' cards are
  combined world by world (each pair of vectors gives their minimum: declarer's strategy is
  one per card, the defenders' choice is per world); at a Max node they are pooled.
* **Leaves**: once declarer's side has made ``depth`` (M) moves, each world is asked double
  dummy whether the contract still makes: one null-window search of the core per world
  and move (:meth:`ddsolver.Solver.reaches_many`, the worlds of a node in one batch, each
  world keeping its transposition table for the whole decision).  With M = 1 this *is*
  PIMC; each more move of declarer's that αμ looks through is one more decision he must
  make without knowing the world.

A vector is a Python int, bit *i* set when the contract makes in world *i*, so the
operations on fronts are integer ``&``, ``|`` and subset tests.

Optimisations of "Optimizing αμ" that pay here:

* *early cut at a Max node*: a vector winning in every world of the node cannot be beaten;
  the other cards are not searched;
* *α cut at a Min node*: once every vector of the front built so far is beaten (or
  matched) by a vector of the parent Max node's front, the node cannot improve the
  parent's value, and its other cards are not searched (their fronts could only lower it);
* *redundant worlds dropped*: at a Min node, a world lost in every vector of the front so
  far stays lost whatever the defenders' other cards do, so it is left out of their
  searches (fewer leaves to solve);
* *equivalent cards*: touching cards of declarer's side (nothing between them still in
  play) are one move; so are a defender's touching cards held in exactly the same worlds;
* *M = 1 leaves in one solve*: at a Max node with one move left, every card's leaf value in
  a world comes from one all-card double-dummy solve of that world.

Leaves are solved on ``jobs`` threads, one :class:`~ddsolver.Solver` each (the core releases
the GIL).  The search itself is Python; its cost grows with the number of worlds times the
number of defenders' cards it must try at each Min node.  Profiled (4 first-trick 3NT
decisions at M = 3, 20 worlds): 95% of the time is in the leaves; mid-deal at M = 4 the
Python side dominates, but such a decision takes about 0.04 s.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from cardgames.cards import ALL_CARDS, Card, CardLike, Seat, SeatLike
from cardgames.errors import whole_number
from cardgames.hands import Deal, Hand
from cardgames.play import trick_winner
from cardgames.worlds import View, Worlds

from .pool import check_jobs
from .solver import DEFAULT_TT_MB, Solver

__all__ = ["AlphaMuCard", "AlphaMuResult", "alphamu", "DEFAULT_DEPTH", "pareto", "front_min",
           "front_max"]

#: The depth (declarer's side's moves searched with one strategy for all worlds) used when
#: none is given: 2 sees through declarer's card and dummy's answer to it.
DEFAULT_DEPTH = 2

_SUIT_BITS = tuple(0x1FFF << (13 * s) for s in range(4))
#: The most fronts the transposition table of one search keeps before it starts again.
TT_ENTRIES = 1_000_000


# ---- fronts ----------------------------------------------------------------------------------

def pareto(vectors: Sequence[int]) -> list[int]:
    """The vectors no other one contains (a vector is a set of winning worlds, as bits),
    without repeats, most winning worlds first.

    >>> pareto([0b011, 0b001, 0b110, 0b011])
    [6, 3]
    """
    kept: list[int] = []
    for v in sorted(set(vectors), key=lambda x: (-x.bit_count(), -x)):
        if not any(v | k == k for k in kept):
            kept.append(v)
    return kept


def front_max(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """Declarer chooses between two strategies' fronts: their Pareto union."""
    return pareto([*a, *b])


def front_min(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """The defenders choose per world: every pair of strategies, world by world the worse.

    >>> front_min([0b110, 0b011], [0b101])
    [4, 1]
    """
    return pareto([x & y for x in a for y in b])


# ---- results ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class AlphaMuCard:
    """One card (a group of equivalent cards) of declarer's side at the root."""

    cards: tuple[Card, ...]       # the equivalent cards, highest first
    label: str                    # "SK/SQ"
    makes: int                    # worlds in which the best strategy after it makes
    chance: float                 # makes / worlds
    front: int                    # vectors in its Pareto front
    best: bool = False

    def to_dict(self) -> dict:
        return {"cards": [str(c) for c in self.cards], "label": self.label,
                "makes": self.makes, "chance": self.chance, "front": self.front,
                "best": self.best}


@dataclass(frozen=True)
class AlphaMuResult:
    """What :func:`alphamu` found: one :class:`AlphaMuCard` per root card, best first."""

    cards: tuple[AlphaMuCard, ...]
    worlds: int
    depth: int
    nodes: int                    # αμ nodes searched
    leaves: int                   # double-dummy solves of one world
    seconds: float = field(compare=False)
    fronts: dict[str, tuple[int, ...]]   # label -> its front (bit i: world i makes)

    @property
    def best(self) -> AlphaMuCard:
        return self.cards[0]

    def card(self, card: CardLike) -> AlphaMuCard:
        c = Card.parse(card)
        for row in self.cards:
            if c in row.cards:
                return row
        raise KeyError(f"{c} is not a card declarer's side may play here")


# ---- the search ------------------------------------------------------------------------------

def _mask(hand: Hand) -> int:
    return sum(((m >> 2) & 0x1FFF) << (13 * s) for s, m in enumerate(hand.masks))


def _hand(mask: int) -> Hand:
    return Hand(tuple(((mask >> (13 * s)) & 0x1FFF) << 2 for s in range(4)))


def _bits(x: int) -> Iterator[int]:
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


class _Search:
    """The state of one αμ search: the public play (shared by every world) and, per world,
    the cards each hand still holds (52-bit masks)."""

    def __init__(self, worlds: Sequence[Deal], view: View, declarer: Seat, need: int,
                 declarer_won: int, jobs: int, tt_mb: int,
                 progress: Callable[[int], None] | None, plain: bool = False,
                 reference_leaves: bool = False):
        self.plain = plain  # no cuts, no table, no grouping: the reference the tests use
        self.reference_leaves = reference_leaves or plain
        self.n = len(worlds)
        self.strain = view.strain
        self.declarer = declarer
        self.max_seats = (declarer, declarer.partner)
        self.need = need
        self.rem = [[_mask(h) for h in d.hands] for d in worlds]  # type: ignore[arg-type]
        for card, seat in zip(view.played, view.players):
            bit = 1 << card.index
            for r in self.rem:
                r[seat] &= ~bit
        # The public play: the current trick as (seat, card) pairs, and who leads it.
        done = len(view.played) - len(view.played) % 4
        self.trick = list(zip(view.players[done:], view.played[done:]))
        self.leader = view.players[done] if self.trick else view.to_move
        self.won = declarer_won  # declarer's side's tricks so far, prior ones included
        # tricks still to be won, the one in progress counted
        self.left = (sum(m.bit_count() for m in self.rem[0]) + len(self.trick)) // 4
        self.history: list[tuple[Seat, list[tuple[Seat, Card]], int]] = []
        self.played = 0  # the cards played since the search began, as a 52-bit mask
        self.tt: dict[tuple, list[int]] = {}
        self.tt_hits = 0
        self.leaf_cache: dict[tuple, object] = {}
        self.nodes = 0
        self.leaves = 0
        self.progress = progress
        self._solvers = [Solver(tt_mb) for _ in range(jobs)]
        self._executor = ThreadPoolExecutor(jobs) if jobs > 1 else None

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown()

    # ---- the public play ---------------------------------------------------------------
    @property
    def mover(self) -> Seat:
        return self.leader.next(len(self.trick))

    def play(self, card: Card, worlds: int) -> None:
        seat = self.mover
        bit = 1 << card.index
        for w in _bits(worlds):
            self.rem[w][seat] &= ~bit
        self.trick.append((seat, card))
        self.played |= bit
        if len(self.trick) == 4:
            winner = trick_winner(self.leader, [c for _, c in self.trick], self.strain)
            gain = int(winner in self.max_seats)
            self.history.append((self.leader, self.trick, gain))
            self.won += gain
            self.left -= 1
            self.leader = winner
            self.trick = []

    def undo(self, worlds: int) -> None:
        if not self.trick:
            self.leader, self.trick, gain = self.history.pop()
            self.won -= gain
            self.left += 1
        seat, card = self.trick.pop()
        bit = 1 << card.index
        self.played &= ~bit
        for w in _bits(worlds):
            self.rem[w][seat] |= bit

    def legal(self, w: int, seat: Seat) -> int:
        hand = self.rem[w][seat]
        if self.trick:
            follow = hand & _SUIT_BITS[self.trick[0][1].suit]
            if follow:
                return follow
        return hand

    # ---- moves -----------------------------------------------------------------------
    def _gone(self, worlds: int) -> int:
        """The cards out of play here: not held in any world, and not in the trick in
        progress (a card there can still be beaten or not: it splits touching cards)."""
        held = 0
        for _, card in self.trick:
            held |= 1 << card.index
        for w in _bits(worlds):
            r = self.rem[w]
            held |= r[0] | r[1] | r[2] | r[3]
        return ~held

    def max_moves(self, worlds: int) -> list[tuple[Card, ...]]:
        """Declarer's side's legal cards (the same in every world), equivalent ones grouped."""
        w0 = next(_bits(worlds))
        legal = self.legal(w0, self.mover)
        return _groups([(j, 0) for j in _bits(legal)], 0 if self.plain else self._gone(worlds))

    def min_moves(self, worlds: int) -> list[tuple[tuple[Card, ...], int]]:
        """Each card a defender may play in some world, with the worlds where he may;
        touching cards held in the same worlds grouped."""
        seat = self.mover
        where: dict[int, int] = {}
        for w in _bits(worlds):
            for j in _bits(self.legal(w, seat)):
                where[j] = where.get(j, 0) | (1 << w)
        groups = _groups(list(where.items()), 0 if self.plain else self._gone(worlds))
        return [(g, where[g[0].index]) for g in groups]

    # ---- leaves ------------------------------------------------------------------------
    def _core_masks(self, w: int) -> tuple[int, ...]:
        """World ``w`` at the start of the current trick, as the core takes it: 16 rank
        masks (seat N E S W x suit S H D C)."""
        hands = list(self.rem[w])
        for seat, card in self.trick:
            hands[seat] |= 1 << card.index
        return tuple(((m >> (13 * s)) & 0x1FFF) << 2 for m in hands for s in range(4))

    def vectors(self, worlds: int, moves: Sequence[tuple[Card, ...]] | None,
                cut: bool = True) -> list[int]:
        """The leaves: for each move (or, with ``moves`` None, for the position itself),
        the worlds in which the contract makes double dummy after it.  One null-window
        search per world and move, through the core's batch entry, on solvers that keep
        their tables for the whole search (what one world's leaves learn, its next leaves
        use); answers are cached by position (another order of play reaches it again).
        Moves are tried in turn, and (with ``cut``) once one makes in every world the rest
        are not searched (their vectors are returned as 0: no front keeps them)."""
        ws = list(_bits(worlds))
        base = (self.played, tuple(c.index for _, c in self.trick), self.leader, self.won)
        cache = self.leaf_cache
        masks: dict[int, tuple[int, ...]] = {}   # each world here, built once for all moves
        out = []
        for g in (moves if moves is not None else [None]):
            key = base + (-1 if g is None else g[0].index,)
            # (read into `known` first: filling the cache may clear it)
            known = {w: v for w in ws if (v := cache.get(key + (w,))) is not None}
            todo = [w for w in ws if w not in known]
            if todo:
                for w in todo:
                    if w not in masks:
                        masks[w] = self._core_masks(w)
                makes = (self._makes_reference(todo, g, masks) if self.reference_leaves
                         else self._makes(todo, g, masks))
                if len(cache) + len(todo) > TT_ENTRIES:
                    cache.clear()
                for w, yes in zip(todo, makes):
                    cache[key + (w,)] = known[w] = yes
                self.leaves += len(todo)
                if self.progress is not None:
                    self.progress(len(todo))
            v = 0
            for w in ws:
                if known[w]:
                    v |= 1 << w
            out.append(v)
            if cut and v == worlds and moves is not None and not self.plain:
                out.extend([0] * (len(moves) - len(out)))
                break
        return out

    def _makes(self, ws: list[int], move: tuple[Card, ...] | None,
               masks: dict[int, tuple[int, ...]]) -> list[bool]:
        """Whether the contract makes double dummy after ``move`` (None: from here) in each
        world of ``ws`` (``masks``: each world as the core takes it): one null-window search
        each, on the solvers' threads (world w always on solver w % jobs, so that its leaves
        share one table)."""
        played = bytes(c.suit * 16 + c.rank for _, c in self.trick)
        if move is not None:
            played += bytes((move[0].suit * 16 + move[0].rank,))
        # North-South's tricks from the start of the trick: at least ``target`` means the
        # contract makes (North-South declaring), or fails (East-West declaring).
        ns_declarer = self.declarer.is_ns
        target = (self.need - self.won if ns_declarer
                  else self.left - (self.need - self.won) + 1)
        strain, leader = int(self.strain), int(self.leader)
        jobs = len(self._solvers)
        parts = [[w for w in ws if w % jobs == j] for j in range(jobs)]

        def run(j: int) -> bytes:
            part = parts[j]
            if not part:
                return b""
            deals = [masks[w] for w in part]
            return self._solvers[j].reaches_many(
                deals, strain, leader, [(i, played, target) for i in range(len(part))])
        if self._executor is None:
            results = [run(0)]
        else:
            results = list(self._executor.map(run, range(jobs)))
        answer: dict[int, bool] = {}
        for part, res in zip(parts, results):
            answer.update((w, bool(yes) == ns_declarer) for w, yes in zip(part, res))
        return [answer[w] for w in ws]

    def _makes_reference(self, ws: list[int], move: tuple[Card, ...] | None,
                         masks: dict[int, tuple[int, ...]]) -> list[bool]:
        """:meth:`_makes` as it was first done, the reference the tests and the benchmark
        compare with: each world solved exactly, every card of the mover at once for a
        move, on one solver whose table starts afresh for each world."""
        solver = self._solvers[0]
        strain, leader = int(self.strain), int(self.leader)
        trick = bytes(c.suit * 16 + c.rank for _, c in self.trick)
        out = []
        for w in ws:
            if move is None:
                ns = solver.solve_masks(masks[w], strain, leader, trick)
                mine = ns if self.declarer.is_ns else self.left - ns
            else:   # the mover is declarer's side: scores are its tricks
                code = move[0].suit * 16 + move[0].rank
                mine = solver.card_scores_masks(masks[w], strain, leader, trick)[code]
            out.append(self.won + mine >= self.need)
        return out

    def leaf(self, worlds: int) -> int:
        """The worlds in which the contract makes, double dummy from here."""
        return self.vectors(worlds, None)[0]

    def max_vectors(self, worlds: int, moves: list[tuple[Card, ...]], cut: bool = True
                    ) -> list[int]:
        """The M = 1 leaves of a Max node: for each move, the worlds where it makes
        (see :meth:`vectors` for ``cut``)."""
        return self.vectors(worlds, moves, cut)

    # ---- αμ ----------------------------------------------------------------------------
    def search(self, worlds: int, depth: int, alpha: list[int] | None) -> list[int]:
        """The front of the current position over ``worlds`` with ``depth`` moves of
        declarer's side left; ``alpha`` is the parent Max node's front so far (for cuts).
        Exact fronts are kept in a transposition table: the same tricks played in another
        order reach the same position (the played cards, the trick so far, who leads, the
        tricks won decide it, with the worlds and the depth)."""
        key = (self.played, tuple(c.index for _, c in self.trick), self.leader, self.won,
               worlds, depth)
        hit = None if self.plain else self.tt.get(key)
        if hit is not None:
            self.tt_hits += 1
            return hit
        front, exact = self._search(worlds, depth, alpha)
        if exact and not self.plain:
            if len(self.tt) >= TT_ENTRIES:
                self.tt.clear()
            self.tt[key] = front
        return front

    def _search(self, worlds: int, depth: int, alpha: list[int] | None
                ) -> tuple[list[int], bool]:
        self.nodes += 1
        if self.won >= self.need:
            return [worlds], True
        if self.won + self.left < self.need:
            return [0], True
        if worlds & (worlds - 1) == 0 and not self.plain:
            # One world: nothing to tell apart, so αμ is double dummy.
            return [self.leaf(worlds)], True
        if self.mover in self.max_seats:
            if depth == 0:
                return [self.leaf(worlds)], True
            moves = self.max_moves(worlds)
            if depth == 1:
                return pareto(self.max_vectors(worlds, moves)), True
            front: list[int] = []
            for g in moves:
                self.play(g[0], worlds)
                f = self.search(worlds, depth - 1, front)
                self.undo(worlds)
                front = front_max(front, f)
                if front[0] == worlds and not self.plain:  # wins everywhere: the best
                    return [worlds], True
            return front, True
        if depth == 0:
            return [self.leaf(worlds)], True
        mini: list[int] | None = None
        for g, where in self.min_moves(worlds):
            sub = where & worlds
            if mini is not None and not self.plain:
                alive = 0
                for v in mini:
                    alive |= v
                sub &= alive  # worlds lost in every vector stay lost: drop them
            if not sub:
                continue
            self.play(g[0], sub)
            f = self.search(sub, depth, None)
            self.undo(sub)
            outside = worlds & ~sub  # this card says nothing there: neutral for the min
            f = [v | outside for v in f]
            mini = f if mini is None else front_min(mini, f)
            if self.plain:
                continue
            if mini == [0]:
                return mini, True
            if alpha and all(any(v & ~a == 0 for a in alpha) for v in mini):
                return mini, False  # cannot improve the parent's front: cut
        return (mini if mini is not None else [worlds]), True


def _groups(cards: list[tuple[int, int]], gone: int) -> list[tuple[Card, ...]]:
    """Cards (index, tag) split into runs: same suit, same tag, nothing between them still
    in play; highest first, suits S H D C."""
    cards = sorted(cards, key=lambda x: (x[0] // 13, -x[0]))
    out: list[tuple[Card, ...]] = []
    run: list[int] = []
    run_tag = None
    for j, tag in cards:
        if run and run[-1] // 13 == j // 13 and tag == run_tag and \
                all(gone >> k & 1 for k in range(j + 1, run[-1])):
            run.append(j)
            continue
        if run:
            out.append(tuple(ALL_CARDS[k] for k in run))
        run, run_tag = [j], tag
    if run:
        out.append(tuple(ALL_CARDS[k] for k in run))
    return out


def alphamu(worlds: Worlds | Sequence[Deal], view: View | None = None, *, declarer: SeatLike,
            need: int, declarer_won: int = 0, depth: int = DEFAULT_DEPTH, jobs: int = 1,
            tt_mb: int = DEFAULT_TT_MB,
            progress: Callable[[int], None] | None = None,
            _plain: bool = False, _reference_leaves: bool = False) -> AlphaMuResult:
    """Run αμ from the view's position over ``worlds``; see the module docstring.

    :param worlds: the worlds (:func:`cardgames.worlds.deal_worlds`), or deals with a
        ``view``.
    :param declarer: declarer's seat; declarer or dummy must be the player to move.
    :param need: the tricks declarer's side needs in all (prior tricks included).
    :param declarer_won: declarer's side's tricks won before the view's play began (an
        ending's earlier tricks); the tricks won in the view's play are added here.
    :param depth: M, declarer's side's moves searched with one strategy for all worlds.
    :param progress: called with the number of world solves just done.
    :param _plain: search without any of the optimisations (cuts, dropped worlds, the
        table, equivalent cards), each leaf solved exactly from scratch: slower, the same
        answer; what the tests compare with.
    :param _reference_leaves: the optimised search on the leaves of ``_plain`` (what the
        benchmark compares the batch leaves with).
    :raises ValueError: depth below 1, no worlds, a world that is not the view's, ``need``
        or ``declarer_won`` out of range, or a defender to move.
    """
    if isinstance(worlds, Worlds):
        view = worlds.view
        deals: Sequence[Deal] = worlds.deals
    else:
        deals = list(worlds)
    if view is None:
        raise ValueError("give the view the worlds belong to")
    depth = whole_number("depth", depth, least=1)
    if not deals:
        raise ValueError("no worlds to search")
    decl = Seat.parse(declarer)
    if view.to_move not in (decl, decl.partner):
        raise ValueError(f"αμ plays for declarer's side: {view.to_move.letter} is to move, "
                         f"a defender (use PIMC for the defence)")
    before = 13 - view.cards_per_hand
    need = whole_number("need", need, most=13, unit=" of tricks")
    declarer_won = whole_number("declarer_won", declarer_won, most=before, unit=" of tricks")
    seen = [(seat, hand) for seat, hand in zip(Seat, view.hands) if hand is not None]
    for i, deal in enumerate(deals):
        wrong = next((seat for seat, hand in seen if deal[seat] != hand), None)
        if wrong is not None:
            raise ValueError(f"world {i + 1} is not one of the view's: {wrong.letter}'s hand "
                             f"is {deal[wrong]}, the view sees {view.hands[wrong]}")
    jobs = check_jobs(jobs)
    won = declarer_won + view.tricks_won[decl & 1]
    s = _Search(deals, view, decl, need, won, jobs, tt_mb, progress, _plain,
                _reference_leaves)
    start = time.perf_counter()
    try:
        all_worlds = (1 << s.n) - 1
        moves = s.max_moves(all_worlds)
        fronts: list[list[int]]
        if depth == 1 or s.won >= need or s.won + s.left < need:
            if s.won >= need or s.won + s.left < need:
                fronts = [s.search(all_worlds, depth, None) for _ in moves]
            else:
                fronts = [[v] for v in s.max_vectors(all_worlds, moves, cut=False)]
            s.nodes += 1
        else:
            fronts = []
            s.nodes += 1
            for g in moves:
                s.play(g[0], all_worlds)
                fronts.append(s.search(all_worlds, depth - 1, None))
                s.undo(all_worlds)
    finally:
        s.close()
    rows = []
    for g, f in zip(moves, fronts):
        makes = max((v.bit_count() for v in f), default=0)
        rows.append((g, makes, len(f)))
    order = sorted(range(len(rows)), key=lambda i: (-rows[i][1], i))
    cards = tuple(AlphaMuCard(rows[i][0], "/".join(map(str, rows[i][0])), rows[i][1],
                              rows[i][1] / s.n, rows[i][2], best=k == 0)
                  for k, i in enumerate(order))
    return AlphaMuResult(cards, s.n, depth, s.nodes, s.leaves, time.perf_counter() - start,
                         {"/".join(map(str, g)): tuple(f) for g, f in zip(moves, fronts)})


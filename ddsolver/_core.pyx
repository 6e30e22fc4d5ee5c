# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The double-dummy search, in C through Cython.  Private: use :mod:`ddsolver.solver`.

The search is a boolean alpha-beta ("can North-South take at least t more
tricks?") driven by an MTD(f)-like loop that moves t until the bounds meet.
North-South (seats 0 and 2) are MAX, East-West MIN; whoever won the last trick
leads the next, so MAX and MIN do not simply alternate.

One extension module, built from one file per concept (``include``d, so the search
stays inlined):

  _core.pxd       layouts: Move, Frame, the TT entry/block/header, Trick, Ctx
  _bits.pxd       bit helpers (popcount, highest/lowest bit, prefetch), inline C
  _tt.pxi         the transposition table (partition search)
  _moves.pxi      move generation (equivalent cards are one move) and ordering
  _cutoffs.pxi    quick tricks, later tricks, sure-trick tests
  _search.pxi     make/unmake, the last trick, search() by numbered steps
  _core.pyx       this file: the MTD(f) driver, the first guess, loading a
                  position, and the Python-facing class ``Core``
"""

from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from ddsolver._bits cimport dd_alloc_table, dd_hibit, dd_lobit, dd_popcount, dd_prefetch

include "_tt.pxi"
include "_moves.pxi"
include "_cutoffs.pxi"
include "_search.pxi"


# ---------------------------------------------------------------------------
# Drivers
# ---------------------------------------------------------------------------

cdef int mtd(Ctx *c, int guess) noexcept nogil:
    """North-South's tricks from the current point (current trick included), exactly."""
    cdef int lo = 0, hi = c.tricks_left, t, v
    cdef int ply = c.ply
    if guess < 0:
        guess = (hi + 1) // 2
    while lo < hi:
        t = guess
        if t <= lo:
            t = lo + 1
        if t > hi:
            t = hi
        c.ply = ply
        # The search is fail-soft: its answer may move a bound past t.
        v = search(c, t)
        if v >= t:
            lo = v
            guess = v + 1
        else:
            hi = v
            guess = v
    c.ply = ply
    return lo


cdef int first_guess(uint16_t *hm, int strain, int n) noexcept nogil:
    """A cheap estimate of North-South's tricks with North on lead (13-card deals),
    to start the first search of a strain near the answer: a linear fit of the
    DD results of 380 random deals on NS's high-card points and suit lengths
    (mean error under one trick).  Only the number of searches depends on it."""
    cdef int seat, s, r, hcp = 0, ns_len, ew_len, best_ns = 0, best_ew = 0, a, b
    cdef double g
    if n != 13:
        return -1
    for seat in range(0, 4, 2):
        for s in range(4):
            for r in range(11, 15):
                if (hm[4 * seat + s] >> r) & 1:
                    hcp += r - 10
    for s in range(4):
        ns_len = dd_popcount(hm[s]) + dd_popcount(hm[8 + s])
        ew_len = dd_popcount(hm[4 + s]) + dd_popcount(hm[12 + s])
        if ns_len > best_ns:
            best_ns = ns_len
        if ew_len > best_ew:
            best_ew = ew_len
    if strain == NOTRUMP:
        g = -6.66 + 0.517 * hcp + 0.519 * best_ns - 0.136 * best_ew
    else:
        a = dd_popcount(hm[strain])
        b = dd_popcount(hm[8 + strain])
        g = (-0.02 + 0.374 * hcp + 0.317 * (a + b) + 0.298 * (a if a > b else b)
             - 0.619 * (dd_popcount(hm[4 + strain]) + dd_popcount(hm[12 + strain])))
    r = <int>(g + 0.5) if g > 0 else 0
    return r if r < 13 else 13


cdef void load_position(Ctx *c, uint16_t *hands, int trump, int leader, int n,
                        uint8_t *played, int nplayed, int *ns_won) noexcept nogil:
    """Set the deal (16 masks, [seat][suit]), trump and leader, then replay ``played``
    (suit * 16 + rank per card, already checked to be legal)."""
    cdef int seat, s, i, winner
    cdef uint16_t trick_decisive[4]
    for seat in range(4):
        for s in range(4):
            c.hand[seat][s] = hands[4 * seat + s]
    for s in range(4):
        c.rem[s] = c.hand[0][s] | c.hand[1][s] | c.hand[2][s] | c.hand[3][s]
    c.trump = trump
    c.leader = leader
    c.pos = 0
    c.tricks_left = n
    c.ply = 0
    c.etc_min_tricks = ETC_MIN_TRICKS
    c.lenkey = make_lenkey(c)
    make_seq(c, c.seq)
    ns_won[0] = 0
    for i in range(nplayed):
        seat = (c.leader + c.pos) & 3
        play_card(c, seat, played[i] >> 4, played[i] & 15)
        if c.pos == 3:
            winner = finish_trick(c, trick_decisive)
            if (winner & 1) == 0:
                ns_won[0] += 1
        else:
            c.pos += 1



# ---------------------------------------------------------------------------
# The Python-facing class
# ---------------------------------------------------------------------------

cdef class Core:
    """One solver: a search context and its transposition table.  Not thread-safe;
    use one per thread.  The GIL is released while it searches.

    Cards cross this boundary as ``suit * 16 + rank``; a deal as 16 rank masks
    ordered [seat][suit].
    """

    cdef Ctx *c
    cdef readonly int tt_mb
    cdef object _deal_key

    def __cinit__(self, int tt_mb=64):
        if tt_mb < 1:
            raise ValueError(f"transposition table size must be at least 1 MB, got {tt_mb}")
        self.c = <Ctx *>malloc(sizeof(Ctx))
        if self.c == NULL:
            raise MemoryError()
        memset(self.c, 0, sizeof(Ctx))
        cdef size_t total = (<size_t>tt_mb) << 20
        # About a tenth of the budget for headers, the rest for entry blocks.  Sizes
        # in size_t, and at most 2**31 slots, so that no size overflows.
        cdef size_t nslots = 1024
        while nslots < (<size_t>1 << 31) and (nslots * 2) * sizeof(TTHeader) <= total // 10:
            nslots *= 2
        cdef size_t cap = (total - nslots * sizeof(TTHeader)) // sizeof(TTBlock)
        if cap > 0xFFFFFFF0:
            cap = 0xFFFFFFF0
        self.c.nslots = <uint32_t>nslots
        self.c.capacity = <uint32_t>cap
        self.c.headers = <TTHeader *>dd_alloc_table(nslots * sizeof(TTHeader))
        self.c.blocks = <TTBlock *>dd_alloc_table(cap * sizeof(TTBlock))
        if self.c.headers == NULL or self.c.blocks == NULL:
            raise MemoryError(f"cannot allocate a {tt_mb} MB transposition table")
        memset(self.c.headers, 0, nslots * sizeof(TTHeader))
        tt_clear(self.c)
        self.tt_mb = tt_mb
        self._deal_key = None

    def __dealloc__(self):
        if self.c != NULL:
            free(self.c.headers)
            free(self.c.blocks)
            free(self.c)
            self.c = NULL

    @property
    def nodes(self):
        """Nodes searched since this solver was made."""
        return self.c.nodes

    @property
    def trick_nodes(self):
        """Nodes entered at the start of a trick since this solver was made, by tricks
        left: a list of 14 counts (index 0 unused).  DDS's ``nodes`` counts these."""
        return [self.c.trick_nodes[i] for i in range(14)]

    @property
    def probes(self):
        """Transposition-table look-ups since this solver was made."""
        return self.c.probes

    @property
    def tt_used(self):
        """Entry blocks in use in the transposition table now."""
        return self.c.used - 1

    @property
    def tt_capacity(self):
        """The most entry blocks the table holds before it is cleared."""
        return self.c.capacity

    @property
    def tt_bytes(self):
        """Bytes the table occupies (fixed at construction)."""
        return self.c.nslots * sizeof(TTHeader) + <size_t>self.c.capacity * sizeof(TTBlock)

    @property
    def tt_resets(self):
        return self.c.tt_resets

    def clear(self):
        """Empty the transposition table."""
        tt_clear(self.c)
        self._deal_key = None

    cdef int _load_hands(self, tuple hands, uint16_t *hm):
        """Copy the 16 masks into ``hm``, switch the table to this deal, and return the
        number of cards in each hand."""
        cdef int i, n = 0
        for i in range(16):
            hm[i] = hands[i]
        for i in range(4):
            n += dd_popcount(hm[i])
        self._use_deal(hands)
        return n

    cdef void _use_deal(self, tuple hands):
        # Entries are valid for any deal (they are keyed by relative ranks),
        # but a new deal rarely reuses them: start fresh to keep chains short.
        if hands != self._deal_key:
            tt_clear(self.c)
            self._deal_key = hands

    def solve(self, tuple hands, int trump, int leader, bytes played=b"", int guess=-1):
        """North-South's tricks from the current point (the trick in progress counted).

        Returns ``(ns_from_here, ns_won_so_far, tricks_left)``.
        """
        cdef uint16_t hm[16]
        cdef int i, n, ns_won = 0, result
        cdef const uint8_t *pp = played
        cdef int np = len(played)
        n = self._load_hands(hands, hm)
        with nogil:
            load_position(self.c, hm, trump, leader, n, <uint8_t *>pp, np, &ns_won)
            if guess < 0 and np == 0:
                guess = first_guess(hm, trump, n)
            result = mtd(self.c, guess)
        return result, ns_won, self.c.tricks_left

    def quick_tricks(self, tuple hands, int trump, int leader, int need=13):
        """The search's quick-trick count at the start of a trick (for tests): tricks the
        side on lead is sure to cash, counted up to ``need``, and the ranks it relied on
        (4 rank masks, suits S H D C).  ``(count, [mask, ...])``."""
        cdef uint16_t hm[16]
        cdef uint16_t dec[4]
        cdef int n, ns_won = 0, q
        n = self._load_hands(hands, hm)
        with nogil:
            load_position(self.c, hm, trump, leader, n, NULL, 0, &ns_won)
            q = quick_tricks(self.c, dec, need)
        return q, [dec[0], dec[1], dec[2], dec[3]]

    def sure_trump_tricks(self, tuple hands, int trump, int leader, int side):
        """The search's sure trump tricks for ``side`` (0 North-South, 1 East-West) at the
        start of a trick (for tests): tricks its top or long trumps win whatever happens,
        and the ranks relied on.  ``(count, [mask, ...])``."""
        cdef uint16_t hm[16]
        cdef uint16_t dec[4]
        cdef int n, ns_won = 0, q
        if side not in (0, 1):
            raise ValueError(f"side must be 0 or 1, got {side}")
        n = self._load_hands(hands, hm)
        dec[0] = dec[1] = dec[2] = dec[3] = 0
        with nogil:
            load_position(self.c, hm, trump, leader, n, NULL, 0, &ns_won)
            q = sure_trump_tricks(self.c, side, dec)
        return q, [dec[0], dec[1], dec[2], dec[3]]

    def reaches(self, tuple hands, int trump, int leader, bytes played=b"", int target=7):
        """One null-window search: can North-South take at least ``target`` tricks from
        the current point (the trick in progress counted)?"""
        cdef uint16_t hm[16]
        cdef int n, ns_won = 0
        cdef bint result
        cdef const uint8_t *pp = played
        cdef int np = len(played)
        n = self._load_hands(hands, hm)
        with nogil:
            load_position(self.c, hm, trump, leader, n, <uint8_t *>pp, np, &ns_won)
            self.c.ply = 0
            result = search(self.c, target) >= target
        return bool(result)

    def play_trace(self, tuple hands, int trump, int leader, bytes played=b""):
        """North-South's tricks in all, those won and those still to come with best play,
        before the first card and after each card of ``played``: a list of
        ``len(played) + 1`` ints.  The position moves on card by card, so a whole play
        costs one search per card (none for a forced card), not one replay per prefix."""
        cdef uint16_t hm[16]
        cdef uint16_t trick_decisive[4]
        cdef int i, n, ns_won = 0, seat, s, r, winner, forced
        cdef const uint8_t *pp = played
        cdef int np = len(played)
        cdef Ctx *c = self.c
        out = [0] * (np + 1)
        cdef int *totals = <int *>malloc((np + 1) * sizeof(int))
        if totals == NULL:
            raise MemoryError()
        n = self._load_hands(hands, hm)
        try:
            with nogil:
                load_position(c, hm, trump, leader, n, NULL, 0, &ns_won)
                c.ply = 0
                totals[0] = mtd(c, first_guess(hm, trump, n))
                for i in range(np):
                    # Is the card about to be played the mover's only legal card?
                    seat = (c.leader + c.pos) & 3
                    if c.pos > 0 and c.hand[seat][current_trick(c).suit[0]]:
                        forced = dd_popcount(c.hand[seat][current_trick(c).suit[0]]) == 1
                    else:
                        forced = (dd_popcount(c.hand[seat][0]) + dd_popcount(c.hand[seat][1])
                                  + dd_popcount(c.hand[seat][2])
                                  + dd_popcount(c.hand[seat][3])) == 1
                    s = pp[i] >> 4
                    r = pp[i] & 15
                    play_card(c, seat, s, r)
                    if c.pos == 3:
                        winner = finish_trick(c, trick_decisive)
                        if (winner & 1) == 0:
                            ns_won += 1
                    else:
                        c.pos += 1
                    if c.tricks_left == 0:
                        totals[i + 1] = ns_won
                    elif forced:
                        # A forced card cannot change the value.
                        totals[i + 1] = totals[i]
                    else:
                        c.ply = 0
                        # The value before the card is the best first guess after it.
                        totals[i + 1] = ns_won + mtd(c, totals[i] - ns_won)
            for i in range(np + 1):
                out[i] = totals[i]
        finally:
            free(totals)
        return out

    def card_scores(self, tuple hands, int trump, int leader, bytes played=b""):
        """For every legal card of the player to move: tricks the mover's side takes from
        here (the trick in progress counted).  Returns a list of (card, score) with
        card = suit * 16 + rank, plus the mover's seat: ``(seat, [(card, score), ...])``."""
        cdef uint16_t hm[16]
        cdef int i, n, ns_won = 0, seat, pos, k, nm, old_leader = 0, winner, best, v, total, bonus, r
        cdef const uint8_t *pp = played
        cdef int np = len(played)
        cdef Move moves[MAXMOVES]
        cdef int values[MAXMOVES]
        cdef uint16_t trick_decisive[4]
        cdef Ctx *c = self.c
        cdef uint32_t g
        n = self._load_hands(hands, hm)
        with nogil:
            load_position(c, hm, trump, leader, n, <uint8_t *>pp, np, &ns_won)
            c.etc_min_tricks = ETC_SCORES_MIN_TRICKS
            pos = c.pos
            seat = (c.leader + pos) & 3
            total = c.tricks_left
            gen_moves(c, &c.frames[0], seat, pos)
            nm = c.frames[0].nmoves
            for i in range(nm):
                moves[i] = c.frames[0].moves[i]
            # The position's value first: no card does better for the mover.  Then
            # each card is tested against that bound and walked away from it one
            # trick at a time; most cards need one or two null-window searches.
            best = mtd(c, first_guess(hm, trump, n) if np == 0 else -1)
            for i in range(nm):
                play_card(c, seat, moves[i].suit, moves[i].rank)
                c.ply = 1
                if pos < 3:
                    c.pos = pos + 1
                    bonus = 0
                else:
                    old_leader = c.leader
                    winner = finish_trick(c, trick_decisive)
                    bonus = 1 if (winner & 1) == 0 else 0
                # Walk v from the position's value towards this card's, trusting the
                # search's fail-soft bounds to jump several tricks at once.
                v = best
                if (seat & 1) == 0:
                    while v > 0:
                        r = search(c, v - bonus) + bonus
                        if r >= v:
                            break
                        v = r
                else:
                    while v < total:
                        r = search(c, v + 1 - bonus) + bonus
                        if r < v + 1:
                            break
                        v = r if r < total else total
                if pos < 3:
                    c.pos = pos
                else:
                    unfinish_trick(c, old_leader)
                c.ply = 0
                unplay_card(c, seat, moves[i].suit, moves[i].rank)
                values[i] = v
        out = []
        for i in range(nm):
            v = values[i] if (seat & 1) == 0 else total - values[i]
            g = moves[i].group
            while g:
                k = dd_hibit(g)
                g ^= (<uint32_t>1) << k
                out.append((moves[i].suit * 16 + k, v))
        return seat, out

    def dd_table(self, tuple hands):
        """Declarer's tricks for all 20 (strain, declarer) pairs: a list of 5 lists
        (strains S H D C NT) of 4 ints (declarer N E S W)."""
        return [self.dd_strain(hands, strain) for strain in range(5)]

    def dd_strain(self, tuple hands, int strain):
        """Declarer's tricks in one strain (0-3 suits S H D C, 4 no-trump): a list of 4
        ints, declarer N E S W.  The table's entries are keyed by trump, so strains share
        nothing: they can be solved in any order, or by different solvers."""
        cdef uint16_t hm[16]
        cdef int n, ns_won = 0, leader, declarer, ns, k
        cdef int res[4]
        cdef int guess[2]
        # Leaders N, S first, then E, W: a leader's result is the best guess for the
        # other leader of the same side.
        cdef int order[4]
        order[0] = 0
        order[1] = 2
        order[2] = 1
        order[3] = 3
        if not 0 <= strain <= 4:
            raise ValueError(f"strain must be 0..4, got {strain}")
        n = self._load_hands(hands, hm)
        # Entries are keyed by trump: another strain's entries are never hit, and on
        # hard deals they would fill the table and force a full clear midway through
        # this strain.  Start it empty (clearing is O(1)).
        tt_clear(self.c)
        with nogil:
            guess[0] = guess[1] = first_guess(hm, strain, n)
            for k in range(4):
                leader = order[k]
                load_position(self.c, hm, strain, leader, n, NULL, 0, &ns_won)
                ns = mtd(self.c, guess[leader & 1])
                guess[leader & 1] = ns
                if k == 1:
                    guess[1] = ns
                declarer = (leader + 3) & 3
                res[declarer] = ns if (declarer & 1) == 0 else n - ns
        return [res[declarer] for declarer in range(4)]


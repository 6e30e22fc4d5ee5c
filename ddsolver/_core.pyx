# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The double-dummy search, in C through Cython.  Private: use :mod:`ddsolver.solver`.

The search is a boolean alpha-beta ("can North-South take at least t more
tricks?") driven by an MTD(f)-like loop that moves t until the bounds meet.
North-South (seats 0 and 2) are MAX, East-West MIN; whoever won the last trick
leads the next, so MAX and MIN do not simply alternate.

Pieces, each in its own section below:
  1. bit helpers
  2. the transposition table (partition search: entries keep only the ranks
     that decided a result, so one entry covers many positions)
  3. move generation (equivalent touching cards are one move) and ordering
  4. the search itself, by numbered steps
  5. drivers: MTD(f) from any point of the play, all-card scores, DD table
  6. the Python-facing class ``Core``
"""

from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

# ---------------------------------------------------------------------------
# 1. Bit helpers (a holding is a rank mask; hibit/lobit need a non-zero argument)
# ---------------------------------------------------------------------------

cdef extern from *:
    """
    static inline int dd_popcount(unsigned int x) { return __builtin_popcount(x); }
    static inline int dd_hibit(unsigned int x) { return 31 - __builtin_clz(x); }
    static inline int dd_lobit(unsigned int x) { return __builtin_ctz(x); }
    #define dd_prefetch(p) __builtin_prefetch((const void *)(p))

    #include <stdlib.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* Memory for the transposition table.  Its probes land anywhere in tens of MB, so
       with 4 KB pages nearly every one misses the TLB as well as the cache: on Linux,
       ask for transparent huge pages (2 MB aligned, madvise).  Free with free(). */
    static void *dd_alloc_table(size_t n) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        void *p = NULL;
        if (posix_memalign(&p, (size_t)1 << 21, n) != 0)
            return NULL;
        madvise(p, n, MADV_HUGEPAGE);
        return p;
    #else
        return malloc(n);
    #endif
    }
    """
    int dd_popcount(unsigned int x) noexcept nogil
    int dd_hibit(unsigned int x) noexcept nogil
    int dd_lobit(unsigned int x) noexcept nogil
    void dd_prefetch(const void *p) noexcept nogil
    void *dd_alloc_table(size_t n) noexcept nogil


cdef inline Trick *T(Ctx *c) noexcept nogil:
    """The trick in progress."""
    return &c.tricks[c.tricks_left]


# ---------------------------------------------------------------------------
# 2. Transposition table
# ---------------------------------------------------------------------------

# Sizes of the packed layouts; tests read them to keep the layouts honest.
ENTRY_SIZE = sizeof(TTEntry)
BLOCK_SIZE = sizeof(TTBlock)
HEADER_SIZE = sizeof(TTHeader)
assert sizeof(TTEntry) == 40, sizeof(TTEntry)
assert sizeof(TTHeader) == 16, sizeof(TTHeader)

# TOP_MASK[k]: the bits of a 26-bit owner sequence covering its top k cards.
cdef uint32_t TOP_MASK[14]
for _k in range(14):
    TOP_MASK[_k] = 0 if _k == 0 else (((1 << (2 * _k)) - 1) << (26 - 2 * _k))


cdef inline uint64_t make_lenkey(Ctx *c) noexcept nogil:
    cdef uint64_t k = 0
    cdef int seat, s
    for seat in range(4):
        for s in range(4):
            k |= (<uint64_t>dd_popcount(c.hand[seat][s])) << (4 * (4 * seat + s))
    return k


cdef inline void make_seq(Ctx *c, uint32_t *seq) noexcept nogil:
    """Owner of every remaining card of each suit, highest first (2 bits a card)."""
    cdef int s, r, n
    cdef uint32_t x, m
    for s in range(4):
        x = 0
        n = 0
        m = c.rem[s]
        while m:
            r = dd_hibit(m)
            m ^= (<uint32_t>1) << r
            x = (x << 2) | (((c.hand[1][s] >> r) & 1) + 2 * ((c.hand[2][s] >> r) & 1)
                            + 3 * ((c.hand[3][s] >> r) & 1))
            n += 1
        seq[s] = x << (2 * (13 - n))


cdef inline uint32_t slot_of(Ctx *c, uint64_t lenkey, int lt) noexcept nogil:
    cdef uint64_t h = (lenkey ^ (<uint64_t>lt * 0x9E3779B97F4A7C15ULL)) * 0xD6E8FEB86659FD93ULL
    h ^= h >> 32
    return <uint32_t>(h & (c.nslots - 1))


cdef void tt_clear(Ctx *c) noexcept nogil:
    """Empty the table in O(1): headers of an older generation read as empty slots, so
    clearing moves the generation on; the headers are zeroed only when it wraps."""
    c.gen = <uint8_t>(c.gen + 1)
    if c.gen == 0:
        memset(c.headers, 0, c.nslots * sizeof(TTHeader))
        c.gen = 1
    c.used = 1
    c.nheaders = 0


cdef inline TTHeader *find_header(Ctx *c, uint64_t lenkey, int lt) noexcept nogil:
    """The header slot of this key: its own, or the empty slot where it would go."""
    cdef uint32_t i = slot_of(c, lenkey, lt)
    cdef TTHeader *h
    while True:
        h = &c.headers[i]
        if h.gen != c.gen:
            # Left over from before the last clear: an empty slot (made so for good,
            # as callers read ``first`` to tell).
            h.gen = c.gen
            h.first = 0
            return h
        if h.first == 0 or (h.lenkey == lenkey and h.lt == lt):
            return h
        i = (i + 1) & (c.nslots - 1)


cdef inline void entry_wr(Ctx *c, TTEntry *e, uint16_t *wr) noexcept nogil:
    """The ranks an entry relied on, in the current position: its k-th highest card per suit."""
    cdef int s, k
    cdef uint32_t m
    cdef const uint32_t *mask = <const uint32_t *>e.mask
    for s in range(4):
        wr[s] = 0
        k = dd_popcount(mask[s]) >> 1
        if k:
            m = c.rem[s]
            while k > 1:
                m ^= (<uint32_t>1) << dd_hibit(m)
                k -= 1
            wr[s] = <uint16_t>((<uint32_t>1) << dd_hibit(m))


cdef inline int tt_probe(Ctx *c, uint64_t lenkey, int lt, uint32_t *seq, int target,
                         uint16_t *wr, uint8_t *best) noexcept nogil:
    """1 if a stored bound proves NS reach ``target``, 0 if it proves they don't, -1 if unknown.
    On -1, ``best`` gets the best move of the newest matching entry that has one (else 255)."""
    cdef TTHeader *h = find_header(c, lenkey, lt)
    cdef uint32_t b = h.first
    cdef TTBlock *blk
    cdef TTEntry *e
    cdef int i
    cdef uint64_t s01 = (<uint64_t *>seq)[0], s23 = (<uint64_t *>seq)[1]
    best[0] = 255
    c.probes += 1
    while b:
        blk = &c.blocks[b]
        for i in range(<int>blk.n - 1, -1, -1):   # newest first
            e = &blk.e[i]
            if (s01 & e.mask[0]) == e.seq[0] and (s23 & e.mask[1]) == e.seq[1]:
                if e.lower >= target:
                    entry_wr(c, e, wr)
                    return 1
                if e.upper < target:
                    entry_wr(c, e, wr)
                    return 0
                if best[0] == 255:
                    best[0] = e.best
        b = blk.next
    return -1


cdef inline void tt_store(Ctx *c, uint64_t lenkey, int lt, uint32_t *seq, uint16_t *wr,
                          int lower, int upper, uint8_t best) noexcept nogil:
    """Record bounds for every position that agrees with this one on the ranks in ``wr``."""
    cdef uint32_t mask[4]
    cdef uint32_t eseq[4]
    cdef int s, i
    for s in range(4):
        mask[s] = TOP_MASK[dd_popcount(c.rem[s] >> dd_lobit(wr[s])) if wr[s] else 0]
        eseq[s] = seq[s] & mask[s]
    cdef uint64_t m01 = (<uint64_t *>mask)[0], m23 = (<uint64_t *>mask)[1]
    cdef uint64_t e01 = (<uint64_t *>eseq)[0], e23 = (<uint64_t *>eseq)[1]
    cdef TTHeader *h = find_header(c, lenkey, lt)
    cdef uint32_t b = h.first, prev
    cdef TTBlock *blk
    cdef TTEntry *e
    while b:
        blk = &c.blocks[b]
        for i in range(blk.n):
            e = &blk.e[i]
            if e.mask[0] == m01 and e.mask[1] == m23 and e.seq[0] == e01 and e.seq[1] == e23:
                if lower > e.lower:
                    e.lower = <int8_t>lower
                if upper < e.upper:
                    e.upper = <int8_t>upper
                if best != 255:
                    e.best = best
                return
        b = blk.next
    # A new entry: in the newest block if it has room, else in a new block.
    b = h.first
    if b == 0 or c.blocks[b].n == TT_BLOCK:
        if c.used >= c.capacity or (h.first == 0 and 2 * (c.nheaders + 1) > c.nslots):
            # Full: start again.  Bounded memory matters more than keeping old entries.
            tt_clear(c)
            c.tt_resets += 1
            h = find_header(c, lenkey, lt)
        if h.first == 0:
            c.nheaders += 1
            h.lenkey = lenkey
            h.lt = <uint8_t>lt
            h.nblocks = 0
        if h.nblocks >= TT_CHAIN:
            # The key's chain is as long as it may be: its oldest block becomes the
            # newest (the oldest entries go; the probe cost stays bounded).
            prev = h.first
            while c.blocks[c.blocks[prev].next].next:
                prev = c.blocks[prev].next
            b = c.blocks[prev].next
            c.blocks[prev].next = 0
        else:
            b = c.used
            c.used += 1
            h.nblocks += 1
        c.blocks[b].n = 0
        c.blocks[b].next = h.first
        h.first = b
    blk = &c.blocks[b]
    e = &blk.e[blk.n]
    blk.n += 1
    e.mask[0] = m01
    e.mask[1] = m23
    e.seq[0] = e01
    e.seq[1] = e23
    e.lower = <int8_t>lower
    e.upper = <int8_t>upper
    e.best = best


# ---------------------------------------------------------------------------
# 3. Move generation and ordering
# ---------------------------------------------------------------------------

cdef inline void add_groups(Ctx *c, Frame *f, int seat, int s) noexcept nogil:
    """One move per run of touching cards of ``seat`` in suit ``s``.

    Cards touch when no card still in play (a held card or one in the current
    trick) of another hand lies between them.
    """
    cdef uint32_t h = c.hand[seat][s]
    cdef uint32_t others = c.rem[s] & ~h
    cdef uint32_t g, between
    cdef int top, cur, nx
    cdef int n = f.nmoves
    while h:
        top = dd_hibit(h)
        g = (<uint32_t>1) << top
        h ^= g
        cur = top
        while h:
            nx = dd_hibit(h)
            between = ((<uint32_t>1 << cur) - 1) & ~((<uint32_t>1 << (nx + 1)) - 1)
            if others & between:
                break
            g |= (<uint32_t>1) << nx
            h ^= (<uint32_t>1) << nx
            cur = nx
        f.moves[n].suit = <uint8_t>s
        f.moves[n].rank = <uint8_t>top
        f.moves[n].group = <uint16_t>g
        f.moves[n].weight = 0
        n += 1
    f.nmoves = n


cdef inline bint later_opponent_beats(Ctx *c, int pos, int s, int r) noexcept nogil:
    """Could an opponent still to play to this trick beat the card (s, r)?"""
    cdef int q, seat, ls = T(c).suit[0] if pos > 0 else s
    cdef int t = c.trump
    cdef uint32_t above = ~((<uint32_t>2 << r) - 1)
    for q in range(pos + 1, 4):
        if (q & 1) == (pos & 1):
            continue
        seat = (c.leader + q) & 3
        if s == ls:
            if c.hand[seat][ls] & above:
                return True
            if c.hand[seat][ls] == 0 and t != NOTRUMP and s != t and c.hand[seat][t]:
                return True
        elif s == t:
            if c.hand[seat][ls] == 0 and (c.hand[seat][t] & above):
                return True
    return False


cdef inline int holder_of(Ctx *c, int s, int r) noexcept nogil:
    """The seat holding card (s, r), which must still be in a hand."""
    cdef int q
    for q in range(3):
        if (c.hand[q][s] >> r) & 1:
            return q
    return 3


cdef void weigh_lead(Ctx *c, Frame *f, int seat) noexcept nogil:
    """Ordering scores for the opening card of a trick.

    Two parts.  A suit term estimates how large the proof below the lead will be:
    every card an opponent may choose from is another branch, and a void opponent
    may play any card at all, so suits where the opponents hold few cards come
    first.  A card term ranks the leads of the suit: leads that win the trick
    (our top card, partner's winner, partner's ruff) before the rest; among them
    the ones that keep the lead's side in control of the next round.  The tiers
    follow the ideas of DDS's lead ordering; the weights were tuned on node counts
    of reference deals.
    """
    cdef int i, s, r, rr, t = c.trump, tl = c.tricks_left, w, sw = 0, last_s = -1
    cdef int pard = seat ^ 2, lho = (seat + 1) & 3, rho = (seat + 3) & 3
    cdef int nl = 0, nr = 0, npd = 0, top = 0, sec = 0, topq = -1, secq = -1, thirdq = -1
    cdef uint32_t rem, rest, g
    cdef bint trumps = t != NOTRUMP, win, lruff = False, rruff = False, pruff = False
    cdef Move *m
    for i in range(f.nmoves):
        m = &f.moves[i]
        s = m.suit
        r = m.rank
        g = m.group
        if s != last_s:
            # Facts about the suit, shared by its moves (moves come grouped by suit).
            last_s = s
            rem = c.rem[s]
            top = dd_hibit(rem)
            topq = holder_of(c, s, top)
            rest = rem ^ ((<uint32_t>1) << top)
            sec = dd_hibit(rest) if rest else 0
            secq = holder_of(c, s, sec) if rest else -1
            rest &= ~((<uint32_t>1) << sec)
            thirdq = holder_of(c, s, dd_hibit(rest)) if (rest and sec) else -1
            nl = dd_popcount(c.hand[lho][s])
            nr = dd_popcount(c.hand[rho][s])
            npd = dd_popcount(c.hand[pard][s])
            lruff = trumps and s != t and nl == 0 and c.hand[lho][t] != 0
            rruff = trumps and s != t and nr == 0 and c.hand[rho][t] != 0
            pruff = trumps and s != t and npd == 0 and c.hand[pard][t] != 0
            # The opponents' choices: a void counts as a free choice of anything.
            sw = -(((nl if nl else tl + 1) + (nr if nr else tl + 1)) * 128) // (13 if trumps else 19)
            if trumps:
                if lruff or rruff:
                    sw -= 12
                if pruff and nr > 0:
                    sw += 17
                if (topq == rho or secq == rho) and nr != 1:
                    sw -= 12
                elif topq == lho and secq == pard and npd != 1:
                    sw += 27
                if (s != t and dd_popcount(c.hand[seat][s]) == 1 and c.hand[seat][t] != 0
                        and npd > 1 and topq == pard):
                    sw += 19
            elif npd == 0:
                sw -= 9
        rr = 14 - dd_popcount(c.rem[s] >> (r + 1))
        # Can this lead win the trick for the leader's side?
        if r == top or (npd and dd_hibit(c.hand[pard][s]) > dd_hibit(c.hand[lho][s] | c.hand[rho][s] | 1)):
            win = not (lruff or rruff)
        elif pruff:
            win = ((not lruff or dd_hibit(c.hand[pard][t]) > dd_hibit(c.hand[lho][t]))
                   and (not rruff or dd_hibit(c.hand[pard][t]) > dd_hibit(c.hand[rho][t])))
        else:
            win = False
        w = sw
        if trumps:
            if win:
                if (nl == 1 and topq == lho) or (nr == 1 and topq == rho):
                    w += 35 + rr
                elif topq == seat:
                    w += (48 + rr) if secq == pard else (31 if r == top else rr - 3)
                elif topq == pard:
                    w += (42 + rr) if secq == seat else (28 + rr)
                elif (g & (g - 1)) and r == sec:
                    w += 40
                elif g & (g - 1):
                    w += 22 + rr
                else:
                    w += 11 + rr
            else:
                if secq == pard and thirdq == pard:
                    w += 20
                elif ((secq == seat and thirdq == pard) or (secq == pard and thirdq == seat)) and npd > 1:
                    w += 13
                if (nl == 1 and topq == lho) or (nr == 1 and topq == rho):
                    w += rr + 2
                elif topq == seat:
                    w += (33 + rr) if secq == pard else (38 if r == top else rr - 14)
                elif topq == pard:
                    w += 34 + rr
                elif (g & (g - 1)) and r == sec:
                    w += 35
                else:
                    w += 17 - r
        else:
            if win:
                if secq == rho:
                    if nr != 1:
                        w -= 1
                elif secq == lho:
                    w += 22 if nl != 1 else 16
                if (secq != lho or nl == 1) and (secq != rho or nr == 1):
                    w += 45 + rr
                else:
                    w += 18 + rr
            else:
                if topq == rho or secq == rho:
                    if nr != 1:
                        w -= 10
                elif topq == lho and secq == pard and npd != 1:
                    w += 31
                if secq == pard and thirdq == pard:
                    w += 35
                elif ((secq == seat and thirdq == pard) or (secq == pard and thirdq == seat)) and npd > 1:
                    w += 25
                if (nl == 1 and topq == lho) or (nr == 1 and topq == rho):
                    w += 28 + rr
                elif topq == seat:
                    w += rr - 17
                elif not (g & (g - 1)):
                    w += 12 + rr
                elif r == sec:
                    w += 48
                else:
                    w += 29 - rr
        m.weight = w


cdef inline int discard_value(Ctx *c, int seat, int s) noexcept nogil:
    """How cheaply ``seat`` can spare a card of suit ``s`` (higher: cheaper).

    Long suits first; avoid baring a guarded honour (Kx: the second-best card
    with one guard) or throwing a singleton top card.
    """
    cdef uint32_t h = c.hand[seat][s], rm = c.rem[s]
    cdef int n = dd_popcount(h), top
    cdef int v = n
    top = dd_hibit(rm)
    if n == 1 and (h >> top) & 1:
        v -= 8
    elif n == 2:
        rm ^= (<uint32_t>1) << top
        if rm and (h >> dd_hibit(rm)) & 1 and not ((h >> top) & 1):
            v -= 6
    return v


cdef inline bint forces(Ctx *c, int opp, int s, int r) noexcept nogil:
    """Must ``opp`` spend its top card of ``s`` to beat rank ``r``?  (At most one of
    its cards of ``s`` is higher than ``r``.)"""
    cdef uint32_t above = c.hand[opp][s] & ~((<uint32_t>2 << r) - 1)
    return (above & (above - 1)) == 0


cdef void weigh_follow(Ctx *c, Frame *f, int seat, int pos) noexcept nogil:
    """Ordering scores for the 2nd, 3rd and 4th cards of a trick.

    Second hand: win cheaply when third hand cannot beat the card; low when
    partner (fourth hand) wins anyway; otherwise cover, first with a card that
    forces third hand's top card (a ruff third hand can overruff counts so).
    Third hand: play low under partner's sure winner; win as cheaply as is safe;
    else force fourth hand's top card.  Fourth hand wins as cheaply as possible
    or plays lowest.  Never overtake or ruff partner's sure winner.  Discards
    lowest first, preferring long suits (see discard_value).
    """
    cdef int i, s, r, low, t = c.trump, ls = T(c).suit[0]
    cdef int wp = T(c).winpos[pos]
    cdef int ws = T(c).suit[wp], wrk = T(c).rank[wp]
    cdef bint partner_wins = (wp & 1) == (pos & 1)
    cdef bint beats, safe
    cdef bint is_void = c.hand[seat][ls] == 0
    cdef int dv[4]
    cdef Move *m
    cdef bint pd_wins = False       # 2nd hand: partner's top card will win the trick
    cdef uint32_t o3, p4
    if pos == 1 and not is_void:
        o3 = c.hand[(c.leader + 2) & 3][ls]
        p4 = c.hand[(c.leader + 3) & 3][ls]
        if p4 and dd_hibit(p4) > T(c).rank[0] and (o3 == 0 or dd_hibit(p4) > dd_hibit(o3)):
            pd_wins = not (o3 == 0 and t != NOTRUMP and ls != t and c.hand[(c.leader + 2) & 3][t])
    if is_void:
        for s in range(4):
            dv[s] = discard_value(c, seat, s) if c.hand[seat][s] else 0
    for i in range(f.nmoves):
        m = &f.moves[i]
        s = m.suit
        r = m.rank
        low = dd_lobit(m.group)
        beats = (s == ws and r > wrk) or (t != NOTRUMP and s == t and ws != t)
        if pos == 3:
            if partner_wins or not beats:
                m.weight = 40 - low - (30 if (s == t and ls != t) else 0)
            else:
                m.weight = 100 - low
        elif pos == 2:
            if partner_wins and not later_opponent_beats(c, 2, ws, wrk):
                m.weight = 40 - low - (30 if (s == t and ls != t) else 0)
            elif beats:
                safe = not later_opponent_beats(c, 2, s, r)
                if safe:
                    m.weight = 100 - low
                elif forces(c, (c.leader + 3) & 3, s, r):
                    m.weight = 70 - low
                else:
                    m.weight = 55 - low
            else:
                m.weight = 40 - low
        else:
            if beats:
                safe = not later_opponent_beats(c, 1, s, r)
                if pd_wins:
                    m.weight = 30 - low
                elif safe:
                    m.weight = 80 - low
                elif is_void or forces(c, (c.leader + 2) & 3, ls, r):
                    m.weight = 65 - low
                else:
                    m.weight = 55 - low
            else:
                m.weight = 50 - low
        if is_void and not (s == t and beats):
            m.weight += dv[s]


cdef inline Move *next_move(Frame *f, int i) noexcept nogil:
    """The i-th move in order: the best of moves i.. is swapped into place i.  Most
    nodes are decided by their first move, so sorting all of them would be wasted."""
    cdef int j, b = i
    cdef Move tmp
    for j in range(i + 1, f.nmoves):
        if f.moves[j].weight > f.moves[b].weight:
            b = j
    if b != i:
        tmp = f.moves[i]
        f.moves[i] = f.moves[b]
        f.moves[b] = tmp
    return &f.moves[i]


cdef void gen_moves(Ctx *c, Frame *f, int seat, int pos) noexcept nogil:
    """Every legal move of ``seat`` (one per group of equivalent cards), weighed for
    ordering (the search takes them best first with next_move)."""
    cdef int s, ls
    f.nmoves = 0
    if pos > 0:
        ls = T(c).suit[0]
        if c.hand[seat][ls]:
            add_groups(c, f, seat, ls)
            weigh_follow(c, f, seat, pos)
            return
    for s in range(4):
        if c.hand[seat][s]:
            add_groups(c, f, seat, s)
    if pos == 0:
        weigh_lead(c, f, seat)
        boost_killer(c, f)
    else:
        weigh_follow(c, f, seat, pos)


cdef inline void boost_killer(Ctx *c, Frame *f) noexcept nogil:
    """Bonuses for moves known to be good: the transposition table's best move for this
    position and the move that caused the last cut-off at this ply, if legal here.
    Bonuses, not first places: both were found in other positions, and overriding
    the lead weights with them searched about 6% more nodes."""
    cdef int i, k, r = 0
    cdef uint32_t m
    if f.tt_place != 255:
        m = c.rem[f.tt_suit]
        k = f.tt_place
        while m and k >= 0:
            r = dd_hibit(m)
            m ^= (<uint32_t>1) << r
            k -= 1
        if k < 0:
            for i in range(f.nmoves):
                if f.moves[i].suit == f.tt_suit and (f.moves[i].group >> r) & 1:
                    f.moves[i].weight += 18
                    break
    if f.killer_rank == 0:
        return
    for i in range(f.nmoves):
        if f.moves[i].suit == f.killer_suit and (f.moves[i].group >> f.killer_rank) & 1:
            f.moves[i].weight += 40
            return


# ---------------------------------------------------------------------------
# 3b. Quick tricks: sure winners the side on lead can cash at once
# ---------------------------------------------------------------------------

cdef inline bint runs_whole_suit(Ctx *c, int seat, int s) noexcept nogil:
    """Does ``seat`` hold at least as many of the top cards of ``s`` (in a row) as
    any other hand holds cards of ``s``?  Then leading them from the top takes every
    round of the suit: all of ``seat``'s cards of ``s`` win."""
    cdef uint32_t mine = c.hand[seat][s], m = c.rem[s]
    cdef int k = 0, q, others = 0
    while m and (mine >> dd_hibit(m)) & 1:
        k += 1
        m ^= (<uint32_t>1) << dd_hibit(m)
    for q in range(4):
        if q != seat and dd_popcount(c.hand[q][s]) > others:
            others = dd_popcount(c.hand[q][s])
    return k >= others


cdef int quick_tricks(Ctx *c, uint16_t *wr, int need) noexcept nogil:
    """Tricks the side on lead can cash at once: the leader's own top cards, then, if
    the leader can reach partner's top card in some suit, partner's top cards.  A
    lower bound for the leader's side.  Sets ``wr`` to the ranks relied on.  Stops
    counting at ``need``: fewer ranks relied on make the result hold for more positions."""
    cdef int seat = c.leader, pard = c.leader ^ 2, s, t = c.trump, own, alt
    cdef uint16_t wr2[4]
    wr[0] = wr[1] = wr[2] = wr[3] = 0
    own = cash_tricks(c, seat, wr, need)
    if own >= need:
        return own
    for s in range(4):
        # An entry: the leader leads a small card of s, partner wins with the top card.
        if (c.hand[seat][s] and (c.hand[pard][s] >> dd_hibit(c.rem[s])) & 1
                and not (t != NOTRUMP and s != t
                         and ((c.hand[(seat + 1) & 3][s] == 0 and c.hand[(seat + 1) & 3][t] != 0)
                              or (c.hand[(seat + 3) & 3][s] == 0
                                  and c.hand[(seat + 3) & 3][t] != 0)))):
            wr2[0] = wr2[1] = wr2[2] = wr2[3] = 0
            # The entry itself relies on partner holding the top card of s.
            wr2[s] = <uint16_t>((<uint32_t>1) << dd_hibit(c.rem[s]))
            # The leader's own winners first, then the entry and partner's winners:
            # sound when partner can keep its winners while following or discarding
            # on the leader's (own + partner's tricks fit in partner's hand), and in a
            # trump contract when neither hand can be made to ruff out of turn (the
            # leader has no trumps left after cashing, partner has none).
            if own > 0 and (t == NOTRUMP or (c.hand[pard][t] == 0
                                             and (c.hand[seat][t] == 0
                                                  or runs_whole_suit(c, seat, t)))):
                alt = cash_tricks(c, pard, wr2, need - own)
                if own + alt <= c.tricks_left:
                    alt += own
                    wr2[0] |= wr[0]
                    wr2[1] |= wr[1]
                    wr2[2] |= wr[2]
                    wr2[3] |= wr[3]
                elif alt > own:
                    # Too many to keep both: partner's alone (its relied-on ranks only).
                    wr2[0] = wr2[1] = wr2[2] = wr2[3] = 0
                    wr2[s] = <uint16_t>((<uint32_t>1) << dd_hibit(c.rem[s]))
                    alt = cash_tricks(c, pard, wr2, need)
            else:
                alt = cash_tricks(c, pard, wr2, need)
            if alt > own:
                wr[0] = wr2[0]
                wr[1] = wr2[1]
                wr[2] = wr2[2]
                wr[3] = wr2[3]
                return alt
            break
    if own == 0 and t != NOTRUMP:
        own = ruff_trick(c, wr)
    return own


cdef int ruff_trick(Ctx *c, uint16_t *wr) noexcept nogil:
    """1 if the leader can lead a suit that partner ruffs and no opponent can overruff
    (an opponent void in it holds only lower trumps than partner's best), else 0.
    Adds to ``wr`` partner's top trump when its rank was relied on."""
    cdef int seat = c.leader, pard = c.leader ^ 2, t = c.trump, s, q, opp, ptop
    cdef bint ok, rely
    if c.hand[pard][t] == 0:
        return 0
    ptop = dd_hibit(c.hand[pard][t])
    for s in range(4):
        if s == t or c.hand[seat][s] == 0 or c.hand[pard][s] != 0:
            continue
        ok = True
        rely = False
        for q in range(2):
            opp = (seat + 1 + 2 * q) & 3
            if c.hand[opp][s] == 0 and c.hand[opp][t] != 0:
                if dd_hibit(c.hand[opp][t]) > ptop:
                    ok = False
                rely = True
        if ok:
            if rely:
                wr[t] |= <uint16_t>((<uint32_t>1) << ptop)
            return 1
    return 0


cdef int cash_tricks(Ctx *c, int seat, uint16_t *wr, int need) noexcept nogil:
    """Tricks ``seat`` can take by cashing top cards from its own hand once on lead,
    never losing the lead.  Adds to ``wr`` the ranks relied on.

    In each suit the leader runs its top cards (the highest cards still out, all in its
    own hand); once the other hands are out of the suit, its small cards win too.  In a
    trump contract the trumps go first: every round of them takes a trump from each
    hand that has one, so an opponent left without trumps can no longer ruff.  A side
    suit stops before the first round an opponent still holding trumps could ruff, and
    before partner would be forced to ruff (holding nothing else).
    """
    cdef int pard = seat ^ 2, lho = (seat + 1) & 3, rho = (seat + 3) & 3
    cdef int s, i, j, k, n, others, cnt, total = 0, t = c.trump, low
    cdef int lt = 0, rt = 0, pt = 0
    cdef uint32_t mine, rem, m
    if t != NOTRUMP:
        lt = dd_popcount(c.hand[lho][t])
        rt = dd_popcount(c.hand[rho][t])
        pt = dd_popcount(c.hand[pard][t])
    for i in range(5):
        # Trumps first (i == 0), then the side suits in order.
        if i == 0:
            if t == NOTRUMP:
                continue
            s = t
        else:
            s = i - 1
            if s == t:
                continue
        mine = c.hand[seat][s]
        if mine == 0:
            continue
        rem = c.rem[s]
        # The run of the suit's top cards that the leader holds: its cards above
        # every card of the suit held elsewhere (or on the table).
        m = rem & ~mine
        if m:
            m = mine & ~((<uint32_t>2 << dd_hibit(m)) - 1)
            if m == 0:
                continue
        else:
            m = mine
        k = dd_popcount(m)
        low = dd_lobit(m)
        n = dd_popcount(mine)
        others = dd_popcount(c.hand[lho][s])
        if dd_popcount(c.hand[pard][s]) > others:
            others = dd_popcount(c.hand[pard][s])
        if dd_popcount(c.hand[rho][s]) > others:
            others = dd_popcount(c.hand[rho][s])
        cnt = n if k >= others else k
        if t != NOTRUMP:
            if s == t:
                lt = lt - cnt if lt > cnt else 0
                rt = rt - cnt if rt > cnt else 0
                pt = pt - cnt if pt > cnt else 0
            else:
                if lt and dd_popcount(c.hand[lho][s]) < cnt:
                    cnt = dd_popcount(c.hand[lho][s])
                if rt and dd_popcount(c.hand[rho][s]) < cnt:
                    cnt = dd_popcount(c.hand[rho][s])
                if (pt and dd_popcount(c.hand[pard][s]) < cnt
                        and (c.hand[pard][0] | c.hand[pard][1] | c.hand[pard][2] | c.hand[pard][3])
                            == (c.hand[pard][s] | c.hand[pard][t])):
                    cnt = dd_popcount(c.hand[pard][s]) + 1
        if cnt > 0:
            # The top cards cashed were relied on by rank (the rest won by length),
            # but no more of them than it takes to reach ``need``.
            j = need - total
            if j < cnt and j < k:
                while j > 1:
                    m ^= (<uint32_t>1) << dd_hibit(m)
                    j -= 1
                low = dd_hibit(m)
            total += cnt
            wr[s] |= <uint16_t>((<uint32_t>1) << low)
            if total >= need:
                return total
    return total


cdef inline int sure_trump_tricks(Ctx *c, int side, uint16_t *wr) noexcept nogil:
    """Trump tricks ``side`` (0 = NS, 1 = EW) will win whatever happens.

    Two sure counts, the larger is returned: the run of top trumps held in one hand
    (the top trump wins whenever it is played, and its holder is never forced to
    throw it away: it can always ruff or win with it instead); and, when the other
    side has no trumps at all, the longer trump holding of the side: each of those
    trumps wins the trick it is played to, and its hand can play them on different
    tricks (only partner could make it waste one).  Sets ``wr`` to the ranks relied
    on (none for the second count: suit lengths are in the table key)."""
    cdef int t = c.trump, r, seat, k = 0, low = 0, n
    cdef uint32_t m
    if t == NOTRUMP or c.rem[t] == 0:
        return 0
    n = 0
    if c.hand[side ^ 1][t] == 0 and c.hand[side ^ 3][t] == 0:
        n = dd_popcount(c.hand[side][t])
        if dd_popcount(c.hand[side ^ 2][t]) > n:
            n = dd_popcount(c.hand[side ^ 2][t])
    m = c.rem[t]
    r = dd_hibit(m)
    seat = 0
    while not (c.hand[seat][t] >> r) & 1:
        seat += 1
    if (seat & 1) == side:
        while m and (c.hand[seat][t] >> dd_hibit(m)) & 1:
            low = dd_hibit(m)
            k += 1
            m ^= (<uint32_t>1) << low
    wr[0] = wr[1] = wr[2] = wr[3] = 0
    if n >= k:
        return n
    wr[t] = <uint16_t>((<uint32_t>1) << low)
    return k


cdef inline bint must_lose_trick(Ctx *c, uint16_t *wr) noexcept nogil:
    """True if the side on lead cannot win the coming trick: in every suit the leader
    holds, an opponent has the top card and partner cannot ruff.  Sets ``wr``."""
    cdef int seat = c.leader, pard = c.leader ^ 2, s, t = c.trump, top
    for s in range(4):
        if c.hand[seat][s] == 0:
            continue
        top = dd_hibit(c.rem[s])
        if ((c.hand[seat][s] | c.hand[pard][s]) >> top) & 1:
            return False
        if t != NOTRUMP and s != t and c.hand[pard][s] == 0 and c.hand[pard][t] != 0:
            return False
    wr[0] = wr[1] = wr[2] = wr[3] = 0
    for s in range(4):
        if c.hand[seat][s]:
            wr[s] = <uint16_t>((<uint32_t>1) << dd_hibit(c.rem[s]))
    return True


cdef inline bint defence_sure_trick_nt(Ctx *c, uint16_t *wr) noexcept nogil:
    """No-trump, at the start of a trick: is the side not on lead sure of a trick?

    Say it holds the top card of suit s.  Its holder keeps that card to the end (it
    can always discard another one first), so the side on lead, to win every trick,
    must never lead s.  Every trick led in another suit x uses up a card of x from
    each of the leading side's hands that has one, so they can lead x at most
    max(len, len) times.  If those counts fall short of the tricks left, the
    defence wins one.  Sets ``wr`` to the top card relied on."""
    cdef int l1 = c.leader, l2 = c.leader ^ 2, s, m, n, total = 0, excl = -1, best = -1
    for s in range(4):
        m = dd_popcount(c.hand[l1][s])
        n = dd_popcount(c.hand[l2][s])
        if n > m:
            m = n
        total += m
        if c.rem[s] and not ((c.hand[l1][s] | c.hand[l2][s]) >> dd_hibit(c.rem[s])) & 1:
            if m > excl:
                excl = m
                best = s
    if best < 0 or total - excl >= c.tricks_left:
        return False
    wr[0] = wr[1] = wr[2] = wr[3] = 0
    wr[best] = <uint16_t>((<uint32_t>1) << dd_hibit(c.rem[best]))
    return True


cdef int trick_sure_side(Ctx *c, int pos, uint16_t *wr) noexcept nogil:
    """Inside a trick (pos >= 1): the side (0 = NS, 1 = EW) sure to win it whatever the
    players still to play do, or -1 if that is not settled.  Adds to ``wr`` the rank
    relied on (the winning card's; suit lengths are in the table key)."""
    cdef int ls = T(c).suit[0], wp = T(c).winpos[pos], t = c.trump
    cdef int ws = T(c).suit[wp], top = T(c).rank[wp], side = (c.leader + wp) & 1
    cdef int q, seat, r, best, sides, rside = 0
    cdef uint32_t h
    if ws == ls:
        # Highest card of the led suit among the winning card and the hands to come.
        for q in range(pos, 4):
            seat = (c.leader + q) & 3
            h = c.hand[seat][ls]
            if h:
                r = dd_hibit(h)
                if r > top:
                    top = r
                    side = seat & 1
        # Hands still to play that are void in the suit and hold trumps decide it
        # instead: the one with the highest trump can ruff, and nobody can overruff.
        # Its rank matters only when both sides have such a hand.
        if t != NOTRUMP and ls != t:
            best = -1
            sides = 0
            for q in range(pos, 4):
                seat = (c.leader + q) & 3
                if c.hand[seat][ls] == 0 and c.hand[seat][t] != 0:
                    sides |= 1 << (seat & 1)
                    r = dd_hibit(c.hand[seat][t])
                    if r > best:
                        best = r
                        rside = seat & 1
            if best >= 0:
                if sides == 3:
                    wr[t] |= <uint16_t>(1 << best)
                return rside
        wr[ls] |= <uint16_t>(1 << top)
        return side
    # The trick has been ruffed: only hands void in the led suit can overruff.
    for q in range(pos, 4):
        seat = (c.leader + q) & 3
        if c.hand[seat][ls] == 0 and c.hand[seat][t] != 0:
            r = dd_hibit(c.hand[seat][t])
            if r > top:
                top = r
                side = seat & 1
    wr[t] |= <uint16_t>(1 << top)
    return side


cdef int nt_second_hand_extra(Ctx *c, uint16_t *wr) noexcept nogil:
    """No-trump, second card of a trick, when the second hand's side is sure to win it
    by rank: sure tricks that side takes next.  The hand holding the side's highest
    card of the led suit wins the trick and leads: it cashes the top card of every
    other suit it holds, all of a suit nobody else holds, and the next round of the
    led suit if its second card there outranks every other hand's cards.  Adds to
    ``wr`` the ranks relied on."""
    cdef int ls = T(c).suit[0], a = (c.leader + 1) & 3, b = (c.leader + 3) & 3
    cdef int hh, s, n = 0, r
    cdef uint32_t h, others
    hh = a if c.hand[a][ls] > c.hand[b][ls] else b
    h = c.hand[hh][ls] ^ ((<uint32_t>1) << dd_hibit(c.hand[hh][ls]))
    if h:
        # The other hands' cards of the led suit: still in play, not hh's, not the led
        # card (it goes with this trick).
        r = dd_hibit(h)
        others = c.rem[ls] & ~c.hand[hh][ls] & ~((<uint32_t>1) << T(c).rank[0])
        if others == 0 or r > dd_hibit(others):
            n += 1
            wr[ls] |= <uint16_t>(1 << r)
    for s in range(4):
        if s == ls or c.hand[hh][s] == 0:
            continue
        others = c.rem[s] & ~c.hand[hh][s]   # only the led card is on the table
        if others == 0:
            n += dd_popcount(c.hand[hh][s])
        elif dd_hibit(c.hand[hh][s]) > dd_hibit(others):
            n += 1
            wr[s] |= <uint16_t>(1 << dd_hibit(c.hand[hh][s]))
    return n


# ---------------------------------------------------------------------------
# 4. The search
# ---------------------------------------------------------------------------

cdef inline void play_card(Ctx *c, int seat, int s, int r) noexcept nogil:
    """Put (s, r) from ``seat`` on the trick; c.pos is not advanced here."""
    cdef int pos = c.pos, w
    c.hand[seat][s] ^= <uint16_t>(1 << r)
    c.lenkey -= (<uint64_t>1) << (4 * (4 * seat + s))
    T(c).suit[pos] = <uint8_t>s
    T(c).rank[pos] = <uint8_t>r
    if pos == 0:
        T(c).winpos[1] = 0
    else:
        w = T(c).winpos[pos]
        if (s == T(c).suit[w] and r > T(c).rank[w]) or (s == c.trump and T(c).suit[w] != c.trump):
            T(c).winpos[pos + 1] = <uint8_t>pos
        else:
            T(c).winpos[pos + 1] = <uint8_t>w


cdef inline void unplay_card(Ctx *c, int seat, int s, int r) noexcept nogil:
    """Take (s, r) back into ``seat``'s hand."""
    c.hand[seat][s] ^= <uint16_t>(1 << r)
    c.lenkey += (<uint64_t>1) << (4 * (4 * seat + s))


cdef inline int finish_trick(Ctx *c, uint16_t *trick_wr) noexcept nogil:
    """Close a full trick: remove its cards, set the next leader.  Returns the winner's seat.

    ``trick_wr`` gets the winning card's rank if it beat another card of its
    suit (then its rank mattered); a lone card of its suit wins whatever its rank.
    """
    cdef int k, wp = T(c).winpos[4]
    cdef int ws = T(c).suit[wp]
    cdef int winner = (c.leader + wp) & 3
    cdef Trick *t = T(c)
    cdef int s, i
    cdef uint32_t x
    trick_wr[0] = trick_wr[1] = trick_wr[2] = trick_wr[3] = 0
    t.prevseq[0] = c.seq[0]
    t.prevseq[1] = c.seq[1]
    t.prevseq[2] = c.seq[2]
    t.prevseq[3] = c.seq[3]
    for k in range(4):
        s = t.suit[k]
        # Drop the card's 2 owner bits from the suit's sequence; lower cards move up.
        i = dd_popcount(c.rem[s] >> (t.rank[k] + 1))
        x = c.seq[s]
        c.seq[s] = (x & ~((<uint32_t>1 << (26 - 2 * i)) - 1)) | ((x << 2) & ((<uint32_t>1 << (26 - 2 * i)) - 1))
        c.rem[s] ^= <uint16_t>(1 << t.rank[k])
        if k != wp and s == ws:
            trick_wr[ws] = <uint16_t>(1 << t.rank[wp])
    c.leader = winner
    c.pos = 0
    c.tricks_left -= 1
    return winner


cdef inline void unfinish_trick(Ctx *c, int leader) noexcept nogil:
    cdef int k
    c.tricks_left += 1
    cdef Trick *t = T(c)
    for k in range(4):
        c.rem[t.suit[k]] ^= <uint16_t>(1 << t.rank[k])
        c.seq[k] = t.prevseq[k]
    c.leader = leader
    c.pos = 3


cdef bint last_trick(Ctx *c, int target, uint16_t *wr) noexcept nogil:
    """One card in each hand: the play is forced."""
    cdef int q, seat, s, r, wp = 0
    cdef int ws = -1, wrk = 0
    cdef int ls = -1
    cdef int suits[4]
    cdef int ranks[4]
    for q in range(4):
        seat = (c.leader + q) & 3
        for s in range(4):
            if c.hand[seat][s]:
                suits[q] = s
                ranks[q] = dd_hibit(c.hand[seat][s])
                break
    ws = suits[0]
    wrk = ranks[0]
    for q in range(1, 4):
        if (suits[q] == ws and ranks[q] > wrk) or (suits[q] == c.trump and ws != c.trump):
            ws = suits[q]
            wrk = ranks[q]
            wp = q
    for q in range(4):
        if q != wp and suits[q] == ws:
            wr[ws] = <uint16_t>(1 << wrk)
    return (((c.leader + wp) & 3) & 1) == 0 and target <= 1


cdef bint search(Ctx *c, int target) noexcept nogil:
    """Can North-South take at least ``target`` of the tricks from here (the current
    trick included)?  Leaves in c.frames[c.ply].wr the ranks the answer depended on."""
    cdef int ply = c.ply
    cdef Frame *f = &c.frames[ply]
    cdef uint16_t *wr = f.wr
    cdef uint16_t *cwr
    cdef uint16_t trick_wr[4]
    cdef uint16_t mw[4]
    cdef int pos = c.pos, seat, i, s, r, old_leader, winner, lt = 0, hit, thr, sure
    cdef int tried[4]
    cdef uint8_t ttbest = 255, best = 255
    cdef bint maxnode, ok, result
    cdef uint64_t lenkey = 0
    cdef uint32_t *seq = NULL
    cdef Move *m
    wr[0] = wr[1] = wr[2] = wr[3] = 0

    # Step 1. Settled by arithmetic: nothing more needed, or more than is left.
    if target <= 0:
        return True
    if target > c.tricks_left:
        return False
    c.nodes += 1

    if pos > 0 and (target == 1 or target == c.tricks_left
                    or (pos == 1 and c.trump == NOTRUMP)):
        # Step 2a. A side sure to win this trick (and, at the second card in
        # no-trump, the tricks it cashes next) has all it needs, or denies the
        # other side all it needs.
        i = trick_sure_side(c, pos, wr)
        if i >= 0:
            sure = 1
            if pos == 1 and c.trump == NOTRUMP and i == ((c.leader + 1) & 1):
                sure += nt_second_hand_extra(c, wr)
            if i == 0 and target <= sure:
                return True
            if i == 1 and c.tricks_left - sure < target:
                return False
        wr[0] = wr[1] = wr[2] = wr[3] = 0

    if pos == 0:
        # Step 2. The last trick is forced.
        if c.tricks_left == 1:
            return last_trick(c, target, wr)
        # The table's header slot is a cache miss: start loading it now, while the
        # cut-offs below are computed.
        lenkey = c.lenkey
        lt = c.leader | (c.trump << 2)
        dd_prefetch(&c.headers[slot_of(c, lenkey, lt)])
        # Step 3. Quick tricks: the side on lead cashes sure winners.
        i = quick_tricks(c, wr, target if (c.leader & 1) == 0 else c.tricks_left - target + 1)
        if (c.leader & 1) == 0:
            if i >= target:
                return True
        elif c.tricks_left - i < target:
            return False
        # Step 3b. Later tricks: a trick the side on lead must lose now; top trumps
        # that win in the end, whoever is on lead.
        if target == c.tricks_left if (c.leader & 1) == 0 else target == 1:
            # The side on lead needs every trick.
            if i == 0 and must_lose_trick(c, wr):
                return (c.leader & 1) == 1
            if c.trump == NOTRUMP and defence_sure_trick_nt(c, wr):
                return (c.leader & 1) == 1

        if c.trump != NOTRUMP:
            if c.tricks_left - sure_trump_tricks(c, 1, wr) < target:
                return False
            if sure_trump_tricks(c, 0, wr) >= target:
                return True
        wr[0] = wr[1] = wr[2] = wr[3] = 0
        # Step 4. Transposition table.
        seq = c.seq
        hit = tt_probe(c, lenkey, lt, seq, target, wr, &ttbest)
        if hit >= 0:
            return hit == 1
        f.tt_suit = ttbest >> 4
        f.tt_place = ttbest if ttbest == 255 else (ttbest & 15)

    # Step 5. Generate and order this hand's moves.
    seat = (c.leader + pos) & 3
    maxnode = (seat & 1) == 0
    gen_moves(c, f, seat, pos)
    result = not maxnode

    # Step 6. Try each move; MAX needs one success, MIN one failure.
    cwr = c.frames[ply + 1].wr
    tried[0] = tried[1] = tried[2] = tried[3] = 99
    for i in range(f.nmoves):
        m = next_move(f, i)
        s = m.suit
        r = m.rank
        # A card below every rank that has mattered so far in its suit, when a
        # card of that suit also below them has been tried, leads to the same
        # abstract position: its result is already known.
        thr = dd_lobit(wr[s]) if wr[s] else 16
        if r < thr and tried[s] < thr:
            continue
        if r < tried[s]:
            tried[s] = r
        play_card(c, seat, s, r)
        c.ply = ply + 1
        if pos < 3:
            c.pos = pos + 1
            ok = search(c, target)
            c.pos = pos
            trick_wr[0] = trick_wr[1] = trick_wr[2] = trick_wr[3] = 0
        else:
            old_leader = c.leader
            winner = finish_trick(c, trick_wr)
            ok = search(c, target - (1 if (winner & 1) == 0 else 0))
            unfinish_trick(c, old_leader)
        c.ply = ply
        unplay_card(c, seat, s, r)
        # The ranks this move's result relied on: the subtree's and this trick's.
        mw[0] = cwr[0] | trick_wr[0]
        mw[1] = cwr[1] | trick_wr[1]
        mw[2] = cwr[2] | trick_wr[2]
        mw[3] = cwr[3] | trick_wr[3]
        # The move stood for its whole group of touching cards.  If its own rank
        # mattered, so does the rank of every card of the group: elsewhere those
        # cards need not touch.
        if (m.group & (m.group - 1)) and mw[s] and r >= dd_lobit(mw[s]):
            mw[s] |= <uint16_t>(m.group & -m.group)
        if ok == maxnode:
            # Cut-off: this move alone decides the node.
            f.killer_suit = <uint8_t>s
            f.killer_rank = <uint8_t>r
            best = <uint8_t>((s << 4) | dd_popcount(c.rem[s] >> (r + 1)))
            result = ok
            wr[0] = mw[0]
            wr[1] = mw[1]
            wr[2] = mw[2]
            wr[3] = mw[3]
            break
        wr[0] |= mw[0]
        wr[1] |= mw[1]
        wr[2] |= mw[2]
        wr[3] |= mw[3]

    # Step 7. Remember the bound at trick boundaries.
    if pos == 0:
        if result:
            tt_store(c, lenkey, lt, seq, wr, target, c.tricks_left, best)
        else:
            tt_store(c, lenkey, lt, seq, wr, 0, target - 1, best)
    return result


# ---------------------------------------------------------------------------
# 5. Drivers
# ---------------------------------------------------------------------------

cdef int mtd(Ctx *c, int guess) noexcept nogil:
    """North-South's tricks from the current point (current trick included), exactly."""
    cdef int lo = 0, hi = c.tricks_left, t
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
        if search(c, t):
            lo = t
            guess = t + 1
        else:
            hi = t - 1
            guess = t - 1
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
    cdef uint16_t trick_wr[4]
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
    c.lenkey = make_lenkey(c)
    make_seq(c, c.seq)
    ns_won[0] = 0
    for i in range(nplayed):
        seat = (c.leader + c.pos) & 3
        play_card(c, seat, played[i] >> 4, played[i] & 15)
        if c.pos == 3:
            winner = finish_trick(c, trick_wr)
            if (winner & 1) == 0:
                ns_won[0] += 1
        else:
            c.pos += 1


# ---------------------------------------------------------------------------
# 6. The Python-facing class
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
            result = search(self.c, target)
        return bool(result)

    def card_scores(self, tuple hands, int trump, int leader, bytes played=b""):
        """For every legal card of the player to move: tricks the mover's side takes from
        here (the trick in progress counted).  Returns a list of (card, score) with
        card = suit * 16 + rank, plus the mover's seat: ``(seat, [(card, score), ...])``."""
        cdef uint16_t hm[16]
        cdef int i, n, ns_won = 0, seat, pos, k, nm, old_leader = 0, winner, best, v, total, bonus
        cdef const uint8_t *pp = played
        cdef int np = len(played)
        cdef Move moves[MAXMOVES]
        cdef int values[MAXMOVES]
        cdef uint16_t trick_wr[4]
        cdef Ctx *c = self.c
        cdef uint32_t g
        n = self._load_hands(hands, hm)
        with nogil:
            load_position(c, hm, trump, leader, n, <uint8_t *>pp, np, &ns_won)
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
                    winner = finish_trick(c, trick_wr)
                    bonus = 1 if (winner & 1) == 0 else 0
                v = best
                if (seat & 1) == 0:
                    while v > 0 and not search(c, v - bonus):
                        v -= 1
                else:
                    while v < total and search(c, v + 1 - bonus):
                        v += 1
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

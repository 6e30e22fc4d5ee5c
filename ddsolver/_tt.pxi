# Included by _core.pyx.  The transposition table: its keys (suit lengths per hand,
# the owners of each suit's cards by relative rank), probe, store and clear.  Layouts
# are in _core.pxd.  Partition search: an entry keeps only the ranks that decided its
# result, so one entry covers every position that agrees with it on those ranks.


# Sizes of the packed layouts; tests read them to keep the layouts honest.
BLOCK_SIZE = sizeof(TTBlock)
HEADER_SIZE = sizeof(TTHeader)
assert sizeof(TTBlock) == 176, sizeof(TTBlock)
assert sizeof(TTHeader) == 32, sizeof(TTHeader)


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


cdef inline uint32_t slot_of(Ctx *c, uint64_t lenkey, int lead_trump) noexcept nogil:
    cdef uint64_t h = (lenkey ^ (<uint64_t>lead_trump * 0x9E3779B97F4A7C15ULL)) * 0xD6E8FEB86659FD93ULL
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


cdef inline TTHeader *find_header(Ctx *c, uint64_t lenkey, int lead_trump) noexcept nogil:
    """The header slot of this key: its own, or the empty slot where it would go."""
    cdef uint32_t i = slot_of(c, lenkey, lead_trump)
    cdef TTHeader *h
    while True:
        h = &c.headers[i]
        if h.gen != c.gen:
            # Left over from before the last clear: an empty slot (made so for good,
            # as callers read ``lead_trump`` to tell).
            h.gen = c.gen
            h.lead_trump = 255
            h.first[0] = h.first[1] = h.first[2] = h.first[3] = h.first[4] = 0
            return h
        if h.lead_trump == 255 or (h.lenkey == lenkey and h.lead_trump == lead_trump):
            return h
        i = (i + 1) & (c.nslots - 1)


cdef inline int key_suit(Ctx *c) noexcept nogil:
    """The suit whose top card splits a key's entries into chains: the longest suit
    still in play (a function of the key's suit lengths; ties to the lower suit)."""
    cdef int s, n, best = 0, most = dd_popcount(c.rem[0])
    for s in range(1, 4):
        n = dd_popcount(c.rem[s])
        if n > most:
            most = n
            best = s
    return best


cdef inline void entry_decisive(Ctx *c, uint16_t tops, uint16_t *decisive) noexcept nogil:
    """The ranks an entry relied on, in the current position: its k-th highest card per suit."""
    cdef int s, k
    for s in range(4):
        k = (tops >> (4 * s)) & 15
        decisive[s] = <uint16_t>dd_kth_high(c.rem[s], k) if k else 0


cdef inline int tt_probe(Ctx *c, uint64_t lenkey, int lead_trump, uint32_t *seq, int target,
                         uint16_t *decisive, uint8_t *best) noexcept nogil:
    """A stored bound that settles ``target``: a lower bound >= target or an upper bound
    < target (NS tricks from here); -1 if none does.  On -1, ``best`` gets the best move
    of the newest matching entry that has one (else 255)."""
    cdef TTHeader *h = find_header(c, lenkey, lead_trump)
    cdef int chain = TT_ANY, other = (seq[h.key_suit] >> 24) & 3
    cdef uint32_t b = h.first[TT_ANY]
    cdef TTBlock *blk
    cdef int i
    cdef unsigned int m
    cdef uint32_t p0 = seq[0], p1 = seq[1], p2 = seq[2], p3 = seq[3]
    best[0] = 255
    c.probes += 1
    # The entries that do not rely on the key suit's top card (TT_ANY; read first:
    # more general, they settle more of the positions above), then those that rely on
    # its top card held, as here, by ``other``.  A block's entries are matched at once;
    # the matches are then read newest first.
    while True:
        while b:
            blk = &c.blocks[b]
            m = dd_tt_match(&blk.seq[0][0], blk.tops, p0, p1, p2, p3, blk.n)
            while m:
                i = dd_hibit(m)
                m ^= (<unsigned int>1) << i
                if blk.lower[i] >= target:
                    entry_decisive(c, blk.tops[i], decisive)
                    return blk.lower[i]
                if blk.upper[i] < target:
                    entry_decisive(c, blk.tops[i], decisive)
                    return blk.upper[i]
                if best[0] == 255:
                    best[0] = blk.best[i]
            b = blk.next
        if chain != TT_ANY:
            return -1
        chain = other
        b = h.first[other]


cdef inline void tt_store(Ctx *c, uint64_t lenkey, int lead_trump, uint32_t *seq, uint16_t *decisive,
                          int lower, int upper, uint8_t best) noexcept nogil:
    """Record bounds for every position that agrees with this one on the ranks in ``decisive``."""
    cdef uint32_t eseq[4]
    cdef int s, k
    cdef uint16_t tops = 0
    for s in range(4):
        k = dd_popcount(c.rem[s] >> dd_lobit(decisive[s])) if decisive[s] else 0
        tops |= <uint16_t>(k << (4 * s))
        eseq[s] = seq[s] & dd_tt_top(k)
    cdef TTHeader *h = find_header(c, lenkey, lead_trump)
    cdef int ks = h.key_suit if h.lead_trump != 255 else key_suit(c)
    cdef int chain = TT_ANY if decisive[ks] == 0 else (seq[ks] >> 24) & 3
    cdef uint32_t b, prev
    cdef TTBlock *blk
    cdef int depth, i
    # An entry with the same cards and older bounds is not looked for: the new one goes
    # first in its chain, where the next probe meets it before the old one (which still
    # holds, and settles what the new one's bounds leave open, a little further down).
    # Finding it cost a scan of the whole chain at every store, more than it saved.
    # A new entry: in the chain's newest block if it has room, else in a new block.
    b = h.first[chain]
    if b == 0 or c.blocks[b].n == TT_BLOCK:
        if c.used >= c.capacity or (h.lead_trump == 255 and 2 * (c.nheaders + 1) > c.nslots):
            # Full: start again.  Bounded memory matters more than keeping old entries.
            tt_clear(c)
            c.tt_resets += 1
            h = find_header(c, lenkey, lead_trump)
        if h.lead_trump == 255:
            c.nheaders += 1
            h.lenkey = lenkey
            h.lead_trump = <uint8_t>lead_trump
            h.key_suit = <uint8_t>ks
        b = h.first[chain]
        depth = c.blocks[b].depth if b else 0
        if depth >= TT_CHAIN:
            # The chain is as long as it may be: its oldest block becomes the newest
            # (the oldest entries go; the probe cost stays bounded).
            prev = b
            while c.blocks[c.blocks[prev].next].next:
                prev = c.blocks[prev].next
            b = c.blocks[prev].next
            c.blocks[prev].next = 0
        else:
            b = c.used
            c.used += 1
            depth += 1
        c.blocks[b].n = 0
        c.blocks[b].depth = <uint16_t>depth
        c.blocks[b].next = h.first[chain]
        h.first[chain] = b
    blk = &c.blocks[b]
    i = blk.n
    blk.n += 1
    blk.tops[i] = tops
    for s in range(4):
        blk.seq[s][i] = eseq[s]
    blk.lower[i] = <int8_t>lower
    blk.upper[i] = <int8_t>upper
    blk.best[i] = best

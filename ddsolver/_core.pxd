# The private double-dummy core: data layouts shared by the search, move
# generation and the transposition table.  Everything here is plain C; no
# Python object is touched while a search runs.
#
# Encodings (one inside the core, converted only at the Python boundary):
#   seat   0..3 = N E S W (clockwise); North-South are even seats (MAX side)
#   suit   0..3 = S H D C; trump 4 means no-trump
#   rank   2..14 (ace 14); a holding is a uint16 with bit r set for rank r

from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef enum:
    CUTOFF_BITS = 16     # the cut-off cache has 2**CUTOFF_BITS slots
    MAXPLY = 56          # plies in one search (52 cards, with room)
    MAXMOVES = 14        # move groups a hand can have at one ply (13 cards + spare)
    NOTRUMP = 4


cdef struct Move:
    uint8_t suit         # suit of the card played
    uint8_t rank         # the representative card: the top of its equivalence group
    uint16_t group       # every card of the hand this move stands for (touching cards)
    int32_t weight       # ordering score: higher is searched first


cdef struct Frame:
    Move moves[MAXMOVES]     # this ply's moves, ordered
    int nmoves               # how many
    uint16_t decisive[4]     # ranks that decided this node's result, per suit (absolute rank bits)
    uint8_t killer_suit      # the move that last caused a cut-off at this ply ...
    uint8_t killer_rank      # ... (its card); tried early in sibling positions
    uint8_t tt_suit          # the transposition table's best move for this node: suit ...
    uint8_t tt_place         # ... and its place from the top of the suit (255: none)
    uint32_t cut_slot        # at a lead: this node's slot in the cut-off cache (Ctx.cutoff)


# Transposition table.  One entry describes a set of positions at a trick
# boundary: the same trump and leader, the same number of cards of each suit in
# each hand (the header's key), and the same owners of the top k cards of each
# suit (k may differ per suit; k = 0: no card of the suit matters by rank).
#
#   lenkey   64 bits: 4-bit length for (seat, suit) at bit 4 * (4 * seat + suit)
#   seq[s]   26 bits: owner (2 bits) of the top cards of suit s, highest card in
#            bits 25..24, then 23..22, ...; only the top k cards, the rest 0
#
# Entries of one key live in blocks of TT_BLOCK, newest block first, so a probe
# reads a few contiguous cache lines instead of chasing a pointer per entry.  A key
# has five chains of blocks: an entry that relies on the top card of the key suit
# (the longest suit in play, fixed by the lengths) goes to the chain of that card's
# owner, any other entry to the chain TT_ANY; a probe reads TT_ANY and the chain of
# the position's own owner, never the three chains whose entries cannot match.
cdef enum:
    TT_BLOCK = 8
    TT_CHAIN = 32            # blocks a chain may hold; then its oldest block is reused, so
                             # a probe never scans more than 2 * TT_CHAIN * TT_BLOCK entries

cdef struct TTBlock:
    # TT_BLOCK entries, stored suit by suit (a probe matches the block's entries at once,
    # eight lanes to a vector in the AVX2 build: dd_tt_match in _bits.pxd).  Entry i:
    uint32_t seq[4][TT_BLOCK]    # [suit][i]: owners of the significant top cards of the suit
                                 # (its 26-bit sequence, only the top k cards; the rest 0)
    uint16_t tops[TT_BLOCK]      # how many top cards of each suit are significant (k): 4 bits
                                 # a suit, S lowest
    int8_t lower[TT_BLOCK]       # North-South take at least this many tricks from here
    int8_t upper[TT_BLOCK]       # ... and at most this many
    uint8_t best[TT_BLOCK]       # the deciding move: suit << 4 | its rank's place from the
                                 # top (255 none)
    uint32_t next            # the next (older) block of the same chain, 0 = none
    uint16_t n               # entries used in this block, filled from index 0
    uint16_t depth           # blocks in the chain from this one down, when it became the newest

cdef enum:
    TT_CHAINS = 5            # chains a key has: 0..3 for entries that rely on the top card of
    TT_ANY = 4               # the key suit (by its owner), TT_ANY for the others

cdef struct TTHeader:
    uint64_t lenkey          # suit lengths per hand (see above)
    uint32_t first[TT_CHAINS]    # newest block of each chain of this key (0 = empty chain)
    uint8_t lead_trump       # leader | trump << 2; 255 = empty header slot
    uint8_t gen              # generation it was written in; another generation = empty slot
    uint8_t key_suit         # the key suit (see above), set with the key
    uint8_t pad              # (unused)


cdef struct Trick:
    uint8_t suit[4]          # cards played to the trick, by position: suit ...
    uint8_t rank[4]          # ... and rank
    uint8_t winpos[5]        # winpos[k]: position of the winning card after k cards (k >= 1)
    uint32_t prevseq[4]      # Ctx.seq before this trick's cards left it (restored on undo)


cdef struct Ctx:
    # --- the position -------------------------------------------------------
    uint16_t hand[4][4]      # [seat][suit] cards still held
    uint16_t rem[4]          # [suit] cards not yet gone in a completed trick (held + current trick)
    int trump                # 0..3, or NOTRUMP
    int leader               # seat that led the current trick
    int pos                  # cards already played to the current trick (0..3)
    int tricks_left          # tricks not complete, the current one included
    Trick tricks[14]         # tricks[tricks_left]: the trick in progress (earlier ones kept
                             # on the way down, so a search can return into a trick)
    uint64_t lenkey          # suit lengths of the hands, as in the TT header (kept up to date)
    uint32_t seq[4]          # owners of the cards in rem, as in a TT entry (kept up to date
                             # at trick boundaries; a card on the table counts for its player)
    int ply                  # depth from the root of this search
    int etc_min_tricks       # probe_leads at trick starts with at least this many tricks left
    Frame frames[MAXPLY]     # per-ply move lists and results, preallocated
    uint16_t cutoff[1 << CUTOFF_BITS]   # the cut-off cache: by a hash of the leader's
                             # hand (see cutoff_slot), the lead that last caused a cut-off
                             # with it, suit << 4 | rank (0: none); an ordering hint only
    # --- transposition table ------------------------------------------------
    TTHeader *headers        # open addressing on (lenkey, lt), linear probing
    TTBlock *blocks          # block pool; index 0 is never used
    uint32_t nslots          # header slots, a power of two
    uint32_t nheaders        # header slots in use (kept under half of nslots)
    uint32_t capacity        # blocks in the pool
    uint32_t used            # blocks handed out (blocks[1..used-1])
    uint64_t tt_resets       # times the table filled up and was cleared
    uint8_t gen              # current generation of the headers (1..255; clearing moves it on)
    # --- counters -----------------------------------------------------------
    uint64_t nodes           # nodes searched (the functional signature of a run)
    uint64_t probes          # transposition-table look-ups
    uint64_t trick_nodes[14] # nodes entered at a trick's start, by tricks left (DDS counts these)


cdef inline Trick *current_trick(Ctx *c) noexcept nogil:
    """The trick in progress."""
    return &c.tricks[c.tricks_left]


cdef inline bint plays_as_notrump(Ctx *c) noexcept nogil:
    """No-trump, or a trump contract whose trumps are all gone (none in a hand or on the
    table): nobody can ruff any more, so the no-trump reasoning holds."""
    return c.trump == NOTRUMP or c.rem[c.trump] == 0


# The stages of a trick, by the number of cards already played to it: move ordering
# weighs the lead and each following hand by its own rules.
cdef enum:
    LEAD = 0
    SECOND_HAND = 1
    THIRD_HAND = 2
    FOURTH_HAND = 3

# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The double-dummy search, in C through Cython.  Private: use :mod:`ddsolver.solver`.

The search is a boolean alpha-beta ("can North-South take at least t more
tricks?") driven by an MTD(f)-like loop that moves t until the bounds meet.
North-South (seats 0 and 2) are MAX, East-West MIN; whoever won the last trick
leads the next, so MAX and MIN do not simply alternate.

One extension module, built from one file per concept (pulled in with ``include``, so
the search stays inlined)::

  _core.pxd       layouts: Move, Frame, the TT entry/block/header, Trick, Ctx
  _bits.pxd       bit helpers (popcount, highest/lowest bit, prefetch), inline C
  _tt.pxi         the transposition table (partition search)
  _moves.pxi      move generation (equivalent cards are one move) and ordering
  _cutoffs.pxi    quick tricks, later tricks, sure-trick tests
  _search.pxi     make/unmake, the last trick, search() by numbered steps (trick start, following hands)
  _core.pyx       this file: the MTD(f) driver, the first guess, loading a
                  position, and the Python-facing class ``Core``
"""

from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset
from cpython.exc cimport PyErr_CheckSignals

# The C module: signal.getsignal converts to enums, at a microsecond a call.
import _signal
import os as _os
import threading as _threading
from operator import index as operator_index

from ddsolver._bits cimport (DD_BMI2_BUILD, dd_alloc_table, dd_cpu_has_bmi2, dd_hibit,
                             dd_kth_high, dd_lobit, dd_popcount, dd_prefetch, dd_tt_match,
                             dd_tt_top)

# ---------------------------------------------------------------------------
# Stopping a search (Ctrl-C)
# ---------------------------------------------------------------------------
#
# A search can run for many seconds with the GIL released, where no Python signal
# handler can run.  So the stop request is a C flag for the whole process, which
# the search reads every STOP_CHECK_MASK + 1 nodes, where it counts them (count_node).
# A search that sees it unwinds at once with longjmp to the driver that started it
# (dd_stoppable): the search allocates nothing and holds nothing, and every Core
# method loads its position afresh, so nothing is left to undo; the table only ever
# holds finished entries.  The flag is set by request_stop() (a thread pool whose
# caller was interrupted), or by a C-level handler of SIGINT (SIGTERM) put in front of
# Python's own while a search runs in the main thread, while the main thread waits for
# searches in other threads, or for the length of a command (hook_signal): the handler
# runs in whatever thread the signal lands on, even one in the middle of a search.
# Python's handler still runs, so the signal then raises as usual in the main thread.
cdef extern from *:
    """
    #include <setjmp.h>
    #include <signal.h>
    #include <string.h>

    /* Two sources, so that neither clears the other's request: a hooked signal
       (cleared when the last hook is removed) and request_stop() (until clear_stop()). */
    static volatile sig_atomic_t dd_stop_signal = 0;
    static volatile int dd_stop_request = 0;
    #define dd_stop_wanted() (dd_stop_signal || dd_stop_request)
    static _Thread_local jmp_buf *dd_stop_env = NULL;

    typedef int (*dd_search_fn)(void *, int);

    /* fn(c, arg), or -1 if a stop request unwound it. */
    static int dd_stoppable(dd_search_fn fn, void *c, int arg) {
        jmp_buf env;
        jmp_buf *volatile outer = dd_stop_env;
        int v;
        if (setjmp(env) != 0) {
            dd_stop_env = outer;
            return -1;
        }
        dd_stop_env = &env;
        v = fn(c, arg);
        dd_stop_env = outer;
        return v;
    }

    /* Called by the search when it sees the flag; outside dd_stoppable it does
       nothing and the search goes on. */
    static void dd_stop_unwind(void) {
        if (dd_stop_env != NULL)
            longjmp(*dd_stop_env, 1);
    }

    #if defined(SIGINT) && defined(SIGTERM) && defined(SA_ONSTACK)
    #define DD_NSIG 65
    static struct sigaction dd_prev_action[DD_NSIG];
    static int dd_hook_depth[DD_NSIG];
    static int dd_hooks = 0;           /* hooks in place, all signals */

    static void dd_on_signal(int sig) {
        dd_stop_signal = 1;
        if (sig > 0 && sig < DD_NSIG) {
            void (*prev)(int) = dd_prev_action[sig].sa_handler;
            if (!(dd_prev_action[sig].sa_flags & SA_SIGINFO)
                    && prev != SIG_DFL && prev != SIG_IGN && prev != NULL)
                prev(sig);
        }
    }

    /* Put dd_on_signal in front of the handler of sig (nested calls count).  Only
       when a handler function is installed (Python's): 0 if nothing was done. */
    static int dd_hook_signal(int sig) {
        struct sigaction now, ours;
        if (sig <= 0 || sig >= DD_NSIG)
            return 0;
        if (dd_hook_depth[sig] > 0) {
            dd_hook_depth[sig]++;
            dd_hooks++;
            return 1;
        }
        if (sigaction(sig, NULL, &now) != 0 || (now.sa_flags & SA_SIGINFO)
                || now.sa_handler == SIG_DFL || now.sa_handler == SIG_IGN)
            return 0;
        memset(&ours, 0, sizeof ours);
        ours.sa_handler = dd_on_signal;
        sigemptyset(&ours.sa_mask);
        ours.sa_flags = SA_ONSTACK;
        if (sigaction(sig, &ours, &dd_prev_action[sig]) != 0)
            return 0;
        dd_hook_depth[sig] = 1;
        dd_hooks++;
        return 1;
    }

    /* Undo one dd_hook_signal that returned 1.  If someone else has replaced the
       handler meanwhile, theirs stays.  The last hook out clears the signal's stop. */
    static void dd_unhook_signal(int sig) {
        struct sigaction now;
        if (sig <= 0 || sig >= DD_NSIG || dd_hook_depth[sig] == 0)
            return;
        if (--dd_hooks == 0)
            dd_stop_signal = 0;
        if (--dd_hook_depth[sig] > 0)
            return;
        if (sigaction(sig, NULL, &now) == 0 && now.sa_handler == dd_on_signal)
            sigaction(sig, &dd_prev_action[sig], NULL);
    }
    #else
    static int dd_hook_signal(int sig) { (void)sig; return 0; }
    static void dd_unhook_signal(int sig) { (void)sig; }
    #endif
    """
    volatile int dd_stop_request
    bint dd_stop_wanted() noexcept nogil
    ctypedef int (*dd_search_fn)(void *, int) noexcept nogil
    int dd_stoppable(dd_search_fn fn, void *c, int arg) noexcept nogil
    void dd_stop_unwind() noexcept nogil
    int SIGINT
    int dd_hook_signal(int sig) noexcept
    void dd_unhook_signal(int sig) noexcept

cdef enum:
    MAX_TT_MB = 1 << 20          # a larger table is a slip (the facade's limit is lower)
    STOP_CHECK_MASK = 0xFFFF     # count_node reads the stop flag when nodes & this == 0
                                 # (every 65536 nodes: a few ms)

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
# Checks at the boundary
# ---------------------------------------------------------------------------
#
# The search trusts its position: a card held twice, a mask bit outside the 52 cards or
# a card played from the wrong hand would send it reading past its tables.  So every
# argument that reaches it is checked here first (under a microsecond a call, nothing
# per node), and bad ones raise ValueError (TypeError for a wrong type).

_SEATS = "NESW"
_SUITS = "SHDC"
_RANKS = "??23456789TJQKA"
_MAIN_THREAD = _threading.main_thread().ident
_DEFAULT_INT_HANDLER = _signal.default_int_handler


cdef str card_name(int s, int r):
    return _SUITS[s] + _RANKS[r]


cdef int int_arg(object value, str name, int lo, int hi) except? -1:
    """``value`` as an int in lo..hi (TypeError for a non-integer)."""
    cdef long v
    if type(value) is not int:
        value = operator_index(value)       # a float would be truncated silently
    try:
        v = value
    except OverflowError:
        v = hi + 1
    if v < lo or v > hi:
        raise ValueError(f"{name} must be {lo}..{hi}, got {value!r}")
    return <int>v


cdef int check_hands(tuple hands, uint16_t *hm) except -1:
    """Copy the 16 masks of ``hands`` into ``hm`` after checking them: ranks 2..14 only,
    no card in two hands, as many cards in every hand.  Returns that number."""
    cdef int i, seat, s, count
    cdef uint16_t seen
    cdef int counts[4]
    if len(hands) != 16:
        raise ValueError(f"a deal is 16 rank masks ([seat][suit]), got {len(hands)}: "
                         f"{hands!r}")
    cdef long x
    for i in range(16):
        y = hands[i]
        if type(y) is not int:
            y = operator_index(y)           # TypeError for a float or a non-number
        try:
            x = y
        except OverflowError:
            x = -1
        if x < 0 or x > 0xFFFF or (x & ~0x7FFC):
            raise ValueError(f"mask {i} (seat {_SEATS[i // 4]}, suit {_SUITS[i % 4]}) has "
                             f"bits outside ranks 2..14: {y:#x}")
        hm[i] = <uint16_t>x
    for s in range(4):
        seen = 0
        for seat in range(4):
            if hm[4 * seat + s] & seen:
                r = dd_hibit(hm[4 * seat + s] & seen)
                raise ValueError(f"card {card_name(s, r)} is in two hands (the second is "
                                 f"{_SEATS[seat]})")
            seen |= hm[4 * seat + s]
    for seat in range(4):
        counts[seat] = 0
        for s in range(4):
            counts[seat] += dd_popcount(hm[4 * seat + s])
    if not counts[0] == counts[1] == counts[2] == counts[3]:
        raise ValueError("hands must hold equal numbers of cards, got "
                         + ", ".join(f"{_SEATS[seat]} {counts[seat]}" for seat in range(4)))
    return counts[0]


cdef int check_played(const uint16_t *hm, int trump, int leader, int n,
                      const uint8_t *pp, int np) except -1:
    """Check that ``pp`` (``np`` cards, suit * 16 + rank) is a legal play of the deal
    from its first lead by ``leader``: each card held by the player to move, following
    suit when it can.  The same rules as play_card and finish_trick."""
    cdef uint16_t h[16]
    cdef int i, s, r, seat, pos = 0, lead_suit = 0, win_pos = 0, win_s = 0, win_r = 0
    if np > 4 * n:
        raise ValueError(f"{np} cards played, but the deal has {4 * n}")
    for i in range(16):
        h[i] = hm[i]
    for i in range(np):
        s = pp[i] >> 4
        r = pp[i] & 15
        if s > 3 or r < 2 or r > 14:
            raise ValueError(f"played card {i + 1}: {pp[i]:#04x} is not a card "
                             "(suit * 16 + rank, suit 0..3, rank 2..14)")
        seat = (leader + pos) & 3
        if not (h[4 * seat + s] >> r) & 1:
            raise ValueError(f"played card {i + 1}: {card_name(s, r)} is not in "
                             f"{_SEATS[seat]}'s hand")
        if pos > 0 and s != lead_suit and h[4 * seat + lead_suit]:
            raise ValueError(f"played card {i + 1}: {_SEATS[seat]} plays "
                             f"{card_name(s, r)} but must follow to {_SUITS[lead_suit]}")
        h[4 * seat + s] ^= <uint16_t>(1 << r)
        if pos == 0:
            lead_suit = win_s = s
            win_r = r
            win_pos = 0
        elif (s == win_s and r > win_r) or (s == trump and win_s != trump):
            win_s = s
            win_r = r
            win_pos = pos
        pos += 1
        if pos == 4:
            leader = (leader + win_pos) & 3
            pos = 0
    return 0


# The drivers as dd_stoppable runs them.
cdef int mtd_fn(void *c, int guess) noexcept nogil:
    return mtd(<Ctx *>c, guess)


cdef int search_fn(void *c, int target) noexcept nogil:
    return search(<Ctx *>c, target)


def request_stop():
    """Ask every search running in this process, and every search started before
    :func:`clear_stop`, to stop: each raises KeyboardInterrupt within a few ms.  Safe to
    call from any thread."""
    global dd_stop_request
    dd_stop_request = 1


def clear_stop():
    """Let searches run again after :func:`request_stop`."""
    global dd_stop_request
    dd_stop_request = 0


def stop_requested():
    """Whether searches are being stopped now (by request_stop or a hooked signal)."""
    return bool(dd_stop_wanted())


def hook_signal(int signum):
    """Until :func:`unhook_signal`, the signal ``signum`` also stops the searches
    running (in any thread) as it arrives, before Python's handler has had a chance to
    run; Python's handler is called as before.  Main thread only; nests.  Returns
    whether the hook is in place (not when the signal has no handler function, is
    ignored, or the platform has no sigaction)."""
    if _threading.get_ident() != _MAIN_THREAD:
        return False
    return dd_hook_signal(signum) != 0


def unhook_signal(int signum):
    """Undo one :func:`hook_signal` that returned True (from any thread).  The last one
    out also forgets a signal that came meanwhile, so later searches run."""
    dd_unhook_signal(signum)


# ---------------------------------------------------------------------------
# The Python-facing class
# ---------------------------------------------------------------------------

cdef enum:
    QUICK_TRICKS = 0         # the counts Core._trick_start_count runs (test hooks)
    SURE_TRUMP_TRICKS = 1


cdef class Core:
    """One solver: a search context and its transposition table.  Not thread-safe:
    a second call while one runs (from another thread) raises RuntimeError; use one per
    thread.  The GIL is released while it searches, and a search stops (raising
    KeyboardInterrupt) when asked to by :func:`request_stop` or, in the main thread, by
    Ctrl-C.

    Cards cross this boundary as ``suit * 16 + rank``; a deal as 16 rank masks
    ordered [seat][suit].  Every argument is checked (ValueError).
    """

    cdef Ctx *c
    cdef readonly int tt_mb
    cdef object _deal_key
    cdef bint _busy           # a method is running (another thread must not enter)

    def __cinit__(self, tt_mb=64):
        tt_mb = operator_index(tt_mb)
        if tt_mb < 1:
            raise ValueError(f"transposition table size must be at least 1 MB, got {tt_mb}")
        if tt_mb > MAX_TT_MB:
            raise ValueError(f"transposition table size must be at most {MAX_TT_MB} MB, "
                             f"got {tt_mb}")
        self.c = <Ctx *>malloc(sizeof(Ctx))
        if self.c == NULL:
            raise MemoryError()
        memset(self.c, 0, sizeof(Ctx))
        cdef size_t total = (<size_t>tt_mb) << 20
        # About a fifth of the budget for headers, the rest for entry blocks.  Sizes
        # in size_t, and at most 2**31 slots, so that no size overflows.
        cdef size_t nslots = 1024
        while nslots < (<size_t>1 << 31) and (nslots * 2) * sizeof(TTHeader) <= total // 5:
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

    @property
    def busy(self):
        """Whether a call is running on this solver now (in some thread)."""
        return bool(self._busy)

    # ---- entering and leaving ------------------------------------------------------
    # Every method that touches the context goes through _enter/_leave.  The flag is
    # tested and set with the GIL held, so two threads cannot both get in.

    cdef int _enter(self) except -1:
        """Mark the solver busy; in the main thread, let SIGINT stop the search (when
        Python's handler is the default one, which raises KeyboardInterrupt).  Returns
        whether the signal was hooked, for _leave."""
        if self._busy:
            raise RuntimeError("this solver is already in use by another thread: a "
                               "Solver is not thread-safe, give each thread its own "
                               "(ddsolver.pool.SolverPool does)")
        self._busy = 1
        if (_threading.get_ident() == _MAIN_THREAD
                and _signal.getsignal(SIGINT) is _DEFAULT_INT_HANDLER):
            return dd_hook_signal(SIGINT)
        return 0

    cdef void _leave(self, int hooked):
        self._busy = 0
        if hooked:
            dd_unhook_signal(SIGINT)

    cdef int _stopped(self) except -1:
        """A search was stopped: raise.  In the main thread a pending signal's handler
        runs first, so Ctrl-C raises its own KeyboardInterrupt (once)."""
        PyErr_CheckSignals()
        raise KeyboardInterrupt("search stopped")

    cdef int _load_hands(self, tuple hands, uint16_t *hm) except -1:
        """Check the 16 masks and copy them into ``hm``, switch the table to this deal,
        and return the number of cards in each hand."""
        cdef int n = check_hands(hands, hm)
        self._use_deal(hands)
        return n

    cdef int _load_play(self, tuple hands, int trump, int leader, const uint8_t *pp, int np,
                        uint16_t *hm) except -1:
        """_load_hands, then check the ``np`` cards played from the start (``pp``): legal in
        order.  Returns the number of cards in each hand."""
        cdef int n = self._load_hands(hands, hm)
        check_played(hm, trump, leader, n, pp, np)
        return n

    cdef void _use_deal(self, tuple hands):
        # Entries are valid for any deal (they are keyed by relative ranks),
        # but a new deal rarely reuses them: start fresh to keep chains short,
        # and forget the ordering hints learnt on the last deal (forget_hints).
        if hands != self._deal_key:
            tt_clear(self.c)
            forget_hints(self.c)
            self._deal_key = hands

    def clear(self):
        """Empty the transposition table."""
        cdef int hooked = self._enter()
        try:
            tt_clear(self.c)
            self._deal_key = None
        finally:
            self._leave(hooked)

    def solve(self, tuple hands not None, trump, leader, bytes played not None=b"",
              guess=-1):
        """North-South's tricks from the current point (the trick in progress counted).

        Returns ``(ns_from_here, ns_won_so_far, tricks_left)``.
        """
        cdef uint16_t hm[16]
        cdef int n, ns_won = 0, result
        cdef int t = int_arg(trump, "trump", 0, 4), lead = int_arg(leader, "leader", 0, 3)
        cdef int g = int_arg(guess, "guess", -1, 13)
        cdef const uint8_t *pp = played
        cdef int np = len(played)
        cdef int hooked = self._enter()
        try:
            n = self._load_play(hands, t, lead, pp, np, hm)
            with nogil:
                load_position(self.c, hm, t, lead, n, <uint8_t *>pp, np, &ns_won)
                if g < 0 and np == 0:
                    g = first_guess(hm, t, n)
                result = dd_stoppable(mtd_fn, self.c, g)
            if result < 0:
                self._stopped()
            return result, ns_won, self.c.tricks_left
        finally:
            self._leave(hooked)

    def quick_tricks(self, tuple hands not None, trump, leader, need=13):
        """The search's quick-trick count at the start of a trick (for tests): tricks the
        side on lead is sure to cash, counted up to ``need``, and the ranks it relied on
        (4 rank masks, suits S H D C).  ``(count, [mask, ...])``."""
        return self._trick_start_count(hands, trump, leader, QUICK_TRICKS,
                                       int_arg(need, "need", 0, 13))

    def sure_trump_tricks(self, tuple hands not None, trump, leader, side, need=1):
        """The search's sure trump tricks for ``side`` (0 North-South, 1 East-West) at the
        start of a trick (for tests): tricks its top or long trumps win whatever happens,
        and the ranks relied on -- the fewest for a count of at least ``need``; a count
        below ``need`` comes with none.  ``(count, [mask, ...])``."""
        return self._trick_start_count(hands, trump, leader, SURE_TRUMP_TRICKS,
                                       int_arg(side, "side", 0, 1), int_arg(need, "need", 0, 13))

    cdef _trick_start_count(self, tuple hands, trump, leader, int which, int arg, int need=0):
        """Load the start of a trick and run one of the search's counts on it:
        QUICK_TRICKS (up to ``arg`` tricks) or SURE_TRUMP_TRICKS (of side ``arg``, for a
        count of ``need``)."""
        cdef uint16_t hm[16]
        cdef uint16_t dec[4]
        cdef int n, ns_won = 0, q
        cdef int t = int_arg(trump, "trump", 0, 4), lead = int_arg(leader, "leader", 0, 3)
        cdef int hooked = self._enter()
        try:
            n = self._load_hands(hands, hm)
            dec[0] = dec[1] = dec[2] = dec[3] = 0
            with nogil:
                load_position(self.c, hm, t, lead, n, NULL, 0, &ns_won)
                if which == QUICK_TRICKS:
                    q = quick_tricks(self.c, dec, arg)
                else:
                    q = sure_trump_tricks(self.c, arg, dec, need)
            return q, [dec[0], dec[1], dec[2], dec[3]]
        finally:
            self._leave(hooked)

    def reaches(self, tuple hands not None, trump, leader, bytes played not None=b"",
                target=7):
        """One null-window search: can North-South take at least ``target`` tricks from
        the current point (the trick in progress counted)?"""
        cdef uint16_t hm[16]
        cdef int n, ns_won = 0, result
        cdef int t = int_arg(trump, "trump", 0, 4), lead = int_arg(leader, "leader", 0, 3)
        cdef int goal = int_arg(target, "target", 0, 13)
        cdef const uint8_t *pp = played
        cdef int np = len(played)
        cdef int hooked = self._enter()
        try:
            n = self._load_play(hands, t, lead, pp, np, hm)
            with nogil:
                load_position(self.c, hm, t, lead, n, <uint8_t *>pp, np, &ns_won)
                self.c.ply = 0
                result = dd_stoppable(search_fn, self.c, goal)
            if result < 0:
                self._stopped()
            return result >= goal
        finally:
            self._leave(hooked)

    def reaches_many(self, list worlds not None, trump, leader, list items not None,
                     bint forget=False):
        """Many null-window searches, for single-dummy search over sampled worlds: can
        North-South take at least ``target`` tricks?

        ``worlds`` are deals at one point of the play (16 masks each, all the same size:
        the start of a trick, ``leader`` to lead it); ``items`` are ``(world, played,
        target)``: the index of a world, the cards played from that point (bytes, suit *
        16 + rank), and North-South's tricks from that point, those the played cards
        complete counted.  Everything is checked before any search.  Returns bytes, 1 where
        the answer is yes.

        The table is shared by every search and kept from one call to the next: entries
        are keyed by the position, so they hold for any deal, and a world's later questions
        (and its look-alikes') find the bounds the earlier ones left.  ``forget`` empties it
        first; a later :meth:`solve` or :meth:`card_scores` starts afresh."""
        cdef int t = int_arg(trump, "trump", 0, 4), lead = int_arg(leader, "leader", 0, 3)
        cdef Py_ssize_t nw = len(worlds), ni = len(items), i, k
        cdef int n = -1, m, w, goal, ns_won, r, stopped = 0
        cdef bytes pb
        cdef const uint8_t *pp
        cdef int np
        cdef uint16_t *hm = <uint16_t *>malloc(nw * 16 * sizeof(uint16_t) + 1)
        cdef int *iw = <int *>malloc(ni * 3 * sizeof(int) + 1)
        cdef const uint8_t **ip = <const uint8_t **>malloc(ni * sizeof(uint8_t *) + 1)
        cdef bytearray out = bytearray(ni)
        cdef unsigned char *o = out
        if hm == NULL or iw == NULL or ip == NULL:
            free(hm); free(iw); free(ip)
            raise MemoryError()
        cdef int hooked = 0
        try:
            for k in range(nw):
                hand = worlds[k]
                if type(hand) is not tuple:
                    raise TypeError(f"world {k}: a deal is a tuple of 16 masks, got "
                                    f"{type(hand).__name__}")
                try:
                    m = check_hands(<tuple>hand, hm + 16 * k)
                except ValueError as e:
                    raise ValueError(f"world {k}: {e}") from None
                if n < 0:
                    n = m
                elif m != n:
                    raise ValueError(f"world {k} has {m} cards a hand, world 0 {n}: the "
                                     "worlds must be at one point of the play")
            keep = []                # the played bytes, alive while the searches read them
            for i in range(ni):
                item = items[i]
                if type(item) is not tuple or len(<tuple>item) != 3:
                    raise TypeError(f"item {i}: expected (world, played, target), got "
                                    f"{item!r}")
                w = int_arg(item[0], "world", 0, nw - 1)
                pb = item[1]
                goal = int_arg(item[2], "target", 0, 13)
                np = len(pb)
                pp = pb
                try:
                    check_played(hm + 16 * w, t, lead, n, pp, np)
                except ValueError as e:
                    raise ValueError(f"item {i} (world {w}): {e}") from None
                keep.append(pb)
                iw[3 * i] = w
                iw[3 * i + 1] = np
                iw[3 * i + 2] = goal
                ip[i] = pp
            hooked = self._enter()
            try:
                if forget:
                    tt_clear(self.c)
                    forget_hints(self.c)
                self._deal_key = None          # a later solve of one deal starts afresh
                with nogil:
                    for i in range(ni):
                        w = iw[3 * i]
                        ns_won = 0
                        load_position(self.c, hm + 16 * w, t, lead, n, <uint8_t *>ip[i],
                                      iw[3 * i + 1], &ns_won)
                        goal = iw[3 * i + 2] - ns_won
                        if goal <= 0:
                            o[i] = 1
                        elif goal > self.c.tricks_left:
                            o[i] = 0
                        else:
                            self.c.ply = 0
                            r = dd_stoppable(search_fn, self.c, goal)
                            if r < 0:
                                stopped = 1
                                break
                            o[i] = r >= goal
                if stopped:
                    self._stopped()
            finally:
                self._leave(hooked)
            return bytes(out)
        finally:
            free(hm)
            free(iw)
            free(ip)

    def play_trace(self, tuple hands not None, trump, leader, bytes played not None=b""):
        """North-South's tricks in all, those won and those still to come with best play,
        before the first card and after each card of ``played``: a list of
        ``len(played) + 1`` ints.  The position moves on card by card, so a whole play
        costs one search per card (none for a forced card), not one replay per prefix."""
        cdef uint16_t hm[16]
        cdef uint16_t trick_decisive[4]
        cdef int i, n, ns_won = 0, seat, s, r, winner, forced, v, stopped = 0
        cdef int t = int_arg(trump, "trump", 0, 4), lead = int_arg(leader, "leader", 0, 3)
        cdef const uint8_t *pp = played
        cdef int np = len(played)
        cdef Ctx *c = self.c
        cdef int *totals = NULL
        cdef int hooked = self._enter()
        try:
            n = self._load_play(hands, t, lead, pp, np, hm)
            out = [0] * (np + 1)
            totals = <int *>malloc((np + 1) * sizeof(int))
            if totals == NULL:
                raise MemoryError()
            with nogil:
                load_position(c, hm, t, lead, n, NULL, 0, &ns_won)
                c.ply = 0
                totals[0] = v = dd_stoppable(mtd_fn, c, first_guess(hm, t, n))
                stopped = v < 0
                i = 0
                while i < np and not stopped:
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
                        v = dd_stoppable(mtd_fn, c, totals[i] - ns_won)
                        stopped = v < 0
                        totals[i + 1] = ns_won + v
                    i += 1
            if stopped:
                self._stopped()
            for i in range(np + 1):
                out[i] = totals[i]
            return out
        finally:
            free(totals)
            self._leave(hooked)

    def card_scores(self, tuple hands not None, trump, leader, bytes played not None=b""):
        """For every legal card of the player to move: tricks the mover's side takes from
        here (the trick in progress counted).  Returns a list of (card, score) with
        card = suit * 16 + rank, plus the mover's seat: ``(seat, [(card, score), ...])``."""
        cdef uint16_t hm[16]
        cdef int i, n, ns_won = 0, seat, pos, k, nm, old_leader = 0, winner, best, v, total, bonus, r
        cdef int stopped = 0
        cdef int t = int_arg(trump, "trump", 0, 4), lead = int_arg(leader, "leader", 0, 3)
        cdef const uint8_t *pp = played
        cdef int np = len(played)
        cdef Move moves[MAXMOVES]
        cdef int values[MAXMOVES]
        cdef uint16_t trick_decisive[4]
        cdef Ctx *c = self.c
        cdef uint32_t g
        cdef int hooked = self._enter()
        try:
            n = self._load_play(hands, t, lead, pp, np, hm)
            if np == 4 * n:
                raise ValueError(f"the play is over ({np} of {4 * n} cards played): no card "
                                 "is left to score")
            with nogil:
                load_position(c, hm, t, lead, n, <uint8_t *>pp, np, &ns_won)
                c.etc_min_tricks = ETC_SCORES_MIN_TRICKS
                pos = c.pos
                seat = (c.leader + pos) & 3
                total = c.tricks_left
                # The mover's cards, one per group; scored in the order they are made (no
                # weighing: every card is scored, and the search below orders its own).
                collect_moves(c, &c.frames[0], seat, pos)
                nm = c.frames[0].nmoves
                for i in range(nm):
                    moves[i] = c.frames[0].moves[i]
                # The position's value first: no card does better for the mover.  Then
                # each card is tested against that bound and walked away from it one
                # trick at a time; most cards need one or two null-window searches.
                best = dd_stoppable(mtd_fn, c, first_guess(hm, t, n) if np == 0 else -1)
                stopped = best < 0
                i = 0
                while i < nm and not stopped:
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
                            r = dd_stoppable(search_fn, c, v - bonus)
                            if r < 0:
                                stopped = 1
                                break
                            r += bonus
                            if r >= v:
                                break
                            v = r
                    else:
                        while v < total:
                            r = dd_stoppable(search_fn, c, v + 1 - bonus)
                            if r < 0:
                                stopped = 1
                                break
                            r += bonus
                            if r < v + 1:
                                break
                            v = r if r < total else total
                    if stopped:
                        break
                    if pos < 3:
                        c.pos = pos
                    else:
                        unfinish_trick(c, old_leader)
                    c.ply = 0
                    unplay_card(c, seat, moves[i].suit, moves[i].rank)
                    values[i] = v
                    i += 1
            if stopped:
                self._stopped()
            out = []
            for i in range(nm):
                v = values[i] if (seat & 1) == 0 else total - values[i]
                g = moves[i].group
                while g:
                    k = dd_hibit(g)
                    g ^= (<uint32_t>1) << k
                    out.append((moves[i].suit * 16 + k, v))
            return seat, out
        finally:
            self._leave(hooked)

    def dd_table(self, tuple hands not None):
        """Declarer's tricks for all 20 (strain, declarer) pairs: a list of 5 lists
        (strains S H D C NT) of 4 ints (declarer N E S W)."""
        cdef int hooked = self._enter()
        try:
            return [self._dd_strain(hands, strain) for strain in range(5)]
        finally:
            self._leave(hooked)

    def dd_strain(self, tuple hands not None, strain):
        """Declarer's tricks in one strain (0-3 suits S H D C, 4 no-trump): a list of 4
        ints, declarer N E S W.  The table's entries are keyed by trump, so strains share
        nothing: they can be solved in any order, or by different solvers."""
        cdef int st = int_arg(strain, "strain", 0, 4)
        cdef int hooked = self._enter()
        try:
            return self._dd_strain(hands, st)
        finally:
            self._leave(hooked)

    cdef list _dd_strain(self, tuple hands, int strain):
        cdef uint16_t hm[16]
        cdef int n, ns_won = 0, leader, declarer, ns = 0, k
        cdef int res[4]
        cdef int guess[2]
        # Leaders N, S first, then E, W: a leader's result is the best guess for the
        # other leader of the same side.
        cdef int order[4]
        order[0] = 0
        order[1] = 2
        order[2] = 1
        order[3] = 3
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
                ns = dd_stoppable(mtd_fn, self.c, guess[leader & 1])
                if ns < 0:
                    break
                guess[leader & 1] = ns
                if k == 1:
                    guess[1] = ns
                declarer = (leader + 3) & 3
                res[declarer] = ns if (declarer & 1) == 0 else n - ns
        if ns < 0:
            self._stopped()
        return [res[declarer] for declarer in range(4)]


# ---------------------------------------------------------------------------
# The build in use
# ---------------------------------------------------------------------------
#
# setup.py compiles this source twice on x86-64 (gcc, clang): as this module, for any
# x86-64 CPU, and as ddsolver._core_bmi2 with BMI1, BMI2, LZCNT and AVX2.  On a CPU that has
# them, this module hands out the other's Core and stop functions instead of its own, so
# that everyone importing ddsolver._core gets the faster build; DDSOLVER_PORTABLE=1 (any
# non-empty value but "0") keeps this one.  The two give the same answers and search the
# same nodes (tests/solver/test_builds.py).

#: Which build the names of this module come from: "portable" or "x86-64 BMI2".
BUILD = "x86-64 BMI2" if DD_BMI2_BUILD else "portable"

if (not DD_BMI2_BUILD and _os.environ.get("DDSOLVER_PORTABLE", "0") in ("", "0")
        and dd_cpu_has_bmi2()):
    try:
        from ddsolver import _core_bmi2 as _fast_build
    except ImportError:        # not built here (another compiler or CPU family)
        _fast_build = None
    if _fast_build is not None:
        for _name in ("BUILD", "Core", "request_stop", "clear_stop", "stop_requested",
                      "hook_signal", "unhook_signal"):
            globals()[_name] = getattr(_fast_build, _name)
        del _name

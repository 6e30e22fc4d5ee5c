# Included by _core.pyx.  Cut-offs before a trick is searched: quick tricks (sure
# winners the side on lead can cash at once), later tricks (a trick the side on lead
# must lose, top trumps that win in the end) and, inside a trick, the side sure to
# win it.  Each sets the ranks it relied on, for the transposition table.

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


cdef int quick_tricks_own_or_partner(Ctx *c, uint16_t *decisive, int need) noexcept nogil:
    """Tricks the side on lead can cash at once: the leader's own top cards, then, if
    the leader can reach partner's top card in some suit, partner's top cards.  A
    lower bound for the leader's side.  Sets ``decisive`` to the ranks relied on.  Stops
    counting at ``need``: fewer ranks relied on make the result hold for more positions."""
    cdef int seat = c.leader, pard = c.leader ^ 2, s, t = c.trump, own, alt
    cdef uint16_t pard_decisive[4]
    decisive[0] = decisive[1] = decisive[2] = decisive[3] = 0
    own = cash_tricks(c, seat, decisive, need, -1)
    if own >= need:
        return own
    for s in range(4):
        # An entry: the leader leads a small card of s, partner wins with the top card.
        # (& and | where both sides are cheap: no branch to mispredict; | 1 keeps
        # dd_hibit's argument non-zero, and a suit out of play has no entry.)
        if ((c.hand[seat][s] != 0) & ((c.hand[pard][s] >> dd_hibit(c.rem[s] | 1)) & 1)
                and not (t != NOTRUMP
                         and ((s != t)
                              & (((c.hand[(seat + 1) & 3][s] == 0) & (c.hand[(seat + 1) & 3][t] != 0))
                                 | ((c.hand[(seat + 3) & 3][s] == 0)
                                    & (c.hand[(seat + 3) & 3][t] != 0)))))):
            pard_decisive[0] = pard_decisive[1] = pard_decisive[2] = pard_decisive[3] = 0
            # The entry itself relies on partner holding the top card of s.
            pard_decisive[s] = <uint16_t>((<uint32_t>1) << dd_hibit(c.rem[s]))
            # The leader's own winners first, then the entry and partner's winners:
            # sound when partner can keep its winners while following or discarding
            # on the leader's (own + partner's tricks fit in partner's hand), and in a
            # trump contract when neither hand can be made to ruff out of turn (the
            # leader has no trumps left after cashing, partner has none).
            if own > 0 and (t == NOTRUMP or (c.hand[pard][t] == 0
                                             and (c.hand[seat][t] == 0
                                                  or runs_whole_suit(c, seat, t)))):
                alt = cash_tricks(c, pard, pard_decisive, need - own, -1)
                if own + alt <= c.tricks_left or t == NOTRUMP:
                    # No-trump: partner discards on the leader's winners and keeps
                    # its own (alt cards) as long as it can; each one thrown away
                    # costs one trick, so together they take all the tricks left.
                    alt += own
                    if alt > c.tricks_left:
                        alt = c.tricks_left
                    pard_decisive[0] |= decisive[0]
                    pard_decisive[1] |= decisive[1]
                    pard_decisive[2] |= decisive[2]
                    pard_decisive[3] |= decisive[3]
                elif alt > own:
                    # Too many to keep both: partner's alone (its relied-on ranks only).
                    pard_decisive[0] = pard_decisive[1] = pard_decisive[2] = pard_decisive[3] = 0
                    pard_decisive[s] = <uint16_t>((<uint32_t>1) << dd_hibit(c.rem[s]))
                    alt = cash_tricks(c, pard, pard_decisive, need, -1)
            else:
                alt = cash_tricks(c, pard, pard_decisive, need, -1)
            if alt > own:
                decisive[0] = pard_decisive[0]
                decisive[1] = pard_decisive[1]
                decisive[2] = pard_decisive[2]
                decisive[3] = pard_decisive[3]
                return alt
            break
    if own == 0 and t != NOTRUMP:
        own = ruff_trick(c, decisive)
    return own


cdef int quick_tricks(Ctx *c, uint16_t *decisive, int need) noexcept nogil:
    """Tricks the side on lead can cash at once (a lower bound for it), counted up to
    ``need``; sets ``decisive`` to the ranks relied on.  The leader's own winners, or
    partner's after an entry (quick_tricks_own_or_partner); in a trump contract whose
    opponents have no trumps left, the leader's winners in the other suits and then the
    side's longer trump holding; in no-trump also a suit whose winners are split between
    the two hands, after the leader's own winners elsewhere (split_suit_tricks)."""
    cdef int n = quick_tricks_own_or_partner(c, decisive, need)
    cdef int seat = c.leader, pard = c.leader ^ 2, s, k, other, low
    cdef uint16_t dec[4]
    cdef int t = c.trump, a, b
    cdef bint pard_longer
    if n >= need:
        return n
    if not plays_as_notrump(c):
        # The opponents out of trumps: the leader's winners in the other suits, then
        # the side's longer trump holding (each of its trumps wins a trick of its own:
        # sure_trump_tricks).  Partner, if it is the longer, must not be made to ruff
        # the leader's winners: it needs as many other cards.
        if c.hand[(seat + 1) & 3][t] or c.hand[(seat + 3) & 3][t]:
            return n
        a = dd_popcount(c.hand[seat][t])
        b = dd_popcount(c.hand[pard][t])
        pard_longer = b > a
        if pard_longer:
            a = b
        if a == 0:
            return n
        dec[0] = dec[1] = dec[2] = dec[3] = 0
        k = cash_tricks(c, seat, dec, need - a, t)
        if pard_longer and k > c.tricks_left - a:
            return n
        if k + a > n:
            n = k + a
            decisive[0] = dec[0]
            decisive[1] = dec[1]
            decisive[2] = dec[2]
            decisive[3] = dec[3]
        return n
    # No-trump only from here: with trumps, a hand out of the suit holding only trumps
    # would have to ruff its partner's winner and take the lead, so the count would be
    # unsound (it gave a wrong table on DDS's list1000 board 285).
    for s in range(4):
        if c.hand[seat][s] == 0 or c.hand[pard][s] == 0:
            continue
        k = split_suit_tricks(c, seat, s, &low, need)
        if k == 0:
            continue
        dec[0] = dec[1] = dec[2] = dec[3] = 0
        other = 0
        if k < need:
            other = cash_tricks(c, seat, dec, need - k, s)
            # Partner keeps its cards of s while the leader cashes the others.
            if other > c.tricks_left - dd_popcount(c.hand[pard][s]):
                other = 0
                dec[0] = dec[1] = dec[2] = dec[3] = 0
        if k + other > n:
            n = k + other
            if low < 16:
                dec[s] |= <uint16_t>((<uint32_t>1) << low)
            decisive[0] = dec[0]
            decisive[1] = dec[1]
            decisive[2] = dec[2]
            decisive[3] = dec[3]
            if n >= need:
                return n
    return n


cdef int split_suit_tricks(Ctx *c, int seat, int s, int *low, int need) noexcept nogil:
    """No-trump, both hands of the side holding ``s``: the tricks the side on lead takes in
    suit ``s`` led by ``seat`` (0 unless partner holds a winner: then the leader's own count
    has the suit), playing winners while it has them: the hand on lead cashes its highest
    winner and the other hand follows low (if even its lowest card is higher, it wins the
    trick and leads next; on the lead's last card it overtakes if it can, rather than be
    stranded); with no winner left it leads low to the other hand's lowest winner, which
    goes on.  A winner is a card above every card the opponents hold in the suit while
    they still have one; once both are out, every round wins as long as the hand on lead
    has a card (counted: the rounds both hands can play, or all the lead's cards if the
    other hand has none -- or, when that falls short of ``need`` and the other hand is
    the longer, the play goes on card by card so that it takes over and runs its cards).
    ``low`` gets the lowest card led or won with by rank (16: none): the ranks relied on
    are the top ones down to it, so the count holds for every position that agrees with
    this one on them."""
    cdef int lho = (seat + 1) & 3, rho = (seat + 3) & 3, rounds = 0, opp_rounds, r, tricks = 0, low_y
    cdef uint32_t x = c.hand[seat][s], y = c.hand[seat ^ 2][s], tmp, wx, wy, above
    cdef uint32_t opp = c.hand[lho][s] | c.hand[rho][s]
    cdef bint play_on = False
    opp_rounds = dd_popcount(c.hand[lho][s])
    if dd_popcount(c.hand[rho][s]) > opp_rounds:
        opp_rounds = dd_popcount(c.hand[rho][s])
    low[0] = 16
    if opp and dd_hibit(y) < dd_hibit(opp):
        # Partner holds no winner: the leader's own count (cash_tricks) has the suit.
        return 0
    above = ~((<uint32_t>2 << dd_hibit(opp)) - 1) if opp else 0xFFFF
    while x:
        if rounds >= opp_rounds and not play_on:
            # The opponents are out: every card wins.  Which hand wins each round (and
            # leads the next) depends on ranks the count does not rely on; sure are the
            # rounds in which both hands still have a card, or all of the lead's cards
            # when the other hand has none.
            r = dd_popcount(x)
            if y and dd_popcount(y) < r:
                r = dd_popcount(y)
            if y == 0 or dd_popcount(y) <= dd_popcount(x) or tricks + r >= need:
                tricks += r
                break
            # Not enough, and the other hand is longer: play on, relying on the ranks
            # played, so that it overtakes the lead's last card and runs its own.
            above = 0xFFFF
            play_on = True
        wx = x & above
        wy = y & above
        if wx:
            r = dd_hibit(wx)
            x ^= (<uint32_t>1) << r
            # Relied on: the card led is above the opponents' and (below) how it
            # compares with the other hand's lowest card.
            if r < low[0]:
                low[0] = r
            if x == 0 and (y >> r) > 1:
                # The lead's last card: the other hand overtakes with its lowest card
                # above it (a winner too) and goes on, rather than be stranded.
                low_y = dd_lobit(y & ~((<uint32_t>2 << r) - 1))
                y ^= (<uint32_t>1) << low_y
                x = y
                y = 0
            elif y:
                low_y = dd_lobit(y)
                y ^= (<uint32_t>1) << low_y
                if low_y > r:
                    # The other hand's lowest card overtakes: it wins, and leads next.
                    tmp = x
                    x = y
                    y = tmp
        elif wy:
            x ^= (<uint32_t>1) << dd_lobit(x)
            r = dd_lobit(wy)
            y ^= (<uint32_t>1) << r
            if r < low[0]:
                low[0] = r
            tmp = x
            x = y
            y = tmp
        else:
            break
        tricks += 1
        rounds += 1
    return tricks


cdef int ruff_trick(Ctx *c, uint16_t *decisive) noexcept nogil:
    """1 if the leader can lead a suit that partner ruffs and no opponent can overruff
    (an opponent void in it holds only lower trumps than partner's best), else 0.
    Adds to ``decisive`` partner's top trump when its rank was relied on."""
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
                decisive[t] |= <uint16_t>((<uint32_t>1) << ptop)
            return 1
    return 0


cdef inline int cash_tricks(Ctx *c, int seat, uint16_t *decisive, int need, int skip) noexcept nogil:
    """Tricks ``seat`` can take by cashing top cards from its own hand once on lead,
    never losing the lead.  Adds to ``decisive`` the ranks relied on.

    In each suit the leader runs its top cards (the highest cards still out, all in its
    own hand); once the other hands are out of the suit, its small cards win too.  In a
    trump contract the trumps go first: every round of them takes a trump from each
    hand that has one, so an opponent left without trumps can no longer ruff.  A side
    suit stops before the first round an opponent still holding trumps could ruff, and
    before partner would be forced to ruff (holding nothing else).

    Inline, this part only: the suits whose top card ``seat`` holds (as numbers, its
    cards of a suit exceed all the other cards of the suit together exactly then: the
    sets are disjoint).  Often there is none, and the count (cash_suits) is not called.
    """
    cdef int s, cand = 0
    cdef uint32_t mine
    for s in range(4):
        mine = c.hand[seat][s]
        cand |= (mine > (c.rem[s] ^ mine)) << s
    if skip >= 0:
        cand &= ~(1 << skip)
    if cand == 0:
        return 0
    return cash_suits(c, seat, decisive, need, cand)


cdef int cash_suits(Ctx *c, int seat, uint16_t *decisive, int need, int cand) noexcept nogil:
    """cash_tricks' count over ``cand``, the suits (a bit each) whose top card ``seat``
    holds."""
    cdef int pard = seat ^ 2, lho = (seat + 1) & 3, rho = (seat + 3) & 3
    cdef int s, j, k, n, others, cnt, total = 0, t = c.trump, low, first = -1
    cdef int lt = 0, rt = 0, pt = 0
    cdef uint32_t mine, rem, m
    if t != NOTRUMP:
        lt = dd_popcount(c.hand[lho][t])
        rt = dd_popcount(c.hand[rho][t])
        pt = dd_popcount(c.hand[pard][t])
        if (cand >> t) & 1:
            first = t          # trumps first, then the side suits in order
    while cand:
        if first >= 0:
            s = first
            first = -1
        else:
            s = dd_lobit(cand)
        cand &= ~(1 << s)
        mine = c.hand[seat][s]
        rem = c.rem[s]
        # The run of the suit's top cards that the leader holds: its cards above
        # every card of the suit held elsewhere (or on the table).
        m = rem ^ mine
        m = (mine & ~((<uint32_t>2 << dd_hibit(m)) - 1)) if m else mine
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
                # (need may be spent already, j <= 0: the top card alone.)
                low = dd_hibit(dd_kth_high(m, j if j > 1 else 1))
            total += cnt
            if rem & ~mine:
                decisive[s] |= <uint16_t>((<uint32_t>1) << low)
            if total >= need:
                return total
    return total


cdef inline int sure_trump_tricks(Ctx *c, int side, uint16_t *decisive, int need) noexcept nogil:
    """Trump tricks ``side`` (0 = NS, 1 = EW) will win whatever happens, relying on as
    few ranks as a count of ``need`` allows.

    Three sure counts: the run of top trumps held in one hand (the top trump wins
    whenever it is played, and its holder is never forced to throw it away: it can
    always ruff or win with it instead); the top trumps split between the partners
    (split_top_trumps); and the most trumps one hand of the side holds above every
    trump of the other side (all of them when the other side has none): each wins the
    trick it is played to -- a trick with a trump in it goes to the highest trump, and
    the other side's are all lower -- and a hand plays its cards on different tricks,
    every one of them before the deal ends.  The first count that reaches ``need``, in
    the order of the ranks it relies on (none, for a side whose opponents have no
    trumps: suit lengths are in the table key; the run's lowest card; the split top
    trumps'; the other side's top trump), is returned with them in ``decisive``; when
    none does, the largest (the caller cuts only on reaching ``need``)."""
    cdef int t = c.trump, seat, k = 0, low = 0, n = 0, j, split_low = 0, above
    cdef uint32_t m, opp
    decisive[0] = decisive[1] = decisive[2] = decisive[3] = 0
    if t == NOTRUMP or c.rem[t] == 0:
        return 0
    opp = c.hand[side ^ 1][t] | c.hand[side ^ 3][t]
    if opp == 0:
        n = max(dd_popcount(c.hand[side][t]), dd_popcount(c.hand[side ^ 2][t]))
        if n >= need:
            return n
    m = c.rem[t]
    seat = owner_at(c, t, 0)
    if (seat & 1) == side:
        while m and (c.hand[seat][t] >> dd_hibit(m)) & 1:
            low = dd_hibit(m)
            k += 1
            m ^= (<uint32_t>1) << low
    if k >= need:
        decisive[t] = <uint16_t>((<uint32_t>1) << low)
        return k
    j = split_top_trumps(c, side, &split_low) if k < 2 else 0
    if j >= need:
        decisive[t] = <uint16_t>((<uint32_t>1) << split_low)
        return j
    if opp:
        # The run of top trumps is among these, so this count is never below k.
        above = dd_hibit(opp)
        n = max(dd_popcount(c.hand[side][t] >> (above + 1)),
                dd_popcount(c.hand[side ^ 2][t] >> (above + 1)))
        if n >= need:
            decisive[t] = <uint16_t>((<uint32_t>1) << above)
            return n
    return max(n, j)


cdef inline int split_top_trumps(Ctx *c, int side, int *low) noexcept nogil:
    """Trump tricks ``side`` is sure of from the top trumps when no hand of it holds a run
    of two (DDS's later tricks, as a bound for any target).

    2 if it holds the top two trumps in different hands, one of them with another trump:
    each wins the trick it is played to, and they need never fall on the same trick (the
    longer hand plays low, or ruffs with the top one).  1, when the other side is on lead,
    if it holds the second trump with another one and the top trump sits before it (the
    second trump's right-hand opponent), or its second and third trumps with the second
    guarded: until this side wins a trick the other side leads every trick, so the top
    trump is played before the second trump's hand, which can wait.  (Not for the side
    on lead: the hand with the second trump may have to lead from it, and the count is
    then wrong; a test keeps such a position.)  ``low`` gets the lowest top trump relied
    on."""
    cdef int t = c.trump, top, sec, third, qt, qs, q3
    cdef uint32_t m = c.rem[t]
    if dd_popcount(m) < 2:
        return 0
    top = dd_hibit(m)
    m ^= (<uint32_t>1) << top
    sec = dd_hibit(m)
    qt = owner_at(c, t, 0)
    qs = owner_at(c, t, 1)
    if (qs & 1) != side:
        return 0
    low[0] = sec
    if (qt & 1) == side:
        # In different hands (sure_trump_tricks counts a run of two in one hand itself).
        if qt != qs and (dd_popcount(c.hand[qt][t]) > 1 or dd_popcount(c.hand[qs][t]) > 1):
            return 2
        return 0
    if dd_popcount(c.hand[qs][t]) < 2 or (c.leader & 1) == side:
        return 0
    if qt == ((qs + 3) & 3):
        return 1
    m ^= (<uint32_t>1) << sec
    if m == 0:
        return 0
    third = dd_hibit(m)
    q3 = owner_at(c, t, 2)
    if (q3 & 1) == side:
        low[0] = third
        return 1
    return 0


cdef inline bint must_lose_trick(Ctx *c, uint16_t *decisive) noexcept nogil:
    """True if the side on lead cannot win the coming trick: in every suit the leader
    holds, an opponent has the top card and partner cannot ruff.  Sets ``decisive``."""
    cdef int seat = c.leader, pard = c.leader ^ 2, s, t = c.trump, top
    for s in range(4):
        if c.hand[seat][s] == 0:
            continue
        top = dd_hibit(c.rem[s])
        if ((c.hand[seat][s] | c.hand[pard][s]) >> top) & 1:
            return False
        if t != NOTRUMP and s != t and c.hand[pard][s] == 0 and c.hand[pard][t] != 0:
            return False
    decisive[0] = decisive[1] = decisive[2] = decisive[3] = 0
    for s in range(4):
        if c.hand[seat][s]:
            decisive[s] = <uint16_t>((<uint32_t>1) << dd_hibit(c.rem[s]))
    return True


cdef inline bint defence_sure_trick_nt(Ctx *c, uint16_t *decisive) noexcept nogil:
    """No-trump, at the start of a trick: is the side not on lead sure of a trick?

    To win every trick the side on lead must lead every trick.  A trick led in a suit
    whose top card the defence holds is lost, unless that card was thrown away first; a
    trick led in another suit uses up a card of it from each of the leading side's hands
    that has one, so they can lead it at most max(len, len) times.  If the leads of the
    suits the defence cannot head fall short of the tricks left, the defence wins one
    (DDS's later tricks: the defender keeps its top cards while other cards are led).
    Sets ``decisive`` to the defence's top cards relied on (none in a suit only its holder
    holds: the lengths are in the table key)."""
    cdef int l1 = c.leader, l2 = c.leader ^ 2, s, m, n, total = 0, excluded = 0, top, q
    cdef uint16_t rel[4]
    rel[0] = rel[1] = rel[2] = rel[3] = 0
    for s in range(4):
        if c.rem[s] == 0:
            continue
        top = dd_hibit(c.rem[s])
        if ((c.hand[l1][s] | c.hand[l2][s]) >> top) & 1:
            m = dd_popcount(c.hand[l1][s])
            n = dd_popcount(c.hand[l2][s])
            total += m if m > n else n
        else:
            excluded += 1
            q = owner_at(c, s, 0)
            if c.rem[s] != c.hand[q][s]:
                rel[s] = <uint16_t>((<uint32_t>1) << top)
    if excluded == 0 or total >= c.tricks_left:
        return False
    decisive[0] = rel[0]
    decisive[1] = rel[1]
    decisive[2] = rel[2]
    decisive[3] = rel[3]
    return True


cdef int defence_cashes_nt(Ctx *c, uint16_t *decisive, int need) noexcept nogil:
    """No-trump (nobody can ruff), at the start of a trick: tricks the side not on lead is
    sure of when an opponent holds the top card of every suit the leader holds.  Whatever
    the leader leads, the opponent with that suit's top card wins the trick -- a round of
    that suit as if it had led it -- and goes on cashing (cash_tricks).  The leader picks
    the suit, so the count is the least over the opponents it can put on lead; 0 when the
    leader's side holds the top card of a suit the leader holds.  Counts up to ``need``.
    Sets ``decisive`` to the ranks relied on: the top cards of the leader's suits (none
    in a suit only its holder holds: the lengths are in the table key) and the cashes'."""
    cdef int seat = c.leader, s, q, k, n, puts = 0
    cdef uint16_t rel[4]
    for s in range(4):
        rel[s] = 0
        if c.hand[seat][s]:
            q = (owner_at(c, s, 0) - seat) & 3
            if (q & 1) == 0:
                return 0
            puts |= 1 << q
            rel[s] = <uint16_t>((<uint32_t>1) << dd_hibit(c.rem[s]))
    k = need
    for q in range(1, 4, 2):
        if (puts >> q) & 1:
            n = cash_tricks(c, (seat + q) & 3, rel, k, -1)
            if n < k:
                k = n
    decisive[0] = rel[0]
    decisive[1] = rel[1]
    decisive[2] = rel[2]
    decisive[3] = rel[3]
    return k


cdef int trick_sure_side(Ctx *c, int pos, uint16_t *decisive) noexcept nogil:
    """Inside a trick (pos >= 1): the side (0 = NS, 1 = EW) sure to win it whatever the
    players still to play do, or -1 if that is not settled.  Adds to ``decisive`` the rank
    relied on (the winning card's; suit lengths are in the table key)."""
    cdef int ls = current_trick(c).suit[0], wp = current_trick(c).winpos[pos], t = c.trump
    cdef int ws = current_trick(c).suit[wp], top = current_trick(c).rank[wp], side = (c.leader + wp) & 1
    cdef int q, seat, r, best, sides, rside = 0, other = 0
    cdef uint32_t h
    # Another card of the winning suit already on the trick?
    for q in range(pos):
        if q != wp and current_trick(c).suit[q] == ws:
            other = 1
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
                    decisive[t] |= <uint16_t>(1 << best)
                return rside
        for q in range(pos, 4):
            if c.hand[(c.leader + q) & 3][ls]:
                other = 1
        if other:
            decisive[ls] |= <uint16_t>(1 << top)
        return side
    # The trick has been ruffed: only hands void in the led suit can overruff.
    for q in range(pos, 4):
        seat = (c.leader + q) & 3
        if c.hand[seat][ls] == 0 and c.hand[seat][t] != 0:
            r = dd_hibit(c.hand[seat][t])
            other = 1
            if r > top:
                top = r
                side = seat & 1
    if other:
        decisive[t] |= <uint16_t>(1 << top)
    return side


cdef int nt_second_hand_extra(Ctx *c, uint16_t *decisive) noexcept nogil:
    """No-trump, second card of a trick, when the second hand's side is sure to win it
    by rank: sure tricks that side takes next.  The hand holding the side's highest
    card of the led suit wins the trick and leads: it cashes the top card of every
    other suit it holds, all of a suit nobody else holds, and the next round of the
    led suit if its second card there outranks every other hand's cards.  Adds to
    ``decisive`` the ranks relied on."""
    cdef int ls = current_trick(c).suit[0], a = (c.leader + 1) & 3, b = (c.leader + 3) & 3
    cdef int hh, s, n = 0, r
    cdef uint32_t h, others
    hh = a if c.hand[a][ls] > c.hand[b][ls] else b
    h = c.hand[hh][ls] ^ ((<uint32_t>1) << dd_hibit(c.hand[hh][ls]))
    if h:
        # The other hands' cards of the led suit: still in play, not hh's, not the led
        # card (it goes with this trick).
        r = dd_hibit(h)
        others = c.rem[ls] & ~c.hand[hh][ls] & ~((<uint32_t>1) << current_trick(c).rank[0])
        if others == 0 or r > dd_hibit(others):
            n += 1
            decisive[ls] |= <uint16_t>(1 << r)
    for s in range(4):
        if s == ls or c.hand[hh][s] == 0:
            continue
        others = c.rem[s] & ~c.hand[hh][s]   # only the led card is on the table
        if others == 0:
            n += dd_popcount(c.hand[hh][s])
        elif dd_hibit(c.hand[hh][s]) > dd_hibit(others):
            n += 1
            decisive[s] |= <uint16_t>(1 << dd_hibit(c.hand[hh][s]))
    return n


# Included by _core.pyx.  The search: making and unmaking a card and a trick, the
# forced last trick, and search() itself, a boolean alpha-beta on a target: search_lead
# at a trick's start and one function per following hand (search_second, _third,
# _fourth, one inlined body), each by numbered steps, sharing the move loop try_moves.

cdef inline void play_card(Ctx *c, int seat, int s, int r) noexcept nogil:
    """Put (s, r) from ``seat`` on the trick; c.pos is not advanced here."""
    cdef int pos = c.pos, w, ws
    cdef bint beats
    c.hand[seat][s] ^= <uint16_t>(1 << r)
    c.lenkey -= (<uint64_t>1) << (4 * (4 * seat + s))
    current_trick(c).suit[pos] = <uint8_t>s
    current_trick(c).rank[pos] = <uint8_t>r
    if pos == LEAD:
        current_trick(c).winpos[1] = 0
    else:
        w = current_trick(c).winpos[pos]
        ws = current_trick(c).suit[w]
        # (& and |, not and/or: no branch to mispredict.)
        beats = ((s == ws) & (r > current_trick(c).rank[w])) | ((s == c.trump) & (ws != c.trump))
        current_trick(c).winpos[pos + 1] = <uint8_t>(pos if beats else w)


cdef inline void unplay_card(Ctx *c, int seat, int s, int r) noexcept nogil:
    """Take (s, r) back into ``seat``'s hand."""
    c.hand[seat][s] ^= <uint16_t>(1 << r)
    c.lenkey += (<uint64_t>1) << (4 * (4 * seat + s))


cdef inline int finish_trick(Ctx *c, uint16_t *trick_decisive) noexcept nogil:
    """Close a full trick: remove its cards, set the next leader.  Returns the winner's seat.

    ``trick_decisive`` gets the winning card's rank if it beat another card of its
    suit (then its rank mattered); a lone card of its suit wins whatever its rank.
    """
    cdef int k, wp = current_trick(c).winpos[4]
    cdef int ws = current_trick(c).suit[wp]
    cdef int winner = (c.leader + wp) & 3
    cdef Trick *t = current_trick(c)
    cdef int s, i, other = 0
    cdef uint32_t x
    trick_decisive[0] = trick_decisive[1] = trick_decisive[2] = trick_decisive[3] = 0
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
        other |= (k != wp) & (s == ws)
    # Another card of the winning suit in the trick: the winner's rank mattered.
    trick_decisive[ws] = <uint16_t>(other << t.rank[wp])
    c.leader = winner
    c.pos = 0
    c.tricks_left -= 1
    return winner


cdef inline void unfinish_trick(Ctx *c, int leader) noexcept nogil:
    cdef int k
    c.tricks_left += 1
    cdef Trick *t = current_trick(c)
    for k in range(4):
        c.rem[t.suit[k]] ^= <uint16_t>(1 << t.rank[k])
        c.seq[k] = t.prevseq[k]
    c.leader = leader
    c.pos = 3


cdef int last_trick(Ctx *c, uint16_t *decisive) noexcept nogil:
    """One card in each hand: the play is forced.  North-South's tricks (0 or 1)."""
    cdef int q, seat, s, r, wp = 0
    cdef int ws = -1, win_rank = 0
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
    win_rank = ranks[0]
    for q in range(1, 4):
        if (suits[q] == ws and ranks[q] > win_rank) or (suits[q] == c.trump and ws != c.trump):
            ws = suits[q]
            win_rank = ranks[q]
            wp = q
    for q in range(4):
        if q != wp and suits[q] == ws:
            decisive[ws] = <uint16_t>(1 << win_rank)
    return 1 if (((c.leader + wp) & 3) & 1) == 0 else 0


cdef enum:
    ETC_MIN_TRICKS = 11      # probe_leads at trick starts with at least this many tricks left
    ETC_SCORES_MIN_TRICKS = 14   # ... when scoring every card (Core.card_scores)
    ETC_BONUS = 1000         # weight added to a lead whose likely trick reaches a deciding entry


cdef void probe_leads(Ctx *c, Frame *f, int seat, int target) noexcept nogil:
    """Near the root, look one trick ahead from the table: play each lead with every
    follower's first-ordered card, and probe the transposition table at the next trick's
    start.  A lead whose trick reaches an entry that settles the target for the leader's
    side goes first (an enhanced transposition cut-off, as an ordering hint only)."""
    cdef int i, pos, seat_q, winner, won, v, need, leader = c.leader, ply = c.ply
    cdef int suits[4]
    cdef int ranks[4]
    cdef uint16_t dec[4]
    cdef uint16_t trick_decisive[4]
    cdef uint8_t best
    cdef bint ns_lead = (seat & 1) == 0, cut
    cdef Frame *g
    cdef Move *m
    for i in range(f.nmoves):
        suits[0] = f.moves[i].suit
        ranks[0] = f.moves[i].rank
        play_card(c, seat, suits[0], ranks[0])
        for pos in range(1, 4):
            c.pos = pos
            seat_q = (leader + pos) & 3
            g = &c.frames[ply + pos]
            collect_moves(c, g, seat_q, pos)
            weigh_moves(c, g, seat_q, pos)
            m = next_move(g, 0)
            suits[pos] = m.suit
            ranks[pos] = m.rank
            play_card(c, seat_q, suits[pos], ranks[pos])
        winner = finish_trick(c, trick_decisive)
        won = 1 if (winner & 1) == 0 else 0
        need = target - won
        if need <= 0:
            cut = ns_lead
        elif need > c.tricks_left:
            cut = not ns_lead
        else:
            v = tt_probe(c, c.lenkey, c.leader | (c.trump << 2), c.seq, need, dec, &best)
            cut = v >= 0 and ((v >= need) == ns_lead)
        unfinish_trick(c, leader)
        for pos in range(3, 0, -1):
            unplay_card(c, (leader + pos) & 3, suits[pos], ranks[pos])
        unplay_card(c, seat, suits[0], ranks[0])
        c.pos = LEAD
        if cut:
            f.moves[i].weight += ETC_BONUS


cdef int search(Ctx *c, int target) noexcept nogil:
    """Can North-South take at least ``target`` of the tricks from here (the current
    trick included)?  Fail-soft: the value v returned is a bound on North-South's
    tricks from here -- a lower bound if v >= target (yes), an upper bound if
    v < target (no) -- often tighter than the target alone, which the table keeps and
    the MTD driver uses.  Leaves in c.frames[c.ply].decisive the ranks it depended on.

    Two functions do the work: search_lead at a trick's start (cut-offs, the table)
    and search_follow inside a trick (the 2nd, 3rd and 4th cards), so that the many
    nodes inside a trick do not carry the trick start's locals and checks."""
    if c.pos == LEAD:
        return search_lead(c, target)
    if c.pos == SECOND_HAND:
        return search_second(c, target)
    if c.pos == THIRD_HAND:
        return search_third(c, target)
    return search_fourth(c, target)


cdef inline void count_node(Ctx *c) noexcept nogil:
    """Step 1 of both searches, after the arithmetic: count the node; now and then, see
    whether a stop was asked for (a Ctrl-C), and if so unwind the whole search."""
    c.nodes += 1
    if (c.nodes & STOP_CHECK_MASK) == 0 and dd_stop_wanted():
        dd_stop_unwind()


cdef int search_lead(Ctx *c, int target) noexcept nogil:
    """search() at a trick's start: arithmetic, the last trick, top trumps, quick and
    later tricks, the transposition table, then the leads (try_moves); the bound is
    stored."""
    cdef int ply = c.ply
    cdef Frame *f = &c.frames[ply]
    cdef uint16_t *decisive = f.decisive
    cdef int seat, i, lead_trump, hit, v, value
    cdef bint nt
    cdef uint8_t ttbest = 255, best = 255
    cdef uint64_t lenkey
    cdef uint32_t *seq
    decisive[0] = decisive[1] = decisive[2] = decisive[3] = 0

    # Step 1. Settled by arithmetic: nothing more needed, or more than is left.
    if target <= 0:
        return 0
    if target > c.tricks_left:
        return c.tricks_left
    count_node(c)
    c.trick_nodes[c.tricks_left] += 1

    # Step 2. The last trick is forced.
    if c.tricks_left == 1:
        return last_trick(c, decisive)
    # The table's header slot is a cache miss: start loading it now, while the
    # cut-offs below are computed.
    lenkey = c.lenkey
    lead_trump = c.leader | (c.trump << 2)
    dd_prefetch(&c.headers[slot_of(c, lenkey, lead_trump)])
    # Step 3. Top trumps that win in the end, whoever is on lead (while trumps
    # are left): the cheapest count, and first, so that the quick tricks are not
    # counted for a position it settles (and its ranks, fewer, are the ones
    # relied on).
    nt = plays_as_notrump(c)
    if not nt:
        v = c.tricks_left - sure_trump_tricks(c, 1, decisive, c.tricks_left - target + 1)
        if v < target:
            return v
        v = sure_trump_tricks(c, 0, decisive, target)
        if v >= target:
            return v
    # Step 3a. Quick tricks: the side on lead cashes sure winners.  The count
    # stops at what is needed, and the ranks relied on support no more than
    # that: the bound returned is the target's.
    i = quick_tricks(c, decisive, target if (c.leader & 1) == 0 else c.tricks_left - target + 1)
    if (c.leader & 1) == 0:
        if i >= target:
            return target
    elif c.tricks_left - i < target:
        return target - 1
    # Step 3b. Later tricks: a trick the side on lead must lose now; the defence's
    # cashes once it has the lead (no-trump).
    if target == c.tricks_left if (c.leader & 1) == 0 else target == 1:
        # The side on lead needs every trick.
        if i == 0 and must_lose_trick(c, decisive):
            return 1 if (c.leader & 1) == 1 else c.tricks_left - 1
        if nt and defence_sure_trick_nt(c, decisive):
            return 1 if (c.leader & 1) == 1 else c.tricks_left - 1
    if nt:
        if (c.leader & 1) == 0:
            v = defence_cashes_nt(c, decisive, c.tricks_left - target + 1)
            if c.tricks_left - v < target:
                return c.tricks_left - v
        elif defence_cashes_nt(c, decisive, target) >= target:
            return target
    decisive[0] = decisive[1] = decisive[2] = decisive[3] = 0
    # Step 4. Transposition table.
    seq = c.seq
    hit = tt_probe(c, lenkey, lead_trump, seq, target, decisive, &ttbest)
    if hit >= 0:
        return hit
    f.tt_suit = ttbest >> 4
    f.tt_place = ttbest if ttbest == 255 else (ttbest & 15)

    # Step 5. Generate and order the leads.
    seat = c.leader
    if c.tricks_left >= c.etc_min_tricks:
        # The look-ahead's bonuses may make another lead the heaviest: the moves are
        # weighed as generated, and the heaviest put first after it.
        collect_moves(c, f, seat, LEAD)
        weigh_lead(c, f, seat, False)
        if f.nmoves > 1:
            probe_leads(c, f, seat, target)
        next_move(f, 0)
    else:
        gen_moves(c, f, seat, LEAD)

    # Step 6. Try them.
    value = try_moves(c, f, target, LEAD, seat, &best)

    # Step 7. Remember the bound.
    if value >= target:
        tt_store(c, lenkey, lead_trump, seq, decisive, value, c.tricks_left, best)
    else:
        tt_store(c, lenkey, lead_trump, seq, decisive, 0, value, best)
    return value


cdef int search_second(Ctx *c, int target) noexcept nogil:
    return search_follow(c, target, SECOND_HAND)


cdef int search_third(Ctx *c, int target) noexcept nogil:
    return search_follow(c, target, THIRD_HAND)


cdef int search_fourth(Ctx *c, int target) noexcept nogil:
    return search_follow(c, target, FOURTH_HAND)


cdef inline int search_follow(Ctx *c, int target, int pos) noexcept nogil:
    """search() inside a trick: arithmetic, a side sure to win the trick, then the
    2nd, 3rd or 4th hand's cards (try_moves).  Inlined into one function per hand."""
    cdef Frame *f = &c.frames[c.ply]
    cdef uint16_t *decisive = f.decisive
    cdef int seat, i, sure
    cdef uint8_t best
    decisive[0] = decisive[1] = decisive[2] = decisive[3] = 0

    # Step 1. Settled by arithmetic: nothing more needed, or more than is left.
    if target <= 0:
        return 0
    if target > c.tricks_left:
        return c.tricks_left
    count_node(c)

    if target == 1 or target == c.tricks_left or (pos == SECOND_HAND and plays_as_notrump(c)):
        # Step 2. A side sure to win this trick (and, at the second card in
        # no-trump, the tricks it cashes next) has all it needs, or denies the
        # other side all it needs.
        i = trick_sure_side(c, pos, decisive)
        if i >= 0:
            sure = 1
            if pos == SECOND_HAND and plays_as_notrump(c) and i == ((c.leader + 1) & 1):
                sure += nt_second_hand_extra(c, decisive)
            if i == 0 and target <= sure:
                return sure
            if i == 1 and c.tricks_left - sure < target:
                return c.tricks_left - sure
        decisive[0] = decisive[1] = decisive[2] = decisive[3] = 0

    # Step 3. Generate and order this hand's cards, and try them.
    seat = (c.leader + pos) & 3
    gen_moves(c, f, seat, pos)
    return try_moves(c, f, target, pos, seat, &best)


cdef inline int try_moves(Ctx *c, Frame *f, int target, int pos, int seat, uint8_t *best) noexcept nogil:
    """Try the moves of f best first: MAX needs one success, MIN one failure.  Returns the
    node's value (MAX keeps the best value of its moves, MIN the worst), leaves in
    f.decisive the ranks it relied on and in ``best`` the move that decided (255: none)."""
    cdef int ply = c.ply
    cdef uint16_t *decisive = f.decisive
    cdef uint16_t *child_decisive = c.frames[ply + 1].decisive
    cdef uint16_t trick_decisive[4]
    cdef uint16_t move_decisive[4]
    cdef int i, s, r, old_leader, winner, won, v, low, grows
    cdef int lowest_win[4]
    cdef bint maxnode = (seat & 1) == 0
    cdef int value = -1 if maxnode else 99
    cdef Move *m
    # The fourth hand's cards of the led suit come in order (add_groups_fourth).
    cdef bint in_order = fourth_follows(c, pos, f)
    best[0] = 255
    lowest_win[0] = lowest_win[1] = lowest_win[2] = lowest_win[3] = 0
    for i in range(f.nmoves):
        # The first move is put first by weigh_lead or weigh_follow.
        m = &f.moves[i] if (in_order or i == 0) else next_move(f, i)
        s = m.suit
        r = m.rank
        # DDS's lowest win: a card of this suit was tried below every rank relied on
        # at that point, the lowest of which is kept here.  Any card below it leads
        # to a position that differs from that card's only below the ranks its result
        # relied on: the same result.  Kept, not recomputed: ranks relied on later
        # are lower but change nothing about that card's result.
        if r < lowest_win[s]:
            continue
        play_card(c, seat, s, r)
        c.ply = ply + 1
        if pos < FOURTH_HAND:
            c.pos = pos + 1
            if pos == LEAD:
                v = search_second(c, target)
            elif pos == SECOND_HAND:
                v = search_third(c, target)
            else:
                v = search_fourth(c, target)
            c.pos = pos
            trick_decisive[0] = trick_decisive[1] = trick_decisive[2] = trick_decisive[3] = 0
        else:
            old_leader = c.leader
            winner = finish_trick(c, trick_decisive)
            won = 1 if (winner & 1) == 0 else 0
            v = search_lead(c, target - won) + won
            unfinish_trick(c, old_leader)
        c.ply = ply
        unplay_card(c, seat, s, r)
        # The ranks this move's result relied on: the subtree's and this trick's.
        move_decisive[0] = child_decisive[0] | trick_decisive[0]
        move_decisive[1] = child_decisive[1] | trick_decisive[1]
        move_decisive[2] = child_decisive[2] | trick_decisive[2]
        move_decisive[3] = child_decisive[3] | trick_decisive[3]
        # The move stood for its whole group of touching cards.  If its own rank
        # mattered, so does the rank of every card of the group: elsewhere those
        # cards need not touch.
        # (Computed without a branch, as below: | 0x10000 makes an empty mask's lowest
        # rank 16, above every card.)
        grows = (((v >= target) != maxnode) & ((m.group & (m.group - 1)) != 0)
                 & (r >= dd_lobit(move_decisive[s] | 0x10000)))
        move_decisive[s] |= <uint16_t>((m.group & -m.group) & -grows)
        if maxnode:
            value = v if v > value else value
        else:
            value = v if v < value else value
        if (v >= target) == maxnode:
            # Cut-off: this move alone decides the node.
            f.killer_suit = <uint8_t>s
            f.killer_rank = <uint8_t>r
            if pos == LEAD:
                c.cutoff[f.cut_slot] = <uint16_t>((s << 4) | r)
                best[0] = <uint8_t>((s << 4) | dd_popcount(c.rem[s] >> (r + 1)))
            decisive[0] = move_decisive[0]
            decisive[1] = move_decisive[1]
            decisive[2] = move_decisive[2]
            decisive[3] = move_decisive[3]
            return value
        decisive[0] |= move_decisive[0]
        decisive[1] |= move_decisive[1]
        decisive[2] |= move_decisive[2]
        decisive[3] |= move_decisive[3]
        low = dd_lobit(move_decisive[s] | 0x10000)
        lowest_win[s] = low if (r < low) & (low > lowest_win[s]) else lowest_win[s]
    return value

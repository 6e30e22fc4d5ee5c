# Included by _core.pyx.  Move generation and ordering: equivalent touching cards are
# one move (add_groups); moves are weighed by stage of the trick -- the lead
# (weigh_lead), second, third and fourth hand (weigh_follow) -- with bonuses for the
# table's best move, the last cut-off at the ply and the cut-off cache's lead for this
# hand (lead_hints), and taken best first (next_move); a fourth hand following suit
# has its moves made in order (add_groups_fourth).  Where the outcome of a test is what
# the branch predictor cannot guess (which card is heavier, which hand holds a card),
# tests combine with & and | and values are chosen by masks, without a branch.
cdef enum:
    CUTOFF_BONUS = 38        # weight added to the cut-off cache's lead (tuned on node counts with the lead weights)


cdef inline void add_groups(Ctx *c, Frame *f, int seat, int s) noexcept nogil:
    """One move per run of touching cards of ``seat`` in suit ``s``.

    Cards touch when no card still in play (a held card or one in the current
    trick) of another hand lies between them: a group is the hand's cards between
    two consecutive cards of the other hands, so the loop runs once per group.
    """
    cdef uint32_t h = c.hand[seat][s]
    cdef uint32_t others = c.rem[s] & ~h
    cdef uint32_t g, below
    cdef int top
    cdef int n = f.nmoves
    while h:
        top = dd_hibit(h)
        # The group ends at the highest card of the other hands below its top.
        below = others & ((<uint32_t>1 << top) - 1)
        # (below | 1: with no such card the group is all of h, which has no bit 0.)
        g = h & ~((<uint32_t>2 << dd_hibit(below | 1)) - 1)
        h ^= g
        f.moves[n].suit = <uint8_t>s
        f.moves[n].rank = <uint8_t>top
        f.moves[n].group = <uint16_t>g
        f.moves[n].weight = 0
        n += 1
    f.nmoves = n


cdef inline bint later_opponent_beats(Ctx *c, int pos, int s, int r) noexcept nogil:
    """Could an opponent still to play to this trick beat the card (s, r)?"""
    cdef int q, seat, ls = current_trick(c).suit[0] if pos > 0 else s
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


cdef inline int owner_at(Ctx *c, int s, int k) noexcept nogil:
    """At a trick's start: the seat holding the k-th highest card still in play of suit
    ``s`` (k = 0 the top), read from the owner sequence the table keys on (c.seq; the suit
    must have more than k cards)."""
    return (c.seq[s] >> (24 - 2 * k)) & 3


cdef void weigh_lead(Ctx *c, Frame *f, int seat, bint first) noexcept nogil:
    """Ordering scores for the opening card of a trick.

    Two parts.  A suit term estimates how large the proof below the lead will be:
    every card an opponent may choose from is another branch, and a void opponent
    may play any card at all, so suits where the opponents hold few cards come
    first.  A card term ranks the leads of the suit: leads that win the trick
    (our top card, partner's winner, partner's ruff) before the rest; among them
    the ones that keep the lead's side in control of the next round.  The tiers
    follow the ideas of DDS's lead ordering; the weights were tuned on node counts
    of reference deals.

    To that the hints' bonuses are added (lead_hints); with ``first``, the heaviest lead
    is put first, as next_move would put it (the first of equal weights), so that the
    search takes it without a selection pass.
    """
    cdef int i, s, r, rr, t = c.trump, tl = c.tricks_left, w, sw = 0, last_s = -1
    cdef int hint[6]
    cdef int best = 0, best_weight = -1000000, gt
    cdef Move tmp
    cdef int pard = seat ^ 2, lho = (seat + 1) & 3, rho = (seat + 3) & 3
    cdef int nl = 0, nr = 0, npd = 0, top = 0, sec = 0, topq = -1, secq = -1, thirdq = -1
    cdef uint32_t rem, rest, g
    cdef bint trumps = t != NOTRUMP, win, lruff = False, rruff = False, pruff = False
    cdef bint short_top = False     # an opponent's singleton is the suit's top card
    cdef Move *m
    lead_hints(c, f, seat, hint)
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
            topq = owner_at(c, s, 0)
            rest = rem ^ ((<uint32_t>1) << top)
            sec = dd_hibit(rest) if rest else 0
            secq = owner_at(c, s, 1) if rest else -1
            rest &= ~((<uint32_t>1) << sec)
            thirdq = owner_at(c, s, 2) if (rest and sec) else -1
            nl = dd_popcount(c.hand[lho][s])
            nr = dd_popcount(c.hand[rho][s])
            npd = dd_popcount(c.hand[pard][s])
            # (The tests of a suit and of a move combine with & and |, not and/or: no
            # branch to mispredict.  The trumps test guards c.hand[..][t].)
            lruff = trumps and ((s != t) & (nl == 0) & (c.hand[lho][t] != 0))
            rruff = trumps and ((s != t) & (nr == 0) & (c.hand[rho][t] != 0))
            pruff = trumps and ((s != t) & (npd == 0) & (c.hand[pard][t] != 0))
            short_top = ((nl == 1) & (topq == lho)) | ((nr == 1) & (topq == rho))
            # The opponents' choices: a void counts as a free choice of anything.
            sw = -(((nl if nl else tl + 1) + (nr if nr else tl + 1)) * 128) // (13 if trumps else 19)
            if trumps:
                if lruff or rruff:
                    sw -= 12
                if pruff and nr > 0:
                    sw += 14
                if ((topq == rho) | (secq == rho)) & (nr != 1):
                    sw -= 12
                elif (topq == lho) & (secq == pard) & (npd != 1):
                    sw += 27
                if ((s != t) & (dd_popcount(c.hand[seat][s]) == 1) & (c.hand[seat][t] != 0)
                        & (npd > 1) & (topq == pard)):
                    sw += 19
            elif npd == 0:
                sw -= 9
        # The card's rank among the suit's cards still in play, from the top: 1 for the
        # top card, 2 for the next... (DDS's relative rank; the weights below add it, so
        # the lower of two otherwise equal leads goes first).
        rr = 1 + dd_popcount(c.rem[s] >> (r + 1))
        # Can this lead win the trick for the leader's side?
        # (| 1: partner without a card of the suit has no winner in it.)
        if (r == top) | (dd_hibit(c.hand[pard][s] | 1) > dd_hibit(c.hand[lho][s] | c.hand[rho][s] | 1)):
            win = not (lruff or rruff)
        elif pruff:
            win = ((not lruff or dd_hibit(c.hand[pard][t]) > dd_hibit(c.hand[lho][t]))
                   and (not rruff or dd_hibit(c.hand[pard][t]) > dd_hibit(c.hand[rho][t])))
        else:
            win = False
        w = sw
        if trumps:
            if win:
                if short_top:
                    w += 35 + rr
                elif topq == seat:
                    w += (48 + rr) if secq == pard else (46 if r == top else rr - 3)
                elif topq == pard:
                    w += (42 + rr) if secq == seat else (43 + rr)
                elif ((g & (g - 1)) != 0) & (r == sec):
                    w += 33
                elif g & (g - 1):
                    w += 22 + rr
                else:
                    w += 11 + rr
            else:
                if (secq == pard) & (thirdq == pard):
                    w += 20
                elif (((secq == seat) & (thirdq == pard)) | ((secq == pard) & (thirdq == seat))) & (npd > 1):
                    w += 13
                if short_top:
                    w += rr - 1
                elif topq == seat:
                    w += (41 + rr) if secq == pard else (38 if r == top else rr - 14)
                elif topq == pard:
                    w += 34 + rr
                elif ((g & (g - 1)) != 0) & (r == sec):
                    w += 35
                else:
                    w += 17 - r
        else:
            if win:
                if secq == rho:
                    if nr != 1:
                        w -= 1
                elif secq == lho:
                    w += 22 if nl != 1 else 19
                if ((secq != lho) | (nl == 1)) & ((secq != rho) | (nr == 1)):
                    w += 45 + rr
                else:
                    w += 18 + rr
            else:
                if (topq == rho) | (secq == rho):
                    if nr != 1:
                        w -= 10
                elif (topq == lho) & (secq == pard) & (npd != 1):
                    w += 31
                if (secq == pard) & (thirdq == pard):
                    w += 35
                elif (((secq == seat) & (thirdq == pard)) | ((secq == pard) & (thirdq == seat))) & (npd > 1):
                    w += 25
                if short_top:
                    w += 28 + rr
                elif topq == seat:
                    w += rr - 17
                elif not (g & (g - 1)):
                    w += 12 + rr
                elif r == sec:
                    w += 48
                else:
                    w += 29 - rr
        w += (15 * ((s == hint[0]) & (g >> hint[1]) & 1) + 40 * ((s == hint[2]) & (g >> hint[3]) & 1)
              + CUTOFF_BONUS * ((s == hint[4]) & (g >> hint[5]) & 1))
        m.weight = w
        # The heaviest so far, by masks (which is heavier is what a branch would guess).
        gt = w > best_weight
        best ^= (best ^ i) & -gt
        best_weight ^= (best_weight ^ w) & -gt
    if first and best:
        tmp = f.moves[0]
        f.moves[0] = f.moves[best]
        f.moves[best] = tmp


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
    """Must ``opp`` spend its top card of ``s`` to beat rank ``r``?  Yes when its cards
    of ``s`` above ``r`` are at most one card, or touching cards among those still out
    (AK over the Q: either is the same card, as DDS reckons too).

    Touching cards count because whichever of them opp beats ``r`` with, it gives up the
    same card as its top one: the card forces as surely as against a lone honour, and is
    ordered as a forcing card.  Example: largest.txt board 9, no-trump, West leads the
    H4; East's HQ, with South holding AKJ982 to come, draws South's ace or king (the same
    card), and is tried before the H5, whose proof is far larger.
    Measured: see bench/README.md, 'Ideas measured, kept and dropped'."""
    cdef uint32_t above = c.hand[opp][s] & ~((<uint32_t>2 << r) - 1), span
    if (above & (above - 1)) == 0:
        return True
    # Every card still out from above's lowest to its highest is opp's.
    span = ((<uint32_t>2 << dd_hibit(above)) - 1) & ~((<uint32_t>1 << dd_lobit(above)) - 1)
    return (c.rem[s] & span) == above


cdef inline bint cover_pays(Ctx *c, int seat, int ls, Move *m, uint32_t o3, uint32_t p4) noexcept nogil:
    """Second hand's cover that forces third hand's top card (``forces``): is it worth
    trying before low cards?  In a suit contract, always.  In no-trump, when the cover is
    part of a sequence (what is left of it ranks higher once the top card is gone), or when
    it promotes: third hand (cards ``o3``) takes it with its top card, fourth hand (``p4``)
    plays low, and the best card left in the suit is then on second hand's side.

    Else (a lone honour covering for nothing) low cards go first: the cover only spends
    the honour, and the low card keeps it for a later round.  Example: largest.txt board
    16 (no-trump, "can North-South take 7?"): after North's H9, East's K from KT853 over
    South's AJ742 is such a cover, and the H3 settles the question with a much smaller
    proof.  In all strains, or without the sequence exception, the rule orders worse
    (measured: see bench/README.md, 'Ideas measured, kept and dropped')."""
    cdef uint32_t ours, theirs
    if c.trump != NOTRUMP or (m.group & (m.group - 1)):
        return True
    ours = (c.hand[seat][ls] & ~((<uint32_t>1) << m.rank)) | (p4 & (p4 - 1))
    theirs = c.hand[c.leader][ls] | (o3 & ~((<uint32_t>1) << dd_hibit(o3)))
    return ours != 0 and dd_hibit(ours) > dd_hibit(theirs | 1)


cdef inline int unblock_card(Ctx *c, int seat, int ls, int win_rank, uint32_t o4) noexcept nogil:
    """Third hand in no-trump, partner's card sure to win the trick and partner's last of
    the suit: the cheapest card that overtakes it, if third hand can then run the suit (its
    cards above both opponents' at least as many as either opponent has left: ``o4`` is
    fourth hand's holding); else 0.  DDS tries the same overtake first.

    Why: left under partner's winner, third hand's long suit is blocked -- partner, out of
    the suit, must lead another one next, and third hand's winners wait for an entry.
    Overtaking puts the lead where the winners are.  Example: West leads the HK, its last
    heart; East holds AQJT, North 98 and South 765 are left: the HA overtakes and East's
    QJT then take every round.  Measured: see bench/README.md, 'Ideas measured, kept and
    dropped'."""
    cdef uint32_t h = c.hand[seat][ls], o2 = c.hand[(c.leader + 1) & 3][ls]
    cdef uint32_t above = h & ~((<uint32_t>2 << win_rank) - 1), rest
    cdef int card, opp_len
    if not above:
        return 0
    card = dd_lobit(above)
    rest = h & ~((<uint32_t>1) << card)
    # Rounds until both opponents are out: fourth hand plays one card to this trick.
    opp_len = max(dd_popcount(o4) - 1, dd_popcount(o2))
    if rest and dd_popcount(rest & ~((<uint32_t>2 << dd_hibit(o2 | o4 | 1)) - 1)) >= opp_len:
        return card
    return 0


cdef inline void weigh_follow(Ctx *c, Frame *f, int seat, int pos) noexcept nogil:
    """Ordering scores for the 2nd, 3rd and 4th cards of a trick.

    Second hand: win cheaply when third hand cannot beat the card; low (void: a
    discard rather than a ruff) when partner (fourth hand) wins anyway, or when the card
    is below third hand's lowest or partner's lowest (it makes no difference); otherwise
    cover, first with a card that forces third hand's top card (a ruff third hand can
    overruff counts so; in no-trump only a cover that pays, see cover_pays).
    Third hand: play low under partner's sure winner (but overtake partner's last card
    of the suit to run ours, see unblock_card); win as cheaply as is safe; else force
    fourth hand's top card, unless partner's card already forces it.  Fourth hand wins
    as cheaply as possible or plays lowest.  Otherwise never overtake or ruff partner's
    sure winner.  Discards lowest first, preferring long suits (see discard_value).

    The facts of the trick that do not depend on the move (who wins so far, what the
    one opponent still to play after second or third hand can beat with) are worked
    out once, before the moves are weighed.
    """
    cdef int i, s, r, low, t = c.trump, ls = current_trick(c).suit[0]
    cdef int wp = current_trick(c).winpos[pos]
    cdef int ws = current_trick(c).suit[wp], win_rank = current_trick(c).rank[wp]
    cdef bint partner_wins = (wp & 1) == (pos & 1)
    cdef bint beats, safe, partner_safe = False, partner_forces = False
    cdef int unblock = 0            # 3rd hand: the card to overtake partner's with (unblock_card)
    cdef bint is_void = c.hand[seat][ls] == 0
    cdef int dv[4]
    cdef int best = 0, best_weight = -1000000
    cdef Move *m
    cdef Move tmp
    cdef bint pd_wins = False       # 2nd hand: partner's top card will win the trick
    cdef uint32_t o3 = 0, p4 = 0, opp_ls = 0
    # The opponent still to play after the 2nd or 3rd hand (the 3rd or 4th hand):
    # its highest card of the led suit, whether it can ruff a card of the led suit,
    # and its highest trump if it is void in the led suit.
    cdef int opp = (c.leader + pos + 1) & 3, opp_top = -1, opp_ruff_top = -1
    cdef bint opp_ruffs = False
    if pos != FOURTH_HAND:
        opp_ls = c.hand[opp][ls]
        if opp_ls:
            opp_top = dd_hibit(opp_ls)
        elif t != NOTRUMP and c.hand[opp][t]:
            opp_ruffs = ls != t
            opp_ruff_top = dd_hibit(c.hand[opp][t])
    if pos == SECOND_HAND:
        # Void or not: partner's top card of the led suit will win the trick (then
        # neither a cover nor a ruff is needed).
        o3 = c.hand[(c.leader + 2) & 3][ls]
        p4 = c.hand[(c.leader + 3) & 3][ls]
        if p4 and dd_hibit(p4) > current_trick(c).rank[0] and (o3 == 0 or dd_hibit(p4) > dd_hibit(o3)):
            pd_wins = not (o3 == 0 and t != NOTRUMP and ls != t and c.hand[(c.leader + 2) & 3][t])
    elif pos == THIRD_HAND and partner_wins:
        # Does partner's card win whatever fourth hand does?
        if ws == ls:
            partner_safe = not (opp_top > win_rank or opp_ruffs)
            # Partner's card already forces fourth hand's top card: overtaking it to force
            # that card spends a card for nothing, so the overtake goes with the low cards
            # (largest.txt board 16: East's HK over West's HQ with South holding AJ742, where
            # the queen already draws the ace; DDS plays low there).
            partner_forces = not partner_safe and opp_ls != 0 and forces(c, opp, ls, win_rank)
            if partner_safe and t == NOTRUMP and c.hand[c.leader][ls] == 0:
                unblock = unblock_card(c, seat, ls, win_rank, opp_ls)
        else:
            partner_safe = not (opp_ruff_top > win_rank)
    if is_void:
        for s in range(4):
            dv[s] = discard_value(c, seat, s) if c.hand[seat][s] else 0
    for i in range(f.nmoves):
        m = &f.moves[i]
        s = m.suit
        r = m.rank
        low = dd_lobit(m.group)
        # (& and | rather than and/or here and below: no branch to mispredict.)
        beats = ((s == ws) & (r > win_rank)) | ((t != NOTRUMP) & (s == t) & (ws != t))
        # Can the opponent still to play (after 2nd or 3rd hand) beat this card?
        if s == ls:
            safe = (opp_top <= r) & (not opp_ruffs)
        elif s == t:
            safe = opp_ruff_top <= r
        else:
            safe = True
        if pos == FOURTH_HAND:
            if partner_wins or not beats:
                m.weight = 40 - low - (30 if (s == t and ls != t) else 0)
            else:
                m.weight = 100 - low
        elif pos == THIRD_HAND:
            if unblock and (m.group >> unblock) & 1:
                m.weight = 60 - low
            elif partner_safe:
                m.weight = 40 - low - (30 if (s == t and ls != t) else 0)
            elif beats:
                if safe:
                    m.weight = 100 - low
                elif partner_forces:
                    m.weight = 40 - low
                elif forces(c, opp, s, r):
                    m.weight = 70 - low
                else:
                    m.weight = 55 - low
            else:
                m.weight = 40 - low
        else:   # SECOND_HAND
            if beats:
                if pd_wins:
                    m.weight = 30 - low
                elif safe:
                    m.weight = 80 - low
                elif s == ls and ((opp_ls and dd_lobit(opp_ls) > r) or (p4 and dd_lobit(p4) > r)):
                    # Below third hand's lowest card (or partner's): covering changes
                    # nothing, so it counts as a low card (DDS has the same rule).
                    m.weight = 50 - low
                elif is_void or (forces(c, opp, ls, r) and cover_pays(c, seat, ls, m, opp_ls, p4)):
                    m.weight = 65 - low
                else:
                    m.weight = 55 - low
            else:
                m.weight = 50 - low
        if is_void and not (s == t and beats):
            m.weight += dv[s]
        best = i if m.weight > best_weight else best
        best_weight = m.weight if m.weight > best_weight else best_weight
    # The search takes the first move without looking further (try_moves): put it there.
    if best:
        tmp = f.moves[0]
        f.moves[0] = f.moves[best]
        f.moves[best] = tmp


cdef inline Move *next_move(Frame *f, int i) noexcept nogil:
    """The i-th move in order: the best of moves i.. is swapped into place i.  Most
    nodes are decided by their first move, so sorting all of them would be wasted."""
    cdef int j, b = i
    cdef Move tmp
    for j in range(i + 1, f.nmoves):
        b = j if f.moves[j].weight > f.moves[b].weight else b
    if b != i:
        tmp = f.moves[i]
        f.moves[i] = f.moves[b]
        f.moves[b] = tmp
    return &f.moves[i]


cdef inline int add_groups_up(Ctx *c, Frame *f, int s, uint32_t x, uint32_t others, int n) noexcept nogil:
    """The groups of ``x`` (whole groups of a hand's cards of suit ``s``; ``others``: the
    other cards still in play of the suit) as moves n, n+1, ..., lowest first.  Returns the
    number of moves then."""
    cdef uint32_t g, up
    cdef int low
    while x:
        low = dd_lobit(x)
        # The group ends below the lowest card of the other hands above its lowest card.
        up = others & ~((<uint32_t>2 << low) - 1)
        # (up | 0x10000: with no such card the group is all of x.)
        g = x & ((<uint32_t>1 << dd_lobit(up | 0x10000)) - 1)
        x ^= g
        f.moves[n].suit = <uint8_t>s
        f.moves[n].rank = <uint8_t>dd_hibit(g)
        f.moves[n].group = <uint16_t>g
        f.moves[n].weight = 0
        n += 1
    return n


cdef inline void add_groups_fourth(Ctx *c, Frame *f, int seat, int ls) noexcept nogil:
    """Fourth hand following suit: its groups already in the order weigh_follow's weights
    would give them, so that the search takes them as they stand (in_order in try_moves).
    Those weights are 100 - lowest card for a card that beats the trick's winner (unless
    partner is winning it) and 40 - lowest card for the others: the beating groups lowest
    first, then the others lowest first.  A card beats by rank only when the winner is of
    the led suit (not ruffed), and then the winning card, still in play, separates the
    groups above it from those below."""
    cdef Trick *t = current_trick(c)
    cdef uint32_t h = c.hand[seat][ls], others = c.rem[ls] & ~h, above = 0
    cdef int wp = t.winpos[FOURTH_HAND]
    if wp != 1 and t.suit[wp] == ls:
        above = h & ~((<uint32_t>2 << t.rank[wp]) - 1)
    f.nmoves = add_groups_up(c, f, ls, h ^ above, others, add_groups_up(c, f, ls, above, others, 0))


cdef inline bint fourth_follows(Ctx *c, int pos, Frame *f) noexcept nogil:
    """Are f's moves a fourth hand's cards of the led suit (add_groups_fourth: in order)?"""
    return pos == FOURTH_HAND and f.moves[0].suit == current_trick(c).suit[0]


cdef inline void collect_moves(Ctx *c, Frame *f, int seat, int pos) noexcept nogil:
    """Every legal move of ``seat``, one per group of equivalent cards, not yet weighed
    (but for a fourth hand following suit, whose moves come in order: add_groups_fourth)."""
    cdef int s, ls
    f.nmoves = 0
    if pos > LEAD:
        ls = current_trick(c).suit[0]
        if c.hand[seat][ls]:
            if pos == FOURTH_HAND:
                add_groups_fourth(c, f, seat, ls)
            else:
                add_groups(c, f, seat, ls)
            return
    for s in range(4):
        if c.hand[seat][s]:
            add_groups(c, f, seat, s)


cdef inline void weigh_moves(Ctx *c, Frame *f, int seat, int pos) noexcept nogil:
    """Ordering weights for the moves collect_moves found, by the stage of the trick (the
    search takes them best first with next_move).  A forced card needs no weighing."""
    if pos == LEAD:
        weigh_lead(c, f, seat, True)
    elif f.nmoves > 1 and not fourth_follows(c, pos, f):
        weigh_follow(c, f, seat, pos)


cdef inline void gen_moves(Ctx *c, Frame *f, int seat, int pos) noexcept nogil:
    """Every legal move of ``seat`` (one per group of equivalent cards), weighed for
    ordering."""
    collect_moves(c, f, seat, pos)
    weigh_moves(c, f, seat, pos)


cdef inline uint32_t cutoff_slot(Ctx *c, int seat) noexcept nogil:
    """The cut-off cache slot of a lead: a hash of the leader's seat, its whole hand and
    the trump suit (what bridge-solver keys its cut-off cache by, at the lead)."""
    cdef uint64_t h = ((<uint64_t>c.hand[seat][0]) | (<uint64_t>c.hand[seat][1] << 16)
                       | (<uint64_t>c.hand[seat][2] << 32) | (<uint64_t>c.hand[seat][3] << 48))
    h = (h ^ (<uint64_t>((seat << 2) | (c.trump << 4)) * 0x9E3779B97F4A7C15ULL)) * 0xD6E8FEB86659FD93ULL
    return <uint32_t>(h >> (64 - CUTOFF_BITS))


cdef inline void lead_hints(Ctx *c, Frame *f, int seat, int *hint) noexcept nogil:
    """Bonuses for the leads known to be good, if legal here: the transposition table's
    best move for this position (15), the lead that caused the last cut-off at this ply
    (the killer, 40), and the lead that last caused a cut-off with this same hand on lead
    (the cut-off cache's, CUTOFF_BONUS).

    Bonuses, not first places: all three were found in other positions, where they need
    not be as good as here, so they add to the lead weights rather than override them
    (overriding searched more nodes).  The cut-off cache: a lead that refuted one position
    with this hand on lead often refutes others with the same hand on lead (the other
    hands differ), which the lead weights cannot see.  Only the lead has such a cache: when
    following suit (keyed by the led suit's cards in play, the mover's, and the winning
    card) the follow ordering already puts the cut-off card first nearly always, and when
    discarding or ruffing (keyed by the whole hand and the winning card) the cached card
    misleads more often than it helps.  Measured: see bench/README.md, 'Ideas measured,
    kept and dropped'.

    ``hint`` gets the three cards as (suit, rank) pairs, in that order, for weigh_lead to
    give each move what its group holds of them: each card is one move's at most (the
    groups are disjoint), so no test need end its loop early.  A missing hint is rank 0,
    which no group holds."""
    cdef uint32_t slot = cutoff_slot(c, seat), m
    cdef int card
    f.cut_slot = slot
    card = c.cutoff[slot]
    hint[0] = hint[1] = 0
    if f.tt_place != 255:
        # The table's move is kept by its place from the top of its suit.
        m = c.rem[f.tt_suit]
        if dd_popcount(m) > f.tt_place:
            hint[0] = f.tt_suit
            hint[1] = dd_hibit(dd_kth_high(m, f.tt_place + 1))
    hint[2] = f.killer_suit
    hint[3] = f.killer_rank
    hint[4] = card >> 4
    hint[5] = card & 15


cdef inline void forget_hints(Ctx *c) noexcept nogil:
    """Empty the cut-off cache and the killer moves (lead_hints), for a new
    deal.  Another deal's hints misorder this one's moves (a lead that refuted a position
    of another deal says little about this one), and with them gone a question searches
    the same nodes whatever the solver answered before.  Measured: see bench/README.md,
    'Ideas measured, kept and dropped'."""
    cdef int i
    memset(c.cutoff, 0, sizeof(c.cutoff))
    for i in range(MAXPLY):
        c.frames[i].killer_suit = 0
        c.frames[i].killer_rank = 0

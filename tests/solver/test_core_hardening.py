"""The private core (``ddsolver._core.Core``) under hostile arguments, and a solver shared
between threads: a clear exception every time, never a crash.

The core trusts nothing it is given: a bad mask or an illegal played card used to send
the search reading past its tables.  A crash would kill pytest itself, so the hostile
calls run in a child process, which must end normally having seen only the expected
exceptions.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgames import Deal
from ddsolver import Solver
from ddsolver._core import Core

# A full deal; its 16 masks are the starting point for the hostile ones.
DEAL = Deal.from_pbn("N:AKQ2.KJ3.T94.A65 J986.Q54.AK2.J93 T7.A762.QJ853.K4 543.T98.76.QT872")
MASKS = tuple(m for hand in DEAL.hands for m in hand.masks)  # type: ignore[union-attr]
# One the search takes seconds over (a board of DDS's largest.txt).
HARD = "N:AT65.96.K63.AT32 K87.KT853..KJ965 J3.AJ742.QT754.8 Q942.Q.AJ982.Q74"

ALL_METHODS = ("solve", "reaches", "reaches_many", "play_trace", "card_scores",
               "quick_tricks", "dd_table", "dd_strain")


def call(core: Core, method: str, hands, trump=4, leader=0, played=b"") -> object:
    """Call ``method`` with the arguments it takes."""
    if method == "dd_table":
        return core.dd_table(hands)
    if method == "dd_strain":
        return core.dd_strain(hands, trump)
    if method == "quick_tricks":
        return core.quick_tricks(hands, trump, leader)
    if method == "reaches_many":
        return core.reaches_many([hands], trump, leader, [(0, played, 7)])
    return getattr(core, method)(hands, trump, leader, played)


# ---- each kind of bad argument, by name -----------------------------------------------

@pytest.fixture(scope="module")
def core() -> Core:
    return Core(4)


@pytest.mark.parametrize("method", ALL_METHODS)
def test_rejects_mask_with_bits_outside_the_52_cards(core, method):
    for bad in (1, 2, 1 << 15, 0x10000, -1, 1 << 70):
        hands = (MASKS[0] | bad,) + MASKS[1:] if bad > 0 else (bad,) + MASKS[1:]
        with pytest.raises(ValueError, match="outside ranks 2..14"):
            call(core, method, hands)


@pytest.mark.parametrize("method", ALL_METHODS)
def test_rejects_card_in_two_hands(core, method):
    hands = list(MASKS)
    hands[4] |= 1 << 14  # East gets North's ace of spades too
    with pytest.raises(ValueError, match="SA is in two hands"):
        call(core, method, tuple(hands))


@pytest.mark.parametrize("method", ALL_METHODS)
def test_rejects_unequal_hands(core, method):
    hands = list(MASKS)
    hands[0] &= ~(1 << 14)  # North loses a card
    with pytest.raises(ValueError, match="equal numbers of cards, got N 12, E 13"):
        call(core, method, tuple(hands))


@pytest.mark.parametrize("method", ALL_METHODS)
def test_rejects_wrong_number_of_masks(core, method):
    for hands in ((), MASKS[:15], MASKS + (0,)):
        with pytest.raises(ValueError, match="16 rank masks"):
            call(core, method, hands)


@pytest.mark.parametrize("method", ALL_METHODS)
def test_rejects_wrong_types(core, method):
    for hands in (None, list(MASKS), (1.5,) * 16, ("x",) * 16, (None,) * 16):
        with pytest.raises(TypeError):
            call(core, method, hands)


@pytest.mark.parametrize("method", ["solve", "reaches", "reaches_many", "play_trace",
                                    "card_scores", "quick_tricks"])
def test_rejects_bad_trump_and_leader(core, method):
    for trump, leader in ((5, 0), (-1, 0), (0, 4), (0, -1), (1 << 40, 0), (0, 1 << 70)):
        with pytest.raises(ValueError, match="trump|leader"):
            call(core, method, MASKS, trump, leader)
    for trump, leader in (("S", 0), (4.0, 0), (4, None)):
        with pytest.raises(TypeError):
            call(core, method, MASKS, trump, leader)


def test_rejects_bad_strain_guess_target_need_and_table_size(core):
    for strain in (5, -1, 1 << 64):
        with pytest.raises(ValueError, match="strain"):
            core.dd_strain(MASKS, strain)
    with pytest.raises(ValueError, match="guess"):
        core.solve(MASKS, 4, 0, b"", 14)
    with pytest.raises(ValueError, match="target"):
        core.reaches(MASKS, 4, 0, b"", 1 << 40)
    with pytest.raises(ValueError, match="need"):
        core.quick_tricks(MASKS, 4, 0, -5)
    for mb in (0, -1, 1 << 21, 1 << 80):
        with pytest.raises(ValueError, match="transposition table size"):
            Core(mb)


def card(text: str) -> int:
    return "SHDC".index(text[0]) * 16 + "..23456789TJQKA".index(text[1])


@pytest.mark.parametrize("method", ["solve", "reaches", "reaches_many", "play_trace",
                                    "card_scores"])
def test_rejects_illegal_played_cards(core, method):
    west_leads = 3
    cases = {
        bytes([0x4E]): "not a card",                 # suit 4
        bytes([0x0F]): "not a card",                 # rank 15
        bytes([0x01]): "not a card",                 # rank 1
        bytes([card("SA")]): "not in W's hand",      # North's card, West to lead
        bytes([card("S5"), card("HK")]): "must follow to S",   # N holds spades
        bytes([card("S5"), card("SA"), card("S7")]): "not in E's hand",
    }
    for played, message in cases.items():
        with pytest.raises(ValueError, match=message):
            call(core, method, MASKS, 4, west_leads, played)


def test_rejects_more_cards_than_the_deal_has(core):
    ending = Deal.from_pbn("N:A... K... Q... J...")
    hands = tuple(m for hand in ending.hands for m in hand.masks)  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="5 cards played, but the deal has 4"):
        core.solve(hands, 4, 0, bytes([card("SA"), card("SK"), card("SQ"), card("SJ"), 0x0E]))
    with pytest.raises(ValueError, match="the play is over"):
        core.card_scores(hands, 4, 0, bytes([card("SA"), card("SK"), card("SQ"), card("SJ")]))


def test_a_legal_play_across_tricks_is_accepted(core):
    # The rules the check follows: the trick's winner leads next, trumps win.
    ending = Deal.from_pbn("N:A.2.. K..2. Q...2 .A3..")   # hearts trump, West ruffs
    hands = tuple(m for hand in ending.hands for m in hand.masks)  # type: ignore[union-attr]
    played = bytes([card("SA"), card("SK"), card("SQ"), card("HA")])   # W wins, leads
    assert core.solve(hands, 1, 0, played) == (0, 0, 1)
    with pytest.raises(ValueError, match="not in W's hand"):
        core.solve(hands, 1, 0, played + bytes([card("H2")]))   # W is on lead, not N


# ---- a property test: random hostile arguments, in a child process ------------------------

_FUZZ = textwrap.dedent('''
    import random, sys
    from ddsolver._core import Core
    rng = random.Random(int(sys.argv[1]))
    core = Core(2)
    full = [1 << r for r in range(2, 15)]
    methods = ("solve", "reaches", "reaches_many", "play_trace", "card_scores",
               "quick_tricks", "dd_strain")
    seen = {"ok": 0, "ValueError": 0}
    for _ in range(int(sys.argv[2])):
        n = rng.randint(0, 3)      # small endings: a legal case is solved quickly
        cards = rng.sample([(s, r) for s in range(4) for r in range(2, 15)], 4 * n)
        hands = [0] * 16
        for i, (s, r) in enumerate(cards):
            hands[4 * (i % 4) + s] |= 1 << r
        k = rng.random()
        if k < 0.3:                       # bits anywhere in a mask
            hands[rng.randrange(16)] ^= 1 << rng.randrange(17)
        elif k < 0.5 and cards:           # a card in two hands
            s, r = rng.choice(cards)
            hands[4 * rng.randrange(4) + s] |= 1 << r
        played = bytes(rng.choice([rng.randrange(256), (s << 4) | r])
                       for s, r in rng.sample(cards, rng.randint(0, len(cards))))
        trump, leader = rng.choice([0, 1, 2, 3, 4, 5, -1]), rng.choice([0, 1, 2, 3, 4, -1])
        method = rng.choice(methods)
        try:
            if method == "dd_strain":
                core.dd_strain(tuple(hands), trump)
            elif method == "quick_tricks":
                core.quick_tricks(tuple(hands), trump, leader)
            elif method == "reaches_many":
                core.reaches_many([tuple(hands)], trump, leader,
                                  [(0, played, rng.randint(0, 13))])
            else:
                getattr(core, method)(tuple(hands), trump, leader, played)
            seen["ok"] += 1
        except ValueError:
            seen["ValueError"] += 1
    print(seen)
''')


def test_random_hostile_arguments_never_crash():
    """Thousands of random calls, most of them malformed: every one returns or raises
    ValueError (any other exception, or a crash, fails)."""
    proc = subprocess.run([sys.executable, "-c", _FUZZ, "2026", "4000"], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, f"child died ({proc.returncode}): {proc.stderr[-2000:]}"
    seen = eval(proc.stdout)
    assert seen["ok"] > 100 and seen["ValueError"] > 1000, seen


@settings(max_examples=300, deadline=None)
@given(hands=st.lists(st.integers(-1, 0x1FFFF), min_size=16, max_size=16),
       played=st.binary(max_size=8), trump=st.integers(-1, 5), leader=st.integers(-1, 4),
       method=st.sampled_from(["solve", "reaches", "reaches_many", "play_trace",
                               "card_scores"]))
def test_hypothesis_masks_are_refused_or_solved(core, hands, played, trump, leader, method):
    """Arbitrary masks almost never make a deal: what is refused is refused with
    ValueError.  (In-process: the child-process test above guards against crashes; this
    one shrinks a failure to a small example.)"""
    try:
        call(core, method, tuple(hands), trump, leader, played)
    except ValueError:
        pass


# ---- one solver, two threads ------------------------------------------------------------

def test_second_thread_on_a_busy_solver_gets_a_clear_error():
    solver = Solver(4)
    failures: list[BaseException] = []

    def first() -> None:
        try:
            solver.dd_table(HARD)
        except BaseException as err:  # noqa: BLE001 - reported below
            failures.append(err)

    thread = threading.Thread(target=first)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not solver._core.busy and time.monotonic() < deadline:
            time.sleep(0.005)
        with pytest.raises(RuntimeError, match="already in use by another thread"):
            solver.solve(HARD, "NT", "S")
        with pytest.raises(RuntimeError, match="already in use"):
            solver.clear()
    finally:
        from ddsolver._core import clear_stop, request_stop
        request_stop()          # no need to wait for the whole table
        thread.join()
        clear_stop()
    assert len(failures) == 1 and isinstance(failures[0], KeyboardInterrupt)
    # Free again: the solver answers as before.
    assert solver.solve(HARD, "H", "S") == Solver(4).solve(HARD, "H", "S")


_TWO_THREADS = textwrap.dedent('''
    import threading
    import random
    from cardgames.minimax import random_ending
    from ddsolver import Solver
    DEALS = [random_ending(random.Random(k), 13) for k in range(4)]
    solver = Solver(4)
    errors = []
    def work(k):
        for _ in range(3):
            try:
                solver.dd_table(DEALS[k])
            except RuntimeError as err:
                errors.append(str(err))
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads: t.start()
    for t in threads: t.join()
    print(len(errors))
''')


def test_four_threads_hammering_one_solver_do_not_crash():
    """What used to kill the process: now the losers of the race get RuntimeError."""
    proc = subprocess.run([sys.executable, "-c", _TWO_THREADS], capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, f"child died ({proc.returncode}): {proc.stderr[-2000:]}"
    assert int(proc.stdout) > 0

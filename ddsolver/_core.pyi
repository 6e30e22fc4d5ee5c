"""Type stub for the private Cython core (ddsolver/_core.pyx).  Use ddsolver.solver instead.

Encodings: seats 0..3 = N E S W; suits 0..3 = S H D C, trump 4 = no-trump; a card is
``suit * 16 + rank`` (rank 2..14); a deal is 16 rank masks ordered [seat][suit], bit r set
for rank r.  Every argument is checked: a malformed deal (bits outside ranks 2..14, a card
in two hands, unequal hands), an illegal ``played`` (not a card, not the mover's, not
following suit) or an out-of-range number raises ValueError (TypeError for a wrong type).

A Core is not thread-safe: a call while another runs raises RuntimeError.  A search
stops, raising KeyboardInterrupt, after :func:`request_stop`, or on a signal hooked by
:func:`hook_signal` -- and on Ctrl-C in the main thread when SIGINT's handler is Python's
default one.
"""

ENTRY_SIZE: int   # bytes of one TT entry (24)
BUILD: str        # the build whose Core this is: "portable" or "x86-64 BMI2"
BLOCK_SIZE: int   # bytes of one TT block
HEADER_SIZE: int  # bytes of one hash-slot header

def request_stop() -> None:
    """Stop every running search (and every one started before clear_stop)."""
def clear_stop() -> None: ...
def stop_requested() -> bool: ...
def hook_signal(signum: int) -> bool:
    """Main thread only: the signal stops running searches as it arrives (nests)."""
def unhook_signal(signum: int) -> None: ...

class Core:
    tt_mb: int
    def __init__(self, tt_mb: int = 64) -> None: ...
    @property
    def nodes(self) -> int: ...
    @property
    def tt_used(self) -> int: ...
    @property
    def tt_capacity(self) -> int: ...
    @property
    def tt_bytes(self) -> int: ...
    @property
    def tt_resets(self) -> int: ...
    @property
    def busy(self) -> bool:
        """A call is running on this core now."""
    @property
    def trick_nodes(self) -> list[int]:
        """Nodes entered at a trick's start, by tricks left (14 counts, index 0 unused)."""
    @property
    def probes(self) -> int:
        """Transposition-table look-ups so far: a tuning aid."""
    def clear(self) -> None: ...
    def solve(self, hands: tuple[int, ...], trump: int, leader: int, played: bytes = b"",
              guess: int = -1) -> tuple[int, int, int]:
        """(North-South's tricks from here, North-South's tricks won so far, tricks left)."""
    def play_trace(self, hands: tuple[int, ...], trump: int, leader: int,
                   played: bytes = b"") -> list[int]:
        """North-South's tricks in all (won + to come) before and after each card."""
    def card_scores(self, hands: tuple[int, ...], trump: int, leader: int,
                    played: bytes = b"") -> tuple[int, list[tuple[int, int]]]:
        """(mover's seat, [(card, tricks for the mover's side from here), ...])."""
    def dd_table(self, hands: tuple[int, ...]) -> list[list[int]]:
        """Declarer's tricks, [strain S H D C NT][declarer N E S W]."""
    def dd_strain(self, hands: tuple[int, ...], strain: int) -> list[int]: ...
    def quick_tricks(self, hands: tuple[int, ...], trump: int, leader: int,
                     need: int = 13) -> tuple[int, list[int]]: ...
    def sure_trump_tricks(self, hands: tuple[int, ...], trump: int, leader: int,
                          side: int, need: int = 1) -> tuple[int, list[int]]: ...
    def reaches(self, hands: tuple[int, ...], trump: int, leader: int, played: bytes = b"",
                target: int = 7) -> bool: ...
    def reaches_many(self, worlds: list[tuple[int, ...]], trump: int, leader: int,
                     items: list[tuple[int, bytes, int]], forget: bool = False) -> bytes:
        """Null-window searches over many deals at one point, the table shared."""

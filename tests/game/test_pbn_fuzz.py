"""Fuzzing the PBN reader: every input ends in games or a PBNError with a line number
(never another exception, never a hang), and a mutation of one game leaves the games
around it read as they were.

Seeded mutations of the files in ``data/`` (byte flips, line deletions and duplications,
truncation, line-end changes, inserted junk), plus hypothesis on arbitrary bytes.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgames import pbn
from cardgames.errors import PBNError

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "data").glob("*.pbn")) + sorted(
    (ROOT / "data" / "pbn-fidelity").glob("*.pbn"))
JUNK = [b"[", b"]", b"{", b"}", b'"', b";", b"%", b"#", b"##", b"\\", b"\r", b"\n", b"\0",
        b"\xff", b"\xc3", b'[Board "', b'[Deal "N:', b"[Play", b"*", b"^", b"=1=", b" "]
OUTCOMES: Counter[str] = Counter()


def _read(data: bytes, *, strict: bool) -> tuple[list, list]:
    """Games (as comparable summaries) and errors; anything but a PBNError escapes."""
    reader = pbn.loads(data, strict=strict)
    games = []
    try:
        for game in reader:
            games.append((game.original, [(t.name, t.value, t.section) for t in game.tags]))
    except PBNError as err:
        assert err.line is not None, repr(err)
        return games, [err]
    for err in reader.errors:
        assert err.line is not None, repr(err)
    return games, reader.errors


def _mutate(rng: random.Random, lines: list[bytes]) -> list[bytes]:
    lines = list(lines)
    kind = rng.randrange(6)
    i = rng.randrange(len(lines))
    if kind == 0 and lines[i]:                       # flip a byte
        line = bytearray(lines[i])
        line[rng.randrange(len(line))] = rng.randrange(256)
        lines[i] = bytes(line)
    elif kind == 1:                                  # delete a line
        del lines[i]
    elif kind == 2:                                  # duplicate a line
        lines.insert(i, lines[i])
    elif kind == 3 and lines[i]:                     # truncate a line
        lines[i] = lines[i][:rng.randrange(len(lines[i]))]
    elif kind == 4:                                  # change its line end
        lines[i] = lines[i].rstrip(b"\r\n") + rng.choice([b"\n", b"\r\n", b"\r", b""])
    else:                                            # insert junk
        at = rng.randrange(len(lines[i]) + 1)
        lines[i] = lines[i][:at] + b"".join(rng.choices(JUNK, k=rng.randrange(1, 4))) \
            + lines[i][at:]
    return lines or [b""]


def _games_of(path: Path) -> tuple[bytes, list[bytes], bytes]:
    """The file cut into its games' bytes (each from the end of the game before)."""
    reader = pbn.loads(path.read_bytes(), strict=False)
    parts = [g.original for g in reader]
    return b"", [p for p in parts if p is not None], reader.tail or b""


def test_mutated_files_read_or_fail_with_a_line_and_spare_the_other_games():
    rng = random.Random(14)
    tried = 0
    for path in FILES:
        _, parts, tail = _games_of(path)
        originals_tags = [g[1] for g in _read(path.read_bytes(), strict=False)[0]]
        if len(parts) < 3:
            continue
        for _ in range(260):
            k = rng.randrange(1, len(parts) - 1)  # never the first or last game
            # A mutated game is followed by an empty line so that it cannot run into the
            # next one (its own last line may lose its end).
            # The empty lines that end the game before are left alone.
            lines = parts[k].splitlines(True)
            lead = next(i for i, line in enumerate(lines) if line.strip())
            mutated = b"".join(lines[:lead] + _mutate(rng, lines[lead:])) + b"\n\n"
            data = b"".join(parts[:k]) + mutated + b"".join(parts[k + 1:]) + tail
            tried += 1
            inherits = b'"#' in b"".join(parts[k + 1:])
            after = originals_tags[k + 1:]
            for strict in (False, True):
                games, errors = _read(data, strict=strict)
                if strict:
                    OUTCOMES["strict error" if errors else "strict read"] += 1
                    continue
                OUTCOMES["lenient with errors" if errors else "lenient clean"] += 1
                fatal = any("reading stops here" in e.reason for e in errors)
                # The games before the mutated one read exactly as before.
                originals = [g[0] for g in games]
                for part in parts[:k]:
                    assert part in originals
                # A '{' runs to the next '}' across empty lines (PBN 2.1): an unclosed one
                # takes the games after it, by the standard.
                # A game after it that inherits ("#") may inherit from it.
                if not fatal and b"{" not in mutated and not inherits:
                    # ... and so do the games after it (their bytes start with the blank
                    # line the mutation added, so compare their tags).
                    assert [g[1] for g in games][-len(after):] == after
    assert tried >= 1000, tried
    print(f"\nfuzz: {tried} mutated files, outcomes {dict(OUTCOMES)}")


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(JUNK + [b'[Board "1"]\n', b'[Deal "' + b"N:AKQ.. - - -" + b'"]',
                                        b'[Auction "N"]\n1S Pass', b"\n\n", b"x"]),
                max_size=30))
def test_arbitrary_pieces_read_or_fail_with_a_line(pieces):
    data = b"".join(pieces)
    for strict in (False, True):
        _read(data, strict=strict)
    _read(data.decode("latin-1"), strict=False)  # type: ignore[arg-type]

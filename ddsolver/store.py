"""The results store of the command line: double-dummy tables kept in an SQLite file.

``ddsolver table --db FILE`` (and ``report --db FILE``) look every deal up here before
solving it and write every table here as soon as it is solved, so

* a run that is interrupted (Ctrl-C, a crash, a killed job) loses at most the last second
  of work: run the same command again with ``--resume`` and the boards already solved
  come straight from the file;
* a deal met again (another file, another run, the same deal under another board number)
  is not solved twice.

A table depends on the deal alone (dealer, vulnerability and par are computed from it in
no time), so the key is the deal, written from North (``Deal.to_pbn()``): the same deal
written from another seat finds the same row.

Schema (version 1, kept in ``PRAGMA user_version``)::

    meta(key TEXT PRIMARY KEY, value TEXT)       -- "schema", "created_by", "created_at"
    dd_tables(deal TEXT PRIMARY KEY,             -- "N:AKQ2.KJ3.T94.A65 ..." from North
              tricks TEXT,                       -- 20 hex digits: declarers N E S W, and
                                                 --   for each strains S H D C NT
              solved_at REAL)                    -- seconds since the epoch
    play_traces(deal TEXT, strain TEXT,          -- the deal as above; "S".."C" or "NT"
                leader TEXT, played TEXT,        -- opening leader; the cards, "SA H2 ..."
                tricks TEXT,                     -- hex digits: declarer's side's DD tricks
                                                 --   before the lead and after each card
                solved_at REAL,
                PRIMARY KEY (deal, strain, leader, played))

``ddsolver play --db`` keeps its traces in ``play_traces``: a trace depends on the deal, the
trump strain, the opening leader and the cards played, and on nothing else.

``ddsolver duel --db`` keeps each deal it has played out, once per declarer, in
``duel_plays``::

    duel_plays(deal TEXT,                        -- the deal and contract, "N:... 3NTS"
               settings TEXT,                    -- what else decides the play: the seed,
                                                 --   worlds, the defence, the system
               method TEXT,                      -- the declarer's: "alphamu:2", "pimc"
               play TEXT,                        -- JSON: the cards, tricks, score, timing
               played_at REAL,
               PRIMARY KEY (deal, settings, method))

``ddsolver review --db`` keeps each board's review, per player and settings, in
``board_reviews``::

    board_reviews(board TEXT,                    -- a digest of the board's whole game
                  settings TEXT,                 -- seed, samples, method, depth, system
                  player TEXT,                   -- the player, as compared (no case)
                  review TEXT,                   -- JSON: the board's review
                  reviewed_at REAL,
                  PRIMARY KEY (board, settings, player))

(tables added within schema 1: a store without them gets them when opened.)

A file written by a later schema is refused rather than guessed at; an earlier one would
be upgraded in :meth:`ResultStore._upgrade` (there is none yet).

**One run at a time.**  A store is open in one run at a time: :class:`ResultStore` holds an
exclusive ``flock`` on the file while it is open, and a second run on the same file is
refused at once (:class:`StoreInUseError`), before it opens or writes its output, rather
than failing on SQLite's ``database is locked`` mid-run and leaving half an output.  Two
runs sharing a store would gain nothing anyway: each would solve the deals the other has
not committed yet.  (``flock`` is independent of SQLite's own POSIX locks on Linux and the
BSDs; the lock's descriptor stays open until the connection is closed, so closing it cannot
drop SQLite's locks.  Where ``fcntl`` does not exist, Windows, nothing is locked.)
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterable
from typing import Any

from cardgames.hands import Deal

from .solver import DDTable

__all__ = ["ResultStore", "StoreError", "StoreInUseError", "SCHEMA_VERSION", "deal_key",
           "TraceKey", "PlayKey", "ReviewKey"]

#: The schema this module writes, stored in ``PRAGMA user_version``.
SCHEMA_VERSION = 1

#: ``PRAGMA application_id``: "DDSv" in ASCII, so a ddsolver store is recognisable.
APPLICATION_ID = 0x44445376

#: Seconds SQLite waits for a lock held by another connection (a reader such as the
#: ``sqlite3`` shell) before giving up with "database is locked".
BUSY_TIMEOUT = 30.0

#: Commit at least this often (seconds) while solving: what an interrupted run can lose
#: at worst if the process is killed outright (Ctrl-C loses nothing: it commits first).
COMMIT_EVERY = 0.5

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS dd_tables (
    deal TEXT PRIMARY KEY,
    tricks TEXT NOT NULL,
    solved_at REAL NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS play_traces (
    deal TEXT NOT NULL,
    strain TEXT NOT NULL,
    leader TEXT NOT NULL,
    played TEXT NOT NULL,
    tricks TEXT NOT NULL,
    solved_at REAL NOT NULL,
    PRIMARY KEY (deal, strain, leader, played)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS duel_plays (
    deal TEXT NOT NULL,
    settings TEXT NOT NULL,
    method TEXT NOT NULL,
    play TEXT NOT NULL,
    played_at REAL NOT NULL,
    PRIMARY KEY (deal, settings, method)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS board_reviews (
    board TEXT NOT NULL,
    settings TEXT NOT NULL,
    player TEXT NOT NULL,
    review TEXT NOT NULL,
    reviewed_at REAL NOT NULL,
    PRIMARY KEY (board, settings, player)
) WITHOUT ROWID;
"""

#: The key of a played deal: (deal and contract, settings, declarer's method).
PlayKey = tuple[str, str, str]

#: The key of a board's review: (the board's digest, settings, the player).
ReviewKey = tuple[str, str, str]

#: The key of a play trace: (deal key, strain letter, leader letter, cards "SA H2 ...").
TraceKey = tuple[str, str, str, str]


class StoreError(Exception):
    """The store cannot be used: not a ddsolver store, a newer schema, unreadable."""


class StoreInUseError(StoreError):
    """Another run (another process, or another :class:`ResultStore` of this one) has the
    store open."""


def _lock(path: str) -> int | None:
    """An exclusive lock on the store file (created if absent), held by the descriptor
    returned; None where locks do not exist.

    :raises StoreInUseError: if another run holds it.
    :raises StoreError: if the file cannot be opened.
    """
    try:
        import fcntl
    except ImportError:  # Windows: no flock; the runs are the user's to keep apart
        return None
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as err:
        raise StoreError(f"cannot open {path}: {err.strerror or err}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise StoreInUseError(f"{path} is in use by another ddsolver run; wait for it to "
                              "finish, or give --db another file") from None
    return fd


def deal_key(deal: Deal) -> str:
    """The key of a deal in the store: its PBN text from North."""
    return deal.to_pbn()


def _encode(table: DDTable) -> str:
    return "".join(f"{n:x}" for row in table.rows for n in row)


def _decode(text: object, cards: int = 13) -> DDTable | None:
    """A stored table of a deal of ``cards`` in each hand, or None for a row that does
    not read as one (damaged)."""
    values = _tricks(text, 20)
    if values is None or max(values) > cards:
        return None
    return DDTable(tuple(tuple(values[d * 5:d * 5 + 5]) for d in range(4)), cards)


def _cards_in(key: str) -> int:
    """The cards in each hand of a deal key (:func:`deal_key`), counted in North's."""
    north = key.partition(":")[2].split(" ", 1)[0]
    cards = len(north) - north.count(".")
    return cards if north.count(".") == 3 and 0 <= cards <= 13 else 13


def _tricks(text: object, length: int) -> list[int] | None:
    """``length`` trick counts (0..13, a hex digit each), or None if ``text`` is not."""
    if not isinstance(text, str) or len(text) != length:
        return None
    try:
        values = [int(ch, 16) for ch in text]
    except ValueError:
        return None
    return values if all(v <= 13 for v in values) else None


class ResultStore:
    """An open results store.  Use as a context manager; :meth:`close` commits.

    :param path: the SQLite file; created (with its directory's permission) if absent.
    :param must_exist: refuse a missing file (``--resume`` with nothing to resume).
    :raises StoreInUseError: when another run has the file open.
    :raises StoreError: with a plain message when the file cannot be used.
    """

    def __init__(self, path: str | os.PathLike[str], *, must_exist: bool = False):
        self.path = os.fspath(path)
        if os.path.isdir(self.path):
            raise StoreError(f"{self.path} is a directory, not a results store")
        exists = os.path.exists(self.path) and os.path.getsize(self.path) > 0
        if must_exist and not exists:
            raise StoreError(f"nothing to resume: {self.path} does not exist "
                             "(run without --resume to start it)")
        self._lock_fd = _lock(self.path)
        try:
            self._db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT)
        except sqlite3.Error as err:
            self._unlock()
            raise StoreError(f"cannot open {self.path}: {err}") from None
        try:
            self._open(exists)
        except sqlite3.DatabaseError as err:
            self._db.close()
            if not exists:
                # Making a new store failed (a full disk): a half-made file would be
                # refused by every later run as not a store, so it goes.
                self._remove_new()
                self._unlock()
                raise StoreError(f"cannot create {self.path}: {err}") from None
            self._unlock()
            raise StoreError(f"{self.path} is not a ddsolver results store ({err})") from None
        except StoreError:
            self._db.close()
            self._unlock()
            raise
        self.added = 0            # tables written by this process
        self.damaged = 0          # rows read that did not decode: worked out again
        self._uncommitted = 0
        self._last_commit = time.monotonic()

    def _remove_new(self) -> None:
        """Remove the store this run began to make, with SQLite's files beside it."""
        for path in (self.path, self.path + "-wal", self.path + "-shm",
                     self.path + "-journal"):
            try:
                os.remove(path)
            except OSError:
                pass

    def _unlock(self) -> None:
        """Let the file go: after the connection is closed (see the module docstring)."""
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def _open(self, exists: bool) -> None:
        db = self._db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if exists:
            if app_id != APPLICATION_ID:
                raise StoreError(f"{self.path} is an SQLite file but not a ddsolver results "
                                 "store; give --db a new file name")
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path} was written by a newer ddsolver (store schema "
                                 f"{version}; this one reads up to {SCHEMA_VERSION})")
        # WAL: a commit is cheap (no fsync of the main file), and a reader never blocks.
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        if not exists:
            with db:
                db.executescript(_SCHEMA)
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [
                    ("schema", str(SCHEMA_VERSION)),
                    ("created_by", f"ddsolver {_version()}"),
                    ("created_at", time.strftime("%Y-%m-%dT%H:%M:%S%z")),
                ])
        elif version < SCHEMA_VERSION:
            self._upgrade(version)
        else:
            # Stores written before play_traces and duel_plays joined schema 1 lack those
            # tables; creating them is harmless everywhere else.
            with db:
                db.executescript(_SCHEMA)

    def _upgrade(self, version: int) -> None:
        """Bring an older store up to :data:`SCHEMA_VERSION` (no older schema exists yet)."""
        raise StoreError(f"{self.path} has store schema {version}, which this ddsolver "
                         "cannot upgrade")

    # ---- tables -------------------------------------------------------------------
    def tables(self, keys: Iterable[str]) -> dict[str, DDTable]:
        """The stored tables of these deal keys (absent keys are left out)."""
        found: dict[str, DDTable] = {}
        unique = list(dict.fromkeys(keys))
        # SQLite limits the parameters of one statement (999 in old builds).
        for start in range(0, len(unique), 500):
            part = unique[start:start + 500]
            marks = ",".join("?" * len(part))
            try:
                rows = self._db.execute(
                    f"SELECT deal, tricks FROM dd_tables WHERE deal IN ({marks})", part
                ).fetchall()
            except sqlite3.Error as err:
                raise StoreError(f"cannot read {self.path}: {err}") from None
            for deal, tricks in rows:
                table = _decode(tricks, _cards_in(deal))
                if table is None:
                    self.damaged += 1   # solved again, and the row replaced
                else:
                    found[deal] = table
        return found

    def put_table(self, key: str, table: DDTable) -> None:
        """Store a table; committed within :data:`COMMIT_EVERY` seconds (see
        :meth:`maybe_commit`) or at :meth:`commit`."""
        try:
            self._db.execute("INSERT OR REPLACE INTO dd_tables VALUES (?, ?, ?)",
                             (key, _encode(table), time.time()))
        except sqlite3.Error as err:
            raise StoreError(f"cannot write to {self.path}: {err}") from None
        self.added += 1
        self._uncommitted += 1
        self.maybe_commit()

    # ---- play traces --------------------------------------------------------------
    def traces(self, keys: Iterable[TraceKey]) -> dict[TraceKey, list[int]]:
        """The stored traces of these keys (absent keys are left out)."""
        found = self._rows("play_traces", "tricks", ("deal", "strain", "leader", "played"),
                           keys)
        traces: dict[TraceKey, list[int]] = {}
        for key, text in found.items():
            # declarer's side's tricks before the first card and after each card
            trace = _tricks(text, len(key[3].split()) + 1)
            if trace is None:
                self.damaged += 1   # analysed again, and the row replaced
            else:
                traces[key] = trace
        return traces

    def put_trace(self, key: TraceKey, tricks: list[int]) -> None:
        """Store a play trace (committed as :meth:`put_table` commits)."""
        self._put("play_traces", key, "".join(f"{n:x}" for n in tricks))

    # ---- played deals (ddsolver duel) ---------------------------------------------
    def plays(self, keys: Iterable[PlayKey]) -> dict[PlayKey, str]:
        """The stored plays (their JSON text) of these keys (absent keys left out)."""
        return self._rows("duel_plays", "play", ("deal", "settings", "method"), keys)

    def put_play(self, key: PlayKey, play: str) -> None:
        """Store a played deal's JSON (committed as :meth:`put_table` commits)."""
        self._put("duel_plays", key, play)

    # ---- reviews (ddsolver review) -------------------------------------------------
    def reviews(self, keys: Iterable[ReviewKey]) -> dict[ReviewKey, str]:
        """The stored reviews (their JSON text) of these keys (absent keys left out)."""
        return self._rows("board_reviews", "review", ("board", "settings", "player"), keys)

    def put_review(self, key: ReviewKey, review: str) -> None:
        """Store a board's review JSON (committed as :meth:`put_table` commits)."""
        self._put("board_reviews", key, review)

    # ---- the rows of the keyed tables ----------------------------------------------
    def _rows(self, table: str, column: str, names: tuple[str, ...],
              keys: Iterable[tuple[str, ...]]) -> dict[Any, str]:
        """``column`` of ``table``'s row for each key (its ``names`` columns), where there
        is one."""
        where = " AND ".join(f"{n}=?" for n in names)
        query = f"SELECT {column} FROM {table} WHERE {where}"
        found: dict[Any, str] = {}
        for key in dict.fromkeys(keys):
            try:
                row = self._db.execute(query, key).fetchone()
            except sqlite3.Error as err:
                raise StoreError(f"cannot read {self.path}: {err}") from None
            if row is not None:
                found[key] = row[0]
        return found

    def _put(self, table: str, key: tuple[str, ...], value: str) -> None:
        """A row of ``table``: the key's columns, ``value``, the time; committed as
        :meth:`put_table` commits."""
        marks = ", ".join("?" * (len(key) + 2))
        try:
            self._db.execute(f"INSERT OR REPLACE INTO {table} VALUES ({marks})",
                             (*key, value, time.time()))
        except sqlite3.Error as err:
            raise StoreError(f"cannot write to {self.path}: {err}") from None
        self.added += 1
        self._uncommitted += 1
        self.maybe_commit()

    def damaged_row(self) -> None:
        """Count a stored row its reader could not use (a play's or a review's JSON that
        does not read): the result is worked out again and the row replaced."""
        self.damaged += 1

    def count(self, kind: str = "tables") -> int:
        """Rows of one kind: ``"tables"``, ``"traces"``, ``"plays"`` or ``"reviews"``."""
        table = {"tables": "dd_tables", "traces": "play_traces", "plays": "duel_plays",
                 "reviews": "board_reviews"}[kind]
        return self._db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]

    def maybe_commit(self) -> None:
        if self._uncommitted and time.monotonic() - self._last_commit >= COMMIT_EVERY:
            self.commit()

    def commit(self) -> None:
        if self._uncommitted:
            try:
                self._db.commit()
            except sqlite3.Error as err:
                raise StoreError(f"cannot write to {self.path}: {err}") from None
            self._uncommitted = 0
        self._last_commit = time.monotonic()

    def __len__(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM dd_tables").fetchone()[0]

    def meta(self) -> dict[str, str]:
        return dict(self._db.execute("SELECT key, value FROM meta"))

    # ---- closing ------------------------------------------------------------------
    def close(self) -> None:
        """Commit what is pending and close the file."""
        if self._db is not None:
            try:
                self.commit()
            finally:
                self._db.close()
                self._db = None  # type: ignore[assignment]
                self._unlock()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("ddsolver")
    except Exception:
        return "(source tree)"

"""What a PBN game says about its board, read one way for every tool: the board number,
the dealer, the vulnerability, the auction, the contract and its declarer, the opening
lead, the players.

One reader, one set of defaults:

* the dealer and the vulnerability come from their tags, else from the board number's
  place in the rotation of 16 boards, else they are unknown (None): what to assume then
  is the caller's choice (par cannot be computed; a lead analysis takes "none");
* the auction is read as legal calls from its first caller (the ``Auction`` tag's seat,
  else the dealer); an illegal call is a :class:`~cardgames.errors.PBNError` on the line
  of that call, a missing call (``-``) or an unfinished auction only a note;
* the contract and declarer come from a complete auction, which the ``Contract`` and
  ``Declarer`` tags must not contradict (an error on the tag's line), else from those tags;
* the lead made at the table is the ``Lead`` tag, else the first card of the play, when
  it was led by the right seat and is in the leader's hand (else a note says why not);
* a player is the ``North``/``East``/... tag, unless it is empty, ``?`` or ``-``.

Each fact is read when first asked for, so a tool pays only for what it uses, and a tag
it does not use cannot cost it a board.

>>> from cardgames import pbn
>>> game = pbn.Game.from_pbn('[Board "3"]\\n[Deal "N:AKQ2.KJ3.T94.A65 - - -"]\\n'
...                          '[Auction "S"]\\n1NT Pass 3NT AP')
>>> facts = BoardFacts(game)
>>> facts.dealer, facts.vulnerability, facts.contract()
(Seat.SOUTH, Vulnerability.EW, Contract.parse('3NTS'))
"""

from __future__ import annotations

import re
from dataclasses import replace

from . import pbn
from .auction import Auction, Call
from .cards import Card, Seat
from .errors import CardgamesError, IllegalCallError, ParseError, PBNError
from .hands import Hand
from .scoring import Contract, Vulnerability, board_dealer, board_vulnerability

__all__ = ["BoardFacts", "call_lines"]

_NAME_TAGS = ("North", "East", "South", "West")
_UNKNOWN = ("", "?", "-")


class BoardFacts:
    """The facts of one game of a PBN file (``source``, for the places in messages)."""

    def __init__(self, game: pbn.Game, source: str | None = None):
        self.game = game
        self.source = source

    # ---- the board --------------------------------------------------------------------
    @property
    def number(self) -> int | None:
        """The board number; None when the game has none, or one too large to read
        (:attr:`number_problem` says so)."""
        try:
            return self.game.board
        except PBNError:
            return None

    @property
    def number_problem(self) -> PBNError | None:
        """Why the ``Board`` tag cannot be read as a number (None when it can, or when
        there is none)."""
        try:
            _ = self.game.board
        except PBNError as err:
            return err
        return None

    @property
    def label(self) -> str:
        """``"board 3: "``, the context a message about the game starts with (``""`` when
        it has no number that reads)."""
        number = self.number
        return f"board {number}: " if number is not None else ""

    @property
    def dealer(self) -> Seat | None:
        """The ``Dealer`` tag, else the dealer of the board number; None if neither says.

        :raises PBNError: for a ``Dealer`` tag that is not a seat.
        """
        dealer = self.game.dealer
        if dealer is None and (number := self.number) is not None and number >= 1:
            return board_dealer(number)
        return dealer

    @property
    def vulnerability(self) -> Vulnerability | None:
        """The ``Vulnerable`` tag, else the vulnerability of the board number; None if
        neither says.

        :raises PBNError: for a ``Vulnerable`` tag that is not a vulnerability.
        """
        text = self.game.vulnerable
        if text is not None:
            return Vulnerability.parse(text)
        if (number := self.number) is not None and number >= 1:
            return board_vulnerability(number)
        return None

    @property
    def scoring(self) -> str | None:
        """How the board was scored, from its ``Scoring`` tag (PBN 3.3: one or more methods,
        ``;``-separated; the first that reads counts): ``"matchpoints"`` (MP, MatchPoints,
        EMP, OldMP, BAM: each board won or lost), ``"imps"`` (IMP, IMP_1948, IMP_1961,
        Butler, Cavendish: the size of the swing) or ``"total points"`` (Rubber, Chicago,
        TotalPoints, Instant); None when there is no tag or none of these."""
        text = self.game.tag("Scoring") or ""
        for part in text.replace(",", ";").split(";"):
            word = part.strip().strip("#").upper()
            if word in ("MP", "MATCHPOINTS", "EMP", "OLDMP", "BAM", "MP1"):
                return "matchpoints"
            if word.startswith("IMP") or word in ("BUTLER", "CAVENDISH"):
                return "imps"
            if word in ("RUBBER", "CHICAGO", "TOTALPOINTS", "INSTANT"):
                return "total points"
        return None

    def player(self, seat: Seat) -> str | None:
        """The player in ``seat`` (the North/East/... tag); None when not known."""
        name = self.game.tag(_NAME_TAGS[seat])
        name = name.strip() if name is not None else ""
        return name if name not in _UNKNOWN else None

    # ---- the auction and the contract -------------------------------------------------
    def auction(self) -> tuple[Auction | None, list[str]]:
        """The auction (None if the game has none) and the notes that flag it (a missing
        call, an auction that does not end).

        :raises PBNError: for a call that does not read or is illegal (on its line), or an
            auction whose first caller is not known.
        """
        game = self.game
        tag = game.get("Auction")
        if tag is None:
            return None, []
        calls = game.auction  # PBNError, with its line, for a token that is not a call
        if not calls:
            return None, []
        # (not `or`: North is seat 0, which is false)
        dealer = game.auction_dealer
        if dealer is None:
            dealer = self.dealer
        label = self._number_label()
        if dealer is None:
            raise PBNError(f"{label}the Auction tag does not say who called first",
                           line=tag.line, source=self.source)
        notes = []
        if "-" in calls:
            calls = calls[:calls.index("-")]
            notes.append(f"the auction has a missing call ('-'): only the {len(calls)} "
                         f"call{'s' * (len(calls) != 1)} before it are read")
        # Alerts go with the calls: the reading takes an alerted call as no natural one.
        alerts = [alerted for _, alerted in game.auction_notes[:len(calls)]]
        try:
            auction = Auction(dealer, tuple(
                replace(Call.parse(c), alert=True) if alerted else Call.parse(c)
                for c, alerted in zip(calls, alerts)))
        except IllegalCallError as err:
            lines = call_lines(tag)
            line = lines[min(err.index, len(lines) - 1)] if lines else tag.line
            raise PBNError(f"{label}illegal auction: call {err.index + 1} ({err.call} by "
                           f"{dealer.next(err.index).letter}): {err.message}", line=line,
                           source=self.source) from None
        except ParseError as err:
            raise PBNError(f"{label}bad auction: {err}", line=tag.line,
                           source=self.source) from None
        if not auction.is_complete and "-" not in game.auction:
            notes.append("the auction does not end (three passes): the constraints come "
                         "from the calls made, the contract from the Contract and Declarer "
                         "tags")
        return auction, notes

    def contract(self, auction: Auction | None = None) -> Contract | None:
        """The contract with its declarer; None when the board names none or was passed
        out.  With a complete ``auction`` (:meth:`auction`'s), the contract it ends in,
        which the ``Contract`` and ``Declarer`` tags must not contradict; otherwise the
        tags'.

        :raises PBNError: when a tag contradicts the auction (on the tag's line).
        :raises CardgamesError: for a Contract tag without a declarer.
        """
        game = self.game
        if auction is not None and auction.is_complete:
            return self._contract_of(auction)
        text = game.contract
        if text is None:
            return None
        parsed = Contract.parse(text)
        if parsed is None:
            return None  # passed out
        declarer = game.declarer
        if declarer is None:
            raise CardgamesError("no declarer")
        return Contract(parsed.level, parsed.strain, parsed.doubled, declarer)

    def _contract_of(self, auction: Auction) -> Contract | None:
        game = self.game
        label = self._number_label()
        final = auction.contract
        said = f"the auction ends in {final.call} by {final.declarer.letter}" \
            if final is not None and final.declarer is not None else \
            "the auction is passed out"
        text = game.contract
        if text is not None:
            tagged = Contract.parse(text)
            same = (tagged is None and final is None) or (
                tagged is not None and final is not None and
                (tagged.level, tagged.strain, tagged.doubled) ==
                (final.level, final.strain, final.doubled))
            if not same:
                tag = game.get("Contract")
                raise PBNError(f"{label}the Contract tag says {text} but {said}",
                               line=tag.line if tag is not None else game.line,
                               source=self.source)
        if final is None:
            return None
        declarer = game.declarer
        if declarer is not None and declarer != final.declarer:
            tag = game.get("Declarer")
            raise PBNError(f"{label}the Declarer tag says {declarer.letter} but {said}",
                           line=tag.line if tag is not None else game.line,
                           source=self.source)
        return final

    def _number_label(self) -> str:
        # What the messages of the auction and the contract have always started with:
        # the Board tag as read (an error for one too large, as the board's own).
        number = self.game.board
        return f"board {number}: " if number is not None else ""

    # ---- the play ---------------------------------------------------------------------
    def declarer_won(self, cards_per_hand: int) -> int:
        """The tricks declarer's side won before an ending of ``cards_per_hand`` cards a
        hand: its ``DeclarerWon`` tag; 0 for a whole deal, and for an ending without the
        tag (or with ``?``).

        :raises PBNError: for a tag that is not a whole number, or more tricks than were
            played before the ending (on the tag's line).
        """
        tag = self.game.get("DeclarerWon")
        if cards_per_hand >= 13 or tag is None:
            return 0
        text = (tag.value or "").strip()
        if text in _UNKNOWN:
            return 0
        before = 13 - cards_per_hand
        if not re.fullmatch(r"[0-9]{1,2}", text) or int(text) > before:
            raise PBNError(f"{self._number_label()}the DeclarerWon tag says {text!r}: "
                           f"expected the tricks declarer's side won before this ending, "
                           f"0 to {before}", line=tag.line if tag.line is not None
                           else self.game.line, source=self.source)
        return int(text)

    def lead(self, leader: Seat, hand: Hand) -> tuple[Card | None, str | None]:
        """The card led at the table by ``leader`` from ``hand`` (the ``Lead`` tag, else
        the first card of the Play section) and, when there is one that cannot be used, a
        note saying why."""
        game = self.game
        text = game.tag("Lead")
        if text is not None and text.strip() not in _UNKNOWN:
            try:
                card = Card.parse(text.strip())
            except CardgamesError:
                return None, f"the Lead tag {text!r} is not a card: no lead at the table marked"
        else:
            try:
                play = game.play
                first = game.opening_leader
            except PBNError as err:
                return None, f"the Play section cannot be read ({err.message}): no lead marked"
            if not play:
                return None, None
            if first is not None and first != leader:
                return None, (f"the Play section is led by {first.letter}, not by declarer's "
                              f"left-hand opponent {leader.letter}: no lead at the table "
                              "marked")
            card = play[0]
        if card not in hand:
            return None, (f"the lead at the table, {card}, is not in {leader.letter}'s hand: "
                          "no lead at the table marked")
        return card, None


def call_lines(tag: pbn.Tag) -> list[int | None]:
    """The file line of each call written in an Auction section, in order (``AP`` stands
    for the rest), for messages: the tokens are found as :attr:`pbn.Game.auction` finds
    them (comments, notes ``=1=`` and glyphs ``$1`` dropped, ``*`` ends)."""
    lines: list[int | None] = []
    in_brace = False
    numbers = tag.section_line_numbers
    for k, raw in enumerate(tag.section):
        line = numbers[k] if k < len(numbers) else (
            None if tag.line is None else tag.line + 1 + k)
        text = []
        i = 0
        while i < len(raw):
            if in_brace:
                j = raw.find("}", i)
                if j < 0:
                    break
                in_brace, i = False, j + 1
            elif raw[i] == "{":
                in_brace, i = True, i + 1
            elif raw[i] == ";":
                break
            else:
                text.append(raw[i])
                i += 1
        for token in re.sub(r"=\d+=|\$\d+", " ", "".join(text)).split():
            token = token.rstrip("!?")
            if token == "*":
                return lines
            if token:
                lines.append(line)
            if token.upper() == "AP":
                return lines
    return lines

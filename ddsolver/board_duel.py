"""The deals of PBN files as ``ddsolver duel`` plays them: each board that names a contract
and a declarer and holds a complete deal, with the constraints its auction puts on the
hands as a bidding system reads it (:func:`cardgames.bidding.infer`), which the players'
worlds are then dealt under.  A board that cannot be played is reported as ``FILE:LINE:
reason; board skipped`` and the run goes on."""

from __future__ import annotations

from collections.abc import Iterator

from cardgames import pbn
from cardgames.bidding import BiddingSystem, infer
from cardgames.errors import CardgamesError, PBNError

from .board_leads import lead_board
from .boards import Inputs, game_label, label_of, located
from .duel import DuelDeal

__all__ = ["pbn_deals"]


def pbn_deals(inputs: Inputs, system: BiddingSystem | None) -> Iterator[DuelDeal]:
    """Every playable board of the inputs, in file order; boards without a contract are
    passed over (nothing to play), boards that cannot be played reported and skipped."""
    for path, game in inputs.games():
        assert isinstance(game, pbn.Game)
        try:
            board = lead_board(game, path)
            if board is None:
                continue
            deal = game.deal
            if deal is None or any(h is None or len(h) != 13 for h in deal.hands):
                raise CardgamesError("the deal is not complete: a duel plays every card")
            constraints = {}
            if board.auction is not None and system is not None:
                constraints = dict(infer(board.auction, system).constraints)
            yield DuelDeal(game_label(game, path), deal, board.contract, board.vulnerability,
                           constraints, game.board)
        except CardgamesError as err:
            problem = err if isinstance(err, PBNError) else CardgamesError(str(err))
            inputs.report(f"{located(problem, path, game.line, label_of(game))}; board "
                          "skipped")

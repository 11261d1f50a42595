"""A toy sixth federation for tests/test_contract.py: every game moves the winner up 10 points.

It is the whole of what adding a federation takes on the engine's side: this one module, of the
contract's shape, named in ``xl_elo.federations.MODULES``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from xl_elo.core import logistic
from xl_elo.federations.contract import Calculation, GameLine, OpponentGame, options_of
from xl_elo.model import Event, Player, Results, results_columns

CODE: Final = "toy"
NAME: Final = "Toy federation (tests only)"
ALIASES: Final = ("sixth",)
RULES: Final = "1"
SOURCE: Final = "tests/toy_federation.py"
UNIT: Final = "event"
NEEDS_PERIOD: Final = False
TEMPLATE = None
EXAMPLE = None
STEP: Final = 10

COLUMNS: Final = results_columns(blank=("expected", "k", "performance", "bonus"))


@dataclass(frozen=True)
class Options:
    """Nothing to choose."""


def expected(rating: Any, opponent: Any, options: Options | None = None) -> Any:
    return logistic(float(rating), float(opponent))


k_factor = None
first_rating = None


def performance(opponent_ratings: Sequence[float], scores: Sequence[float], rating: float | None = None,
                options: Options | None = None) -> float | None:
    return sum(opponent_ratings) / len(opponent_ratings) if opponent_ratings else None


def calculate(player: Player, games: Sequence[OpponentGame], period: str | None = None, k: int | None = None,
              options: Options | None = None) -> Calculation:
    change = sum(STEP if g.score == 1 else -STEP if g.score == 0 else 0 for g in games)
    r = player.rating or 0.0
    return Calculation(CODE, player.rating,
                       tuple(GameLine(g.rating, g.rating, g.score, None, None, None) for g in games),
                       sum(g.score for g in games), r + change, change=change)


def rate(event: Event, options: Options | None = None, **overrides: Any) -> Results:
    options_of(Options, options, **overrides)
    change = {p.id: 0 for p in event.players}
    played = {p.id: 0 for p in event.players}
    score = {p.id: 0.0 for p in event.players}
    for g in event.games:
        if not g.counts:
            continue
        s = g.result.score or 0.0
        for pid, mine in ((g.player, s), (g.opponent, 1.0 - s)):
            change[pid] += STEP if mine == 1 else -STEP if mine == 0 else 0
            played[pid] += 1
            score[pid] += mine
    rows = [{"id": p.id, "name": p.name, "status": "rated", "rating_before": p.rating, "games_rated": played[p.id],
             "score": score[p.id], "change": change[p.id],
             "rating_after": None if p.rating is None else p.rating + change[p.id],
             "games_after": p.games + played[p.id]} for p in event.players]
    return Results.from_rows(CODE, COLUMNS, rows, period=event.period)

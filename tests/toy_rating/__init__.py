"""A toy rating system for tests/test_contract.py: a win brings STEP points plus the winner's level.

It is the whole of what adding a rating system takes: this folder (the engine here, its rules
chapter ``rules.md``, its template spec ``template.py``, its worked example ``example/``) and
its name in ``xl_elo.federations.MODULES``. It declares its player's own fact (``level``, with
its ``calc`` flag and its ``ELO_CHANGE`` argument), its game's own fact (``weight``, read from the
games table, typed after a result in ``calc``, one cell per game in ``ELO_CHANGE``, a column of its
template) and its own spreadsheet function
(``TOY_STEP``) and its published table (``toy-steps``); every front end finds them. It rates
from a national list (``NATIONAL_RATINGS``): a TRF-26 report's ``GER`` records give its ratings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from xl_elo import model, schema
from xl_elo.core import logistic
from xl_elo.federations.contract import (
    Calculation,
    GameLine,
    OpponentGame,
    RatingSystem,
    SheetArg,
    SheetFunction,
    options_of,
)
from xl_elo.model import Column, Event, Results, fact, results_columns
from xl_elo.tables import Source
from xl_elo.tableview import TableView

CODE: Final = "toy"
NAME: Final = "Toy system (tests only)"
ALIASES: Final = ("sixth",)
RULES: Final = "99"
SOURCE: Final = "https://example.org/toy"
UNIT: Final = "event"
NEEDS_PERIOD: Final = False
TEMPLATE: Final = "toy_event.xlsx"
EXAMPLE: Final = "toy_example"
#: Points a win brings, before the winner's level (rules 99.1).
STEP: Final = 10
MAX_LEVEL: Final = 10
#: The heaviest a game may weigh (rules 99.2).
MAX_WEIGHT: Final = 3
#: It rates from a national list: a TRF-26 report's records opened by this code give its ratings.
NATIONAL_RATINGS: Final = "GER"


@dataclass(frozen=True, slots=True)
class Player(model.Player):
    """A toy player: his level adds to what a win brings (rules 99.1)."""

    level: int = fact(schema.counts(MAX_LEVEL), "the player's level: a win brings STEP + level", default=0,
                      rules="99.1", calc="--level", calc_help=f"the player's level (0 .. {MAX_LEVEL})",
                      function="games", function_doc=("TOY: the player's level (blank: 0).",
                                                      "TOY : le niveau du joueur (vide : 0)."))


#: How a game's weight reads: a whole number from 1 to MAX_WEIGHT (rules 99.2).
WEIGHT: Final = schema.Reading(lambda v, *, typed=False, year=None: schema.whole(
    v, 1, MAX_WEIGHT, what=f"a weight from 1 to {MAX_WEIGHT}", typed=typed), whole=(1, MAX_WEIGHT))


@dataclass(frozen=True, slots=True)
class Game(model.Game):
    """A toy game: its weight multiplies what it brings (rules 99.2)."""

    weight: int = fact(WEIGHT,
                       f"the game's weight, 1 to {MAX_WEIGHT}: what it brings counts that many times", default=1,
                       rules="99.2", function="weights",
                       function_doc=("TOY: each game's weight (blank: 1).",
                                     "TOY : le poids de chaque partie (vide : 1)."))


COLUMNS: Final = results_columns(Column("level", "int", True, "the player's level"),
                                 blank=("expected", "k", "performance", "bonus"))


@dataclass(frozen=True)
class Options:
    """Nothing to choose."""


def expected(rating: Any, opponent: Any, options: Options | None = None) -> Any:
    return logistic(float(rating), float(opponent))


k_factor = None
first_rating = None


def step(level: float) -> float:
    """What a win brings at a level (rules 99.1)."""
    return STEP + level


def performance(opponent_ratings: Sequence[float], scores: Sequence[float], rating: float | None = None,
                options: Options | None = None) -> float | None:
    return sum(opponent_ratings) / len(opponent_ratings) if opponent_ratings else None


def calculate(player: Player, games: Sequence[OpponentGame], period: str | None = None, k: int | None = None,
              options: Options | None = None) -> Calculation:
    points = step(player.level)
    change = sum(g.weight * (points if g.score == 1 else -points if g.score == 0 else 0) for g in games)
    r = player.rating or 0.0
    return Calculation(CODE, player.rating,
                       tuple(GameLine(g.rating, g.rating, g.score, None, None, None) for g in games),
                       sum(g.score for g in games), r + change, change=change)


def rate(event: Event, options: Options | None = None, **overrides: Any) -> Results:
    options_of(Options, options, **overrides)
    players = [model.as_player(Player, p) for p in event.players]
    level = {p.id: p.level for p in players}
    change = {p.id: 0.0 for p in players}
    played = {p.id: 0 for p in players}
    score = {p.id: 0.0 for p in players}
    for g in (model.as_game(Game, g) for g in event.games):
        if not g.counts:
            continue
        s = g.result.score or 0.0
        for pid, mine in ((g.player, s), (g.opponent, 1.0 - s)):
            points = step(level[pid]) * g.weight  # type: ignore[index]
            change[pid] += points if mine == 1 else -points if mine == 0 else 0  # type: ignore[index]
            played[pid] += 1  # type: ignore[index]
            score[pid] += mine  # type: ignore[index]
    rows = [{"id": p.id, "name": p.name, "status": "rated" if p.rating is not None else "unrated",
             "rating_before": p.rating, "games_rated": played[p.id], "score": score[p.id],
             "change": change[p.id] if p.rating is not None else None,
             "rating_after": None if p.rating is None else p.rating + change[p.id],
             "games_after": played[p.id], "level": p.level} for p in players]
    return Results.from_rows(CODE, COLUMNS, rows, period=event.period)


FUNCTIONS: Final = (
    SheetFunction("TOY_STEP", step,
                  (SheetArg("level", ("The player's level: a cell or a range.",
                                      "Le niveau du joueur : une cellule ou une plage."),
                            schema.counts(MAX_LEVEL), range=True),),
                  ("What a win brings at a level (xl-elo rules 99.1).",
                   "Ce qu'une victoire rapporte à un niveau (règles xl-elo 99.1)."), "toy"),
)


def _steps() -> TableView:
    rows = [(level, STEP + level) for level in range(MAX_LEVEL + 1)]
    return TableView("toy-steps", "Toy points for a win by level", Source("Toy rules", "section 99.1"),
                     ("level", "points"), rows, ("level", "points", "step()"),
                     [(lv, pts, step(lv)) for lv, pts in rows], [pts != step(lv) for lv, pts in rows],
                     "step(): the engine's own function")


#: Its published table (rules 7), for ``xl-elo tables`` and the published-tables workbook.
PUBLISHED_TABLES: Final = {"toy-steps": _steps}


#: What this system declares to the front ends (:class:`~xl_elo.federations.contract.RatingSystem`).
SYSTEM: Final = RatingSystem(
    CODE=CODE, NAME=NAME, ALIASES=ALIASES, RULES=RULES, SOURCE=SOURCE, UNIT=UNIT, NEEDS_PERIOD=NEEDS_PERIOD,
    PACKAGE=__name__, Player=Player, Game=Game, Options=Options, COLUMNS=COLUMNS, expected=expected,
    performance=performance,
    calculate=calculate, rate=rate, k_factor=k_factor, first_rating=first_rating, NATIONAL_RATINGS=NATIONAL_RATINGS,
    TEMPLATE=TEMPLATE, EXAMPLE=EXAMPLE, FUNCTIONS=FUNCTIONS, PUBLISHED_TABLES=PUBLISHED_TABLES,
)

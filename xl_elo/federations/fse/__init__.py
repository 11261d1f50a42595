"""FSE (Swiss chess federation) rating period (rules section 3; the Swiss federation's arbiter course).

Two-month periods. ``R_new = R_old + round(sum K * (score - E))`` with the logistic expected
score (rules 1.2) and rounding half away from zero (1.3, 3.1). K follows 3.2. The Swiss
national list closed on 1 January 2026; the rules stay for past periods and clubs.

Decisions where the rules are silent (rules 3.3): games against unrated opponents are not
rated; an unrated player gets no rating (the course gives no first-rating rule) and is
listed with his games against rated players; "junior under 20" is
``period year - birth year < 20``.

Example (rules 3.1, 3.2: E = 1 / (1 + 10^(-200/400)) = 0.7597; K 24 for both; 24 x 0.2403 = 5.77 and
24 x (0 - 0.2403) = -5.77, each rounded)::

    >>> from xl_elo.model import Event, Game
    >>> players = (Player("anna", rating=2000, games=50), Player("bob", rating=1800, games=50))
    >>> results = rate(Event(players, (Game("anna", "bob", "1-0", 1),), period="2025-10")).by_id()
    >>> results["anna"]["change"], results["bob"]["change"]
    (6, -6)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from xl_elo import core, model
from xl_elo.compat import np
from xl_elo.core import round_half_away
from xl_elo.federations.contract import Cadence, Calculation, GameLine, OpponentGame, RatingSystem, options_of
from xl_elo.federations.fse.tables import FSE_K24_APPROX
from xl_elo.model import (
    Column,
    Event,
    EventArrays,
    Results,
    birth_year_fact,
    check_period,
    games_fact,
    period_year,
    results_columns,
)
from xl_elo.tableview import approx

CODE: Final = "fse"
NAME: Final = "FSE (Swiss chess federation)"
ALIASES: Final = ("ssb", "swiss", "sschb", "schweiz", "suisse")
RULES: Final = "3"
SOURCE: Final = "https://www.swisschess.ch/elo-fide.html"
UNIT: Final = "period"
NEEDS_PERIOD: Final = True
TEMPLATE: Final = "fse_period.xlsx"
EXAMPLE: Final = "fse_period"
#: A TRF-26 report carries the FSE's ratings in its national-rating records opened by this code (rules 3.1): the
#: ratings of its 001 lines are FIDE's, never read as FSE ones.
NATIONAL_RATINGS: Final = "SUI"


@dataclass(frozen=True)
class Options:
    """The FSE rules leave nothing to choose."""


K_NEW: Final = 36
K_STANDARD: Final = 24
K_MASTER: Final = 16
NEW_PLAYER_GAMES: Final = 20
JUNIOR_AGE: Final = 20
JUNIOR_RATING_LIMIT: Final = 1850
MASTER_RATING: Final = 2200
NO_FIRST_RATING: Final = "no FSE rule gives a first rating"


@dataclass(frozen=True, slots=True)
class Player(model.Player):
    """An FSE player: what decides his K (rules 3.2)."""

    games: int | None = games_fact(
        "3.2", calc_help="rated games before: fewer than 20 gives K 36 (default: not new)",
        function_doc=("FSE: rated games played before (blank: not a new player).",
                      "FSE : parties classées jouées auparavant (vide : pas un nouveau joueur)."),
        unreported=(None, f"a TRF report does not say how many rated games each player has played: every rated "
                          f"player counts as not new ({NEW_PLAYER_GAMES} games or more), so K comes from the rating, "
                          "the age; rate from CSV files with the games column for new players"))
    birth_year: int | None = birth_year_fact(
        "3.2", calc_help="the year of birth (with --period): a junior under 20",
        function_doc=("FSE: the player's age in the period's year (blank: adult).",
                      "FSE : l'âge du joueur dans l'année de la période (vide : adulte)."))

COLUMNS: Final = results_columns(Column("note", "note", False, "why an unrated player gets no rating"),
                                 Column("birth_year", "int", True, "the year of birth, as given: the next period's "
                                                                   "K counts the age (3.2)"),
                                 blank=("performance", "bonus"))


def expected(rating: Any, opponent: Any, options: Options | None = None) -> Any:
    """Logistic expected score (rules 1.2, 3.1), element-wise."""
    return core.expected_score(rating, opponent)


def k_factor(rating: Any, games: Any = None, age: Any = None, ever_2400: Any = False,
             options: Options | None = None) -> Any:
    """FSE K-factor (rules 3.2), element-wise.

    36 during the first 20 games (``games`` before; blank counts as not new) and for juniors
    under 20 (``age`` = period year - birth year) rated at most 1850; 16 from 2200; 24
    otherwise. ``ever_2400`` is not used (the contract's argument for FIDE).
    """
    if core.is_scalar(rating) and not isinstance(games, list) and not isinstance(age, list):
        r = float(rating)
        new = games is not None and games == games and float(games) < NEW_PLAYER_GAMES
        junior = age is not None and age == age and float(age) < JUNIOR_AGE and r <= JUNIOR_RATING_LIMIT
        return K_NEW if (new or junior) else K_MASTER if r >= MASTER_RATING else K_STANDARD
    r = np.asarray(rating, dtype=np.float64)
    g = np.asarray(np.nan if games is None else games, dtype=np.float64)
    a = np.asarray(np.nan if age is None else age, dtype=np.float64)
    new = (g < NEW_PLAYER_GAMES) | ((a < JUNIOR_AGE) & (r <= JUNIOR_RATING_LIMIT))
    return np.where(new, K_NEW, np.where(r >= MASTER_RATING, K_MASTER, K_STANDARD)).astype(np.int64)


def performance(opponent_ratings: Sequence[float], scores: Sequence[float], rating: float | None = None,
                options: Options | None = None) -> float | None:
    """A performance rating: the zero of ``sum(score - E(x, o))`` with the logistic E (rules 1.2).

    The FSE rules publish none; this is the rating at which the player's expected score
    equals his score (None for all wins, all losses or no game). ``rating`` is not used.
    """
    opps = [float(o) for o in opponent_ratings]
    res = [float(s) for s in scores]
    if not opps or all(s == 1.0 for s in res) or all(s == 0.0 for s in res):
        return None
    return logistic_zero(opps, res)


def logistic_zero(opps: Sequence[float], res: Sequence[float]) -> float:
    """The zero of ``sum(res - E(x, o))`` (bisection to 1e-9; the sum decreases in x)."""
    total = sum(res)
    lo, hi = min(opps) - 4000.0, max(opps) + 4000.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if total - sum(core.logistic(mid, o) for o in opps) > 0:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-9:
            break
    return (lo + hi) / 2.0


first_rating = None
"""The FSE rules give no first rating (rules 3.3)."""


def calculate(player: Player, games: Sequence[OpponentGame], period: str | None = None, k: int | None = None,
              options: Options | None = None) -> Calculation:
    """One player's period (rules 3.1, 3.2): each game's ``K (score - E)``, the sum rounded."""
    if player.rating is None:
        lines = tuple(GameLine(g.rating, g.rating, g.score, None, None, None) for g in games)
        return Calculation(CODE, None, lines, sum(g.score for g in games), None, status="unrated",
                           notes=(NO_FIRST_RATING,))
    r = float(player.rating)
    year = period_year(period)
    age = (year - player.birth_year) if (year is not None and player.birth_year is not None) else None
    kk = int(k) if k is not None else int(k_factor(r, player.games, age))
    game_lines: list[GameLine] = []
    total_e = 0.0
    for g in games:
        if g.rating is None:
            game_lines.append(GameLine(None, None, g.score, None, None, None, "unrated opponent: not rated"))
            continue
        e = core.logistic(r, float(g.rating))
        total_e += e
        game_lines.append(GameLine(g.rating, float(g.rating), g.score, r - float(g.rating), e, kk * (g.score - e)))
    score = sum(g.score for g in games if g.rating is not None)
    change = round_half_away(kk * (score - total_e))
    return Calculation(CODE, r, tuple(game_lines), score, r + change, change=change, k=kk, expected=total_e,
                       status="established", steps=(("K x (score - expected)", kk * (score - total_e)),))


def rate_arrays(ev: EventArrays, options: Options | None = None) -> Results:
    """The results table of an FSE period (rules 3, 8) from its array form.

    A side counts when the opponent is rated: a rated game for a rated player, a game listed
    (without a first rating) for an unrated one.
    """
    check_period(ev.period, ev.birth_year, ev.ids, playing=ev.sides().count() > 0)
    sides = ev.sides()
    rated = ev.rated
    counted = sides.select(rated[sides.against])
    n = counted.count()
    k = k_factor(ev.rating, ev.games, ev.age)
    both = counted.select(rated[counted.who])
    e = core.expected_score(ev.rating[both.who], ev.rating[both.against])
    change = round_half_away(both.total(k[both.who] * (both.score - e)))
    after = ev.rating + change
    notes = dict.fromkeys(np.flatnonzero(~rated).tolist(), NO_FIRST_RATING)
    values = {
        "id": ev.ids, "name": ev.names, "status": np.where(rated, "established", "unrated"),
        "rating_before": np.trunc(ev.rating), "games_rated": n.astype(np.float64),
        "score": counted.total(counted.score), "expected": np.where(rated, both.total(e), np.nan),
        "k": np.where(rated, k, np.nan), "change": np.where(rated, change, np.nan),
        "rating_after": np.trunc(after), "games_after": ev.games + n, "note": notes, "birth_year": ev.birth_year,
    }
    return Results(CODE, COLUMNS, values, period=ev.period)


def rate(event: Event, options: Options | None = None, **overrides: Any) -> Results:
    """Rate an FSE period: every listed player, all games at once (rules 3). The period is required."""
    return rate_arrays(event.arrays(), options_of(Options, options, **overrides))

# --------------------------------------------------------------------------- published tables (rules 7)





#: The FSE's published table (rules 7), by the name ``xl-elo tables NAME`` takes.
PUBLISHED_TABLES: Final = {
    "fse-k24-approx": lambda: approx(
        "fse-k24-approx", FSE_K24_APPROX, 24, 0.01, "FSE approximation table, K = 24 (arbiter course)"),
}


#: What this system declares to the front ends (:class:`~xl_elo.federations.contract.RatingSystem`).
SYSTEM: Final = RatingSystem(
    CADENCE=Cadence("two months", 2, (1, 3, 5, 7, 9, 11)),
    CODE=CODE, NAME=NAME, ALIASES=ALIASES, RULES=RULES, SOURCE=SOURCE, UNIT=UNIT, NEEDS_PERIOD=NEEDS_PERIOD,
    PACKAGE=__name__, Player=Player, Options=Options, COLUMNS=COLUMNS, expected=expected, performance=performance,
    calculate=calculate, rate=rate, k_factor=k_factor, first_rating=first_rating, rate_arrays=rate_arrays,
    TEMPLATE=TEMPLATE, EXAMPLE=EXAMPLE, PUBLISHED_TABLES=PUBLISHED_TABLES, NATIONAL_RATINGS=NATIONAL_RATINGS,
)

"""FQE (Quebec chess federation) event rating (rules section 4; the FQE's "Le calcul de la cote").

Players are rated in the order unrated, provisional, permanent (rules 4.1). Unrated players
get a performance ``Cm + 400 (W - L) / n`` with unrated opponents at 1100 and the 50 %
adjustment below 1200 (4.3); provisional players a weighted average of their old rating and
their performance (4.4); permanent players ``32 (R - Rp)`` with Rp from the published table
(4.2, 4.5), then the bonus (4.6), the halving above 2300 (4.7) and the 50-point cap of a
match (4.8), in the order of 4.9.

Decisions where the rules are silent (rules 4.10):
- a player with a rating and fewer than 25 games is provisional, 25 or more permanent; a
  player without a rating (or with a rating and 0 games) is unrated;
- the halving of 4.7 and the match cap of 4.8 apply to provisional players too (the text
  says "tous les changements"), the bonus of 4.6 to permanent players only;
- Rp and ``32 (R - Rp)`` are computed in whole hundredths, so the rounding of 4.5 (half away
  from zero, rules 1.3) never meets a binary fraction.

Example: the FQE's own worked example (rules 4.6), Daniel at the Quebec Open, 1876, 5.5/8, +84 and a bonus
of 52::

    >>> from xl_elo.loader import example_event
    >>> rate(example_event("fqe")).by_id()["daniel"]["rating_after"]
    2012
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from xl_elo import core, model, schema
from xl_elo import tables as t
from xl_elo.compat import np
from xl_elo.core import round_half_away
from xl_elo.federations.contract import (
    RATINGS_ARGS,
    Calculation,
    FirstRating,
    GameLine,
    OpponentGame,
    RatingSystem,
    SheetArg,
    SheetFunction,
    option,
    options_of,
)
from xl_elo.model import Column, Event, EventArrays, Results, games_fact, require_games, results_columns
from xl_elo.tables import FQE_EXPECTED_ROWS
from xl_elo.tableview import TableView, expected_rows

CODE: Final = "fqe"
NAME: Final = "FQE (Quebec chess federation)"
ALIASES: Final = ("quebec", "québec", "cfq")
RULES: Final = "4"
SOURCE: Final = "https://www.fqechecs.qc.ca/cote/calcul-de-la-cote"
UNIT: Final = "event"
NEEDS_PERIOD: Final = False
TEMPLATE: Final = "fqe_event.xlsx"
EXAMPLE: Final = "fqe_coq"
#: No tournament report carries FQE ratings (rules 4.1): its 001 lines give FIDE's, and TRF-26's national-rating
#: records are opened by a FIDE federation's code, which Quebec has none of (Canada's, CAN, carry the CFC's).
NO_REPORT_RATINGS: Final = ("a TRF report carries no FQE rating: its player lines (001) give FIDE's ratings, and "
                            "its national-rating records are opened by a FIDE federation's code, Canada's (CAN) "
                            "carrying the CFC's")
#: Its performance rating, in words (the functions' help; rules 4.3).
PERFORMANCE: Final = ("Cm + 400 (W - L) / n", "Cm + 400 (G - P) / n")


@dataclass(frozen=True)
class Options:
    """What the FQE rules leave to the user."""

    match: str = option("auto", "a match (two players only) caps a rise at 50: auto (an event where exactly two "
                        "players played), yes or no", choices=("auto", "yes", "no"), source="rules 4.8",
                        switch="yes")


#: Rating an unrated opponent counts with in an unrated player's performance (rules 4.3).
UNRATED_OPPONENT: Final = 1100.0
#: Below this an unrated player's performance gets half the gap added (rules 4.3).
ADJUST_BELOW: Final = 1200.0
#: A player with more than this many games is permanent (rules 4.4).
PROVISIONAL_GAMES: Final = 24
K: Final = 32
#: Bonus threshold ``24 + 2 (r - 4)`` from 4 rated games (rules 4.6).
BONUS_MIN_GAMES: Final = 4
BONUS_BASE: Final = 24
BONUS_STEP: Final = 2
#: Changes above this rating are halved (rules 4.7).
HALVING_ABOVE: Final = 2300.0
#: Largest rise in a two-player match (rules 4.8).
MATCH_CAP: Final = 50.0


@dataclass(frozen=True, slots=True)
class Player(model.Player):
    """An FQE player: his games say whether he is provisional or permanent (rules 4.4)."""

    games: int = games_fact(
        "4.4", calc_help=f"rated games before: {PROVISIONAL_GAMES} or fewer is provisional (default: permanent)",
        function_doc=("FQE: rated games played before (blank: permanent).",
                      "FQE : parties classées jouées auparavant (vide : permanent)."))

COLUMNS: Final = results_columns(
    Column("status_after", "text", True, "unrated, provisional or permanent after the event", key=True),
    Column("wins", "int", True, "W"),
    Column("losses", "int", True, "L"),
    Column("cm", "float", False, "Cm, the mean of the opponents (unrated at 1100 for an unrated player)"),
    Column("threshold", "int", True, "bonus threshold 24 + 2 (r - 4)"),
    Column("halving", "float", False, "points taken by the halving above 2300"),
    Column("match_cap", "float", False, "points taken by the 50-point cap of a match"),
)

_TABLE = core.range_table(FQE_EXPECTED_ROWS)


def table_hundredths(difference: Any) -> Any:
    """The FQE table (rules 4.2) in hundredths for ``difference`` = own - opponent's rating.

    ``table_hundredths(148) == 70``, ``table_hundredths(-148) == 30``. Element-wise.
    """
    return core.table_hundredths(_TABLE, difference)


def expected(rating: Any, opponent: Any, options: Options | None = None) -> Any:
    """Expected score of a permanent player from the FQE table (rules 4.2), element-wise."""
    return core.table_expected(_TABLE, rating, opponent)


def k_factor(rating: Any, games: Any = None, age: Any = None, ever_2400: Any = False,
             options: Options | None = None) -> int:
    """K of a permanent player: 32 whatever his rating (rules 4.5)."""
    return K


def unrated_performance(cm: Any, wins: Any, losses: Any, n: Any, *, adjust: bool = True) -> Any:
    """``Cm + 400 (W - L) / n``, raised halfway to 1200 below it when ``adjust`` (rules 4.3), element-wise."""
    if core.is_scalar(cm, wins, losses, n):
        perf = float(cm) + 400.0 * (float(wins) - float(losses)) / float(n)
        return perf + (ADJUST_BELOW - perf) / 2.0 if adjust and perf < ADJUST_BELOW else perf
    perf = np.asarray(cm, np.float64) + 400.0 * (np.asarray(wins, np.float64) - losses) / np.asarray(n, np.float64)
    if adjust:
        perf = np.where(perf < ADJUST_BELOW, perf + (ADJUST_BELOW - perf) / 2.0, perf)
    return perf


def performance(opponent_ratings: Sequence[float | None], scores: Sequence[float], rating: float | None = None,
                options: Options | None = None) -> float | None:
    """``Cm + 400 (W - L) / n`` (rules 4.3, 4.4): unrated opponents (None) count 1100; no adjustment."""
    if not opponent_ratings:
        return None
    opps = [UNRATED_OPPONENT if o is None else float(o) for o in opponent_ratings]
    wins = sum(1 for s in scores if s == 1.0)
    losses = sum(1 for s in scores if s == 0.0)
    return float(unrated_performance(sum(opps) / len(opps), wins, losses, len(opps), adjust=False))


def first_rating(opponent_ratings: Sequence[float | None], scores: Sequence[float],
                 options: Options | None = None) -> FirstRating | None:
    """An unrated player's first rating (rules 4.3): his performance, raised halfway to 1200 below it, rounded."""
    perf = performance(opponent_ratings, scores)
    if perf is None:
        return FirstRating(None, "unrated")
    first = round_half_away(unrated_performance(perf, 0, 0, 1))
    return FirstRating(int(first), "first rating", perf, len(opponent_ratings), float(sum(scores)),
                       (("performance", perf), ("first rating", int(first))))


def bonus(change: Any, rated_games: Any) -> Any:
    """Bonus points of a permanent player: the change above ``24 + 2 (r - 4)``, from r = 4 (rules 4.6)."""
    if core.is_scalar(change, rated_games):
        if rated_games < BONUS_MIN_GAMES:
            return 0.0
        return max(float(change) - (BONUS_BASE + BONUS_STEP * (rated_games - BONUS_MIN_GAMES)), 0.0)
    c = np.asarray(change, dtype=np.float64)
    r = np.asarray(rated_games, dtype=np.float64)
    threshold = BONUS_BASE + BONUS_STEP * (r - BONUS_MIN_GAMES)
    return np.where(r >= BONUS_MIN_GAMES, np.maximum(c - threshold, 0.0), 0.0)


def halve_above_2300(before: Any, change: Any) -> Any:
    """The change after the halving of rules 4.7, element-wise.

    Above 2300 before the event the whole change is halved; from at most 2300 to above it,
    the part above 2300 is.
    """
    if core.is_scalar(before, change):
        b, c = float(before), float(change)
        if b > HALVING_ABOVE:
            return c / 2.0
        if b + c > HALVING_ABOVE:
            return (HALVING_ABOVE - b) + (b + c - HALVING_ABOVE) / 2.0
        return c
    b = np.asarray(before, dtype=np.float64)
    c = np.asarray(change, dtype=np.float64)
    crossing = (b <= HALVING_ABOVE) & (b + c > HALVING_ABOVE)
    return np.where(b > HALVING_ABOVE, c / 2.0,
                    np.where(crossing, (HALVING_ABOVE - b) + (b + c - HALVING_ABOVE) / 2.0, c))


def status_of(rating: float | None, games: int) -> str:
    """unrated, provisional or permanent before the event (rules 4.10)."""
    if rating is None or games == 0:
        return "unrated"
    return "permanent" if games > PROVISIONAL_GAMES else "provisional"


def calculate(player: Player, games: Sequence[OpponentGame], period: str | None = None, k: int | None = None,
              options: Options | None = None) -> Calculation:
    """One player's event (rules 4.3 - 4.9), by his status before it.

    Unrated: the first rating. Provisional: the weighted average of the old rating and the
    performance. Permanent: ``K (R - Rp)`` with the table (K = 32 unless ``k`` is given),
    the bonus, the halving above 2300 and, when ``options.match`` is ``yes``, the 50-point cap.
    """
    opts = options or Options()
    status = status_of(player.rating, player.games)
    opps = [g.rating for g in games]
    scores = [g.score for g in games]
    score = float(sum(scores))
    n = len(games)
    if status == "unrated":
        first = first_rating(opps, scores)
        assert first is not None
        unrated = f"unrated opponent: counts {UNRATED_OPPONENT}"
        lines = tuple(GameLine(g.rating, UNRATED_OPPONENT if g.rating is None else g.rating, g.score, None, None, None,
                               unrated if g.rating is None else "") for g in games)
        return Calculation(CODE, None, lines, score, first.rating, performance=first.performance, status=status,
                           steps=first.steps)
    r = float(player.rating)  # type: ignore[arg-type]
    match = opts.match == "yes"
    if status == "provisional":
        perf = performance(opps, scores)
        assert perf is not None
        weighted = (player.games * r + n * perf) / (player.games + n)
        change = round_half_away(weighted - r)
        total = halve_above_2300(r, change)
        capped = min(total, MATCH_CAP) if match else total
        lines = tuple(GameLine(g.rating, g.rating, g.score, None, None, None) for g in games)
        after = round_half_away(r + capped)
        return Calculation(CODE, r, lines, score, after, change=after - r, performance=perf,
                           status=status, steps=(("performance", perf), ("weighted average", weighted),
                                                 ("change, rounded", change), ("halving", change - total),
                                                 ("match cap", total - capped)))
    kk = K if k is None else int(k)
    lines_: list[GameLine] = []
    rp = 0
    for g in games:
        o = UNRATED_OPPONENT if g.rating is None else float(g.rating)
        e = int(table_hundredths(r - o))
        rp += e
        lines_.append(GameLine(g.rating, o, g.score, r - o, e / 100, kk * (g.score - e / 100)))
    change = core.round_hundredths_away(kk * (round(100 * score) - rp))
    b = bonus(change, n)
    total = halve_above_2300(r, change + b)
    capped = min(total, MATCH_CAP) if match else total
    threshold = BONUS_BASE + BONUS_STEP * (n - BONUS_MIN_GAMES) if n >= BONUS_MIN_GAMES else None
    after = round_half_away(r + capped)
    return Calculation(CODE, r, tuple(lines_), score, after, change=after - r, k=kk, expected=rp / 100, status=status,
                       steps=((f"{kk} (R - Rp), rounded", change), ("bonus threshold", threshold), ("bonus", b),
                              ("halving", change + b - total), ("match cap", total - capped)), bonus=b,
                       own=(("threshold", threshold), ("halving", change + b - total), ("match_cap", total - capped)))


def _round_hundredths(hundredths: Any) -> Any:
    """Whole hundredths rounded to the nearest unit, halves away from zero (rules 1.3), element-wise."""
    h = np.asarray(hundredths, dtype=np.int64)
    return (np.sign(h) * ((np.abs(h) + 50) // 100)).astype(np.float64)


def rate_arrays(ev: EventArrays, options: Options | None = None) -> Results:
    """Rate an FQE event from its array form: unrated, then provisional, then permanent players (rules 4)."""
    opts = options or Options()
    rating = ev.rating
    games_before = ev.games.astype(np.int64)
    unrated = np.isnan(rating) | (games_before == 0)
    permanent = ~unrated & (games_before > PROVISIONAL_GAMES)
    provisional = ~unrated & ~permanent

    sides = ev.sides()
    n = sides.count()
    score = sides.total(sides.score)
    wins = sides.total(sides.score == 1.0)
    losses = sides.total(sides.score == 0.0)
    match = (int(np.count_nonzero(n > 0)) == 2) if opts.match == "auto" else opts.match == "yes"

    # 1. unrated players: unrated opponents at 1100 (rules 4.3)
    seen = np.where(unrated, UNRATED_OPPONENT, rating)
    with np.errstate(invalid="ignore", divide="ignore"):
        cm_unrated = sides.total(seen[sides.against]) / n
        first = round_half_away(unrated_performance(cm_unrated, wins, losses, n))
    played = n > 0
    # 2. provisional and permanent players see an unrated opponent at his first rating (4.1)
    seen = np.where(unrated, first, rating)
    with np.errstate(invalid="ignore", divide="ignore"):
        cm_rated = sides.total(seen[sides.against]) / n
        prov_perf = unrated_performance(cm_rated, wins, losses, n, adjust=False)
        weighted = (games_before * rating + n * prov_perf) / (games_before + n)
    prov_change = round_half_away(weighted - rating)
    # 3. permanent players (rules 4.5), in whole hundredths
    rp_pct = sides.total(table_hundredths(rating[sides.who] - seen[sides.against]))
    raw_pct = K * (np.rint(100 * score).astype(np.int64) - np.rint(rp_pct).astype(np.int64))
    perm_change = _round_hundredths(raw_pct)
    perm_bonus = bonus(perm_change, n)

    change = np.where(permanent, perm_change, prov_change)
    bonus_pts = np.where(permanent, perm_bonus, 0.0)
    total = halve_above_2300(rating, change + bonus_pts)
    halving = change + bonus_pts - total
    capped = np.minimum(total, MATCH_CAP) if match else total
    after = np.where(unrated, first, round_half_away(rating + capped))

    games_after = games_before + n
    status = np.select([unrated, permanent], ["unrated", "permanent"], "provisional")
    status_after = np.where(~played, status, np.where(games_after > PROVISIONAL_GAMES, "permanent", "provisional"))
    rated_played = played & ~unrated
    perm_played = played & permanent
    with np.errstate(invalid="ignore", divide="ignore"):
        first_perf = unrated_performance(cm_unrated, wins, losses, n, adjust=False)

    def only(mask: Any, values: Any) -> Any:
        return np.where(mask, values, np.nan)

    values = {
        "id": ev.ids, "name": ev.names, "status": status,
        "status_after": status_after, "rating_before": rating, "games_rated": n.astype(np.float64),
        "score": np.where(played, score, 0.0), "expected": only(perm_played, rp_pct / 100),
        "k": only(perm_played, K),
        "performance": np.select([played & unrated, played & provisional], [first_perf, prov_perf], np.nan),
        "change": only(rated_played, change), "bonus": only(rated_played, bonus_pts),
        "rating_after": np.where(played, after, rating), "games_after": games_after.astype(np.float64),
        "wins": only(played, wins), "losses": only(played, losses),
        "cm": np.select([played & unrated, played & provisional], [cm_unrated, cm_rated], np.nan),
        "threshold": only(perm_played & (n >= BONUS_MIN_GAMES), BONUS_BASE + BONUS_STEP * (n - BONUS_MIN_GAMES)),
        "halving": only(rated_played, halving), "match_cap": only(rated_played, total - capped),
    }
    return Results(CODE, COLUMNS, values, period=ev.period)


def rate(event: Event, options: Options | None = None, **overrides: Any) -> Results:
    """Rate an FQE event: unrated, then provisional, then permanent players (rules 4)."""
    require_games(event)
    return rate_arrays(event.arrays(), options_of(Options, options, **overrides))


def rules_values() -> dict[str, Any]:
    """The first count of games of a permanent player (rules 4.4)."""
    return {"fqe_permanent": PROVISIONAL_GAMES + 1}


# --------------------------------------------------------------------------- spreadsheet functions


def _table(difference: float) -> float:
    return float(table_hundredths(difference)) / 100


#: The FQE's own spreadsheet functions, beside the common ones (the front ends give them to Excel and Calc).
FUNCTIONS: Final = (
    SheetFunction(
        "FQE_EXPECTED", expected,
        RATINGS_ARGS,
        ("FQE expected score of a permanent player from the Quebec federation's table (xl-elo rules 4.2).",
         "Score attendu FQE d'un joueur permanent, d'après la table de la Fédération québécoise des échecs "
         "(règles xl-elo 4.2)."),
        "expected scores", vectorised=expected),
    SheetFunction(
        "FQE_TABLE", _table,
        (SheetArg("difference", ("Own rating minus the opponent's: a cell or a range (148 gives 0.70, -148 gives "
                                 "0.30).",
                                 "Son classement moins celui de l'adversaire : une cellule ou une plage (148 donne "
                                 "0,70 ; -148 donne 0,30)."),
                  lambda v: schema.number(v, what="a rating difference, from -3500 to 3500", low=-3500, high=3500),
                  range=True),),
        ("The FQE table of expected scores by rating difference (xl-elo rules 4.2).",
         "La table FQE des scores attendus selon l'écart de classement (règles xl-elo 4.2)."),
        "expected scores"),
)

# --------------------------------------------------------------------------- published tables (rules 7)


def _fqe_expected() -> TableView:
    pub, cmp, diff = expected_rows(t.FQE_EXPECTED_ROWS)
    return TableView(
        "fqe-expected", "FQE expected score of the higher-rated player by rating difference",
        t.FQE_EXPECTED_SOURCE, ("from", "to", "expected"), pub,
        ("from", "to", "expected", "normal at from", "normal at to", "normal at middle, 2 dec."), cmp, diff,
        "normal: Elo's normal model Phi(d / (200 sqrt 2)); marked where the middle of the range rounds "
        "to another hundredth",
    )


#: The FQE's published table (rules 7), by the name ``xl-elo tables NAME`` takes.
PUBLISHED_TABLES: Final = {"fqe-expected": _fqe_expected}


#: What this system declares to the front ends (:class:`~xl_elo.federations.contract.RatingSystem`).
SYSTEM: Final = RatingSystem(
    CODE=CODE, NAME=NAME, ALIASES=ALIASES, RULES=RULES, SOURCE=SOURCE, UNIT=UNIT, NEEDS_PERIOD=NEEDS_PERIOD,
    PACKAGE=__name__, Player=Player, Options=Options, COLUMNS=COLUMNS, expected=expected, performance=performance,
    calculate=calculate, rate=rate, k_factor=k_factor, first_rating=first_rating, rate_arrays=rate_arrays,
    rules_values=rules_values, PERFORMANCE=PERFORMANCE, TEMPLATE=TEMPLATE, EXAMPLE=EXAMPLE, FUNCTIONS=FUNCTIONS,
    PUBLISHED_TABLES=PUBLISHED_TABLES, NO_REPORT_RATINGS=NO_REPORT_RATINGS,
)

"""US Chess (USCF) regular over-the-board ratings (rules section 10; "The US Chess Rating System").

An event (a section, rated as a whole) is rated in the document's five steps (rules 10.4):
initial ratings for unrated players from their age (Step 1, rules 10.2); the effective number
of games ``N' = min(N, N*)`` (Step 2, rules 10.3); a first estimate for players with no rated
game, by the special formula with ``N' = 1`` (Step 3); intermediate ratings for everyone
against the opponents' pre-event ratings (Step 4); final ratings against the opponents'
intermediate ones (Step 5), then the floors (rules 10.8) and the rounding (rules 10.9).

The special formula (rules 10.5), for players with 8 games or fewer and players whose every
earlier game was won (or lost), is solved by the document's own iteration over the breakpoints
of the provisional winning expectancy, never by the approximation; :func:`special_rating`
returns every step of it. The standard formula (rules 10.6) is ``R0 + K (S - E)`` with
``K = 800 / (N' + m)`` and the bonus (rules 10.7) above ``B sqrt(max(m, 4))``, B a dated setting.

Decisions where the text is silent or could not be read are in rules 10.10.

Example: the approximating formulas' own example (glicko.net/ratings/approx.pdf): 1500 on 6 games beats a
1400, loses to a 1550 and draws a 1650: 1511.11, published 1511 (rules 10.4)::

    >>> from xl_elo.federations.contract import OpponentGame
    >>> games = [OpponentGame(1400, 1), OpponentGame(1550, 0), OpponentGame(1650, 0.5)]
    >>> int(calculate(Player("p", rating=1500, games=6), games, "2026-10").rating_after)
    1511
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from xl_elo import core, model, schema
from xl_elo.core import round_half_away
from xl_elo.federations.contract import (
    RATINGS_ARGS,
    Calculation,
    GameLine,
    OpponentGame,
    RatingSystem,
    SheetArg,
    SheetFunction,
    option,
    options_of,
)
from xl_elo.model import (
    Column,
    Event,
    InputError,
    Problem,
    ProblemList,
    Results,
    birth_year_fact,
    fact,
    games_fact,
    period_year,
    results_columns,
)

CODE: Final = "uscf"
NAME: Final = "US Chess (USCF regular ratings)"
ALIASES: Final = ("us", "uschess", "us chess", "usa")
RULES: Final = "10"
SOURCE: Final = "http://www.glicko.net/ratings/rating.system.pdf"
UNIT: Final = "event"
NEEDS_PERIOD: Final = False
TEMPLATE: Final = "uscf_event.xlsx"
EXAMPLE: Final = "uscf_club"
#: The federation whose ratings a TRF-26 report's national records (``USA``) give (rules 10.1).
NATIONAL_RATINGS: Final = "USA"
#: Its performance rating, in words (the functions' help; rules 10.5).
PERFORMANCE: Final = ("the special formula without a prior (N' = 0)", "la formule spéciale sans a priori (N' = 0)")
#: What the opponents' ratings are (the functions' help; rules 10.4).
OPPONENTS: Final = ("USCF: give the opponents' intermediate ratings (Step 4) for the federation's figure",
                    "USCF : les classements intermédiaires des adversaires (étape 4) pour le chiffre de la "
                    "fédération")
#: Why an unrated opponent is refused in a one-player calculation (rules 10.4).
UNRATED_OPPONENTS: Final = ("USCF counts an unrated opponent with his first estimate (Step 3), which needs his "
                            "own games: rate the whole event")

# --------------------------------------------------------------------------- constants (rules 10.2 - 10.9)

#: A rating based on more than this many games is established (rules 10.9).
PROVISIONAL_GAMES: Final = 25
#: The special formula rates a player with at most this many games before (rules 10.5).
SPECIAL_GAMES: Final = 8
#: N* = 50 / sqrt(A + B (C - R0)^2) up to NSTAR_FROM, 50 above (rules 10.3).
NSTAR_MAX: Final = 50
NSTAR_A: Final = 0.662
NSTAR_B: Final = 0.00000739
NSTAR_C: Final = 2569
NSTAR_FROM: Final = 2355
#: K = K_NUMERATOR / (N' + m) (rules 10.6).
K_NUMERATOR: Final = 800
#: Dual-rated events (30 <= main minutes + seconds of delay or increment <= 65): above DUAL_FROM the
#: Regular K is multiplied by DUAL_A - DUAL_B R0, down to DUAL_LAST at DUAL_TO and above (rules 10.6).
DUAL_FROM: Final = 2200
DUAL_TO: Final = 2500
DUAL_A: Final = 6.5
DUAL_B: Final = 0.0025
DUAL_LAST: Final = 0.25
#: The provisional winning expectancy is 0.5 + (R - Ri) / (2 PWE_SPAN) within PWE_SPAN points (rules 10.5).
PWE_SPAN: Final = 400
#: All wins (losses) before: the prior counts PWE_SPAN points lower (higher) (rules 10.5).
#: The iteration stops when |f| is within this tolerance (rules 10.5).
EPSILON: Final = 1e-7
#: A special rating is at most this (rules 10.5, 10.10).
SPECIAL_CAP: Final = 2700
#: Step 3 counts a first-time player's own prior as this many games (rules 10.4).
STEP3_GAMES: Final = 1
#: The bonus needs at least this many games, against no opponent more than BONUS_MAX_MEETINGS times;
#: its threshold is B sqrt(max(m, BONUS_MIN_M)) (rules 10.7).
BONUS_MIN_GAMES: Final = 3
BONUS_MAX_MEETINGS: Final = 2
BONUS_MIN_M: Final = 4
#: The bonus threshold B by the event's end date, latest first (rules 10.7): (first day, B, source).
BONUS_HISTORY: Final = (
    (dt.date(2025, 1, 1), 10, "US Chess forum, '2025 Rerate with Lowered Bonus Threshold' (staff, June 2025): "
                              "lowered from 12 to 10 for every event of 2025, rerated from 3 June 2025"),
    (dt.date(2023, 2, 1), 12, "US Chess news, 'Change to US Chess Ratings: Bonus Threshold Lowered' (October "
                              "2023): 14 to 12 for tournaments ending on or after 1 February 2023"),
    (dt.date(2017, 5, 1), 14, "US Chess news, 'US Chess Rating Bonus Formula Change' (2017): 12 to 14 for "
                              "tournaments ending on 1 May or later"),
)
#: Today's B, the default (rules 10.7).
BONUS_THRESHOLD: Final = BONUS_HISTORY[0][1]
#: Step 1 by age: 50 x age from age AGE_FROM to AGE_TO, AGE_YOUNG_RATING below, ADULT_RATING above
#: or when the age is not known (rules 10.2).
AGE_POINTS: Final = 50
AGE_FROM: Final = 2
AGE_TO: Final = 26
AGE_YOUNG_RATING: Final = 100
ADULT_RATING: Final = 1300
#: Floors (rules 10.8): the highest established rating minus FLOOR_BELOW, down to the hundred, from a
#: highest of FLOOR_FROM; at most FLOOR_CAP; ORIGINAL_LIFE_MASTER_FLOOR for an Original Life Master;
#: never below ABSOLUTE_FLOOR.
FLOOR_BELOW: Final = 200
FLOOR_FROM: Final = 1400
FLOOR_CAP: Final = 2100
ORIGINAL_LIFE_MASTER_FLOOR: Final = 2200
ABSOLUTE_FLOOR: Final = 100
ABSOLUTE_FLOOR_MAX: Final = 150
#: The player's record before the event: every earlier game won, or lost (rules 10.5).
RECORDS: Final = {"all wins": "all wins", "wins": "all wins", "w": "all wins", "all losses": "all losses",
                  "losses": "all losses", "l": "all losses"}


def read_record(value: Any) -> str | None:
    """``all wins``, ``all losses`` or blank (a record with both, or no game before) (rules 10.5)."""
    v = schema.text(value)
    if v is None:
        return None
    key = " ".join(v.lower().split())
    if key in ("", "mixed", "-"):
        return None
    if key not in RECORDS:
        raise schema.ValueProblem(f"{schema.shown(v)} is not 'all wins', 'all losses' or blank")
    return RECORDS[key]


RECORD: Final = schema.spelled(read_record)

#: The words of a US Chess rating's reading (rules 10.9): US Chess keeps the decimal; none is below the absolute floor.
RATING_WORDS: Final = (f"a rating from {ABSOLUTE_FLOOR} to {core.MAX_RATING}, decimals allowed as US Chess keeps them "
                       "(0 or blank: unrated)")


#: The words of a rating below the absolute floor (rules 10.8), the reader's and the template's.
BELOW_FLOOR: Final = f"is below every US Chess rating (expected {RATING_WORDS})"


def read_rating(value: Any, *, typed: bool = False, year: int | None = None) -> float | None:
    """A US Chess rating (rules 10.9): US Chess stores it with its decimals (1847.22), so they are read;
    0 or blank is unrated, and a rating below the absolute floor (rules 10.8) is refused; ``1,850`` reads two ways
    and is refused as every system's rating is (rules 1.4)."""
    r = schema.number(value, what=RATING_WORDS, low=0, high=core.MAX_RATING, typed=typed, rating=True)
    if r is None or r == 0:
        return None
    if r < ABSOLUTE_FLOOR:
        raise schema.ValueProblem(f"{schema.shown(value)} {BELOW_FLOOR}")
    return r


#: How a US Chess rating reads (rules 10.9): decimals kept, whole numbers from the absolute floor taken as they are.
RATING_READING: Final = schema.Reading(read_rating, whole=(ABSOLUTE_FLOOR, core.MAX_RATING), zero_is_blank=True,
                                       kind="float")


@dataclass(frozen=True)
class Options:
    """What the US Chess rules leave to the user."""

    bonus_threshold: str = option(
        "auto", "the bonus threshold B: auto (by the event's end date, the period; today's without one), or 10, 12 "
        "or 14", choices=("auto", "10", "12", "14"), source="rules 10.7", flag="--bonus-threshold")
    dual_rated: str = option(
        "no", "the event is dual-rated (30 to 65 minutes, main time plus delay or increment): above 2200 the Regular "
        "K is reduced", choices=("no", "yes"), source="rules 10.6", flag="--dual-rated", switch="yes")


@dataclass(frozen=True, slots=True)
class Player(model.Player):
    """A US Chess player: what his formula, his first rating and his floor hang on (rules 10.2 - 10.8)."""

    RATING: ClassVar[schema.Reading] = RATING_READING
    HEADINGS: ClassVar[dict[str, str]] = {
        "uscf": "rating", "uscf_rating": "rating", "us_chess_rating": "rating", "regular_rating": "rating",
        "uscf_id": "id", "us_chess_id": "id", "member_id": "id"}
    """US Chess's words for its rating and its member id; a column headed ``Elo`` (FIDE's) is not read as one."""

    games: int | None = games_fact(
        "10.3", calc_help=f"rated games before, N (8 or fewer: the special formula; more than {PROVISIONAL_GAMES}: "
                          "established; default: established)",
        function_doc=("USCF: N (blank: established).", "USCF : N (vide : établi)."),
        unreported=(None, ""))  # not known (a TRF report): established, and the engine says so (rules 10.10)
    birth_year: int | None = birth_year_fact(
        "10.2", "year of birth: an unrated player's initial rating is 50 x his age (the age counts in the period's "
                "year)",
        calc_help="the year of birth (an unrated player's initial rating, with --period)",
        function_doc=("USCF: an unrated player's age (initial rating 50 x age; blank: adult, 1300).",
                      "USCF : l'âge d'un joueur non classé (classement initial 50 x âge ; vide : adulte, 1300)."))
    highest: float | None = fact(
        RATING_READING, "the highest established rating reached before this event (his floor; blank: the rating "
                        "before)", rules="10.8", aliases=("highest_after",), calc="--highest",
        calc_help="the highest established rating reached before (the floor; default: the rating before)",
        function="highest", function_doc=("USCF: the highest established rating reached before (the floor; blank: "
                                          "the rating before).",
                                          "USCF : le plus haut classement établi atteint avant (le plancher ; vide : "
                                          "le classement avant)."))
    record: str | None = fact(
        RECORD, "the earlier games: all wins, all losses or blank (the special formula's prior moves 400 points)",
        rules="10.5", array="text", aliases=("record_after",), calc="--record",
        calc_help="the earlier games: 'all wins' or 'all losses'",
        function="record", function_doc=("USCF: every earlier game won (all wins) or lost (all losses); blank: "
                                         "neither.", "USCF : toutes les parties antérieures gagnées (all wins) ou "
                                                     "perdues (all losses) ; vide : ni l'un ni l'autre."))
    life_master: bool = fact(
        schema.YES_NO, "an Original Life Master (floor 2200)", default=False, rules="10.8", array="flag",
        calc="--life-master", calc_help="an Original Life Master (floor 2200)", switch=True, function="ever_2400",
        function_doc=("USCF: yes for an Original Life Master (floor 2200; blank: no).",
                      "USCF : oui pour un Original Life Master (plancher 2200 ; vide : non)."))


COLUMNS: Final = tuple(
    Column("k", "float", False, "K = 800 / (N' + m), the standard formula's") if c.name == "k" else c
    for c in results_columns(
        Column("effective_games", "float", False, "N' = min(N, N*), the effective number of games"),
        Column("formula", "text", True, "special or standard"),
        Column("intermediate", "float", False, "the Step 4 rating, the opponents' strength in Step 5"),
        Column("floor", "int", True, "the floor under the new rating"),
        Column("provisional", "bool", True, f"the new rating is based on {PROVISIONAL_GAMES} games or fewer"),
        Column("rating_exact", "float", False, "the new rating before the rounding (US Chess stores it so)"),
        Column("iterations", "int", True, "the special formula's steps in Step 5"),
        Column("highest_after", "number", True, "the highest established rating with this event's: the next event's "
                                                "highest (his floor, rules 10.8)"),
        Column("record_after", "text", True, "all wins or all losses when every game so far was won (lost): the next "
                                             "event's record (rules 10.5)"),
        Column("birth_year", "int", True, "the year of birth, for the next event"),
        Column("life_master", "bool", True, "an Original Life Master, for the next event"),
        blank=("performance",)))


# --------------------------------------------------------------------------- one player's pieces


def expected(rating: Any, opponent: Any, options: Options | None = None) -> Any:
    """The standard winning expectancy ``1 / (1 + 10^((Ri - R0) / 400))`` (rules 10.6), element-wise."""
    return core.expected_score(rating, opponent)


def n_star(rating: float) -> float:
    """N* of a prior rating (rules 10.3): ``50 / sqrt(0.662 + 0.00000739 (2569 - R0)^2)`` up to 2355, 50 above."""
    r = float(rating)
    if r > NSTAR_FROM:
        return float(NSTAR_MAX)
    return NSTAR_MAX / math.sqrt(NSTAR_A + NSTAR_B * (NSTAR_C - r) ** 2)


def effective_games(rating: float, games: float) -> float:
    """N' = min(N, N*) (rules 10.3)."""
    return min(float(games), n_star(rating))


def dual_factor(rating: float) -> float:
    """What a dual-rated event multiplies the Regular K by (rules 10.6): 1 to 2200, 6.5 - 0.0025 R0, 0.25 from 2500."""
    r = float(rating)
    if r <= DUAL_FROM:
        return 1.0
    if r >= DUAL_TO:
        return DUAL_LAST
    return DUAL_A - DUAL_B * r


def k_value(rating: float, games: float, event_games: int, dual: bool = False) -> float:
    """K = 800 / (N' + m), times :func:`dual_factor` in a dual-rated event (rules 10.6)."""
    k = K_NUMERATOR / (effective_games(rating, games) + int(event_games))
    return k * dual_factor(rating) if dual else k


#: The contract's K (rating, games, age, ever_2400) has no m: USCF's K is ``USCF_K`` (rules 10.6).
k_factor = None
first_rating = None


def pwe(rating: float, opponent: float) -> float:
    """The provisional winning expectancy (rules 10.5): 0 at 400 below, 0.5 + (R - Ri) / 800, 1 at 400 above."""
    if rating <= opponent - PWE_SPAN:
        return 0.0
    if rating >= opponent + PWE_SPAN:
        return 1.0
    return 0.5 + (rating - opponent) / (2 * PWE_SPAN)


def initial_rating(age: float | None) -> float:
    """Step 1 by age (rules 10.2): 50 x age from 2 to 26, 100 below 2, 1300 above 26 or when not known."""
    if age is None or age != age or age > AGE_TO:
        return float(ADULT_RATING)
    if age < AGE_FROM:
        return float(AGE_YOUNG_RATING)
    return float(AGE_POINTS * age)


def bonus_threshold(options: Options | None = None, period: str | None = None) -> int:
    """B for an event ending in ``period`` (rules 10.7): the option, or by date (today's without a period).

    ValueError before May 2017, where no source pins it (give the option)."""
    opts = options or Options()
    if opts.bonus_threshold != "auto":
        return int(opts.bonus_threshold)
    if not period:
        return BONUS_THRESHOLD
    year, month = int(period[:4]), int(period[5:7])
    day = int(period[8:10]) if len(period) >= 10 else 1
    when = dt.date(year, month, day)
    for first, b, _ in BONUS_HISTORY:
        if when >= first:
            return b
    raise ValueError(f"no source here pins the bonus threshold before {BONUS_HISTORY[-1][0].isoformat()} (the "
                     f"period is {period}): give bonus_threshold (--bonus-threshold 12, the value before May 2017)")


def bonus_points(change: float, event_games: int, b: float, most_meetings: int = 1) -> float:
    """``max(0, K (S - E) - B sqrt(max(m, 4)))`` with m >= 3 and no opponent met more than twice, else 0
    (rules 10.7)."""
    if event_games < BONUS_MIN_GAMES or most_meetings > BONUS_MAX_MEETINGS:
        return 0.0
    return max(0.0, change - b * math.sqrt(max(event_games, BONUS_MIN_M)))


def floor_of(rating: float | None, games: float, highest: float | None = None, life_master: bool = False) -> int:
    """The floor under a player's new rating (rules 10.8).

    An established player (more than 25 games) has the highest of his highest and his rating
    before, minus 200, down to the hundred, from a highest of 1400, at most 2100; an Original
    Life Master 2200; everyone at least the absolute floor, 100.
    """
    floor = ABSOLUTE_FLOOR
    if rating is not None and games > PROVISIONAL_GAMES:
        peak = max(float(rating), float(highest) if highest is not None else 0.0)
        if peak >= FLOOR_FROM:
            floor = max(floor, min(FLOOR_CAP, int((peak - FLOOR_BELOW) // 100) * 100))
    if life_master:
        floor = max(floor, ORIGINAL_LIFE_MASTER_FLOOR)
    return floor


# --------------------------------------------------------------------------- the special formula (rules 10.5)


@dataclass(frozen=True)
class Step:
    """One step of the special formula's iteration: M moves to ``to`` (rules 10.5)."""

    m: float
    """M before the step."""
    f: float
    """f(M)."""
    z: float
    """The neighbouring breakpoint: the largest below M when f(M) > 0, the smallest above when f(M) < 0."""
    fz: float
    """f(z)."""
    to: float
    """M after the step: z, or the secant's zero between z and M."""


@dataclass(frozen=True)
class Special:
    """The special formula's answer and how it was found (rules 10.5)."""

    rating: float
    """The special rating, capped at 2700."""
    start: float
    """M before the first step: the old provisional formula with the adjusted prior."""
    steps: tuple[Step, ...]
    solved: float
    """M where |f(M)| <= epsilon."""
    tie: str
    """``""``, or how the flat stretch was settled: ``prior`` (the prior rating), ``below`` or ``above`` (the
    nearest breakpoint)."""
    prior: float
    """R0', the prior after the all-wins / all-losses adjustment."""
    target: float
    """S', the score after the adjustment."""
    capped: bool = False
    expectancies: tuple[float, ...] = field(default=())
    """PWe(R, Ri) of each game at the rating found (before the cap)."""


def adjusted(prior: float, n_eff: float, score: float, record: str | None) -> tuple[float, float]:
    """R0' and S' (rules 10.5): all wins before moves the prior 400 down and adds N' to the score, all losses
    moves it 400 up; otherwise the score gets N' / 2."""
    if record == "all wins":
        return prior - PWE_SPAN, score + n_eff
    if record == "all losses":
        return prior + PWE_SPAN, score
    return prior, score + n_eff / 2


def special_rating(prior: float, n_eff: float, opponents: Sequence[float], scores: Sequence[float],
                   record: str | None = None, *, cap: float | None = SPECIAL_CAP) -> Special:
    """The special rating (rules 10.5), by the document's iteration.

    ``f(R) = N' PWe(R, R0') + sum PWe(R, Ri) - S'`` is piecewise linear and non-decreasing; its
    breakpoints are R0' +- 400 and Ri +- 400. From M = (N' R0' + sum Ri + 400 (2S - m)) / (N' + m),
    while f(M) > epsilon M moves down (to the largest breakpoint below it, or to the zero of the
    line through it and that breakpoint, whichever is higher), while f(M) < -epsilon up; when
    |f(M)| <= epsilon and no term is within 400 points of M (a flat stretch), the prior rating is
    taken, brought within the stretch's breakpoints. At most 2700 (``cap``).
    """
    opps = [float(o) for o in opponents]
    s = float(sum(scores))
    m = len(opps)
    r0, target = adjusted(float(prior), float(n_eff), s, record)
    zs = sorted({r0 - PWE_SPAN, r0 + PWE_SPAN, *(o - PWE_SPAN for o in opps), *(o + PWE_SPAN for o in opps)})

    def f(x: float) -> float:
        return n_eff * pwe(x, r0) + sum(pwe(x, o) for o in opps) - target

    start = (n_eff * r0 + sum(opps) + PWE_SPAN * (2 * s - m)) / (n_eff + m)
    big = 4 * len(zs) + 8  # each step reaches a breakpoint or the zero: far fewer steps than this
    steps: list[Step] = []
    x, fx = start, f(start)
    while fx > EPSILON and len(steps) < big:  # down
        below = [z for z in zs if z < x]
        if not below:
            break
        za = below[-1]
        fa = f(za)
        if abs(fx - fa) < EPSILON:
            to = za
        else:
            secant = x - fx * (x - za) / (fx - fa)
            if secant < za:
                to = za
            elif secant < x:
                to = secant
            else:
                break
        steps.append(Step(x, fx, za, fa, to))
        x = to
        fx = fa if to == za else f(to)
    while fx < -EPSILON and len(steps) < big:  # up
        above = [z for z in zs if z > x]
        if not above:
            break
        zb = above[0]
        fb = f(zb)
        if abs(fb - fx) < EPSILON:
            to = zb
        else:
            secant = x - fx * (zb - x) / (fb - fx)
            if secant > zb:
                to = zb
            elif secant > x:
                to = secant
            else:
                break
        steps.append(Step(x, fx, zb, fb, to))
        x = to
        fx = fb if to == zb else f(to)
    solved = x
    tie = ""
    if abs(fx) <= EPSILON:
        near = sum(1 for o in opps if abs(x - o) <= PWE_SPAN) + (1 if abs(x - r0) <= PWE_SPAN else 0)
        if near == 0:
            lo = max((z for z in zs if z < x), default=-math.inf)
            hi = min((z for z in zs if z > x), default=math.inf)
            p = float(prior)
            x, tie = (p, "prior") if lo <= p <= hi else (lo, "below") if p < lo else (hi, "above")
    expectancies = tuple(pwe(x, o) for o in opps)
    capped = cap is not None and x > cap
    return Special(min(x, cap) if cap is not None else x, start, tuple(steps), solved, tie, r0, target, capped,
                   expectancies)


def special_equation(prior: float, n_eff: float, opponents: Sequence[float], scores: Sequence[float],
                     record: str | None, rating: float) -> float:
    """f(R), the special formula's equation (rules 10.5): zero at the special rating (before the cap and ties)."""
    r0, target = adjusted(float(prior), float(n_eff), float(sum(scores)), record)
    return n_eff * pwe(rating, r0) + sum(pwe(rating, float(o)) for o in opponents) - target


# --------------------------------------------------------------------------- one player, one step


@dataclass(frozen=True)
class Rated:
    """One player's rating by the special or the standard formula (rules 10.5 - 10.7)."""

    formula: str
    rating: float
    expected: float
    """The sum of the expectancies: the standard E, or the special formula's PWe at its rating."""
    expectancies: tuple[float, ...]
    k: float | None = None
    change: float | None = None
    """K (S - E), the standard formula's."""
    bonus: float | None = None
    special: Special | None = None


def is_special(games: float, record: str | None) -> bool:
    """The special formula rates a player with 8 games or fewer before, or whose every earlier game was won
    (or lost) (rules 10.5)."""
    return games <= SPECIAL_GAMES or record is not None


def rate_one(prior: float, games: float, n_eff: float, opponents: Sequence[float], scores: Sequence[float],
             record: str | None, b: float, *, most_meetings: int = 1, dual: bool = False,
             k: float | None = None) -> Rated:
    """One player against opponents counted at ``opponents`` (Step 4 or 5, rules 10.4 - 10.7)."""
    if is_special(games, record):
        sp = special_rating(prior, n_eff, opponents, scores, record if games > 0 else None)
        return Rated("special", sp.rating, sum(sp.expectancies), sp.expectancies, special=sp)
    es = tuple(core.logistic(float(prior), float(o)) for o in opponents)
    e = sum(es)
    kk = k if k is not None else k_value(prior, games, len(opponents), dual)
    change = kk * (float(sum(scores)) - e)
    bonus = bonus_points(change, len(opponents), b, most_meetings)
    return Rated("standard", prior + change + bonus, e, es, kk, change, bonus)


def status_of(rating: float | None, games: float) -> str:
    """unrated (no rating, or a rating given for a player with no game: his initial one), provisional
    (25 games or fewer) or established (rules 10.9)."""
    if rating is None or games == 0:
        return "unrated"
    return "established" if games > PROVISIONAL_GAMES else "provisional"


def change_of(before: float, after: float) -> float:
    """The change (rules 10.9): the published rating minus the published one before (a rating given with its
    decimals, 1847.2, was published as 1847)."""
    return float(after) - float(round_half_away(before))


def record_after(record: str | None, games: float, scores: Sequence[float]) -> str | None:
    """The record after the event (rules 10.5): all wins when every game so far was won (the earlier ones by
    ``record``, none for a player with no game before), all losses the same way, else blank."""
    if not scores:
        return record if games > 0 else None
    for kind, score in (("all wins", 1.0), ("all losses", 0.0)):
        if all(s == score for s in scores) and (games == 0 or record == kind):
            return kind
    return None


def highest_after(highest: float | None, before: float | None, games: float, after: float | None,
                  event_games: int) -> float | None:
    """The highest established rating with this event's (rules 10.8, 10.9): the highest given, the rating
    before when it was established (more than 25 games) and the new one when it is; blank when none is."""
    found = [float(highest)] if highest is not None else []
    if before is not None and games > PROVISIONAL_GAMES:
        found.append(float(before))
    if after is not None and event_games and games + event_games > PROVISIONAL_GAMES:
        found.append(float(after))
    return max(found) if found else None


def age_of(birth_year: int | None, period: str | None) -> int | None:
    """The age counted in the period's year (rules 10.2, 10.10); None when either is not known."""
    year = period_year(period)
    return None if birth_year is None or year is None else year - int(birth_year)


def prior_of(player: Player, period: str | None) -> float:
    """R0: the rating before, or Step 1's initial rating for an unrated player (rules 10.2)."""
    if player.rating is not None:
        return float(player.rating)
    return initial_rating(age_of(player.birth_year, period))


def games_of(player: Player) -> int:
    """N: the rated games before; 0 for an unrated player (rules 10.3); a rated player's games not known (a
    TRF report does not give them) count as an established player's (rules 10.10)."""
    if player.rating is None:
        return 0
    return model.UNKNOWN_GAMES if player.games is None else int(player.games)


#: What rate says of rated players whose games before are not known (rules 10.10).
UNKNOWN_GAMES_WARNING: Final = (
    "{count} rated player(s) without their rated games before (a TRF report does not give them) count as "
    f"established (more than {PROVISIONAL_GAMES} games, so N' is N*) and their games after are left blank: rate "
    "from CSV files with the games column for provisional players")


# --------------------------------------------------------------------------- the contract


def performance(opponent_ratings: Sequence[float], scores: Sequence[float], rating: float | None = None,
                options: Options | None = None) -> float | None:
    """The rating at which the provisional winning expectancies add up to the score: the special formula
    with no prior (N' = 0), its flat stretches settled by ``rating`` or the opponents' mean (rules 10.5)."""
    if not opponent_ratings:
        return None
    prior = float(rating) if rating is not None else sum(opponent_ratings) / len(opponent_ratings)
    return special_rating(prior, 0.0, opponent_ratings, scores, cap=None).rating


def calculate(player: Player, games: Sequence[OpponentGame], period: str | None = None, k: int | None = None,
              options: Options | None = None) -> Calculation:
    """One player's event (rules 10.4 - 10.9), each opponent counted at the rating given (Step 5 counts
    the opponents' Step 4 ratings: give those for the federation's own figure).

    Every game is taken against a different opponent (the bonus needs none met three times).
    """
    opts = options or Options()
    if player.rating is None and player.games:  # as rate refuses it: never read as a new player silently
        raise InputError([Problem("games", None, None, games_without_rating(player.games))])
    try:
        b = bonus_threshold(opts, period)
    except ValueError as exc:
        raise InputError([Problem("--period", None, None, str(exc))]) from None
    if any(g.rating is None for g in games):
        raise ValueError(f"an unrated opponent: {UNRATED_OPPONENTS}")
    opps = [float(g.rating) for g in games]  # type: ignore[arg-type]
    scores = [g.score for g in games]
    n = games_of(player)
    prior = prior_of(player, period)
    n_eff = effective_games(prior, n)
    record = player.record if n > 0 else None
    rated = rate_one(prior, n, n_eff, opps, scores, record, b, dual=opts.dual_rated == "yes",
                     k=None if k is None else float(k))
    floor = floor_of(player.rating if n > 0 else None, n, player.highest, player.life_master)
    exact = max(rated.rating, float(floor))
    after = round_half_away(exact)
    before = player.rating if n > 0 else None
    status = status_of(player.rating, n)
    lines = []
    for g, o, e in zip(games, opps, rated.expectancies, strict=True):
        share = rated.k * (g.score - e) if rated.k is not None else None
        lines.append(GameLine(g.rating, o, g.score, prior - o, e, share))
    steps: list[tuple[str, Any]] = [("R0, Step 1", prior)] if n == 0 else []
    given = not isinstance(player.games, model.NotGiven) or player.rating is None
    shown_n = n if given else f"not given: counted as established (more than {PROVISIONAL_GAMES} games, so N' is N*)"
    steps += [("N", shown_n), ("N*", n_star(prior)), ("N'", n_eff), ("formula", rated.formula)]
    notes: list[str] = []
    if player.rating is None:
        age = age_of(player.birth_year, period)
        notes.append(f"unrated: initial rating {prior:g} (Step 1, " +
                     (f"age {age})" if age is not None and age <= AGE_TO else "an adult)"))
    if rated.special is not None:
        sp = rated.special
        steps += [("R0' (adjusted prior)", sp.prior), ("S' (adjusted score)", sp.target), ("M, start", sp.start)]
        steps += [(f"step {i}: M", f"{st.m:.3f} -> {st.to:.3f}") for i, st in enumerate(sp.steps, start=1)]
        if sp.tie:
            steps.append(("flat stretch settled by", sp.tie))
        if sp.capped:
            notes.append(f"the special rating is capped at {SPECIAL_CAP}")
    else:
        steps += [("K (S - E)", rated.change), ("bonus threshold B", b), ("bonus", rated.bonus)]
    steps += [("floor", floor), ("rating, exact", exact)]
    if exact > rated.rating:
        notes.append(f"the floor {floor} holds the rating up")
    own = (("effective_games", n_eff), ("n_star", n_star(prior)), ("formula", rated.formula),
           ("floor", floor), ("provisional", n + len(games) <= PROVISIONAL_GAMES), ("rating_exact", exact),
           ("bonus_threshold", b if rated.special is None else None),
           ("iterations", len(rated.special.steps) if rated.special is not None else None))
    return Calculation(CODE, before, tuple(lines), float(sum(scores)), after,
                       change=None if before is None else change_of(before, after),
                       k=rated.k,  # type: ignore[arg-type]
                       expected=rated.expected, status=status, steps=tuple(steps), notes=tuple(notes),
                       bonus=rated.bonus, own=own)


# --------------------------------------------------------------------------- a whole event


def games_without_rating(games: int) -> str:
    """The refusal of rated games given to a player without a rating (rules 10.10): whose games they are is not
    guessed (a rating left out, or a count typed for a new player)."""
    return f"{games} rated games but no rating: give his rating (or 0 games for a player never rated)"


def _problems(players: Sequence[Player], period: str | None, opts: Options) -> list[str]:
    """What rate refuses (rules 10.10) and what it only says (the warnings)."""
    problems = ProblemList()
    warnings: list[str] = []
    unknown = sum(1 for p in players if p.rating is not None and p.games is None)
    if unknown:
        warnings.append(UNKNOWN_GAMES_WARNING.format(count=unknown))
    for p in players:
        if p.rating is None and p.games:
            problems.add("players", p.row, "games", f"player {p.id!r}: {games_without_rating(p.games)}")
        if p.record is not None and games_of(p) == 0:
            problems.add("players", p.row, "record", f"player {p.id!r}: {p.record} with no game before")
        if p.highest is not None and p.rating is not None and games_of(p) <= PROVISIONAL_GAMES:
            warnings.append(f"player {p.id!r}: a highest rating for a player with {PROVISIONAL_GAMES} games or "
                            "fewer is not used (only an established rating has a floor from it)")
    if period is None and any(p.rating is None and p.birth_year is not None for p in players):
        problems.add("period", None, None, "an unrated player's initial rating counts his age in the period's year: "
                                           "give the period (YYYY-MM)")
    year = period_year(period)
    if year is not None:
        for p in players:
            if p.birth_year is not None and p.birth_year > year:
                problems.add("players", p.row, "birth_year", f"player {p.id!r}: born in {p.birth_year}, after the "
                                                              f"period ({period})")
    try:
        bonus_threshold(opts, period)
    except ValueError as exc:
        problems.add("period", None, None, str(exc))
    problems.raise_if_any()
    return warnings


def rate(event: Event, options: Options | None = None, **overrides: Any) -> Results:
    """Rate a US Chess event (a section) in the document's five steps (rules 10.4)."""
    opts = options_of(Options, options, **overrides)
    players = [model.as_player(Player, p) for p in event.players]
    period = event.period
    warnings = _problems(players, period, opts)
    if period is None and opts.bonus_threshold == "auto" and any(g.counts for g in event.games):
        warnings.append(f"no period: the bonus threshold is today's ({BONUS_THRESHOLD}); give the period (the event's "
                        "end) for an older event")
    b = bonus_threshold(opts, period)
    dual = opts.dual_rated == "yes"
    index = event.index()
    n_players = len(players)
    opp: list[list[int]] = [[] for _ in players]
    score: list[list[float]] = [[] for _ in players]
    for g in event.games:
        if not g.counts:
            continue
        i, j = index[g.player], index[g.opponent]  # type: ignore[index]
        s = float(g.result.score)  # type: ignore[arg-type]
        opp[i].append(j)
        score[i].append(s)
        opp[j].append(i)
        score[j].append(1.0 - s)
    n = [games_of(p) for p in players]
    prior = [prior_of(p, period) for p in players]
    n_eff = [effective_games(prior[i], n[i]) for i in range(n_players)]
    record = [p.record if n[i] > 0 else None for i, p in enumerate(players)]
    meetings = [max((row.count(j) for j in set(row)), default=0) for row in opp]
    # Step 3: a first estimate for each player with no game before, N' = 1, opponents at R0 (rules 10.4)
    first = list(prior)
    for i in range(n_players):
        if n[i] == 0 and opp[i]:
            first[i] = special_rating(prior[i], STEP3_GAMES, [prior[j] for j in opp[i]], score[i]).rating
    # Step 4: intermediate ratings, opponents at R0 (the Step 3 estimate for those with no game before)
    seen = [first[j] if n[j] == 0 else prior[j] for j in range(n_players)]
    step4 = [rate_one(prior[i], n[i], n_eff[i], [seen[j] for j in opp[i]], score[i], record[i], b,
                      most_meetings=meetings[i], dual=dual) if opp[i] else None for i in range(n_players)]
    inter = [s.rating if s is not None else prior[i] for i, s in enumerate(step4)]
    # Step 5: final ratings, opponents at their intermediate ratings, then the floors and the rounding
    rows = []
    for i, p in enumerate(players):
        m = len(opp[i])
        status = status_of(p.rating, n[i])
        before = p.rating if n[i] > 0 else None
        row: dict[str, Any] = dict.fromkeys(c.name for c in COLUMNS)
        row.update(id=p.id, name=p.name, status=status, rating_before=before, games_rated=m,
                   score=float(sum(score[i])), games_after=None if p.rating is not None and p.games is None
                   else n[i] + m, effective_games=n_eff[i],
                   record_after=record_after(record[i], n[i], score[i]), birth_year=p.birth_year,
                   life_master=p.life_master)
        floor = floor_of(before, n[i], p.highest, p.life_master)
        if m == 0:
            row.update(rating_after=before, change=0 if before is not None else None, floor=floor if before else None,
                       provisional=None if before is None else n[i] <= PROVISIONAL_GAMES,
                       highest_after=highest_after(p.highest, before, n[i], before, 0))
            rows.append(row)
            continue
        final = rate_one(prior[i], n[i], n_eff[i], [inter[j] for j in opp[i]], score[i], record[i], b,
                         most_meetings=meetings[i], dual=dual)
        exact = max(final.rating, float(floor))
        after = round_half_away(exact)
        row.update(expected=final.expected, k=final.k, bonus=final.bonus, rating_after=after,
                   change=None if before is None else change_of(before, after), formula=final.formula,
                   intermediate=inter[i], floor=floor, provisional=n[i] + m <= PROVISIONAL_GAMES,
                   rating_exact=exact, iterations=len(final.special.steps) if final.special is not None else None,
                   highest_after=highest_after(p.highest, before, n[i], after, m))
        rows.append(row)
    return Results.from_rows(CODE, COLUMNS, rows, period=period, warnings=warnings)


def rules_values() -> dict[str, Any]:
    """Figures the rules chapter computes (rules 10)."""
    return {
        "uscf_established": PROVISIONAL_GAMES + 1,
        "uscf_bonus_history": "\n".join(f"  - from {first.isoformat()}: B = {b} ({source})"
                                        for first, b, source in BONUS_HISTORY),
        "uscf_nstar_1700": f"{n_star(1700):.3f}",
        "uscf_dual_2300": f"{dual_factor(2300):g}",
    }


# --------------------------------------------------------------------------- spreadsheet functions


def _k(rating: float, games: float, event_games: float) -> float:
    if event_games < 1:
        raise ValueError(f"{event_games:g} games in the event: K needs at least one")
    return k_value(rating, games, int(event_games))


def _floor(highest: float) -> int:
    return floor_of(highest, PROVISIONAL_GAMES + 1)


#: A US Chess rating in a cell, with its decimals (rules 10.9), as the players table reads it.
_RATING_ARG = SheetArg(RATINGS_ARGS[0].name, RATINGS_ARGS[0].doc, lambda v: RATING_READING(v), range=True,
                       zero_is_blank=True)
_GAMES_ARG = SheetArg("games", ("Rated games before, N: a cell or a range.",
                                "Parties classées avant, N : une cellule ou une plage."),
                      schema.GAMES, range=True)

#: The US Chess system's own functions, beside the common ones (rules 10.3, 10.6, 10.8).
FUNCTIONS: Final = (
    SheetFunction(
        "USCF_EFFECTIVE_GAMES", effective_games,
        (_RATING_ARG, _GAMES_ARG),
        ("US Chess effective number of games N' = min(N, N*) (xl-elo rules 10.3).",
         "Nombre effectif de parties US Chess N' = min(N, N*) (règles xl-elo 10.3)."),
        "USCF"),
    SheetFunction(
        "USCF_K", _k,
        (_RATING_ARG, _GAMES_ARG,
         SheetArg("event_games", ("Games in this event, m: a cell or a range.",
                                  "Parties de ce tournoi, m : une cellule ou une plage."),
                  schema.counts(model.MAX_GAMES_PER_PLAYER), range=True)),
        ("US Chess K = 800 / (N' + m) of the standard formula (xl-elo rules 10.6).",
         "Le K US Chess = 800 / (N' + m) de la formule standard (règles xl-elo 10.6)."),
        "USCF", refused="argument event_games"),
    SheetFunction(
        "USCF_FLOOR", _floor,
        (SheetArg("highest", ("The highest established rating: a cell or a range.",
                              "Le plus haut classement établi : une cellule ou une plage."),
                  lambda v: RATING_READING(v), range=True, zero_is_blank=True),),
        ("US Chess floor from the highest established rating: minus 200 down to the hundred, at most 2100 "
         "(xl-elo rules 10.8).",
         "Plancher US Chess d'après le plus haut classement établi : moins 200, à la centaine inférieure, au plus "
         "2100 (règles xl-elo 10.8)."),
        "USCF"),
)


#: What this system declares to the front ends (:class:`~xl_elo.federations.contract.RatingSystem`).
SYSTEM: Final = RatingSystem(
    CODE=CODE, NAME=NAME, ALIASES=ALIASES, RULES=RULES, SOURCE=SOURCE, UNIT=UNIT, NEEDS_PERIOD=NEEDS_PERIOD,
    PACKAGE=__name__, Player=Player, Options=Options, COLUMNS=COLUMNS, expected=expected, performance=performance,
    calculate=calculate, rate=rate, k_factor=k_factor, first_rating=first_rating, rules_values=rules_values,
    NATIONAL_RATINGS=NATIONAL_RATINGS, PERFORMANCE=PERFORMANCE, TEMPLATE=TEMPLATE, EXAMPLE=EXAMPLE,
    FUNCTIONS=FUNCTIONS, UNRATED_OPPONENTS=UNRATED_OPPONENTS, OPPONENTS=OPPONENTS,
)

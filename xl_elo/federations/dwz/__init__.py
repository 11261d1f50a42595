"""DWZ (Deutsche Wertungszahl), the German Chess Federation's rating (rules section 9; the DSB's
Wertungsordnung).

A tournament is evaluated as a whole (rules 9.1). An established player's new DWZ is
``Rn = R0 + 800 (W - We) / (E + n)`` (9.5): We the sum of ``P(D)`` over his games, P the
normal distribution of the difference with standard deviation ``200 sqrt 2`` (9.2), E the
development coefficient ``(R0/1000)^4 + J``, times the acceleration factor fB of a youth at or
above his expectation, plus the brake SBr below 1300 under it, rounded and bounded (9.3). A
player without a DWZ gets a first DWZ from at least 5 games against players with one (or
against those who get one in the same tournament), by the DSB's integer iteration (9.6, 9.7).

Decisions where the Wertungsordnung is silent are in rules 9.10; the rule sets by date (the
probabilities before and after August 2013, the Sonderwertung from August 2016, and what was
and was not found of a 2026 revision) in rules 9.9.

Example: Barthel's first DWZ at the DSB's tournament B431-636-C4F (2014), 983 as the DSB published it::

    >>> from xl_elo.loader import example_event
    >>> int(rate(example_event("dwz")).by_id()["barthel"]["rating_after"])
    983
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

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
from xl_elo.model import (
    Column,
    Event,
    HistoryGame,
    Results,
    birth_year_fact,
    check_period,
    fact,
    period_year,
    results_columns,
)
from xl_elo.tableview import TableView

CODE: Final = "dwz"
NAME: Final = "DWZ (German chess federation)"
ALIASES: Final = ("dsb", "german", "deutsche wertungszahl")
RULES: Final = "9"
SOURCE: Final = "https://www.schachbund.de/wertungsordnung.html"
UNIT: Final = "tournament"
#: The year of the tournament's end gives the age groups (rules 9.3) and the rule set (9.9).
NEEDS_PERIOD: Final = True
TEMPLATE: Final = "dwz_tournament.xlsx"
EXAMPLE: Final = "dwz_barthel_2014"
#: Its coefficient is E, not K: ``xl-elo calc dwz --e 24`` and the ``e`` key of ``--format json``.
COEFFICIENT: Final = "e"
#: A TRF-26 report carries DWZ in its national-rating records opened by this code (rules 9.1).
NATIONAL_RATINGS: Final = "GER"
#: It takes a history table: a player's remaining games (Restpartien) from earlier tournaments (rules 9.7).
HISTORY: Final = "remaining games of players without a DWZ"
#: Its performance rating, in words (the functions' help; rules 9.6).
PERFORMANCE: Final = ("Leistung: the DSB's integer iteration", "Leistung : l'itération entière du DSB")

# --------------------------------------------------------------------------- constants

#: ``P(D) = Phi(D / (200 sqrt 2)) = (1 + erf(D / 400)) / 2`` (rules 9.2).
SIGMA_PLAYER: Final = 200
ERF_SCALE: Final = 400.0
#: ``Rn = R0 + 800 (W - We) / (E + n)`` (rules 9.5).
FACTOR: Final = 800
#: The age groups and their J (rules 9.3): to 20, 21 to 25, over 25.
YOUTH_AGE: Final = 20
JUNIOR_AGE: Final = 25
J_YOUTH: Final = 5
J_JUNIOR: Final = 10
J_ADULT: Final = 15
#: fB = R0 / 2000, from 0.5 to 1 (rules 9.3).
FB_DIVISOR: Final = 2000
FB_MIN: Final = 0.5
FB_MAX: Final = 1.0
#: SBr = e^((1300 - R0) / 150) - 1 below 1300 (rules 9.3).
BRAKE_BELOW: Final = 1300
BRAKE_SCALE: Final = 150
#: E's bounds (rules 9.3): at least 5; at most 5 x index up to index 5, else 30; at most 150 with the brake.
E_MIN: Final = 5
E_PER_INDEX: Final = 5
E_INDEX_UP_TO: Final = 5
E_MAX: Final = 30
E_MAX_BRAKE: Final = 150
#: A performance and a first DWZ need this many games (rules 9.6, 9.7).
MIN_GAMES: Final = 5
#: All wins or all losses: the performance is the opponents' mean plus or minus this (rules 9.6).
EXTREME: Final = 677
#: A first DWZ below 800 becomes 700 + Ri / 8 (rules 9.7).
LOW_FIRST: Final = 800
LOW_BASE: Final = 700
LOW_DIVISOR: Final = 8
#: A performance more than this above the DWZ makes an exceptional player (Sonderwertung, rules 9.8).
SPECIAL_MARGIN: Final = 300
#: The rule sets by the tournament's end (rules 9.9): DeWIS and the formula from August 2013 ...
FORMULA_FROM: Final = "2013-08"
#: ... the Sonderwertung from August 2016.
SPECIAL_FROM: Final = "2016-08"
#: The largest index a cell may hold (a player evaluated every week for twenty years has about 1000).
MAX_INDEX: Final = 9999
#: A step of the iteration reads D(p) with p kept within these bounds (rules 9.10).
P_BOUNDS: Final = (0.001, 0.999)
#: The tournament's iteration stops after this many sweeps if it has not settled (rules 9.10).
MAX_SWEEPS: Final = 1000

#: What a rated player's blank index is refused with (rules 9.4).
INDEX_NEEDED: Final = ("blank for a player with a DWZ: give his index, the number after the dash (1850-12: 12); "
                       "it bounds E")


@dataclass(frozen=True)
class Options:
    """What the Wertungsordnung leaves to the user: the rule sets by date (rules 9.9)."""

    probability: str = option(
        "auto", "We: auto (by the tournament's end: the DSB's ELOBASE program before August 2013, each P(D) to "
        "three decimals; the formula from then), formula, or elobase", choices=("auto", "formula", "elobase"),
        source="rules 9.2, 9.9")
    sonderwertung: str = option(
        "auto", "count a player whose performance is more than 300 above his DWZ at that performance for his "
        "opponents: auto (tournaments ending from August 2016), yes or no", choices=("auto", "yes", "no"),
        source="rules 9.8, 9.9")


#: A DWZ written with its index, as the DSB's lists write it (``1850-12``, rules 9.4).
WITH_INDEX: Final = re.compile(r"^(\d{3,4})\s*-\s*(\d{1,3})$")


def with_index(value: Any) -> str | None:
    """The words for a DWZ written with its index in one cell (rating or index column), or None (rules 9.4): the
    near miss of the DSB's own writing is named, never "not a number" alone."""
    try:
        text = schema.text(value) if isinstance(value, str) else None
    except schema.ValueProblem:
        return None
    m = WITH_INDEX.match(text) if text else None
    if m is None:
        return None
    return (f"{schema.shown(text)} is a DWZ with its index, as the DSB writes it: give the DWZ ({m.group(1)}) in "
            f"the rating column and the index ({m.group(2)}) in the index column")


def _named(reading: schema.Reading) -> schema.Reading:
    """``reading``, a DWZ written with its index (``1850-12``) named as such (rules 9.4)."""
    def parse(value: Any, *, typed: bool = False, year: int | None = None) -> Any:
        try:
            return reading(value, typed=typed, year=year)
        except schema.ValueProblem:
            words = with_index(value)
            if words is None:
                raise
            raise schema.ValueProblem(words) from None

    return schema.Reading(parse, whole=reading.whole, zero_is_blank=reading.zero_is_blank, kind=reading.kind)


@dataclass(frozen=True, slots=True)
class Player(model.Player):
    """A DWZ player: his index and his age group decide E (rules 9.3, 9.4)."""

    RATING: ClassVar[schema.Reading] = _named(schema.RATING)
    """A DWZ: a whole rating (rules 1.4), ``1850-12`` named as a DWZ with its index."""
    HEADINGS: ClassVar[dict[str, str]] = {"dwz": "rating"}
    """A DWZ is headed ``DWZ``; a column headed ``Elo`` is FIDE's rating, never read as a DWZ."""

    index: int | None = fact(
        _named(schema.counts(MAX_INDEX)), "the DWZ index: his evaluations so far (the number after the dash, 1850-12)",
        rules="9.4", rated_needs=INDEX_NEEDED, aliases=("index_after",), calc="--index",
        calc_help="the DWZ index (1850-12: 12); it bounds E (default: more than 5)", function="games",
        function_doc=("DWZ: the index (blank: over 5).", "DWZ : l'indice (vide : plus de 5)."), k_argument=True,
        unreported=(None, "a TRF report gives no DWZ index: E is bounded as for an index over 5 (at most 30) and the "
                          "index after is left blank; rate from CSV tables with the index column to bound E by it"))
    birth_year: int | None = birth_year_fact(
        "9.3", calc_help="the year of birth: age groups to 20, 21 to 25, over 25 in the tournament's year "
                         "(default: over 25)",
        function_doc=("DWZ: the age in the tournament's year (blank: over 25).",
                      "DWZ : l'âge dans l'année du tournoi (vide : plus de 25 ans)."))


COLUMNS: Final = results_columns(
    Column("index", "int", True, "the index before"),
    Column("index_after", "int", True, "the index after: one more per evaluation, 1 after a first DWZ",
           key=True),
    Column("j", "int", True, "J: 5 to 20, 10 from 21 to 25, 15 over 25"),
    Column("e0", "float", False, "E0 = (R0 / 1000)^4 + J"),
    Column("fb", "float", False, "fB, the acceleration of a youth at or above his expectation"),
    Column("sbr", "float", False, "SBr, the brake below 1300 under the expectation"),
    Column("e", "int", True, "E, the development coefficient"),
    Column("rc", "float", False, "the mean rating of the opponents as they count"),
    Column("stage", "int", True, "a new player's stage (Zusatzstufe): 1 against players with a DWZ, 2 against "
                                 "those and the first stage"),
    Column("rp", "int", True, "a new player's start value Rc + D(W / n)"),
    Column("ri", "int", True, "a new player's iteration value (his first DWZ, or 700 + Ri / 8 below 800)"),
    Column("special", "bool", True, "Sonderwertung: his opponents count him at his performance"),
    Column("note", "note", False, "how a player without a DWZ came out: why no first DWZ, the remaining games he "
                                  "carries"),
    Column("birth_year", "int", True, "the year of birth, for the next tournament's age group"),
    blank=("k", "bonus", "games_after"),
)


# --------------------------------------------------------------------------- one game


def probability(difference: Any) -> Any:
    """P(D), the expected score of a game for a difference D = own DWZ - opponent's (rules 9.2):
    the normal distribution with standard deviation 200 sqrt 2, ``(1 + erf(D / 400)) / 2``. Element-wise."""
    if core.is_scalar(difference):
        return 0.5 * math.erfc(-float(difference) / ERF_SCALE)
    d = np.asarray(difference, dtype=np.float64)
    return np.array([0.5 * math.erfc(-x / ERF_SCALE) for x in d.ravel().tolist()]).reshape(d.shape)


def elobase(p: float) -> float:
    """P(D) as the DSB's ELOBASE program took it before August 2013: to three decimals (rules 9.2)."""
    return float(round_half_away(1000.0 * p)) / 1000.0


def per_game_rounding(options: Options | None, period: str | None) -> bool:
    """Whether each P(D) is taken to three decimals (rules 9.2, 9.9): the option, or with ``auto`` a
    tournament ending before August 2013."""
    choice = (options or Options()).probability
    if choice != "auto":
        return choice == "elobase"
    return period is not None and period[:7] < FORMULA_FROM


def special_applies(options: Options | None, period: str | None) -> bool:
    """Whether the Sonderwertung applies (rules 9.8, 9.9): the option, or with ``auto`` from August 2016."""
    choice = (options or Options()).sonderwertung
    if choice != "auto":
        return choice == "yes"
    return period is None or period[:7] >= SPECIAL_FROM


def expected(rating: Any, opponent: Any, options: Options | None = None) -> Any:
    """The expected score of one game, P(own - opponent's) (rules 9.2), element-wise; to three decimals
    with ``probability="elobase"``."""
    if core.is_scalar(rating, opponent):
        p = probability(float(rating) - float(opponent))
        return elobase(p) if options is not None and options.probability == "elobase" else p
    p = probability(np.asarray(rating, np.float64) - np.asarray(opponent, np.float64))
    if options is not None and options.probability == "elobase":
        return round_half_away(1000.0 * p) / 1000.0
    return p


def inverse(p: float) -> float:
    """D(P), the difference whose P(D) is p (rules 9.6): ``200 sqrt 2 x Phi^-1(p)``."""
    return SIGMA_PLAYER * math.sqrt(2.0) * float(core.normal_quantile(p))


def step_of(points: float, expected_points: float, games: int) -> int:
    """One step of the DSB's iteration (rules 9.6): ``D((W - We) / n + 0.5)``, p kept within
    :data:`P_BOUNDS`, rounded to a whole number, halves away from zero."""
    p = min(max((points - expected_points) / games + 0.5, P_BOUNDS[0]), P_BOUNDS[1])
    return int(round_half_away(inverse(p)))


# --------------------------------------------------------------------------- E


def age_group(age: float | None) -> int:
    """J by age in the tournament's year (rules 9.3): 5 to 20, 10 from 21 to 25, 15 over 25 or unknown."""
    if age is None or age != age:
        return J_ADULT
    return J_YOUTH if age <= YOUTH_AGE else J_JUNIOR if age <= JUNIOR_AGE else J_ADULT


@dataclass(frozen=True, slots=True)
class Development:
    """E and its parts (rules 9.3)."""

    j: int
    e0: float
    fb: float
    sbr: float
    raw: float
    """E0 x fB + SBr, before the rounding and the bounds."""
    cap: int
    """E's upper bound: 150 with the brake, else 5 x index up to index 5, else 30."""
    e: int


def development(rating: float, age: float | None = None, index: int | None = None, score: float | None = None,
                expected_points: float | None = None) -> Development:
    """E (rules 9.3): ``E0 = (R0 / 1000)^4 + J``; times ``fB = R0 / 2000`` (from 0.5 to 1) for a youth
    whose score W reached his expectation We; plus ``SBr = e^((1300 - R0) / 150) - 1`` at any age below
    1300 when W < We; rounded (halves up), at least 5, at most 150 with the brake, else at most 5 x
    index up to index 5 (index 0 counts as 1) and 30 above. Without W and We the result counts as
    reaching the expectation; without an index, as an index over 5."""
    r0 = float(rating)
    j = age_group(age)
    e0 = (r0 / 1000.0) ** 4 + j
    above = score is None or expected_points is None or score >= expected_points
    fb = min(FB_MAX, max(FB_MIN, r0 / FB_DIVISOR)) if (j == J_YOUTH and above) else 1.0
    sbr = math.exp((BRAKE_BELOW - r0) / BRAKE_SCALE) - 1.0 if (r0 < BRAKE_BELOW and not above) else 0.0
    raw = e0 * fb + sbr
    if sbr > 0:
        cap = E_MAX_BRAKE
    elif index is not None and index <= E_INDEX_UP_TO:
        cap = E_PER_INDEX * max(int(index), 1)
    else:
        cap = E_MAX
    e = min(max(int(round_half_away(raw)), E_MIN), cap)
    return Development(j, e0, fb, sbr, raw, cap, e)


def k_factor(rating: Any, games: Any = None, age: Any = None, ever_2400: Any = False, options: Options | None = None,
             *, score: float | None = None, expected_points: float | None = None) -> int:
    """E, DWZ's coefficient (rules 9.3), from the DWZ, the index (``games``) and the age; with the score
    and the expectation when known (without them: a result reaching the expectation)."""
    index = None if games is None or games != games else int(games)
    return development(float(rating), None if age is None or age != age else float(age), index, score,
                       expected_points).e


def new_rating(rating: float, points: float, expected_points: float, e: int, games: int) -> int:
    """An established player's new DWZ (rules 9.5): ``R0 + 800 (W - We) / (E + n)`` rounded, halves up."""
    return int(round_half_away(float(rating) + FACTOR * (points - expected_points) / (e + games)))


# --------------------------------------------------------------------------- the iteration


def iterate(start: int, opponents: Sequence[float], points: float) -> tuple[int, int, bool]:
    """The DSB's integer iteration for one player against fixed opponents (rules 9.6): from ``start``,
    add ``D((W - We) / n + 0.5)`` rounded until the step is 0. Returns the value, the steps taken
    and whether it settled within :data:`MAX_SWEEPS`."""
    r = int(start)
    n = len(opponents)
    for k in range(MAX_SWEEPS):
        we = sum(probability(r - o) for o in opponents)
        step = step_of(points, we, n)
        if step == 0:
            return r, k, True
        r += step
    return r, MAX_SWEEPS, False


def start_value(opponents: Sequence[float], points: float) -> tuple[int, int]:
    """Rc, the opponents' mean rounded, and the start value ``Rp = Rc + D(W / n)`` rounded (rules 9.6)."""
    n = len(opponents)
    rc = int(round_half_away(sum(opponents) / n))
    return rc, rc + int(round_half_away(inverse(min(max(points / n, P_BOUNDS[0]), P_BOUNDS[1]))))


def performance(opponent_ratings: Sequence[float], scores: Sequence[float], rating: float | None = None,
                options: Options | None = None) -> float | None:
    """The performance (Leistung, rules 9.6) of at least 5 games: the DSB's integer iteration from
    ``Rc + D(W / n)``; all wins or all losses give ``Rc +- 677``. None with fewer games.
    ``rating`` is not used."""
    opps = [float(o) for o in opponent_ratings if o is not None]
    points = float(sum(s for o, s in zip(opponent_ratings, scores, strict=True) if o is not None))
    if len(opps) < MIN_GAMES:
        return None
    rc, rp = start_value(opps, points)
    if points <= 0 or points >= len(opps):
        return float(rc + (EXTREME if points > 0 else -EXTREME))
    return float(iterate(rp, opps, points)[0])


def corrected(ri: int) -> int:
    """A first DWZ from its iteration value (rules 9.7): Ri, or ``700 + Ri / 8`` rounded below 800."""
    return int(ri) if ri >= LOW_FIRST else int(round_half_away(LOW_BASE + ri / LOW_DIVISOR))


def first_rating(opponent_ratings: Sequence[float | None], scores: Sequence[float],
                 options: Options | None = None) -> FirstRating:
    """A first DWZ (rules 9.7) from at least 5 games against players with a DWZ (None: an opponent
    without one, not counted), neither all won nor all lost: the iteration value Ri from
    ``Rc + D(W / n)``, corrected to ``700 + Ri / 8`` below 800."""
    games = [(float(o), float(s)) for o, s in zip(opponent_ratings, scores, strict=True) if o is not None]
    n = len(games)
    points = sum(s for _, s in games)
    opps = [o for o, _ in games]
    if n < MIN_GAMES:
        return FirstRating(None, f"no first DWZ: {n} games against players with a DWZ, {MIN_GAMES} needed", None, n,
                           points)
    if points <= 0 or points >= n:
        return FirstRating(None, "no first DWZ: all games won or all lost", None, n, points)
    rc, rp = start_value(opps, points)
    ri, steps, settled = iterate(rp, opps, points)
    first = corrected(ri)
    status = "first DWZ" if settled else f"first DWZ, the last value of an iteration not settled after {steps} steps"
    return FirstRating(first, status, float(ri), n, points,
                       (("Rc", rc), ("Rp = Rc + D(W / n)", rp), ("iteration steps", steps), ("Ri", ri),
                        ("first DWZ", first)))


# --------------------------------------------------------------------------- one player


def calculate(player: Player, games: Sequence[OpponentGame], period: str | None = None, k: int | None = None,
              options: Options | None = None) -> Calculation:
    """One player's tournament (rules 9.2 - 9.7) as a rating officer checks it.

    With a DWZ: each game's P(D), We, E (``k`` when given: a known E, else from the facts, the
    age counted in ``period``'s year) and ``Rn = R0 + 800 (W - We) / (E + n)`` rounded; an opponent
    without a DWZ does not count (give the first DWZ he gets in this tournament). Without a DWZ:
    the first DWZ (rules 9.7); the games may include remaining games (Restpartien)."""
    opts = options or Options()
    year = period_year(period)
    if player.rating is None:
        first = first_rating([g.rating for g in games], [g.score for g in games], opts)
        lines = tuple(GameLine(g.rating, g.rating, g.score, None, None, None,
                               "" if g.rating is not None else "no DWZ: not counted") for g in games)
        found = dict(first.steps)
        return Calculation(CODE, None, lines, first.score, first.rating, performance=first.performance,
                           status=first.status, steps=first.steps,
                           own=(("index", None), ("index_after", 1 if first.rating is not None else None),
                                ("rc", _mean([g.rating for g in games if g.rating is not None])),
                                ("rp", found.get("Rp = Rc + D(W / n)")),
                                ("ri", found.get("Ri"))))
    r0 = float(player.rating)
    rounded = per_game_rounding(opts, period)
    rated = [g for g in games if g.rating is not None]
    n = len(rated)
    points = float(sum(g.score for g in rated))
    ps = []
    for g in rated:
        p = probability(r0 - float(g.rating))  # type: ignore[arg-type]
        ps.append(elobase(p) if rounded else p)
    we = float(sum(ps))
    age = (year - player.birth_year) if (year is not None and player.birth_year is not None) else None
    dev = development(r0, age, player.index, points, we)
    e = int(k) if k is not None else dev.e
    notes: list[str] = []
    if player.birth_year is None and k is None:
        notes.append("no year of birth: counted as over 25 (J 15)")
    if player.index is None and k is None:
        notes.append(f"no index: E is bounded as for an index over {E_INDEX_UP_TO} (at most {E_MAX})")
    lines_: list[GameLine] = []
    it = iter(ps)
    for g in games:
        if g.rating is None:
            lines_.append(GameLine(None, None, g.score, None, None, None,
                                   "no DWZ: not counted (give the first DWZ he gets in this tournament)"))
            continue
        p = next(it)
        lines_.append(GameLine(g.rating, g.rating, g.score, r0 - float(g.rating), p,
                               FACTOR * (g.score - p) / (e + n)))
    index_after = None if player.index is None else (player.index + 1 if n else player.index)
    if n == 0:
        return Calculation(CODE, r0, tuple(lines_), 0.0, r0, change=0.0, k=None, expected=None,
                           status="not evaluated: no game against a player with a DWZ",
                           own=(("index", player.index), ("index_after", index_after)), notes=tuple(notes))
    delta = FACTOR * (points - we) / (e + n)
    after = float(new_rating(r0, points, we, e, n))
    perf = performance([float(g.rating) for g in rated], [g.score for g in rated])  # type: ignore[arg-type]
    method = "each P(D) to three decimals (ELOBASE)" if rounded else "formula"
    steps: list[tuple[str, Any]] = [("games rated", n), ("We, three decimals", f"{we:.3f}"), ("P(D)", method)]
    if k is None:
        steps += [("J", dev.j), ("E0", dev.e0), ("fB", dev.fb), ("SBr", dev.sbr), ("E0 x fB + SBr", dev.raw),
                  ("E at most", dev.cap)]
    steps += [("800 (W - We) / (E + n)", delta), ("index after", index_after)]
    own: tuple[tuple[str, Any], ...] = (
        ("index", player.index), ("index_after", index_after),
        *((("j", dev.j), ("e0", dev.e0), ("fb", dev.fb), ("sbr", dev.sbr)) if k is None else ()),
        ("rc", sum(float(g.rating or 0.0) for g in rated) / n),
        ("we_method", "elobase" if rounded else "formula"))
    return Calculation(CODE, r0, tuple(lines_), points, after, change=after - r0, k=e, expected=we, performance=perf,
                       status="established", steps=tuple(steps), notes=tuple(notes), own=own)


def _mean(values: Sequence[float]) -> float | None:
    return float(sum(values)) / len(values) if values else None


# --------------------------------------------------------------------------- the tournament


@dataclass(frozen=True, slots=True)
class _Side:
    """One of a player's counted games: the opponent's position, or -1 and the rating of a remaining game."""

    opponent: int
    rating: float
    score: float


def _at(s: _Side, established_at: Sequence[float], has: Sequence[bool], value: dict[int, float]) -> float:
    """How an opponent counts: a remaining game at its rating, a player with a DWZ at ``established_at``,
    a new player at ``value`` (rules 9.7)."""
    if s.opponent < 0:
        return s.rating
    return established_at[s.opponent] if has[s.opponent] else value[s.opponent]


def _sweep(new: Sequence[int], value: dict[int, float], sides: dict[int, list[_Side]], established_at: Sequence[float],
           has: Sequence[bool]) -> tuple[dict[int, float], bool]:
    """One sweep of the simultaneous iteration (rules 9.7): every new player's step from the values of
    the sweep before."""
    out = dict(value)
    moved = False
    for i in new:
        own = sides[i]
        we = sum(probability(value[i] - _at(s, established_at, has, value)) for s in own)
        step = step_of(sum(s.score for s in own), we, len(own))
        if step:
            out[i] = value[i] + step
            moved = True
    return out, moved


@dataclass
class _Tournament:
    """A tournament's counted games by player, and who has a DWZ (rules 9.1, 9.7)."""

    has: list[bool]
    games: list[list[_Side]]
    rest: list[list[_Side]]

    def counted(self, i: int, pool: Sequence[bool]) -> list[_Side]:
        """Player i's games against the players in ``pool``, and his remaining games if he has no DWZ."""
        return [s for s in self.games[i] if pool[s.opponent]] + ([] if self.has[i] else self.rest[i])


def _extreme(sides: Sequence[_Side]) -> bool:
    points = sum(s.score for s in sides)
    return points <= 0 or points >= len(sides)


def _stages(tm: _Tournament) -> list[int]:
    """Each player's stage (rules 9.7): 1 with at least 5 games against players with a DWZ, not all won
    nor all lost; 2 with as many against those and the first stage; 0 otherwise (and with a DWZ)."""
    m = len(tm.has)
    stage = [0] * m
    for i in range(m):
        if not tm.has[i]:
            own = tm.counted(i, tm.has)
            if len(own) >= MIN_GAMES and not _extreme(own):
                stage[i] = 1
    first = [tm.has[j] or stage[j] == 1 for j in range(m)]
    for i in range(m):
        if not tm.has[i] and stage[i] == 0:
            own = tm.counted(i, first)
            if len(own) >= MIN_GAMES and not _extreme(own):
                stage[i] = 2
    return stage


def _first_pass(tm: _Tournament, stage: list[int], established_at: list[float]
                ) -> tuple[dict[int, int], dict[int, int], bool]:
    """Start values, the simultaneous iteration (rules 9.7), players with a DWZ counting at
    ``established_at``: each new player's Rp, Ri, and whether the iteration settled."""
    m = len(tm.has)
    rp: dict[int, int] = {}
    for level in (1, 2):
        pool = [tm.has[j] or 0 < stage[j] < level for j in range(m)]
        for i in (i for i in range(m) if stage[i] == level):
            own = tm.counted(i, pool)
            start = {j: float(v) for j, v in rp.items()}
            rp[i] = start_value([_at(s, established_at, tm.has, start) for s in own], sum(s.score for s in own))[1]
    new = [i for i in range(m) if stage[i]]
    in_pool = [tm.has[j] or stage[j] > 0 for j in range(m)]
    sides = {i: tm.counted(i, in_pool) for i in new}
    value = {i: float(rp[i]) for i in new}
    for _ in range(MAX_SWEEPS):
        value, moved = _sweep(new, value, sides, established_at, tm.has)
        if not moved:
            return rp, {i: int(v) for i, v in value.items()}, True
    return rp, {i: int(v) for i, v in value.items()}, False


def rate(event: Event, options: Options | None = None, **overrides: Any) -> Results:
    """Rate a DWZ tournament (rules 9): the first DWZ of the new players by stages and the simultaneous
    iteration (9.7), the established players' performance (9.6), the Sonderwertung (9.8), their new
    DWZ (9.5). The period is the tournament's end (YYYY-MM): it gives the age groups and the rule set.
    The history table holds the remaining games (Restpartien) of players without a DWZ; the results'
    history, those they carry on (rules 9.7)."""
    opts = options_of(Options, options, **overrides)
    players = [model.as_player(Player, p) for p in event.players]
    played = {pid for g in event.games if g.counts for pid in (g.player, g.opponent)}
    check_period(event.period, [np.nan if p.birth_year is None else p.birth_year for p in players],
                 [p.id for p in players], playing=[p.id in played for p in players])
    year = period_year(event.period)
    rounded = per_game_rounding(opts, event.period)
    pos = event.index()
    m = len(players)
    tm = _Tournament([p.rating is not None for p in players], [[] for _ in range(m)], [[] for _ in range(m)])
    for g in event.games:
        if g.counts:
            a, b = pos[g.player], pos[g.opponent]  # type: ignore[index]
            score = float(g.result.score)  # type: ignore[arg-type]
            tm.games[a].append(_Side(b, 0.0, score))
            tm.games[b].append(_Side(a, 0.0, 1.0 - score))
    for h in event.history:
        if h.id in pos:
            tm.rest[pos[h.id]].append(_Side(-1, float(h.opponent_rating), float(h.result)))
    has = tm.has
    warnings: list[str] = []
    carrying = [players[i].id for i in range(m) if tm.rest[i] and has[i]]
    if carrying:
        warnings.append(f"{len(carrying)} player(s) with a DWZ have remaining games in the history table, which only "
                        f"players without one carry: not counted ({', '.join(carrying[:10])})")
    stage = _stages(tm)
    in_pool = [has[j] or stage[j] > 0 for j in range(m)]
    r0 = [float(p.rating) if p.rating is not None else 0.0 for p in players]
    rp, ri, settled = _first_pass(tm, stage, r0)
    first_dwz = {i: float(corrected(v)) for i, v in ri.items()}

    # the established players' performance (rules 9.6), and who is exceptional (9.8)
    perf: dict[int, float | None] = {}
    for i in (i for i in range(m) if has[i]):
        own = tm.counted(i, in_pool)
        perf[i] = performance([_at(s, r0, has, first_dwz) for s in own], [s.score for s in own])
    special = [False] * m
    if special_applies(opts, event.period):
        special = [has[i] and (x := perf.get(i)) is not None and x - r0[i] > SPECIAL_MARGIN for i in range(m)]
    seen: list[float] = [r0[i] if not special[i] else float(perf[i] or 0.0) for i in range(m)]
    if any(special[s.opponent] for i in ri for s in tm.counted(i, in_pool) if s.opponent >= 0):
        rp, ri, settled = _first_pass(tm, stage, seen)
        first_dwz = {i: float(corrected(v)) for i, v in ri.items()}
    if not settled:
        warnings.append(f"the first-DWZ iteration had not settled after {MAX_SWEEPS} sweeps: the values of the last "
                        "sweep are shown (rules 9.10)")

    rows: list[dict[str, Any]] = []
    history: list[HistoryGame] = []
    uncounted: list[tuple[str, str]] = []
    for i, p in enumerate(players):
        row: dict[str, Any] = {"id": p.id, "name": p.name, "rating_before": p.rating, "index": p.index,
                               "special": special[i], "birth_year": p.birth_year}
        own = tm.counted(i, in_pool)
        n = len(own)
        points = float(sum(s.score for s in own))
        if has[i]:
            row.update(status="established", games_rated=n, score=points, index_after=p.index, rating_after=p.rating)
            if n:
                opps = [_at(s, seen, has, first_dwz) for s in own]
                ps = [probability(r0[i] - o) for o in opps]
                we = float(sum(elobase(x) for x in ps) if rounded else sum(ps))
                age = (year - p.birth_year) if (year is not None and p.birth_year is not None) else None
                dev = development(r0[i], age, p.index, points, we)
                after = float(new_rating(r0[i], points, we, dev.e, n))
                row.update(expected=we, change=after - r0[i], rating_after=after, rc=sum(opps) / n,
                           performance=perf[i], index_after=None if p.index is None else p.index + 1,
                           j=dev.j, e0=dev.e0, fb=dev.fb, sbr=dev.sbr, e=dev.e)
        elif stage[i]:
            values = {j: float(v) for j, v in ri.items()}
            low = f", below {LOW_FIRST}: {LOW_BASE} + Ri / {LOW_DIVISOR}" if ri[i] < LOW_FIRST else ""
            row.update(status="unrated", games_rated=n, score=points, stage=stage[i], rp=rp[i], ri=ri[i],
                       rating_after=first_dwz[i], performance=float(ri[i]), index_after=1,
                       rc=float(sum(_at(s, seen, has, values) for s in own)) / n,
                       note=f"first DWZ: stage {stage[i]}, Rp {rp[i]}, Ri {ri[i]}{low}")
        else:
            auswahl = [has[j] or stage[j] == 1 for j in range(m)]
            own = tm.counted(i, auswahl)  # against Auswahl I (rules 9.7)
            n = len(own)
            points = float(sum(s.score for s in own))
            kept = [HistoryGame(p.id, _at(s, r0, has, first_dwz), s.score) for s in own]
            row.update(status="unrated", games_rated=n, score=points, note=no_first_note(n, points, kept))
            history += kept
            uncounted += [(p.id, players[s.opponent].id) for s in tm.games[i] if not auswahl[s.opponent]]
        if has[i] or stage[i]:
            uncounted += [(p.id, players[s.opponent].id) for s in tm.games[i] if not in_pool[s.opponent]]
        rows.append(row)
    rows = [{c.name: row.get(c.name) for c in COLUMNS} for row in rows]
    return Results.from_rows(CODE, COLUMNS, rows, period=event.period, warnings=warnings, history=history,
                             uncounted=uncounted)


def no_first_note(n: int, points: float, kept: Sequence[HistoryGame]) -> str:
    """Why a player without a DWZ got none (rules 9.7) and the remaining games he carries to his next
    tournament (the results' history), as ``calc`` takes them (``1720 0, 1905 0.5``)."""
    if n == 0:
        return "no first DWZ: no game against a player with a DWZ"
    why = (f"{n} game(s) against players with a DWZ, {MIN_GAMES} needed" if n < MIN_GAMES else
           f"all {n} games won" if points >= n else f"all {n} games lost")
    games = ", ".join(f"{h.opponent_rating:g} {h.result:g}" for h in kept)
    return f"no first DWZ: {why}; remaining games carried: {games}"


def rules_values() -> dict[str, Any]:
    """Figures the rules chapter quotes (rules 9.2, 9.3): P(D) at a few differences, the index up to
    which E is bounded by 5 x index."""
    return {
        "dwz_p_100": f"{probability(100):.3f}", "dwz_p_200": f"{probability(200):.3f}",
        "dwz_p_400": f"{probability(400):.3f}", "dwz_index_bound": E_INDEX_UP_TO,
        "dwz_d_99": f"{inverse(0.99):.0f}", "dwz_p_low": f"{P_BOUNDS[0]:g}", "dwz_p_high": f"{P_BOUNDS[1]:g}",
    }


# --------------------------------------------------------------------------- spreadsheet functions


def _expected_cell(rating: float, opponent: float) -> float:
    return float(probability(rating - opponent))


def _e_cell(rating: float, index: int | None = None, age: int | None = None, score: float | None = None,
            expected_points: float | None = None) -> int:
    if (score is None) != (expected_points is None):
        raise ValueError("give both the score W and the expectation We, or neither")
    return development(rating, age, index, score, expected_points).e


#: DWZ's own spreadsheet functions, beside the common ones (the front ends give them to Excel and Calc).
FUNCTIONS: Final = (
    SheetFunction(
        "DWZ_EXPECTED", _expected_cell, RATINGS_ARGS,
        ("DWZ expected score P(D): the normal distribution of the difference, standard deviation 200 sqrt 2 "
         "(xl-elo rules 9.2).",
         "Score attendu DWZ P(D) : la loi normale de l'écart, écart-type 200 racine de 2 (règles xl-elo 9.2)."),
        "expected scores", vectorised=lambda r, o: probability(np.asarray(r) - np.asarray(o))),
    SheetFunction(
        "DWZ_E", _e_cell,
        (SheetArg("rating", ("The DWZ before the tournament: a cell or a range.",
                             "La DWZ avant le tournoi : une cellule ou une plage."), schema.rating, range=True,
                  zero_is_blank=True),
         SheetArg("index", ("The index, the evaluations so far (blank: more than 5).",
                            "L'indice, le nombre d'évaluations (vide : plus de 5)."),
                  lambda v: schema.whole(v, 0, MAX_INDEX), optional=True),
         SheetArg("age", ("The age in the tournament's year (blank: over 25).",
                          "L'âge dans l'année du tournoi (vide : plus de 25 ans)."),
                  lambda v: schema.whole(v, 0, 150, what="an age from 0 to 150"), optional=True),
         SheetArg("score", ("The points W (blank, with expected blank: a result at the expectation).",
                            "Les points W (vide, avec expected vide : un résultat égal à l'espérance)."),
                  lambda v: schema.number(v, what="a score from 0 to 1000", low=0, high=1000), optional=True),
         SheetArg("expected", ("The expectation We, the sum of the games' P(D).",
                               "L'espérance We, la somme des P(D) des parties."),
                  lambda v: schema.number(v, what="an expectation from 0 to 1000", low=0, high=1000),
                  optional=True)),
        ("The development coefficient E of a DWZ: (R0/1000)^4 + J, the acceleration of a youth, the brake below "
         "1300, rounded and bounded by the index (xl-elo rules 9.3).",
         "Le coefficient de développement E de la DWZ : (R0/1000)^4 + J, l'accélération des jeunes, le frein sous "
         "1300, arrondi et borné selon l'indice (règles xl-elo 9.3)."),
        "ratings", refused="arguments score and expected"),
)


# --------------------------------------------------------------------------- published tables (rules 7)


def _dwz_p() -> TableView:
    """The DSB's probability table (Anhang 2.1 until 2013, FIDE's table by the DSB's own words) beside P(D)."""
    rows = t.FQE_EXPECTED_ROWS  # FIDE's classic table, 1.00 from 735 (the FIDE table of rules 2.2 before 2024)
    pub = [(lo, hi, pct / 100) for lo, hi, pct in rows]
    cmp = []
    diff = []
    for lo, hi, pct in rows:
        mid = (lo + hi) / 2 if hi is not None else lo
        p_lo = round(probability(lo), 4)
        p_hi = round(probability(hi), 4) if hi is not None else None
        computed = int(round_half_away(100 * probability(mid)))
        cmp.append((lo, hi, pct / 100, p_lo, p_hi, elobase(probability(lo)), computed / 100))
        diff.append(computed != pct)
    return TableView(
        "dwz-p", "DWZ probability P(D) of the higher-rated player by rating difference (the table until 2013)",
        t.Source("DSB Wertungsordnung, Anhang 2.1 (Stand 30. Mai 2014): 'mit der von der FIDE verwendeten Tabelle "
                 "identisch', http://www.schachbund.de/anhang-21.html",
                 "FIDE's table as it stood, 1.00 from 735 (the rows of rules 4.2; ChessLeagueManager's "
                 "transcription of the DSB's table agrees)"),
        ("from", "to", "P"), pub,
        ("from", "to", "P", "P(D) at from", "P(D) at to", "ELOBASE at from", "P(D) at middle, 2 dec."), cmp, diff,
        "P(D) = (1 + erf(D / 400)) / 2, the formula of rules 9.2 since 2013; ELOBASE: P(D) to three decimals, as "
        "the DSB's program took it before August 2013; marked where the middle of the range rounds to another "
        "hundredth",
    )


#: DWZ's published table (rules 7), by the name ``xl-elo tables NAME`` takes.
PUBLISHED_TABLES: Final = {"dwz-p": _dwz_p}


#: What this system declares to the front ends (:class:`~xl_elo.federations.contract.RatingSystem`).
SYSTEM: Final = RatingSystem(
    CODE=CODE, NAME=NAME, ALIASES=ALIASES, RULES=RULES, SOURCE=SOURCE, UNIT=UNIT, NEEDS_PERIOD=NEEDS_PERIOD,
    PACKAGE=__name__, Player=Player, Options=Options, COLUMNS=COLUMNS, expected=expected, performance=performance,
    calculate=calculate, rate=rate, k_factor=k_factor, first_rating=first_rating, rules_values=rules_values,
    HISTORY=HISTORY, NATIONAL_RATINGS=NATIONAL_RATINGS, PERFORMANCE=PERFORMANCE, TEMPLATE=TEMPLATE, EXAMPLE=EXAMPLE,
    FUNCTIONS=FUNCTIONS, PUBLISHED_TABLES=PUBLISHED_TABLES, COEFFICIENT=COEFFICIENT,
)

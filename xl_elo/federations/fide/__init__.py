"""FIDE rating period (rules section 2; FIDE Rating Regulations effective 2024, and the Rapid and
Blitz Rating Regulations of the same date).

A rated player's new rating is ``R_old + sum K * (score - PD)``, the sum rounded to the
nearest whole number, halves away from zero: +2.5 -> +3, -2.5 -> -3 (rules 2.1). PD comes
from FIDE's published table (2.2) with the 400-point rule, except for a player rated 2650 or
more on the standard list. K follows 2.3, including ``K * n <= 700``. An unrated player's
first rating follows 2.4; a performance is ``Ra + dp(p)`` with dp(1.00) = +800 and dp(0.00) =
-800 (2.6). A rated player whose new rating is below 1400 is shown as unrated on the next list
(2.8). The rapid and blitz lists (option ``list``, 2.9): the 400-point rule for every player,
and a game between players 600 or more apart is not rated when one of them is above 2600.

Decisions where the rules are silent (rules 2.7):
- a game between a rated and an unrated player is not rated for the rated player (the
  2024 regulations rate only games between rated players for a rated player); it counts
  for the unrated player's first rating;
- games between two unrated players count for neither;
- PD sums are exact: the table is held in hundredths, so ``K * (score - PD)`` is a whole
  number of hundredths and the rounding of 2.1 never meets a binary fraction.

Example (rules 2.1 - 2.3: 200 points apart, PD 0.76; K 20 for both; 20 x (1 - 0.76) = 4.8 and
20 x (0 - 0.24) = -4.8, each rounded)::

    >>> from xl_elo.model import Event
    >>> players = (Player("anna", rating=2000, games=50), Player("bob", rating=1800, games=50))
    >>> results = rate(Event(players, (Game("anna", "bob", "1-0", 1),), period="2026-10")).by_id()
    >>> results["anna"]["rating_after"], results["bob"]["rating_after"]
    (2005, 1795)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from xl_elo import core, model, schema
from xl_elo import tables as t
from xl_elo.compat import need_numpy, np
from xl_elo.core import MAX_DIFFERENCE, round_half_away
from xl_elo.federations.contract import (
    RATINGS_ARGS,
    Cadence,
    Calculation,
    FirstRating,
    GameLine,
    OpponentGame,
    RatingSystem,
    SheetFunction,
    TitleNorms,
    option,
    options_of,
)
from xl_elo.federations.fide import norms
from xl_elo.federations.fide.tables import FIDE_K20_APPROX
from xl_elo.model import (
    Column,
    Event,
    EventArrays,
    Results,
    birth_year_fact,
    check_period,
    fact,
    games_fact,
    period_year,
    results_columns,
)
from xl_elo.tables import FIDE_DP_TABLE, FIDE_PD_ROWS
from xl_elo.tableview import TableView, approx, expected_rows

CODE: Final = "fide"
NAME: Final = "FIDE (World Chess Federation)"
ALIASES: Final = ("world",)
RULES: Final = "2"
SOURCE: Final = "https://handbook.fide.com/chapter/B022024"
#: The rapid and blitz regulations (rules 2.9).
SOURCE_RAPID_BLITZ: Final = "https://handbook.fide.com/chapter/B02RBRegulations2024"
UNIT: Final = "period"
NEEDS_PERIOD: Final = True
TEMPLATE: Final = "fide_period.xlsx"
EXAMPLE: Final = "fide_period"
#: Its performance rating, in words (the functions' help; rules 2.6).
PERFORMANCE: Final = ("Ra + dp", "Ra + dp")
#: Its title norms (the Title Regulations B.01, rules 13): ``xl-elo norms``, the norm sheet.
NORMS: Final = TitleNorms(norms.RULES, norms.SOURCE, norms, "fide_norms.xlsx", "norms.trf")


#: FIDE's three lists (rules 2.9): the standard regulations, or the rapid and blitz ones.
LISTS: Final = ("standard", "rapid", "blitz")


@dataclass(frozen=True)
class Options:
    """What the FIDE rules leave to the user."""

    expected_method: str = option(
        "table", "expected score from FIDE's table (the regulations) or the logistic formula (the arbiter "
        "course's approximation)", choices=("table", "logistic"), source="rules 2.2", flag="--expected")
    list: str = option(
        "standard", "FIDE's list the games are rated on: standard, rapid or blitz (rapid and blitz: the 400-point "
        "rule for every player, no game rated between players 600 or more apart when one is above 2600; a TRF-26 "
        "report's time control sets it)", choices=LISTS, source="rules 2.9")

    @property
    def standard(self) -> bool:
        """The standard list's regulations (else the rapid and blitz ones, rules 2.9)."""
        return self.list == "standard"


#: K for new players and juniors, for the others, for players who reached 2400 (rules 2.3).
K_NEW: Final = 40
K_STANDARD: Final = 20
K_2400: Final = 10
#: ``K * n`` may not exceed this in one period (rules 2.3).
K_TIMES_GAMES_MAX: Final = 700
#: Games a new player needs before leaving K = 40 (rules 2.3).
NEW_PLAYER_GAMES: Final = 30
#: K 40 for a player rated below 2300 until the end of the year of his 18th birthday:
#: ``period year - birth year <= 18`` (rules 2.3).
JUNIOR_AGE: Final = 18
JUNIOR_RATING_LIMIT: Final = 2300
#: The published rating that moves a player to K = 10 for good.
K10_RATING: Final = 2400
#: Differences above this count as this (rules 2.2) ...
DIFFERENCE_CAP: Final = 400
#: ... except for a player rated this or more (since October 2025).
NO_CAP_FROM: Final = 2650
#: First rating (rules 2.4).
FIRST_RATING_MIN_GAMES: Final = 5
FIRST_RATING_MIN_SCORE: Final = 0.5
HYPOTHETICAL_OPPONENT: Final = 1800
FIRST_RATING_CAP: Final = 2200
#: No rating below this is published: a first rating below it is not, and a rated player whose
#: rating drops below it is shown as unrated on the next list (rules 2.4, 2.8).
RATING_FLOOR: Final = 1400
#: Rapid and blitz (rules 2.9): a game between players this far apart or more is not rated ...
NOT_RATED_GAP: Final = 600
#: ... when one of them is rated above this.
NOT_RATED_ABOVE: Final = 2600
#: Titles that require a rating of 2400 at some time (GM 2500, IM 2400), in TRF-16 and TRF-06
#: spellings: a report's titled player has reached 2400 (rules 2.7).
TITLES_2400: Final = frozenset({"GM", "IM", "G", "M"})


@dataclass(frozen=True, slots=True)
class Player(model.Player):
    """A FIDE player: what decides his K (rules 2.3)."""

    games: int | None = games_fact(
        "2.3", calc_help="rated games before: fewer than 30 gives K 40 (default: not new)",
        function_doc=("FIDE: rated games played before (blank: not a new player).",
                      "FIDE : parties classées jouées auparavant (vide : pas un nouveau joueur)."),
        unreported=(None, f"a TRF report does not say how many rated games each player has played: every rated "
                          f"player counts as not new ({NEW_PLAYER_GAMES} games or more), so K comes from the rating, "
                          "the age and the titles; give FIDE's rating list (--rating-list) for each player's own K"))
    birth_year: int | None = birth_year_fact(
        "2.3", calc_help="the year of birth (with --period): K 40 to the end of the year of the 18th birthday",
        function_doc=("FIDE: the player's age in the period's year (blank: adult).",
                      "FIDE : l'âge du joueur dans l'année de la période (vide : adulte)."))
    ever_2400: bool = fact(
        schema.YES_NO, "the published rating has reached 2400 at some time (K 10 from then on)", default=False,
        rules="2.3", array="flag", calc="--ever-2400", calc_help="the rating has reached 2400 once", switch=True,
        function="ever_2400", function_doc=("FIDE: yes once the published rating has reached 2400 (blank: no).",
                                            "FIDE : oui dès que le classement publié a atteint 2400 (vide : non)."),
        report=lambda entrant: entrant.title in TITLES_2400)

#: How a rating at an event's start reads in a game's row: blank for the period's (the players table's), a
#: rating from 0 to the maximum, 0 for a player unrated then (rules 2.11).
START_RATING: Final = schema.Reading(
    lambda v, *, typed=False, year=None: schema.number(
        v, what=f"a rating at the event's start: a whole number from 0 (unrated then) to {schema.MAX_RATING}, "
                "blank for the period's", low=0, high=schema.MAX_RATING, whole=True, typed=typed),
    whole=(0, schema.MAX_RATING))


@dataclass(frozen=True, slots=True)
class Game(model.Game):
    """A FIDE game, with the ratings its players had on the list in force when its event started, where the
    period holds events started under earlier lists (rules 2.11)."""

    player_rating: float | None = fact(
        START_RATING, "the first player's rating on the list in force when the event started (blank: the period's; "
                      "0: unrated then)", rules="2.11", report=lambda me, other: me.rating or 0.0, one_game=False)
    opponent_rating: float | None = fact(
        START_RATING, "the opponent's rating on the list in force when the event started (blank: the period's; "
                      "0: unrated then)", rules="2.11", report=lambda me, other: other.rating or 0.0,
        one_game=False)


COLUMNS: Final = results_columns(
    Column("ever_2400", "bool", True, "the rating has reached 2400 (K 10 from now on)"),
    Column("birth_year", "int", True, "the year of birth, as given: the next period's K counts the age (2.3)"),
    Column("note", "note", False, "how an unrated player's first rating came out"),
    blank=("bonus",),
)

_PD = core.range_table(FIDE_PD_ROWS)
_DP = core.by_hundredth(FIDE_DP_TABLE)


# --------------------------------------------------------------------------- one game, one player


def pd_hundredths(difference: Any) -> Any:
    """Expected score in hundredths for a rating difference (own - opponent), FIDE's table (rules 2.2).

    No 400-point rule here (see :func:`expected_hundredths`). The lower-rated side gets
    100 minus the higher side's value.
    """
    return core.table_hundredths(_PD, difference)


def no_cap_from(options: Options | None = None) -> float:
    """The rating from which the 400-point rule no longer applies: 2650 on the standard list, never on
    the rapid and blitz lists (rules 2.2, 2.9)."""
    return NO_CAP_FROM if (options or Options()).standard else float("inf")


def capped_difference(rating: float, opponent: float, options: Options | None = None) -> float:
    """Own rating minus the opponent's as the table reads it: at most 400 either way below 2650
    (standard list), for every player on the rapid and blitz lists (rules 2.2, 2.9)."""
    d = rating - opponent
    return d if rating >= no_cap_from(options) else max(-DIFFERENCE_CAP, min(DIFFERENCE_CAP, d))


def expected_hundredths(rating: Any, opponent: Any, options: Options | None = None) -> Any:
    """FIDE expected score (PD) in hundredths, with the 400-point rule (rules 2.2, 2.9), element-wise."""
    if core.is_scalar(rating, opponent):
        return pd_hundredths(capped_difference(float(rating), float(opponent), options))
    r = np.asarray(rating, dtype=np.float64)
    d = r - np.asarray(opponent, dtype=np.float64)
    return pd_hundredths(np.where(r >= no_cap_from(options), d, np.clip(d, -DIFFERENCE_CAP, DIFFERENCE_CAP)))


def not_rated_gap(rating: Any, opponent: Any, options: Options | None = None) -> Any:
    """True where a game between two rated players is not rated on the rapid and blitz lists: 600
    points or more apart with one of them above 2600 (rules 2.9); never on the standard list."""
    if (options or Options()).standard:
        return False if core.is_scalar(rating, opponent) else np.zeros(np.shape(rating), bool)
    if core.is_scalar(rating, opponent):
        r, o = float(rating), float(opponent)
        return abs(r - o) >= NOT_RATED_GAP and max(r, o) > NOT_RATED_ABOVE
    r = np.asarray(rating, dtype=np.float64)
    o = np.asarray(opponent, dtype=np.float64)
    return (np.abs(r - o) >= NOT_RATED_GAP) & (np.maximum(r, o) > NOT_RATED_ABOVE)


def expected(rating: Any, opponent: Any, options: Options | None = None) -> Any:
    """FIDE expected score of one game (rules 2.2): PD from the table with the 400-point rule (for
    every player on the rapid and blitz lists, 2.9), or the logistic formula with
    ``expected_method="logistic"``. Element-wise on arrays too."""
    opts = options or Options()
    if opts.expected_method == "logistic":
        return core.expected_score(rating, opponent)
    h = expected_hundredths(rating, opponent, opts)
    return h / 100 if core.is_scalar(rating, opponent) else h / 100.0


def k_factor(rating: Any, games: Any = None, age: Any = None, ever_2400: Any = False,
             options: Options | None = None, n_games: Any = 0) -> Any:
    """FIDE K-factor (rules 2.3), element-wise.

    40 until 30 rated games (``games`` before the period; blank counts as not new) and, for a
    player rated below 2300, until the end of the year of his 18th birthday (``age`` = period
    year - birth year <= 18; blank counts as adult); otherwise 10 once the rating has reached
    2400 (now or ``ever_2400``); otherwise 20. With ``n_games`` games in the period, K is
    lowered to the largest whole number with ``K * n_games <= 700``.
    """
    if core.is_scalar(rating) and not isinstance(games, list) and not isinstance(age, list):
        r = float(rating)
        new = games is not None and games == games and float(games) < NEW_PLAYER_GAMES
        junior = age is not None and age == age and float(age) <= JUNIOR_AGE and r < JUNIOR_RATING_LIMIT
        k = K_NEW if (new or junior) else K_2400 if (bool(ever_2400) or r >= K10_RATING) else K_STANDARD
        n = int(n_games or 0)
        return min(k, K_TIMES_GAMES_MAX // n) if n > 0 else k
    r = np.asarray(rating, dtype=np.float64)
    g = np.asarray(np.nan if games is None else games, dtype=np.float64)
    a = np.asarray(np.nan if age is None else age, dtype=np.float64)
    ever = np.asarray(ever_2400, dtype=bool) | (r >= K10_RATING)
    junior = (a <= JUNIOR_AGE) & (r < JUNIOR_RATING_LIMIT)
    k = np.where((g < NEW_PLAYER_GAMES) | junior, K_NEW, np.where(ever, K_2400, K_STANDARD))
    n = np.asarray(n_games, dtype=np.int64)
    limit = np.where(n > 0, K_TIMES_GAMES_MAX // np.maximum(n, 1), K_NEW)
    return np.minimum(k, limit).astype(np.int64)


def dp(p_hundredths: int) -> float:
    """FIDE's D(P) at p = x/100 for x = 0 .. 100 (table 8.1.1: -800 at 0.00, +800 at 1.00; rules 2.4, 2.6)."""
    return _DP[int(p_hundredths)]


def performance(opponent_ratings: Sequence[float], scores: Sequence[float], rating: float | None = None,
                options: Options | None = None) -> float | None:
    """FIDE performance ``Ra + dp(p)`` (rules 2.6): Ra the average opponent, p rounded to two decimals.

    dp(1.00) = +800 and dp(0.00) = -800, so an all-wins or all-losses event has one; None
    with no game. ``rating`` is not used (the contract's argument for FFE's window).
    """
    opps = [float(o) for o in opponent_ratings]
    if not opps:
        return None
    total = sum(float(s) for s in scores)
    return sum(opps) / len(opps) + dp(core.hundredths_half_up(total, len(opps)))


def first_rating(opponent_ratings: Sequence[float | None], scores: Sequence[float],
                 options: Options | None = None) -> FirstRating:
    """First rating of an unrated player from his games against rated opponents (rules 2.4).

    Unrated opponents (None) do not count. Two hypothetical opponents at 1800 with two draws
    are added; p is rounded to two decimals, dp read from the table; at least 5 games and
    half a point; capped at 2200; below 1400 it is not published.
    """
    games = [(float(o), float(s)) for o, s in zip(opponent_ratings, scores, strict=True) if o is not None]
    n = len(games)
    points = sum(s for _, s in games)
    ra = (sum(o for o, _ in games) + 2 * HYPOTHETICAL_OPPONENT) / (n + 2)
    p = core.hundredths_half_up(points + 1, n + 2)
    d = dp(p)
    steps: tuple[tuple[str, Any], ...] = (("Ra", ra), ("p", p / 100), ("dp", d))
    if n < FIRST_RATING_MIN_GAMES or points < FIRST_RATING_MIN_SCORE:
        return FirstRating(None, "unrated", None, n, points, steps)
    ru = min(round_half_away(ra + d), FIRST_RATING_CAP)
    if ru < RATING_FLOOR:
        return FirstRating(None, "below floor", ra + d, n, points, (*steps, ("Ra + dp", ra + d)))
    return FirstRating(int(ru), "first rating", ra + d, n, points, (*steps, ("Ru", int(ru))))


def calculate(player: Player, games: Sequence[OpponentGame], period: str | None = None, k: int | None = None,
              options: Options | None = None) -> Calculation:
    """One player's period as FIDE's calculator shows it (rules 2.1 - 2.4, 2.8, 2.9).

    A rated player: each game's difference (with the 400-point rule), PD and ``K (score - PD)``;
    K from ``k`` when given, else from the player's games, age (``period`` year - birth year)
    and 2400 flag, lowered by the 700 rule; the sum rounded halves away from zero; a new rating
    below 1400 is not published (the player is shown as unrated on the next list). On the rapid
    and blitz lists a game 600 points or more apart with a player above 2600 is not rated. An
    unrated player: his first rating (rules 2.4).
    """
    opts = options or Options()
    year = period_year(period)
    if player.rating is None:
        first = first_rating([g.rating for g in games], [g.score for g in games], opts)
        lines = tuple(GameLine(g.rating, g.rating, g.score, None, None, None,
                               "" if g.rating is not None else "unrated opponent: not counted") for g in games)
        said: tuple[str, ...] = ()
        if first.status == "unrated":
            said = (no_first_rating(first.games, first.score),)
        elif first.rating is None:
            said = (f"Ra + dp = {first.performance:.0f} is below the floor of {RATING_FLOOR}: no first rating is "
                    "published (rules 2.4)",)
        return Calculation(CODE, None, lines, sum(g.score for g in games), first.rating,
                           performance=first.performance, status=first.status, steps=first.steps, notes=said)
    r = float(player.rating)
    far = [g.rating is not None and bool(not_rated_gap(r, float(g.rating), opts)) for g in games]
    rated = [g for g, f in zip(games, far, strict=True) if g.rating is not None and not f]
    n = len(rated)
    age = (year - player.birth_year) if (year is not None and player.birth_year is not None) else None
    kk = int(k) if k is not None else int(k_factor(r, player.games, age, player.ever_2400, opts, n))
    game_lines: list[GameLine] = []
    hundredths = 0
    logistic = opts.expected_method == "logistic"
    total_e = 0.0
    for g, f in zip(games, far, strict=True):
        if g.rating is None:
            game_lines.append(GameLine(None, None, g.score, None, None, None, "unrated opponent: not rated"))
            continue
        if f:
            game_lines.append(GameLine(g.rating, None, g.score, r - float(g.rating), None, None, gap_note(opts)))
            continue
        d = capped_difference(r, float(g.rating), opts)
        e = core.logistic(r, float(g.rating)) if logistic else pd_hundredths(d) / 100
        total_e += e
        if not logistic:
            hundredths += kk * (round(100 * g.score) - pd_hundredths(d))
        game_lines.append(GameLine(g.rating, r - d, g.score, d, e, kk * (g.score - e)))
    score = sum(g.score for g in rated)
    change = core.round_hundredths_away(hundredths) if not logistic else round_half_away(kk * (score - total_e))
    after: float | None = r + change
    notes: tuple[str, ...] = ()
    if after is not None and after < RATING_FLOOR:
        notes, after = (floor_note(after),), None
    return Calculation(CODE, r, tuple(game_lines), score, after, change=change, k=kk, expected=total_e,
                       performance=performance([g.rating for g in rated], [g.score for g in rated]) if n else None,  # type: ignore[misc]
                       status="established", notes=notes,
                       steps=((("list", opts.list),) if not opts.standard else ()) + (
                           ("games rated", n), ("K x (score - expected)", kk * (score - total_e))))


#: The engine's notes (rules 2.4, 2.8) as phrases, their figures placeholders: what the results say, and what the
#: template's note column says in its language (template.py asks the same phrases).
FLOOR_NOTE: Final = "new rating {rating} is below {floor}: shown as unrated on the next list (rules 2.8)"
NO_FIRST_NOTE: Final = "no first rating: {why} (rules 2.4)"
#: Why no first rating: too few games (plural, singular), too few games and points (plural, singular), too few
#: points.
FEW: Final = ("{n} games against rated opponents, fewer than {min}",
              "{n} game against rated opponents, fewer than {min}",
              "{n} games against rated opponents, fewer than {min} and {points} points, fewer than {min_points}",
              "{n} game against rated opponents, fewer than {min} and {points} points, fewer than {min_points}",
              "{points} points, fewer than {min_points}")
BELOW_FLOOR_NOTE: Final = "below floor: Ra + dp = {rating} is below the floor of {floor}: not published"
FIRST_NOTE: Final = "first rating: Ra {ra}, p {p}, dp {dp}"
#: A game of the rapid and blitz lists not rated (rules 2.9): said of the game, and of the player's games.
NOT_RATED_NOTE: Final = "not rated: {gap} points or more apart, one above {above} ({list} list, rules 2.9)"
GAP_NOTE: Final = "{n} game(s) " + NOT_RATED_NOTE


def no_first_rating(games: int, points: float) -> str:
    """Why an unrated player gets no first rating in this period (rules 2.4): too few games or points."""
    few_games, few_points = games < FIRST_RATING_MIN_GAMES, points < FIRST_RATING_MIN_SCORE
    figures = {"n": games, "min": FIRST_RATING_MIN_GAMES, "points": f"{points:g}",
               "min_points": f"{FIRST_RATING_MIN_SCORE:g}"}
    if few_games:
        why = FEW[(2 if few_points else 0) + (games == 1)].format(**figures)
    else:
        why = FEW[4].format(**figures) if few_points else ""
    return NO_FIRST_NOTE.format(why=why)


def floor_note(after: float) -> str:
    """What the results say of a rated player whose new rating is below the floor (rules 2.8)."""
    return FLOOR_NOTE.format(rating=int(after), floor=RATING_FLOOR)


def gap_note(options: Options | None = None) -> str:
    """Why a game of the rapid and blitz lists is not rated (rules 2.9)."""
    return NOT_RATED_NOTE.format(gap=NOT_RATED_GAP, above=NOT_RATED_ABOVE, list=(options or Options()).list)


# --------------------------------------------------------------------------- the period on arrays


@functools.cache
def _tables(standard: bool = True) -> dict[str, Any]:
    """The look-up arrays of the period loop (built once per list kind, on first use): on the rapid and
    blitz lists no player is past the 400-point rule (rules 2.9)."""
    need_numpy("rating a FIDE period")
    row = 2 * MAX_DIFFERENCE + 1
    # PD in hundredths by ``difference + MAX_DIFFERENCE``: row 0 with the 400-point rule, row 1
    # without it (a player rated 2650 or more), then zeros, where a side against an unrated
    # opponent lands. One array index gives the expected score of a side.
    diffs = np.arange(-MAX_DIFFERENCE, MAX_DIFFERENCE + 1)
    pd_by_signed = np.concatenate([
        pd_hundredths(np.clip(diffs, -DIFFERENCE_CAP, DIFFERENCE_CAP)), pd_hundredths(diffs),
        np.zeros(2 * row, np.int64),
    ]).astype(np.float64)
    unrated_key = -2 * row  # what an unrated opponent's rating reads as: past the two table rows

    def code(rating: Any, rated: Any) -> Any:
        base = rating + MAX_DIFFERENCE + row * ((rating >= NO_CAP_FROM) & standard)
        key = np.where(rated, rating, unrated_key)
        return (base << _KEY_BITS) + (key - unrated_key)

    # a player's word for the period loop by whole rating; it fits in 32 bits (base < 2**14,
    # key < 2**16), which halves what the random reads of a period touch
    all_ratings = np.arange(MAX_DIFFERENCE + 1)
    return {
        "pd_by_signed": pd_by_signed, "unrated_key": unrated_key,
        "code_by_rating": code(all_ratings, np.ones(MAX_DIFFERENCE + 1, bool)).astype(np.int32),
        "unrated_code": int(code(np.zeros(1, np.int64), np.zeros(1, bool))[0]),
        # games played in the period -> largest K with K * games <= 700 (rules 2.3)
        "k_limit": np.concatenate([[K_NEW], K_TIMES_GAMES_MAX // np.arange(1, K_TIMES_GAMES_MAX + 2)]),
        "dp": np.array(_DP, dtype=np.float64),
    }


_KEY_BITS = 16
_KEY_MASK = (1 << _KEY_BITS) - 1
#: Weight of a game's count beside its points (in halves) in one per-player sum, so both add up
#: exactly in one pass while a player has fewer than 2**26 games.
_COUNT_BITS = float(2**26)
#: Weight of an opponent's rating beside the expected score in hundredths in one sum; exact
#: while a player's period has fewer games than this (3500 * games * 2**24 < 2**53).
_RATING_SHIFT = float(2**24)
_PACKED_GAMES_LIMIT = 150_000
#: Games handled per step of the period loop: big enough that numpy does the work, small enough
#: that every temporary stays in the processor's cache and is reused from step to step.
_CHUNK = 1 << 16


def _period_sums(ev: EventArrays, expected_method: str, pack: bool = True, options: Options | None = None
                 ) -> tuple[Any, ...]:
    """Per-player games, points, sum of expected scores and of opponents' ratings (rules 2.1, 2.4).

    Only sides whose opponent is rated count. Each side's weights are computed chunk by chunk
    (every temporary stays in the processor's cache and is reused), written once into a
    column per sum, and summed per player by ``np.bincount`` over the whole period.
    Expected scores are in hundredths for the table (exact sums), fractions for the logistic.
    With the table, a side's opponent rating and expected score share one weight
    ``rating * 2**24 + hundredths`` (exact while a player has fewer than 150,000 games in the
    period; beyond that the two are summed apart).
    """
    t = _tables((options or Options()).standard)
    pd_by_signed, unrated_key = t["pd_by_signed"], t["unrated_key"]
    rated = ev.rated
    m = len(rated)
    r0 = np.where(rated, ev.rating, 0.0)  # a blank rating reads 0: such sides are weighted 0
    whole = bool(np.array_equal(r0, np.floor(r0))) and (m == 0 or r0.max() <= MAX_DIFFERENCE)
    table = expected_method == "table" and whole
    packed_eo = table and pack
    # what one look-up per player gives a game: where his own row of the PD table starts
    # (base) and how he reads as an opponent (key, past both rows when unrated), in one word
    r_int = r0.astype(np.int64) if whole else np.zeros(m, np.int64)
    code = np.where(rated, t["code_by_rating"][r_int], t["unrated_code"])
    a_all, b_all, s_all = ev.player, ev.opponent, ev.score
    g = len(a_all)
    # one weight per side (side a of every game, then side b) for each sum
    packed_w, exp_w = np.empty(2 * g), np.empty(2 * g)
    opp_w = exp_w if packed_eo else np.empty(2 * g)
    size = min(_CHUNK, g)
    c_buf = (np.empty(size, code.dtype), np.empty(size, code.dtype))
    key_buf, idx_buf = np.empty(size, code.dtype), np.empty(size, code.dtype)
    h_buf, e_buf, rated_buf = np.empty(size), np.empty(size), np.empty(size, bool)
    for start in range(0, g, _CHUNK):
        a, b = a_all[start:start + _CHUNK], b_all[start:start + _CHUNK]
        n = len(a)
        ca, cb, against_key, idx, h, e, counts = (c_buf[0][:n], c_buf[1][:n], key_buf[:n], idx_buf[:n], h_buf[:n],
                                                  e_buf[:n], rated_buf[:n])
        np.take(code, a, out=ca)
        np.take(code, b, out=cb)
        # a side's count and points (in halves) in one exact weight: halves * 2**26 + 1, so
        # side b's is (2 - halves) * 2**26 + 1 = (2 * 2**26 + 2) - side a's
        np.multiply(s_all[start:start + n], 2.0 * _COUNT_BITS, out=h)
        np.add(h, 1.0, out=h)
        for side, (who, against, c_who, c_against) in enumerate(((a, b, ca, cb), (b, a, cb, ca))):
            at = slice(side * g + start, side * g + start + n)
            np.bitwise_and(c_against, _KEY_MASK, out=against_key)
            np.add(against_key, unrated_key, out=against_key)
            np.greater_equal(against_key, 0, out=counts)  # the opponent is rated
            w = packed_w[at]
            if side:
                np.subtract(2.0 * _COUNT_BITS + 2.0, h, out=w)
                np.multiply(w, counts, out=w)
            else:
                np.multiply(h, counts, out=w)
            if table:
                np.maximum(against_key, 0, out=idx)  # the opponent's rating, 0 when unrated
                np.multiply(idx, _RATING_SHIFT if packed_eo else 1.0, out=opp_w[at])
                np.right_shift(c_who, _KEY_BITS, out=idx)
                np.subtract(idx, against_key, out=idx)
                np.take(pd_by_signed, idx, out=e)
                if packed_eo:
                    np.add(exp_w[at], e, out=exp_w[at])
                else:
                    exp_w[at] = e
            else:
                own, other = r0[who], r0[against]
                opp_w[at] = other
                e = (expected_hundredths(own, other, options) if expected_method == "table"
                     else core.expected_score(own, other))
                exp_w[at] = np.where(counts, e, 0.0)
    columns = (packed_w, exp_w) if packed_eo else (packed_w, exp_w, opp_w)
    sums = [np.bincount(a_all, w[:g], m) + np.bincount(b_all, w[g:], m) for w in columns]
    halves_sum = np.floor(sums[0] / _COUNT_BITS)
    games = sums[0] - halves_sum * _COUNT_BITS
    if not packed_eo:
        return games, halves_sum / 2.0, sums[1], sums[2]
    if games.max(initial=0) >= _PACKED_GAMES_LIMIT:
        return _period_sums(ev, expected_method, pack=False, options=options)
    opp = np.floor(sums[1] / _RATING_SHIFT)
    return games, halves_sum / 2.0, sums[1] - opp * _RATING_SHIFT, opp


def _hundredths_half_up(halves: Any, den: Any) -> Any:
    """``100 * halves / den`` rounded half up, element-wise, in whole numbers (no binary fractions).

    Computed as ``floor((200 * halves + den) / (2 * den))``: both whole numbers far below
    2**52, so the division's correctly rounded quotient never crosses a whole number.
    """
    num = 100.0 * np.asarray(halves, dtype=np.float64)
    d = np.maximum(np.asarray(den, dtype=np.float64), 1.0)
    return np.floor((2.0 * num + d) / (2.0 * d)).astype(np.int64)


def _first_from_sums(games: Any, points: Any, opponents: Any) -> tuple[Any, ...]:
    """Rules 2.4 from per-player sums: Ra, p (hundredths), dp, Ru (capped) and whether enough games."""
    ra = (opponents + 2 * HYPOTHETICAL_OPPONENT) / (games + 2)
    # p with the two hypothetical draws: 100 * (2S + 2) / (2 (n + 2)), halves up (p is positive)
    p_pct = _hundredths_half_up(2 * points + 2, 2 * (games + 2))
    d = _tables()["dp"][p_pct]
    ru = np.minimum(round_half_away(ra + d), FIRST_RATING_CAP)
    enough = (games >= FIRST_RATING_MIN_GAMES) & (points >= FIRST_RATING_MIN_SCORE)
    return ra, p_pct, d, ru, enough


def _performance_from_sums(games: Any, points: Any, opponents: Any) -> Any:
    """``Ra + dp(p)`` from per-player sums, p rounded to hundredths (NaN with no game; rules 2.6)."""
    p_pct = _hundredths_half_up(2 * points, 2 * games)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(games > 0, opponents / games + _tables()["dp"][p_pct], np.nan)


def start_ratings(ev: EventArrays) -> tuple[Any, Any] | None:
    """Each counting game's ratings at its event's start (rules 2.11), for its first player and its opponent:
    NaN where the game gives none (the period's: the players table's), 0 where the player was unrated then.
    None when no game gives one (every event started under the period's list)."""
    a, b = ev.game_facts.get("player_rating"), ev.game_facts.get("opponent_rating")
    if a is None or b is None or not len(a) or (np.isnan(a).all() and np.isnan(b).all()):
        return None
    return np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)


def _sides(ev: EventArrays, starts: tuple[Any, Any]) -> tuple[Any, Any, Any, Any]:
    """Per counting game: the rating each side counts with, and how his opponent sees him (rules 2.11).

    A side counts with his rating at the event's start; one unrated then who is rated in the period counts
    with the period's rating, while his opponents count him as unrated (FIDE 8.2.4); a game that gives no
    start rating counts with the period's."""
    period_a, period_b = ev.rating[ev.player], ev.rating[ev.opponent]
    start_a, start_b = starts
    own_a = np.where(np.isnan(start_a) | (start_a == 0), period_a, start_a)
    own_b = np.where(np.isnan(start_b) | (start_b == 0), period_b, start_b)
    seen_a = np.where(np.isnan(start_a), period_a, np.where(start_a == 0, np.nan, start_a))
    seen_b = np.where(np.isnan(start_b), period_b, np.where(start_b == 0, np.nan, start_b))
    return own_a, own_b, seen_a, seen_b


def _event_sums(ev: EventArrays, starts: tuple[Any, Any], method: str, options: Options
                ) -> tuple[Any, Any, Any, Any, Any]:
    """Per-player games, points, expected scores (hundredths with the table) and opponents' ratings, and the
    rapid and blitz games left out per player, when each game counts with its event's start ratings (rules
    2.1, 2.11). A side counts when his opponent was rated at the event's start."""
    m = ev.n_players
    own_a, own_b, seen_a, seen_b = _sides(ev, starts)
    keep = np.ones(len(own_a), bool)
    not_rated = np.zeros(m)
    if not options.standard:
        far = not_rated_gap(np.nan_to_num(seen_a), np.nan_to_num(seen_b), options) & ~np.isnan(seen_a) \
            & ~np.isnan(seen_b)
        if far.any():
            not_rated = (np.bincount(ev.player[far], minlength=m) + np.bincount(ev.opponent[far], minlength=m)
                         ).astype(np.float64)
            keep = ~far
    totals = [np.zeros(m) for _ in range(4)]
    for who, own, against, score in ((ev.player, own_a, seen_b, ev.score), (ev.opponent, own_b, seen_a,
                                                                             1.0 - ev.score)):
        counts = keep & ~np.isnan(against)
        w, o, x, s = who[counts], own[counts], against[counts], score[counts]
        mine = ~np.isnan(o)
        own0 = np.nan_to_num(o)
        if method == "table" and np.array_equal(own0, np.floor(own0)) and np.array_equal(x, np.floor(x)):
            # whole ratings: PD by one look-up of the signed difference, in the row of the 400-point rule
            # or past it (a player of 2650 and more on the standard list), as the one-list loop reads it
            t = _tables(options.standard)
            row = 2 * MAX_DIFFERENCE + 1
            index = (own0 - x).astype(np.int64) + MAX_DIFFERENCE
            index += row * (own0 >= no_cap_from(options))
            e = np.where(mine, t["pd_by_signed"][index], 0.0)
        elif method == "table":
            e = np.where(mine, expected_hundredths(own0, x, options), 0.0)
        else:
            e = np.where(mine, core.expected_score(own0, x), 0.0)
        for total, weights in zip(totals, (np.ones(len(w)), s, e, x), strict=True):
            total += np.bincount(w, weights=weights, minlength=m)
    return totals[0], totals[1], totals[2], totals[3], not_rated


def period_arrays(ev: EventArrays, options: Options | None = None) -> dict[str, Any]:
    """The whole period as arrays, one entry per player (rules 2): the vectorised core of :func:`rate`.

    Returns ``n``, ``score``, ``expected``, ``k``, ``change``, ``rating_after``, ``performance`` for
    rated players and ``first_games``, ``first_score``, ``ra``, ``p``, ``dp``, ``first`` (NaN when not
    published, and for rated players), ``enough`` for unrated ones. No Python loop per game or
    per player.

    A side of a game counts when the opponent is rated: for a rated player that is a rated game
    (rules 2.1), for an unrated one a game towards his first rating (2.4), so one pass of
    per-player sums serves both. K is the same for all of a player's games, so his change is
    ``K * sum(score - PD)`` rounded: sums of hundredths, exact.

    On the rapid and blitz lists the games between players 600 or more apart with one above 2600
    are left out first (``not_rated``: each player's count of them; rules 2.9). ``below_floor``:
    the rated players whose new rating is below 1400, whose ``rating_after`` is NaN (rules 2.8).
    """
    opts = options or Options()
    method = opts.expected_method
    rated = ev.rated
    starts = start_ratings(ev)
    if starts is not None:  # events started under earlier lists: each game from its own (rules 2.11)
        games, points, exp, opp, not_rated = _event_sums(ev, starts, method, opts)
    else:
        not_rated = np.zeros(len(rated))
        if not opts.standard and len(ev.player):
            a, b = ev.rating[ev.player], ev.rating[ev.opponent]
            far = not_rated_gap(np.nan_to_num(a), np.nan_to_num(b), opts) & ~np.isnan(a) & ~np.isnan(b)
            if far.any():
                m = len(rated)
                not_rated = (np.bincount(ev.player[far], minlength=m) + np.bincount(ev.opponent[far], minlength=m)
                             ).astype(np.float64)
                keep = ~far
                ev = replace(ev, player=ev.player[keep], opponent=ev.opponent[keep], score=ev.score[keep])
        games, points, exp, opp = _period_sums(ev, method, options=opts)
    unit = 100.0 if method == "table" else 1.0
    n = np.where(rated, games, 0.0)
    n_int = n.astype(np.int64)
    k_limit = _tables()["k_limit"]
    k = np.minimum(k_factor(ev.rating, ev.games, ev.age, ev.ever_2400), k_limit[np.minimum(n_int, len(k_limit) - 1)])
    if unit == 100.0:  # whole hundredths: round halves away from zero exactly (rules 2.1)
        hundredths = k * (100.0 * points - exp)
        change = np.copysign(np.floor((np.abs(hundredths) + 50.0) / 100.0), hundredths) + 0.0  # no -0
    else:
        change = round_half_away(k * (points - exp))
    change = np.where(rated, change, 0.0)
    first_games = np.where(rated, 0.0, games)
    first_score = np.where(rated, 0.0, points)
    # first ratings (rules 2.4) only for the unrated players: NaN (not enough) for the others
    new = np.flatnonzero(~rated)
    ra, p, d, first = (np.full(len(rated), np.nan) for _ in range(4))
    enough = np.zeros(len(rated), bool)
    ra[new], p_pct, d[new], ru, enough[new] = _first_from_sums(games[new], points[new], opp[new])
    p[new] = p_pct / 100.0
    first[new] = np.where(enough[new] & (ru >= RATING_FLOOR), ru, np.nan)
    d[~enough] = np.nan
    perf = _performance_from_sums(n, np.where(rated, points, 0.0), opp)
    after = np.where(rated, ev.rating + change, np.nan)
    below_floor = rated & (after < RATING_FLOOR)
    return {
        "rated": rated, "n": n, "score": np.where(rated, points, 0.0),
        "expected": np.where(rated, exp / unit, 0.0),
        "k": k.astype(np.float64), "change": change, "rating_after": np.where(below_floor, np.nan, after),
        "below_floor": below_floor, "not_rated": not_rated,
        "performance": perf,
        "first_games": first_games, "first_score": first_score, "ra": ra, "p": p, "dp": d, "enough": enough,
        "first": first,
    }


def rate_arrays(ev: EventArrays, options: Options | None = None) -> Results:
    """The results table of a FIDE period (rules 2, 8) from its array form."""
    check_period(ev.period, ev.birth_year, ev.ids, playing=ev.sides().count() > 0)
    out = period_arrays(ev, options)
    rated = out["rated"]
    after = ev.rating + out["change"]
    first_status = np.where(~out["enough"], 0, np.where(np.isnan(out["first"]), 2, 1))
    notes: dict[int, str] = {}
    for i in np.flatnonzero(~rated).tolist():
        ra, status = float(out["ra"][i]), first_status[i]
        if status == 0:
            notes[i] = no_first_rating(int(out["first_games"][i]), float(out["first_score"][i]))
        elif status == 1:
            notes[i] = FIRST_NOTE.format(ra=f"{ra:.2f}", p=f"{float(out['p'][i]):.2f}", dp=int(out["dp"][i]))
        else:
            notes[i] = BELOW_FLOOR_NOTE.format(rating=f"{ra + int(out['dp'][i]):.0f}", floor=RATING_FLOOR)
    far = out["not_rated"]
    for i in np.flatnonzero(rated & ((far > 0) | out["below_floor"])).tolist():
        said = [floor_note(float(np.trunc(after[i])))] if out["below_floor"][i] else []
        if far[i] > 0:
            said.append(GAP_NOTE.format(n=int(far[i]), gap=NOT_RATED_GAP, above=NOT_RATED_ABOVE,
                                        list=(options or Options()).list))
        notes[i] = "; ".join(said)
    values = {
        "id": ev.ids, "name": ev.names, "status": np.where(rated, "established", "unrated"),
        "rating_before": np.trunc(ev.rating), "games_rated": np.where(rated, out["n"], out["first_games"]),
        "score": np.where(rated, out["score"], out["first_score"]),
        "expected": np.where(rated, out["expected"], np.nan), "k": np.where(rated, out["k"], np.nan),
        "performance": np.where(rated, out["performance"], out["ra"] + out["dp"]),
        "change": np.where(rated, out["change"], np.nan),
        "rating_after": np.where(rated, np.trunc(out["rating_after"]), out["first"]),
        "games_after": ev.games + np.where(rated, out["n"], out["first_games"]),
        "ever_2400": ev.ever_2400 | (rated & (after >= K10_RATING)), "birth_year": ev.birth_year, "note": notes,
    }
    return Results(CODE, COLUMNS, values, period=ev.period, uncounted=lambda: uncounted_games(ev, options))


def uncounted_games(ev: EventArrays, options: Options | None = None) -> list[tuple[str, str]]:
    """(player, opponent) of every played game not counted for the player: against an unrated opponent (rules
    2.1, 2.4: only games against rated players count, for a first rating too), and on the rapid and blitz lists
    a game between two rated players too far apart (rules 2.9), for both."""
    ids = np.asarray(ev.ids, dtype=object)
    starts = start_ratings(ev)
    if starts is None:
        seen_a, seen_b = ev.rating[ev.player], ev.rating[ev.opponent]
    else:
        _, _, seen_a, seen_b = _sides(ev, starts)
    far = not_rated_gap(np.nan_to_num(seen_a), np.nan_to_num(seen_b), options) & ~np.isnan(seen_a) \
        & ~np.isnan(seen_b)
    out: list[tuple[str, str]] = []
    for me, other, seen_other in ((ev.player, ev.opponent, seen_b), (ev.opponent, ev.player, seen_a)):
        side = np.isnan(seen_other) | far
        out += zip(ids[me[side]].tolist(), ids[other[side]].tolist(), strict=True)
    return [(model.id_text(a), model.id_text(b)) for a, b in out]


def rate(event: Event, options: Options | None = None, **overrides: Any) -> Results:
    """Rate a FIDE period: every player of the event, all games at once (rules 2).

    The period (``YYYY-MM``) is required: ages are counted in its year (rules 2.3).
    ``expected_method="logistic"`` uses the course's approximation instead of FIDE's table.
    """
    return rate_arrays(event.arrays(), options_of(Options, options, **overrides))


def rules_values() -> dict[str, Any]:
    """The ends of FIDE's dp table as the rules document writes them (rules 2.6)."""
    return {"fide_dp_top": f"+{FIDE_DP_TABLE[100]}", "fide_dp_bottom": f"−{-FIDE_DP_TABLE[0]}", **norms.rules_values()}


# --------------------------------------------------------------------------- FIDE's rating list


#: The K-factors FIDE's lists publish.
LIST_K_VALUES: Final = (K_2400, K_STANDARD, K_NEW)


def from_rating_list(players: Sequence[model.Player], entries: Any, year: int | None, source: str, *,
                     own: str = "the report", options: Options | None = None,
                     where: Callable[[model.Player], str] | None = None) -> tuple[list[Player], list[str]]:
    """``players`` with what FIDE's rating list says of each, by FIDE id (rules 2.3, 2.10): the
    rating, year of birth and 2400 flag on the period's list (``options.list``), and its K as the
    facts that give it (K 40 makes a player new for the period when neither his games nor his
    age already give 40; K 20 or 10 makes a player of few known games not new). Where the rules
    would still give another K (a junior born in the list's year), the rules' K is used and a
    warning says so. On the rapid and blitz lists, a player the combined list has unrated there
    but rated on the standard list is rated with his standard rating (rapid and blitz 7.2.1,
    rules 2.9), as a player new to that list.

    ``entries``: id -> the list's entry (:class:`xl_elo.formats.ratinglist.ListEntry`: ``on(list)``,
    ``k``, ``birth_year``). Returns the players and the warnings (ratings that differ from
    ``own``'s, players ``own`` has unrated, ids not in the list, players rated with their standard
    rating), each number said with where it comes from: ``where(player)`` names his line in ``own``
    (default: ``own``), the list's numbers are on the period's list, or on the standard list; a file
    that holds another list than the period's is refused (InputError)."""
    opts = options or Options()
    which = opts.list
    at = where or (lambda _: own)
    warnings: list[str] = []
    out: list[Player] = []
    missing: list[str] = []
    differ: list[str] = []
    unrated_here: list[str] = []
    seeded: list[str] = []
    kinds = {kind for e in entries.values() for kind in _kinds(e)}
    other = sorted(k for k in kinds if k is not None and k != which)
    if other and which not in kinds:
        raise model.InputError([model.Problem(source, None, None, f"is FIDE's {other[0]} list (by its name), but the "
                                              f"period is rated on the {which} list: give the {which} list or "
                                              f"the combined one, or --list {other[0]}")])
    if None in kinds:
        warnings.append(f"{source}: its name does not say which of FIDE's lists it is (standard, rapid or blitz): "
                        f"read as the {which} list, the period's")
    for p in (model.as_player(Player, q) for q in players):
        e = entries.get(p.id)
        if e is None:
            if not p.id.startswith("#") and "#" not in p.id:
                missing.append(p.id if where is None else f"{p.id} {_named(p)} in {where(p)}")
            out.append(replace(p, games=0) if p.rating is None and p.games is None else p)
            continue
        rating, _, list_k = _on(e, which)
        standard = None
        if rating is None and which != "standard":
            standard = _on(e, "standard")[0] if "standard" in _kinds(e) else None
            if standard is not None:  # rapid and blitz 7.2.1: the standard rating, as a rated player
                rating, list_k = standard, K_NEW
                mine = "unrated" if p.rating is None else f"{p.rating:g}"
                seeded.append(f"{p.id} {_named(p)}: {mine} in {at(p)}, unrated on the {which} list, {standard:g} on "
                              "the standard list")
        if standard is not None:
            pass  # said once, with the list each number comes from (seeded)
        elif p.rating is not None and rating != p.rating:
            differ.append(f"{p.id} {_named(p)}: {p.rating:g} in {at(p)}, {_rated(rating)} on the {which} list")
        elif p.rating is None and rating is not None:
            unrated_here.append(f"{p.id} {_named(p)}: unrated in {at(p)}, {rating:g} on the {which} list")
        birth = e.birth_year if e.birth_year is not None else p.birth_year
        ever = bool(p.ever_2400) or list_k == K_2400 or (rating is not None and rating >= K10_RATING)
        games: int | None = p.games if rating is not None else 0
        if rating is not None and list_k is not None:
            age = (year - birth) if (year is not None and birth is not None) else None

            def k_of(count: int | None, reached: bool, r: float = rating, a: int | None = age) -> int:
                return int(k_factor(r, count, a, reached))

            if list_k not in LIST_K_VALUES:
                warnings.append(f"{p.id} {_named(p)}: K {list_k} in the list is not one of "
                                f"{', '.join(map(str, LIST_K_VALUES))}: K from the rules ({k_of(games, ever)})")
            else:
                if list_k == K_STANDARD and k_of(games, ever) == K_2400 and rating < K10_RATING:
                    ever = False  # the list knows better than a title
                if list_k == K_NEW and k_of(games, ever) != K_NEW:
                    games = 0
                elif list_k != K_NEW and k_of(games, ever) == K_NEW and games is not None \
                        and games < NEW_PLAYER_GAMES:
                    games = None
                if k_of(games, ever) != list_k:
                    warnings.append(f"{p.id} {_named(p)}: K {list_k} in the list, but the rules give "
                                    f"{k_of(games, ever)} (born {birth}, rated {rating:g}): the rules' K is used")
        out.append(replace(p, rating=rating, birth_year=birth, ever_2400=ever,
                           games=0 if rating is None and games is None else games))
    on = f" ({which} list)" if which != "standard" else ""
    if differ:
        warnings.append(f"{len(differ)} rating(s) differ from {source}{on}, whose ratings are used: "
                        + "; ".join(differ[:10]) + (f"; and {len(differ) - 10} more" if len(differ) > 10 else ""))
    if unrated_here:
        warnings.append(f"{len(unrated_here)} player(s) unrated in {own} are rated in {source}{on}, whose ratings "
                        "are used: " + "; ".join(unrated_here[:10])
                        + (f"; and {len(unrated_here) - 10} more" if len(unrated_here) > 10 else ""))
    if seeded:
        warnings.append(f"{len(seeded)} player(s) without a {which} rating in {source} are rated with their standard "
                        f"rating (rapid and blitz regulations 7.2.1, rules 2.9), as new to the {which} list: "
                        + "; ".join(seeded[:20]) + (f"; and {len(seeded) - 20} more" if len(seeded) > 20 else ""))
    if missing:
        warnings.append(f"{len(missing)} FIDE id(s) not found in {source} (their own values are used): "
                        + (", " if where is None else "; ").join(missing[:20])
                        + (f" and {len(missing) - 20} more" if len(missing) > 20 else ""))
    return out, warnings


def _kinds(entry: Any) -> tuple[str | None, ...]:
    """The lists an entry's file holds (``(None,)``: one list of unknown kind)."""
    return tuple(getattr(entry, "kinds", (None,)))


def _on(entry: Any, which: str) -> tuple[float | None, int | None, int | None]:
    """(rating, games, K) of an entry on one list (an entry of a single list of unknown kind: its own)."""
    on = getattr(entry, "on", None)
    got = on(which) if on is not None else (entry.rating, entry.games, entry.k)
    return got if got is not None else (None, None, None)


def _named(p: model.Player) -> str:
    return f"({p.name})" if p.name else ""


def _rated(rating: float | None) -> str:
    return "unrated" if rating is None else f"{rating:g}"


# --------------------------------------------------------------------------- spreadsheet functions

#: FIDE's own spreadsheet functions, beside the common ones (the front ends give them to Excel and Calc).
FUNCTIONS: Final = (
    SheetFunction(
        "FIDE_EXPECTED", expected,
        RATINGS_ARGS,
        (f"FIDE expected score from FIDE's table, a difference over {DIFFERENCE_CAP} counting {DIFFERENCE_CAP} "
         f"below {NO_CAP_FROM} (xl-elo rules 2.2).",
         f"Score attendu FIDE, d'après la table de la FIDE ; un écart de plus de {DIFFERENCE_CAP} compte pour "
         f"{DIFFERENCE_CAP} sous {NO_CAP_FROM} (règles xl-elo 2.2)."),
        "expected scores", vectorised=expected),
    *norms.FUNCTIONS,
)

# --------------------------------------------------------------------------- published tables (rules 7)


def _fide_pd() -> TableView:
    pub, cmp, diff = expected_rows(t.FIDE_PD_ROWS)
    return TableView(
        "fide-pd", "FIDE expected score (PD) of the higher-rated player by rating difference",
        t.FIDE_PD_SOURCE, ("from", "to", "expected"), pub,
        ("from", "to", "expected", "normal at from", "normal at to", "normal at middle, 2 dec."), cmp, diff,
        "normal: Elo's normal model Phi(d / (200 sqrt 2)); marked where the middle of the range rounds "
        "to another hundredth; the engine applies the 400-point rule (rules 2.2)",
    )


#: FIDE's published tables (rules 7), by the name ``xl-elo tables NAME`` takes.
PUBLISHED_TABLES: Final = {
    "fide-pd": _fide_pd,
    "fide-k20-approx": lambda: approx(
        "fide-k20-approx", FIDE_K20_APPROX, 20, 0.05, "FIDE approximation table, K = 20 (arbiter course)"),
}


#: What this system declares to the front ends (:class:`~xl_elo.federations.contract.RatingSystem`).
SYSTEM: Final = RatingSystem(
    CADENCE=Cadence("month", 1, tuple(range(1, 13)), start_ratings=("player_rating", "opponent_rating")),
    CODE=CODE, NAME=NAME, ALIASES=ALIASES, RULES=RULES, SOURCE=SOURCE, UNIT=UNIT, NEEDS_PERIOD=NEEDS_PERIOD,
    PACKAGE=__name__, Player=Player, Game=Game, Options=Options, COLUMNS=COLUMNS, expected=expected,
    performance=performance,
    calculate=calculate, rate=rate, k_factor=k_factor, first_rating=first_rating, rate_arrays=rate_arrays,
    from_rating_list=from_rating_list, rules_values=rules_values, PERFORMANCE=PERFORMANCE, TEMPLATE=TEMPLATE,
    EXAMPLE=EXAMPLE, FUNCTIONS=FUNCTIONS, PUBLISHED_TABLES=PUBLISHED_TABLES, NORMS=NORMS,
)

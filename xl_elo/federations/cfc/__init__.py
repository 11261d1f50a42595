"""CFC (Chess Federation of Canada) regular rating of an event (rules section 11; CFC Handbook, Section 4).

An established player's new rating is ``Rn = Ro + 32 (S - Sx)`` with Sx summed from the CFC's
published table (414b; rules 11.3, 11.5), K 16 from 2199, the gains above 2199 halved and the
losses below 2200 doubled across the line; then the bonus of Motion 2012-S (414d; rules 11.6),
the 50-point limit of a match (413) and the low-rating rules (416; rules 11.9). Unrated and
provisional players (fewer than 25 games) are rated by their performance ``Rc + 400 (W - L) /
N`` (414a), cumulatively (415; rules 11.4), in the order of 417 (rules 11.7): unrated players'
preliminary rating, their temporary rating, provisional players, unrated players' first rating,
then established players.

Decisions where the handbook is silent (rules 11.10):
- the event in which a player plays his 25th rated game is rated by 414b (415), with his
  provisional rating as Ro, and his opponents count him at that rating (he is established for
  417);
- a rating with 0 games before (a first rating from another federation, 436) counts for his
  opponents as a provisional rating; his own new rating is his performance in this event;
- the ratings steps 3 and 4 of 417 produce are whole numbers, as published ratings are, and
  the next steps count with them; the preliminary and temporary ratings of steps 1 and 2 keep
  their decimals (they are averages, never looked up in the table);
- Sx and ``K (S - Sx)`` are computed in whole hundredths, so the rounding of Rn (halves away
  from zero, rules 1.3) never meets a binary fraction;
- the bonus is computed from the rounded Rn, as the handbook's sample does, and rounded to a
  whole number of points.

Example: the CFC Handbook's sample (Section 4, article 425): 1450 scores 4/6, Sx 2.84, Rn 1487, bonus 9::

    >>> from xl_elo.loader import example_event
    >>> rate(example_event("cfc")).by_id()["sample"]["rating_after"]
    1496
"""

from __future__ import annotations

import math
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
    EventArrays,
    InputError,
    Problem,
    Results,
    fact,
    games_fact,
    results_columns,
)
from xl_elo.tables import CFC_EXPECTED_ROWS
from xl_elo.tableview import TableView, expected_rows

CODE: Final = "cfc"
NAME: Final = "CFC (Chess Federation of Canada)"
ALIASES: Final = ("canada", "can")
RULES: Final = "11"
SOURCE: Final = "https://www.chess.ca/en/cfc/rules/cfc-handbook-2014/"
UNIT: Final = "event"
NEEDS_PERIOD: Final = False
TEMPLATE: Final = "cfc_event.xlsx"
EXAMPLE: Final = "cfc_sample"
#: A TRF-26 report's national-rating records of this federation carry its ratings (never FIDE's).
NATIONAL_RATINGS: Final = "CAN"
#: Its performance rating, in words (the functions' help; rules 11.4).
PERFORMANCE: Final = ("Rc + 400 (W - L) / N", "Rc + 400 (G - P) / N")
#: Why calc and ELO_CHANGE want an unrated opponent's rating (rules 11.7).
UNRATED_OPPONENTS: Final = "the CFC counts an unrated opponent with the rating the event gives him (417)"


@dataclass(frozen=True)
class Options:
    """What the CFC's handbook leaves to the user."""

    match: str = option("auto", "a match (two players only) changes a rating by at most 50 either way: auto (an "
                        "event where exactly two players played), yes or no", choices=("auto", "yes", "no"),
                        source="rules 11.8", switch="yes")
    preliminary: float = option(0.0, "the preliminary rating of the unrated players when more than half the players "
                                "are unrated: the handbook leaves it to the operator (0: not given, such an event is "
                                "refused)", source="rules 11.7")


#: K of an established player, and from 2199 (414b; rules 11.5).
K: Final = 32
K_HIGH: Final = 16
K_HIGH_FROM: Final = 2199
#: A gain that crosses 2199 is halved above it; a loss from above 2199 that crosses 2200 is doubled below it.
GAIN_PIVOT: Final = 2199
LOSS_PIVOT: Final = 2200
#: Rated games from which a rating is established (415; rules 11.4).
ESTABLISHED_GAMES: Final = 25
#: A rating is published from 3 games (434).
PUBLISHED_FROM: Final = 3
#: Bonus of Motion 2012-S (414d; rules 11.6): no bonus below 4 games; R_MaxBonus, R_ChangeBonus, R_ChangeThreshold.
BONUS_MIN_GAMES: Final = 4
BONUS_MAX: Final = 20
BONUS_CHANGE: Final = 1.75
BONUS_THRESHOLD: Final = 13
#: What rate says of rated players whose games before are not known (rules 11.10).
UNKNOWN_GAMES_WARNING: Final = (
    "{count} rated player(s) without their rated games before (a TRF report does not give them) count as "
    f"established ({ESTABLISHED_GAMES} games or more: 414b) and their games after are left blank: rate from CSV "
    "files with the games column for provisional players")
#: The handbook's worked sample (425) still shows the bonus before 2012-S: 1487 - 1450 - 28 = 9.
SAMPLE_OLD_THRESHOLD: Final = 28
#: Unrated players above this share of the event get the operator's preliminary rating (417.1a) ...
UNRATED_SHARE: Final = 0.5
#: ... else the average of ``Ro - 400 (W - L) / N - 200`` over the rated players (417.1b).
PRELIMINARY_OFFSET: Final = 200
#: A match (413): the largest change, and the largest difference between the two players.
MATCH_CAP: Final = 50
MATCH_MAX_DIFFERENCE: Final = 400
#: The low-rating rules (416): below 800 an established player stays at 799 or his old rating; 200 is the bottom.
LOW_LINE: Final = 800
LOW_FLOOR: Final = 799
BOTTOM: Final = 200


@dataclass(frozen=True, slots=True)
class Player(model.Player):
    """A CFC player: his games say whether he is provisional (rules 11.4); his highest rating gives the
    all-time-high bonus (rules 11.6)."""

    HEADINGS: ClassVar[dict[str, str]] = {"cfc": "rating", "cfc_rating": "rating", "cfc_id": "id"}
    """The CFC's words for its rating and its member id; a column headed ``Elo`` (FIDE's) is not read as one."""

    games: int = games_fact(
        "11.4", calc_help=f"rated games before: fewer than {ESTABLISHED_GAMES} is provisional (default: established)",
        function_doc=("CFC: rated games played before (blank: established).",
                      "CFC : parties classées jouées auparavant (vide : établi)."),
        unreported=(None, ""))  # not known (a TRF report): established, and the engine says so (rules 11.10)
    highest: float | None = fact(
        schema.RATING, "the highest rating the player had before this event (the all-time-high bonus); blank: not "
                       "known, no such bonus", rules="11.6", calc="--highest", aliases=("highest_after",),
        calc_help="the highest rating before this event, for the all-time-high bonus (blank: not known, no such "
                  "bonus)",
        function="highest", function_doc=("CFC: the highest rating before (the all-time-high bonus; blank: not "
                                          "known, no such bonus).",
                                          "CFC : la cote la plus haute avant (le boni de record ; vide : inconnue, "
                                          "pas de boni)."))


COLUMNS: Final = results_columns(
    Column("provisional", "bool", True, "the rating after the event is provisional (fewer than 25 games, or a first "
                                        "rating: a performance, 414a)"),
    Column("formula", "text", True, "414a (performance, cumulative) or 414b (Ro + K (S - Sx))"),
    Column("wins", "int", True, "W"),
    Column("losses", "int", True, "L"),
    Column("rc", "float", False, "Rc, the mean of the opponents as 417 counts them"),
    Column("rn", "float", False, "Rn of 414b, the 2199 rules applied, before rounding"),
    Column("rating_before_bonus", "number", True, "the new rating before the bonus, rounded"),
    Column("threshold", "float", False, "the bonus threshold 13 Ke sqrt(n)"),
    Column("bonus_high", "float", False, "BONUS1: 20 Ke at an all-time high"),
    Column("bonus_change", "float", False, "BONUS2: 1.75 (Rn - Ro - threshold) Ke"),
    Column("match_cap", "float", False, "points taken by the 50-point limit of a match"),
    Column("floor", "float", False, "points added by the low-rating rules (416)"),
    Column("note", "note", False, "what a rating officer should know of this row"),
    Column("highest_after", "number", True, "the highest rating with this event's: the next event's highest "
                                            "(blank: not known)"),
)

_TABLE = core.range_table(CFC_EXPECTED_ROWS)


# --------------------------------------------------------------------------- the rules, one at a time


def table_hundredths(difference: Any) -> Any:
    """The CFC table (414b; rules 11.3) in hundredths for ``difference`` = own - opponent's rating.

    ``table_hundredths(213) == 77``, ``table_hundredths(-61) == 42``. Element-wise.
    """
    return core.table_hundredths(_TABLE, difference)


def expected(rating: Any, opponent: Any, options: Options | None = None) -> Any:
    """Expected score of an established player from the CFC's table (rules 11.3), element-wise."""
    return core.table_expected(_TABLE, rating, opponent)


def k_factor(rating: Any, games: Any = None, age: Any = None, ever_2400: Any = False,
             options: Options | None = None) -> int:
    """K of an established player: 32, and 16 from 2199 (414b; rules 11.5)."""
    return K_HIGH if float(rating) >= K_HIGH_FROM else K


def _k(rating: Any) -> Any:
    return np.where(np.asarray(rating) >= K_HIGH_FROM, K_HIGH, K)


def across_2199(before: Any, raw: Any) -> Any:
    """Rn after the rules on crossing 2199 (414b; rules 11.5), element-wise: from below 2199 the part of
    the new rating above 2199 is halved; from above 2199 the part below 2200 is doubled."""
    if core.is_scalar(before, raw):
        b, r = float(before), float(raw)
        if b < GAIN_PIVOT < r:
            return GAIN_PIVOT + (r - GAIN_PIVOT) / 2
        if b > GAIN_PIVOT and r < LOSS_PIVOT:
            return LOSS_PIVOT - 2 * (LOSS_PIVOT - r)
        return r
    b = np.asarray(before, np.float64)
    r = np.asarray(raw, np.float64)
    return np.where((b < GAIN_PIVOT) & (r > GAIN_PIVOT), GAIN_PIVOT + (r - GAIN_PIVOT) / 2,
                    np.where((b > GAIN_PIVOT) & (r < LOSS_PIVOT), LOSS_PIVOT - 2 * (LOSS_PIVOT - r), r))


def bonus_threshold(k: Any, n: Any) -> Any:
    """``13 Ke sqrt(n)``, Ke = K / 32 (414d; rules 11.6), element-wise."""
    if core.is_scalar(k, n):
        return BONUS_THRESHOLD * (float(k) / K) * math.sqrt(float(n))
    return BONUS_THRESHOLD * (np.asarray(k, np.float64) / K) * np.sqrt(np.asarray(n, np.float64))


def bonus(before: Any, new: Any, n: Any, highest: Any, k: Any) -> tuple[Any, Any]:
    """(BONUS1, BONUS2) of Motion 2012-S for an established player (414d; rules 11.6), element-wise.

    ``new`` is the rounded Rn; ``highest`` the highest rating before the event (None or NaN: not
    known, no BONUS1); nothing below 4 games.
    """
    if core.is_scalar(before, new, n, k) and (highest is None or core.is_scalar(highest)):
        if n < BONUS_MIN_GAMES:
            return 0.0, 0.0
        ke = float(k) / K
        threshold = bonus_threshold(k, n)
        change = BONUS_CHANGE * (new - before - threshold) * ke if new > before + threshold else 0.0
        known = highest is not None and not math.isnan(float(highest))
        high = BONUS_MAX * ke if known and new > max(float(highest), float(before)) else 0.0
        return high, change
    before_, new_ = np.asarray(before, np.float64), np.asarray(new, np.float64)
    n_, ke = np.asarray(n, np.float64), np.asarray(k, np.float64) / K
    highest_ = np.asarray(highest, np.float64)
    enough = n_ >= BONUS_MIN_GAMES
    threshold = bonus_threshold(k, n_)
    change = np.where(enough & (new_ > before_ + threshold), BONUS_CHANGE * (new_ - before_ - threshold) * ke, 0.0)
    with np.errstate(invalid="ignore"):
        at_high = ~np.isnan(highest_) & (new_ > np.fmax(highest_, before_))
    return np.where(enough & at_high, BONUS_MAX * ke, 0.0), change


def low_rating_rules(before: Any, after: Any, established_before: Any) -> Any:
    """The rating the list shows after the rules for low ratings (416; rules 11.9), element-wise: an
    established player who falls below 800 stays at 799 (from above 799) or at the higher of his old and
    new ratings (from 799 or below); nobody goes below 200."""
    if core.is_scalar(before, after, established_before):
        a = float(after)
        if established_before and a < LOW_LINE:
            a = float(LOW_FLOOR) if float(before) > LOW_FLOOR else max(float(before), a)
        return max(a, float(BOTTOM))
    b, a = np.asarray(before, np.float64), np.asarray(after, np.float64)
    low = np.asarray(established_before, bool) & (a < LOW_LINE)
    a = np.where(low & (b > LOW_FLOOR), float(LOW_FLOOR), np.where(low, np.fmax(b, a), a))
    return np.where(a < BOTTOM, float(BOTTOM), a)


def performance(opponent_ratings: Sequence[float], scores: Sequence[float], rating: float | None = None,
                options: Options | None = None) -> float | None:
    """``Rc + 400 (W - L) / N`` (414a; rules 11.4): Rc the mean of the opponents, draws in N only."""
    if not opponent_ratings:
        return None
    wins = sum(1 for s in scores if s == 1.0)
    losses = sum(1 for s in scores if s == 0.0)
    n = len(opponent_ratings)
    return sum(float(o) for o in opponent_ratings) / n + 400.0 * (wins - losses) / n


def first_rating(opponent_ratings: Sequence[float], scores: Sequence[float],
                 options: Options | None = None) -> FirstRating | None:
    """An unrated player's first rating (414a, 415, 416c; rules 11.4, 11.9): his performance, rounded,
    at least 200; provisional, and published from 3 games (434)."""
    perf = performance(opponent_ratings, scores)
    if perf is None:
        return FirstRating(None, "unrated")
    rounded = int(round_half_away(perf))
    first = int(low_rating_rules(rounded, rounded, False))
    status = "first rating" if len(opponent_ratings) >= PUBLISHED_FROM else "first rating, not published yet"
    return FirstRating(first, status, perf, len(opponent_ratings), float(sum(scores)),
                       (("performance", perf), ("rounded", rounded), ("at least 200", first)))


def status_of(rating: float | None, games: int, n: int) -> str:
    """unrated, provisional or established before the event (rules 11.4)."""
    if rating is None:
        return "unrated"
    return "established" if games >= ESTABLISHED_GAMES else "provisional"


def _formula(rating: float | None, games: int, n: int) -> str:
    """414a (unrated, provisional) or 414b (established, and the event of the 25th game) (rules 11.4)."""
    return "414b" if rating is not None and games + n >= ESTABLISHED_GAMES else "414a"


# --------------------------------------------------------------------------- one player


def calculate(player: Player, games: Sequence[OpponentGame], period: str | None = None, k: int | None = None,
              options: Options | None = None) -> Calculation:
    """One player's event (rules 11.3 - 11.9), his opponents at the ratings 417 gives them.

    Unrated: his first rating. Provisional: the cumulative 414a, as the average of his old rating and
    his performance weighted by their games. Established (and the event of his 25th game):
    ``Rn = Ro + K (S - Sx)`` with the table, the 2199 rules, rounded; the bonus of 2012-S; then, when
    ``options.match`` is ``yes``, the 50-point limit; then the low-rating rules.
    """
    opts = options or Options()
    opps = [g.rating for g in games]
    scores = [g.score for g in games]
    score = float(sum(scores))
    n = len(games)
    if any(o is None for o in opps):
        raise ValueError(f"{UNRATED_OPPONENTS}: give it")
    rated_opps = [float(o) for o in opps]  # type: ignore[arg-type]
    wins = sum(1 for s in scores if s == 1.0)
    losses = sum(1 for s in scores if s == 0.0)
    match = opts.match == "yes"
    before_games = int(player.games or 0)
    status = status_of(player.rating, before_games, n)
    after_games = before_games + n
    # a first rating is a performance (414a) whatever its games: provisional until 414b rates him (rules 11.10)
    provisional_after = after_games < ESTABLISHED_GAMES or player.rating is None
    notes: list[str] = []
    if after_games < PUBLISHED_FROM:
        notes.append(f"a rating is published from {PUBLISHED_FROM} rated games (434)")
    plain = tuple(GameLine(g.rating, g.rating, g.score, None, None, None) for g in games)
    if player.rating is None:
        first = first_rating(rated_opps, scores)
        assert first is not None
        return Calculation(CODE, None, plain, score, first.rating, performance=first.performance, status=status,
                           steps=first.steps, notes=tuple(notes),
                           own=(("formula", "414a"), ("rc", _mean(rated_opps)), ("wins", wins), ("losses", losses),
                                ("rating_before_bonus", first.rating), ("floor", (first.rating or 0) - round_half_away(
                                    first.performance or 0)), ("provisional", provisional_after),
                                ("games_after", after_games)))
    r = float(player.rating)
    perf = performance(rated_opps, scores)
    if _formula(r, before_games, n) == "414a":
        if perf is None:
            return Calculation(CODE, r, plain, score, r, change=0.0, status=status, bonus=0.0)
        weighted = (before_games * r + n * perf) / (before_games + n)
        new = float(round_half_away(weighted))
        capped = _match_cap(new - r) if match else new - r
        after = float(low_rating_rules(r, r + capped, False))
        return Calculation(CODE, r, plain, score, after, change=after - r, performance=perf, status=status, bonus=0.0,
                           steps=(("performance", perf), ("weighted average", weighted), ("new rating, rounded", new),
                                  ("match cap", new - r - capped), ("low-rating rules", after - r - capped)),
                           notes=tuple(notes),
                           own=(("formula", "414a"), ("rc", _mean(rated_opps)), ("wins", wins), ("losses", losses),
                                ("rating_before_bonus", new), ("match_cap", new - r - capped),
                                ("floor", after - r - capped), ("provisional", provisional_after),
                                ("games_after", after_games)))
    kk = k_factor(r) if k is None else int(k)
    lines: list[GameLine] = []
    sx = 0
    for g in games:
        o = float(g.rating)  # type: ignore[arg-type]
        e = int(table_hundredths(r - o))
        sx += e
        lines.append(GameLine(g.rating, o, g.score, r - o, e / 100, kk * (round(100 * g.score) - e) / 100))
    raw = (100 * r + kk * (round(100 * score) - sx)) / 100
    rn = float(across_2199(r, raw)) if k is None else raw
    new = float(round_half_away(rn))
    high, change = bonus(r, new, n, player.highest, kk)
    points = float(round_half_away(high + change))
    capped = _match_cap(new + points - r) if match else new + points - r
    after = float(low_rating_rules(r, r + capped, before_games >= ESTABLISHED_GAMES))
    threshold = bonus_threshold(kk, n) if n >= BONUS_MIN_GAMES else None
    if n >= BONUS_MIN_GAMES and player.highest is None and new > r:
        notes.append("the highest rating before is not given (--highest): no all-time-high bonus counted")
    return Calculation(
        CODE, r, tuple(lines), score, after, change=after - r, k=kk, expected=sx / 100, performance=perf,
        status=status, bonus=points, notes=tuple(notes),
        steps=((f"Ro + {kk} (S - Sx)", raw), ("Rn (2199 rules)", rn), ("Rn, rounded", new),
               ("bonus threshold", threshold), ("BONUS1 (all-time high)", high), ("BONUS2", change),
               ("bonus, rounded", points), ("match cap", new + points - r - capped),
               ("low-rating rules", after - r - capped)),
        own=(("formula", "414b"), ("rc", _mean(rated_opps)), ("wins", wins), ("losses", losses), ("rn", rn),
             ("rating_before_bonus", new), ("threshold", threshold), ("bonus_high", high), ("bonus_change", change),
             ("match_cap", new + points - r - capped), ("floor", after - r - capped),
             ("provisional", provisional_after), ("games_after", after_games)))


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _match_cap(change: float) -> float:
    return max(-float(MATCH_CAP), min(float(MATCH_CAP), change))


# --------------------------------------------------------------------------- a whole event


def _only(mask: Any, values: Any) -> Any:
    return np.where(mask, values, np.nan)


def rate_arrays(ev: EventArrays, options: Options | None = None) -> Results:
    """Rate a CFC event from its array form, in the order of 417 (rules 11.7)."""
    opts = options or Options()
    rating = np.asarray(ev.rating, np.float64)
    unrated = np.isnan(rating)
    given = np.asarray(ev.games, np.float64)
    unknown = np.isnan(given) & ~unrated  # a TRF report's: established, games after left blank (rules 11.10)
    games = np.where(unknown, float(ESTABLISHED_GAMES), np.nan_to_num(given, nan=0.0))
    highest = np.asarray(ev.highest, np.float64)
    sides = ev.sides()
    n = sides.count()
    score = sides.total(sides.score)
    wins = sides.total(sides.score == 1.0)
    losses = sides.total(sides.score == 0.0)
    played = n > 0
    established = ~unrated & (games + n >= ESTABLISHED_GAMES)
    provisional = ~unrated & ~established
    rated_played = played & ~unrated
    warnings: list[str] = []
    if unknown.any():
        warnings.append(UNKNOWN_GAMES_WARNING.format(count=np.count_nonzero(unknown)))

    # 1. the unrated players' preliminary rating (417.1)
    new_players = played & unrated
    prelim = math.nan
    if new_players.any():
        if not rated_played.any():
            raise InputError([Problem("players", None, "rating", "no player who played has a CFC rating: the CFC "
                                                                 "rates an event when at least one player has one "
                                                                 "(419, rules 11.1)")])
        share = np.count_nonzero(new_players) / np.count_nonzero(played)
        if share > UNRATED_SHARE:
            if opts.preliminary <= 0:
                raise InputError([Problem("players", None, "rating", (
                    f"{np.count_nonzero(new_players)} of the {np.count_nonzero(played)} players are unrated, more "
                    "than half: the handbook leaves their preliminary rating to the operator (417.1a, rules 11.7); "
                    "give it (the option preliminary)"))])
            prelim = float(opts.preliminary)
            how = "the operator's (more than half the players are unrated)"
        else:
            with np.errstate(invalid="ignore", divide="ignore"):
                of_opponents = rating - 400.0 * (wins - losses) / n
            prelim = float(np.mean(of_opponents[rated_played])) - PRELIMINARY_OFFSET
            how = f"the average of Ro - 400 (W - L) / N - {PRELIMINARY_OFFSET} over the rated players"
        warnings.append(f"the unrated players' preliminary rating is {prelim:.2f}, {how} (417.1, rules 11.7)")

    def mean_of(seen: Any) -> Any:
        with np.errstate(invalid="ignore", divide="ignore"):
            return sides.total(seen[sides.against]) / n

    with np.errstate(invalid="ignore", divide="ignore"):
        margin = 400.0 * (wins - losses) / n
        # 2. their temporary rating: unrated opponents at the preliminary rating
        temp = mean_of(np.where(unrated, prelim, rating)) + margin
        # 3. provisional players: unrated opponents at their temporary rating; 414a cumulatively (415)
        rc3 = mean_of(np.where(unrated, temp, rating))
        perf3 = rc3 + margin
        post3 = round_half_away((games * rating + n * perf3) / (games + n))
        post3 = np.where(provisional & played, post3, rating)
        # 4. unrated players: provisional opponents at their step-3 rating
        rc4 = mean_of(np.where(unrated, temp, np.where(provisional, post3, rating)))
        perf4 = rc4 + margin
        first = round_half_away(perf4)
        # 5. established players: unrated opponents at their first rating (414b)
        seen5 = np.where(unrated, first, np.where(provisional, post3, rating))
        rc5 = mean_of(seen5)
    pct = np.where(established[sides.who], table_hundredths(np.nan_to_num(rating[sides.who] - seen5[sides.against])),
                   0)
    sx = sides.total(pct)
    k = _k(rating)
    raw = (100 * np.nan_to_num(rating) + k * (np.rint(100 * score) - np.rint(sx))) / 100
    rn = across_2199(rating, raw)
    new = round_half_away(rn)
    # 6. bonus points (414d)
    high, change = bonus(rating, new, n, highest, k)
    est = established & played
    high, change = np.where(est, high, 0.0), np.where(est, change, 0.0)
    points = round_half_away(high + change)
    before_bonus = np.select([est, provisional & played, unrated & played], [new, post3, first], np.nan)
    total = np.where(unrated, 0.0, before_bonus + points - np.nan_to_num(rating))
    match = (np.count_nonzero(played) == 2) if opts.match == "auto" else opts.match == "yes"
    capped = np.clip(total, -MATCH_CAP, MATCH_CAP) if match else total
    if match and rated_played.all(where=played) and np.count_nonzero(played) == 2:
        a, b = rating[played]
        if abs(a - b) > MATCH_MAX_DIFFERENCE:
            warnings.append(f"a match between players more than {MATCH_MAX_DIFFERENCE} points apart is not rated by "
                            "the CFC (413c, rules 11.8)")
    # 7. adjustments (416)
    unadjusted = np.where(unrated, first, rating + capped)
    adjusted = low_rating_rules(rating, unadjusted, ~unrated & (games >= ESTABLISHED_GAMES))
    after = np.where(played, adjusted, rating)
    games_after = games + n

    no_highest = est & (n >= BONUS_MIN_GAMES) & np.isnan(highest) & (new > rating)
    if no_highest.any():
        warnings.append(f"{np.count_nonzero(no_highest)} established player(s) rose without their highest rating "
                        "given (column highest): no all-time-high bonus was counted for them (414d, rules 11.6)")
    notes: dict[int, str] = {}
    for i in np.flatnonzero(played & (games_after < PUBLISHED_FROM)).tolist():
        notes[i] = f"published from {PUBLISHED_FROM} rated games (434)"
    for i in np.flatnonzero(no_highest).tolist():
        notes[i] = "highest not given: no all-time-high bonus"
    status = np.select([unrated, games >= ESTABLISHED_GAMES], ["unrated", "established"], "provisional")
    provisional_after = [None if (u and not p) else bool(ga < ESTABLISHED_GAMES or u)
                         for u, p, ga in zip(unrated.tolist(), played.tolist(), games_after.tolist(), strict=True)]
    formula = np.where(~played, "", np.where(est, "414b", "414a"))
    values = {
        "id": ev.ids, "name": ev.names, "status": status, "rating_before": rating,
        "games_rated": n.astype(np.float64), "score": np.where(played, score, 0.0),
        "expected": _only(est, sx / 100), "k": _only(est, k),
        "performance": np.select([unrated & played, provisional & played, est], [perf4, perf3, rc5 + margin], np.nan),
        "change": _only(rated_played, after - rating), "bonus": _only(rated_played, points),
        "rating_after": after, "games_after": np.where((unrated & ~played) | unknown, np.nan, games_after),
        "provisional": provisional_after, "formula": formula,
        "wins": _only(played, wins), "losses": _only(played, losses),
        "rc": np.select([unrated & played, provisional & played, est], [rc4, rc3, rc5], np.nan),
        "rn": _only(est, rn), "rating_before_bonus": _only(played, before_bonus),
        "threshold": _only(est & (n >= BONUS_MIN_GAMES), bonus_threshold(k, n)),
        "bonus_high": _only(est, high), "bonus_change": _only(est, change),
        "match_cap": _only(rated_played, total - capped), "floor": _only(played, adjusted - unadjusted),
        "note": notes, "highest_after": np.where(np.isnan(highest), np.nan, np.fmax(highest, after)),
    }
    return Results(CODE, COLUMNS, values, period=ev.period, warnings=warnings)


def rate(event: Event, options: Options | None = None, **overrides: Any) -> Results:
    """Rate a CFC event in the order of 417 (rules 11.7); a rated player's games not known (None: a TRF
    report does not give them) count as established, with a warning (rules 11.10)."""
    return rate_arrays(event.arrays(), options_of(Options, options, **overrides))


def rules_values() -> dict[str, Any]:
    """Figures the CFC chapter quotes: the handbook's sample recomputed (rules 11.5, 11.6)."""
    sample = calculate(Player("sample", rating=1450.0, games=100),
                       [OpponentGame(float(o), s) for o, s in zip(SAMPLE_OPPONENTS, SAMPLE_SCORES, strict=True)])
    own = dict(sample.own)
    return {
        "cfc_sample_sx": f"{sample.expected:.2f}", "cfc_sample_rn": f"{own['rn']:.2f}",
        "cfc_sample_new": f"{own['rating_before_bonus']:.0f}",
        "cfc_sample_threshold": f"{own['threshold']:.2f}", "cfc_sample_bonus2": f"{own['bonus_change']:.2f}",
        "cfc_sample_after": f"{sample.rating_after:.0f}",
        "cfc_sample_old_bonus": f"{own['rating_before_bonus'] - 1450 - SAMPLE_OLD_THRESHOLD:.0f}",
    }


#: The handbook's sample (425): a player rated 1450 scores 4 out of 6 against these opponents (the
#: handbook gives the total only; the example's games give the wins to the four lowest-rated).
SAMPLE_OPPONENTS: Final = (1237, 1511, 1214, 1441, 1579, 2133)
SAMPLE_SCORES: Final = (1.0, 1.0, 1.0, 1.0, 0.0, 0.0)


# --------------------------------------------------------------------------- spreadsheet functions


def _bonus_function(rating: float, new_rating: float, games: float, highest: float | None = None) -> float:
    """The 2012-S bonus of an established player, rounded (rules 11.6)."""
    high, change = bonus(rating, new_rating, games, highest, k_factor(rating))
    return float(round_half_away(high + change))


#: The CFC's own spreadsheet functions, beside the common ones (the front ends give them to Excel and Calc).
FUNCTIONS: Final = (
    SheetFunction(
        "CFC_EXPECTED", expected, RATINGS_ARGS,
        ("CFC expected score of an established player from the table of the CFC Handbook, 414b (xl-elo rules 11.3).",
         "Score attendu FCE (CFC) d'un joueur établi, d'après la table du manuel de la Fédération canadienne des "
         "échecs, 414b (règles xl-elo 11.3)."),
        "expected scores", vectorised=expected),
    SheetFunction(
        "CFC_BONUS", _bonus_function,
        (SheetArg("rating", ("The rating before the event (established).", "La cote avant le tournoi (établie)."),
                  schema.rating),
         SheetArg("new_rating", ("The new rating before the bonus: Rn of 414b, rounded.",
                                 "La nouvelle cote avant le boni : Rn de 414b, arrondie."), schema.rating),
         SheetArg("games", ("The games rated in the event (n).", "Les parties classées du tournoi (n)."),
                  lambda v: schema.whole(v, 0, model.MAX_GAMES_PER_PLAYER, what="a number of games")),
         SheetArg("highest", ("The highest rating before the event (blank: not known, no all-time-high bonus).",
                              "La cote la plus haute avant le tournoi (vide : inconnue, pas de boni de record)."),
                  schema.rating, optional=True)),
        ("CFC bonus points of Motion 2012-S, 414d: 20 Ke at an all-time high plus 1.75 Ke for each point above "
         "13 Ke sqrt(n), rounded (xl-elo rules 11.6).",
         "Boni FCE (CFC) de la motion 2012-S, 414d : 20 Ke à un record plus 1,75 Ke par point au-delà de "
         "13 Ke racine(n), arrondi (règles xl-elo 11.6)."),
        "ratings"),
)


# --------------------------------------------------------------------------- published tables (rules 7)


def _cfc_expected() -> TableView:
    pub, cmp, diff = expected_rows(t.CFC_EXPECTED_ROWS)
    return TableView(
        "cfc-expected", "CFC expected score of the higher-rated player by rating difference",
        t.CFC_EXPECTED_SOURCE, ("from", "to", "expected"), pub,
        ("from", "to", "expected", "normal at from", "normal at to", "normal at middle, 2 dec."), cmp, diff,
        "normal: Elo's normal model Phi(d / (200 sqrt 2)); marked where the middle of the range rounds "
        "to another hundredth",
    )


#: The CFC's published table (rules 7), by the name ``xl-elo tables NAME`` takes.
PUBLISHED_TABLES: Final = {"cfc-expected": _cfc_expected}


#: What this system declares to the front ends (:class:`~xl_elo.federations.contract.RatingSystem`).
SYSTEM: Final = RatingSystem(
    CODE=CODE, NAME=NAME, ALIASES=ALIASES, RULES=RULES, SOURCE=SOURCE, UNIT=UNIT, NEEDS_PERIOD=NEEDS_PERIOD,
    PACKAGE=__name__, Player=Player, Options=Options, COLUMNS=COLUMNS, expected=expected, performance=performance,
    calculate=calculate, rate=rate, k_factor=k_factor, first_rating=first_rating, rate_arrays=rate_arrays,
    rules_values=rules_values, NATIONAL_RATINGS=NATIONAL_RATINGS, PERFORMANCE=PERFORMANCE, TEMPLATE=TEMPLATE,
    EXAMPLE=EXAMPLE, FUNCTIONS=FUNCTIONS, PUBLISHED_TABLES=PUBLISHED_TABLES, UNRATED_OPPONENTS=UNRATED_OPPONENTS,
)

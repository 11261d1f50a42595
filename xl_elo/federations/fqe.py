"""FQE (Quebec chess federation) event rating (SPEC section 4; seed 004).

Players are rated in the order unrated, provisional, permanent (SPEC 4.1). Unrated
players get a performance ``Cm + 400 (W - L) / n`` with unrated opponents at 1100 and the
50 % adjustment below 1200 (4.3); provisional players a weighted average of their old
rating and their performance (4.4); permanent players ``32 (R - Rp)`` with Rp from the
published table (4.2, 4.5), then the bonus (4.6), the halving above 2300 (4.7) and the
50-point cap of a match (4.8), in the order of 4.9.

Decisions where SPEC 4 is silent (also in the issue note):
- a player with a rating and fewer than 25 games is provisional, 25 or more permanent;
  a player without a rating (or with a rating and 0 games) is unrated;
- the halving of 4.7 and the match cap of 4.8 apply to provisional players too (the
  text says "tous les changements"), the bonus of 4.6 to permanent players only;
- Rp and ``32 (R - Rp)`` are computed in whole hundredths, so the rounding of 4.5 (half away
  from zero, SPEC 1.3) never meets a binary fraction.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from xl_elo.core import round_half_away
from xl_elo.federations._period import Sides, signed_lookup, table_by_difference
from xl_elo.model import ColumnResults, Event, Results, make_columns
from xl_elo.tables import FQE_EXPECTED_ROWS

#: Rating an unrated opponent counts with in an unrated player's performance (SPEC 4.3).
UNRATED_OPPONENT: Final = 1100.0
#: Below this an unrated player's performance gets half the gap added (SPEC 4.3).
ADJUST_BELOW: Final = 1200.0
#: A player with more than this many games is permanent (SPEC 4.4).
PROVISIONAL_GAMES: Final = 24
K: Final = 32
#: Bonus threshold ``24 + 2 (r - 4)`` from 4 rated games (SPEC 4.6).
BONUS_MIN_GAMES: Final = 4
BONUS_BASE: Final = 24
BONUS_STEP: Final = 2
#: Changes above this rating are halved (SPEC 4.7).
HALVING_ABOVE: Final = 2300.0
#: Largest rise in a two-player match (SPEC 4.8).
MATCH_CAP: Final = 50.0

_LOWER = np.array([row[0] for row in FQE_EXPECTED_ROWS], dtype=np.float64)
_PCT = np.array([row[2] for row in FQE_EXPECTED_ROWS], dtype=np.int64)
_BY_DIFF = table_by_difference(_LOWER, _PCT)

COLUMNS: Final = make_columns((
    "status_after", "wins", "losses", "cm", "threshold", "halving", "match_cap",
))


def table_hundredths(difference: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """The FQE table (SPEC 4.2) in hundredths for ``difference`` = own - opponent's rating.

    ``table_hundredths(148) == 70``, ``table_hundredths(-148) == 30``.
    """
    return signed_lookup(np.asarray(difference, dtype=np.float64), _LOWER, _PCT, _BY_DIFF)


def expected(rating: npt.ArrayLike, opponent: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Expected score of a permanent player from the FQE table (SPEC 4.2)."""
    return table_hundredths(np.asarray(rating, np.float64) - np.asarray(opponent, np.float64)) / 100.0


def unrated_performance(cm: npt.ArrayLike, wins: npt.ArrayLike, losses: npt.ArrayLike,
                        n: npt.ArrayLike, *, adjust: bool = True) -> npt.NDArray[np.float64]:
    """``Cm + 400 (W - L) / n``, raised halfway to 1200 below it when ``adjust`` (SPEC 4.3)."""
    perf = np.asarray(cm, np.float64) + 400.0 * (np.asarray(wins, np.float64) - losses) / np.asarray(n, np.float64)
    if adjust:
        perf = np.where(perf < ADJUST_BELOW, perf + (ADJUST_BELOW - perf) / 2.0, perf)
    return perf


def bonus(change: npt.ArrayLike, rated_games: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Bonus points of a permanent player: the change above ``24 + 2 (r - 4)``, from r = 4 (SPEC 4.6)."""
    c = np.asarray(change, dtype=np.float64)
    r = np.asarray(rated_games, dtype=np.float64)
    threshold = BONUS_BASE + BONUS_STEP * (r - BONUS_MIN_GAMES)
    return np.where(r >= BONUS_MIN_GAMES, np.maximum(c - threshold, 0.0), 0.0)


def halve_above_2300(before: npt.ArrayLike, change: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """The change after the halving of SPEC 4.7.

    Above 2300 before the event the whole change is halved; from at most 2300 to above it,
    the part above 2300 is.
    """
    b = np.asarray(before, dtype=np.float64)
    c = np.asarray(change, dtype=np.float64)
    crossing = (b <= HALVING_ABOVE) & (b + c > HALVING_ABOVE)
    return np.where(b > HALVING_ABOVE, c / 2.0,
                    np.where(crossing, (HALVING_ABOVE - b) + (b + c - HALVING_ABOVE) / 2.0, c))


def permanent_change(rating: float, opponent_ratings: npt.ArrayLike, scores: npt.ArrayLike,
                     *, match: bool = False) -> dict[str, float]:
    """One permanent player's event, every step of SPEC 4.5 - 4.9 (for the Excel functions)."""
    o = np.asarray(opponent_ratings, dtype=np.float64).ravel()
    s = np.asarray(scores, dtype=np.float64).ravel()
    rp_pct = int(table_hundredths(rating - o).sum())
    change = float(_round_hundredths(K * (int(np.rint(100 * s.sum())) - rp_pct)))
    b = float(bonus(change, len(o)))
    total = float(halve_above_2300(rating, change + b))
    halving = change + b - total
    capped = min(total, MATCH_CAP) if match else total
    return {
        "score": float(s.sum()), "expected": rp_pct / 100, "change": change, "bonus": b,
        "halving": halving, "match_cap": total - capped,
        "rating_after": float(round_half_away(rating + capped)),
    }


def _round_hundredths(hundredths: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Whole hundredths rounded to the nearest unit, halves away from zero (SPEC 1.3)."""
    h = np.asarray(hundredths, dtype=np.int64)
    return (np.sign(h) * ((np.abs(h) + 50) // 100)).astype(np.float64)


def rate(event: Event) -> Results:
    """Rate an FQE event: unrated, then provisional, then permanent players (SPEC 4)."""
    players = event.players
    n_players = len(players)
    rating = np.fromiter((np.nan if p.rating is None else p.rating for p in players), np.float64, n_players)
    games_before = np.fromiter((p.games for p in players), np.int64, n_players)
    unrated = np.isnan(rating) | (games_before == 0)
    permanent = ~unrated & (games_before > PROVISIONAL_GAMES)
    provisional = ~unrated & ~permanent

    sides = Sides.build(event.game_arrays())
    n = sides.count()
    score = sides.total(sides.score)
    wins = sides.total(sides.score == 1.0)
    losses = sides.total(sides.score == 0.0)
    match = int(np.count_nonzero(n > 0)) == 2

    # 1. unrated players: unrated opponents at 1100 (SPEC 4.3)
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
    # 3. permanent players (SPEC 4.5), in whole hundredths
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

    def only(mask: npt.NDArray[np.bool_], values: npt.ArrayLike) -> npt.NDArray[np.float64]:
        return np.where(mask, values, np.nan)

    values = {
        "id": [p.id for p in players], "name": [p.name for p in players], "status": status,
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
    return ColumnResults("fqe", COLUMNS, values, _KINDS, period=event.period).to_results()


_KINDS: Final = {
    "id": "text", "name": "text", "status": "text", "status_after": "text", "rating_before": "number",
    "games_rated": "int", "score": "float", "expected": "float", "k": "int", "performance": "float",
    "change": "float", "bonus": "float", "rating_after": "number", "games_after": "int", "wins": "int",
    "losses": "int", "cm": "float", "threshold": "int", "halving": "float", "match_cap": "float",
}

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
from xl_elo.federations._period import Sides, nan_to_none, signed_lookup, table_by_difference
from xl_elo.model import Event, Results, make_columns
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

    rows = []
    for i, p in enumerate(players):
        games_after = p.games + int(n[i])
        if not played[i]:
            status = "unrated" if unrated[i] else ("permanent" if permanent[i] else "provisional")
            rows.append(_row(p, status, status, int(n[i]), games_after, rating=nan_to_none(rating[i]),
                             after=nan_to_none(rating[i])))
            continue
        status = "unrated" if unrated[i] else ("permanent" if permanent[i] else "provisional")
        status_after = "permanent" if games_after > PROVISIONAL_GAMES else "provisional"
        row = _row(p, status, status_after, int(n[i]), games_after, rating=nan_to_none(rating[i]),
                   after=float(after[i]))
        row.update(score=float(score[i]), wins=int(wins[i]), losses=int(losses[i]))
        if unrated[i]:
            row.update(cm=float(cm_unrated[i]),
                       performance=float(unrated_performance(cm_unrated[i], wins[i], losses[i], n[i], adjust=False)))
        elif provisional[i]:
            row.update(cm=float(cm_rated[i]), performance=float(prov_perf[i]), change=float(change[i]),
                       bonus=0.0, halving=float(halving[i]), match_cap=float(total[i] - capped[i]))
        else:
            threshold = int(BONUS_BASE + BONUS_STEP * (n[i] - BONUS_MIN_GAMES)) if n[i] >= BONUS_MIN_GAMES else None
            row.update(expected=float(rp_pct[i]) / 100, k=K, change=float(change[i]),
                       bonus=float(bonus_pts[i]), halving=float(halving[i]),
                       match_cap=float(total[i] - capped[i]), threshold=threshold)
        rows.append(row)
    return Results("fqe", COLUMNS, rows, period=event.period)


def _row(p, status, status_after, n, games_after, *, rating, after):  # type: ignore[no-untyped-def]
    return {
        "id": p.id, "name": p.name, "status": status, "status_after": status_after,
        "rating_before": None if rating is None else int(rating) if float(rating).is_integer() else rating,
        "games_rated": n, "score": 0.0, "expected": None, "k": None, "performance": None,
        "change": None, "bonus": None,
        "rating_after": None if after is None else int(after) if float(after).is_integer() else after,
        "games_after": games_after, "wins": None, "losses": None, "cm": None, "threshold": None,
        "halving": None, "match_cap": None,
    }

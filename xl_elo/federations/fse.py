"""FSE (Swiss chess federation) rating period (SPEC section 3; seed 002).

Two-month periods. ``R_new = R_old + round(sum K * (score - E))`` with the logistic expected
score (SPEC 1.2) and rounding half away from zero (SPEC 1.3, 3.1). K follows SPEC 3.2. The
Swiss national list closed on 1 January 2026; the rules stay for past periods and clubs.

Decisions where SPEC 3 is silent (also in the issue note): games against unrated opponents
are not rated; an unrated player gets no rating (the course gives no first-rating rule)
and is listed with his games against rated players; "junior under 20" is
``period year - birth year < 20``.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from xl_elo.core import expected_score, round_half_away
from xl_elo.federations._period import PlayerArrays, Sides, whole
from xl_elo.model import Event, Results, make_columns

K_NEW: Final = 36
K_STANDARD: Final = 24
K_MASTER: Final = 16
NEW_PLAYER_GAMES: Final = 20
JUNIOR_AGE: Final = 20
JUNIOR_RATING_LIMIT: Final = 1850
MASTER_RATING: Final = 2200

COLUMNS: Final = make_columns(("note",))


def k_factor(rating: npt.ArrayLike, games: npt.ArrayLike = 20, age: npt.ArrayLike = np.nan) -> npt.NDArray[np.int64]:
    """FSE K-factor (SPEC 3.2), element-wise.

    36 during the first 20 games and for juniors under 20 rated at most 1850; 16 from
    2200; 24 otherwise.
    """
    r = np.asarray(rating, dtype=np.float64)
    g = np.asarray(games, dtype=np.float64)
    a = np.asarray(age, dtype=np.float64)
    new = (g < NEW_PLAYER_GAMES) | ((a < JUNIOR_AGE) & (r <= JUNIOR_RATING_LIMIT))
    return np.where(new, K_NEW, np.where(r >= MASTER_RATING, K_MASTER, K_STANDARD)).astype(np.int64)


def rate(event: Event) -> Results:
    """Rate an FSE period: every listed player, all games at once (SPEC 3)."""
    pa = PlayerArrays.build(event)
    sides = Sides.build(event.game_arrays())
    rated = pa.rated
    both = sides.select(rated[sides.who] & rated[sides.against])
    n = both.count()
    k = k_factor(pa.rating, pa.games, pa.age)
    e = expected_score(pa.rating[both.who], pa.rating[both.against])
    change = round_half_away(both.total(k[both.who] * (both.score - e)))
    expected_sum = both.total(e)
    score = both.total(both.score)

    newcomers = sides.select(~rated[sides.who] & rated[sides.against])
    new_games = newcomers.count()
    new_score = newcomers.total(newcomers.score)

    rows = []
    for i, p in enumerate(event.players):
        if rated[i]:
            rows.append({
                "id": p.id, "name": p.name, "status": "established",
                "rating_before": whole(pa.rating[i]), "games_rated": int(n[i]),
                "score": float(score[i]), "expected": float(expected_sum[i]), "k": int(k[i]),
                "performance": None, "change": whole(change[i]), "bonus": None,
                "rating_after": whole(pa.rating[i] + change[i]), "games_after": p.games + int(n[i]),
                "note": "",
            })
        else:
            rows.append({
                "id": p.id, "name": p.name, "status": "unrated",
                "rating_before": None, "games_rated": int(new_games[i]), "score": float(new_score[i]),
                "expected": None, "k": None, "performance": None,
                "change": None, "bonus": None, "rating_after": None,
                "games_after": p.games + int(new_games[i]),
                "note": "no FSE rule gives a first rating",
            })
    return Results("fse", COLUMNS, rows, period=event.period)

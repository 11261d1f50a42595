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

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from xl_elo.core import expected_score, round_half_away
from xl_elo.federations._period import PlayerArrays, Sides
from xl_elo.model import ColumnResults, Event, GameArrays, Results, make_columns

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


_KINDS: Final = {
    "id": "text", "name": "text", "status": "text", "rating_before": "int", "games_rated": "int", "score": "float",
    "expected": "float", "k": "int", "performance": "blank", "change": "int", "bonus": "blank",
    "rating_after": "int", "games_after": "int", "note": "note",
}
_NO_FIRST_RATING: Final = "no FSE rule gives a first rating"


def rate_columns(pa: PlayerArrays, arrays: GameArrays, ids: Sequence[str] | npt.NDArray[np.bytes_],
                 names: Sequence[str] | npt.NDArray[np.bytes_], *, period: str | None = None) -> ColumnResults:
    """The results table of an FSE period as columns (SPEC 3, SPEC 8).

    A side counts when the opponent is rated: a rated game for a rated player, a game listed
    (without a first rating) for an unrated one.
    """
    sides = Sides.build(arrays)
    rated = pa.rated
    counted = sides.select(rated[sides.against])
    n = counted.count()
    k = k_factor(pa.rating, pa.games, pa.age)
    both = counted.select(rated[counted.who])
    e = expected_score(pa.rating[both.who], pa.rating[both.against])
    change = round_half_away(both.total(k[both.who] * (both.score - e)))
    after = pa.rating + change
    notes = dict.fromkeys(np.flatnonzero(~rated).tolist(), _NO_FIRST_RATING)
    values = {
        "id": ids, "name": names, "status": np.where(rated, "established", "unrated"),
        "rating_before": np.trunc(pa.rating), "games_rated": n.astype(np.float64),
        "score": counted.total(counted.score), "expected": np.where(rated, both.total(e), np.nan),
        "k": np.where(rated, k, np.nan), "change": np.where(rated, change, np.nan),
        "rating_after": np.trunc(after), "games_after": pa.games + n, "note": notes,
    }
    return ColumnResults("fse", COLUMNS, values, _KINDS, period=period)


def rate(event: Event) -> Results:
    """Rate an FSE period: every listed player, all games at once (SPEC 3)."""
    pa = PlayerArrays.build(event)
    return rate_columns(pa, event.game_arrays(), [p.id for p in event.players], [p.name for p in event.players],
                        period=event.period).to_results()

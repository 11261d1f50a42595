"""FFE (French chess federation) national Elo period (SPEC section 5; seed 001).

Three periods a year; all games of a period are rated together against the opponents'
ratings Ei from before the period (SPEC 5.1). A game counts for a player only when it is
compatible with the 350-point window around his rating (SPEC 5.2); from the compatible
games come Nj, Sc, Ea and P (5.3), the bonus D(P) (5.4) and the performance
``Pj = Ea + D(P)`` raised to 1000 (5.5). The update rules 1.a .. 3.b (5.6 - 5.8) give the
new Elo, rounded to the nearest ten (5.9). Unrated players are estimated by the iterative
method of 5.10. The conversions of seed 001 section 5 are :func:`to_elo` / :func:`from_elo`.

Decisions where SPEC 5 is silent (also in the issue note):
- a player with no compatible game (Nj = 0) keeps what he had (rule ``none``);
- in the iteration, an unrated player with no game compatible with his window is settled
  at his estimate (his performance is undefined there);
- a blank category counts as senior;
- ``rounds`` in the results is the round in which the player's estimate last settled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from xl_elo.core import normal_quantile, round_to_ten
from xl_elo.federations._period import Sides
from xl_elo.model import ColumnResults, Event, GameArrays, Results, make_columns
from xl_elo.tables import FFE_CONVERSIONS, FFE_DP_TABLE

FloatArray = npt.NDArray[np.float64]
DpMethod = Literal["normal", "table"]

#: Compatibility window (SPEC 5.2).
WINDOW: Final = 350
#: D(P) bound (SPEC 5.4).
DP_BOUND: Final = 470.0
#: Scale of the normal D(P): ``D = (2000 / 7) * Phi^-1(P)`` (SPEC 5.4).
DP_SCALE: Final = 2000.0 / 7.0
#: Pj floor (SPEC 5.5).
PJ_FLOOR: Final = 1000.0
#: Weight of the old rating in rules 1.a and 1.c (SPEC 5.6).
WEIGHT: Final = 16
#: Compatible games that let the performance replace the rating (SPEC 5.6, 5.7, 5.8).
QUOTA_JUNIOR: Final = 8
QUOTA_SENIOR: Final = 16
QUOTA_FIRST: Final = 8
#: Iterative method (SPEC 5.10).
START: Final = 1500.0
SETTLE: Final = 20.0
MAX_ROUNDS: Final = 25

_DP_KEYS = np.array(sorted(FFE_DP_TABLE), dtype=np.float64) / 100.0  # P, as the table prints it
_DP_VALUES = np.array([FFE_DP_TABLE[k] for k in sorted(FFE_DP_TABLE)], dtype=np.float64)
_DP_BY_HUNDREDTH = np.full(101, np.nan)
_DP_BY_HUNDREDTH[1:100] = [FFE_DP_TABLE[k] for k in range(1, 100)]

COLUMNS: Final = make_columns(
    ("rule", "nj", "sc", "ea", "p", "dp", "pj", "ej", "archive_perf", "archive_games", "rounds", "note")
)


# --------------------------------------------------------------------------- D(P)


def dp_hundredth(p_hundredths: npt.ArrayLike) -> FloatArray:
    """The published D(P) at P = p/100, unbounded, NaN at 0 and 100 (seed 001 section 2.4).

    FIDE reads its first ratings from the same table (SPEC 2.4).
    """
    return _DP_BY_HUNDREDTH[np.asarray(p_hundredths, dtype=np.int64)]


def dp_normal(p: npt.ArrayLike) -> FloatArray:
    """D(P) from the normal quantile ``(2000/7) * Phi^-1(P)``, bounded to +-470 (SPEC 5.4)."""
    return np.clip(DP_SCALE * normal_quantile(p), -DP_BOUND, DP_BOUND)


def dp_table(p: npt.ArrayLike) -> FloatArray:
    """D(P) by linear interpolation of the published table, bounded to +-470 (SPEC 5.4)."""
    a = np.clip(np.asarray(p, dtype=np.float64), 0.01, 0.99)
    return np.clip(np.interp(a, _DP_KEYS, _DP_VALUES), -DP_BOUND, DP_BOUND)


def dp(p: npt.ArrayLike, method: DpMethod = "normal") -> FloatArray:
    """D(P) of the FFE, bounded to +-470, by the chosen method (SPEC 5.4; seed 001 2.4)."""
    if method == "normal":
        return dp_normal(p)
    if method == "table":
        return dp_table(p)
    raise ValueError(f"the D(P) method must be 'normal' or 'table', not {method!r}")


# --------------------------------------------------------------------------- performance


def compatible(center: npt.ArrayLike, opponent: npt.ArrayLike, score: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """Is each game compatible with the 350-point window around ``center`` (SPEC 5.2)?

    A draw always is; a win when the opponent is rated more than ``center - 350``; a loss
    when he is rated less than ``center + 350``.
    """
    c = np.asarray(center, dtype=np.float64)
    o = np.asarray(opponent, dtype=np.float64)
    s = np.asarray(score, dtype=np.float64)
    return (s == 0.5) | ((s == 1.0) & (o > c - WINDOW)) | ((s == 0.0) & (o < c + WINDOW))


def _dp_by_score(sc: FloatArray, nj: npt.NDArray[np.int64], method: DpMethod) -> FloatArray:
    """D(P) at P = sc / nj for every player (NaN where nj = 0), computed once per distinct score.

    Scores are whole or half points, so a period has few distinct (points, games) pairs
    however many players it has; D(P) is computed for those and looked up for the rest.
    """
    halves = np.rint(2 * sc).astype(np.int64)
    n_max = int(nj.max(initial=0)) + 1
    key = halves * n_max + nj
    if not np.array_equal(halves, 2 * sc) or (len(key) and (key.min() < 0 or key.max() >= 1 << 22)):
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(nj > 0, dp(np.nan_to_num(sc / nj), method), np.nan)
    pairs = np.flatnonzero(np.bincount(key[nj > 0], minlength=1))
    pairs = pairs[pairs % n_max > 0]
    table = np.full(int(key.max(initial=0)) + 1, np.nan)
    table[pairs] = dp((pairs // n_max) / 2 / (pairs % n_max), method)
    return table[key]


@dataclass(frozen=True)
class Performance:
    """Nj, Sc, Ea, P, D(P) and Pj per player (SPEC 5.3 - 5.5); NaN where Nj = 0."""

    nj: npt.NDArray[np.int64]
    sc: FloatArray
    ea: FloatArray
    p: FloatArray
    dp: FloatArray
    pj: FloatArray


def performance_of(
    sides: Sides,
    center: FloatArray | None,
    opponent_rating: FloatArray,
    method: DpMethod = "normal",
) -> Performance:
    """Performance of every player over ``sides`` (SPEC 5.3 - 5.5).

    ``center[i]`` is the centre of player i's window (his Ei or his estimate); None means
    no window (the first estimate of 5.10). ``opponent_rating[j]`` is how player j counts.
    """
    o = opponent_rating[sides.against]
    keep = np.ones(len(o), bool) if center is None else compatible(center[sides.who], o, sides.score)
    sel = sides.select(keep)
    nj = sel.count()
    sc = sel.total(sel.score)
    with np.errstate(invalid="ignore", divide="ignore"):
        ea = sel.total(o[keep]) / nj
        p = sc / nj
    d = _dp_by_score(sc, nj, method)
    pj = np.where(nj > 0, np.maximum(ea + d, PJ_FLOOR), np.nan)
    return Performance(nj, sc, ea, p, d, pj)


def performance(
    opponent_ratings: npt.ArrayLike,
    scores: npt.ArrayLike,
    rating: float | None = None,
    method: DpMethod = "normal",
) -> Performance:
    """Pj of one player from his games (SPEC 5.3 - 5.5), with the window when ``rating`` is given."""
    o = np.asarray(opponent_ratings, dtype=np.float64).ravel()
    s = np.asarray(scores, dtype=np.float64).ravel()
    sides = Sides(np.zeros(len(o), np.int64), np.arange(1, len(o) + 1), s, 1)
    center = None if rating is None else np.array([float(rating)])
    perf = performance_of(sides, center, np.concatenate([[np.nan], o]), method)
    return perf


# --------------------------------------------------------------------------- update rules


@dataclass(frozen=True, slots=True)
class Update:
    """The outcome of the update rules for one player (SPEC 5.6 - 5.8)."""

    rule: str
    """``1.a`` ... ``3.b``, ``Pj=Ei`` (Pj equals Ei) or ``none`` (no compatible game)."""
    ej: float | None
    """New Elo before rounding, None when the player stays unrated."""
    elo: int | None
    """New Elo rounded to the nearest ten (SPEC 5.9)."""
    archive_perf: float | None
    """Archived performance kept for the next period (unrated players), with decimals."""
    archive_games: int | None


def update(
    nj: int,
    pj: float,
    ei: float | None = None,
    junior: bool = False,
    archive_perf: float | None = None,
    archive_games: int | None = None,
) -> Update:
    """Apply rules 1.a - 1.c, 2.a - 2.c or 3.a - 3.b to one player (SPEC 5.6 - 5.9)."""
    if ei is not None:
        if nj == 0 or pj == ei:
            return Update("none" if nj == 0 else "Pj=Ei", ei, _ten(ei), None, None)
        if pj < ei:
            ej = (WEIGHT * ei + nj * pj) / (WEIGHT + nj)
            return Update("1.a", ej, _ten(ej), None, None)
        if nj >= (QUOTA_JUNIOR if junior else QUOTA_SENIOR):
            return Update("1.b", pj, _ten(pj), None, None)
        ej = (pj * nj + (WEIGHT - nj) * ei) / WEIGHT
        return Update("1.c", ej, _ten(ej), None, None)
    if archive_games and archive_perf is not None:
        na, pa = archive_games, archive_perf
        if nj == 0:
            return Update("none", None, None, pa, na)
        if nj >= QUOTA_FIRST:
            return Update("2.a", pj, _ten(pj), None, None)
        mean = (pj * nj + pa * na) / (nj + na)
        if nj + na < QUOTA_FIRST:
            return Update("2.b", None, None, mean, nj + na)
        return Update("2.c", mean, _ten(mean), None, None)
    if nj == 0:
        return Update("none", None, None, None, None)
    if nj < QUOTA_FIRST:
        return Update("3.a", None, None, pj, nj)
    return Update("3.b", pj, _ten(pj), None, None)


def _ten(x: float) -> int:
    return int(round_to_ten(x))


# --------------------------------------------------------------------------- iteration


@dataclass(frozen=True)
class Estimates:
    """Outcome of the iterative method for unrated players (SPEC 5.10)."""

    estimate: FloatArray
    """Final estimate per player (NaN for rated players and unrated ones without games)."""
    rounds: npt.NDArray[np.int64]
    """Round in which each unrated player last settled (0 for the others)."""
    settled: npt.NDArray[np.bool_]
    """False for an unrated player still moving after 25 rounds."""


def estimate_unrated(
    sides: Sides, rating: FloatArray, method: DpMethod = "normal", start: float = START
) -> Estimates:
    """The iterative method of SPEC 5.10, Jacobi steps over all unrated players at once.

    Each round recomputes the performance only of players whose estimate, or an opponent's,
    moved in the round before; everyone else's is unchanged (and so is his settling).
    """
    unrated = np.isnan(rating)
    mine = sides.select(unrated[sides.who])
    has_games = mine.count() > 0
    todo = unrated & has_games
    current = np.where(unrated, start, rating)
    first = performance_of(mine, None, current, method)
    est = np.where(todo, first.pj, np.nan)
    current = np.where(todo, est, current)
    last_move = np.zeros(len(rating), np.int64)
    perf = np.full(len(rating), np.nan)
    changed = todo
    t = 0
    for t in range(1, MAX_ROUNDS + 1):
        # only a player whose own estimate or an opponent's moved last round can get another
        # performance: the others keep theirs, and stay settled
        affected = todo & (changed | (np.bincount(mine.who, changed[mine.against], len(rating)) > 0))
        perf = np.where(affected, performance_of(mine.select(affected[mine.who]), current, current, method).pj, perf)
        moving = todo & np.isfinite(perf) & (np.abs(perf - current) >= SETTLE)
        if not moving.any():
            break
        last_move[moving] = t
        current = np.where(moving, (current + perf) / 2.0, current)
        changed = moving
    settled = ~todo | (last_move < t) | (t < MAX_ROUNDS)
    rounds = np.where(todo, np.minimum(last_move + 1, MAX_ROUNDS), 0)
    return Estimates(np.where(todo, current, np.nan), rounds, settled)


# --------------------------------------------------------------------------- period


#: Rule names in the order of the codes :func:`update_arrays` returns.
RULES: Final = ("none", "Pj=Ei", "1.a", "1.b", "1.c", "2.a", "2.b", "2.c", "3.a", "3.b")


def update_arrays(
    nj: npt.NDArray[np.int64], pj: FloatArray, ei: FloatArray, junior: npt.NDArray[np.bool_],
    archive_perf: FloatArray, archive_games: FloatArray,
) -> dict[str, npt.NDArray[np.generic]]:
    """:func:`update` for every player at once (SPEC 5.6 - 5.9); NaN where the rule gives nothing.

    Returns ``rule`` (codes into :data:`RULES`), ``ej``, ``elo``, ``archive_perf``, ``archive_games``.
    """
    nj = np.asarray(nj, dtype=np.int64)
    nf = nj.astype(np.float64)
    rated = ~np.isnan(ei)
    archived = ~rated & (np.nan_to_num(archive_games) > 0) & ~np.isnan(archive_perf)
    fresh = ~rated & ~archived
    na = np.nan_to_num(archive_games)
    quota = np.where(junior, QUOTA_JUNIOR, QUOTA_SENIOR)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = (pj * nf + archive_perf * na) / (nf + na)
        conditions = [
            nj == 0, rated & (pj == ei), rated & (pj < ei), rated & (nj >= quota), rated,
            archived & (nj >= QUOTA_FIRST), archived & (nf + na < QUOTA_FIRST), archived,
            fresh & (nj < QUOTA_FIRST), fresh,
        ]
        rule = np.select(conditions, np.arange(len(RULES)), 0)
        ej_by_rule = [ei, ei, (WEIGHT * ei + nf * pj) / (WEIGHT + nf), pj, (pj * nf + (WEIGHT - nf) * ei) / WEIGHT,
                      pj, np.nan, mean, np.nan, pj]
    ej = np.choose(rule, [np.broadcast_to(np.asarray(x, dtype=np.float64), nj.shape) for x in ej_by_rule])
    none = rule == 0
    keep_archive = none & archived
    out_perf = np.select([keep_archive, rule == 6, rule == 8], [archive_perf, mean, pj], np.nan)
    out_games = np.select([keep_archive, rule == 6, rule == 8], [na, nf + na, nf], np.nan)
    return {"rule": rule, "ej": ej, "elo": round_to_ten(ej), "archive_perf": out_perf, "archive_games": out_games}


_KINDS: Final = {
    "id": "text", "name": "text", "status": "text", "rating_before": "number", "games_rated": "int",
    "score": "float", "expected": "blank", "k": "blank", "performance": "float", "change": "int", "bonus": "blank",
    "rating_after": "int", "games_after": "int", "rule": "text", "nj": "int", "sc": "float", "ea": "float",
    "p": "float", "dp": "float", "pj": "float", "ej": "float", "archive_perf": "float", "archive_games": "int",
    "rounds": "int", "note": "note",
}


def rate_columns(
    rating: FloatArray, games_before: npt.ArrayLike, junior: npt.NDArray[np.bool_], archive_perf: FloatArray,
    archive_games: FloatArray, arrays: GameArrays, ids: Sequence[str] | npt.NDArray[np.bytes_],
    names: Sequence[str] | npt.NDArray[np.bytes_], *, dp_method: DpMethod = "normal", start: float = START,
    period: str | None = None,
) -> ColumnResults:
    """The results table of an FFE period as columns (SPEC 5, SPEC 8); NaN ``rating`` = unrated."""
    sides = Sides.build(arrays)
    est = estimate_unrated(sides, rating, dp_method, start)
    unrated = np.isnan(rating)
    seen = np.where(unrated, est.estimate, rating)  # how each player counts (5.10)
    perf = performance_of(sides.select(np.isfinite(seen[sides.against])), seen, seen, dp_method)
    games = sides.count()
    score = sides.total(sides.score)
    # SPEC 5.10: an unrated player's Pj is his final estimate (his performance at it is
    # within 20 of it and is shown beside it)
    pj = np.where(perf.nj > 0, np.where(unrated, est.estimate, perf.pj), np.nan)
    u = update_arrays(perf.nj, pj, rating, junior, archive_perf, archive_games)
    moving = unrated & (games > 0) & ~est.settled
    notes: dict[int, str] = {}
    warnings = []
    for i in np.flatnonzero(moving | np.isin(u["rule"], (6, 8))).tolist():
        if moving[i]:
            notes[i] = f"estimate still moving after {MAX_ROUNDS} rounds"
            warnings.append(f"{ids[i].decode('utf-8') if isinstance(ids[i], bytes) else ids[i]}: {notes[i]}")
        else:
            notes[i] = "archived for the next period"
    values = {
        "id": ids, "name": names, "status": np.where(unrated, "unrated", "established"),
        "rating_before": rating, "games_rated": games.astype(np.float64), "score": score,
        "performance": perf.pj, "change": u["elo"] - round_to_ten(rating), "rating_after": u["elo"],
        "games_after": np.asarray(games_before, dtype=np.float64) + games,
        "rule": np.array(RULES)[u["rule"]], "nj": perf.nj.astype(np.float64), "sc": perf.sc,
        "ea": perf.ea, "p": perf.p, "dp": perf.dp, "pj": pj, "ej": u["ej"],
        "archive_perf": u["archive_perf"], "archive_games": u["archive_games"],
        "rounds": np.where(unrated & (games > 0), est.rounds, np.nan), "note": notes,
    }
    return ColumnResults("ffe", COLUMNS, values, _KINDS, period=period, warnings=warnings)


def rate(event: Event, *, dp_method: DpMethod = "normal", start: float = START) -> Results:
    """Rate an FFE period: every listed player, all games at once (SPEC 5)."""
    players = event.players
    n = len(players)
    rating = np.fromiter((np.nan if p.rating is None else p.rating for p in players), np.float64, n)
    junior = np.fromiter(((p.category or "").strip().lower() == "junior" for p in players), bool, n)
    archive_perf = np.fromiter((np.nan if p.archive_perf is None else p.archive_perf for p in players), np.float64, n)
    archive_games = np.fromiter((np.nan if p.archive_games is None else p.archive_games for p in players),
                                np.float64, n)
    games_before = np.fromiter((p.games for p in players), np.float64, n)
    return rate_columns(rating, games_before, junior, archive_perf, archive_games, event.game_arrays(),
                        [p.id for p in players], [p.name for p in players], dp_method=dp_method, start=start,
                        period=event.period).to_results()


# --------------------------------------------------------------------------- conversions


def to_elo(value: npt.ArrayLike, system: str) -> FloatArray:
    """Convert a rating of another system to Elo (seed 001 section 5, SPEC 5.11).

    ``system`` is ``ingo``, ``bridier``, ``bcr`` or ``cs`` (``elo`` returns the value).
    """
    v = np.asarray(value, dtype=np.float64)
    if system.lower() == "elo":
        return v
    a, b, _ = _conversion(system)
    return a * v + b


def from_elo(elo: npt.ArrayLike, system: str) -> FloatArray:
    """Convert an Elo to another system, the inverse of :func:`to_elo` (SPEC 5.11)."""
    v = np.asarray(elo, dtype=np.float64)
    if system.lower() == "elo":
        return v
    a, b, _ = _conversion(system)
    return (v - b) / a


def convert(value: npt.ArrayLike, from_system: str, to_system: str) -> FloatArray:
    """Convert between any two of ``elo``, ``ingo``, ``bridier``, ``bcr``, ``cs`` (SPEC 5.11)."""
    return from_elo(to_elo(value, from_system), to_system)


def _conversion(system: str) -> tuple[int, int, str]:
    try:
        return FFE_CONVERSIONS[system.strip().lower()]
    except KeyError:
        known = ", ".join(["elo", *FFE_CONVERSIONS])
        raise ValueError(f"unknown rating system {system!r}; expected one of {known}") from None

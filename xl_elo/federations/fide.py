"""FIDE rating period (SPEC section 2; seed 002 and the FIDE Rating Regulations 2024).

A rated player's new rating is ``R_old + sum K * (score - PD)``, the sum rounded to the
nearest whole number, halves away from zero: +2.5 -> +3, -2.5 -> -3 (SPEC 2.1). PD comes from FIDE's published table
(SPEC 2.2) with the 400-point rule, except for a player rated 2650 or more. K follows
SPEC 2.3, including ``K * n <= 700``. An unrated player's first rating follows SPEC 2.4.

Decisions where SPEC 2 is silent (stated here and in the issue note):
- a game between a rated and an unrated player is not rated for the rated player (the
  2024 regulations rate only games between rated players for a rated player); it counts
  for the unrated player's first rating;
- games between two unrated players count for neither;
- PD sums are exact: the table is held in hundredths, so ``K * (score - PD)`` is a whole
  number of hundredths and the rounding of SPEC 2.1 never meets a binary fraction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from xl_elo.core import expected_score, round_half_away
from xl_elo.federations._period import MAX_DIFFERENCE, PlayerArrays, signed_lookup, table_by_difference
from xl_elo.model import ColumnResults, Event, GameArrays, Results, make_columns
from xl_elo.tables import FIDE_DP_TABLE, FIDE_PD_ROWS

#: K for new players and juniors, for the others, for players who reached 2400 (SPEC 2.3).
K_NEW: Final = 40
K_STANDARD: Final = 20
K_2400: Final = 10
#: ``K * n`` may not exceed this in one period (SPEC 2.3).
K_TIMES_GAMES_MAX: Final = 700
#: Games a new player needs before leaving K = 40 (SPEC 2.3).
NEW_PLAYER_GAMES: Final = 30
#: K 40 for a player rated below 2300 until the end of the year of his 18th birthday:
#: ``period year - birth year <= 18`` (SPEC 2.3).
JUNIOR_AGE: Final = 18
JUNIOR_RATING_LIMIT: Final = 2300
#: The published rating that moves a player to K = 10 for good.
K10_RATING: Final = 2400
#: Differences above this count as this (SPEC 2.2) ...
DIFFERENCE_CAP: Final = 400
#: ... except for a player rated this or more (since October 2025).
NO_CAP_FROM: Final = 2650
#: First rating (SPEC 2.4).
FIRST_RATING_MIN_GAMES: Final = 5
FIRST_RATING_MIN_SCORE: Final = 0.5
HYPOTHETICAL_OPPONENT: Final = 1800
FIRST_RATING_CAP: Final = 2200
RATING_FLOOR: Final = 1400

_PD_LOWER = np.array([row[0] for row in FIDE_PD_ROWS], dtype=np.float64)
_PD_PCT = np.array([row[2] for row in FIDE_PD_ROWS], dtype=np.int64)
_PD_BY_DIFF = table_by_difference(_PD_LOWER, _PD_PCT)
#: D(P) by p in hundredths, 0 .. 100, from FIDE's table 8.1.1 (SPEC 2.4, 2.6).
_DP_BY_HUNDREDTH = np.array([FIDE_DP_TABLE[p] for p in range(101)], dtype=np.float64)

COLUMNS: Final = make_columns(("ever_2400", "note"))


def dp_hundredth(p_hundredths: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """FIDE's D(P) at p = x/100 for x = 0 .. 100 (table 8.1.1: -800 at 0.00, +800 at 1.00; SPEC 2.4, 2.6)."""
    return _DP_BY_HUNDREDTH[np.asarray(p_hundredths, dtype=np.int64)]


def pd_hundredths(difference: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Expected score in hundredths for a rating difference (own - opponent), FIDE table.

    No 400-point rule here (see :func:`expected_hundredths`). The lower-rated side gets
    100 minus the higher side's value (SPEC 2.2).
    """
    d = np.asarray(difference, dtype=np.float64)
    return signed_lookup(d, _PD_LOWER, _PD_PCT, _PD_BY_DIFF)


def expected_hundredths(rating: npt.ArrayLike, opponent: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """FIDE expected score (PD) in hundredths, with the 400-point rule (SPEC 2.2).

    A difference of more than 400 counts as 400 unless ``rating`` is 2650 or more.
    """
    r = np.asarray(rating, dtype=np.float64)
    d = r - np.asarray(opponent, dtype=np.float64)
    capped = np.clip(d, -DIFFERENCE_CAP, DIFFERENCE_CAP)
    return pd_hundredths(np.where(r >= NO_CAP_FROM, d, capped))


def expected(rating: npt.ArrayLike, opponent: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """FIDE expected score (PD) as a fraction, with the 400-point rule (SPEC 2.2)."""
    return expected_hundredths(rating, opponent) / 100.0


def k_factor(
    rating: npt.ArrayLike,
    games: npt.ArrayLike = 30,
    age: npt.ArrayLike = np.nan,
    ever_2400: npt.ArrayLike = False,
    n_games: npt.ArrayLike = 0,
) -> npt.NDArray[np.int64]:
    """FIDE K-factor (SPEC 2.3), element-wise.

    40 until 30 rated games (``games`` before the period) and, for a player rated below 2300,
    until the end of the year of his 18th birthday (``age`` = period year - birth year <= 18); otherwise 10 once the rating has reached 2400 (now or ``ever_2400``);
    otherwise 20. With ``n_games`` games in the period, K is lowered to the largest whole
    number with ``K * n_games <= 700``.
    """
    r = np.asarray(rating, dtype=np.float64)
    g = np.asarray(games, dtype=np.float64)
    a = np.asarray(age, dtype=np.float64)
    ever = np.asarray(ever_2400, dtype=bool) | (r >= K10_RATING)
    junior = (a <= JUNIOR_AGE) & (r < JUNIOR_RATING_LIMIT)
    k = np.where((g < NEW_PLAYER_GAMES) | junior, K_NEW, np.where(ever, K_2400, K_STANDARD))
    n = np.asarray(n_games, dtype=np.int64)
    limit = np.where(n > 0, K_TIMES_GAMES_MAX // np.maximum(n, 1), K_NEW)
    return np.minimum(k, limit).astype(np.int64)


@dataclass(frozen=True, slots=True)
class FirstRating:
    """An unrated player's first rating and its intermediates (SPEC 2.4)."""

    games: int
    """Games against rated opponents (the two hypothetical games not included)."""
    score: float
    """Points in those games."""
    ra: float
    """Average rating of the opponents, with two hypothetical opponents at 1800."""
    p: float
    """Score fraction with the two hypothetical draws, rounded to two decimals."""
    dp: int | None
    """D(P) at p from the published table."""
    rating: int | None
    """Ru = Ra + dp, rounded, capped at 2200; None when not published."""
    status: str
    """``first rating``, ``below floor`` or ``unrated`` (too few games or points)."""


def first_rating(opponent_ratings: npt.ArrayLike, scores: npt.ArrayLike) -> FirstRating:
    """First rating of an unrated player from his games against rated opponents (SPEC 2.4)."""
    o = np.asarray(opponent_ratings, dtype=np.float64).ravel()
    s = np.asarray(scores, dtype=np.float64).ravel()
    out = first_ratings(np.zeros(len(o), np.int64), o, s, 1)
    return out[0]


def first_ratings(
    who: npt.NDArray[np.int64], opponent: npt.NDArray[np.float64], score: npt.NDArray[np.float64], n: int
) -> list[FirstRating]:
    """:func:`first_rating` for ``n`` players at once; ``who[i]`` owns game i."""
    games = np.bincount(who, minlength=n).astype(np.float64)
    total = np.bincount(who, weights=score, minlength=n)
    ra, p_pct, dp, ru, enough = _first_from_sums(games, total, np.bincount(who, weights=opponent, minlength=n))
    out = []
    for i in range(n):
        if not enough[i]:
            out.append(FirstRating(int(games[i]), float(total[i]), float(ra[i]), int(p_pct[i]) / 100, None, None, "unrated"))
        else:
            above = ru[i] >= RATING_FLOOR
            out.append(FirstRating(
                int(games[i]), float(total[i]), float(ra[i]), int(p_pct[i]) / 100, int(dp[i]),
                int(ru[i]) if above else None, "first rating" if above else "below floor",
            ))
    return out


def _first_from_sums(games: npt.NDArray[np.float64], points: npt.NDArray[np.float64],
                     opponents: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.generic], ...]:
    """SPEC 2.4 from per-player sums: Ra, p (hundredths), dp, Ru (capped) and whether enough games."""
    ra = (opponents + 2 * HYPOTHETICAL_OPPONENT) / (games + 2)
    # p with the two hypothetical draws, in hundredths rounded half away from zero (positive): 100 * (2S + 2) / (2 (n + 2))
    p_pct = _hundredths_half_up(2 * points + 2, 2 * (games + 2))
    dp = dp_hundredth(p_pct)
    ru = np.minimum(round_half_away(ra + dp), FIRST_RATING_CAP)
    enough = (games >= FIRST_RATING_MIN_GAMES) & (points >= FIRST_RATING_MIN_SCORE)
    return ra, p_pct, dp, ru, enough


def _performance_from_sums(games: npt.NDArray[np.float64], points: npt.NDArray[np.float64],
                           opponents: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``Ra + dp(p)`` from per-player sums, p rounded to hundredths (NaN with no game; SPEC 2.6)."""
    p_pct = _hundredths_half_up(2 * points, 2 * games)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(games > 0, opponents / games + dp_hundredth(p_pct), np.nan)


def _hundredths_half_up(halves: npt.ArrayLike, den: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """``100 * halves / den`` rounded half up, in whole numbers (no binary fractions).

    Computed as ``floor((200 * halves + den) / (2 * den))``: both whole numbers far below
    2**52, so the division's correctly rounded quotient never crosses a whole number.
    """
    num = 100.0 * np.asarray(halves, dtype=np.float64)
    d = np.maximum(np.asarray(den, dtype=np.float64), 1.0)
    return np.floor((2.0 * num + d) / (2.0 * d)).astype(np.int64)


def performances(
    who: npt.NDArray[np.int64], opponent: npt.NDArray[np.float64], score: npt.NDArray[np.float64], n: int
) -> npt.NDArray[np.float64]:
    """FIDE performance ``Ra + dp(p)`` of ``n`` players at once (NaN for a player with no game; SPEC 2.6)."""
    return _performance_from_sums(np.bincount(who, minlength=n).astype(np.float64),
                                  np.bincount(who, weights=score, minlength=n),
                                  np.bincount(who, weights=opponent, minlength=n))


def performance(opponent_ratings: npt.ArrayLike, scores: npt.ArrayLike) -> float | None:
    """FIDE performance ``Ra + dp(p)``: Ra the average opponent, p rounded to two decimals (SPEC 2.6).

    dp(1.00) = +800 and dp(0.00) = -800, so an all-wins or all-losses event has one; None with no game.
    """
    o = np.asarray(opponent_ratings, dtype=np.float64).ravel()
    s = np.asarray(scores, dtype=np.float64).ravel()
    perf = performances(np.zeros(len(o), np.int64), o, s, 1)[0]
    return None if np.isnan(perf) else float(perf)


_ROW = 2 * MAX_DIFFERENCE + 1
#: PD in hundredths by ``difference + MAX_DIFFERENCE``: row 0 with the 400-point rule, row 1 without
#: it (a player rated 2650 or more), then zeros, where a side against an unrated opponent lands
#: (see :func:`rate_arrays`). One array index gives the expected score of a side.
_PD_BY_SIGNED = np.concatenate([
    pd_hundredths(np.clip(np.arange(-MAX_DIFFERENCE, MAX_DIFFERENCE + 1), -DIFFERENCE_CAP, DIFFERENCE_CAP)),
    pd_hundredths(np.arange(-MAX_DIFFERENCE, MAX_DIFFERENCE + 1)),
    np.zeros(2 * _ROW, np.int64),
]).astype(np.float64)
#: What an unrated opponent's rating reads as in that index: past the two table rows.
_UNRATED_KEY = -2 * _ROW
_KEY_BITS = 16
_KEY_MASK = (1 << _KEY_BITS) - 1
#: Games played in the period -> largest K with ``K * games <= 700`` (SPEC 2.3).
_K_LIMIT = np.concatenate([[K_NEW], K_TIMES_GAMES_MAX // np.arange(1, K_TIMES_GAMES_MAX + 2)])
#: Weight of a game's count beside its points (in halves) in one per-player sum, so both add up
#: exactly in one pass while a player has fewer than 2**26 games.
_COUNT_BITS = float(2**26)
#: Weight of an opponent's rating beside the expected score in hundredths in one sum; exact
#: while a player's period has fewer games than this (3500 * games * 2**24 < 2**53).
_RATING_SHIFT = float(2**24)
_PACKED_GAMES_LIMIT = 150_000


def _code(rating: npt.NDArray[np.int64], rated: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    base = rating + MAX_DIFFERENCE + _ROW * (rating >= NO_CAP_FROM)
    key = np.where(rated, rating, _UNRATED_KEY)
    return (base << _KEY_BITS) + (key - _UNRATED_KEY)


#: A player's word for the period loop by whole rating (see :func:`_period_sums`); it fits in
#: 32 bits (base < 2**14, key < 2**16), which halves what the random reads of a period touch.
_CODE_BY_RATING = _code(np.arange(MAX_DIFFERENCE + 1), np.ones(MAX_DIFFERENCE + 1, bool)).astype(np.int32)
_UNRATED_CODE = int(_code(np.zeros(1, np.int64), np.zeros(1, bool))[0])


#: Games handled per step of the period loop: big enough that numpy does the work, small enough
#: that every temporary stays in the processor's cache and is reused from step to step.
_CHUNK = 1 << 16


def _period_sums(pa: PlayerArrays, arrays: GameArrays, expected_method: str,
                 pack: bool = True) -> tuple[npt.NDArray[np.float64], ...]:
    """Per-player games, points, sum of expected scores and of opponents' ratings (SPEC 2.1, 2.4).

    Only sides whose opponent is rated count. Each side's weights are computed chunk by chunk
    (every temporary stays in the processor's cache and is reused), written once into a
    column per sum, and summed per player by ``np.bincount`` over the whole period.
    Expected scores are in hundredths for the table (exact sums), fractions for the logistic.
    With the table, a side's opponent rating and expected score share one weight
    ``rating * 2**24 + hundredths`` (exact while a player has fewer than 150,000 games in the
    period; beyond that the two are summed apart).
    """
    rated = pa.rated
    m = len(rated)
    r0 = np.where(rated, pa.rating, 0.0)  # a blank rating reads 0: such sides are weighted 0
    whole = bool(np.array_equal(r0, np.floor(r0))) and (m == 0 or r0.max() <= MAX_DIFFERENCE)
    table = expected_method == "table" and whole
    packed_eo = table and pack
    # what one look-up per player gives a game: where his own row of the PD table starts
    # (base) and how he reads as an opponent (key, past both rows when unrated), in one word
    r_int = r0.astype(np.int64) if whole else np.zeros(m, np.int64)
    code = np.where(rated, _CODE_BY_RATING[r_int], _UNRATED_CODE)
    a_all, b_all, s_all = arrays.player, arrays.opponent, arrays.score
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
            np.add(against_key, _UNRATED_KEY, out=against_key)
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
                np.take(_PD_BY_SIGNED, idx, out=e)
                if packed_eo:
                    np.add(exp_w[at], e, out=exp_w[at])
                else:
                    exp_w[at] = e
            else:
                own, other = r0[who], r0[against]
                opp_w[at] = other
                e = expected_hundredths(own, other) if expected_method == "table" else expected_score(own, other)
                exp_w[at] = np.where(counts, e, 0.0)
    columns = (packed_w, exp_w) if packed_eo else (packed_w, exp_w, opp_w)
    sums = [np.bincount(a_all, w[:g], m) + np.bincount(b_all, w[g:], m) for w in columns]
    halves_sum = np.floor(sums[0] / _COUNT_BITS)
    games = sums[0] - halves_sum * _COUNT_BITS
    if not packed_eo:
        return games, halves_sum / 2.0, sums[1], sums[2]
    if games.max(initial=0) >= _PACKED_GAMES_LIMIT:
        return _period_sums(pa, arrays, expected_method, pack=False)
    opp = np.floor(sums[1] / _RATING_SHIFT)
    return games, halves_sum / 2.0, sums[1] - opp * _RATING_SHIFT, opp


def rate_arrays(pa: PlayerArrays, arrays: GameArrays,
                expected_method: Literal["table", "logistic"] = "table") -> dict[str, npt.NDArray[np.float64]]:
    """The whole period as arrays, one entry per player (SPEC 2): the vectorised core of :func:`rate`.

    Returns ``n``, ``score``, ``expected``, ``k``, ``change``, ``rating_after``, ``performance`` for
    rated players and ``first_games``, ``first_score``, ``ra``, ``p``, ``dp``, ``first`` (NaN when not
    published, and for rated players), ``enough`` for unrated ones. Players are integer positions; no Python loop per game
    or per player.

    A side of a game counts when the opponent is rated: for a rated player that is a rated game
    (SPEC 2.1), for an unrated one a game towards his first rating (SPEC 2.4), so one pass of
    per-player sums serves both. K is the same for all of a player's games, so his change is
    ``K * sum(score - PD)`` rounded: sums of hundredths, exact.
    """
    if expected_method not in ("table", "logistic"):
        raise ValueError(f"expected_method must be 'table' or 'logistic', not {expected_method!r}")
    rated = pa.rated
    games, points, exp, opp = _period_sums(pa, arrays, expected_method)
    unit = 100.0 if expected_method == "table" else 1.0
    n = np.where(rated, games, 0.0)
    n_int = n.astype(np.int64)
    k = np.minimum(k_factor(pa.rating, pa.games, pa.age, pa.ever_2400), _K_LIMIT[np.minimum(n_int, len(_K_LIMIT) - 1)])
    if unit == 100.0:  # whole hundredths: round halves away from zero exactly (SPEC 2.1)
        hundredths = k * (100.0 * points - exp)
        change = np.copysign(np.floor((np.abs(hundredths) + 50.0) / 100.0), hundredths) + 0.0  # no -0
    else:
        change = round_half_away(k * (points - exp))
    change = np.where(rated, change, 0.0)
    first_games = np.where(rated, 0.0, games)
    first_score = np.where(rated, 0.0, points)
    # first ratings (SPEC 2.4) only for the unrated players: NaN (not enough) for the others
    new = np.flatnonzero(~rated)
    ra, p, dp, first = (np.full(len(rated), np.nan) for _ in range(4))
    enough = np.zeros(len(rated), bool)
    ra[new], p_pct, dp[new], ru, enough[new] = _first_from_sums(games[new], points[new], opp[new])
    p[new] = p_pct / 100.0
    first[new] = np.where(enough[new] & (ru >= RATING_FLOOR), ru, np.nan)
    dp[~enough] = np.nan
    perf = _performance_from_sums(n, np.where(rated, points, 0.0), opp)
    return {
        "rated": rated, "n": n, "score": np.where(rated, points, 0.0),
        "expected": np.where(rated, exp / unit, 0.0),
        "k": k.astype(np.float64), "change": change, "rating_after": np.where(rated, pa.rating + change, np.nan),
        "performance": perf,
        "first_games": first_games, "first_score": first_score, "ra": ra, "p": p, "dp": dp, "enough": enough,
        "first": first,
    }


_KINDS: Final = {
    "id": "text", "name": "text", "status": "text", "rating_before": "int", "games_rated": "int", "score": "float",
    "expected": "float", "k": "int", "performance": "float", "change": "int", "bonus": "blank",
    "rating_after": "int", "games_after": "int", "ever_2400": "bool", "note": "note",
}


def rate_columns(pa: PlayerArrays, arrays: GameArrays, ids: Sequence[str] | npt.NDArray[np.bytes_],
                 names: Sequence[str] | npt.NDArray[np.bytes_], *,
                 expected_method: Literal["table", "logistic"] = "table", period: str | None = None) -> ColumnResults:
    """The results table of a FIDE period as columns (SPEC 2, SPEC 8), from :func:`rate_arrays`."""
    out = rate_arrays(pa, arrays, expected_method)
    rated = out["rated"]
    after = pa.rating + out["change"]
    first_status = np.where(~out["enough"], 0, np.where(np.isnan(out["first"]), 2, 1))
    notes: dict[int, str] = {}
    unrated_note = f"unrated: needs {FIRST_RATING_MIN_GAMES} games against rated opponents and {FIRST_RATING_MIN_SCORE} points"
    for i in np.flatnonzero(~rated).tolist():
        ra, status = float(out["ra"][i]), first_status[i]
        if status == 0:
            notes[i] = unrated_note
        elif status == 1:
            notes[i] = f"first rating: Ra {ra:.2f}, p {float(out['p'][i]):.2f}, dp {int(out['dp'][i])}"
        else:
            notes[i] = (f"below floor: Ra + dp = {ra + int(out['dp'][i]):.0f} is below the floor of {RATING_FLOOR}: "
                        "not published")
    values = {
        "id": ids, "name": names, "status": np.where(rated, "established", "unrated"),
        "rating_before": np.trunc(pa.rating), "games_rated": np.where(rated, out["n"], out["first_games"]),
        "score": np.where(rated, out["score"], out["first_score"]),
        "expected": np.where(rated, out["expected"], np.nan), "k": np.where(rated, out["k"], np.nan),
        "performance": np.where(rated, out["performance"], out["ra"] + out["dp"]),
        "change": np.where(rated, out["change"], np.nan),
        "rating_after": np.where(rated, np.trunc(after), out["first"]),
        "games_after": pa.games + np.where(rated, out["n"], out["first_games"]),
        "ever_2400": pa.ever_2400 | (rated & (after >= K10_RATING)), "note": notes,
    }
    return ColumnResults("fide", COLUMNS, values, _KINDS, period=period)


def rate(event: Event, *, expected_method: Literal["table", "logistic"] = "table") -> Results:
    """Rate a FIDE period: every player of the event, all games at once (SPEC 2).

    ``expected_method="logistic"`` uses the course's approximation (SPEC 1.2) instead of
    FIDE's table; the table is the default.
    """
    pa = PlayerArrays.build(event)
    ids = [p.id for p in event.players]
    names = [p.name for p in event.players]
    return rate_columns(pa, event.game_arrays(), ids, names, expected_method=expected_method,
                        period=event.period).to_results()

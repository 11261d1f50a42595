"""The vectorised engines against simple reference loops written here, on mid-size periods
(issue: the fast path computes the same numbers the tests check)."""

from __future__ import annotations

import math
from bisect import bisect_right

import numpy as np
import pytest
from gen import random_event

from xl_elo import rate
from xl_elo.core import performance_zero
from xl_elo.federations import fide
from xl_elo.tables import FIDE_DP_TABLE, FIDE_PD_ROWS


def _reference_fide(ev, standard=True):
    """SPEC 2 game by game: PD from the table with the 400-point rule, K, 700 rule, halves away from zero,
    no new rating below 1400 (rules 2.8); on the rapid and blitz lists (``standard`` False) the 400-point
    rule for everybody and no game 600 apart with a player above 2600 (rules 2.9)."""
    lower = [r[0] for r in FIDE_PD_ROWS]
    pct = [r[2] for r in FIDE_PD_ROWS]
    rating = {p.id: p.rating for p in ev.players}
    sums: dict[str, int] = {}
    games: dict[str, int] = {}
    for g in ev.games:
        if not g.counts or rating[g.player] is None or rating[g.opponent] is None:
            continue
        a, b = rating[g.player], rating[g.opponent]
        if not standard and abs(a - b) >= 600 and max(a, b) > 2600:
            continue
        for me, other, s in ((g.player, g.opponent, g.result.score), (g.opponent, g.player, 1 - g.result.score)):
            d = rating[me] - rating[other]
            if rating[me] < 2650 or not standard:
                d = max(-400, min(400, d))
            high = pct[bisect_right(lower, abs(d)) - 1]
            e = high if d >= 0 else 100 - high
            sums[me] = sums.get(me, 0) + round(100 * s) - e
            games[me] = games.get(me, 0) + 1
    year = int(ev.period[:4])
    out = {}
    for p in ev.players:
        if p.rating is None:
            continue
        n = games.get(p.id, 0)
        age = year - p.birth_year if p.birth_year else 99
        if p.games < 30 or (age <= 18 and p.rating < 2300):
            k = 40
        elif p.ever_2400 or p.rating >= 2400:
            k = 10
        else:
            k = 20
        if n and k * n > 700:
            k = 700 // n
        h = k * sums.get(p.id, 0)  # whole hundredths
        after = p.rating + (1 if h >= 0 else -1) * ((abs(h) + 50) // 100)
        out[p.id] = after if after >= 1400 else None
    return out


def _reference_fide_unrated(ev):
    """SPEC 2.4 and the performance, game by game, with exact fractions."""
    from fractions import Fraction

    rating = {p.id: p.rating for p in ev.players}
    seen: dict[str, list[tuple[float, float]]] = {}
    for g in ev.games:
        if not g.counts:
            continue
        for me, other, s in ((g.player, g.opponent, g.result.score), (g.opponent, g.player, 1 - g.result.score)):
            if rating[other] is not None:
                seen.setdefault(me, []).append((rating[other], s))
    first, perf = {}, {}
    for p in ev.players:
        games = seen.get(p.id, [])
        n, total = len(games), Fraction(sum(Fraction(s) for _, s in games))
        if p.rating is None:
            ra = (sum(Fraction(o) for o, _ in games) + 3600) / (n + 2)
            pct = math.floor(Fraction(100) * (total + 1) / (n + 2) + Fraction(1, 2))
            ru = min(math.floor(ra + FIDE_DP_TABLE[pct] + Fraction(1, 2)), 2200)
            first[p.id] = ru if n >= 5 and total >= Fraction(1, 2) and ru >= 1400 else None
        elif n:
            pct = math.floor(Fraction(100) * total / n + Fraction(1, 2))
            avg = sum(Fraction(o) for o, _ in games) / n
            perf[p.id] = float(avg + FIDE_DP_TABLE[pct])  # dp(0.00) = -800, dp(1.00) = +800 (SPEC 2.6)
    return first, perf


@pytest.mark.parametrize("chunk,limit", [(None, None), (7, None), (1000, None), (None, 3)])
def test_fide_vectorised_equals_the_reference_loop(monkeypatch, chunk, limit):
    """Changes, first ratings and performances; small chunks put many chunk edges in the period,
    a small limit makes the opponents' ratings and expected scores be summed apart."""
    if chunk:
        monkeypatch.setattr(fide, "_CHUNK", chunk)
    if limit:
        monkeypatch.setattr(fide, "_PACKED_GAMES_LIMIT", limit)
    ev = random_event(21, 800, 11, unrated=0.05, federation="fide")
    reference = _reference_fide(ev)
    rows = rate("fide", ev).rows
    got = {r["id"]: r["rating_after"] for r in rows if r["status"] == "established"}
    assert got == reference
    assert None in reference.values()  # the period has players falling below the floor
    first, perf = _reference_fide_unrated(ev)
    assert {r["id"]: r["rating_after"] for r in rows if r["status"] == "unrated"} == first
    assert sum(v is not None for v in first.values()) > 5  # the period has first ratings to check
    got_perf = {r["id"]: r["performance"] for r in rows if r["status"] == "established" and r["games_rated"]}
    assert got_perf.keys() == perf.keys()
    for pid, value in perf.items():
        assert (got_perf[pid] is None and value is None) or abs(got_perf[pid] - value) < 1e-9, pid


def test_fide_rapid_vectorised_equals_the_reference_loop():
    """The rapid list (rules 2.9): every player capped at 400, games 600 apart with a player above 2600
    left out, on a period with many such games."""
    ev = random_event(23, 800, 11, unrated=0.05, federation="fide")
    rating = {p.id: p.rating for p in ev.players}
    pairs = [(rating[g.player], rating[g.opponent]) for g in ev.games if g.counts]
    far = [(a, b) for a, b in pairs if a is not None and b is not None and abs(a - b) >= 600 and max(a, b) > 2600]
    assert len(far) > 10
    rows = rate("fide", ev, list="rapid").rows
    assert {r["id"]: r["rating_after"] for r in rows if r["status"] == "established"} == _reference_fide(ev, False)


def test_fide_fractional_ratings_take_the_range_lookup():
    """A rating with decimals (allowed by SPEC 1.4) is looked up through the table's ranges."""
    ev = random_event(22, 200, 9, unrated=0.05, federation="fide")
    whole = {r["id"]: r for r in rate("fide", ev).rows}
    from dataclasses import replace

    shifted = replace(ev, players=tuple(replace(p, rating=p.rating + 0.25) if p.rating else p for p in ev.players))
    for r in rate("fide", shifted).rows:
        # + 0.25 on every rating moves no difference, so PD, K and the change are the same
        assert r["change"] == whole[r["id"]]["change"], r["id"]


def test_vectorised_performance_equals_a_scalar_bisection():
    rng = np.random.default_rng(3)
    players, per = 500, 9
    who = np.repeat(np.arange(players), per)
    opp = rng.integers(600, 2600, players * per).astype(float)
    score = rng.choice([0.0, 0.5, 1.0], players * per)
    score[::per], score[1::per] = 1.0, 0.0
    fast = performance_zero(who, opp, score, players)
    for i in range(0, players, 25):
        o, s = opp[i * per:(i + 1) * per], score[i * per:(i + 1) * per]
        lo, hi = -5000.0, 8000.0
        for _ in range(200):
            mid = (lo + hi) / 2
            g = s.sum() - sum(1 / (1 + 10 ** ((x - mid) / 400)) for x in o)
            lo, hi = (mid, hi) if g > 0 else (lo, mid)
        assert abs(fast[i] - lo) < 1e-6

"""The vectorised engines against simple reference loops written here, on mid-size periods
(issue: the fast path computes the same numbers the tests check)."""

from __future__ import annotations

import math
from bisect import bisect_right

import numpy as np

from gen import random_event
from xl_elo import rate
from xl_elo.core import performance_zero
from xl_elo.tables import FIDE_PD_ROWS


def _reference_fide(ev):
    """SPEC 2 game by game: PD from the table with the 400-point rule, K, 700 rule, half up."""
    lower = [r[0] for r in FIDE_PD_ROWS]
    pct = [r[2] for r in FIDE_PD_ROWS]
    rating = {p.id: p.rating for p in ev.players}
    sums: dict[str, int] = {}
    games: dict[str, int] = {}
    for g in ev.games:
        if not g.counts or rating[g.player] is None or rating[g.opponent] is None:
            continue
        for me, other, s in ((g.player, g.opponent, g.result.score), (g.opponent, g.player, 1 - g.result.score)):
            d = rating[me] - rating[other]
            if rating[me] < 2650:
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
        if p.games < 30 or (age < 18 and p.rating < 2300):
            k = 40
        elif p.ever_2400 or p.rating >= 2400:
            k = 10
        else:
            k = 20
        if n and k * n > 700:
            k = 700 // n
        out[p.id] = p.rating + math.floor((k * sums.get(p.id, 0) + 50) / 100)
    return out


def test_fide_vectorised_equals_the_reference_loop():
    ev = random_event(21, 800, 11, unrated=0.05, federation="fide")
    reference = _reference_fide(ev)
    got = {r["id"]: r["rating_after"] for r in rate("fide", ev) if r["status"] == "established"}
    assert got == reference


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

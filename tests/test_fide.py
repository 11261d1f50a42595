"""FIDE (SPEC 2): hand-computed periods, K rules, first ratings, invariants."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import event
from hypothesis import given, settings
from hypothesis import strategies as st

from xl_elo import rate
from xl_elo.federations import fide


def _one(rating, opponents, results, games=100, birth_year=1980, ever_2400=False, period="2026-10"):
    players = [dict(id="me", rating=rating, games=games, birth_year=birth_year, ever_2400=ever_2400)]
    players += [dict(id=f"o{i}", rating=r, games=100, birth_year=1980) for i, r in enumerate(opponents)]
    games_ = [(i + 1, "me", f"o{i}", s) for i, s in enumerate(results)]
    return rate("fide", event(players, games_, period=period)).by_id()["me"]


def test_400_point_rule():
    """2000 beats 1500: the 500-point gap counts as 400 -> PD 0.92, 20 * 0.08 = 1.6 -> +2."""
    row = _one(2000, [1500], [1])
    assert (row["k"], row["expected"], row["change"], row["rating_after"]) == (20, 0.92, 2, 2002)


def test_no_400_point_rule_from_2650():
    """2700 (K 10) beats 2200: the full 500 counts -> PD 0.96, 10 * 0.04 = 0.4 -> 0."""
    row = _one(2700, [2200], [1], ever_2400=True)
    assert (row["k"], row["expected"], row["rating_after"]) == (10, 0.96, 2700)


def test_lower_rated_player_gets_one_minus_the_table():
    """1500 loses to 2000: 1 - 0.92 = 0.08 with the cap; 20 * (0 - 0.08) = -1.6 -> -2."""
    row = _one(1500, [2000], [0])
    assert (row["expected"], row["change"]) == (0.08, -2)


def test_k40_for_new_player_and_junior():
    """SPEC 2.3: K 40 for the first 30 games, and below 2300 until the end of the year of the
    18th birthday (period year - birth year <= 18)."""
    assert _one(1600, [1600], [1], games=10)["change"] == 20  # 40 * 0.5
    assert _one(2250, [2250], [1], birth_year=2012)["k"] == 40  # 14 in 2026, below 2300
    assert _one(2350, [2350], [1], birth_year=2012)["k"] == 20  # junior but 2300 or more


def test_k40_in_the_year_of_the_18th_birthday():
    """SPEC 2.3 (corrected from FIDE's lists): a junior born in 2008 keeps K 40 through 2026, the
    year he turns 18, and has K 20 from January 2027."""
    assert _one(2250, [2250], [1], birth_year=2008, period="2026-12")["k"] == 40
    assert _one(2250, [2250], [1], birth_year=2008, period="2026-01")["k"] == 40
    assert _one(2250, [2250], [1], birth_year=2008, period="2027-01")["k"] == 20
    assert _one(2250, [2250], [1], birth_year=2007, period="2026-10")["k"] == 20  # 19 in 2026
    assert fide.k_factor(2250, 100, 18) == 40 and fide.k_factor(2250, 100, 19) == 20


def test_k10_once_2400_even_after_dropping():
    assert _one(2390, [2390], [1], ever_2400=True)["k"] == 10
    assert _one(2400, [2400], [1])["k"] == 10
    assert _one(2399, [2399], [1])["k"] == 20


def test_700_rule():
    """A K-40 player with 20 games: K * 20 <= 700 -> K = 35; 20 wins at 0.5 -> +350."""
    row = _one(1500, [1500] * 20, [1] * 20, games=5)
    assert (row["k"], row["change"], row["rating_after"]) == (35, 350, 1850)
    assert fide.k_factor(2000, 100, 40, False, n_games=36) == 19  # 20 * 36 = 720 > 700


def test_half_away_from_zero_as_fide_publishes():
    """SPEC 2.1 (corrected from FIDE's published lists): a 2813 player whose period sums to -2.50
    is listed at 2810. Here K 10 and one draw against 2623 (difference 190: PD 0.75):
    10 * (0.5 - 0.75) = -2.5 -> -3."""
    row = _one(2813, [2623], [0.5], ever_2400=True)
    assert (row["k"], row["expected"], row["change"], row["rating_after"]) == (10, 0.75, -3, 2810)
    assert _one(2415, [2450], [0.5], ever_2400=True)["change"] == 1  # 10 * (0.5 - 0.45) = +0.5 -> +1
    assert _one(2450, [2415], [0.5], ever_2400=True)["change"] == -1  # -0.5 -> -1


def test_exact_hundredths_no_binary_fraction():
    """K 10 (2400 reached), two losses: against 2810 (capped at 400: PD 0.08) and 2420 (PD 0.47):
    10 * (0 - 0.08) + 10 * (0 - 0.47) = -5.5 exactly -> -6. Summed in binary floats it is
    -5.499999999999999 and would round to -5."""
    assert 10 * (0 - 0.08) + 10 * (0 - 0.47) > -5.5  # the trap the exact sums avoid
    row = _one(2400, [2810, 2420], [0, 0], ever_2400=True)
    assert (row["expected"], row["change"], row["rating_after"]) == (0.55, -6, 2394)


def test_performance_of_an_all_wins_or_all_losses_event():
    """SPEC 2.6 (FIDE table 8.1.1): dp(1.00) = +800 and dp(0.00) = -800."""
    assert fide.performance([1800, 1900, 2000], [1, 1, 1]) == 1900 + 800
    assert fide.performance([1800, 1900, 2000], [0, 0, 0]) == 1900 - 800
    assert fide.performance([2000, 2000, 2000, 2000], [1, 1, 1, 0.5]) == 2000 + 336  # p 0.875 -> 0.88 -> 336
    assert fide.performance([], []) is None
    row = _one(2000, [2100, 2200], [1, 1])
    assert row["performance"] == 2150 + 800


def test_first_rating_hand_computed():
    """SPEC 2.4: 5 games against 1600..2000 scoring 3: Ra = (9000 + 3600) / 7 = 1800,
    p = 4 / 7 = 0.57, dp(0.57) = 50 -> 1850."""
    f = fide.first_rating([1600, 1700, 1800, 1900, 2000], [1, 0.5, 0.5, 0, 1])
    steps = dict(f.steps)
    assert (steps["Ra"], steps["p"], steps["dp"], f.rating, f.status) == (1800, 0.57, 50, 1850, "first rating")


def test_first_rating_floor_cap_and_minimums():
    low = fide.first_rating([1000] * 5, [0.5, 0, 0, 0, 0])  # Ra 1228.57, p 0.21 -> -230 -> 999
    assert (low.rating, low.status) == (None, "below floor")
    high = fide.first_rating([2600] * 5, [1] * 5)  # Ra 2371.43, p 0.86 -> 309 -> 2680 -> cap
    assert high.rating == 2200
    assert fide.first_rating([1800] * 4, [1] * 4).status == "unrated"  # 4 games only
    assert fide.first_rating([1800] * 5, [0] * 5).status == "unrated"  # no half point


def test_unrated_player_in_a_period_and_rated_opponents_unaffected():
    players = [dict(id="new", games=0)] + [dict(id=f"r{i}", rating=r, games=100)
                                           for i, r in enumerate([1600, 1700, 1800, 1900, 2000])]
    games = [(i + 1, "new", f"r{i}", s) for i, s in enumerate([1, 0.5, 0.5, 0, 1])]
    res = rate("fide", event(players, games, period="2026-10")).by_id()
    assert res["new"]["rating_after"] == 1850 and res["new"]["status"] == "unrated"
    assert res["r0"]["rating_after"] == 1600 and res["r0"]["games_rated"] == 0  # game vs unrated not rated


def test_logistic_option():
    row = rate("fide", event([dict(id="a", rating=2000, games=100), dict(id="b", rating=1500, games=100)],
                             [(1, "a", "b", 1)]), expected_method="logistic").by_id()["a"]
    # 20 * (1 - 1 / (1 + 10^-1.25)) = 20 * 0.05324 = 1.06 -> 1
    assert row["change"] == 1


ratings = st.integers(1000, 2800)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(ratings, ratings, st.sampled_from([0, 0.5, 1])), min_size=1, max_size=12))
def test_equal_k_unrounded_changes_cancel(pairs):
    """Two players with the same K and the logistic E: the unrounded changes cancel."""
    for a, b, s in pairs:
        k = 20
        ea = 1 / (1 + 10 ** ((b - a) / 400))
        eb = 1 / (1 + 10 ** ((a - b) / 400))
        assert k * (s - ea) + k * ((1 - s) - eb) == pytest.approx(0, abs=1e-9)
        assert fide.expected_hundredths(a, b) + fide.expected_hundredths(b, a) == 100 or max(a, b) >= 2650


@settings(max_examples=40, deadline=None)
@given(st.integers(1400, 2600), st.lists(st.tuples(ratings, st.sampled_from([0, 0.5, 1])), min_size=1, max_size=10),
       st.data())
def test_better_result_never_lower_rating_and_order_does_not_matter(rating, games, data):
    opps = [o for o, _ in games]
    res = [s for _, s in games]
    base = _one(rating, opps, res)["change"]  # the change: a new rating below 1400 is not published (2.8)
    i = data.draw(st.integers(0, len(res) - 1))
    if res[i] < 1:
        better = list(res)
        better[i] += 0.5
        assert _one(rating, opps, better)["change"] >= base
    perm = data.draw(st.permutations(list(range(len(res)))))
    assert _one(rating, [opps[j] for j in perm], [res[j] for j in perm])["change"] == base


def test_period_is_vectorised_over_many_games():
    rng = np.random.default_rng(1)
    n = 2000
    players = [dict(id=str(i), rating=float(rng.integers(1400, 2600)), games=50) for i in range(n)]
    a = rng.integers(0, n, 10000)
    b = (a + rng.integers(1, n, 10000)) % n
    games = [(r % 999 + 1, str(x), str(y), float(s))
             for r, (x, y, s) in enumerate(zip(a, b, rng.choice([0, 0.5, 1], 10000), strict=True))]
    res = rate("fide", event(players, games, period="2026-10"))
    assert sum(r["games_rated"] for r in res) == 20000


def test_the_report_marks_the_games_not_counted_for_a_rated_player(tmp_path):
    """Rules 2.1: a rated player's game against an unrated one is not counted for him (his score leaves it out);
    the crosstable shows it in brackets for him, and as played for the unrated player, whose first rating counts
    it (rules 2.4)."""
    from xl_elo.formats.report import report
    from xl_elo.loader import load

    (tmp_path / "p.csv").write_text("id,name,rating,games\na,Anna,1800,50\nb,Bert,1700,40\nc,Cara,,0\n"
                                    "d,Dan,1650,30\n", encoding="utf-8")
    (tmp_path / "g.csv").write_text("round,player,opponent,result\n1,a,c,1\n1,b,d,0.5\n2,a,b,1\n2,c,d,0\n"
                                    "3,a,d,1\n3,b,c,1\n", encoding="utf-8")
    loaded = load("fide", players=tmp_path / "p.csv", games=tmp_path / "g.csv", period="2026-10")
    results = loaded.rate()
    assert results.uncounted == {("a", "c"), ("b", "c"), ("d", "c")}
    lines = {line.split()[1]: line.split() for line in report(results, loaded.event).splitlines()[3:7]}
    assert lines["Anna"][3:6] == ["3(+)", "2+", "4+"] and lines["Anna"][6] == "2"
    assert lines["Cara"][2:5] == ["1-", "4-", "2-"]


# --------------------------------------------------------------------------- every threshold, at it and beside it


@pytest.mark.parametrize("rating, expected, change", [
    # rules 2.2: a 500-point win counts as 400 (PD 0.92) below 2650, in full (PD 0.96) from 2650; K 10
    (2649, 0.92, 1),   # 10 x (1 - 0.92) = 0.8 -> +1
    (2650, 0.96, 0),   # 10 x 0.04 = 0.4 -> 0
    (2651, 0.96, 0),
])
def test_the_2650_edge(rating, expected, change):
    row = _one(rating, [rating - 500], [1], ever_2400=True)
    assert (row["k"], row["expected"], row["change"]) == (10, expected, change)


@pytest.mark.parametrize("rating, games, birth_year, k", [
    # rules 2.3: 40 until 30 games; 40 for a player below 2300 to the year of his 18th birthday; 10 from 2400
    (2000, 29, 1980, 40), (2000, 30, 1980, 20), (2000, 31, 1980, 20),
    (2000, 100, 2009, 40), (2000, 100, 2008, 40), (2000, 100, 2007, 20),      # 17, 18, 19 in 2026
    (2299, 100, 2010, 40), (2300, 100, 2010, 20), (2301, 100, 2010, 20),       # a junior: below 2300 only
    (2399, 100, 1980, 20), (2400, 100, 1980, 10), (2401, 100, 1980, 10),
])
def test_the_k_edges(rating, games, birth_year, k):
    assert _one(rating, [rating], [0.5], games=games, birth_year=birth_year)["k"] == k


@pytest.mark.parametrize("k, n, capped", [
    # rules 2.3: K x n at most 700: K 20 for 35 games (700), 19 for 36 (720 > 700); K 40 for 17 (680), 38 for 18
    (20, 34, 20), (20, 35, 20), (20, 36, 19), (40, 17, 40), (40, 18, 38),
])
def test_the_700_edge(k, n, capped):
    games = 100 if k == 20 else 5
    assert fide.k_factor(2000, games, 40, False, n_games=n) == capped


@pytest.mark.parametrize("opponent, scores, rating", [
    # rules 2.4: at least 5 games against rated opponents and half a point; two hypothetical draws against 1800;
    # p = (points + 1) / (games + 2) to two decimals, dp from FIDE's table; at most 2200; below 1400 not published
    (1800, [1, 1, 0, 0], None),                 # 4 games
    (1800, [0, 0, 0, 0, 0], None),              # no point
    (1800, [0.5, 0, 0, 0, 0], 1570),            # Ra 1800, p = 1.5 / 7 = 0.21, dp -230
    (1900, [1, 1, 1, 1, 1], 2180),              # Ra (9500 + 3600) / 7 = 1871.43, p = 6 / 7 = 0.86, dp 309
    (2100, [1, 1, 1, 1, 1], 2200),              # Ra 2014.29 + 309 = 2323.29: capped
    (1600, [0.5, 0, 0, 0, 0], 1427),            # Ra 1657.14 - 230 = 1427.14
    (1550, [0.5, 0, 0, 0, 0], None),            # Ra 1621.43 - 230 = 1391.43: below 1400, not published
])
def test_the_first_rating_edges(opponent, scores, rating):
    assert fide.first_rating([opponent] * len(scores), scores).rating == rating


@pytest.mark.parametrize("after, published", [(1399, False), (1400, True), (1401, True)])
def test_the_1400_floor(after, published):
    """Rules 2.8: a new rating below 1400 is shown as unrated on the next list. K 20, one game against an equal
    opponent: a win +10, a draw 0, a loss -10."""
    before, result = {1399: (1409, 0), 1400: (1400, 0.5), 1401: (1391, 1)}[after]
    row = _one(before, [before], [result])
    assert (row["rating_after"] is not None) == published
    assert row["change"] == after - before


@pytest.mark.parametrize("rating, opponent, rated", [
    # rules 2.9 (rapid and blitz 7.1.3): not rated when 600 or more apart and one of them is above 2600
    (2601, 2002, True),    # 599 apart
    (2601, 2001, False),   # 600 apart, 2601 above 2600
    (2600, 2000, True),    # 600 apart, but 2600 is not above 2600
    (2601, 1990, False),
])
def test_the_rapid_600_edge(rating, opponent, rated):
    players = [dict(id="me", rating=rating, games=100, birth_year=1980, ever_2400=True),
               dict(id="o", rating=opponent, games=100, birth_year=1980)]
    row = rate("fide", event(players, [(1, "me", "o", 1)]), list="rapid").by_id()["me"]
    assert (row["games_rated"] == 1) == rated

"""FSE (SPEC 3): K rules and hand-computed periods."""

from __future__ import annotations

import pytest
from conftest import event

from xl_elo import rate
from xl_elo.federations import fse


@pytest.mark.parametrize(
    "rating, games, age, k",
    [(1500, 10, 40, 36), (1500, 19, 40, 36), (1500, 20, 40, 24), (1850, 100, 19, 36), (1851, 100, 19, 24),
     (1800, 100, 20, 24), (2199, 100, 40, 24), (2200, 100, 40, 16), (2300, 5, 40, 36)],
)
def test_k_factor(rating, games, age, k):
    """SPEC 3.2: 36 for the first 20 games and juniors under 20 at most 1850; 16 from 2200."""
    assert fse.k_factor(rating, games, age) == k


def test_hand_computed_period():
    """1800 (K 24) beats 1800: +12. 2200 (K 16) draws 1900: E = 1/(1+10^-0.75) = 0.84902,
    16 * (0.5 - 0.8490) = -5.58 -> -6; the 1900 player (K 24) gets 24 * 0.3490 = 8.38 -> +8."""
    players = [dict(id="a", rating=1800, games=50), dict(id="b", rating=1800, games=50),
               dict(id="c", rating=2200, games=50), dict(id="d", rating=1900, games=50)]
    res = rate("fse", event(players, [(1, "a", "b", 1), (1, "c", "d", "½")], period="2025-10")).by_id()
    assert res["a"]["change"] == 12 and res["b"]["change"] == -12
    assert res["c"]["expected"] == pytest.approx(0.84902, abs=1e-5)
    assert (res["c"]["change"], res["d"]["change"]) == (-6, 8)


def test_new_player_k36_against_established_k24():
    """The new player (1 game before) wins at 0.5: 36 * 0.5 = +18; his opponent 24 * -0.5 = -12."""
    players = [dict(id="a", rating=1800, games=1), dict(id="b", rating=1800, games=100)]
    res = rate("fse", event(players, [(1, "a", "b", 1)])).by_id()
    assert res["a"]["change"] == 18 and res["b"]["change"] == -12


def test_unrated_player_gets_no_rating_and_does_not_count_for_rated_ones():
    players = [dict(id="u"), dict(id="a", rating=1500, games=50), dict(id="b", rating=1700, games=50)]
    res = rate("fse", event(players, [(1, "u", "a", 1), (2, "u", "b", 0)])).by_id()
    assert res["u"]["rating_after"] is None and res["u"]["status"] == "unrated"
    assert (res["u"]["games_rated"], res["u"]["score"]) == (2, 1)
    assert res["a"]["games_rated"] == 0 and res["a"]["rating_after"] == 1500


@pytest.mark.parametrize("rating, games, birth_year, k", [
    # rules 3.2, through a period's rating (the engine's arrays), every edge at its value and on both sides:
    # 36 during the first 20 games; for a junior under 20 (period year 2026 - birth year) rated at most 1850;
    # 16 from 2200; 24 otherwise
    (1500, 19, 1980, 36), (1500, 20, 1980, 24), (1500, 21, 1980, 24),
    (1800, 100, 2007, 36), (1800, 100, 2006, 24), (1800, 100, 2005, 24),     # 19, 20, 21 in 2026
    (1849, 100, 2010, 36), (1850, 100, 2010, 36), (1851, 100, 2010, 24),
    (2199, 100, 1980, 24), (2200, 100, 1980, 16), (2201, 100, 1980, 16),
])
def test_every_k_edge_in_a_period(rating, games, birth_year, k):
    players = [dict(id="me", rating=rating, games=games, birth_year=birth_year),
               dict(id="o", rating=rating, games=100, birth_year=1980)]
    row = rate("fse", event(players, [(1, "me", "o", 1)], period="2026-10")).by_id()["me"]
    assert (row["k"], row["change"]) == (k, k // 2)  # an equal opponent beaten: K x 0.5

"""FQE (SPEC 4): seed 004's worked example and a hand-computed case for every branch."""

from __future__ import annotations

import csv
import json

import pytest
from conftest import event
from hypothesis import given
from hypothesis import strategies as st

from xl_elo import rate
from xl_elo.federations import fqe
from xl_elo.frontends.cli import main

# Seed 004, "UN EXEMPLE DU CALCUL DE LA COTE": Daniel, 1876, Quebec Open, 8 rounds.
DANIEL_OPPONENTS = [2024, 2161, 1547, 1785, 1979, 2176, 2181, 2048]
DANIEL_RESULTS = [1, 0, 0.5, 1, 1, 0, 1, 1]
DANIEL_EXPECTED = [0.30, 0.16, 0.88, 0.62, 0.36, 0.15, 0.14, 0.27]  # the seed's "résultat probable" column


def _daniel_event():
    players = [dict(id="daniel", name="Daniel", rating=1876, games=60)]
    players += [dict(id=f"r{i}", rating=r, games=100) for i, r in enumerate(DANIEL_OPPONENTS)]
    return event(players, [(i + 1, "daniel", f"r{i}", s) for i, s in enumerate(DANIEL_RESULTS)])


def test_worked_example_game_by_game():
    assert [fqe.expected(1876, o) for o in DANIEL_OPPONENTS] == DANIEL_EXPECTED


def test_worked_example_through_the_api():
    row = rate("fqe", _daniel_event()).by_id()["daniel"]
    assert (row["score"], row["expected"], row["change"], row["threshold"], row["bonus"], row["rating_after"]) == (
        5.5, 2.88, 84, 32, 52, 2012)
    assert row["status"] == "permanent" and row["games_rated"] == 8


def test_worked_example_through_the_command_line(tmp_path, capsys):
    players = tmp_path / "players.csv"
    games = tmp_path / "games.csv"
    with players.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "name", "rating", "games"])
        w.writerow(["daniel", "Daniel", 1876, 60])
        for i, r in enumerate(DANIEL_OPPONENTS):
            w.writerow([f"r{i}", "", r, 100])
    with games.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["round", "player", "opponent", "result"])
        for i, s in enumerate(["1-0", "0-1", "½-½", "1", "W", "0", "1-0", "1"]):
            w.writerow([i + 1, "daniel", f"r{i}", s])
    assert main(["rate", "-f", "fqe", "-p", str(players), "-g", str(games), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    daniel = next(r for r in doc["results"] if r["id"] == "daniel")
    assert (daniel["change"], daniel["bonus"], daniel["rating_after"]) == (84, 52, 2012)


def test_unrated_against_rated():
    """Cm = (1500 + 1600 + 1700 + 1800) / 4 = 1650, W - L = 2 - 1 -> 1650 + 400 / 4 = 1750."""
    players = [dict(id="u")] + [dict(id=f"r{i}", rating=r, games=50) for i, r in enumerate([1500, 1600, 1700, 1800])]
    res = rate("fqe", event(players, [(i + 1, "u", f"r{i}", s) for i, s in enumerate([1, 0.5, 0, 1])])).by_id()
    assert (res["u"]["cm"], res["u"]["rating_after"], res["u"]["status_after"]) == (1650, 1750, "provisional")


def test_unrated_against_unrated_counts_1100():
    """Both unrated: the winner 1100 + 400 = 1500; the loser 1100 - 400 = 700 -> 700 + 250 = 950."""
    res = rate("fqe", event([dict(id="a"), dict(id="b")], [(1, "a", "b", 1)])).by_id()
    assert (res["a"]["rating_after"], res["b"]["rating_after"]) == (1500, 950)


@pytest.mark.parametrize("opponent, results, perf, first", [
    (1200, [0], 800, 1000),  # 1200 - 400 = 800 -> 800 + 400 / 2 = 1000
    (1100, [0, 0, 0.5, 0.5], 900, 1050),  # 1100 + 400 * (0 - 2) / 4 = 900 -> 900 + 300 / 2 = 1050
])
def test_adjustment_below_1200(opponent, results, perf, first):
    """SPEC 4.3: the performance column shows Cm + 400 (W - L) / n, the rating the adjustment."""
    players = [dict(id="u")] + [dict(id=f"r{i}", rating=opponent, games=50) for i in range(len(results))]
    row = rate("fqe", event(players, [(i + 1, "u", f"r{i}", s) for i, s in enumerate(results)])).by_id()["u"]
    assert (row["performance"], row["rating_after"]) == (perf, first)


def test_provisional_player_crossing_24_games():
    """1500 on 20 games, 3 wins 2 losses against 1500: perf 1500 + 400 / 5 = 1580;
    (20 * 1500 + 5 * 1580) / 25 = 1516, permanent from now on (25 > 24)."""
    players = [dict(id="p", rating=1500, games=20)] + [dict(id=f"r{i}", rating=1500, games=50) for i in range(5)]
    row = rate("fqe", event(players, [(i + 1, "p", f"r{i}", s) for i, s in enumerate([1, 1, 1, 0, 0])])).by_id()["p"]
    assert (row["status"], row["performance"], row["rating_after"], row["status_after"]) == (
        "provisional", 1580, 1516, "permanent")


def test_provisional_sees_unrated_opponent_at_his_first_rating():
    """SPEC 4.1: u (unrated) loses to r (1500 permanent) and beats p: Cm = 1500 (p counts
    its pre-event 1400) -> (1500 + 1400) / 2 = 1450 + 0 = 1450; p (1400, 10 games) lost to u:
    perf = 1450 - 400 = 1050; (10 * 1400 + 1050) / 11 = 1368.18 -> 1368."""
    players = [dict(id="u"), dict(id="r", rating=1500, games=50), dict(id="p", rating=1400, games=10)]
    res = rate("fqe", event(players, [(1, "u", "r", 0), (2, "u", "p", 1)])).by_id()
    assert res["u"]["rating_after"] == 1450
    assert res["p"]["cm"] == 1450 and res["p"]["rating_after"] == 1368


@pytest.mark.parametrize("n, bonus, after", [(4, 40, 1604), (5, 54, 1634), (6, 68, 1664), (9, 110, 1754)])
def test_bonus_threshold_by_games(n, bonus, after):
    """All wins against equal 1500s: 32 * n / 2; threshold 24, 26, 28, 34."""
    players = [dict(id="p", rating=1500, games=100)] + [dict(id=f"r{i}", rating=1500, games=100) for i in range(n)]
    row = rate("fqe", event(players, [(i + 1, "p", f"r{i}", 1) for i in range(n)])).by_id()["p"]
    assert (row["change"], row["bonus"], row["rating_after"]) == (16 * n, bonus, after)


def test_no_bonus_below_threshold_or_below_4_games():
    players = [dict(id="p", rating=1500, games=100)] + [dict(id=f"r{i}", rating=1500, games=100) for i in range(4)]
    row = rate("fqe", event(players, [(i + 1, "p", f"r{i}", s) for i, s in enumerate([1, 1, 0.5, 0])])).by_id()["p"]
    assert (row["change"], row["bonus"], row["threshold"]) == (16, 0, 24)
    row = rate("fqe", event(players[:4], [(i + 1, "p", f"r{i}", 1) for i in range(3)])).by_id()["p"]
    assert (row["change"], row["bonus"], row["threshold"]) == (48, 0, None)


def test_halving_above_2300():
    """2400 wins 4 of 4 against 2400s: 64 + 40 = 104, halved -> 52 -> 2452; a loss: -16 -> -8."""
    players = [dict(id="p", rating=2400, games=100)] + [dict(id=f"r{i}", rating=2400, games=100) for i in range(4)]
    res = rate("fqe", event(players, [(i + 1, "p", f"r{i}", 1) for i in range(4)])).by_id()
    assert (res["p"]["halving"], res["p"]["rating_after"]) == (52, 2452)
    assert res["r0"]["rating_after"] == 2392


def test_halving_when_crossing_2300():
    """2280 + 104 would be 2384: 20 up to 2300, then 84 / 2 = 42 -> 2342."""
    players = [dict(id="p", rating=2280, games=100)] + [dict(id=f"r{i}", rating=2280, games=100) for i in range(4)]
    row = rate("fqe", event(players, [(i + 1, "p", f"r{i}", 1) for i in range(4)])).by_id()["p"]
    assert (row["change"], row["bonus"], row["halving"], row["rating_after"]) == (64, 40, 42, 2342)


def test_match_capped_at_50():
    """Two players, 6 games, A wins all: 96 + 68 bonus = 164 -> capped at 50; B loses 96."""
    players = [dict(id="a", rating=1500, games=100), dict(id="b", rating=1500, games=100)]
    res = rate("fqe", event(players, [(i + 1, "a", "b", 1) for i in range(6)])).by_id()
    assert (res["a"]["match_cap"], res["a"]["rating_after"]) == (114, 1550)
    assert res["b"]["rating_after"] == 1404


def test_byes_and_forfeits_count_nowhere():
    players = [dict(id="p", rating=1500, games=100)] + [dict(id=f"r{i}", rating=1500, games=100) for i in range(5)]
    games = [(i + 1, "p", f"r{i}", 1) for i in range(4)] + [(5, "p", "r4", "+"), (6, "p", None, "bye")]
    row = rate("fqe", event(players, games)).by_id()["p"]
    assert (row["games_rated"], row["score"], row["bonus"], row["rating_after"]) == (4, 4, 40, 1604)


@given(st.integers(-300, 300), st.integers(0, 12))
def test_bonus_never_negative_and_none_below_4_games(change, games):
    b = float(fqe.bonus(change, games))
    assert b >= 0
    if games < 4:
        assert b == 0


@given(st.integers(1000, 2800), st.integers(-400, 400))
def test_halving_never_increases_a_change(before, change):
    halved = float(fqe.halve_above_2300(before, change))
    assert abs(halved) <= abs(change)
    assert (halved >= 0) == (change >= 0) or halved == 0


# --------------------------------------------------------------------------- every threshold, at it and beside it


def _edge(rating, games, opponents, results):
    """One player's event (a third player elsewhere: never a match unless said)."""
    players = [dict(id="me", rating=rating, games=games)]
    players += [dict(id=f"o{i}", rating=o, games=100) for i, o in enumerate(opponents)]
    if len(opponents) == 1:
        players.append(dict(id="x", rating=1500, games=100))
    return rate("fqe", event(players, [(i + 1, "me", f"o{i}", s) for i, s in enumerate(results)])).by_id()["me"]


@pytest.mark.parametrize("rating, result, after", [
    # rules 4.7: a rating above 2300 before the event has its change halved; from at most 2300 to above, the part
    # above 2300 is. One game against an equal opponent (table 0.50, K 32): a loss -16, a win +16.
    (2299, 0, 2283), (2300, 0, 2284), (2301, 0, 2293),   # 2301 - 16 / 2
    (2290, 1, 2303),                                      # 2306: the 6 above 2300 halved
    (2300, 1, 2308), (2301, 1, 2309),
])
def test_the_2300_halving_edge(rating, result, after):
    assert _edge(rating, 100, [rating], [result])["rating_after"] == after


@pytest.mark.parametrize("opponent, after", [
    # rules 4.8: in a match a rating rises by 50 at most. Two wins over a player 210, 220, 230 higher (table:
    # the lower-rated player expects 0.23, 0.22, 0.21): 32 x (2 - 0.46) = 49.28 -> 49; 32 x 1.56 = 49.92 -> 50;
    # 32 x 1.58 = 50.56 -> 51, capped at 50
    (1710, 1549), (1720, 1550), (1730, 1550),
])
def test_the_50_point_match_cap(opponent, after):
    players = [dict(id="me", rating=1500, games=100), dict(id="o", rating=opponent, games=100)]
    assert rate("fqe", event(players, [(1, "me", "o", 1), (2, "me", "o", 1)])).by_id()["me"]["rating_after"] == after


@pytest.mark.parametrize("n, change, threshold, bonus", [
    # rules 4.6: from 4 rated games, threshold 24 + 2 (r - 4); n wins over equal players: 16 n
    (3, 48, None, 0), (4, 64, 24, 40), (5, 80, 26, 54),
])
def test_the_bonus_edges(n, change, threshold, bonus):
    row = _edge(1500, 100, [1500] * n, [1] * n)
    assert (row["change"], row["threshold"], row["bonus"], row["rating_after"]) == (change, threshold, bonus,
                                                                                   1500 + change + bonus)


@pytest.mark.parametrize("games, status, change", [
    # rules 4.4, 4.10: 24 games or fewer is provisional: a draw with an 1800 (performance 1800) averaged with 1500
    # over the games; from 25, permanent: 32 x (0.5 - 0.15) = 11.2 (the table gives the lower-rated 0.15 at 300)
    (23, "provisional", 13),   # (23 x 1500 + 1800) / 24 = 1512.5 -> 1513
    (24, "provisional", 12),   # (24 x 1500 + 1800) / 25 = 1512
    (25, "permanent", 11),
])
def test_the_24_games_edge(games, status, change):
    row = _edge(1500, games, [1800], [0.5])
    assert (row["status"], row["change"]) == (status, change)


@pytest.mark.parametrize("opponent, first", [
    # rules 4.3: an unrated player's performance (a draw: the opponent's rating); below 1200 half the gap is added
    (1198, 1199), (1199, 1200), (1200, 1200), (1201, 1201),   # 1199 + 0.5 = 1199.5 -> 1200
])
def test_the_1200_adjustment_edge(opponent, first):
    assert _edge(None, 0, [opponent], [0.5])["rating_after"] == first


def test_an_unrated_opponent_counts_1100():
    """Rules 4.3: two unrated players draw: each counts the other at 1100, + (1200 - 1100) / 2 = 1150."""
    players = [dict(id="a", games=0), dict(id="b", games=0), dict(id="c", rating=1500, games=100)]
    row = rate("fqe", event(players, [(1, "a", "b", 0.5), (1, "c", None, "bye")])).by_id()["a"]
    assert (row["performance"], row["rating_after"]) == (1100, 1150)

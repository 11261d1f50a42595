"""FESA (SPEC 6.1 - 6.8): the real tournaments FESA published, hand-computed cases, the
fixed point of the sweeps."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest
from conftest import DATA, event
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from xl_elo import rate
from xl_elo.federations import fesa
from xl_elo.federations.fesa import grades as fesa_grades
from xl_elo.frontends.cli import main
from xl_elo.loader import read_event
from xl_elo.model import InputError

TOURNAMENTS = sorted(p.name for p in (DATA / "fesa").iterdir() if p.is_dir())


def _load(name):
    d = DATA / "fesa" / name
    return (read_event("fesa", d / "players.csv", d / "games.csv", d / "history.csv"),
            json.loads((d / "expected.json").read_text()))


@pytest.mark.parametrize("name", TOURNAMENTS)
def test_real_tournament_player_by_player(name):
    """Source: FESA's published rating lists before and after each tournament (tests/data/fesa)."""
    ev, expected = _load(name)
    results = rate("fesa", ev)
    rows = results.by_id()
    histories: dict[str, Counter] = {}
    for h in results.history:
        histories.setdefault(h.id, Counter())[(h.opponent_rating, h.result)] += 1
    assert set(expected) <= set(rows)
    for pid, exp in expected.items():
        row = rows[pid]
        got = {k: row[k] for k in ("rating_after", "games_after", "bonus_count")}
        assert got == {k: exp[k] for k in got}, pid
        want_hist = Counter((float(o), float(r)) for o, r in (exp.get("history_after") or []))
        assert histories.get(pid, Counter()) == want_hist, pid


@pytest.mark.parametrize("name", TOURNAMENTS)
def test_real_tournament_fixed_point(name):
    """SPEC 6.6: recomputing any player from the final values changes nothing (written out
    with the public one-player functions, not the sweep)."""
    ev, _ = _load(name)
    _assert_fixed_point(ev)


@pytest.mark.parametrize("seed", range(12))
def test_random_tournament_fixed_point(seed):
    """The same on random tournaments: normal players of all strengths, newcomers in performance
    mode, bonus counters; the sweeps revisit only what moved and must still end at a fixed point."""
    import numpy as np

    from xl_elo.core import parse_result
    from xl_elo.federations.fesa import Player
    from xl_elo.model import Event, Game

    rng = np.random.default_rng(seed)
    players = [Player(f"s{i}", rating=float(rng.integers(300, 2300)) if i % 7 else None,
                      games=int(rng.choice([0, 5, 40])) if i % 7 else 0, bonus_count=int(rng.integers(0, 100)))
               for i in range(24)]
    players = [p if p.rating is not None or p.games == 0 else Player(p.id, games=0) for p in players]
    games = []
    for rnd in range(1, 7):
        order = rng.permutation(len(players))
        for a, b in zip(order[0::2], order[1::2], strict=True):
            games.append(Game(players[a].id, players[b].id, parse_result(float(rng.choice([0, 1]))), rnd))
    _assert_fixed_point(Event(tuple(players), tuple(games)))


def _assert_fixed_point(ev):
    rows = rate("fesa", ev).by_id()
    hist = {p.id: [(h.opponent_rating, h.result) for h in ev.history if h.id == p.id] for p in ev.players}
    for p in ev.players:
        games = [(g.opponent if g.player == p.id else g.player,
                  g.result.score if g.player == p.id else 1 - g.result.score, g.round)
                 for g in ev.games if g.counts and p.id in (g.player, g.opponent)]
        if not games:
            continue
        games.sort(key=lambda x: x[2])
        opps = [max(400.0, float(rows[o]["rating_after"])) for o, _, _ in games]
        scores = [s for _, s, _ in games]
        row = rows[p.id]
        if row["mode"] == "normal":
            assert p.rating + fesa.normal_change(p.rating, opps, scores, p.bonus_count).change == row["rating_after"]
        else:
            prior = hist[p.id]
            if p.games == 0 and p.nsr_grade:
                mp = fesa_grades.nsr_midpoint(p.nsr_grade)
                prior = [(mp, 1.0), (mp, 0.0)]
            value = fesa.performance([o for o, _ in prior] + opps, [r for _, r in prior] + scores)
            assert value == row["rating_after"], p.id


def test_command_line_rating_list_in_rating_list_out(tmp_path, capsys):
    """The results CSV and its history are the next tournament's players and history tables."""
    d = DATA / "fesa" / "13th_nekomadoken"
    out = tmp_path / "after.csv"
    assert main(["rate", "-f", "fesa", "-p", str(d / "players.csv"), "-g", str(d / "games.csv"),
                 "--history", str(d / "history.csv"), "-o", str(out)]) == 0
    again = read_event("fesa", out, d / "games.csv", tmp_path / "after_history.csv")
    players = {p.id: p for p in again.players}
    history = again.history
    expected = json.loads((d / "expected.json").read_text())
    for pid, exp in expected.items():
        assert (players[pid].rating, players[pid].games, players[pid].bonus_count) == (
            exp["rating_after"], exp["games_after"], exp["bonus_count"])
        assert players[pid].grade == exp["grade_after"]
    assert Counter((h.opponent_rating, h.result) for h in history if h.id == "N56") == Counter(
        (float(o), float(r)) for o, r in expected["N56"]["history_after"])


def test_report_is_a_crosstable(capsys):
    d = DATA / "fesa" / "sample"
    assert main(["rate", "-f", "fesa", "-p", str(d / "players.csv"), "-g", str(d / "games.csv"),
                 "--history", str(d / "history.csv"), "--format", "report"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("1 ") and "Ishikawa" in x)
    # Ishikawa beat players 2, 4 and 3 in rounds 1, 2, 3; 1766 -> 1787
    assert "2+" in line and "4+" in line and "3+" in line and "1766" in line and "1787" in line and "+21" in line


# --------------------------------------------------------------------------- normal mode


def test_upset_gain_replaces_the_normal_gain():
    """1500 (K 28) beats a final 1700: normal 28 * (1 - 0.240253) = 21.27; upset 28 * 200 / 160 = 35."""
    out = fesa.normal_change(1500, [1700], [1], bonus_count=100)
    assert out.steps[0].upset == 35 and out.change == 35


def test_upset_gain_not_used_when_smaller():
    """Against 1550: normal 28 * (1 - 0.428537) = 16.0010 > upset 28 * 50 / 160 = 8.75."""
    out = fesa.normal_change(1500, [1550], [1], bonus_count=100)
    assert out.steps[0].upset is None and out.steps[0].normal == pytest.approx(16.0010, abs=1e-4)
    assert out.change == 16


def test_activity_bonus_stops_at_the_100th_game():
    """Counter 99: the first draw earns (1800 - 1500) / 200 = 1.5, the second none;
    E(1501.5, 1500) = 0.502159, 28 * (0.5 - 0.502159) = -0.0604 -> 1.4396 -> 1."""
    out = fesa.normal_change(1500, [1500, 1500], [0.5, 0.5], bonus_count=99)
    assert [s.bonus for s in out.steps] == [1.5, 0.0]
    assert out.total == pytest.approx(1.4396, abs=1e-4)
    assert (out.change, out.bonus_count) == (1, 100)


def test_one_rounding_halves_to_even():
    """A draw at 1300 against 1300 with bonus (1800 - 1300) / 200 = 2.5 -> 2; at 1100: 3.5 -> 4."""
    assert fesa.normal_change(1300, [1300], [0.5]).change == 2
    assert fesa.normal_change(1100, [1100], [0.5]).change == 4


def test_k_bands_use_the_running_rating():
    """pr moves game by game: 1555 + a win worth more than 5 crosses into the K 24 band."""
    out = fesa.normal_change(1555, [1555, 1555], [1, 1], bonus_count=100)
    assert [s.k for s in out.steps] == [28, 24]


# --------------------------------------------------------------------------- performance mode


def test_all_losses_is_one_and_opponents_count_at_least_400():
    assert fesa.performance([1500, 1700], [0, 0]) == 1
    assert fesa.performance([300, 300], [1, 0]) == 400  # both count 400: the zero is 400


def _g(x, opps, scores):
    return sum(s - 1 / (1 + 10 ** ((o - x) / 400)) for o, s in zip(opps, scores, strict=True))


def test_all_wins_add_a_draw_against_the_highest_opponent():
    r = fesa.performance([1500, 1600], [1, 1])
    opps, scores = [1500, 1600, 1600], [1, 1, 0.5]
    assert _g(r - 0.5, opps, scores) > 0 > _g(r + 0.5, opps, scores)


def test_new_player_with_nsr_grade():
    """1 dan NSR: two games against MP 1740 (one won, one lost) + a win against 1740:
    2 - 3 E(x, 1740) = 0 -> x = 1740 + 400 log10(2) = 1860.41 -> 1860."""
    assert fesa.performance([1740, 1740, 1740], [1, 0, 1]) == 1860
    assert fesa_grades.nsr_midpoint("1 dan") == 1740
    assert fesa_grades.nsr_midpoint("pro 1 dan") == 2540  # 2510 + 30 n
    assert 1740 + 400 * math.log10(2) == pytest.approx(1860.41, abs=0.01)


def test_new_nsr_player_without_a_rated_game_enters_on_his_prior_grade_games():
    ev = event([dict(id="new", nsr_grade="2 kyu"), dict(id="other", rating=1500, games=30)], [(1, "new", None, "bye")])
    results = rate("fesa", ev)
    row = results.by_id()["new"]
    assert (row["rating_after"], row["games_after"], row["bonus_count"]) == (1510, 2, 0)
    assert sorted((h.opponent_rating, h.result) for h in results.history if h.id == "new") == [(1510, 0), (1510, 1)]
    assert results.by_id()["other"]["rating_after"] == 1500


def test_new_player_with_nothing_and_no_game_stays_unrated():
    row = rate("fesa", event([dict(id="x"), dict(id="y", rating=1500, games=30)], [(1, "x", "y", "+")])).by_id()["x"]
    assert (row["rating_after"], row["games_after"], row["status"]) == (None, 0, "unrated")


def test_leaving_performance_mode_at_9_games():
    """6 history games (3 won, 3 lost) + 3 games = 9: normal mode, history dropped;
    + 2 games = 8: still performance mode."""
    hist = [("p", 1500, 1), ("p", 1500, 0)] * 3
    players = [dict(id="p", rating=1500, games=6)] + [dict(id=f"o{i}", rating=1500, games=40, bonus_count=100)
                                                      for i in range(3)]
    three = rate("fesa", event(players, [(i + 1, "p", f"o{i}", 0.5) for i in range(3)], history=hist))
    assert three.by_id()["p"]["mode"] == "normal" and not [h for h in three.history if h.id == "p"]
    two = rate("fesa", event(players, [(i + 1, "p", f"o{i}", 0.5) for i in range(2)], history=hist))
    assert two.by_id()["p"]["mode"] == "performance"
    assert len([h for h in two.history if h.id == "p"]) == 8


def test_all_wins_history_stays_in_performance_mode():
    hist = [("p", 1500, 1)] * 10
    players = [dict(id="p", rating=2000, games=10), dict(id="o", rating=1500, games=40)]
    row = rate("fesa", event(players, [(1, "p", "o", 0)], history=hist)).by_id()["p"]
    assert row["mode"] == "performance" and row["games_after"] == 11


def test_history_must_match_the_game_count():
    with pytest.raises(Exception, match="history rows"):
        rate("fesa", event([dict(id="p", rating=1500, games=3), dict(id="o", rating=1500, games=30)],
                           [(1, "p", "o", 1)], history=[("p", 1500, 1)]))


# --------------------------------------------------------------------------- handicap


def test_grade_numbers_and_shift():
    """SPEC 6.7: 1 kyu spans 1560 .. 1680 = 14.0 .. 15.0. A 1 dan (1680 = 15.0) giving bishop (1.5)
    counts 13.5 = halfway through 2 kyu (1460 .. 1560) = 1510: the effect is 170 points."""
    assert float(fesa_grades.grade_number(1560)) == 14.0
    assert float(fesa_grades.grade_number(1620)) == 14.5
    assert float(fesa_grades.grade_number(0)) == 0.0
    assert float(fesa_grades.shift(1680, 1.5)) == 1510
    assert float(fesa_grades.handicap_effect(1680, "B")) == 170
    assert float(fesa_grades.shift(1560, 0.2)) == 1540  # 13.8 -> 1460 + 0.8 * 100


def test_handicap_game_both_ways():
    """A (1680, normal) gives bishop to B (1400, normal) and loses. For B the giver counts
    shift(A's final, 1.5); for A the receiver counts B's final + (1680 - shift(1680, 1.5)) = + 170."""
    players = [dict(id="A", rating=1680, games=40, bonus_count=100),
               dict(id="B", rating=1400, games=40, bonus_count=100)]
    rows = rate("fesa", event(players, [(1, "A", "B", 0, {"handicap": "B"})])).by_id()
    a_final, b_final = rows["A"]["rating_after"], rows["B"]["rating_after"]
    assert rows["B"]["change"] == fesa.normal_change(1400, [float(fesa_grades.shift(a_final, 1.5))], [1], 100).change
    assert rows["A"]["change"] == fesa.normal_change(1680, [b_final + 170], [0], 100).change
    # without the handicap B's win would be worth more (A counts fully)
    plain = rate("fesa", event(players, [(1, "A", "B", 0)])).by_id()
    assert plain["B"]["change"] > rows["B"]["change"]


def test_byes_forfeits_and_unrated_games_are_not_rated():
    players = [dict(id="a", rating=1500, games=40), dict(id="b", rating=1500, games=40)]
    games = [(1, "a", "b", "+"), (2, "a", None, "bye"), (3, "a", "b", 1, {"rated": False})]
    rows = rate("fesa", event(players, games)).by_id()
    assert rows["a"]["games_rated"] == 0 and rows["a"]["rating_after"] == 1500


def test_more_than_16_rounds_warns():
    players = [dict(id="a", rating=1500, games=40), dict(id="b", rating=1500, games=40)]
    res = rate("fesa", event(players, [(r, "a", "b", 0.5) for r in range(1, 18)]))
    assert any("17 rounds" in w for w in res.warnings)


# --------------------------------------------------------------------------- single floats (rules 6.11, 6.12)
#
# The figures below are what FESA's program (kota/elo_rating, turnering.lisp) gives when run, under
# GNU CLISP, on these ratings and lists: its own single-float arithmetic, which rules 6.11 follows.

@pytest.mark.parametrize("rating, code, shifted", [
    (1966, "B", 1774),   # 17.2875 - 1.5 = 15.7875 -> 1774.5 in single floats, halves to even
    (1593, "L", 1527),   # exact arithmetic would give 1528
    (1938, "S", 1909),   # exact: 1910
    (1926, "RL", 1601),  # exact: 1600
    (400, "4p", 0),      # exactly the bottom of the scale
    (400, "5p", 1),      # below it: 1
    (400, "6p", 1),
    (520, "5p", 0),
    (3200, "B", 2763),   # the program's last band, 3120 to 9999
    (0, "S", 384),       # a rating of 0 is grade number 0.0, as 400
    (16, "S", 0),
])
def test_shift_as_fesas_program_computes_it(rating, code, shifted):
    assert fesa_grades.shift(rating, fesa_grades.handicap_value(code)) == shifted


def test_a_rating_off_the_grade_scale_is_refused_not_extrapolated():
    with pytest.raises(fesa_grades.OffScale, match="9999"):
        fesa_grades.shift(9999, 1.5)


@pytest.mark.parametrize("games, value", [
    ([(1860, 0), (1860, 1), (1977, 1), (2299, 0), (1186, 1)], 1988),  # N56, 13th Nekomado-ken
    ([(2000, 0.5), (2000, 1)], 2191),                                 # a single win, the draw in front
    ([(2540, 0), (2540, 1), (2215, 1), (1643, 1)], 2580),             # N37
    ([(850, 0), (1766, 0), (1315, 0.5)], 811),
    ([(2309, 0.5), (412, 0)], 14),  # capped steps jump +800 / -800 for 7,642,953 steps (CLISP: 559 s)
])
def test_performance_as_fesas_program_computes_it(games, value):
    from xl_elo.federations.fesa import newton

    assert newton.solve(games) == value


def test_a_new_player_who_beats_755_and_loses_to_988_gets_872():
    """Rules 6.11: the exact performance is 871.5; FESA publishes 872."""
    assert fesa.performance([755, 988], [1, 0]) == 872
    ev = event([dict(id="new"), dict(id="a", rating=755, games=50, bonus_count=100),
                dict(id="b", rating=988, games=50, bonus_count=100)],
               [(1, "new", "a", 1), (2, "new", "b", 0)], period=None)
    assert rate("fesa", ev).by_id()["new"]["rating_after"] == 872


def test_the_tolerance_is_the_programs_running_single_float_sum():
    """Step by step for the first 200,000 steps; then where it passes 0.01, 0.1, 1, 800, and stops growing."""
    from xl_elo.core import f32
    from xl_elo.federations.fesa import newton

    limit = f32(0.001)
    for step in range(1, 200_001):
        limit = f32(limit + f32(0.0001))
        assert newton.tolerance(step) == limit, step
    assert [newton.first_step_above(x) for x in (0.01, 0.1, 1.0, 800.0)] == [91, 990, 9990, 7_642_953]
    assert newton.first_step_above(3000.0) is None  # the single-float sum stalls at 2048


def _innsats_float32(games, steps=3000):
    """An independent reading of the program's Newton loop in numpy float32, run step by step."""
    np = pytest.importorskip("numpy")
    f = np.float32
    guess, limit = f(games[0][0]), f(0.001)
    slope = f(f(np.log(np.float64(10))) / f(400))
    for _ in range(steps):
        a = b = f(0)
        for rating, score in games:
            y = f(f(f(rating) - guess) / f(400))
            u = f(10.0 ** np.float64(y))
            e = f(f(1) / f(f(1) + u))
            a = f(a + f(f(score) - e))
            b = f(b + f(f(u * e) * e))
        mod = f(f(a / b) / slope)
        mod = min(f(800), max(f(-800), mod))
        limit = f(limit + f(0.0001))
        if abs(mod) < limit:
            return max(1, int(np.rint(np.float64(f(guess + mod)))))
        guess = f(guess + mod)
    return None


@given(st.lists(st.tuples(st.integers(1, 3000), st.sampled_from([0.0, 0.5, 1.0])), min_size=2, max_size=12))
@settings(max_examples=150, deadline=None)
def test_performance_matches_an_independent_float32_loop(games):
    from xl_elo.federations.fesa import newton

    assume(any(s != games[0][1] for _, s in games))
    expected = _innsats_float32(games)
    assume(expected is not None)  # the long loops are the test above
    assert newton.solve(games) == expected


def _loop_event(players, games):
    hist = [(p["id"], o, r) for p in players for o, r in p.pop("history", [])]
    return event(players, games, hist, period=None)


def test_a_tournament_that_never_settles_is_refused_naming_its_players():
    """loop_c00928: the program sweeps forever (117, 1273) -> (114, 1270) -> (112, 1268) -> (117, 1273)."""
    ev = _loop_event([dict(id="P1", rating=968, games=46, bonus_count=76), dict(id="P2", nsr_grade="4 dan")],
                     [(1, "P1", "P2", 1), (2, "P1", "P2", 1), (3, "P1", "P2", 0), (4, "P1", "P2", 0)])
    with pytest.raises(InputError, match="never settle") as info:
        rate("fesa", ev)
    words = str(info.value)
    assert "every 3 sweeps they come back" in words
    assert all(f"{968 + c}" in words for c in (117, 114, 112)) and all(f"{v}" in words for v in (1273, 1270, 1268))


def test_a_performance_that_climbs_off_the_scale_is_refused():
    """loop_c00602: a performance-mode player giving 6 pieces; the program stops with an error past 9999."""
    p1 = dict(id="P1", rating=1461, games=4, history=[(997, 0.5), (2071, 1), (1991, 0.5), (1359, 1)])
    ev = _loop_event([p1, dict(id="P2", rating=2002, games=48, bonus_count=37),
                      dict(id="P3", rating=2158, games=22, bonus_count=64),
                      dict(id="P4", rating=1644, games=60, bonus_count=23)],
                     [(1, "P1", "P4", 1, {"handicap": "6p"}), (1, "P2", "P3", 0),
                      (2, "P1", "P2", 1, {"handicap": "6p"}),
                      (2, "P3", "P4", 0), (3, "P1", "P2", 1), (3, "P3", "P4", 0),
                      (4, "P1", "P4", 0.5, {"handicap": "6p"}), (4, "P2", "P3", 0)])
    with pytest.raises(InputError, match="beyond the end of FESA's grade scale"):
        rate("fesa", ev)


def test_slow_tournaments_settle_where_the_program_does():
    """loop_c00744 (178 sweeps) and loop_c02171 (85): the program's results, ratings past 3500 included."""
    ev = _loop_event([dict(id="P1", rating=2456, games=28, bonus_count=72),
                      dict(id="P2", rating=1759, games=3, history=[(1053, 0), (1494, 0), (1863, 0.5)]),
                      dict(id="P3", rating=2143, games=49, bonus_count=30),
                      dict(id="P4", rating=1167, games=3, history=[(1650, 1), (2024, 0), (1687, 1)])],
                     [(1, "P1", "P3", 1, {"handicap": "4p"}), (1, "P2", "P4", 0),
                      (2, "P4", "P1", 0.5, {"handicap": "2p"}),
                      (2, "P2", "P3", 0), (3, "P4", "P1", 1, {"handicap": "4p"}), (3, "P2", "P3", 0)])
    got = rate("fesa", ev).by_id()
    assert [got[p]["rating_after"] for p in ("P1", "P2", "P3", "P4")] == [2456 + 27, 1006, 2143 - 18, 5717]
    ev = _loop_event([dict(id="P1", rating=2047, games=5,
                           history=[(1446, 1), (1058, 1), (1918, 1), (601, 1), (1465, 1)]),
                      dict(id="P2", rating=1823, games=3, history=[(783, 1), (1820, 0.5), (1456, 0)]),
                      dict(id="P3", rating=2455, games=31, bonus_count=98)],
                     [(1, "P1", "P2", 1), (1, "P3", None, "bye"), (2, "P2", "P3", 1), (2, "P1", None, "bye"),
                      (3, "P1", "P3", 1, {"handicap": "R"}), (3, "P2", None, "bye")])
    got = rate("fesa", ev).by_id()
    assert [got[p]["rating_after"] for p in ("P1", "P2", "P3")] == [3310, 1859, 2455 - 20]


# --------------------------------------------------------------------------- every threshold, at it and beside it


def _fesa_calc(*argv):
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stderr(io.StringIO()):
        assert main(["calc", "fesa", *argv, "--format", "json"], out) == 0
    return json.loads(out.getvalue())


@pytest.mark.parametrize("rating, k", [
    # FESA's k(pr) table (section 1; rules 6.2): 2240 <= pr 16, 1920 <= pr < 2240 20, 1560 <= pr < 1920 24,
    # 1280 <= pr < 1560 28, 1040 <= pr < 1280 32, 720 <= pr < 1040 36, pr < 720 40
    (719, 40), (720, 36), (721, 36), (1039, 36), (1040, 32), (1041, 32), (1279, 32), (1280, 28), (1281, 28),
    (1559, 28), (1560, 24), (1561, 24), (1919, 24), (1920, 20), (1921, 20), (2239, 20), (2240, 16), (2241, 16),
])
def test_every_k_band_edge(rating, k):
    """At each band's lowest rating and beside it: the table, and one game through the engine (a win over an
    equal player, the bonus used up: K x 0.5)."""
    assert fesa.k_factor(rating) == k
    doc = _fesa_calc("--rating", str(rating), "--rated-games", "40", "--bonus-count", "100", "--games", f"{rating} 1")
    assert (doc["k"], doc["change"]) == (k, k // 2)


@pytest.mark.parametrize("rating, bonus", [(1799, 0.005), (1800, 0.0), (1801, 0.0)])
def test_the_1800_bonus_edge(rating, bonus):
    """Section 5: below 1800 a player gets (1800 - pr) / 200 points a game: a draw with an equal player."""
    doc = _fesa_calc("--rating", str(rating), "--rated-games", "40", "--bonus-count", "0", "--games", f"{rating} 0.5")
    assert doc["games"][0]["change"] == pytest.approx(bonus, abs=1e-6)


@pytest.mark.parametrize("used, change", [(98, 1), (99, 1), (100, 0)])
def test_the_100_bonus_games_edge(used, change):
    """Section 5: the bonus for 100 games only: a 1600 draws an equal player, + (1800 - 1600) / 200 = 1 while
    fewer than 100 bonuses are used."""
    doc = _fesa_calc("--rating", "1600", "--rated-games", "40", "--bonus-count", str(used), "--games", "1600 0.5")
    assert doc["change"] == change


@pytest.mark.parametrize("opponent, counts_as", [(399, 400), (400, 400), (401, 401)])
def test_the_400_opponent_floor_edge(opponent, counts_as):
    """Section 4: an opponent below 400 counts 400 (f(500, 400) = 1 / (1 + 10^(-100 / 400)) = 0.64006)."""
    doc = _fesa_calc("--rating", "500", "--rated-games", "40", "--bonus-count", "100", "--games", f"{opponent} 1")
    assert doc["games"][0]["counts_as"] == counts_as
    if counts_as == 400:
        assert doc["games"][0]["expected"] == pytest.approx(1 / (1 + 10 ** (-0.25)), abs=1e-6)


@pytest.mark.parametrize("rating, after", [(4, 1), (5, 1), (6, 2)])
def test_the_rating_floor_of_1(rating, after):
    """Section 4: 1 is a hard lower limit. A loss to a 400 (K 40, f(pr, 400) about 0.10): -4.03 -> -4."""
    doc = _fesa_calc("--rating", str(rating), "--rated-games", "40", "--bonus-count", "100", "--games", "400 0")
    assert doc["rating_after"] == after

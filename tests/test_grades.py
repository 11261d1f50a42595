"""FESA grades and promotions (SPEC 6.9, 6.10): the promotions FESA published, every path
by hand, invariants."""

from __future__ import annotations

import json

import pytest
from conftest import DATA
from hypothesis import assume, given
from hypothesis import strategies as st

from xl_elo import rate
from xl_elo.federations.fesa import grades as fesa_grades
from xl_elo.federations.fesa.promotion import promote
from xl_elo.federations.fesa.tables import FESA_HANDICAPS
from xl_elo.loader import read_event

TOURNAMENTS = sorted(p.name for p in (DATA / "fesa").iterdir() if p.is_dir())


@pytest.mark.parametrize("name", TOURNAMENTS)
def test_published_promotions_and_runs(name):
    """Exactly the grades and runs FESA published after each tournament, no more, no fewer."""
    d = DATA / "fesa" / name
    rows = rate("fesa", read_event("fesa", d / "players.csv", d / "games.csv", d / "history.csv")).by_id()
    for pid, exp in json.loads((d / "expected.json").read_text()).items():
        got = {k: rows[pid][k] for k in ("grade_after", "lb_run", "mp_run", "mp_reached")}
        assert got == {k: exp[k] for k in got}, pid


def test_grade_lookup_and_bounds():
    assert fesa_grades.grade_of(1198) == "6 kyu" and fesa_grades.grade_of(1200) == "5 kyu"
    assert fesa_grades.grade_of(0) == "20 kyu" and fesa_grades.grade_of(3200) == "8 dan"
    assert fesa_grades.bounds("3 kyu") == (1360, 1410, 1460, 12, 6)
    assert fesa_grades.bounds("5 dan") == (2240, 2340, 2440, None, 10)
    assert fesa_grades.normalise_grade("3K") == "3 kyu" and fesa_grades.normalise_grade("1dan") == "1 dan"
    with pytest.raises(ValueError, match="not a FESA grade"):
        fesa_grades.normalise_grade("pro 3 dan")
    assert fesa_grades.normalise_grade("Pro 3 dan", allow_pro=True) == "pro 3 dan"


def test_nothing_below_9_games():
    p = promote(None, 1900, games_before=5, walk=[1900, 1900, 1900])
    assert p.grade is None and not p.reasons


def test_9_to_17_games_ub_of_the_grade_above():
    """SPEC 6.10's example: 1198 with 11 games -> 8 kyu (7 kyu would need 1200)."""
    p = promote(None, 1198, games_before=10, walk=[1198])
    assert p.grade == "8 kyu"
    assert promote(None, 1200, games_before=10, walk=[1200]).grade == "7 kyu"


def test_ub_rule_then_the_same_game_opens_the_next_runs():
    """3 kyu, 20 games: 1565 reaches UB of 2 kyu (1560) -> 2 kyu; tested again against 1 kyu:
    1565 >= LB 1560, < MP 1620 -> lb_run 1."""
    p = promote("3 kyu", 1565, games_before=20, walk=[1565])
    assert (p.grade, p.lb_run, p.mp_run, p.mp_reached) == ("2 kyu", 1, 0, False)
    assert p.note == "promoted to 2 kyu: reached UB of 2 kyu (1560)"


def test_mp_run():
    """5 kyu aiming at 4 kyu (MP 1320, #MP 6): a run of 5 plus one game at 1325."""
    p = promote("5 kyu", 1325, games_before=30, walk=[1325], lb_run=5, mp_run=5, mp_reached=True)
    assert p.grade == "4 kyu" and "6 games at or above MP of 4 kyu (1320)" in p.note
    assert (p.lb_run, p.mp_run, p.mp_reached) == (0, 0, False)


def test_lb_run_with_mp_reached():
    """2 kyu aiming at 1 kyu (LB 1560, #LB 14): 13 + one game at 1570 with MP reached."""
    p = promote("2 kyu", 1570, games_before=40, walk=[1570], lb_run=13, mp_reached=True)
    assert p.grade == "1 kyu" and "14 games at or above LB of 1 kyu (1560) with MP reached" in p.note


def test_lb_run_without_mp_does_not_promote():
    p = promote("2 kyu", 1570, games_before=40, walk=[1570], lb_run=13)
    assert (p.grade, p.lb_run) == ("2 kyu", 14)


def test_a_game_between_lb_and_mp_ends_the_mp_run():
    p = promote("2 kyu", 1570, games_before=40, walk=[1630, 1570], lb_run=2, mp_run=2, mp_reached=True)
    assert (p.lb_run, p.mp_run, p.mp_reached) == (4, 0, True)


def test_a_game_below_lb_breaks_both_runs():
    p = promote("2 kyu", 1550, games_before=40, walk=[1550], lb_run=5, mp_run=2, mp_reached=True)
    assert (p.grade, p.lb_run, p.mp_run, p.mp_reached) == ("2 kyu", 0, 0, False)


def test_a_run_spanning_two_tournaments():
    first = promote("2 kyu", 1570, games_before=40, walk=[1570, 1570, 1570], lb_run=10, mp_reached=True)
    assert (first.grade, first.lb_run) == ("2 kyu", 13)
    second = promote(first.grade, 1575, games_before=43, walk=[1575], lb_run=first.lb_run,
                     mp_run=first.mp_run, mp_reached=first.mp_reached)
    assert second.grade == "1 kyu"


def test_several_promotions_in_one_tournament():
    """5 kyu, 20 games: 1330 (MP run of 4 kyu opens), then 1470 passes UB of 4 kyu (1360) and
    of 3 kyu (1460) -> 3 kyu, and opens the LB run of 2 kyu (1460 <= 1470 < 1510)."""
    p = promote("5 kyu", 1470, games_before=20, walk=[1330, 1470])
    assert (p.grade, p.lb_run, p.mp_run) == ("3 kyu", 1, 0)
    assert p.note.startswith("promoted to 3 kyu (2 grades in one game)")


def test_bound_to_get_it():
    """1 dan aiming at 2 dan (MP 1860, #MP 7): the tournament leaves an MP run of 6 at 1900.
    Losing K(1900) = 24 in the next game still leaves 1876 >= 1860: the 7th game is certain."""
    p = promote("1 dan", 1900, games_before=30, walk=[1900], lb_run=5, mp_run=5, mp_reached=True)
    assert p.grade == "2 dan" and "bound to get it" in p.note
    assert "check for 2 dan: 7 games against 1740 or better" in p.note


def test_not_bound_when_the_worst_case_drops_below_mp():
    """At 1870 a loss of 24 leaves 1846 < 1860: the run could break."""
    p = promote("1 dan", 1870, games_before=30, walk=[1870], lb_run=5, mp_run=5, mp_reached=True)
    assert p.grade == "1 dan" and p.mp_run == 6


def test_five_dan_needs_the_japan_shogi_association():
    p = promote("4 dan", 2450, games_before=60, walk=[2450])
    assert p.grade == "5 dan"
    assert "check for 5 dan: 8 games against 2160 or better" in p.note
    assert "5 dan needs the Japan Shogi Association's agreement" in p.note


@given(st.sampled_from([None, *fesa_grades.GRADE_NAMES[:-1]]), st.integers(0, 60),
       st.lists(st.integers(1, 3000), min_size=1, max_size=12))
def test_a_grade_never_goes_down(grade, games, walk):
    p = promote(grade, walk[-1], games_before=games, walk=walk)
    assert fesa_grades.grade_index(p.grade) >= fesa_grades.grade_index(grade)


@given(st.floats(0, 3400))
def test_the_grade_of_a_rating_holds_it(r):
    lb, _, ub, _, _ = fesa_grades.bounds(fesa_grades.grade_of(r))
    assert lb <= r and (ub is None or r < ub)


@given(st.integers(1, 3000), st.sampled_from(list(FESA_HANDICAPS)))
def test_shift_there_and_back_within_a_point(r, code):
    """While the shifted grade number stays on the scale (it ends at 20 kyu's LB, rules 6.7, 6.11), in
    the single floats the shift computes in: 216 shifted by 2.7 is -2.3 - 2.7 = -4.99999995 in doubles
    but -5.0 in single floats, the bottom of the scale, a rating of 0 that the scale reads as unrated."""
    from xl_elo import core

    h = FESA_HANDICAPS[code][1]
    assume(core.f32(fesa_grades.grade_number(r) - core.f32(h)) > fesa_grades.FIRST_NUMBER)
    there = fesa_grades.shift(r, h)
    back = fesa_grades.shift(there, -h)
    assert abs(float(back) - r) <= 1


@given(st.sampled_from([None, *fesa_grades.GRADE_NAMES]), st.integers(0, 12), st.integers(0, 6), st.booleans(),
       st.integers(18, 60), st.floats(0, 3000))
def test_bound_to_get_it_skips_only_what_cannot_promote(grade, lb_run, mp_run, mp_reached, t, rating):
    """The early exit of the 20-game simulation (SPEC 6.10) against the full simulation."""
    from xl_elo.federations.fesa import promotion as fp

    def walker():
        return fp._Walker(grade, lb_run, mp_run, mp_reached)

    fast = walker()
    fp._bound_to_get_it(fast, t, rating)
    full, sim, r = walker(), walker(), rating
    for j in range(1, fp.SIMULATED_GAMES + 1):  # the simulation written out, no shortcut
        r -= fp._k(r)
        if sim.game(t + j, r):
            if full.next_grade() is not None:
                full.promote(full.next_grade(), "bound to get it")
            break
    assert (fast.p.grade, fast.p.reasons) == (full.p.grade, full.p.reasons)

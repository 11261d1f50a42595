"""Glicko-2 club ladders (docs/rules.md section 12): Glickman's worked example to the last bit, the
rating periods of a season chained in order, and the properties the system implies.

Source of the example: M. E. Glickman, "Example of the Glicko-2 system", glicko.net/glicko/glicko2.pdf
(version of March 22, 2022), pages 4-6: a player rated 1500, RD 200, volatility 0.06, tau 0.5, beats
a 1400 (RD 30), loses to a 1550 (RD 100) and to a 1700 (RD 300). The paper prints its arithmetic
with rounded intermediates; the full-precision values below were recomputed independently in IEEE
double from the paper's formulas (the project's research notes, glicko_check.py), not by this code.
"""

from __future__ import annotations

import datetime as dt
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xl_elo.federations import get
from xl_elo.federations.glicko2 import (
    PAPER_GAMES,
    SCALE,
    Options,
    Player,
    e,
    paper_update,
    rate,
    to_scale,
    update,
    volatility,
)
from xl_elo.frontends.cli import main
from xl_elo.model import Event, Game, InputError

#: The paper's example in IEEE double (research notes, glicko_check.py): r', RD', sigma'.
PAPER_R = 1464.0506705393013
PAPER_RD = 151.51652412385727
PAPER_SIGMA = 0.059995984286488495


def test_the_papers_example_to_the_last_bit():
    """Steps 1 - 8 on the paper's example give the independently recomputed doubles exactly."""
    assert paper_update(1500, 200, 0.06, PAPER_GAMES, tau=0.5) == (PAPER_R, PAPER_RD, PAPER_SIGMA)


def test_the_papers_printed_figures():
    """What the paper prints (pp. 4-6): g 0.9955, 0.9531, 0.7242; E 0.639, 0.432, 0.303; v 1.7785,
    Delta -0.4834 (from its rounded g and E); r' 1464.06, RD' 151.52, sigma' 0.05999 (cut, not rounded)."""
    mu, phi = to_scale(1500, 200)
    p = update(mu, phi, 0.06, [(*to_scale(r, d), s) for r, d, s in PAPER_GAMES], 0.5)
    assert phi == pytest.approx(1.1513, abs=5e-5)
    assert [round(x, 4) for x in p.g] == [0.9955, 0.9531, 0.7242]
    assert [round(x, 3) for x in p.e] == [0.639, 0.432, 0.303]
    assert p.v == pytest.approx(1.7785, abs=6e-4) and p.delta == pytest.approx(-0.4834, abs=6e-4)
    assert p.step5 is not None and p.step5.k == 1 and p.step5.iterations == 2
    assert abs(p.rating_after - 1464.06) < 0.01 and round(p.rd_after, 2) == 151.52
    assert math.floor(p.sigma_after * 1e5) / 1e5 == 0.05999
    assert p.phi_star == pytest.approx(1.152862, abs=1e-5) and p.phi_after == pytest.approx(0.8722, abs=5e-5)


def test_step_5_reproduces_the_papers_iteration_table():
    """The paper's Step 5 table comes from its rounded inputs phi 1.1513, v 1.7785, Delta -0.4834: A, B, f(A)
    and f(B) as printed (row 2's f(B) printed without its minus sign: A takes B there, so fC fB <= 0)."""
    run = volatility(0.06, 1.1513, 1.7785, -0.4834, 0.5)
    (a0, b0, fa0, fb0), (a1, b1, fa1, fb1), (a2, b2, fa2, fb2) = run.steps
    assert (round(a0, 5), round(b0, 5)) == (-5.62682, -6.12682)
    assert (round(fa0, 8), round(fb0, 6)) == (-0.00053567, 1.999675)
    assert (round(a1, 5), round(b1, 5), round(fa1, 8), round(fb1, 12)) == (-5.62682, -5.62696, -0.00026784,
                                                                            0.000000015238)
    assert (round(a2, 5), round(b2, 5), round(fa2, 12), round(fb2, 12)) == (-5.62696, -5.62696, 0.000000015238,
                                                                            -0.000000015237)


def test_calc_json_gives_the_example_at_full_precision(capsys):
    """``xl-elo calc glicko2 ... --format json``: an opponent as rating/rd, every figure a double."""
    assert main(["calc", "glicko2", "--rating", "1500", "--rd", "200", "--volatility", "0.06", "--tau", "0.5",
                 "--games", "1400/30 1, 1550/100 0, 1700/300 0", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["rating_after"], doc["rd_after"], doc["volatility_after"]) == (PAPER_R, PAPER_RD, PAPER_SIGMA)
    assert doc["v"] == pytest.approx(1.7789770897239976, abs=1e-15)
    assert doc["delta"] == pytest.approx(-0.48393326098365491, abs=1e-15)
    assert doc["change"] == pytest.approx(PAPER_R - 1500) and doc["iterations"] == 2
    assert sum(g["change"] for g in doc["games"]) == pytest.approx(PAPER_R - 1500, abs=1e-9)


def test_calc_reads_a_deviation_only_where_the_system_counts_one(capsys):
    assert main(["calc", "fide", "--rating", "1500", "--games", "1400/30 1"]) == 1
    assert "FIDE counts no opponent's deviation" in capsys.readouterr().err
    assert main(["calc", "glicko2", "--rating", "1500", "--rd", "200", "--volatility", "0.06", "--games",
                 "1400 1"]) == 1
    assert "counts each opponent's RD: give it as rating/rd" in capsys.readouterr().err
    assert main(["calc", "glicko2", "--rating", "1500", "--volatility", "0.06", "--games", "1400/30 1"]) == 1
    assert "--rd: player 'player': a rated player needs his RD" in capsys.readouterr().err
    assert main(["calc", "glicko2", "--rating", "1500", "--rd", "200", "--volatility", "0.06", "--tau", "1.5",
                 "--games", "1400/30 1"]) == 2
    assert "outside the paper's range 0.3 to 1.2" in capsys.readouterr().err
    assert main(["calc", "glicko2", "--rating", "1500", "--rd", "0", "--volatility", "0.06", "--games",
                 "1400/30 1"]) == 2


def test_calc_rates_a_new_player_as_its_help_says(capsys):
    """Rules 12.2: a new player starts at 1500, RD 350, volatility 0.06 (the paper's defaults). ``calc``'s help
    says how to give one: ``--rating unrated`` or a blank ``--rating ""``, no --rd; the probe found both the
    help's blank refused and the help of --rd telling to leave --rating out, which ``calc`` refuses (a rating
    left out is never taken as unrated: the refusal says what to give). The same figures as the engine's
    update of a 1500 / 350 / 0.06 player."""
    r, rd, sigma = paper_update(1500, 350, 0.06, [(1400, 30, 1)])
    for rating in ("unrated", ""):
        assert main(["calc", "glicko2", "--rating", rating, "--games", "1400/30 1", "--format", "json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert (doc["rating_after"], doc["rd_after"], doc["volatility_after"]) == pytest.approx((r, rd, sigma))
    assert main(["calc", "glicko2", "--games", "1400/30 1"]) == 1
    assert "give one, or 'unrated' (or --rating \"\")" in capsys.readouterr().err
    assert main(["calc", "--help"]) == 0
    words = " ".join(capsys.readouterr().out.split())
    assert "'unrated' (or \"\", blank) for an unrated or new player" in words
    assert "a new player: --rating unrated, and no --rd" in words


def test_an_idle_period_grows_the_rd_by_the_old_volatility_up_to_the_cap():
    """Step 6 alone (paper, p. 2): 200 / 0.06 -> 200.27141669877065 (recomputed independently); a new
    player stays new; no RD above 350 is stored (rules 12.10)."""
    players = (Player("a", rating=1500, rd=200, volatility=0.06), Player("b", rating=1600, rd=345, volatility=0.5),
               Player("c"), Player("d", rating=1500, rd=80, volatility=0.06), Player("e", rating=1400, rd=80,
                                                                                     volatility=0.06))
    rows = rate(Event(players, (Game("d", "e", 1, period="2026-01"),))).by_id()
    assert rows["a"]["rd_after"] == 200.27141669877065 and rows["a"]["rating_after"] == 1500
    assert rows["a"]["volatility_after"] == 0.06 and rows["a"]["periods_played"] == 0
    assert rows["b"]["rd_after"] == 350.0
    assert (rows["c"]["status"], rows["c"]["rating_after"], rows["c"]["rd_after"]) == ("new", None, None)
    wide = rate(Event(players, (Game("d", "e", 1),)), Options(rd_cap=1000)).by_id()
    assert wide["b"]["rd_after"] == pytest.approx(SCALE * math.hypot(345 / SCALE, 0.5))


def test_periods_chain_in_time_order_on_full_precision_state():
    """Two periods of the paper's games against opponents who keep their values: period 2 starts from
    period 1's doubles (research notes: 1449.53965358, 127.144579033, 0.0599908637464962)."""
    r, rd, sigma = paper_update(1500, 200, 0.06, PAPER_GAMES)
    r2, rd2, s2 = paper_update(r, rd, sigma, PAPER_GAMES)
    assert (round(r2, 8), round(rd2, 9), s2) == pytest.approx((1449.53965358, 127.144579033, 0.0599908637464962),
                                                              abs=1e-9)


def _season(rows_order=(0, 1, 2, 3, 4, 5)):
    players = (Player("ann", rating=1500, rd=200, volatility=0.06), Player("bob", rating=1400, rd=30, volatility=0.06),
               Player("cid", rating=1550, rd=100, volatility=0.06), Player("dan", rating=1700, rd=300,
                                                                           volatility=0.06), Player("eve"))
    games = [Game("ann", "bob", 1, 1, period="2026-01"), Game("ann", "cid", 0, 2, period="2026-01"),
             Game("ann", "dan", 0, 3, period="2026-01"), Game("eve", "ann", "1-0", 1, period="2026-03"),
             Game("bob", "cid", "½", 1, period="2026-02-15"), Game("cid", "dan", "+", 2, period="2026-03")]
    return players, tuple(games[i] for i in rows_order)


def test_a_season_at_once_is_its_periods_one_after_another():
    """Rating three periods in one file equals rating each period alone, the results of one (every
    figure at full precision) the players of the next; the rows' order does not matter."""
    players, games = _season()
    whole = rate(Event(players, games)).by_id()
    assert whole == rate(Event(players, _season((5, 3, 1, 4, 0, 2))[1])).by_id()
    state = players
    for period in ("2026-01", "2026-02-15", "2026-03"):
        step = rate(Event(state, tuple(g for g in games if g.period == period))).by_id()
        state = tuple(Player(p.id, rating=step[p.id]["rating_after"], rd=step[p.id]["rd_after"],
                             volatility=step[p.id]["volatility_after"]) for p in players)
    for p in state:
        assert (whole[p.id]["rating_after"], whole[p.id]["rd_after"], whole[p.id]["volatility_after"]) == \
            (p.rating, p.rd, p.volatility)
    # period 1 is the paper's example for ann; the forfeit of period 3 counts nowhere, but the period passes
    assert whole["ann"]["games_rated"] == 4 and whole["ann"]["periods_played"] == 2
    assert whole["ann"]["last_period"] == "2026-03" and whole["eve"]["status"] == "new"
    assert whole["dan"]["periods_played"] == 1 and whole["dan"]["rd_after"] > PAPER_RD


def _idle_ladder(periods, extra=()):
    """A rated player who never plays, beside two who play once in each period named."""
    players = (Player("idle", rating=1600, rd=60, volatility=0.06), Player("a", rating=1700, rd=60, volatility=0.06),
               Player("b", rating=1500, rd=60, volatility=0.06), *extra)
    return Event(players, tuple(Game("a", "b", 1, 1, period=p) for p in periods))


def test_a_month_without_a_game_between_two_monthly_periods_is_a_period_and_said():
    """A monthly ladder that skips February and March rates them as periods in which nobody played (rules
    12.6, 12.7): an idle player's RD grows in each, RD^2 by (173.7178 sigma)^2 a period (Step 6), and a
    warning names the months."""
    results = rate(_idle_ladder(("2026-01", "2026-04")))
    rd = results.by_id()["idle"]["rd_after"]
    assert rd == pytest.approx(math.sqrt(60 ** 2 + 4 * (SCALE * 0.06) ** 2), abs=1e-9)
    assert len(results.warnings) == 1 and "2026-02, 2026-03" in results.warnings[0]
    assert "RD" in results.warnings[0] and "12.7" in results.warnings[0]
    # dated periods: a date is a day, its period's length the organiser's; nothing is added between them
    dated = rate(_idle_ladder(("2026-01-05", "2026-04-05")))
    assert dated.by_id()["idle"]["rd_after"] == pytest.approx(math.sqrt(60 ** 2 + 2 * (SCALE * 0.06) ** 2), abs=1e-9)
    assert not dated.warnings
    # consecutive months, a year's turn: nothing added
    turn = rate(_idle_ladder(("2025-12", "2026-01")))
    assert not turn.warnings and turn.by_id()["idle"]["rd_after"] == pytest.approx(
        math.sqrt(60 ** 2 + 2 * (SCALE * 0.06) ** 2), abs=1e-9)
    across = rate(_idle_ladder(("2025-11", "2026-02")))
    assert "2025-12, 2026-01" in across.warnings[0]


def test_a_day_of_a_month_that_is_a_period_is_refused_on_its_row():
    """A game dated 2026-01-15 in a ladder whose period 2026-01 is a month would be in two periods."""
    games = (Game("a", "b", 1, 1, period="2026-01", row=2), Game("b", "a", 1, 2, period="2026-01-15", row=3),
             Game("a", "b", 1, 1, period="2026-02-03", row=4))
    ev = Event(_idle_ladder(()).players, games)
    with pytest.raises(InputError) as exc:
        rate(ev)
    [problem] = exc.value.problems
    assert (problem.row, problem.column) == (3, "period")
    assert "2026-01-15 is a day of the month 2026-01" in problem.message


def test_the_games_limit_is_a_periods(tmp_path, capsys):
    """1,000 rated games is a player's limit in one period (a pasted column), not in a season: a weekly ladder of
    156 weeks of 7 games each is rated; 1,001 in one week is refused, naming the period."""
    players = tmp_path / "players.csv"
    players.write_text("id,rating,rd,volatility\n" + "".join(f"p{i},{1500 + i},80,0.06\n" for i in range(8)),
                       encoding="utf-8")
    weeks = [(dt.date(2023, 1, 2) + dt.timedelta(weeks=k)).isoformat() for k in range(156)]
    season = tmp_path / "season.csv"
    season.write_text("period,round,player,opponent,result\n" + "".join(
        f"{w},{j + 1},p0,p{j + 1},{(j + k) % 2}\n" for k, w in enumerate(weeks) for j in range(7)), encoding="utf-8")
    assert main(["rate", "-f", "glicko2", "-p", str(players), "-g", str(season), "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].split(",")[4] == "1092"
    week = tmp_path / "week.csv"
    week.write_text("period,round,player,opponent,result\n" + "".join(
        f"2023-01-02,{k // 7 + 1},p0,p{k % 7 + 1},1\n" for k in range(1001)), encoding="utf-8")
    assert main(["rate", "-f", "glicko2", "-p", str(players), "-g", str(week)]) != 0
    assert "'p0' has 1001 rated games in the period 2023-01-02 (at most 1000" in capsys.readouterr().err


def test_everyone_is_rated_on_the_values_before_the_period():
    """The games of a period are simultaneous (rules 12.7): each side uses the other's values before it."""
    players = (Player("a", rating=1700, rd=80, volatility=0.06), Player("b", rating=1500, rd=150, volatility=0.07))
    rows = rate(Event(players, (Game("a", "b", 0), Game("b", "a", 0.5, 2)))).by_id()
    ma, pa = to_scale(1700, 80)
    mb, pb = to_scale(1500, 150)
    a = update(ma, pa, 0.06, [(mb, pb, 0.0), (mb, pb, 0.5)], 0.5)
    b = update(mb, pb, 0.07, [(ma, pa, 1.0), (ma, pa, 0.5)], 0.5)
    assert (rows["a"]["rating_after"], rows["b"]["rating_after"]) == (a.rating_after, b.rating_after)
    assert rows["a"]["v"] == a.v and rows["b"]["delta"] == b.delta


def test_a_volatility_that_moves_with_mu_not_zero():
    """A 2100 / 50 player loses ten times to a 1500 / 50 player: sigma' 0.061228792263 (the research
    notes' independent run; an f(x) that squares mu instead of phi, a known port bug, gives 0.060058)."""
    r, rd, sigma = paper_update(2100, 50, 0.06, [(1500, 50, 0.0)] * 10)
    assert sigma == pytest.approx(0.061228792263, abs=1e-12)
    assert (r, rd) == pytest.approx((1959.842183, 50.463978), abs=1e-6)


def test_the_ladder_file_is_read_with_its_periods(tmp_path, capsys):
    """CSV in, decimals kept; a results file read back as the next season's players."""
    d = tmp_path
    (d / "players.csv").write_text("id,rating,rd,volatility\nann,1500,200,0.06\nbob,1400,30,0.06\ncid,1550,100,0.06\n"
                                   "dan,1700,300,0.06\n", encoding="utf-8")
    (d / "games.csv").write_text("period,player,opponent,result\n2026-11,ann,bob,1\n2026-11,ann,cid,0\n"
                                 "2026-11,ann,dan,0\n", encoding="utf-8")
    assert main(["rate", "-f", "glicko", "-p", str(d / "players.csv"), "-g", str(d / "games.csv"), "-o",
                 str(d / "out.csv")]) == 0
    assert main(["rate", "-f", "glicko2", "-p", str(d / "out.csv"), "-g", str(d / "games.csv"), "--format",
                 "json"]) == 0
    second = {r["id"]: r for r in json.loads(capsys.readouterr().out)["results"]}
    assert (second["ann"]["rating_before"], second["ann"]["rd_before"], second["ann"]["volatility_before"]) == \
        (PAPER_R, PAPER_RD, PAPER_SIGMA)  # every digit of the doubles (rules 12.1)
    bad = d / "bad.csv"
    bad.write_text("id,rating,rd,volatility\nann,1500,,0.06\nbob,,30,\n", encoding="utf-8")
    assert main(["rate", "-f", "glicko2", "-p", str(bad), "-g", str(d / "games.csv")]) == 1
    err = capsys.readouterr().err
    assert "bad.csv, row 2, column 'rd': blank for a rated player" in err
    assert "bad.csv, row 3, column 'rd': given for a player without a rating" in err


def test_a_season_chained_through_csv_files_is_the_season_at_once(tmp_path, capsys):
    """Rules 12.1, 12.7: the state a period hands on is kept at full precision; rated period by period through
    CSV files (each period's results read back as the next one's players) a season ends exactly where it
    ends rated at once (the probe found 6 decimals kept between seasons)."""
    d = tmp_path
    (d / "players.csv").write_text("id,rating,rd,volatility\nann,1500,200,0.06\nbob,1400,30,0.06\n"
                                   "cid,1550,100,0.06\ndan,1700,300,0.06\neve,,,\n", encoding="utf-8")
    periods = {"2026-09": "ann,bob,1\nann,cid,0\nann,dan,0\neve,bob,1\n",
               "2026-10": "bob,cid,0.5\neve,ann,0\n", "2026-11": "dan,ann,0\ncid,eve,1\nbob,dan,1\n"}
    (d / "season.csv").write_text("period,player,opponent,result\n" + "".join(
        "".join(f"{p},{line}\n" for line in games.splitlines()) for p, games in periods.items()), encoding="utf-8")
    assert main(["rate", "-f", "glicko2", "-p", str(d / "players.csv"), "-g", str(d / "season.csv"), "--format",
                 "json"]) == 0
    at_once = {r["id"]: r for r in json.loads(capsys.readouterr().out)["results"]}
    players = d / "players.csv"
    for k, (period, games) in enumerate(periods.items()):
        (d / f"g{k}.csv").write_text("period,player,opponent,result\n" + "".join(
            f"{period},{line}\n" for line in games.splitlines()), encoding="utf-8")
        assert main(["rate", "-f", "glicko2", "-p", str(players), "-g", str(d / f"g{k}.csv"), "-o",
                     str(d / f"r{k}.csv")]) == 0
        players = d / f"r{k}.csv"
    capsys.readouterr()
    assert main(["rate", "-f", "glicko2", "-p", str(players), "-g", str(d / "g0.csv"), "--format", "json"]) == 0
    chained = {r["id"]: r for r in json.loads(capsys.readouterr().out)["results"]}
    for pid, row in at_once.items():
        assert (chained[pid]["rating_before"], chained[pid]["rd_before"], chained[pid]["volatility_before"]) == \
            (row["rating_after"], row["rd_after"], row["volatility_after"]), pid


def test_the_volatility_and_the_rd_are_shown_to_see_them_move(capsys):
    """Rules 12.1: printed, the paper's example shows as the paper prints it (p. 6): 1464.05, RD 151.52,
    volatility 0.059996 (the probe found 0.06, its change hidden); the report's ratings and changes all to
    the hundredth. Columns declare it (model.Column.places)."""
    from xl_elo.formats.report import report
    from xl_elo.formats.writers import results_table
    from xl_elo.loader import example

    ex = example("glicko2")
    results = ex.rate()
    table = results_table(results, ["id", "rating_after", "rd_after", "volatility_after", "rd_before",
                                    "volatility_before"])
    assert table.splitlines()[2].split() == ["player", "1464.05", "151.52", "0.059996", "200.00", "0.060000"]
    text = report(results, ex.event)
    line = next(row for row in text.splitlines() if row.startswith("1 "))
    assert "1500.00" in line and "1464.05" in line and "-35.95" in line
    assert main(["calc", "glicko2", "--rating", "1500", "--rd", "200", "--volatility", "0.06", "--games",
                 "1400/30 1, 1550/100 0, 1700/300 0"]) == 0
    out = capsys.readouterr().out
    assert "volatility after:       0.059996" in out and "RD after (Step 8):      151.52" in out


def test_no_performance_rating_and_the_refusal_says_why(capsys):
    """Rules 12.10: Glicko-2 defines no performance rating. ELO_PERFORMANCE and calc --performance say so
    (the probe found "all wins or all losses", which does not apply to a win and a loss), and
    ELO_PERFORMANCE's help does not offer glicko2 as a method with one."""
    from xl_elo.frontends.functions import ArgumentError, by_name

    perf = by_name()["ELO_PERFORMANCE"]
    with pytest.raises(ArgumentError, match="defines no performance rating") as caught:
        perf.function("glicko2", [[1400], [1600]], [[1], [0]])
    assert "all wins" not in str(caught.value)
    assert "glicko2" not in perf.args[0].doc.partition("(")[0] and "12" not in perf.args[0].doc.split("rules")[-1]
    assert main(["calc", "glicko2", "--rating", "unrated", "--games", "1400/30 1", "--performance"]) == 1
    err = capsys.readouterr().err
    assert "defines no performance rating" in err and "all wins" not in err


def test_periods_given_for_some_games_only_are_refused_and_rounds_are_per_period():
    players, _ = _season()
    with pytest.raises(InputError, match="period is blank while other games have one"):
        rate(Event(players, (Game("ann", "bob", 1, period="2026-01"), Game("ann", "cid", 1))))
    from xl_elo.loader import from_event

    ok = Event(players, (Game("ann", "bob", 1, 1, period="2026-01"), Game("ann", "bob", 0, 1, period="2026-02")))
    from_event(get("glicko2"), ok)  # the same pair in round 1 of two periods: two games
    with pytest.raises(InputError, match="meet twice in round 1 of the period 2026-01"):
        from_event(get("glicko2"), Event(players, (*ok.games, Game("bob", "ann", 0, 1, period="2026-01"))))


def test_glicko2_update_in_a_spreadsheet():
    from xl_elo.frontends.functions import ArgumentError, by_name

    update_ = by_name()["GLICKO2_UPDATE"].function
    opp, rds, res = [[1400], [None], [1550], [1700], [1600]], [[30], [None], [100], [300], [50]], \
        [[1], [None], [0], ["0-1"], ["+"]]
    assert update_(1500, 200, 0.06, opp, rds, res, 0.5) == [[PAPER_R, PAPER_RD, PAPER_SIGMA]]
    assert update_(None, None, None, opp, rds, res)[0][0] < 1500  # a new player: 1500 / 350 / 0.06
    with pytest.raises(ArgumentError, match="GLICKO2_UPDATE: game 2: give the opponent's rating, his RD"):
        update_(1500, 200, 0.06, [[1400], [1500]], [[30], [None]], [[1], [0]])
    with pytest.raises(ArgumentError, match="argument tau: 2 is out of range"):
        update_(1500, 200, 0.06, opp, rds, res, 2)
    expected_ = by_name()["GLICKO2_EXPECTED"].function
    assert expected_(1500, 200, [[1400], [1550]], [[30], [100]]) == [[pytest.approx(0.639, abs=5e-4)],
                                                                     [pytest.approx(0.432, abs=5e-4)]]


def test_the_ends_of_the_ranges_are_in_them(tmp_path, capsys):
    """A volatility of 0.001 is in "0.001 to 1" (the reading compares the value as written, never with the binary
    float just above 0.001), in calc, in a CSV file and in GLICKO2_UPDATE; 0.0009 is not."""
    from xl_elo.frontends.functions import ArgumentError, by_name

    assert main(["calc", "glicko2", "--rating", "1500", "--rd", "200", "--volatility", "0.001", "--games",
                 "1400/30 1"]) == 0
    capsys.readouterr()
    p, g = tmp_path / "p.csv", tmp_path / "g.csv"
    p.write_text("id,rating,rd,volatility\na,1500,1,0.001\nb,1400,350,1\n", encoding="utf-8")
    g.write_text("player,opponent,result\na,b,1\n", encoding="utf-8")
    assert main(["rate", "-f", "glicko2", "-p", str(p), "-g", str(g), "--format", "csv"]) == 0
    capsys.readouterr()
    update_ = by_name()["GLICKO2_UPDATE"].function
    assert update_(1500, 200, 0.001, [[1400]], [[30]], [[1]])[0][2] == pytest.approx(0.001, rel=1e-3)
    with pytest.raises(ArgumentError, match=r"'0\.0009' is out of range"):
        update_(1500, 200, "0.0009", [[1400]], [[30]], [[1]])


def test_a_rating_off_the_scale_is_refused_naming_the_player(tmp_path, capsys):
    """Rules 12.10: a volatility of 1 with tau 1.2 lets one win over a 3500 move a 1500 to 16,565,653; no rating
    is that (0 to 3500), so the period is refused naming the file, the player's row and his volatility, in calc
    and in GLICKO2_UPDATE too; the next period never computes on it (an expected score of exactly 1 divided by
    zero)."""
    from xl_elo.frontends.functions import ArgumentError, by_name

    p, g = tmp_path / "p.csv", tmp_path / "g.csv"
    p.write_text("id,rating,rd,volatility\na,1500,350,1\nb,3500,30,0.06\n", encoding="utf-8")
    g.write_text("period,player,opponent,result\n2026-01,a,b,1\n2026-02,a,b,1\n", encoding="utf-8")
    assert main(["rate", "-f", "glicko2", "-p", str(p), "-g", str(g), "--tau", "1.2"]) == 1
    err = capsys.readouterr().err
    assert "p.csv, row 2, column 'volatility': player 'a': period 2026-01 ends at a rating of 16,565,653.18, " \
           "outside every rating (0 to 3500)" in err and "internal error" not in err
    assert main(["calc", "glicko2", "--rating", "1500", "--rd", "350", "--volatility", "1", "--tau", "1.2",
                 "--games", "3500/30 1"]) == 1
    assert "--volatility: the period ends at a rating of 16,565,653.18" in capsys.readouterr().err
    with pytest.raises(ArgumentError, match=r"ends at a rating of 16,565,653\.18"):
        by_name()["GLICKO2_UPDATE"].function(1500, 350, 1, [[3500]], [[30]], [[1]], 1.2)
    # within the scale the same volatility is rated: a win over a 2000
    assert main(["calc", "glicko2", "--rating", "1500", "--rd", "350", "--volatility", "1", "--tau", "1.2",
                 "--games", "2000/30 1"]) == 0


def test_glicko2_update_takes_1000_games_in_a_period():
    """The limit of every front end (1,000 rated games for one player in one period): 1,000 are rated, 1,001
    refused."""
    from xl_elo.frontends.functions import ArgumentError, by_name

    update_ = by_name()["GLICKO2_UPDATE"].function
    assert update_(1500, 200, 0.06, [[1500]] * 1000, [[200]] * 1000, [[0.5]] * 1000)[0][0] == pytest.approx(1500)
    with pytest.raises(ArgumentError, match="1,001 rated games"):
        update_(1500, 200, 0.06, [[1500]] * 1001, [[200]] * 1001, [[0.5]] * 1001)


# --------------------------------------------------------------------------- properties

ratings = st.floats(400, 3000)
rds = st.floats(30, 350)
sigmas = st.floats(0.03, 0.12)
game = st.tuples(ratings, rds, st.sampled_from([0.0, 0.5, 1.0]))


@settings(max_examples=40, deadline=None)
@given(ratings, rds, sigmas, st.lists(game, min_size=1, max_size=12), st.sampled_from([0.3, 0.5, 1.2]))
def test_after_a_played_period_the_rd_is_below_the_rd_grown_by_the_volatility(r, rd, sigma, games, tau):
    """phi' = 1 / sqrt(1/phi*^2 + 1/v) < phi* = sqrt(phi^2 + sigma'^2) (Steps 6, 7)."""
    mu, phi = to_scale(r, rd)
    p = update(mu, phi, sigma, [(*to_scale(o, d), s) for o, d, s in games], tau, rd_cap=1000)
    assert p.phi_after < p.phi_star
    assert p.rd_after < SCALE * math.sqrt(phi * phi + p.sigma_after ** 2)


@settings(max_examples=40, deadline=None)
@given(ratings, rds, sigmas, st.lists(st.tuples(ratings, rds), min_size=1, max_size=12))
def test_a_period_of_wins_only_never_lowers_a_rating(r, rd, sigma, opponents):
    new_r, _, _ = paper_update(r, rd, sigma, [(o, d, 1.0) for o, d in opponents])
    assert new_r >= r
    low_r, _, _ = paper_update(r, rd, sigma, [(o, d, 0.0) for o, d in opponents])
    assert low_r <= r


@given(ratings, ratings, rds)
def test_the_expected_score_is_a_probability(r, o, d):
    mu, _ = to_scale(r, 100)
    mu_j, phi_j = to_scale(o, d)
    x = e(mu, mu_j, phi_j)
    assert 0 < x < 1
    assert x + e(mu_j, mu, phi_j) == pytest.approx(1.0)


# --------------------------------------------------------------------------- events for the workbook tests


def random_ladder(seed: int, players: int = 14, games: int = 50,
                  periods: tuple[str, ...] = ("2026-01", "2026-02", "2026-03-15", "2026-03-29", "2026-05")) -> Event:
    """A club ladder's season: new and rated players (ratings with decimals), a few forfeits and byes,
    players idle in some periods (tests/test_workbooks.py fills the template with it)."""
    import random

    rnd = random.Random(seed)
    ps = [Player(f"p{i}", f"Player {i}") if rnd.random() < 0.25 else
          Player(f"p{i}", f"Player {i}", rating=round(rnd.uniform(1100, 2300), rnd.choice([0, 2])),
                 rd=round(rnd.uniform(40, 350), 1), volatility=rnd.choice([0.06, 0.05, 0.09, 0.0612]))
          for i in range(players)]
    gs = []
    for k in range(games):
        a, b = rnd.sample(range(players), 2)
        result = rnd.choice([1, 0, 0.5, 1, 0, "+", "-", "bye"])
        gs.append(Game(f"p{a}", None if result == "bye" else f"p{b}", result, k + 1, period=rnd.choice(periods)))
    return Event(tuple(ps), tuple(gs), name=f"ladder {seed}")


#: Ratings apart in their 15th or 16th digit: written to 15 digits, as a spreadsheet's COUNTIF reads its criterion
#: (``">"&x``), several are 1600 and others 1600.00000000001 or 1599.99999999999.
NEAR_EQUAL = (1600.000000000004, 1599.9999999999966, 1600.0000000000055, 1600.0000000000016, 1599.9999999999989,
              1600.000000000006, 1599.9999999999952, 1600.0000000000027, 1600.0000000000002, 1599.9999999999973)


def near_equal_ladder() -> Event:
    """Ten idle players whose ratings differ in their 15th or 16th digit (:data:`NEAR_EQUAL`), beside two who
    play: the template's ranking once compared them as the text of 15 digits, gave several one rank and dropped
    players from its results sheet (tests/test_workbooks.py)."""
    ps = tuple(Player(f"n{k}", rating=r, rd=80, volatility=0.06) for k, r in enumerate(NEAR_EQUAL))
    ps += (Player("a", rating=1700, rd=60, volatility=0.06), Player("b", rating=1500, rd=60, volatility=0.06))
    return Event(ps, (Game("a", "b", 0.5, 1, period="2026-01"), Game("b", "a", 1, 2, period="2026-01")),
                 name="near equal")


def upset_ladder(steps: bool = False) -> Event:
    """A volatility that moves (a 2100 loses ten times to a 1500), an idle player near the RD cap, a new
    player's first game in the second period; with ``steps``, a 2546 (RD 122, volatility 0.037) losing to a
    2374 (RD 201), whose Step 5 takes 13 steps with tau 0.3 (the paper saw up to 19 in 10,000 periods)."""
    ps = (Player("strong", rating=2100, rd=50, volatility=0.06), Player("weak", rating=1500, rd=50, volatility=0.06),
          Player("idle", rating=1800, rd=340, volatility=0.3), Player("newbie"))
    gs = [Game("strong", "weak", 0, k + 1, period="2026-09") for k in range(10)]
    gs += [Game("newbie", "weak", 1, 1, period="2026-10"), Game("idle", "strong", 0.5, 1, period="2026-11")]
    if steps:
        ps += (Player("wild", rating=2546, rd=122, volatility=0.037), Player("low", rating=2374, rd=201,
                                                                              volatility=0.06))
        gs.append(Game("wild", "low", 0, 11, period="2026-09"))
    return Event(ps, tuple(gs), name="upset")


def test_a_volatility_may_need_more_steps_than_the_template_lays_out():
    """tests/test_workbooks.py shows this case blocked in the template (its 12 steps are too few): the
    engine runs Step 5 to its end."""
    rows = rate(upset_ladder(steps=True), Options(tau=0.3)).by_id()
    mu, phi = to_scale(2546, 122)
    p = update(mu, phi, 0.037, [(*to_scale(2374, 201), 0.0)], 0.3)
    assert p.step5 is not None and p.step5.iterations == 13
    assert rows["wild"]["volatility_after"] == p.sigma_after


def test_elo_rate_takes_a_ladder_with_its_periods():
    from xl_elo.frontends.functions import by_name

    players = [["id", "rating", "rd", "volatility"], ["ann", 1500, 200, 0.06], ["bob", 1400, 30, 0.06],
               ["cid", 1550, 100, 0.06], ["dan", 1700, 300, 0.06], ["eve", None, None, None]]
    games = [["period", "player", "opponent", "result"], ["2026-11", "ann", "bob", 1], ["2026-11", "ann", "cid", 0],
             ["2026-11", "ann", "dan", "0-1"], ["2026-12", "eve", "bob", "½"]]
    table = by_name()["ELO_RATE"].function("GLICKO2", players, games)
    head = table[0]
    rows = {r[0]: dict(zip(head, r, strict=True)) for r in table[1:]}
    assert rows["ann"]["rating_after"] == PAPER_R and rows["ann"]["last_period"] == "2026-11"
    assert rows["ann"]["rd_after"] == pytest.approx(SCALE * math.hypot(PAPER_RD / SCALE, PAPER_SIGMA))
    assert rows["eve"]["status"] == "new" and rows["eve"]["periods_played"] == 1


def test_the_engine_names_the_games_and_the_facts_each_front_end_its_own_words(capsys):
    """The engine says what is missing (a rated player's RD and volatility, rules 12.2); calc names its
    flags, ELO_CHANGE its arguments and the functions that take what it cannot."""
    from xl_elo.frontends.cli import main
    from xl_elo.frontends.functions import ArgumentError, by_name

    assert main(["calc", "glicko2", "--rating", "1500", "--games", "1400/30 1"]) == 1
    err = capsys.readouterr().err
    assert "--rd: player 'player': a rated player needs his RD (rules 12.2)" in err
    assert "--volatility: player 'player': a rated player needs his volatility (rules 12.2)" in err
    with pytest.raises(ArgumentError) as exc:
        by_name()["ELO_CHANGE"].function("glicko2", 1500.0, [[1400.0]], [[1.0]])
    assert str(exc.value) == ("GLICKO2: a rated player needs his RD (rules 12.2); a rated player needs his volatility "
                              "(rules 12.2): ELO_CHANGE takes no rd or volatility, use GLICKO2_UPDATE or "
                              "GLICKO2_EXPECTED")


# --------------------------------------------------------------------------- every threshold, at it and beside it


@pytest.mark.parametrize("rd, refused", [(349.9, False), (350, False), (350.1, True)])
def test_the_rd_cap_edge_of_a_rated_player(rd, refused, capsys):
    """Rules 12.10: no RD above the cap (350) is stored, so a rated player's RD above it is an input error."""
    code = main(["calc", "glicko2", "--rating", "1500", "--rd", str(rd), "--volatility", "0.06", "--games",
                 "1500/100 1"])
    assert (code != 0) == refused
    if refused:
        assert "above the cap 350" in capsys.readouterr().err


@pytest.mark.parametrize("rd, after", [
    # rules 12.6: an idle player's RD grows to 173.7178 sqrt(phi^2 + sigma^2), capped at 350: from 349.9 with
    # sigma 0.06, sqrt(349.9^2 + (173.7178 x 0.06)^2) = 350.055, capped; from 340, 340.159
    (340.0, math.sqrt(340.0 ** 2 + (173.7178 * 0.06) ** 2)), (349.9, 350.0),
])
def test_the_rd_cap_edge_of_an_idle_player(rd, after):
    players = (get("glicko2").Player("idle", rating=1500, rd=rd, volatility=0.06),
               get("glicko2").Player("a", rating=1500, rd=100, volatility=0.06),
               get("glicko2").Player("b", rating=1500, rd=100, volatility=0.06))
    row = get("glicko2").rate(Event(players, (Game("a", "b", 1, 1),))).by_id()["idle"]
    assert row["rd_after"] == pytest.approx(after, abs=1e-6)


@pytest.mark.parametrize("tau, refused", [(0.29, True), (0.3, False), (1.2, False), (1.21, True)])
def test_the_tau_range_edges(tau, refused, capsys):
    code = main(["calc", "glicko2", "--rating", "1500", "--rd", "200", "--volatility", "0.06", "--tau", str(tau),
                 "--games", "1400/30 1"])
    assert (code != 0) == refused
    capsys.readouterr()


@pytest.mark.parametrize("rd, refused", [(0.9, True), (1, False), (1000, True)])
def test_the_rd_range_edges(rd, refused, capsys):
    """An RD is read from 1 to 1000 (rules 12.1); a rated player's above the cap 350 is refused too."""
    code = main(["calc", "glicko2", "--rating", "1500", "--rd", str(rd), "--volatility", "0.06", "--games",
                 "1400/30 1"])
    assert (code != 0) == refused
    capsys.readouterr()

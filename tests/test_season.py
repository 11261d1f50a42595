"""Seasons (rules 14): a season rated in one run is the season rated unit by unit, each results table typed back
in as the next players table, for every system; the units follow each system's cadence."""

from __future__ import annotations

import csv
import io
import json
from datetime import date
from importlib import resources
from pathlib import Path

import pytest

from xl_elo.federations import get, registry
from xl_elo.frontends.cli import main
from xl_elo.season import carried

CODES = list(registry())

#: Three days a season's units fall on, by cadence: each in its own unit (rules 14.2).
DAYS = {
    "month": ("2026-01-10", "2026-02-10", "2026-03-10"),
    "two months": ("2026-01-10", "2026-03-10", "2026-05-10"),
    "four months": ("2026-01-10", "2026-05-10", "2026-09-10"),
    "event": ("2026-01-10", "2026-02-10", "2026-03-10"),
    "rating period": ("2026-01", "2026-02", "2026-03"),
}


def _example(code: str) -> tuple[Path, list[str], list[list[str]]]:
    """A system's example folder, and its games table's header and rows without a period column."""
    folder = Path(str(resources.files(get(code).PACKAGE) / "example"))
    with (folder / "games.csv").open(encoding="utf-8") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    if "period" in header:  # a ladder's example names its period: the season names its own
        j = header.index("period")
        header = header[:j] + header[j + 1:]
        body = [r[:j] + r[j + 1:] for r in body]
    return folder, header, body


def _write(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([header, *rows])
    return path


def _table(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8") as f:
        return list(csv.reader(f))


def _run(*argv: str) -> None:
    assert main(list(argv), stdout=io.StringIO(), stderr=io.StringIO()) == 0, argv


@pytest.mark.parametrize("code", CODES)
def test_a_season_is_its_units_rated_one_by_one(code, tmp_path):
    """Rules 14.3: the example's games played three times, in three of the system's units, rated as a season
    in one run, give the same results table, cell for cell, as each unit rated by itself with the results of the
    one before typed back in as its players table (and its history table, FESA's and the DSB's; a ladder, whose
    engine rates its periods at once and gives the whole run's figures, the same next list)."""
    system = get(code)
    folder, header, games = _example(code)
    days = DAYS[system.CADENCE.unit]
    column = "period" if system.CADENCE.as_given else "date"
    season_rows = [[day, f"E{k + 1}", *g] for k, day in enumerate(days) for g in games]
    season = _write(tmp_path / "season.csv", [column, "event", *header], season_rows)
    history = folder / "history.csv"
    extra = ["--history", str(history)] if history.exists() else []
    hist_out = ["--history-output", str(tmp_path / "season_history.csv")] if extra else []
    _run("rate", "-f", code, "-p", str(folder / "players.csv"), "-g", str(season), *extra, "--format", "csv",
         "-o", str(tmp_path / "season_results.csv"), *hist_out, "--season-output", str(tmp_path / "season.json"))
    units = json.loads((tmp_path / "season.json").read_text(encoding="utf-8"))["units"]
    assert len(units) == 3 and [u["events"] for u in units] == [["E1"], ["E2"], ["E3"]]
    # by hand: each unit's games alone, from the results (and history) the unit before left
    players, past = folder / "players.csv", history if history.exists() else None
    for k, unit in enumerate(units):
        if system.CADENCE.as_given:  # a ladder's games name their rating period (rules 12.7)
            one = _write(tmp_path / f"games_{k}.csv", ["period", *header], [[unit["period"], *g] for g in games])
            period = []
        else:
            one = _write(tmp_path / f"games_{k}.csv", header, games)
            period = ["--period", unit["period"]] if unit["period"] else []
        out = tmp_path / f"results_{k}.csv"
        more = ["--history", str(past), "--history-output", str(tmp_path / f"history_{k}.csv")] if past else []
        _run("rate", "-f", code, "-p", str(players), "-g", str(one), *period, *more, "--format", "csv", "-o",
             str(out))
        players, past = out, (tmp_path / f"history_{k}.csv" if past else None)
    season_table, by_hand = _table(tmp_path / "season_results.csv"), _table(Path(players))
    if system.PERIODS:  # a ladder rates its periods at once: its run's figures are the season's, its list the same
        kept = {"id", *carried(system, season_table[0]).values()}
        season_table = [[c for c, h in zip(r, season_table[0], strict=True) if h in kept] for r in season_table]
        by_hand = [[c for c, h in zip(r, by_hand[0], strict=True) if h in kept] for r in by_hand]
    assert season_table == by_hand
    if past is not None:
        assert (tmp_path / "season_history.csv").read_bytes() == past.read_bytes()


def test_the_units_follow_each_cadence():
    """Rules 14.2: FIDE's months, the FSE's two months from January, the FFE's four months from September."""
    assert get("fide").CADENCE.period_of(date(2026, 2, 28)) == "2026-02"
    assert get("fse").CADENCE.period_of(date(2026, 4, 30)) == "2026-03"
    assert get("ffe").CADENCE.period_of(date(2026, 12, 31)) == "2026-09"
    assert get("ffe").CADENCE.period_of(date(2027, 4, 30)) == "2027-01"
    assert get("ffe").CADENCE.period_of(date(2027, 8, 1)) == "2027-05"


def test_a_fide_event_started_before_its_period_counts_with_the_list_then(tmp_path):
    """Rules 14.4 and 2.11: an event that ended in February but started in January is rated in February's period
    with the players' ratings of January's list (the one December's period left, here the season's first)."""
    _write(tmp_path / "players.csv", ["id", "rating", "games"], [["a", "2000", "100"], ["b", "1800", "100"],
                                                                  ["c", "1900", "100"]])
    _write(tmp_path / "games.csv", ["event", "date", "round", "player", "opponent", "result"], [
        ["Jan open", "2026-01-05", "1", "a", "c", "0"],  # January: a 2000 loses to c 1900
        ["Winter", "2026-01-30", "1", "a", "b", "1"],  # Winter starts in January, ends in February
        ["Winter", "2026-02-02", "2", "b", "c", "1"],
    ])
    out = io.StringIO()
    assert main(["rate", "-f", "fide", "-p", str(tmp_path / "players.csv"), "-g", str(tmp_path / "games.csv"),
                 "--format", "json"], stdout=out, stderr=io.StringIO()) == 0
    rows = {r["id"]: r for r in json.loads(out.getvalue())["results"]}
    # January (period 2026-01): Jan open only: a 2000 v c 1900, diff 100, PD 0.64: a -13 (20 x -0.64 = -12.8)
    # February (period 2026-02): Winter started in January, so its ratings are January's list, the season's first:
    # a 2000 v b 1800 (diff 200, PD 0.76): a +4.8; the period's rating is February's: 2000 - 13 = 1987 + 5 = 1992
    assert rows["a"]["rating_before"] == 1987 and rows["a"]["rating_after"] == 1992


def test_elo_history_spills_a_players_ratings_over_the_season():
    """Rules 14.5: ELO_HISTORY gives the units in time order and the player's rating after each, by FQE's rules 4:
    Ann, 1800 permanent, beats Bob 1650 in Spring (difference 150: 0.70, 32 x 0.30 = 9.6 -> +10, 1810); Dan,
    unrated, beats Cid 1500 (Cm + 400 (W - L) / n = 1900, provisional after 1 game); in Summer Ann, 1810, beats Dan
    counted at 1900 (difference -90: 0.37, 32 x 0.63 = 20.16 -> +20, 1830), and Dan's performance 1810 - 400 =
    1410 averages with his 1900 over 1 + 1 games: 1655."""
    from xl_elo.frontends.addin import calls
    from xl_elo.frontends.functions import ArgumentError, by_name

    players = [["id", "rating", "games"], ["ann", 1800, 40], ["bob", 1650, 30], ["cid", 1500, 26], ["dan", None, 0]]
    games = [["event", "date", "round", "player", "opponent", "result"], ["Spring", "2026-03-01", 1, "ann", "bob", 1],
             ["Spring", "2026-03-01", 1, "cid", "dan", 0], ["Summer", "2026-06-05", 1, "ann", "dan", 1]]
    history = by_name()["ELO_HISTORY"]
    assert history.function("fqe", players, games, "ann") == [["Spring", "Summer"], [1810, 1830]]
    assert history.function("fqe", players, games, "dan") == [["Spring", "Summer"], [1900, 1655]]
    spilled = calls.call(history, ([["fqe"]], players, games, [["ann"]], [[None]], [[None]]))  # in LibreOffice
    assert [list(r) for r in spilled] == [["Spring", "Summer"], [1810.0, 1830.0]]
    with pytest.raises(ArgumentError, match="'eve' is not an id of the players table"):
        history.function("fqe", players, games, "eve")


def test_several_filled_workbooks_are_a_season(tmp_path):
    """Rules 14: two filled templates rated together are two events, the second from the list the first left
    (the FQE's worked example twice: Daniel 1876 -> 2012 (rules 4.6), then from 2012)."""
    from dataclasses import replace

    from xl_elo.formats.workbook import fill_template
    from xl_elo.loader import example
    from xl_elo.templates import build_template

    template = build_template("fqe", tmp_path / "templates")
    event = example("fqe").event
    first = fill_template(template, event, tmp_path / "open.xlsx")
    second = fill_template(template, replace(event, name="Second open"), tmp_path / "second.xlsx")
    out, err = io.StringIO(), io.StringIO()
    assert main(["rate", str(first), str(second), "--format", "json"], stdout=out, stderr=err) == 0
    rows = {r["id"]: r for r in json.loads(out.getvalue())["results"]}
    assert rows["daniel"]["rating_before"] == 2012 and "rated as a season" in err.getvalue()
    by_hand = tmp_path / "after_first.csv"
    _run("rate", str(first), "--format", "csv", "-o", str(by_hand))
    _run("rate", "-f", "fqe", "-p", str(by_hand), "-g", str(Path(str(resources.files(get("fqe").PACKAGE) / "example"))
                                                              / "games.csv"), "--format", "json", "-o",
         str(tmp_path / "second.json"))
    again = {r["id"]: r for r in json.loads((tmp_path / "second.json").read_text(encoding="utf-8"))["results"]}
    assert rows["daniel"]["rating_after"] == again["daniel"]["rating_after"]

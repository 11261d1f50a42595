"""A season in the spreadsheet (rules 14.3): each period or event template's next players table (and next history
table) pasted into a fresh copy is the list the next one starts from, as ``xl-elo rate`` chains a season.

Every system with a template (the registry's declarations, no system named): its first period's event typed into a
template and recalculated in LibreOffice; its block's values pasted into a fresh copy as cell values (as a user's
Paste Values leaves them), the next period's games typed in, recalculated again; then its results against ``xl-elo
rate`` run on the two periods as one season (CSV files, a ``date`` or ``period`` column and an ``event`` column, as
``tests/test_season.py`` rates one). The two LibreOffice runs (the first periods, then the second ones) happen in a
child process started when the tests are collected, like ``test_workbooks.py``'s (conftest.py), while the other
modules' tests run.
"""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from background import Background
from gen import random_event

from xl_elo import words
from xl_elo.federations import get, registry
from xl_elo.federations.contract import options_of
from xl_elo.formats.libreoffice import recalculate_many, soffice
from xl_elo.formats.workbook import compare, fill_template, read_workbook, same, write_cells
from xl_elo.frontends.cli import main
from xl_elo.loader import example_event
from xl_elo.model import Event, InputError, facts
from xl_elo.season import carried
from xl_elo.templates import Capacity, build_template, spec_module

NEED_LO = os.environ.get("XL_ELO_REQUIRE_LIBREOFFICE") == "1"
lo = pytest.mark.skipif(soffice() is None and not NEED_LO,
                        reason="LibreOffice (soffice) is not installed: the workbook recalculation tests are skipped")

#: Two days of a system's cadence that fall in two consecutive units (rules 14.2), and a ladder's two periods.
DAYS = {"month": ("2026-01-10", "2026-02-10"), "two months": ("2026-01-10", "2026-03-10"),
        "four months": ("2026-01-10", "2026-05-10"), "event": ("2026-01-10", "2026-02-10"),
        "rating period": ("2026-01", "2026-02")}
#: The tests' rooms: the same formulas as the shipped ones, fewer rows.
ROOM = Capacity(24, 60, 60, 4)


@dataclass
class Carry:
    """One system's season of two periods: the events, and the files its LibreOffice runs make."""

    id: str
    code: str
    first: Event
    second: Event
    options: dict[str, Any]


def _systems() -> list[str]:
    """Every system that has a period or event template (the registry's declarations)."""
    return [code for code, m in registry().items() if m.TEMPLATE]


def carries() -> list[Carry]:
    """Each system's example event, then its games again (as ``tests/test_season.py`` plays them); the DSB's and
    FIDE's with players who carry something more: remaining games (no first DWZ), a first rating over two periods."""
    out = []
    for code in _systems():
        ev = example_event(code)
        if code == "dwz":  # unrated players who get no first DWZ carry their games to the next tournament
            ev = random_event(1, 20, 4, unrated=0.3, federation="dwz", period="2014-07")
        if code == "fide":  # some unrated, juniors, 2400 reached: what a FIDE list carries
            ev = random_event(11, 20, 5, unrated=0.3, federation="fide")
        out.append(Carry(f"carry-{code}", code, ev, ev, {}))
    return out


# --------------------------------------------------------------------------- the FIDE season template's cases

#: The season template's room in the tests: its formulas, twelve months, fewer rows.
SEASON_ROOM = Capacity(20, 250, 0, 12)
#: The room of the season template's copies with a mistake: the first games of the season.
MISTAKE_ROOM = Capacity(20, 40, 0, 12)
#: The season's twelve months: July 2026 to June 2027 (a junior born in 2008 is 18 in the first six, 19 after).
MONTHS = [f"{2026 + (6 + k) // 12}-{(6 + k) % 12 + 1:02d}" for k in range(12)]


@dataclass
class SeasonCase:
    """A filled FIDE season template: its event, and the games row and words of its one mistake (None: valid)."""

    id: str
    event: Event
    row: int | None = None
    words: str | None = None


def club_season() -> Event:
    """A club's year on FIDE's list (rules 2, 14): a player who reaches 2400 in the first month (K 20, then 10), one
    who passes 30 games in it (K 40, then 20), a junior born in 2008 (K 40 in 2026, 20 in 2027 at 19), one who falls
    below the floor (shown unrated after), two unrated players (a first rating, or none), a month without a game;
    the other games random pairings of everyone, two rounds a month, results by strength."""
    import numpy as np

    from xl_elo.core import parse_result

    fide = get("fide")
    rng = np.random.default_rng(2026)
    people = {
        "hi": (2392, 300, 1975), "n30": (1800, 27, 1990), "jr": (1900, 150, 2008), "lo": (1410, 60, 1970),
        "u1": (None, 0, 1995), "u2": (None, 0, 1999),
        **{f"m{k:02d}": (int(1500 + 60 * k), 100, 1960 + 2 * k) for k in range(1, 15)},
    }
    players = [fide.Player(pid, pid.upper(), rating, games=games, birth_year=born, ever_2400=False)
               for pid, (rating, games, born) in people.items()]
    games: list[Any] = []

    def play(month: int, rnd: int, a: str, b: str, result: Any) -> None:
        games.append(fide.Game(a, b, parse_result(result), rnd, period=MONTHS[month - 1]))

    # month 1: hi beats two 2300s (2392 -> 2400 or more); n30 plays four (27 + 4 games); u1, u2 three each
    play(1, 1, "hi", "m13", 1)
    play(1, 2, "hi", "m14", 1)
    for rnd, opp in enumerate(("m03", "m04", "m05", "m06"), start=1):
        play(1, rnd, "n30", opp, "½")
    for rnd, opp in enumerate(("m01", "m02", "m07"), start=1):
        play(1, rnd, "u1", opp, 1 if rnd == 1 else 0)
        play(1, rnd, "u2", opp, "½")
    # month 2: lo loses three (below 1400); u2 plays five more against rated players
    for rnd, opp in enumerate(("m01", "m02", "m03"), start=1):
        play(2, rnd, "lo", opp, 0)
    for rnd, opp in enumerate(("m08", "m09", "m10", "m11", "m12"), start=1):
        play(2, rnd, "u2", opp, 1 if rnd < 3 else 0)
    ids = [p.id for p in players]
    strength = {p.id: p.rating or 1600 for p in players}
    for month in range(1, 13):
        if month == 5:  # November 2026: no game
            continue
        for rnd in (11, 12):
            order = list(rng.permutation(ids))
            for a, b in zip(order[::2], order[1::2], strict=True):
                e = 1 / (1 + 10 ** ((strength[b] - strength[a]) / 400))
                u = rng.random()
                play(month, rnd, a, b, 1 if u < e - 0.1 else "½" if u < e + 0.1 else 0)
    return Event(tuple(players), tuple(games), (), MONTHS[0], "club season")


def season_cases() -> list[SeasonCase]:
    """The season, and copies of its first games with one mistake each (a games row's own words, or the banner's:
    in a smaller room, :data:`MISTAKE_ROOM`)."""
    whole = club_season()
    ev = replace(whole, games=whole.games[:MISTAKE_ROOM.games])
    g = ev.games

    def with_game(k: int, **changes: Any) -> Event:
        return replace(ev, games=(*g[:k], replace(g[k], **changes), *g[k + 1:]))

    twice = next(k for k in range(1, len(g)) if g[k].period == g[k - 1].period and g[k].round == g[k - 1].round)
    return [
        SeasonCase("season", whole),
        SeasonCase("season-bad-month", with_game(3, period="2026-13"), 5,
                   "period: '2026-13' is not a month (expected the game's period as YYYY-MM, e.g. 2026-10)"),
        SeasonCase("season-twice", with_game(twice, player=g[twice - 1].player, opponent=g[twice - 1].opponent),
                   twice + 2, "meet twice in round"),
        SeasonCase("season-blank-month", with_game(11, period=None), 13,
                   "period: the game's period is blank while other games have one"),
        SeasonCase("season-outside", with_game(7, period="2027-07"), None,
                   "a game's month is outside the season's twelve, 2026-07 to 2027-06 (games row 9"),
    ]


# --------------------------------------------------------------------------- the season by xl-elo rate


def _player_cells(ev: Event) -> tuple[list[str], list[list[Any]]]:
    from xl_elo.formats.workbook import _cell

    columns = ["id", "name", "rating", *(f.name for f in facts(type(ev.players[0])))]
    return columns, [[_cell(getattr(p, c)) for c in columns] for p in ev.players]


def _write_csv(path: Path, header: list[str], rows: list[list[Any]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([header, *[["" if v is None else v for v in r] for r in rows]])
    return path


def season_by_cli(c: Carry, folder: Path, whole: bool = False) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """``xl-elo rate`` on the two periods as one season (``whole``: on ``c.first``, its games naming their months
    in their ``period`` column, as the season template takes them): its results (the list after the last) and its
    season output (its units, each player's history and his rating after each unit)."""
    from xl_elo.formats.workbook import game_cells

    system = get(c.code)
    folder.mkdir(parents=True, exist_ok=True)
    header, players = _player_cells(c.first)
    _write_csv(folder / "players.csv", header, players)
    if whole:
        _write_csv(folder / "games.csv", *game_cells(c.first.games))
    else:
        days = DAYS[system.CADENCE.unit]
        column = "period" if system.CADENCE.as_given else "date"
        rows = []
        for k, (ev, day) in enumerate(((c.first, days[0]), (c.second, days[1]))):
            g_head, g_rows = game_cells(ev.games)
            at = g_head.index("period")
            rows += [[*r[:at], day, f"E{k + 1}"] for r in g_rows]
        _write_csv(folder / "games.csv", [*g_head[:at], column, "event"], rows)
    more = []
    if c.first.history or system.takes_history:
        _write_csv(folder / "history.csv", ["id", "opponent_rating", "result"],
                   [[h.id, h.opponent_rating, h.result] for h in c.first.history])
        more = ["--history", str(folder / "history.csv")]
    opts = [f"--{k.replace('_', '-')}={v}" for k, v in c.options.items()]
    out = io.StringIO()
    assert main(["rate", "-f", c.code, "-p", str(folder / "players.csv"), "-g", str(folder / "games.csv"), *more,
                 *opts, "--format", "json", "--season-output", str(folder / "season.json")],
                stdout=out, stderr=io.StringIO()) == 0
    season = json.loads((folder / "season.json").read_text(encoding="utf-8"))
    return json.loads(out.getvalue())["results"], season


# --------------------------------------------------------------------------- the spreadsheet


def _unit_event(c: Carry, ev: Event, unit: dict[str, Any]) -> Event:
    """An event as the template of its unit takes it: its period (a ladder's games name theirs)."""
    system = get(c.code)
    if system.CADENCE.as_given:
        return replace(ev, games=tuple(replace(g, period=unit["period"]) for g in ev.games), period=None)
    return replace(ev, period=unit["period"])


def block(path: Path, name: str) -> list[list[Any]]:
    """A block of a recalculated workbook's results sheet, by its name (``next_players``), as cell values; its
    empty rows at the end left out (a user selects the rows he sees)."""
    import openpyxl

    wb = openpyxl.load_workbook(path, data_only=True, read_only=True)
    try:
        sheet, ref = next(iter(wb.defined_names[name].destinations))
        first, last = ref.replace("$", "").split(":")
        rows = [list(r) for r in wb[sheet].iter_rows(min_row=int("".join(filter(str.isdigit, first))),
                                                     max_row=int("".join(filter(str.isdigit, last))),
                                                     min_col=_column(first), max_col=_column(last), values_only=True)]
    finally:
        wb.close()
    while rows and all(v in (None, "") for v in rows[-1]):
        rows.pop()
    return rows


def headings(path: Path, name: str) -> tuple[list[Any], list[Any]]:
    """A block's headings (the results sheet's row 3 over its columns) and the headings of the input sheet it is
    pasted into, as many (that sheet's row 1 from A)."""
    import openpyxl

    wb = openpyxl.load_workbook(path, data_only=True, read_only=True)
    try:
        sheet, ref = next(iter(wb.defined_names[name].destinations))
        first, last = (_column(x) for x in ref.replace("$", "").split(":"))
        mine = [c for row in wb[sheet].iter_rows(min_row=3, max_row=3, min_col=first, max_col=last, values_only=True)
                for c in row]
        into = {"next_players": "players", "next_history": "history"}[name]
        theirs = [c for row in wb[into].iter_rows(min_row=1, max_row=1, min_col=1, max_col=len(mine),
                                                  values_only=True) for c in row]
    finally:
        wb.close()
    return mine, theirs


def _column(ref: str) -> int:
    from openpyxl.utils import column_index_from_string

    return column_index_from_string("".join(filter(str.isalpha, ref)))


def pasted(template: Path, first: Path, target: Path, ev: Event, options: dict[str, Any]) -> Path:
    """A fresh copy of ``template``: the first period's blocks pasted as values (players sheet, history sheet at A2),
    the next period's games and settings typed in."""
    from xl_elo.formats.workbook import game_cells

    module = spec_module_of(template)
    players = [i.name for i in module.players]
    tables = {"players": (players, block(first, "next_players")), "games": game_cells(ev.games)}
    if module.history is not None:
        tables["history"] = ([i.name for i in module.history], block(first, "next_history"))
    settings = {"period": ev.period, **{f"opt_{k}": v for k, v in options.items()}}
    return write_cells(template, target, tables, settings)


def spec_module_of(template: Path) -> Any:
    """The template spec a workbook was built from (its federation, recorded in the workbook)."""
    import openpyxl

    from xl_elo.formats.workbook import federation_of

    wb = openpyxl.load_workbook(template, read_only=True)
    try:
        code = federation_of(wb, template.name, get)
    finally:
        wb.close()
    return spec_module(code).spec(ROOM)


def prepare(base: Path) -> dict[str, Any]:
    """Both LibreOffice runs: every first period, then every second one from the first's blocks; and each season by
    ``xl-elo rate``."""
    templates, firsts, seconds, seasons = {}, {}, {}, {}
    for c in carries():
        seasons[c.id] = season_by_cli(c, base / "cli" / c.id)
        units = seasons[c.id][1]["units"]
        templates[c.id] = build_template(c.code, base / "templates" / c.id, ROOM)
        firsts[c.id] = fill_template(templates[c.id], _unit_event(c, c.first, units[0]),
                                     base / "first" / f"{c.id}.xlsx", c.options)
    season_templates = {room: build_template("fide-season", base / "templates" / f"fide-season-{room.games}", room)
                        for room in (SEASON_ROOM, MISTAKE_ROOM)}
    for case in season_cases():  # the FIDE season template's files join the first batch
        template = season_templates[SEASON_ROOM if case.words is None else MISTAKE_ROOM]
        firsts[case.id] = fill_template(template, case.event, base / "first" / f"{case.id}.xlsx")
        if case.id == "season":
            seasons[case.id] = season_by_cli(Carry(case.id, "fide", case.event, case.event, {}), base / "cli" / case.id,
                                             whole=True)
    done_first = dict(zip(firsts, recalculate_many(list(firsts.values()), base / "first_done",
                                                   timeout=RECALCULATION_SECONDS), strict=True))
    for c in carries():
        units = seasons[c.id][1]["units"]
        seconds[c.id] = pasted(templates[c.id], done_first[c.id], base / "second" / f"{c.id}.xlsx",
                               _unit_event(c, c.second, units[1]), c.options)
    done_second = dict(zip(seconds, recalculate_many(list(seconds.values()), base / "second_done",
                                                     timeout=RECALCULATION_SECONDS), strict=True))
    return {"first": {k: str(v) for k, v in done_first.items()}, "second": {k: str(v) for k, v in done_second.items()},
            "seasons": seasons}


#: How long each LibreOffice run may take on a busy 2-core machine.
RECALCULATION_SECONDS = 600.0
#: The background preparation started when the tests are collected (conftest.py, tests/background.py).
BACKGROUND = Background("seasons", prepare, 2 * RECALCULATION_SECONDS + 120)
start_recalculation, stop_recalculation = BACKGROUND.start, BACKGROUND.stop


@pytest.fixture(scope="module")
def recalculated(tmp_path_factory) -> dict[str, Any]:
    return BACKGROUND.result(lambda: tmp_path_factory.mktemp("seasons"))


# --------------------------------------------------------------------------- the tests


@lo
@pytest.mark.parametrize("c", carries(), ids=lambda c: c.id)
def test_the_next_players_table_pasted_is_the_season_rated_in_one_run(recalculated, c):
    """Rules 14.3: the second period's template, its players (and history) pasted from the first's blocks, gives the
    results ``xl-elo rate`` gives for the two periods as one season, every results cell (a ladder, whose engine rates
    its periods at once with its run's own figures: the list it carries)."""
    first = read_workbook(Path(recalculated["first"][c.id]))
    assert first.calculated and first.banner and not first.banner.startswith(("1 ", "2 "))
    for name in ("next_players", "next_history") if get(c.code).takes_history else ("next_players",):
        mine, theirs = headings(Path(recalculated["first"][c.id]), name)
        assert mine == theirs and all(mine), (name, mine, theirs)  # headed and ordered as the sheet it goes into
    second = read_workbook(Path(recalculated["second"][c.id]))
    assert second.calculated
    results, season = recalculated["seasons"][c.id]
    assert len(season["units"]) == 2
    system = get(c.code)
    engine = system.rate(second.event, options_of(system.Options, None, **second.options))
    assert not compare(second, engine)  # the second copy agrees with the engine on what was pasted into it
    kept = {"id", *carried(system, [col.name for col in system.COLUMNS]).values()} if system.PERIODS else None
    differences = []
    assert sorted(second.computed) == sorted(str(row["id"]) for row in results)
    for row in results:
        mine = second.computed[str(row["id"])]
        for column in system.COLUMNS:
            if column.kind == "note" or (kept is not None and column.name not in kept):
                continue
            engine = words.translate_value(row.get(column.name), second.language)  # a template's words: its own
            if not same(column.exact, mine.get(column.name), engine):
                differences.append((row["id"], column.name, mine.get(column.name), row.get(column.name)))
    assert not differences, differences[:10]


def _named(path: Path, name: str) -> list[Any]:
    """A named column's values in a recalculated workbook."""
    import openpyxl

    wb = openpyxl.load_workbook(path, data_only=True, read_only=True)
    try:
        sheet, ref = next(iter(wb.defined_names[name].destinations))
        cells = wb[sheet][ref.replace("$", "")]
        return [cells.value] if not isinstance(cells, tuple) else [row[0].value for row in cells]
    finally:
        wb.close()


def _shown(value: Any) -> Any:
    return None if value in (None, "") else value


@lo
def test_the_fide_season_template_is_the_season_xl_elo_rates(recalculated):
    """Rules 2, 14: the FIDE season template, twelve months of a club's games, gives what ``xl-elo rate -f fide``
    gives for them as a season: every results column after the last month, each player's rating after each
    month, and K month by month (2400 reached, 30 games passed, a junior's 19th year)."""
    path = Path(recalculated["first"]["season"])
    filled = read_workbook(path)
    assert filled.calculated and filled.banner == "Results valid: every input checked", filled.banner
    results, season = recalculated["seasons"]["season"]
    assert sorted(filled.computed) == sorted(str(row["id"]) for row in results)
    system = get("fide")
    differences = []
    for row in results:
        mine = filled.computed[str(row["id"])]
        for column in system.COLUMNS:
            if column.kind != "note" and not same(column.exact, mine.get(column.name), row.get(column.name)):
                differences.append((row["id"], column.name, mine.get(column.name), row.get(column.name)))
    assert not differences, differences[:10]

    # each month's list: the rating after the latest unit up to it (a month without a game changes nobody)
    units = [u["period"] for u in season["units"]]
    assert "2026-11" not in units and len(units) == 11
    start = {p.id: p.rating for p in club_season().players}
    after = {entry["id"]: dict(zip(units, entry["ratings"], strict=True)) for entry in season["lists"]}
    shown = {t: _named(path, f"r_after_{t}") for t in range(1, 13)}
    for k, pid in enumerate(_named(path, "r_id")):
        if pid in (None, ""):
            continue
        rating = start[pid]
        for t, month in enumerate(MONTHS, start=1):
            rating = after[pid].get(month, rating) if month in units else rating
            got = _shown(shown[t][k])
            assert (got is None and rating is None) or (got is not None and rating is not None and
                                                        round(float(got)) == round(float(rating))), (pid, month, got,
                                                                                                     rating)

    # K month by month, as the engine's history gives it for each unit a player played in
    ks = {t: dict(zip(_named(path, f"p{t}_key"), _named(path, f"p{t}_k"), strict=True)) for t in range(1, 13)}
    history = {(h["id"], h["unit"]): h for h in season["history"]}
    for (pid, unit), h in history.items():
        if h["k"] is not None:
            assert ks[MONTHS.index(unit) + 1][pid] == h["k"], (pid, unit, ks[MONTHS.index(unit) + 1][pid], h["k"])
    # the case exercises what it says: K falls for 2400 reached, 30 games passed and a junior turned 19
    k_of = {(pid, unit): h["k"] for (pid, unit), h in history.items()}
    assert (k_of[("hi", MONTHS[0])], k_of[("hi", MONTHS[1])]) == (20, 10)
    assert (k_of[("n30", MONTHS[0])], k_of[("n30", MONTHS[1])]) == (40, 20)
    jr = [k_of[("jr", m)] for m in MONTHS if ("jr", m) in k_of]
    assert jr[0] == 40 and jr[-1] == 20
    assert after["lo"][MONTHS[1]] is None and after["u2"][MONTHS[1]] is not None


@lo
@pytest.mark.parametrize("case", [c for c in season_cases() if c.words is not None], ids=lambda c: c.id)
def test_a_mistake_in_the_fide_season_template_is_flagged(recalculated, case):
    """A season's mistakes as the period template flags them (rules 8, 14.1): on the games row, in the reader's
    words, or in the banner for a game outside the twelve months; no rating shown while one is open."""
    path = Path(recalculated["first"][case.id])
    banner = _named(path, "results_banner")[0]
    assert "not valid" in banner, banner
    assert all(v in (None, "") for v in _named(path, "r_rating_after"))
    if case.row is None:
        assert case.words in banner, banner
        return
    problems = _named(path, "game_problem")
    assert case.words in (problems[case.row - 2] or ""), problems[case.row - 2]
    assert sum(1 for p in problems if p) == 1, [p for p in problems if p]
    with pytest.raises(InputError) as refused:
        read_workbook(path)
    found = [p for p in refused.value.problems if p.row == case.row]
    assert len(found) == 1 and found[0].message in problems[case.row - 2], (refused.value.problems, problems)


if __name__ == "__main__":  # a quick look: python tests/test_season_templates.py DIR
    import sys

    got = prepare(Path(sys.argv[1]))
    print(json.dumps({k: v for k, v in got.items() if k != "seasons"}, indent=1))

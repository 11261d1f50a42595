"""Ratings over time: a season of periods or events rated in order (rules 14).

A games table that gives each game's ``period`` (or the day it was played) or ``event`` holds a season: its
games are split into the system's units (its :attr:`~xl_elo.federations.contract.RatingSystem.CADENCE`: FIDE's
months, the FSE's two months, the FFE's three periods a year, event after event for the others, a ladder's
own periods), rated in time order, each unit from the list the one before left: its results read back as the
next players table exactly as a user types a results table back in (:func:`next_players`, the reader's own
reading of a results table's headings), the history table (FESA, DWZ) carried the same way. A system that rates
each event from the list in force at its start (FIDE, rules 2.11) has its games' start ratings filled from the
season's own lists where the input does not give them.

:func:`units` splits a table into units, :func:`rate_season` rates them; :class:`Season` holds every unit's
results: the list after the last one (:attr:`Season.final`), each player's history (:meth:`Season.history`)
and the list after each unit (:meth:`Season.lists`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from xl_elo.formats.reader import GameColumns, HistoryColumns, PlayerColumns, Table, Tables, _Columns, players_headings
from xl_elo.model import (
    SEASON_HISTORY_COLUMNS,
    Column,
    Fact,
    HistoryGame,
    InputError,
    Problem,
    Results,
    fact_array,
    facts,
    id_text,
)

if TYPE_CHECKING:
    from xl_elo.federations.contract import Calculation, RatingSystem

#: The history a season's output gives of each player in each unit he played in (rules 14), in this order.
HISTORY_COLUMNS: Final = SEASON_HISTORY_COLUMNS


@dataclass(frozen=True)
class Unit:
    """One period or event of a season: what one run of the system's engine rates (rules 14)."""

    key: str
    """How the season names it: the period (``2026-02``) or the event (its name, else its day)."""
    period: str | None
    """The period the engine is given (its rules' dates: ages, rule sets): ``YYYY-MM`` or a day ``YYYY-MM-DD``."""
    rows: Any
    """Its games' positions in the games table (every game of it, rated or not)."""
    start: dt.date | None = None
    end: dt.date | None = None
    """Its first and last day, where the games give their days."""
    events: tuple[str, ...] = ()
    """The events it holds (a period of FIDE's may hold several)."""
    event_start: Any = None
    """Each of its games' event's first day (an ordinal; :data:`_NO_DAY` where the games give no day)."""


@dataclass
class Step:
    """One unit rated: the tables as it rated them (the players as it found them), its results."""

    unit: Unit
    results: Results
    tables: Tables


@dataclass
class Season:
    """A season rated: every unit's results, in order (rules 14)."""

    system: RatingSystem
    steps: list[Step]
    ids: list[str]
    names: list[str]
    warnings: list[str] = field(default_factory=list)
    options: Any = None

    @property
    def final(self) -> Results:
        """The list after the last unit: every player, his last rating and every fact the next season starts from."""
        return self.steps[-1].results

    def history(self, everyone: bool = False) -> list[dict[str, Any]]:
        """Each player's history: one row per unit he played in (``everyone``: every unit), with the figures a
        rating officer checks (:data:`HISTORY_COLUMNS`), in time order then the players table's order."""
        return self.history_table(everyone).rows

    def history_table(self, everyone: bool = False) -> Results:
        """The history as one results table (its columns :data:`HISTORY_COLUMNS`, each of its kind in the
        system's results), built column by column: a club's twenty years in a moment."""
        spec = {c.name: c for c in self.system.COLUMNS}
        kinds = {"unit": "text", "period": "text", "start": "text", "end": "text"}
        columns = [Column(name, kinds.get(name) or (spec[name].kind if name in spec else "text"),
                          spec[name].exact if name in spec else True, places=spec[name].places if name in spec
                          else None, precise=spec[name].precise if name in spec else False)
                   for name in HISTORY_COLUMNS]
        parts: dict[str, list[Any]] = {name: [] for name in HISTORY_COLUMNS}
        for step in self.steps:
            r, u = step.results, step.unit
            played = np.asarray(_numbers(r, "games_rated"))
            keep = np.ones(len(r), bool) if everyone else np.nan_to_num(played) > 0
            n = int(keep.sum())
            for name, value in (("unit", u.key), ("period", u.period), ("start", _day(u.start)),
                                ("end", _day(u.end))):
                parts[name].append(np.full(n, value, dtype=object))
            for name in HISTORY_COLUMNS[4:]:
                kind = r.kinds.get(name, "blank")
                if kind in ("int", "float", "number"):
                    parts[name].append(_numbers(r, name)[keep])
                else:
                    cells = np.empty(len(r), dtype=object)
                    cells[:] = r.cells(name)
                    parts[name].append(cells[keep])
        values = {name: (np.concatenate(v) if v else np.zeros(0)) for name, v in parts.items()}
        for c in columns:
            if c.kind == "blank":
                values[c.name] = np.full(len(values["id"]), np.nan)
        return Results(self.system.CODE, columns, values)

    def lists(self) -> tuple[list[str], dict[str, list[float | None]]]:
        """The list after each unit: the units' keys, and each player's rating after each (None: unrated)."""
        keys = [s.unit.key for s in self.steps]
        table: dict[str, list[float | None]] = {pid: [] for pid in self.ids}
        for step in self.steps:
            after = dict(zip(step.results.cells("id"), step.results.cells("rating_after"), strict=True))
            for pid in self.ids:
                table[pid].append(after.get(pid))
        return keys, table


    def calculations(self, pid: str) -> list[UnitCalculation]:
        """One player's season as a rating officer checks it, unit by unit and event by event, game by game
        (the system's one-player calculation of each event, with his rating at its start and the unit's K):
        the units he played in."""
        out = []
        for step in self.steps:
            row = step.results.by_id().get(pid)
            if row is None or not row.get("games_rated"):
                continue
            out.append(UnitCalculation(step.unit, row, _events_of(self.system, step, pid, row, self.options)))
        return out


@dataclass
class EventCalculation:
    """One event of a unit, for one player: his games in it, as the system's one-player calculation shows them."""

    event: str | None
    calculation: Calculation
    opponents: list[str]
    """Each game's opponent's id, in the order of the calculation's games."""


@dataclass
class UnitCalculation:
    """One unit of a season, for one player: his results row and each event's calculation."""

    unit: Unit
    row: dict[str, Any]
    events: list[EventCalculation]


def _events_of(system: RatingSystem, step: Step, pid: str, row: dict[str, Any], options: Any
               ) -> list[EventCalculation]:
    """A player's events in a unit, each as the system's one-player calculation (its ``calculate``) shows it:
    his rating at the event's start (a FIDE event started under an earlier list: 2.11), the opponents' as
    the unit counts them, the unit's K for every event (one K a period, FIDE 8.3.3)."""
    from xl_elo.federations.contract import OpponentGame

    tables = step.tables
    event = tables.event()
    me = next(p for p in event.players if p.id == pid)
    rating = {p.id: p.rating for p in event.players}
    starts = system.CADENCE.start_ratings
    by_event: dict[str | None, list[tuple[OpponentGame, str]]] = {}
    start_of: dict[str | None, float | None] = {}
    declared = [f for f in facts(system.Game) if f.one_game]
    for g in event.games:
        if not g.counts or pid not in (g.player, g.opponent):
            continue
        first = g.player == pid
        other = g.opponent if first else g.player
        assert other is not None
        score = float(g.result.score or 0.0) if first else 1.0 - float(g.result.score or 0.0)
        opp = rating.get(other)
        if starts:
            mine, theirs = (getattr(g, n, None) for n in starts)
            if not first:
                mine, theirs = theirs, mine
            if theirs is not None and not np.isnan(theirs):
                opp = None if theirs == 0 else float(theirs)
            if mine is not None and not np.isnan(mine) and mine != 0:
                start_of[g.event] = float(mine)
        values = {f.name: getattr(g, f.name) for f in declared}
        gives = first or not any(f.sided for f in declared)
        by_event.setdefault(g.event, []).append((OpponentGame(opp, score, None, gives, values), other))
    k = row.get("k")
    out = []
    for name, games in by_event.items():
        player = replace(me, rating=start_of.get(name, me.rating))
        calc = system.calculate(player, [g for g, _ in games], step.unit.period,
                                int(k) if isinstance(k, (int, float)) and k == k else None, options)
        out.append(EventCalculation(name, calc, [o for _, o in games]))
    return out


def _day(day: dt.date | None) -> str | None:
    return None if day is None else day.isoformat()


# --------------------------------------------------------------------------- the units


#: A day with no date: after every real day, so a unit without days comes last.
_NO_DAY: Final = dt.date.max.toordinal()


def _day_of(value: str | None) -> int:
    """A game's period as a day's ordinal: a date as given, a month as its first day; none, :data:`_NO_DAY`."""
    if not value:
        return _NO_DAY
    parts = [int(x) for x in value.split("-")]
    return dt.date(parts[0], parts[1], parts[2] if len(parts) > 2 else 1).toordinal()


def _codes(values: Any) -> tuple[Any, list[Any]]:
    """Each value's code (its distinct value's position) and the distinct values, in first-seen order."""
    seen: dict[Any, int] = {}
    codes = np.fromiter((seen.setdefault(v, len(seen)) for v in values), np.int64, len(values))
    return codes, list(seen)


def units(system: RatingSystem, games: GameColumns, period: str | None = None) -> list[Unit]:
    """The units of a games table in time order, by the system's cadence (rules 14): one unit when the table
    gives no game's period or event (the event or period of ``period``). Each distinct period and event is
    read once: a season of many years splits in a moment."""
    n = len(games)
    every = np.arange(n)
    if games.period is None and games.event is None:
        return [Unit(period or "", period, every)]
    cadence = system.CADENCE
    if games.period is not None:
        period_code, period_values = _codes(games.period.tolist())
        day = np.array([_day_of(v) for v in period_values], dtype=np.int64)[period_code]
    else:
        day = np.full(n, _NO_DAY, np.int64)
    named = games.event is not None
    if games.event is not None:
        event_code, event_names = _codes(games.event.tolist())
    else:  # each game is its own event: its day is its event's
        event_code, event_names = np.arange(n), []
    m = int(event_code.max(initial=-1)) + 1
    dated = day != _NO_DAY
    first = np.full(m, _NO_DAY, np.int64)
    np.minimum.at(first, event_code[dated], day[dated])
    last = np.full(m, -1, np.int64)
    np.maximum.at(last, event_code[dated], day[dated])
    start, end = first[event_code], np.where(last[event_code] >= 0, last[event_code], _NO_DAY)
    if cadence.months:  # a fixed period: the one the event (or the game) ends in
        missing = np.flatnonzero(end == _NO_DAY)
        if len(missing):
            i = int(missing[0])
            raise InputError([Problem(games.source, int(games.rows[i]) or None, "period",
                                      f"{system.CODE.upper()} rates {cadence.unit}s: give each game's period or "
                                      "day (a column period or date)")])
        ends, end_code = np.unique(end, return_inverse=True)
        names = [cadence.period_of(dt.date.fromordinal(int(d))) for d in ends.tolist()]
        key_code, keys = _codes([names[c] for c in np.ravel(end_code).tolist()]) if n else (np.zeros(0, np.int64), [])
    elif named:
        key_code, keys = event_code, event_names
    else:
        key_code, keys = _codes(games.period.tolist()) if games.period is not None else (np.zeros(n, np.int64), [""])
    k = len(keys)
    unit_start = np.full(k, _NO_DAY, np.int64)
    np.minimum.at(unit_start, key_code, start)
    unit_end = np.full(k, -1, np.int64)
    np.maximum.at(unit_end, key_code, np.where(end == _NO_DAY, -1, end))
    first_row = np.full(k, n, np.int64)
    np.minimum.at(first_row, key_code, every)
    order = sorted(range(k), key=lambda j: (int(unit_start[j]), int(first_row[j])))
    by_unit = np.argsort(key_code, kind="stable")
    bounds = np.searchsorted(key_code[by_unit], np.arange(k + 1))
    out = []
    for j in order:
        rows = by_unit[bounds[j]:bounds[j + 1]]
        held = tuple(str(event_names[c]) for c in dict.fromkeys(event_code[rows].tolist())) if named else ()
        s_day = dt.date.fromordinal(int(unit_start[j])) if unit_start[j] != _NO_DAY else None
        e_day = dt.date.fromordinal(int(unit_end[j])) if unit_end[j] >= 0 else None
        key = str(keys[j])
        if cadence.months:
            unit_period: str | None = key
        elif cadence.as_given and not named and games.period is not None:
            unit_period = key
        elif e_day is not None:
            unit_period = f"{e_day.year:04d}-{e_day.month:02d}"
        else:
            unit_period = period
        out.append(Unit(key, unit_period, rows, s_day, e_day, held, start[rows]))
    if cadence.as_given and not named:
        out = _with_skipped_months(out)
    return out


def _with_skipped_months(season_units: list[Unit]) -> list[Unit]:
    """A monthly ladder's units with each month between two of its months that no game names, as a period in
    which nobody played (rules 12.7: every rated player's deviation grows in it)."""
    out: list[Unit] = []
    for u in season_units:
        last = out[-1].key if out else None
        if last is not None and len(last) == 7 and len(u.key) == 7:
            year, month = int(last[:4]), int(last[5:])
            while True:
                year, month = (year + 1, 1) if month == 12 else (year, month + 1)
                key = f"{year:04d}-{month:02d}"
                if key >= u.key:
                    break
                out.append(Unit(key, key, np.zeros(0, np.int64), event_start=np.zeros(0, np.int64)))
        out.append(u)
    return out


# --------------------------------------------------------------------------- one unit's list to the next


def carried(system: RatingSystem, columns: Sequence[str]) -> dict[str, str]:
    """Which results column the next players table reads each column from, exactly as the reader reads a
    results table typed back in as a players table (``rating`` from ``rating_after``, DWZ's ``index`` from
    ``index_after``, a fact of the same name as itself): players column -> results column."""
    table = Table.from_rows("results", list(columns), [], typed=True)
    problems: list[Problem] = []
    spec = players_headings(system.Player, system.CODE.upper(), results=[c.name for c in system.COLUMNS])
    cols = _Columns(table, spec, problems, [])
    return {name: str(columns[j]) for name, j in cols.cols.items()}


def next_players(system: RatingSystem, players: PlayerColumns, results: Results,
                 mapping: dict[str, str] | None = None) -> PlayerColumns:
    """The players table the next unit starts from: each column from the results as a user types the results
    table back in (:func:`carried`), a fact the results do not hold as it was (rules 14)."""
    mapping = mapping if mapping is not None else carried(system, results.columns)
    rating = players.rating
    if "rating" in mapping:
        rating = _numbers(results, mapping["rating"])
        rating = np.where(rating == 0, np.nan, rating)
    values = dict(players.facts)
    for f in facts(system.Player):
        if f.name in mapping:
            values[f.name] = _fact_values(f, results, mapping[f.name])
    return replace(players, rating=rating, facts=values)


def _numbers(results: Results, column: str) -> npt.NDArray[np.float64]:
    v = results.values.get(column)
    if isinstance(v, np.ndarray) and v.dtype.kind in "fiu":
        return v.astype(np.float64)
    return np.array([np.nan if x is None else float(x) for x in results.cells(column)], dtype=np.float64)


def _fact_values(f: Fact, results: Results, column: str) -> npt.NDArray[Any]:
    """A results column as a fact's values, read as its column reads them."""
    if f.array == "number":
        return _numbers(results, column)
    cells = results.cells(column)
    values = [bool(c) if c is not None else f.default for c in cells] if f.array == "flag" else \
        [f.reading(c) if c is not None else f.default for c in cells]
    out: npt.NDArray[Any] = fact_array(f, values)
    return out


def _history(results: Results, source: str) -> HistoryColumns:
    """A unit's next history table (FESA's performance games, DWZ's remaining games) as the next unit reads it."""
    h: list[HistoryGame] = results.history
    return HistoryColumns(source, np.array([x.id.encode("utf-8") for x in h], dtype="S") if h else np.zeros(0, "S1"),
                          np.array([x.opponent_rating for x in h], dtype=np.float64),
                          np.array([x.result for x in h], dtype=np.float64), np.zeros(len(h), np.int64))


# --------------------------------------------------------------------------- the season


def rate_season(system: RatingSystem, tables: Tables, season_units: Sequence[Unit], options: Any,
                rate: Callable[[Tables, Any], Results]) -> Season:
    """Rate each unit in order, each from the list the one before left (rules 14). ``rate`` rates one unit's
    tables (:meth:`xl_elo.loader.Loaded.rate`'s engine call)."""
    players = tables.players
    history = tables.history
    steps: list[Step] = []
    mapping: dict[str, str] | None = None
    lists: list[tuple[str, npt.NDArray[np.float64]]] = []  # the list after each period, for start ratings
    start_facts = system.CADENCE.start_ratings
    for unit in season_units:
        games = _subset(tables.games, unit.rows)
        if start_facts and len(unit.rows):
            games = _start_ratings(games, tables, unit, players, lists, start_facts, system)
        sub = Tables(tables.player, tables.game, players, games, history, unit.period, tables.name,
                     tables.who[unit.rows], tables.against[unit.rows])
        results = rate(sub, options)
        steps.append(Step(unit, results, sub))
        if mapping is None:
            mapping = carried(system, results.columns)
        players = next_players(system, players, results, mapping)
        lists.append((unit.key, players.rating))
        if system.takes_history:
            history = _history(results, tables.history.source)
    ids = [id_text(x) for x in tables.players.ids.tolist()]
    names = [id_text(x) for x in tables.players.names.tolist()]
    return Season(system, steps, ids, names, options=options)


def _subset(games: GameColumns, rows: Any) -> GameColumns:
    """A games table's rows at ``rows`` (its every column)."""
    return GameColumns(games.source, games.player[rows], games.opponent[rows], games.has_opponent[rows],
                       games.result[rows], games.results, games.round[rows], games.rated[rows], games.rows[rows],
                       {k: v[rows] for k, v in games.facts.items()},
                       None if games.who is None else games.who[rows], None if games.against is None
                       else games.against[rows], None if games.period is None else games.period[rows],
                       None if games.event is None else games.event[rows])


def _start_ratings(games: GameColumns, tables: Tables, unit: Unit, players: PlayerColumns,
                   lists: list[tuple[str, npt.NDArray[np.float64]]], names: tuple[str, str],
                   system: RatingSystem) -> GameColumns:
    """A unit's games with each event's start ratings from the season's own lists (FIDE 2.11), where the input
    gives none: the list in force in the month the event started (the one the period before that month left,
    else the season's first), 0 for a player unrated on it."""
    mine, theirs = (games.facts.get(n) for n in names)
    if mine is None or theirs is None or unit.event_start is None or not len(unit.rows):
        return games
    starts = np.asarray(unit.event_start)
    dated = starts != _NO_DAY
    if not dated.any():
        return games
    months = {int(d): system.CADENCE.period_of(dt.date.fromordinal(int(d))) for d in np.unique(starts[dated])}
    earlier = np.array([dated[i] and months[int(starts[i])] < unit.key for i in range(len(starts))], bool)
    if not earlier.any():
        return games  # every event started in the period: its list is the period's own
    mine, theirs = mine.copy(), theirs.copy()
    who, against = tables.who[unit.rows], tables.against[unit.rows]
    first_list = tables.players.rating
    for month in sorted({months[int(d)] for d in starts[earlier].tolist()}):
        before = [r for key, r in lists if key < month]
        ratings = before[-1] if before else first_list
        rows = np.flatnonzero(earlier & np.array([months.get(int(d)) == month for d in starts.tolist()], bool)
                              & (against >= 0))
        for values, pos in ((mine, who[rows]), (theirs, against[rows])):
            blank = np.isnan(values[rows])
            given = np.nan_to_num(ratings[pos], nan=0.0)
            values[rows[blank]] = given[blank]
    facts_ = dict(games.facts)
    facts_[names[0]], facts_[names[1]] = mine, theirs
    return replace(games, facts=facts_)


__all__ = ["HISTORY_COLUMNS", "Season", "Step", "Unit", "carried", "next_players", "rate_season", "units"]

"""One way in: every input of an event, for any rating system, through one reader.

``load(system, ...)`` is what the command line, the spreadsheet functions and the Python API
call. It reads the event's tables wherever they come from — CSV files (``players``, ``games``,
``history``), tables already in hand (:class:`xl_elo.formats.reader.Table`: a spreadsheet's
ranges), or the files people already have (``files``: a TRF tournament report, FESA's own
files) — with the system's own columns, validates every value and every cross-table rule once
(:mod:`xl_elo.formats.reader`), applies a rating list where the system reads one, and gives a
:class:`Loaded`: the event as records or as arrays, the files read, and the writers that give a
read file back with the new ratings.

The kinds of files, tried in this order:

- FESA's own program's files (:mod:`xl_elo.federations.fesa.files`): the tournament file
  (``turnering.txt``, its first line ``[name]``), the new players (``nye-spillere``) and the
  rating list (``ratingliste.pre``), the last also given as ``rating_list``;
- FIDE's Tournament Report File (:mod:`xl_elo.formats.trf`): a ``.trf`` file, or any text file
  with ``001`` player lines;
- a PGN database (:mod:`xl_elo.formats.pgn`, with python-chess, the extra ``pgn``): a ``.pgn`` file, or any
  text file whose first tag is ``[Event "..."]``; its games are a season (rules 14).

A filled template workbook is read by :func:`xl_elo.formats.workbook.read_workbook`, which
records its own system and settings.
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Final, cast

from xl_elo import schema
from xl_elo.federations import get, registry
from xl_elo.federations.contract import FileFormat, RatingSystem, options_of
from xl_elo.formats import csvfiles, fastcsv, files
from xl_elo.formats.files import given_twice, twice_words
from xl_elo.formats.reader import Sources, Table, Tables, checked, read, system_headings, tables_of
from xl_elo.model import Event, EventArrays, InputError, Problem, Results
from xl_elo.season import Season, Unit, rate_season, units

PathLike = str | os.PathLike[str]


@dataclass
class Loaded:
    """An event read for one rating system, ready to rate."""

    module: RatingSystem
    """The system (its module)."""
    tables: Tables
    inputs: list[str] = field(default_factory=list)
    """The files read (an output never goes over one)."""
    writers: dict[str, Callable[[Results], str | bytes]] = field(default_factory=dict)
    """Output format -> the file read, written back with the results (``trf``, ``fesa``)."""
    default_format: str | None = None
    """The format an output takes by default (a TRF report written back as ``.trf``)."""
    warnings: list[str] = field(default_factory=list)
    """What the user should know about how the files were read."""
    options: dict[str, Any] = field(default_factory=dict)
    """The system's options by name: as given to :func:`load`, and as the files set them (a TRF-26
    report's time control sets FIDE's ``list``); :meth:`rate` uses them when given no options."""

    @cached_property
    def event(self) -> Event:
        """The records of rules 8."""
        return self.tables.event()

    @cached_property
    def arrays(self) -> EventArrays:
        """The array form, for a federation-size period."""
        return self.tables.arrays()

    @cached_property
    def units(self) -> list[Unit]:
        """The periods or events of the games, in time order (rules 14): one unless the games table gives each
        game's period or event."""
        return units(self.module, self.tables.games, self.tables.period)

    @property
    def is_season(self) -> bool:
        """The games hold a season: each game's period or event given (rules 14)."""
        games = self.tables.games
        return games.period is not None or games.event is not None

    def rate(self, options: Any = None) -> Results:
        """The results: of the event or period read, or of a season's last unit, the list after it (rules 14; a
        system that rates several periods itself, a ladder, rates them at once: the same list, with its run's
        own figures, the periods each player played in).
        ``options``: the system's ``Options`` (default: :attr:`options` over the system's defaults)."""
        if self.is_season and not self.module.PERIODS:
            return self.season(options).final
        return self._rate(self.tables, options)  # one event, or a ladder whose engine rates its periods itself

    def season(self, options: Any = None) -> Season:
        """The season the games hold, every unit rated in order (rules 14; one unit where they give no period
        or event)."""
        return rate_season(self.module, self.tables, self.units, self._options(options), self._rate)

    def _options(self, options: Any) -> Any:
        return options_of(self.module.Options, None, **self.options) if options is None else options

    def _rate(self, tables: Tables, options: Any = None) -> Results:
        """One event's or period's results: on the arrays where the system rates arrays (``rate_arrays``), else
        on the records."""
        options = self._options(options)
        try:
            if self.module.rate_arrays is not None and tables is not self.tables:
                return self.module.rate_arrays(tables.arrays(), options)
            if self.module.rate_arrays is not None:
                return self.module.rate_arrays(self.arrays, options)
            return self.module.rate(tables.event() if tables is not self.tables else self.event, options)
        except InputError as exc:  # the engine names its tables; the user gave files or sheets
            raise self.tables.named(exc) from None


def system(name: RatingSystem | str) -> RatingSystem:
    """A system from its code, an alias or the system itself."""
    return name if isinstance(name, RatingSystem) else get(name)


def load(name: Any, *, players: PathLike | Table | None = None, games: PathLike | Table | None = None,
         history: PathLike | Table | None = None, files: Sequence[PathLike] = (),
         rating_list: PathLike | None = None, period: str | None = None, event_name: str = "",
         one_report: bool = False, output: PathLike | None = None, options: Mapping[str, Any] | None = None
         ) -> Loaded:
    """The event of ``players``, ``games`` and ``history`` (CSV files or tables), or of ``files``
    (a TRF report, FESA's files), for the system ``name`` (a code, an alias or its module).

    ``period`` (``YYYY-MM`` or a date) is checked when given; whether one is required is the
    system's rule. ``rating_list``: a list the system reads (FIDE's, FESA's). ``one_report``: the
    output writes back the file read (``--format trf``), so it must be one. ``output``: where the
    results go, to choose the default format of a file written back. ``options``: the system's
    options given, by name (``{"list": "rapid"}``), over any a file sets; the rating list is read
    with them. Every problem of every table is raised together (:class:`xl_elo.model.InputError`)."""
    chosen = dict(options or {})
    if files:
        return _load_files(None if name is None else system(name), [Path(p) for p in files], rating_list=rating_list,
                           period=period, one_report=one_report, output=output, options=chosen)
    module = system(name)
    problems: list[Problem] = []
    try:
        period = schema.period(period, required=False)
    except schema.ValueProblem as exc:
        problems.append(Problem("period", None, None, str(exc)))
        period = None
    named = [(flag, given) for flag, given in (("--players", players), ("--games", games), ("--history", history),
                                                ("--rating-list", rating_list))
             if given is not None and not isinstance(given, Table)]
    twice = given_twice([given for _, given in named])
    if twice:  # two tables from one file: never read as both
        raise InputError([Problem(Path(named[j][1]).name, None, None,
                                  f"is given as {named[i][0]} and as {named[j][0]}"
                                  + ("" if why == "the same name" else
                                     f" ({twice_words(named[i][1], named[j][1], why)})")
                                  + ": give each table its own file")
                          for i, j, why in twice])
    budget = fastcsv.Budget()
    tables: list[Table | None] = []
    inputs: list[str] = []
    for given in (players, games, history):
        if given is None or isinstance(given, Table):
            tables.append(given)
            continue
        inputs.append(str(given))
        try:
            tables.append(csvfiles.table(given, budget))
        except InputError as exc:
            problems += exc.problems
            tables.append(None)
    if history is not None and not takes_history(module):
        takers = "; ".join(f"{m.CODE.upper()}: {m.HISTORY}" for m in registry().values() if takes_history(m))
        raise InputError([Problem(_source(history), None, None, f"{module.CODE.upper()} takes no history table "
                                                                f"({takers})")])
    sources = Sources(*(_source(g) if g is not None else default
                        for g, default in zip((players, games, history), ("players", "games", "history"),
                                              strict=True)))
    if problems and all(t is None for t in tables[:2]):
        raise InputError(problems)
    tables_ = read(module.Player, tables[0], tables[1], tables[2], period=period, name=event_name,
                   game=module.Game, periods=bool(module.PERIODS),
                   sources=sources, problems=problems, headings=system_headings(module))
    loaded = Loaded(module, tables_, inputs, options=chosen, warnings=list(tables_.warnings))
    if rating_list is not None:
        _apply_list(loaded, rating_list, own="the players table")
    return loaded


def _source(given: PathLike | Table) -> str:
    return given.source if isinstance(given, Table) else Path(given).name


def takes_history(module: RatingSystem) -> bool:
    """Whether a system takes a history table (FESA: a performance-mode player's earlier games)."""
    return bool(module.takes_history)


def from_event(module: RatingSystem, event: Event, sources: Sources | None = None) -> Tables:
    """An event built in Python (or by a file's reader) as checked tables, its players as the
    system's ``Player``: every problem a reader would have found, raised together."""
    tables, values = tables_of(event, module.Player, module.Game)
    return checked(tables, sources or Sources(), values)


def _apply_list(loaded: Loaded, path: PathLike, *, own: str) -> None:
    """A rating list the system reads, applied to the players (its ``from_rating_list``)."""
    from xl_elo.formats import ratinglist

    module = loaded.module
    apply = module.from_rating_list
    if apply is None:
        raise InputError([Problem(Path(path).name, None, None, not_for(module))])
    event = loaded.event
    entries = ratinglist.read_list(Path(path), [p.id for p in event.players], event.year)
    try:
        options = options_of(module.Options, None, **loaded.options)
    except (ValueError, TypeError) as exc:
        raise InputError([Problem("options", None, None, str(exc))]) from None
    players, warnings = apply(list(event.players), entries, event.year, Path(path).name, own=own, options=options,
                              where=lambda p: f"{own} (row {p.row})" if p.row is not None else own)
    event = replace(event, players=tuple(players))
    loaded.tables = from_event(module, event, Sources(*_sources(loaded.tables)))
    loaded.__dict__.pop("event", None)
    loaded.__dict__.pop("arrays", None)
    loaded.inputs.append(str(path))
    loaded.warnings += warnings


def not_for(module: RatingSystem) -> str:
    """Why a system that reads no rating list refuses one (the systems that read one named)."""
    able = ", ".join(f"-f {m.CODE}" for m in registry().values() if m.from_rating_list)
    return f"FIDE's rating list gives FIDE ratings and K: use it with {able}, not {module.CODE.upper()}"


def _sources(tables: Tables) -> tuple[str, str, str]:
    return tables.players.source, tables.games.source, tables.history.source


# --------------------------------------------------------------------------- the files people have


#: The formats of the files people have that no one system owns (a TRF report is any chess tournament's), tried
#: after the systems' own (:attr:`~xl_elo.federations.contract.RatingSystem.FILE_FORMAT`).
COMMON_FORMATS: Final = ("xl_elo.formats.trf", "xl_elo.formats.pgn")


def file_formats() -> list[FileFormat]:
    """The readers of the files people have, in the order they are tried: each system's own program's files
    (its ``FILE_FORMAT``: FESA's), then the common ones (a TRF report). Each offers ``recognises(paths)``,
    ``read(paths, system, ...)``, what it reads in words (``KIND``) and ``SYSTEM``, the system its files are
    rated by when none is named (a format names its own federation)."""
    names = [m.FILE_FORMAT for m in registry().values() if m.FILE_FORMAT] + list(COMMON_FORMATS)
    return [cast(FileFormat, importlib.import_module(name)) for name in names]


def _load_files(module: RatingSystem | None, paths: list[Path], **given: Any) -> Loaded:
    """The event held by ``paths`` (TRF reports, FESA's own files ...); InputError naming an unknown kind."""
    problems: list[Problem] = []
    for p in paths:
        try:
            files.input_path(p)
        except InputError as exc:
            problems += exc.problems
    listed = [*paths, *([Path(given["rating_list"])] if given.get("rating_list") else [])]
    for i, j, why in given_twice(listed):
        if j < len(paths):
            words = twice_words(paths[i], paths[j], why)
            problems.append(Problem(paths[j].name, None, None, f"is given twice ({words}): its games would count "
                                                               "twice"))
        else:
            problems.append(Problem(listed[j].name, None, None, f"the rating list is a file given already "
                                                                f"({twice_words(paths[i], listed[j], why)}): "
                                                                "give the rating list the tournament is rated from"))
    if problems:
        raise InputError(problems)
    for reader in file_formats():
        if reader.recognises(paths):
            module = module if module is not None else get(reader.SYSTEM)
            got = reader.read(paths, module, **given)
            tables = from_event(module, got.event, Sources(*got.sources))
            return Loaded(module, tables, got.inputs, got.writers, got.default_format, got.warnings, got.options)
    names = ", ".join(p.name for p in paths)
    kinds = "; ".join(f.KIND for f in file_formats()) or "none yet"
    raise InputError([Problem(names, None, None, "is not a file xl-elo reads (a workbook .xlsx/.ods, or "
                                                 f"{kinds}); CSV tables go with --players and --games")])


def read_event(name: Any, players: PathLike | Table, games: PathLike | Table, history: PathLike | Table | None = None,
               period: str | None = None, event_name: str = "") -> Event:
    """The records of an event's tables for a system (:func:`load`, then its records)."""
    return load(name, players=players, games=games, history=history, period=period, event_name=event_name).event


# --------------------------------------------------------------------------- worked examples


@dataclass(frozen=True)
class Example:
    """One shipped example."""

    folder: str
    federation: str
    title: str
    period: str | None
    name: str
    columns: tuple[str, ...]
    workbook: str | None = None
    """The file the demo writes with the system's template filled with this example, if any ..."""
    workbook_note: str = ""
    """... and what the demo says of it."""


def examples() -> list[Example]:
    """The worked example of every registered system that has one, in the registry's order: the
    folder ``example`` beside its module (players.csv, games.csv, history.csv, example.json)."""
    out = []
    for code, module in registry().items():
        name = module.EXAMPLE
        if not name:
            continue
        meta: dict[str, Any] = json.loads((resources.files(module.PACKAGE) / "example" / "example.json")
                                          .read_text(encoding="utf-8"))
        out.append(Example(name, code, meta["title"], meta.get("period"), meta.get("name", name),
                           tuple(meta["columns"]), meta.get("workbook"), meta.get("workbook_note", "")))
    return out


def example(code: str, period: str | None = None) -> Loaded:
    """A system's worked example, read (its own period unless one is given)."""
    module = registry()[code]
    base = resources.files(module.PACKAGE) / "example"
    meta = json.loads((base / "example.json").read_text(encoding="utf-8"))
    with resources.as_file(base) as path:
        history = path / "history.csv"
        return load(module, players=path / "players.csv", games=path / "games.csv",
                    history=history if history.exists() else None, period=period or meta.get("period"),
                    event_name=meta.get("name", module.EXAMPLE))


def example_event(code: str, period: str | None = None) -> Event:
    """A system's worked example as an :class:`~xl_elo.model.Event`."""
    return example(code, period).event

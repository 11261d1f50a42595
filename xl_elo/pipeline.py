"""One way out: where results go, for every front end (read, rate, write).

The inputs are read by one reader (:func:`xl_elo.loader.load`); the outputs are written by the
writers here, one registry of them by format (:data:`WRITERS`: ``table``, ``csv``, ``json``,
``report``, ``xlsx``), to which a file read adds its own (a TRF report written back, FESA's
rating list: :attr:`xl_elo.loader.Loaded.writers`). :func:`plan` settles, before any work, what
is written where (the format, the output, the next history beside it), refusing an output over
an input, a name asking for a format that cannot be written, or two outputs in one file;
:func:`deliver` writes the results so planned. The command line, the demo and a season's run use
these two and nothing else to write results.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TextIO

from xl_elo.formats.files import OutputError, check_output, same_file
from xl_elo.model import Event, Results

if TYPE_CHECKING:
    from xl_elo.federations.contract import RatingSystem

PathLike = str | os.PathLike[str]


class UsageError(ValueError):
    """A request that cannot be done as asked (a format that cannot be written there): exit status 2."""


@dataclass(frozen=True)
class Shape:
    """How a text for people is laid out (a table, a report): its columns and the width it fits."""

    columns: tuple[str, ...] | None = None
    """The results columns of a table, in order (None: the key columns first, the others as they fit)."""
    width: int | None = None
    """The most characters a line holds (None: one line a player, however wide)."""


@dataclass(frozen=True)
class Writer:
    """One output format: what it writes, from the results (and the event's records, for a crosstable)."""

    name: str
    """As ``--format`` names it."""
    help: str
    """Its words in the command line's help."""
    suffixes: tuple[str, ...] = ()
    """The file names that ask for it (``.json``)."""
    text: Callable[[Results, Callable[[], Event], Shape], str | bytes] | None = None
    """The whole output, laid out as the :class:`Shape` says where it is a text for people; None for a writer
    that writes a file itself (:attr:`file`)."""
    file: Callable[[Results, PathLike, Sequence[PathLike]], object] | None = None
    """Writes a file (a workbook): the results, the path, the inputs it must never replace."""
    written_back: bool = False
    """It writes back a file that was read (a TRF report), so only when one was."""


def _table(results: Results, event: Callable[[], Event], shape: Shape) -> str:
    from xl_elo.formats.writers import results_table

    return results_table(results, shape.columns, shape.width) + "\n"


def _csv(results: Results, event: Callable[[], Event], shape: Shape) -> bytes:
    from xl_elo.formats.writers import results_csv

    return results_csv(results)


def _json(results: Results, event: Callable[[], Event], shape: Shape) -> str:
    from xl_elo.formats.writers import results_json

    return results_json(results) + "\n"


def _report(results: Results, event: Callable[[], Event], shape: Shape) -> str:
    from xl_elo.formats.report import report

    return report(results, event(), shape.width) + "\n"


def _xlsx(results: Results, path: PathLike, inputs: Sequence[PathLike]) -> None:
    from xl_elo.formats.workbook import write_results_workbook

    write_results_workbook(results, path, inputs=inputs)


#: The formats every run can write, in the order the help lists them.
WRITERS: Final[dict[str, Writer]] = {w.name: w for w in (
    Writer("table", "table (default on a terminal)", (".txt",), _table),
    Writer("csv", "csv (default otherwise)", (".csv",), _csv),
    Writer("json", "json", (".json",), _json),
    Writer("report", "report (crosstable)", (), _report),
    Writer("xlsx", "xlsx (a workbook: the default for --output FILE.xlsx)", (".xlsx",), file=_xlsx),
)}

#: Output names whose suffix asks for a format xl-elo does not write.
OTHER_FORMATS: Final = {".ods": "OpenDocument spreadsheets (.ods)", ".xls": "old Excel workbooks (.xls)",
                        ".xlsm": "workbooks with macros (.xlsm)", ".xlsb": "binary Excel workbooks (.xlsb)",
                        ".numbers": "Numbers documents", ".pdf": "PDF files", ".docx": "Word documents",
                        ".html": "web pages", ".htm": "web pages"}


def written_back() -> dict[str, Writer]:
    """The formats that write back a file that was read (a TRF report, FESA's rating list), as the readers of
    those files declare them (:data:`xl_elo.loader.READERS`); each needs such a file read."""
    from xl_elo.loader import file_formats

    return {f.FORMAT: Writer(f.FORMAT, f.FORMAT_HELP, tuple(f.SUFFIXES), written_back=True) for f in file_formats()
            if f.FORMAT}  # a format nothing writes back (a PGN database) offers none


@dataclass(frozen=True)
class Destination:
    """Where the user asked the results to go."""

    output: str | None = None
    """A file (``--output``), or None for the screen."""
    format: str | None = None
    """``--format``, or None: the output's name says, else the screen's default."""
    history_output: str | None = None
    """The next history's file (``--history-output``), for a system that takes a history table."""
    season_output: str | None = None
    """A season's history (``--season-output``): ``.csv``, ``.json`` or ``.xlsx`` (a season workbook; rules 14.5)."""
    players: tuple[str, ...] = ()
    """The players whose season calculation page is the output (``--player``), instead of the results."""
    columns: str | None = None
    """A table's columns (``--columns a,b,c``), or None."""
    wide: bool = False
    """A table or a report on one line a player, however wide (``--wide``)."""


@dataclass
class Plan:
    """What is written where, settled before any work."""

    format: str
    writer: Writer
    output: str | None
    history_output: str | None
    inputs: list[str] = field(default_factory=list)
    history_beside: bool = False
    """The history output is the one beside ``--output`` (not named by the user)."""
    season_output: str | None = None
    season_format: str | None = None
    players: tuple[str, ...] = ()
    shape: Shape = field(default_factory=Shape)


def choose_format(dest: Destination, tty: bool, writers: Mapping[str, Any] | None = None, default_file: str = "csv",
                  default: str | None = None) -> str:
    """The output's format: ``--format``, else what the output's name says, else ``default_file`` (a file) or the
    screen's (``table`` on a terminal, ``csv`` otherwise). A name asking for a format that cannot be written here
    (``.ods``; ``.trf`` without a TRF report read: ``writers``, the written-back formats of the files read) is
    refused, never filled with CSV text. ``default``: the format of a file written back, when the output's name
    does not say another."""
    if dest.format:
        return dest.format
    if dest.output:
        suffix = Path(dest.output).suffix.lower()
        if default is not None:
            return default
        if suffix in OTHER_FORMATS:  # the name asks for a format xl-elo does not write: never CSV text in it
            raise UsageError(f"{dest.output}: xl-elo does not write {OTHER_FORMATS[suffix]}; name the output .xlsx "
                             "(a workbook), .csv, .json or .txt, or choose one with --format")
        from xl_elo.loader import file_formats

        for f in file_formats():  # a kind of file xl-elo reads and never writes (a PGN database): never CSV in it
            if not f.FORMAT and suffix in f.SUFFIXES:
                raise UsageError(f"{dest.output}: xl-elo reads {f.KIND} but does not write one; name the output "
                                 ".xlsx (a workbook), .csv, .json or .txt, or choose one with --format")
        for w in written_back().values():
            if suffix in w.suffixes and w.name not in (writers or {}):
                raise UsageError(f"{dest.output}: a {suffix} file is written back from a {w.name.upper()} file given "
                                 "as input, and none was given; name the output .xlsx (a workbook), .csv, .json or "
                                 ".txt, or choose one with --format")
        return next((w.name for w in WRITERS.values() if suffix in w.suffixes and w.name != "table"),
                    "table" if suffix == ".txt" else default_file)
    return "table" if tty else "csv"


def plan(system: RatingSystem, dest: Destination, inputs: Sequence[PathLike], *, tty: bool,
         writers: Mapping[str, Callable[[Results], str | bytes]] | None = None, default: str | None = None,
         history_to_file: bool = True, width: int | None = None) -> Plan:
    """What is written where (:class:`Plan`), refused before any work when it cannot be: an output over an
    input, a format that cannot be written there, the history and the results in one file, columns that are
    not the system's.

    ``writers``: the written-back formats of the files read (:attr:`xl_elo.loader.Loaded.writers`);
    ``default``: their default format for an output named for it; ``history_to_file``: a system that takes a
    history writes the next one beside ``--output`` (not when the results go into a workbook that holds it);
    ``width``: the screen's (a table or a report fits it; a file's fits :data:`xl_elo.formats.layout.WIDTH`)."""
    back = dict(writers or {})
    fmt = choose_format(dest, tty, back, default=default)
    shape = _shape(system, dest, fmt, width)
    if fmt in written_back() and fmt not in back:
        raise UsageError(f"--format {fmt} writes back a {fmt.upper()} file that was read: give one as input")
    writer = WRITERS.get(fmt) or Writer(fmt, fmt, text=_back(back[fmt]), written_back=True)
    if writer.file is not None and not dest.output:
        raise UsageError(f"--format {fmt} needs --output FILE{writer.suffixes[0] if writer.suffixes else ''}")
    listed = [os.fspath(p) for p in inputs]
    if dest.output:
        check_output(dest.output, listed)
    history = dest.history_output
    beside = False
    if history is None and dest.output and system.takes_history and history_to_file:
        history = str(Path(dest.output).with_name(Path(dest.output).stem + "_history.csv"))
        beside = True
    if dest.history_output and not system.takes_history:
        from xl_elo.federations import registry

        takers = ", ".join(f"{m.CODE.upper()} {m.UNIT}s" for m in registry().values() if m.takes_history)
        raise UsageError(f"--history-output is for {takers} only")
    if history:
        if dest.output and same_file(history, dest.output):
            raise UsageError(f"--output and the history output both name {history}: give two files")
        try:
            check_output(history, listed)
        except OutputError as exc:
            if not beside:
                raise
            raise OutputError(f"{exc} [the next tournament's history goes beside --output, as {history}: name "
                              "another file with --history-output]") from None
    season_format = None
    if dest.season_output:
        season_format = SEASON_FORMATS.get(Path(dest.season_output).suffix.lower())
        if season_format is None:
            raise UsageError(f"{dest.season_output}: a season's history is written as .csv, .json or .xlsx (a season "
                             "workbook)")
        for other in (dest.output, history):
            if other and same_file(dest.season_output, other):
                raise UsageError(f"--season-output and another output both name {other}: give two files")
        check_output(dest.season_output, listed)
    if dest.players and fmt not in ("table", "report"):
        if dest.format:
            raise UsageError(f"--player prints a player's season calculation (text): not --format {fmt}")
        fmt = "report"
    return Plan(fmt, writer, dest.output, history, listed, beside, dest.season_output, season_format, dest.players,
                shape)


#: A season's history formats, by the name of the file (rules 14.5).
SEASON_FORMATS: Final = {".csv": "csv", ".json": "json", ".xlsx": "xlsx"}


def _shape(system: RatingSystem, dest: Destination, fmt: str, width: int | None) -> Shape:
    """A table's or a report's layout: ``--columns`` (the system's results columns), ``--wide`` (no width), else
    the width of the screen or, in a file, :data:`xl_elo.formats.layout.WIDTH`; refused for a format they do not
    shape."""
    from xl_elo.formats.layout import WIDTH

    if dest.columns is not None and fmt != "table":
        raise UsageError(f"--columns shapes a table (--format table), not --format {fmt}")
    if dest.wide and fmt not in ("table", "report"):
        raise UsageError(f"--wide shapes a table or a report (--format table or report), not --format {fmt}")
    if dest.columns is not None:
        known = [c.name for c in system.COLUMNS]
        columns = tuple(c.strip() for c in dest.columns.split(",") if c.strip())
        unknown = [c for c in columns if c not in known]
        if unknown or not columns:
            raise UsageError(f"--columns: {', '.join(map(repr, unknown)) or 'no column'} is not a results column of "
                             f"{system.CODE.upper()} (expected some of: {', '.join(known)})")
        return Shape(columns, None)
    if dest.wide:
        return Shape()
    return Shape(None, WIDTH if dest.output or width is None else width)


def _back(write: Callable[[Results], str | bytes]) -> Callable[[Results, Callable[[], Event], Shape], str | bytes]:
    return lambda results, event, shape: write(results)


def deliver(p: Plan, results: Results, event: Event | Callable[[], Event], out: TextIO) -> list[str]:
    """Write ``results`` as planned: to the output file (through a temporary file, never over an input) or
    the screen, and the next history where the plan says. ``event``: the event's records, or what gives them
    (built only for a crosstable). The files written."""
    from xl_elo.formats.writers import history_csv, write_text_atomic

    written: list[str] = []
    if p.writer.file is not None:
        assert p.output is not None  # plan() refused a file writer without an output
        p.writer.file(results, p.output, p.inputs)
        written.append(p.output)
    else:
        assert p.writer.text is not None
        data = p.writer.text(results, event if callable(event) else (lambda: event), p.shape)
        if p.output:
            write_text_atomic(p.output, data, inputs=p.inputs)
            written.append(p.output)
        else:
            _to_screen(data, out, raw=p.writer.written_back)
    if p.history_output and not p.writer.written_back:  # a file written back holds its own history
        write_text_atomic(p.history_output, history_csv(results.history),
                          inputs=[*p.inputs, *([p.output] if p.output else [])])
        written.append(p.history_output)
    return written


def deliver_season(p: Plan, season: Any, out: TextIO) -> list[str]:
    """A season's outputs as planned (rules 14.5): the players' calculation pages (``--player``) instead of
    the results, and its history (``--season-output``); the results themselves go by :func:`deliver`. The files
    written."""
    from xl_elo.formats import seasonreport
    from xl_elo.formats.writers import write_text_atomic

    written: list[str] = []
    names = dict(zip(season.ids, season.names, strict=True))
    if p.players:
        unknown = [pid for pid in p.players if pid not in names]
        if unknown:
            raise UsageError(f"--player {', '.join(unknown)}: no such player id in the players table")
        pages = "\n".join(seasonreport.player_page(season.system.CODE, pid, names[pid], season.calculations(pid),
                                                   names) for pid in p.players)
        if p.output:
            write_text_atomic(p.output, pages, inputs=p.inputs)
            written.append(p.output)
        else:
            out.write(pages)
    if p.season_output:
        keys, lists = season.lists()
        units = [{"unit": s.unit.key, "period": s.unit.period,
                  "start": s.unit.start.isoformat() if s.unit.start else None,
                  "end": s.unit.end.isoformat() if s.unit.end else None, "events": list(s.unit.events)}
                 for s in season.steps]
        inputs = [*p.inputs, *([p.output] if p.output else []), *([p.history_output] if p.history_output else [])]
        if p.season_format == "csv":
            from xl_elo.formats.writers import results_csv

            write_text_atomic(p.season_output, results_csv(season.history_table()), inputs=inputs)
        elif p.season_format == "json":
            write_text_atomic(p.season_output, seasonreport.history_json(season.system.CODE, units, season.history(),
                                                                         lists, names), inputs=inputs)
        else:
            from xl_elo.formats.seasonbook import write_season_workbook

            write_season_workbook(p.season_output, season.system, keys, units, lists, names, season.history(),
                                  inputs=inputs)
        written.append(p.season_output)
    return written


def _to_screen(data: str | bytes, out: TextIO, raw: bool) -> None:
    """An output on the screen: text as it is; a file written back, in its own encoding, as its bytes."""
    if isinstance(data, str):
        out.write(data)
    elif not raw:
        out.write(data.decode("utf-8"))
    else:
        out.flush()
        if hasattr(out, "buffer"):
            out.buffer.write(data)
            out.buffer.flush()
        else:
            out.write(data.decode("utf-8", "replace"))

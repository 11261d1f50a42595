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
class Writer:
    """One output format: what it writes, from the results (and the event's records, for a crosstable)."""

    name: str
    """As ``--format`` names it."""
    help: str
    """Its words in the command line's help."""
    suffixes: tuple[str, ...] = ()
    """The file names that ask for it (``.json``)."""
    text: Callable[[Results, Event], str | bytes] | None = None
    """The whole output; None for a writer that writes a file itself (:attr:`file`)."""
    file: Callable[[Results, PathLike, Sequence[PathLike]], object] | None = None
    """Writes a file (a workbook): the results, the path, the inputs it must never replace."""
    written_back: bool = False
    """It writes back a file that was read (a TRF report), so only when one was."""


def _table(results: Results, event: Event) -> str:
    from xl_elo.formats.writers import results_table

    return results_table(results) + "\n"


def _csv(results: Results, event: Event) -> bytes:
    from xl_elo.formats.writers import results_csv

    return results_csv(results)


def _json(results: Results, event: Event) -> str:
    from xl_elo.formats.writers import results_json

    return results_json(results) + "\n"


def _report(results: Results, event: Event) -> str:
    from xl_elo.formats.report import report

    return report(results, event) + "\n"


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

    return {f.FORMAT: Writer(f.FORMAT, f.FORMAT_HELP, tuple(f.SUFFIXES), written_back=True) for f in file_formats()}


@dataclass(frozen=True)
class Destination:
    """Where the user asked the results to go."""

    output: str | None = None
    """A file (``--output``), or None for the screen."""
    format: str | None = None
    """``--format``, or None: the output's name says, else the screen's default."""
    history_output: str | None = None
    """The next history's file (``--history-output``), for a system that takes a history table."""


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
         history_to_file: bool = True) -> Plan:
    """What is written where (:class:`Plan`), refused before any work when it cannot be: an output over an
    input, a format that cannot be written there, the history and the results in one file.

    ``writers``: the written-back formats of the files read (:attr:`xl_elo.loader.Loaded.writers`);
    ``default``: their default format for an output named for it; ``history_to_file``: a system that takes a
    history writes the next one beside ``--output`` (not when the results go into a workbook that holds it)."""
    back = dict(writers or {})
    fmt = choose_format(dest, tty, back, default=default)
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
    return Plan(fmt, writer, dest.output, history, listed, beside)


def _back(write: Callable[[Results], str | bytes]) -> Callable[[Results, Event], str | bytes]:
    return lambda results, event: write(results)


def deliver(p: Plan, results: Results, event: Event, out: TextIO) -> list[str]:
    """Write ``results`` as planned: to the output file (through a temporary file, never over an input) or
    the screen, and the next history where the plan says. The files written."""
    from xl_elo.formats.writers import history_csv, write_text_atomic

    written: list[str] = []
    if p.writer.file is not None:
        assert p.output is not None  # plan() refused a file writer without an output
        p.writer.file(results, p.output, p.inputs)
        written.append(p.output)
    else:
        assert p.writer.text is not None
        data = p.writer.text(results, event)
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

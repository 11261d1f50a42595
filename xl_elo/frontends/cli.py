"""The ``xl-elo`` command line: rate events, calculate one player, print published tables, convert,
build the template workbooks, run the demo.

Exit statuses: 0 done, 1 errors in the input (each named by file, row, column and value) or a
workbook whose formulas disagree with the engine, 2 usage errors (a bad option, a federation
or table that does not exist, an output that would replace an input).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TextIO

from xl_elo import __version__, words
from xl_elo.federations import codes, get, registry
from xl_elo.federations.contract import options_of
from xl_elo.formats.files import OutputError
from xl_elo.formats.layout import terminal_width
from xl_elo.frontends.calc import add_coefficient_flags, add_fact_flags
from xl_elo.loader import Loaded
from xl_elo.model import InputError
from xl_elo.pipeline import Destination, UsageError, choose_format, deliver, deliver_season, plan, written_back

if TYPE_CHECKING:
    from xl_elo.federations.contract import RatingSystem
    from xl_elo.loader import Loaded

EXIT_OK = 0
EXIT_INPUT = 1
EXIT_USAGE = 2

#: Suffixes read as a filled template workbook.
WORKBOOK_SUFFIXES = (".xlsx", ".xlsm", ".ods")


def _option_flags(switches: bool = False) -> dict[str, tuple[list[str], dict[str, Any]]]:
    """Every system's options as command-line flags: dest -> (flags, argparse keywords). With
    ``switches`` (calc), an option that declares a ``switch`` is a flag without a value that sets it."""
    out: dict[str, tuple[list[str], dict[str, Any]]] = {}
    for code, module in registry().items():
        for f in fields(module.Options):
            dest = f"opt_{f.name}"
            flags = [f"--{f.name.replace('_', '-')}"]
            if f.metadata.get("flag") and f.metadata["flag"] not in flags:
                flags.append(f.metadata["flag"])
            choices = f.metadata.get("choices") or None
            switch = f.metadata.get("switch") if switches else None
            help_ = (f"{code.upper()}: {f.metadata.get('help', '')} "
                     f"(default {f.default}; {f.metadata.get('source', '')})")
            if switch is not None:
                help_ = f"{code.upper()}: {f.name.replace('_', ' ')} {switch} ({f.metadata.get('source', '')})"
            if dest in out:  # the same option in two systems: one flag, both named in its help
                out[dest][1]["help"] += f"; {help_}"
                continue
            if switch is not None:
                out[dest] = (flags[:1], {"dest": dest, "action": "store_const", "const": switch, "default": None,
                                         "help": help_})
            else:
                out[dest] = (flags, {"dest": dest, "default": None, "choices": choices, "help": help_})
    return out


def _whole_option(low: int, high: int, what: str) -> Any:
    """An option's value read as the schema reads a cell: a whole number from ``low`` to ``high``."""
    from xl_elo import schema

    def parse(text: str) -> int:
        try:
            value = schema.whole(text, low, high, what=what)
        except schema.ValueProblem as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        if value is None:
            raise argparse.ArgumentTypeError(f"a blank value (expected {what})")
        return value

    return parse


def _parser() -> argparse.ArgumentParser:
    names = ", ".join(codes())
    p = argparse.ArgumentParser(
        prog="xl-elo",
        description=f"Rating rules of chess and shogi federations ({names}).",
        epilog="Exit status: 0 done, 1 errors in the input (or a workbook that disagrees with the engine), "
               "2 usage error.",
    )
    p.add_argument("--version", action="version", version=f"xl-elo {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    from xl_elo.loader import file_formats

    files = ", ".join(f.KIND for f in file_formats())
    r = sub.add_parser("rate", help="rate an event or period from CSV files, a tournament report (TRF), FESA's files "
                                    "or a filled template workbook",
                       description="Rate an event or rating period from the players and games tables "
                                   "(CSV, UTF-8, header row; docs/rules.md section 8); from the files people have "
                                   f"({files}: xl-elo rate report.trf -f fide), the ratings and the event read from "
                                   "them; or from a filled template workbook (xl-elo rate filled.xlsx): the "
                                   "federation is the one the workbook records, and every results cell where the "
                                   "workbook's own formulas disagree with the engine is reported, with the input "
                                   "cells behind it.")
    r.add_argument("inputs", nargs="*", metavar="FILE",
                   help=f"instead of CSV files: {files}; or a filled template workbook (.xlsx, .ods)")
    r.add_argument("--federation", "-f", help=f"one of {names} (or an alias)")
    r.add_argument("--players", "-p", help="players CSV")
    r.add_argument("--games", "-g", help="games CSV")
    r.add_argument("--history", help="the history table (CSV) of a system that takes one: " + "; ".join(
        f"{m.CODE.upper()}: {m.HISTORY}" for m in registry().values() if m.HISTORY))
    r.add_argument("--rating-list", metavar="FILE",
                   help="FIDE's downloadable rating list (TXT or XML): each player's rating, K, birth year and "
                        "2400 flag by FIDE id (with -f fide); FESA: the rating list of FESA's program "
                        "(ratingliste.pre) read with the tournament file turnering.txt")
    dated = ", ".join(m.CODE.upper() for m in registry().values() if m.NEEDS_PERIOD)
    r.add_argument("--period", help=f"the period as YYYY-MM ({dated}: required, the rules hang on its date)")
    written_back = written_back_formats()
    r.add_argument("--format", choices=("table", "csv", "json", "report", "xlsx", *written_back),
                   help="table (default on a terminal), csv (default otherwise), json, report (crosstable), "
                        "xlsx (a workbook: the default for --output FILE.xlsx), "
                        + ", ".join(f"{name} ({words})" for name, words in written_back.items()))
    r.add_argument("--wide", action="store_true",
                   help="table, report: every column on one line a player, however wide (by default a table fits "
                        "the terminal, 80 columns in a file or a pipe: the key columns first, the others as they "
                        "fit, the notes below)")
    r.add_argument("--columns", metavar="A,B,...",
                   help="table: these results columns, in this order (the names of the CSV's header)")
    r.add_argument("--output", "-o", help="write to this file instead of the screen (never over an input)")
    r.add_argument("--language", metavar="LANG",
                   help="the language of --format report, of a season workbook (--season-output FILE.xlsx) and "
                        "of the players' pages (--player): en (default), or a catalogue's code ("
                        + ", ".join(words.available()[1:]) + ") or a .po file's path; a workbook's report is in its "
                        "own language. CSV and JSON, and xl-elo's own messages, stay English")
    r.add_argument("--history-output", help="where to write the history for the next event, for a system that "
                                            "takes one (default: next to --output, as NAME_history.csv)")
    r.add_argument("--season-output", metavar="FILE",
                   help="a season (games with a period, date or event column; several TRF reports; a PGN "
                        "database): each player's history, period by period or event by event, as .csv, .json or "
                        ".xlsx (a season workbook: the list after each period, a leaderboard, each player's rating "
                        "over time as a chart)")
    r.add_argument("--player", action="append", metavar="ID",
                   help="print this player's season calculation, period by period, event by event, game by game, "
                        "instead of the results (repeat for several)")
    for flags, kwargs in _option_flags().values():
        r.add_argument(*flags, **kwargs)
    r.add_argument("--recalculate", action="store_true",
                   help="workbook: recalculate it in LibreOffice first (when it was filled by a program)")

    c = sub.add_parser("calc", help="one player's change, game by game, as FIDE's online calculator",
                       description="One player's rating change over a period or event, each game's difference, "
                                   "expected score and change, the total, K and the new rating. "
                                   "Example: xl-elo calc fide --rating 2150 --games \"2210 1, 2050 0.5, 1900 0\"")
    c.add_argument("federation", help=f"one of {names}")
    c.add_argument("--rating", help="the player's rating before, required: a number, or 'unrated' (or \"\", blank) "
                                    "for an unrated or new player")
    c.add_argument("--games", required=True, action="append",
                   help="the games: 'opponent result' separated by commas, e.g. \"2210 1, 2050 0.5, 1900 0\"; "
                        "an unrated opponent as 'unrated 1'; handicaps as '1700 1 B gives' or '1700 0 B'; "
                        "given more than once, all the games count")
    add_coefficient_flags(c, lambda name: _whole_option(1, 100, "a K-factor from 1 to 100") if name == "k"
                          else _whole_option(1, 200, f"{name.upper()} from 1 to 200"))
    c.add_argument("--format", choices=("table", "json"), default="table",
                   help="table (default: as a rating officer checks it) or json (every number at full precision)")
    c.add_argument("--period", help="the period YYYY-MM (ages count in its year; default: this month)")
    add_fact_flags(c)
    c.add_argument("--performance", action="store_true", help="print only the performance rating")
    for flags, kwargs in _option_flags(switches=True).values():
        c.add_argument(*flags, **kwargs)

    w = sub.add_parser("workbooks", help="build the template workbooks",
                       description="Write the template workbooks (one per federation, native formulas, no macro) "
                                   "and the published-tables workbook to a folder.")
    w.add_argument("--output-dir", "-o", default="workbooks", help="folder (default: workbooks)")
    sheets = [f"{code}-norms" for code, m in registry().items() if m.NORMS is not None and m.NORMS.sheet]
    w.add_argument("--only", action="append", help=f"build only this one ({names}, tables; the norm sheets: "
                                                   f"{', '.join(sheets)})")
    for room, what in (("players", "players"), ("games", "games"), ("history", "history rows (earlier games)"),
                       ("periods", "rating periods laid out (a ladder)")):
        w.add_argument(f"--{room}", type=int, metavar="N",
                       help=f"room for N {what} (default: each template's own, see docs/rules.md); a smaller room "
                            "recalculates faster and prints fewer pages")
    w.add_argument("--language", metavar="LANG",
                   help="the templates' words: " + ", ".join(words.available()) + " (xl_elo/locale's catalogues) or a "
                        ".po file's path; default: each template's shipped languages")
    w.add_argument("--replace", action="store_true",
                   help="write over workbooks of the same names in the folder (never done otherwise: a template "
                        "filled there would be lost)")

    x = sub.add_parser("extension", help="build the LibreOffice Calc extension (the functions in Calc)",
                       description="Write xl-elo.oxt, the LibreOffice Calc extension that gives Calc the "
                                   "spreadsheet functions (ELO_EXPECTED, FQE_TABLE, ...); install it with Tools > "
                                   "Extension Manager > Add, or unopkg add xl-elo.oxt (udfs/README.md).")
    x.add_argument("--output", "-o", default="xl-elo.oxt", help="the file to write (default: xl-elo.oxt)")

    xs = sub.add_parser("excel-setup", help="write what each xlwings runtime needs for the functions in Excel",
                        description="Write, one folder per xlwings runtime, what it needs to give Excel the "
                                    "spreadsheet functions: classic/ (xlwings.conf), lite/ (main.py, "
                                    "requirements.txt), server/ (a module for xlwings Server, and app.py, a "
                                    "minimal server on 127.0.0.1). Each folder's README.txt says the steps "
                                    "(udfs/README.md).")
    xs.add_argument("--output-dir", "-o", default="xl-elo-excel", help="folder (default: xl-elo-excel)")
    xs.add_argument("--runtime", action="append", choices=("classic", "lite", "server"),
                    help="only this runtime (repeatable; default: all three)")
    xs.add_argument("--wheel-url", help="the HTTPS address of xl-elo's wheel, for xlwings Lite's requirements.txt")

    t = sub.add_parser("tables", help="list or print the federations' published tables",
                       description="Without NAME, list the published tables; with NAME, print it; with "
                                   "--compare, print it beside the values our formulas give, differences marked.")
    t.add_argument("name", nargs="?", help="table name (see the list)")
    t.add_argument("--compare", action="store_true", help="show the computed values and mark the differences")
    t.add_argument("--wide", action="store_true", help="every column on one line, however wide (by default the "
                                                       "table fits the terminal, 80 columns in a file or a pipe)")

    cv = sub.add_parser("convert", help="convert a rating between Elo and INGO, BRIDIER, BCR, CS (FFE)",
                        description="Convert ratings with the FFE's formulas (rules 5.11), e.g. "
                                    "xl-elo convert 180 --from bcr --to elo")
    cv.add_argument("values", nargs="+", help="one or more values")
    cv.add_argument("--from", dest="from_system", required=True, help="elo, ingo, bridier, bcr or cs")
    cv.add_argument("--to", dest="to_system", default="elo", help="elo (default), ingo, bridier, bcr or cs")

    ru = sub.add_parser("rules", help="print the rules as xl-elo reads them (docs/rules.md), or one section",
                        description="Print xl-elo's reading of the federations' rules (docs/rules.md in the "
                                    "repository), or the sections named, e.g. xl-elo rules 2.3 6.11")
    ru.add_argument("sections", nargs="*", help=f"section numbers (2.3, 6.11, 4 ...) or systems ({names}: a "
                                                "system's chapter)")

    sy = sub.add_parser("systems", help="list the rating systems xl-elo knows",
                        description="The rating systems: code, name, what is rated at once, the rules chapter, "
                                    "the template workbook and the federation's own text.")
    sy.add_argument("--markdown", action="store_true", help="as the README's table")

    from xl_elo.frontends.norms import add_parser as add_norms

    add_norms(sub)

    d = sub.add_parser("demo", help="rate the shipped worked examples and write their results",
                       description="Rate the worked examples shipped with xl-elo (one per federation), print "
                                   "them and write the results to a folder.")
    d.add_argument("--output-dir", default="xl-elo-demo", help="folder for the results (default: xl-elo-demo)")
    d.add_argument("--only", action="append", metavar="SYSTEM",
                   help=f"only this system's example (repeat for several: {names})")
    return p


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run the command line; returns the exit status."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed its message
        return int(exc.code or 0) and EXIT_USAGE
    try:
        if args.command == "rate":
            return _rate(args, out, err)
        if args.command == "calc":
            from xl_elo.frontends.calc import run_calc

            module = _federation(args.federation)
            return run_calc(args, module, _options(module, args), out)
        if args.command == "norms":
            from xl_elo.frontends.norms import run as run_norms

            status, usage = run_norms(args, out, err)
            if usage:
                raise UsageError(usage)
            return status
        if args.command == "tables":
            return _tables(args, out)
        if args.command == "workbooks":
            return _workbooks(args, out, err)
        if args.command == "convert":
            return _convert(args, out)
        if args.command == "rules":
            return _rules(args, out, err)
        if args.command == "systems":
            out.write(systems_table(markdown=args.markdown))
            return EXIT_OK
        if args.command in ("extension", "excel-setup"):
            return _spreadsheet_setup(args, out)
        if args.command == "demo":
            from xl_elo.frontends.demo import run_demo

            try:
                only = [get(name).CODE for name in args.only] if args.only else None
            except (KeyError, ValueError):
                raise UsageError(f"unknown system in --only {' '.join(args.only)}; expected one of "
                                 f"{', '.join(codes())}") from None
            return run_demo(Path(args.output_dir), out, only)
        parser.print_help(out)
        return EXIT_USAGE
    except InputError as exc:
        print(f"xl-elo: {_problems(exc)}", file=err)
        for warning in exc.warnings:  # a heading not read may be the column a problem misses
            print(f"xl-elo: warning: {warning}", file=err)
        return EXIT_INPUT
    except (UsageError, OutputError) as exc:
        print(f"xl-elo: {exc}", file=err)
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK
    except OSError as exc:
        print(f"xl-elo: {_output_name(exc.filename)}: {exc.strerror or exc}", file=err)
        return EXIT_INPUT
    except RuntimeError as exc:  # numpy missing, LibreOffice failing: said plainly
        print(f"xl-elo: {exc}", file=err)
        return EXIT_INPUT
    except KeyboardInterrupt:  # every output is written whole or not at all: nothing to clean
        print("xl-elo: interrupted; no output was written", file=err)
        return 130
    except MemoryError:
        print("xl-elo: not enough memory for these files (is one of them far bigger than an event?)", file=err)
        return EXIT_INPUT
    except Exception as exc:
        print(f"xl-elo: internal error ({exc.__class__.__name__}: {str(exc)[:200]}); nothing was written. "
              "Please report it with the command and the files that caused it.", file=err)
        return EXIT_INPUT


def _output_name(filename: Any) -> str:
    """A file an error names; the temporary an output is written to (``.NAME.random.tmp``) as that output."""
    import re

    text = str(filename or "")
    m = re.match(r"^(?P<dir>.*/)?\.(?P<name>.+)\.[A-Za-z0-9_]{8}\.tmp$", text)
    return f"{m.group('dir') or ''}{m.group('name')}" if m else text


#: At most this many problems are printed; the count of the others follows.
MAX_PROBLEMS_SHOWN = 50


def _problems(exc: InputError) -> str:
    """An input error as printed: every problem, or the first ones and how many more there are. A reader
    keeps the first problems of a table and counts the others (a line with their number, ``more``)."""
    listed = [p for p in exc.problems if not getattr(p, "more", 0)]
    uncounted = sum(getattr(p, "more", 0) for p in exc.problems)
    if len(listed) <= MAX_PROBLEMS_SHOWN and not uncounted:
        return str(exc)
    total = len(listed) + uncounted
    shown = listed[:MAX_PROBLEMS_SHOWN]
    lines = [f"{total:,} problems in the input; the first {len(shown)}:"] + [f"  - {p}" for p in shown]
    lines.append(f"  ... and {total - len(shown):,} more problems")
    return "\n".join(lines)


def _federation(name: str | None) -> Any:
    try:
        return get(name or "")
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _given(args: argparse.Namespace) -> dict[str, Any]:
    """The options given as flags, by name (``{"list": "rapid"}``)."""
    return {k[4:]: v for k, v in vars(args).items() if k.startswith("opt_") and v is not None}


def _options(module: RatingSystem, args: argparse.Namespace, files: dict[str, Any] | None = None) -> Any:
    """The federation's Options from the flags given, over what the files set (``files``: a TRF-26
    report's time control sets FIDE's list); a flag of another federation is a usage error."""
    mine = {f.name for f in fields(module.Options)}
    flags = _given(args)
    other = sorted(set(flags) - mine)
    given = {**(files or {}), **flags}
    if other:
        named = ", ".join(f"--{o.replace('_', '-')}" for o in other)
        raise UsageError(f"{named} is not an option of {module.CODE.upper()}")
    from xl_elo import schema

    for f in fields(module.Options):  # a number option is a finite number ('nan', '1e400' are not)
        if f.name in given and isinstance(f.default, (int, float)) and not isinstance(f.default, bool):
            try:
                schema.number(given[f.name], what=f"a number for --{f.name.replace('_', '-')}", low=-10_000,
                              high=10_000)
            except schema.ValueProblem as exc:
                raise UsageError(f"--{f.name.replace('_', '-')}: {exc}") from None
    try:
        return options_of(module.Options, None, **given)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _workbook_options(module: RatingSystem, given: dict[str, Any], name: str) -> Any:
    """A workbook's settings as the federation's Options; a bad one named by its sheet and setting."""
    from xl_elo import schema
    from xl_elo.model import Problem

    def problem(setting: str, words: str) -> InputError:
        return InputError([Problem(f"{name}, sheet instructions", None, setting, words)])

    for f in fields(module.Options):
        if f.name in given and isinstance(f.default, (int, float)) and not isinstance(f.default, bool):
            try:
                schema.number(given[f.name], what=f"a number for the setting {f.name}", low=-10_000, high=10_000)
            except schema.ValueProblem as exc:
                raise problem(f.name, str(exc)) from None
    try:
        return options_of(module.Options, None, **given)
    except (ValueError, TypeError) as exc:
        raise problem("settings", str(exc)) from None


def _destination(args: argparse.Namespace) -> Destination:
    """Where the results go, as the flags say (:mod:`xl_elo.pipeline`)."""
    return Destination(args.output, args.format, args.history_output,
                       season_output=getattr(args, "season_output", None),
                       players=tuple(getattr(args, "player", None) or ()), columns=getattr(args, "columns", None),
                       wide=getattr(args, "wide", False))


def _rate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from xl_elo.loader import load, takes_history

    workbooks = [p for p in args.inputs if Path(p).suffix.lower() in WORKBOOK_SUFFIXES]
    others = [p for p in args.inputs if p not in workbooks]
    if workbooks:
        if others or args.players or args.games:
            raise UsageError("give filled workbooks, or CSV files with --players and --games")
        if args.rating_list:
            raise UsageError("--rating-list goes with TRF reports, FESA's files or a players CSV, not a workbook")
        if len(workbooks) > 1:
            return _rate_and_write(_workbook_season(args, [Path(w) for w in workbooks]), args, out, err)
        return _rate_workbook(args, Path(workbooks[0]), out, err)
    if others:
        if args.players or args.games or args.history:
            raise UsageError("give the files of one kind: a TRF report, a PGN database or FESA's files, or CSV "
                             "files with --players and --games")
        module = _federation(args.federation) if args.federation else None
        if module is not None:
            _options(module, args)  # a flag of another system: a usage error before any reading
        loaded = load(module, files=others, rating_list=args.rating_list, period=args.period,
                      one_report=args.format in written_back_formats(), output=args.output, options=_given(args))
        return _rate_and_write(loaded, args, out, err)
    missing = [f"--{n}" for n in ("federation", "players", "games") if not getattr(args, n)]
    if missing:
        raise UsageError(f"rate needs {', '.join(missing)} (or a filled workbook: xl-elo rate filled.xlsx)")
    module = _federation(args.federation)
    for flag in ("history", "history_output"):
        if getattr(args, flag) and not takes_history(module):
            raise UsageError(f"--{flag.replace('_', '-')} is for {_history_systems()} only")
    options = _options(module, args)
    inputs = [x for x in (args.players, args.games, args.history, args.rating_list) if x]
    plan(module, _destination(args), inputs, tty=out.isatty(), width=terminal_width(out))  # before any reading
    loaded = load(module, players=args.players, games=args.games, history=args.history, rating_list=args.rating_list,
                  period=args.period, options=_given(args))
    return _rate_and_write(loaded, args, out, err, options)


def _history_systems() -> str:
    """The systems that take a history table, as a usage message names them (``FESA tournaments``)."""
    from xl_elo.loader import takes_history

    return ", ".join(f"{m.CODE.upper()} {m.UNIT}s" for m in registry().values() if takes_history(m))


def written_back_formats() -> dict[str, str]:
    """Formats that write back a file that was read (a TRF report, FESA's rating list), with their words."""
    return {name: w.help for name, w in written_back().items()}


def _rate_and_write(loaded: Loaded, args: argparse.Namespace, out: TextIO, err: TextIO, options: Any = None) -> int:
    """Rate what was read and write the results where the flags say (:mod:`xl_elo.pipeline`)."""
    for warning in loaded.warnings:
        print(f"xl-elo: warning: {warning}", file=err)
    options = options if options is not None else _options(loaded.module, args, loaded.options)
    where = plan(loaded.module, _destination(args), loaded.inputs, tty=out.isatty(), width=terminal_width(out),
                 writers=loaded.writers, default=loaded.default_format)
    season = loaded.season(options) if where.season_output or where.players else None
    results = season.final if season is not None and not loaded.module.PERIODS else loaded.rate(options)
    for warning in results.warnings:
        print(f"xl-elo: warning: {warning}", file=err)
    language = _language(args.language)
    if season is not None:
        with words.use(language):  # the season workbook's and the players' pages' words (CSV, JSON: as written)
            deliver_season(where, season, out)
    if not where.players:
        with words.use(language):  # the report's words; everything else stays as written
            deliver(where, results, lambda: loaded.event, out)
    return EXIT_OK


def _language(asked: str | None, default: str = words.SOURCE) -> str:
    """The language of a report (--language), checked: a catalogue's code or a .po file."""
    wanted = asked or default
    try:
        return wanted if wanted.endswith(".po") else words.catalogue(wanted).language
    except LookupError as exc:
        raise UsageError(str(exc)) from None


def _rate_workbook(args: argparse.Namespace, source: Path, out: TextIO, err: TextIO) -> int:
    """Rate a filled template with the engine and compare with the workbook's own formulas."""
    import tempfile
    import warnings
    from dataclasses import replace

    from xl_elo.formats.files import check_output, input_path
    from xl_elo.formats.workbook import compare, explain, read_workbook, write_rated
    from xl_elo.loader import Loaded

    input_path(source)
    ignored = [f"--{k.replace('_', '-')}" for k in ("period", "history") if getattr(args, k, None)]
    ignored += [f"--{k[4:].replace('_', '-')}" for k, v in vars(args).items() if k.startswith("opt_") and v is not None]
    if ignored:  # a setting the workbook holds is never overridden, nor silently left unused
        raise UsageError(f"{', '.join(ignored)}: a workbook holds its own settings (its instructions sheet) and "
                         "history (its history sheet); change them there")
    fmt = choose_format(_destination(args), out.isatty())
    if fmt == "xlsx" and not args.output:
        raise UsageError("--format xlsx needs --output FILE.xlsx")
    if args.output:  # refused before any work: the source itself, never a recalculated copy
        check_output(args.output, [source])
    with tempfile.TemporaryDirectory(prefix="xl-elo-") as tmp:
        to_read = source
        if args.recalculate or source.suffix.lower() == ".ods":
            from xl_elo.formats.libreoffice import LibreOfficeError, recalculate

            try:
                to_read = recalculate(source, Path(tmp) / "recalculated.xlsx")
            except LibreOfficeError as exc:
                raise UsageError(str(exc)) from None
        with warnings.catch_warnings():  # openpyxl's warnings about a file are not for the user's screen
            warnings.simplefilter("ignore")
            filled = read_workbook(to_read, shown_as=source.name, find=get)
        module = get(filled.federation)
        if args.federation and _federation(args.federation).CODE != module.CODE:
            raise UsageError(f"{source.name} is a {module.CODE.upper()} template, not {args.federation.upper()}")
        # FESA's next history: in the workbook written, else in a CSV file (given, or beside --output)
        where = plan(module, _destination(args), [source], tty=out.isatty(), history_to_file=fmt != "xlsx",
                     width=terminal_width(out))
        results = Loaded(module, filled.tables).rate(_workbook_options(module, filled.options, source.name))
        differences = compare(filled, results) if filled.calculated else []
        status = EXIT_OK
        if not filled.calculated and not filled.event.players:
            print(f"xl-elo: {source.name}: no player typed yet, nothing to rate or compare", file=err)
        elif not filled.calculated and filled.banner:  # computed, and the workbook itself shows no rating
            print(f"xl-elo: {source.name} shows no rating; its banner says: {' '.join(filled.banner.split())} "
                  "(the results here are the engine's; nothing compared)", file=err)
        elif not filled.calculated:
            print(f"xl-elo: warning: {source.name}'s formulas have not been calculated (it was saved by a program, "
                  "not a spreadsheet): open and save it in Excel or LibreOffice, or use --recalculate; "
                  "nothing compared", file=err)
        elif differences:
            status = EXIT_INPUT
            rows = sum(1 for d in differences if d.note)
            cells = len(differences) - rows
            counted = " and ".join(([f"{cells} results cells"] if cells else [])
                                   + ([f"{rows} results {'row' if rows == 1 else 'rows'} (a player in no table, "
                                       "shown twice or not shown)"] if rows else []))
            print(f"xl-elo: {source.name}: the workbook's formulas disagree with the engine on {counted}:", file=err)
            for line in explain(filled, differences):
                print(f"  {line}", file=err)
        else:
            print(f"xl-elo: {source.name}: the workbook's formulas agree with the engine on every results cell",
                  file=err)
        for warning in [*filled.warnings, *results.warnings]:
            print(f"xl-elo: warning: {warning}", file=err)
        if fmt == "xlsx":  # the workbook written is the one read, rated, its disagreements marked
            where.writer = replace(where.writer, file=lambda r, path, inputs: write_rated(r, differences, path,
                                                                                         inputs=inputs))
        with words.use(_language(args.language, filled.language)):  # a workbook's report: in its own language
            written_files = deliver(where, results, filled.event, out)
        for written in written_files:
            print(f"xl-elo: written {written}", file=err)
    return status


def _workbook_season(args: argparse.Namespace, paths: list[Path]) -> Loaded:
    """Several filled templates of one system as a season (rules 14): each its own event, in the order of their
    periods (else as given); the season starts from the players of the first, a player new in a later one as
    typed there, and each later one's games are rated from the list the ones before left."""
    import warnings

    from xl_elo.formats.files import given_twice, input_path
    from xl_elo.formats.workbook import read_workbook
    from xl_elo.loader import Loaded, from_event
    from xl_elo.model import Event, Problem

    for path in paths:
        input_path(path)
    twice = given_twice(paths)
    if twice:
        raise InputError([Problem(paths[j].name, None, None, "is given twice: its games would count twice")
                          for _, j, _ in twice])
    with warnings.catch_warnings():  # openpyxl's warnings about a file are not for the user's screen
        warnings.simplefilter("ignore")
        filled = [read_workbook(path, find=get) for path in paths]
    systems = {f.federation for f in filled}
    if len(systems) > 1:
        raise UsageError(f"the workbooks are templates of {', '.join(sorted(s.upper() for s in systems))}: a season "
                         "is one system's")
    module = get(filled[0].federation)
    if args.federation and _federation(args.federation).CODE != module.CODE:
        raise UsageError(f"the workbooks are {module.CODE.upper()} templates, not {args.federation.upper()}")
    ordered = sorted(range(len(filled)), key=lambda k: (filled[k].tables.period is None, filled[k].tables.period or "",
                                                         k))
    players: dict[str, Any] = {}
    games = []
    notes = []
    for k in ordered:
        f = filled[k]
        event = f.event
        for p in event.players:
            players.setdefault(p.id, p)
        label = paths[k].name
        day = f"{f.tables.period}-01" if f.tables.period and len(f.tables.period) == 7 else f.tables.period
        games += [replace(g, event=label, period=g.period or day) for g in event.games]
        notes += f.warnings
    season = Event(tuple(players.values()), tuple(games), filled[ordered[0]].event.history,
                   filled[ordered[-1]].tables.period, " + ".join(paths[k].name for k in ordered))
    options = {**filled[ordered[-1]].options}
    loaded = Loaded(module, from_event(module, season), [str(path) for path in paths], options=options,
                    warnings=notes)
    loaded.warnings.append(f"{len(paths)} workbooks rated as a season, each an event in the order of its period "
                           f"({', '.join(paths[k].name for k in ordered)}), each from the list the ones before left "
                           "(rules 14); their own formulas are not compared")
    return loaded


#: The largest room ``xl-elo workbooks`` builds (a bigger event is rated from CSV files).
MAX_ROOM: Final = {"players": 2000, "games": 20000, "history": 20000, "periods": 52}


#: What each room is, for a template that has none of it.
_ROOM_WORDS: Final = {"players": "players sheet", "games": "games sheet", "history": "history sheet",
                      "periods": "rating periods laid out (a ladder's)"}


def _workbooks(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from dataclasses import replace

    from xl_elo.formats.files import check_output
    from xl_elo.templates import (
        Capacity,
        build_template,
        default_capacity,
        file_name,
        languages,
        room_problem,
        rooms,
        sheet_names,
        shipped_rooms,
        template_names,
    )

    keys = []
    for name in args.only or template_names() + sheet_names():
        try:
            # a template's own name (``fide-season``, ``tables``, a norm sheet), else a system's code or alias
            keys.append(name.lower() if name.lower() in (*template_names(), *sheet_names()) else get(name).CODE)
        except (KeyError, ValueError):
            raise UsageError(f"unknown workbook {name!r}; expected one of "
                             f"{', '.join(template_names() + sheet_names())}") from None
    room = {k: getattr(args, k) for k in MAX_ROOM if getattr(args, k) is not None}
    for k, n in room.items():
        if not 1 <= n <= MAX_ROOM[k] and not (k == "history" and n == 0):
            raise UsageError(f"--{k} {n} is out of range (expected 1 to {MAX_ROOM[k]:,}; rate a bigger event from "
                             "CSV files with xl-elo rate)")
    has = {key: rooms(key) for key in keys}
    for k in room:  # a room no template built has is said, never ignored silently
        takers = [key for key in keys if k in has[key]]
        # the published tables and a norm sheet have no room: never named
        without = [key for key in keys if k not in has[key] and key not in ("tables", *sheet_names())]
        if not takers:
            which = f"the {keys[0]} workbook has no" if len(keys) == 1 else "none of these workbooks has a"
            raise UsageError(f"--{k}: {which} {_ROOM_WORDS[k]} (--{k} is for {', '.join(_takers(k))})")
        if without:
            print(f"xl-elo: warning: --{k} is for the templates with a {_ROOM_WORDS[k]} ({', '.join(takers)}); "
                  f"{', '.join(without)} {'has' if len(without) == 1 else 'have'} none", file=err)
    capacities = {key: replace(default_capacity(key), **{k: n for k, n in room.items() if k in has[key]})
                  if room and has[key] else None for key in keys}
    problems = [why for key, cap in capacities.items() if cap is not None and (why := room_problem(key, cap))]
    if problems:
        raise UsageError("\n".join(problems))
    try:
        Path(args.output_dir).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot make the folder {args.output_dir}: {exc.strerror or exc}") from None
    if args.language is not None:
        try:
            words.catalogue(args.language)
        except LookupError as exc:
            raise UsageError(str(exc)) from None
    # (system, room, language, file): each template's shipped rooms and languages, or the room and language asked
    jobs: list[tuple[str, Capacity | None, str | None, str]] = []
    for key in keys:
        if key == "tables":
            jobs.append((key, None, None, file_name(key)))
            continue
        if key in sheet_names():  # a norm sheet: its one room, in the language asked
            lang = args.language
            jobs.append((key, None, lang, file_name(key, None, Path(lang).stem if lang else None)))
            continue
        for room_of in ([c] if (c := capacities[key]) is not None else shipped_rooms(key)):
            for lang in ([args.language] if args.language else languages(key)):
                jobs.append((key, room_of, lang, file_name(key, room_of, Path(lang).stem)))
    targets = [Path(args.output_dir) / file for *_, file in jobs]
    for target in targets:
        if target.exists() and not args.replace:
            raise UsageError(f"{target} exists (a template you may have filled): give another --output-dir, or "
                             "--replace to write over it")
        check_output(target)
    for key, capacity, lang, file in jobs:
        if lang is not None:
            with words.recording() as (_asked, missing):
                path = build_template(key, args.output_dir, capacity, lang, file)
            if missing:
                print(f"xl-elo: warning: {file}: {len(missing)} phrase(s) have no words in the catalogue "
                      f"{words.catalogue(lang).path} and are in English, among them "
                      f"{min(m for _c, m in missing)!r}",
                      file=err)
        else:
            path = build_template(key, args.output_dir, capacity, None, file)
        out.write(f"{path}\n")
    return EXIT_OK


def _takers(room: str) -> list[str]:
    from xl_elo.templates import rooms, template_names

    return [key for key in template_names() if room in rooms(key)]


def _tables(args: argparse.Namespace, out: TextIO) -> int:
    from xl_elo.formats.layout import terminal_width, wrapped
    from xl_elo.published import get_table, table_names

    width = None if getattr(args, "wide", False) else terminal_width(out)
    if not args.name:
        out.write("Published tables (xl-elo tables NAME [--compare]):\n")
        pad = " " * 20
        for name in table_names():
            view = get_table(name)
            out.write(wrapped(view.title, width, indent=pad, first=f"  {name:<17} ") + "\n")
            out.write(wrapped(f"source: {view.source}", width, indent=pad + "  ", first=pad) + "\n")
        return EXIT_OK
    try:
        view = get_table(args.name)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    out.write(f"{wrapped(view.title, width)}\n{wrapped(f'Source: {view.source}', width, indent='  ')}\n\n")
    if args.compare:
        out.write(_grid(view.compare_columns, view.compare_rows, view.differs, width))
        n = sum(view.differs)
        out.write(f"\n{wrapped(view.note, width)}\n{n} of {len(view.differs)} rows differ (marked *).\n")
    else:
        out.write(_grid(view.columns, view.rows, width=width))
    return EXIT_OK


def _grid(columns: Sequence[str], rows: Sequence[Sequence[object]], marks: Sequence[bool] | None = None,
          width: int | None = None) -> str:
    """A published table aligned right, in blocks of columns that fit ``width`` (each repeating the first)."""
    from xl_elo.formats.layout import grid
    from xl_elo.formats.writers import format_cell

    cells = [[format_cell(v) for v in row] for row in rows]
    shown = ["* " if marks and marks[i] else "  " for i in range(len(cells))]
    return grid(list(columns), cells, width, lead="  ", marks=shown) + "\n"


def _rules(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from xl_elo.rulesdoc import render, sections

    if not args.sections:
        out.write(render())
        return EXIT_OK
    found = sections()
    wanted = []
    for s in args.sections:  # a section number, or a system's code or alias: its chapter
        if s in found:
            wanted.append(s)
            continue
        try:
            wanted.append(str(get(s).RULES))
        except ValueError:
            if not any(ch.isdigit() for ch in s):
                raise UsageError(f"unknown system {s!r}: the rules of {', '.join(codes())}, or a section number "
                                 "(e.g. 2.3, 6.11)") from None
            last = max(int(k) for k in found if k.isdigit())
            raise UsageError(f"no section {s} in the rules (e.g. 2.3, 6.11; chapters 1 to {last}; or a system: "
                             f"{', '.join(codes())})") from None
    for s in wanted:
        out.write(found[s] + "\n\n")
    return EXIT_OK


def systems_table(markdown: bool = False) -> str:
    """The registered systems, one row each (the README's table with ``markdown``)."""
    rows = [(f"`{m.CODE}`" if markdown else m.CODE, m.NAME, m.UNIT,
             f"[docs/rules.md, section {m.RULES}](docs/rules.md)" if markdown else f"rules {m.RULES}",
             f"`{m.TEMPLATE}`" if markdown else str(m.TEMPLATE or ""),
             f"[official]({m.SOURCE})" if markdown else m.SOURCE) for m in registry().values()]
    if markdown:
        head = "| code | federation | rates one | rules | template | the federation's text |\n"
        head += "| --- | --- | --- | --- | --- | --- |\n"
        return head + "".join(f"| {' | '.join(row)} |\n" for row in rows)
    widths = [max(len(r[j]) for r in rows) for j in range(len(rows[0]))] if rows else []
    return "".join("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() + "\n" for row in rows)


def _convert(args: argparse.Namespace, out: TextIO) -> int:
    from xl_elo import schema

    convert = next((m.convert for m in registry().values() if m.convert is not None), None)
    if convert is None:
        raise UsageError("no system offers conversions")
    from xl_elo.formats.writers import format_cell

    for value in args.values:
        try:
            number = schema.number(value, what="a rating to convert")
        except schema.ValueProblem as exc:
            raise UsageError(str(exc)) from None
        if number is None:
            raise UsageError("a blank value: give a number to convert")
        try:
            result = float(convert(number, args.from_system, args.to_system))
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        out.write(f"{format_cell(number)} {args.from_system.upper()} = "
                  f"{format_cell(round(result, 3))} {args.to_system.upper()}\n")
    return EXIT_OK


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    run()


def _spreadsheet_setup(args: argparse.Namespace, out: TextIO) -> int:
    """``xl-elo extension`` and ``xl-elo excel-setup``: files that put the functions in a spreadsheet."""
    if args.command == "extension":
        from xl_elo.frontends.addin.build import ExtensionError, build

        try:
            path = build(args.output)
        except ExtensionError as exc:
            raise RuntimeError(str(exc)) from None
        out.write(f"wrote {path}: install it with LibreOffice's Tools > Extension Manager > Add, or "
                  f"unopkg add {path}, then restart LibreOffice\n")
        return EXIT_OK
    from xl_elo.frontends.excel_setup import RUNTIMES, SetupError, write

    try:
        written = write(args.output_dir, tuple(args.runtime or RUNTIMES), args.wheel_url)
    except SetupError as exc:
        raise UsageError(str(exc)) from None
    for path in written:
        out.write(f"wrote {path}\n")
    out.write(f"next: the README.txt of each folder in {args.output_dir} (udfs/README.md has the same steps)\n")
    return EXIT_OK


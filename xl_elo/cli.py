"""The ``xl-elo`` command line: rate events, print published tables, convert, run the demo.

Exit statuses: 0 done, 1 errors in the input (each named by file, row, column and value),
2 usage errors (a bad option, a federation or table that does not exist).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from xl_elo import __version__
from xl_elo.federations import FEDERATIONS, find_federation
from xl_elo.model import InputError, Results

EXIT_OK = 0
EXIT_INPUT = 1
EXIT_USAGE = 2


class UsageError(Exception):
    """A usage problem: exit status 2."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="xl-elo",
        description="Rating rules of chess and shogi federations (FIDE, FSE, FQE, FFE, FESA).",
        epilog="Exit status: 0 done, 1 errors in the input, 2 usage error.",
    )
    p.add_argument("--version", action="version", version=f"xl-elo {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    r = sub.add_parser("rate", help="rate an event or period from CSV files or a filled template workbook",
                       description="Rate an event or rating period from the players and games tables "
                                   "(CSV, UTF-8, header row; SPEC section 8), or from a filled template workbook "
                                   "(xl-elo rate filled.xlsx --output rated.xlsx): the federation is the one the "
                                   "workbook records, and every results cell where the workbook's own formulas "
                                   "disagree with the engine is reported.")
    r.add_argument("workbook", nargs="?", help="a filled template workbook (.xlsx) instead of CSV files")
    r.add_argument("--federation", "-f", help=f"one of {', '.join(FEDERATIONS)} (CSV files)")
    r.add_argument("--players", "-p", help="players CSV")
    r.add_argument("--games", "-g", help="games CSV")
    r.add_argument("--history", help="FESA history CSV (performance-mode players)")
    r.add_argument("--period", help="period as YYYY-MM (FIDE, FSE: the year gives ages)")
    r.add_argument("--format", choices=("table", "csv", "json", "report"),
                   help="table (default on a terminal), csv (default otherwise), json, report (crosstable)")
    r.add_argument("--output", "-o", help="write to this file instead of the screen (never over an input)")
    r.add_argument("--history-output", help="FESA: where to write the history for the next tournament "
                                            "(default: next to --output, as NAME_history.csv)")
    r.add_argument("--dp", choices=("normal", "table"), default="normal",
                   help="FFE: D(P) from the normal quantile (default) or the published table (SPEC 5.4)")
    r.add_argument("--expected", choices=("table", "logistic"), default="table",
                   help="FIDE: expected score from FIDE's table (default) or the logistic formula (SPEC 2.2)")
    r.add_argument("--recalculate", action="store_true",
                   help="workbook: recalculate it in LibreOffice first (when it was filled by a program)")

    w = sub.add_parser("workbooks", help="build the template workbooks",
                       description="Write the template workbooks (one per federation, native formulas, no macro) "
                                   "and the published-tables workbook to a folder.")
    w.add_argument("--output-dir", "-o", default="workbooks", help="folder (default: workbooks)")
    w.add_argument("--only", action="append", help="build only this one (fide, fse, fqe, ffe, fesa, tables)")

    t = sub.add_parser("tables", help="list or print the federations' published tables",
                       description="Without NAME, list the published tables; with NAME, print it; with "
                                   "--compare, print it beside the values our formulas give, differences marked.")
    t.add_argument("name", nargs="?", help="table name (see the list)")
    t.add_argument("--compare", action="store_true", help="show the computed values and mark the differences")

    c = sub.add_parser("convert", help="convert a rating between Elo and INGO, BRIDIER, BCR, CS (FFE)",
                       description="Convert ratings with the FFE's formulas (SPEC 5.11), e.g. "
                                   "xl-elo convert 180 --from bcr --to elo")
    c.add_argument("values", nargs="+", help="one or more values")
    c.add_argument("--from", dest="from_system", required=True, help="elo, ingo, bridier, bcr or cs")
    c.add_argument("--to", dest="to_system", default="elo", help="elo (default), ingo, bridier, bcr or cs")

    d = sub.add_parser("demo", help="rate the shipped worked examples and write their results",
                       description="Rate the worked examples shipped with xl-elo (seed 004's FQE example, "
                                   "a real FESA tournament, FIDE, FSE and FFE periods), print them and write "
                                   "the results to a folder.")
    d.add_argument("--output-dir", default="xl-elo-demo", help="folder for the results (default: xl-elo-demo)")
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
        if args.command == "tables":
            return _tables(args, out)
        if args.command == "workbooks":
            return _workbooks(args, out)
        if args.command == "convert":
            return _convert(args, out)
        if args.command == "demo":
            from xl_elo.demo import run_demo

            return run_demo(Path(args.output_dir), out)
        parser.print_help(out)
        return EXIT_USAGE
    except InputError as exc:
        print(f"xl-elo: {exc}", file=err)
        return EXIT_INPUT
    except UsageError as exc:
        print(f"xl-elo: {exc}", file=err)
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK
    except OSError as exc:
        print(f"xl-elo: {exc.filename or ''}: {exc.strerror or exc}", file=err)
        return EXIT_INPUT


def _rate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from xl_elo import rate
    from xl_elo.csvio import history_csv, read_event, write_results, write_text_atomic

    if args.workbook:
        return _rate_workbook(args, out, err)
    missing = [f"--{n}" for n in ("federation", "players", "games") if not getattr(args, n)]
    if missing:
        raise UsageError(f"rate needs {', '.join(missing)} (or a filled workbook: xl-elo rate filled.xlsx)")
    try:
        federation = find_federation(args.federation)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.history and federation != "fesa":
        raise UsageError("--history is for FESA tournaments only")
    options: dict[str, object] = {}
    if federation == "ffe":
        options["dp_method"] = args.dp
    if federation == "fide":
        options["expected_method"] = args.expected
    fmt = args.format or ({".json": "json", ".txt": "table"}.get(Path(args.output).suffix.lower(), "csv")
                          if args.output else ("table" if out.isatty() else "csv"))
    if fmt == "csv" and _fast_lane(args, federation, options, out, err):
        return EXIT_OK
    event = read_event(args.players, args.games, args.history, period=args.period)
    results = rate(federation, event, **options)
    for warning in results.warnings:
        print(f"xl-elo: warning: {warning}", file=err)
    inputs = [x for x in (args.players, args.games, args.history) if x]
    if args.output:
        try:
            _write(results, event, fmt, args.output, inputs)
            if federation == "fesa":
                hist = args.history_output or str(Path(args.output).with_name(Path(args.output).stem + "_history.csv"))
                write_text_atomic(hist, history_csv(results.history), inputs=inputs)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        return EXIT_OK
    if fmt == "report":
        from xl_elo.report import report

        out.write(report(results, event) + "\n")
    else:
        write_results(results, out, fmt)
    if args.history_output:
        write_text_atomic(args.history_output, history_csv(results.history), inputs=inputs)
    return EXIT_OK


def _fast_lane(args: argparse.Namespace, federation: str, options: dict[str, object], out: TextIO,
               err: TextIO) -> bool:
    """CSV in, CSV out for a period engine: the columnar reader and writer (issue #9).

    Returns False, having written nothing, when the files need the cell-by-cell reader
    (anything unusual, and every error, is reported by that reader).
    """
    from xl_elo import columnar
    from xl_elo.csvio import write_text_atomic

    if federation not in columnar.FEDERATIONS:
        return False
    try:
        results = columnar.rate_files(federation, args.players, args.games, args.period, **options)
    except columnar.NotSimple:
        return False
    for warning in results.warnings:
        print(f"xl-elo: warning: {warning}", file=err)
    data = columnar.results_csv(results)
    if args.output:
        try:
            write_text_atomic(args.output, data, inputs=[args.players, args.games])
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    else:
        out.write(data.decode("utf-8"))
    return True


def _rate_workbook(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Rate a filled template with the engine and compare with the workbook's own formulas."""
    import tempfile

    from xl_elo import rate
    from xl_elo.csvio import write_results
    from xl_elo.xlsxio import compare, read_workbook, write_rated

    source = Path(args.workbook)
    if source.suffix.lower() not in (".xlsx", ".xlsm"):
        raise UsageError(f"{source.name}: a workbook is an .xlsx file (for CSV files give --players and --games)")
    to_read = source
    with tempfile.TemporaryDirectory(prefix="xl-elo-") as tmp:
        if args.recalculate:
            from xl_elo.libreoffice import LibreOfficeError, recalculate

            try:
                to_read = recalculate(source, Path(tmp) / "recalculated.xlsx")
            except LibreOfficeError as exc:
                raise UsageError(str(exc)) from None
        filled = read_workbook(to_read)
        if args.federation and find_federation(args.federation) != filled.federation:
            raise UsageError(f"{source.name} is a {filled.federation.upper()} template, not {args.federation.upper()}")
        results = rate(filled.federation, filled.event, **filled.options)
        differences = compare(filled, results) if filled.calculated else []
        if not filled.calculated:
            print(f"xl-elo: warning: {source.name}'s formulas have not been calculated (it was saved by a program, "
                  "not a spreadsheet): open and save it in Excel or LibreOffice, or use --recalculate; "
                  "nothing compared", file=err)
        elif differences:
            print(f"xl-elo: {len(differences)} results cells differ between {source.name}'s formulas and the engine:",
                  file=err)
            for d in differences:
                print(f"  - {d}", file=err)
        else:
            print(f"xl-elo: {source.name}: the workbook's formulas agree with the engine on every results cell",
                  file=err)
        for warning in [*filled.warnings, *results.warnings]:
            print(f"xl-elo: warning: {warning}", file=err)
        if args.output:
            try:
                write_rated(to_read, results, differences, args.output)
            except ValueError as exc:
                raise UsageError(str(exc)) from None
            print(f"xl-elo: written {args.output}", file=err)
        else:
            fmt = args.format or ("table" if out.isatty() else "csv")
            if fmt == "report":
                from xl_elo.report import report

                out.write(report(results, filled.event) + "\n")
            else:
                write_results(results, out, fmt)
    return EXIT_OK


def _workbooks(args: argparse.Namespace, out: TextIO) -> int:
    from xl_elo.templates import build_all, build_template

    if args.only:
        for name in args.only:
            try:
                out.write(f"{build_template(name.lower(), args.output_dir)}\n")
            except KeyError:
                raise UsageError(f"unknown workbook {name!r}; expected fide, fse, fqe, ffe, fesa or tables") from None
    else:
        for path in build_all(args.output_dir):
            out.write(f"{path}\n")
    return EXIT_OK


def _write(results: Results, event: object, fmt: str, path: str, inputs: list[str]) -> None:
    from xl_elo.csvio import write_results, write_text_atomic

    if fmt == "report":
        from xl_elo.report import report

        write_text_atomic(path, report(results, event) + "\n", inputs=inputs)  # type: ignore[arg-type]
    else:
        write_results(results, path, fmt, inputs=inputs)


def _tables(args: argparse.Namespace, out: TextIO) -> int:
    from xl_elo.published import get_table, table_names

    if not args.name:
        out.write("Published tables (xl-elo tables NAME [--compare]):\n")
        for name in table_names():
            view = get_table(name)
            out.write(f"  {name:<17} {view.title}\n  {'':<17} source: {view.source}\n")
        return EXIT_OK
    try:
        view = get_table(args.name)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    out.write(f"{view.title}\nSource: {view.source}\n\n")
    if args.compare:
        out.write(_grid(view.compare_columns, view.compare_rows, view.differs))
        n = sum(view.differs)
        out.write(f"\n{view.note}\n{n} of {len(view.differs)} rows differ (marked *).\n")
    else:
        out.write(_grid(view.columns, view.rows))
    return EXIT_OK


def _grid(columns: Sequence[str], rows: Sequence[Sequence[object]], marks: Sequence[bool] | None = None) -> str:
    from xl_elo.csvio import format_cell

    cells = [[format_cell(v) for v in row] for row in rows]
    widths = [max([len(c)] + [len(r[j]) for r in cells]) for j, c in enumerate(columns)]
    lines = ["  " + "  ".join(c.rjust(w) for c, w in zip(columns, widths, strict=True))]
    for i, r in enumerate(cells):
        mark = "* " if marks and marks[i] else "  "
        lines.append(mark + "  ".join(v.rjust(w) for v, w in zip(r, widths, strict=True)))
    return "\n".join(lines) + "\n"


def _convert(args: argparse.Namespace, out: TextIO) -> int:
    from xl_elo.csvio import format_cell
    from xl_elo.federations.ffe import convert

    for value in args.values:
        try:
            number = float(value.replace(",", "."))
        except ValueError:
            raise UsageError(f"{value!r} is not a number") from None
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

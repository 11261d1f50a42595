"""``xl-elo norms``: the title norms of a tournament (rules 13), from a TRF report or a players and games CSV
pair, as a table, CSV or JSON, or the norm sheet filled for one player.

The command asks the systems for their declared title norms (a :class:`xl_elo.federations.contract.TitleNorms`,
a system's ``NORMS``) and never tests a system's name. The files are read by the project's readers: a report by
:mod:`xl_elo.formats.trf` (its player lines, pairings and tags, every problem named by line and column), CSV tables
by :mod:`xl_elo.formats.reader` with the norm's players columns (title, federation, sex, FIDE id); what they give
becomes the engine's plain data, and the checks come back as a results table written as every results table is.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any, TextIO

from xl_elo import words
from xl_elo.federations import registry
from xl_elo.federations.contract import TitleNorms, options_of
from xl_elo.model import Column, InputError, Problem, Results

#: The engine's words a table says in the language asked (--language): read back into its phrases.
SAID = ("reason", "forecast")


def spoken(results: Results, columns: Sequence[str]) -> Results:
    """The table's ``columns`` in the language of the work: each heading its word, yes and no theirs, the engine's
    reasons and forecasts read back into their phrases (:func:`xl_elo.templates.normsheet.said`)."""
    from dataclasses import replace

    from xl_elo import words
    from xl_elo.templates.normsheet import said

    spec = {c.name: c for c in results.spec}
    out: list[Column] = []
    values: dict[str, Any] = {}
    for name in columns:
        column = spec[name]
        heading = str(words._(name, context="norms"))
        cells = list(results.values[name])
        if column.kind == "bool":
            cells = [words.translate_value(bool(v)) if v is not None else None for v in cells]
            column = replace(column, kind="text")
        elif name in SAID:
            cells = [said(str(v)) if v else v for v in cells]
        out.append(replace(column, name=heading))
        values[heading] = cells
    return Results(results.federation, out, values, warnings=results.warnings)


def offers() -> dict[str, Any]:
    """The systems that declare title norms: code -> module."""
    return {code: m for code, m in registry().items() if m.NORMS is not None}


def chosen(name: str | None) -> Any:
    """The system whose norms are asked (``--federation``, or the one system that declares norms)."""
    systems = offers()
    if name:
        from xl_elo.federations import get

        module = get(name)
        if module.CODE not in systems:
            raise ValueError(f"{module.CODE.upper()} declares no title norms (those that do: "
                             f"{', '.join(c.upper() for c in systems)})")
        return module
    if len(systems) != 1:
        raise ValueError(f"give --federation ({', '.join(systems)})")
    return next(iter(systems.values()))


# --------------------------------------------------------------------------- the results


def results_of(checks: Sequence[Any], module: Any, warnings: Sequence[str] = ()) -> Results:
    """The checks as a results table (the norms' columns)."""
    norms: TitleNorms = module.NORMS
    columns = tuple(norms.engine.COLUMNS)
    rows = [c.row() for c in checks]
    values: dict[str, Any] = {}
    for col in columns:
        cells = [row.get(col.name) for row in rows]
        if col.kind in ("text", "note"):
            cells = ["" if v is None else v for v in cells]
        values[col.name] = cells
    return Results(module.CODE, columns, values, warnings=warnings)


def check_file(module: Any, *, report: str | Path | None = None, players: Any = None, games: Any = None,
               options: Any = None, titles: Sequence[str] = ()) -> tuple[Results, Any, list[Any]]:
    """The norms of a report or a players and games pair: the results table, the tournament and the checks."""
    from xl_elo.formats.normfiles import from_tables, from_trf

    norms: TitleNorms = module.NORMS
    if report is not None:
        tournament, warnings = from_trf(report, norms)
    else:
        tournament, warnings = from_tables(players, games, norms)
    try:
        checks, said = norms.engine.checked(tournament, options, titles)
    except ValueError as exc:
        raise InputError([Problem(str(report or "the tables"), None, None, str(exc))]) from None
    return results_of(checks, module, [*warnings, *said]), tournament, checks


# --------------------------------------------------------------------------- the command


def add_parser(sub: Any) -> None:
    """The ``norms`` subcommand, its options from the declarations."""
    n = sub.add_parser("norms", help="FIDE title norms (GM, IM, WGM, WIM) of a tournament: who made one, and what "
                                     "each player still needs",
                       description="Check every player's result against the title norms of FIDE's Title "
                                   "Regulations (B.01, xl-elo rules 13) from a TRF report, or a players and games CSV "
                                   "pair (players: id, name, rating, title, federation, sex, fide_id): one row per "
                                   "player and title, with the games counted, Ra, Rp, the first rule that fails, and "
                                   "before the last round what is still needed. --sheet ID fills the norm sheet "
                                   "(the certificate's table of opponents) for one player.")
    n.add_argument("report", nargs="?", metavar="REPORT.trf", help="the tournament's TRF report")
    n.add_argument("--players", "-p", help="players CSV (instead of a report)")
    n.add_argument("--games", "-g", help="games CSV (instead of a report)")
    n.add_argument("--federation", "-f", help="the system whose norms (default: the one that declares them)")
    n.add_argument("--format", choices=("table", "csv", "json"),
                   help="table (default on a terminal), csv (default otherwise) or json")
    n.add_argument("--output", "-o", help="write to this file (never over an input); with --sheet, the workbook")
    n.add_argument("--title", action="append", metavar="TITLE", help="only this title (GM, IM, WGM, WIM; repeatable)")
    n.add_argument("--norms-only", action="store_true", help="only the rows that are norms")
    n.add_argument("--sheet", metavar="ID", help="fill the norm sheet for this player (his id or start rank) and "
                                                 "write it to --output FILE.xlsx")
    n.add_argument("--language", metavar="LANG",
                   help="the language of the table (--format table) and of the norm sheet (--sheet): en (default), or "
                        "a catalogue's code (" + ", ".join(words.available()[1:]) + ") or a .po file's path. CSV and "
                        "JSON, and xl-elo's own messages, stay English")
    seen: set[str] = set()
    for module in offers().values():
        for f in fields(module.NORMS.engine.NormOptions):
            if f.name in seen:
                continue
            seen.add(f.name)
            choices = f.metadata.get("choices") or None
            n.add_argument(f"--{f.name.replace('_', '-')}", dest=f"norm_{f.name}", default=None, choices=choices,
                           metavar=None if choices else f.name.upper(),
                           help=f"{f.metadata.get('help', '')} (default {f.default!r}; {f.metadata.get('source', '')})")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> tuple[int, str | None]:
    """Run ``xl-elo norms``; (exit status, a usage error's words or None)."""
    from xl_elo.formats.files import check_output
    from xl_elo.formats.writers import results_csv, results_json, results_table, write_text_atomic

    try:
        module = chosen(args.federation)
    except ValueError as exc:
        return 2, str(exc)
    norms: TitleNorms = module.NORMS
    if bool(args.report) == bool(args.players or args.games):
        return 2, "give a TRF report, or --players and --games (CSV)"
    if not args.report and not (args.players and args.games):
        return 2, "give both --players and --games"
    given = {k[5:]: v for k, v in vars(args).items() if k.startswith("norm_") and v is not None}
    try:
        _check_given(given)
        options = options_of(norms.engine.NormOptions, None, **given)
        titles = [norms.engine.title_of(t).code for t in (args.title or ())]
    except ValueError as exc:
        return 2, str(exc)
    inputs = [x for x in (args.report, args.players, args.games) if x]
    language = args.language or words.SOURCE
    try:
        words.catalogue(language)
    except LookupError as exc:
        return 2, str(exc)
    if args.sheet and not (args.output and Path(args.output).suffix.lower() == ".xlsx"):
        return 2, "--sheet writes a workbook: give --output FILE.xlsx"
    if args.output:
        check_output(args.output, inputs)
    results, tournament, checks = check_file(module, report=args.report, players=args.players, games=args.games,
                                             options=options, titles=titles)
    for warning in results.warnings:
        print(f"xl-elo: warning: {warning}", file=err)
    if args.sheet:
        from xl_elo.templates.normsheet import fill_sheet

        player = _player(tournament, args.sheet)
        if player is None:
            return 2, f"--sheet {args.sheet}: no such player (give his id or start rank)"
        wanted = titles[0] if titles else None
        try:
            with words.use(language):
                said = fill_sheet(module, tournament, checks, player, wanted, args.output, options=options,
                                  inputs=inputs)
        except ValueError as exc:
            return 2, f"--sheet {args.sheet}: {exc}"
        print(f"xl-elo: {said}", file=err)
        return 0, None
    if args.norms_only:
        keep = [i for i, row in enumerate(results.rows) if row["norm"]]
        results = Results(results.federation, results.spec,
                          {c: [v[i] for i in keep] for c, v in results.values.items()}, warnings=results.warnings)
    fmt = args.format or (_by_suffix(args.output) if args.output else ("table" if out.isatty() else "csv"))
    if fmt == "table":
        from xl_elo.templates.normsheet import TABLE_COLUMNS  # the table's columns, each a phrase

        columns = list(TABLE_COLUMNS)
        if any(r["remaining"] for r in results.rows):
            columns.append("forecast")
        with words.use(language):
            shown = spoken(results, columns)
        text: str | bytes = results_table(shown, list(shown.columns)) + "\n"
    elif fmt == "json":
        text = results_json(results) + "\n"
    else:
        text = results_csv(results)
    if args.output:
        write_text_atomic(args.output, text, inputs=inputs)
    elif isinstance(text, bytes):
        out.write(text.decode("utf-8"))
    else:
        out.write(text)
    return 0, None


def _check_given(given: dict[str, Any]) -> None:
    """The values typed for the options, read as a cell is (ValueError naming the flag)."""
    from xl_elo import schema

    readings = {"rounds": lambda v: schema.whole(v, 0, schema.MAX_ROUND, what="a number of rounds"),
                "next_rating": lambda v: schema.whole(v, 0, schema.MAX_RATING, what="a rating (0: the opponents' "
                                                                                    "average so far)")}
    for name, value in given.items():
        flag = f"--{name.replace('_', '-')}"
        try:
            if name in readings:
                readings[name](value)
            elif name == "host" and value.strip() and not (len(value.strip()) == 3 and value.strip().isalpha()):
                raise schema.ValueProblem(f"{value!r} is not a federation (three letters: FRA, GER)")
        except schema.ValueProblem as exc:
            raise ValueError(f"{flag}: {exc}") from None


def _by_suffix(output: str) -> str:
    return {".json": "json", ".txt": "table"}.get(Path(output).suffix.lower(), "csv")


def _player(tournament: Any, key: str) -> Any:
    for e in tournament.players:
        if key in (e.id, e.fide_id, str(e.start_rank)) or e.id == f"#{key}":
            return e
    return None

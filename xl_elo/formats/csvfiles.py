"""Reading and writing the tables of rules 8 as CSV files (UTF-8 with a header row).

Readers collect every problem of a file before raising one :class:`~xl_elo.model.InputError`
whose lines name the file, the row (as a spreadsheet shows it: the header is row 1), the
column and the bad value. Every cell goes through :mod:`xl_elo.schema`, which the workbook
reader, the fast columnar reader and the spreadsheet functions use too
(:func:`parse_players_rows` and friends take plain rows of cells).

Writers go through :mod:`xl_elo.formats.files`: never over an input, through a temporary file moved
into place only when complete.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from xl_elo import limits, schema
from xl_elo.formats import files
from xl_elo.model import Event, Game, HistoryGame, InputError, Player, Problem, ProblemList, Results, check_event
from xl_elo.schema import ValueProblem

Cell = Any
Row = Sequence[Cell]

# kept for the API: the table columns live in xl_elo.schema
PLAYER_COLUMNS = schema.PLAYER_COLUMNS
GAME_COLUMNS = schema.GAME_COLUMNS
HISTORY_COLUMNS = schema.HISTORY_COLUMNS


# --------------------------------------------------------------------------- tables from rows


def _rows(rows: Iterable[Row], first_row: int = 2) -> Iterable[tuple[int, Row]]:
    """Rows with their spreadsheet numbers; rows of blank cells (a template's empty rows) skipped."""
    for r, row in enumerate(rows, start=first_row):
        if all(c is None or (isinstance(c, str) and not c.strip(" \t\r\n\u00a0")) for c in row):
            continue
        yield r, row


class _Reader:
    """The cells of one table, read column by column through the schema, problems collected."""

    def __init__(self, header: Row, source: str, required: Sequence[str], problems: ProblemList,
                 aliases: dict[str, str] | None = None) -> None:
        self.source = source
        self.problems = problems
        self.cols, missing = schema.header(header, required, aliases)
        for words in schema.duplicate_columns(header):
            problems.add(source, 1, None, words)
        for name in missing:
            found = ", ".join(self.cols) or "none"
            problems.add(source, 1, None, f"missing required column '{name}' (columns found: {found})")

    def raw(self, row: Row, name: str) -> Cell:
        j = self.cols.get(name)
        return row[j] if j is not None and j < len(row) else None

    def get(self, row: Row, r: int, name: str, parse: Callable[[Cell], Any], hint: str = "") -> tuple[bool, Any]:
        """(ok, value): ``parse`` applied to the cell; a refusal is recorded with the row and column."""
        try:
            return True, parse(self.raw(row, name))
        except ValueProblem as exc:
            self.problems.add(self.source, r, name, f"{exc}{hint}")
            return False, None


def parse_players_rows(header: Row, rows: Iterable[Row], source: str = "players", *, typed: bool = False,
                       year: int | None = None) -> list[Player]:
    """Players from a header and rows of cells (rules 8); all problems raised together.

    ``typed``: the cells come from a workbook or a spreadsheet range (numbers must be numbers).
    ``year``: the period's year, which no birth year may pass.
    """
    problems = ProblemList()
    t = _Reader(header, source, schema.PLAYER_REQUIRED, problems, dict(schema.PLAYER_ALIASES))
    problems.raise_if_any()
    out: list[Player] = []
    whole_fields: tuple[tuple[str, Callable[[Cell], Any]], ...] = (
        ("games", lambda v: schema.whole(v, 0, schema.MAX_GAMES, typed=typed)),
        ("birth_year", lambda v: schema.birth_year(v, year, typed=typed)),
        ("archive_games", lambda v: schema.whole(v, 0, schema.MAX_GAMES, typed=typed)),
        ("bonus_count", lambda v: schema.whole(v, 0, schema.MAX_BONUS_COUNT, typed=typed)),
        ("lb_run", lambda v: schema.whole(v, 0, schema.MAX_RUN, typed=typed)),
        ("mp_run", lambda v: schema.whole(v, 0, schema.MAX_RUN, typed=typed)),
    )
    for r, row in _rows(rows):
        ok, pid = t.get(row, r, "id", schema.identifier)
        if ok and pid is None:
            problems.add(source, r, "id", "the id is blank (every player needs a unique id)")
        if pid is None:
            continue
        fields: dict[str, Any] = {"row": r, "id": pid}
        fields["name"] = t.get(row, r, "name", schema.text)[1] or ""
        fields["rating"] = t.get(row, r, "rating", lambda v: schema.rating(v, typed=typed))[1]
        for name, parse in whole_fields:
            ok, value = t.get(row, r, name, parse)
            if value is not None:
                fields[name] = value
            elif name == "games" and ok and fields["rating"] is not None:
                # K, provisional status and the modes hang on it: never guessed (rules 8)
                problems.add(source, r, "games", "blank for a rated player: give his rated games before this event "
                                                 "(0 only for a player never rated)")
        for name in ("ever_2400", "mp_reached"):
            fields[name] = bool(t.get(row, r, name, schema.yes_no)[1])
        fields["archive_perf"] = t.get(row, r, "archive_perf", lambda v: schema.number(
            v, what="the archived performance, from 1000 to 3500", low=1000, high=3500, typed=typed))[1]
        fields["category"] = t.get(row, r, "category", schema.category)[1]
        fields["grade"] = t.get(row, r, "grade", schema.grade)[1]
        fields["nsr_grade"] = t.get(row, r, "nsr_grade", lambda v: schema.grade(v, allow_pro=True))[1]
        out.append(Player(**fields))
    problems.raise_if_any(out)
    return out


def parse_games_rows(header: Row, rows: Iterable[Row], source: str = "games", *, typed: bool = False) -> list[Game]:
    """Games from a header and rows of cells (rules 8); all problems raised together."""
    problems = ProblemList()
    t = _Reader(header, source, ("player", "opponent", "result"), problems)
    problems.raise_if_any()
    out: list[Game] = []
    for r, row in _rows(rows):
        ok_p, player = t.get(row, r, "player", schema.identifier)
        if ok_p and player is None:
            problems.add(source, r, "player", "the player id is blank")
        ok_o, opponent = t.get(row, r, "opponent", schema.identifier)
        has_opponent = opponent is not None or not ok_o
        ok_r, result = t.get(row, r, "result", partial(schema.result, has_opponent=has_opponent))
        ok_n, rnd = t.get(row, r, "round", lambda v: schema.round_number(v, typed=typed))
        ok_h, handicap = t.get(row, r, "handicap", schema.handicap)
        ok_y, rated = t.get(row, r, "rated", schema.yes_no)
        if player is not None and ok_o:  # kept with problems too, for the cross-table checks
            ok = ok_r and ok_n and ok_h and ok_y
            out.append(Game(player, opponent, result if ok_r else schema.result(None), rnd,
                            handicap if ok else None, True if rated is None else rated, row=r))
    problems.raise_if_any(out)
    return out


def parse_history_rows(header: Row, rows: Iterable[Row], source: str = "history", *,
                       typed: bool = False) -> list[HistoryGame]:
    """FESA history rows (rules 8); all problems raised together."""
    problems = ProblemList()
    t = _Reader(header, source, schema.HISTORY_COLUMNS, problems)
    problems.raise_if_any()
    out: list[HistoryGame] = []
    for r, row in _rows(rows):
        ok_i, pid = t.get(row, r, "id", schema.identifier)
        if ok_i and pid is None:
            problems.add(source, r, "id", "the player id is blank")
        ok_o, opp = t.get(row, r, "opponent_rating", lambda v: schema.counted_rating(v, typed=typed))
        if ok_o and opp is None:
            problems.add(source, r, "opponent_rating", "the opponent's rating is blank")
        ok_s, res = t.get(row, r, "result", schema.played_result)
        if pid is not None and opp is not None and ok_s:
            out.append(HistoryGame(pid, opp, res, row=r))
    problems.raise_if_any(out)
    return out


# --------------------------------------------------------------------------- CSV files


def _decode(data: bytes, name: str) -> str:
    """The text of a CSV file: UTF-8 (with or without BOM), or UTF-16 with its BOM (Excel's "Unicode text")."""
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        raise InputError([Problem(name, None, None, "the file is UTF-32 text (save it as CSV UTF-8)")])
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise InputError([Problem(name, None, None, "the file starts as UTF-16 text but is not UTF-16 "
                                                        "(save it as CSV UTF-8)")]) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError([Problem(name, line, None, "the file is not UTF-8 text (save it as CSV UTF-8: Excel's "
                                                    "'CSV (Macintosh)' and 'CSV (MS-DOS)' are not)")]) from None


def read_csv(path: str | os.PathLike[str]) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a CSV file (UTF-8, with or without BOM, or UTF-16 with its BOM; ``,`` ``;``
    or tab; any line ends: CR LF, LF, or CR alone as Excel's "CSV (Macintosh)" writes them).

    Refused with the file's name: a file that is not text, beyond the size, line, row, column or
    cell limits (:mod:`xl_elo.limits`), or whose quotes make a cell run over several lines (a
    stray quote would otherwise swallow the rows after it).
    """
    p = Path(path)
    data = files.read_bytes(p)
    name = p.name
    text = _decode(data, name)
    del data
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise InputError([Problem(name, line, None, "the file holds zero bytes: it is not a CSV text file "
                                                    "(save it as CSV UTF-8)")])
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    hint = re.match(r"^\s*sep=(.)\s*$", lines[0], re.IGNORECASE) if lines else None
    if hint:  # Excel's "sep=;" line: a spreadsheet hides it, and the header below is its row 1
        lines.pop(0)
    if len(lines) > limits.ROWS.value + 1:
        raise InputError([Problem(name, None, None, limits.ROWS.message(f"has {len(lines) - 1:,} rows"))])
    longest = max(range(len(lines)), key=lambda i: len(lines[i]), default=None)
    if longest is not None and len(lines[longest]) > limits.LINE_CHARS.value:
        raise InputError([Problem(name, longest + 1, None,
                                  limits.LINE_CHARS.message(f"the line is {len(lines[longest]):,} characters long"))])
    if not lines:
        raise InputError([Problem(name, None, None, "the file is empty (expected a header row)")])
    delimiter = hint.group(1) if hint else sniff_delimiter(lines[0])
    columns = lines[0].count(delimiter) + 1
    if columns > limits.COLUMNS.value:
        raise InputError([Problem(name, 1, None, limits.COLUMNS.message(f"the header has {columns:,} columns"))])
    cells = text.count(delimiter) + len(lines)
    if cells > limits.CELLS.value:
        raise InputError([Problem(name, None, None, limits.CELLS.message(f"has {cells:,} cells"))])
    del text
    body = "\n".join(lines) + "\n"
    lines.clear()
    csv.field_size_limit(max(len(body) + 1, limits.LINE_CHARS.value, 131072))  # a stray quote is named below
    reader = csv.reader(io.StringIO(body), delimiter=delimiter, quotechar='"',
                        doublequote=True, skipinitialspace=False, strict=False)
    rows: list[list[str]] = []
    problems = ProblemList()
    try:
        while True:
            first = reader.line_num + 1
            try:
                row = next(reader)
            except StopIteration:
                break
            runs = [c for c in row if "\n" in c]
            if runs:
                problems.add(name, first, None,
                             f"a quote (\") opens the cell {schema.shown(runs[0].split(chr(10))[0] + ' ...', 50)} "
                             "and no quote closes it on that line: is a quote stray or missing? (a quote inside "
                             "a cell is written \"\", and a cell holds no line break)")
            rows.append(row)
    except csv.Error as exc:
        raise InputError([Problem(name, reader.line_num, None, f"is not a readable CSV file ({exc})")]) from None
    problems.raise_if_any()
    return rows[0], rows[1:]


def sniff_delimiter(first_line: str) -> str:
    """The delimiter of a CSV file from its header line: tab, ``;`` or ``,`` (the most frequent)."""
    counts = {d: first_line.count(d) for d in ("\t", ";", ",")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def read_players(path: str | os.PathLike[str], year: int | None = None) -> list[Player]:
    """Read a players CSV (rules 8)."""
    header, rows = read_csv(path)
    return parse_players_rows(header, rows, Path(path).name, year=year)


def read_games(path: str | os.PathLike[str]) -> list[Game]:
    """Read a games CSV (rules 8)."""
    header, rows = read_csv(path)
    return parse_games_rows(header, rows, Path(path).name)


def read_history(path: str | os.PathLike[str]) -> list[HistoryGame]:
    """Read a FESA history CSV (rules 8)."""
    header, rows = read_csv(path)
    return parse_history_rows(header, rows, Path(path).name)


def read_event(
    players: str | os.PathLike[str],
    games: str | os.PathLike[str],
    history: str | os.PathLike[str] | None = None,
    period: str | None = None,
    name: str = "",
) -> Event:
    """Read and check the tables of one event; every problem of every file reported at once.

    ``period`` (``YYYY-MM``, or a date) is checked when given; whether one is required is the
    federation's rule (FIDE and FSE need it, rules 2.3, 3.2).
    """
    problems: list[Problem] = []
    try:
        period = schema.period(period, required=False)
    except ValueProblem as exc:
        problems.append(Problem("period", None, None, str(exc)))
        period = None
    from xl_elo.model import period_year

    year = period_year(period)
    parts: dict[str, Any] = {}
    readers: tuple[tuple[str, Any, Callable[..., Any]], ...] = (
        ("players", players, lambda p: read_players(p, year)), ("games", games, read_games),
        ("history", history, read_history))
    for key, path, reader in readers:
        if path is None:
            parts[key] = []
            continue
        try:
            parts[key] = reader(path)
        except InputError as exc:
            problems += exc.problems
            parts[key] = list(exc.partial)
    event = Event(tuple(parts["players"]), tuple(parts["games"]), tuple(parts["history"]), period, name)
    if not parts["players"] and parts["games"] and not problems:  # one line, not one per game
        raise InputError([Problem(Path(players).name, None, None, "has no player, only its header (expected one row "
                                                                  "per player of the games)")])
    if parts["players"] or not problems:
        try:
            check_event(event, players_source=Path(players).name, games_source=Path(games).name,
                        history_source=Path(history).name if history else "history")
        except InputError as exc:
            problems += exc.problems
    if problems:
        raise InputError(problems)
    return event


# --------------------------------------------------------------------------- writing


def format_cell(value: Any, *, csv_safe: bool = False) -> str:
    """A results cell as text: blanks for None, yes/no, whole floats without '.0'.

    With ``csv_safe``, text that a spreadsheet would run as a formula (starting with
    ``= + - @``, a tab or a carriage return) gets a leading apostrophe.
    """
    if value is None:
        return ""
    if value.__class__ is int:
        return str(value)
    if value.__class__ is str and not csv_safe:
        return value
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        if value.is_integer():
            return str(int(value))
        return f"{value:.6f}".rstrip("0").rstrip(".")
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if csv_safe and text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + text
    return text


def results_csv(results: Results) -> str:
    """The results table of rules 8 as CSV text."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(results.columns)
    for row in results.rows:
        writer.writerow([format_cell(row.get(c), csv_safe=True) for c in results.columns])
    return out.getvalue()


def history_csv(history: Sequence[HistoryGame]) -> str:
    """A FESA history table as CSV text."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(schema.HISTORY_COLUMNS)
    for h in history:
        writer.writerow([format_cell(h.id, csv_safe=True), format_cell(h.opponent_rating), format_cell(h.result)])
    return out.getvalue()


def _json_value(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def results_json(results: Results) -> str:
    """``{"federation", "period", "results": [{column: value}]}`` with the rules 8 names."""
    doc: dict[str, Any] = {
        "federation": results.federation,
        "period": results.period,
        "results": [{c: _json_value(row.get(c)) for c in results.columns} for row in results.rows],
    }
    if results.history:
        doc["history"] = [
            {"id": h.id, "opponent_rating": h.opponent_rating, "result": h.result} for h in results.history
        ]
    if results.warnings:
        doc["warnings"] = list(results.warnings)
    return json.dumps(doc, ensure_ascii=False, indent=1)


def results_table(results: Results, columns: Sequence[str] | None = None) -> str:
    """The results as an aligned text table for a terminal."""
    cols = list(columns or results.columns)
    cells = [[_short(row.get(c)) for c in cols] for row in results.rows]
    widths = [max([len(c)] + [len(r[j]) for r in cells]) for j, c in enumerate(cols)]
    numeric = [all(_is_number(row.get(c)) for row in results.rows) for c in cols]
    lines = ["  ".join(c.ljust(w) if not num else c.rjust(w) for c, w, num in zip(cols, widths, numeric, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    for r in cells:
        lines.append("  ".join(v.rjust(w) if num else v.ljust(w) for v, w, num in zip(r, widths, numeric, strict=True)))
    return "\n".join(line.rstrip() for line in lines)


def _is_number(value: Any) -> bool:
    return value is None or (isinstance(value, (int, float)) and not isinstance(value, bool))


def _short(value: Any) -> str:
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.3f}".rstrip("0").rstrip(".")
    return format_cell(value)


def write_text_atomic(path: str | os.PathLike[str], text: str | bytes, *,
                      inputs: Sequence[str | os.PathLike[str] | None] = ()) -> None:
    """Write ``text`` (or bytes) to ``path`` safely (:func:`xl_elo.formats.files.write_atomic`); ValueError over
    an input."""
    files.write_atomic(path, text, inputs=inputs)


def write_results(results: Results, path: str | os.PathLike[str] | TextIO, fmt: str = "csv",
                  *, inputs: Sequence[str | os.PathLike[str] | None] = ()) -> None:
    """Write results as ``csv``, ``json`` or ``table`` to a path (atomically) or a stream."""
    text = {"csv": results_csv, "json": results_json, "table": results_table}[fmt](results)
    if fmt != "csv" and not text.endswith("\n"):
        text += "\n"
    if isinstance(path, (str, os.PathLike)):
        write_text_atomic(path, text, inputs=inputs)
    else:
        path.write(text)

"""Reading and writing the SPEC 8 tables as CSV files (UTF-8 with a header row).

Readers collect every problem of a file before raising one :class:`~xl_elo.model.InputError`
whose lines name the file, the row (as a spreadsheet shows it: the header is row 1), the
column and the bad value. The same cell parsers serve the workbook reader and the Excel
functions (:func:`parse_players_rows` and friends take plain rows of cells).

Writers never write over an input file and write through a temporary file that is moved
into place only when complete.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from xl_elo.core import RatingError, ResultError, ResultKind, parse_result, validate_rating
from xl_elo.model import Event, Game, HistoryGame, InputError, Player, ProblemList, Results, check_event
from xl_elo.tables import FESA_HANDICAPS

Cell = Any
Row = Sequence[Cell]

PLAYER_COLUMNS = (
    "id", "name", "rating", "games", "birth_year", "ever_2400", "category", "archive_perf",
    "archive_games", "bonus_count", "grade", "nsr_grade", "lb_run", "mp_run", "mp_reached",
)
GAME_COLUMNS = ("round", "player", "opponent", "result", "handicap", "rated")
HISTORY_COLUMNS = ("id", "opponent_rating", "result")

#: A results table read back as a players table (rating list in, rating list out, SPEC 8).
_PLAYER_ALIASES = {"rating_after": "rating", "games_after": "games", "grade_after": "grade"}

_TRUE = {"yes", "y", "true", "1", "oui", "o", "x", "1.0"}
_FALSE = {"no", "n", "false", "0", "non", "", "0.0"}


# --------------------------------------------------------------------------- cells


_SPACE = frozenset(" \t\r\n\u00a0")


def clean(value: Cell) -> Cell:
    """Strip spaces (non-breaking ones too) from text; other values unchanged; '' -> None."""
    if value.__class__ is str:
        if not value:
            return None
        if value[0] in _SPACE or value[-1] in _SPACE:  # the common case, a clean cell, costs two lookups
            text = value.replace("\u00a0", " ").strip()
            return text if text else None
        return value
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _int(value: Cell, low: int | None = 0, high: int | None = None) -> int:
    v = clean(value)
    if isinstance(v, bool):
        raise ValueError(f"{value!r} is not a whole number")
    try:
        number = float(str(v).replace(",", ".")) if isinstance(v, str) else float(v)
    except (TypeError, ValueError):
        raise ValueError(f"{value!r} is not a whole number") from None
    if not number.is_integer():
        raise ValueError(f"{value!r} is not a whole number")
    if (low is not None and number < low) or (high is not None and number > high):
        span = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise ValueError(f"{value!r} is out of range (expected a whole number {span})")
    return int(number)


def _bool(value: Cell) -> bool:
    v = clean(value)
    if v is None:
        return False
    if isinstance(v, bool):
        return v
    text = str(v).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError(f"{value!r} is not yes or no")


def _number(value: Cell) -> float:
    v = clean(value)
    if isinstance(v, bool):
        raise ValueError(f"{value!r} is not a number")
    try:
        number = float(v.replace(",", ".")) if isinstance(v, str) else float(v)
    except (TypeError, ValueError):
        raise ValueError(f"{value!r} is not a number") from None
    if math.isnan(number) or math.isinf(number):
        raise ValueError(f"{value!r} is not a number")
    return number


def _text(value: Cell) -> str | None:
    v = clean(value)
    if v is None:
        return None
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return str(v)


# --------------------------------------------------------------------------- tables from rows


def _header(header: Row, required: Sequence[str], source: str, problems: ProblemList,
            aliases: Mapping[str, str] | None = None) -> dict[str, int]:
    columns: dict[str, int] = {}
    for j, name in enumerate(header):
        key = (_text(name) or "").lower()
        if key and key not in columns:
            columns[key] = j
    for alias, name in (aliases or {}).items():
        if name not in columns and alias in columns:
            columns[name] = columns[alias]
    for name in required:
        if name not in columns:
            found = ", ".join(k for k in columns) or "none"
            problems.add(source, 1, None, f"missing required column '{name}' (columns found: {found})")
    return columns


def _rows(rows: Iterable[Row], first_row: int = 2) -> Iterable[tuple[int, Row]]:
    for r, row in enumerate(rows, start=first_row):
        if all(clean(c) is None for c in row):
            continue  # blank line: a template's empty rows
        yield r, row


def parse_players_rows(header: Row, rows: Iterable[Row], source: str = "players") -> list[Player]:
    """Players from a header and rows of cells (SPEC 8); all problems raised together."""
    problems = ProblemList()
    cols = _header(header, ("id",), source, problems, _PLAYER_ALIASES)
    problems.raise_if_any()
    out: list[Player] = []

    def cell(row: Row, name: str) -> Cell:
        j = cols.get(name)
        return clean(row[j]) if j is not None and j < len(row) else None

    for r, row in _rows(rows):
        fields: dict[str, Any] = {"row": r}
        pid = _text(cell(row, "id"))
        if pid is None:
            problems.add(source, r, "id", "the id is blank (every player needs a unique id)")
            continue
        fields["id"] = pid
        fields["name"] = _text(cell(row, "name")) or ""
        try:
            fields["rating"] = validate_rating(cell(row, "rating"))
        except RatingError as exc:
            problems.add(source, r, "rating", str(exc))
        for name, low, high in (("games", 0, None), ("birth_year", 1800, 2200), ("archive_games", 0, None),
                                ("bonus_count", 0, 100), ("lb_run", 0, None), ("mp_run", 0, None)):
            v = cell(row, name)
            if v is None:
                continue
            try:
                fields[name] = _int(v, low, high)
            except ValueError as exc:
                problems.add(source, r, name, str(exc))
        for name in ("ever_2400", "mp_reached"):
            try:
                fields[name] = _bool(cell(row, name))
            except ValueError as exc:
                problems.add(source, r, name, f"{exc} (expected yes or no)")
        v = cell(row, "archive_perf")
        if v is not None:
            try:
                fields["archive_perf"] = _number(v)
            except ValueError as exc:
                problems.add(source, r, "archive_perf", f"{exc} (expected the archived performance)")
        category = _text(cell(row, "category"))
        if category is not None:
            if category.lower() not in ("junior", "senior"):
                problems.add(source, r, "category", f"{category!r} is not junior or senior")
            else:
                fields["category"] = category.lower()
        for name in ("grade", "nsr_grade"):
            text = _text(cell(row, name))
            if text is None:
                continue
            from xl_elo.federations import fesa_grades  # the grade names are FESA's table

            try:
                fields[name] = fesa_grades.normalise_grade(text, allow_pro=(name == "nsr_grade"))
            except ValueError as exc:
                problems.add(source, r, name, str(exc))
        out.append(Player(**fields))
    problems.raise_if_any(out)
    return out


def parse_games_rows(header: Row, rows: Iterable[Row], source: str = "games") -> list[Game]:
    """Games from a header and rows of cells (SPEC 8); all problems raised together."""
    problems = ProblemList()
    cols = _header(header, ("player", "opponent", "result"), source, problems)
    problems.raise_if_any()
    out: list[Game] = []

    def cell(row: Row, name: str) -> Cell:
        j = cols.get(name)
        return clean(row[j]) if j is not None and j < len(row) else None

    for r, row in _rows(rows):
        ok = True
        player = _text(cell(row, "player"))
        if player is None:
            problems.add(source, r, "player", "the player id is blank")
            ok = False
        opponent = _text(cell(row, "opponent"))
        raw = cell(row, "result")
        try:
            result = parse_result(raw, has_opponent=opponent is not None)
        except ResultError as exc:
            problems.add(source, r, "result", str(exc))
            result = parse_result(None)  # kept only so the ids can still be checked
            ok = False
        rnd = None
        if cell(row, "round") is not None:
            try:
                rnd = _int(cell(row, "round"), 0)
            except ValueError as exc:
                problems.add(source, r, "round", f"{exc} (expected the round number)")
                ok = False
        handicap = _text(cell(row, "handicap"))
        if handicap is not None:
            code = _handicap_code(handicap)
            if code is None:
                known = ", ".join(FESA_HANDICAPS)
                problems.add(source, r, "handicap", f"{handicap!r} is not a handicap (expected one of {known})")
                ok = False
            handicap = code
        try:
            rated = True if cell(row, "rated") is None else _bool(cell(row, "rated"))
        except ValueError as exc:
            problems.add(source, r, "rated", f"{exc} (expected yes or no)")
            ok = False
        if player is not None:  # with problems, kept only for the cross-table checks
            out.append(Game(player, opponent, result, rnd, handicap if ok else None, rated, row=r))
    problems.raise_if_any(out)
    return out


def _handicap_code(text: str) -> str | None:
    for code in FESA_HANDICAPS:
        if text.lower() == code.lower() or text.lower() == FESA_HANDICAPS[code][0]:
            return code
    return None


def parse_history_rows(header: Row, rows: Iterable[Row], source: str = "history") -> list[HistoryGame]:
    """FESA history rows (SPEC 8); all problems raised together."""
    problems = ProblemList()
    cols = _header(header, HISTORY_COLUMNS, source, problems)
    problems.raise_if_any()
    out: list[HistoryGame] = []
    for r, row in _rows(rows):
        def cell(name: str, row: Row = row) -> Cell:
            j = cols[name]
            return clean(row[j]) if j < len(row) else None

        pid = _text(cell("id"))
        ok = pid is not None
        if pid is None:
            problems.add(source, r, "id", "the player id is blank")
        try:
            opp = validate_rating(cell("opponent_rating"))
            if opp is None:
                problems.add(source, r, "opponent_rating", "the opponent's rating is blank")
                ok = False
        except RatingError as exc:
            problems.add(source, r, "opponent_rating", str(exc))
            ok = False
        try:
            res = parse_result(cell("result"))
            if res.kind is not ResultKind.PLAYED:
                problems.add(source, r, "result", f"{cell('result')!r} is not a played game's result (1, 0.5 or 0)")
                ok = False
        except ResultError as exc:
            problems.add(source, r, "result", str(exc))
            ok = False
        if ok:
            out.append(HistoryGame(pid, opp, res.score, row=r))  # type: ignore[arg-type]
    problems.raise_if_any(out)
    return out


# --------------------------------------------------------------------------- CSV files


def _read_csv(path: str | os.PathLike[str]) -> tuple[list[str], list[list[str]]]:
    p = Path(path)
    try:
        with p.open(newline="", encoding="utf-8-sig") as f:
            text = f.read()
    except FileNotFoundError:
        raise InputError([_file_problem(p, "the file does not exist")]) from None
    except UnicodeDecodeError:
        raise InputError([_file_problem(p, "the file is not UTF-8 text (save it as CSV UTF-8)")]) from None
    except OSError as exc:
        raise InputError([_file_problem(p, f"cannot be read ({exc.strerror})")]) from None
    try:
        dialect = csv.Sniffer().sniff(text.split("\n", 1)[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel  # type: ignore[assignment]
    reader = csv.reader(io.StringIO(text), dialect)
    rows = list(reader)
    if not rows:
        raise InputError([_file_problem(p, "the file is empty (expected a header row)")])
    return rows[0], rows[1:]


def _file_problem(path: Path, message: str):  # type: ignore[no-untyped-def]
    from xl_elo.model import Problem

    return Problem(path.name, None, None, message)


def read_players(path: str | os.PathLike[str]) -> list[Player]:
    """Read a players CSV (SPEC 8)."""
    header, rows = _read_csv(path)
    return parse_players_rows(header, rows, Path(path).name)


def read_games(path: str | os.PathLike[str]) -> list[Game]:
    """Read a games CSV (SPEC 8)."""
    header, rows = _read_csv(path)
    return parse_games_rows(header, rows, Path(path).name)


def read_history(path: str | os.PathLike[str]) -> list[HistoryGame]:
    """Read a FESA history CSV (SPEC 8)."""
    header, rows = _read_csv(path)
    return parse_history_rows(header, rows, Path(path).name)


def read_event(
    players: str | os.PathLike[str],
    games: str | os.PathLike[str],
    history: str | os.PathLike[str] | None = None,
    period: str | None = None,
    name: str = "",
) -> Event:
    """Read and check the tables of one event; every problem of every file reported at once."""
    problems: list[Any] = []
    parts: dict[str, Any] = {}
    for key, path, reader in (("players", players, read_players), ("games", games, read_games),
                              ("history", history, read_history)):
        if path is None:
            parts[key] = []
            continue
        try:
            parts[key] = reader(path)
        except InputError as exc:
            problems += exc.problems
            parts[key] = list(exc.partial)
    event = Event(tuple(parts["players"]), tuple(parts["games"]), tuple(parts["history"]), period, name)
    try:
        check_event(
            event,
            players_source=Path(players).name,
            games_source=Path(games).name,
            history_source=Path(history).name if history else "history",
        )
    except InputError as exc:
        problems += exc.problems
    if problems:
        raise InputError(problems)
    return event


# --------------------------------------------------------------------------- writing


def format_cell(value: Any, *, csv_safe: bool = False) -> str:
    """A results cell as text: blanks for None, yes/no, whole floats without '.0'.

    With ``csv_safe``, text that a spreadsheet would run as a formula (starting with
    ``= + - @``) gets a leading apostrophe.
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
    """The results table of SPEC 8 as CSV text."""
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
    writer.writerow(HISTORY_COLUMNS)
    for h in history:
        writer.writerow([format_cell(h.id, csv_safe=True), format_cell(h.opponent_rating), format_cell(h.result)])
    return out.getvalue()


def _json_value(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def results_json(results: Results) -> str:
    """``{"federation", "period", "results": [{column: value}]}`` with the SPEC 8 names."""
    doc = {
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
                      inputs: Sequence[str | os.PathLike[str]] = ()) -> None:
    """Write ``text`` (or UTF-8 bytes) to ``path`` through a temporary file moved into place when complete.

    Refuses (ValueError) to write over any of ``inputs``.
    """
    target = Path(path)
    for other in inputs:
        if other is not None and _same_file(target, Path(other)):
            raise ValueError(f"refusing to write the output over the input file {other}")
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8") if isinstance(text, str) else text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def write_results(results: Results, path: str | os.PathLike[str] | TextIO, fmt: str = "csv",
                  *, inputs: Sequence[str | os.PathLike[str]] = ()) -> None:
    """Write results as ``csv``, ``json`` or ``table`` to a path (atomically) or a stream."""
    text = {"csv": results_csv, "json": results_json, "table": results_table}[fmt](results)
    if fmt != "csv" and not text.endswith("\n"):
        text += "\n"
    if isinstance(path, (str, os.PathLike)):
        write_text_atomic(path, text, inputs=inputs)
    else:
        path.write(text)

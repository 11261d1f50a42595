"""The results written: CSV, JSON, an aligned table, FESA's history table (rules 8).

One CSV writer for every results table (:func:`results_csv`): numbers turned into text with
numpy from tables of digits, cells assembled in one buffer, text quoted as the csv module
quotes it and neutralised where a spreadsheet would run it as a formula. Files are written
through :mod:`xl_elo.formats.files`: never over an input, through a temporary file moved into
place only when complete.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
from collections.abc import Sequence
from typing import Any, TextIO

import numpy as np
import numpy.typing as npt

from xl_elo import schema
from xl_elo.formats import files
from xl_elo.formats.fastcsv import first_bytes, holding, spellings
from xl_elo.model import HistoryGame, Results

#: numpy's string functions: ``np.strings`` from numpy 2, ``np.char`` before (Debian 12 has 1.24)
_strings: Any = getattr(np, "strings", np.char)

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
Bytes = npt.NDArray[np.bytes_]


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


def history_csv(history: Sequence[HistoryGame]) -> str:
    """A FESA history table as CSV text."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(schema.HISTORY_COLUMNS)
    for h in history:
        writer.writerow([format_cell(h.id, csv_safe=True), format_cell(h.opponent_rating), format_cell(h.result)])
    return out.getvalue()


def _json_value(value: Any, rounded: bool = False) -> Any:
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if rounded:
            return round(value, 6) + 0.0  # + 0.0: never -0.0
    return value


def results_json(results: Results) -> str:
    """``{"federation", "period", "results": [{column: value}]}`` with the rules 8 names, each number the
    shortest that reads back as the value the CSV writes: to 6 decimals (``11.6``, never
    ``11.600000000000001``), every digit where the column is precise (a value the next period starts from)."""
    rounded = {c.name for c in results.spec if c.kind in ("float", "number") and not c.precise}
    doc: dict[str, Any] = {
        "federation": results.federation,
        "period": results.period,
        "results": [{c: _json_value(row.get(c), c in rounded) for c in results.columns} for row in results.rows],
    }
    if results.history:
        doc["history"] = [
            {"id": h.id, "opponent_rating": h.opponent_rating, "result": h.result} for h in results.history
        ]
    if results.warnings:
        doc["warnings"] = list(results.warnings)
    return json.dumps(doc, ensure_ascii=False, indent=1)


#: The widest a name is shown in a table fitted to a width (longer ones end in "...").
NAME_WIDTH = 20
#: What a table fitted to a width says of the columns it leaves out (the command line's flags).
MORE = "--wide shows every column, --columns a,b,c the ones named"


def results_table(results: Results, columns: Sequence[str] | None = None, width: int | None = None, *,
                  more: str = MORE) -> str:
    """The results as an aligned text table for a terminal, each column to the decimals it declares
    (:attr:`xl_elo.model.Column.places`).

    ``width`` None: every column of ``columns`` (default: all the results'), on one line a player. A width:
    the table a rating officer reads in a terminal that wide: the key columns (:attr:`xl_elo.model.Column.key`)
    first, then the others in their order as long as they fit, a column blank for every player left out, a
    name cut to :data:`NAME_WIDTH`, each heading on two lines at an underscore; the notes after the table, a
    player's on his lines; the columns left out named at the end (``more``: how to see them)."""
    cols = list(columns or results.columns)
    places = {c.name: c.places for c in results.spec}
    rows = results.rows
    if width is None:
        cells = [[shown(row.get(c), places.get(c)) for c in cols] for row in rows]
        widths = [max([len(c)] + [len(r[j]) for r in cells]) for j, c in enumerate(cols)]
        numeric = [all(_is_number(row.get(c)) for row in rows) for c in cols]
        lines = ["  ".join(c.ljust(w) if not num else c.rjust(w)
                           for c, w, num in zip(cols, widths, numeric, strict=True))]
        lines.append("  ".join("-" * w for w in widths))
        for r in cells:
            lines.append("  ".join(v.rjust(w) if num else v.ljust(w) for v, w, num in zip(r, widths, numeric,
                                                                                          strict=True)))
        return "\n".join(line.rstrip() for line in lines)
    from xl_elo.formats.layout import wrapped

    spec = {c.name: c for c in results.spec}
    kinds = {c: results.kinds.get(c, "text") for c in cols}
    filled = [c for c in cols if c in ("id", "name") or any(row.get(c) not in (None, "") for row in rows)]
    notes = [c for c in filled if kinds[c] == "note"]
    order = [c for c in filled if c not in notes and spec.get(c) is not None and spec[c].key] + \
        [c for c in filled if c not in notes and (spec.get(c) is None or not spec[c].key)]

    def cell(row: dict[str, object], c: str, cut: int = NAME_WIDTH) -> str:
        text = shown(row.get(c), places.get(c))
        return text if c != "name" or len(text) <= cut else text[:cut - 3] + "..."

    table = {c: [cell(row, c) for row in rows] for c in order}
    heads = {c: _two_lines(c) for c in order}
    need = {c: max([len(heads[c][0]), len(heads[c][1])] + [len(x) for x in table[c]]) for c in order}
    keys = [c for c in order if spec.get(c) is not None and spec[c].key]
    over = sum(need[c] for c in keys) + 2 * (len(keys) - 1) - width
    if over > 0 and "name" in keys and need["name"] > 10:  # names cut shorter so that every key column fits
        cut = max(10, need["name"] - over)
        table["name"] = [cell(row, "name", cut) for row in rows]
        need["name"] = max([4] + [len(x) for x in table["name"]])
    chosen: list[str] = []
    used = 0
    for c in order:
        add = need[c] + (2 if chosen else 0)
        if used + add <= width or not chosen:
            chosen.append(c)
            used += add
    right = {c: all(_is_number(row.get(c)) for row in rows) for c in chosen}

    def line(texts: Sequence[str]) -> str:
        return "  ".join(t.rjust(need[c]) if right[c] else t.ljust(need[c])
                         for t, c in zip(texts, chosen, strict=True)).rstrip()

    lines = []
    if any(heads[c][0] for c in chosen):
        lines.append(line([heads[c][0] for c in chosen]))
    lines.append(line([heads[c][1] for c in chosen]))
    lines.append("  ".join("-" * need[c] for c in chosen))
    lines += [line([table[c][i] for c in chosen]) for i in range(len(rows))]
    who = "id" if "id" in cols else None
    for c in notes:
        said = [(row.get(who) if who else i + 1, row.get(c)) for i, row in enumerate(rows) if row.get(c)]
        if said:
            lines.append("")
            lines.append(f"{c}s:" if not c.endswith("s") else f"{c}:")
            lines += [wrapped(str(text), width, indent="    ", first=f"  {pid}: ") for pid, text in said]
    left = [c for c in order if c not in chosen]
    if left:
        lines.append("")
        lines.append(wrapped(f"{len(left)} more column{'s' if len(left) > 1 else ''}: {', '.join(left)} ({more})",
                             width))
    return "\n".join(lines)


def _two_lines(name: str) -> tuple[str, str]:
    """A column's name as a heading on two lines, cut at the underscore that makes the narrower heading
    (``rating_before`` -> ``rating`` / ``before``); a name of one word on the second line alone."""
    parts = name.split("_")
    if len(parts) == 1:
        return "", name
    cuts = [("_".join(parts[:k]), "_".join(parts[k:])) for k in range(1, len(parts))]
    return min(cuts, key=lambda ab: max(len(ab[0]), len(ab[1])))


def _is_number(value: Any) -> bool:
    return value is None or (isinstance(value, (int, float)) and not isinstance(value, bool))


def shown(value: Any, places: int | None = None, sign: bool = False) -> str:
    """A number as a printed table shows it: to ``places`` decimals when its column declares them, else
    up to 3 without trailing zeros (``sign``: with its + or -)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value == value:
        if places is not None:
            return f"{value:{'+' if sign else ''}.{places}f}"
        if sign:
            return f"{value:+.3f}".rstrip("0").rstrip(".") if isinstance(value, float) else f"{value:+d}"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.3f}".rstrip("0").rstrip(".")
    return format_cell(value)


def precise_cells(values: FloatArray) -> npt.NDArray[np.uint8]:
    """Numbers at full precision (the shortest text that reads back as the same double: ``repr``), whole
    ones without '.0'; NaN blank. Rows of bytes, zero bytes not counting."""
    v = np.asarray(values, dtype=np.float64).tolist()
    cells = _fixed([b"" if x != x else (str(int(x)) if x.is_integer() else repr(x)).encode() for x in v])
    return cells.view(np.uint8)


def write_text_atomic(path: str | os.PathLike[str], text: str | bytes, *,
                      inputs: Sequence[str | os.PathLike[str] | None] = ()) -> None:
    """Write ``text`` (or bytes) to ``path`` safely (:func:`xl_elo.formats.files.write_atomic`); ValueError over
    an input."""
    files.write_atomic(path, text, inputs=inputs)


def write_results(results: Results, path: str | os.PathLike[str] | TextIO, fmt: str = "csv",
                  *, inputs: Sequence[str | os.PathLike[str] | None] = (), columns: Sequence[str] | None = None,
                  width: int | None = None) -> None:
    """Write results as ``csv``, ``json`` or ``table`` to a path (atomically) or a stream; a table of ``columns``
    fitted to ``width`` (:func:`results_table`)."""
    text = results_csv(results).decode("utf-8") if fmt == "csv" else results_json(results) if fmt == "json" else \
        results_table(results, columns, width)
    if fmt != "csv" and not text.endswith("\n"):
        text += "\n"
    if isinstance(path, (str, os.PathLike)):
        write_text_atomic(path, text, inputs=inputs)
    else:
        path.write(text)


# --------------------------------------------------------------------------- writing


# Cells are written as rows of bytes in which zero bytes do not count (the writer drops
# them), so a number needs no alignment: four digits at a time come from a table.

def _words_of(texts: Sequence[str], width: int = 4) -> npt.NDArray[np.uint32]:
    """Short texts as 4-byte words (zero bytes after), so a table look-up moves one word."""
    raw = "".join(t.ljust(width, "\0") for t in texts).encode()
    return np.frombuffer(raw, np.uint32).copy()


_DIGITS = _words_of([str(i).rjust(4, "\0") for i in range(10_000)])
_DIGITS_PADDED = _words_of([f"{i:04d}" for i in range(10_000)])
#: Six decimals as (first three, last three): ".5" when the last three are zeros, else
#: ".500" + "25" with the trailing zeros of the last three dropped.
_FRACTION_SHORT = _words_of(["." + f"{i:03d}".rstrip("0") for i in range(1000)])
_FRACTION_HEAD = _words_of(["." + f"{i:03d}" for i in range(1000)])
_FRACTION_TAIL = _words_of([f"{i:03d}".rstrip("0") for i in range(1000)])
_MINUS = _words_of(["-"])[0]
_LIMIT = 10.0**8


def whole_cells(values: FloatArray) -> npt.NDArray[np.uint8]:
    """Whole numbers as cells (rows of bytes, zero bytes not counting), as ``str(int(v))``; NaN blank."""
    return _whole_words(values).view(np.uint8)


def _whole_words(values: FloatArray, sign: BoolArray | None = None) -> npt.NDArray[np.uint32]:
    """Rows of 4-byte words: a minus where ``sign`` (default: negative), the digits above 9999,
    the last four digits; the first two only when some row needs them."""
    v = np.asarray(values, dtype=np.float64)
    blank = np.isnan(v)
    a = np.abs(np.where(blank, 0.0, v))
    if (a >= _LIMIT).any():
        return _fixed([b"" if x != x else str(int(x)).encode() for x in v.tolist()], words=True).view(np.uint32)
    high, low = np.divmod(a.astype(np.int64), 10_000)
    minus = (v < 0) if sign is None else sign
    words = []
    if minus.any():
        words.append(np.where(minus, _MINUS, 0).astype(np.uint32))
    if high.any():
        big = high > 0
        words += [np.where(big, _DIGITS[high], 0).astype(np.uint32), np.where(big, _DIGITS_PADDED[low], _DIGITS[low])]
    else:
        words.append(_DIGITS[low])
    out = np.stack(words, axis=1)
    out[blank] = 0
    return out


def number_cells(values: FloatArray) -> npt.NDArray[np.uint8]:
    """Numbers as :func:`xl_elo.formats.csvfiles.format_cell` writes them: whole without '.0', else six
    decimals with the trailing zeros dropped; NaN blank. Rows of bytes, zero bytes not counting."""
    v = np.asarray(values, dtype=np.float64)
    finite = np.isfinite(v) & (np.abs(v) < _LIMIT)
    millionths = np.where(finite, v * 1e6, 0.0)
    near = np.rint(millionths)
    # where v * 1e6 is close to a half, the decimal rounding of the exact binary value may differ:
    # those few cells (and a tiny value written '-0') are written by format_cell itself
    exact = (np.abs(np.abs(millionths - np.trunc(millionths)) - 0.5) > 1e-4) & ~((near == 0) & (v != 0))
    a = np.abs(near)
    units = np.floor(a / 1e6)
    fraction = a - units * 1e6  # whole millionths, exact
    ok = finite & exact
    # the sign from the number itself, so that -0.5 keeps its minus before a zero unit
    words = [_whole_words(np.where(ok, units, np.nan), sign=ok & (v < 0))]
    decimal = ok & (fraction > 0)
    if decimal.any():
        high, low = np.divmod(np.where(decimal, fraction, 0.0).astype(np.int64), 1000)
        tail = decimal & (low > 0)
        words.append(np.where(tail, _FRACTION_HEAD[high], np.where(decimal, _FRACTION_SHORT[high], 0))[:, None])
        if tail.any():
            words.append(np.where(tail, _FRACTION_TAIL[low], 0)[:, None])
    out = np.concatenate(words, axis=1) if len(words) > 1 else words[0]
    rare = np.flatnonzero(~ok & ~np.isnan(v))
    if len(rare):
        cells = _fixed([format_cell(float(x)).encode() for x in v[rare].tolist()], words=True)
        out = np.concatenate([out, np.zeros((len(v), max(cells.shape[1] - out.shape[1], 0)), np.uint32)], axis=1)
        out[rare] = 0
        out[rare, : cells.shape[1]] = cells
    return out.view(np.uint8)


def _fixed(cells: Sequence[bytes], words: bool = False) -> npt.NDArray[np.generic]:
    """Byte strings as rows of bytes (or of 4-byte words) padded with zero bytes."""
    width = max([len(c) for c in cells] + [1])
    if words:
        width = -(-width // 4) * 4
    column = np.array(cells, dtype=f"S{width}") if len(cells) else np.zeros(0, f"S{width}")
    matrix = column.view(np.uint8).reshape(len(cells), width)
    return matrix.view(np.uint32) if words else matrix


def cell_text(cells: npt.NDArray[np.uint8]) -> list[bytes]:
    """The text of each cell (its bytes without the zero bytes)."""
    return [bytes(row[row != 0]) for row in cells]


def join_rows(header: Sequence[str] | None, columns: Sequence[npt.NDArray[Any]], delimiter: bytes = b",") -> bytes:
    """CSV lines (LF line ends) from a header (None: none) and columns of bytes, in one buffer.

    The columns' fixed-width bytes sit side by side with a delimiter after each, and the zero
    bytes that pad the shorter cells are dropped: what is left is the file.
    """
    head = b"" if header is None else delimiter.join(h.encode("utf-8") for h in header) + b"\n"
    if not columns or len(columns[0]) == 0:
        return head
    n = len(columns[0])
    parts = []
    for j, col in enumerate(columns):
        parts.append(col if col.ndim == 2 else col.view(np.uint8).reshape(n, col.dtype.itemsize))
        parts.append(np.full((n, 1), ord("\n") if j == len(columns) - 1 else delimiter[0], np.uint8))
    matrix = np.concatenate(parts, axis=1)
    return head + matrix[matrix != 0].tobytes()


def quoted(texts: Sequence[str | None]) -> Bytes:
    """Text cells as the csv module writes them (quoted when they hold a comma or a quote)."""
    cells: dict[str | None, bytes] = {}
    for t in set(texts):  # notes repeat: each distinct text once
        cell = format_cell(t, csv_safe=True)
        if any(c in cell for c in ',"\n\r'):
            cell = '"' + cell.replace('"', '""') + '"'
        cells[t] = cell.encode("utf-8")
    return np.array([cells[t] for t in texts], dtype=bytes) if texts else np.zeros(0, "S1")


def words(choices: Sequence[str], codes: npt.ArrayLike) -> Bytes:
    """A column of a few fixed words: ``choices[codes[i]]``."""
    table = np.array([c.encode("utf-8") for c in choices])
    return table[np.asarray(codes, dtype=np.int64)]


# --------------------------------------------------------------------------- the results as CSV


#: Rows formatted per step of the writer: every temporary stays small and is reused.
_BLOCK = 1 << 14
#: What makes a text cell need quoting (the csv module's rule) or neutralising (a spreadsheet would run it).
_QUOTED = b',"\n\r'
_FORMULA_STARTS = [ord(c) for c in "=+-@\t\r"]


def _text_column(v: Any) -> Bytes:
    """A text column as the CSV's cells: plain text as it is, the rest as the csv module writes it."""
    if isinstance(v, np.ndarray) and v.dtype.kind == "S":
        if not len(v):
            return v
        risky = np.isin(first_bytes(v), _FORMULA_STARTS) | holding(v, _QUOTED)
        if not risky.any():
            return v
        out = v.astype(object)
        picked = np.flatnonzero(risky)
        out[picked] = list(quoted([x.decode("utf-8") for x in v[picked].tolist()]))
        return np.array(out.tolist(), dtype="S")
    if isinstance(v, np.ndarray) and v.dtype.kind == "U":
        codes, choices = spellings(v)
        return quoted(choices)[codes]
    return quoted([None if x is None else x.decode("utf-8") if isinstance(x, bytes) else str(x) for x in v])


def _numbers(v: Any) -> FloatArray:
    if isinstance(v, np.ndarray) and v.dtype != object:
        return np.asarray(v, dtype=np.float64)
    return np.array([np.nan if x is None else float(x) for x in v], dtype=np.float64)


def results_csv(results: Results) -> bytes:
    """The results table of rules 8 as CSV bytes (UTF-8, LF line ends), as the csv module would
    write each row of :attr:`xl_elo.model.Results.rows`, without a Python object per cell."""
    n = len(results)
    columns: list[tuple[str, Any]] = []
    precise = {c.name for c in results.spec if c.precise}
    for name in results.columns:
        kind, v = results.kinds.get(name, "blank"), results.values.get(name)
        if kind in ("float", "number") and name in precise:
            kind = "precise"
        if v is None or kind == "blank":
            columns.append(("blank", None))
        elif kind == "note":
            items = v.items() if isinstance(v, dict) else [(i, x) for i, x in enumerate(v) if x]
            where = np.fromiter((i for i, _ in items), np.int64) if items else np.zeros(0, np.int64)
            texts = quoted([x for _, x in items]) if items else np.zeros(0, "S1")
            order = np.argsort(where)
            columns.append(("note", (where[order], texts[order])))
        elif kind == "text":
            columns.append(("bytes", _text_column(v)))
        elif kind == "bool":
            if isinstance(v, np.ndarray) and v.dtype != object:
                codes = 1 + np.asarray(v, dtype=bool).astype(np.int64)
            else:
                codes = np.array([0 if x is None else 1 + bool(x) for x in v], dtype=np.int64)
            columns.append(("bytes", words(("", "no", "yes"), codes)))
        else:
            columns.append((kind, _numbers(v)))
    parts = [join_rows(results.columns, [])]
    for start in range(0, n, _BLOCK):
        stop = min(start + _BLOCK, n)
        cols: list[npt.NDArray[Any]] = []
        for kind, v in columns:
            if kind == "int":
                cols.append(whole_cells(v[start:stop]))
            elif kind in ("float", "number"):
                cols.append(number_cells(v[start:stop]))
            elif kind == "precise":
                cols.append(precise_cells(v[start:stop]))
            elif kind == "note":
                where, texts = v
                lo, hi = np.searchsorted(where, [start, stop])
                col = np.zeros(stop - start, texts.dtype if hi > lo else "S1")
                col[where[lo:hi] - start] = texts[lo:hi]
                cols.append(col)
            elif kind == "bytes":
                cols.append(v[start:stop])
            else:
                cols.append(np.zeros(stop - start, "S1"))
        parts.append(join_rows(None, cols))
    return b"".join(parts)

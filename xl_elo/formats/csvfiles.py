"""CSV files as people save them: the cell-by-cell tokenizer (rules 8).

:func:`read_csv` reads any CSV a spreadsheet or a person writes (UTF-8 with or without BOM,
UTF-16 with its BOM, ``,`` ``;`` or tab, any line ends, Excel's ``sep=`` line, quoted cells),
refusing with the file's name what is no CSV table. A plain file is split faster by
:mod:`xl_elo.formats.fastcsv`; either way the cells go to the one reader,
:mod:`xl_elo.formats.reader`, and :func:`table` is how a CSV file becomes one of its tables.
"""

from __future__ import annotations

import csv
import io
import os
import re
from pathlib import Path

from xl_elo import limits, schema
from xl_elo.formats import fastcsv, files
from xl_elo.formats.fastcsv import sniff_delimiter
from xl_elo.formats.reader import Table
from xl_elo.model import InputError, Problem, ProblemList


def table(path: str | os.PathLike[str], budget: fastcsv.Budget | None = None) -> Table:
    """One table of rules 8 from a CSV file: split with numpy when the file is plain, cell by cell
    otherwise (:class:`InputError` naming the file when it is no CSV table)."""
    p = files.input_path(path)
    try:
        return Table.from_csv(fastcsv.read_columns(p, budget if budget is not None else fastcsv.Budget()))
    except fastcsv.Irregular:
        return careful_table(p)


def careful_table(path: str | os.PathLike[str]) -> Table:
    """The table of a CSV file read cell by cell (:func:`read_csv`), whatever it holds: what :func:`table`
    reads where numpy cannot split the file, with the same verdicts (a row with cells beyond the header)."""
    p = Path(path)
    header, rows = read_csv(p)
    beyond(p.name, header, rows).raise_if_any()
    return Table.from_rows(p.name, header, rows, typed=False)


#: At most this many rows with cells beyond the header are named; the others are counted.
MAX_BEYOND = 50


def beyond(name: str, header: list[str], rows: list[list[str]]) -> ProblemList:
    """The rows with more filled cells than the header has headings (rules 8): no cell of a user's is dropped,
    and the row's other cells may be out of line (``a,A,,1500,30`` under ``id,name,rating,games``: a delimiter
    too many), so the row is refused, naming its cells beyond the header. Empty cells after the last heading
    (a spreadsheet's trailing delimiters) hold nothing and are passed over."""
    problems = ProblemList()
    width = len(header)
    found = 0
    for r, row in enumerate(rows, start=2):
        extra = [(j, c) for j, c in enumerate(row[width:], start=width + 1) if c.strip(schema._SPACE)]
        if not extra:
            continue
        found += 1
        if found > MAX_BEYOND:
            continue
        cells = ", ".join(f"{schema.shown(c)} (column {j})" for j, c in extra[:5]) + (" ..." if len(extra) > 5 else "")
        problems.add(name, r, None, f"the row has {len(row)} cells under {width} headings: {cells} would have no "
                                    "heading; is a delimiter too many in the row (a value holding one must be quoted, "
                                    "and a number is written without a thousands separator) or a heading missing?")
    if found > MAX_BEYOND:
        problems.add(name, None, None, f"and {found - MAX_BEYOND:,} more rows with cells beyond the header")
    return problems


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

"""Clean tables as numpy columns: the fast lane of ``xl-elo rate`` and ``ELO_RATE``.

A players or games CSV that is *simple* (UTF-8, one delimiter, no quotes, every row with
the header's number of cells, no spaces around values, nothing the cell-by-cell reader
would have to report) is read as whole columns: the file's bytes are split once with
numpy, player ids are hashed once into integer positions (vectorised open addressing, no
sort and no Python lookup per game), results and yes/no cells are mapped through their
few distinct spellings with the same parsers as every other front end (:mod:`xl_elo.schema`,
rules 1.1, 8). What it builds is the array form of an event (:class:`xl_elo.model.EventArrays`),
the same one ``Event.arrays()`` builds from records, and the federation's ``rate_arrays``
rates it.

Anything else raises :class:`NotSimple`, and the caller hands the files to the
cell-by-cell reader of :mod:`xl_elo.formats.csvfiles`, whose messages name the file, the row, the
column and the value. So the fast lane never has an error message of its own: it either
reads exactly what the cell-by-cell reader would read, or steps aside.

:func:`read_rows` does the same for tables given as rows of cells (the Excel ranges of
``ELO_RATE``), with the same contract.

The writer turns numeric result columns into text with numpy and assembles the CSV in
one buffer, cell for cell what :func:`xl_elo.formats.csvfiles.results_csv` writes.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from xl_elo import limits, schema
from xl_elo.federations import registry
from xl_elo.formats.csvfiles import format_cell, sniff_delimiter
from xl_elo.model import MAX_GAMES_PER_PLAYER, EventArrays, Results, period_year
from xl_elo.schema import ValueProblem

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
Bytes = npt.NDArray[np.bytes_]

#: numpy's string functions: ``np.strings`` from numpy 2, ``np.char`` before (Debian 12 has 1.24)
_strings: Any = getattr(np, "strings", np.char)

_BOM = b"\xef\xbb\xbf"
#: Zero bytes after a file's text: a cell's bytes are read 8 at a time.
_PAD = 8
_SPACES = (ord(" "), ord("\t"))
_NBSP_FIRST, _NBSP_LAST = 0xC2, 0xA0
#: More distinct spellings than this in a result or yes/no column: not a simple file.
_MAX_SPELLINGS = 64
#: Whole numbers longer than this are left to the cell-by-cell reader.
_MAX_DIGITS = 15


class NotSimple(Exception):
    """The file needs the cell-by-cell reader (the reason says why, for debugging)."""


class Budget:
    """The memory the fast reader plans, charged before each big array is made.

    Past :data:`xl_elo.limits.FAST_READER_BYTES` for one event the files are not simple (the
    cell-by-cell reader, bounded by the file, line and cell limits, takes them), so one long
    cell among many short ones, or a million empty columns, never asks for gigabytes.
    """

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limits.FAST_READER_BYTES.value if limit is None else limit
        self.used = 0

    def charge(self, nbytes: int, what: str) -> None:
        self.used += int(nbytes)
        if self.used > self.limit:
            raise NotSimple(f"{what}: the fast reader would plan {self.used:,} bytes of memory")


def _unusual(buf: bytearray, begin: int, end: int, non_ascii: bool) -> str | None:
    """What only the cell-by-cell reader handles in ``buf[begin:end]`` (it strips it around a value,
    or refuses it), or None: control characters (tabs and line ends aside), and the C1 controls,
    non-breaking and invisible spaces of :data:`xl_elo.schema._SPACE`. Counted with numpy and
    ``bytearray.count``: a few milliseconds for 100 MB, where a regular expression takes half a second.
    """
    text = np.frombuffer(buf, np.uint8, count=end)[begin:]
    allowed = buf.count(b"\n", begin, end) + sum(buf.count(c, begin, end) for c in (b"\r", b"\t")
                                                  if buf.find(c, begin, end) >= 0)
    if int(np.count_nonzero(text < 0x20)) != allowed or buf.find(b"\x7f", begin, end) >= 0:
        return "control characters"
    if not non_ascii:
        return None
    lead = np.flatnonzero(text[:-1] == 0xC2)  # U+0080 .. U+00A0: C1 controls and the non-breaking space
    if len(lead) and ((text[lead + 1] >= 0x80) & (text[lead + 1] <= 0xA0)).any():
        return "non-breaking spaces or C1 controls"
    if any(buf.find(seq, begin, end) >= 0 for seq in (b"\xe2\x80\x87", b"\xe2\x80\x8b", b"\xe2\x80\xaf",
                                                       b"\xef\xbb\xbf")):
        return "invisible spaces"
    return None


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class CsvColumns:
    """A simple CSV split into cells: cell (r, j) is ``data[start(j)[r]:ends[r, j]]``."""

    source: str
    header: list[str]
    data: npt.NDArray[np.uint8]
    row_starts: IntArray
    """Where each row's first cell starts."""
    ends: IntArray
    """Where each cell ends (its delimiter or line end), one row per row of the file."""
    spaces: bool = True
    """False when the file holds no space or tab at all (nothing to check)."""
    budget: Budget | None = None
    """The memory planned for the event this file belongs to."""

    @property
    def rows(self) -> int:
        return len(self.row_starts)

    def start(self, j: int) -> IntArray:
        """Where the cells of column j start (just after the previous cell's delimiter)."""
        return self.row_starts if j == 0 else self.ends[:, j - 1] + 1

    def text(self, j: int) -> Bytes:
        """Column j as fixed-width bytes (numpy ``S``), blank cells as ``b''``.

        A column whose longest cell would make the fixed-width copy too big (one long name
        among many short ones) is not simple: the cell-by-cell reader refuses the long cell.
        """
        starts, ends = self.start(j), self.ends[:, j]
        width = int((ends - starts).max(initial=0))
        if width > schema.MAX_CELL or (width + 8) * len(starts) > limits.FAST_READER_BYTES.value:
            raise NotSimple(f"{self.source}: a cell too long for the fast reader")
        if self.budget is not None:  # the column, a copy of it to look ids up, and its temporaries
            self.budget.charge(3 * (-(-width // 8) * 8 + 8) * len(starts), self.source)
        return _spans(self.data, starts, ends)

    def blank(self, j: int) -> BoolArray:
        return self.start(j) == self.ends[:, j]


def read_columns(path: str | Path, budget: Budget | None = None) -> CsvColumns:
    """Split a simple CSV file into cells with numpy; :class:`NotSimple` otherwise.

    The file is read once into a buffer with room for one line end and 8 zero bytes after
    its text (cells are read 8 bytes at a time), and never copied. The memory it plans (the
    buffer, the cell ends) is charged to ``budget`` before it is taken.
    """
    p = Path(path)
    budget = budget if budget is not None else Budget()
    try:
        st = p.stat()
        size = st.st_size
        if not p.is_file() or size > limits.FILE_BYTES.value:
            raise NotSimple("not a regular file within the size limit")
        budget.charge(size + 1 + _PAD, p.name)
        buf = bytearray(size + 1 + _PAD)
        with p.open("rb") as f:
            got = f.readinto(memoryview(buf)[:size])
            more = f.read(1)
    except OSError as exc:
        raise NotSimple(str(exc)) from None
    if got != size or more:
        raise NotSimple("the file changed while being read")
    begin = len(_BOM) if buf.startswith(_BOM) else 0
    if buf.find(b'"', begin, size) >= 0 or buf.find(b"\x00", begin, size) >= 0:
        raise NotSimple("quoted cells or zero bytes")
    non_ascii = bool((np.frombuffer(buf, np.uint8, count=size)[begin:] >= 0x80).any())
    if non_ascii:
        try:
            str(memoryview(buf)[begin:size], "utf-8")
        except UnicodeDecodeError:
            raise NotSimple("not UTF-8") from None
    unusual = _unusual(buf, begin, size, non_ascii)
    if unusual:
        raise NotSimple(unusual)
    end = size  # one line end after the last line, then zero bytes
    while end > begin and buf[end - 1] in (10, 13):
        end -= 1
    buf[end:] = b"\n" + bytes(len(buf) - end - 1)
    newline_at = buf.find(b"\n", begin)
    first = buf[begin:newline_at].decode("utf-8").rstrip("\r")
    delimiter = sniff_delimiter(first)  # as the cell-by-cell reader finds it
    n_cols = first.count(delimiter) + 1
    if n_cols > limits.COLUMNS.value:
        raise NotSimple("too many columns")
    lines = buf.count(b"\n", begin)
    separators = lines + buf.count(delimiter.encode(), begin)
    budget.charge(separators * 8 * 3 + (end - begin), p.name)  # the cell ends, their row starts, one mask
    data = np.frombuffer(buf, dtype=np.uint8)[begin:]
    separator = np.zeros(256, bool)
    separator[[ord("\n"), ord(delimiter)]] = True
    ends: npt.NDArray[np.intp] = np.flatnonzero(separator[data])
    # as many separators as lines x cells, every row's last one a line end: no row is ragged
    if len(ends) != lines * n_cols or not (data[ends[n_cols - 1::n_cols]] == ord("\n")).all():
        raise NotSimple("rows with different numbers of cells")
    ends = ends.reshape(lines, n_cols)
    row_starts = np.empty(lines, np.int64)
    row_starts[0] = 0
    row_starts[1:] = ends[:-1, -1] + 1
    # the cell-by-cell reader's limits (it names them): beyond one, the files are not simple
    if lines > limits.ROWS.value + 1 or lines * n_cols > limits.CELLS.value:
        raise NotSimple("more rows or cells than the limits")
    if int((ends[:, -1] - row_starts).max(initial=0)) > limits.LINE_CHARS.value:
        raise NotSimple("a line longer than the limit")
    if buf.find(b"\r", begin) >= 0:  # Windows line ends: the carriage return is not part of the last cell
        if buf.count(b"\r", begin) != buf.count(b"\r\n", begin):
            raise NotSimple("a carriage return inside a line")
        last = ends[:, -1]
        ends[:, -1] = last - (data[np.maximum(last - 1, 0)] == ord("\r"))
    header_starts = [0] + (ends[0, :-1] + 1).tolist()
    header = [data[s:e].tobytes().decode("utf-8") for s, e in zip(header_starts, ends[0].tolist(), strict=True)]
    row_starts, ends = row_starts[1:], ends[1:]
    table = CsvColumns(p.name, header, data, row_starts, ends, False, budget)
    filled = np.zeros(table.rows, bool)
    for j in range(n_cols):
        filled |= table.ends[:, j] > table.start(j)
    if not filled.all():  # rows of blank cells: a template's empty rows, skipped as csvio does
        row_starts, ends = row_starts[filled], ends[filled]
    spaces = any(buf.find(x, begin, end) >= 0 for x in (b" ", b"\t"))
    return CsvColumns(p.name, header, data, row_starts, ends, spaces, budget)


#: ``_LOW_BYTES[n]`` keeps the first n bytes of a little-endian 8-byte word.
_LOW_BYTES = np.array([(1 << (8 * n)) - 1 for n in range(8)] + [2**64 - 1], dtype=np.uint64)


def _spans(data: npt.NDArray[np.uint8], starts: IntArray, ends: IntArray) -> Bytes:
    """The cells ``data[starts:ends]`` as fixed-width bytes (zero bytes after the shorter ones).

    Read 8 bytes at a time: the file's bytes seen as overlapping little-endian words (one word
    starting at every byte; the reader leaves 8 zero bytes after the text), masked to the cell.
    """
    lengths = ends - starts
    words = max(1, -(-int(lengths.max(initial=0)) // 8))
    if sys.byteorder != "little" or not data.flags.c_contiguous or len(data) < 8:
        return _spans_bytewise(data, starts, ends)
    every = np.ndarray((len(data) - 7,), dtype=np.uint64, buffer=data, strides=(1,))
    out = np.empty((len(starts), words), np.uint64)
    for q in range(words):
        inside = np.clip(lengths - 8 * q, 0, 8)
        out[:, q] = every[np.minimum(starts + 8 * q, len(every) - 1)] & _LOW_BYTES[inside]
    return out.view(f"S{8 * words}").ravel()


def _spans_bytewise(data: npt.NDArray[np.uint8], starts: IntArray, ends: IntArray) -> Bytes:
    lengths = ends - starts
    width = max(int(lengths.max(initial=0)), 1)
    matrix = np.zeros((len(starts), width), np.uint8)
    last = len(data) - 1
    for k in range(width):  # the k-th byte of every cell at once
        byte = data[np.minimum(starts + k, last)]
        matrix[:, k] = np.where(lengths > k, byte, 0)
    return matrix.view(f"S{width}").ravel()


def _check_clean(table: CsvColumns, j: int) -> None:
    """Spaces or non-breaking spaces around a value: the cell-by-cell reader strips them."""
    if not table.spaces:
        return
    starts, ends = table.start(j), table.ends[:, j]
    filled = ends > starts
    if not filled.any():
        return
    s, e = starts[filled], ends[filled]
    first, last = table.data[s], table.data[e - 1]
    if ((first == _SPACES[0]) | (first == _SPACES[1]) | (last == _SPACES[0]) | (last == _SPACES[1])).any():
        raise NotSimple(f"{table.source}: spaces around a value")
    long = (e - s) >= 2
    second, before_last = table.data[np.where(long, s + 1, s)], table.data[np.where(long, e - 2, s)]
    if (long & (((first == _NBSP_FIRST) & (second == _NBSP_LAST)) |
                ((before_last == _NBSP_FIRST) & (last == _NBSP_LAST)))).any():
        raise NotSimple(f"{table.source}: non-breaking spaces around a value")


# --------------------------------------------------------------------------- cells


def whole_numbers(table: CsvColumns, j: int, low: int, high: int) -> FloatArray:
    """Column j as whole numbers (NaN for blank cells); only plain digits are simple."""
    starts, ends = table.start(j), table.ends[:, j]
    lengths = ends - starts
    width = int(lengths.max(initial=0))
    if width > _MAX_DIGITS:
        raise NotSimple(f"{table.source}: a long number")
    value = np.zeros(len(starts))
    for k in range(width):
        here = lengths > k
        digit = table.data[np.where(here, starts + k, 0)].astype(np.int64) - ord("0")
        if ((digit < 0) | (digit > 9))[here].any():
            raise NotSimple(f"{table.source}: a cell that is not plain digits")
        value = np.where(here, value * 10 + digit, value)
    value[lengths == 0] = np.nan
    if (value < low).any() or (value > high).any():
        raise NotSimple(f"{table.source}: a number out of range")
    return value


def numbers(table: CsvColumns, j: int, parse: Callable[[str], float | None]) -> FloatArray:
    """Column j as numbers (NaN blank), each cell through ``parse`` (a :mod:`xl_elo.schema` parser)."""
    blank = table.blank(j)
    out = np.full(table.rows, np.nan)
    filled = np.flatnonzero(~blank)
    if len(filled):
        texts = table.text(j)[filled]
        try:
            out[filled] = [parse(t.decode("utf-8")) for t in texts]
        except ValueProblem:
            raise NotSimple(f"{table.source}: a cell the cell-by-cell reader would report") from None
    return out


def spellings(column: npt.NDArray[np.generic]) -> tuple[IntArray, list]:  # type: ignore[type-arg]
    """Codes of a column with few distinct values: ``values[codes[i]] == column[i]``."""
    codes = np.empty(len(column), np.int64)
    left = np.ones(len(column), bool)
    values: list[bytes] = []
    while left.any():
        value = column[int(np.argmax(left))]
        same = column == value
        codes[same] = len(values)
        values.append(value.item())
        left &= ~same
        if len(values) > _MAX_SPELLINGS:
            raise NotSimple("too many distinct spellings")
    return codes, values


def mapped(column: Bytes, convert: Callable[[str], object], dtype: type) -> npt.NDArray[np.generic]:
    """Each distinct spelling converted once; a spelling ``convert`` rejects is not simple."""
    codes, values = spellings(column)
    try:
        table: npt.NDArray[np.generic] = np.array([convert(v.decode("utf-8")) for v in values], dtype=dtype)
    except ValueProblem:
        raise NotSimple("a value the cell-by-cell reader would report") from None
    return table[codes] if len(values) else np.zeros(0, dtype=dtype)


# --------------------------------------------------------------------------- ids


_MIX = np.uint64(0x9E3779B97F4A7C15)
_MIX2 = np.uint64(0xBF58476D1CE4E5B9)


def _words(column: Bytes, width: int) -> npt.NDArray[np.uint64]:
    """Fixed-width ids as rows of 64-bit words (padded with zero bytes to ``width``)."""
    return column.astype(f"S{width}").view(np.uint64).reshape(len(column), width // 8)


def _hash(words: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    h = np.zeros(len(words), np.uint64)
    with np.errstate(over="ignore"):
        for k in range(words.shape[1]):
            h = (h ^ words[:, k]) * _MIX
            h ^= h >> np.uint64(31)
        h *= _MIX2
        h ^= h >> np.uint64(29)
    return h


class IdIndex:
    """Player ids -> positions, an open-addressing hash table built and probed with numpy."""

    def __init__(self, ids: Bytes):
        n = len(ids)
        self.width = 8 * max(1, -(-ids.dtype.itemsize // 8))
        self.keys = _words(ids, self.width)
        size = 1 << max(4, (2 * n).bit_length())
        self.mask = np.uint64(size - 1)
        self.slots = np.full(size, -1, np.int64)
        position = (_hash(self.keys) & self.mask).astype(np.int64)
        pending = np.arange(n)
        while len(pending):
            at = position[pending]
            holder = self.slots[at]
            free = holder == -1
            candidates = pending[free]
            self.slots[at[free]] = candidates  # several for one slot: one of them wins
            lost = candidates[self.slots[position[candidates]] != candidates]  # retry the same slot
            taken = pending[~free]
            same = (self.keys[taken] == self.keys[holder[~free]]).all(axis=1)
            if same.any():
                raise NotSimple("duplicate player ids")
            position[taken] = (position[taken] + 1) & int(self.mask)
            pending = np.concatenate([lost, taken])

    def find(self, ids: Bytes) -> IntArray:
        """Positions of ``ids`` (-1 for an unknown id)."""
        out = np.full(len(ids), -1, np.int64)
        if not len(self.keys) or not len(ids):  # no player: every id is unknown
            return out
        if ids.dtype.itemsize > self.width:
            # longer than every known id: only the ones that fit can be known
            fits = _strings.str_len(ids) <= self.width
            out[fits] = self.find(ids[fits].astype(f"S{self.width}"))
            return out
        words = _words(ids, self.width)
        position = (_hash(words) & self.mask).astype(np.int64)
        # the first probe settles almost every id: done on whole arrays, short ids as one word
        holder = self.slots[position]
        if words.shape[1] == 1:
            match = (holder != -1) & (self.keys[:, 0][holder] == words[:, 0])
        else:
            match = (holder != -1) & (self.keys[holder] == words).all(axis=1)
        out = np.where(match, holder, -1)
        pending = np.flatnonzero((holder != -1) & ~match)
        while len(pending):
            position[pending] = (position[pending] + 1) & int(self.mask)
            holder = self.slots[position[pending]]
            known = holder != -1
            pending, holder = pending[known], holder[known]
            match = (self.keys[holder] == words[pending]).all(axis=1)
            out[pending[match]] = holder[match]
            pending = pending[~match]
        return out


# --------------------------------------------------------------------------- the event


#: Player columns the fast lane reads; any other known column must be blank.
_PLAYER_PARSED = ("id", "name", "rating", "games", "birth_year", "ever_2400", "category", "archive_perf",
                  "archive_games")
_PLAYER_BLANK = ("bonus_count", "grade", "nsr_grade", "lb_run", "mp_run", "mp_reached")


def _yes_no(text: str) -> bool:
    return bool(schema.yes_no(text))


def _archive_perf(text: str) -> float | None:
    return schema.number(text, low=1000, high=3500)


def read_event(players: str | Path, games: str | Path, period: str | None = None) -> EventArrays:
    """A period's players and games CSV files as arrays, checked like ``csvio.read_event``."""
    budget = Budget()
    pt, gt = read_columns(players, budget), read_columns(games, budget)
    pc, missing_p = schema.header(pt.header, schema.PLAYER_REQUIRED, schema.PLAYER_ALIASES)
    gc, missing_g = schema.header(gt.header, ("player", "opponent", "result"))
    if missing_p or missing_g or schema.duplicate_columns(pt.header) or schema.duplicate_columns(gt.header):
        raise NotSimple("missing or repeated columns")
    try:
        period = schema.period(period, required=False)
    except ValueProblem:
        raise NotSimple("a period that is not a month") from None
    year = period_year(period)
    n = pt.rows
    for name in _PLAYER_PARSED + _PLAYER_BLANK:
        if name in pc:
            _check_clean(pt, pc[name])
    for name in _PLAYER_BLANK:
        if name in pc and not pt.blank(pc[name]).all():
            raise NotSimple(f"{pt.source}: column {name} is filled")
    if "id" not in pc or pt.blank(pc["id"]).any():
        raise NotSimple("a blank id")
    ids = pt.text(pc["id"])
    _check_csv_safe(ids)
    _check_ids(ids)
    _check_not_error_values(ids)

    def text(name: str) -> Bytes:
        return pt.text(pc[name]) if name in pc else np.zeros(n, "S1")

    def whole(name: str, low: int, high: int) -> FloatArray:
        return whole_numbers(pt, pc[name], low, high) if name in pc else np.full(n, np.nan)

    rating = whole("rating", 0, schema.MAX_RATING)
    rating[rating == 0] = np.nan  # 0 is unrated (schema.rating)
    games_before = whole("games", 0, schema.MAX_GAMES)
    if (np.isnan(games_before) & ~np.isnan(rating)).any():
        raise NotSimple("a rated player's games left blank")
    games_before = np.nan_to_num(games_before)
    birth = whole("birth_year", schema.FIRST_BIRTH_YEAR, year if year is not None else _this_year())
    ever = mapped(text("ever_2400"), _yes_no, bool).astype(bool)
    category = mapped(text("category"), _category, np.int8)
    archive_perf = numbers(pt, pc["archive_perf"], _archive_perf) if "archive_perf" in pc else np.full(n, np.nan)
    archive_games = whole("archive_games", 0, schema.MAX_GAMES)
    names = text("name")
    _check_csv_safe(names)
    _check_not_error_values(names)
    index = IdIndex(ids)

    for name in ("round", "player", "opponent", "result", "handicap", "rated"):
        if name in gc:
            _check_clean(gt, gc[name])
    if "handicap" in gc and not gt.blank(gc["handicap"]).all():
        raise NotSimple("handicaps (FESA)")
    if gt.blank(gc["player"]).any():
        raise NotSimple("a blank player id")
    rnd = whole_numbers(gt, gc["round"], 1, schema.MAX_ROUND) if "round" in gc else np.full(gt.rows, np.nan)
    res_codes, res_values = spellings(gt.text(gc["result"]))
    rated = (mapped(gt.text(gc["rated"]), lambda t: True if not t else _yes_no(t), bool).astype(bool)
             if "rated" in gc else np.ones(gt.rows, bool))
    return _assemble(ids, names, rating, games_before, birth, ever, category == 1, archive_perf, archive_games,
                     index, gt.text(gc["player"]), gt.text(gc["opponent"]), ~gt.blank(gc["opponent"]), rnd,
                     res_codes, [v.decode("utf-8") or None for v in res_values], rated, period)


def _this_year() -> int:
    import datetime as dt

    return dt.date.today().year


def _check_ids(ids: Bytes) -> None:
    """Ids the cell-by-cell reader refuses (spreadsheet wildcards, two ids differing only by case)
    or that need its Unicode case folding (non-ASCII) are not simple."""
    if not len(ids):
        return
    for bad in (b"*", b"?", b"~"):
        if (_strings.find(ids, bad) >= 0).any():
            raise NotSimple("an id with a wildcard")
    if (ids.view(np.uint8) >= 0x80).any():
        raise NotSimple("a non-ASCII id")
    lower = _strings.lower(ids)
    if not np.array_equal(lower, ids):
        IdIndex(lower)  # raises NotSimple for two ids that differ only by case


_ERROR_VALUES = np.array(sorted(e.encode("utf-8") for e in schema.EXCEL_ERRORS))


def _check_not_error_values(column: Bytes) -> None:
    """A spreadsheet error value (``#N/A``) as an id or a name: the cell-by-cell reader refuses it."""
    if len(column) and np.isin(column, _ERROR_VALUES).any():
        raise NotSimple("a spreadsheet error value")


def _assemble(ids: Bytes, names: Any, rating: FloatArray, games_before: FloatArray,
              birth: FloatArray, ever: BoolArray, junior: BoolArray, archive_perf: FloatArray,
              archive_games: FloatArray, index: IdIndex, player_ids: Bytes, opponent_ids: Bytes,
              has_opponent: BoolArray, rnd: FloatArray, res_codes: IntArray, res_values: list[object],
              rated: BoolArray, period: str | None) -> EventArrays:
    """The cross-table checks of rules 8 on arrays, and the games that count (rules 1.1)."""
    player = index.find(player_ids)
    opponent = np.where(has_opponent, index.find(opponent_ids), -2)
    if (player < 0).any() or (opponent == -1).any():
        raise NotSimple("an unknown player id")
    if (player == opponent).any():
        raise NotSimple("a player paired with himself")
    _check_pairs(player, opponent, rnd, len(ids))
    key = res_codes * 2 + (~has_opponent)
    used = np.flatnonzero(np.bincount(key, minlength=2 * len(res_values)))
    scores = np.full(2 * len(res_values), np.nan)
    counting = np.zeros(2 * len(res_values), bool)
    for k in used.tolist():
        try:
            r = schema.result(res_values[k // 2], has_opponent=not (k % 2))
        except ValueProblem:
            raise NotSimple("a result the cell-by-cell reader would report") from None
        counting[k] = r.rated
        scores[k] = r.score if r.score is not None else np.nan
    counts = rated & counting[key] & has_opponent
    a, b = player[counts], opponent[counts]
    per_player = np.bincount(a, minlength=len(ids)) + np.bincount(b, minlength=len(ids))
    if per_player.max(initial=0) > MAX_GAMES_PER_PLAYER:
        raise NotSimple("a player with too many games")
    return EventArrays(ids, names, rating, games_before, birth, ever, junior, archive_perf, archive_games,
                       a, b, scores[key][counts], period)


def read_rows(players_header: Sequence[object], players: Sequence[Sequence[object]],
              games_header: Sequence[object], games: Sequence[Sequence[object]],
              period: str | None = None) -> EventArrays:
    """Players and games given as rows of cells (Excel ranges: floats, text, None) as arrays.

    The same contract as :func:`read_event`: exactly what ``csvio.parse_*_rows(typed=True)``
    would read, or :class:`NotSimple` (text with spaces around it, ids given as numbers, any
    bad cell ...).
    """
    pc, missing_p = schema.header(players_header, schema.PLAYER_REQUIRED, schema.PLAYER_ALIASES)
    gc, missing_g = schema.header(games_header, ("player", "opponent", "result"))
    if missing_p or missing_g or schema.duplicate_columns(players_header) or schema.duplicate_columns(games_header):
        raise NotSimple("missing or repeated columns")
    try:
        period = schema.period(period, required=False)
    except ValueProblem:
        raise NotSimple("a period that is not a month") from None
    year = period_year(period)
    # rows of empty cells are a template's empty rows; a row of spaces would reach a blank id below
    players = [r for r in players if len(r) != r.count("") + r.count(None)]
    games = [r for r in games if len(r) != r.count("") + r.count(None)]

    def column(rows: Sequence[Sequence[object]], cols: dict[str, int], name: str) -> list[object]:
        j = cols.get(name)
        if j is None:
            return [None] * len(rows)
        out = [r[j] if j < len(r) else None for r in rows]
        return [None if c is None or c == "" else c for c in out]

    for name in _PLAYER_BLANK:
        if any(c is not None for c in column(players, pc, name)):
            raise NotSimple(f"column {name} is filled")
    ids = _ids(column(players, pc, "id"))
    _check_ids(ids)
    names = column(players, pc, "name")
    if not all(c is None or (type(c) is str and _as_schema_reads(schema.text, c)) for c in names):
        raise NotSimple("a name that is not plain text")
    index = IdIndex(ids)
    rating = _whole_cells(column(players, pc, "rating"), 0, schema.MAX_RATING)
    rating[rating == 0] = np.nan  # 0 is unrated (schema.rating)
    games_before = _whole_cells(column(players, pc, "games"), 0, schema.MAX_GAMES)
    if (np.isnan(games_before) & ~np.isnan(rating)).any():
        raise NotSimple("a rated player's games left blank")
    games_before = np.nan_to_num(games_before)
    birth = _whole_cells(column(players, pc, "birth_year"), schema.FIRST_BIRTH_YEAR,
                         year if year is not None else _this_year())
    ever = _distinct(column(players, pc, "ever_2400"), _yes_no, bool)
    junior = _distinct(column(players, pc, "category"), lambda c: _category("" if c is None else _plain_text(c)) == 1,
                       bool)
    archive_perf = _whole_cells(column(players, pc, "archive_perf"), 1000, 3500, whole=False)
    archive_games = _whole_cells(column(players, pc, "archive_games"), 0, schema.MAX_GAMES)
    if any(c is not None for c in column(games, gc, "handicap")):
        raise NotSimple("handicaps (FESA)")
    player_ids = _ids(column(games, gc, "player"))
    opponent = column(games, gc, "opponent")
    has_opponent = np.array([c is not None for c in opponent], bool)
    opponent_ids = _ids([c if c is not None else "-" for c in opponent])
    rnd = _whole_cells(column(games, gc, "round"), 1, schema.MAX_ROUND)
    results = column(games, gc, "result")
    for c in results:
        if type(c) is str and c != c.strip():
            raise NotSimple("spaces around a result")
    codes: dict[tuple[type, object], int] = {}
    res_codes = np.fromiter((codes.setdefault((type(c), c), len(codes)) for c in results), np.int64, len(results))
    res_values = [value for _, value in codes]
    rated = _distinct(column(games, gc, "rated"), lambda c: True if c is None else _yes_no(c), bool)
    return _assemble(ids, np.array(["" if c is None else c for c in names], dtype=object), rating, games_before,
                     birth, ever, junior, archive_perf, archive_games, index, player_ids, opponent_ids, has_opponent,
                     rnd, res_codes, res_values, rated, period)


def _as_schema_reads(parse: Callable[[object], object], cell: object) -> bool:
    """True when the schema reads the cell as itself (no spaces to strip, nothing to refuse)."""
    try:
        return parse(cell) == cell
    except ValueProblem:
        return False


def _plain_text(c: object) -> str:
    if type(c) is not str or c != c.strip():
        raise ValueError(c)
    return c


_PADDED_TEXT = re.compile(r"(?:^|\x00)(?:\s|\x00|$)|\s(?:\x00|$)")


def _ids(cells: list[object]) -> Bytes:
    """Id cells as UTF-8 bytes; only non-blank text without spaces around it is simple."""
    if not cells:
        return np.zeros(0, "S1")
    if set(map(type, cells)) != {str}:
        raise NotSimple("an id that is blank or a number")
    if not all(_as_schema_reads(schema.identifier, c) for c in set(cells)):
        raise NotSimple("an id the cell-by-cell reader would change or refuse")
    joined = "\x00".join(cells)  # type: ignore[arg-type]
    # one pass for blank ids and spaces around one
    if joined.count("\x00") != len(cells) - 1 or _PADDED_TEXT.search(joined):
        raise NotSimple("an id that is blank or has spaces around it")
    try:
        return np.array(cells, dtype="S")  # plain ASCII: converted in one call
    except UnicodeEncodeError:
        return np.array([str(c).encode("utf-8") for c in cells], dtype="S")  # every cell is text (checked above)


def _whole_cells(cells: list[object], low: float, high: float, *, whole: bool = True) -> FloatArray:
    """Number cells (floats from Excel, None for blank) as an array; anything else is not simple."""
    if not set(map(type, cells)) <= {float, int, type(None)}:
        raise NotSimple("a number cell holding text")
    values = np.array([np.nan if c is None else c for c in cells], dtype=np.float64)
    filled = values[~np.isnan(values)]
    if not np.isfinite(filled).all() or (whole and (filled != np.floor(filled)).any()):
        raise NotSimple("a number that is not a whole number")
    if (filled < low).any() or (filled > high).any():
        raise NotSimple("a number out of range")
    return values


def _distinct(cells: list[object], convert: Callable[[Any], object], dtype: type) -> npt.NDArray[Any]:
    """Each distinct cell converted once (a rejected one is not simple)."""
    seen: dict[tuple[type, object], object] = {}
    try:
        for c in set((type(c), c) for c in cells):
            seen[c] = convert(c[1])
    except (ValueError, TypeError):  # ValueProblem too
        raise NotSimple("a cell the cell-by-cell reader would report") from None
    return np.array([seen[(type(c), c)] for c in cells], dtype=dtype)


def _category(text: str) -> int:
    """1 for junior, 0 for senior or blank (:func:`xl_elo.schema.category`)."""
    return 1 if schema.category(text) == "junior" else 0


def _check_csv_safe(column: Bytes) -> None:
    """Text the results writer would have to change (formula starts, delimiters) takes the slow lane."""
    first = column.view(np.uint8).reshape(len(column), -1)[:, 0] if len(column) else np.zeros(0, np.uint8)
    if np.isin(first, [ord(c) for c in "=+-@\t\r"]).any():
        raise NotSimple("text that starts like a formula")
    if (_strings.find(column, b",") >= 0).any():
        raise NotSimple("a comma inside a cell")


def _check_pairs(player: IntArray, opponent: IntArray, rnd: FloatArray, n: int) -> None:
    """The same pair twice in one round (rules 8; a blank round counts as one): the cell-by-cell reader reports it."""
    paired = opponent >= 0
    if not paired.any():
        return
    lo = np.minimum(player, opponent)[paired]
    hi = np.maximum(player, opponent)[paired]
    r = np.nan_to_num(rnd[paired], nan=0.0)
    if (r.max() + 1) * n * n > 2**62:
        raise NotSimple("round numbers too large to check quickly")
    key = np.sort((r.astype(np.int64) * n + lo) * n + hi)  # a sort: np.unique's hashing is ten times slower
    if (key[1:] == key[:-1]).any():
        raise NotSimple("a pair meets twice in a round")


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


def quoted(texts: Sequence[str]) -> Bytes:
    """Text cells as the csv module writes them (quoted when they hold a comma or a quote)."""
    cells: dict[str, bytes] = {}
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


# --------------------------------------------------------------------------- the fast lane


def rate_files(federation: str, players: str | Path, games: str | Path, period: str | None = None,
               options: object = None) -> Results:
    """Rate a period from simple CSV files without a Python object per row (:class:`NotSimple` otherwise).

    Any federation whose module offers ``rate_arrays`` (the contract) is rated this way.
    """
    module = registry()[federation]
    if not hasattr(module, "rate_arrays"):
        raise NotSimple(f"{federation} is rated by the cell-by-cell lane")
    return module.rate_arrays(read_event(players, games, period), options)  # type: ignore[no-any-return]


def rate_event(federation: str, ev: EventArrays, options: object = None) -> Results:
    """Rate a period read by :func:`read_event` or :func:`read_rows` (a federation with ``rate_arrays``)."""
    module = registry()[federation]
    if not hasattr(module, "rate_arrays"):
        raise NotSimple(f"{federation} is rated by the cell-by-cell lane")
    return module.rate_arrays(ev, options)  # type: ignore[no-any-return]


#: Rows formatted per step of the writer: every temporary stays small and is reused.
_BLOCK = 1 << 14


def results_csv(results: Results) -> bytes:
    """The results table as CSV bytes, cell for cell what :func:`xl_elo.formats.csvfiles.results_csv` writes."""
    n = len(results)
    columns: list[tuple[str, object]] = []
    for name in results.columns:
        kind, v = results.kinds.get(name, "blank"), results.values.get(name)
        if kind == "note":
            where = np.fromiter(v.keys(), np.int64, len(v)) if v else np.zeros(0, np.int64)
            texts = quoted(list(v.values())) if v else np.zeros(0, "S1")
            order = np.argsort(where)
            columns.append(("note", (where[order], texts[order])))
        elif kind == "text" and isinstance(v, np.ndarray) and v.dtype.kind == "U":
            codes, choices = spellings(v)
            columns.append(("bytes", quoted(choices)[codes]))
        elif kind == "text" and not (isinstance(v, np.ndarray) and v.dtype.kind == "S"):
            columns.append(("bytes", quoted([str(x) for x in v])))  # type: ignore[union-attr]
        elif kind == "text":
            columns.append(("bytes", v))  # checked by the reader: nothing to quote or neutralise
        else:
            columns.append((kind, v))
    parts = [join_rows(results.columns, [])]
    for start in range(0, n, _BLOCK):
        stop = min(start + _BLOCK, n)
        cols: list[npt.NDArray[Any]] = []
        for kind, v in columns:
            if kind == "int":
                cols.append(whole_cells(np.asarray(v)[start:stop]))
            elif kind in ("float", "number"):
                cols.append(number_cells(np.asarray(v)[start:stop]))
            elif kind == "bool":
                cols.append(words(("no", "yes"), np.asarray(v[start:stop], dtype=np.int64)))  # type: ignore[index]
            elif kind == "note":
                where, texts = v  # type: ignore[misc]
                lo, hi = np.searchsorted(where, [start, stop])
                col = np.zeros(stop - start, texts.dtype if hi > lo else "S1")
                col[where[lo:hi] - start] = texts[lo:hi]
                cols.append(col)
            elif kind == "bytes":
                cols.append(v[start:stop])  # type: ignore[index]
            else:
                cols.append(np.zeros(stop - start, "S1"))
        parts.append(join_rows(None, cols))
    return b"".join(parts)

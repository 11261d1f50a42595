"""The fast tokenizer of a plain CSV file: split into cells with numpy, never copied.

A players or games file that is *plain* (UTF-8, one delimiter, no quotes, every row with
the header's number of cells, no control or invisible characters) is split once with numpy;
anything else raises :class:`Irregular` and :func:`xl_elo.formats.csvfiles.read_csv` tokenizes
it cell by cell. Either way the cells go to the one reader (:mod:`xl_elo.formats.reader`),
which reads every value through :mod:`xl_elo.schema`. Here too: :class:`IdIndex`, player ids to
positions by a numpy hash table, and :func:`spellings`, a column's few distinct values.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from xl_elo import limits, schema

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


class Irregular(Exception):
    """The file needs the cell-by-cell tokenizer (the reason says why, for debugging)."""


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
            raise Irregular(f"{what}: the fast reader would plan {self.used:,} bytes of memory")


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
    numbers: IntArray | None = None
    """Each row's number as a spreadsheet shows it (the header is row 1; blank rows are skipped)."""

    @property
    def rows(self) -> int:
        return len(self.row_starts)

    def start(self, j: int) -> IntArray:
        """Where the cells of column j start (just after the previous cell's delimiter)."""
        return self.row_starts if j == 0 else self.ends[:, j - 1] + 1

    def text(self, j: int) -> tuple[Bytes, BoolArray]:
        """Column j as fixed-width bytes (numpy ``S``), blank cells as ``b''``, and the cells left out
        of it for being longer than a cell may be (:data:`xl_elo.schema.MAX_CELL`): one long cell
        among many short ones never makes the copy big; the reader reads those cells one by one."""
        starts, ends = self.start(j), self.ends[:, j]
        long = (ends - starts) > schema.MAX_CELL
        if long.any():
            ends = np.where(long, starts, ends)
        width = int((ends - starts).max(initial=0))
        if self.budget is not None:  # the column, a copy of it to look ids up, and its temporaries
            self.budget.charge(3 * (-(-width // 8) * 8 + 8) * len(starts), self.source)
        return _spans(self.data, starts, ends), long

    def cell(self, i: int, j: int) -> str:
        """One cell as text."""
        start = self.row_starts[i] if j == 0 else self.ends[i, j - 1] + 1  # this cell's alone: never the column's
        return self.data[int(start):int(self.ends[i, j])].tobytes().decode("utf-8")

    def blank(self, j: int) -> BoolArray:
        return self.start(j) == self.ends[:, j]


def read_columns(path: str | Path, budget: Budget | None = None) -> CsvColumns:
    """Split a simple CSV file into cells with numpy; :class:`Irregular` otherwise.

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
            raise Irregular("not a regular file within the size limit")
        budget.charge(size + 1 + _PAD, p.name)
        buf = bytearray(size + 1 + _PAD)
        with p.open("rb") as f:
            got = f.readinto(memoryview(buf)[:size])
            more = f.read(1)
    except OSError as exc:
        raise Irregular(str(exc)) from None
    if got != size or more:
        raise Irregular("the file changed while being read")
    begin = len(_BOM) if buf.startswith(_BOM) else 0
    if not (np.frombuffer(buf, np.uint8, count=size)[begin:] > 32).any():
        raise Irregular("an empty file")
    if buf.find(b'"', begin, size) >= 0 or buf.find(b"\x00", begin, size) >= 0:
        raise Irregular("quoted cells or zero bytes")
    non_ascii = bool((np.frombuffer(buf, np.uint8, count=size)[begin:] >= 0x80).any())
    if non_ascii:
        try:
            str(memoryview(buf)[begin:size], "utf-8")
        except UnicodeDecodeError:
            raise Irregular("not UTF-8") from None
    unusual = _unusual(buf, begin, size, non_ascii)
    if unusual:
        raise Irregular(unusual)
    end = size  # one line end after the last line, then zero bytes
    while end > begin and buf[end - 1] in (10, 13):
        end -= 1
    buf[end:] = b"\n" + bytes(len(buf) - end - 1)
    newline_at = buf.find(b"\n", begin)
    first = buf[begin:newline_at].decode("utf-8").rstrip("\r")
    delimiter = sniff_delimiter(first)  # as the cell-by-cell reader finds it
    n_cols = first.count(delimiter) + 1
    if n_cols > limits.COLUMNS.value:
        raise Irregular("too many columns")
    lines = buf.count(b"\n", begin)
    separators = lines + buf.count(delimiter.encode(), begin)
    budget.charge(separators * 8 * 3 + (end - begin), p.name)  # the cell ends, their row starts, one mask
    data = np.frombuffer(buf, dtype=np.uint8)[begin:]
    separator = np.zeros(256, bool)
    separator[[ord("\n"), ord(delimiter)]] = True
    ends: npt.NDArray[np.intp] = np.flatnonzero(separator[data])
    # as many separators as lines x cells, every row's last one a line end: no row is ragged
    if len(ends) != lines * n_cols or not (data[ends[n_cols - 1::n_cols]] == ord("\n")).all():
        raise Irregular("rows with different numbers of cells")
    ends = ends.reshape(lines, n_cols)
    row_starts = np.empty(lines, np.int64)
    row_starts[0] = 0
    row_starts[1:] = ends[:-1, -1] + 1
    # the cell-by-cell reader's limits (it names them): beyond one, the files are not simple
    if lines > limits.ROWS.value + 1 or lines * n_cols > limits.CELLS.value:
        raise Irregular("more rows or cells than the limits")
    if int((ends[:, -1] - row_starts).max(initial=0)) > limits.LINE_CHARS.value:
        raise Irregular("a line longer than the limit")
    if buf.find(b"\r", begin) >= 0:  # Windows line ends: the carriage return is not part of the last cell
        if buf.count(b"\r", begin) != buf.count(b"\r\n", begin):
            raise Irregular("a carriage return inside a line")
        last = ends[:, -1]
        ends[:, -1] = last - (data[np.maximum(last - 1, 0)] == ord("\r"))
    header_starts = [0] + (ends[0, :-1] + 1).tolist()
    header = [data[s:e].tobytes().decode("utf-8") for s, e in zip(header_starts, ends[0].tolist(), strict=True)]
    row_starts, ends = row_starts[1:], ends[1:]
    table = CsvColumns(p.name, header, data, row_starts, ends, False, budget)
    filled = np.zeros(table.rows, bool)
    for j in range(n_cols):
        filled |= table.ends[:, j] > table.start(j)
    numbers = np.flatnonzero(filled) + 2
    if not filled.all():  # rows of blank cells: a template's empty rows, skipped as the cell-by-cell tokenizer does
        row_starts, ends = row_starts[filled], ends[filled]
    spaces = any(buf.find(x, begin, end) >= 0 for x in (b" ", b"\t"))
    return CsvColumns(p.name, header, data, row_starts, ends, spaces, budget, numbers)


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


def padded(table: CsvColumns, j: int) -> BoolArray:
    """Cells of column j with spaces, tabs or non-breaking spaces around the value (the reader strips them)."""
    starts, ends = table.start(j), table.ends[:, j]
    out = np.zeros(len(starts), bool)
    if not table.spaces:  # non-breaking spaces never reach here: the file would not be plain
        return out
    filled = ends > starts
    if not filled.any():
        return out
    s, e = starts[filled], ends[filled]
    first, last = table.data[s], table.data[e - 1]
    around = (first == _SPACES[0]) | (first == _SPACES[1]) | (last == _SPACES[0]) | (last == _SPACES[1])
    long = (e - s) >= 2
    second, before_last = table.data[np.where(long, s + 1, s)], table.data[np.where(long, e - 2, s)]
    around |= long & (((first == _NBSP_FIRST) & (second == _NBSP_LAST)) |
                      ((before_last == _NBSP_FIRST) & (last == _NBSP_LAST)))
    out[filled] = around
    return out


def spellings(column: npt.NDArray[np.generic]) -> tuple[IntArray, list[Any]]:
    """Codes of a column's values: ``values[codes[i]] == column[i]``, values in order of first
    appearance while they are few (one comparison per value), sorted when there are many."""
    codes = np.empty(len(column), np.int64)
    left = np.ones(len(column), bool)
    values: list[Any] = []
    while left.any():
        if len(values) >= _MAX_SPELLINGS:
            unique, inverse = np.unique(column, return_inverse=True)
            return inverse.astype(np.int64).ravel(), [v.item() for v in unique]
        value = column[int(np.argmax(left))]
        same = column == value
        codes[same] = len(values)
        values.append(value.item())
        left &= ~same
    return codes, values


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
        self.duplicated = False
        """Some id is given twice (it has one position, its first place in the table's hash)."""
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
            if same.any():  # an id given twice: the one already there keeps the slot
                self.duplicated = True
                taken = taken[~same]
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


# --------------------------------------------------------------------------- bytes of a column


def holding(column: Bytes, chars: bytes, *, non_ascii: bool = False) -> BoolArray:
    """The cells of a fixed-width bytes column that hold any of ``chars`` (or, with ``non_ascii``, a
    byte from 0x80): one look-up table over the column's bytes, one pass."""
    n = len(column)
    if not n or not column.dtype.itemsize:
        return np.zeros(n, bool)
    table = np.zeros(256, bool)
    table[list(chars)] = True
    if non_ascii:
        table[0x80:] = True
    found: BoolArray = np.asarray(table[column.view(np.uint8).reshape(n, -1)].any(axis=1), dtype=bool)
    return found


def first_bytes(column: Bytes) -> npt.NDArray[np.uint8]:
    """Each cell's first byte (0 for a blank one)."""
    if not len(column) or not column.dtype.itemsize:
        return np.zeros(len(column), np.uint8)
    return column.view(np.uint8).reshape(len(column), -1)[:, 0]  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- the delimiter


def sniff_delimiter(first_line: str) -> str:
    """The delimiter of a CSV file from its header line: tab, ``;`` or ``,`` (the most frequent)."""
    counts = {d: first_line.count(d) for d in ("\t", ";", ",")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","

"""The one reader of the tables of rules 8: every source read once, validated once.

A source (a CSV file, a spreadsheet range, a workbook's sheet, a tournament report, FESA's
files) becomes a :class:`Table`: a header and one :class:`Cells` per column, with each row's
number as the source shows it. One validator reads every column a rating system declares
(the players' facts of its ``Player``, rules 8) through :mod:`xl_elo.schema`, the one
validation of every value, and the cross-table checks (ids, pairs, a player's games) run once,
on arrays; every problem names the file or sheet, the row, the column and the value, all of
them reported together (:class:`xl_elo.model.InputError`).

What it reads is :class:`Tables`, the event as validated columns, which builds either the
records of :class:`xl_elo.model.Event` (for messages, reports and the engines that rate player
by player) or the arrays of :class:`xl_elo.model.EventArrays` (for a federation-size period),
without reading anything again, in the spirit of python-chess's ``read_game(Visitor=...)``.

Plain cells are read without a call per cell: whole numbers as digits, columns of a few
spellings once per spelling, ids and names checked with numpy; any other cell (spaces around
it, a decimal comma, text where a number belongs, a long cell) is read by the schema's own
parser, so the messages are the same whichever way a cell came.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from xl_elo import schema
from xl_elo.core import Result
from xl_elo.formats.fastcsv import _MAX_DIGITS, CsvColumns, IdIndex, first_bytes, holding, padded, spellings
from xl_elo.model import (
    MAX_GAMES_PER_PLAYER,
    Event,
    EventArrays,
    Fact,
    Game,
    HistoryGame,
    InputError,
    Player,
    Problem,
    fact_array,
    facts,
)
from xl_elo.schema import ValueProblem

if TYPE_CHECKING:
    from xl_elo.federations.contract import RatingSystem

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
Bytes = npt.NDArray[np.bytes_]

#: numpy's string functions: ``np.strings`` from numpy 2, ``np.char`` before (Debian 12 has 1.24)
_strings: Any = getattr(np, "strings", np.char)
_ERROR_VALUES = np.array(sorted(e.encode("utf-8") for e in schema.EXCEL_ERRORS))
_ERROR_STARTS = np.array(sorted({e.encode("utf-8")[0] for e in schema.EXCEL_ERRORS}), dtype=np.uint8)
GAME_COLUMNS = schema.GAME_COLUMNS
GAME_REQUIRED = schema.GAME_REQUIRED
HISTORY_COLUMNS = schema.HISTORY_COLUMNS


# --------------------------------------------------------------------------- cells


class Cells:
    """One column's cells, as a source holds them."""

    typed = False
    """A spreadsheet's cells (numbers as numbers: text where a number belongs is refused)."""

    def __len__(self) -> int:
        raise NotImplementedError

    def raw(self, i: int) -> Any:
        """Cell i as the schema's parsers take it (text, or a spreadsheet's typed value)."""
        raise NotImplementedError

    def blank(self) -> BoolArray:
        """Cells with nothing in them (a cell of spaces is not blank here: its parser says so)."""
        raise NotImplementedError

    def whole(self, low: int, high: int) -> tuple[FloatArray, BoolArray]:
        """The cells that are plain whole numbers from ``low`` to ``high``: their values and where
        they are. Every other cell is read by the parser."""
        raise NotImplementedError

    def distinct(self, rows: IntArray) -> tuple[IntArray, list[Any]]:
        """For the given rows: a code per row and the distinct raw cells the codes index."""
        raise NotImplementedError

    def texts(self, ids: bool) -> tuple[Bytes, BoolArray]:
        """The column as UTF-8 bytes and the cells that may be taken as they are: text with no
        spaces around it, not a spreadsheet error, not too long; for ``ids`` also ASCII (composed
        form and case folding are the parser's) and without wildcards. Blank cells are not."""
        raise NotImplementedError


class TextCells(Cells):
    """A column of a plain CSV file split by :mod:`xl_elo.formats.fastcsv`: bytes of the file."""

    def __init__(self, table: CsvColumns, j: int) -> None:
        self.table = table
        self.j = j
        self._text: tuple[Bytes, BoolArray] | None = None

    def text(self) -> tuple[Bytes, BoolArray]:
        """The column as fixed-width bytes and its cells too long for them (made once)."""
        if self._text is None:
            self._text = self.table.text(self.j)
        return self._text

    def __len__(self) -> int:
        return self.table.rows

    def raw(self, i: int) -> Any:
        return self.table.cell(i, self.j)

    def blank(self) -> BoolArray:
        return self.table.blank(self.j)

    def whole(self, low: int, high: int) -> tuple[FloatArray, BoolArray]:
        t, j = self.table, self.j
        starts, ends = t.start(j), t.ends[:, j]
        lengths = ends - starts
        n = len(starts)
        value = np.zeros(n)
        plain = (lengths > 0) & (lengths <= _MAX_DIGITS)
        width = int(np.where(plain, lengths, 0).max(initial=0))
        for k in range(width):
            here = plain & (lengths > k)
            digit = t.data[np.where(here, starts + k, 0)].astype(np.int64) - ord("0")
            plain &= ~here | ((digit >= 0) & (digit <= 9))
            value = np.where(here, value * 10 + digit, value)
        taken = plain & (value >= low) & (value <= high)
        return np.where(taken, value, np.nan), taken

    def distinct(self, rows: IntArray) -> tuple[IntArray, list[Any]]:
        column, long = self.text()
        codes, values = spellings(column if len(rows) == len(column) else column[rows])
        decoded: list[Any] = [v.decode("utf-8") for v in values]
        for k in np.flatnonzero(long[rows]).tolist():  # cells too long for the copy: each its own spelling
            codes[k] = len(decoded)
            decoded.append(self.raw(int(rows[k])))
        return codes, decoded

    def texts(self, ids: bool) -> tuple[Bytes, BoolArray]:
        column, long = self.text()
        ok = ~self.blank() & ~long & ~padded(self.table, self.j)
        if len(column):
            maybe = np.flatnonzero(np.isin(first_bytes(column), _ERROR_STARTS))  # '#N/A', 'Err:502'
            if len(maybe):
                ok[maybe] &= ~np.isin(column[maybe], _ERROR_VALUES)
            if ids:  # wildcards, and letters whose composed form and case are the parser's
                ok &= ~holding(column, b"*?~", non_ascii=True)
        return column, ok


class ListCells(Cells):
    """A column of Python values: a CSV file read cell by cell (text), or a spreadsheet's (typed)."""

    def __init__(self, values: Sequence[Any], typed: bool) -> None:
        self.values = list(values)
        self.typed = typed

    def __len__(self) -> int:
        return len(self.values)

    def raw(self, i: int) -> Any:
        return self.values[i]

    def blank(self) -> BoolArray:
        return np.fromiter((v is None or v == "" for v in self.values), np.bool_, len(self.values))

    def whole(self, low: int, high: int) -> tuple[FloatArray, BoolArray]:
        n = len(self.values)
        value = np.full(n, np.nan)
        taken = np.zeros(n, bool)
        for i, v in enumerate(self.values):
            if type(v) is float or type(v) is int:
                if not self.typed or not (v == v and v != math.inf and v != -math.inf) or v != int(v):
                    continue  # text sources hold text; a fraction or NaN is the parser's to name
            elif type(v) is str and not self.typed and v.isascii() and v.isdigit() and len(v) <= _MAX_DIGITS:
                v = int(v)
            else:
                continue
            if low <= v <= high:
                value[i] = v
                taken[i] = True
        return value, taken

    def distinct(self, rows: IntArray) -> tuple[IntArray, list[Any]]:
        index: dict[tuple[type, Any], int] = {}
        values: list[Any] = []
        codes = np.empty(len(rows), np.int64)
        for k, i in enumerate(rows.tolist()):
            v = self.values[i]
            key = (type(v), v if not (isinstance(v, float) and v != v) else "nan")
            code = index.get(key)
            if code is None:
                code = index[key] = len(values)
                values.append(v)
            codes[k] = code
        return codes, values

    def texts(self, ids: bool) -> tuple[Bytes, BoolArray]:
        n = len(self.values)
        ok = np.zeros(n, bool)
        out: list[bytes] = []
        for i, v in enumerate(self.values):
            if type(v) is not str or not v or len(v) > schema.MAX_CELL or v != v.strip(schema._SPACE) \
                    or v in schema.EXCEL_ERRORS or schema._CONTROL.search(v) \
                    or (ids and (not v.isascii() or "*" in v or "?" in v or "~" in v)):
                out.append(b"")
                continue
            out.append(v.encode("utf-8"))
            ok[i] = True
        return (np.array(out, dtype="S") if out else np.zeros(0, "S1")), ok


@dataclass
class Table:
    """One table of a source: its header and its columns, each row's number as the source shows it."""

    source: str
    """The file or sheet, as messages name it (``players.csv``, ``book.xlsx, sheet games``)."""
    header: list[Any]
    columns: list[Cells]
    numbers: IntArray
    """Each row's number (a spreadsheet's: the header is row 1)."""
    typed: bool = False

    @classmethod
    def from_rows(cls, source: str, header: Sequence[Any], rows: Iterable[Sequence[Any]], *, typed: bool,
                  first_row: int = 2) -> Table:
        """A table of rows of cells; rows of blank cells (a template's empty rows) are skipped."""
        kept: list[Sequence[Any]] = []
        numbers: list[int] = []
        for r, row in enumerate(rows, start=first_row):
            if all(c is None or (isinstance(c, str) and not c.strip(" \t\r\n\u00a0")) for c in row):
                continue
            kept.append(row)
            numbers.append(r)
        width = len(header)
        columns: list[Cells] = [ListCells([row[j] if j < len(row) else None for row in kept], typed)
                                for j in range(width)]
        return cls(source, list(header), columns, np.array(numbers, dtype=np.int64), typed)

    @classmethod
    def from_csv(cls, table: CsvColumns) -> Table:
        """A plain CSV file split by :func:`xl_elo.formats.fastcsv.read_columns`."""
        columns: list[Cells] = [TextCells(table, j) for j in range(len(table.header))]
        numbers = table.numbers if table.numbers is not None else np.arange(table.rows, dtype=np.int64) + 2
        return cls(table.source, list(table.header), columns, numbers, False)

    def __len__(self) -> int:
        return len(self.numbers)


# --------------------------------------------------------------------------- reading one table


#: At most this many problems of one table are kept (the first ones, row by row); past them, one line says so.
MAX_PROBLEMS = 200


@dataclass(frozen=True, slots=True)
class MoreProblems(Problem):
    """The line that stands for the problems of a table past :data:`MAX_PROBLEMS`, not kept."""

    more: int = 0
    """How many more problems were found (at least)."""


class _Problems:
    """The problems of one table, sorted as a row-by-row reader finds them: by row, then by column.

    Each column's problems come row by row, so keeping the first :data:`MAX_PROBLEMS` of each
    column keeps the first of the table: memory is bounded whatever the file holds."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.items: list[tuple[int, int, int, Problem]] = []
        self.per_column: dict[int, int] = {}
        self.dropped = 0

    def add(self, at: int, order: int, column: str | None, message: str) -> None:
        """A problem at the table's row ``at`` (its position), ``order`` its column's place in the row."""
        count = self.per_column.get(order, 0)
        self.per_column[order] = count + 1
        if count >= MAX_PROBLEMS:
            self.dropped += 1
            return
        row = int(self.table.numbers[at]) if 0 <= at < len(self.table.numbers) else None
        self.items.append((at, order, len(self.items), Problem(self.table.source, row, column, message)))

    def full(self, order: int) -> bool:
        """Whether a column has as many problems as are kept (more would not be shown)."""
        return self.per_column.get(order, 0) >= MAX_PROBLEMS

    def sorted(self) -> list[Problem]:
        ordered = [p for *_, p in sorted(self.items, key=lambda x: x[:3])]
        if len(ordered) <= MAX_PROBLEMS and not self.dropped:
            return ordered
        more = len(ordered) - MAX_PROBLEMS + self.dropped
        return ordered[:MAX_PROBLEMS] + [more_problems(self.table.source, more)]


def more_problems(source: str, more: int) -> MoreProblems:
    """The line standing for ``more`` problems of ``source`` not kept."""
    return MoreProblems(source, None, None, f"{more:,} more problems after the first {MAX_PROBLEMS} (not listed): is "
                                            "it the right file, with the right columns?", more)


#: At most this many headings that are not read are named in warnings, one each; the others in one line.
MAX_HEADINGS_NAMED = 10


@dataclass(frozen=True)
class Headings:
    """What one table's headings may be: the columns a system reads and the other words for them,
    all from the declarations (the system's ``Player`` facts and their aliases, the schema's common
    columns), never a list kept here."""

    table: str
    """``players``, ``games`` or ``history`` (as messages name the table)."""
    names: tuple[str, ...]
    """The columns read, in order."""
    required: tuple[str, ...]
    aliases: dict[str, str] = field(default_factory=dict)
    """Other headings read as a column (``elo`` for ``rating``, a fact's declared aliases)."""
    known: frozenset[str] = frozenset()
    """Headings the source is known to hold and that are not read, without a word (a template's problem
    column)."""
    results: frozenset[str] = frozenset()
    """The system's results columns: in a results table read back as a players table (it holds
    ``rating_after``, an alias), its aliases are read and its other columns (``status``, ``k`` ...) are
    not, without a word; in any other table they are headings like any other."""
    system: str = ""
    """The system, as messages name it (``FIDE``)."""


def players_headings(player: type[Player], system: str = "", known: Iterable[str] = (),
                     results: Iterable[str] = ()) -> Headings:
    """The players table of a system whose players are ``player`` (rules 8); ``results``: its results
    columns (a results table read back is a players table)."""
    names = (*schema.PLAYER_COMMON, *(f.name for f in facts(player)))
    return Headings("players", names, schema.PLAYER_REQUIRED, player_aliases(player), _keys(known), _keys(results),
                    system)


def _keys(headings: Iterable[str]) -> frozenset[str]:
    return frozenset(schema.column_key(h) for h in headings)


def games_headings(game: type[Game] = Game, periods: bool = False, system: str = "",
                   known: Iterable[str] = ()) -> Headings:
    """The games table (rules 8): the common columns with the system's own facts of a game (its ``Game``: FESA's
    handicap) before ``rated``, then a season's (rules 14): each game's ``period`` (or date) and ``event``."""
    own = facts(game)
    names = (*GAME_COLUMNS[:-1], *(f.name for f in own), GAME_COLUMNS[-1], *SEASON_COLUMNS)
    aliases = {**{a: f.name for f in own for a in f.aliases}, **GAME_PERIOD_HEADINGS}
    return Headings("games", names, GAME_REQUIRED, aliases, _keys(known), system=system)


#: The games table's columns of a season (rules 14): the period each game is rated in (or the day it was played)
#: and the event it belongs to.
SEASON_COLUMNS: Final = ("period", "event")
#: Other headings of a game's period and event (a ladder's games are dated; a club names its tournaments).
GAME_PERIOD_HEADINGS: Final = {"date": "period", "month": "period", "rating_period": "period", "tournament": "event",
                               "event_name": "event", "competition": "event"}


def history_headings(system: str = "", known: Iterable[str] = ()) -> Headings:
    """FESA's history table (rules 8)."""
    return Headings("history", HISTORY_COLUMNS, HISTORY_COLUMNS, {}, _keys(known), system=system)


def event_headings(player: type[Player], *, game: type[Game] = Game, periods: bool = False, system: str = "",
                   results: Iterable[str] = (), known: Iterable[str] = ()) -> dict[str, Headings]:
    """The headings of an event's three tables for a system (its ``Player``, its ``Game``, whether it rates
    periods, its code and its results columns); ``known``: headings every table of the source may
    hold that are not read (a template's problem column)."""
    known = tuple(known)
    return {"players": players_headings(player, system, known, results),
            "games": games_headings(game, periods, system, known),
            "history": history_headings(system, known)}


def system_headings(module: RatingSystem, known: Sequence[str] = ()) -> dict[str, Headings]:
    """What the headings of a system's tables may be, from its declarations: its players' facts and
    their aliases, its games' facts, whether it rates periods, its results columns (a results table read
    back is a players table); ``known``: other headings the source holds that are not read."""
    return event_headings(module.Player, game=module.Game,
                          periods=bool(module.PERIODS), system=module.CODE.upper(),
                          results=[c.name for c in module.COLUMNS], known=known)


def _normal(text: str) -> str:
    """A heading reduced to its letters and digits, accents and case dropped: ``Né en`` -> ``neen``,
    ``Birth-Year`` and ``birthyear`` -> ``birthyear``."""
    import unicodedata

    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if c.isalnum() and not unicodedata.combining(c)).casefold()


def _distance(a: str, b: str, most: int) -> int:
    """Edits (a letter added, dropped, changed, or two swapped) from ``a`` to ``b``; ``most + 1`` past ``most``."""
    if abs(len(a) - len(b)) > most:
        return most + 1
    before: list[int] | None = None
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        new = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            new[j] = min(row[j] + 1, new[j - 1] + 1, row[j - 1] + cost)
            if before is not None and i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                new[j] = min(new[j], before[j - 2] + 1)
        if min(new) > most:
            return most + 1
        before, row = row, new
    return row[-1]


def _tolerance(a: str, b: str) -> int:
    """The edits a heading may be from a column's name and still be that column misspelled: none for
    a short name (``id``), one up to seven letters, two beyond."""
    n = min(len(a), len(b))
    return 0 if n < 4 else 1 if n < 8 else 2


#: Longest heading compared letter by letter with the columns' names (a longer one is no misspelling).
_LONGEST_COMPARED = 40


class _Columns:
    """A table's header mapped to the columns a system reads, every heading accounted for.

    A heading is a column's name (case, spaces and hyphens aside: :func:`xl_elo.schema.column_key`),
    one of its aliases, a heading the source is known to hold (:attr:`Headings.known`), or else
    compared with the names and aliases by its letters and digits alone (``birthyear``,
    ``Ever2400``) and then letter by letter (``birth_yaer``): a near miss of one column is read as
    that column and said in a warning; of two, refused with both. Any other heading is a warning
    naming it and the nearest column. A column given twice, under any of its headings, is refused.
    """

    def __init__(self, table: Table, spec: Headings, problems: list[Problem], warnings: list[str] | None = None
                 ) -> None:
        self.table = table
        self.cols: dict[str, int] = {}
        self.labels: dict[str, str] = {}
        said = warnings if warnings is not None else []
        source = table.source
        pool: dict[str, list[str]] = {}
        for word, name in [*((n, n) for n in spec.names), *spec.aliases.items()]:
            names = pool.setdefault(_normal(word), [])
            if name not in names:
                names.append(name)
        keys = [schema.column_key(h) for h in table.header]
        read_back = any(k in spec.results and k in spec.aliases for k in keys)
        quiet = spec.known | (spec.results if read_back else frozenset())
        # a results table read back: a column's value after (DWZ's index_after, an alias) is the next
        # event's, and the same column before (``index``, a results column too) is not read
        after = {spec.aliases[k] for k in keys if k in spec.results and k in spec.aliases} if read_back else set()
        known = {_normal(k) for k in quiet}
        whose = f"{spec.system}'s {spec.table} table" if spec.system else f"the {spec.table} table"
        headed: dict[str, tuple[int, str, bool]] = {}
        unread: list[tuple[int, str]] = []
        for j, cell in enumerate(table.header):
            key = keys[j]
            try:
                heading = schema.text(cell) or ""
            except schema.ValueProblem:
                heading = key
            if not key:
                column = table.columns[j] if j < len(table.columns) else None
                if column is not None and not column.blank().all():
                    said.append(f"{source}: column {j + 1} has no heading and is not read (head it with the "
                                f"column it holds: {', '.join(spec.names)})")
                continue
            shown = schema.shown(heading, 60)
            exact = True
            if key in after and key in spec.results:
                continue
            if key in spec.names:
                name = key
            elif key in spec.aliases:
                name = spec.aliases[key]
                exact = key in quiet  # a results table read back: its rating_after is the rating
            elif key in quiet:
                continue
            else:
                norm = _normal(key)
                found = pool.get(norm)
                if found is None and norm and norm not in known and len(norm) <= _LONGEST_COMPARED:
                    near = sorted((d, word) for word in pool
                                  if (d := _distance(norm, word, _tolerance(norm, word))) <= _tolerance(norm, word))
                    if near:
                        found = list(dict.fromkeys(n for d, word in near if d == near[0][0] for n in pool[word]))
                if found is None:
                    if norm not in known:
                        unread.append((j, shown))
                    continue
                if len(found) > 1:
                    choices = " or ".join(f"'{n}'" for n in found)
                    problems.append(Problem(source, 1, None, f"the heading {shown} (column {j + 1}) could be "
                                                             f"{choices}: head it with the column it holds"))
                    continue
                name = found[0]
                exact = False
            if name in headed:
                first, first_heading, first_exact = headed[name]
                if first_exact and exact and schema.column_key(first_heading) == key:
                    where = f"columns {first + 1} and {j + 1}"
                else:
                    where = (f"column {first + 1}, headed {schema.shown(first_heading, 60)}, and column {j + 1}, "
                             f"headed {shown}")
                problems.append(Problem(source, 1, None, f"the column '{name}' is given twice ({where}): keep one"))
                continue
            headed[name] = (j, heading, exact)
            self.cols[name] = j
            if not exact:
                self.labels[name] = heading
                said.append(f"{source}: the heading {shown} (column {j + 1}) is read as the column '{name}'")
        for j, shown in unread[:MAX_HEADINGS_NAMED]:
            said.append(f"{source}: the heading {shown} (column {j + 1}) is not a column of {whose} and is not "
                        f"read (the nearest is '{self._nearest(schema.column_key(table.header[j]), spec)}')")
        if len(unread) > MAX_HEADINGS_NAMED:
            said.append(f"{source}: {len(unread) - MAX_HEADINGS_NAMED:,} more headings are not columns of {whose} "
                        "and are not read")
        for name in spec.required:
            if name not in self.cols:
                listed = ", ".join(dict.fromkeys(k for k in keys if k)) or "none"
                problems.append(Problem(source, 1, None, f"missing required column '{name}' (columns found: {listed})"))

    @staticmethod
    def _nearest(key: str, spec: Headings) -> str:
        """The column whose name (or alias) is fewest edits from ``key``."""
        norm = _normal(key)[:_LONGEST_COMPARED]
        words = [(n, n) for n in spec.names] + [(a, n) for a, n in spec.aliases.items()]
        best = min(words, key=lambda w: _distance(norm, _normal(w[0]), _LONGEST_COMPARED))
        return best[1]

    def get(self, name: str) -> Cells | None:
        j = self.cols.get(name)
        return self.table.columns[j] if j is not None and j < len(self.table.columns) else None

    def label(self, name: str) -> str:
        """How messages name a column: its heading when it is not the column's own name."""
        return self.labels.get(name, name)


def columns_read(header: Sequence[Any], spec: Headings) -> set[int]:
    """The positions of the headings of ``header`` that are read (a workbook's other cells are not looked at)."""
    table = Table("", list(header), [ListCells([], True) for _ in header], np.zeros(0, np.int64), True)
    return set(_Columns(table, spec, []).cols.values())


def _read(cells: Cells | None, reading: schema.Reading | Callable[..., Any], rows: IntArray, problems: _Problems,
          order: int, column: str, *, year: int | None = None, key: BoolArray | None = None,
          kind: str | None = None, coded: list[Any] | None = None) -> tuple[npt.NDArray[Any], BoolArray]:
    """The values of a column's cells at ``rows`` and where they are good.

    Numbers (``kind`` ``int`` or ``float``) come as floats, NaN for blank; other values as
    objects, None for blank. Plain whole numbers are taken as they are (the reading's
    ``whole``); every other distinct cell (with its ``key``, when the reading depends on another
    column) goes once through ``reading``, and a refusal is a problem on each row holding it.
    With ``coded`` (a list), values are codes into it (-1 blank or bad), the distinct values
    appended to it."""
    n = len(rows)
    kind = kind or getattr(reading, "kind", "text")
    numeric = kind in ("int", "float")
    values: npt.NDArray[Any]
    if coded is not None:
        values = np.full(n, -1, np.int64)
    else:
        values = np.full(n, np.nan) if numeric else np.full(n, None, dtype=object)
    ok = np.ones(n, bool)
    if cells is None or n == 0:
        return values, ok
    typed = cells.typed
    full = n == len(cells)  # every row (rows is then 0 .. n - 1): no copy to take
    rest = ~cells.blank() if full else ~cells.blank()[rows]
    bounds = reading.bounds(year) if isinstance(reading, schema.Reading) else None
    if bounds is not None and rest.any():
        taken_values, taken = cells.whole(*bounds)
        if full:
            taken &= rest
            values[taken] = taken_values[taken]
        else:
            taken = taken[rows] & rest
            values[taken] = taken_values[rows[taken]]
        rest &= ~taken
    if not rest.any():
        return values, ok
    todo = np.flatnonzero(rest)
    codes, distinct = cells.distinct(rows if full and len(todo) == n else rows[todo])
    if key is not None:  # the reading depends on another column's cell: one parse per (cell, key)
        keyed = codes * 2 + key[todo].astype(np.int64)
        used = np.flatnonzero(np.bincount(keyed, minlength=2 * len(distinct)))
        remap = np.full(2 * len(distinct), -1, np.int64)
        remap[used] = np.arange(len(used))
        codes = remap[keyed]
        parsed = [_parse(reading, distinct[int(u) // 2], typed, year, bool(int(u) % 2)) for u in used.tolist()]
    else:
        parsed = [_parse(reading, v, typed, year) for v in distinct]
    good = np.array([g for g, _ in parsed], bool)
    if coded is not None:
        where: dict[Any, int] = {v: i for i, v in enumerate(coded)}
        table_c = np.full(len(parsed), -1, np.int64)
        for c, (g, v) in enumerate(parsed):
            if g and v is not None:
                if v not in where:
                    where[v] = len(coded)
                    coded.append(v)
                table_c[c] = where[v]
        values[todo] = table_c[codes]
    elif numeric:
        table = np.array([np.nan if not g or v is None else float(v) for g, v in parsed], dtype=np.float64)
        values[todo] = table[codes]
    else:
        table = np.empty(len(parsed), dtype=object)
        table[:] = [v if g else None for g, v in parsed]
        values[todo] = table[codes]
    bad = ~good[codes]
    if bad.any():
        for k in np.flatnonzero(bad).tolist():
            ok[todo[k]] = False
            problems.add(int(rows[todo[k]]), order, column, parsed[int(codes[k])][1])
    return values, ok


_NO_KEY = object()


def _parse(reading: Callable[..., Any], value: Any, typed: bool, year: int | None, extra: Any = _NO_KEY
           ) -> tuple[bool, Any]:
    try:
        if extra is not _NO_KEY:
            return True, reading(value, extra, typed=typed, year=year)
        return True, reading(value, typed=typed, year=year)
    except ValueProblem as exc:
        return False, str(exc)


def _texts(cells: Cells | None, rows: IntArray, problems: _Problems, order: int, column: str,
           blank_words: str | None, *, ids: bool = True, known: IdIndex | None = None
           ) -> tuple[Bytes, BoolArray, BoolArray, IntArray | None]:
    """A column of ids (rules 8), or of names (``ids=False``), at ``rows``: each as UTF-8 bytes,
    where it is good, where it is blank, and (with ``known``, the players' ids) each one's
    position among the players (-1: none such).

    Plain cells are taken as they are; any other goes through :func:`xl_elo.schema.identifier`
    (:func:`xl_elo.schema.text` for names): spaces around it dropped, an id's accented letters in
    composed form. With ``known``, a cell that is a player's id is taken as it is (that id was
    read already), and only the others are read by the parser. A blank cell is a problem when
    ``blank_words`` says so."""
    n = len(rows)
    ok = np.ones(n, bool)
    if cells is None or n == 0:
        return np.zeros(n, "S1"), ok, np.ones(n, bool), None if known is None else np.full(n, -1, np.int64)
    raw, clean = cells.texts(ids=ids and known is None)
    if n != len(cells):
        raw, clean = raw[rows], clean[rows]
    position = None
    if known is not None:
        position = known.find(raw)
        clean &= position >= 0
    blank = np.zeros(n, bool)
    if clean.all():
        return raw, ok, blank, position
    parse = schema.identifier if ids else schema.text
    fixed: dict[int, bytes] = {}
    cell_blank = cells.blank() if n == len(cells) else cells.blank()[rows]
    for k in np.flatnonzero(~clean).tolist():
        value = None
        if not cell_blank[k]:
            try:
                value = parse(cells.raw(int(rows[k])))
            except ValueProblem as exc:
                ok[k] = False
                problems.add(int(rows[k]), order, column, str(exc))
                continue
        if value is None:
            blank[k] = True
            if blank_words is not None:
                problems.add(int(rows[k]), order, column, blank_words)
        else:
            fixed[k] = value.encode("utf-8")
    if fixed:
        width = max(raw.dtype.itemsize, *(len(v) for v in fixed.values()))
        raw = raw.astype(f"S{width}")
        for k, v in fixed.items():
            raw[k] = v
        if known is not None and position is not None:
            picked = np.fromiter(fixed, np.int64, len(fixed))
            position[picked] = known.find(raw[picked])
    raw[blank | ~ok] = b""
    if position is not None:
        position[blank | ~ok] = -1
    return raw, ok, blank, position


def _texts_of(column: Bytes) -> list[str]:
    return [v.decode("utf-8") for v in column.tolist()]


# --------------------------------------------------------------------------- the three tables


@dataclass
class PlayerColumns:
    """The players table as read: one entry per row with a good id, in the table's order."""

    source: str
    ids: Bytes
    """UTF-8 bytes."""
    names: Bytes
    rating: FloatArray
    """NaN: unrated."""
    facts: dict[str, npt.NDArray[Any]]
    """A fact's values by :attr:`xl_elo.model.Fact.array`: floats (NaN blank), bools, or objects."""
    rows: IntArray
    """Row numbers (0: none)."""

    def __len__(self) -> int:
        return len(self.ids)


@dataclass
class GameColumns:
    """The games table as read: one entry per game with a good player and opponent cell."""

    source: str
    player: Bytes
    opponent: Bytes
    """b'' for a bye."""
    has_opponent: BoolArray
    result: IntArray
    """Codes into :attr:`results`."""
    results: list[Result]
    round: FloatArray
    """NaN: no round number."""
    rated: BoolArray
    rows: IntArray
    facts: dict[str, npt.NDArray[Any]] = field(default_factory=dict)
    """The system's own facts of each game (its ``Game``'s: FESA's handicap), as :attr:`Fact.array` holds them."""
    who: IntArray | None = None
    """The player's position among the players (-1: none such), when read with the players' ids ..."""
    against: IntArray | None = None
    """... and the opponent's (-2: a bye)."""
    period: npt.NDArray[Any] | None = None
    """Each game's rating period (objects: ``YYYY-MM`` or a date), where the table gives them (rules 14)."""
    event: npt.NDArray[Any] | None = None
    """Each game's event (objects: its name), where the table gives them (rules 14)."""

    def __len__(self) -> int:
        return len(self.player)

    def counts(self) -> BoolArray:
        """Games that are rated (rules 1.1): played, flagged rated, with an opponent."""
        rated_result = np.array([r.rated for r in self.results], bool) if self.results else np.zeros(0, bool)
        return self.rated & self.has_opponent & (rated_result[self.result] if len(self.result) else
                                                 np.zeros(0, bool))

    def scores(self) -> FloatArray:
        table = np.array([np.nan if r.score is None else r.score for r in self.results], dtype=np.float64)
        return table[self.result] if len(self.result) else np.zeros(0)


@dataclass
class HistoryColumns:
    """FESA's history table as read."""

    source: str
    id: Bytes
    opponent_rating: FloatArray
    result: FloatArray
    rows: IntArray

    def __len__(self) -> int:
        return len(self.id)


def player_aliases(player: type[Player]) -> dict[str, str]:
    """Other headings of a system's players columns: the common ones (a results table read back,
    the words clubs head their ratings with) and its facts' own."""
    aliases = {**schema.PLAYER_ALIASES, **{schema.column_key(k): v for k, v in player.HEADINGS.items()}}
    for f in facts(player):
        for a in f.aliases:
            aliases[a] = f.name
    return aliases


def _fill(f: Fact, values: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """A fact's column with its default in the blanks, as its array form holds it."""
    if f.array == "number":
        out = np.asarray(values, dtype=np.float64) if values.dtype != object else np.array(
            [np.nan if v is None else float(v) for v in values.tolist()], dtype=np.float64)
        if f.default is not None:
            out = np.where(np.isnan(out), float(f.default), out)
        return out
    if f.array == "flag":
        out_b = np.full(len(values), bool(f.default))
        said = np.flatnonzero(values != None)  # noqa: E711 (an object array: element-wise)
        out_b[said] = values[said].astype(bool)
        return out_b
    out_o = np.empty(len(values), dtype=object)
    out_o[:] = [f.default if v is None else v for v in values.tolist()]
    return out_o


def read_players(table: Table, player: type[Player], year: int | None, headings: Headings | None = None,
                 warnings: list[str] | None = None) -> tuple[PlayerColumns, list[Problem]]:
    """The players table of a system whose players are ``player`` (rules 8): every problem, in order;
    what is worth knowing of its headings appended to ``warnings``."""
    header_problems: list[Problem] = []
    declared = facts(player)
    cols = _Columns(table, headings or players_headings(player), header_problems, warnings)
    if header_problems:
        return _no_players(table.source, declared), header_problems
    problems = _Problems(table)
    everyone = np.arange(len(table), dtype=np.int64)
    ids, good, blank, _ = _texts(cols.get("id"), everyone, problems, 0, cols.label("id"),
                                 "the id is blank (every player needs a unique id)")
    keep = good & ~blank
    rows = everyone[keep]
    names, _, _, _ = _texts(cols.get("name"), rows, problems, 1, cols.label("name"), None, ids=False)
    rating, rating_ok = _read(cols.get("rating"), player.RATING, rows, problems, 2, cols.label("rating"), year=year)
    rating[rating == 0] = np.nan  # 0 is unrated (rules 1.4)
    values: dict[str, npt.NDArray[Any]] = {}
    for order, f in enumerate(declared, start=3):
        got, fine = _read(cols.get(f.name), f.reading, rows, problems, order, cols.label(f.name), year=year)
        fine = fine & rating_ok  # a rating refused says nothing of whether the player is rated: one problem
        if f.rated_needs is not None:
            missing = fine & ~np.isnan(rating) & (np.isnan(got) if got.dtype != object else
                                                  np.array([v is None for v in got.tolist()], bool))
            for k in np.flatnonzero(missing).tolist():
                problems.add(int(rows[k]), order, cols.label(f.name), f.rated_needs)
        if f.unrated_refuses is not None:
            given = fine & np.isnan(rating) & (~np.isnan(got) if got.dtype != object else
                                               np.array([v is not None for v in got.tolist()], bool))
            for k in np.flatnonzero(given).tolist():
                problems.add(int(rows[k]), order, cols.label(f.name), f.unrated_refuses)
        values[f.name] = _fill(f, got)
    return PlayerColumns(table.source, ids[keep], names, rating, values, table.numbers[rows]), problems.sorted()


def _no_players(source: str, declared: Sequence[Fact]) -> PlayerColumns:
    return PlayerColumns(source, np.zeros(0, "S1"), np.zeros(0, "S1"), np.zeros(0),
                         {f.name: _fill(f, np.zeros(0, dtype=object)) for f in declared}, np.zeros(0, np.int64))


def _no_games(source: str, game: type[Game] = Game) -> GameColumns:
    return GameColumns(source, np.zeros(0, "S1"), np.zeros(0, "S1"), np.zeros(0, bool), np.zeros(0, np.int64), [],
                       np.zeros(0), np.zeros(0, bool), np.zeros(0, np.int64),
                       {f.name: _fill(f, np.zeros(0, dtype=object)) for f in facts(game)})


def read_games(table: Table, game: type[Game] = Game, known: IdIndex | None = None, *, periods: bool = False,
               headings: Headings | None = None, warnings: list[str] | None = None
               ) -> tuple[GameColumns, list[Problem]]:
    """The games table (rules 8) of a system whose games are ``game`` (its own facts of a game read as its
    players' are): every problem, in order; ``known``: the players' ids, whose positions the games then carry;
    ``periods``: the system rates several periods in order, each game's in a column ``period``."""
    header_problems: list[Problem] = []
    own = facts(game)
    cols = _Columns(table, headings or games_headings(game, periods), header_problems, warnings)
    if header_problems:
        return _no_games(table.source, game), header_problems
    problems = _Problems(table)
    rows = np.arange(len(table), dtype=np.int64)
    player, ok_p, blank_p, who = _texts(cols.get("player"), rows, problems, 0, cols.label("player"),
                                        "the player id is blank", known=known)
    opponent, ok_o, blank_o, against = _texts(cols.get("opponent"), rows, problems, 1, cols.label("opponent"), None,
                                              known=known)
    has_opponent = ~blank_o  # a bad opponent cell counts as one, as the row is read
    # a blank result reads as the parser reads a blank cell: not played, or a bye
    results: list[Result] = [schema.result(None), schema.result(None, has_opponent=False)]
    result, ok_r = _read(cols.get("result"), lambda v, has, *, typed=False, year=None: schema.result(
        v, has_opponent=has), rows, problems, 2, cols.label("result"), key=has_opponent, kind="result", coded=results)
    result = np.where(result >= 0, result, np.where(blank_o, 1, 0))
    result[~ok_r] = 0  # a result refused: the game is kept as not played, for the cross-table checks
    rnd, ok_n = _read(cols.get("round"), schema.ROUND, rows, problems, 3, cols.label("round"))
    own_values: dict[str, npt.NDArray[Any]] = {}
    ok_f = np.ones(len(rows), bool)
    for order, f in enumerate(own, start=4):
        got, fine = _read(cols.get(f.name), f.reading, rows, problems, order, cols.label(f.name))
        own_values[f.name] = got
        ok_f &= fine
    flag = np.ones(len(rows), bool)  # rated unless the cell says no (rules 8)
    ok_y = np.ones(len(rows), bool)
    after = 4 + len(own)
    if cols.get("rated") is not None:
        rated, ok_y = _read(cols.get("rated"), schema.YES_NO, rows, problems, after, cols.label("rated"))
        said = np.flatnonzero(rated != None)  # noqa: E711 (an object array: element-wise)
        flag[said] = rated[said].astype(bool)
    period = event = None
    if periods or cols.get("period") is not None:
        period, ok_d = _read(cols.get("period"), lambda v, *, typed=False, year=None: schema.period(
            v, required=False, what="the game's period", days=True), rows, problems, after + 1, cols.label("period"),
            kind="text")
        ok_y = ok_y & ok_d
        named = np.array([v is not None for v in period.tolist()], bool)
        if named.any():  # every game has its period, or none has: a blank one is not guessed
            for k in np.flatnonzero(~named & ok_d & ~blank_p).tolist():
                problems.add(int(rows[k]), after + 1, "period", "the game's period is blank while other games have one "
                                                                "(give every game its period, or none)")
        elif not periods:
            period = None
    if cols.get("event") is not None:
        event, _, blank_e, _ = _texts(cols.get("event"), rows, problems, after + 2, cols.label("event"), None,
                                      ids=False)
        event = np.array([None if b else v.decode("utf-8") if isinstance(v, bytes) else v
                          for v, b in zip(event.tolist(), blank_e.tolist(), strict=True)], dtype=object)
        if (~blank_e).any():  # every game has its event, or none has
            for k in np.flatnonzero(blank_e & ~blank_p).tolist():
                problems.add(int(rows[k]), after + 2, "event", "the game's event is blank while other games have one "
                                                               "(give every game its event, or none)")
        else:
            event = None
    keep = ok_p & ~blank_p & ok_o
    bad = ~(ok_r & ok_n & ok_f & ok_y)  # a row with a problem keeps no fact of its own: the defaults stand
    own_columns = []
    for f in own:
        got = own_values[f.name]
        if bad.any():
            got = got.copy()
            got[bad] = np.nan if got.dtype != object else None
        own_columns.append(_fill(f, got))
    columns = [player, opponent, has_opponent, result, rnd, flag, table.numbers, *own_columns]
    if who is not None and against is not None:
        columns += [who, np.where(has_opponent, against, -2)]
    if period is not None:
        columns.append(period)
    if event is not None:
        columns.append(event)
    if not keep.all():
        columns = [c[keep] for c in columns]
    n_own = len(own)
    out = GameColumns(table.source, columns[0], columns[1], columns[2], columns[3], results, columns[4], columns[5],
                      columns[6], {f.name: columns[7 + j] for j, f in enumerate(own)})
    if who is not None:
        out.who, out.against = columns[7 + n_own], columns[8 + n_own]
    if event is not None:
        out.event = columns.pop()
    if period is not None:
        out.period = columns[-1]
    return out, problems.sorted()


def read_history(table: Table, headings: Headings | None = None, warnings: list[str] | None = None
                 ) -> tuple[HistoryColumns, list[Problem]]:
    """FESA's history table (rules 8): every problem, in order."""
    header_problems: list[Problem] = []
    cols = _Columns(table, headings or history_headings(), header_problems, warnings)
    empty = HistoryColumns(table.source, np.zeros(0, "S1"), np.zeros(0), np.zeros(0), np.zeros(0, np.int64))
    if header_problems:
        return empty, header_problems
    problems = _Problems(table)
    rows = np.arange(len(table), dtype=np.int64)
    ids, ok_i, blank_i, _ = _texts(cols.get("id"), rows, problems, 0, cols.label("id"), "the player id is blank")
    opp, ok_o = _read(cols.get("opponent_rating"), schema.COUNTED_RATING, rows, problems, 1,
                      cols.label("opponent_rating"))
    for k in np.flatnonzero(ok_o & np.isnan(opp)).tolist():
        problems.add(k, 1, cols.label("opponent_rating"), "the opponent's rating is blank")
    res, ok_s = _read(cols.get("result"), lambda v, *, typed=False, year=None: schema.played_result(v), rows,
                      problems, 2, cols.label("result"), kind="float")
    keep = ok_i & ~blank_i & ~np.isnan(opp) & ok_s
    return HistoryColumns(table.source, ids[keep], opp[keep], res[keep], table.numbers[rows[keep]]), problems.sorted()


# --------------------------------------------------------------------------- the cross-table checks


def _fold(ids: Bytes) -> Bytes:
    """Ids with case folded (ASCII with numpy; the others one by one, as :meth:`str.casefold`)."""
    folded = _strings.lower(ids) if len(ids) else ids
    wide = (ids.view(np.uint8).reshape(len(ids), -1) >= 0x80).any(axis=1) if len(ids) and ids.dtype.itemsize else \
        np.zeros(len(ids), bool)
    if wide.any():
        out = [v.decode("utf-8").casefold().encode("utf-8") for v in ids[wide].tolist()]
        width = max(folded.dtype.itemsize, *(len(v) for v in out))
        folded = folded.astype(f"S{width}")
        folded[wide] = out
    return folded


@dataclass
class Sources:
    """How messages name each table."""

    players: str = "players"
    games: str = "games"
    history: str = "history"


def check(players: PlayerColumns, games: GameColumns, history: HistoryColumns, sources: Sources,
          extra: Sequence[tuple[int, Problem]] = (), known: IdIndex | None = None
          ) -> tuple[list[Problem], IntArray, IntArray]:
    """Cross-table checks of rules 8, on the columns read: the problems in the order a reader going
    row by row finds them, and each game's player and opponent positions (-1 unknown, -2 none).

    Duplicate player ids, two ids differing only by case, games naming an unknown player or
    opponent, a player paired with himself, the same pair twice in one round (a blank round is
    one round), more than :data:`xl_elo.model.MAX_GAMES_PER_PLAYER` rated games for a player,
    history rows of an unknown player. Ids are compared exactly, case included. ``extra``: more
    problems of players rows (by position), as an event built in Python has them."""
    ids = players.ids
    n = len(ids)
    index = (known if known is not None else IdIndex(ids)) if n else None
    at: list[tuple[int, int, int, Problem]] = [(i, 1, k, q) for k, (i, q) in enumerate(extra)]
    dropped = np.zeros(n, bool)
    prow = players.rows

    def shown(i: int) -> str:
        return bytes(ids[i]).decode("utf-8")

    def row_of(rows: IntArray, i: int) -> int | None:
        r = int(rows[i])
        return r if r > 0 else None

    def where(rows: IntArray, i: int, words: str) -> str:
        r = row_of(rows, i)
        return f" ({words} {r})" if r is not None else ""

    found_players = 0  # problems found, of which the first MAX_PROBLEMS of each kind are made into messages
    if index is not None and index.duplicated:
        later, firsts = _repeats(ids)
        dropped[later] = True
        found_players += len(later)
        for i, first in zip(later[:MAX_PROBLEMS].tolist(), firsts[:MAX_PROBLEMS].tolist(), strict=True):
            at.append((i, 0, 0, Problem(players.source, row_of(prow, i), "id",
                                        f"duplicate id {shown(i)!r}{where(prow, first, 'first at row')}; "
                                        "ids must be unique")))
    folded = _fold(ids) if n else ids
    first_fold: dict[bytes, int] = {}
    changed = folded != ids if n else np.zeros(0, bool)
    if changed.any():
        live = np.flatnonzero(~dropped)
        later, firsts = _repeats(folded[live])
        later, firsts = live[later], live[firsts]
        differ = ids[later] != ids[firsts]
        later, firsts = later[differ], firsts[differ]
        found_players += len(later)
        for i, first in zip(later[:MAX_PROBLEMS].tolist(), firsts[:MAX_PROBLEMS].tolist(), strict=True):
            at.append((i, 2, 0, Problem(players.source, row_of(prow, i), "id",
                                        f"the ids {shown(i)!r} and {shown(first)!r}"
                                        f"{where(prow, first, 'row')} differ only by case; make them differ")))
    problems = _capped([q for *_, q in sorted(at, key=lambda x: x[:3])], found_players + len(extra),
                       players.source)

    def hint(pid: bytes) -> str:
        if not first_fold and n:
            for i in np.flatnonzero(~dropped)[::-1].tolist():
                first_fold[bytes(folded[i])] = i
        near = first_fold.get(bytes(_fold(np.array([pid]))[0]))
        return f"; did you mean {shown(near)!r}? ids must match exactly, case included" if near is not None else ""

    def unknown(pid: bytes, source: str) -> str:
        return f"unknown player id {pid.decode('utf-8')!r} (not in {source}){hint(pid)}"

    m = len(games)
    if games.who is not None and games.against is not None and known is not None:
        who, against = games.who, games.against  # found as the games were read
    else:
        who = index.find(games.player) if index is not None and m else np.full(m, -1, np.int64)
        against = np.where(games.has_opponent, index.find(games.opponent) if index is not None and m else -1, -2)
    grow = games.rows
    gat: list[tuple[int, int, Problem]] = []
    found_games = 0

    def kept(where_: BoolArray) -> list[int]:
        """The first positions of a kind of problem, as many as are kept; all of them counted."""
        nonlocal found_games
        at_ = np.flatnonzero(where_)
        found_games += len(at_)
        return at_[:MAX_PROBLEMS].tolist()  # type: ignore[no-any-return]

    for i in kept(who == -1):
        gat.append((i, 0, Problem(games.source, row_of(grow, i), "player", unknown(bytes(games.player[i]),
                                                                                   sources.players))))
    for i in kept(against == -1):
        gat.append((i, 1, Problem(games.source, row_of(grow, i), "opponent", unknown(bytes(games.opponent[i]),
                                                                                     sources.players))))
    itself = games.has_opponent & (games.player == games.opponent)
    for i in kept(itself):
        gat.append((i, 2, Problem(games.source, row_of(grow, i), "opponent",
                                  f"player {games.player[i].decode('utf-8')!r} is paired with himself")))
    # every id, known or not, as one key (unknown ids after the known ones), for pairs and counts
    key_who, key_against = who.copy(), against.copy()
    unknown_ids = np.concatenate([games.player[who == -1], games.opponent[against == -1]])
    if len(unknown_ids):
        values, inverse = np.unique(unknown_ids, return_inverse=True)
        inverse = inverse.ravel()
        a = int((who == -1).sum())
        key_who[who == -1] = n + inverse[:a]
        key_against[against == -1] = n + inverse[a:]
        width = n + len(values)
    else:
        width = n
    paired = games.has_opponent & ~itself
    counting = games.counts() & ~itself
    rnd = np.nan_to_num(games.round, nan=0.0).astype(np.int64)
    in_period = np.zeros(m, np.int64)
    if (games.period is not None or games.event is not None) and m:  # a round is a round of its period and event
        periods = games.period.tolist() if games.period is not None else [""] * m
        events = games.event.tolist() if games.event is not None else [""] * m
        _, in_period = np.unique(np.array([f"{p or ''}\x00{e or ''}" for p, e in zip(periods, events, strict=True)],
                                          dtype=object).astype(str), return_inverse=True)
        in_period = in_period.ravel().astype(np.int64)
        rnd = rnd + in_period * (schema.MAX_ROUND + 1)
    scores = games.scores()
    if paired.any():
        every = paired.all()
        pairs = np.arange(m) if every else np.flatnonzero(paired)
        lo = np.minimum(key_who, key_against)
        hi = np.maximum(key_who, key_against)
        r = rnd
        if not every:
            lo, hi, r = lo[paired], hi[paired], rnd[paired]
        keys = (r * (width + 1) + lo) * (width + 1) + hi if (rnd.max(initial=0) + 1) * (width + 1) ** 2 \
            < 2**62 else np.array([hash((int(a), int(x), int(y))) for a, x, y in zip(r, lo, hi, strict=True)])
        later, earlier = _repeats(keys)
        found_games += len(later)
        for i, first in zip(pairs[later[:MAX_PROBLEMS]].tolist(), pairs[earlier[:MAX_PROBLEMS]].tolist(),
                            strict=True):
            p, o = games.player[i].decode("utf-8"), games.opponent[i].decode("utf-8")
            also = where(grow, first, "also at row")
            when = f"round {int(games.round[i])}" if not np.isnan(games.round[i]) else \
                "the same round (no round number: give one)"
            if games.period is not None and games.period[i]:
                when += f" of the period {games.period[i]}"
            a_, b_ = scores[first], scores[i]
            if games.player[first] == games.opponent[i] and not np.isnan(a_) and not np.isnan(b_) \
                    and a_ + b_ != 1.0:
                gat.append((i, 3, Problem(games.source, row_of(grow, i), "result",
                                          f"the game {p!r} - {o!r} of {when} is entered from both sides{also} "
                                          f"and its results do not add up to one ({b_:g} and {a_:g}); enter "
                                          "each game once")))
            else:
                gat.append((i, 3, Problem(games.source, row_of(grow, i), None,
                                          f"{p!r} and {o!r} meet twice in {when}{also}; enter each game once")))
    problems += _capped([q for *_, q in sorted(gat, key=lambda x: (x[0], x[1]))], found_games, games.source)
    if counting.any():  # each player's rated games, in each period of a ladder (the limit is a period's)
        period_of = in_period if (games.period is not None or games.event is not None) and m else None
        c = np.flatnonzero(counting)
        side = np.concatenate([2 * c, 2 * c + 1])  # each side of each counting game, in the games' order
        key = np.concatenate([key_who[c], key_against[c]]).astype(np.int64)
        if period_of is not None:
            key = key + np.concatenate([period_of[c], period_of[c]]).astype(np.int64) * width
        if period_of is None and width:
            per = np.bincount(key, minlength=width)
            keys = np.arange(width)
        else:
            keys, per = np.unique(key, return_counts=True)
        over = keys[per > MAX_GAMES_PER_PLAYER]
        many = dict(zip(keys.tolist(), per.tolist(), strict=True)) if len(over) else {}
        if len(over):
            mine = np.isin(key, over)
            side, key = side[mine], key[mine]
            order = np.argsort(side, kind="stable")
            named, at_first = np.unique(key[order], return_index=True)
            first_seen = dict(zip(named.tolist(), side[order][at_first].tolist(), strict=True))
            heavy = []
            for k in sorted(over.tolist(), key=lambda x: first_seen[x])[:MAX_PROBLEMS]:
                i = first_seen[k] // 2
                pid = (games.player if first_seen[k] % 2 == 0 else games.opponent)[i].decode("utf-8")
                period = None if period_of is None or games.period is None else games.period[i]
                event = None if period_of is None or games.event is None else games.event[i]
                in_its = "".join([f" in the period {period}" if period else "",
                                  f"{' of' if period else ' in'} the event {event}" if event else ""])
                heavy.append(Problem(games.source, None, None,
                                     f"{pid!r} has {many[k]} rated games{in_its} (at most {MAX_GAMES_PER_PLAYER} in "
                                     "one event or period): is a column pasted twice?"))
            problems += _capped(heavy, len(over), games.source)
    if len(history):
        found = index.find(history.id) if index is not None else np.full(len(history), -1, np.int64)
        missing = np.flatnonzero(found == -1)
        problems += _capped([Problem(history.source, row_of(history.rows, i), "id",
                                     unknown(bytes(history.id[i]), sources.players))
                             for i in missing[:MAX_PROBLEMS].tolist()], len(missing), history.source)
    return problems, who, against


def _capped(problems: list[Problem], found: int, source: str) -> list[Problem]:
    """The first :data:`MAX_PROBLEMS` of ``found`` problems, and a line for the others."""
    if found <= MAX_PROBLEMS and len(problems) <= MAX_PROBLEMS:
        return problems
    return problems[:MAX_PROBLEMS] + [more_problems(source, max(found, len(problems)) - MAX_PROBLEMS)]


def _repeats(keys: npt.NDArray[Any]) -> tuple[IntArray, IntArray]:
    """Every position whose key an earlier position holds, in order, and that key's first position."""
    if len(keys) < 2:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    new = np.concatenate([[True], ordered[1:] != ordered[:-1]])
    if new.all():
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    start = np.maximum.accumulate(np.where(new, np.arange(len(keys)), 0))
    later, first = order[~new], order[start[~new]]
    by_row = np.argsort(later, kind="stable")
    return later[by_row].astype(np.int64), first[by_row].astype(np.int64)


# --------------------------------------------------------------------------- the event, read


@dataclass
class Tables:
    """An event as its tables were read and checked: the records or the arrays, built on demand."""

    player: type[Player]
    """The system's players (its ``Player``)."""
    game: type[Game]
    """The system's games (its ``Game``)."""
    players: PlayerColumns
    games: GameColumns
    history: HistoryColumns
    period: str | None = None
    name: str = ""
    who: IntArray = field(default_factory=lambda: np.zeros(0, np.int64))
    """Each game's player position ..."""
    against: IntArray = field(default_factory=lambda: np.zeros(0, np.int64))
    """... and its opponent's (-2: none)."""
    warnings: list[str] = field(default_factory=list)
    """What the user should know about how the tables were read (a heading read as a column, one not read)."""
    sources: Sources = field(default_factory=lambda: Sources())
    """How messages name each table: the file or sheet it was read from."""

    def named(self, exc: InputError) -> InputError:
        """An engine's refusal (its problems name the tables, ``players``) naming the files or sheets instead."""
        names = {"players": self.sources.players, "games": self.sources.games, "history": self.sources.history}
        if not any(q.source in names and names[q.source] != q.source for q in exc.problems):
            return exc
        return InputError([replace(q, source=names.get(q.source, q.source)) for q in exc.problems], exc.partial,
                          exc.warnings)

    def event(self) -> Event:
        """The records of rules 8 (:class:`xl_elo.model.Event`)."""
        pc = self.players
        declared = facts(self.player)
        ids, names = _texts_of(pc.ids), _texts_of(pc.names)
        columns = {f.name: _record_values(f, pc.facts[f.name]) for f in declared}
        players = tuple(
            self.player(ids[i], names[i], None if np.isnan(pc.rating[i]) else float(pc.rating[i]),
                        row=int(pc.rows[i]) or None, **{name: column[i] for name, column in columns.items()})
            for i in range(len(ids)))
        g = self.games
        gp, go = _texts_of(g.player), _texts_of(g.opponent)
        periods = g.period.tolist() if g.period is not None else [None] * len(g)
        events = g.event.tolist() if g.event is not None else [None] * len(g)
        own = {f.name: _record_values(f, g.facts[f.name]) for f in facts(self.game)}
        games = tuple(
            self.game(gp[i], go[i] if g.has_opponent[i] else None, g.results[int(g.result[i])],
                      None if np.isnan(g.round[i]) else int(g.round[i]), bool(g.rated[i]),
                      row=int(g.rows[i]) or None, period=periods[i], event=events[i],
                      **{name: v[i] for name, v in own.items()})
            for i in range(len(g)))
        h = self.history
        hid = _texts_of(h.id)
        history = tuple(HistoryGame(hid[i], float(h.opponent_rating[i]), float(h.result[i]), row=int(h.rows[i]) or None)
                        for i in range(len(h)))
        return Event(players, games, history, self.period, self.name)

    def arrays(self) -> EventArrays:
        """The array form (:class:`xl_elo.model.EventArrays`): the counting games as positions."""
        counts = self.games.counts()
        return EventArrays(self.players.ids, self.players.names, self.players.rating, self.who[counts],
                           self.against[counts], self.games.scores()[counts], self.period, dict(self.players.facts),
                           {name: v[counts] for name, v in self.games.facts.items()})


def _record_values(f: Fact, column: npt.NDArray[Any]) -> list[Any]:
    """A fact's column as the values of its records (whole numbers as int, blank as None)."""
    if f.array == "number":
        if f.reading.kind == "int":
            return [None if v != v else int(v) for v in column.tolist()]
        return [None if v != v else float(v) for v in column.tolist()]
    return column.tolist()


def tables_of(event: Event, player: type[Player], game: type[Game] = Game) -> tuple[Tables, list[tuple[int, Problem]]]:
    """An event built in Python as its tables (its players as ``player``, its games as ``game``), and the
    problems of its players' values (rules 1.4, 8), which a reader would have refused."""
    from xl_elo.model import ProblemList, _check_player_values, as_game, as_player

    players = [as_player(player, p) for p in event.players]
    values: list[tuple[int, Problem]] = []
    for i, p in enumerate(players):
        found = ProblemList()
        _check_player_values(p, "players", found)
        values += [(i, q) for q in found.items]
    declared = facts(player)

    def encode(texts: Sequence[str | None]) -> Bytes:
        return np.array([(t or "").encode("utf-8") for t in texts], dtype="S") if texts else np.zeros(0, "S1")

    bad = {i for i, _ in values}  # values refused above stand as blank, for the cross-table checks
    pc = PlayerColumns("players", encode([p.id for p in players]), encode([p.name for p in players]),
                       np.array([_number(p.rating) if i not in bad else np.nan for i, p in enumerate(players)],
                                dtype=np.float64),
                       {f.name: fact_array(f, [getattr(p, f.name) if i not in bad else f.default
                                               for i, p in enumerate(players)]) for f in declared},
                       np.array([p.row or 0 for p in players], dtype=np.int64))
    results: list[Result] = []
    codes: dict[Result, int] = {}
    for g in event.games:
        codes.setdefault(g.result, len(codes))
    results = list(codes)
    games = [as_game(game, g) for g in event.games]
    gc = GameColumns("games", encode([g.player for g in games]), encode([g.opponent for g in games]),
                     np.array([g.opponent is not None for g in games], bool),
                     np.array([codes[g.result] for g in games], dtype=np.int64), results,
                     np.array([np.nan if g.round is None else g.round for g in games], dtype=np.float64),
                     np.array([g.rated for g in games], bool),
                     np.array([g.row or 0 for g in games], dtype=np.int64),
                     {f.name: fact_array(f, [getattr(g, f.name) for g in games]) for f in facts(game)})
    if any(g.period is not None for g in games):
        gc.period = _objects([g.period for g in games])
    if any(g.event is not None for g in games):
        gc.event = _objects([g.event for g in games])
    hc = HistoryColumns("history", encode([h.id for h in event.history]),
                        np.array([h.opponent_rating for h in event.history], dtype=np.float64),
                        np.array([h.result for h in event.history], dtype=np.float64),
                        np.array([h.row or 0 for h in event.history], dtype=np.int64))
    return Tables(player, game, pc, gc, hc, event.period, event.name), values


def _number(value: Any) -> float:
    try:
        return np.nan if value is None else float(value)
    except (TypeError, ValueError):
        return np.nan


def _objects(values: Sequence[Any]) -> npt.NDArray[Any]:
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out


def checked(tables: Tables, sources: Sources, extra: Sequence[tuple[int, Problem]] = ()) -> Tables:
    """``tables`` with each game's positions, once the cross-table checks find nothing (else InputError)."""
    problems, who, against = check(tables.players, tables.games, tables.history, sources, extra)
    if problems:
        raise InputError(problems)
    tables.who, tables.against = who, against
    tables.sources = sources
    return tables


def read(player: type[Player], players: Table | None, games: Table | None, history: Table | None = None, *,
         period: str | None = None, name: str = "", game: type[Game] = Game, sources: Sources | None = None,
         problems: Sequence[Problem] = (), before: dict[str, list[Problem]] | None = None,
         between: Sequence[Problem] = (), periods: bool = False, headings: dict[str, Headings] | None = None
         ) -> Tables:
    """Read and check the tables of one event for a system whose players are ``player``.

    ``headings``: what each table's headings may be (:func:`event_headings`; by default the columns
    ``player``, ``game`` and ``periods`` say); what is worth knowing of them is in the tables'
    ``warnings``.

    ``problems``: what was found before (a file that could not be read, a bad period), reported
    first; ``before``: a table's own problems found before its cells are read (``players``,
    ``games``, ``history``: a formula typed into a cell), reported before its others;
    ``between``: reported after the tables' own, before the cross-table checks. Every problem of
    every table is raised together (:class:`xl_elo.model.InputError`)."""
    from xl_elo.model import period_year

    found = list(problems)
    early = before or {}
    year = period_year(period)
    declared = facts(player)
    spec = headings or event_headings(player, game=game, periods=periods)
    warnings: list[str] = []
    found += early.get("players", [])
    pc, more = read_players(players, player, year, spec["players"], warnings) if players is not None else \
        (_no_players("players", declared), [])
    found += more
    found += early.get("games", [])
    known = IdIndex(pc.ids) if len(pc) else None
    gc, more = read_games(games, game, known, periods=periods, headings=spec["games"], warnings=warnings) \
        if games is not None else (_no_games("games", game), [])
    found += more
    found += early.get("history", [])
    empty = HistoryColumns("history", np.zeros(0, "S1"), np.zeros(0), np.zeros(0), np.zeros(0, np.int64))
    hc, more = read_history(history, spec["history"], warnings) if history is not None else (empty, [])
    found += more
    found += list(between)
    src = sources or Sources(players.source if players is not None else "players",
                             games.source if games is not None else "games",
                             history.source if history is not None else "history")
    if not len(pc) and len(gc) and not found:  # one line, not one per game
        raise InputError([Problem(src.players, None, None, "has no player, only its header (expected one row per "
                                                           "player of the games)")])
    tables = Tables(player, game, pc, gc, hc, period, name, warnings=warnings, sources=src)
    if len(pc) or not found:
        cross, tables.who, tables.against = check(pc, gc, hc, src, known=known)
        found += cross
    if found:
        raise InputError(found, warnings=warnings)
    return tables

"""The one data contract every front end uses (SPEC section 8).

Typed records for the four tables (players, history, games, results), the event that
groups them, and the input errors that name where a bad value was found. The engines take
an :class:`Event` and return :class:`Results`; CSV files, workbooks, the Excel functions
and the Python API all build the same records.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from xl_elo.core import Result

# --------------------------------------------------------------------------- errors


@dataclass(frozen=True, slots=True)
class Problem:
    """One bad value in the input: where it is, what was found, what was expected."""

    source: str
    """File or sheet name (``players.csv``, ``games`` sheet, ``argument players``)."""
    row: int | None
    """Row as a spreadsheet shows it (the header is row 1), or None for the whole table."""
    column: str | None
    """Column name, or None when the problem is the row or the table."""
    message: str
    """What was found and what was expected, one sentence."""

    def __str__(self) -> str:
        where = [self.source]
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.column is not None:
            where.append(f"column '{self.column}'")
        return f"{', '.join(where)}: {self.message}"


class InputError(ValueError):
    """Every problem found in the input, reported together before any rating is computed."""

    def __init__(self, problems: Sequence[Problem], partial: Sequence[Any] = ()):
        self.problems: tuple[Problem, ...] = tuple(problems)
        self.partial: tuple[Any, ...] = tuple(partial)
        """The records that could be read, so later checks can still report their problems."""
        super().__init__(self._text())

    def _text(self) -> str:
        if len(self.problems) == 1:
            return str(self.problems[0])
        lines = [f"{len(self.problems)} problems in the input:"]
        lines += [f"  - {p}" for p in self.problems]
        return "\n".join(lines)


class ProblemList:
    """Collects problems while reading; raises them all at once."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, source: str, row: int | None, column: str | None, message: str) -> None:
        self.items.append(Problem(source, row, column, message))

    def raise_if_any(self, partial: Sequence[Any] = ()) -> None:
        if self.items:
            raise InputError(self.items, partial)


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Player:
    """A row of the players table (SPEC 8)."""

    id: str
    """Unique id (required)."""
    name: str = ""
    """Display name."""
    rating: float | None = None
    """Rating before the event or period; None = unrated (SPEC 1.4)."""
    games: int = 0
    """Rated games played before this event or period."""
    birth_year: int | None = None
    """Year of birth (FIDE, FSE: age = period year - birth year)."""
    ever_2400: bool = False
    """FIDE: the published rating has reached 2400 at some time (SPEC 2.3)."""
    category: str | None = None
    """FFE: ``junior`` or ``senior`` (blank counts as senior, SPEC 5.6)."""
    archive_perf: float | None = None
    """FFE: archived performance Pa of an unrated player (SPEC 5.7)."""
    archive_games: int | None = None
    """FFE: number of games Na behind the archived performance (SPEC 5.7)."""
    bonus_count: int = 0
    """FESA: activity bonuses used so far, 0..100 (SPEC 6.4)."""
    grade: str | None = None
    """FESA grade (``3 kyu``, ``1 dan``) or None."""
    nsr_grade: str | None = None
    """FESA: recognised prior grade of a new player (``2 dan``, ``pro 1 dan``), SPEC 6.5."""
    lb_run: int = 0
    """FESA promotion run: games at or above LB of the next grade (SPEC 6.10)."""
    mp_run: int = 0
    """FESA promotion run: games at or above MP of the next grade (SPEC 6.10)."""
    mp_reached: bool = False
    """FESA: the MP of the next grade was reached during the LB run (SPEC 6.10)."""
    row: int | None = field(default=None, compare=False)
    """Row of the input this record came from (for messages)."""


@dataclass(frozen=True, slots=True)
class HistoryGame:
    """A row of the FESA history table: one earlier game of a performance-mode player."""

    id: str
    """The player's id."""
    opponent_rating: float
    """The opponent's rating as used when the game was rated."""
    result: float
    """1, 0.5 or 0, from the player's side."""
    row: int | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Game:
    """A row of the games table (SPEC 8): one game, entered once."""

    player: str
    """Id of the first player (the giver in a handicap game)."""
    opponent: str | None
    """Id of the opponent; None for a bye."""
    result: Result
    """The parsed result from ``player``'s side (SPEC 1.1)."""
    round: int | None = None
    """Round number; games are taken in round order, then input order."""
    handicap: str | None = None
    """FESA handicap code (``B`` = bishop ...); ``player`` gives it."""
    rated: bool = True
    """False when the organiser did not rate the game (FESA, SPEC 6.8)."""
    row: int | None = field(default=None, compare=False)

    @property
    def counts(self) -> bool:
        """True when this game is rated: played, flagged rated, and not a bye."""
        return self.rated and self.result.rated and self.opponent is not None


@dataclass(frozen=True)
class Event:
    """One event or rating period: the players, games and (FESA) history tables."""

    players: tuple[Player, ...]
    games: tuple[Game, ...]
    history: tuple[HistoryGame, ...] = ()
    period: str | None = None
    """``YYYY-MM`` (FIDE, FSE: gives the year for ages) or a date."""
    name: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "games", tuple(self.games))
        object.__setattr__(self, "history", tuple(self.history))

    @property
    def year(self) -> int | None:
        """The period's year, or None."""
        if self.period and self.period[:4].isdigit():
            return int(self.period[:4])
        return None

    def index(self) -> dict[str, int]:
        """Player id -> position in the players table."""
        return {p.id: i for i, p in enumerate(self.players)}

    def game_arrays(self) -> GameArrays:
        """The rated games as numpy arrays over player positions (built once per call)."""
        return GameArrays.build(self)


@dataclass(frozen=True)
class GameArrays:
    """Rated games as arrays: ``player[i]`` met ``opponent[i]`` and scored ``score[i]``."""

    player: npt.NDArray[np.int64]
    opponent: npt.NDArray[np.int64]
    score: npt.NDArray[np.float64]
    round: npt.NDArray[np.int64]
    order: npt.NDArray[np.int64]
    """Position of the game in the games table."""
    n_players: int

    @classmethod
    def build(cls, event: Event) -> GameArrays:
        index = event.index()
        rows = [(i, g) for i, g in enumerate(event.games) if g.counts]
        player = np.fromiter((index[g.player] for _, g in rows), np.int64, len(rows))
        opponent = np.fromiter((index[g.opponent] for _, g in rows), np.int64, len(rows))  # type: ignore[index]
        score = np.fromiter((g.result.score for _, g in rows), np.float64, len(rows))  # type: ignore[misc]
        rnd = np.fromiter((g.round if g.round is not None else 0 for _, g in rows), np.int64, len(rows))
        order = np.fromiter((i for i, _ in rows), np.int64, len(rows))
        return cls(player, opponent, score, rnd, order, len(event.players))

    def both_sides(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """Each game seen from both players: (who, against whom, score), length 2 * games."""
        who = np.concatenate([self.player, self.opponent])
        against = np.concatenate([self.opponent, self.player])
        score = np.concatenate([self.score, 1.0 - self.score])
        return who, against, score


# --------------------------------------------------------------------------- results

#: Columns of the results table every federation fills (SPEC 8), in order.
RESULT_COLUMNS: Final = (
    "id", "name", "status", "rating_before", "games_rated", "score", "expected", "k",
    "performance", "change", "bonus", "rating_after", "games_after",
)


@dataclass
class Results:
    """The results table of an event or period (SPEC 8), plus warnings."""

    federation: str
    columns: tuple[str, ...]
    rows: list[dict[str, Any]]
    period: str | None = None
    warnings: list[str] = field(default_factory=list)
    history: list[HistoryGame] = field(default_factory=list)
    """FESA: the history table to carry to the next tournament (performance-mode players)."""

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def by_id(self) -> dict[str, dict[str, Any]]:
        """Rows keyed by player id."""
        return {row["id"]: row for row in self.rows}

    def column(self, name: str) -> list[Any]:
        """One column as a list."""
        return [row.get(name) for row in self.rows]

    def to_dicts(self) -> list[dict[str, Any]]:
        """Rows as plain dicts with exactly :attr:`columns` as keys."""
        return [{c: row.get(c) for c in self.columns} for row in self.rows]


@dataclass
class ColumnResults:
    """A results table as columns (SPEC 8): what the vectorised engines return.

    ``values[name]`` is one array per column; ``kinds[name]`` says how a cell reads:
    ``int``, ``float`` and ``number`` (float arrays, NaN = blank; ``number`` reads as int when
    whole), ``bool`` (yes/no), ``text`` (one
    string per row: a list, or UTF-8 bytes from the fast CSV reader) and ``note`` (a dict
    row -> text, blank elsewhere). :meth:`to_results` gives the row form every front end uses.
    """

    federation: str
    columns: tuple[str, ...]
    values: dict[str, Any]
    kinds: dict[str, str]
    period: str | None = None
    warnings: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.values[self.columns[0]])

    def cells(self, name: str) -> list[Any]:
        """One column as Python values (None for blank)."""
        kind, v = self.kinds.get(name, "blank"), self.values.get(name)
        n = len(self)
        if kind == "blank" or v is None:
            return [None] * n
        if kind == "int":
            return [None if x != x else int(x) for x in np.asarray(v).tolist()]
        if kind == "float":
            return [None if x != x else float(x) for x in np.asarray(v).tolist()]
        if kind == "number":  # whole numbers as int, others as float
            return [None if x != x else (int(x) if x.is_integer() else x) for x in np.asarray(v, dtype=float).tolist()]
        if kind == "bool":
            return [bool(x) for x in np.asarray(v).tolist()]
        if kind == "note":
            return [v.get(i, "") for i in range(n)]
        if isinstance(v, np.ndarray) and v.dtype.kind == "U":
            return v.tolist()
        return [x.decode("utf-8") if isinstance(x, bytes) else x for x in list(v)]

    def to_results(self) -> Results:
        cols = [self.cells(c) for c in self.columns]
        rows = [dict(zip(self.columns, row, strict=True)) for row in zip(*cols, strict=True)]
        return Results(self.federation, self.columns, rows, period=self.period, warnings=list(self.warnings))


def make_columns(*extra: Iterable[str]) -> tuple[str, ...]:
    """The SPEC 8 results columns followed by a federation's own."""
    cols = list(RESULT_COLUMNS)
    for group in extra:
        cols += [c for c in group if c not in cols]
    return tuple(cols)


def check_event(
    event: Event,
    *,
    players_source: str = "players",
    games_source: str = "games",
    history_source: str = "history",
) -> None:
    """Cross-table checks of SPEC 8, all problems reported at once (:class:`InputError`).

    Duplicate player ids, games naming an unknown player or opponent, a player paired
    with himself, the same pair twice in one round, history rows of an unknown player.
    """
    problems = ProblemList()
    seen: dict[str, int | None] = {}
    for p in event.players:
        if p.id in seen:
            first = seen[p.id]
            where = f" (first at row {first})" if first is not None else ""
            problems.add(players_source, p.row, "id", f"duplicate id {p.id!r}{where}; ids must be unique")
        else:
            seen[p.id] = p.row
    pairs: dict[tuple[int | None, frozenset[str]], Game] = {}
    for g in event.games:
        if g.player not in seen:
            problems.add(games_source, g.row, "player", f"unknown player id {g.player!r} (not in {players_source})")
        if g.opponent is not None:
            if g.opponent not in seen:
                problems.add(
                    games_source, g.row, "opponent", f"unknown player id {g.opponent!r} (not in {players_source})"
                )
            if g.opponent == g.player:
                problems.add(games_source, g.row, "opponent", f"player {g.player!r} is paired with himself")
            elif g.round is not None:
                key = (g.round, frozenset((g.player, g.opponent)))
                first = pairs.get(key)
                if first is None:
                    pairs[key] = g
                    continue
                where = f" (also at row {first.row})" if first.row is not None else ""
                reversed_entry = first.player == g.opponent
                a, b = first.result.score, g.result.score
                if reversed_entry and a is not None and b is not None and a + b != 1.0:
                    problems.add(
                        games_source, g.row, "result",
                        f"the game {g.player!r} - {g.opponent!r} of round {g.round} is entered from both sides{where} "
                        f"and its results do not add up to one ({b:g} and {a:g}); enter each game once",
                    )
                else:
                    problems.add(
                        games_source, g.row, None,
                        f"{g.player!r} and {g.opponent!r} meet twice in round {g.round}{where}; enter each game once",
                    )
    for h in event.history:
        if h.id not in seen:
            problems.add(history_source, h.row, "id", f"unknown player id {h.id!r} (not in {players_source})")
    problems.raise_if_any()

"""A club's PGN database (Portable Game Notation) read as a season (rules 14): its games' tags say everything.

PGN is how every chess program keeps games: a club's database of years of events, one file or several.
:func:`read_pgn_files` reads the tags of each game with python-chess (``chess.pgn``, the field's own PGN
reader), never its moves, and builds the event of rules 8 whose games each give their day (``period``) and
their event, so the loader's season machinery rates them by the system's cadence (FIDE month by month, event
after event for the systems that rate so). python-chess is an optional extra (``pip install "xl-elo[pgn]"``:
it is GPL-3.0 licensed, xl-elo MIT, so xl-elo imports it only when a PGN file is read; without it a PGN file
is refused with the line to install it, never a traceback).

What is read, tag by tag (the PGN standard's names; a tag's name is read in any case):

- ``Event``: the event. Its editions (a club's "Club Championship" every year) are told apart by
  ``EventDate``, the event's start: games of one name with different EventDates are different events, named
  ``Name (EventDate)``; a game without EventDate joins its name's one edition, or where there are several is
  an event of its own (``Name (no EventDate)``). ``Site`` is not read: servers write each game's address
  there. A game without an Event (blank or ``?``) is in the event of its file and its day. One event's games
  more than a year apart are said in a warning (editions without their EventDate).
- ``Date``: the day the game was played, ``YYYY.MM.DD`` (``-`` or ``/`` between the parts too). A day
  written ``??`` (``2026.03.??``) reads as its month, with a warning; a date without its month
  (``2026.??.??``, ``????.??.??``), a missing one or one that is no date is a problem naming the file, the
  game, its line and the tag, unless ``--period`` is given: then every game is in that one period (its events
  still apart, in the order the files give them), and Date is not read.
- ``Round``: ``3``, or ``3.1`` (round 3, board or game 1: the first number is the round); ``-`` and ``?``
  are no round. Another text is no round, with a warning. Two games of the same two players in one round of
  one event on one day are one game given twice: a problem naming both.
- ``White``, ``Black`` (names) and ``WhiteFideId``, ``BlackFideId``: a player is his FIDE id where a game
  gives it, else his name (a warning names these players: two spellings of a name are two players).
- ``WhiteElo``, ``BlackElo``: the player's rating at the event's start. ``-`` and ``0`` are unrated then (the
  standard's ``-``), a blank tag, ``?`` or none is not given. A system whose cadence reads each event's start
  ratings (FIDE, rules 2.11: :attr:`~xl_elo.federations.contract.Cadence.start_ratings`) takes them into
  each game of the event, the first one a player's games in the event give (a later different one is a
  warning); the players table's rating (the season's first list) is each player's first Elo in time order.
  Another system rates event after event from its own results, so only that first Elo is read (a warning
  says so where later ones differ). A national system (one that declares ``NATIONAL_RATINGS``) is refused:
  PGN's Elo is FIDE's, never a national rating.
- ``Result``: ``1-0``, ``0-1``, ``1/2-1/2``; ``*`` (not finished, or the result unknown) is a game not played,
  kept and not rated, with a warning. A missing Result or another text is a problem.
- ``WhiteTitle``, ``BlackTitle``: the title (FIDE: a GM or IM has reached 2400, rules 2.3).
- ``TimeControl`` (seconds, ``5400+30``, ``40/5400+30:1800+30``): FIDE's list, as a TRF-26 report's ``222``
  (:func:`xl_elo.formats.trf.list_of_time_control`) when ``--list`` is not given and the games agree;
  games of two lists without ``--list`` are a problem; with ``--list`` a game whose time control says another
  list is left out (a warning counts them).
- ``Variant``: a game of another variant (Chess960 ...) is left out, with a warning.

Every problem of every file is raised at once, each naming the file, the game (its number in the file), its
line and the tag; reading a file stops at :data:`MAX_PROBLEMS` problems, and at its start when it holds no
tags (no PGN file). A database holds at most :data:`xl_elo.limits.ROWS` games (a games table's rows), each
file at most :data:`xl_elo.limits.FILE_BYTES` bytes. Nothing is written back: a PGN file is read, never
rewritten (``FORMAT`` is empty).
"""

from __future__ import annotations

import bisect
import datetime as dt
import functools
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from xl_elo import limits, schema
from xl_elo.core import MAX_RATING, Result
from xl_elo.formats import files
from xl_elo.formats.text import LineProblem, ReadFiles, capped, decode, peek
from xl_elo.model import Entrant, Event, InputError, Problem

if TYPE_CHECKING:
    from xl_elo.federations.contract import RatingSystem

SUFFIXES: Final = (".pgn",)
#: The system a PGN database is rated by when none is named: FIDE's, whose ratings its Elo tags hold.
SYSTEM: Final = "fide"
#: No format writes a PGN file back: it is read, never rewritten.
FORMAT: Final = ""
FORMAT_HELP: Final = ""
KIND: Final = "a PGN database of games (.pgn)"
#: How to install what reads PGN files.
EXTRA: Final = 'pip install "xl-elo[pgn]"'
#: Problems reported for one file: reading it stops at this many.
MAX_PROBLEMS: Final = 200
#: One event's games further apart than this (days) are said in a warning: editions of a recurring event
#: without the EventDate that tells them apart.
EVENT_DAYS: Final = 366

#: A result tag -> White's score (None: ``*``, a game not finished).
RESULTS: Final[dict[str, float | None]] = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5, "*": None}
_RESULT_WORDS = "1-0, 0-1, 1/2-1/2, or * for a game not finished"
#: Each result tag as White's result (rules 1.1).
_RESULT_OF: Final = {"1-0": schema.result("1"), "0-1": schema.result("0"), "1/2-1/2": schema.result("0.5"),
                     "*": schema.result("")}
#: Tag values that say nothing (the standard's ``?`` for unknown).
_UNKNOWN = frozenset({"", "?", "??", "????.??.??"})
_DATE = re.compile(r"^(\d{4}|\?{4})([./-])(\d{1,2}|\?\?)\2(\d{1,2}|\?\?)$")
_ROUND = re.compile(r"^(\d{1,9})(?:\.\d+)*$")
_FIDE_ID = re.compile(r"^\d{1,11}$")
_STANDARD = frozenset({"", "?", "standard", "chess", "normal", "from position", "fromposition"})
_TAG_NAMES = ("Event", "EventDate", "Date", "Round", "White", "Black", "WhiteFideId", "BlackFideId", "WhiteElo",
              "BlackElo", "Result", "WhiteTitle", "BlackTitle", "TimeControl", "Variant")
_CANONICAL = {**{name.lower(): name for name in _TAG_NAMES}, **{name: name for name in _TAG_NAMES}}
#: A game's Event tag after its first line: the next game's, read as this one's moves (no blank line between).
_INNER = re.compile(r"\n\[\s*Event\s", re.IGNORECASE)
_TEXT = re.compile(r"\S")


# --------------------------------------------------------------------------- recognising


def recognises(paths: Sequence[Path]) -> bool:
    """True when every file is a PGN database: a ``.pgn`` name, or text whose first tag is ``[Event "..."]``."""
    for p in paths:
        if p.suffix.lower() in SUFFIXES:
            continue
        head = peek(p, 4096)
        first = next((line for line in head.splitlines() if line.strip() and not line.startswith(("%", ";"))), "")
        if not re.match(r'\s*\[Event\s+"', first):
            return False
    return bool(paths)


# --------------------------------------------------------------------------- reading the tags


def _chess_pgn(names: str) -> Any:
    """python-chess's PGN reader; the extra to install, named, when it is not there."""
    try:
        import chess.pgn
    except ImportError:
        raise InputError([Problem(names, None, None, "reading a PGN database needs python-chess, an optional part "
                                                     f"of xl-elo: {EXTRA}")]) from None
    return chess.pgn


@dataclass
class PgnGame:
    """One game's tags as read, where they are."""

    file: int
    """The file's position among those read."""
    number: int
    """The game's number in its file (1 for the first)."""
    line: int
    """The line of its first tag."""
    end: int
    """The last line read with it."""
    tags: dict[str, str]
    """Its tags (the ones :mod:`xl_elo.formats.pgn` reads, by their standard names, values stripped)."""


@dataclass
class PgnFile:
    """A PGN file read: its games' tags, and the problems and warnings of reading it."""

    name: str
    text: str
    games: list[PgnGame] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    _lines: list[str] | None = None

    def tag_line(self, game: PgnGame, tag: str) -> int:
        """The line a game's tag is on (the game's first line when it has none)."""
        if self._lines is None:
            self._lines = re.split(r"\r\n|\r|\n", self.text)
        opening = re.compile(rf"^\s*\[\s*{tag}\s", re.IGNORECASE)
        for i in range(game.line - 1, min(game.end, len(self._lines))):
            if opening.match(self._lines[i]):
                return i + 1
        return game.line

    def problem(self, game: PgnGame, tag: str | None, message: str) -> None:
        line = self.tag_line(game, tag) if tag else game.line
        self.problems.append(LineProblem(self.name, line, tag, f"game {game.number}: {message}"))


class _Lines:
    """Where things are in a text: the line of a position, the first text after one."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._ends = [m.start() for m in re.finditer("\n", text)]

    def line(self, at: int) -> int:
        """The line (from 1) of the character at ``at``."""
        return bisect.bisect_left(self._ends, at) + 1

    def first_text(self, start: int, end: int) -> int | None:
        """The position of the first line from ``start`` to ``end`` that is neither blank nor a comment (``%``,
        ``;``); None when there is none."""
        pos = start
        while True:
            m = _TEXT.search(self.text, pos, end)
            if m is None:
                return None
            if self.text[m.start()] not in "%;" or (m.start() and self.text[m.start() - 1] != "\n"):
                return m.start()
            eol = self.text.find("\n", m.start())
            if eol < 0:
                return None
            pos = eol + 1


def parse(text: str, name: str, index: int = 0, *, reader: Any = None, count: int = 0) -> PgnFile:
    """The tags of every game of a PGN text (python-chess's ``read_headers``, its tags in a plain dict: the tags
    as written, the moves skipped); the problems of reading it collected on the result, never raised.
    ``count``: the games read already from earlier files (the limit counts them all)."""
    pgn = reader if reader is not None else _chess_pgn(name)
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # CR, LF and CRLF end a line, as every reader counts
    out = PgnFile(name, text)
    where = _Lines(text)
    handle = io.StringIO(text, newline="\n")
    visitor = _visitor(pgn)
    number = 0
    most = limits.ROWS.value
    while True:
        start = handle.tell()
        tags = pgn.read_game(handle, Visitor=visitor)
        if tags is None:
            break
        end = handle.tell()
        number += 1
        opening = where.first_text(start, end)
        line = where.line(opening) if opening is not None else where.line(start)
        inner = _INNER.search(text, (opening or start) + 1, end)
        if inner is not None:  # the next game's tags inside this one's: no blank line between them
            out.problems.append(LineProblem(name, where.line(inner.start() + 1), None,
                                            f"a game's tags inside game {number} (line {line}): a game's moves end "
                                            "with its result (1-0 ...) and a blank line before the next game's tags; "
                                            "the game at this line is not read"))
        if not tags:
            if number == 1:
                out.problems.append(LineProblem(name, line, None, "is not a PGN database: a PGN file starts with a "
                                                                  'game\'s tags ([Event "..."], [Date "..."] ...)'))
                break
            out.problems.append(LineProblem(name, line, None, "text that is not a game (no tags before it): a game "
                                                              'starts with its tags ([Event "..."] ...)'))
            number -= 1
            continue
        if count + number > most:
            out.problems.append(LineProblem(name, line, None, limits.ROWS.message(
                f"the PGN files hold more than {most:,} games")))
            break
        kept = {}
        for k, v in tags.items():
            known = _CANONICAL.get(k) or _CANONICAL.get(k.lower())
            if known is not None:
                kept[known] = v.strip()
        out.games.append(PgnGame(index, number, line, where.line(max(end - 1, start)), kept))
        if len(out.problems) >= MAX_PROBLEMS:
            break
    if not out.games and not out.problems:
        out.problems.append(LineProblem(name, None, None, "holds no game"))
    return out


def _visitor(pgn: Any) -> Any:
    """python-chess's visitor of ``read_headers`` (the tags as written, none made up for a missing one; the moves
    skipped), the tags in a plain dict."""
    return lambda: pgn.HeadersBuilder(Headers=dict)


# --------------------------------------------------------------------------- one game's tags


@dataclass(frozen=True)
class Side:
    """One player of a game, as its tags give him."""

    id: str
    name: str
    fide_id: str | None
    elo: float | None
    """His rating at the event's start: a number, 0 unrated then, None not given."""
    title: str


@dataclass
class Read:
    """One game as read: the two sides, its day, event, round and result."""

    game: PgnGame
    white: Side
    black: Side
    result: Result
    round: int | None
    day: str | None
    """``YYYY-MM-DD``, or its month ``YYYY-MM`` where the day is ``??``; None without one (``--period``)."""
    event: str | None
    """The Event tag (None: blank or ``?``)."""
    edition: str | None
    """The EventDate tag as written (None: blank or unknown)."""
    list: str | None = None
    """FIDE's list its TimeControl says (None: no time control given); ``-`` one no list rates."""
    label: str = ""
    """The event it is rated in (its name, with its edition where two share a name)."""

    @property
    def order(self) -> tuple[int, int, int]:
        """Its place in time: its day (a month as its first day), then the file and the game's number."""
        return (_ordinal(self.day), self.game.file, self.game.number)


@functools.lru_cache(maxsize=1 << 16)
def _ordinal(day: str | None) -> int:
    if not day:
        return dt.date.max.toordinal()
    parts = [int(x) for x in day.split("-")]
    return dt.date(parts[0], parts[1], parts[2] if len(parts) > 2 else 1).toordinal()


def _given(value: str | None) -> str | None:
    """A tag's value (stripped as read), None where it says nothing (blank, ``?``)."""
    return None if value is None or value in _UNKNOWN else value


@functools.lru_cache(maxsize=1 << 16)
def read_date(text: str | None) -> tuple[str | None, str | None, str]:
    """(the day ``YYYY-MM-DD`` or the month ``YYYY-MM``, None; what is wrong, None; how it was read) of a Date."""
    if text is None:
        return None, "no Date tag", ""
    m = _DATE.match(text)
    if m is None:
        return None, f"{schema.shown(text)} is not a date (PGN writes YYYY.MM.DD)", ""
    year, month, day = m.group(1), m.group(3), m.group(4)
    if "?" in year or "?" in month:
        return None, f"{schema.shown(text)} gives no {'year' if '?' in year else 'month'}", ""
    try:
        if "?" in day:
            return schema.period(f"{year}-{int(month):02d}"), None, "month"
        return schema.period(f"{year}-{int(month):02d}-{int(day):02d}", days=True), None, "day"
    except schema.ValueProblem:
        return None, f"{schema.shown(text)} is not a real date", ""


@functools.lru_cache(maxsize=1 << 12)
def _elo(text: str | None) -> tuple[float | None, str | None]:
    """(the rating, 0 unrated, None not given; what is wrong) of an Elo tag."""
    if text is None or text in ("", "?"):
        return None, None
    if text in ("-", "0"):
        return 0.0, None
    try:
        value = schema.number(text, what=f"a rating: a whole number from 1 to {MAX_RATING}, - or 0 for "
                                         "unrated, ? for unknown", low=1, high=MAX_RATING, whole=True)
    except schema.ValueProblem as exc:
        return None, str(exc)
    return (None if value is None else float(value)), None


@functools.lru_cache(maxsize=1 << 16)
def _name(name: str) -> tuple[str, str | None, str | None, str | None]:
    """(the name shown, the name as an id, what is wrong with the name, with it as an id) of a White or Black tag:
    read once per name (a club's database names its players thousands of times)."""
    shown, pid, why, why_id = "", None, None, None
    try:
        shown = schema.text(name) or ""
    except schema.ValueProblem as exc:
        why = str(exc)
    try:
        pid = schema.identifier(name)
    except schema.ValueProblem as exc:
        why_id = str(exc)
    return shown, pid, why, why_id


@functools.lru_cache(maxsize=1 << 16)
def _side_of(colour: str, name: str | None, raw_id: str | None, elo_text: str | None, title_text: str | None
             ) -> Side | tuple[tuple[str, str], ...]:
    """One side of a game from its four tags (``White``, ``WhiteFideId``, ``WhiteElo``, ``WhiteTitle``): the
    side, or its problems (tag, message). Read once per set of values: a database names its players thousands
    of times."""
    wrong: list[tuple[str, str]] = []
    name = _given(name)
    raw_id = _given(raw_id)
    fide_id = None
    if raw_id is not None and raw_id.strip("0"):
        if _FIDE_ID.match(raw_id):
            fide_id = raw_id.lstrip("0")
        else:
            wrong.append((f"{colour}FideId", f"{schema.shown(raw_id)} is not a FIDE id (its digits)"))
    shown, pid = "", None
    if name is not None:
        try:
            shown = schema.text(name) or ""
            pid = schema.identifier(name)
        except schema.ValueProblem as exc:
            wrong.append((colour, f"{exc}" + ("" if shown or fide_id else f": the name is the player's id where no "
                                                                         f"{colour}FideId is given")))
    if fide_id is not None:
        pid = fide_id
    elif name is None:
        wrong.append((colour, f"no {colour} player (a {colour} name or a {colour}FideId)"))
    elo, why = _elo(elo_text)
    if why:
        wrong.append((f"{colour}Elo", why))
    title = (_given(title_text) or "").upper()
    if wrong or pid is None:
        return tuple(wrong)
    return Side(pid, shown, fide_id, elo, "" if title == "-" else title)


_SIDE_TAGS: Final = {c: (c, f"{c}FideId", f"{c}Elo", f"{c}Title") for c in ("White", "Black")}


def _side(f: PgnFile, game: PgnGame, colour: str) -> Side | None:
    """One side of a game, or None with its problems on the file."""
    tags = game.tags
    name, fide_id, elo, title = _SIDE_TAGS[colour]
    got = _side_of(colour, tags.get(name), tags.get(fide_id), tags.get(elo), tags.get(title))
    if isinstance(got, Side):
        return got
    for tag, message in got:
        f.problem(game, tag, message)
    return None


def _game(f: PgnFile, game: PgnGame, period: str | None, warnings: dict[str, list[Any]]) -> Read | None:
    """One game's tags read; None (its problems on the file) when it cannot be."""
    tags = game.tags
    before = len(f.problems)
    variant = (tags.get("Variant") or "").strip().lower()
    if variant not in _STANDARD:
        _note(warnings, "variant", f"{f.name}, game {game.number} (line {game.line}, "
                                                  f"{tags.get('Variant')})")
        return None
    white = _side(f, game, "White")
    black = _side(f, game, "Black")
    if white is not None and black is not None and white.id == black.id:
        f.problem(game, "Black", f"{white.id!r} plays himself")
    raw = tags.get("Result")
    score: float | None = None
    if raw is None:
        f.problem(game, None, f"no Result tag ({_RESULT_WORDS})")
    elif raw not in RESULTS:
        f.problem(game, "Result", f"{schema.shown(raw)} is not a PGN result ({_RESULT_WORDS})")
    else:
        score = RESULTS[raw]
        if score is None:
            _note(warnings, "unfinished", f"{f.name}, game {game.number} (line {game.line})")
    day = period
    if period is None:
        day, why, how = read_date(tags.get("Date"))
        if why is not None:
            written = tags.get("Date")
            f.problem(game, "Date" if written is not None else None,
                      f"{why}: each game's day says its period and the order of the events; give the game its "
                      "date, or --period YYYY-MM to rate every game in one period")
        elif how == "month":
            _note(warnings, "month", f"{f.name}, game {game.number} (line {game.line}, "
                                                    f"{tags.get('Date')})")
    rnd = None
    raw_round = _given(tags.get("Round"))
    if raw_round is not None and raw_round != "-":
        m = _ROUND.match(raw_round)
        if m is not None and 1 <= int(m.group(1)) <= schema.MAX_ROUND:
            rnd = int(m.group(1))
        else:
            _note(warnings, "round", f"{f.name}, game {game.number} (line {game.line}, "
                                                    f"{schema.shown(raw_round)})")
    if len(f.problems) > before or white is None or black is None:
        return None
    result = _RESULT_OF[raw or "*"]
    return Read(game, white, black, result, rnd, day, _given(tags.get("Event")), _given(tags.get("EventDate")))


# --------------------------------------------------------------------------- the event


def read(paths: Sequence[Path], module: RatingSystem, **given: Any) -> ReadFiles:
    """The PGN files for :mod:`xl_elo.loader` (:func:`read_pgn_files`)."""
    return read_pgn_files(paths, module, **given)


def read_pgn_files(paths: Sequence[Path], module: RatingSystem, *, rating_list: str | Path | None = None,
                   period: str | None = None, options: Mapping[str, Any] | None = None, **ignored: Any
                   ) -> ReadFiles:
    """The games of one or several PGN files as a season (rules 14): each game in its day (its ``period``) and its
    event, every problem of every file at once.

    ``period``: every game in this one period (``YYYY-MM``; the games' dates are not read); ``rating_list``: a
    rating list the system reads (FIDE's), for what the tags do not say (each player's games, K, birth year);
    ``options``: the system's options given (by name), over what the games set (FIDE's ``list`` from their
    TimeControl). The other arguments the loader gives a reader of files (``one_report``, ``output``) are for a
    file written back: a PGN database is not."""
    from xl_elo.formats import trf

    names = [p.name for p in paths]
    joined = ", ".join(names)
    if module.GAME != "chess":
        raise InputError([Problem(joined, None, None, f"a PGN database holds chess games: {module.CODE.upper()} "
                                                      f"{module.UNIT}s are rated{trf._own_files(module)}")])
    if module.NATIONAL_RATINGS:
        raise InputError([Problem(joined, None, None, f"a PGN database's ratings (WhiteElo, BlackElo) are FIDE's, "
                                                      f"never taken for {module.NATIONAL_RATINGS}'s national "
                                                      f"ratings, which {module.CODE.upper()} rates from: rate the "
                                                      f"{trf._short_name(module)} {module.UNIT}{trf._own_files(module)}"
                                                      " or from its template workbook")])
    missing = trf.not_reported(module)
    if missing:
        raise InputError([Problem(joined, None, None, f"a PGN database does not give the players' {missing}, which "
                                                      f"{module.CODE.upper()} needs for every rated player: rate the "
                                                      f"{trf._short_name(module)} {module.UNIT}{trf._own_files(module)}"
                                                      " or from its template workbook")])
    reader = _chess_pgn(joined)
    given = dict(options or {})
    problems: list[Problem] = []
    if period is not None:
        try:
            period = schema.period(period, what="--period")
        except schema.ValueProblem as exc:
            raise InputError([Problem("--period", None, None, str(exc))]) from None
    parsed: list[PgnFile] = []
    count = 0
    for p in paths:
        shown_as = p.name if names.count(p.name) == 1 else str(p)
        try:
            text, _, _ = decode(files.read_bytes(p, shown_as), shown_as)
        except InputError as exc:
            problems += exc.problems
            continue
        f = parse(text, shown_as, len(parsed), reader=reader, count=count)
        count += len(f.games)
        parsed.append(f)
    warned: dict[str, list[Any]] = {}
    games: list[Read] = []
    for f in parsed:
        for g in f.games:
            if len(f.problems) >= MAX_PROBLEMS:
                f.problems.append(LineProblem(f.name, None, None, f"reading stopped at game {g.number} (line {g.line}"
                                                                  f"), after {MAX_PROBLEMS} problems"))
                break
            got = _game(f, g, period, warned)
            if got is not None:
                games.append(got)
    warnings: list[str] = []
    set_by_files = _time_controls(parsed, games, module, given, problems, warnings)
    if set_by_files.get("list") or given.get("list"):
        games = _on_list(games, str(set_by_files.get("list") or given.get("list")).strip().lower(), warnings)
    _events(games, parsed, warned)
    _twice(games, parsed)
    for f in parsed:
        problems += f.problems
    if not games and not problems:
        problems.append(Problem(joined, None, None, "holds no game to rate"))
    if problems:
        raise InputError(capped(problems, [f.name for f in parsed] + names, MAX_PROBLEMS + 1))
    warnings[:0] = _said(warned)
    entrants, sources, starts = _players(games, parsed, module, warnings)
    players = trf.players_of(module, entrants, warnings, listed=rating_list is not None, sources=sources)
    warnings[:] = [w.replace("a TRF report", "a PGN database") for w in warnings]
    if rating_list is None and any(f.name == "birth_year" for f in _player_facts(module)):
        warnings.append("a PGN database gives no year of birth: every player is rated as an adult"
                        + (" (give --rating-list, FIDE's list, for each player's own)" if module.from_rating_list
                           else ""))
    last = max((r.day for r in games if r.day), default=None)
    event_period = period or (last[:7] if last else None)
    effective = {**set_by_files, **given}
    inputs = [str(p) for p in paths]
    if rating_list is not None:
        from xl_elo.formats import ratinglist

        apply = module.from_rating_list
        if apply is None:  # the loader refuses it first, naming the systems that read one
            raise InputError([Problem(Path(rating_list).name, None, None,
                                      f"{module.CODE.upper()} reads no FIDE rating list")])
        first = min((r.day for r in games if r.day), default=event_period)
        year = int(first[:4]) if first else None
        entries = ratinglist.read_list(rating_list, [p.id for p in players], year)
        players, list_warnings = apply(players, entries, year, Path(rating_list).name, own=joined,
                                       options=trf._list_options(module, effective),
                                       where=lambda p: f"{sources.get(p.id, names[0])} (line {p.row})")
        warnings += list_warnings
        inputs.append(str(rating_list))
    starting = module.CADENCE.start_ratings
    built = []
    for r in games:
        values: dict[str, Any] = {}
        if starting:
            values = {starting[0]: starts.get((r.white.id, r.label)), starting[1]: starts.get((r.black.id, r.label))}
        built.append(module.Game(r.white.id, r.black.id, r.result, r.round, row=r.game.line, period=r.day,
                                 event=r.label, **values))
    event = Event(tuple(players), tuple(built), (), event_period, joined[:200])
    return ReadFiles(module, event, inputs, {}, None, warnings, (joined, joined, "history"), effective)


def _player_facts(module: RatingSystem) -> tuple[Any, ...]:
    from xl_elo.model import facts

    return tuple(facts(module.Player))


# --------------------------------------------------------------------------- events, lists, the same game twice


def _events(games: list[Read], parsed: list[PgnFile], warned: dict[str, list[Any]]) -> None:
    """Each game's event (``label``): its Event, told apart from another edition of the same name by its
    EventDate; a game without an Event in the event of its file and its day."""
    editions: dict[str, set[str]] = {}
    for r in games:
        if r.event is not None and r.edition is not None:
            editions.setdefault(r.event, set()).add(r.edition)
    names = {i: f.name for i, f in enumerate(parsed)}
    span: dict[str, tuple[int, int]] = {}
    for r in games:
        if r.event is None:
            r.label = f"{names[r.game.file]} {r.day or ''}".strip()
            _note(warned, "no event", f"{names[r.game.file]}, game {r.game.number} (line {r.game.line})")
            continue
        known = editions.get(r.event, set())
        if len(known) <= 1:
            r.label = r.event
        elif r.edition is not None:
            r.label = f"{r.event} ({r.edition})"
        else:
            r.label = f"{r.event} (no EventDate)"
        if r.day:
            day = _ordinal(r.day)
            low, high = span.get(r.label, (day, day))
            span[r.label] = (min(low, day), max(high, day))
    for label, (low, high) in span.items():
        if high - low > EVENT_DAYS:
            _note(warned, "long", f"{label!r} from {dt.date.fromordinal(low)} to {dt.date.fromordinal(high)}")


def _twice(games: list[Read], parsed: list[PgnFile]) -> None:
    """Two games of the same two players in one round of one event on one day: one game given twice."""
    seen: dict[tuple[str, str | None, int | None, str, str], Read] = {}
    for r in games:
        a, b = r.white.id, r.black.id
        key = (r.label, r.day, r.round, a, b) if a < b else (r.label, r.day, r.round, b, a)
        first = seen.setdefault(key, r)
        if first is r:
            continue
        f = parsed[r.game.file]
        where = (f"game {first.game.number}, line {first.game.line}" + ("" if first.game.file == r.game.file else
                                                                       f" of {parsed[first.game.file].name}"))
        when = f"round {r.round}" if r.round is not None else "a game without a round"
        rounds = {first.game.tags.get("Round"), r.game.tags.get("Round")}
        also = (f" (Round {' and '.join(sorted(str(x) for x in rounds))}: the first number is the round)"
                if len(rounds) > 1 else "")
        f.problem(r.game, None, f"{r.white.name or r.white.id} - {r.black.name or r.black.id} meet in {when}{also} "
                                f"of {r.label!r} on {r.day or 'the same day'} as in {where}: one game given twice? "
                                "(each game once; the games of one match in one round need their own rounds)")


def _time_controls(parsed: list[PgnFile], games: list[Read], module: RatingSystem, given: Mapping[str, Any],
                   problems: list[Problem], warnings: list[str]) -> dict[str, Any]:
    """FIDE's list from the games' TimeControl (rules 2.9), as a TRF-26 report's 222 sets it, where the system
    has a ``list`` option and ``--list`` is not given: the one list the games' time controls say."""
    from xl_elo.formats import trf

    if trf._list_option(module) is None:
        return {}
    kinds: dict[str, list[Read]] = {}
    for r in games:
        text = _given(r.game.tags.get("TimeControl"))
        if text is None or text in ("-", "*"):
            continue
        kind, _ = trf.list_of_time_control(text)
        r.list = kind or "-"
        kinds.setdefault(r.list, []).append(r)
    chosen = given.get("list")
    if chosen is not None or not kinds:
        return {}
    lists = [k for k in kinds if k != "-"]
    if len(lists) > 1 or "-" in kinds:
        found = "; ".join(f"{'no FIDE list' if k == '-' else k}: {len(v)} game(s) (first {_at(parsed, v[0])}, "
                          f"TimeControl {v[0].game.tags.get('TimeControl')})" for k, v in kinds.items())
        problems.append(Problem(", ".join(f.name for f in parsed), None, None,
                                f"the games' time controls are of different lists ({found}): a run rates one list; "
                                "give --list standard, rapid or blitz to rate the games of that list"))
        return {}
    kind = lists[0]
    warnings.append(f"the games' time controls (TimeControl) are {kind}: rated on FIDE's {kind} list (rules 2.9; "
                    "--list chooses another)")
    return {"list": kind}


def _on_list(games: list[Read], chosen: str, warnings: list[str]) -> list[Read]:
    """The games of the list rated: a game whose TimeControl says another list is left out (a warning)."""
    kept = [r for r in games if r.list is None or r.list == chosen]
    if len(kept) < len(games):
        other = [r for r in games if r.list is not None and r.list != chosen]
        warnings.append(f"{len(other)} game(s) whose time control (TimeControl) is not of the {chosen} list are left "
                        f"out, rated on another list or none: "
                        + ", ".join(f"{r.game.tags.get('TimeControl')} at line {r.game.line}" for r in other[:5])
                        + (" ..." if len(other) > 5 else ""))
    return kept


def _at(parsed: list[PgnFile], r: Read) -> str:
    return f"{parsed[r.game.file].name if r.game.file < len(parsed) else ''} line {r.game.line}"


# --------------------------------------------------------------------------- the players


def _players(games: list[Read], parsed: list[PgnFile], module: RatingSystem, warnings: list[str]
             ) -> tuple[list[tuple[str, Entrant, int]], dict[str, str], dict[tuple[str, str], float | None]]:
    """The players (id, what the tags say of him, the line of his first game), the file each is first in, and
    each player's rating at each event's start ((id, event) -> rating, 0 unrated; FIDE 2.11): the first his games
    in the event give. The players table's rating is his first Elo in time order."""
    by_time = sorted(games, key=lambda r: r.order)
    first: dict[str, Side] = {}
    line: dict[str, int] = {}
    sources: dict[str, str] = {}
    titles: dict[str, str] = {}
    rating: dict[str, float | None] = {}
    names: dict[str, set[str]] = {}
    starts: dict[tuple[str, str], float | None] = {}
    differ: list[str] = []
    differing = 0
    later: set[str] = set()
    several = len(parsed) > 1

    def at(r: Read) -> str:
        return f"{parsed[r.game.file].name}, line {r.game.line}" if several else f"line {r.game.line}"

    where: dict[str, str] = {}
    for r in games:  # the players in the order the files give them
        for s in (r.white, r.black):
            if s.id not in first:
                first[s.id] = s
                line[s.id] = r.game.line
                sources[s.id] = parsed[r.game.file].name
                where[s.id] = at(r)
    for r in by_time:
        for s in (r.white, r.black):
            if s.title and s.id not in titles:
                titles[s.id] = s.title
            if s.name:
                names.setdefault(s.id, set()).add(s.name)
            if s.elo is None:
                continue
            if s.id not in rating:
                rating[s.id] = s.elo
            elif rating[s.id] != s.elo:
                later.add(s.id)
            key = (s.id, r.label)
            if key not in starts:
                starts[key] = s.elo
            elif starts[key] != s.elo:
                differing += 1
                if len(differ) < 5:
                    differ.append(f"{s.name or s.id} {_r(starts[key])} then {_r(s.elo)} at {at(r)} ({r.label})")
    if differ and module.CADENCE.start_ratings:
        warnings.append(f"{differing} game(s) give a player another Elo than his first game in the same event: "
                        "an event counts with the rating at its start (rules 2.11), so each event's first Elo of a "
                        "player is read: " + "; ".join(differ) + (" ..." if differing > len(differ) else ""))
    if later and not module.CADENCE.start_ratings:
        unit = "period" if module.CADENCE.months else "event"
        warnings.append(f"{len(later)} player(s) have another Elo in later games: {module.CODE.upper()} rates {unit} "
                        f"after {unit} from its own results (rules 14), so only each player's first Elo is read, his "
                        "rating at the season's start")
    with_id = {n: pid for pid, ns in names.items() if first[pid].fide_id for n in ns}
    unnamed = [f"{pid} ({where[pid]}" + (f"; FIDE id {with_id[pid]} in other games" if pid in with_id else "") + ")"
               for pid, s in first.items() if s.fide_id is None]
    if unnamed:
        warnings.append(f"{len(unnamed)} player(s) without a FIDE id (WhiteFideId, BlackFideId) are told apart by "
                        "their names (two spellings of one name are two players): " + ", ".join(unnamed[:10])
                        + (" ..." if len(unnamed) > 10 else ""))
    renamed = [f"{pid} ({' / '.join(sorted(n))})" for pid, n in names.items() if len(n) > 1 and first[pid].fide_id]
    if renamed:
        warnings.append(f"{len(renamed)} FIDE id(s) have several names (the first is shown): "
                        + ", ".join(renamed[:5]) + (" ..." if len(renamed) > 5 else ""))
    entrants = []
    for pid, s in first.items():
        elo = rating.get(pid)
        name = s.name or next(iter(sorted(names.get(pid, ()))), "")
        entrants.append((pid, Entrant(name, elo if elo else None, s.fide_id, titles.get(pid, "")), line[pid]))
    return entrants, sources, starts


def _r(rating: float | None) -> str:
    return "unrated" if not rating else f"{rating:g}"


# --------------------------------------------------------------------------- warnings and problems


_SAID: Final = {
    "month": "game(s) dated without their day (??) are read in their month",
    "unfinished": "game(s) with the result * (not finished, or the result unknown) are kept, not rated",
    "round": "game(s) whose Round is not a round number (3, or 3.1: round 3) are read without a round",
    "no event": "game(s) name no Event: each file's games of one day without one are one event",
    "variant": "game(s) of another variant (Variant) are left out",
    "long": "event(s) have games more than a year apart (a recurring event's editions, without the EventDate that "
            "tells them apart?), each rated as one event",
}


#: The examples a warning shows of what it counts.
_EXAMPLES: Final = 5


def _note(warned: dict[str, list[Any]], kind: str, example: str) -> None:
    """One more of a kind of thing said in a warning (:data:`_SAID`): counted, the first few kept as examples."""
    seen = warned.setdefault(kind, [0])
    seen[0] += 1
    if len(seen) <= _EXAMPLES:
        seen.append(example)


def _said(warned: Mapping[str, list[Any]]) -> list[str]:
    return [f"{seen[0]} {_SAID[kind]}: " + "; ".join(seen[1:]) + (" ..." if seen[0] > len(seen) - 1 else "")
            for kind, seen in warned.items()]

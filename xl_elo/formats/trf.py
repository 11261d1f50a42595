"""FIDE's Tournament Report File, TRF-16 (FIDE Handbook C.04 Annex 2), in and out (rules 8).

Pairing programs (Swiss-Manager, Vega, SwissSys, Tornelo, JaVaFo, bbpPairings) export it and
arbiters send it to FIDE with every rated event. :func:`read_trf_files` builds the event of
rules 8 from one or several reports; :func:`write_back` gives a report back with the new
ratings in its rating columns, every other byte as it was.

What is read (columns are 1-based, as in FIDE's text):

- ``001`` player lines: start rank 5-8, sex 10, title 11-13, name 15-47, rating 49-52 (``0``,
  ``0000`` or blank: unrated), FIDE id 58-68, birth date 70-79 (``YYYY/MM/DD``, ``YYYY`` ...),
  points 81-84, then one 10-character block per round from column 92: opponent (4), colour
  (``w``, ``b``, ``-``), result.
- ``012`` name, ``042`` start and ``052`` end dates. Every other line (other headers, ``XX?``
  and ``BB?`` program lines, TRF-26 records, comments, rulers, blank lines) is kept as it is.

Results (rules 1.1): ``1 = 0`` are played games, rated; ``+ -`` are forfeits (a double forfeit
is ``-`` on both sides) and ``W D L`` games of less than one move: kept, never rated; ``H F U
Z`` (or opponent ``0000``) are byes and absences, kept as byes. Each game is in the report
twice, once per player: it is built once, and two sides that disagree (opponent, colour or
result) are one problem naming both lines. A block left blank is a round not played; a pairing
whose result is still blank (a report exported before the results) is kept as not played.

Decisions where TRF is silent:

- the period is the month of the ``052`` end date (else of ``042``) unless ``--period`` says
  otherwise; several reports make one period and must end in the same month; the players'
  ages (FIDE, FSE) count in its year;
- players are the same person across reports when they have the same FIDE id; a player
  without one is a different player in each report;
- a report does not say how many rated games a player has played: a rated player counts as
  not new (FIDE 30 games or more, FSE 20 or more; FQE: permanent), so K comes from the
  rating, the age and the 2400 flag, unless FIDE's rating list is given (``--rating-list``,
  :mod:`xl_elo.formats.ratinglist`), whose K is used; a GM or IM title means the rating has reached
  2400 (both titles require it);
- a report that declares more rounds (``XXR``, TRF-26 ``142``) than it holds results for is
  rated as it is, with a warning (a tournament not over);
- points that do not add up under the usual scoring (1, ½, 0; forfeit wins and full-point and
  pairing-allocated byes 1, half-point byes ½) are a warning, never an error: an event may
  score otherwise (``XXS``, TRF-26 ``162``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from xl_elo import limits, schema
from xl_elo.formats import files
from xl_elo.formats.text import LineProblem, ReadFiles, Text, decode_text, peek
from xl_elo.model import Entrant, Event, Game, InputError, Player, Problem, Results, facts

SUFFIXES = (".trf", ".trfx", ".trf16", ".trf26")
#: The system a report is rated by when none is named: FIDE's, whose format it is; the format written back.
SYSTEM = "fide"
FORMAT = "trf"
FORMAT_HELP = "a TRF file read: the same file with the new ratings"

#: 1-based, inclusive column spans of the 001 fields (TRF-16).
COLUMNS = {
    "start rank": (5, 8), "sex": (10, 10), "title": (11, 13), "name": (15, 47), "rating": (49, 52),
    "federation": (54, 56), "FIDE id": (58, 68), "birth date": (70, 79), "points": (81, 84), "rank": (86, 89),
}
#: Column of round 1's opponent; each round takes 10 columns.
FIRST_ROUND = 92
ROUND_WIDTH = 10

PLAYED = frozenset("10=")
FORFEITS = frozenset("+-")
SHORT = frozenset("WDL")
"""Games of less than one move: they score, the players met, but they are not rated (TRF-16)."""
BYES = frozenset("HFUZ")
CODES = PLAYED | FORFEITS | SHORT | BYES | {" "}
#: The two sides of one game that agree, first side -> second side.
AGREE = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+-", "W": "L", "L": "W", "D": "D", " ": " "}
#: Points of each code under the usual scoring (for the warning on the points column).
POINTS = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "W": 1.0, "D": 0.5, "L": 0.0,
          "H": 0.5, "F": 1.0, "U": 1.0, "Z": 0.0, " ": 0.0}
MAX_BLOCKS = schema.MAX_ROUND
#: Problems reported for one report; past them, one line says how many more (a file that is no report).
MAX_PROBLEMS = 200


def _span(name: str) -> str:
    a, b = COLUMNS[name]
    return f"column {a} ({name})" if a == b else f"columns {a}-{b} ({name})"


def _cut(line: str, name: str) -> str:
    a, b = COLUMNS[name]
    return line[a - 1:b]


@dataclass(frozen=True, slots=True)
class Block:
    """One round of a player line."""

    round: int
    opponent: int
    """Start rank of the opponent; 0 = none (bye, absence)."""
    colour: str
    """``w``, ``b`` or ``-``."""
    code: str
    """The result code in upper case; ``' '`` when blank."""
    column: int
    """1-based column of the opponent field."""

    @property
    def where(self) -> str:
        return f"round {self.round} (columns {self.column}-{self.column + 7})"


@dataclass
class TrfPlayer:
    """A 001 line as read."""

    line: int
    """1-based line number."""
    index: int
    """Position in :attr:`TrfFile.text` lines."""
    rank: int
    name: str
    title: str
    rating: float | None
    fide_id: str | None
    birth_year: int | None
    birth_text: str
    points: float | None
    blocks: list[Block]
    id: str = ""


@dataclass
class TrfFile:
    """One report as read: its lines (for writing it back), headers and players."""

    name: str
    text: Text
    players: dict[int, TrfPlayer] = field(default_factory=dict)
    headers: dict[str, tuple[int, str]] = field(default_factory=dict)
    """First line of each tournament record: code -> (line number, text from column 5)."""
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def problem(self, line: int | None, column: str | None, message: str) -> None:
        self.problems.append(LineProblem(self.name, line, column, message))

    @property
    def title(self) -> str:
        return self.headers.get("012", (0, ""))[1].strip()


# --------------------------------------------------------------------------- recognising


def recognises(paths: Sequence[Path]) -> bool:
    """True when every file is a TRF report: a ``.trf`` name, or ``001`` or ``012`` lines."""
    for p in paths:
        if p.suffix.lower() in SUFFIXES:
            continue
        head = peek(p)
        if not re.search(r"(?m)^(001 |012 )", head):
            return False
    return bool(paths)


# --------------------------------------------------------------------------- parsing


def parse(text: Text, name: str) -> TrfFile:
    """The records of one report; problems and warnings collected on the result, never raised."""
    tf = TrfFile(name, text)
    seen_lines: dict[int, int] = {}
    scoring = False
    for i, raw in enumerate(text.lines):
        number = i + 1
        line = raw.lstrip("\ufeff") if i == 0 else raw
        if len(line) > limits.LINE_CHARS.value:
            tf.problem(number, None, limits.LINE_CHARS.message(f"the line is {len(line):,} characters long"))
            continue
        code = line[:3]
        if code == "001":
            player = _player(tf, line, number, i)
            if player is None:
                continue
            if player.rank in seen_lines:
                tf.problem(number, _span("start rank"),
                           f"start rank {player.rank} is already on line {seen_lines[player.rank]}; "
                           "each player needs his own start rank")
                continue
            seen_lines[player.rank] = number
            tf.players[player.rank] = player
        elif re.fullmatch(r"[01]\d2", code) and code not in tf.headers:
            tf.headers[code] = (number, line[4:])
        elif code in ("XXS", "162"):
            scoring = True
        elif code in ("XXR", "142") and code not in tf.headers:
            tf.headers[code] = (number, line[4:])
    if not tf.players and not tf.problems:
        tf.problem(None, None, "holds no player line (lines starting with 001): is it a TRF report?")
    for p in tf.players.values():
        for b in p.blocks:
            if b.opponent and b.opponent not in tf.players:
                tf.problem(p.line, b.where, f"the opponent {b.opponent} is not a start rank of this report")
    if not scoring:
        _check_points(tf)
    _check_rounds(tf)
    return tf


def _check_rounds(tf: TrfFile) -> None:
    """Warn when the report declares more rounds (``XXR``, TRF-26 ``142``) than it holds results for."""
    for code in ("142", "XXR"):
        if code not in tf.headers:
            continue
        text = tf.headers[code][1].strip()
        if not text.isdigit():
            continue
        played = max((b.round for p in tf.players.values() for b in p.blocks
                      if b.opponent and b.code not in BYES and b.code != " "), default=0)
        if 0 < played < int(text):
            tf.warnings.append(f"{tf.name}: results up to round {played} of {int(text)} ({code} {text}, line "
                               f"{tf.headers[code][0]}): the tournament is not over; the rounds played are rated")
        return


def _player(tf: TrfFile, line: str, number: int, index: int) -> TrfPlayer | None:
    """A 001 line, every bad field reported; None when its start rank is unusable."""
    problems_before = len(tf.problems)
    padded = line.ljust(FIRST_ROUND - 1)
    rank_text = _cut(padded, "start rank").strip()
    rank = None
    try:
        rank = schema.whole(rank_text, 1, 9999, what="a start rank from 1 to 9999")
        if rank is None:
            tf.problem(number, _span("start rank"), "the start rank is blank (every player line needs one)")
    except schema.ValueProblem as exc:
        tf.problem(number, _span("start rank"), str(exc))
    name = _cut(padded, "name").strip()
    try:
        name = schema.text(name) or ""
    except schema.ValueProblem as exc:  # pragma: no cover - 33 characters never pass the limit
        tf.problem(number, _span("name"), str(exc))
    rating_text = _cut(padded, "rating").strip()
    rating = None
    if rating_text.strip("0"):
        try:
            rating = schema.rating(rating_text)
        except schema.ValueProblem as exc:
            tf.problem(number, _span("rating"), f"{exc}; an unrated player has 0 or blank")
    id_text = _cut(padded, "FIDE id").strip()
    fide_id = None
    if id_text.strip("0"):
        if id_text.isdigit() and id_text.isascii():
            fide_id = str(int(id_text))
        else:
            tf.problem(number, _span("FIDE id"), f"{schema.shown(id_text)} is not a FIDE id (digits, or 0 or blank "
                                                 "for none)")
    birth_text = _cut(padded, "birth date").strip()
    birth_year = None
    if birth_text and not birth_text.startswith("0000"):
        m = re.fullmatch(r"(\d{4})(?:\s*[/.\-]\s*\d{1,2}\s*[/.\-]\s*\d{1,2})?", birth_text)
        if m:
            birth_year = int(m.group(1))
        else:
            tf.problem(number, _span("birth date"), f"{schema.shown(birth_text)} is not a birth date (expected "
                                                    "YYYY/MM/DD or YYYY, or blank)")
    points_text = _cut(padded, "points").strip()
    points = None
    if points_text:
        try:
            points = schema.number(points_text, what="the points (e.g. 4.5)", low=0, high=9999)
        except schema.ValueProblem as exc:
            tf.problem(number, _span("points"), str(exc))
    blocks = _blocks(tf, line, number)
    if rank is None:
        return None
    title = _cut(padded, "title").strip().upper()
    if len(tf.problems) > problems_before + 50:  # a line of junk: its first problems are enough
        del tf.problems[problems_before + 50:]
    return TrfPlayer(number, index, rank, name, title, rating, fide_id, birth_year, birth_text, points, blocks)


def _blocks(tf: TrfFile, line: str, number: int) -> list[Block]:
    """The round blocks of a 001 line (a line may stop before its last rounds)."""
    blocks: list[Block] = []
    rest = line[FIRST_ROUND - 3:]
    if not rest.strip():
        return blocks
    count = (len(rest) + ROUND_WIDTH - 1) // ROUND_WIDTH
    if count > MAX_BLOCKS:
        tf.problem(number, f"columns {FIRST_ROUND}-{len(line)}",
                   f"the line has {count:,} round blocks (at most {MAX_BLOCKS}): is it a TRF player line?")
        return blocks
    for r in range(count):
        start = FIRST_ROUND - 1 + ROUND_WIDTH * r  # 0-based index of the opponent field
        chunk = line[start - 2:start + 8].ljust(10)
        if not chunk.strip():
            continue
        where = f"round {r + 1} (columns {start + 1}-{start + 8})"
        sep, opp_text, colour, result = chunk[:2] + chunk[6] + chunk[8], chunk[2:6], chunk[7], chunk[9]
        if sep.strip():
            tf.problem(number, where, f"{schema.shown(chunk)} is not a round block 'OOOO C R' (opponent, colour, "
                                      "result): are the columns shifted?")
            continue
        opp_text = opp_text.strip()
        if opp_text and not (opp_text.isdigit() and opp_text.isascii()):
            tf.problem(number, where, f"the opponent {schema.shown(opp_text)} is not a start rank (0000 for none)")
            continue
        opponent = int(opp_text or 0)
        colour = colour.lower()
        if colour not in ("w", "b", "-", " "):
            tf.problem(number, where, f"the colour {colour!r} is not w, b or -")
            continue
        code = result.upper()
        if code not in CODES:
            tf.problem(number, where, f"the result {result!r} is not a TRF result code (1 = 0, + - for forfeits, "
                                      "W D L under one move, H F U Z for byes)")
            continue
        colour = "-" if colour == " " else colour
        if opponent:
            if code == " " and colour == "-":
                tf.problem(number, where, f"no colour and no result are given for the game against {opponent}")
                continue
            if code in BYES:
                tf.problem(number, where, f"the result {result!r} is a bye's, but an opponent ({opponent}) is given")
                continue
            if code in PLAYED | SHORT and colour == "-":
                tf.problem(number, where, "a game against an opponent needs the colour w or b")
                continue
        elif code in PLAYED - {"="} or code in SHORT:
            tf.problem(number, where, f"the result {result!r} needs an opponent (0000 is none: a bye is H, F, U or Z)")
            continue
        blocks.append(Block(r + 1, opponent, colour, code, start + 1))
    return blocks


def _check_points(tf: TrfFile) -> None:
    """Warn when the points column does not add up (a shifted column, or another scoring)."""
    off = []
    for p in tf.players.values():
        if p.points is None:
            continue
        total = sum(POINTS[b.code] for b in p.blocks)
        if abs(total - p.points) > 1e-9:
            off.append(f"line {p.line} ({p.points:g} given, {total:g} from the rounds)")
    if off:
        shown = ", ".join(off[:5]) + (f" and {len(off) - 5} more" if len(off) > 5 else "")
        tf.warnings.append(f"{tf.name}: the points (columns 81-84) do not add up under the usual scoring on "
                           f"{len(off)} line(s): {shown}; the ratings do not use them")


# --------------------------------------------------------------------------- dates and the period

_MONTHS = {m: i for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), start=1)}
_MONTHS.update({"mär": 3, "mai": 5, "okt": 10, "dez": 12, "fév": 2, "fev": 2, "avr": 4, "juin": 6, "juil": 7,
                "aoû": 8, "aou": 8, "déc": 12, "ene": 1, "abr": 4, "ago": 8, "dic": 12, "gen": 1, "mag": 5,
                "giu": 6, "lug": 7, "set": 9, "ott": 10})


def parse_date(text: str, order: str | None = None) -> tuple[dt.date | None, str | None]:
    """A header date as written by the programs: (date, a note when the reading is a guess).

    ``2026/10/05``, ``2026-10-05``, ``05/10/2026``, ``05.10.2026``, ``28. 07. 2005``, ``May 29,
    2020``, ``29 May 2020``. ``03/04/2026`` is read in ``order`` (``dm`` or ``md``); without one,
    day first, and the note says so.
    """
    t = text.strip()
    sep = r"\s*[-/.]\s*"
    note = None
    m = re.search(rf"(\d{{4}}){sep}(\d{{1,2}}){sep}(\d{{1,2}})", t)
    if m:
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
    elif m := re.search(rf"(\d{{1,2}}){sep}(\d{{1,2}}){sep}(\d{{4}})", t):
        a, b, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if a > 12 or (b <= 12 and order != "md"):
            d, mo = a, b
        else:
            d, mo = b, a
        if a <= 12 and b <= 12 and a != b and order is None:
            note = f"{t!r} read as day {d}, month {mo}"
    elif m := re.search(r"([^\W\d_]{3,})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})", t):
        mo, d, y = _month(m.group(1)), int(m.group(2)), int(m.group(3))
    elif m := re.search(r"(\d{1,2})\.?\s+([^\W\d_]{3,})\.?\s+(\d{4})", t):
        d, mo, y = int(m.group(1)), _month(m.group(2)), int(m.group(3))
    else:
        return None, None
    try:
        return dt.date(y, mo, d), note
    except ValueError:
        return None, None


def _month(word: str) -> int:
    w = word.lower()
    return _MONTHS.get(w[:3]) or _MONTHS.get(w[:4]) or 0


def date_order(tf: TrfFile) -> str | None:
    """``dm`` or ``md`` for a report's ``03/04/2026``-style dates, when the report tells; else None.

    A date with a day above 12 tells; else the round dates of ``132`` (``YY/MM/DD``, never
    ambiguous): the reading that puts the start date nearest to round 1 wins.
    """
    pairs = []
    for code in ("042", "052"):
        m = re.search(r"(\d{1,2})\s*[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{4})", tf.headers.get(code, (0, ""))[1])
        if m and not re.search(r"\d{4}\s*[-/.]", tf.headers[code][1]):
            pairs.append((int(m.group(1)), int(m.group(2)), int(m.group(3))))
    if any(a > 12 for a, _, _ in pairs):
        return "dm"
    if any(b > 12 for _, b, _ in pairs):
        return "md"
    rounds = []
    for m in re.finditer(r"(\d{2})[/.](\d{2})[/.](\d{2})", tf.headers.get("132", (0, ""))[1]):
        try:
            rounds.append(dt.date(2000 + int(m.group(1)), int(m.group(2)), int(m.group(3))))
        except ValueError:
            continue
    if not pairs or not rounds:
        return None
    a, b, y = pairs[0]
    best = []
    for order, (d, mo) in (("dm", (a, b)), ("md", (b, a))):
        try:
            best.append((abs((dt.date(y, mo, d) - min(rounds)).days), order))
        except ValueError:
            continue
    best.sort()
    return best[0][1] if best and (len(best) == 1 or best[0][0] != best[1][0]) else None


def file_month(tf: TrfFile) -> tuple[str | None, str, str | None]:
    """(period YYYY-MM, what it was read from, a note on a guess) from the end date, else the start date.

    Without a month, the second item says what was found instead."""
    unread = []
    order = date_order(tf)
    for code, what in (("052", "end date"), ("042", "start date")):
        if code not in tf.headers:
            continue
        line, text = tf.headers[code]
        if not text.strip():
            continue
        date, note = parse_date(text, order)
        if date is not None and 1900 <= date.year <= 2200:
            return f"{date.year:04d}-{date.month:02d}", f"the {what} ({code}, line {line}: {text.strip()})", note
        unread.append(f"the {what} {schema.shown(text.strip())} (line {line}) is not a date xl-elo reads")
    return None, "; ".join(unread) or "it has no end date (052) or start date (042)", None


# --------------------------------------------------------------------------- the event


def read(paths: Sequence[Path], module: Any, **given: Any) -> ReadFiles:
    """The reports for :mod:`xl_elo.load` (:func:`read_trf_files`)."""
    return read_trf_files(paths, module, **given)


def read_trf_files(paths: Sequence[Path], module: Any, *, rating_list: str | Path | None = None,
                   period: str | None = None, one_report: bool = False, output: str | Path | None = None
                   ) -> ReadFiles:
    """The event of one or several TRF reports (one period), every problem of every file at once.

    ``rating_list``: a rating list the system reads (FIDE's), for what a report does not say;
    ``one_report``: the report is to be written back, so it must be one; ``output``: where the
    results go (a ``.trf`` name writes the report back by default)."""
    if getattr(module, "GAME", "chess") != "chess":
        raise InputError([Problem(", ".join(p.name for p in paths), None, None,
                                  f"a TRF report is a chess tournament's: {module.CODE.upper()} {module.UNIT}s are "
                                  f"rated{_own_files(module)}")])
    national = getattr(module, "NATIONAL_RATINGS", None)
    if national:  # a player line's rating is FIDE's: never taken for a national rating
        raise InputError([Problem(", ".join(p.name for p in paths), None, None,
                                  f"{module.CODE.upper()} ratings are the national ratings a TRF-26 report gives in "
                                  f"its {national} records, which this reader does not read yet; a player line's "
                                  f"rating is FIDE's, not a {module.CODE.upper()}: rate from CSV tables or the "
                                  "template")])
    problems: list[Problem] = []
    warnings: list[str] = []
    reports: list[TrfFile] = []
    names = [p.name for p in paths]
    for p in paths:
        shown_as = p.name if names.count(p.name) == 1 else str(p)
        try:
            text = decode_text(files.read_bytes(p, shown_as), shown_as)
        except InputError as exc:
            problems += exc.problems
            continue
        tf = parse(text, shown_as)
        problems += tf.problems
        warnings += tf.warnings
        reports.append(tf)
    if one_report and len(paths) > 1:
        problems.append(Problem(", ".join(names), None, None, "--format trf writes one report back: give one TRF "
                                                              "file (or leave out --format trf)"))
    period = _period(reports, module, period, problems, warnings)
    year = int(period[:4]) if period else None
    entrants, by_file = _players(reports, year, problems, several=len(paths) > 1)
    games = _games(reports, by_file, problems, warnings)
    if problems:
        raise InputError(_capped(problems, [tf.name for tf in reports] + names))
    inputs = [str(p) for p in paths]
    players = players_of(module, entrants, warnings, listed=rating_list is not None)
    if rating_list is not None:
        from xl_elo.formats import ratinglist

        apply = getattr(module, "from_rating_list", None)
        if apply is None:
            raise InputError([Problem(Path(rating_list).name, None, None, ratinglist.not_for(module))])
        entries = ratinglist.read_list(rating_list, [p.id for p in players], year)
        players, list_warnings = apply(players, entries, year, Path(rating_list).name)
        warnings += list_warnings
        inputs.append(str(rating_list))
    title = " + ".join(tf.title for tf in reports if tf.title) or ", ".join(names)
    event = Event(tuple(players), tuple(games), (), period, title[:200])
    source = ", ".join(names)
    writers: dict[str, Any] = {}
    default = None
    if len(reports) == 1:
        report = reports[0]
        writers[FORMAT] = lambda results: write_back(report, results)
        if output and Path(output).suffix.lower() in SUFFIXES:
            default = FORMAT
    return ReadFiles(module, event, inputs, writers, default, warnings, (source, source, "history"))


def _own_files(module: Any) -> str:
    own = getattr(module, "OWN_FILES", "")
    return f" from {own} or from CSV tables" if own else " from CSV tables"


def _reported(report: str | Callable[[Entrant], Any]) -> Callable[[Entrant], Any]:
    """How a fact is read from a report's player: a field of it by name, or a function of it."""
    if isinstance(report, str):
        return lambda e: getattr(e, report)
    return report


def _rated_or_not(rated: Any, unrated: Any) -> Callable[[Entrant], Any]:
    return lambda e: rated if e.rating is not None else unrated


def players_of(module: Any, entrants: Sequence[tuple[str, Entrant, int]], warnings: list[str], *,
               listed: bool = False) -> list[Player]:
    """The players of a report as the system's ``Player``: each fact from the report where the system
    reads it there, else as the system says a report that does not give it counts (with its
    warning), or left for the rating list (``listed``)."""
    declared = facts(module.Player)
    entrants = [(pid, _national(module, e), line) for pid, e, line in entrants]
    rated = any(e.rating is not None for _, e, _ in entrants)
    national = getattr(module, "NATIONAL_RATINGS", None)
    if national is not None:
        unrated = sum(1 for _, e, _ in entrants if e.rating is None)
        if unrated:
            warnings.append(f"{unrated} player(s) without a {national} national-rating record count as unrated for "
                            f"{module.CODE.upper()}: a report's own ratings are FIDE's, never taken as "
                            f"{module.CODE.upper()}'s")
    values: dict[str, Callable[[Entrant], Any]] = {}
    for f in declared:
        if f.report is not None:
            values[f.name] = _reported(f.report)
        elif f.unreported is not None:
            value, note = f.unreported
            values[f.name] = _rated_or_not(None if listed else value, f.default)  # listed: the rating list says it
            if rated and note and not listed:
                warnings.append(note)
    return [module.Player(pid, e.name, e.rating, row=line, **{name: get(e) for name, get in values.items()})
            for pid, e, line in entrants]


def _national(module: Any, entrant: Entrant) -> Entrant:
    """The entrant as a system with its own national list sees him (its ``NATIONAL_RATINGS``: the
    federation code of the TRF-26 records that carry its ratings): his rating is the one on that
    list, or none; a report's own ratings are FIDE's and never stand in for it."""
    code = getattr(module, "NATIONAL_RATINGS", None)
    if code is None:
        return entrant
    record = entrant.national_rating(code)
    return replace(entrant, rating=None if record is None else record.rating)


def _capped(problems: list[Problem], names: list[str]) -> list[Problem]:
    """The problems by file and line; past :data:`MAX_PROBLEMS` in one file, one line says how many more."""
    order = {n: i for i, n in enumerate(names)}
    out: list[Problem] = []
    count: dict[str, int] = {}
    for q in sorted(problems, key=lambda q: (order.get(q.source, len(order)), q.row is None, q.row or 0)):
        count[q.source] = count.get(q.source, 0) + 1
        if count[q.source] <= MAX_PROBLEMS:
            out.append(q)
    for source, n in count.items():
        if n > MAX_PROBLEMS:
            out.append(LineProblem(source, None, None, f"and {n - MAX_PROBLEMS:,} more problems: is it a TRF report "
                                                       "(001 lines at FIDE's columns)?"))
    return out


def _period(reports: list[TrfFile], module: Any, given: str | None, problems: list[Problem],
            warnings: list[str]) -> str | None:
    if given:
        try:
            return schema.period(given, what="--period")
        except schema.ValueProblem as exc:
            problems.append(Problem("--period", None, None, str(exc)))
            return None
    months: dict[str, list[str]] = {}
    missing = []
    for tf in reports:
        month, source, note = file_month(tf)
        if month is None:
            missing.append((tf.name, source))
            continue
        months.setdefault(month, []).append(f"{tf.name} ({source})")
        if note:
            warnings.append(f"{tf.name}: {note} for the period {month}; give --period if that is wrong")
    if len(months) > 1:
        found = "; ".join(f"{m}: {', '.join(v)}" for m, v in sorted(months.items()))
        problems.append(Problem(", ".join(tf.name for tf in reports), None, None,
                                f"the reports end in different months ({found}): a rating period is one month; "
                                "rate them apart, or give --period YYYY-MM"))
        return None
    if missing and module.NEEDS_PERIOD:
        problems += [LineProblem(name, None, None, f"no month for the period: {why}; give --period YYYY-MM "
                                                   f"({module.CODE.upper()} counts ages in its year)")
                     for name, why in missing]
        return None
    return next(iter(months), None)


def _players(reports: list[TrfFile], year: int | None, problems: list[Problem], *,
             several: bool) -> tuple[list[tuple[str, Entrant, int]], list[dict[int, str]]]:
    """The players of every report, one per FIDE id (id, what the report says of him, line); each
    report's start rank -> player id."""
    players: list[tuple[str, Entrant, int]] = []
    where: dict[str, tuple[TrfFile, TrfPlayer]] = {}
    by_file: list[dict[int, str]] = []
    for tf in reports:
        ids: dict[int, str] = {}
        by_file.append(ids)
        for p in sorted(tf.players.values(), key=lambda q: q.line):
            birth = None
            if p.birth_year is not None:
                try:
                    birth = schema.birth_year(p.birth_year, year)
                except schema.ValueProblem as exc:
                    problems.append(LineProblem(tf.name, p.line, _span("birth date"), str(exc)))
            if p.fide_id is None:
                pid = f"{tf.name}#{p.rank}" if several else f"#{p.rank}"
            else:
                pid = p.fide_id
            ids[p.rank] = pid
            p.id = pid
            if pid in where:
                other_file, other = where[pid]
                at = f"line {other.line}" + (f" of {other_file.name}" if other_file is not tf else "")
                if other_file is tf:
                    problems.append(LineProblem(tf.name, p.line, _span("FIDE id"),
                                                f"the FIDE id {pid} is also on {at}: one line per player"))
                elif other.rating != p.rating:
                    problems.append(LineProblem(tf.name, p.line, _span("rating"),
                                                f"FIDE id {pid} is rated {_r(p.rating)} here but {_r(other.rating)} "
                                                f"on {at}: one player has one rating in a period (or give "
                                                "--rating-list)"))
                elif other.birth_year != p.birth_year and p.birth_year and other.birth_year:
                    problems.append(LineProblem(tf.name, p.line, _span("birth date"),
                                                f"FIDE id {pid} is born in {p.birth_year} here but in "
                                                f"{other.birth_year} on {at}"))
                continue
            where[pid] = (tf, p)
            players.append((pid, Entrant(p.name, p.rating, p.fide_id, p.title, birth), p.line))
    return players, by_file


def _r(rating: float | None) -> str:
    return "unrated" if rating is None else f"{rating:g}"


def _games(reports: list[TrfFile], by_file: list[dict[int, str]], problems: list[Problem],
           warnings: list[str]) -> list[Game]:
    """Each game once, from the side with the lower start rank; two sides that disagree are a problem."""
    games: list[Game] = []
    offset = 0
    for tf, ids in zip(reports, by_file, strict=True):
        last = 0
        unplayed: list[str] = []
        blocks = {p.rank: {b.round: b for b in p.blocks} for p in tf.players.values()}
        for p in sorted(tf.players.values(), key=lambda q: q.line):
            for b in p.blocks:
                last = max(last, b.round)
                rnd = offset + b.round
                if not b.opponent:
                    games.append(Game(ids[p.rank], None, schema.result("bye", has_opponent=False), rnd, row=p.line))
                    continue
                other = tf.players.get(b.opponent)
                if other is None:
                    continue  # reported by parse
                if other.rank == p.rank:
                    problems.append(LineProblem(tf.name, p.line, b.where, "the player is paired with himself"))
                    continue
                ob = blocks[other.rank].get(b.round)
                if ob is None or ob.opponent != p.rank:
                    found = ("nothing" if ob is None else "no opponent" if not ob.opponent
                             else f"opponent {ob.opponent}")
                    problems.append(LineProblem(
                        tf.name, p.line, b.where,
                        f"start rank {p.rank} meets {other.rank} in round {b.round}, but line {other.line} "
                        f"(start rank {other.rank}) has {found} in that round"))
                    continue
                if other.rank < p.rank:
                    continue  # built from the other side
                game = _game(tf, p, b, other, ob, ids, rnd, problems)
                if game is not None:
                    games.append(game)
                    if b.code == " ":
                        unplayed.append(f"round {b.round}: {p.rank} - {other.rank}")
        if unplayed:
            warnings.append(f"{tf.name}: {len(unplayed)} pairing(s) without a result ({', '.join(unplayed[:5])}"
                            f"{' ...' if len(unplayed) > 5 else ''}): not played yet, not rated")
        offset += last
    return games


def _game(tf: TrfFile, p: TrfPlayer, b: Block, other: TrfPlayer, ob: Block, ids: dict[int, str], rnd: int,
          problems: list[Problem]) -> Game | None:
    both = (f"start ranks {p.rank} (line {p.line}) and {other.rank} (line {other.line}) in round {b.round}")
    if ob.code not in AGREE.get(b.code, ""):
        problems.append(LineProblem(tf.name, p.line, b.where,
                                    f"the results of {both} do not agree: {b.code!r} and {ob.code!r}"))
        return None
    colours = {b.colour, ob.colour}
    if b.code in FORFEITS and "-" in colours:
        pass  # a forfeit may carry no colour (TRF-06)
    elif colours != {"w", "b"}:
        problems.append(LineProblem(tf.name, p.line, b.where,
                                    f"the colours of {both} do not agree: {b.colour!r} and {ob.colour!r}"))
        return None
    if b.code == "-" and ob.code == "-":
        spelling = "--"
    else:
        spelling = {"1": "1", "0": "0", "=": "0.5", "+": "+", "-": "-", "W": "1", "D": "0.5", "L": "0",
                    " ": ""}[b.code]
    return Game(ids[p.rank], ids[other.rank], schema.result(spelling), rnd, rated=b.code not in SHORT, row=p.line)


# --------------------------------------------------------------------------- writing back


def new_ratings(report: TrfFile, results: Results) -> dict[int, int]:
    """Line index -> the rating to write, for every player whose rating after is known."""
    after = {row["id"]: row.get("rating_after") for row in results.rows}
    out: dict[int, int] = {}
    for p in report.players.values():
        value = after.get(p.id)
        if value is None or not p.id:
            continue
        out[p.index] = round(float(value))
    return out


def write_back(report: TrfFile, results: Results) -> bytes:
    """The report as read, each player's rating (columns 49-52) replaced by his rating after the
    period; every other byte as it was (line ends, trailing spaces, unknown lines, encoding)."""
    lines = list(report.text.lines)
    for index, rating in new_ratings(report, results).items():
        lines[index] = set_rating(lines[index], rating)
    return report.text.encode(lines)


def set_rating(line: str, rating: int) -> str:
    """``line`` with ``rating`` right-aligned in columns 49-52 (a short line padded to reach them)."""
    a, b = COLUMNS["rating"]
    field_ = f"{rating:>4}"
    old = line[a - 1:b]
    if old.strip() and old.strip().lstrip("0") == str(rating):
        return line  # the same number: not one byte changed
    return line.ljust(b)[:a - 1] + field_ + line[b:]

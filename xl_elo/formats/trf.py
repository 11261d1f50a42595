"""FIDE's Tournament Report File, TRF-16 and TRF-26 (FIDE Handbook C.04 Annex 2), in and out (rules 8).

Pairing programs (Swiss-Manager, Vega, SwissSys, Tornelo, JaVaFo, bbpPairings, Sharly Chess)
export it and arbiters send it to FIDE with every rated event. :func:`read_trf_files` builds
the event of rules 8 from one or several reports; :func:`write_back` gives a report back with
the new ratings in its rating columns, every other byte as it was.

What is read (columns are 1-based, as in FIDE's text):

- ``001`` player lines, read as the fixed-width records they are: start rank 5-8, sex 10,
  title 11-13, name 15-47, rating 49-52 (``0``, ``0000`` or blank: unrated), federation 54-56,
  FIDE id 58-68, birth date 70-79, points 81-84, rank 86-89, then one 10-character block per
  round from column 92: opponent (4), colour (``w``, ``b``, ``-``), result. The blank columns
  between the fields (4, 9, 14, 48, 53, 57, 69, 80, 85 and the two before each round) are
  checked, and the numbers must be right-aligned in their columns: a rating shifted one column
  (``1900`` in columns 48-51 or 50-53) or a sex letter in column 11 is a problem naming the
  line, the columns and the value, never another number.
- Birth dates as the programs write them: ``YYYY/MM/DD``, ``YYYY-MM-DD``, ``YYYY.MM.DD``,
  ``DD.MM.YYYY``, ``DD/MM/YYYY``, ``YYYY`` alone, ``YYYYMMDD``, and Vega's ``DDMMYY`` with
  its century from the event's year (a birth year after the event's two-digit year is of the
  1900s); only the year is used. A date that still cannot be read is a warning naming the file,
  the line and the columns, and the player is rated as of unknown age (an adult).
- The tournament tags ``012`` name, ``042`` start and ``052`` end dates, and TRF-26's: ``142``
  rounds, ``152`` first colour, ``162`` scoring, ``172`` starting-rank method, ``182`` pairing
  program, ``192`` tournament type, ``202`` and ``212`` tie-breaks, ``222`` time control,
  ``352`` board colours, ``362`` team match points; its records ``240`` byes, ``250``
  acceleration, ``260`` forbidden pairings, ``299`` abnormal points, ``300`` line-ups, ``310``
  (and TRF-16's ``013``) teams, ``320`` team byes, ``330`` forfeited matches, ``801`` and
  ``802`` team summaries, the national-rating records (a federation's three-letter code in
  columns 1-3, then the 001 layout: the start rank 5-8, the national rating 49-52, the
  national id 58-68, the birth date 70-79; a record for a start rank no 001 line has is a
  problem) and ``###`` comments; JaVaFo's ``XX?`` and
  bbpPairings' ``BB?`` lines. Every line is kept as it is and written back; a line xl-elo does
  not know is kept and named in one warning.

Results (rules 1.1): ``1 = 0`` are played games, rated; ``+ -`` are forfeits (a double forfeit
is ``-`` on both sides) and ``W D L`` games of less than one move: kept, never rated; ``H F U
Z`` (or opponent ``0000``) are byes and absences, kept as byes. Each game is in the report
twice, once per player: it is built once, and two sides that disagree (opponent, colour or
result) are one problem naming both lines. A block left blank is a round not played; a pairing
whose result is still blank (a report exported before the results) is kept as not played. A
team tournament's games are its players' ``001`` lines: they are rated as any other.

Decisions where TRF is silent:

- the period is the month of the ``052`` end date (else of ``042``) unless ``--period`` says
  otherwise; an end date that cannot be read is a problem (never the start date's month
  instead); a two-digit year (``26/01/04``) is read only where the report's other dates tell
  ``YY/MM/DD`` from ``DD/MM/YY``, with a warning; several reports make one period and must end
  in the same month; the players' ages (FIDE, FSE) count in its year;
- players are the same person across reports when they have the same FIDE id (a national
  system's: the same national id); a player without one is a different player in each report;
- a report does not say how many rated games a player has played: a rated player counts as
  not new (FIDE 30 games or more, FSE 20 or more; FQE: permanent), so K comes from the
  rating, the age and the 2400 flag, unless FIDE's rating list is given (``--rating-list``,
  :mod:`xl_elo.formats.ratinglist`), whose K is used; a GM or IM title means the rating has reached
  2400 (both titles require it);
- a system that rates from a national list declares its federation (``NATIONAL_RATINGS =
  "GER"``): its players' ratings, national ids and birth years come from that federation's
  records, a player without one is unrated on it (a warning), and a report without any is
  refused (the 001 ratings are FIDE's, never taken for a national one);
- a system with FIDE's ``list`` option (standard, rapid, blitz) takes it from the ``222`` time
  control when it is not given: each player's time for 60 moves (the time plus 60 times the
  increment), blitz up to 10 minutes, rapid below 60, standard from 60 (a warning says so);
- a report that declares more rounds (``XXR``, TRF-26 ``142``) than it holds results for is
  rated as it is, with a warning (a tournament not over);
- points that do not add up under the event's scoring (``162``; else 1, ½, 0, forfeit wins and
  full-point and pairing-allocated byes 1, half-point byes ½) are a warning, never an error.

A file that is no report is refused early: reading stops at :data:`MAX_PROBLEMS` problems, or
when its first :data:`NO_REPORT_LINES` lines hold nothing a report has.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xl_elo import limits, schema
from xl_elo.formats import files
from xl_elo.formats.text import LineProblem, ReadFiles, Text, capped, decode_text, peek
from xl_elo.model import (
    Entrant,
    Event,
    Fact,
    Game,
    InputError,
    NationalRating,
    Player,
    Problem,
    Results,
    as_game,
    facts,
)

if TYPE_CHECKING:
    from xl_elo.federations.contract import RatingSystem

SUFFIXES = (".trf", ".trfx", ".trf16", ".trf26")
#: The system a report is rated by when none is named: FIDE's, whose format it is; the format written back.
SYSTEM = "fide"
FORMAT = "trf"
FORMAT_HELP = "a TRF file read: the same file with the new ratings"
KIND = "a TRF tournament report (.trf)"

#: 1-based, inclusive column spans of the 001 fields (TRF-16 and TRF-26); a national-rating record
#: has the same columns from 5 to 79.
COLUMNS = {
    "start rank": (5, 8), "sex": (10, 10), "title": (11, 13), "name": (15, 47), "rating": (49, 52),
    "federation": (54, 56), "FIDE id": (58, 68), "birth date": (70, 79), "points": (81, 84), "rank": (86, 89),
}
#: The fields in column order, and the blank column after each one (the last one's is the first
#: round block's).
_ORDER = ("start rank", "sex", "title", "name", "rating", "federation", "FIDE id", "birth date", "points", "rank")
#: Column of round 1's opponent; each round takes 10 columns.
FIRST_ROUND = 92
ROUND_WIDTH = 10

PLAYED = frozenset("10=")
FORFEITS = frozenset("+-")
SHORT = frozenset("WDL")
"""Games of less than one move: they score, the players met, but they are not rated (TRF-26)."""
BYES = frozenset("HFUZ")
CODES = PLAYED | FORFEITS | SHORT | BYES | {" "}
#: The two sides of one game that agree, first side -> second side.
AGREE = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+-", "W": "L", "L": "W", "D": "D", " ": " "}
#: Points of each code under the usual scoring (for the warning on the points column).
POINTS = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "W": 1.0, "D": 0.5, "L": 0.0,
          "H": 0.5, "F": 1.0, "U": 1.0, "Z": 0.0, " ": 0.0}
#: TRF-26 ``162``: which of its symbols scores each result code (W win, D draw, L loss, A absence
#: or forfeit loss, P pairing-allocated bye, X unknown; ``Z`` is how some programs write ``A``).
SCORING_SYMBOL = {"1": "W", "+": "W", "W": "W", "F": "W", "=": "D", "D": "D", "H": "D", "0": "L", "L": "L",
                  "-": "A", "Z": "A", " ": "A", "U": "P"}
MAX_BLOCKS = schema.MAX_ROUND
#: Problems reported for one report: reading stops at this many (a file that is no report).
MAX_PROBLEMS = 200
#: A file whose first lines hold no player line and no tag is no report: reading stops there.
NO_REPORT_LINES = 10_000

#: Titles as TRF writes them: in full (any alignment in columns 11-13) ...
TITLES = frozenset({"GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM"})
#: ... or in TRF-06's short codes, right-aligned (``  g`` GM, `` wm`` WIM).
SHORT_TITLES = {"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM", "wf": "WFM", "wc": "WCM"}
SEXES = frozenset("mwfuMWFU ")

#: The tournament tags (code -> what it holds): TRF-16's, then TRF-26's.
TAGS = {
    "012": "name", "022": "city", "032": "federation", "042": "start date", "052": "end date",
    "062": "number of players", "072": "number of rated players", "082": "number of teams",
    "092": "type of tournament", "102": "chief arbiter", "112": "deputy chief arbiter",
    "122": "allotted times", "132": "round dates",
    "142": "number of rounds", "152": "initial colour", "162": "scoring system", "172": "starting-rank method",
    "182": "pairing program", "192": "tournament type", "202": "tie-breaks", "212": "standings tie-breaks",
    "222": "time control", "352": "board colours", "362": "team match points",
}
#: TRF-26's records outside the player lines, and TRF-16's team record.
RECORDS = {
    "013": "team (TRF-16)", "240": "byes", "250": "accelerated rounds", "260": "forbidden pairings",
    "299": "abnormal points", "300": "team line-up", "310": "team", "320": "team pairing-allocated byes",
    "330": "forfeited team match", "801": "team crosstable", "802": "team summary",
}
#: Program lines: JaVaFo's ``XX?``, bbpPairings' ``BB?``, Tornelo's ``DAT``.
_PROGRAM_LINE = re.compile(r"^(XX[A-Z]|BB[A-Z]|DAT)(?:\s|$)")
_NATIONAL_CODE = re.compile(r"^[A-Z]{3}$")


def _cols(a: int, b: int) -> str:
    return f"column {a}" if a == b else f"columns {a}-{b}"


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
    """In full (``GM``, ``WIM``), TRF-06's short codes read as such; '' for none or unknown."""
    rating: float | None
    fide_id: str | None
    birth_text: str
    points: float | None
    blocks: list[Block]
    id: str = ""
    federation: str = ""
    """Columns 54-56 as written (``FRA``; ``FID`` is FIDE's own flag), '' when blank."""
    sex: str = ""
    """Column 10 in lower case (``m``, ``w``; ``f`` read as ``w``), '' when blank."""


@dataclass
class NationalLine:
    """A TRF-26 national-rating record: a player's rating on his federation's own list."""

    line: int
    index: int
    federation: str
    rank: int
    rating: float | None
    national_id: str | None
    birth_text: str


@dataclass
class TrfFile:
    """One report as read: its lines (for writing it back), tags, records and players."""

    name: str
    text: Text
    players: dict[int, TrfPlayer] = field(default_factory=dict)
    headers: dict[str, tuple[int, str]] = field(default_factory=dict)
    """First line of each tournament tag (``012`` ... ``362``, ``XXR``): code -> (line number, text
    from column 5)."""
    records: dict[str, list[int]] = field(default_factory=dict)
    """TRF-26's records (``240`` ... ``802``, ``013``) and program lines: code -> their line numbers."""
    national: dict[str, dict[int, NationalLine]] = field(default_factory=dict)
    """National-rating records: federation -> start rank -> the record."""
    teams: list[tuple[int, str, tuple[int, ...]]] = field(default_factory=list)
    """Teams (``310``, TRF-16 ``013``): (number, name, the start ranks of its players)."""
    scoring: dict[str, float] = field(default_factory=dict)
    """TRF-26 ``162`` (or JaVaFo's ``XXS``, bbpPairings' ``BB?``): symbol -> points, where the report gives it."""
    comments: int = 0
    odd_titles: list[str] = field(default_factory=list)
    """Titles that are none of TRF's (read as no title, named in a warning)."""
    unknown: list[tuple[int, str]] = field(default_factory=list)
    """Lines xl-elo does not know (kept as they are): (line, its start)."""
    unknown_count: int = 0
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def problem(self, line: int | None, column: str | None, message: str) -> None:
        self.problems.append(LineProblem(self.name, line, column, message))

    @property
    def title(self) -> str:
        return self.headers.get("012", (0, ""))[1].strip()

    stopped: bool = False
    """Reading stopped early: a file that is no report (nothing else is checked)."""

    @property
    def full(self) -> bool:
        """The report has as many problems as are reported, or reading stopped."""
        return self.stopped or len(self.problems) >= MAX_PROBLEMS

    def tag(self, code: str) -> str:
        """A tag's text from column 5, stripped ('' when absent)."""
        return self.headers.get(code, (0, ""))[1].strip()


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
    """The records of one report; problems and warnings collected on the result, never raised.

    Reading stops at :data:`MAX_PROBLEMS` problems, and when the first :data:`NO_REPORT_LINES`
    lines hold no player line and no tag."""
    tf = TrfFile(name, text)
    seen_lines: dict[int, int] = {}
    candidates: list[tuple[int, int, str]] = []  # possible national-rating records: (number, index, line)
    known = 0
    for i, raw in enumerate(text.lines):
        number = i + 1
        if tf.full:
            tf.problem(None, None, f"reading stopped at line {number - 1:,} after {MAX_PROBLEMS} problems: is it a "
                                   "TRF report (001 lines at FIDE's columns)?")
            tf.stopped = True
            break
        if not known and i >= NO_REPORT_LINES:
            tf.problem(None, None, f"its first {NO_REPORT_LINES:,} lines hold no player line (001) and no tag of a "
                                   "report: is it a TRF report?")
            tf.stopped = True
            break
        line = raw.lstrip("\ufeff") if i == 0 else raw
        if len(line) > limits.LINE_CHARS.value:
            tf.problem(number, None, limits.LINE_CHARS.message(f"the line is {len(line):,} characters long"))
            continue
        code = line[:3]
        if code == "###":
            tf.comments += 1
            continue
        if not line.strip():
            continue
        if code == "001":
            known += 1
            if "|" in line:
                tf.problem(number, None, "the player line holds '|': it is Vega's tournament description file "
                                         "(.tdf), not a TRF report (export the FIDE report, TRF, from Vega)")
                continue
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
        elif code in TAGS and line[3:4] in (" ", ""):
            known += 1
            if code not in tf.headers:
                tf.headers[code] = (number, line[4:])
        elif code in RECORDS and line[3:4] in (" ", ""):
            known += 1
            tf.records.setdefault(code, []).append(number)
            _record(tf, code, line, number)
        elif m := _PROGRAM_LINE.match(line):
            known += 1
            tf.records.setdefault(m.group(1), []).append(number)
            if m.group(1) == "XXR" and "XXR" not in tf.headers:
                tf.headers["XXR"] = (number, line[4:])
            elif m.group(1) == "XXS" or m.group(1).startswith("BB"):
                _program_scoring(tf, m.group(1), line)
        elif _NATIONAL_CODE.match(code) and line[3:4] == " " and line[4:8].strip().isdigit():
            candidates.append((number, i, line))
        else:
            _unknown(tf, number, line)
    for number, index, line in candidates:
        rank = int(line[4:8])
        if rank in tf.players:
            _national(tf, line, number, index)
        else:
            tf.problem(number, _span("start rank"),
                       f"a {line[:3]} national-rating record for start rank {rank}, but no player line (001) has "
                       f"that start rank (the report's are {_ranks(tf.players)}): is it mistyped?")
    if not tf.players and not tf.problems:
        tf.problem(None, None, "holds no player line (lines starting with 001): is it a TRF report?")
    if tf.full:
        return tf
    for p in tf.players.values():
        for b in p.blocks:
            if b.opponent and b.opponent not in tf.players:
                tf.problem(p.line, b.where, f"the opponent {b.opponent} is not a start rank of this report")
    _tags(tf)
    _check_points(tf)
    _check_rounds(tf)
    if tf.odd_titles:
        tf.warnings.append(f"{tf.name}: {len(tf.odd_titles)} title(s) that are none of TRF's (GM, IM, WGM, FM, WIM, "
                           "CM, WFM, WCM, or TRF-06's g m f c wg wm wf wc right-aligned), read as no title: "
                           + ", ".join(tf.odd_titles[:5]) + (" ..." if len(tf.odd_titles) > 5 else ""))
    if tf.unknown_count:
        shown = ", ".join(f"line {n} ({schema.shown(start, 30)})" for n, start in tf.unknown[:5])
        more = f" and {tf.unknown_count - 5:,} more" if tf.unknown_count > 5 else ""
        tf.warnings.append(f"{tf.name}: {tf.unknown_count:,} line(s) that are no TRF record xl-elo knows, kept as "
                           f"they are: {shown}{more}")
    return tf


def _ranks(players: Mapping[int, TrfPlayer]) -> str:
    """The start ranks of a report as a message names them (``1-6``; ``1-3, 5``)."""
    ranks = sorted(players)
    runs: list[list[int]] = []
    for r in ranks:
        if runs and r == runs[-1][-1] + 1:
            runs[-1].append(r)
        else:
            runs.append([r])
    shown = [f"{run[0]}-{run[-1]}" if len(run) > 2 else ", ".join(map(str, run)) for run in runs]
    return ", ".join(shown[:5]) + (" ..." if len(shown) > 5 else "") if shown else "none"


def _unknown(tf: TrfFile, number: int, line: str) -> None:
    tf.unknown_count += 1
    if len(tf.unknown) < 5:
        tf.unknown.append((number, line[:20]))


def _separators(tf: TrfFile, line: str, number: int, last: str) -> set[str]:
    """Check the blank columns between the fields up to ``last``; the fields beside a bad one."""
    spoiled: set[str] = set()
    if line[3] != " ":
        tf.problem(number, "column 4", f"{schema.shown(line[3])} where a blank follows the record's code (columns "
                                       f"1-3): is a field shifted? (columns 1-8 read {schema.shown(line[:8])})")
        spoiled.add("start rank")
    for left, right in itertools.pairwise(_ORDER):
        (la, lb), (ra, rb) = COLUMNS[left], COLUMNS[right]
        for c in range(lb + 1, ra):
            ch = line[c - 1]
            if left == "name" and ch != " " and not ch.isdigit():
                continue  # a name one letter too long (read with it): no number moves
            if ch != " ":
                lo, hi = max(la, c - 5), min(rb, c + 5)
                tf.problem(number, f"column {c}", f"{schema.shown(ch)} where a blank separates the {left} "
                                                  f"({_cols(la, lb)}) from the {right} ({_cols(ra, rb)}): is a "
                                                  f"field shifted? (columns {lo}-{hi} read "
                                                  f"{schema.shown(line[lo - 1:hi])})")
                spoiled |= {left, right}
        if right == last:
            break
    return spoiled


def _right_aligned(tf: TrfFile, line: str, number: int, name: str, what: str) -> str | None:
    """A number field's text, stripped, when it is right-aligned in its columns; None (with a problem) when not."""
    raw = _cut(line, name)
    text = raw.strip()
    if text and not raw.endswith(text):
        tf.problem(number, _span(name), f"{schema.shown(raw)} is not right-aligned ({what} fills its columns from "
                                        "the right): is the field shifted?")
        return None
    return text


def _player(tf: TrfFile, line: str, number: int, index: int) -> TrfPlayer | None:
    """A 001 line, every bad field reported; None when its start rank is unusable."""
    problems_before = len(tf.problems)
    padded = line.ljust(FIRST_ROUND - 1)
    spoiled = _separators(tf, padded, number, "rank")
    rank = None
    rank_text = _right_aligned(tf, padded, number, "start rank", "a start rank") if "start rank" not in spoiled \
        else None
    if rank_text is not None:
        try:
            rank = schema.whole(rank_text, 1, 9999, what="a start rank from 1 to 9999")
            if rank is None:
                tf.problem(number, _span("start rank"), "the start rank is blank (every player line needs one)")
        except schema.ValueProblem as exc:
            tf.problem(number, _span("start rank"), str(exc))
    sex = _cut(padded, "sex")
    if sex not in SEXES:
        tf.problem(number, _span("sex"), f"{schema.shown(sex)} is not a sex (m, w or blank)")
    title = _title(tf, padded, number)
    a, b = COLUMNS["name"]
    name = padded[a - 1:b + (padded[b] != " ")].strip()  # a name one letter too long keeps its letter
    try:
        name = schema.text(name) or ""
    except schema.ValueProblem as exc:  # pragma: no cover - 33 characters never pass the limit
        tf.problem(number, _span("name"), str(exc))
    rating = None if "rating" in spoiled else _rating(tf, padded, number)
    fide_id = None
    id_text = _cut(padded, "FIDE id").strip()
    if id_text.strip("0") and "FIDE id" not in spoiled:
        if id_text.isdigit() and id_text.isascii():
            fide_id = str(int(id_text))
        else:
            tf.problem(number, _span("FIDE id"), f"{schema.shown(id_text)} is not a FIDE id (digits, or 0 or blank "
                                                 "for none)")
    birth_text = _cut(padded, "birth date").strip()
    points_text = _cut(padded, "points").strip()
    points = None
    if points_text and "points" not in spoiled:
        try:
            points = schema.number(points_text, what="the points (e.g. 4.5)", low=-9999, high=9999)
        except schema.ValueProblem as exc:
            tf.problem(number, _span("points"), str(exc))
    rank_field = _cut(padded, "rank").strip()
    if rank_field and not (rank_field.isdigit() and rank_field.isascii()) and "rank" not in spoiled:
        tf.problem(number, _span("rank"), f"{schema.shown(rank_field)} is not a rank (a whole number, or blank)")
    blocks = _blocks(tf, line, number)
    if len(tf.problems) > problems_before + 50:  # a line of junk: its first problems are enough
        del tf.problems[problems_before + 50:]
    if rank is None:
        return None
    federation = _cut(padded, "federation").strip().upper() if "federation" not in spoiled else ""
    return TrfPlayer(number, index, rank, name, title, rating, fide_id, birth_text, points, blocks,
                     federation=federation, sex={"f": "w"}.get(sex.strip().lower(), sex.strip().lower()))


def _rating(tf: TrfFile, line: str, number: int) -> float | None:
    """Columns 49-52 read as a rating: right-aligned digits; 0, 0000 or blank for unrated."""
    text = _right_aligned(tf, line, number, "rating", "a rating")
    if not text or not text.strip("0"):
        return None
    try:
        return schema.rating(text)
    except schema.ValueProblem as exc:
        tf.problem(number, _span("rating"), f"{exc}; an unrated player has 0 or blank")
        return None


def _title(tf: TrfFile, line: str, number: int) -> str:
    """Columns 11-13: a title in full (any alignment) or a short code right-aligned; '' for none.

    A single m, w or f at column 11 with column 10 blank is the sex shifted one column: a
    problem, never read as a title (``m`` there would be an International Master)."""
    raw = _cut(line, "title")
    text = raw.strip()
    if not text:
        return ""
    if text.upper() in TITLES and len(text) > 1:
        return text.upper()
    if text.lower() in SHORT_TITLES and raw.endswith(text):
        return SHORT_TITLES[text.lower()]
    if len(text) == 1 and raw.startswith(text) and text.lower() in "mwf" and line[9] == " ":
        tf.problem(number, "columns 10-13 (sex, title)",
                   f"{schema.shown(line[9:13])}: the sex belongs in column 10 and a title is written in full (GM, "
                   f"IM, WGM, FM, WIM, CM, WFM, WCM) or right-aligned (  {text}): is the sex shifted one column right?")
        return ""
    tf.odd_titles.append(f"line {number} ({schema.shown(raw)})")
    return ""


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
        sep, opp_raw, colour, result = chunk[:2] + chunk[6] + chunk[8], chunk[2:6], chunk[7], chunk[9]
        if sep.strip():
            tf.problem(number, where, f"{schema.shown(chunk)} is not a round block 'OOOO C R' (opponent, colour, "
                                      "result): are the columns shifted?")
            continue
        opp_text = opp_raw.strip()
        if opp_text and not (opp_text.isdigit() and opp_text.isascii()):
            tf.problem(number, where, f"the opponent {schema.shown(opp_text)} is not a start rank (0000 for none)")
            continue
        if opp_text and not opp_raw.endswith(opp_text):
            tf.problem(number, where, f"the opponent {schema.shown(opp_raw)} is not right-aligned in columns "
                                      f"{start + 1}-{start + 4}: is the block shifted?")
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


def _national(tf: TrfFile, line: str, number: int, index: int) -> None:
    """A national-rating record (TRF-26): the 001 columns from 5 to 79, opened by a federation's code."""
    fed = line[:3]
    padded = line.ljust(80)
    spoiled = _separators(tf, padded, number, "birth date")
    rank = int(line[4:8])
    rating = None if "rating" in spoiled else _rating(tf, padded, number)
    id_text = _cut(padded, "FIDE id").strip()
    national_id = None
    if id_text.strip("0"):
        try:
            national_id = schema.text(id_text)
        except schema.ValueProblem as exc:  # pragma: no cover - 11 characters never pass the limit
            tf.problem(number, "columns 58-68 (national id)", str(exc))
    records = tf.national.setdefault(fed, {})
    if rank in records:
        tf.problem(number, _span("start rank"), f"start rank {rank} already has a {fed} record on line "
                                                f"{records[rank].line}: one per player and federation")
        return
    records[rank] = NationalLine(number, index, fed, rank, rating, national_id, _cut(padded, "birth date").strip())


def _record(tf: TrfFile, code: str, line: str, number: int) -> None:
    """What xl-elo reads of a TRF-26 record: its teams (``310``, ``013``); the others are kept as they are."""
    if code == "310":
        team = line[4:7].strip()
        members = tuple(int(x) for x in re.findall(r"\d+", line[72:]))
        if team.isdigit():
            tf.teams.append((int(team), line[8:40].strip(), members))
        else:
            tf.warnings.append(f"{tf.name}: line {number}: {schema.shown(line[4:7])} in columns 5-7 is not a team "
                               "number (310 record); kept as it is")
    elif code == "013":
        members = tuple(int(x) for x in re.findall(r"\d+", line[36:]))
        tf.teams.append((len(tf.teams) + 1, line[4:36].strip(), members))


def _program_scoring(tf: TrfFile, code: str, line: str) -> None:
    """JaVaFo's ``XXS W=3 D=1`` and bbpPairings' ``BBW 3.0``: the points of a win, a draw ..."""
    if code == "XXS":
        for key, value in re.findall(r"\b([A-Z]{1,3})\s*=\s*(-?\d+(?:[.,]\d+)?)", line[3:]):
            if key in ("W", "D"):
                tf.scoring[key] = float(value.replace(",", "."))
    else:
        m = re.match(r"\s*(-?\d+(?:[.,]\d+)?)\s*$", line[3:])
        symbol = {"BBW": "W", "BBD": "D", "BBL": "L", "BBZ": "A", "BBU": "P"}.get(code)
        if m and symbol:
            tf.scoring[symbol] = float(m.group(1).replace(",", "."))


def _tags(tf: TrfFile) -> None:
    """TRF-26's tags read where they change how the report is read (162) or checked; a malformed one a warning."""
    if "162" in tf.headers:
        line, text = tf.headers["162"]
        pairs = re.findall(r"\b([WDLAPXZ])\s+(-?\d+(?:[.,]\d+)?)", text)
        if pairs:
            for symbol, value in pairs:
                tf.scoring["A" if symbol == "Z" else symbol] = float(value.replace(",", "."))
        elif text.strip():
            tf.warnings.append(f"{tf.name}: line {line}: the scoring system (162) {schema.shown(text.strip())} is "
                               "not 'W 1.0 D 0.5 ...': the points are not checked")
            tf.scoring["?"] = 0.0
    if "152" in tf.headers and tf.tag("152")[:1].upper() not in ("W", "B"):
        line, text = tf.headers["152"]
        tf.warnings.append(f"{tf.name}: line {line}: the initial colour (152) {schema.shown(text.strip())} is not W "
                           "or B; kept as it is")
    if "142" in tf.headers and not tf.tag("142").isdigit():
        line, text = tf.headers["142"]
        tf.warnings.append(f"{tf.name}: line {line}: the number of rounds (142) {schema.shown(text.strip())} is not "
                           "a number; kept as it is")


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


def _check_points(tf: TrfFile) -> None:
    """Warn when the points column does not add up (a shifted column, or another scoring) under the
    report's own scoring (``162``, ``XXS``, ``BB?``) or the usual one."""
    if "?" in tf.scoring:
        return
    if tf.scoring:
        base = {"W": 1.0, "D": 0.5, "L": 0.0, "A": 0.0}
        base.update(tf.scoring)
        base.setdefault("P", base["W"])
        base.setdefault("X", base["D"])
        points = {code: base[SCORING_SYMBOL[code]] for code in POINTS}
        said = " under the report's scoring (162)" if "162" in tf.headers else " under the report's scoring"
    else:
        points, said = POINTS, " under the usual scoring"
    off = []
    for p in tf.players.values():
        if p.points is None:
            continue
        total = sum(points[b.code] for b in p.blocks)
        if abs(total - p.points) > 1e-9:
            off.append(f"line {p.line} ({p.points:g} given, {total:g} from the rounds)")
    if off:
        shown = ", ".join(off[:5]) + (f" and {len(off) - 5} more" if len(off) > 5 else "")
        tf.warnings.append(f"{tf.name}: the points (columns 81-84) do not add up{said} on "
                           f"{len(off)} line(s): {shown}; the ratings do not use them")


# --------------------------------------------------------------------------- dates and the period

_MONTHS = {m: i for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), start=1)}
_MONTHS.update({"mär": 3, "mai": 5, "okt": 10, "dez": 12, "fév": 2, "fev": 2, "avr": 4, "juin": 6, "juil": 7,
                "aoû": 8, "aou": 8, "déc": 12, "ene": 1, "abr": 4, "ago": 8, "dic": 12, "gen": 1, "mag": 5,
                "giu": 6, "lug": 7, "set": 9, "ott": 10})
_TWO_DIGIT = re.compile(r"^(\d{2})\s*([-/.])\s*(\d{2})\s*\2\s*(\d{2})$")
#: How far from the report's other dates a two-digit year's reading may be (days).
_NEAR_DAYS = 400


def parse_date(text: str, order: str | None = None, near: Sequence[dt.date] = ()) -> tuple[dt.date | None, str | None]:
    """A header date as written by the programs: (date, a note when the reading is a guess).

    ``2026/10/05``, ``2026-10-05``, ``05/10/2026``, ``05.10.2026``, ``28. 07. 2005``, ``May 29,
    2020``, ``29 May 2020``. ``03/04/2026`` is read in ``order`` (``dm`` or ``md``); without one,
    day first, and the note says so. A two-digit year (``26/01/04``: TRF-26's round dates are
    ``YY/MM/DD``, many programs write ``DD/MM/YY``) is read only when one reading is within a year
    of the report's other dates (``near``), with a note; otherwise it is no date.
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
    elif m := _TWO_DIGIT.match(t):
        return _two_digit(t, int(m.group(1)), int(m.group(3)), int(m.group(4)), near)
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


def _two_digit(text: str, a: int, b: int, c: int, near: Sequence[dt.date]) -> tuple[dt.date | None, str | None]:
    readings = []
    for form, (y, mo, d) in (("YY/MM/DD", (a, b, c)), ("DD/MM/YY", (c, b, a))):
        try:
            readings.append((form, dt.date(2000 + y, mo, d)))
        except ValueError:
            continue
    if near:
        readings = [(f, d) for f, d in readings if min(abs((d - n).days) for n in near) <= _NEAR_DAYS]
    if len(readings) != 1 or not near:
        return None, None
    form, date = readings[0]
    return date, f"{text!r} read as {date.isoformat()} ({form}, by the report's other dates)"


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
    rounds = round_dates(tf)
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


def round_dates(tf: TrfFile) -> list[dt.date]:
    """The round dates of ``132`` (``YY/MM/DD``)."""
    rounds = []
    for m in re.finditer(r"(\d{2})[/.](\d{2})[/.](\d{2})", tf.headers.get("132", (0, ""))[1]):
        try:
            rounds.append(dt.date(2000 + int(m.group(1)), int(m.group(2)), int(m.group(3))))
        except ValueError:
            continue
    return rounds


@dataclass(frozen=True)
class Month:
    """The period a report's dates give: the month, what it was read from, a note on a guess; or, with
    no month, why (``unread``: a date is there but cannot be read)."""

    month: str | None
    source: str
    note: str | None = None
    unread: bool = False
    line: int | None = None
    """The line of the date read."""


def file_month(tf: TrfFile) -> Month:
    """The period (YYYY-MM) of a report: the month of its end date (052), else of its start date (042)
    when it has no end date. An end date that is there but cannot be read gives no month (``unread``):
    the start date's month is never taken instead."""
    order = date_order(tf)
    found: dict[str, dt.date] = {}
    for code in ("052", "042"):
        date, _ = parse_date(tf.tag(code), order)
        if date is not None:
            found[code] = date
    for code, what in (("052", "end date"), ("042", "start date")):
        text = tf.tag(code)
        if not text:
            continue
        line = tf.headers[code][0]
        date, note = parse_date(text, order, [d for c, d in found.items() if c != code] + round_dates(tf))
        if date is not None and 1900 <= date.year <= 2200:
            if code == "042":
                note = (note + "; " if note else "") + "the report has no end date (052): its start date's month"
            return Month(f"{date.year:04d}-{date.month:02d}", f"the {what} ({code}, line {line}: {text})", note,
                         line=line)
        two = " (a two-digit year the report's other dates do not settle)" if _TWO_DIGIT.match(text) else ""
        return Month(None, f"the {what} {schema.shown(text)} ({code}, line {line}) is not a date xl-elo reads"
                           f"{two}: write it YYYY/MM/DD", unread=True)
    return Month(None, "it has no end date (052) or start date (042)")


# --------------------------------------------------------------------------- birth dates


def birth_year_of(text: str, event_year: int | None) -> tuple[int | None, str]:
    """The year of a birth date as the programs write it (columns 70-79), and how it was read.

    ``(year, "")``; ``(year, "DDMMYY")`` for Vega's six digits, whose century comes from
    ``event_year`` (a two-digit year after the event's is of the 1900s); ``(None, "")`` for a
    blank or zero date (unknown); ``(None, "unread")`` for anything else."""
    t = text.strip()
    if not t or not t.strip("0./- "):
        return None, ""
    if m := re.fullmatch(r"(\d{4})\s*[/.\-]\s*(\d{1,2})\s*[/.\-]\s*(\d{1,2})", t):
        ok = _day_month(int(m.group(3)), int(m.group(2)), zero=True)
        return (int(m.group(1)), "") if ok and int(m.group(1)) else (None, "unread")
    if m := re.fullmatch(r"(\d{1,2})\s*[/.\-]\s*(\d{1,2})\s*[/.\-]\s*(\d{4})", t):
        a, b = int(m.group(1)), int(m.group(2))
        ok = _day_month(a, b, zero=True) or _day_month(b, a, zero=True)
        return (int(m.group(3)), "") if ok and int(m.group(3)) else (None, "unread")
    if re.fullmatch(r"\d{4}", t):
        return int(t), ""
    if re.fullmatch(r"\d{8}", t):
        if t[:2] in ("19", "20") and _day_month(int(t[6:]), int(t[4:6])):
            return int(t[:4]), ""
        if _day_month(int(t[:2]), int(t[2:4])):
            return int(t[4:]), ""
        return None, "unread"
    if re.fullmatch(r"\d{6}", t) and _day_month(int(t[:2]), int(t[2:4])) and event_year is not None:
        yy = int(t[4:])
        return (2000 + yy if 2000 + yy <= event_year else 1900 + yy), "DDMMYY"
    return None, "unread"


def _day_month(day: int, month: int, *, zero: bool = False) -> bool:
    if zero and month == 0 and day == 0:
        return True
    if zero and day == 0:
        return 1 <= month <= 12
    return 1 <= month <= 12 and 1 <= day <= 31


# --------------------------------------------------------------------------- the time control (TRF-26 222)

_TC_PERIOD = re.compile(r"^(?:(\d+)/)?(\d+)(?:\+(\d+))?$")
#: FIDE's lists by each player's time for 60 moves (seconds), rapid and blitz regulations 1.1:
#: blitz more than 3 and at most 10 minutes, rapid more than 10 and less than 60, standard from 60.
BLITZ_UP_TO = 600
RAPID_BELOW = 3600
NOT_RATED_UP_TO = 180
#: FIDE's lists, which a time control chooses among (a system's ``list`` option has these choices).
LISTS = ("standard", "rapid", "blitz")


def seconds_for_60(text: str) -> int | None:
    """Each player's time for 60 moves (seconds) of a TRF-26 time control, ``d[:d]`` with ``d`` =
    ``S``, ``S+I``, ``M/S`` or ``M/S+I`` (``40/6000+30:900+30``); None when it is not one (an
    armageddon's ``W..-B..`` is two, see :func:`list_of_time_control`)."""
    periods = []
    for part in text.strip().replace(" ", "").split(":"):
        m = _TC_PERIOD.match(part)
        if m is None:
            return None
        periods.append((int(m.group(1)) if m.group(1) else None, int(m.group(2)), int(m.group(3) or 0)))
    total, move = 0, 1
    for moves, secs, inc in periods:
        if move > 60:
            break
        total += secs
        last = 60 if moves is None else min(60, move + moves - 1)
        total += inc * (last - move + 1)
        if moves is None:
            break
        move += moves
    return total


def list_of_time_control(text: str) -> tuple[str | None, str]:
    """(FIDE's list, how it was read) of a TRF-26 ``222`` time control; (None, why) when no list rates it."""
    t = text.strip()
    m = re.fullmatch(r"[Ww](.+)-[Bb](.+)", t.replace(" ", ""))
    if m:
        white, black = seconds_for_60(m.group(1)), seconds_for_60(m.group(2))
        if white is None or black is None:
            return None, f"{schema.shown(t)} is not a TRF-26 time control (e.g. 5400+30, 40/6000+30:900+30)"
        if white != black:
            return None, (f"{schema.shown(t)} gives the players different times, and FIDE rates no such game (rapid "
                          "and blitz regulations 1.2)")
        t = m.group(1)
    seconds = seconds_for_60(t)
    if seconds is None:
        return None, f"{schema.shown(t)} is not a TRF-26 time control (e.g. 5400+30, 40/6000+30:900+30)"
    minutes = f"{seconds / 60:g} minutes for 60 moves"
    if seconds <= NOT_RATED_UP_TO:
        return None, f"{schema.shown(t)} gives each player {minutes}: no FIDE list rates it (more than 3 needed)"
    kind = "blitz" if seconds <= BLITZ_UP_TO else "rapid" if seconds < RAPID_BELOW else "standard"
    return kind, f"{schema.shown(t)} gives each player {minutes}"


_LIST_WORDS = {"blitz": ("blitz", "lampo", "bullet"),
               "rapid": ("rapid", "rápid", "rapide", "schnellschach", "semilampo", "activo", "actívo")}


def _list_option(module: RatingSystem) -> Any:
    """The system's ``list`` option (FIDE's: standard, rapid, blitz), when it has one."""
    from dataclasses import fields

    for f in fields(module.Options):
        if f.name == "list" and set(LISTS) <= set(f.metadata.get("choices") or ()):
            return f
    return None


def _time_controls(reports: list[TrfFile], module: RatingSystem, given: Mapping[str, Any], problems: list[Problem],
                   warnings: list[str]) -> dict[str, Any]:
    """The options the reports set: FIDE's list from each one's ``222``, when ``--list`` is not given."""
    if _list_option(module) is None:
        return {}
    chosen = given.get("list")
    chosen = str(chosen).strip().lower() if chosen is not None else None
    kinds: dict[str, list[str]] = {}
    for tf in reports:
        if "222" not in tf.headers:
            if chosen is None:
                said = [(k, code) for code in ("012", "092", "122") for k, ws in _LIST_WORDS.items()
                        if any(re.search(rf"\b{w}", tf.tag(code).lower()) for w in ws)]
                if said:
                    word, code = said[0]
                    warnings.append(f"{tf.name}: line {tf.headers[code][0]}: its {TAGS[code]} ({code}) says {word}, "
                                    "but it has no time control (TRF-26 222): rated on FIDE's standard list; give "
                                    f"--list {word} if it is a {word} event")
            continue
        line, text = tf.headers["222"]
        kind, how = list_of_time_control(text)
        where = f"line {line}: the time control (222) {how}"
        if kind is None:
            if chosen is None:
                problems.append(LineProblem(tf.name, line, "222 (time control)", f"{how}: give --list standard, "
                                                                                 "rapid or blitz"))
            else:
                warnings.append(f"{tf.name}: {where}; rated on the {chosen} list, as --list says")
            continue
        if chosen is not None and chosen != kind:
            warnings.append(f"{tf.name}: {where}, {kind}; rated on the {chosen} list, as --list says")
        elif chosen is None:
            warnings.append(f"{tf.name}: {where}: rated on FIDE's {kind} list (rules 2.9; --list chooses another)")
        kinds.setdefault(kind, []).append(tf.name)
    if chosen is not None or not kinds:
        return {}
    if len(kinds) > 1:
        found = "; ".join(f"{k}: {', '.join(v)}" for k, v in kinds.items())
        problems.append(Problem(", ".join(tf.name for tf in reports), None, None,
                                f"the reports' time controls are of different lists ({found}): one period is one "
                                "list; rate them apart, or give --list"))
        return {}
    return {"list": next(iter(kinds))}


# --------------------------------------------------------------------------- the event


def read(paths: Sequence[Path], module: RatingSystem, **given: Any) -> ReadFiles:
    """The reports for :mod:`xl_elo.loader` (:func:`read_trf_files`)."""
    return read_trf_files(paths, module, **given)


def read_trf_files(paths: Sequence[Path], module: RatingSystem, *, rating_list: str | Path | None = None,
                   period: str | None = None, one_report: bool = False, output: str | Path | None = None,
                   options: Mapping[str, Any] | None = None) -> ReadFiles:
    """The event of one or several TRF reports (one period), every problem of every file at once.

    ``rating_list``: a rating list the system reads (FIDE's), for what a report does not say;
    ``one_report``: the report is to be written back, so it must be one; ``output``: where the
    results go (a ``.trf`` name writes the report back by default); ``options``: the system's
    options given (by name), over what the reports set (FIDE's ``list`` from a ``222`` time control)."""
    if module.GAME != "chess":
        raise InputError([Problem(", ".join(p.name for p in paths), None, None,
                                  f"a TRF report is a chess tournament's: {module.CODE.upper()} {module.UNIT}s are "
                                  f"rated{_own_files(module)}")])
    absent = module.NO_REPORT_RATINGS
    if absent:
        raise InputError([Problem(", ".join(p.name for p in paths), None, None,
                                  f"{absent}: rate the {_short_name(module)} {module.UNIT}{_own_files(module)} or "
                                  "from its template workbook")])
    missing = not_reported(module)
    if missing:
        raise InputError([Problem(", ".join(p.name for p in paths), None, None,
                                  f"a TRF report does not give the players' {missing}, which {module.CODE.upper()} "
                                  f"needs for every rated player (the report's ratings are FIDE's): rate the "
                                  f"{_short_name(module)} {module.UNIT}{_own_files(module)} or from its template "
                                  "workbook")])
    given = dict(options or {})
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
    national = module.NATIONAL_RATINGS
    if national:
        for tf in reports:
            if not tf.full and not tf.national.get(national):
                problems.append(LineProblem(tf.name, None, None, _no_national(module, national)))
    set_by_files = _time_controls(reports, module, given, problems, warnings)
    season = period is None and len(reports) > 1 and len({file_month(tf).month for tf in reports if not tf.full}) > 1
    period = _period(reports, module, period, problems, warnings, season=season)
    year = int(period[:4]) if period else None
    ages = any(f.name == "birth_year" for f in facts(module.Player))
    own_events = [f for f in facts(module.Game) if f.report is not None] if len(reports) > 1 else []
    entrants, by_file = _players(reports, year, problems, warnings, several=len(paths) > 1, national=national,
                                 each_event=bool(own_events),
                                 ages=ages)
    games = _games(reports, by_file, problems, warnings)
    if own_events:  # each event from the list in force at its start (FIDE 2.11): its report's ratings on its games
        games = _each_event(reports, by_file, games, module, own_events)
        entrants = _rated_last(reports, by_file, entrants, warnings, first=season)
    if len(reports) > 1:  # several reports: each its own event, in its own period (a season, rules 14)
        games = _in_events(reports, games, period if not season else None)
    if problems:
        raise InputError(_capped(problems, [tf.name for tf in reports] + names))
    effective = {**set_by_files, **given}
    inputs = [str(p) for p in paths]
    sources: dict[str, str] = {}
    for tf, ids in zip(reports, by_file, strict=True):
        for pid in ids.values():
            sources.setdefault(pid, tf.name)
    players = players_of(module, entrants, warnings, listed=rating_list is not None, sources=sources)
    if rating_list is not None:
        from xl_elo.formats import ratinglist

        apply = module.from_rating_list
        if apply is None:
            raise InputError([Problem(Path(rating_list).name, None, None,
                                      f"FIDE's rating list gives FIDE ratings and K: {module.CODE.upper()} reads "
                                      "none")])
        entries = ratinglist.read_list(rating_list, [p.id for p in players], year)
        players, list_warnings = apply(players, entries, year, Path(rating_list).name,
                                       own=names[0] if len(names) == 1 else "the reports",
                                       options=_list_options(module, effective),
                                       where=lambda p: f"{sources.get(p.id, names[0])} (line {p.row})")
        warnings += list_warnings
        inputs.append(str(rating_list))
    title = " + ".join(tf.title for tf in reports if tf.title) or ", ".join(names)
    event = Event(tuple(players), tuple(games), (), period, title[:200])
    source = ", ".join(names)
    writers: dict[str, Any] = {}
    default = None
    if len(reports) == 1:
        report = reports[0]
        writers[FORMAT] = lambda results: write_back(report, results, national)
        if output and Path(output).suffix.lower() in SUFFIXES:
            default = FORMAT
    return ReadFiles(module, event, inputs, writers, default, warnings, (source, source, "history"), effective)


def _list_options(module: RatingSystem, options: Mapping[str, Any]) -> Any:
    """The system's options a rating list is read with (FIDE's: the period's list), from those given."""
    from xl_elo.federations.contract import options_of

    try:
        return options_of(module.Options, None, **options)
    except (ValueError, TypeError) as exc:
        raise InputError([Problem("options", None, None, str(exc))]) from None


def _no_national(module: RatingSystem, code: str) -> str:
    return (f"holds no {code} national-rating record (TRF-26: a line opened by {code}, the start rank in columns 5-8, "
            f"the rating in columns 49-52), and {module.CODE.upper()} rates from {code}'s list: the ratings of the "
            "001 lines are FIDE's, never taken for a national one; export the report with the national ratings")


def not_reported(module: RatingSystem) -> str:
    """What a system needs of every rated player that no report gives, as a message names it ('' when
    nothing): the facts it declares required for a rated player (``rated_needs``) that it neither reads
    from a report (``report``) nor counts as something when a report does not say (``unreported``)."""
    docs = [f.doc.removeprefix("the ") for f in facts(module.Player)
            if f.rated_needs and f.report is None and f.unreported is None]
    return " and ".join(docs)


def _short_name(module: RatingSystem) -> str:
    """A system's name without its parenthesis (``Glicko-2``, ``US Chess``)."""
    return str(module.NAME).split(" (")[0]


def _own_files(module: RatingSystem) -> str:
    own = module.OWN_FILES
    return f" from {own} or from CSV tables" if own else " from CSV tables"


def _reported(report: str | Callable[[Entrant], Any]) -> Callable[[Entrant], Any]:
    """How a fact is read from a report's player: a field of it by name, or a function of it."""
    if isinstance(report, str):
        return lambda e: getattr(e, report)
    return report


def _rated_or_not(rated: Any, unrated: Any) -> Callable[[Entrant], Any]:
    return lambda e: rated if e.rating is not None else unrated


def players_of(module: RatingSystem, entrants: Sequence[tuple[str, Entrant, int]], warnings: list[str], *,
               listed: bool = False, sources: Mapping[str, str] | None = None) -> list[Player]:
    """The players of a report as the system's ``Player``: each fact from the report where the system
    reads it there, else as the system says a report that does not give it counts (with its
    warning), or left for the rating list (``listed``). ``sources``: player id -> the report his
    line is in, for the warnings (each names the report and the line).

    A system that declares ``NATIONAL_RATINGS`` (a federation's code) rates from that federation's
    list: each player's rating and year of birth are those of his national record (the year of
    his 001 line where the record has none), and a player without one is unrated there."""
    declared = facts(module.Player)
    sources = sources or {}
    files_ = list(dict.fromkeys(sources.values()))
    said = f"{', '.join(files_)}: " if files_ else ""
    code = module.NATIONAL_RATINGS
    if code:
        without = [f"{_in(sources, pid, len(files_))}line {line} ({e.name or pid})" for pid, e, line in entrants
                   if e.national_rating(code) is None]
        entrants = [(pid, _national_view(e, code), line) for pid, e, line in entrants]
        if without:
            warnings.append(f"{said if len(files_) == 1 else ''}{len(without)} player(s) without a {code} "
                            f"national-rating record count as unrated for {module.CODE.upper()}: a report's own "
                            f"ratings are FIDE's, never taken as {module.CODE.upper()}'s: "
                            + ("; " if len(files_) > 1 else ", ").join(without[:10])
                            + (" ..." if len(without) > 10 else ""))
    rated = any(e.rating is not None for _, e, _ in entrants)
    values: dict[str, Callable[[Entrant], Any]] = {}
    for f in declared:
        if f.report is not None:
            values[f.name] = _reported(f.report)
        elif f.unreported is not None:
            value, note = f.unreported
            values[f.name] = _rated_or_not(None if listed else value, f.default)  # listed: the rating list says it
            if rated and note and not listed:
                warnings.append(said + note)
    return [module.Player(pid, e.name, e.rating, row=line, **{name: get(e) for name, get in values.items()})
            for pid, e, line in entrants]


def _in(sources: Mapping[str, str], pid: str, files_: int) -> str:
    """The report a player's line is in, as a list of lines from several reports names it."""
    return f"{sources[pid]}, " if files_ > 1 and pid in sources else ""


def _national_view(e: Entrant, code: str) -> Entrant:
    """A report's player as a national system sees him: his rating (and year of birth) on ``code``'s list."""
    from dataclasses import replace

    own = e.national_rating(code)
    if own is None:
        return replace(e, rating=None)
    return replace(e, rating=own.rating, birth_year=own.birth_year if own.birth_year is not None else e.birth_year)


def _capped(problems: list[Problem], names: list[str]) -> list[Problem]:
    """The problems by file, each file's own (reading stopped, no month) first, then by line; past
    :data:`MAX_PROBLEMS` in one file, one line says how many more."""
    return capped(problems, names, MAX_PROBLEMS, ": is it a TRF report (001 lines at FIDE's columns)?")


def _period(reports: list[TrfFile], module: RatingSystem, given: str | None, problems: list[Problem],
            warnings: list[str], season: bool = False) -> str | None:
    """The period of the reports: ``given``, else the month they end in; ``season``: they end in different
    months, a season of periods or events (rules 14), whose last month is the period's."""
    if given:
        try:
            return schema.period(given, what="--period")
        except schema.ValueProblem as exc:
            problems.append(Problem("--period", None, None, str(exc)))
            return None
    months: dict[str, list[str]] = {}
    missing = []
    for tf in reports:
        if tf.full:
            continue
        got = file_month(tf)
        if got.month is None:
            missing.append((tf.name, got))
            continue
        months.setdefault(got.month, []).append(f"{tf.name} ({got.source})")
        if got.note:
            warnings.append(f"{tf.name}: line {got.line}: {got.note} for the period {got.month}; give --period if "
                            "that is wrong")
    if len(months) > 1 and season:
        return max(months)
    if len(months) > 1:
        found = "; ".join(f"{m}: {', '.join(v)}" for m, v in sorted(months.items()))
        problems.append(Problem(", ".join(tf.name for tf in reports), None, None,
                                f"the reports end in different months ({found}): a rating period is one month; "
                                "rate them apart, or give --period YYYY-MM"))
        return None
    for name, got in missing:
        if module.NEEDS_PERIOD:
            problems.append(LineProblem(name, None, None, f"no month for the period: {got.source}; give --period "
                                                          f"YYYY-MM ({module.CODE.upper()} counts ages in its year)"))
        elif got.unread:
            warnings.append(f"{name}: {got.source}; the event is rated without a month ({module.CODE.upper()} needs "
                            "none)")
    if missing and module.NEEDS_PERIOD:
        return None
    return next(iter(months), None)


def _birth(tf: TrfFile, line: int, text: str, name: str, year: int | None, columns: str, warnings: list[str] | None,
           vega: list[str]) -> int | None:
    """A birth date's year, or None with a warning naming the file, the line and the columns (``warnings``
    None: the system counts no ages, so nothing is said)."""
    born, how = birth_year_of(text, year)
    why = ""
    if how == "unread":
        why = "is not a birth date xl-elo reads (YYYY/MM/DD, DD.MM.YYYY, YYYY, Vega's DDMMYY ...)"
    elif born is not None:
        if born < schema.FIRST_BIRTH_YEAR:
            why, born = f"is read as the year {born}, before {schema.FIRST_BIRTH_YEAR}", None
        elif year is not None and born > year:
            why, born = f"is read as the year {born}, after the period's year ({year})", None
        if born is not None and how == "DDMMYY":
            vega.append(f"line {line}: {text} -> {born}")
    if why and warnings is not None:
        who = f" ({name})" if name else ""
        warnings.append(f"{tf.name}, line {line}, {columns}: {schema.shown(text)} {why}: the player{who} is rated "
                        "as of unknown age (as an adult)")
    return born


def _players(reports: list[TrfFile], year: int | None, problems: list[Problem], warnings: list[str], *,
             several: bool, national: str | None = None, ages: bool = True, each_event: bool = False
             ) -> tuple[list[tuple[str, Entrant, int]], list[dict[int, str]]]:
    """The players of every report, one per FIDE id (a national system's: national id; id, what the
    report says of him, line); each report's start rank -> player id. ``each_event``: the system rates each
    report from its own ratings (FIDE 2.11), so a player may be rated differently in two reports."""
    players: list[tuple[str, Entrant, int]] = []
    where: dict[str, tuple[TrfFile, TrfPlayer, int | None]] = {}
    by_file: list[dict[int, str]] = []
    for tf in reports:
        ids: dict[int, str] = {}
        by_file.append(ids)
        vega: list[str] = []
        said = warnings if ages else None
        for p in sorted(tf.players.values(), key=lambda q: q.line):
            birth = _birth(tf, p.line, p.birth_text, p.name, year, _span("birth date"), said, vega)
            records = []
            for fed, lines in tf.national.items():
                rec = lines.get(p.rank)
                if rec is None:
                    continue
                nat_birth = (_birth(tf, rec.line, rec.birth_text, p.name, year, _span("birth date"), said, vega)
                             if rec.birth_text else None)
                records.append(NationalRating(fed, rec.rating, rec.national_id, nat_birth))
            own = next((r for r in records if r.federation == national), None) if national else None
            if own is not None and own.id:
                pid = own.id
            elif p.fide_id is not None:
                pid = p.fide_id
            else:
                pid = f"{tf.name}#{p.rank}" if several else f"#{p.rank}"
            ids[p.rank] = pid
            p.id = pid
            rating = p.rating
            if pid in where:
                other_file, other, other_birth = where[pid]
                at = f"line {other.line}" + (f" of {other_file.name}" if other_file is not tf else "")
                if other_file is tf:
                    problems.append(LineProblem(tf.name, p.line, _span("FIDE id"),
                                                f"the {'national' if own is not None and own.id else 'FIDE'} id "
                                                f"{pid} is also on {at}: one line per player"))
                elif national is None and other.rating != rating and not each_event:
                    problems.append(LineProblem(tf.name, p.line, _span("rating"),
                                                f"FIDE id {pid} is rated {_r(rating)} here but {_r(other.rating)} "
                                                f"on {at}: one player has one rating in a period (or give "
                                                "--rating-list)"))
                elif other_birth != birth and birth and other_birth:
                    problems.append(LineProblem(tf.name, p.line, _span("birth date"),
                                                f"FIDE id {pid} is born in {birth} here but in "
                                                f"{other_birth} on {at}"))
                continue
            where[pid] = (tf, p, birth)
            players.append((pid, Entrant(p.name, rating, p.fide_id, p.title, birth, tuple(records)), p.line))
        if vega and ages:
            warnings.append(f"{tf.name}: {len(vega)} birth date(s) written DDMMYY (as Vega writes them), the century "
                            f"read from the event's year {year}: " + ", ".join(vega[:5])
                            + (" ..." if len(vega) > 5 else ""))
    return players, by_file


def _r(rating: float | None) -> str:
    return "unrated" if rating is None else f"{rating:g}"


def _in_events(reports: list[TrfFile], games: list[Game], period: str | None) -> list[Game]:
    """Each report's games as its own event (named by its ``012`` name, else its file's), in its own period (the
    month ``period`` given, else the day it ended, ``052``, else its month): several reports hold a season, rated
    event after event or period after period by the system's cadence (rules 14)."""
    labels = [tf.title or tf.name for tf in reports]
    twice = {x for x in labels if labels.count(x) > 1}
    labels = [f"{x} ({tf.name})" if x in twice else x for x, tf in zip(labels, reports, strict=True)]
    days: list[str | None] = []
    for tf in reports:
        if period:
            days.append(period)
            continue
        end, _ = parse_date(tf.tag("052"), date_order(tf), round_dates(tf))
        days.append(end.isoformat() if end is not None else file_month(tf).month)
    ends, total = [], 0
    for tf in reports:  # a report's games come in order, its rounds after the previous report's
        total += max((b.round for p in tf.players.values() for b in p.blocks), default=0)
        ends.append(total)
    out = []
    for g in games:
        k = next((i for i, last in enumerate(ends) if (g.round or 0) <= last), len(ends) - 1)
        out.append(replace(g, event=labels[k], period=days[k]))
    return out


def start_date(tf: TrfFile) -> dt.date | None:
    """The day a report's event started: its ``042`` start date, else its first round's date (``132``)."""
    date, _ = parse_date(tf.tag("042"), date_order(tf), round_dates(tf))
    if date is not None:
        return date
    rounds = round_dates(tf)
    return min(rounds) if rounds else None


def _each_event(reports: list[TrfFile], by_file: list[dict[int, str]], games: list[Game], module: RatingSystem,
                own: list[Fact]) -> list[Game]:
    """The games of several reports with what each report says of its own two players (the system's facts of a
    game that a report gives: FIDE's ratings at the event's start, rules 2.11)."""
    lines: dict[tuple[int, str], TrfPlayer] = {}
    for k, (tf, ids) in enumerate(zip(reports, by_file, strict=True)):
        for p in tf.players.values():
            lines[(k, ids[p.rank])] = p
    out: list[Game] = []
    ends = []
    total = 0
    for tf in reports:  # a report's games come in order, its rounds after the previous report's
        total += max((b.round for p in tf.players.values() for b in p.blocks), default=0)
        ends.append(total)
    for g in games:
        k = next(i for i, last in enumerate(ends) if (g.round or 0) <= last)
        if g.opponent is None:
            out.append(as_game(module.Game, g))
            continue
        me, other = lines[(k, g.player)], lines[(k, g.opponent)]
        values = {f.name: f.report(me, other) for f in own if callable(f.report)}
        out.append(module.Game(g.player, g.opponent, g.result, g.round, g.rated, row=g.row, period=g.period,
                               event=g.event, **values))
    return out


def _rated_last(reports: list[TrfFile], by_file: list[dict[int, str]], entrants: list[tuple[str, Entrant, int]],
                warnings: list[str], first: bool = False) -> list[tuple[str, Entrant, int]]:
    """Each player's rating in the period when several reports rate each event from its own list (FIDE 2.11):
    the rating of the report that started last among those he played in (its 042 start date; in the order
    given where a report has none), the nearest to the list in force at the period's end; said in a warning
    where two reports disagree. ``first``: the reports make a season of several periods (rules 14), whose
    list at its start is the rating of the report that started first."""
    starts = [start_date(tf) for tf in reports]
    order = sorted(range(len(reports)), key=lambda k: (starts[k] is None, starts[k] or dt.date.min, k))
    if first:
        order.reverse()
    latest: dict[str, tuple[float | None, str]] = {}
    seen: dict[str, set[float | None]] = {}
    for k in order:
        tf, ids = reports[k], by_file[k]
        for p in tf.players.values():
            pid = ids[p.rank]
            latest[pid] = (p.rating, tf.name)
            seen.setdefault(pid, set()).add(p.rating)
    differ = [pid for pid, ratings in seen.items() if len(ratings) > 1]
    if differ and first:
        warnings.append(f"{len(differ)} player(s) are rated differently in the reports: each event is rated from its "
                        "own report's ratings, the list in force when it started (rules 2.11), and the season starts "
                        "from the rating of the report each played in that started first")
    elif differ:
        shown = ", ".join(f"{pid} ({_r(latest[pid][0])}, from {latest[pid][1]})" for pid in differ[:5])
        undated = [tf.name for tf, d in zip(reports, starts, strict=True) if d is None]
        warnings.append(f"{len(differ)} player(s) are rated differently in the reports: each event is rated from its "
                        f"own report's ratings, the list in force when it started (rules 2.11), and a player's "
                        f"rating for the period is that of the report he played in that started last: {shown}"
                        + (" ..." if len(differ) > 5 else "")
                        + (f"; {', '.join(undated)} give no start date (042), taken in the order given" if undated
                           else "")
                        + "; give --rating-list (the list in force in the period) where none of a player's events "
                          "started under it")
    return [(pid, replace(e, rating=latest[pid][0]), line) for pid, e, line in entrants]


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
                if len(problems) > 2 * MAX_PROBLEMS:
                    return games
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


def check_games(tf: TrfFile) -> tuple[list[Problem], list[str]]:
    """The problems of one report's pairings (two sides that disagree, a player paired with himself) and its
    warnings (pairings without a result), as :func:`read_trf_files` finds them."""
    problems: list[Problem] = []
    warnings: list[str] = []
    _games([tf], [{rank: str(rank) for rank in tf.players}], problems, warnings)
    return problems, warnings


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


def unrated_spelling(report: TrfFile) -> str:
    """How the report writes an unrated player in columns 49-52 (``0000``, ``   0``, blank); ``0000`` when
    it has none."""
    lines = report.text.lines
    for p in sorted(report.players.values(), key=lambda q: q.line):
        if p.rating is None:
            return lines[p.index].ljust(52)[48:52]
    return "0000"


def new_ratings(report: TrfFile, results: Results) -> dict[int, int | None]:
    """001 line index -> the rating to write (None: unrated now), for every player whose rating after is
    known, or who was rated and is not any more (FIDE's floor, rules 2.8)."""
    rows = {row["id"]: row for row in results.rows}
    out: dict[int, int | None] = {}
    for p in report.players.values():
        row = rows.get(p.id)
        if row is None or not p.id:
            continue
        after, before = row.get("rating_after"), row.get("rating_before")
        if after is not None:
            out[p.index] = round(float(after))
        elif before is not None:
            out[p.index] = None
    return out


def write_back(report: TrfFile, results: Results, national: str | None = None) -> bytes:
    """The report as read, each player's rating (columns 49-52) replaced by his rating after the
    period (a player rated before and not after, written as the report writes an unrated one);
    every other byte as it was (line ends, trailing spaces, unknown lines, encoding).

    For a national system (``national``, a federation's code) the ratings go in that federation's
    records (TRF-26), each updated in place, the 001 lines keeping FIDE's; a player newly rated on it
    gets a record where the report keeps them (:func:`_new_record_at`)."""
    lines = list(report.text.lines)
    ends = list(report.text.ends)
    unrated = unrated_spelling(report)
    ratings = new_ratings(report, results)
    if national is None:
        for index, rating in ratings.items():
            lines[index] = set_rating(lines[index], rating, unrated)
        return report.text.encode(lines)
    records = report.national.get(national, {})
    inserts: list[tuple[int, int, str]] = []
    for p in report.players.values():
        if p.index not in ratings:
            continue
        rating = ratings[p.index]
        rec = records.get(p.rank)
        if rec is not None:
            lines[rec.index] = set_rating(lines[rec.index], rating, unrated)
        elif rating is not None:
            inserts.append((_new_record_at(report, national, p), p.rank,
                            set_rating(f"{national} {p.rank:>4}", rating, unrated)))
    for at, _, text in sorted(inserts, reverse=True):  # from the end, so the places found stay right
        before = at - 1
        end = ends[before] or next((e for e in ends if e), "\n")
        if not ends[before]:  # the last line had no end: it gets one before the new record
            ends[before] = end
            end = ""
        lines.insert(at, text)
        ends.insert(at, end)
    return Text(lines, ends, report.text.encoding, report.text.bom).encode()


def _new_record_at(report: TrfFile, national: str, p: TrfPlayer) -> int:
    """Where a new national-rating record of ``p`` goes (the index of the line it goes before), as the
    report keeps its records: each after its player's 001 line (and his other national records), or
    together in the order of the players' lines, where it goes after the record of the player whose
    line is the nearest before his (before the first record when there is none)."""
    own = report.national.get(national, {})
    nationals = {rec.index: rec.rank for recs in report.national.values() for rec in recs.values()}

    def after_line(rank: int) -> int:
        """The index after a player's 001 line and the national records that follow it."""
        i = report.players[rank].index + 1
        while nationals.get(i) == rank:
            i += 1
        return i

    beside = all(report.players[r].index < rec.index < after_line(r) for r, rec in own.items())
    if beside:
        return after_line(p.rank)
    by_line = sorted(own.values(), key=lambda rec: report.players[rec.rank].index)
    earlier = [rec for rec in by_line if report.players[rec.rank].index < p.index]
    if earlier:
        return max(rec.index for rec in earlier) + 1
    return min(rec.index for rec in by_line)


def set_rating(line: str, rating: int | None, unrated: str = "0000") -> str:
    """``line`` with ``rating`` right-aligned in columns 49-52 (``unrated`` for None; a short line
    padded to reach them)."""
    a, b = COLUMNS["rating"]
    old = line[a - 1:b]
    if rating is None:
        if not old.strip().strip("0"):
            return line  # unrated already: not one byte changed
        return line.ljust(b)[:a - 1] + unrated + line[b:]
    field_ = f"{rating:>4}"
    if old.strip() and old.strip().lstrip("0") == str(rating):
        return line  # the same number: not one byte changed
    return line.ljust(b)[:a - 1] + field_ + line[b:]

"""The files of FESA's own rating program (rules 6, 8): the tournament in, the rating list in and out.

FESA's rating officer keeps, per tournament, the files its program reads and writes; xl-elo
reads the same files and writes the new list in the same format, so nothing is typed again::

    xl-elo rate -f fesa turnering.txt --rating-list ratingliste.pre --output ratingliste.post

- ``turnering.txt``, the tournament: a line ``[name]``, a line ``[YYYY-MM-DD]``, then one line
  per player, numbered from 1: ``N [last name] [first name] [r1 r2 ...]``. A round is the
  opponent's number and the result, ``+`` win, ``-`` loss, ``=`` draw (sennichite); opponent
  ``0`` is a bye. A handicap follows a result as ``(+ B)`` for the player who receives it and
  ``(- B)`` for the one who gives it (``S`` or ``M`` sente, ``L B R RL 2p 4p 5p 6p``). Lines
  starting with ``;`` are comments; text between the names and the results, and a Mac Mahon
  ``[n]`` after them, are not used for ratings. Players are taken in the order of the lines.
- the rating list (``ratingliste.pre`` before, ``ratingliste.post`` after): one Lisp structure
  ``#S(PLAYER ...)`` per player (name, nationalities, FESA grade, NSR grade, rating, games,
  last tournament, promotion runs, bonus counter) inside one list. ``:GAMES`` is the number
  of games, or for a player in performance mode (rules 6.3) his game-by-game history,
  ``(opponent-rating result 1)`` per game.
- ``nye-spillere``, the new players (optional, read from beside the tournament file as the
  program does): ``("last" "first" (nationalities) nsr-level "Kyu"|"Dan"|"Pro" 0 0 nil)`` per
  player, inside one list. Two forms may follow it, as in the program:
  ``(special-promotion "last" "first" level "Dan")`` and ``(delay-promotion ...)``, which set a
  player's NSR grade in the list written; any other form is refused (xl-elo runs no Lisp).

A player's id is his last name, then his first name after a space (``Ishikawa Musashi``), the
id of the CSV tables of ``tests/data/fesa``. Players are found in the list by their two names
exactly, as the program finds them.

The list written is the program's own: every player of the list before (and every new one),
the tournament's players updated (rating, games or history, bonus counter, FESA grade and
runs, the date of their last tournament, on the nationality of the tournament's list, ``E``
or ``A``), sorted by rating, highest first, ties in the order before (new players first),
printed as the program prints (``#S(PLAYER :LAST-NAME "..." ...)``, one per line, in
ISO-8859-1). A performance-mode player's history is written in the program's order, which is
the engine's (rules 6.5): his earlier games last first, then this tournament's games. Where
the rules and the program part
(a new player without an NSR grade and without a rated game stays unrated, rules 6.8; the
program would list him at 1) the list keeps him as a new player (rating 0, no games).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xl_elo import limits, schema
from xl_elo.federations.fesa import Game as FesaGame
from xl_elo.federations.fesa import Player as FesaPlayer
from xl_elo.federations.fesa import grades
from xl_elo.formats import files
from xl_elo.formats.text import LineProblem, ReadFiles, decode_text, peek
from xl_elo.model import Event, Game, HistoryGame, InputError, Player, Problem, Results

if TYPE_CHECKING:
    from xl_elo.federations.contract import RatingSystem

#: The system that rates these files (their own federation's), and the format of the list written back.
SYSTEM = "fesa"
FORMAT = SYSTEM
FORMAT_HELP = "FESA's rating list, from FESA's own files"
KIND = "FESA's tournament file (turnering.txt) with its rating list"
ENCODING = "latin-1"
#: The names FESA's program gives its rating lists (``ratingliste.pre`` before, ``ratingliste.post`` after).
SUFFIXES = (".pre", ".post")
#: The program's handicap codes -> the data contract's (``M`` is the program's other name for sente).
HANDICAPS = {"S": "S", "M": "S", "L": "L", "B": "B", "R": "R", "RL": "RL", "2P": "2p", "4P": "4p", "5P": "5p",
             "6P": "6p"}
PLAYER_SLOTS = ("LAST-NAME", "FIRST-NAME", "NATIONALITY-LIST", "GRADE-LEVEL", "GRADE-NAME", "NSR-GRADE-LEVEL",
                "NSR-GRADE-NAME", "ELO-NUMBER", "GAMES", "LAST-PLAYED", "LB-COUNT", "MP-COUNT", "BONUS-COUNT")
PLAYER_DEFAULTS = {"LAST-NAME": "", "FIRST-NAME": "", "GRADE-LEVEL": 0, "GRADE-NAME": "", "NSR-GRADE-LEVEL": 0,
                   "NSR-GRADE-NAME": "", "BONUS-COUNT": 0}
HOME_SLOTS = ("LIST", "NATIONALITY", "RESIDENS", "LAST")
STRUCT_SLOTS = {"PLAYER": PLAYER_SLOTS, "HOME": HOME_SLOTS}
NEW_PLAYERS = "nye-spillere"


# --------------------------------------------------------------------------- Lisp data


class Symbol(str):
    """A Lisp symbol, in upper case as the reader makes it (keywords keep their ``:``)."""


@dataclass(frozen=True)
class Char:
    """A Lisp character ``#\\E``."""

    char: str


@dataclass
class Struct:
    """``#S(TYPE :SLOT value ...)``, slots in the order read."""

    type: str
    slots: dict[str, Any] = field(default_factory=dict)
    line: int | None = None

    def get(self, key: str, default: Any = None) -> Any:
        return self.slots.get(key, default)


class LispError(ValueError):
    """Text that is not the Lisp data the program writes; ``line`` says where."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


_DELIMITERS = set(" \t\r\n\f()\";")
_BLANKS = re.compile(r"[ \t\r\f]+")
_ATOM = re.compile(r"[^ \t\r\n\f()\";]*")
#: Longest number read (digits): a rating, a count or a date is far shorter; a longer one is refused by its
#: length, never converted (Python refuses to convert numbers of more than 4,300 digits).
MAX_DIGITS = 18
_NUMBER = re.compile(r"^[+-]?\d+$")
_RATIO = re.compile(r"^([+-]?\d+)/(\d+)$")
_FLOAT = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|\d+)([eEsSfFdDlL][+-]?\d+)?$")
_CHAR_NAMES = {"SPACE": " ", "NEWLINE": "\n", "TAB": "\t", "RETURN": "\r", "LINEFEED": "\n", "PAGE": "\f"}


def read_forms(text: str) -> list[tuple[Any, int]]:
    """The top-level forms of ``text`` with the line each starts on (:class:`LispError` if malformed).

    Lists, ``#S(...)`` structures, strings, characters ``#\\x``, integers, ratios ``1/2``,
    floats, symbols (upper-cased, ``NIL`` is None, ``T`` is True) and ``;`` comments.
    """
    forms: list[tuple[Any, int]] = []
    stack: list[tuple[list[Any], bool, int]] = []  # (items, is_struct, line)
    i, n, line = 0, len(text), 1

    def emit(value: Any, at: int) -> None:
        if stack:
            stack[-1][0].append(value)
        else:
            forms.append((value, at))

    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c in " \t\r\f":
            i = _BLANKS.match(text, i).end()  # type: ignore[union-attr]
        elif c == ";":
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c == "(":
            if len(stack) > 100:
                raise LispError("lists nested more than 100 deep", line)
            stack.append(([], False, line))
            i += 1
        elif c == ")":
            if not stack:
                raise LispError("a ')' closes nothing", line)
            items, is_struct, at = stack.pop()
            emit(_struct(items, at) if is_struct else items, at)
            i += 1
        elif c == '"':
            start_line = line
            j = text.find('"', i + 1)
            if j >= 0 and text.find("\\", i + 1, j) < 0:  # the usual string: no escape inside, taken whole
                piece = text[i + 1:j]
                line += piece.count("\n")
                emit(piece, start_line)
                i = j + 1
                continue
            j, out = i + 1, []
            while j < n and text[j] != '"':
                if text[j] == "\\" and j + 1 < n:
                    j += 1
                if text[j] == "\n":
                    line += 1
                out.append(text[j])
                j += 1
            if j >= n:
                raise LispError("a string opened here is never closed (a '\"' is missing)", start_line)
            emit("".join(out), start_line)
            i = j + 1
        elif c == "#":
            nxt = text[i + 1:i + 2]
            if nxt.upper() == "S" and text[i + 2:i + 3] == "(":
                stack.append(([], True, line))
                i += 3
            elif nxt == "\\":
                j = i + 3
                while j < n and text[j] not in _DELIMITERS:
                    j += 1
                name = text[i + 2:j]
                if not name:
                    raise LispError("'#\\' ends the text", line)
                if len(name) > 1 and name.upper() not in _CHAR_NAMES:
                    raise LispError(f"#\\{name} is not a character", line)
                emit(Char(_CHAR_NAMES.get(name.upper(), name)), line)
                i = j
            else:
                raise LispError(f"{schema.shown(text[i:i + 10])} is not data the rating program writes", line)
        else:
            j = _ATOM.match(text, i).end()  # type: ignore[union-attr]
            emit(_atom(text[i:j], line), line)
            i = j
    if stack:
        raise LispError("a '(' opened here is never closed (a ')' is missing)", stack[-1][2])
    return forms


def _atom(token: str, line: int) -> Any:
    if _NUMBER.match(token):
        _short(token, line)
        return int(token)
    m = _RATIO.match(token)
    if m:
        _short(m.group(1), line)
        _short(m.group(2), line)
        if int(m.group(2)) == 0:
            raise LispError(f"{token} divides by zero", line)
        return Fraction(int(m.group(1)), int(m.group(2)))
    if _FLOAT.match(token) and any(ch in token for ch in ".eEsSfFdDlL"):
        return float(re.sub(r"[sSfFdDlL]", "e", token))
    if token.startswith(("'", "`", ",")):
        raise LispError(f"{schema.shown(token)}: quoted forms are not data the rating program writes", line)
    key = token.upper()
    if key == "NIL":
        return None
    if key == "T":
        return True
    return Symbol(key)


def _short(digits: str, line: int) -> None:
    """A number's digits, refused by their length before any conversion (:data:`MAX_DIGITS`)."""
    count = len(digits.lstrip("+-"))
    if count > MAX_DIGITS:
        raise LispError(f"{schema.shown(digits, 30)} is a number of {count:,} digits (at most {MAX_DIGITS} are "
                        "read: a rating, a count of games)", line)


def _struct(items: list[Any], line: int) -> Struct:
    if not items or not isinstance(items[0], Symbol):
        raise LispError("#S( must be followed by a structure name", line)
    s = Struct(str(items[0]), {}, line)
    rest = items[1:]
    if len(rest) % 2:
        raise LispError(f"#S({items[0]} ...) has a slot name without a value", line)
    for k, v in zip(rest[::2], rest[1::2], strict=True):
        if not isinstance(k, Symbol) or not k.startswith(":"):
            raise LispError(f"#S({items[0]} ...): {k!r} is not a slot name (:NAME)", line)
        s.slots[k[1:]] = v
    return s


def write_form(value: Any) -> str:
    """``value`` as the program prints it (Common Lisp ``~s``, no pretty printing)."""
    if value is None:
        return "NIL"
    if value is True:
        return "T"
    if isinstance(value, Symbol):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, bool):  # pragma: no cover - False is never data here
        return "NIL"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Char):
        names = {v: k.capitalize() for k, v in _CHAR_NAMES.items() if k in ("SPACE", "NEWLINE", "TAB", "RETURN")}
        return "#\\" + names.get(value.char, value.char)
    if isinstance(value, Struct):
        order = STRUCT_SLOTS.get(value.type, ())
        keys = [k for k in order] + [k for k in value.slots if k not in order]
        defaults = PLAYER_DEFAULTS if value.type == "PLAYER" else {}
        parts = [f":{k} {write_form(value.slots.get(k, defaults.get(k)))}" for k in keys]
        return f"#S({value.type} {' '.join(parts)})" if parts else f"#S({value.type})"
    if isinstance(value, list):
        return "NIL" if not value else "(" + " ".join(write_form(v) for v in value) + ")"
    raise TypeError(f"cannot print {value!r}")  # pragma: no cover


# --------------------------------------------------------------------------- the files


@dataclass
class Entry:
    """A tournament line of turnering.txt."""

    number: int
    line: int
    last: str
    first: str
    rounds: list[tuple[int, str, str | None, str | None, int]]
    """(opponent number, result ``+ - =``, handicap side ``+ -`` or None, handicap code, column)."""
    bad: bool = False
    """The line could not be read (its problems are reported): it keeps its number, nothing else."""

    @property
    def id(self) -> str:
        return player_id(self.last, self.first)


def player_id(last: str, first: str) -> str:
    """The id of rules 8 for a player of FESA's files: last name, a space, first name."""
    return f"{last} {first}" if first else last


@dataclass
class Tournament:
    name: str
    date: str
    entries: list[Entry]
    source: str


def recognises(paths: Sequence[Path]) -> bool:
    """True when one file is FESA's tournament file (its first line ``[name]``) and the others its lists."""
    kinds = [_kind(p) for p in paths]
    return kinds.count("tournament") == 1 and all(k in ("tournament", "list", "new") for k in kinds)


def _kind(path: Path) -> str | None:
    if path.name.lower().startswith("turnering"):
        return "tournament"
    if path.name.lower().startswith("ratingliste"):
        return "list"
    head = peek(path, 4096)
    text = "\n".join(ln for ln in head.splitlines() if not ln.lstrip().startswith(";")).lstrip()
    if text.startswith("[") and not re.match(r'\[\w+\s+"[^"\n]*"\s*\]', text):  # [Event "..."]: a PGN game's tag
        return "tournament"
    squeezed = re.sub(r"\s+", "", text[:200]).upper()
    if squeezed.startswith("(#S(PLAYER"):
        return "list"
    if squeezed.startswith('(("') or path.name == NEW_PLAYERS:
        return "new"
    return None


def parse_tournament(text: str, source: str, problems: list[Problem], warnings: list[str] | None = None
                     ) -> Tournament | None:
    """turnering.txt as the program reads it; every bad line reported."""
    lines = text.splitlines()
    items: list[tuple[str, int]] = []
    body_start = len(lines)
    for i, ln in enumerate(lines):
        m = re.search(r"\[([^\]]*)\]", ln)
        if m:
            items.append((m.group(1), i + 1))
            if len(items) == 2:
                body_start = i + 1
                break
    if len(items) < 2:
        problems.append(LineProblem(source, None, None, "expected the tournament's name and date first, each in "
                                                        "brackets: [name] then [YYYY-MM-DD]"))
        return None
    name, date_text = items[0][0].strip(), items[1][0].strip()
    date = None
    try:
        date = schema.period(date_text, what="the tournament's date (YYYY-MM-DD)")
    except schema.ValueProblem as exc:
        problems.append(LineProblem(source, items[1][1], None, str(exc)))
    if date is not None and len(date) != 10:
        problems.append(LineProblem(source, items[1][1], None, f"{date_text!r} is a month: give the tournament's "
                                                               "day as YYYY-MM-DD"))
    entries: list[Entry] = []
    started = ended = False
    for i in range(body_start, len(lines)):
        ln = lines[i]
        number = i + 1
        if len(ln) > limits.LINE_CHARS.value:
            problems.append(LineProblem(source, number, None, limits.LINE_CHARS.message(
                f"the line is {len(ln):,} characters long")))
            continue
        if not ln.strip() or ln.startswith(";"):
            continue
        m = re.match(r"\s*(\d+)", ln)
        lead = (m.group(1).lstrip("0") or "0") if m else None  # compared as text: a number of any length
        if not any(ch in ln for ch in "+-=&"):
            if started:
                ended = True
            continue
        if ended:
            problems.append(LineProblem(source, number, None, "a player line after the table had ended (a line "
                                                              "without results ends it): remove the line between"))
            continue
        if not started and lead != "1":
            continue  # before the table, as the program skips it
        started = True
        entry = _entry(ln, number, len(entries) + 1, source, problems, warnings if warnings is not None else [])
        entries.append(entry if entry is not None else Entry(len(entries) + 1, number, "", "", [], bad=True))
    if not started:
        problems.append(LineProblem(source, None, None, "holds no player line ('1 [last name] [first name] "
                                                        "[2+ 3- ...]')"))
    return Tournament(name, date or "", entries, source)


def _entry(ln: str, number: int, seq: int, source: str, problems: list[Problem], warnings: list[str]
           ) -> Entry | None:
    spans = [(m.start(), m.end(), m.group(1)) for m in re.finditer(r"\[([^\[\]]*)\]", ln)]
    if len(spans) < 3 or "[" in re.sub(r"\[[^\[\]]*\]", "", ln) or "]" in re.sub(r"\[[^\[\]]*\]", "", ln):
        problems.append(LineProblem(source, number, None, f"{schema.shown(ln, 60)} is not a player line "
                                                          "'N [last name] [first name] [results]'"))
        return None
    m = re.match(r"\s*(\d+)", ln)
    if m and (m.group(1).lstrip("0") or "0") != str(seq):
        warnings.append(f"{source}, line {number}: numbered {m.group(1)}, read as player {seq} (opponents are "
                        "numbered by the lines' order, as FESA's program reads them)")
    last, first, results = spans[0][2], spans[1][2], spans[2][2]
    offset = spans[2][0] + 2
    if results.strip() == "&":
        problems.append(LineProblem(source, number, "results", "a simultaneous display (&) is not rated by xl-elo"))
        return None
    rounds = []
    pos = 0
    token = re.compile(r"\s*(\d+)\s*([^\s(])\s*(?:\(\s*([^\s)])\s*([^)]*)\))?")
    while results[pos:].strip():
        t = token.match(results, pos)
        col = offset + pos + (len(results[pos:]) - len(results[pos:].lstrip()))
        if t is None:
            problems.append(LineProblem(source, number, f"column {col}", f"{schema.shown(results[pos:].strip(), 30)}"
                                                                         " is not a round: expected the opponent's "
                                                                         "number and + - or = (e.g. 12+)"))
            return None
        if len(t.group(1)) > MAX_DIGITS:
            problems.append(LineProblem(source, number, f"column {col}", f"{schema.shown(t.group(1), 30)} is a number "
                                                                         f"of {len(t.group(1)):,} digits, not a "
                                                                         "player's number"))
            return None
        opp, res, side, code = int(t.group(1)), t.group(2), t.group(3), t.group(4)
        if res not in "+-=":
            problems.append(LineProblem(source, number, f"column {col}", f"{t.group().strip()!r}: the result "
                                                                         f"{res!r} is not + (win), - (loss) or = "
                                                                         "(draw)"))
            return None
        hcode = None
        if side is not None:
            hcode = HANDICAPS.get((code or "").strip().upper())
            if side not in "+-" or hcode is None:
                problems.append(LineProblem(source, number, f"column {col}",
                                            f"{t.group().strip()!r}: a handicap is (+ code) for the receiver or "
                                            f"(- code) for the giver, code one of S L B R RL 2p 4p 5p 6p"))
                return None
        rounds.append((opp, res, side, hcode, col))
        pos = t.end()
    return Entry(seq, number, last, first, rounds)


def parse_list(text: str, source: str, problems: list[Problem]) -> list[Struct] | None:
    """A rating list: one list of ``#S(PLAYER ...)``."""
    try:
        forms = read_forms(text)
    except LispError as exc:
        problems.append(LineProblem(source, exc.line, None, f"is not a rating list of FESA's program: {exc}"))
        return None
    if len(forms) != 1 or (not isinstance(forms[0][0], list) and forms[0][0] is not None):
        problems.append(LineProblem(source, forms[1][1] if len(forms) > 1 else None, None,
                                    "a rating list is one list '( #S(PLAYER ...) ... )' and nothing after it"))
        return None
    players = forms[0][0] or []
    out = []
    for p in players:
        if not isinstance(p, Struct) or p.type != "PLAYER":
            problems.append(LineProblem(source, getattr(p, "line", None), None,
                                        f"{schema.shown(write_form(p), 50)} is not a #S(PLAYER ...)"))
            continue
        out.append(p)
    return out


def parse_new_players(text: str, source: str, problems: list[Problem]
                      ) -> tuple[list[Struct], list[tuple[str, str, str, int, str, int]]]:
    """nye-spillere: the new players as PLAYER structures, and the grade changes that follow them."""
    try:
        forms = read_forms(text)
    except LispError as exc:
        problems.append(LineProblem(source, exc.line, None, f"is not the new players' file of FESA's program: {exc}"))
        return [], []
    if not forms:
        return [], []
    players: list[Struct] = []
    first, at = forms[0]
    for item in first or []:
        if not isinstance(item, list) or len(item) < 5 or not all(isinstance(x, str) for x in item[:2]):
            problems.append(LineProblem(source, at, None, f"{schema.shown(write_form(item), 60)} is not a new player "
                                                          "(\"last\" \"first\" (nationalities) level \"Kyu\" 0 0 nil)"))
            continue
        values = list(item) + [None] * (10 - len(item))
        slots = {"LAST-NAME": values[0], "FIRST-NAME": values[1], "NATIONALITY-LIST": values[2],
                 "GRADE-LEVEL": 0, "GRADE-NAME": "", "NSR-GRADE-LEVEL": values[3], "NSR-GRADE-NAME": values[4],
                 "ELO-NUMBER": values[5], "GAMES": values[6], "LAST-PLAYED": values[7], "LB-COUNT": values[8],
                 "MP-COUNT": values[9], "BONUS-COUNT": 0}
        players.append(Struct("PLAYER", slots, at))
    promotions = []
    for form, line in forms[1:]:
        if (isinstance(form, list) and len(form) == 5 and isinstance(form[0], Symbol)
                and form[0] in ("SPECIAL-PROMOTION", "DELAY-PROMOTION") and isinstance(form[1], str)
                and isinstance(form[2], str) and isinstance(form[3], int) and isinstance(form[4], str)):
            promotions.append((str(form[0]), form[1], form[2], form[3], form[4], line))
        else:
            problems.append(LineProblem(source, line, None, f"{schema.shown(write_form(form), 60)}: xl-elo reads only "
                                                            "(special-promotion \"last\" \"first\" level \"Dan\") and "
                                                            "(delay-promotion ...) after the new players"))
    return players, promotions  # type: ignore[return-value]


# --------------------------------------------------------------------------- PLAYER <-> the tables


def _grade(level: Any, name: Any, *, allow_pro: bool = False) -> str | None:
    if level in (0, None) and name in ("", None):
        return None
    if not isinstance(level, int) or not isinstance(name, str):
        raise schema.ValueProblem(f"{level!r} {name!r} is not a grade (a level and \"Kyu\", \"Dan\" or \"Pro\")")
    if name.lower() == "pro":
        return grades.grade(f"pro {level} dan", allow_pro=allow_pro)
    return grades.grade(f"{level} {name}", allow_pro=allow_pro)


def _unparse_grade(grade: str | None) -> tuple[int, str]:
    if not grade:
        return 0, ""
    words = grade.split()
    if words[0] == "pro":
        return int(words[1]), "Pro"
    return int(words[0]), words[1].capitalize()


def _result(value: Any) -> float:
    if isinstance(value, Fraction):
        value = float(value)
    return schema.played_result(value)


def player_of(s: Struct, source: str, problems: list[Problem]) -> tuple[FesaPlayer, list[HistoryGame]]:
    """A PLAYER of the list as the players (and history) rows of rules 8."""
    pid = player_id(s.get("LAST-NAME", ""), s.get("FIRST-NAME", ""))
    before = len(problems)

    def check(field: str, parse: Any, value: Any) -> Any:
        try:
            return parse(value)
        except (schema.ValueProblem, ValueError, TypeError) as exc:
            problems.append(LineProblem(source, s.line, f":{field}", f"{pid}: {exc}"))
            return None

    games_value = s.get("GAMES")
    history: list[HistoryGame] = []
    if isinstance(games_value, list):
        for g in games_value:
            if not (isinstance(g, list) and len(g) == 3 and isinstance(g[0], (int, float, Fraction))):
                problems.append(LineProblem(source, s.line, ":GAMES", f"{pid}: {write_form(g)} is not a game "
                                                                      "(opponent-rating result 1)"))
                continue
            if g[2] != 1:
                problems.append(LineProblem(source, s.line, ":GAMES", f"{pid}: the game {write_form(g)} has the "
                                                                      f"weight {write_form(g[2])}; xl-elo rates "
                                                                      "weight 1 only"))
                continue
            opp = check("GAMES", lambda v: schema.counted_rating(v), g[0])
            res = check("GAMES", _result, g[1])
            if opp is not None and res is not None:
                history.append(HistoryGame(pid, opp, res, row=s.line))
        games = len(games_value)
    else:
        games = check("GAMES", lambda v: schema.whole(v or 0, 0, schema.MAX_GAMES), games_value) or 0
    rating = None
    if games:
        rating = check("ELO-NUMBER", lambda v: schema.rating(v), s.get("ELO-NUMBER"))
    bonus = check("BONUS-COUNT", lambda v: schema.whole(v or 0, 0, schema.MAX_BONUS_COUNT), s.get("BONUS-COUNT"))
    grade = check("GRADE-LEVEL", lambda v: _grade(*v), (s.get("GRADE-LEVEL"), s.get("GRADE-NAME")))
    nsr = check("NSR-GRADE-LEVEL", lambda v: _grade(*v, allow_pro=True),
                (s.get("NSR-GRADE-LEVEL"), s.get("NSR-GRADE-NAME")))
    lb, mp = s.get("LB-COUNT"), s.get("MP-COUNT")
    lb_run = mp_run = 0
    reached = False
    if lb is not None:
        if isinstance(lb, list) and len(lb) == 3 and lb[0] == ":LB" and isinstance(lb[1], int):
            lb_run, reached = check("LB-COUNT", lambda v: schema.whole(v, 0, schema.MAX_RUN), lb[1]) or 0, bool(lb[2])
        else:
            problems.append(LineProblem(source, s.line, ":LB-COUNT", f"{pid}: {write_form(lb)} is not (:LB n T|NIL)"))
    if mp is not None:
        if isinstance(mp, list) and len(mp) == 2 and mp[0] == ":MP" and isinstance(mp[1], int):
            mp_run = check("MP-COUNT", lambda v: schema.whole(v, 0, schema.MAX_RUN), mp[1]) or 0
        else:
            problems.append(LineProblem(source, s.line, ":MP-COUNT", f"{pid}: {write_form(mp)} is not (:MP n)"))
    if len(problems) > before:
        return FesaPlayer(pid, pid, row=s.line), []
    return FesaPlayer(pid, pid, rating=rating, games=games, bonus_count=bonus or 0, grade=grade, nsr_grade=nsr,
                      lb_run=lb_run, mp_run=mp_run, mp_reached=reached, row=s.line), history


# --------------------------------------------------------------------------- reading


@dataclass
class FesaFiles:
    """What was read: the tournament, the list (new players first, as the program holds it)."""

    tournament: Tournament
    table: list[Struct]
    matched: dict[str, Struct]
    prior_history: dict[str, int]
    promotions: list[tuple[str, str, str, int, str, int]]


def read_fesa_files(paths: Sequence[Path], module: RatingSystem, *, rating_list: str | Path | None = None,
                    output: str | Path | None = None) -> ReadFiles:
    """The tournament of turnering.txt with its players' records from the rating list (and new players);
    ``output``: where the results go (FESA's list is the default but for a CSV, JSON, workbook or text name)."""
    if module.CODE != SYSTEM:
        raise InputError([Problem(", ".join(p.name for p in paths), None, None,
                                  f"FESA's tournament file is rated by FESA's rules: use -f fesa, not "
                                  f"{module.CODE.upper()}")])
    problems: list[Problem] = []
    kinds = {p: _kind(p) for p in paths}
    tour_path = next((p for p, k in kinds.items() if k == "tournament"), None) or \
        next((p for p, k in kinds.items() if k is None), paths[0])
    lists = [p for p, k in kinds.items() if k == "list"]
    news = [p for p, k in kinds.items() if k == "new"]
    if rating_list:
        lists.append(Path(rating_list))
    if not news and (tour_path.parent / NEW_PLAYERS).is_file():
        news.append(tour_path.parent / NEW_PLAYERS)
    if len(lists) != 1:
        what = "no rating list" if not lists else f"{len(lists)} rating lists ({', '.join(p.name for p in lists)})"
        raise InputError([Problem(tour_path.name, None, None, f"{what}: give FESA's rating list before the tournament "
                                                              "once, as --rating-list ratingliste.pre")])
    if len(news) > 1:
        raise InputError([Problem(", ".join(p.name for p in news), None, None, "give one new players' file")])

    def text_of(p: Path) -> str | None:
        try:
            size = files.input_path(p).stat().st_size
            if size > limits.FESA_BYTES.value:  # refused before it is read: FESA's whole list is far smaller
                problems.append(LineProblem(p.name, None, None, limits.FESA_BYTES.message(f"is {size:,} bytes long")))
                return None
            data = files.read_bytes(p)
            return "\n".join(decode_text(data, p.name, encodings=(ENCODING,)).lines)
        except InputError as exc:
            problems.extend(exc.problems)
            return None

    tour_text = text_of(tour_path)
    warnings: list[str] = []
    tour = parse_tournament(tour_text, tour_path.name, problems, warnings) if tour_text is not None else None
    list_text = text_of(lists[0])
    parsed = parse_list(list_text, lists[0].name, problems) if list_text is not None else None
    new_players: list[Struct] = []
    promotions: list[Any] = []
    if news:
        new_text = text_of(news[0])
        if new_text is not None:
            new_players, promotions = parse_new_players(new_text, news[0].name, problems)
    if tour is None or parsed is None:  # without the list, every player would be named as missing from it
        raise InputError(kept(problems))
    table = new_players + parsed
    event, matched, prior = _event(tour, table, lists[0].name, news[0].name if news else NEW_PLAYERS, problems)
    for kind, last, first, _, _, line in promotions:
        if not any(s.get("LAST-NAME") == last and s.get("FIRST-NAME") == first for s in table):
            problems.append(LineProblem(news[0].name, line, None, f"{kind.lower()}: {player_id(last, first)!r} is "
                                                                  "not in the rating list"))
    if problems:
        raise InputError(kept(problems))
    read = FesaFiles(tour, table, matched, prior, promotions)
    inputs = list(dict.fromkeys(str(p) for p in [*paths, *lists, *news]))
    default = None
    if output and Path(output).suffix.lower() not in (".csv", ".json", ".xlsx", ".txt"):
        default = FORMAT
    return ReadFiles(module, event, inputs, {FORMAT: lambda results: write_list(read, results)}, default, warnings,
                     (lists[0].name, tour_path.name, lists[0].name))


def kept(problems: Sequence[Problem]) -> list[Problem]:
    """The first :data:`xl_elo.formats.reader.MAX_PROBLEMS` problems of each file, and a line for the others."""
    from xl_elo.formats.reader import MAX_PROBLEMS, more_problems

    count: dict[str, int] = {}
    out: list[Problem] = []
    for q in problems:
        count[q.source] = count.get(q.source, 0) + 1
        if count[q.source] <= MAX_PROBLEMS:
            out.append(q)
    out += [more_problems(source, n - MAX_PROBLEMS) for source, n in count.items() if n > MAX_PROBLEMS]
    return out


def _event(tour: Tournament, table: list[Struct], list_name: str, new_name: str, problems: list[Problem]
           ) -> tuple[Event, dict[str, Struct], dict[str, int]]:
    by_name: dict[tuple[str, str], Struct] = {}
    for s in table:
        by_name.setdefault((s.get("LAST-NAME"), s.get("FIRST-NAME")), s)
    players: list[Player] = []
    history: list[HistoryGame] = []
    matched: dict[str, Struct] = {}
    prior: dict[str, int] = {}
    seen: dict[str, int] = {}
    src = tour.source
    for e in tour.entries:
        if e.bad:
            continue
        if e.id in seen:
            problems.append(LineProblem(src, e.line, None, f"{e.id!r} is also on line {seen[e.id]}: one line per "
                                                           "player"))
            continue
        seen[e.id] = e.line
        found = by_name.get((e.last, e.first))
        if found is None:
            problems.append(LineProblem(src, e.line, None, f"{e.id!r} is neither in the rating list ({list_name}) nor "
                                                           f"in the new players ({new_name}); the names must match "
                                                           "exactly"))
            continue
        s = found
        last = s.get("LAST-PLAYED")
        if isinstance(last, str) and tour.date and last >= tour.date:
            problems.append(LineProblem(src, e.line, None, f"{e.id!r} played on {last}, not before this tournament "
                                                           f"({tour.date}): is the rating list the one after it?"))
        p, h = player_of(s, list_name, problems)
        players.append(replace(p, row=e.line))
        history += h
        matched[e.id] = s
        prior[e.id] = len(h)
    games: list[Game] = []
    entries = {e.number: e for e in tour.entries}
    for e in tour.entries:
        for r, (opp, res, side, code, col) in enumerate(e.rounds, start=1):
            where = f"round {r} (column {col})"
            if opp == 0:
                games.append(FesaGame(e.id, None, schema.result("bye", has_opponent=False), r, row=e.line))
                continue
            o = entries.get(opp)
            if o is not None and o.bad:
                continue  # that line's own problems are reported
            if o is None:
                problems.append(LineProblem(src, e.line, where, f"the opponent {opp} is not a player number (1 to "
                                                                f"{len(tour.entries)})"))
                continue
            if o is e:
                problems.append(LineProblem(src, e.line, where, "the player is paired with himself"))
                continue
            back = o.rounds[r - 1] if r <= len(o.rounds) else None
            if back is None or back[0] != e.number:
                there = "nothing" if back is None else f"opponent {back[0]}"
                problems.append(LineProblem(src, e.line, where, f"player {e.number} meets {opp} in round {r}, but "
                                                                f"line {o.line} (player {opp}) has {there} there"))
                continue
            if o.number < e.number:
                continue
            both = f"players {e.number} (line {e.line}) and {opp} (line {o.line}) in round {r}"
            score = {"+": 1.0, "-": 0.0, "=": 0.5}
            if score[res] + score[back[1]] != 1.0:
                problems.append(LineProblem(src, e.line, where, f"the results of {both} do not add up to one "
                                                                f"({res} and {back[1]})"))
                continue
            if (side, back[2]) not in ((None, None), ("+", "-"), ("-", "+")) or code != back[3]:
                problems.append(LineProblem(src, e.line, where, f"the handicap of {both} is not given by one and "
                                                                "received by the other, the same on both lines"))
                continue
            spelling = {"+": "1", "-": "0", "=": "0.5"}
            if side == "+":  # e receives: the opponent gives, and comes first (rules 8)
                games.append(FesaGame(o.id, e.id, schema.result(spelling[back[1]]), r, handicap=code, row=e.line))
            else:
                games.append(FesaGame(e.id, o.id, schema.result(spelling[res]), r, handicap=code, row=e.line))
    event = Event(tuple(players), tuple(games), tuple(history), tour.date or None, tour.name)
    return event, matched, prior


# --------------------------------------------------------------------------- writing


def write_list(read: FesaFiles, results: Results) -> bytes:
    """The rating list after the tournament, in the program's own format and order (module docstring)."""
    rows = results.by_id()
    history: dict[str, list[tuple[float, float]]] = {}
    for h in results.history:
        history.setdefault(h.id, []).append((h.opponent_rating, h.result))
    date = read.tournament.date
    origin = _origin(read.matched.values())
    updated: dict[int, Struct] = {}
    for pid, s in read.matched.items():
        row = rows.get(pid)
        if row is None:
            continue
        new = Struct("PLAYER", dict(s.slots), s.line)
        after = row.get("rating_after")
        if row.get("mode") == "performance":
            games = history.get(pid, [])  # the engine's order is the program's (rules 6.5)
            new.slots["GAMES"] = [[_int(o), _lisp_result(r), 1] for o, r in games] or None
        elif after is None:
            new.slots["GAMES"] = 0
        else:
            new.slots["GAMES"] = int(row.get("games_after") or 0)
        new.slots["ELO-NUMBER"] = 0 if after is None else _int(after)
        new.slots["BONUS-COUNT"] = int(row.get("bonus_count") or 0)
        level, name = _unparse_grade(row.get("grade_after"))
        new.slots["GRADE-LEVEL"], new.slots["GRADE-NAME"] = level, name
        lb, mp = int(row.get("lb_run") or 0), int(row.get("mp_run") or 0)
        new.slots["LB-COUNT"] = [Symbol(":LB"), lb, True if row.get("mp_reached") else None] if lb else None
        new.slots["MP-COUNT"] = [Symbol(":MP"), mp] if mp else None
        new.slots["LAST-PLAYED"] = date
        new.slots["NATIONALITY-LIST"] = _homes(s.get("NATIONALITY-LIST"), origin, date)
        updated[id(s)] = new
    for _kind, last, first, level, name, _ in read.promotions:
        for s in read.table:
            if s.get("LAST-NAME") == last and s.get("FIRST-NAME") == first:
                target = updated.setdefault(id(s), Struct("PLAYER", dict(s.slots), s.line))
                target.slots["NSR-GRADE-LEVEL"], target.slots["NSR-GRADE-NAME"] = level, name
                break
    table = [updated.get(id(s), s) for s in read.table]
    table.sort(key=lambda s: -_sort_key(s.get("ELO-NUMBER")))  # stable: ties keep their order
    text = "(" + "".join(write_form(s) + "\n" for s in table) + "\n)\n"
    return text.encode(ENCODING, "replace")


def _sort_key(value: Any) -> float:
    return float(value) if isinstance(value, (int, float, Fraction)) and not isinstance(value, bool) else 0.0


def _int(x: Any) -> Any:
    v = float(x)
    return int(v) if v.is_integer() else v


def _lisp_result(r: float) -> Any:
    return Fraction(1, 2) if r == 0.5 else int(r)


def _origin(structs: Any) -> str:
    """``E`` (European list) unless more of the tournament's players are on the American list ``A``."""
    eu = us = 0
    for s in structs:
        homes = s.get("NATIONALITY-LIST") or []
        lists = {h.get("LIST").char for h in homes if isinstance(h, Struct) and isinstance(h.get("LIST"), Char)}
        eu += "E" in lists
        us += "A" in lists
    return "A" if us > eu else "E"


def _homes(homes: Any, origin: str, date: str) -> Any:
    if not isinstance(homes, list) or not homes:
        return homes
    out = [Struct(h.type, dict(h.slots), h.line) if isinstance(h, Struct) else h for h in homes]
    for h in out:
        if isinstance(h, Struct) and isinstance(h.get("LIST"), Char) and h.get("LIST").char == origin:
            h.slots["LAST"] = date
            return out
    if isinstance(out[0], Struct):
        copy = Struct(out[0].type, dict(out[0].slots), out[0].line)
        copy.slots["LIST"], copy.slots["LAST"] = Char(origin), date
        out.insert(0, copy)
    return out


def read(paths: Sequence[Path], module: RatingSystem, *, rating_list: str | Path | None = None,
         output: str | Path | None = None, **_: Any) -> ReadFiles:
    """FESA's files for :mod:`xl_elo.loader` (:func:`read_fesa_files`; a period is FESA's tournament date)."""
    return read_fesa_files(paths, module, rating_list=rating_list, output=output)

"""The tables of rules 8 and the one validation of every value they hold.

Every front end reads a cell through these functions: the one reader of the tables
(:mod:`xl_elo.formats.reader`, once per distinct spelling), the TRF and FESA file readers
and the spreadsheet functions. A system's facts name theirs (:class:`Reading`). So the command
line, the Python API and the functions accept and refuse exactly the same values, with the
same words (rules 1.1, 1.4, 8).

A value that is not acceptable raises :class:`ValueProblem` whose message quotes what was
found and says what was expected; the readers add the file, the row and the column.

Cells come as text (CSV, TRF) or typed (a workbook, a spreadsheet range: numbers as numbers).
In a typed source a number typed as text is refused (``typed=True``), as the template
workbooks' own formulas refuse it: what the spreadsheet shows as text is never guessed at.
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from xl_elo.core import MAX_RATING, RESULT_HELP, Result, ResultError, parse_result
from xl_elo.tables import FESA_GRADES, FESA_HANDICAPS

#: The columns every system reads in the players table (each reads its own facts after them), the
#: games table's (each reads its own facts of a game before ``rated``) and the history table's (rules 8).
PLAYER_COMMON: Final = ("id", "name", "rating")
GAME_COLUMNS: Final = ("round", "player", "opponent", "result", "rated")
GAME_REQUIRED: Final = ("player", "opponent", "result")
HISTORY_COLUMNS: Final = ("id", "opponent_rating", "result")
#: The players table's required columns: without a rating column every player would silently
#: be unrated, so it must be there (its cells blank for unrated players, rules 8).
PLAYER_REQUIRED: Final = ("id", "rating")
#: Other names of the rating column: a results table read back as a players table (rating list in,
#: rating list out). A system's ``Player.HEADINGS`` adds the words clubs head its ratings and ids
#: with (``Elo`` for FIDE's, ``DWZ`` for the DSB's), its facts their own (``games_after`` for ``games``).
PLAYER_ALIASES: Final = {"rating_after": "rating"}
#: The words clubs head an Elo rating with: a system's rating column unless it says otherwise.
ELO_HEADINGS: Final = {"elo": "rating", "cote": "rating"}

#: Ranges of the whole-number fields (a count far beyond any real one is a typing mistake).
MAX_GAMES: Final = 100_000
MAX_ROUND: Final = 999
FIRST_BIRTH_YEAR: Final = 1900
MAX_BONUS_COUNT: Final = 100
MAX_RUN: Final = 1000
#: Longest text accepted in one cell (a name, an id, a note).
MAX_CELL: Final = 1000
#: Characters an id may not hold: spreadsheets read them as wildcards when they match ids.
ID_WILDCARDS: Final = "*?~"

YES: Final = frozenset({"yes", "y", "true", "1", "oui", "o", "x", "1.0"})
NO: Final = frozenset({"no", "n", "false", "0", "non", "0.0"})
YES_NO_HELP: Final = "yes or no (also y/n, true/false, 1/0, oui/non, x for yes)"


class ValueProblem(ValueError):
    """A value that is not acceptable: the message says what was found and what was expected."""


def shown(value: object, limit: int = 40) -> str:
    """A value as a message quotes it: its repr, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 5] + "...'"


# --------------------------------------------------------------------------- cells


#: Spaces a value may have around it, stripped: the non-breaking ones, and the invisible BOM and
#: zero-width space a copy from a web page or a file join leaves.
_SPACE = " \t\r\n\u00a0\u202f\u2007\ufeff\u200b"
#: Control characters no value holds (a tab is allowed inside a cell): a line break inside a
#: cell, or a terminal escape sequence in a hostile file.
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")


#: Error values a spreadsheet shows in a cell; never a value (a formula failed somewhere).
EXCEL_ERRORS: Final = frozenset({"#N/A", "#VALUE!", "#REF!", "#DIV/0!", "#NUM!", "#NAME?", "#NULL!", "#SPILL!",
                                 "#CALC!", "#GETTING_DATA", "Err:502", "Err:504", "Err:508", "Err:511", "Err:522"})


def clean(value: Any) -> Any:
    """Text without the spaces around it (non-breaking ones too); '' and NaN -> None.

    A spreadsheet error value (``#N/A``) is refused: it is not what anybody typed.
    """
    if isinstance(value, str):
        text = value.strip(_SPACE)
        if text in EXCEL_ERRORS:
            raise ValueProblem(f"the spreadsheet error {text} was found (expected a value)")
        return text if text else None
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def text(value: Any) -> str | None:
    """A text cell (a whole number typed as a number reads without '.0'); blank -> None."""
    v = clean(value)
    if v is None:
        return None
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    out = str(v)
    if len(out) > MAX_CELL:
        raise ValueProblem(f"{shown(out)} is {len(out):,} characters long (at most {MAX_CELL:,} in a cell)")
    bad = _CONTROL.search(out)
    if bad:
        what = "a line break" if bad.group() in "\r\n" else f"the control character {bad.group()!r}"
        raise ValueProblem(f"{shown(out)} holds {what} (expected a value on one line, without control characters)")
    return out


def identifier(value: Any) -> str | None:
    """A player id (rules 8): text, compared exactly; no ``* ? ~`` (spreadsheet wildcards).

    Compared in Unicode's composed form (NFC): an ``é`` typed as one character or as ``e`` and an
    accent looks the same on every screen, so it is the same id.
    """
    out = text(value)
    if out is not None and any(c in out for c in ID_WILDCARDS):
        raise ValueProblem(f"{shown(out)} holds one of {' '.join(ID_WILDCARDS)}, which spreadsheets read as "
                           "wildcards (expected an id without them)")
    return out if out is None or out.isascii() else unicodedata.normalize("NFC", out)


_NUMBER = re.compile(r"^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+-]?\d+)?$")
_THOUSANDS = re.compile(r"^\d{1,3}(?:[ .,\u00a0\u202f']\d{3})+$")
#: A number written with a decimal comma (``1810,5``): text to a spreadsheet whose decimal separator is the point.
_DECIMAL_COMMA = re.compile(r"^\d+,\d+$")
#: A spreadsheet's day numbers from 2000-01-01 to 2099-12-31: a date typed into a number cell reads as one.
DATE_NUMBERS: Final = (36526, 73050)


def date_text(value: dt.date) -> str:
    """A date as ISO writes it (a datetime's day)."""
    day = value.date() if isinstance(value, dt.datetime) else value
    return day.isoformat()


def number(value: Any, *, what: str = "a number", low: float | None = None, high: float | None = None,
           whole: bool = False, typed: bool = False) -> float | None:
    """A number (blank -> None), decimal point or comma; refused when not finite or out of range.

    ``whole`` refuses a fraction, ``typed`` refuses text (a typed source holds numbers as numbers).
    Text with spaces or a thousands separator inside (``1 875``, ``1.850`` for a whole
    number) is refused with a word on what to type instead.
    """
    v = clean(value)
    if v is None:
        return None
    if isinstance(v, bool):
        raise ValueProblem(f"{shown(v)} is not {what}")
    if isinstance(v, dt.date):  # a workbook's date cell: what a spreadsheet makes of 2026-10-01 typed
        raise ValueProblem(f"{date_text(v)} is a date, not a number (expected {what})")
    if isinstance(v, str):
        if _THOUSANDS.match(v) and (whole or not _NUMBER.match(v)):
            plain = re.sub(r"\D", "", v)
            raise ValueProblem(f"{shown(v)} has a thousands separator (expected {what}: write {plain})")
        if typed:
            if _DECIMAL_COMMA.match(v):
                raise ValueProblem(f"{shown(v)} has a decimal comma, so it is text (expected {what}: write "
                                   f"{v.replace(',', '.')})")
            raise ValueProblem(f"{shown(v)} is text, not a number (expected {what}: type the number itself, "
                               "or format the cell as a number)")
        if not _NUMBER.match(v):
            raise ValueProblem(f"{shown(v)} is not a number (expected {what})")
        # exactly as typed: '1e400' is not infinite, '1e-400' is not 0, '1.0000000000000001' is not whole
        try:
            exact = decimal.Decimal(v.replace(",", "."))
        except decimal.InvalidOperation:  # an exponent beyond any context ('1e99999999999999999999')
            raise ValueProblem(f"{shown(v)} is out of range (expected {what})") from None
        x = float(exact)
        if math.isinf(x):
            raise ValueProblem(f"{shown(v)} is not a finite number (expected {what})")
        if (low is not None and exact < low) or (high is not None and exact > high):
            raise ValueProblem(f"{shown(v)} is out of range (expected {what})")
        if whole and exact != exact.to_integral_value():
            raise ValueProblem(f"{shown(v)} is not a whole number (expected {what})")
        return x + 0.0  # '-0' reads as 0
    if isinstance(v, (int, float)):
        try:
            x = float(v)
        except OverflowError:
            raise ValueProblem(f"{shown(v)} is out of range (expected {what})") from None
    else:
        raise ValueProblem(f"{shown(v)} is not a number (expected {what})")
    if math.isnan(x) or math.isinf(x):
        raise ValueProblem(f"{shown(v)} is not a finite number (expected {what})")
    if (low is not None and x < low) or (high is not None and x > high):
        raise ValueProblem(f"{shown(v)} is out of range (expected {what})")
    if whole and not x.is_integer():
        raise ValueProblem(f"{shown(v)} is not a whole number (expected {what})")
    return x + 0.0


def whole(value: Any, low: int, high: int, *, what: str | None = None, typed: bool = False) -> int | None:
    """A whole number from ``low`` to ``high`` (blank -> None)."""
    x = number(value, what=what or f"a whole number from {low} to {high}", low=low, high=high, whole=True,
               typed=typed)
    return None if x is None else int(x)


RATING_HELP: Final = f"a rating: a whole number from 0 to {MAX_RATING}, 0 or blank for unrated"
COUNTED_RATING_HELP: Final = f"an opponent's rating as it counted: a whole number from 0 to {MAX_RATING}"


def rating(value: Any, *, typed: bool = False) -> float | None:
    """A player's rating (rules 1.4, 8): a whole number from 1 to 3500; blank or 0 -> None (unrated).

    Every federation publishes whole ratings, so a fraction is refused: it catches a rating
    typed with a thousands separator (``1.850`` read as 1.85). 0 is how FIDE's lists, TRF files
    and FESA's program write an unrated player, and what a spreadsheet passes for an empty
    cell: no federation rates anyone 0.
    """
    r = number(value, what=RATING_HELP, low=0, high=MAX_RATING, whole=True, typed=typed)
    return None if r == 0 else r


def counted_rating(value: Any, *, typed: bool = False) -> float | None:
    """An opponent's rating as a FESA history records it (rules 6.5, 6.11): 0 to 3500, 0 included
    (a handicap can make an opponent count 0); blank -> None."""
    return number(value, what=COUNTED_RATING_HELP, low=0, high=MAX_RATING, whole=True, typed=typed)


def yes_no(value: Any, *, typed: bool = False) -> bool | None:
    """yes / no (rules 8); blank -> None (the caller's default)."""
    v = clean(value)
    if v is None:
        return None
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float)) and v in (0, 1):
        return bool(v)
    key = str(v).lower()
    if key in YES:
        return True
    if key in NO:
        return False
    raise ValueProblem(f"{shown(v)} is not {YES_NO_HELP}")


def category(value: Any) -> str | None:
    """FFE category: ``junior`` or ``senior`` (blank counts as senior, rules 5.6)."""
    v = text(value)
    if v is None:
        return None
    if v.lower() not in ("junior", "senior"):
        raise ValueProblem(f"{shown(v)} is not junior or senior")
    return v.lower()


def round_number(value: Any, *, typed: bool = False) -> int | None:
    """A round: a whole number from 1 to 999 (blank -> None)."""
    return whole(value, 1, MAX_ROUND, what=f"the round number, from 1 to {MAX_ROUND}", typed=typed)


def result(value: Any, *, has_opponent: bool = True) -> Result:
    """A game's result (rules 1.1); :class:`ValueProblem` naming what is accepted."""
    v = clean(value)
    if isinstance(v, dt.time):  # what a spreadsheet makes of 1:0 typed in a cell: the spelling, as typed
        v = f"{v.hour}:{v.minute}"
    if isinstance(v, str) and len(v) > MAX_CELL:
        raise ValueProblem(f"{shown(v)} is not a result")
    if isinstance(v, int) and not isinstance(v, bool) and v not in (0, 1):  # 10**400 is no float either
        raise ValueProblem(f"{shown(v)} is not {RESULT_HELP}")
    try:
        return parse_result(v, has_opponent=has_opponent)
    except ResultError as exc:
        raise ValueProblem(str(exc)) from None


def played_result(value: Any) -> float:
    """The result of a played game (a FESA history row): 1, 0.5 or 0."""
    r = result(value)
    if r.score is None or not r.rated:
        raise ValueProblem(f"{shown(clean(value))} is not a played game's result (1, 0.5 or 0)")
    return r.score


_PERIOD = re.compile(r"^(\d{4})-(\d{1,2})(?:-(\d{1,2}))?$")


def period(value: Any, *, required: bool = True, what: str = "the period", days: bool = False) -> str | None:
    """A rating period ``YYYY-MM`` (a real month) or a date ``YYYY-MM-DD``; blank -> None unless required.

    A spreadsheet date (what Excel makes of ``2026-10`` typed in a cell) reads as its month, or
    with ``days`` as its date (a game's period: a ladder's weekly periods typed as dates stay apart).
    """
    v = clean(value)
    if v is None:
        if required:
            raise ValueProblem(f"{what} is blank (expected a month as YYYY-MM, e.g. 2026-10)")
        return None
    if isinstance(v, dt.datetime):
        v = v.date()
    if isinstance(v, dt.date):
        return v.isoformat() if days else f"{v.year:04d}-{v.month:02d}"
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        raise ValueProblem(f"{shown(v)} is a number, not a month (a date cell read as a number? expected {what} "
                           "as YYYY-MM, e.g. 2026-10, typed as text)")
    m = _PERIOD.match(str(v))
    if m:
        year, month, day = int(m.group(1)), int(m.group(2)), m.group(3)
        if 1900 <= year <= 2200 and 1 <= month <= 12:
            if day is None:
                return f"{year:04d}-{month:02d}"
            try:
                return dt.date(year, month, int(day)).isoformat()
            except ValueError:
                pass
    raise ValueProblem(f"{shown(v)} is not a month (expected {what} as YYYY-MM, e.g. 2026-10)")


#: A date of birth in a text file, its year in four digits first or last (2010-05-12, 2010/05/12, 12.05.2010,
#: 12/05/2010): the year is the same whichever order the day and the month come in.
_BIRTH_DATE = re.compile(r"\s*(?:(\d{4})([-/.])(\d{1,2})\2(\d{1,2})|(\d{1,2})([-/.])(\d{1,2})\6(\d{4}))\s*")


def _year_of_birth_date(value: Any) -> Any:
    """The year of a full date of birth written in a text file (a real date in one order of day and month),
    else the value as it was."""
    m = _BIRTH_DATE.fullmatch(value) if isinstance(value, str) else None
    if m is None:
        return value
    y, a, b = (m[1], m[3], m[4]) if m[1] else (m[8], m[5], m[7])
    for month, day in ((int(a), int(b)), (int(b), int(a))):
        try:
            dt.date(int(y), month, day)
        except ValueError:
            continue
        return y
    raise ValueProblem(f"{shown(value)} is not a date (expected a year of birth, or a date of birth such as "
                       "2010-05-12 or 12.05.2010)")


def birth_year(value: Any, year: int | None, *, typed: bool = False) -> int | None:
    """A year of birth from 1900 to the period's year (blank -> None); a year after the period is named so.
    In a text file (not ``typed`` into a spreadsheet, whose template reads a number only), a full date of birth
    gives its year (rules 8)."""
    high = year if year is not None else dt.date.today().year
    what = f"a year of birth from {FIRST_BIRTH_YEAR} to {high}" + (" (the period's year)" if year is not None else "")
    born = whole(value if typed else _year_of_birth_date(value), FIRST_BIRTH_YEAR, 9999, typed=typed, what=what)
    if born is not None and born > high:
        after = f"the period's year ({high})" if year is not None else f"this year ({high})"
        raise ValueProblem(f"{shown(clean(value))} is out of range (expected {what}): it is after {after}, "
                           "check the year of birth or the period")
    return born


# --------------------------------------------------------------------------- how a column is read


@dataclass(frozen=True)
class Reading:
    """How the cells of one column are read: the one validation of its values (rules 8).

    ``parse(value, typed=..., year=...)`` reads one cell (None for a blank one) or raises
    :class:`ValueProblem`; ``year`` is the period's year, which a year of birth may not pass.
    ``whole`` says the values are whole numbers from ``low`` to ``high`` (``high`` None: the
    period's year, else this year), so a reader may take plain digits (or numbers, in a
    spreadsheet) without a call per cell; every other cell still goes through ``parse``.
    ``zero_is_blank``: 0 reads as blank (a rating, rules 1.4).
    """

    parse: Callable[..., Any]
    whole: tuple[int, int | None] | None = None
    zero_is_blank: bool = False
    kind: str = "int"
    """What a value is: ``int``, ``float``, ``bool`` or ``text`` (how a reader holds a column of them)."""
    multiple: int | None = None
    """The values are multiples of this (an FFE Elo, published in tens): a reader parses any other."""
    multiple_why: str = ""
    """Why, in words (the message of a value that is not one, the workbooks' check)."""

    def __call__(self, value: Any, *, typed: bool = False, year: int | None = None) -> Any:
        return self.parse(value, typed=typed, year=year)

    def bounds(self, year: int | None) -> tuple[int, int] | None:
        """The whole numbers a reader may take without calling ``parse`` (None: call it for every cell)."""
        if self.whole is None:
            return None
        low, high = self.whole
        return low, high if high is not None else (year if year is not None else dt.date.today().year)


def counts(high: int, what: str | None = None) -> Reading:
    """A count: a whole number from 0 to ``high`` (blank -> None)."""
    return Reading(lambda v, *, typed=False, year=None: whole(v, 0, high, what=what, typed=typed), whole=(0, high))


def between(low: float, high: float, what: str) -> Reading:
    """A number from ``low`` to ``high``, decimals allowed (blank -> None)."""
    return Reading(lambda v, *, typed=False, year=None: number(v, what=what, low=low, high=high, typed=typed),
                   kind="float")


RATING: Final = Reading(lambda v, *, typed=False, year=None: rating(v, typed=typed), whole=(0, MAX_RATING),
                        zero_is_blank=True, kind="float")
"""A player's rating before (rules 1.4)."""
GAMES: Final = counts(MAX_GAMES)
"""Rated games played before (rules 8)."""
BIRTH_YEAR: Final = Reading(lambda v, *, typed=False, year=None: birth_year(v, year, typed=typed),
                            whole=(FIRST_BIRTH_YEAR, None))
"""A year of birth, no later than the period's year."""
YES_NO: Final = Reading(lambda v, *, typed=False, year=None: yes_no(v, typed=typed), kind="bool")
"""yes or no (rules 8)."""
ROUND: Final = Reading(lambda v, *, typed=False, year=None: round_number(v, typed=typed), whole=(1, MAX_ROUND))
COUNTED_RATING: Final = Reading(lambda v, *, typed=False, year=None: counted_rating(v, typed=typed),
                                whole=(0, MAX_RATING), kind="float")


def in_steps(reading: Reading, step: int, why: str) -> Reading:
    """``reading``, its values multiples of ``step`` (0 and blank aside): an FFE Elo is published in tens."""
    def parse(value: Any, *, typed: bool = False, year: int | None = None) -> Any:
        x = reading(value, typed=typed, year=year)
        if x is not None and x % step:
            raise ValueProblem(f"{x:g} is not a multiple of {step} ({why})")
        return x

    return Reading(parse, whole=reading.whole, zero_is_blank=reading.zero_is_blank, kind=reading.kind,
                   multiple=step, multiple_why=why)


def spelled(parse: Callable[[Any], Any]) -> Reading:
    """A column of a few spellings (a category, a grade): each read by ``parse``."""
    return Reading(lambda v, *, typed=False, year=None: parse(v), kind="text")


# --------------------------------------------------------------------------- FESA grades and handicaps

GRADE_NAMES: Final = tuple(g.grade for g in FESA_GRADES)
_GRADE = re.compile(r"^\s*(pro(?:fessional)?\s*)?(\d{1,2})\s*-?\s*(k|kyu|d|dan)\s*$", re.IGNORECASE)
GRADE_HELP: Final = "a FESA grade (20 kyu .. 1 kyu, 1 dan .. 8 dan)"
PRO_HELP: Final = " or a professional grade (pro 1 dan .. pro 9 dan)"


def grade(value: Any, *, allow_pro: bool = False) -> str | None:
    """A grade as the data contract writes it: ``3kyu``, ``3 Kyu``, ``3k`` -> ``3 kyu``; ``1d`` -> ``1 dan``."""
    v = text(value)
    if v is None:
        return None
    m = _GRADE.match(v)
    if m:
        pro, n, unit = m.group(1), int(m.group(2)), m.group(3).lower()
        name = f"{n} {'kyu' if unit.startswith('k') else 'dan'}"
        if pro:
            if allow_pro and name.endswith("dan") and 1 <= n <= 9:
                return f"pro {name}"
        elif name in GRADE_NAMES:
            return name
    raise ValueProblem(f"{shown(v)} is not {GRADE_HELP}{PRO_HELP if allow_pro else ''}")


def handicap(value: Any) -> str | None:
    """A FESA handicap code (rules 6.7): ``S L B R RL 2p 4p 5p 6p`` or the handicap's name."""
    v = text(value)
    if v is None:
        return None
    key = v.lower()
    for code, (name, _) in FESA_HANDICAPS.items():
        if key in (code.lower(), name):
            return code
    raise ValueProblem(f"{shown(v)} is not a handicap (expected one of {', '.join(FESA_HANDICAPS)})")


# --------------------------------------------------------------------------- headers


def column_key(name: Any) -> str:
    """A header cell as a column name: lower case, spaces and hyphens as ``_`` ("Birth Year" is
    ``birth_year``), a trailing ``:`` or ``?`` dropped; '' for a blank or unreadable cell."""
    try:
        key = (text(name) or "").lower()
    except ValueProblem:
        return ""
    return re.sub(r"[\s\-]+", "_", key.rstrip(":?").strip())


def header(cells: Sequence[Any], required: Sequence[str], aliases: Mapping[str, str] | None = None
           ) -> tuple[dict[str, int], list[str]]:
    """Column name -> position (:func:`column_key`; the first one of a name) and the required ones missing."""
    columns: dict[str, int] = {}
    for j, name in enumerate(cells):
        key = column_key(name)
        if key and key not in columns:
            columns[key] = j
    for alias, name in (aliases or {}).items():
        if name not in columns and alias in columns:
            columns[name] = columns[alias]
    return columns, [name for name in required if name not in columns]


def duplicate_columns(cells: Sequence[Any], known: Iterable[str]) -> list[str]:
    """A column read (one of ``known``) given twice ("rating" in columns 3 and 7): which one is meant
    is not for a program to guess. One message per repeated column."""
    seen: dict[str, int] = {}
    out = []
    wanted = set(known)
    for j, name in enumerate(cells, start=1):
        key = column_key(name)
        if key not in wanted:
            continue
        if key in seen:
            out.append(f"the column '{key}' is given twice (columns {seen[key]} and {j}): keep one")
        else:
            seen[key] = j
    return out

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from xl_elo.core import BYE, MAX_RATING, RESULT_HELP, RESULT_TIMES, Result, ResultError, parse_result

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
_THOUSANDS = re.compile(r"^[1-9]\d{0,2}(?:[ .,\u00a0\u202f']\d{3})+$")
#: A number written with a decimal comma (``1810,5``): text to a spreadsheet whose decimal separator is the point.
_DECIMAL_COMMA = re.compile(r"^\d+,\d+$")
#: A point or a comma before exactly three digits (``1,850``, ``1.850``): a thousands separator or a decimal one
#: (rules 1.4, 8). Where both readings are values of a column, the cell is refused naming both.
TWO_WAYS = re.compile(r"^([1-9]\d{0,2})([.,])(\d{3})$")
#: A rating is never below this with decimals (rules 1.4): 1.85 is 1,850 read with a decimal comma.
RATING_FRACTION_BELOW: Final = 10
#: A spreadsheet's day numbers from 2000-01-01 to 2099-12-31: a date typed into a number cell reads as one.
DATE_NUMBERS: Final = (36526, 73050)


def date_text(value: dt.date) -> str:
    """A date as ISO writes it (a datetime's day)."""
    day = value.date() if isinstance(value, dt.datetime) else value
    return day.isoformat()


def _decimal_of(whole_part: str, thousandths: str) -> decimal.Decimal:
    return decimal.Decimal(f"{whole_part}.{thousandths}")


def _plain(x: decimal.Decimal | float) -> str:
    """A number as a message writes it: no exponent, no trailing zeros (1.850 -> 1.85, 1.000 -> 1)."""
    d = x if isinstance(x, decimal.Decimal) else decimal.Decimal(repr(float(x)))
    out = format(d.normalize(), "f")
    return out[:-2] if out.endswith(".0") else out


def two_readings(text: str, grouped: int, reading: decimal.Decimal, separator: str, what: str,
                 other_ok: bool) -> str:
    """The words of a value that reads two ways (rules 1.4, 8): the same in every front end, the template's
    formulas included (:func:`xl_elo.templates.common.number_check`)."""
    name = "comma" if separator == "," else "point"
    write = f"{grouped} or {_plain(reading)}" if other_ok else f"{grouped}"
    return (f"'{text}' reads two ways, {grouped} with a thousands separator or {_plain(reading)} with a decimal "
            f"{name} (expected {what}: write {write})")


def lost_thousands(x: float, what: str) -> str:
    """The words of a rating with decimals below :data:`RATING_FRACTION_BELOW` (rules 1.4): a thousands separator
    read as a decimal one (``1,850`` typed where the comma is the decimal separator is the number 1.85)."""
    thousand = x * 1000
    write = f": write {round(thousand)}" if abs(thousand - round(thousand)) < 1e-6 else ""
    return (f"{_plain(x)} is no rating (none is below {RATING_FRACTION_BELOW} with decimals): a thousands separator "
            f"read as a decimal one? 1,850 typed where the comma is the decimal separator makes 1.85 (expected "
            f"{what}{write})")


def _bound(x: float) -> decimal.Decimal:
    """A range's end as written in the code (0.001 is 0.001, not the binary float just above it)."""
    return decimal.Decimal(repr(float(x)))


def number(value: Any, *, what: str = "a number", low: float | None = None, high: float | None = None,
           whole: bool = False, typed: bool = False, rating: bool = False) -> float | None:
    """A number (blank -> None), decimal point or comma; refused when not finite or out of range.

    ``whole`` refuses a fraction, ``typed`` refuses text (a typed source holds numbers as numbers).
    Text with spaces or a thousands separator inside (``1 875``, ``1.850`` for a whole
    number) is refused with a word on what to type instead; a point or a comma before exactly
    three digits (``1,850``) where both readings are in range is refused naming both (rules 1.4,
    8). ``rating``: a rating, never a fraction below 10 (:func:`lost_thousands`).
    """
    v = clean(value)
    if v is None:
        return None
    if isinstance(v, bool):
        raise ValueProblem(f"{shown(v)} is not {what}")
    if isinstance(v, dt.date):  # a workbook's date cell: what a spreadsheet makes of 2026-10-01 typed
        raise ValueProblem(f"{date_text(v)} is a date, not a number (expected {what})")
    lo = None if low is None else _bound(low)
    hi = None if high is None else _bound(high)
    if isinstance(v, str):
        two = TWO_WAYS.match(v)
        if two:
            grouped = int(two.group(1) + two.group(3))
            other = _decimal_of(two.group(1), two.group(3))
            if (lo is None or grouped >= lo) and (hi is None or grouped <= hi):
                other_ok = ((lo is None or other >= lo) and (hi is None or other <= hi)
                            and (not whole or other == other.to_integral_value())
                            and not (rating and other < RATING_FRACTION_BELOW and other != other.to_integral_value()))
                raise ValueProblem(two_readings(v, grouped, other, two.group(2), what, other_ok))
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
        if x == 0 and exact != 0:  # '1e-400': no float holds it, and it is not 0
            raise ValueProblem(f"{shown(v)} is too small to be read as a number, and it is not 0 (expected {what})")
        if (lo is not None and exact < lo) or (hi is not None and exact > hi):
            raise ValueProblem(f"{shown(v)} is out of range (expected {what})")
        if rating and 0 < exact < RATING_FRACTION_BELOW and exact != exact.to_integral_value():
            raise ValueProblem(lost_thousands(x, what))
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
    if rating and 0 < x < RATING_FRACTION_BELOW and not x.is_integer():
        raise ValueProblem(lost_thousands(x, what))
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
    r = number(value, what=RATING_HELP, low=0, high=MAX_RATING, whole=True, typed=typed, rating=True)
    return None if r == 0 else r


def counted_rating(value: Any, *, typed: bool = False) -> float | None:
    """An opponent's rating as a FESA history records it (rules 6.5, 6.11): 0 to 3500, 0 included
    (a handicap can make an opponent count 0); blank -> None."""
    return number(value, what=COUNTED_RATING_HELP, low=0, high=MAX_RATING, whole=True, typed=typed, rating=True)


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


#: Day 0 of a spreadsheet's dates (Excel's and LibreOffice's 1900 system): a time of day alone is a date-time on it.
DAY_ZERO: Final = dt.date(1899, 12, 30)
#: What to type instead of a result a spreadsheet turned into a date (``1/2`` typed is the 2nd of January).
DATE_RESULT: Final = ("is a date, not a result: a spreadsheet makes a date of 1/2 typed (type ½, 0.5 or =, or "
                      "'1/2 with an apostrophe)")


def _minutes(v: Any) -> int | None:
    """A time of day in whole minutes (a cell holding one: a time, a duration, a date-time on day 0, or the
    fraction of a day a function is passed), else None."""
    if isinstance(v, dt.datetime):
        if v.date() != DAY_ZERO:
            return None
        v = v.time()
    if isinstance(v, dt.time):
        return v.hour * 60 + v.minute if not (v.second or v.microsecond) else -1
    if isinstance(v, dt.timedelta):
        seconds = v.total_seconds()
        return int(seconds // 60) if 0 <= seconds < 86400 and seconds % 60 == 0 else -1
    if isinstance(v, float) and 0 < v < 1:
        m = round(v * 1440, 6)
        return int(m) if m == int(m) else None
    return None


def result(value: Any, *, has_opponent: bool = True) -> Result:
    """A game's result (rules 1.1); :class:`ValueProblem` naming what is accepted.

    What a spreadsheet makes of a spelling typed in a cell is read as it was typed: ``1:0`` becomes the time
    01:00 (so a time of day whose hours and minutes spell a result is that result, as the templates read it);
    ``1/2`` becomes a date, refused with what to type instead, in the templates' words."""
    v = clean(value)
    if not has_opponent:
        return BYE
    minutes = _minutes(v) if v != 0.5 else None
    if minutes in RESULT_TIMES:
        return RESULT_TIMES[minutes][1]  # type: ignore[index]
    if minutes is not None and not isinstance(v, float):
        when = v.time() if isinstance(v, dt.datetime) else v
        said = when.strftime("%H:%M:%S") if isinstance(when, dt.time) else str(when)
        raise ValueProblem(f"{said} is a time of day, not a result (expected {RESULT_HELP})")
    if isinstance(v, dt.date) or (isinstance(v, (int, float)) and not isinstance(v, bool)
                                  and DATE_NUMBERS[0] <= v <= DATE_NUMBERS[1] and float(v).is_integer()):
        day = date_text(v) if isinstance(v, dt.date) else (DAY_ZERO + dt.timedelta(days=int(v))).isoformat()
        raise ValueProblem(f"{day} {DATE_RESULT}")
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


def spelled(parse: Callable[[Any], Any]) -> Reading:
    """A column of a few spellings (a category, a grade): each read by ``parse``."""
    return Reading(lambda v, *, typed=False, year=None: parse(v), kind="text")


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

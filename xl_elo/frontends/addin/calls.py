"""How a LibreOffice Calc call reaches a function of :data:`xl_elo.frontends.functions.FUNCTIONS`, and back.

Plain Python (no ``uno``), so it is tested without LibreOffice. The extension's component
(``xl_elo_calc.py``) hands every call here.

What Calc passes to an argument declared ``any`` (checked on LibreOffice 7.4):

- a number as a float (TRUE as 1.0), a text as a str, a missing optional argument as None;
- an empty cell given alone as 0.0 (Calc does not say it is empty): to an optional argument it goes as
  :class:`~xl_elo.frontends.functions.CellZero`, read as blank where 0 is no value of the argument, as 0
  where the two mean the same, refused where they differ (0 rated games: K 40; blank: 20);
- a range as a tuple of rows, its blank cells as ``""``.

Those are the shapes the functions take already (a range is a list of rows, a blank is None,
``""`` or 0), so the arguments go through as they are, rows as lists.

What the functions answer goes back as Calc takes it: a number as a float, a text as a str, a
blank as ``""`` (Calc shows an empty text; None would show #N/A), a list of rows as a tuple of
rows of the same width.

A bad argument: the function raises :class:`~xl_elo.frontends.functions.ArgumentError`, whose message
names the argument. LibreOffice drops an exception's message (every exception becomes
Err:502 or #VALUE! with no text), so the message comes back as the cell's text, after
``#VALUE!``: ``#VALUE! argument rating: 'abc' is not a number`` (:data:`ERROR_PREFIX`).
"""

from __future__ import annotations

import math
from typing import Any

#: What starts the text of a cell whose call was refused (the message follows).
ERROR_PREFIX = "#VALUE! "

def method_name(name: str) -> str:
    """The IDL method of a spreadsheet function: ``ELO_EXPECTED`` -> ``eloExpected``
    (LibreOffice's IDL compiler refuses ``_`` in names)."""
    head, *rest = name.lower().split("_")
    return head + "".join(part.capitalize() for part in rest)


def parameter_name(name: str) -> str:
    """The IDL parameter of an argument: ``opponent_rating`` -> ``opponentRating``."""
    return method_name(name.upper())


def from_calc(value: Any) -> Any:
    """One argument as Calc passes it -> as the functions take it (rows of a range as lists)."""
    if isinstance(value, tuple):
        return [list(row) if isinstance(row, tuple) else [row] for row in value]
    return value


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return float(value)
    if isinstance(value, float):
        return "" if math.isnan(value) else value
    if isinstance(value, str):
        return value
    item = getattr(value, "item", None)  # a numpy scalar
    return _cell(item()) if callable(item) else str(value)


def to_calc(result: Any) -> Any:
    """A function's answer -> what Calc takes: a float, a str, or a tuple of rows of one width."""
    if isinstance(result, (list, tuple)):
        rows = [list(r) if isinstance(r, (list, tuple)) else [r] for r in result] or [[None]]
        width = max(len(r) for r in rows) or 1
        return tuple(tuple(_cell(v) for v in r + [None] * (width - len(r))) for r in rows)
    return _cell(result)


def error_text(message: str) -> str:
    """The cell's text for a refused call."""
    return ERROR_PREFIX + " ".join(str(message).split())


def _numpy_missing(what: str = "ELO_RATE (a whole event)") -> str:
    """A function that needs numpy (ELO_RATE, ELO_HISTORY) without it: what to do, said for LibreOffice."""
    return (f"{what} needs numpy, which LibreOffice's Python does not have. "
            "Linux: install your distribution's python3-numpy (Debian, Ubuntu: sudo apt install python3-numpy) "
            "and restart LibreOffice. Windows, macOS: LibreOffice's own Python has no numpy; rate the event "
            "with the template workbooks or the xl-elo command.")


def call(spec: Any, args: tuple[Any, ...]) -> Any:
    """Run one spreadsheet function for Calc: the answer as Calc takes it, or the message as text."""
    from xl_elo.compat import np
    from xl_elo.frontends.functions import ArgumentError, CellZero

    for arg, value in zip(spec.args, args, strict=False):
        if value is None and not arg.optional:  # Calc lets any argument be left out
            return error_text(f"argument {arg.name} is required")
    # an optional argument given one cell: Calc passes an empty one as 0.0, so a 0 there may be an empty cell
    given = [CellZero(0.0) if arg.optional and type(a) is float and a == 0.0 else a
             for arg, a in zip(spec.args, args, strict=False)] + list(args[len(spec.args):])
    try:
        return to_calc(spec.function(*(from_calc(a) for a in given)))
    except ArgumentError as exc:
        message = str(exc)
        if np is None and "needs numpy" in message:
            message = _numpy_missing(message.split(" needs numpy")[0])
        return error_text(message)
    except ImportError as exc:
        if "numpy" in str(exc):
            return error_text(_numpy_missing(spec.name))
        return error_text(f"{spec.name}: internal error ImportError: {exc} (please report it)")
    except RecursionError:
        return error_text(f"{spec.name}: the ranges are too large")
    except Exception as exc:
        return error_text(f"{spec.name}: internal error {type(exc).__name__}: {exc} (please report it)")


def methods() -> dict[str, Any]:
    """The functions by IDL method name."""
    from xl_elo.frontends.functions import FUNCTIONS

    return {method_name(f.name): f for f in FUNCTIONS}

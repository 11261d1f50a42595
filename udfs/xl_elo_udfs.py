"""xl-elo's Excel functions for xlwings (classic desktop, xlwings Lite, xlwings Server).

Every function is defined once, in the installed package (:mod:`xl_elo.frontends.functions`, which also
serves LibreOffice Calc's extension); this module only hands each one to xlwings with its
help: ``@xw.func`` with the function's description, ``@xw.arg`` with each argument's. A range
argument arrives as a 2-D list (``ndim=2``); a blank cell as None, "" or 0.

It is installed with xl-elo as the top-level module ``xl_elo_udfs``: classic xlwings' "UDF
Modules" names it, xlwings Lite's main.py and xlwings Server's custom functions import it
(``xl-elo excel-setup`` writes those files). Set-up for each runtime, step by step:
udfs/README.md.
"""

from __future__ import annotations

import types
from typing import Any

import xlwings as xw

from xl_elo.frontends.functions import FUNCTIONS, ArgumentError

__all__ = ["ArgumentError"]


def _for_xlwings(spec: Any) -> Any:
    """A copy of the function (the package's own is left untouched) with xlwings' decorators applied."""
    f = spec.function
    copy = types.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__, f.__closure__)
    copy.__doc__ = spec.description
    copy.__module__ = __name__
    for arg in reversed(spec.args):
        options = {"ndim": 2} if arg.range else {}
        copy = xw.arg(arg.name, doc=arg.doc, **options)(copy)
    return xw.func(copy)


for _spec in FUNCTIONS:
    globals()[_spec.function.__name__] = _for_xlwings(_spec)
    __all__.append(_spec.function.__name__)

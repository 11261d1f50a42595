"""xl-elo's functions in LibreOffice Calc: the extension's UNO component.

This file is copied to the root of the extension (xl-elo.oxt), beside the type library
(XlElo.rdb, the interface org.xlelo.XXlElo: one method per spreadsheet function) and
CalcAddIns.xcu (the names Calc shows, ELO_EXPECTED..., and their help). Both are generated
from xl_elo.frontends.functions.FUNCTIONS, as is the dispatch below: the builder writes the method
names into METHODS, and a method (eloExpected) finds its function by name in that list when
Calc first calls it. The xl_elo package itself is bundled in the
extension's pythonpath/ folder.

It runs on LibreOffice's own Python. That Python may be too old for xl_elo, or have no
numpy: this file imports nothing of xl_elo when it is loaded (so the extension always
installs) and keeps to syntax every Python 3 reads, so an old Python is told in the cell.
"""

import os
import sys

import unohelper
from com.sun.star.lang import XServiceInfo
from org.xlelo import XXlElo

IMPLEMENTATION_NAME = "org.xlelo.XlEloAddIn.Impl"
SERVICE_NAME = "org.xlelo.XlEloAddIn"  # the AddInInfo node of CalcAddIns.xcu
SERVICE_NAMES = (SERVICE_NAME, "com.sun.star.sheet.AddIn")
MIN_PYTHON = (3, 10)

#: The IDL methods, one per function of xl_elo.frontends.functions.FUNCTIONS: written in by the builder.
METHODS = ()  # type: tuple[str, ...]

_HERE = os.path.dirname(os.path.abspath(__file__))
_BUNDLE = os.path.join(_HERE, "pythonpath")

_state = {}  # type: dict


def _old_python():
    if sys.version_info >= MIN_PYTHON:
        return None
    need = ".".join(str(v) for v in MIN_PYTHON)
    have = ".".join(str(v) for v in sys.version_info[:3])
    return (f"#VALUE! xl-elo needs Python {need} or newer; this LibreOffice runs Python {have} "
            "(use a newer LibreOffice, or the template workbooks)")


def _methods():
    """The spreadsheet functions by IDL method name, from the bundled xl_elo (loaded once)."""
    if "methods" not in _state:
        # the bundled xl_elo first, before any other xl_elo this Python may have installed
        if _BUNDLE in sys.path:
            sys.path.remove(_BUNDLE)
        sys.path.insert(0, _BUNDLE)
        from xl_elo.frontends.addin import calls

        _state["calls"] = calls
        _state["methods"] = calls.methods()
    return _state["methods"]


def _matrix(value):
    """Every result goes back as rows (the IDL's sequence<sequence<any>>): one value as 1 x 1."""
    return value if isinstance(value, tuple) else ((value,),)


def _dispatch(name):
    def method(self, *args):
        problem = _old_python()
        if problem:
            return _matrix(problem)
        try:
            spec = _methods()[name]
        except Exception as exc:
            return _matrix(f"#VALUE! xl-elo could not start: {type(exc).__name__}: {exc}")
        return _matrix(_state["calls"].call(spec, args))

    method.__name__ = name
    return method


class XlEloAddIn(unohelper.Base, XXlElo, XServiceInfo):
    """The add-in: every method of XXlElo is a function of xl_elo.frontends.functions.FUNCTIONS."""

    def __init__(self, ctx, *args):
        self.ctx = ctx

    def getImplementationName(self):
        return IMPLEMENTATION_NAME

    def supportsService(self, name):
        return name in SERVICE_NAMES

    def getSupportedServiceNames(self):
        return SERVICE_NAMES


for _name in METHODS:
    setattr(XlEloAddIn, _name, _dispatch(_name))

g_ImplementationHelper = unohelper.ImplementationHelper()
g_ImplementationHelper.addImplementation(XlEloAddIn, IMPLEMENTATION_NAME, SERVICE_NAMES)

"""The rating systems: one folder each, all of the same shape (:mod:`xl_elo.federations.contract`).

:data:`MODULES` is the one list of systems. The command line, ``calc``, the spreadsheet
functions, the readers, the template builder, the rules document, the demo and the README's
table all loop over :func:`registry` and ask each system's declarations; adding a system is
its folder (its engine, its ``rules.md`` chapter, its ``template.py`` spec and its
``example/``), its tests and one line here.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

#: The federations, in the order the command line and the README list them.
MODULES: list[str] = [
    "xl_elo.federations.fide",
    "xl_elo.federations.fse",
    "xl_elo.federations.fqe",
    "xl_elo.federations.ffe",
    "xl_elo.federations.fesa",
    "xl_elo.federations.dwz",
    "xl_elo.federations.uscf",
    "xl_elo.federations.cfc",
    "xl_elo.federations.glicko2",
]

_CACHE: dict[tuple[str, ...], dict[str, ModuleType]] = {}


def registry() -> dict[str, ModuleType]:
    """Federation code -> module, in the order of :data:`MODULES`."""
    key = tuple(MODULES)
    if key not in _CACHE:
        modules = [importlib.import_module(name) for name in key]
        _CACHE[key] = {m.CODE: m for m in modules}
    return _CACHE[key]


def codes() -> tuple[str, ...]:
    """The federation codes, in order."""
    return tuple(registry())


def get(name: str) -> Any:
    """The federation module for a code or an alias (``"SSB"`` -> fse); ValueError if unknown."""
    key = str(name).strip().lower()
    for module in registry().values():
        if key == module.CODE or key in module.ALIASES:
            return module
    raise ValueError(f"unknown federation {name!r}; expected one of {', '.join(codes())}")


def find_federation(name: str) -> str:
    """The federation code for a name or alias (``"SSB"`` -> ``"fse"``); ValueError if unknown."""
    return str(get(name).CODE)


def __getattr__(name: str) -> Any:
    if name == "FEDERATIONS":  # the codes, computed from the registry (kept for the Python API)
        return codes()
    raise AttributeError(name)

"""The rating systems: one folder each, all of the same shape (:mod:`xl_elo.federations.contract`).

:data:`MODULES` is the one list of systems. The command line, ``calc``, the spreadsheet
functions, the readers, the template builder, the rules document, the demo and the README's
table all loop over :func:`registry` and ask each system's declarations; adding a system is
its folder (its engine, its ``rules.md`` chapter, its ``template.py`` spec and its
``example/``), its tests and one line here.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from xl_elo.federations.contract import RatingSystem

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

_CACHE: dict[tuple[str, ...], dict[str, RatingSystem]] = {}


def load_system(name: str) -> RatingSystem:
    """The system a module declares (its ``SYSTEM``, a :class:`~xl_elo.federations.contract.RatingSystem`),
    checked once: the one place a system's module is looked into."""
    from xl_elo.federations.contract import RatingSystem

    module = importlib.import_module(name)
    system = getattr(module, "SYSTEM", None)
    if not isinstance(system, RatingSystem):
        raise TypeError(f"{name} declares no SYSTEM (a xl_elo.federations.contract.RatingSystem)")
    if module.__name__ != system.PACKAGE:
        raise TypeError(f"{name}.SYSTEM says its package is {system.PACKAGE!r}: give PACKAGE=__name__")
    return system


def registry() -> dict[str, RatingSystem]:
    """Federation code -> system, in the order of :data:`MODULES`."""
    key = tuple(MODULES)
    if key not in _CACHE:
        systems = [load_system(name) for name in key]
        codes = [s.CODE for s in systems]
        twice = sorted({c for c in codes if codes.count(c) > 1})
        if twice:
            raise TypeError(f"two systems have the code {', '.join(twice)}")
        _CACHE[key] = {s.CODE: s for s in systems}
    return _CACHE[key]


def codes() -> tuple[str, ...]:
    """The federation codes, in order."""
    return tuple(registry())


def get(name: str) -> RatingSystem:
    """The system for a code or an alias (``"SSB"`` -> FSE's); ValueError if unknown."""
    key = str(name).strip().lower()
    for system in registry().values():
        if key == system.CODE or key in system.ALIASES:
            return system
    raise ValueError(f"unknown federation {name!r}; expected one of {', '.join(codes())}")


def find_federation(name: str) -> str:
    """The federation code for a name or alias (``"SSB"`` -> ``"fse"``); ValueError if unknown."""
    return str(get(name).CODE)


def __getattr__(name: str) -> Any:
    if name == "FEDERATIONS":  # the codes, computed from the registry (kept for the Python API)
        return codes()
    raise AttributeError(name)

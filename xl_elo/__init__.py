"""xl-elo: the rating rules of chess and shogi federations, for spreadsheets and the command line.

The rule engine: one module per federation in :mod:`xl_elo.federations` (FIDE, FSE, FQE,
FFE, FESA), all of the same shape (:mod:`xl_elo.federations.contract`) and listed once
(:data:`xl_elo.federations.MODULES`), over a common core (:mod:`xl_elo.core`), the published
tables as data (:mod:`xl_elo.tables`) and the data contract of rules section 8
(:mod:`xl_elo.model`, :mod:`xl_elo.schema`). The rules as the project reads them are
docs/rules.md in the repository.

>>> from xl_elo import rate, read_event   # doctest: +SKIP
>>> results = rate("fide", read_event("fide", "players.csv", "games.csv", period="2026-10"))  # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from xl_elo.federations import codes, find_federation, get

if TYPE_CHECKING:
    from xl_elo.model import Event, Results

__version__ = "0.2.0"

#: Names offered here, loaded on first use (``import xl_elo.core`` loads no reader).
_LAZY = {
    "read_event": "xl_elo.loader", "load": "xl_elo.loader", "expected_score": "xl_elo.core",
    "parse_result": "xl_elo.core",
    "Event": "xl_elo.model", "Game": "xl_elo.model", "HistoryGame": "xl_elo.model", "InputError": "xl_elo.model",
    "Player": "xl_elo.model", "Results": "xl_elo.model",
}

__all__ = [
    "FEDERATIONS",
    "Event",
    "Game",
    "HistoryGame",
    "InputError",
    "Player",
    "Results",
    "__version__",
    "expected_score",
    "find_federation",
    "load",
    "parse_result",
    "rate",
    "read_event",
]


def rate(federation: str, event: Event, options: Any = None, **overrides: Any) -> Results:
    """Rate an event or period with a rating system's rules (its code or an alias:
    :data:`FEDERATIONS` lists them). ``options`` is that system's ``Options``;
    ``overrides`` change some of them by name (``rate("ffe", event, dp_method="table")``).

    The event is checked first as the readers check a file (rules 8): every problem is raised
    together as an :class:`xl_elo.model.InputError`. Its players are taken as the system's own
    ``Player`` (the facts it reads, the others left out)."""
    from xl_elo.loader import Loaded, from_event

    module = get(federation)
    loaded = Loaded(module, from_event(module, event))
    return module.rate(loaded.event, options, **overrides)  # type: ignore[no-any-return]


def __getattr__(name: str) -> Any:
    if name == "FEDERATIONS":
        return codes()
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(name)

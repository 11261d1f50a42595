"""xl-elo: the rating rules of chess and shogi federations, for Excel and the command line.

The rule engine: one module per federation in :mod:`xl_elo.federations` (FIDE, FSE, FQE,
FFE, FESA) over a common core (:mod:`xl_elo.core`), the published tables as data
(:mod:`xl_elo.tables`) and the data contract of SPEC section 8 (:mod:`xl_elo.model`).

>>> from xl_elo import rate, read_event   # doctest: +SKIP
>>> results = rate("fide", read_event("players.csv", "games.csv", period="2026-10"))  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any

from xl_elo.core import expected_score, parse_result
from xl_elo.csvio import read_event
from xl_elo.federations import FEDERATIONS, find_federation
from xl_elo.model import Event, Game, HistoryGame, InputError, Player, Results

__version__ = "0.1.0"

__all__ = [
    "FEDERATIONS", "Event", "Game", "HistoryGame", "InputError", "Player", "Results",
    "expected_score", "find_federation", "parse_result", "rate", "read_event", "__version__",
]


def rate(federation: str, event: Event, **options: Any) -> Results:
    """Rate an event or period with a federation's rules (``"fide"``, ``"fse"``, ``"fqe"``,
    ``"ffe"``, ``"fesa"`` or an alias); ``options`` go to that federation's ``rate``."""
    import importlib

    code = find_federation(federation)
    module = importlib.import_module(f"xl_elo.federations.{code}")
    return module.rate(event, **options)  # type: ignore[no-any-return]

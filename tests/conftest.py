"""Shared test set-up.

- xlwings' Office.js decorators are switched on before anything imports xlwings, so the UDF
  module can be driven through ``xlwings.server`` (notes/excel-and-libreoffice.md).
- With ``XL_ELO_TEST_INSTALLED=1`` (CI), the tests run against the installed package, not
  the source tree: the repository root is removed from ``sys.path`` and a test checks where
  ``xl_elo`` came from (a table file left out of the wheel then fails CI).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("XLWINGS_ON_SERVER", "true")
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"

if os.environ.get("XL_ELO_TEST_INSTALLED") == "1":
    sys.path[:] = [p for p in sys.path if p not in ("", ".") and Path(p).resolve() != ROOT]
    for name in [m for m in sys.modules if m == "xl_elo" or m.startswith("xl_elo.")]:
        del sys.modules[name]


def any_player() -> type:
    """A player with every registered system's facts (a test's event is rated by any of them: each
    takes the facts it reads, :func:`xl_elo.model.as_player`)."""
    from dataclasses import field, fields, make_dataclass
    from typing import Any

    from xl_elo.federations import registry
    from xl_elo.model import Player

    columns: dict[str, Any] = {}
    for module in registry().values():
        for f in fields(module.Player):
            if "fact" in f.metadata:
                columns.setdefault(f.name, (f.name, Any, field(default=f.default, metadata=f.metadata)))
    return make_dataclass("AnyPlayer", list(columns.values()), bases=(Player,), frozen=True)


def event(players, games, history=(), period="2026-10"):
    """A small event: players as dicts of their facts, games as (round, player, opponent, result).

    The period defaults to October 2026 (FIDE and FSE require one, rules 2.3, 3.2)."""
    from xl_elo.core import parse_result
    from xl_elo.model import Event, Game, HistoryGame

    player = any_player()
    ps = [player(**p) for p in players]
    gs = []
    for g in games:
        rnd, a, b, res = g[:4]
        extra = g[4] if len(g) > 4 else {}
        gs.append(Game(a, b, parse_result(res, has_opponent=b is not None), rnd, **extra))
    hs = [HistoryGame(pid, o, r) for pid, o, r in history]
    return Event(tuple(ps), tuple(gs), tuple(hs), period)

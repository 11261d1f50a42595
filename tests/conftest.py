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

from hypothesis import settings

os.environ.setdefault("XLWINGS_ON_SERVER", "true")
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")

# no hypothesis example may fail for being slow: a test that fails on a busy machine is a defect (speed is
# measured in bench/, never asserted in a test)
settings.register_profile("xl-elo", deadline=None)
settings.load_profile("xl-elo")

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


def any_game():
    """A game with every registered system's facts of a game (each system's engine takes the ones it reads)."""
    from dataclasses import field, fields, make_dataclass
    from typing import Any

    from xl_elo.federations import registry
    from xl_elo.model import Game

    columns: dict[str, Any] = {}
    for module in registry().values():
        for f in fields(module.Game):
            if "fact" in f.metadata:
                columns.setdefault(f.name, (f.name, Any, field(default=f.default, metadata=f.metadata)))
    return make_dataclass("AnyGame", list(columns.values()), bases=(Game,), frozen=True)


def event(players, games, history=(), period="2026-10"):
    """A small event: players as dicts of their facts, games as (round, player, opponent, result).

    The period defaults to October 2026 (FIDE and FSE require one, rules 2.3, 3.2)."""
    from xl_elo.core import parse_result
    from xl_elo.model import Event, HistoryGame

    player = any_player()
    game = any_game()
    ps = [player(**p) for p in players]
    gs = []
    for g in games:
        rnd, a, b, res = g[:4]
        extra = g[4] if len(g) > 4 else {}
        gs.append(game(a, b, parse_result(res, has_opponent=b is not None), rnd, **extra))
    hs = [HistoryGame(pid, o, r) for pid, o, r in history]
    return Event(tuple(ps), tuple(gs), tuple(hs), period)


def pytest_collection_modifyitems(session, config, items):
    """The tests that read the recalculated workbooks run last, in their order: every other test runs while
    LibreOffice recalculates in the background."""
    waiting = [item for item in items if "recalculated" in getattr(item, "fixturenames", ())]
    if waiting:
        items[:] = [item for item in items if "recalculated" not in getattr(item, "fixturenames", ())] + waiting


def pytest_collection_finish(session):
    """Start the workbooks' LibreOffice recalculation in the background as soon as a test needs it, so that it
    runs while the other modules' tests do (test_workbooks.start_recalculation)."""
    if session.config.option.collectonly:
        return
    for item in session.items:
        module = getattr(item, "module", None)
        if "recalculated" in getattr(item, "fixturenames", ()) and module not in _BACKGROUND:
            _BACKGROUND.append(module)
            module.start_recalculation()


def pytest_configure(config):
    """A parallel run's controlling process names the run (pytest-xdist's run id), so that its workers share one
    background recalculation of each kind (tests/background.py)."""
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput") \
            and getattr(config.option, "testrunuid", None) is None:
        import uuid

        config.option.testrunuid = uuid.uuid4().hex


def pytest_sessionfinish(session):
    """End and clean up the background recalculation (whether or not a test used it); in a parallel run, the
    controlling process ends the workers' shared ones."""
    for module in _BACKGROUND:
        module.stop_recalculation()
    run = getattr(session.config.option, "testrunuid", None)
    if run and not hasattr(session.config, "workerinput"):
        from background import end_run

        end_run(run)


_BACKGROUND: list = []

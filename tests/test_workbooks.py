"""The template workbooks, recalculated in LibreOffice: the engine's results to the point, and every
input mistake a treasurer makes flagged on its row, with a banner and no rating (issue #14).

All the LibreOffice work of this module happens in one child process, started as soon as the
tests are collected (conftest.py) so that it runs while the other modules' tests do: every case
is filled into a template (small ones, except one full-room case per template, in the committed
template itself), and all are recalculated in two LibreOffice runs side by side. The tests then
only read the results (the session fixture ``recalculated`` waits for them).
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import threading
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from background import Background
from conftest import DATA, ROOT, event
from gen import random_event, random_uscf_event
from test_glicko2 import near_equal_ladder, random_ladder, upset_ladder

from xl_elo import schema, words
from xl_elo.federations import get, registry
from xl_elo.federations.contract import options_of
from xl_elo.formats.libreoffice import recalculate_many, soffice
from xl_elo.formats.workbook import compare, fill_template, read_workbook, write_cells
from xl_elo.frontends.cli import main
from xl_elo.loader import example_event, read_event
from xl_elo.model import Event, InputError
from xl_elo.templates import Capacity, build_template, template_names

NEED_LO = os.environ.get("XL_ELO_REQUIRE_LIBREOFFICE") == "1"
lo = pytest.mark.skipif(soffice() is None and not NEED_LO,
                        reason="LibreOffice (soffice) is not installed: the workbook recalculation tests are skipped")

SMALL = Capacity(24, 120, 120)


@dataclass
class Case:
    id: str
    federation: str
    capacity: Capacity
    event: Event | None = None
    options: dict[str, Any] | None = None
    tables: dict[str, tuple[list[str], list[list[Any]]]] | None = None
    settings: dict[str, Any] | None = None
    problem: tuple[str, int] | None = None
    """(sheet, row) where the workbook must flag a mistake; None for a valid event."""
    blocked: str | None = None
    """Words of the banner of a workbook that must show no rating, its input being valid."""
    refused: str | None = None
    """What the engine says when it refuses such an event too."""


def _fesa_handicap_event():
    players = [dict(id="A", rating=1680, games=40, bonus_count=100, grade="1 dan"),
               dict(id="B", rating=1400, games=40, bonus_count=20, grade="3 kyu", lb_run=5, mp_reached=True),
               dict(id="C", rating=1210, games=12, bonus_count=12), dict(id="D", nsr_grade="2 kyu"),
               dict(id="E", rating=1900, games=30, bonus_count=100, grade="1 dan", mp_run=5, lb_run=5, mp_reached=True),
               dict(id="F"), dict(id="G", rating=500, games=20, bonus_count=20)]
    games = [(1, "A", "B", 0, {"handicap": "B"}), (1, "C", "D", 1), (1, "E", "F", 1), (2, "A", "C", 1),
             (2, "B", "D", 0.5, {"handicap": "S"}), (2, "E", "G", 1, {"handicap": "6p"}), (3, "D", "A", 0),
             (3, "F", "G", 0), (3, "B", "E", 0), (4, "C", "E", 0, {"handicap": "R"}), (4, "G", None, "bye")]
    return event(players, games, period=None)


def _fesa(name: str) -> Event:
    d = DATA / "fesa" / name
    return read_event("fesa", d / "players.csv", d / "games.csv", d / "history.csv")


def _fide_corrections():
    """Rules 2.1, 2.3, 2.6 as FIDE publishes: -2.50 -> -3, K 40 in the year of the 18th birthday, 100%."""
    players = [dict(id="top", rating=2813, games=900, birth_year=1990, ever_2400=True),
               dict(id="opp", rating=2623, games=900, birth_year=1985),
               dict(id="jun", rating=2250, games=100, birth_year=2008),
               dict(id="j2", rating=2150, games=100, birth_year=2007), dict(id="w", rating=2000, games=100)]
    games = [(1, "top", "opp", 0.5), (2, "jun", "j2", 1), (3, "w", "j2", 1), (4, "w", "jun", 1)]
    return event(players, games, period="2026-10")


def _fide_rapid_floor():
    """Rules 2.8, 2.9 on the rapid list: 2700 beats 2090 (610 apart, he above 2600: not rated) and 2250
    (450 counts 400: PD .92, +0.8 -> +1); 1405 loses to 1500 (PD .37: -7.4 -> -7): 1398, below 1400,
    shown as unrated."""
    players = [dict(id="top", rating=2700, games=900, birth_year=1985, ever_2400=True),
               dict(id="far", rating=2090, games=100, birth_year=1990),
               dict(id="mid", rating=2250, games=100, birth_year=1990),
               dict(id="low", rating=1405, games=100, birth_year=1960),
               dict(id="opp", rating=1500, games=100, birth_year=1975)]
    games = [(1, "top", "far", 1), (2, "top", "mid", 1), (1, "low", "opp", 0)]
    return event(players, games, period="2026-10")


def _fesa_random(seed: int) -> Event:
    from gen import random_fesa_event

    return random_fesa_event(seed, handicaps=0.12)[0]


#: A FESA tournament's room in the tests (the real ones are small); the committed template is FESA's own size.
FESA_SMALL = Capacity(16, 48, 48)
#: The tests' room built as a large room is (grouped by player: templates.workbook.grouped_from).
GROUPED = Capacity(24, 121, 120)
#: A ladder's season in the tests: six periods laid out.
GLICKO2_SMALL = Capacity(16, 60, 0, 6)
#: The room of a test's template where SMALL is not it (a ladder's periods make each row cost more).
SMALL_OF = {"glicko2": GLICKO2_SMALL, "fesa": FESA_SMALL}


def valid_cases() -> list[Case]:
    """Events whose results the workbook must give exactly as the engine, in templates of the tests' size (the
    same formulas as the full room, fewer rows), and four in the committed template's full room: FIDE's (its sides
    sheet in two halves), the FQE's (the command-line tests below reuse it), US Chess's and a ladder's (twelve
    periods). The other full rooms are recalculated by bench/templates_lo.py (every row shown, the banner's
    verdict), not here: each costs LibreOffice 4 to 9 s."""
    from test_cfc import mixed_event
    from test_ffe import UNRATED_EVENT

    from xl_elo.templates import default_capacity

    cases = [
        Case("fide-example-full", "fide", default_capacity("fide"), example_event("fide")),
        Case("fide-random", "fide", SMALL, random_event(11, 24, 7, federation="fide")),
        # a large room's layout (each player's sums as running totals on by_player), in a small room
        Case("fide-random-grouped", "fide", GROUPED, random_event(11, 24, 7, federation="fide")),
        Case("cfc-random-grouped", "cfc", GROUPED, random_event(16, 24, 6, unrated=0.2, federation="cfc",
                                                               period=None)),
        Case("fide-corrections", "fide", SMALL, _fide_corrections()),
        Case("fide-logistic", "fide", SMALL, random_event(15, 20, 5, federation="fide"),
             options={"expected_method": "logistic"}),
        Case("fide-rapid-floor", "fide", SMALL, _fide_rapid_floor(), options={"list": "rapid"}),
        Case("fse-example", "fse", SMALL, example_event("fse")),
        Case("fse-random", "fse", SMALL, random_event(12, 24, 7, federation="fse")),
        Case("fqe-daniel-full", "fqe", default_capacity("fqe"), example_event("fqe")),
        Case("fqe-random", "fqe", SMALL, random_event(13, 24, 6, unrated=0.25, federation="fqe")),
        Case("fqe-match", "fqe", SMALL, event([dict(id="a", rating=2280, games=100),
                                               dict(id="b", rating=2290, games=100)],
                                              [(i + 1, "a", "b", 1) for i in range(6)])),
        Case("ffe-example", "ffe", SMALL, example_event("ffe")),
        Case("ffe-round-robin", "ffe", SMALL, event(*UNRATED_EVENT, period=None)),
        Case("ffe-random-table", "ffe", SMALL, random_event(14, 24, 9, unrated=0.3, federation="ffe"),
             options={"dp_method": "table"}),
        Case("fesa-13th", "fesa", FESA_SMALL, _fesa("13th_nekomadoken")),
        Case("fesa-sample", "fesa", FESA_SMALL, _fesa("sample")),
        Case("fesa-handicap", "fesa", FESA_SMALL, _fesa_handicap_event()),
        Case("fesa-random-0", "fesa", FESA_SMALL, _fesa_random(0)),
        Case("cfc-mixed", "cfc", SMALL, mixed_event()),
        Case("cfc-majority-unrated", "cfc", SMALL, _cfc_majority_unrated(), options={"preliminary": 1200}),
        Case("cfc-random", "cfc", SMALL, random_event(16, 24, 6, unrated=0.2, federation="cfc", period=None)),
        Case("cfc-match", "cfc", SMALL, event([dict(id="a", rating=850, games=100, highest=860),
                                               dict(id="b", rating=820, games=100)],
                                              [(i + 1, "a", "b", 1) for i in range(6)], period=None)),
        Case("cfc-2199", "cfc", SMALL, event(
            [dict(id="a", rating=2190, games=100), dict(id="b", rating=2210, games=100, highest=2300),
             dict(id="c", rating=2199, games=30), dict(id="d", rating=810, games=100),
             dict(id="e", rating=780, games=60), dict(id="f", rating=300, games=10), dict(id="g", rating=210, games=15),
             dict(id="h", rating=205, games=5)],
            [(1, "a", "b", 1), (1, "c", "d", 1), (1, "e", "f", 0), (2, "a", "c", 1), (2, "b", "e", 1),
             (2, "d", "f", 0), (3, "a", "d", 1), (3, "b", "f", 1), (3, "c", "e", 1), (4, "a", "e", 1),
             (4, "b", "c", 0), (4, "d", "f", 0.5), (1, "g", "h", 0)], period=None)),
        Case("glicko2-paper-full", "glicko2", default_capacity("glicko2"), example_event("glicko2")),
        Case("glicko2-ladder", "glicko2", GLICKO2_SMALL, random_ladder(3)),
        Case("glicko2-upset-tau", "glicko2", GLICKO2_SMALL, upset_ladder(), options={"tau": 0.3, "rd_cap": 400}),
        Case("glicko2-skipped-months", "glicko2", GLICKO2_SMALL,
             random_ladder(5, periods=("2026-01", "2026-04", "2026-05-07"))),
        Case("glicko2-near-equal-ratings", "glicko2", GLICKO2_SMALL, near_equal_ladder()),
        Case("uscf-example-full", "uscf", default_capacity("uscf"), example_event("uscf")),
        Case("uscf-random-2025", "uscf", SMALL, random_uscf_event(3, 23, 7, period="2025-01")),
        Case("uscf-random-2023", "uscf", SMALL, random_uscf_event(8, 22, 6, period="2023-01-15"),
             options={"dual_rated": "yes"}),
        Case("dwz-barthel", "dwz", SMALL, example_event("dwz")),
        # exceptional players of the Sonderwertung who met new players (the second pass), remaining games kept
        Case("dwz-random-sonderwertung", "dwz", SMALL, random_event(1, 20, 6, unrated=0.25, federation="dwz")),
        Case("dwz-random-before-2013", "dwz", SMALL,
             random_event(4, 20, 6, unrated=0.3, federation="dwz", period="2013-07")),
    ]
    return cases


def _cfc_majority_unrated() -> Event:
    """More than half unrated (417.1a: the operator's preliminary rating)."""
    from test_cfc import mixed_event

    return mixed_event(B=dict(rating=None, games=0), C=dict(rating=None, games=0))


def _fesa_loop() -> Event:
    """FESA's program never finishes on it (rules 6.12): the ratings cycle 117, 114, 112 / 1273, 1270, 1268."""
    players = [dict(id="P1", rating=968, games=46, bonus_count=76), dict(id="P2", nsr_grade="4 dan")]
    return event(players, [(1, "P1", "P2", 1), (2, "P1", "P2", 1), (3, "P1", "P2", 0), (4, "P1", "P2", 0)],
                 period=None)


def _uscf_long_walk() -> Event:
    """A player on 8 games, all won before, meets twelve players far apart: his special rating walks down
    eleven breakpoints in Step 4 (rules 10.5), more than the template lays out."""
    opponents = [2160, 1758, 1139, 2184, 559, 2022, 860, 2373, 485, 1609, 531, 1183]
    results = [1, 1, 1, 1, 1, 0, 1, 0.5, 1, 0.5, 1, 0.5]
    players = [dict(id="x", rating=908, games=8, record="all wins")]
    players += [dict(id=f"o{i}", rating=r, games=600) for i, r in enumerate(opponents)]
    return event(players, [(i + 1, "x", f"o{i}", s) for i, s in enumerate(results)])


def blocked_cases() -> list[Case]:
    """Valid input whose ratings the workbook must not show: the engine refuses it too, or only single
    floats decide it (rules 6.11, 6.12), or it needs more steps than laid out (rules 10.5)."""
    return [
        Case("fesa-never-settles", "fesa", FESA_SMALL, _fesa_loop(), blocked="sweeps have not settled",
             refused="never settle"),
        Case("fesa-half-point", "fesa", FESA_SMALL, _fesa_random(5), blocked="falls on a half point"),
        Case("cfc-no-preliminary", "cfc", SMALL, _cfc_majority_unrated(), blocked="more than half the players are "
                                                                                "unrated"),
        Case("glicko2-seven-periods", "glicko2", GLICKO2_SMALL,
             random_ladder(4, periods=tuple(f"2026-{m:02d}" for m in range(1, 8))),
             blocked="more than 6 rating periods"),
        Case("glicko2-thirteen-steps", "glicko2", GLICKO2_SMALL, upset_ladder(steps=True), options={"tau": 0.3},
             blocked="a volatility needs more than"),
        Case("uscf-more-steps", "uscf", SMALL, _uscf_long_walk(), blocked="needs more than the 10 steps"),
        Case("uscf-bonus-before-2017", "uscf", SMALL, random_uscf_event(4, 10, 3, period="2016-12"),
             blocked="bonus threshold before May 2017", refused="before 2017-05-01"),
    ]


# --------------------------------------------------------------------------- the mistakes


def _rows(ev: Event) -> dict[str, tuple[list[str], list[list[Any]]]]:
    """An event as the cells a user types: numbers as numbers, text as text."""
    from xl_elo.formats.workbook import _cell, game_cells
    from xl_elo.model import facts

    columns = ["id", "name", "rating", *(f.name for f in facts(type(ev.players[0])))]
    players = [[_cell(getattr(p, c)) for c in columns] for p in ev.players]
    return {"players": (columns, players), "games": game_cells(ev.games)}


def _typed(cells: list[Any]) -> list[Any]:
    """A CSV row as a spreadsheet types it: plain numbers (decimal point or comma) become numbers."""
    import re

    out: list[Any] = []
    for c in cells:
        text = c.strip()
        if re.fullmatch(r"-?\d+(?:[.,]\d+)?", text):
            out.append(float(text.replace(",", ".")))
        else:
            out.append(c if text else None)
    return out


MISTAKES: list[tuple[str, str, Any, tuple[str, int]]] = [
    # (id, federation, edit of the clean rows, where the workbook must flag it)
    ("game-typed-twice", "fqe", lambda t: t["games"][1].append(list(t["games"][1][0])), ("games", 10)),
    ("rating-typed-as-text", "fqe", lambda t: t["players"][1][1].__setitem__(2, "1 875"), ("players", 3)),
    ("rating-with-a-thousands-separator", "fide", lambda t: t["players"][1][0].__setitem__(2, "1.850"), ("players", 2)),
    ("result-typo", "fqe", lambda t: t["games"][1][2].__setitem__(3, "1-O"), ("games", 4)),
    ("id-case", "fqe", lambda t: t["games"][1][0].__setitem__(1, t["games"][1][0][1].upper()), ("games", 2)),
    ("self-pairing", "fide", lambda t: t["games"][1][0].__setitem__(2, t["games"][1][0][1]), ("games", 2)),
    ("birth-year-as-text", "fide", lambda t: t["players"][1][1].__setitem__(4, "1990 "), ("players", 3)),
    ("birth-after-the-period", "fide", lambda t: t["players"][1][1].__setitem__(4, 2030), ("players", 3)),
    ("games-negative", "fse", lambda t: t["players"][1][0].__setitem__(3, -3), ("players", 2)),
    ("games-left-blank", "fide", lambda t: t["players"][1][1].__setitem__(3, None), ("players", 3)),
    ("yes-no-typo", "fide", lambda t: t["players"][1][0].__setitem__(5, "maybe"), ("players", 2)),
    ("round-zero", "fqe", lambda t: t["games"][1][0].__setitem__(0, 0), ("games", 2)),
    ("duplicate-id", "fqe", lambda t: t["players"][1].append(list(t["players"][1][0])), ("players", 11)),
    ("unknown-opponent", "ffe", lambda t: t["games"][1][1].__setitem__(2, "nobody"), ("games", 3)),
    ("spreadsheet-error", "fse", lambda t: t["players"][1][1].__setitem__(2, "#N/A"), ("players", 3)),
    ("highest-as-text", "cfc", lambda t: t["players"][1][2].__setitem__(4, "1 600"), ("players", 4)),
    ("rd-of-a-new-player", "glicko2", lambda t: t["players"][1][2].__setitem__(2, None), ("players", 4)),
    ("period-left-blank", "glicko2", lambda t: t["games"][1][1].__setitem__(5, None), ("games", 3)),
    ("period-not-a-month", "glicko2", lambda t: t["games"][1][0].__setitem__(5, "2026-13"), ("games", 2)),
    ("period-a-day-of-a-monthly-period", "glicko2", lambda t: t["games"][1][1].__setitem__(5, "2026-11-15"),
     ("games", 3)),
    ("record-typo", "uscf", lambda t: t["players"][1][3].__setitem__(6, "all win"), ("players", 5)),
    ("games-without-a-rating", "uscf", lambda t: t["players"][1][5].__setitem__(3, 3), ("players", 7)),
    ("record-with-no-game-before", "uscf", lambda t: t["players"][1][6].__setitem__(6, "all losses"), ("players", 8)),
    ("dwz-rating-as-text", "dwz", lambda t: t["players"][1][2].__setitem__(2, "1 087"), ("players", 4)),
    ("dwz-index-missing", "dwz", lambda t: t["players"][1][1].__setitem__(3, None), ("players", 3)),
    ("dwz-game-typed-twice", "dwz", lambda t: t["games"][1].append(list(t["games"][1][0])), ("games", 6)),
]


#: Mistakes whose problem cell must say what ``xl-elo rate`` says of the same cell (the reader's words, in
#: English, then the French): (id, federation, edit, where, the words or None for the reader's own message).
WORDS: list[tuple[str, str, Any, tuple[str, int], Any]] = [
    ("words-thousands-space", "fqe", lambda t: t["players"][1][1].__setitem__(2, "1 810"), ("players", 3), None),
    ("words-thousands-point", "fqe", lambda t: t["players"][1][1].__setitem__(2, "1.810"), ("players", 3), None),
    ("words-decimal-comma", "fqe", lambda t: t["players"][1][1].__setitem__(2, "1810,5"), ("players", 3), None),
    ("words-text", "fqe", lambda t: t["players"][1][1].__setitem__(2, "about 1800"), ("players", 3), None),
    ("words-out-of-range", "fqe", lambda t: t["players"][1][1].__setitem__(2, 4200), ("players", 3), None),
    # a date typed into a rating cell: the workbook sees its day number, the reader the date
    ("words-date", "fqe", lambda t: t["players"][1][1].__setitem__(2, 46296), ("players", 3),
     lambda: str(_refusal(schema.RATING, dt.datetime(2026, 10, 1)))),
    ("words-round-text", "fqe", lambda t: t["games"][1][2].__setitem__(0, "3 "), ("games", 4), None),
    ("words-game-typed-twice", "fqe", lambda t: t["games"][1].append(list(t["games"][1][0])), ("games", 10), None),
    # a rating that reads two ways, or below 10 with decimals (a thousands separator read as a decimal one),
    # refused in every system's words (rules 1.4)
    ("words-two-ways-fide", "fide", lambda t: t["players"][1][0].__setitem__(2, "2.412"), ("players", 2), None),
    ("words-two-ways-glicko2", "glicko2", lambda t: t["players"][1][0].__setitem__(2, "1,500"), ("players", 2),
     None),
    ("words-two-ways-uscf", "uscf", lambda t: t["players"][1][0].__setitem__(2, "1,843"), ("players", 2), None),
    ("words-lost-thousands-glicko2", "glicko2", lambda t: t["players"][1][0].__setitem__(2, 1.5), ("players", 2),
     None),
    ("words-lost-thousands-uscf", "uscf", lambda t: t["players"][1][0].__setitem__(2, 1.843), ("players", 2), None),
    ("words-below-the-floor-uscf", "uscf", lambda t: t["players"][1][0].__setitem__(2, 50), ("players", 2), None),
    ("words-dwz-with-its-index", "dwz", lambda t: t["players"][1][1].__setitem__(2, "894-9"), ("players", 3), None),
    # 1/2 typed in a result cell: a spreadsheet makes a date of it
    ("words-result-a-date", "fqe", lambda t: t["games"][1][2].__setitem__(3, 46024), ("games", 4), None),
]


def _refusal(reading: Any, value: Any) -> Exception:
    try:
        reading(value, typed=True)
    except schema.ValueProblem as exc:
        return exc
    raise AssertionError(f"{value!r} is accepted")


def mistake_cases() -> list[Case]:
    out = []
    for cid, code, edit, where, _ in WORDS:
        ev = example_event(code)
        tables = _rows(ev)
        edit(tables)
        out.append(Case(cid, code, SMALL_OF.get(code, SMALL), tables=tables, settings={"period": ev.period},
                        problem=where))
    # 1:0 and 0:1 typed in result cells: a spreadsheet makes times of day of them (the fractions of a day 1/24
    # and 1/1440 it stores), read as typed (rules 1.1)
    ev = example_event("fqe")
    tables = _rows(ev)
    for row in tables["games"][1]:
        row[3] = {1.0: 1 / 24, 0.0: 1 / 1440}.get(row[3], row[3])
    out.append(Case("results-typed-as-times", "fqe", SMALL, tables=tables, settings={"period": ev.period}))
    for cid, code, edit, where in MISTAKES:
        ev = example_event(code)
        tables = _rows(ev)
        edit(tables)
        out.append(Case(f"mistake-{cid}", code, SMALL_OF.get(code, SMALL), tables=tables,
                        settings={"period": ev.period}, problem=where))
    # the period left blank (FIDE, FSE: required, no silent default)
    for code in ("fide", "fse"):
        ev = example_event(code)
        out.append(Case(f"mistake-period-blank-{code}", code, SMALL, tables=_rows(ev), settings={},
                        problem=("instructions", 0)))
    # more players pasted than the template has room for
    ev = random_event(21, SMALL.players + 6, 3, federation="fqe")
    out.append(Case("mistake-too-many-players", "fqe", SMALL, tables=_rows(ev), settings={},
                    problem=("players", SMALL.players + 2)))
    # the bad corpus of the command line, typed into a template (the same verdict, rules 8)
    for d in sorted(p for p in (DATA / "bad").iterdir() if p.is_dir()):
        status = int((d / "expected.txt").read_text(encoding="utf-8").split("\n")[0])
        tables = {}
        import csv

        for sheet in ("players", "games"):
            text = (d / f"{sheet}.csv").read_text(encoding="utf-8")
            delimiter = ";" if text.split("\n")[0].count(";") > text.split("\n")[0].count(",") else ","
            rows = list(csv.reader(text.splitlines(), delimiter=delimiter))
            tables[sheet] = ([h.strip() for h in rows[0]], [_typed(r) for r in rows[1:]])
        out.append(Case(f"bad-{d.name}", "fqe", SMALL, tables=tables, settings={},
                        problem=None if status == 0 else ("any", 0)))
    return out


# --------------------------------------------------------------------------- one LibreOffice session


def prepare(base: Path) -> dict[str, Path]:
    """Every case filled into its template and recalculated: two LibreOffice runs side by side; and each
    system's template of the tests' size, unfilled (``template-<code>``).

    A full-room case fills the committed template itself (what a user opens; a test checks it is a fresh
    build), the others a template of the tests' size, each size built once."""
    from xl_elo.templates import default_capacity, file_name

    templates: dict[tuple[str, Capacity], Path] = {}
    filled: dict[str, Path] = {}
    cases = valid_cases() + blocked_cases() + mistake_cases()

    def template(code: str, capacity: Capacity) -> Path:
        if (code, capacity) not in templates:
            committed = ROOT / "workbooks" / file_name(code)
            if capacity == GROUPED:
                from xl_elo.templates.workbook import grouped_from

                with grouped_from(0):
                    templates[code, capacity] = build_template(code, base / "templates" / f"{code}-grouped", capacity)
            else:
                templates[code, capacity] = committed if capacity == default_capacity(code) and committed.exists() \
                    else build_template(code, base / "templates" / f"{code}-{capacity.players}", capacity)
        return templates[code, capacity]

    for case in cases:
        target = base / "filled" / f"{case.id}.xlsx"
        if case.event is not None:
            filled[case.id] = fill_template(template(case.federation, case.capacity), case.event, target, case.options)
        else:
            filled[case.id] = write_cells(template(case.federation, case.capacity), target, case.tables or {},
                                          case.settings)
    blank: dict[str, Path] = {}
    for code in registry():  # every template empty, as a user first opens it
        empty = base / "filled" / f"empty-{code}.xlsx"
        blank[f"template-{code}"] = template(code, SMALL_OF.get(code, SMALL))
        shutil.copyfile(blank[f"template-{code}"], empty)
        filled[f"empty-{code}"] = empty

    # two LibreOffice runs of about the same length (seconds each file takes, roughly)
    def cost(cid: str) -> float:
        return 5.0 if cid.endswith("-full") else 1.0 if "fesa" in cid or "glicko2" in cid else 0.4

    runs: tuple[list[Path], list[Path]] = ([], [])
    load = [0.0, 0.0]
    for cid in sorted(filled, key=cost, reverse=True):
        k = 0 if load[0] <= load[1] else 1
        runs[k].append(filled[cid])
        load[k] += cost(cid)
    out = base / "recalculated"
    results: dict[str, list[Path]] = {}
    errors: list[BaseException] = []

    def run(name: str, files: list[Path]) -> None:
        try:
            results[name] = recalculate_many(files, out / name, timeout=RECALCULATION_SECONDS)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(n, f)) for n, f in zip(("heavy", "light"), runs, strict=True) if f]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return {**blank, **{p.stem: p for files in results.values() for p in files}}


#: How long the two LibreOffice runs may take on a busy 2-core machine (about a minute when idle).
RECALCULATION_SECONDS = 900.0
#: The background preparation started when the tests are collected (conftest.py, tests/background.py).
BACKGROUND = Background("workbooks", prepare, RECALCULATION_SECONDS + 120)
start_recalculation, stop_recalculation = BACKGROUND.start, BACKGROUND.stop


@pytest.fixture(scope="session")
def recalculated(tmp_path_factory) -> dict[str, Path]:
    """Every case filled into its template and recalculated (started in the background at collection)."""
    done = BACKGROUND.result(lambda: tmp_path_factory.mktemp("workbooks"))
    return {k: Path(v) for k, v in done.items()}


def _cases(kind: str) -> list[Case]:
    return valid_cases() if kind == "valid" else mistake_cases()


@lo
@pytest.mark.parametrize("case", valid_cases(), ids=lambda c: c.id)
def test_the_workbook_gives_the_engines_results(recalculated, case):
    """Ratings exactly, intermediates to 1e-6, every results cell (and no input problem)."""
    wb = read_workbook(recalculated[case.id])
    module = get(wb.federation)
    results = module.rate(wb.event, options_of(module.Options, None, **wb.options))
    assert wb.calculated
    differences = compare(wb, results)
    assert not differences, "\n".join(map(str, differences[:20]))
    assert len(wb.computed) == len(case.event.players)
    if case.id == "glicko2-skipped-months":  # February and March rated as periods in which nobody played
        assert results.warnings and "2026-02, 2026-03" in results.warnings[0]
        assert _values(recalculated[case.id], "lad_name")[:4] == ["2026-01", "2026-02", "2026-03", "2026-04"]
    if case.id == "fqe-daniel-full":
        assert wb.computed["daniel"]["rating_after"] == 2012  # the FQE's worked example
    if case.id == "fide-corrections":
        assert (wb.computed["top"]["change"], wb.computed["top"]["rating_after"]) == (-3, 2810)
        assert wb.computed["jun"]["k"] == 40 and wb.computed["j2"]["k"] == 20
        assert wb.computed["w"]["performance"] == pytest.approx((2150 + 2250) / 2 + 800)
    if case.id == "fide-rapid-floor":
        assert (wb.computed["top"]["games_rated"], wb.computed["top"]["rating_after"]) == (1, 2701)
        assert (wb.computed["low"]["change"], wb.computed["low"]["rating_after"]) == (-7, None)
        assert wb.computed["low"]["note"] == ("new rating 1398 is below 1400: shown as unrated on the next list "
                                              "(rules 2.8)")


def _language(path: Path) -> str:
    """The language a workbook's words are in (its name XL_ELO_LANGUAGE)."""
    import openpyxl

    from xl_elo.formats.workbook import language_of

    wb = openpyxl.load_workbook(path, read_only=True)
    try:
        return language_of(wb)
    finally:
        wb.close()


def said(path: Path, english: str, **params: Any) -> str:
    """An English phrase as the workbook says it (its catalogue's words)."""
    with words.use(_language(path)):
        return str(words._(english, **params))


def _values(path: Path, name: str) -> list[Any]:
    import openpyxl

    wb = openpyxl.load_workbook(path, data_only=True, read_only=True)
    try:
        for sheet, ref in wb.defined_names[name].destinations:
            cells = wb[sheet][ref.replace("$", "")]
            if not isinstance(cells, tuple):  # one cell
                return [cells.value]
            return [row[0].value for row in cells]
    finally:
        wb.close()
    return []


@lo
@pytest.mark.parametrize("case", mistake_cases(), ids=lambda c: c.id)
def test_a_mistake_is_flagged_on_its_row_and_no_rating_is_shown(recalculated, case):
    """The workbook's own formulas and xl-elo's reader give the same verdict (rules 8); while a problem
    is open the results sheet says so and shows no rating."""
    path = recalculated[case.id]
    banner = _values(path, "results_banner")[0]
    after = _values(path, "r_rating_after")
    engine_refuses = False
    try:  # the reader refuses it, or the system's rules do (a US Chess record with no game before)
        filled = read_workbook(path)
        get(case.federation).rate(filled.event, options_of(get(case.federation).Options, None, **filled.options))
    except InputError as exc:
        engine_refuses = True
        message = str(exc)
    valid = said(path, "Results valid: every input checked")
    if case.problem is None:
        assert not engine_refuses, message
        assert banner == valid, banner
        return
    assert engine_refuses, f"the engine accepts {case.id}"
    assert banner != valid and said(path, "settings") != banner, banner
    assert all(v in (None, "") for v in after), "a rating is shown while an input problem is open"
    sheet, row = case.problem
    if sheet in ("players", "games"):
        problems = _values(path, f"{'player' if sheet == 'players' else 'game'}_problem")
        if row - 2 < len(problems):
            assert problems[row - 2], f"{sheet} row {row} is not flagged: {problems[:12]}"
        assert (f"sheet {sheet}" in message or message.startswith(f"{sheet}, row")) and (
            f"row {row}" in message or sheet in message), message
        where = said(path, "{sheet} row {row}", sheet=sheet, row=row).rsplit(" ", 1)[0]
        assert where in banner or said(path, "{sheet}: rows below row {row}", sheet=sheet, row="").strip() in banner
    elif sheet == "instructions":
        assert said(path, "settings") in banner and "period" in message


@lo
@pytest.mark.parametrize("mistake", WORDS, ids=lambda w: w[0])
def test_the_problem_cell_says_what_the_command_line_says(recalculated, mistake):
    """A thousands separator, a decimal comma, a date, a value the federation never publishes, a game typed twice:
    the row's problem cell holds the words xl-elo rate gives for the same cell (rules 8), in the template's language
    (the command line's English read back through the catalogue: xl_elo.words.translate); one mistake is one
    problem, and the banner points to its row."""
    cid, _, _, (sheet, row), expected = mistake
    path = recalculated[cid]
    cells = _values(path, f"{'player' if sheet == 'players' else 'game'}_problem")
    cell = cells[row - 2]
    if expected is not None:
        said = expected()
    else:
        with pytest.raises(InputError) as refused:
            read_workbook(path)
        found = [p for p in refused.value.problems if p.row == row]
        assert len(found) == 1, refused.value.problems
        said = found[0].message
    lang = _language(path)
    assert words.translate(said, lang) in cell, f"workbook: {cell!r}\nxl-elo rate: {said!r} ({lang})"
    assert sum(1 for c in cells if c) == 1, [c for c in cells if c]
    banner = _values(path, "results_banner")[0]
    with words.use(lang):
        where = words._("{sheet} row {row}", sheet=sheet, row=row)
        assert banner == words._("1 input problem: these results are not valid; see {where}", where=where), banner


@lo
@pytest.mark.parametrize("case", blocked_cases(), ids=lambda c: c.id)
def test_what_only_the_engine_can_rate_shows_no_rating(recalculated, case, capsys):
    """The banner says why, no rating is shown; the engine refuses it too, or rates it in single floats, and
    ``xl-elo rate`` on the workbook quotes the banner (not "formulas not calculated")."""
    path = recalculated[case.id]
    banner = _values(path, "results_banner")[0]
    assert case.blocked in banner and "not valid" in banner, banner
    assert all(v in (None, "") for v in _values(path, "r_rating_after"))
    module = get(case.federation)
    if case.refused is not None:
        with pytest.raises(InputError, match=case.refused):
            module.rate(case.event)
    elif case.id == "cfc-no-preliminary":
        with pytest.raises(InputError, match=r"417\.1a"):
            module.rate(case.event)
    else:
        assert module.rate(case.event).rows
        assert main(["rate", str(path), "--format", "csv"]) == 0
        err = capsys.readouterr().err
        assert f"{path.name} shows no rating; its banner says: " in err and case.blocked in err, err
        assert "not been calculated" not in err


@lo
def test_no_error_value_in_an_empty_or_a_filled_workbook(recalculated):
    """No #VALUE! (or any error value) anywhere in an empty template or a valid filled one."""
    import openpyxl

    names = [f"empty-{code}" for code in registry()] + ["fqe-daniel-full", "ffe-round-robin", "fesa-handicap",
                                                               "cfc-mixed"]
    for name in names:
        wb = openpyxl.load_workbook(recalculated[name], data_only=True, read_only=True)
        bad = []
        for ws in wb.worksheets:
            for row in ws.iter_rows(values_only=True):
                bad += [v for v in row if isinstance(v, str) and ((v.startswith("#") and v.endswith(("!", "?", "A")))
                                                                   or v.startswith("Err:"))]
        wb.close()
        assert not bad, f"{name}: {bad[:5]}"


def _members(path):
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist()}


def test_committed_workbooks_are_a_fresh_build(tmp_path):
    """workbooks/ holds exactly what `xl-elo workbooks` builds (rebuild and commit when this fails)."""
    committed = ROOT / "workbooks"
    names = sorted(p.name for p in committed.glob("*.xlsx"))
    from xl_elo.templates import build_all, shipped

    assert names == sorted(s.file for s in shipped())
    for path in build_all(tmp_path):
        assert _members(path) == _members(committed / path.name), f"{path.name} differs from a fresh build"


def test_templates_use_only_portable_functions(tmp_path):
    """No function LibreOffice 7.4 or Excel 2016 lacks (notes/excel-and-libreoffice.md)."""
    banned = ("XLOOKUP", "XMATCH", "LET(", "LAMBDA", "FILTER(", "UNIQUE(", "SORT(", "SEQUENCE(", "IFS(",
              "MAXIFS", "MINIFS", "SWITCH(", "TEXTJOIN", "CONCAT(",
              # volatile: recalculated after every typed cell, in Excel and LibreOffice (issue #27)
              "TODAY(", "NOW(", "OFFSET(", "INDIRECT(", "RAND(", "RANDBETWEEN(", "CELL(", "INFO(")
    for name in template_names():
        path = build_template(name, tmp_path, SMALL)
        for member, data in _members(path).items():
            if member.startswith("xl/worksheets/"):
                text = data.decode("utf-8")
                for word in banned:
                    assert f"<f>{word}" not in text and f"({word}" not in text and f",{word}" not in text, (name, word)
                assert "vbaProject" not in member


@lo
def test_rate_a_filled_workbook_on_the_command_line(recalculated, tmp_path, capsys):
    filled = tmp_path / "daniel.xlsx"
    shutil.copyfile(recalculated["fqe-daniel-full"], filled)
    before = filled.read_bytes()
    assert main(["rate", str(filled), "--output", str(tmp_path / "rated.xlsx")]) == 0
    err = capsys.readouterr().err
    assert "agree with the engine on every results cell" in err
    assert filled.read_bytes() == before  # the input is never written
    assert main(["rate", str(filled), "--output", str(filled)]) == 2
    assert main(["rate", str(filled), "--format", "csv", "-o", str(tmp_path / "out.csv")]) == 0
    assert (tmp_path / "out.csv").read_text(encoding="utf-8").startswith("id,name,status")


@lo
def test_a_disagreement_names_the_input_cells_and_exits_1(recalculated, tmp_path, capsys):
    """Change a computed cell behind the formulas' back: the comparison names the player's input rows."""
    import openpyxl

    from xl_elo.formats.workbook import _put_cells, _sheet_paths

    source = recalculated["fqe-daniel-full"]
    ids = _values(source, "r_id")
    wb = openpyxl.load_workbook(source, read_only=True)
    sheet, ref = next(wb.defined_names["r_rating_after"].destinations)
    wb.close()
    first = ref.replace("$", "").split(":")[0]
    letters = first.rstrip("0123456789")
    coord = f"{letters}{int(first[len(letters):]) + ids.index('daniel')}"
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(tmp_path / "tampered.xlsx", "w") as zout:
        member = _sheet_paths(zin)[sheet]
        for item in zin.infolist():  # a value typed over the formula, every other cell as calculated
            data = zin.read(item.filename)
            zout.writestr(item, _put_cells(data, {coord: 2013}) if item.filename == member else data)
    assert main(["rate", str(tmp_path / "tampered.xlsx"), "--format", "csv"]) == 1
    err = capsys.readouterr().err
    assert "'daniel': input players row 2, games rows" in err
    assert "column 'rating_after': workbook 2013, engine 2012" in err


def test_every_result_spelling_is_in_every_template(tmp_path):
    """The templates' accepted results are the package's own spellings (rules 1.1): one list, so a spelling the
    reader learns is accepted by every template rebuilt; one a spreadsheet reads as a time of day when typed
    (1:0 is 01:00) is listed by its minutes too."""
    import openpyxl

    from xl_elo.core import RESULT_SPELLINGS

    path = build_template("fqe", tmp_path, SMALL)
    keys = set(v for v in _values(path, "result_key") if v is not None)
    assert keys == {str(k) for k in RESULT_SPELLINGS}
    times = [k for k in RESULT_SPELLINGS if k.count(":") == 1 and all(p.isdigit() for p in k.split(":"))]
    listed = [v for v in _values(path, "result_time") if v is not None]
    assert sorted(listed) == sorted(int(a) * 60 + int(b) for a, b in (k.split(":") for k in times))
    assert openpyxl  # the names are read with openpyxl (_values)


def test_an_untouched_template_is_read_without_warning(tmp_path, capsys):
    """xl-elo rate on every template as xl-elo workbooks writes it: no warning (no sheet it does not know, no
    complaint about formulas never calculated when there is nothing to compare)."""
    for name in template_names():
        if name == "tables":
            continue
        path = build_template(name, tmp_path / name, SMALL)  # the same sheets as the full room, smaller
        main(["rate", str(path), "--output", str(tmp_path / f"{name}.csv")])
        err = capsys.readouterr().err
        assert "warning" not in err, f"{name}: {err}"


def test_an_event_bigger_than_the_room_is_not_filled(tmp_path):
    """fill_template never leaves rows below the template's room (the reader would refuse them later)."""
    template = build_template("fqe", tmp_path / "t", Capacity(4, 8, 4))
    with pytest.raises(ValueError, match="6 rows for the sheet players, which has room for 4"):
        fill_template(template, random_event(2, 6, 2, federation="fqe"), tmp_path / "filled.xlsx")
    assert not (tmp_path / "filled.xlsx").exists()


def test_uncalculated_workbook_is_not_compared(tmp_path, capsys):
    template = build_template("fqe", tmp_path / "t", SMALL)
    filled = fill_template(template, example_event("fqe"), tmp_path / "filled.xlsx")
    assert main(["rate", str(filled), "--format", "csv"]) == 0
    captured = capsys.readouterr()
    assert "have not been calculated" in captured.err and "daniel" in captured.out


def test_not_a_template(tmp_path, capsys):
    import openpyxl

    openpyxl.Workbook().save(tmp_path / "plain.xlsx")
    assert main(["rate", str(tmp_path / "plain.xlsx")]) == 1
    assert "is not an xl-elo template" in capsys.readouterr().err


@lo
def test_an_ods_file_is_read(recalculated, tmp_path, capsys):
    """A workbook saved from LibreOffice as .ods is read (converted through LibreOffice)."""
    ods = recalculate_many  # noqa: F841 - the conversion below uses soffice directly
    import subprocess

    from xl_elo.formats.libreoffice import _PROFILE

    profile = tmp_path / "profile"
    (profile / "user").mkdir(parents=True)
    (profile / "user" / "registrymodifications.xcu").write_text(_PROFILE, encoding="utf-8")
    src = recalculated["fqe-random"]
    subprocess.run([soffice(), "--headless", "--norestore", f"-env:UserInstallation={profile.as_uri()}",
                    "--convert-to", "ods", "--outdir", str(tmp_path), str(src)], check=True, capture_output=True)
    assert main(["rate", str(tmp_path / f"{src.stem}.ods"), "--format", "csv"]) == 0
    assert "agree with the engine" in capsys.readouterr().err


@lo
def test_a_filled_template_prints_its_results_on_a4_without_helper_columns(recalculated, tmp_path):
    """Every template filled with its federation's example, printed as LibreOffice prints the whole workbook
    (File > Export as PDF, no print range set by hand): the results sheet only, on A4 landscape, one page per
    event this size; the columns a rating officer reads, each whole (the longest note to its end), no helper
    column (pos, bonus, the intermediates a spec keeps off paper); the other sheets print nothing."""
    import re
    import subprocess

    from xl_elo.formats.libreoffice import to_pdf_many
    from xl_elo.templates import spec_module

    # each federation's example in a template of the tests' size, filled as xl-elo fills one (print area: its
    # rows), recalculated and printed by LibreOffice in one run
    full = [Case(f"print-{code}", code, SMALL_OF.get(code, SMALL), example_event(code))
            for code in registry() if get(code).TEMPLATE]
    filled = [fill_template(recalculated[f"template-{c.federation}"], c.event, tmp_path / f"{c.id}.xlsx")
              for c in full]
    pdfs = to_pdf_many(filled, tmp_path / "pdf")
    pdf_source = {c.id: f for c, f in zip(full, filled, strict=True)}
    # the notes to find whole on paper: those the workbook computed for the same players (a valid case's)
    same = {c.federation: c.id for c in valid_cases() if c.event is not None and
            [p.id for p in c.event.players] == [p.id for p in example_event(c.federation).players]}
    for case, pdf in zip(full, pdfs, strict=True):
        data = pdf.read_bytes()
        pages = re.findall(rb"/Type\s*/Page(?![s\w])(.*?)>>", data, re.S)
        expected_pages = 1 if len(case.event.players) <= 30 else None
        assert expected_pages is None or len(pages) == expected_pages, f"{case.id}: {len(pages)} pages"
        sizes = [re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)", p) for p in pages]
        assert all(m is None or (round(float(m[1])), round(float(m[2]))) == (842, 595) for m in sizes), case.id
        if not shutil.which("pdftotext"):
            continue
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                              check=True).stdout
        sorted_ = said(pdf_source[case.id], " (sorted by new rating)").strip()
        assert all(sorted_ in p for p in text.split("\f") if p.strip()), case.id
        head = text.split(sorted_, 1)[1]
        ids = {p.id for p in case.event.players}
        header_lines = []
        for line in head.splitlines()[1:]:  # the header, down to the first player's row
            if line.split() and line.split()[0] in ids:
                break
            header_lines.append(line)
        head = "\n".join(header_lines)
        t = spec_module(case.federation).spec(Capacity(4, 4, 4))
        printed_words = set(head.split())
        with words.use(_language(pdf_source[case.id])):
            titles = [(words._(c.title).split()[0], c) for c in t.results]
        for title, c in titles:
            if c.printed:
                assert title in printed_words, f"{case.id}: column {c.title!r} is not printed"
            elif all(title != other for other, p in titles if p.printed):
                assert title not in printed_words, f"{case.id}: helper column {c.title!r} is printed"
        assert "pos" not in printed_words, case.id
        noted = any(c.name == "note" for c in t.results) and case.federation in same
        notes = [str(n) for n in (_values(recalculated[same[case.federation]], "r_note") if noted else []) if n]
        flat = " ".join(text.split())
        for note in notes:
            assert " ".join(note.split()) in flat, f"{case.id}: the note {note!r} is cut"


def _typed_event(code: str, players: int) -> Event:
    """A plausible event of ``players`` players (four games each), every fact a value as a club types it."""
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    from templates_lo import filled_event

    return filled_event(code, players, players * 2, seed=35, periods=3)


@lo
def test_each_shipped_template_typed_by_hand_prints_its_players_on_one_page(tmp_path):
    """A treasurer's way, no Python: the shipped template (workbooks/), 16 players and their games typed in (no print
    area set by xl-elo), File > Export as PDF in LibreOffice: one A4 page for each system (40 players too: FIDE's),
    every player's id on it with his new rating, no helper column, the long notes each whole on its line (a wrapped
    note would run over the next row: LibreOffice sizes no row for a formula's text)."""
    import re
    import subprocess

    from xl_elo.formats.libreoffice import to_pdf_many
    from xl_elo.formats.workbook import _cell, game_cells
    from xl_elo.model import facts
    from xl_elo.templates import file_name

    jobs = []
    for code, n in [(c, 16) for c in registry() if get(c).TEMPLATE] + [("fide", 40)]:
        ev = _typed_event(code, n)
        columns = ["id", "name", "rating", *(f.name for f in facts(type(ev.players[0])))]
        typed = write_cells(ROOT / "workbooks" / file_name(code), tmp_path / f"{code}_{n}.xlsx", {
            "players": (columns, [[_cell(getattr(p, c)) for c in columns] for p in ev.players]),
            "games": game_cells(ev.games)},
            {"period": ev.period})
        jobs.append((code, ev, typed))
    pdfs = to_pdf_many([t for *_, t in jobs], tmp_path / "pdf")
    for (code, ev, typed), pdf in zip(jobs, pdfs, strict=True):
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout if shutil.which(
            "pdfinfo") else ""
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                              check=True).stdout if shutil.which("pdftotext") else ""
        pages = [p for p in text.split("\f") if p.strip()] if text else None
        assert pages is None or len(pages) == 1, f"{typed.name}: {len(pages)} pages"
        assert not info or re.search(r"Pages:\s+1\n", info), f"{typed.name}: {info}"
        if not text:
            continue
        lines = text.splitlines()
        results = get(code).rate(ev).rows
        for row in results:
            line = next((x for x in lines if f" {row['id']} " in f" {x} "), None)
            assert line is not None, f"{typed.name}: {row['id']} is not printed"
            after = row.get("rating_after")
            if isinstance(after, (int, float)):
                rest = line.split(row["id"], 1)[1]
                assert f"{after:.0f}" in rest or f"{after:.2f}" in rest, f"{typed.name}: {row['id']} {after} {line!r}"
            note = str(row.get("note") or "")
            if code == "fide" and len(note) > 60:  # the long notes whole, on one line (English: FIDE's)
                assert note in line, f"the note {note!r} is not whole on one line"
        assert "pos" not in text.split()


@lo
def test_results_typed_as_times_are_read_as_typed(recalculated):
    """1:0 and 0:1 typed in a spreadsheet are the times 01:00 and 00:01: the template rates them as the results
    typed and says nothing is wrong, and xl-elo rate on the saved workbook reads them alike (rules 1.1): the FQE's
    worked example still ends at 2012."""
    wb = read_workbook(recalculated["results-typed-as-times"])
    module = get(wb.federation)
    results = module.rate(wb.event, options_of(module.Options, None, **wb.options))
    assert not compare(wb, results)
    assert results.by_id()["daniel"]["rating_after"] == 2012 == wb.computed["daniel"]["rating_after"]
    assert {round(v * 1440) for v in _values(recalculated["results-typed-as-times"], "game_result")
            if v is not None} == {60, 1, 720}  # 1:0, 0:1 as times; the draws typed 0.5

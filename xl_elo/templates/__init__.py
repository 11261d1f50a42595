"""Template workbooks that rate an event or period with native spreadsheet formulas.

Each federation with a ``TEMPLATE`` (a file name) has a spec module beside its engine
(``xl_elo/federations/<code>/template.py``) whose ``spec(capacity)`` declares its sheets as
columns of formulas (:mod:`.spec`); one builder (:mod:`.workbook`) makes every workbook from its
spec. ``build_all(directory)`` writes
one template per federation, ``published_tables.xlsx`` and the norm sheets
(:mod:`.normsheet`). Only functions that both Excel
2016+ and LibreOffice 7.4 compute are used; no macro, no add-in. The published tables
(:mod:`xl_elo.tables`) are written into a hidden ``lists`` sheet from the package's one
transcription.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final, Protocol, cast

from xl_elo import words
from xl_elo.federations import registry
from xl_elo.federations.contract import TitleNorms
from xl_elo.templates.builder import save
from xl_elo.templates.spec import Capacity, Template

TABLES_FILE = "published_tables.xlsx"


#: A norm sheet's name among the workbooks: its system's code and this (``fide-norms``).
NORM_SHEET = "-norms"
#: A season template's name among the workbooks: its system's code and this (``fide-season``; rules 14).
SEASON = "-season"


def template_names() -> list[str]:
    """The federations that have a template, then the season templates their template specs declare
    (``fide-season``), then ``tables``."""
    codes = [code for code, m in registry().items() if m.TEMPLATE]
    return codes + [code + SEASON for code in codes if spec_module(code).SEASON is not None] + ["tables"]


def system_code(name: str) -> str:
    """The system a template is of (``fide`` for ``fide-season``)."""
    return name.removesuffix(SEASON)


def sheet_names() -> list[str]:
    """The norm sheets of the systems that declare title norms with one (``fide-norms``, rules 13)."""
    return [code + NORM_SHEET for code, m in registry().items() if m.NORMS is not None and m.NORMS.sheet]


def _norms(name: str) -> TitleNorms:
    norms = registry()[name.removesuffix(NORM_SHEET)].NORMS
    assert norms is not None
    return norms


@dataclass(frozen=True)
class Shipped:
    """One template file of ``workbooks/``: a system's template in one of its rooms and languages."""

    code: str
    capacity: Capacity | None
    language: str
    file: str


def shipped_rooms(name: str) -> tuple[Capacity, ...]:
    """The rooms a system's template is shipped in, its event's first (its spec's ``ROOMS``)."""
    if name == "tables" or name.endswith(NORM_SHEET):
        return ()
    module = spec_module(name)
    return tuple(module.ROOMS)


def languages(name: str) -> tuple[str, ...]:
    """The languages a system's template is shipped in, its members' first (its spec's ``LANGUAGES``)."""
    if name == "tables" or name.endswith(NORM_SHEET):
        return ("en",)
    return tuple(spec_module(name).LANGUAGES)


def spoken(name: str) -> tuple[str, ...]:
    """The languages a template speaks, every phrase in its catalogue: those it is shipped in, then those
    ``xl-elo workbooks --language`` builds it in (its spec's ``SPEAKS``); a norm sheet speaks its system's."""
    if name == "tables":
        return ("en",)
    if name.endswith(NORM_SHEET):
        return spoken(name.removesuffix(NORM_SHEET))
    module = spec_module(name)
    return tuple(dict.fromkeys((*module.LANGUAGES, *module.SPEAKS)))


def file_name(name: str, capacity: Capacity | None = None, language: str | None = None) -> str:
    """The file a template is written to: the system's ``TEMPLATE`` for its first room and language; another
    language adds its code (``fse_period_fr.xlsx``, ``fide_norms_de.xlsx``), another room its players
    (``fide_period_120.xlsx``)."""
    if name.endswith(NORM_SHEET):
        sheet = str(_norms(name).sheet)
        return sheet if language in (None, languages(name)[0]) else f"{sheet.removesuffix('.xlsx')}_{language}.xlsx"
    if name == "tables":
        return TABLES_FILE
    stem = (season_spec(name).FILE if name.endswith(SEASON) else str(registry()[name].TEMPLATE)).removesuffix(".xlsx")
    if language is not None and language != languages(name)[0]:
        stem += f"_{language}"
    if capacity is not None and capacity != shipped_rooms(name)[0]:
        stem += f"_{capacity.players}"
    return f"{stem}.xlsx"


def shipped(names: list[str] | None = None) -> list[Shipped]:
    """Every file ``workbooks/`` holds (or of ``names``): each template in each room and each language."""
    out = []
    for name in names or template_names() + sheet_names():
        if name == "tables" or name.endswith(NORM_SHEET):
            out.append(Shipped(name, None, "en", file_name(name)))
            continue
        for capacity in shipped_rooms(name):
            for language in languages(name):
                out.append(Shipped(name, capacity, language, file_name(name, capacity, language)))
    return out


def build_book(name: str, capacity: Capacity | None = None,
               language: str | None = None):  # type: ignore[no-untyped-def]
    """The workbook of one template, not yet saved (``capacity``: room for players and games; ``language``: its
    words, the system's members' by default)."""
    if name == "tables":
        from xl_elo.templates.published import tables

        return tables()
    if name.endswith(NORM_SHEET):
        from xl_elo.templates.normsheet import build

        with words.use(language or languages(name)[0]):
            return build(_norms(name))
    from xl_elo.templates.workbook import build_book as assemble

    with words.use(language or languages(name)[0]):
        return assemble(with_carry(name, spec_module(name).spec(capacity or default_capacity(name))))


def with_carry(name: str, t: Template) -> Template:
    """A template spec with its next players table declared (rules 14.3): each players column and the results column
    the next period reads it from, as the system's declarations say (:func:`xl_elo.season.carried`)."""
    from xl_elo.season import carried

    system = registry()[system_code(name)]
    return replace(t, carry=carried(system, [c.name for c in system.COLUMNS]))


def default_capacity(name: str) -> Capacity:
    """The room a template is built with: its spec's ``CAPACITY`` when it has one."""
    return spec_module(name).CAPACITY


class TemplateSpec(Protocol):
    """A system's template spec: the module ``template.py`` beside its engine (a system with a ``TEMPLATE``)."""

    CAPACITY: Capacity
    """The room its template is built with."""
    ROOMS: tuple[Capacity, ...]
    """The rooms it is shipped in, CAPACITY first (a larger event's: a file of its own, named for its room)."""
    LANGUAGES: tuple[str, ...]
    """The languages it is shipped in (catalogue codes), its members' first."""
    SPEAKS: tuple[str, ...]
    """The languages it speaks besides (every phrase in their catalogues), built on request: ``xl-elo workbooks
    --language``."""
    SEASON: SeasonSpec | None
    """Its season template (rules 14: periods one after another, ``<code>-season``), or None."""

    def spec(self, cap: Capacity | None = None) -> Template: ...


class SeasonSpec(TemplateSpec, Protocol):
    """A season template's spec (rules 14): a template spec with a file name of its own."""

    FILE: str
    """Its file in workbooks/ (``fide_season.xlsx``)."""


def spec_module(name: str) -> TemplateSpec:
    """A federation's template spec: the module ``template`` beside its engine; a season template's
    (``fide-season``): the spec that module declares."""
    module = cast(TemplateSpec, importlib.import_module(f"{registry()[system_code(name)].PACKAGE}.template"))
    if name.endswith(SEASON):
        if module.SEASON is None:
            raise KeyError(name)
        return module.SEASON
    return module


def season_spec(name: str) -> SeasonSpec:
    """A season template's spec (``fide-season``), as its system's template module declares it."""
    season = spec_module(system_code(name)).SEASON
    if not name.endswith(SEASON) or season is None:
        raise KeyError(name)
    return season


#: The most formulas a template may hold: the FIDE template's at its largest room (2,000 players, 20,000
#: games), which LibreOffice 7.4 takes about 100 s and 2.3 GB to open and recalculate on two cores; a bigger
#: workbook is no longer one a club official can work in (rate such an event from CSV files).
MAX_FORMULAS: Final = 2_000_000


def rooms(name: str) -> tuple[str, ...]:
    """The rooms a template has, of ``players``, ``games``, ``history`` (a history sheet) and ``periods``
    (rating periods laid out); none for the published tables and a norm sheet."""
    if name == "tables" or name.endswith(NORM_SHEET):
        return ()
    t = spec_module(name).spec(default_capacity(name))
    return ("players", "games") + (("history",) if t.history is not None else ()) + (("periods",) if t.periods else ())


def formulas(name: str, capacity: Capacity | None = None) -> int:
    """How many formulas the template holds at ``capacity`` (0 for the published tables and a norm sheet, which
    have no room)."""
    if name == "tables" or name.endswith(NORM_SHEET):
        return 0
    from xl_elo.templates.workbook import formula_cells

    return formula_cells(spec_module(name).spec(capacity or default_capacity(name)))


def room_problem(name: str, capacity: Capacity) -> str | None:
    """Why a template cannot be built with ``capacity``, or None: a history sheet without a row, or more than
    :data:`MAX_FORMULAS` formulas (then the largest room of the same shape that fits is named)."""
    has = rooms(name)
    if "history" in has and capacity.history < 1:
        return f"the {name} template has a history sheet: --history needs room for 1 row at least"
    n = formulas(name, capacity)
    if n <= MAX_FORMULAS:
        return None
    fit = largest_room(name, capacity)
    nouns = {"players": "players", "games": "games", "history": "history rows", "periods": "rating periods"}
    asked = ", ".join(f"{getattr(capacity, k):,} {nouns[k]}" for k in has)
    smaller = f"--players {fit.players} --games {fit.games}" + "".join(
        f" with --{k} {getattr(capacity, k)}" for k in has if k in ("history", "periods"))
    return (f"the {name} template with room for {asked} would hold {n:,} formulas, more than a spreadsheet opens "
            f"and recalculates in reasonable time (at most {MAX_FORMULAS:,}: LibreOffice takes about 100 s and "
            f"2.3 GB for 1.9 million); give a smaller room, e.g. {smaller}, or rate an event this big from CSV "
            "files with xl-elo rate")


def largest_room(name: str, capacity: Capacity) -> Capacity:
    """``capacity`` with its players and games scaled down together (its history and periods kept) to the
    largest room within :data:`MAX_FORMULAS`; itself when it fits.

    A template's formulas are a linear function of its players and games (every sheet's columns are fixed by
    the spec, its rows by the room): three counts give it, and the room that fits is read from it, then
    checked."""
    if formulas(name, capacity) <= MAX_FORMULAS:
        return capacity

    def count(players: int, games: int) -> int:
        return formulas(name, replace(capacity, players=players, games=games))

    base = count(10, 10)
    per_player, per_game = (count(20, 10) - base) / 10, (count(10, 20) - base) / 10
    fixed = base - 10 * (per_player + per_game)
    f = max(0.0, (MAX_FORMULAS - fixed) / (per_player * capacity.players + per_game * capacity.games))

    def scaled(f: float) -> Capacity:
        return replace(capacity, players=max(1, int(capacity.players * f)), games=max(1, int(capacity.games * f)))

    while f > 0 and formulas(name, scaled(f)) > MAX_FORMULAS:  # rounding: a step down, rarely needed
        f *= 0.995
    return scaled(f)


def build_template(name: str, directory: str | os.PathLike[str], capacity: Capacity | None = None,
                   language: str | None = None, file: str | None = None) -> Path:
    """Build one template into ``directory`` (as ``file``, by default its :func:`file_name`); returns its path.
    ValueError for a room it cannot have (:func:`room_problem`)."""
    if capacity is not None and (why := room_problem(name, capacity)) is not None:
        raise ValueError(why)
    Path(directory).mkdir(parents=True, exist_ok=True)
    target = Path(directory) / (file or file_name(name, capacity, language))
    return save(build_book(name, capacity, language), target)


def build_all(directory: str | os.PathLike[str]) -> list[Path]:
    """Build every shipped template (:func:`shipped`: each room, each language, then the norm sheets) into
    ``directory``."""
    return [build_template(s.code, directory, s.capacity, s.language, s.file) for s in shipped()]


__all__ = ["MAX_FORMULAS", "SEASON", "Capacity", "Shipped", "build_all", "build_template", "default_capacity",
           "file_name", "formulas", "languages", "largest_room", "room_problem", "rooms", "sheet_names", "shipped",
           "shipped_rooms", "spoken", "system_code", "template_names"]

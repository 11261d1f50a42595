"""Template workbooks that rate an event or period with native spreadsheet formulas.

Each federation with a ``TEMPLATE`` (a file name) has a spec module beside its engine
(``xl_elo/federations/<code>/template.py``) whose ``spec(capacity)`` declares its sheets as
columns of formulas (:mod:`.spec`); one builder (:mod:`.workbook`) makes every workbook from its
spec. ``build_all(directory)`` writes
one template per federation and ``published_tables.xlsx``. Only functions that both Excel
2016+ and LibreOffice 7.4 compute are used; no macro, no add-in. The published tables
(:mod:`xl_elo.tables`) are written into a hidden ``lists`` sheet from the package's one
transcription.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, cast

from xl_elo import words
from xl_elo.federations import registry
from xl_elo.templates.builder import save
from xl_elo.templates.spec import Capacity, Template

TABLES_FILE = "published_tables.xlsx"


def template_names() -> list[str]:
    """The federations that have a template, then ``tables``."""
    return [code for code, m in registry().items() if m.TEMPLATE] + ["tables"]


@dataclass(frozen=True)
class Shipped:
    """One template file of ``workbooks/``: a system's template in one of its rooms and languages."""

    code: str
    capacity: Capacity | None
    language: str
    file: str


def rooms(name: str) -> tuple[Capacity, ...]:
    """The rooms a system's template is shipped in, its event's first (its spec's ``ROOMS``)."""
    if name == "tables":
        return ()
    module = spec_module(name)
    return tuple(module.ROOMS)


def languages(name: str) -> tuple[str, ...]:
    """The languages a system's template is shipped in, its members' first (its spec's ``LANGUAGES``)."""
    if name == "tables":
        return ("en",)
    return tuple(spec_module(name).LANGUAGES)


def file_name(name: str, capacity: Capacity | None = None, language: str | None = None) -> str:
    """The file a template is written to: the system's ``TEMPLATE`` for its first room and language; another
    language adds its code (``fse_period_fr.xlsx``), another room its players (``fide_period_120.xlsx``)."""
    if name == "tables":
        return TABLES_FILE
    stem = str(registry()[name].TEMPLATE).removesuffix(".xlsx")
    if language is not None and language != languages(name)[0]:
        stem += f"_{language}"
    if capacity is not None and capacity != rooms(name)[0]:
        stem += f"_{capacity.players}"
    return f"{stem}.xlsx"


def shipped(names: list[str] | None = None) -> list[Shipped]:
    """Every file ``workbooks/`` holds (or of ``names``): each template in each room and each language."""
    out = []
    for name in names or template_names():
        if name == "tables":
            out.append(Shipped(name, None, "en", TABLES_FILE))
            continue
        for capacity in rooms(name):
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
    from xl_elo.templates.workbook import build_book as assemble

    with words.use(language or languages(name)[0]):
        return assemble(spec_module(name).spec(capacity or default_capacity(name)))


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

    def spec(self, cap: Capacity | None = None) -> Template: ...


def spec_module(name: str) -> TemplateSpec:
    """A federation's template spec: the module ``template`` beside its engine."""
    return cast(TemplateSpec, importlib.import_module(f"{registry()[name].PACKAGE}.template"))


def build_template(name: str, directory: str | os.PathLike[str], capacity: Capacity | None = None,
                   language: str | None = None, file: str | None = None) -> Path:
    """Build one template into ``directory`` (as ``file``, by default its :func:`file_name`); returns its path."""
    Path(directory).mkdir(parents=True, exist_ok=True)
    target = Path(directory) / (file or file_name(name, capacity, language))
    return save(build_book(name, capacity, language), target)


def build_all(directory: str | os.PathLike[str]) -> list[Path]:
    """Build every shipped template (:func:`shipped`) into ``directory``."""
    return [build_template(s.code, directory, s.capacity, s.language, s.file) for s in shipped()]


__all__ = ["Capacity", "Shipped", "build_all", "build_template", "default_capacity", "file_name", "languages",
           "rooms", "shipped", "template_names"]

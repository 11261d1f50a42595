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
from pathlib import Path
from typing import Protocol, cast

from xl_elo.federations import registry
from xl_elo.federations.contract import TitleNorms
from xl_elo.templates.builder import save
from xl_elo.templates.spec import Capacity, Template

TABLES_FILE = "published_tables.xlsx"


#: A norm sheet's name among the workbooks: its system's code and this (``fide-norms``).
NORM_SHEET = "-norms"


def template_names() -> list[str]:
    """The federations that have a template, then ``tables``."""
    return [code for code, m in registry().items() if m.TEMPLATE] + ["tables"]


def sheet_names() -> list[str]:
    """The norm sheets of the systems that declare title norms with one (``fide-norms``, rules 13)."""
    return [code + NORM_SHEET for code, m in registry().items() if m.NORMS is not None and m.NORMS.sheet]


def file_name(name: str) -> str:
    """The file a template is written to."""
    if name.endswith(NORM_SHEET):
        return str(_norms(name).sheet)
    return TABLES_FILE if name == "tables" else str(registry()[name].TEMPLATE)


def _norms(name: str) -> TitleNorms:
    norms = registry()[name.removesuffix(NORM_SHEET)].NORMS
    assert norms is not None
    return norms


def build_book(name: str, capacity: Capacity | None = None):  # type: ignore[no-untyped-def]
    """The workbook of one template, not yet saved (``capacity``: room for players and games)."""
    if name == "tables":
        from xl_elo.templates.published import tables

        return tables()
    if name.endswith(NORM_SHEET):
        from xl_elo.templates.normsheet import build

        return build(_norms(name))
    from xl_elo.templates.workbook import build_book as assemble

    return assemble(spec_module(name).spec(capacity or default_capacity(name)))


def default_capacity(name: str) -> Capacity:
    """The room a template is built with: its spec's ``CAPACITY`` when it has one."""
    return spec_module(name).CAPACITY


class TemplateSpec(Protocol):
    """A system's template spec: the module ``template.py`` beside its engine (a system with a ``TEMPLATE``)."""

    CAPACITY: Capacity
    """The room its template is built with."""

    def spec(self, cap: Capacity | None = None) -> Template: ...


def spec_module(name: str) -> TemplateSpec:
    """A federation's template spec: the module ``template`` beside its engine."""
    return cast(TemplateSpec, importlib.import_module(f"{registry()[name].PACKAGE}.template"))


def build_template(name: str, directory: str | os.PathLike[str], capacity: Capacity | None = None) -> Path:
    """Build one template into ``directory``; returns its path."""
    Path(directory).mkdir(parents=True, exist_ok=True)
    return save(build_book(name, capacity), Path(directory) / file_name(name))


def build_all(directory: str | os.PathLike[str], capacity: Capacity | None = None) -> list[Path]:
    """Build every template into ``directory``, then the norm sheets."""
    return [build_template(name, directory, None if name in sheet_names() else capacity)
            for name in template_names() + sheet_names()]


__all__ = ["Capacity", "build_all", "build_template", "default_capacity", "file_name", "sheet_names",
           "template_names"]

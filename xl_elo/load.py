"""Files other than the CSV tables and the workbooks: what kind each is, and its reader.

``xl-elo rate FILE ...`` hands the files here: each reader module recognises its files and
builds the :class:`~xl_elo.model.Event` of rules 8 from them, with every problem named by
file, line, column and value. A reader may also offer writers that give the same file back
with the new ratings (``--format trf``, ``--format fesa``).

The kinds, tried in this order:

- FESA's own program's files (:mod:`xl_elo.formats.fesafiles`): the tournament file (``turnering.txt``,
  its first line ``[name]``), the new players (``nye-spillere``) and the rating list
  (``ratingliste.pre``), the last also given as ``--rating-list``;
- FIDE's Tournament Report File, TRF-16 (:mod:`xl_elo.formats.trf`): a ``.trf`` file, or any text file
  with ``001`` player lines.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from xl_elo.federations import registry
from xl_elo.formats import files
from xl_elo.formats.csvfiles import read_event
from xl_elo.formats.text import ReadFiles
from xl_elo.model import Event, InputError, Problem

# --------------------------------------------------------------------------- the kinds


def _is_fesa(paths: Sequence[Path]) -> bool:
    from xl_elo.formats.fesafiles import recognises

    return recognises(paths)


def _read_fesa(paths: Sequence[Path], module: Any, args: argparse.Namespace) -> ReadFiles:
    from xl_elo.formats.fesafiles import read_fesa_files

    return read_fesa_files(paths, module, args)


def _is_trf(paths: Sequence[Path]) -> bool:
    from xl_elo.formats.trf import recognises

    return recognises(paths)


def _read_trf(paths: Sequence[Path], module: Any, args: argparse.Namespace) -> ReadFiles:
    from xl_elo.formats.trf import read_trf_files

    return read_trf_files(paths, module, args)


#: Readers by kind: (recognises(paths) -> bool, read(paths, module, args) -> ReadFiles).
READERS: list[tuple[str, Callable[[Sequence[Path]], bool], Callable[..., ReadFiles]]] = [
    ("FESA's tournament file (turnering.txt) with its rating list", _is_fesa, _read_fesa),
    ("a TRF tournament report (.trf)", _is_trf, _read_trf),
]


def read_files(paths: Sequence[str], module: Any, args: argparse.Namespace) -> ReadFiles:
    """The event held by ``paths`` (TRF reports, FESA's own files ...); InputError naming an unknown kind."""
    files_ = [Path(p) for p in paths]
    problems: list[Problem] = []
    for p in files_:
        try:
            files.input_path(p)
        except InputError as exc:
            problems += exc.problems
    seen: dict[Path, Path] = {}
    for p in files_:
        key = p.resolve()
        if key in seen:
            problems.append(Problem(p.name, None, None, f"is given twice ({seen[key]} and {p}): its games would "
                                                        "count twice"))
        seen[key] = p
    if problems:
        raise InputError(problems)
    for _, recognises, read in READERS:
        if recognises(files_):
            return read(files_, module, args)
    names = ", ".join(p.name for p in files_)
    kinds = "; ".join(kind for kind, _, _ in READERS) or "none yet"
    raise InputError([Problem(names, None, None, "is not a file xl-elo reads (a workbook .xlsx/.ods, or "
                                                 f"{kinds}); CSV tables go with --players and --games")])


# --------------------------------------------------------------------------- worked examples


@dataclass(frozen=True)
class Example:
    """One shipped example."""

    folder: str
    federation: str
    title: str
    period: str | None
    name: str
    columns: tuple[str, ...]
    workbook: str | None = None
    """The file the demo writes with the system's template filled with this example, if any ..."""
    workbook_note: str = ""
    """... and what the demo says of it."""


def examples() -> list[Example]:
    """The worked example of every registered system that has one, in the registry's order: the
    folder ``example`` beside its module (players.csv, games.csv, history.csv, example.json)."""
    out = []
    for code, module in registry().items():
        name = getattr(module, "EXAMPLE", None)
        if not name:
            continue
        meta: dict[str, Any] = json.loads((resources.files(module.__name__) / "example" / "example.json")
                                          .read_text(encoding="utf-8"))
        out.append(Example(name, code, meta["title"], meta.get("period"), meta.get("name", name),
                           tuple(meta["columns"]), meta.get("workbook"), meta.get("workbook_note", "")))
    return out


def example_event(code: str, period: str | None = None) -> Event:
    """Read a system's worked example as an :class:`~xl_elo.model.Event` (its own period unless one is given)."""
    module = registry()[code]
    base = resources.files(module.__name__) / "example"
    meta = json.loads((base / "example.json").read_text(encoding="utf-8"))
    with resources.as_file(base) as path:
        history = path / "history.csv"
        return read_event(path / "players.csv", path / "games.csv", history if history.exists() else None,
                          period=period or meta.get("period"), name=meta.get("name", module.EXAMPLE))

"""Files other than the CSV tables and the workbooks: what kind each is, and its reader.

``xl-elo rate FILE ...`` hands the files here: each reader module recognises its files and
builds the :class:`~xl_elo.model.Event` of rules 8 from them, with every problem named by
file, line, column and value. A reader may also offer writers that give the same file back
with the new ratings (``--format trf``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xl_elo.model import Event, InputError, Problem, Results


@dataclass
class ReadFiles:
    """What the files held: the federation, the event, the files read (never written over) and writers."""

    module: Any
    event: Event
    inputs: list[str]
    writers: dict[str, Callable[[Results], str]] = field(default_factory=dict)
    default_format: str | None = None


#: Readers by kind: (recognises(paths) -> bool, read(paths, module, args) -> ReadFiles).
READERS: list[tuple[str, Callable[[Sequence[Path]], bool], Callable[..., ReadFiles]]] = []


def read_files(paths: Sequence[str], module: Any, args: argparse.Namespace) -> ReadFiles:
    """The event held by ``paths`` (TRF reports, FESA's own files ...); InputError naming an unknown kind."""
    files = [Path(p) for p in paths]
    for _, recognises, read in READERS:
        if recognises(files):
            return read(files, module, args)
    names = ", ".join(p.name for p in files)
    kinds = ", ".join(kind for kind, _, _ in READERS) or "none yet"
    raise InputError([Problem(names, None, None, "is not a file xl-elo reads (a workbook .xlsx/.ods, or "
                                                 f"{kinds}); CSV tables go with --players and --games")])

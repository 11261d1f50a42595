"""``xl-elo demo``: rate every federation's shipped example, print it, write its results and a filled workbook.

The examples are package data (:mod:`xl_elo.examples`), one per federation (the module's
``EXAMPLE``), each with an ``example.json`` that gives its title, period and the columns to
print: the FQE's worked example (Daniel at the Quebec Open), a real FESA tournament
(13th Nekomado-ken, with FESA's published history), and small illustrative FIDE, FSE and
FFE periods.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from xl_elo.federations import registry
from xl_elo.formats.csvfiles import history_csv, read_event, results_table, write_results, write_text_atomic
from xl_elo.model import Event


@dataclass(frozen=True)
class Example:
    """One shipped example."""

    folder: str
    federation: str
    title: str
    period: str | None
    name: str
    columns: tuple[str, ...]


def examples() -> list[Example]:
    """The examples of every registered federation, in the registry's order."""
    out = []
    for code, module in registry().items():
        folder = getattr(module, "EXAMPLE", None)
        if not folder:
            continue
        meta: dict[str, Any] = json.loads((resources.files("xl_elo.examples") / folder / "example.json")
                                          .read_text(encoding="utf-8"))
        out.append(Example(folder, code, meta["title"], meta.get("period"), meta.get("name", folder),
                           tuple(meta["columns"])))
    return out


def example_event(folder: str, period: str | None = None) -> Event:
    """Read one shipped example as an :class:`~xl_elo.model.Event` (its own period unless one is given)."""
    base = resources.files("xl_elo.examples") / folder
    meta = json.loads((base / "example.json").read_text(encoding="utf-8"))
    with resources.as_file(base) as path:
        history = path / "history.csv"
        return read_event(path / "players.csv", path / "games.csv", history if history.exists() else None,
                          period=period or meta.get("period"), name=meta.get("name", folder))


def run_demo(output_dir: Path, out: TextIO) -> int:
    """Rate every example, print it, write its results (and FESA history) to ``output_dir``."""
    output_dir.mkdir(parents=True, exist_ok=True)
    for ex in examples():
        event = example_event(ex.folder)
        results = registry()[ex.federation].rate(event)
        out.write(f"\n{ex.title}\n\n")
        out.write(results_table(results, ex.columns) + "\n")
        target = output_dir / f"{ex.folder}_results.csv"
        write_results(results, target, "csv")
        written = [target]
        if results.history:
            hist = output_dir / f"{ex.folder}_results_history.csv"
            write_text_atomic(hist, history_csv(results.history))
            written.append(hist)
        out.write("written: " + ", ".join(str(p) for p in written) + "\n")
    workbook = filled_workbook(output_dir)
    out.write(f"\nThe FQE's worked example in the FQE template workbook (open it in Excel or LibreOffice; "
              f"its formulas compute the same 2012): {workbook}\n")
    return 0


def filled_workbook(output_dir: Path) -> Path:
    """The FQE template filled with the FQE's worked example (native formulas, no Python needed)."""
    import tempfile

    from xl_elo.formats.workbook import fill_template
    from xl_elo.templates import build_template

    with tempfile.TemporaryDirectory() as tmp:
        template = build_template("fqe", tmp)
        return fill_template(template, example_event("fqe_coq"), output_dir / "fqe_event_daniel.xlsx")

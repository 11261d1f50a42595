"""``xl-elo demo``: rate the shipped worked examples, print them, write their results and a filled workbook.

The examples are package data (:mod:`xl_elo.examples`): seed 004's worked example (Daniel
at the Quebec Open, FQE), a real FESA tournament (13th Nekomado-ken, with FESA's published
history), and small illustrative FIDE, FSE and FFE periods.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TextIO

from xl_elo import rate
from xl_elo.csvio import history_csv, read_event, results_table, write_results, write_text_atomic
from xl_elo.model import Event


@dataclass(frozen=True)
class Example:
    """One shipped example."""

    folder: str
    federation: str
    title: str
    period: str | None
    columns: tuple[str, ...]


EXAMPLES = (
    Example("fqe_coq", "fqe",
            "FQE: Daniel at the Quebec Open (seed 004's worked example: 1876, 5.5/8, +84, bonus 52 -> 2012)",
            None, ("id", "status", "rating_before", "games_rated", "score", "expected", "change", "bonus",
                   "halving", "rating_after")),
    Example("fesa_13th_nekomadoken", "fesa",
            "FESA: 13th Nekomado-ken, 2017-04-15 (a real tournament; FESA published these ratings)",
            "2017-04-15", ("id", "status", "rating_before", "games_rated", "score", "change", "bonus",
                           "rating_after", "games_after", "bonus_count", "grade_after", "note")),
    Example("fide_period", "fide", "FIDE: an illustrative monthly period (October 2026)", "2026-10",
            ("id", "status", "rating_before", "games_rated", "score", "expected", "k", "change",
             "rating_after", "note")),
    Example("fse_period", "fse", "FSE: an illustrative two-month period", "2025-10",
            ("id", "status", "rating_before", "games_rated", "score", "expected", "k", "change", "rating_after")),
    Example("ffe_period", "ffe", "FFE: an illustrative period with two unrated players", "2026-01",
            ("id", "status", "rating_before", "rule", "nj", "sc", "ea", "p", "dp", "pj", "rating_after",
             "archive_perf", "archive_games", "rounds")),
)


def example_event(folder: str, period: str | None = None) -> Event:
    """Read one shipped example as an :class:`~xl_elo.model.Event`."""
    base = resources.files("xl_elo.examples") / folder
    with resources.as_file(base) as path:
        history = path / "history.csv"
        return read_event(path / "players.csv", path / "games.csv",
                          history if history.exists() else None, period=period, name=folder)


def run_demo(output_dir: Path, out: TextIO) -> int:
    """Rate every example, print it, write its results (and FESA history) to ``output_dir``."""
    output_dir.mkdir(parents=True, exist_ok=True)
    for ex in EXAMPLES:
        event = example_event(ex.folder, ex.period)
        results = rate(ex.federation, event)
        out.write(f"\n{ex.title}\n\n")
        out.write(results_table(results, ex.columns) + "\n")
        target = output_dir / f"{ex.folder}_results.csv"
        write_results(results, target, "csv")
        written = [target]
        if ex.federation == "fesa":
            hist = output_dir / f"{ex.folder}_results_history.csv"
            write_text_atomic(hist, history_csv(results.history))
            written.append(hist)
        out.write("written: " + ", ".join(str(p) for p in written) + "\n")
    workbook = filled_workbook(output_dir)
    out.write(f"\nSeed 004's worked example in the FQE template workbook (open it in Excel or LibreOffice; "
              f"its formulas compute the same 2012): {workbook}\n")
    return 0


def filled_workbook(output_dir: Path) -> Path:
    """The FQE template filled with seed 004's worked example (native formulas, no Python needed)."""
    import tempfile

    from xl_elo.templates import build_template
    from xl_elo.xlsxio import fill_template

    with tempfile.TemporaryDirectory() as tmp:
        template = build_template("fqe", tmp)
        return fill_template(template, example_event("fqe_coq"), output_dir / "fqe_event_daniel.xlsx")

"""``xl-elo demo``: rate every federation's shipped example, print it, write its results and a filled workbook.

The examples are package data, one per system, in the folder ``example`` beside its module
(:func:`xl_elo.loader.examples`), each with an ``example.json`` that gives its title, period, the
columns to print and, where the demo also fills the system's template with it, the workbook's
name: the FQE's worked example (Daniel at the Quebec Open), a real FESA tournament (13th
Nekomado-ken, with FESA's published history), and small illustrative FIDE, FSE and FFE periods.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from xl_elo.formats.layout import terminal_width, wrapped
from xl_elo.formats.writers import history_csv, results_table, write_results, write_text_atomic
from xl_elo.loader import Example, example, example_event, examples


def run_demo(output_dir: Path, out: TextIO, only: Sequence[str] | None = None) -> int:
    """Rate every example (``only``: those of these system codes), print it, write its input files, its results
    (and FESA history) to ``output_dir``, and the command that rates the same files again; every line fits the
    terminal (80 columns in a file or a pipe), a command cut with ``\\`` where a shell reads it whole."""
    width = terminal_width(out)
    output_dir.mkdir(parents=True, exist_ok=True)
    chosen = [ex for ex in examples() if only is None or ex.federation in only]
    for ex in chosen:
        results = example(ex.federation).rate()
        out.write(f"\n{wrapped(ex.title, width)}\n\n")
        out.write(results_table(results, ex.columns, width, more="xl-elo rate --wide shows every column") + "\n\n")
        inputs = example_inputs(ex, output_dir / ex.folder)
        target = output_dir / f"{ex.folder}_results.csv"
        write_results(results, target, "csv")
        written = [target]
        if results.history:
            hist = output_dir / f"{ex.folder}_results_history.csv"
            write_text_atomic(hist, history_csv(results.history))
            written.append(hist)
        out.write(wrapped(", ".join(str(p) for p in inputs.values()), width, indent="  ", first="input: ") + "\n")
        out.write(wrapped(", ".join(str(p) for p in written), width, indent="  ", first="written: ") + "\n")
        out.write("to rate them again:\n" + command_lines(rerun_command(ex, inputs), width) + "\n")
    for ex in chosen:
        if ex.workbook:
            workbook = filled_workbook(ex, output_dir)
            out.write("\n" + wrapped(f"{ex.workbook_note}: {workbook}", width, indent="  ") + "\n")
    return 0


def command_lines(command: str, width: int) -> str:
    """A shell command on lines that fit ``width``, each but the last ending in `` \\`` (a shell reads them as
    one line), indented."""
    import shlex

    words: list[str] = []
    for w in (shlex.quote(w) for w in shlex.split(command)):  # a flag stays with its value
        if words and words[-1].startswith("-") and " " not in words[-1] and not w.startswith("-"):
            words[-1] += " " + w
        else:
            words.append(w)
    lines: list[str] = []
    line = "  "
    for word in words:
        if line.strip() and len(line) + 1 + len(word) + 2 > width:
            lines.append(line + " \\")
            line = "    "
        line += (" " if line.strip() else "") + word
    return "\n".join([*lines, line])


def example_inputs(ex: Example, folder: Path) -> dict[str, Path]:
    """Copy an example's input files (players, games and history CSV) into ``folder``: name -> copy."""
    from importlib import resources

    from xl_elo.federations import registry

    base = resources.files(registry()[ex.federation].PACKAGE) / "example"
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for name in ("players", "games", "history"):
        source = base / f"{name}.csv"
        if source.is_file():
            out[name] = folder / f"{name}.csv"
            write_text_atomic(out[name], source.read_text(encoding="utf-8"))
    return out


def rerun_command(ex: Example, inputs: dict[str, Path]) -> str:
    """The ``xl-elo rate`` command that rates an example's copied files."""
    import shlex

    flags = {"players": "-p", "games": "-g", "history": "--history"}
    parts = ["xl-elo", "rate", "-f", ex.federation]
    for name, path in inputs.items():
        parts += [flags[name], str(path)]
    if ex.period:
        parts += ["--period", ex.period]
    return shlex.join(parts)


def filled_workbook(example: Example, output_dir: Path) -> Path:
    """A system's template filled with its worked example (native formulas, no Python needed)."""
    import tempfile

    from xl_elo.formats.workbook import fill_template
    from xl_elo.templates import build_template

    with tempfile.TemporaryDirectory() as tmp:
        template = build_template(example.federation, tmp)
        return fill_template(template, example_event(example.federation), output_dir / str(example.workbook))

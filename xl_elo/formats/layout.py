"""Text laid out for a terminal: lines that fit a width, tables in blocks of columns, the width to fit.

A rating officer reads the command line's tables in a terminal of 80 columns or more: what is wider
than the terminal is wrapped (a paragraph) or split into blocks of columns (a table), each block
repeating the columns that name its rows. CSV and JSON never pass through here.
"""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Sequence
from typing import TextIO

#: The width a table for a terminal fits by default: a terminal's classic width, and what a file or a pipe gets.
WIDTH = 80


def terminal_width(stream: TextIO | None = None) -> int:
    """The width to fit: the terminal's when ``stream`` is one (never under 40), else :data:`WIDTH`."""
    try:
        tty = stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty:
        return WIDTH
    return max(40, shutil.get_terminal_size((WIDTH, 24)).columns)


def wrapped(text: str, width: int | None, indent: str = "", first: str = "") -> str:
    """``text`` wrapped to ``width`` (None: as it is), its first line after ``first``, the others after
    ``indent``; words are never broken (a long path stays whole)."""
    if width is None:
        return first + text
    return "\n".join(textwrap.wrap(text, width, initial_indent=first, subsequent_indent=indent,
                                   break_long_words=False, break_on_hyphens=False)) or first.rstrip()


def grid(header: Sequence[str], rows: Sequence[Sequence[str]], width: int | None = None, *,
         right: Sequence[bool] | None = None, keep: int = 1, gap: int = 2, lead: str = "",
         marks: Sequence[str] | None = None, rule: bool = False) -> str:
    """An aligned table (``right``: the columns aligned right; ``rule``: a line of dashes under the header), in
    blocks of columns when it is wider than ``width`` (None: one block), each block starting with the first
    ``keep`` columns; ``lead`` before every line, ``marks`` (one per row, as wide as ``lead``) in its place on
    the rows."""
    n = len(header)
    right = list(right) if right is not None else [True] * n
    widths = [max([len(header[j])] + [len(r[j]) for r in rows]) for j in range(n)]
    fixed = list(range(min(keep, n)))
    base = len(lead) + sum(widths[j] for j in fixed) + gap * max(0, len(fixed) - 1)
    blocks: list[list[int]] = []
    current: list[int] = []
    used = base
    for j in range(len(fixed), n):
        need = (gap if fixed or current else 0) + widths[j]
        if width is not None and current and used + need > width:
            blocks.append(current)
            current, used = [], base
            need = (gap if fixed else 0) + widths[j]
        current.append(j)
        used += need
    blocks.append(current)
    sep = " " * gap
    out: list[str] = []
    for b, block in enumerate(blocks):
        js = fixed + block
        if b:
            out.append("")
        cells = [header[j].rjust(widths[j]) if right[j] else header[j].ljust(widths[j]) for j in js]
        out.append((lead + sep.join(cells)).rstrip())
        if rule:
            out.append((" " * len(lead) + sep.join("-" * widths[j] for j in js)).rstrip())
        for i, r in enumerate(rows):
            cells = [r[j].rjust(widths[j]) if right[j] else r[j].ljust(widths[j]) for j in js]
            out.append(((marks[i] if marks is not None else lead) + sep.join(cells)).rstrip())
    return "\n".join(out)


__all__ = ["WIDTH", "grid", "terminal_width", "wrapped"]

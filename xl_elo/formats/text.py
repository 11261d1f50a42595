"""Text files as pairing programs and rating officers write them: decoded, split into lines with
their ends kept (so a file can be written back byte for byte), and the problem of a line.

The bottom of the readers: :mod:`xl_elo.formats.trf`, :mod:`xl_elo.formats.ratinglist` and
:mod:`xl_elo.federations.fesa.files` read their files through it.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xl_elo.model import Event, InputError, Problem, Results

if TYPE_CHECKING:
    from xl_elo.federations.contract import RatingSystem


@dataclass
class ReadFiles:
    """What the files held: the federation, the event, the files read (never written over) and writers."""

    module: RatingSystem
    event: Event
    inputs: list[str]
    writers: dict[str, Callable[[Results], str | bytes]] = field(default_factory=dict)
    """Output format -> the file written back with the results (text, or bytes in the file's own encoding)."""
    default_format: str | None = None
    warnings: list[str] = field(default_factory=list)
    """What the user should know about how the files were read (shown as warnings)."""
    sources: tuple[str, str, str] = ("players", "games", "history")
    """How messages name the files that held the players, the games and the history."""
    options: dict[str, Any] = field(default_factory=dict)
    """The system's options by name, as given and as the files set them (a TRF-26 report's time control
    sets FIDE's ``list``): what the event is rated with unless the caller says otherwise."""


@dataclass(frozen=True, slots=True)
class LineProblem(Problem):
    """A problem in a text file: ``row`` is the line number, ``column`` the columns and the field."""

    def __str__(self) -> str:
        where = [self.source]
        if self.row is not None:
            where.append(f"line {self.row}")
        if self.column is not None:
            where.append(self.column)
        return f"{', '.join(where)}: {self.message}"


def capped(problems: Sequence[Problem], names: Sequence[str], most: int, hint: str = "") -> list[Problem]:
    """The problems of a reader of whole files by file (in the order of ``names``), each file's own (no line)
    first, then by line; past ``most`` in one file, one line says how many more (and ``hint``: what the file should
    have been)."""
    order = {n: i for i, n in enumerate(names)}
    out: list[Problem] = []
    count: dict[str, int] = {}
    for q in sorted(problems, key=lambda q: (order.get(q.source, len(order)), q.row is not None, q.row or 0)):
        count[q.source] = count.get(q.source, 0) + 1
        if count[q.source] <= most:
            out.append(q)
    for source, n in count.items():
        if n > most:
            out.append(LineProblem(source, None, None, f"and {n - most:,} more problems{hint}"))
    return out


# --------------------------------------------------------------------------- text files


@dataclass(frozen=True)
class Text:
    """A text file split into lines, with what it takes to write it back byte for byte."""

    lines: list[str]
    """The lines without their ends (a BOM is not part of the first line)."""
    ends: list[str]
    """Each line's end as found (``\\r\\n``, ``\\r``, ``\\n`` or ``''`` for a last line without one)."""
    encoding: str
    bom: bytes = b""

    def encode(self, lines: Sequence[str] | None = None) -> bytes:
        """The file again, ``lines`` in place of its own (same ends, encoding and BOM)."""
        body = "".join(line + end for line, end in zip(lines if lines is not None else self.lines, self.ends,
                                                         strict=True))
        return self.bom + body.encode(self.encoding)


_LINE_END = re.compile(r"\r\n|\r|\n")


def decode(data: bytes, name: str, *, encodings: Sequence[str] = ("utf-8", "cp1252", "latin-1")
           ) -> tuple[str, str, bytes]:
    """``data`` as one text, as :func:`decode_text` reads it (the same encodings, the same refusals), without
    splitting it into lines: the text, its encoding and its BOM (a reader that reads the lines itself, a PGN
    database's)."""
    bom = b""
    text: str | None = None
    encoding = encodings[0]
    for mark, codec in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                        (codecs.BOM_UTF16_BE, "utf-16-be")):
        if data.startswith(mark):
            try:
                bom, text, encoding = mark, data[len(mark):].decode(codec), codec
            except UnicodeDecodeError:
                raise InputError([LineProblem(name, None, None, f"starts as {codec.upper()} text but is not "
                                                                "(save it again as UTF-8 text)")]) from None
            break
    if text is None:
        if b"\x00" in data:
            line = data[: data.index(b"\x00")].count(b"\n") + 1
            raise InputError([LineProblem(name, line, None, "the file holds zero bytes: it is not a text file "
                                                            "(is it a spreadsheet, a PDF or a zip archive?)")])
        for encoding in encodings:
            try:
                text = data.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
        else:  # pragma: no cover - latin-1 decodes everything
            raise InputError([LineProblem(name, None, None, "is not a text file")])
    if not text.strip():
        raise InputError([LineProblem(name, None, None, "the file is empty")])
    return text, encoding, bom


def decode_text(data: bytes, name: str, *, encodings: Sequence[str] = ("utf-8", "cp1252", "latin-1")) -> Text:
    """``data`` as lines of text: UTF-8 (with or without BOM), UTF-16 with a BOM, else the next of
    ``encodings`` that decodes it (latin-1 always does). Any line ends (CR, LF, CRLF) are kept.

    Refused (:class:`InputError`): an empty file, and zero bytes in a file without a UTF-16 BOM
    (a binary file: a spreadsheet, a zip, a PDF).
    """
    text, encoding, bom = decode(data, name, encodings=encodings)
    lines: list[str] = []
    ends: list[str] = []
    pos = 0
    for m in _LINE_END.finditer(text):
        lines.append(text[pos:m.start()])
        ends.append(m.group())
        pos = m.end()
    if pos < len(text):
        lines.append(text[pos:])
        ends.append("")
    return Text(lines, ends, encoding, bom)


def peek(path: Path, size: int = 65536) -> str:
    """The start of a file as text (for recognising its kind); '' when it cannot be read."""
    try:
        with open(path, "rb") as f:
            head = f.read(size)
    except OSError:
        return ""
    for mark in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        if head.startswith(mark):
            return head[2:].decode("utf-16-le" if mark == codecs.BOM_UTF16_LE else "utf-16-be", "replace")
    return head.decode("latin-1").lstrip("\ufeff\xef\xbb\xbf")

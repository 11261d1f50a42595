"""Files other than the CSV tables and the workbooks: what kind each is, and its reader.

``xl-elo rate FILE ...`` hands the files here: each reader module recognises its files and
builds the :class:`~xl_elo.model.Event` of rules 8 from them, with every problem named by
file, line, column and value. A reader may also offer writers that give the same file back
with the new ratings (``--format trf``, ``--format fesa``).

The kinds, tried in this order:

- FESA's own program's files (:mod:`xl_elo.fesafiles`): the tournament file (``turnering.txt``,
  its first line ``[name]``), the new players (``nye-spillere``) and the rating list
  (``ratingliste.pre``), the last also given as ``--rating-list``;
- FIDE's Tournament Report File, TRF-16 (:mod:`xl_elo.trf`): a ``.trf`` file, or any text file
  with ``001`` player lines.
"""

from __future__ import annotations

import argparse
import codecs
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xl_elo import files
from xl_elo.model import Event, InputError, Problem, Results


@dataclass
class ReadFiles:
    """What the files held: the federation, the event, the files read (never written over) and writers."""

    module: Any
    event: Event
    inputs: list[str]
    writers: dict[str, Callable[[Results], str | bytes]] = field(default_factory=dict)
    """Output format -> the file written back with the results (text, or bytes in the file's own encoding)."""
    default_format: str | None = None
    warnings: list[str] = field(default_factory=list)
    """What the user should know about how the files were read (shown as warnings)."""


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


def decode_text(data: bytes, name: str, *, encodings: Sequence[str] = ("utf-8", "cp1252", "latin-1")) -> Text:
    """``data`` as lines of text: UTF-8 (with or without BOM), UTF-16 with a BOM, else the next of
    ``encodings`` that decodes it (latin-1 always does). Any line ends (CR, LF, CRLF) are kept.

    Refused (:class:`InputError`): an empty file, and zero bytes in a file without a UTF-16 BOM
    (a binary file: a spreadsheet, a zip, a PDF).
    """
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


# --------------------------------------------------------------------------- the kinds


def _is_fesa(paths: Sequence[Path]) -> bool:
    from xl_elo.fesafiles import recognises

    return recognises(paths)


def _read_fesa(paths: Sequence[Path], module: Any, args: argparse.Namespace) -> ReadFiles:
    from xl_elo.fesafiles import read_fesa_files

    return read_fesa_files(paths, module, args)


def _is_trf(paths: Sequence[Path]) -> bool:
    from xl_elo.trf import recognises

    return recognises(paths)


def _read_trf(paths: Sequence[Path], module: Any, args: argparse.Namespace) -> ReadFiles:
    from xl_elo.trf import read_trf_files

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

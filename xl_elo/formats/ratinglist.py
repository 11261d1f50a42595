"""FIDE's downloadable rating list (ratings.fide.com/download_lists.phtml), fixed-width TXT or XML.

``xl-elo rate -f fide ... --rating-list players_list_foa.txt`` takes from it, by FIDE id, each
player's rating, K, year of birth and whether the rating has reached 2400 (rules 2.3):

- the rating replaces the one in the report or the players table (a difference is a warning);
- the year of birth fills or replaces the player's (the junior rule counts ages with it);
- K 10 means the rating has reached 2400 (``ever_2400``); K 40 makes the player new for the
  period when neither his games nor his age already give 40; K 20 or 10 makes a player of
  few known games not new. When the rules would still give another K (a junior born in the
  list's year), the rules' K is used and a warning says so.

The TXT lists (the single standard, rapid and blitz lists and the combined one) are read by the
header line's words, since FIDE moves the columns (the FOA column moved the ratings by four)
and names the rating column by the list's month (``NOV25``); the combined list's columns are
``SRtng SGm SK`` (standard), ``RRtng RGm Rk`` (rapid) and ``BRtng BGm BK`` (blitz). The XML
lists are ``<playerslist><player>`` elements with ``fideid``, ``name``, ``rating``, ``games``,
``k``, ``birthday``, ``flag``, and in the combined list ``rapid_rating``, ``rapid_games``,
``rapid_k``, ``blitz_rating`` ... A single list's file does not say which list it is: FIDE
names the file after it (``rapid_rating_list.txt``), and so does :func:`list_of_name`. Every
entry keeps each list's rating, games and K that its file holds (:attr:`ListEntry.lists`); the
system picks the period's list (rules 2.10).

A list is read line by line, keeping only the players asked for, so FIDE's whole list (a
million lines) takes seconds; an XML element's text is gathered in pieces and joined once, and
refused past :data:`xl_elo.limits.LINE_CHARS` characters. A FIDE id listed twice is refused,
naming both lines. Ids of the event that the list does not hold are reported (a warning: their
own values are kept).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xl_elo import limits, schema
from xl_elo.formats import files
from xl_elo.formats.text import LineProblem
from xl_elo.model import InputError, Problem

if TYPE_CHECKING:
    pass

#: FIDE's three lists, in the combined file's order.
LISTS = ("standard", "rapid", "blitz")
#: Header words of each list's columns in the combined TXT list (rating, games, K).
COMBINED_WORDS = {"standard": ("SRTNG", "SGM", "SK"), "rapid": ("RRTNG", "RGM", "RK"),
                  "blitz": ("BRTNG", "BGM", "BK")}
_MONTH = re.compile(r"^[A-Z]{3}\d{2}$")
#: Words in a file's name that say which list it is (FIDE's names: ``rapid_rating_list.txt``,
#: ``standard_jan26frl.txt``; the lists' own abbreviations STD, RPD, BLZ).
_NAME_WORDS = {"standard": ("standard", "std"), "rapid": ("rapid", "rpd"), "blitz": ("blitz", "blz")}


def list_of_name(name: str) -> str | None:
    """The list a single list's file is, from its name as FIDE names it; None when it does not say."""
    words = set(re.split(r"[^a-z]+", name.lower()))
    said = [kind for kind, marks in _NAME_WORDS.items() if any(m in words or name.lower().startswith(m)
                                                                for m in marks)]
    return said[0] if len(said) == 1 else None


@dataclass(frozen=True, slots=True)
class ListEntry:
    """One player of the list, as read: ``rating``, ``games`` and ``k`` of the file's list (the
    standard one in the combined list), and every list the file holds in :attr:`lists`."""

    id: str
    name: str
    rating: float | None
    games: int | None
    k: int | None
    birth_year: int | None
    flag: str
    line: int | None
    lists: tuple[tuple[str | None, float | None, int | None, int | None], ...] = field(default=())
    """(list, rating, games, K) of each list the file holds: the three of the combined list; the one
    of a single list's file, its list named by the file's name (None when the name does not say)."""

    def on(self, which: str) -> tuple[float | None, int | None, int | None] | None:
        """(rating, games, K) on one list (``standard``, ``rapid``, ``blitz``), or None when the file
        holds no such list (a single list's file of unknown kind answers for any)."""
        for kind, rating, games, k in self.lists or ((None, self.rating, self.games, self.k),):
            if kind in (which, None):
                return rating, games, k
        return None

    @property
    def kinds(self) -> tuple[str | None, ...]:
        """The lists the file holds (``(None,)``: one list, its kind unknown)."""
        return tuple(kind for kind, *_ in self.lists) or (None,)


# --------------------------------------------------------------------------- reading


def read_list(path: str | Path, wanted: Iterable[str] | None = None, year: int | None = None
              ) -> dict[str, ListEntry]:
    """The entries of ``wanted`` ids (all when None) in FIDE's list at ``path`` (TXT or XML).

    :class:`InputError` for a file that is not such a list, or bad values of the wanted players
    (each named by line and column).
    """
    p = files.input_path(path)
    name = p.name
    want = None if wanted is None else {str(w) for w in wanted}
    with open(p, "rb") as f:
        head = f.read(4096)
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if start.startswith(b"<"):
        return _read_xml(p, name, want, year)
    return _read_txt(p, name, want, year)


def _twice(name: str, pid: str, line: int | None, first: int | None) -> LineProblem:
    return LineProblem(name, line, None, f"FIDE id {pid} is also on line {first}: one line per player (two "
                                         "lists pasted together?)")


def _lines(p: Path) -> Iterator[tuple[int, str]]:
    with open(p, "rb") as f:
        for n, raw in enumerate(f, start=1):
            if len(raw) > limits.LINE_CHARS.value:
                raise InputError([LineProblem(p.name, n, None, limits.LINE_CHARS.message(
                    f"the line is {len(raw):,} characters long"))])
            if b"\x00" in raw:
                raise InputError([LineProblem(p.name, n, None, "the file holds zero bytes: it is not a rating list "
                                                               "(unzip FIDE's download first)")])
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                text = raw.decode("latin-1")
            yield n, text.rstrip("\r\n").lstrip("\ufeff")


def header_columns(header: str) -> dict[str, tuple[int, int]]:
    """Field -> (start, end) character positions, from the header line's words: ``rating``,
    ``games``, ``k`` of a single list, ``standard rating`` ... ``blitz k`` of the combined one."""
    words = [(m.group(), m.start()) for m in re.finditer(r"ID Number|\S+", header)]
    spans: dict[str, tuple[int, int]] = {}
    combined = {word: f"{kind} {what}" for kind, trio in COMBINED_WORDS.items()
                for word, what in zip(trio, ("rating", "games", "k"), strict=True)}
    for i, (word, start) in enumerate(words):
        end = words[i + 1][1] if i + 1 < len(words) else 10_000
        key = word.upper()
        if key == "ID NUMBER":
            spans["id"] = (start, end)
        elif key == "NAME":
            spans["name"] = (start, end)
        elif key in combined:
            spans[combined[key]] = (start, end)
        elif key == "RTNG" or (_MONTH.match(key) and "rating" not in spans):
            spans["rating"] = (start, end)
        elif key == "GMS":
            spans["games"] = (start, end)
        elif key == "K":
            spans["k"] = (start, end)
        elif key in ("B-DAY", "BDAY", "BIRTHDAY"):
            spans["birth"] = (start, end)
        elif key == "FLAG":
            spans["flag"] = (start, end)
    return spans


def _read_txt(p: Path, name: str, want: set[str] | None, year: int | None) -> dict[str, ListEntry]:
    spans: dict[str, tuple[int, int]] | None = None
    out: dict[str, ListEntry] = {}
    problems: list[Problem] = []
    id_end = 15
    for n, line in _lines(p):
        if spans is None:
            if not line.strip():
                continue
            if not line.lstrip().upper().startswith("ID NUMBER"):
                raise InputError([LineProblem(name, n, None, "is not FIDE's rating list: its first line is not the "
                                                             "header 'ID Number  Name ...' (nor is it the XML list)")])
            spans = header_columns(line)
            missing = [f for f in ("id", "name", "rating") if f not in spans]
            if "standard rating" in spans or "rapid rating" in spans or "blitz rating" in spans:
                missing = [f for f in missing if f != "rating"]
            if missing:
                raise InputError([LineProblem(name, n, None, f"the header has no {' or '.join(missing)} column "
                                                             f"(found {schema.shown(line.strip(), 80)})")])
            id_end = spans["id"][1]
            continue
        pid = line[:id_end].strip()
        if not pid or (want is not None and pid not in want):
            continue
        cells = {f: line[a:b].strip() for f, (a, b) in spans.items()}
        entry = _entry(cells, name, n, year, problems, functools.partial(_txt_col, spans))
        if entry is not None:
            if entry.id in out:
                problems.append(_twice(name, entry.id, n, out[entry.id].line))
                continue
            out[entry.id] = entry
    if spans is None:
        raise InputError([LineProblem(name, None, None, "the file is empty (expected FIDE's rating list)")])
    if problems:
        raise InputError(problems)
    return out


def _txt_col(spans: dict[str, tuple[int, int]], field: str) -> str:
    a, b = spans[field]
    return f"columns {a + 1}-{b} ({field})" if b < 10_000 else f"columns {a + 1}- ({field})"


def _entry(cells: dict[str, str], name: str, line: int | None, year: int | None, problems: list[Problem],
           where: Any) -> ListEntry | None:
    pid = cells.get("id", "")
    if not (pid.isdigit() and pid.isascii()):
        problems.append(LineProblem(name, line, where("id"), f"{schema.shown(pid)} is not a FIDE id"))
        return None
    pid = str(int(pid))
    before = len(problems)

    def get(field: str, parse: Any) -> Any:
        text = cells.get(field) or ""
        try:
            return parse(text)
        except schema.ValueProblem as exc:
            problems.append(LineProblem(name, line, where(field), str(exc)))
            return None

    def trio(prefix: str) -> tuple[float | None, int | None, int | None]:
        return (get(f"{prefix}rating", lambda t: schema.rating(t) if t.strip("0") else None),
                get(f"{prefix}games", lambda t: schema.whole(t, 0, schema.MAX_GAMES)),
                get(f"{prefix}k", lambda t: schema.whole(t, 1, 100, what="a K-factor from 1 to 100")))

    lists: tuple[tuple[str | None, float | None, int | None, int | None], ...]
    if any(f"{kind} rating" in cells for kind in LISTS):  # the combined list: every list it holds
        lists = tuple((kind, *trio(f"{kind} ")) for kind in LISTS if f"{kind} rating" in cells)
    else:
        lists = ((list_of_name(name), *trio("")),)
    birth = get("birth", lambda t: schema.birth_year(t, year) if t.strip("0") else None)
    if len(problems) > before:
        return None
    first = next((t for t in lists if t[0] == "standard"), lists[0])
    return ListEntry(pid, cells.get("name", ""), first[1], first[2], first[3], birth, cells.get("flag", ""), line,
                     lists)


_XML_FIELDS = {"fideid": "id", "name": "name", "rating": "rating", "games": "games", "k": "k",
               "rapid_rating": "rapid rating", "rapid_games": "rapid games", "rapid_k": "rapid k",
               "blitz_rating": "blitz rating", "blitz_games": "blitz games", "blitz_k": "blitz k",
               "birthday": "birth", "flag": "flag"}


def _read_xml(p: Path, name: str, want: set[str] | None, year: int | None) -> dict[str, ListEntry]:
    """``<playerslist><player>...`` streamed through defusedxml's SAX parser: no DTD, no entity
    (FIDE's list has none), line numbers for the messages."""
    from xml.sax import SAXException
    from xml.sax.handler import ContentHandler

    from defusedxml import DefusedXmlException
    from defusedxml.sax import make_parser

    out: dict[str, ListEntry] = {}
    problems: list[Problem] = []
    most = limits.LINE_CHARS.value

    class TooLong(SAXException):
        pass

    class Handler(ContentHandler):
        def __init__(self) -> None:
            super().__init__()
            self.where: Any = None
            self.cells: dict[str, str] | None = None
            self.field: str | None = None
            self.tag = ""
            self.pieces: list[str] = []
            self.size = 0
            self.line: int | None = None
            self.root: str | None = None

        def setDocumentLocator(self, locator: Any) -> None:
            self.where = locator

        def _line(self) -> int | None:
            return self.where.getLineNumber() if self.where else None

        def startElement(self, tag: str, attrs: Any) -> None:
            if self.root is None:
                self.root = tag
            if tag == "player":
                self.cells, self.line = {}, self._line()
            elif self.cells is not None and tag in _XML_FIELDS:
                self.field, self.tag, self.pieces, self.size = _XML_FIELDS[tag], tag, [], 0

        def endElement(self, tag: str) -> None:
            if self.cells is not None and self.field is not None and tag == self.tag:
                self.cells[self.field] = "".join(self.pieces)  # joined once: linear in the text's length
                self.pieces = []
            if tag == "player" and self.cells is not None:
                cells = {k: v.strip() for k, v in self.cells.items()}
                self.cells = None
                if any(k.startswith(("rapid ", "blitz ")) for k in cells):  # the combined list
                    for what in ("rating", "games", "k"):
                        if what in cells:
                            cells[f"standard {what}"] = cells.pop(what)
                pid = cells.get("id", "")
                if want is None or pid in want:
                    entry = _entry(cells, name, self.line, year, problems, lambda f: f"<{_xml_tag(f)}>")
                    if entry is not None:
                        if entry.id in out:
                            problems.append(_twice(name, entry.id, self.line, out[entry.id].line))
                        else:
                            out[entry.id] = entry
            self.field = None

        def characters(self, content: str) -> None:
            if self.cells is not None and self.field is not None:
                self.size += len(content)
                if self.size > most:
                    raise TooLong(limits.LINE_CHARS.message(
                        f"line {self._line()}: the text of <{self.tag}> is more than {most:,} characters long"))
                self.pieces.append(content)

    handler = Handler()
    parser = make_parser()
    parser.forbid_dtd = True
    parser.setContentHandler(handler)
    try:
        parser.parse(str(p))
    except TooLong as exc:
        raise InputError([LineProblem(name, None, None, exc.getMessage())]) from None
    except (SAXException, DefusedXmlException, ValueError, LookupError) as exc:
        line = None
        if hasattr(exc, "getLineNumber"):
            line = exc.getLineNumber()
        what = ("a DOCTYPE or an entity (FIDE's list has none)" if isinstance(exc, DefusedXmlException)
                else exc.getMessage() if hasattr(exc, "getMessage") else str(exc))
        raise InputError([LineProblem(name, line, None, f"is not a readable XML rating list: {what}")]) from None
    if handler.root not in ("playerslist", None):
        raise InputError([LineProblem(name, None, None, f"is not FIDE's XML rating list (its root is "
                                                        f"<{handler.root}>, expected <playerslist>)")])
    if problems:
        raise InputError(problems)
    return out


def _xml_tag(field: str) -> str:
    return {v: k for k, v in _XML_FIELDS.items()}.get(field.removeprefix("standard "), field)

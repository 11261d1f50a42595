"""The words people read, in their own language: one gettext catalogue per language (rules 8).

The templates and the reports say everything (headings, instructions, settings, the banner, the
problem words, the notes) through :func:`_` and :func:`text_formula`, in English: the English is
the message id (``msgid``) of the language's catalogue, ``xl_elo/locale/<language>.po``, gettext's
own text format, which translators' tools (Poedit, Weblate, Lokalize) edit as they are. The
language is chosen for a block of work with :func:`use` (``xl-elo workbooks --language de``); a
catalogue is read as it is, no compilation step, so a club adds a language by dropping its ``.po``
file beside the others (or giving its path): ``xl_elo/locale/xl_elo.pot`` lists every phrase
(``python -m xl_elo.templates.catalogues``, from the templates themselves). English needs no catalogue.

A phrase that holds a number of the rules holds a placeholder (``{floor}``), never the number: the
number comes from the rule's constant where the phrase is used. :func:`translate` reads an English
text the command line wrote (a reader's message, an engine's note) back into its phrase and says it
in another language, so a template's problem cell and a report say what the command line says.
"""

from __future__ import annotations

import contextlib
import functools
import re
import string
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

#: The catalogues: ``<language>.po`` each, and the template of every phrase, ``xl_elo.pot``.
LOCALE = Path(__file__).resolve().parent / "locale"
POT = LOCALE / "xl_elo.pot"
#: The language of the message ids (no catalogue).
SOURCE = "en"
#: The names of the languages, as their speakers write them (what ``xl-elo workbooks --language`` lists).
NAMES = {"en": "English", "de": "Deutsch", "fr": "français", "it": "italiano"}


class Translated(str):
    """Words already in the language of the work (never looked up again)."""

    __slots__ = ()


class F(str):
    """A piece of a formula inside words (:func:`text_formula`): computed by the spreadsheet, not written."""

    __slots__ = ()


# --------------------------------------------------------------------------- catalogues


@dataclass
class Catalogue:
    """A language's phrases: (context, English) -> its words."""

    language: str
    entries: dict[tuple[str | None, str], str] = field(default_factory=dict)
    path: Path | None = None

    def get(self, msgid: str, context: str | None = None) -> str | None:
        return self.entries.get((context, msgid))


def _unquote(text: str) -> str:
    body = text.strip()
    if not (body.startswith('"') and body.endswith('"')):
        raise ValueError(f"not a quoted string: {text!r}")
    out, i, inner = [], 0, body[1:-1]
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}
    while i < len(inner):
        ch = inner[i]
        if ch == "\\" and i + 1 < len(inner):
            out.append(escapes.get(inner[i + 1], inner[i + 1]))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


@dataclass
class Entry:
    """One entry of a ``.po`` file."""

    msgid: str
    msgstr: str = ""
    context: str | None = None
    comments: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False


def read_po(path: str | Path) -> list[Entry]:
    """The entries of a gettext ``.po`` (or ``.pot``) file, the header included (its msgid is '')."""
    entries: list[Entry] = []
    current: Entry | None = None
    key: str | None = None
    comments: list[str] = []
    flags: set[str] = set()

    def finish() -> None:
        nonlocal current
        if current is not None:
            entries.append(current)
        current = None

    for number, raw in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
        try:
            if not line:
                finish()
                key = None
            elif line.startswith("#,"):
                finish()
                flags |= {f.strip() for f in line[2:].split(",") if f.strip()}
            elif line.startswith("#"):
                finish()
                if line.startswith(("#.", "#:")):
                    comments.append(line)
            elif line.startswith(("msgctxt", "msgid ", "msgstr")):
                word, _, rest = line.partition(" ")
                if word in ("msgctxt", "msgid") and current is not None and (word == "msgctxt" or key != "msgctxt"):
                    finish()
                if current is None:
                    current = Entry("", comments=comments, flags=flags, obsolete=obsolete)
                    comments, flags = [], set()
                key = word
                value = _unquote(rest)
                if word == "msgctxt":
                    current.context = value
                elif word == "msgid":
                    current.msgid = value
                else:
                    current.msgstr = value
            elif line.startswith('"') and current is not None and key is not None:
                value = _unquote(line)
                if key == "msgctxt":
                    current.context = (current.context or "") + value
                elif key == "msgid":
                    current.msgid += value
                else:
                    current.msgstr += value
            else:
                raise ValueError(f"cannot read {raw!r}")
        except ValueError as exc:
            raise ValueError(f"{path}, line {number}: {exc}") from None
    finish()
    return entries


def _quoted(text: str, width: int = 76) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    if len(escaped) <= width:
        return f'"{escaped}"'
    parts, line = [], ""
    for word in re.split(r"(?<= )", escaped):
        if line and len(line) + len(word) > width:
            parts.append(line)
            line = ""
        line += word
    parts.append(line)
    return '""\n' + "\n".join(f'"{p}"' for p in parts)


def write_po(path: str | Path, entries: list[Entry], header: str) -> None:
    """Write a ``.po`` file: its header, then each entry (comments, flags, context, id, words)."""
    out = [f'msgid ""\nmsgstr {_quoted(header)}\n']
    for e in entries:
        if not e.msgid:
            continue
        lines = [*e.comments]
        if e.flags:
            lines.append("#, " + ", ".join(sorted(e.flags)))
        mark = "#~ " if e.obsolete else ""
        if e.context is not None:
            lines.append(f"{mark}msgctxt {_quoted(e.context)}")
        lines.append(f"{mark}msgid {_quoted(e.msgid)}")
        lines.append(f"{mark}msgstr {_quoted(e.msgstr)}")
        out.append("\n".join(lines) + "\n")
    Path(path).write_text("\n".join(out), encoding="utf-8")


def _path_of(language: str) -> Path:
    if language.endswith(".po"):
        return Path(language)
    return LOCALE / f"{language}.po"


def available() -> list[str]:
    """The languages a template can be built in: English and every catalogue of ``xl_elo/locale``."""
    return [SOURCE, *sorted(p.stem for p in LOCALE.glob("*.po"))]


@cache
def catalogue(language: str) -> Catalogue:
    """A language's catalogue (``de``, or the path of a ``.po`` file); English has none. A phrase marked fuzzy or
    left blank is not translated (gettext's rule)."""
    if language == SOURCE:
        return Catalogue(SOURCE)
    path = _path_of(language)
    if not path.is_file():
        raise LookupError(f"no catalogue for the language {language!r} (expected {path}; the languages: "
                          f"{', '.join(available())})")
    entries = {(e.context, e.msgid): e.msgstr for e in read_po(path)
               if e.msgid and e.msgstr and "fuzzy" not in e.flags and not e.obsolete}
    return Catalogue(path.stem, entries, path)


# --------------------------------------------------------------------------- the language of the work


_LANGUAGE: ContextVar[str] = ContextVar("xl_elo_language", default=SOURCE)
#: Every phrase asked for since :func:`recording` began: (context, msgid) -> where first asked.
_ASKED: ContextVar[dict[tuple[str | None, str], str] | None] = ContextVar("xl_elo_asked", default=None)
#: Phrases asked for that the language's catalogue lacks (English used instead).
_MISSING: ContextVar[set[tuple[str | None, str]] | None] = ContextVar("xl_elo_missing", default=None)


def language() -> str:
    """The language of the work in progress (``en`` unless :func:`use` says otherwise)."""
    return _LANGUAGE.get()


@contextlib.contextmanager
def use(lang: str) -> Iterator[Catalogue]:
    """Say everything in ``lang`` inside the block (a language's code, or a ``.po`` file's path)."""
    cat = catalogue(lang)
    token = _LANGUAGE.set(lang)
    try:
        yield cat
    finally:
        _LANGUAGE.reset(token)


@contextlib.contextmanager
def recording() -> Iterator[tuple[dict[tuple[str | None, str], str], set[tuple[str | None, str]]]]:
    """Record the phrases asked for inside the block, and those the language lacks."""
    asked: dict[tuple[str | None, str], str] = {}
    missing: set[tuple[str | None, str]] = set()
    t1, t2 = _ASKED.set(asked), _MISSING.set(missing)
    try:
        yield asked, missing
    finally:
        _ASKED.reset(t1)
        _MISSING.reset(t2)


def _lookup(msgid: str, context: str | None) -> str:
    asked = _ASKED.get()
    if asked is not None:
        asked.setdefault((context, msgid), "")
    lang = _LANGUAGE.get()
    if lang == SOURCE:
        return msgid
    found = catalogue(lang).get(msgid, context)
    if found is None:
        missing = _MISSING.get()
        if missing is not None:
            missing.add((context, msgid))
        return msgid
    return found


def shown(value: Any) -> str:
    """A rule's value in words: whole numbers without '.0'."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _(msgid: str, /, context: str | None = None, **params: Any) -> Translated:
    """``msgid`` in the language of the work, its placeholders filled with ``params``."""
    if isinstance(msgid, Translated):
        return msgid
    text = _lookup(msgid, context)
    if params:
        text = text.format(**{k: shown(v) for k, v in params.items()})
    return Translated(text)


def heading(name: str) -> Translated:
    """A column's heading on an input sheet: its name in English (``birth_year``), a word in another language."""
    return _(name, context="column")


#: A formula piece joined in as it is: a cell, a name, or one function's call.
_SIMPLE = re.compile(r"[A-Za-z_.$\[\]:@0-9]+(\((?:[^()\"]|\"[^\"]*\"|\((?:[^()\"]|\"[^\"]*\")*\))*\))?")


def text_formula(msgid: str, /, context: str | None = None, **pieces: Any) -> str:
    """The phrase as a spreadsheet's text expression: its words quoted, each :class:`F` piece a formula joined in
    with ``&``, any other piece written as its words (``"new rating "&INT(A2)&" is below 1400"``)."""
    text = _lookup(msgid, context)
    parts: list[str] = []
    literal = ""
    for before, name, spec, _conv in string.Formatter().parse(text):
        literal += before
        if name is None:
            continue
        value = pieces[name]
        if isinstance(value, F):
            if literal:
                parts.append('"' + literal.replace('"', '""') + '"')
            literal = ""
            parts.append(str(value) if _SIMPLE.fullmatch(value) else f"({value})")
        else:
            literal += format(shown(value), spec or "")
    if literal or not parts:
        parts.append('"' + literal.replace('"', '""') + '"')
    return "&".join(parts)


# --------------------------------------------------------------------------- reading English back


@cache
def _patterns(lang: str) -> list[tuple[re.Pattern[str], str, str | None]]:
    """Each phrase of the language's catalogue as a pattern over its English (placeholders as groups), the longest
    first."""
    out: list[tuple[re.Pattern[str], str, str | None]] = []
    for (context, msgid), _words in catalogue(lang).entries.items():
        if context is not None or "{" not in msgid or not re.search(r"[A-Za-z]", re.sub(r"\{\w+\}", "", msgid)):
            continue  # a phrase without words of its own ("{date} {why}") fits any text: never read back; a phrase
            # of a context (a heading, a report's or a workbook's own words) is never the command line's
        regex, names = "", []
        for before, name, _spec, _conv in string.Formatter().parse(msgid):
            regex += re.escape(before)
            if name is not None:
                regex += f"(?P<{name}>.+?)" if name not in names else f"(?P={name})"
                names.append(name)
        out.append((re.compile(regex + r"\Z", re.S), msgid, context))
    out.sort(key=lambda p: -len(p[1]))
    return out


def translate(text: str, lang: str | None = None) -> str:
    """An English text the command line wrote, in ``lang`` (default: the work's): a phrase as it is, or a phrase
    with its placeholders filled (each filled part translated the same way); the English when no phrase fits."""
    lang = lang or language()
    asked = _ASKED.get()
    if asked is not None and text:
        asked.setdefault(_message_id(text), "")
    if lang == SOURCE or not text:
        return text
    cat = catalogue(lang)
    whole = cat.get(text)
    if whole is not None:
        return whole
    missing = _MISSING.get()
    value, _space, rest = text.partition(" ")  # a value as found, then its phrase (the reader's way: 2026-01-02 is ...)
    if rest and cat.get(rest) is not None and not any(c.isalpha() for c in value.strip("'")):
        return f"{value} {cat.get(rest)}"
    fit = _fit(text, lang)
    if fit is not None:
        msgid, context, groups = fit
        words = cat.get(msgid, context) or msgid
        return words.format(**{k: _translate_part(v, lang) for k, v in groups.items()})
    if missing is not None and any(c.isalpha() for c in text) and not _plain(text):
        missing.add((None, text))
    return text


def translate_notes(text: str, lang: str | None = None) -> str:
    """An engine's note in ``lang`` (default: the work's): notes joined by ``"; "`` each read back when each is a
    phrase (a rating below the floor; games not rated), else the whole as :func:`translate` reads it."""
    lang = lang or language()
    if "; " in text and lang != SOURCE and not _known(text, lang):
        parts = text.split("; ")
        if all(_known(p, lang) for p in parts):
            return "; ".join(translate(p, lang) for p in parts)
    return translate(text, lang)


def _translate_part(text: str, lang: str) -> str:
    """A filled-in part of a phrase in ``lang``: a value (a number, an id, a value as typed) as it is, or in its words
    when the catalogue has it whole; a list of phrases (``1 more title-holder, 2 more federations``) each said in
    turn when each is one; else as :func:`translate` says it."""
    if _plain(text):
        return catalogue(lang).get(text) or text
    if ", " in text and not _known(text, lang):
        pieces = text.split(", ")
        if all(_known(p, lang) for p in pieces):
            return ", ".join(translate(p, lang) for p in pieces)
    return translate(text, lang)


def _known(text: str, lang: str) -> bool:
    """A phrase of the catalogue of ``lang``, whole or with its placeholders filled."""
    return catalogue(lang).get(text) is not None or _fit(text, lang) is not None


def _plain(text: str) -> bool:
    """A filled-in part that is no phrase: a value as typed, an id, a number, a date (kept as it is)."""
    return bool(re.fullmatch(r"'.*'|\S+|[\d\s.,:+-]+", text))


@functools.lru_cache(maxsize=8192)
def _fit(text: str, lang: str) -> tuple[str, str | None, dict[str, str]] | None:
    """The phrase of the catalogue of ``lang`` an English text fits, with its filled-in parts: (msgid, context,
    parts); None when none fits. A phrase of a word or two around its placeholders ("{a} or {b}") fits values only
    (numbers, values as typed), never a sentence. A phrase whose every filled-in part is a value or a phrase itself
    is taken before one that fits with words left over in a part (``4 games ..., fewer than 5 and 0 points ...`` is
    no number of games)."""
    loose = None
    for pattern, msgid, context in _patterns(lang):
        m = pattern.match(text)
        if m is None:
            continue
        groups = m.groupdict()
        if len(re.sub(r"\{\w+\}|\W", "", msgid)) < 8 and not all(_plain(v) for v in groups.values()):
            continue
        if all(_said(v, lang) for v in groups.values()):
            return msgid, context, groups
        loose = loose or (msgid, context, groups)
    return loose


def _said(part: str, lang: str) -> bool:
    """A filled-in part that is a value, a phrase of the catalogue, or a list of them."""
    if _plain(part) or _known(part, lang):
        return True
    pieces = part.split(", ")
    return len(pieces) > 1 and all(_plain(p) or _known(p, lang) for p in pieces)


def _message_id(text: str) -> tuple[str | None, str]:
    """The phrase an English text is said with: the catalogues' phrase it fits, else the text itself."""
    for lang in available()[1:]:
        if catalogue(lang).get(text) is not None:
            return None, text
        fit = _fit(text, lang)
        if fit is not None:
            return fit[1], fit[0]
    return None, text


def translate_value(value: Any, lang: str | None = None) -> Any:
    """A results value in ``lang``: a word the engines write (``established``, ``yes``: the catalogue's values) in its
    words, any other value (a name, a number) as it is."""
    if isinstance(value, bool):
        value = "yes" if value else "no"
    if not isinstance(value, str):
        return value
    lang = lang or language()
    if lang == SOURCE:
        return value
    return catalogue(lang).get(value, "value") or value


def missing(lang: str, asked: Mapping[tuple[str | None, str], Any]) -> list[tuple[str | None, str]]:
    """The phrases of ``asked`` the catalogue of ``lang`` lacks."""
    if lang == SOURCE:
        return []
    cat = catalogue(lang)
    return sorted((k for k in asked if cat.get(k[1], k[0]) is None), key=lambda k: (k[0] or "", k[1]))


# --------------------------------------------------------------------------- the catalogues kept up to date


HEADER = ("Project-Id-Version: xl-elo\nMIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n"
          "Content-Transfer-Encoding: 8bit\nLanguage: {language}\n")


__all__ = [
    "LOCALE",
    "NAMES",
    "SOURCE",
    "Catalogue",
    "Entry",
    "F",
    "Translated",
    "_",
    "available",
    "catalogue",
    "heading",
    "language",
    "missing",
    "read_po",
    "recording",
    "shown",
    "text_formula",
    "translate",
    "translate_notes",
    "translate_value",
    "use",
    "write_po",
]

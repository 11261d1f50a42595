"""The words people read, one gettext catalogue per language (xl_elo/words.py, xl_elo/locale/): every phrase a
shipped template or a report says is in its language's catalogue, each translation keeps its placeholders, and
a template says what the command line says, in its own language (issue #35)."""

from __future__ import annotations

import string

import pytest
from conftest import ROOT

from xl_elo import schema, words
from xl_elo.core import MAX_RATING
from xl_elo.templates import build_book, catalogues, sheet_names, shipped, spoken, template_names

#: A room of one printed page and one of several pages, their sums grouped by player: every phrase between them.
ROOMS = catalogues.rooms_said()


def _pairs() -> list[tuple[str, str]]:
    return sorted({(s.code, s.language) for s in shipped() if s.code != "tables" and s.language != words.SOURCE})


def _spoken_pairs() -> list[tuple[str, str]]:
    """Every template and norm sheet in each language it is said to speak and is not shipped in (FIDE's template in
    French, German and Italian: xl-elo workbooks --language)."""
    shipped_pairs = set(_pairs())
    return sorted((code, language) for code in [*template_names(), *sheet_names()] if code != "tables"
                  for language in spoken(code) if language != words.SOURCE and (code, language) not in shipped_pairs)


@pytest.mark.parametrize(("code", "language"), _pairs(), ids=lambda v: str(v))
def test_every_phrase_of_a_shipped_template_is_in_its_language(code, language):
    """A phrase missing from a catalogue fails here (it would show in English in the shipped file)."""
    for room in ROOMS:
        with words.recording() as (_asked, missing), catalogues.grouped():
            build_book(code, room, language)
        assert not missing, f"{code} in {language}: no words for {sorted(m[1] for m in missing)[:5]}"


@pytest.mark.parametrize(("code", "language"), _spoken_pairs(), ids=lambda v: str(v))
def test_every_phrase_of_a_template_is_in_each_language_it_speaks(code, language):
    """A template built on request in a language it is said to speak (its spec's SPEAKS; a norm sheet speaks its
    system's) says every phrase in it: a phrase missing from the catalogue fails here."""
    assert ("fide", "de") in _spoken_pairs() and ("fide", "it") in _spoken_pairs()
    rooms = ROOMS if code not in sheet_names() else (None,)
    for room in rooms:
        with words.recording() as (_asked, missing), catalogues.grouped():
            build_book(code, room, language)
        assert not missing, f"{code} in {language}: no words for {sorted(m[1] for m in missing)[:5]}"


@pytest.mark.parametrize("language", words.available()[1:])
def test_every_phrase_of_the_reports_is_in_each_language(language):
    """The reports (the crosstable, the season workbook and the players' season pages, the norms' table and the
    norm sheet's reasons) say everything in every catalogue's language."""
    with words.recording() as (asked, _missing):
        catalogues.report_phrases()
    lacking = words.missing(language, asked)
    assert not lacking, f"{language}: no words for {[m[1] for m in lacking][:5]}"


def test_the_template_of_phrases_lists_every_phrase_asked():
    """xl_elo/locale/xl_elo.pot is what the templates and reports ask for (python -m xl_elo.templates.catalogues
    rebuilds it)."""
    pot = {(e.context, e.msgid) for e in words.read_po(words.POT) if e.msgid}
    asked = set(catalogues.asked_phrases())
    assert asked == pot, f"not in the .pot: {sorted(asked - pot, key=str)[:5]}; no longer asked: " \
                         f"{sorted(pot - asked, key=str)[:5]}"


@pytest.mark.parametrize("language", words.available()[1:])
def test_a_translation_keeps_every_placeholder(language):
    """A translation that drops or misspells a placeholder would lose a rule's value or a cell's words."""
    def names(text: str) -> set[str]:
        return {n for _, n, _, _ in string.Formatter().parse(text) if n is not None}

    for (_context, msgid), text in words.catalogue(language).entries.items():
        assert names(text) == names(msgid), f"{language}: {msgid!r} -> {text!r}"


def test_a_rule_value_is_a_placeholder_filled_from_its_constant():
    """The reader's words, generated from the same constants: the English phrase said with the constant is the
    command line's own text, so the catalogues hold the phrase once, never the number."""
    rating = words._("a rating: a whole number from {low} to {high}, 0 or blank for unrated", low=0, high=MAX_RATING)
    assert rating == schema.RATING_HELP
    for language in words.available()[1:]:
        said = words.translate(schema.RATING_HELP, language)
        assert said != schema.RATING_HELP and str(MAX_RATING) in said, (language, said)


@pytest.mark.parametrize("language", words.available()[1:])
def test_the_command_lines_words_read_back_in_each_language(language):
    """A reader's message (English) is said in the language, its filled-in parts too, the value as typed kept."""
    message = f"'1 810' has a thousands separator (expected {schema.RATING_HELP}: write 1810)"
    said = words.translate(message, language)
    with words.use(language):
        what = words._("a rating: a whole number from {low} to {high}, 0 or blank for unrated", low=0,
                       high=MAX_RATING)
        assert said == words._("{value} has a thousands separator (expected {what}: write {plain})",
                               value="'1 810'", what=what, plain="1810")
    assert "'1 810'" in said and "1810" in said and said != message


def test_the_po_reader_reads_what_it_writes(tmp_path):
    entries = [words.Entry('say "hi"\n', "sag \"hallo\"\n", None, flags={"python-brace-format"}),
               words.Entry("rating", "Wertungszahl", "column"),
               words.Entry("x " * 60, "y " * 60)]
    words.write_po(tmp_path / "xx.po", entries, words.HEADER.format(language="xx"))
    back = [e for e in words.read_po(tmp_path / "xx.po") if e.msgid]
    assert [(e.context, e.msgid, e.msgstr) for e in back] == [(e.context, e.msgid, e.msgstr) for e in entries]
    assert words.catalogue(str(tmp_path / "xx.po")).get("rating", "column") == "Wertungszahl"


def test_a_club_adds_a_language_without_code(tmp_path, capsys):
    """A .po file of its own (Romansh, say) builds a template: the phrases it has in its words, the others named."""
    from xl_elo.frontends.cli import main

    po = tmp_path / "rm.po"
    words.write_po(po, [words.Entry("Settings", "Parameters"), words.Entry("problem", "problem")],
                   words.HEADER.format(language="rm"))
    assert main(["workbooks", "-o", str(tmp_path / "out"), "--only", "fide", "--players", "4", "--games", "4",
                 "--language", str(po)]) == 0
    err = capsys.readouterr().err
    assert "have no words in the catalogue" in err and "rm.po" in err
    assert (tmp_path / "out" / "fide_period_rm_4.xlsx").exists()


def test_the_report_in_german(capsys):
    """xl-elo rate --format report --language de: the DWZ example's crosstable, its headings and notes in the DSB's
    words (the command line's own messages stay English)."""
    from xl_elo.frontends.cli import main

    example = ROOT / "xl_elo" / "federations" / "dwz" / "example"
    args = ["rate", "-f", "dwz", "-p", str(example / "players.csv"), "-g", str(example / "games.csv"),
            "--history", str(example / "history.csv"), "--period", "2014-07", "--format", "report"]
    assert main([*args, "--language", "de"]) == 0
    german = capsys.readouterr().out
    assert main(args) == 0
    english = capsys.readouterr().out
    assert german != english
    with words.use("de"):
        assert words._("status", context="report") in german
        assert words._("Results: + win, = draw, - loss, (x) not rated or not counted for the player{facts}.",
                       facts="") in " ".join(german.split())
    if "first DWZ: stage" in english:
        assert "Erstauswertung: Stufe" in german


@pytest.mark.parametrize("language", words.available()[1:])
def test_the_reports_said_in_a_language_lack_no_phrase(tmp_path, capsys, language):
    """What the reports say when asked in a language, every word of it in its catalogue: a season workbook, a
    player's season page, the norms' table and a norm sheet filled from FIDE's example (a phrase said but missing
    from :func:`xl_elo.templates.catalogues.report_phrases` fails here too)."""
    from test_seasonbook import club

    from xl_elo.frontends.cli import main

    players, games = club(tmp_path, "fide", 8, 2)
    report = ROOT / "xl_elo" / "federations" / "fide" / "example" / "norms.trf"
    season = ["rate", "-f", "fide", "-p", str(players), "-g", str(games), "--language", language]
    with words.recording() as (_asked, missing):
        assert main([*season, "--season-output", str(tmp_path / "s.xlsx"), "-o", str(tmp_path / "a.csv")]) == 0
        assert main([*season, "--player", "p001", "--player", "p007"]) == 0
        assert main(["norms", str(report), "--format", "table", "--language", language]) == 0
        assert main(["norms", str(report), "--sheet", "4", "-o", str(tmp_path / "n.xlsx"), "--language", language]) == 0
    capsys.readouterr()
    assert not missing, f"{language}: no words for {sorted(m[1] for m in missing)[:5]}"

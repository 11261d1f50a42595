"""One reading of a value, one verdict everywhere (rules 1.4, 8): the kind of mistake, not just the case.

For any cell text given as a rating, of any system, every front end reads it the same way: the
schema's reading, a CSV file split by either tokenizer, ``ELO_RATE``'s players range, ``ELO_CHANGE``'s
rating argument, ``xl-elo calc --rating``; a workbook, whose cells hold numbers, reads the number a
spreadsheet makes of the text as the CSV reader reads the text, and refuses text where a number
belongs, in the same words for what reads two ways. The templates' formulas are recalculated in
LibreOffice by tests/test_workbooks.py (its WORDS); here each template's rating column is checked to
carry the same refusals (cheap: the formula's text).
"""

from __future__ import annotations

import argparse
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xl_elo import schema
from xl_elo.federations import registry
from xl_elo.formats import csvfiles
from xl_elo.formats.reader import Table, read_players
from xl_elo.frontends import calc as calc_frontend
from xl_elo.frontends.functions import ArgumentError, _single
from xl_elo.model import InputError

SYSTEMS = sorted(registry())

#: Cell texts a rating column meets: numbers that read two ways, plain numbers with decimals, thousands
#: separators of every kind, and the near misses people type.
CELLS = st.one_of(
    st.from_regex(r"\A[1-9][0-9]{0,2}[.,][0-9]{3}\Z"),
    st.from_regex(r"\A[0-9]{1,4}([.,][0-9]{1,3})?\Z"),
    st.from_regex(r"\A[1-9][0-9]{0,2}[ '\u00a0][0-9]{3}\Z"),
    st.sampled_from(["", "0", " 1850 ", "1850-12", "abc", "1e-400", "1e3", "-5", "3501", "1.85", "1,5", "0,500",
                     "2.412", "1,000", "999.123", "3.499", "1.850,5", "12a", "#N/A", "+1500", "1500.0", ".5"]),
)


def _verdict(read, text):
    """("ok", value) or ("no", message) of one reading."""
    try:
        return ("ok", read(text))
    except schema.ValueProblem as exc:
        return ("no", str(exc))


def _reader_verdict(table: Table, module) -> tuple[str, object]:
    """The players table's one reader on the rating column (rules 8): its value, or its problem there."""
    players, problems = read_players(table, module.Player, 2026)
    said = [p.message for p in problems if p.column == "rating"]
    if said:
        return ("no", said[0])
    value = float(players.rating[0])
    return ("ok", None if value != value else value)


def _csv_verdicts(tmp_path, module, text):
    path = tmp_path / "players.csv"
    path.write_text(f"id;rating\na;{text}\n", encoding="utf-8")
    fast = _reader_verdict(csvfiles.table(path), module)  # split with numpy when the file is plain
    slow = _reader_verdict(csvfiles.careful_table(path), module)
    return fast, slow


def _function_verdict(module, text):
    try:
        return ("ok", _single(text, "rating", module.Player.RATING))
    except ArgumentError as exc:
        return ("no", str(exc).removeprefix("argument rating: "))


def _calc_verdict(module, text):
    try:
        return ("ok", calc_frontend.player_of(argparse.Namespace(rating=text), module).rating)
    except InputError as exc:
        return ("no", exc.problems[0].message)


def _same(a, b):
    """Two verdicts alike: both a value (the same), or both a refusal in the same words."""
    if a[0] != b[0]:
        return False
    if a[0] == "ok":
        return (a[1] is None and b[1] is None) or (a[1] is not None and b[1] is not None and float(a[1]) == float(b[1]))
    return a[1] == b[1]


@settings(max_examples=150, deadline=None)
@given(code=st.sampled_from(SYSTEMS), text=CELLS)
def test_every_front_end_gives_one_verdict_on_a_rating(tmp_path_factory, code, text):
    module = registry()[code]
    tmp = tmp_path_factory.mktemp("v")
    own = _verdict(lambda v: module.Player.RATING(v), text)
    fast, slow = _csv_verdicts(tmp, module, text)
    function = _function_verdict(module, text)
    rate_range = _reader_verdict(Table.from_rows("argument players", ["id", "rating"], [["a", text]], typed=False),
                                 module)
    for name, got in (("CSV (numpy)", fast), ("CSV (cell by cell)", slow), ("ELO_CHANGE", function),
                      ("ELO_RATE", rate_range)):
        if own[0] == "ok" and own[1] is None and got == ("ok", None):
            continue
        assert _same(own, got), f"{code} {text!r}: reading {own} but {name} {got}"
    if text.strip().lower() not in ("", "unrated", "-"):  # calc's flag spells an unrated player so
        assert _same(own, _calc_verdict(module, text)), f"{code} {text!r}: calc differs"


#: A plain number as an English-locale spreadsheet stores it when typed (a decimal point).
_PLAIN = re.compile(r"^[0-9]{1,4}(\.[0-9]{1,3})?$")


@settings(max_examples=150, deadline=None)
@given(code=st.sampled_from(SYSTEMS), text=CELLS)
def test_a_workbook_reads_a_typed_number_as_a_csv_file_reads_its_text(code, text):
    """A workbook cell holds the number a spreadsheet made of the text: the verdict on it is the CSV reader's on
    the text (the value, or the refusal after the value quoted); text in the cell is refused, and what reads two
    ways or has a thousands separator in the CSV reader's own words. (What reads two ways, 1.850, a spreadsheet
    settles by its locale when it is typed: 1850 in German, 1.85 in English, each then read as any number.)"""
    module = registry()[code]
    csv = _reader_verdict(Table.from_rows("p.csv", ["id", "rating"], [["a", text]], typed=False), module)
    typed_text = _reader_verdict(Table.from_rows("book", ["id", "rating"], [["a", text]], typed=True), module)
    if csv[0] == "no" and ("reads two ways" in csv[1] or " has a thousands separator" in csv[1]):
        assert typed_text == csv
    elif text.strip(schema._SPACE) and text.strip(schema._SPACE) != "0" and typed_text[0] == "no":
        assert "text" in typed_text[1] or "not a number" in typed_text[1] or typed_text == csv
    if _PLAIN.match(text) and not schema.TWO_WAYS.match(text):  # a spreadsheet settles 1.850 by its locale
        number = float(text)
        typed = _reader_verdict(Table.from_rows("book", ["id", "rating"], [["a", number]], typed=True), module)
        if csv[0] == "ok":
            assert _same(csv, typed), (code, text, csv, typed)
        else:
            assert typed[0] == "no" and typed[1].split(" ", 1)[1] == csv[1].split(" ", 1)[1], (code, text, csv, typed)


@pytest.mark.parametrize("code", [c for c in SYSTEMS if registry()[c].TEMPLATE])
def test_every_templates_rating_column_carries_the_readers_refusals(code):
    """Each template's rating check refuses what reads two ways and a rating below 10 with decimals, in the
    reader's words (a table-driven check of the formula's text; the words are compared after recalculation in
    tests/test_workbooks.py)."""
    from xl_elo.templates import default_capacity, spec_module

    spec = spec_module(code).spec(default_capacity(code))
    (rating,) = [i for i in spec.players if i.name == "rating"]
    assert "reads two ways" in rating.check and "with a thousands separator or" in rating.check
    assert f"is no rating (none is below {schema.RATING_FRACTION_BELOW} with decimals)" in rating.check


@pytest.mark.parametrize("code", SYSTEMS)
@pytest.mark.parametrize("cell, words", [
    ("1,850", "'1,850' reads two ways, 1850 with a thousands separator or 1.85 with a decimal comma (expected "),
    ("1.850", "'1.850' reads two ways, 1850 with a thousands separator or 1.85 with a decimal point (expected "),
    (1.85, "1.85 is no rating (none is below 10 with decimals): a thousands separator read as a decimal one? "),
    ("1.85", "1.85 is no rating (none is below 10 with decimals): a thousands separator read as a decimal one? "),
])
def test_no_system_reads_1850_as_1_85(code, cell, words):
    """Rules 1.4: a rating is never 1.85. Every system, decimals kept or not (Glicko-2, US Chess), refuses what
    reads two ways naming both readings, and a rating below 10 with decimals, in the same words, ending with
    what to write (1850)."""
    with pytest.raises(schema.ValueProblem) as refused:
        registry()[code].Player.RATING(cell)
    message = str(refused.value)
    assert message.startswith(words) and message.endswith(": write 1850)"), message


#: Result cells: every spelling, case and spaces changed, and near misses.
RESULT_CELLS = st.one_of(
    st.sampled_from(sorted(__import__("xl_elo.core", fromlist=["x"]).RESULT_SPELLINGS)),
    st.sampled_from(["Remis", " 1 - 0 ", "1-O", "2", "0.25", "½ - ½", "WIN", "1:1", "x", "1e400", "draw!", "nul",
                     "Niederlage", "1/2-0"]),
    st.text(alphabet="01½/-:=.,+ WDLGNPwdlgnp", min_size=1, max_size=5),
)


@settings(max_examples=200, deadline=None)
@given(text=RESULT_CELLS)
def test_every_front_end_gives_one_verdict_on_a_result(text):
    """Rules 1.1: the games table (the reader), ELO_CHANGE's results and calc's games read a result cell alike."""
    from xl_elo.formats.reader import read_games
    from xl_elo.frontends.functions import _results

    try:
        own = ("ok", schema.result(text))
    except schema.ValueProblem as exc:
        own = ("no", str(exc))
    games, problems = read_games(Table.from_rows("games.csv", ["player", "opponent", "result"], [["a", "b", text]],
                                                 typed=False))
    said = [p.message for p in problems if p.column == "result"]
    reader = ("no", said[0]) if said else ("ok", games.results[int(games.result[0])] if int(games.result[0]) >= 0
                                           else None)
    if own[0] == "ok" and own[1].kind.value == "not played":  # a blank result: a game not played, no code
        assert reader[0] == "ok"
    else:
        assert reader == own, (text, reader, own)
    try:
        function = ("ok", _results([[text]])[0])
    except ArgumentError as exc:
        function = ("no", str(exc).removeprefix("argument results: "))
    assert (function[0] == "no") == (own[0] == "no") and (own[0] == "ok" or function[1] == own[1])
    if own[0] == "ok" and own[1].rated and "," not in text and text.strip():  # calc: "1500 <result>", commas part games
        games_ = calc_frontend.parse_games(f"1500 {''.join(text.split())}")
        assert games_[0].score == own[1].score

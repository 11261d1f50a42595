"""The common core (SPEC section 1): results, expected score, rounding, ratings."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
from conftest import ROOT
from hypothesis import given
from hypothesis import strategies as st

from xl_elo.core import (
    ResultError,
    ResultKind,
    expected_score,
    normal_quantile,
    parse_result,
    round_half_away,
    round_half_even,
    round_to_ten,
)
from xl_elo.schema import ValueProblem
from xl_elo.schema import rating as validate_rating


@pytest.mark.parametrize(
    "text, score",
    [
        ("1", 1.0), ("0", 0.0), ("0.5", 0.5), ("0,5", 0.5), ("½", 0.5), ("=", 0.5), ("1-0", 1.0),
        ("0-1", 0.0), ("½-½", 0.5), ("1/2", 0.5), ("0.5-0.5", 0.5), ("W", 1.0), ("D", 0.5),
        ("L", 0.0), ("G", 1.0), ("N", 0.5), ("P", 0.0), ("w", 1.0), (" 1 ", 1.0),
        ("\u00a00,5\u00a0", 0.5), (1.0, 1.0), (0.5, 0.5), (0, 0.0),
    ],
)
def test_every_spelling_of_a_played_result(text, score):
    """SPEC 1.1: every accepted spelling, and the floats Excel passes."""
    r = parse_result(text)
    assert r.kind is ResultKind.PLAYED and r.score == score and r.rated


@pytest.mark.parametrize(
    "text, score",
    [("+", 1.0), ("-", 0.0), ("+-", 1.0), ("-+", 0.0), ("F", None), ("forfeit", None)],
)
def test_forfeits_are_kept_as_not_rated(text, score):
    r = parse_result(text)
    assert r.kind is ResultKind.FORFEIT and r.score == score and not r.rated


@pytest.mark.parametrize("text", ["bye", "BYE", "Bye"])
def test_byes(text):
    assert parse_result(text).kind is ResultKind.BYE


def test_blank_opponent_is_a_bye_and_blank_result_is_not_played():
    assert parse_result("1", has_opponent=False).kind is ResultKind.BYE
    assert parse_result(None).kind is ResultKind.NOT_PLAYED
    assert parse_result("  ").kind is ResultKind.NOT_PLAYED


@pytest.mark.parametrize("bad", ["2", "1.5", "win?", "0-0", 0.25, True, "#N/A"])
def test_anything_else_is_an_error_naming_the_value(bad):
    with pytest.raises(ResultError, match="is not a result"):
        parse_result(bad)


def test_logistic_expected_score_values():
    """SPEC 1.2: E(r, o) = 1 / (1 + 10^((o - r) / 400)); 100 points ~ 64%."""
    assert expected_score(1500, 1500) == 0.5
    assert expected_score(1600, 1500) == pytest.approx(0.6400649998)
    assert expected_score(1500, 1900) == pytest.approx(1 / 11)


@given(st.floats(0, 3500), st.floats(0, 3500))
def test_expected_scores_of_both_sides_sum_to_one(a, b):
    assert float(expected_score(a, b) + expected_score(b, a)) == pytest.approx(1.0)


@pytest.mark.parametrize(
    "x, away, even",
    [(2.5, 3, 2), (-2.5, -3, -2), (1.5, 2, 2), (0.49, 0, 0), (-0.5, -1, 0), (3.5, 4, 4)],
)
def test_named_rounding_rules(x, away, even):
    """SPEC 1.3 and 2.1 (half away from zero), 6.4 (half to even)."""
    assert round_half_away(x) == away
    assert round_half_even(x) == even


@pytest.mark.parametrize("x, ten", [(1234.999, 1230), (1235, 1240), (1244.9, 1240), (1245, 1250), (999.99, 1000)])
def test_round_to_ten(x, ten):
    """SPEC 5.9: to the nearest ten, 5 going up."""
    assert round_to_ten(x) == ten


@pytest.mark.parametrize("value, rating", [(None, None), ("", None), ("1500", 1500.0), (" 1500 ", 1500.0),
                                           ("1500,0", 1500.0), (0, None), (3500, 3500.0), (1875.0, 1875.0)])
def test_valid_ratings(value, rating):
    assert validate_rating(value) == rating


@pytest.mark.parametrize("value, words", [
    ("abc", "not a number"), (-1, "out of range"), (3501, "out of range"), (float("inf"), "not a finite number"),
    ("12a", "not a number"), ("1500,5", "not a whole number"), ("1 875", "thousands separator"),
    ("1.850", "reads two ways, 1850 with a thousands separator or 1.85 with a decimal point"),
    ("1,850", "write 1850"), (1.85, "1.85 is no rating"), (3.5, "write 3500"), (True, "not a rating"),
    ("1e400", "not a finite number"), ("1e20", "out of range"), ("#N/A", "spreadsheet error"),
])
def test_bad_ratings_say_what_was_found(value, words):
    """Rules 1.4, 8: a rating is a whole number from 0 to 3500; a thousands separator is named."""
    with pytest.raises(ValueProblem, match=words):
        validate_rating(value)


def test_a_rating_typed_as_text_in_a_workbook_is_refused():
    """In a typed source (a workbook, a range) a number typed as text is refused, as the template's formulas
    refuse it."""
    with pytest.raises(ValueProblem, match="is text, not a number"):
        validate_rating("1875", typed=True)
    assert validate_rating(1875.0, typed=True) == 1875


def test_normal_quantile_against_known_values():
    # Phi^-1 of 0.975 = 1.959963985, of 0.75 = 0.6744897502, of 0.01 = -2.326347874
    got = normal_quantile([0.975, 0.75, 0.5, 0.01])
    assert got == pytest.approx([1.959963985, 0.6744897502, 0.0, -2.326347874], abs=1e-8)
    assert math.isinf(normal_quantile(0.0)) and math.isinf(normal_quantile(1.0))


def test_engine_imports_nothing_of_excel_or_files(tmp_path):
    """STYLE: the rules know no xlwings, openpyxl or printing."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('xlwings', 'openpyxl'):\n"
        "            raise ImportError('blocked ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import xl_elo.core, xl_elo.tables, xl_elo.model\n"
        "from xl_elo.federations import fide, fse, fqe, ffe, fesa\n"
        "from xl_elo.federations.fesa import grades, promotion\n"
        "print('ok')\n"
    )
    env = dict(os.environ)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert out.stdout.strip() == "ok", out.stderr


def test_tests_run_against_the_package_they_should():
    """In CI (XL_ELO_TEST_INSTALLED=1) xl_elo must come from the installed wheel."""
    import xl_elo

    if os.environ.get("XL_ELO_TEST_INSTALLED") == "1":
        assert ROOT not in __import__("pathlib").Path(xl_elo.__file__).resolve().parents
    else:
        assert xl_elo.__file__
    assert np.__version__

"""Hostile and careless inputs (issue #19): every one a clean refusal or the right answer, no file lost.

``tests/data/hostile/`` is the corpus (its README.md says how a case is written):

- ``<case>/case.toml`` and the case's input files: a command line, its exit status and the exact
  lines it must print; the inputs are checked unchanged afterwards (nothing a user typed is lost),
  and, where the tables can be given as spreadsheet ranges, the same tables go through ``ELO_RATE``
  with the same verdict (accepted with the same figures, or refused with the same words).
  Files too big or too strange to commit (bombs, devices, links) are built by the case's
  ``build`` function below, at run time.
- ``values.toml``: one value per entry, put in one cell of a small FIDE period and through the
  command line, ``ELO_RATE`` and, where the cell is an argument of one, ``ELO_CHANGE``,
  ``ELO_EXPECTED`` and ``ELO_K``: the same verdict everywhere.

A property test feeds mutated CSV bytes (line ends, quotes, huge numbers, control characters)
to the readers and the command line: zero tracebacks, and the fast lane never accepts what the
cell-by-cell reader refuses.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import re
import shutil
import stat
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from xl_elo.frontends import functions
from xl_elo.frontends.cli import main

HOSTILE = DATA / "hostile"
CASES = sorted(d.name for d in HOSTILE.iterdir() if (d / "case.toml").is_file())
VALUES = tomllib.loads((HOSTILE / "values.toml").read_text(encoding="utf-8"))["value"]
BLANK = "<blank>"


def run_cli(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(args, out, err)
    return code, out.getvalue(), err.getvalue()


def lines_of(message: str | list[str]) -> list[str]:
    return [message] if isinstance(message, str) else list(message)


def assert_printed(err: str, message: str | list[str]) -> None:
    """Each expected message is a whole line of what was printed (alone, one of several problems, or a line
    indented under them)."""
    printed = err.splitlines()
    for m in lines_of(message):
        assert f"xl-elo: {m}" in printed or f"  - {m}" in printed or f"  {m}" in printed, \
            f"expected the line\n  {m}\nin\n{err}"


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every regular file under ``root`` (links not followed): its bytes and its mode."""
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.is_symlink():
            out[str(p.relative_to(root))] = (p.read_bytes(), stat.S_IMODE(p.stat().st_mode))
    return out


# --------------------------------------------------------------------------- spreadsheet functions


def cell(value: Any) -> Any:
    """A corpus value as a spreadsheet passes it: ``<blank>`` is an empty cell."""
    if isinstance(value, list):
        return [cell(v) for v in value]
    return None if value == BLANK else value


def call(name: str, args: list[Any]) -> tuple[bool, Any]:
    """(True, result) or (False, the ArgumentError's text); any other exception fails the test."""
    fn = functions.by_name()[name].function
    try:
        return True, fn(*[cell(a) for a in args])
    except functions.ArgumentError as exc:
        return False, str(exc)


def check_calls(calls: list[dict[str, Any]]) -> None:
    for c in calls:
        ok, got = call(c["function"], c["args"])
        if "error" in c:
            assert not ok and got == c["error"], (c, got)
        else:
            assert ok and got == pytest.approx(c["result"]), (c, got)


def as_function_words(message: str, files: dict[str, str]) -> str:
    """A command-line message as ELO_RATE words it: a file's name becomes its argument's."""
    for name, argument in files.items():
        message = message.replace(name, f"argument {argument}")
    return message


def csv_cells(table: list[list[Any]]) -> list[list[str]]:
    from xl_elo.formats.writers import format_cell

    return [[format_cell(v, csv_safe=True) for v in row] for row in table]


def check_elo_rate(args: list[str], code: int, out: str, message: str | list[str]) -> None:
    """The tables of a command line given to ELO_RATE as ranges of text cells: the same verdict."""
    from xl_elo.formats.csvfiles import read_csv

    opt = {a: args[i + 1] for i, a in enumerate(args[:-1]) if a.startswith("-")}
    federation = opt.get("-f") or opt.get("--federation")
    tables = {k: opt.get(f"--{k}") or opt.get(f"-{k[0]}") for k in ("players", "games")}
    tables["history"] = opt.get("--history")
    ranges = {}
    for key, path in tables.items():
        if path:
            head, rows = read_csv(path)
            ranges[key] = [head, *rows]
    ok, got = call("ELO_RATE", [federation, ranges["players"], ranges["games"], ranges.get("history", BLANK),
                                opt.get("--period", BLANK)])
    if code == 0:
        assert ok, got
        expected = list(csv.reader(io.StringIO(out)))
        assert csv_cells(got) == expected
    else:
        assert not ok, "ELO_RATE accepted what the command line refused"
        names = {Path(p).name: k for k, p in tables.items() if p}
        for m in lines_of(message):
            assert as_function_words(m, names) in got, (m, got)


# --------------------------------------------------------------------------- the case corpus


@pytest.mark.parametrize("case", CASES)
def test_case(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = tomllib.loads((HOSTILE / case / "case.toml").read_text(encoding="utf-8"))
    if spec.get("root") and os.geteuid() != 0:
        pytest.skip("needs root (as the issue's tester ran it)")
    work = tmp_path / "work"
    shutil.copytree(HOSTILE / case, work, symlinks=True)
    (work / "case.toml").unlink()
    monkeypatch.chdir(work)
    for key, value in spec.get("env", {}).items():
        monkeypatch.setenv(key, str(value))
    if "build" in spec:
        BUILDERS[spec["build"]](work)
    before = snapshot(work)
    for step in spec.get("steps", [spec]):
        if "args" not in step:
            continue
        code, out, err = run_cli(step["args"])  # its time budget ("seconds") is bench/run.py's, never a test's
        assert "Traceback" not in err
        assert code == step["status"], err
        if "message" in step:
            assert_printed(err, step["message"])
        if "same_as" in step:
            assert (code, out) == run_cli(step["same_as"])[:2]
        if "stdout" in step:
            assert out == step["stdout"]
        if step.get("elo_rate"):
            check_elo_rate(step["args"], code, out, step.get("message", []))
    after = snapshot(work)
    for name, (data, mode) in before.items():  # nothing a user typed is lost
        if name not in spec.get("changed", []):
            assert after.get(name) == (data, mode), f"{name} was changed"
    for name in spec.get("absent", []):
        assert not (work / name).exists() or name in before, f"{name} was written"
    for name in spec.get("created", []):
        assert (work / name).is_file(), f"{name} was not written"
    assert not [p.name for p in work.rglob(".*.tmp")], "a temporary file was left"
    if "check" in spec:
        CHECKS[spec["check"]](work)
    check_calls(spec.get("calls", []))


def test_the_corpus_is_well_formed() -> None:
    known = {"about", "args", "status", "message", "build", "check", "env", "seconds", "same_as", "stdout",
             "elo_rate", "calls", "changed", "absent", "created", "steps", "root"}
    for case in CASES:
        spec = tomllib.loads((HOSTILE / case / "case.toml").read_text(encoding="utf-8"))
        assert set(spec) <= known, (case, set(spec) - known)
        assert spec.get("about"), case
        assert spec.get("build") is None or spec["build"] in BUILDERS, case
        assert spec.get("check") is None or spec["check"] in CHECKS, case
        for step in spec.get("steps", [spec]):
            assert "args" not in step or "status" in step, case


# --------------------------------------------------------------------------- one value, every front end


PLAYERS_HEAD = ["id", "name", "rating", "games", "birth_year", "ever_2400"]
GAMES_HEAD = ["round", "player", "opponent", "result", "rated"]
DEFAULTS = {"id": "a", "rating": "2000", "games": "50", "birth_year": "1990", "ever_2400": "no",
            "opponent_rating": "1900", "round": "1", "result": "1", "rated": "yes", "period": "2026-10"}
#: Where a field's cell is in the tables, as a message names it.
WHERE = {"id": ("players", 2, "id"), "rating": ("players", 2, "rating"), "games": ("players", 2, "games"),
         "birth_year": ("players", 2, "birth_year"), "ever_2400": ("players", 2, "ever_2400"),
         "opponent_rating": ("players", 3, "rating"), "round": ("games", 2, "round"),
         "result": ("games", 2, "result"), "rated": ("games", 2, "rated")}


def as_text(value: Any) -> str:
    """A cell as the CSV file holds it: a number as Python writes it, a date as YYYY-MM-DD, a blank as ''."""
    if value == BLANK:
        return ""
    return repr(value) if isinstance(value, float) else str(value)


def value_tables(field: str, value: Any) -> tuple[list[list[str]], list[list[str]], str]:
    v = {**DEFAULTS, field: as_text(value)}
    players = [PLAYERS_HEAD, [v["id"], "Anna", v["rating"], v["games"], v["birth_year"], v["ever_2400"]],
               ["b", "Bob", v["opponent_rating"], "50", "1980", "no"]]
    games = [GAMES_HEAD, [v["round"], v["id"], "b", v["result"], v["rated"]]]
    return players, games, v["period"]


def write_csv(path: Path, rows: list[list[str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


def _value_id(entry: dict[str, Any]) -> str:
    return f"{entry['field']}={as_text(entry['cell'])[:24]!r}"


@pytest.mark.parametrize("entry", VALUES, ids=_value_id)
def test_value(entry: dict[str, Any], tmp_path: Path) -> None:
    field, value = entry["field"], entry["cell"]
    players, games, period = value_tables(field, value)
    write_csv(tmp_path / "players.csv", players)
    write_csv(tmp_path / "games.csv", games)
    args = ["rate", "-f", "fide", "-p", str(tmp_path / "players.csv"), "-g", str(tmp_path / "games.csv"),
            "--format", "csv"] + (["--period", period] if period else [])
    code, out, err = run_cli(args)
    assert "Traceback" not in err
    text = as_text(value)
    if "message" in entry:  # refused everywhere, with the same words
        assert code == 1, out
        if field == "period":
            where_cli, where_fn = "period: ", "argument period: "
        else:
            table, row, column = WHERE[field]
            where_cli = f"{table}.csv, row {row}, column '{column}': "
            where_fn = f"argument {table}, row {row}, column '{column}': "
        assert_printed(err, where_cli + entry["message"])
        ok, got = call("ELO_RATE", ["fide", players, games, BLANK, period or BLANK])
        assert not ok and where_fn + entry["message"] in got, got
    else:
        assert code == 0, err
        row = next(iter(csv.DictReader(io.StringIO(out))))  # "a", the first player
        if "change" in entry:
            assert row["change"] == as_text(entry["change"])
        ok, got = call("ELO_RATE", ["fide", players, games, BLANK, period or BLANK])
        assert ok, got
        assert csv_cells(got) == list(csv.reader(io.StringIO(out)))
    # the same cell as an argument of the one-player functions (a number as Excel passes it)
    argument = {"rating": 1, "opponent_rating": 2, "result": 3, "games": 4, "ever_2400": 6}.get(field)
    if argument is None or not entry.get("elo_change", True):
        return
    change_args: list[Any] = ["fide", 2000.0, [[1900.0]], [[1.0]], 50.0, 36.0, "no", BLANK]
    change_args[argument] = [[value]] if field in ("opponent_rating", "result") else value
    ok, got = call("ELO_CHANGE", change_args)
    if "message" in entry:
        words = entry["message"] if not isinstance(value, float) else entry["message"].replace(repr(text), repr(value))
        assert not ok and words in got, got
    elif row["change"] == "":  # no rating yet on the command line: none from the function either
        assert not ok and got.startswith("FIDE: no rating change"), got
    else:
        assert ok, got
        assert float(got) == float(row["change"])
    if field in ("rating", "opponent_rating"):
        ok_e, got_e = call("ELO_EXPECTED", [value, 1500.0])
        ok_k, got_k = call("ELO_K", ["fide", value])
        assert ok_e == ok_k == ("message" not in entry), (got_e, got_k)


# --------------------------------------------------------------------------- builders: files made at run time


def _fqe_workbook(path: Path, players: list[list[Any]] | None = None, games: list[list[Any]] | None = None, *,
                  federation: str = "fqe", period: Any = "2026-10", record: str | None = None,
                  edit: Callable[[Any], None] | None = None) -> Path:
    """A filled template as the reader needs one: XL_ELO_FEDERATION, the input sheets, every setting named."""
    import openpyxl
    from openpyxl.workbook.defined_name import DefinedName

    from xl_elo.federations import get

    players = players or [["id", "name", "rating", "games"], ["a", "Anna", 1500, 30], ["b", "Bob", 1400, 30]]
    games = games or [["round", "player", "opponent", "result"], [1, "a", "b", 1]]
    wb = openpyxl.Workbook()
    ins = wb.active
    ins.title = "instructions"
    settings = {"period": period, "event_name": "Club championship"}
    settings.update({f"opt_{f.name}": f.default for f in fields(get(federation).Options)})
    for r, (key, value) in enumerate(settings.items(), start=1):
        ins.cell(r, 1, key)
        ins.cell(r, 2, value)
        wb.defined_names[key] = DefinedName(key, attr_text=f"instructions!$B${r}")
    wb.defined_names["XL_ELO_FEDERATION"] = DefinedName("XL_ELO_FEDERATION", attr_text=f'"{record or federation}"')
    for name, rows in (("players", players), ("games", games)):
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    if edit:
        edit(wb)
    wb.save(path)
    return path


def _sheet_xml(path: Path, sheet: str, change: Callable[[bytes], bytes], target: Path | None = None,
               method: int = zipfile.ZIP_DEFLATED) -> Path:
    """A copy of a workbook with one sheet's XML changed (the package rewritten part by part)."""
    from xl_elo.formats.workbook import _sheet_paths

    target = target or path
    data = {}
    with zipfile.ZipFile(path) as z:
        member = _sheet_paths(z)[sheet]
        infos = z.infolist()
        for i in infos:
            data[i.filename] = z.read(i.filename)
    data[member] = change(data[member])
    tmp = target.with_suffix(".part")
    with zipfile.ZipFile(tmp, "w", method) as z:
        for i in infos:
            z.writestr(i.filename, data[i.filename])
    tmp.replace(target)
    return target


def build_workbook(work: Path) -> None:
    _fqe_workbook(work / "filled.xlsx")


def build_fesa_workbook(work: Path) -> None:
    _fqe_workbook(work / "fesa.xlsx",
                  [["id", "name", "rating", "games"], ["a", "Anna", None, 0], ["b", "Bob", 1400, 30]],
                  federation="fesa")


def build_bad_federation(work: Path) -> None:
    _fqe_workbook(work / "filled.xlsx", record="klingon")


def build_event_name_elsewhere(work: Path) -> None:
    def edit(wb: Any) -> None:
        wb.defined_names["event_name"].attr_text = "'no such sheet'!$B$2"
    _fqe_workbook(work / "filled.xlsx", edit=edit)


def build_event_names(work: Path) -> None:
    """Event names a spreadsheet lets a user type: a line break (Alt+Enter), 5,000 characters, #N/A."""
    def name(value: str) -> Callable[[Any], None]:
        def edit(wb: Any) -> None:
            ins = wb["instructions"]
            ins.cell(next(r for r in range(1, 20) if ins.cell(r, 1).value == "event_name"), 2).value = value
        return edit

    for key, value in (("break", "Club\nchampionship"), ("long", "x" * 5000), ("error", "#N/A")):
        _fqe_workbook(work / f"{key}.xlsx", edit=name(value))


def build_renamed_sheet(work: Path) -> None:
    def edit(wb: Any) -> None:
        wb["players"].title = "Players (2)"
    _fqe_workbook(work / "filled.xlsx", edit=edit)


def build_deleted_sheet(work: Path) -> None:
    _fqe_workbook(work / "filled.xlsx", edit=lambda wb: wb.remove(wb["games"]))


def build_fide_dated_period(work: Path) -> None:
    import datetime as dt

    _fqe_workbook(work / "filled.xlsx", federation="fide", period=dt.datetime(2026, 10, 15))
    _fqe_workbook(work / "typed.xlsx", federation="fide", period="2026-10")


def build_fide_bad_period(work: Path) -> None:
    _fqe_workbook(work / "filled.xlsx", federation="fide", period="2026-13")
    _fqe_workbook(work / "blank.xlsx", federation="fide", period=None)


def _many_players(n: int) -> list[list[Any]]:
    return [["id", "name", "rating", "games"]] + [[f"p{i}", f"Player {i}", 1500 + i, 30] for i in range(n)]


def build_crc(work: Path) -> None:
    """A byte of a sheet changed after its checksum was written (the sheet far longer than its first 4 KB)."""
    path = _fqe_workbook(work / "filled.xlsx", _many_players(400), [["round", "player", "opponent", "result"],
                                                                    [1, "p0", "p1", 1]])
    _sheet_xml(path, "players", lambda x: x, method=zipfile.ZIP_STORED)
    raw = bytearray(path.read_bytes())
    at = raw.rfind(b"<v>1899</v>")
    raw[at + 3] = ord("7")
    path.write_bytes(bytes(raw))


def build_truncated(work: Path) -> None:
    path = _fqe_workbook(work / "filled.xlsx")
    path.write_bytes(path.read_bytes()[:3000])


def build_stale_dimension(work: Path) -> None:
    """Games written below the size the sheet declares (a program that forgot to update it)."""
    path = _fqe_workbook(work / "filled.xlsx", _many_players(10), [["round", "player", "opponent", "result"],
                                                                   [1, "p8", "p9", 1]])

    def more_games(xml: bytes) -> bytes:
        rows = b"".join(b'<row r="%d"><c r="A%d"><v>1</v></c><c r="B%d" t="inlineStr"><is><t>p%d</t></is></c>'
                        b'<c r="C%d" t="inlineStr"><is><t>p%d</t></is></c><c r="D%d"><v>1</v></c></row>'
                        % (r, r, r, r - 3, r, r - 2, r) for r in range(3, 8))
        assert b'<dimension ref="A1:D2"' in xml
        return xml.replace(b"</sheetData>", rows + b"</sheetData>")

    _sheet_xml(path, "games", more_games)
    _fqe_workbook(work / "declared.xlsx", _many_players(10), [["round", "player", "opponent", "result"],
                                                             [1, "p8", "p9", 1]] +
                  [[1, f"p{r - 3}", f"p{r - 2}", 1] for r in range(3, 8)])


def build_cells_bomb(work: Path) -> None:
    """16 million identical cells in a 1 MB workbook, no size declared."""
    path = _fqe_workbook(work / "filled.xlsx")
    row = b"<row>" + b"<c><v>1</v></c>" * 16_000 + b"</row>"

    def bomb(xml: bytes) -> bytes:
        xml = re.sub(rb"<dimension [^>]*/>", b"", xml)
        return xml.replace(b"</sheetData>", row * 1_000 + b"</sheetData>")

    _sheet_xml(path, "games", bomb)


def build_ods_cells_bomb(work: Path) -> None:
    """An OpenDocument spreadsheet of half a million cells (the case lowers the limit): refused before
    LibreOffice is started."""
    row = b"<table:table-row>" + b'<table:table-cell office:value-type="float" office:value="1"/>' * 1_000 \
        + b"</table:table-row>"
    with zipfile.ZipFile(work / "bomb.ods", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("content.xml", b'<office:document-content><office:body><office:spreadsheet><table:table '
                                  b'table:name="players">' + row * 500 + b"</table:table></office:spreadsheet>"
                                  b"</office:body></office:document-content>")
    build_cells_bomb(work)


def build_shared_strings(work: Path) -> None:
    """A shared-strings part of 40 MB (the issue's was 343 MB) in a workbook of well under 1 MB."""
    path = _fqe_workbook(work / "filled.xlsx")
    with zipfile.ZipFile(path) as z:
        parts = {i.filename: z.read(i.filename) for i in z.infolist()}
    parts["xl/sharedStrings.xml"] = (b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                                     + b"<si><t>ab</t></si>" * 2_200_000 + b"</sst>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)


def build_long_text_cell(work: Path) -> None:
    """One cell of 300,000 characters (no spreadsheet holds more than 32,767 in a cell)."""
    path = _fqe_workbook(work / "filled.xlsx")
    text = (b"0123456789abcdef" * 20_000)[:300_000]
    _sheet_xml(path, "players", lambda x: x.replace(
        b"</sheetData>", b'<row r="4"><c r="B4" t="inlineStr"><is><t>' + text + b"</t></is></c></row></sheetData>"))


def build_unreadable_cell(work: Path) -> None:
    """A number cell holding text, and a shared string that does not exist: what openpyxl cannot read."""
    path = _fqe_workbook(work / "filled.xlsx")
    _sheet_xml(path, "players", lambda x: x.replace(b"</sheetData>",
                                                    b'<row r="4"><c r="C4" t="n"><v>abc</v></c></row></sheetData>'))
    path2 = _fqe_workbook(work / "strings.xlsx")
    _sheet_xml(path2, "games", lambda x: x.replace(b"</sheetData>",
                                                   b'<row r="3"><c r="B3" t="s"><v>99999</v></c></row></sheetData>'))


def build_not_xlsx(work: Path) -> None:
    (work / "old.xlsx").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(4000))
    with zipfile.ZipFile(work / "calc.xlsx", "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("content.xml", "<office:document-content/>")
    (work / "folder.xlsx").mkdir()


def build_encrypted(work: Path) -> None:
    path = _fqe_workbook(work / "filled.xlsx")
    raw = bytearray(path.read_bytes())
    for sig in (b"PK\x03\x04", b"PK\x01\x02"):  # the "encrypted" flag of the first part, in both headers
        at = raw.find(sig)
        flag = at + (6 if sig == b"PK\x03\x04" else 8)
        raw[flag] |= 1
    path.write_bytes(bytes(raw))


def build_long_line(work: Path) -> None:
    with (work / "games.csv").open("ab") as f:
        f.write(b"1,a,b," + b"1" * (100 << 20) + b"\n")


def build_long_name(work: Path) -> None:
    rows = "".join(f"p{i},Player {i},1500,30\n" for i in range(20_000))
    (work / "players.csv").write_text("id,name,rating,games\n" + rows + "x," + "N" * (1 << 20) + ",1500,30\n",
                                      encoding="utf-8")


def build_wide_cell(work: Path) -> None:
    (work / "players.csv").write_text("id,name,rating,games\na,Anna,1500,30\nb," + "B" * 140_000 + ",1500,30\n",
                                      encoding="utf-8")


def build_million_columns(work: Path) -> None:
    (work / "players.csv").write_text("id,name,rating" + ",x" * 1_000_000 + "\na,Anna,1500\nb,Bob,1400\n",
                                      encoding="utf-8")


def build_many_cells(work: Path) -> None:
    line = "," * 900 + "\n"
    (work / "players.csv").write_text("id,name,rating,games" + "," * 897 + "\n" + "a,Anna,1500,30" + line[4:] * 1
                                      + line * 40_000, encoding="utf-8")


def build_too_many_games(work: Path) -> None:
    players = "id,rating,games\n" + "".join(f"p{i},1500,30\n" for i in range(2_001))
    games = "round,player,opponent,result\n" + "".join(f"{1 + i // 1000},p0,p{i + 1},1\n" for i in range(2_000))
    (work / "players.csv").write_text(players, encoding="utf-8")
    (work / "games.csv").write_text(games, encoding="utf-8")


def build_devices(work: Path) -> None:
    os.mkfifo(work / "pipe.csv")
    (work / "folder.csv").mkdir()


def build_links(work: Path) -> None:
    (work / "link.csv").symlink_to("players.csv")
    os.link(work / "games.csv", work / "hard.csv")
    (work / "sub").mkdir()


def build_broken_links(work: Path) -> None:
    (work / "dangling.csv").symlink_to("/nonexistent/results.csv")
    (work / "loop1.csv").symlink_to("loop2.csv")
    (work / "loop2.csv").symlink_to("loop1.csv")


def build_read_only(work: Path) -> None:
    out = work / "results.csv"
    out.write_text("last month's results\n", encoding="utf-8")
    out.chmod(0o444)


def build_ffe_settings(work: Path) -> None:
    """An FFE workbook whose numeric setting (where the iteration starts) is text, 'nan' or far off."""
    def setting(value: Any) -> Callable[[Any], None]:
        def edit(wb: Any) -> None:
            ins = wb["instructions"]
            row = next(r for r in range(1, 20) if ins.cell(r, 1).value == "opt_start")
            ins.cell(row, 2).value = value
        return edit

    players = [["id", "rating", "games"], ["a", 1500, 30], ["b", None, 0]]
    for name, value in (("text", "abc"), ("nan", "nan"), ("far", 1e300)):
        _fqe_workbook(work / f"{name}.xlsx", players, federation="ffe", edit=setting(value))


def build_modes(work: Path) -> None:
    kept = work / "kept.csv"
    kept.write_text("last month's results\n", encoding="utf-8")
    kept.chmod(0o640)


def build_fesa_history_beside(work: Path) -> None:
    shutil.copyfile(work / "games.csv", work / "results_history.csv")


def build_tables_given_twice(work: Path) -> None:
    shutil.copy(work / "players.csv", work / "copy.csv")
    os.link(work / "players.csv", work / "hard.csv")
    (work / "link.csv").symlink_to("players.csv")


def build_trf_given_twice(work: Path) -> None:
    shutil.copy(DATA / "trf" / "xlelo_club_2026.trf", work / "club.trf")
    shutil.copy(work / "club.trf", work / "copy.trf")
    os.link(work / "club.trf", work / "hard.trf")


def _fesa_files(work: Path) -> None:
    for name in ("turnering.txt", "ratingliste.pre", "nye-spillere"):
        shutil.copy(DATA / "fesa" / "13th_nekomadoken" / name, work / name)


def build_fesa_long_numbers(work: Path) -> None:
    """A number of 5,000 digits: a rating in the list, a ratio's numerator, an opponent's number, a line's number."""
    _fesa_files(work)
    (work / "long.pre").write_text(f'(#S(PLAYER :LAST-NAME "N2" :ELO-NUMBER {"9" * 5000}))\n', encoding="latin-1")
    (work / "ratio.pre").write_text(f'(#S(PLAYER :LAST-NAME "N2" :GAMES (({"1" * 5000}/2 1 1))))\n',
                                    encoding="latin-1")
    lines = (work / "turnering.txt").read_text(encoding="latin-1").splitlines()
    round_ = [*lines[:2], lines[2].replace("[0- ", f"[{'9' * 5000}- "), *lines[3:]]
    (work / "turnering_round.txt").write_text("\n".join(round_) + "\n", encoding="latin-1")
    lead = [*lines[:2], "0" * 4999 + lines[2], *lines[3:]]  # player 1, numbered with 5,000 digits
    (work / "turnering_lead.txt").write_text("\n".join(lead) + "\n", encoding="latin-1")


def build_fesa_big_list(work: Path) -> None:
    """A list of 17 MiB (a sparse file: refused by its size, never read)."""
    _fesa_files(work)
    with (work / "ratingliste.pre").open("r+b") as f:
        f.truncate(17 << 20)


def _results_sheet(extra: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]) -> Callable[[Any], None]:
    """A results sheet as a template's own formulas would have computed it (the engine's values, cached),
    read through the names r_<column>, with the rows ``extra`` makes of the engine's."""
    def edit(wb: Any) -> None:
        from openpyxl.utils import get_column_letter
        from openpyxl.workbook.defined_name import DefinedName

        from xl_elo.formats.reader import Table
        from xl_elo.loader import load

        players = [[c.value for c in row] for row in wb["players"].iter_rows()]
        games = [[c.value for c in row] for row in wb["games"].iter_rows()]
        results = load("fqe", players=Table.from_rows("players", players[0], players[1:], typed=True),
                       games=Table.from_rows("games", games[0], games[1:], typed=True)).rate()
        ws = wb.create_sheet("results")
        columns = list(results.columns)
        for r, row in enumerate(extra(list(results.rows)), start=4):
            for j, c in enumerate(columns, start=1):
                v = row.get(c)
                ws.cell(r, j, ("yes" if v else "no") if isinstance(v, bool) else v)
        for j, c in enumerate(columns, start=1):
            col = get_column_letter(j)
            wb.defined_names[f"r_{c}"] = DefinedName(f"r_{c}", attr_text=f"results!${col}$4:${col}$20")
    return edit


def build_second_opinion_rows(work: Path) -> None:
    _fqe_workbook(work / "agrees.xlsx", edit=_results_sheet(lambda rows: rows))
    _fqe_workbook(work / "stranger.xlsx", edit=_results_sheet(lambda rows: [*rows, {**rows[0], "id": "zed"}]))
    _fqe_workbook(work / "twice.xlsx", edit=_results_sheet(lambda rows: [*rows, rows[0]]))
    _fqe_workbook(work / "missing.xlsx", edit=_results_sheet(lambda rows: rows[:1]))


def build_many_problems(work: Path) -> None:
    """3,000 players, each with a rating that is not a number."""
    write_csv(work / "players.csv", [["id", "name", "rating", "games"]]
              + [[f"p{i}", "N", f"x{i}", "30"] for i in range(3000)])
    write_csv(work / "games.csv", [["round", "player", "opponent", "result"], ["1", "p0", "p1", "1"]])


BUILDERS: dict[str, Callable[[Path], None]] = {
    name[len("build_"):]: fn for name, fn in globals().items() if name.startswith("build_") and callable(fn)}


# --------------------------------------------------------------------------- checks after a case


def check_umask_mode(work: Path) -> None:
    assert stat.S_IMODE((work / "new.csv").stat().st_mode) == 0o666 & ~_umask()
    assert stat.S_IMODE((work / "kept.csv").stat().st_mode) == 0o640


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_csv_not_xlsx(work: Path) -> None:
    for name in ("out.csv", "asked.xlsx"):
        data = (work / name).read_bytes()
        assert not data.startswith(b"PK") and data.startswith(b"id,name,status,"), name
    assert (work / "book.xlsx").read_bytes().startswith(b"PK")


def check_fesa_history(work: Path) -> None:
    """A new player's game is his history for the next tournament: kept beside a CSV output."""
    assert (work / "out_history.csv").read_text(encoding="utf-8") == "id,opponent_rating,result\na,1395,1\n"
    assert (work / "named.csv").read_text(encoding="utf-8") == "id,opponent_rating,result\na,1395,1\n"


def check_round_trip(work: Path) -> None:
    def name(path: str) -> str:
        return next(r for r in csv.DictReader((work / path).open(encoding="utf-8")) if r["id"] == "a")["name"]
    assert name("players.csv") == name("round1.csv") == name("round2.csv") == 'Anna "The Rook" Keller'


CHECKS: dict[str, Callable[[Path], None]] = {
    name[len("check_"):]: fn for name, fn in globals().items() if name.startswith("check_") and callable(fn)
    and name not in ("check_calls", "check_elo_rate")}


# --------------------------------------------------------------------------- a few through the real program


@pytest.mark.parametrize("args, words", [
    (["rate", "-f", "fqe", "-p", "/dev/zero", "-g", "/dev/zero"], "/dev/zero: is not a regular file"),
    (["convert", "nan", "--from", "ingo"], "'nan' is not a number"),
])
def test_the_installed_command_prints_no_traceback(args: list[str], words: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "xl_elo.frontends.cli", *args], capture_output=True, text=True,
                          timeout=60,
                          check=False)
    assert proc.returncode in (1, 2) and words in proc.stderr and "Traceback" not in proc.stderr


def test_an_unreadable_workbook_is_named_as_unreadable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As root nothing is unreadable: the open is made to fail as it does for a user without the right."""
    path = _fqe_workbook(tmp_path / "filled.xlsx")
    real_open = open

    def denied(file: Any, *args: Any, **kwargs: Any) -> Any:
        if str(file) == str(path):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", denied)
    code, _, err = run_cli(["rate", str(path)])
    assert code == 1 and err == "xl-elo: filled.xlsx: cannot be read (Permission denied)\n"


def test_a_failed_write_names_the_output_not_its_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from xl_elo.formats import files

    def full(*args: Any, **kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(files.OutputError, match=r"^cannot write .*results\.csv: No space left on device$"):
        files.write_atomic(tmp_path / "results.csv", "id\n")
    assert list(tmp_path.iterdir()) == []


def test_a_failed_workbook_save_names_the_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import openpyxl

    def full(self: Any, filename: Any) -> None:
        raise OSError(28, "No space left on device", str(filename))

    path = _fqe_workbook(tmp_path / "filled.xlsx")
    monkeypatch.setattr(openpyxl.Workbook, "save", full)
    code, _, err = run_cli(["rate", str(path), "-o", str(tmp_path / "rated.xlsx")])
    assert code == 1 and err.endswith(f"xl-elo: {tmp_path / 'rated.xlsx'}: No space left on device\n"), err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["filled.xlsx"]


def test_the_fast_reader_plans_its_memory_before_taking_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the planned memory the numpy tokenizer steps aside: the cell-by-cell one gives the same results."""
    from xl_elo.formats import fastcsv

    players = "id,name,rating,games\n" + "".join(f"p{i},{'N' * 900},{1500 + i},30\n" for i in range(300))
    games = "round,player,opponent,result\n" + "".join(f"1,p{2 * i},p{2 * i + 1},1\n" for i in range(150))
    (tmp_path / "players.csv").write_text(players, encoding="utf-8")
    (tmp_path / "games.csv").write_text(games, encoding="utf-8")
    args = ["rate", "-f", "fqe", "-p", str(tmp_path / "players.csv"), "-g", str(tmp_path / "games.csv")]
    fast = run_cli(args)
    fastcsv.read_columns(tmp_path / "players.csv")  # within the default plan
    monkeypatch.setenv("XL_ELO_MAX_READER_BYTES", "200000")
    with pytest.raises(fastcsv.Irregular, match="would plan"):
        fastcsv.read_columns(tmp_path / "players.csv")
    assert run_cli(args) == fast and fast[0] == 0


HOSTILE_CELLS = [None, "", " ", 0, 0.0, -0.0, 1.0, 0.5, 1500.0, 2000, 1e308, -1e308, float("inf"), float("nan"),
                 9.99e307, 2**63, 10**400, "1e400", "1e99999999999999999999", "inf", "nan", "#N/A", True,
                 "fide", "fqe", "fesa", "ffe", "ingo", "B", "3 kyu",
                 "x" * 5000, "\x1b[2J", [[]], [], [[None]], [[1500.0, None], [1600.0]], [[1500.0], [1600.0]],
                 [["1", "0.5"]], [[1.0], [0.5]], [[[1]]], {"a": 1}, b"bytes", "2026-10",
                 [["id", "rating"], ["a", 1500.0], ["b", None]], [["player", "opponent", "result"], ["a", "b", 1.0]]]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(functions.FUNCTIONS), st.lists(st.sampled_from(HOSTILE_CELLS), min_size=1, max_size=8))
def test_every_function_answers_or_names_the_argument(fn: Any, args: list[Any]) -> None:
    """Whatever a spreadsheet (or a Python caller) passes: a value, or an ArgumentError; nothing else."""
    args = args[: len(fn.args)]
    if len(args) < sum(not a.optional for a in fn.args):
        return
    with contextlib.suppress(functions.ArgumentError):
        fn.function(*args)


# --------------------------------------------------------------------------- mutated CSV bytes


PLAYERS = b"id,name,rating,games,birth_year\np1,Anna,1850,40,1990\np2,Bob,1700,12,2010\np3,Cid,,0,1985\n"
GAMES = b"round,player,opponent,result,rated\n1,p1,p2,1,yes\n1,p3,p1,0.5,\n2,p2,p3,0,no\n"
PIECES = [b"\r", b"\r\n", b"\n", b'"', b'""', b"\x00", b"\xff", b"\xef\xbb\xbf", b"1e400", b"9" * 30, b"-0",
          b"\t", b" ", b"\xc2\xa0", b"#N/A", b",", b";", b"\x1b[2J", "\u200b".encode(), "é".encode(), b"+",
          b"1.850", b"2e-400", b"nan", b"inf", b"\\", b"=1+1", b"p1", b"18446744073709551616", b"e99999999999999999999"]


@st.composite
def mutated(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` with a few pieces inserted, bytes deleted, or its line ends changed."""
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["insert", "insert", "delete", "ends", "duplicate"]))
        at = draw(st.integers(0, len(data)))
        if kind == "insert":
            data = data[:at] + draw(st.sampled_from(PIECES)) + data[at:]
        elif kind == "delete":
            data = data[:at] + data[at + draw(st.integers(1, 6)):]
        elif kind == "ends":
            data = data.replace(b"\n", draw(st.sampled_from([b"\r", b"\r\n", b"\n\n", b"\r\r\n"])))
        else:
            lines = data.split(b"\n")
            k = draw(st.integers(0, len(lines) - 1))
            data = b"\n".join(lines[: k + 1] + lines[k:])
    return data


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(players=mutated(PLAYERS), games=mutated(GAMES), federation=st.sampled_from(["fide", "fqe", "ffe", "fesa"]))
# found once: two rows run together (cells beyond the header) in a file numpy cannot split (CR line ends)
@example(players=b"id,name,rating,games,birth_year\rp1,Anna,1850,40,1990\rp2,Bob,1700,12,2010\rp3,Cid,,0,1985\r",
         games=b"round,player,opponent,result,rated\n1,p1,p2,1,1,p3,p1,0.5,\n2,p2,p3,0,no\n", federation="fide")
def test_mutated_csv_bytes_never_give_a_traceback(players: bytes, games: bytes, federation: str,
                                                  tmp_path_factory: pytest.TempPathFactory) -> None:
    from xl_elo.formats import csvfiles
    from xl_elo.formats.writers import results_csv
    from xl_elo.loader import load
    from xl_elo.model import InputError

    d = tmp_path_factory.mktemp("fuzz")
    p, g = d / "players.csv", d / "games.csv"
    p.write_bytes(players)
    g.write_bytes(games)
    args = ["rate", "-f", federation, "-p", str(p), "-g", str(g), "--period", "2026-10"]
    code, out, err = run_cli([*args, "--format", "csv"])
    assert code in (0, 1) and "Traceback" not in err and "internal error" not in err, err
    refused = [line for line in err.splitlines()
               if line.startswith("xl-elo:") and not line.startswith("xl-elo: warning")]
    assert (code == 0) == (not refused), err
    assert p.read_bytes() == players and g.read_bytes() == games
    # the cell-by-cell tokenizer reads what the command line read, whichever tokenizer it took
    try:
        tables = [csvfiles.careful_table(f) for f in (p, g)]
        careful = load(federation, players=tables[0], games=tables[1], period="2026-10").rate()
    except InputError:
        careful = None
    assert (careful is not None) == (code == 0)
    if careful is not None:
        assert results_csv(careful).decode("utf-8") == out


# --------------------------------------------------------------------------- issue #29: what a case file cannot say


def test_numpy_numbers_are_numbers_to_the_functions() -> None:
    """An integer numpy range (xlwings passes one for a range of whole numbers) was refused as
    "np.int64(1500) is not a number" while a float range passed (#29)."""
    import numpy as np

    fn = functions.by_name()
    assert fn["ELO_EXPECTED"].function(np.int64(1500), np.int64(1600)) == fn["ELO_EXPECTED"].function(1500.0, 1600.0)
    assert fn["ELO_EXPECTED"].function(np.array([[1500, 1600]]), 1500) == [[0.5, fn["ELO_EXPECTED"].function(1600.0,
                                                                                                              1500.0)]]
    assert fn["ELO_K"].function(np.str_("fide"), np.int64(1500), np.int64(10), np.int64(14)) == 40  # rules 2.3
    assert fn["FFE_DP"].function(np.array([[5e-324, 0.5]])) == [[-470, 0]]  # rules 5.4: bounded to +-470


def test_calc_refuses_more_games_than_rate() -> None:
    """calc took 1,001 games where rate and the functions refuse more than 1,000 (#29)."""
    games = ", ".join(["1500 1"] * 1001)
    code, _, err = run_cli(["calc", "fqe", "--rating", "1500", "--rated-games", "30", "--games", games])
    assert code == 1
    assert_printed(err, "--games: 1,001 games (at most 1,000 in one event or period): is a list pasted twice?")
    code, out, _ = run_cli(["calc", "fqe", "--rating", "1500", "--rated-games", "30", "--games",
                            ", ".join(["1500 1"] * 1000)])
    assert code == 0 and "new rating:" in out


def test_rules_of_a_system_by_its_name() -> None:
    """A system named where a section is asked prints its chapter (and an unknown one is a usage error)."""
    code, out, _ = run_cli(["rules", "SSB"])
    assert code == 0 and out.startswith("## 3. FSE")


def test_a_results_table_read_back_is_read_without_a_word(tmp_path: Path) -> None:
    """Rating list in, rating list out: a results table given as the next players table has xl-elo's own
    columns (status, k, rating_after ...); its rating_after is the rating, the others are not read, and
    nothing is said. In any other table those headings are named."""
    players, games, _ = value_tables("games", "50")
    write_csv(tmp_path / "players.csv", players)
    write_csv(tmp_path / "games.csv", games)
    base = ["rate", "-f", "fide", "-g", str(tmp_path / "games.csv"), "--period", "2026-10"]
    code, _, err = run_cli([*base, "-p", str(tmp_path / "players.csv"), "-o", str(tmp_path / "after.csv")])
    assert (code, err) == (0, "")
    code, _, err = run_cli([*base, "-p", str(tmp_path / "after.csv"), "--format", "csv"])
    assert (code, err) == (0, "")
    head = ["id", "name", "rating", "games", "birth_year", "k"]
    write_csv(tmp_path / "k.csv", [head, *[row[:5] + ["40"] for row in players[1:]]])
    code, _, err = run_cli([*base, "-p", str(tmp_path / "k.csv")])
    assert code == 0
    assert_printed(err, "warning: k.csv: the heading 'k' (column 6) is not a column of FIDE's players table and is "
                        "not read (the nearest is 'id')")


def test_a_workbook_heading_near_miss_is_read_and_said(tmp_path: Path) -> None:
    """A players sheet headed 'birthyear': read as birth_year, as in a CSV file (the workbook's input cells are
    the columns the reader reads); the 14-year-old gets K 40 (rules 2.3), +14 against a player 100 below."""
    book = _fqe_workbook(tmp_path / "filled.xlsx",
                         [["id", "name", "rating", "games", "birthyear"], ["a", "Anna", 2000, 50, 2012],
                          ["b", "Bob", 1900, 50, 1980]], [["round", "player", "opponent", "result"], [1, "a", "b", 1]],
                         federation="fide")
    code, out, err = run_cli(["rate", str(book), "--format", "csv"])
    assert code == 0
    assert_printed(err, "warning: filled.xlsx, sheet players: the heading 'birthyear' (column 5) is read as the "
                        "column 'birth_year'")
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO(out))}
    assert (rows["a"]["k"], rows["a"]["change"]) == ("40", "14")


def test_many_unknown_ids_are_counted_not_each_made_a_message(tmp_path: Path) -> None:
    """20,000 games of players in no table: the first 200 problems kept, the others counted (each cell was
    once read by taking its whole column's starts: quadratic, 12 minutes for a million)."""
    write_csv(tmp_path / "players.csv", [["id", "name", "rating", "games"], ["p0", "N", "1500", "30"]])
    write_csv(tmp_path / "games.csv", [["round", "player", "opponent", "result"]]
              + [["1", f"q{i}", "p0", "1"] for i in range(20_000)])
    code, _, err = run_cli(["rate", "-f", "fqe", "-p", str(tmp_path / "players.csv"), "-g",
                            str(tmp_path / "games.csv")])
    assert code == 1
    assert_printed(err, ["20,001 problems in the input; the first 50:",
                         "games.csv, row 2, column 'player': unknown player id 'q0' (not in players.csv)",
                         "... and 19,951 more problems"])  # and p0 has 20,000 games

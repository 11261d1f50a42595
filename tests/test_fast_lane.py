"""The columnar fast lane of ``xl-elo rate`` against the cell-by-cell reader and writer.

The fast lane must either produce byte for byte the file the cell-by-cell lane writes, or
step aside (NotSimple) so that lane reads the files and reports what is wrong. It must
never accept a file the cell-by-cell reader rejects.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import numpy as np
import pytest
from gen import random_event
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xl_elo import rate
from xl_elo.formats import columnar
from xl_elo.formats.csvfiles import format_cell, read_event, results_csv
from xl_elo.frontends.cli import main
from xl_elo.model import InputError

SPELLINGS = {1.0: ["1", "1-0", "1.0", "W"], 0.5: ["0.5", "½", "=", "0,5", "1/2"], 0.0: ["0", "0-1", "L"]}


def write_event(ev, folder: Path, seed: int = 0, delimiter: str = ",", crlf: bool = False, bom: bool = False):
    """Players and games CSV of an event, results in assorted spellings (SPEC 1.1)."""
    rng = np.random.default_rng(seed)
    terminator = "\r\n" if crlf else "\n"
    players, games = folder / "players.csv", folder / "games.csv"
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator=terminator)
    w.writerow(["id", "name", "rating", "games", "birth_year", "ever_2400", "category", "archive_perf",
                "archive_games"])
    for p in ev.players:
        w.writerow([p.id, p.name, "" if p.rating is None else int(p.rating), p.games,
                    p.birth_year or "",
                    ["no", "yes"][p.ever_2400] if rng.random() < 0.7 else ("Yes" if p.ever_2400 else ""),
                    p.category or "", "" if p.archive_perf is None else p.archive_perf, p.archive_games or ""])
    players.write_text(("\ufeff" if bom else "") + buf.getvalue(), encoding="utf-8")
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator=terminator)
    w.writerow(["round", "player", "opponent", "result"])
    for g in ev.games:
        s = g.result.score
        if not g.result.rated or s is None:
            text = g.result.text if hasattr(g.result, "text") else "+"
            text = "+" if g.opponent else ""
        else:
            choices = [c for c in SPELLINGS[s] if not (delimiter == "," and "," in c)]
            text = choices[int(rng.integers(len(choices)))]
        w.writerow([g.round or "", g.player, g.opponent or "", text])
    games.write_text(buf.getvalue(), encoding="utf-8")
    return players, games


def slow_csv(players, games, period="2026-10", federation="fide", **options) -> bytes:
    return results_csv(rate(federation, read_event(players, games, period=period), **options)).encode()


@pytest.mark.parametrize("federation", ["fide", "fse", "ffe"])
@pytest.mark.parametrize("seed,players,rounds,unrated", [(1, 40, 7, 0.15), (2, 300, 9, 0.05), (3, 1201, 11, 0.3)])
def test_fast_lane_writes_the_same_bytes(tmp_path, federation, seed, players, rounds, unrated):
    ev = random_event(seed, players, rounds, unrated=unrated, federation=federation)
    p, g = write_event(ev, tmp_path, seed)
    fast = columnar.results_csv(columnar.rate_files(federation, p, g, "2026-10"))
    assert fast == slow_csv(p, g, federation=federation)
    assert fast.count(b"\n") == players + 1


def test_fast_lane_ffe_table_method_and_warnings(tmp_path, capsys):
    ev = random_event(9, 400, 9, unrated=0.4, federation="ffe")
    p, g = write_event(ev, tmp_path, 9)
    out = tmp_path / "out.csv"
    assert main(["rate", "-f", "ffe", "-p", str(p), "-g", str(g), "-o", str(out), "--dp", "table"]) == 0, \
        capsys.readouterr().err
    fast_err = capsys.readouterr().err
    assert out.read_bytes() == slow_csv(p, g, federation="ffe", dp_method="table")
    slow = rate("ffe", read_event(p, g), dp_method="table")
    assert fast_err == "".join(f"xl-elo: warning: {w}\n" for w in slow.warnings)
    assert b"archived for the next period" in out.read_bytes()


@pytest.mark.parametrize("layout", [{"delimiter": ";"}, {"delimiter": "\t"}, {"crlf": True}, {"bom": True}])
def test_fast_lane_reads_excel_layouts(tmp_path, layout):
    """Semicolons (a French Excel), tabs, CRLF line ends and a byte-order mark."""
    ev = random_event(4, 60, 7, federation="fide")
    p, g = write_event(ev, tmp_path, 4, **layout)
    fast = columnar.results_csv(columnar.rate_files("fide", p, g, "2026-10"))
    assert fast == slow_csv(p, g)


def test_fast_lane_logistic_and_the_cli(tmp_path):
    ev = random_event(5, 120, 9, federation="fide")
    p, g = write_event(ev, tmp_path, 5)
    out = tmp_path / "out.csv"
    assert main(["rate", "-f", "fide", "-p", str(p), "-g", str(g), "--period", "2026-10", "-o", str(out),
                 "--expected", "logistic"]) == 0
    assert out.read_bytes() == slow_csv(p, g, expected_method="logistic")


def test_fast_lane_steps_aside_for_every_unusual_file(tmp_path):
    ev = random_event(6, 30, 5, federation="fide")
    p, g = write_event(ev, tmp_path, 6)
    text = p.read_text(encoding="utf-8").splitlines()
    cases = {
        "quoted": text[:2] + ['"' + text[2].replace(",", '",', 1)] + text[3:],
        "space": text[:2] + [text[2].replace(",", ", ", 1)] + text[3:],
        "decimals": text[:2] + [text[2].split(",")[0] + ",x,1850.5" + "," * 6] + text[3:],
        "duplicate": text + [text[1]],
        "formula": text[:2] + ["=cmd" + text[2]] + text[3:],
        "ragged": text + ["p999,x"],
    }
    for name, lines in cases.items():
        q = tmp_path / f"{name}.csv"
        q.write_text("\n".join(lines) + "\n", encoding="utf-8")
        with pytest.raises(columnar.NotSimple):
            columnar.rate_files("fide", q, g, "2026-10")


def test_the_cli_reports_bad_files_the_fast_lane_leaves(tmp_path, capsys):
    ev = random_event(7, 30, 5, federation="fide")
    p, g = write_event(ev, tmp_path, 7)
    g.write_text(g.read_text(encoding="utf-8") + "9,p000,nobody,1\n", encoding="utf-8")
    assert main(["rate", "-f", "fide", "-p", str(p), "-g", str(g)]) == 1
    assert "unknown player id 'nobody'" in capsys.readouterr().err


CELLS = st.sampled_from(["", " ", "1", "0", "0.5", "½", "x", "1850", "1850.5", "-3", "yes", "no", "p001", "p002",
                         "junior", "+", "=", "1-0", "2026", "3600", "Ö", "a;b", "\u00a0 1"])


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fast_lane_never_accepts_what_the_reader_rejects(tmp_path, data):
    """Random cells in a small period: same bytes as the slow lane, or it steps aside."""
    federation = data.draw(st.sampled_from(["fide", "fse", "ffe"]))
    ev = random_event(8, 8, 3, unrated=0.4, federation=federation)
    p, g = write_event(ev, tmp_path, 8)
    target = data.draw(st.sampled_from([p, g]))
    lines = target.read_text(encoding="utf-8").splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        r = data.draw(st.integers(1, len(lines) - 1))
        cells = lines[r].split(",")
        c = data.draw(st.integers(0, len(cells) - 1))
        cells[c] = data.draw(CELLS)
        lines[r] = ",".join(cells)
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    try:
        slow = slow_csv(p, g, federation=federation)
    except InputError:
        slow = None
    try:
        fast = columnar.results_csv(columnar.rate_files(federation, p, g, "2026-10"))
    except columnar.NotSimple:
        return
    assert fast == slow


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="abcxyz019_-Ké", min_size=1, max_size=20).filter(lambda t: t == t.strip()),
                min_size=1, max_size=60, unique=True),
       st.lists(st.text(alphabet="abcxyz019_-Ké", min_size=1, max_size=24), max_size=30))
def test_id_index_finds_every_id(ids, others):
    index = columnar.IdIndex(np.array([i.encode() for i in ids]))
    queries = ids + others
    got = index.find(np.array([q.encode() for q in queries]))
    expected = [ids.index(q) if q in ids else -1 for q in queries]
    assert got.tolist() == expected


def test_id_index_refuses_duplicates():
    with pytest.raises(columnar.NotSimple):
        columnar.IdIndex(np.array([b"a1", b"b2", b"a1"]))


@given(st.lists(st.one_of(st.floats(-1e7, 1e7), st.integers(-10**7, 10**7).map(float),
                          st.integers(-10**9, 10**9).map(lambda i: i / 1e6),
                          st.integers(-10**7, 10**7).map(lambda i: i / 8),
                          st.just(math.nan)), max_size=50))
def test_number_cells_are_format_cell(values):
    got = [t.decode() for t in columnar.cell_text(columnar.number_cells(np.array(values, dtype=float)))]
    assert got == [format_cell(None if math.isnan(v) else v) for v in values]


@given(st.lists(st.one_of(st.integers(-10**9, 10**9).map(float), st.just(math.nan)), max_size=50))
def test_whole_cells_are_str_int(values):
    got = [t.decode() for t in columnar.cell_text(columnar.whole_cells(np.array(values, dtype=float)))]
    assert got == ["" if math.isnan(v) else str(int(v)) for v in values]


@given(st.binary(min_size=1, max_size=200).filter(lambda b: b"\x00" not in b), st.data())
def test_cells_read_eight_bytes_at_a_time_are_the_cells(text, data):
    raw = text + bytes(8)  # the reader leaves 8 zero bytes after the text
    buf = np.frombuffer(raw, np.uint8)
    starts = np.array(data.draw(st.lists(st.integers(0, len(text)), min_size=1, max_size=20)))
    ends = np.array([data.draw(st.integers(int(s), len(text))) for s in starts])
    got = columnar._spans(buf, starts, ends)
    assert [bytes(g) for g in got] == [text[s:e].rstrip(b"\x00") for s, e in zip(starts, ends, strict=True)]

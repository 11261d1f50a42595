"""The template workbooks in LibreOffice: each filled to its room, the time a treasurer waits.

    python bench/templates_lo.py                # every template, written into bench/results.json
    python bench/templates_lo.py fide ffe       # some of them
    python bench/templates_lo.py --repeat 3     # the median of three runs of each edit
    python bench/templates_lo.py --markdown before.json after.json   # the README's table

Each shipped template (``xl-elo workbooks``' build, in each room it is shipped in) is filled with
a reproducible event that uses the whole room (every player row, every game row: 2 to 20 rounds
of random pairings, a tenth of the players unrated, draws, a forfeit or two), then opened in
LibreOffice, headless, through UNO (``soffice --accept``, its own profile that never
recalculates on loading, so the load and the calculation are timed apart). First, what a user waits for: the
filled template opened, recalculated and saved by a LibreOffice started for it (``soffice --convert-to xlsx``,
recalculating on loading), against the same for a tiny workbook (LibreOffice's floor; the target is 3 times it).
Then, through UNO:

- ``open``: loading the file;
- ``full``: ``calculateAll()``, every formula (what Data > Calculate > Recalculate Hard does);
- ``result``: one game's result typed over (``1`` -> ``0``), then ``calculate()``, which
  computes every cell the edit made dirty (what AutoCalculate does after a typed cell);
- ``rating``: one player's rating typed over (+10), then ``calculate()``;
- ``save``: File > Save as xlsx (LibreOffice writes every formula's text: a template's save costs with its formulas).

Beside them the formula count of the template (shared formulas counted per cell) and whether
it holds a volatile function (TODAY, NOW, OFFSET, INDIRECT, RAND ...: recalculated on every
edit). ``bench/run.py`` runs it too (``--no-templates`` skips it). UNO needs LibreOffice's Python
bridge (Debian: python3-uno, for the system's ``/usr/bin/python3``): the timing runs in a Python
that has it, this one if it can import ``uno``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

#: Functions recomputed on every edit in Excel or LibreOffice (none may appear in a template).
VOLATILE = ("TODAY(", "NOW(", "OFFSET(", "INDIRECT(", "RAND(", "RANDBETWEEN(", "CELL(", "INFO(")
#: The targets of issue #27 on a 2-core machine (seconds).
TARGET_EDIT = 0.5
TARGET_FULL = 5.0


# --------------------------------------------------------------------------- the filled templates


#: Plausible values of the facts a rated player may not leave blank and that have no value of their own for one
#: player (``Fact.one_player``): the DWZ index, a Glicko-2 player's RD and volatility.
PLAUSIBLE: dict[str, Any] = {
    "index": lambda rng: int(rng.choice([1, 3, 6, 12, 40])),
    "rd": lambda rng: round(float(rng.uniform(40, 300)), 1),
    "volatility": lambda rng: float(rng.choice([0.06, 0.05, 0.09])),
}


def filled_event(code: str, players: int, games: int, seed: int = 27, periods: int = 1) -> Any:
    """A reproducible event that fills a template's room: ``players`` players, ``games`` games in
    rounds of random pairings; a tenth unrated, draws, a forfeit or two. Each system's facts get
    a plausible value (games before, a year of birth) or their default, from their declarations;
    a system that rates several periods in order gets its rounds spread over ``periods`` months."""
    import numpy as np

    from xl_elo.core import parse_result
    from xl_elo.federations import get
    from xl_elo.model import Event, Game, facts
    from xl_elo.templates import SEASON, system_code

    rng = np.random.default_rng(seed)
    module = get(system_code(code))
    monthly = bool(module.PERIODS) or code.endswith(SEASON)  # a ladder's periods, a season template's months
    player_type = module.Player
    strength = rng.normal(1700, 300, players).clip(1000, 2700)
    people = []
    for i in range(players):
        rated = i % 10 != 3
        fields: dict[str, Any] = {"id": f"p{i:03d}", "name": f"Player {i}",
                                  "rating": float(int(strength[i]) // 10 * 10) if rated else None}
        for f in facts(player_type):
            if f.name == "games":
                fields["games"] = int(rng.choice([10, 30, 80, 400])) if rated else 0
            elif f.name == "birth_year":
                fields["birth_year"] = int(rng.choice([1960, 1985, 2000, 2010]))
            elif rated and f.rated_needs is not None:
                fields[f.name] = f.one_player if f.one_player is not None else \
                    PLAUSIBLE[f.name](rng) if f.name in PLAUSIBLE else f.default
        people.append(player_type(**fields))
    per_round = players // 2
    rounds = max(1, games // per_round)
    played = []
    for rnd in range(1, rounds + 1):
        order = rng.permutation(players)
        for a, b in zip(order[0::2], order[1::2], strict=False):
            if len(played) >= games:
                break
            d = strength[a] - strength[b]
            u = rng.random()
            p = 1 / (1 + 10 ** (-d / 400))
            score: Any = 1.0 if u < p - 0.1 else 0.5 if u < p + 0.1 else 0.0
            if len(played) in (7, 1001):
                score = "+"
            month = (rnd - 1) * periods // rounds + 1 if monthly else None
            played.append(Game(people[a].id, people[b].id, parse_result(score), rnd,
                               **({"period": f"2026-{month:02d}"} if month else {})))
    return Event(tuple(people), tuple(played), (), "2026-01" if monthly else "2026-10", f"bench {code}")


def formula_count(path: Path) -> tuple[int, list[str]]:
    """Formula cells of a workbook (a shared formula's every cell) and the volatile functions it uses."""
    count = 0
    volatile: set[str] = set()
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if name.startswith("xl/worksheets/sheet") or name == "xl/workbook.xml":
                text = z.read(name).decode("utf-8")
                if name != "xl/workbook.xml":
                    count += text.count("<f")
                upper = text.upper()
                volatile.update(v[:-1] for v in VOLATILE if re.search(r"[^A-Z_.]" + re.escape(v), upper))
    return count, sorted(volatile)


def first_cells(path: Path, names: tuple[str, ...]) -> dict[str, str]:
    """The first cell of each named range (``games!D2``)."""
    import openpyxl

    wb = openpyxl.load_workbook(path, read_only=True)
    try:
        out = {}
        for name in names:
            sheet, ref = next(iter(wb.defined_names[name].destinations))
            out[name] = f"{sheet}!{ref.replace('$', '').split(':')[0]}"
        return out
    finally:
        wb.close()


def prepare(codes: list[str], folder: Path) -> list[dict[str, Any]]:
    """Build each template in each room it is shipped in (workbooks/: ``fide``, ``fide_120`` ...) and fill it to
    that room; what the timing run needs to know of each."""
    from xl_elo.formats.workbook import fill_template
    from xl_elo.templates import build_template, file_name, shipped_rooms

    jobs = []
    for code in codes:
        for k, cap in enumerate(shipped_rooms(code)):
            stem = file_name(code).removesuffix(".xlsx") if "-" in code else code  # fide-season: fide_season
            name = stem if k == 0 else f"{stem}_{cap.players}"
            template = build_template(code, folder / "templates" / name, cap)
            ev = filled_event(code, cap.players, cap.games, periods=cap.periods)
            filled = fill_template(template, ev, folder / f"{name}_filled.xlsx")
            names = first_cells(template, ("game_result", "player_rating"))
            count, volatile = formula_count(template)
            jobs.append({"code": name, "name": name, "path": str(filled.resolve()), "players": len(ev.players),
                         "games": len(ev.games), "formulas": count, "volatile": volatile,
                         "result_cell": names["game_result"], "rating_cell": names["player_rating"]})
    return jobs


# --------------------------------------------------------------------------- the UNO side


def _cpu_seconds(root: int) -> float:
    """CPU time (user + system) of a process and its descendants so far (Linux; 0 elsewhere)."""
    try:
        ticks = os.sysconf("SC_CLK_TCK")
        stats = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    text = Path(f"/proc/{entry}/stat").read_text()
                except OSError:
                    continue
                fields = text[text.rindex(")") + 2:].split()
                stats[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / ticks)
    except (OSError, ValueError, AttributeError):
        return 0.0
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += stats.get(pid, (0, 0.0))[1]
        todo += [child for child, (parent, _) in stats.items() if parent == pid]
    return total


def _time_one(uno: Any, desktop: Any, job: dict[str, Any], repeat: int, pid: int) -> dict[str, Any]:
    """Open one filled template, time its full recalculation and each edit (wall and CPU seconds)."""
    import time

    from com.sun.star.beans import PropertyValue  # type: ignore[import-not-found]

    hidden = PropertyValue()
    hidden.Name, hidden.Value = "Hidden", True
    times: dict[str, float] = {}

    def clock(key: str, action: Any) -> Any:
        wall, cpu = time.perf_counter(), _cpu_seconds(pid)
        done = action()
        times[key] = time.perf_counter() - wall
        times[key + "_cpu"] = _cpu_seconds(pid) - cpu
        return done

    url = uno.systemPathToFileUrl(job["path"])
    doc = clock("open", lambda: desktop.loadComponentFromURL(url, "_blank", 0, (hidden,)))
    clock("full", doc.calculateAll)
    results = doc.Sheets.getByName("results")
    banner = results.getCellRangeByName("A1").getString()
    shown = sum(1 for r in range(4, 4 + job["players"]) if results.getCellByPosition(0, r - 1).getString() != "")
    clock("idle", doc.calculate)  # nothing typed: only volatile cells recalculate

    for key, ref in job.get("edits", [["result", job["result_cell"]], ["rating", job["rating_cell"]]]):
        sheet, coord = ref.split("!")
        target = doc.Sheets.getByName(sheet).getCellRangeByName(coord.replace("$", ""))
        before = target.getValue()
        after = (0.0 if before != 0 else 1.0) if key == "result" else before + 10
        walls, cpus = [], []
        for k in range(repeat):
            value = (after, before)[k % 2]
            target.setValue(value)
            clock(key, doc.calculate)  # what AutoCalculate does after the typed cell
            walls.append(times[key])
            cpus.append(times[key + "_cpu"])
        times[key], times[key + "_cpu"] = statistics.median(walls), statistics.median(cpus)
    saved = PropertyValue()
    saved.Name, saved.Value = "FilterName", "Calc MS Excel 2007 XML"
    target = str(Path(job["path"]).with_name(Path(job["path"]).stem + "_saved.xlsx"))
    clock("save", lambda: doc.storeToURL(uno.systemPathToFileUrl(target), (saved,)))  # File > Save, as xlsx
    doc.close(True)
    row = {**job, "banner": banner, "shown": shown, **times}
    print(json.dumps(row), file=sys.stderr, flush=True)
    return row


def _uno_worker(jobs: list[dict[str, Any]], repeat: int) -> list[dict[str, Any]]:
    """Time each job in one LibreOffice (runs in a Python that imports ``uno``)."""
    import time

    import uno  # type: ignore[import-not-found]
    from com.sun.star.connection import NoConnectException  # type: ignore[import-not-found]

    exe = shutil.which("soffice") or shutil.which("libreoffice")
    if exe is None:
        raise SystemExit("LibreOffice (soffice) is not installed")
    with tempfile.TemporaryDirectory(prefix="xl-elo-bench-lo-") as tmp:
        profile = Path(tmp) / "profile"
        (profile / "user").mkdir(parents=True)
        settings = NEVER_RECALC
        if os.environ.get("XL_ELO_BENCH_NO_THREADS") == "1":  # LibreOffice's threaded group calculation off
            settings = settings.replace("</oor:items>", NO_THREADS + "</oor:items>")
        (profile / "user" / "registrymodifications.xcu").write_text(settings, encoding="utf-8")
        pipe = f"xl_elo_bench_{os.getpid()}"
        proc = subprocess.Popen([exe, "--headless", "--invisible", "--norestore", "--nologo", "--nolockcheck",
                                 f"-env:UserInstallation={profile.as_uri()}",
                                 f"--accept=pipe,name={pipe};urp;StarOffice.ComponentContext"],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            local = uno.getComponentContext()
            resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
            ctx = None
            for _ in range(600):
                try:
                    ctx = resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
                    break
                except NoConnectException:
                    time.sleep(0.1)
            if ctx is None:
                raise SystemExit("LibreOffice did not answer on its pipe")
            desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
            try:
                return [_time_one(uno, desktop, job, repeat, proc.pid) for job in jobs]
            finally:
                desktop.terminate()  # LibreOffice's own process ends with it
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()


NEVER_RECALC = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" \
xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load">\
<prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>1</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load">\
<prop oor:name="ODFRecalcMode" oor:op="fuse"><value>1</value></prop></item>
</oor:items>
"""

NO_THREADS = ('<item oor:path="/org.openoffice.Office.Calc/Formula/Calculation"><prop '
              'oor:name="UseThreadedCalculationForFormulaGroups" oor:op="fuse"><value>false</value></prop></item>\n')

_DIST = "/usr/lib/python3/dist-packages"


def uno_python() -> str | None:
    """A Python that imports LibreOffice's ``uno`` (this one, or the system's)."""
    probe = f"import sys; sys.path.append({_DIST!r}); import uno"
    for exe in (sys.executable, "/usr/bin/python3", shutil.which("python3") or ""):
        if exe and subprocess.run([exe, "-c", probe], capture_output=True).returncode == 0:
            return exe
    return None


def time_in_libreoffice(jobs: list[dict[str, Any]], repeat: int) -> list[dict[str, Any]]:
    exe = uno_python()
    if exe is None:
        raise SystemExit("no Python here imports LibreOffice's uno (Debian: apt install python3-uno)")
    done = subprocess.run([exe, __file__, "--uno-worker", json.dumps(jobs), "--repeat", str(repeat)],
                          stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(done.stdout)


# --------------------------------------------------------------------------- open, recalculate, save


#: What a treasurer waits for may be this many times LibreOffice's floor (issue #35).
TARGET_RATIO = 3.0


def tiny_workbook(path: Path) -> Path:
    """The floor's workbook: one sheet, two numbers and a formula."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["A2"], ws["A3"] = 1, 2, "=A1+A2"
    wb.calculation.fullCalcOnLoad = True
    wb.save(path)
    return path


def convert_seconds(path: Path, repeat: int = 3) -> float:
    """Wall seconds LibreOffice takes to open ``path``, recalculate every formula and save it as xlsx, headless
    (``soffice --convert-to`` with a profile that recalculates on loading, started afresh each time: what a user
    waits for, from double-click to saved); the median of ``repeat`` runs."""
    import time

    from xl_elo.formats.libreoffice import recalculate_many

    times = []
    for k in range(repeat):
        with tempfile.TemporaryDirectory(prefix="xl-elo-bench-convert-") as tmp:
            start = time.perf_counter()
            recalculate_many([path], Path(tmp) / f"out{k}")
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def convert_rows(jobs: list[dict[str, Any]], repeat: int = 3) -> list[dict[str, Any]]:
    """Each filled template's open + recalculate + save against the floor (a tiny workbook's), as rows."""
    rows = []
    floors = []
    with tempfile.TemporaryDirectory(prefix="xl-elo-bench-floor-") as tmp:
        tiny = tiny_workbook(Path(tmp) / "tiny.xlsx")
        for job in jobs:
            # the floor measured next to each template: on a shared machine the load moves during a run
            floor = convert_seconds(tiny, repeat)
            floors.append(floor)
            seconds = convert_seconds(Path(job["path"]), repeat)
            ratio = seconds / floor
            verdict = "within" if ratio <= TARGET_RATIO else "OVER"
            rows.append({"benchmark": f"template {job['name']} in LibreOffice: open, recalculate and save",
                         "size": f"{job['players']} players, {job['games']:,} games", "seconds": round(seconds, 3),
                         "per_second": None, "ratio": round(ratio, 2), "formulas": job["formulas"],
                         "note": f"{ratio:.1f}x the floor beside it ({floor:.2f} s), {verdict} the "
                                 f"{TARGET_RATIO:g}x target"})
            print(f"{job['name']:<24} {job['formulas']:>9,} formulas  {seconds:6.2f} s  {ratio:5.1f}x the floor "
                  f"({floor:.2f} s)  {verdict}", flush=True)
    median = statistics.median(floors) if floors else 0.0
    return [{"benchmark": "LibreOffice's floor: a tiny workbook opened, recalculated and saved", "size": "3 cells",
             "seconds": round(median, 3), "per_second": None,
             "note": "soffice --convert-to xlsx, recalculating; the median of the floors beside each template"},
            *rows]


# --------------------------------------------------------------------------- the table


#: How a template's banner starts when every input is valid.
VALID = "Results valid"


def rows_of(timed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows as bench/run.py records them (one per template and measure)."""
    rows = []
    for t in timed:
        size = f"{t['players']} players, {t['games']:,} games"
        volatile = ", volatile: " + " ".join(t["volatile"]) if t["volatile"] else ", no volatile function"
        base = f"{t['formulas']:,} formulas{volatile}"
        for key, what, target in (("open", "open", None), ("full", "full recalculation", TARGET_FULL),
                                  ("result", "a result typed, recalculated", TARGET_EDIT),
                                  ("rating", "a rating typed, recalculated", TARGET_EDIT)):
            note = base if key == "full" else ""
            if key == "full":  # the full room computed: every player shown, the banner's verdict valid
                shown = t["shown"] == t["players"] and str(t["banner"]).startswith(VALID)
                note += "; every player's row shown, the banner valid" if shown else \
                    "; NOT every player's row shown or the banner not valid"
            if target is not None:
                note = (note + "; " if note else "") + ("within" if t[key] <= target else "OVER") + \
                    f" the {target:g} s target"
            rows.append({"benchmark": f"template {t['code']} in LibreOffice: {what}", "size": size,
                         "seconds": round(t[key], 3), "cpu_seconds": round(t[key + "_cpu"], 3),
                         "per_second": None, "note": note,
                         "formulas": t["formulas"], "volatile": t["volatile"]})
    return rows


def run(codes: list[str] | None = None, repeat: int = 3) -> list[dict[str, Any]]:
    """Every template (or ``codes``) filled and timed; the rows, printed as they come."""
    from xl_elo.templates import template_names

    wanted = codes or [n for n in template_names() if n != "tables"]
    with tempfile.TemporaryDirectory(prefix="xl-elo-bench-templates-") as tmp:
        jobs = prepare(wanted, Path(tmp))
        converted = convert_rows(jobs, repeat)
        timed = time_in_libreoffice(jobs, repeat)
    rows = converted + rows_of(timed)
    print(f"{'template':<8} {'formulas':>9} {'open':>7} {'full':>7} {'result':>7} {'rating':>7}  "
          "(seconds; LibreOffice's CPU seconds in brackets)  volatile")
    for t in timed:
        cells = " ".join(f"{t[k]:>6.2f}s ({t[k + '_cpu']:.2f})" for k in ("open", "full", "result", "rating"))
        print(f"{t['code']:<8} {t['formulas']:>9,} {cells}  {' '.join(t['volatile']) or '-'}", flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("codes", nargs="*", help="templates to time (default: all)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each edit (the median is kept)")
    parser.add_argument("--json", default=str(HERE / "results.json"),
                        help="the results file whose template rows are replaced (bench/run.py's)")
    parser.add_argument("--uno-worker", help=argparse.SUPPRESS)
    parser.add_argument("--markdown", nargs=2, metavar=("BEFORE", "AFTER"),
                        help="print the README's table of two results files, run nothing")
    args = parser.parse_args()
    if args.markdown:
        before, after = (json.loads(Path(p).read_text(encoding="utf-8")) for p in args.markdown)
        print(markdown(before, after))
        return
    if args.uno_worker:
        sys.path.append(_DIST)
        print(json.dumps(_uno_worker(json.loads(args.uno_worker), args.repeat)))
        return
    rows = run(args.codes or None, args.repeat)
    path = Path(args.json)
    doc = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"results": []}
    timed = {r["benchmark"] for r in rows}
    kept = [r for r in doc.get("results", []) if r["benchmark"] not in timed]
    doc["results"] = kept + rows
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    print(f"\nwritten {path}")


def markdown(before: dict[str, Any], after: dict[str, Any]) -> str:
    """The README's table: each template before and after, from two results files."""
    def measures(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for r in doc.get("results", []):
            m = re.match(r"template (\w+) in LibreOffice: (.*)", r["benchmark"])
            if m:
                out.setdefault(m[1], {"formulas": r.get("formulas"), "volatile": r.get("volatile", [])})[m[2]] = r
        return out

    b, a = measures(before), measures(after)
    keys = ("full recalculation", "a result typed, recalculated", "a rating typed, recalculated")
    lines = ["| template | formulas | full recalculation | a result typed | a rating typed | volatile |",
             "| --- | ---: | ---: | ---: | ---: | --- |"]

    def cell(doc: dict[str, Any], key: str) -> str:
        r = doc.get(key)
        return "" if r is None else f"{r['seconds']:.2f} s ({r.get('cpu_seconds', r['seconds']):.2f})"

    for code in a:
        old, new = b.get(code), a[code]
        if old:  # a template the before file has (one added since has no row "before")
            lines.append(f"| {code} before | {old.get('formulas') or 0:,} | " + " | ".join(cell(old, k) for k in keys)
                         + f" | {' '.join(old.get('volatile') or []) or 'none'} |")
        lines.append(f"| {code} now | {new['formulas']:,} | " + " | ".join(cell(new, k) for k in keys)
                     + f" | {' '.join(new['volatile']) or 'none'} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()

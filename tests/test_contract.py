"""The federation contract: every module the same shape, listed once, no import circle, the rules
document complete; a toy sixth federation reaches every front end by being named in the registry."""

from __future__ import annotations

import ast
import inspect
import io
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import fields, is_dataclass
from pathlib import Path

import pytest
from conftest import ROOT

from xl_elo import federations
from xl_elo.federations.contract import SIGNATURES, RatingSystem
from xl_elo.model import COMMON_COLUMNS

MODULES = list(federations.registry().values())


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.CODE)
def test_every_federation_has_the_contract_shape(module):
    assert isinstance(module, RatingSystem)
    for name, args in SIGNATURES.items():
        fn = getattr(module, name)
        if fn is None:
            assert name in ("k_factor", "first_rating"), f"{module.CODE}.{name} is required"
            continue
        params = list(inspect.signature(fn).parameters)
        assert tuple(params[: len(args)]) == args, f"{module.CODE}.{name}{tuple(params)}"
    assert is_dataclass(module.Options) and module.Options.__dataclass_params__.frozen
    assert [c.name for c in module.COLUMNS[: len(COMMON_COLUMNS)]] == [c.name for c in COMMON_COLUMNS]
    assert module.RULES in __import__("xl_elo.rulesdoc", fromlist=["x"]).section_numbers()
    for f in fields(module.Options):
        assert f.metadata.get("help") and f.metadata.get("source"), f"{module.CODE} option {f.name} undocumented"


def test_the_options_defaults_are_pinned():
    """Each federation's defaults, with their source (openskill's test_model_defaults)."""
    got = {m.CODE: {f.name: f.default for f in fields(m.Options)} for m in MODULES}
    assert got == {
        "fide": {"expected_method": "table", "list": "standard"},  # rules 2.2: the table; 2.9: the standard list
        "fse": {},
        "fqe": {"match": "auto"},  # rules 4.8: a match is an event of two players
        "ffe": {"dp_method": "normal", "start": 1500.0},  # rules 5.4, 5.10
        "fesa": {},
        "cfc": {"match": "auto", "preliminary": 0.0},  # rules 11.8; 11.7: the operator's, never guessed
        "glicko2": {"tau": 0.5, "rd_cap": 350.0},  # rules 12.9 (the paper's example), 12.10 (a new player's RD)
        "uscf": {"bonus_threshold": "auto", "dual_rated": "no"},  # rules 10.7: B by the event's date; 10.6
        "dwz": {"probability": "auto", "sonderwertung": "auto"},  # rules 9.9: the rule sets by the tournament's end
    }


def test_the_federation_list_lives_in_one_place():
    """No module but the registry names all five federations in a tuple or list."""
    pattern = re.compile(r"[\(\[]\s*\"fide\",\s*\"fse\",\s*\"fqe\",\s*\"ffe\",\s*\"fesa\"")
    offenders = [p.relative_to(ROOT).as_posix() for p in (ROOT / "xl_elo").rglob("*.py")
                 if pattern.search(p.read_text())]
    assert offenders == []
    assert [f"xl_elo.federations.{c}" for c in ("fide", "fse", "fqe", "ffe", "fesa", "dwz", "uscf", "cfc", "glicko2")
            ] == federations.MODULES


def _imports(path: Path, package: str, top_only: bool = False) -> set[str]:
    """The xl_elo modules a file imports (only its module-level imports with ``top_only``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    nodes = tree.body if top_only else list(ast.walk(tree))
    for node in nodes:
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            if base != "xl_elo":  # ``from xl_elo import core`` imports the core, not the package's __init__
                out.add(base)
            out |= {f"{base}.{a.name}" for a in node.names}
    return {m for m in out if m.startswith("xl_elo")}


def _module_graph(top_only: bool = False) -> dict[str, set[str]]:
    src = ROOT / "xl_elo"
    names = {}
    for p in src.rglob("*.py"):
        rel = p.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = p
    graph = {}
    for name, p in names.items():
        package = name if p.name == "__init__.py" else name.rsplit(".", 1)[0]
        graph[name] = {m for m in _imports(p, package, top_only) if m in names and m != name}
    return graph


def test_no_front_end_decides_by_a_system_code():
    """Outside the systems' own folders, nothing compares a value with a system's code or alias:
    the front ends, readers and templates ask the declarations (a format names its own system)."""
    names = {m.CODE for m in MODULES} | {"swiss", "shogi"}  # the codes, and the aliases that name a game
    names |= {"dwz", "dsb", "uscf", "cfc", "glicko", "glicko2", "rapid", "blitz"}  # and the systems to come
    found = []
    for p in (ROOT / "xl_elo").rglob("*.py"):
        if "federations" in p.relative_to(ROOT).parts:
            continue
        own = {getattr(__import__(f"xl_elo.formats.{p.stem}", fromlist=["x"]), "SYSTEM", None)} \
            if p.parent.name == "formats" else set()
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                for side in [node.left, *node.comparators]:
                    for v in [side] if isinstance(side, ast.Constant) else getattr(side, "elts", []):
                        if isinstance(v, ast.Constant) and isinstance(v.value, str) and v.value.lower() in names \
                                and v.value.lower() not in own:
                            found.append(f"{p.relative_to(ROOT)}:{node.lineno} {v.value!r}")
    assert found == []


def test_no_federation_imports_a_sibling():
    graph = _module_graph()
    codes = set(federations.codes())
    for name, deps in graph.items():
        parts = name.split(".")
        if len(parts) >= 3 and parts[1] == "federations" and parts[2] in codes:
            siblings = {d for d in deps if d.split(".")[1:2] == ["federations"] and len(d.split(".")) > 2
                        and d.split(".")[2] in codes and d.split(".")[2] != parts[2]}
            assert not siblings, f"{name} imports {siblings}"


def test_no_import_circle():
    """The imports of xl_elo form no circle, imports inside functions included: the engine at the
    bottom, the formats above it, the dispatcher (load) above them, the front ends on top."""
    graph = _module_graph()
    # a package importing its own submodule is not a circle; anything else is
    seen, stack, cycles = set(), [], []

    def visit(n: str) -> None:
        if n in stack:
            cycle = stack[stack.index(n):] + [n]
            if not all(c.startswith(cycle[0] + ".") or cycle[0].startswith(c + ".") or c == cycle[0] for c in cycle):
                cycles.append(cycle)
            return
        if n in seen:
            return
        seen.add(n)
        stack.append(n)
        for d in graph.get(n, ()):
            if not d.startswith(n + "."):
                visit(d)
        stack.pop()

    for n in graph:
        visit(n)
    assert cycles == []


#: The layers of xl_elo, bottom up: each imports only from its own layer and the ones below.
LAYERS = [
    ("the core", lambda m: True),
    ("the systems (federations/)", lambda m: m.startswith("xl_elo.federations")),
    ("documents of the rules", lambda m: m in ("xl_elo.published", "xl_elo.rulesdoc")),
    ("formats: readers and writers (formats/, and a system's own files.py)",
     lambda m: m.startswith("xl_elo.formats") or m.endswith(".files")),
    ("the dispatcher (load, season) and the way out (pipeline)",
     lambda m: m in ("xl_elo.loader", "xl_elo.season", "xl_elo.pipeline")),
    ("templates and their specs", lambda m: m.startswith("xl_elo.templates") or m.endswith(".template")),
    ("front ends (frontends/)", lambda m: m.startswith("xl_elo.frontends")),
    ("the Python API", lambda m: m == "xl_elo"),
]


def _layer(module: str) -> int:
    return max(i for i, (_, is_in) in enumerate(LAYERS) if is_in(module))


def test_the_layers_import_downwards():
    """The folders say which way data flows: no module imports from a layer above its own."""
    graph = _module_graph()
    upward = sorted(f"{m} ({LAYERS[_layer(m)][0]}) imports {d} ({LAYERS[_layer(d)][0]})"
                    for m, deps in graph.items() for d in deps if _layer(d) > _layer(m))
    assert upward == []


def test_the_engine_needs_no_file_excel_or_printing():
    """Rules know no xlwings, openpyxl, csv or files (STYLE): a system's engine imports only the core.
    Its template spec (``template.py`` beside it) is data: it imports the engine, the core and the
    spec classes and formula helpers of :mod:`xl_elo.templates`, which import no spreadsheet library."""
    graph = _module_graph()
    core = {"xl_elo.core", "xl_elo.compat", "xl_elo.model", "xl_elo.tables", "xl_elo.tableview", "xl_elo.schema",
            "xl_elo.federations.contract", "xl_elo.words"}
    spec = {"xl_elo.templates.spec", "xl_elo.templates.common"}
    for name, deps in graph.items():
        if name.startswith("xl_elo.federations.") and name != "xl_elo.federations.contract" \
                and not name.endswith(".files"):  # a system's own file format is a reader, in its folder
            allowed = core | spec if name.endswith(".template") else core
            outside = {d for d in deps if not d.startswith("xl_elo.federations")} - allowed
            assert not outside, f"{name} imports {outside}"
            if not name.endswith(".template"):
                assert not {d for d in deps if d.endswith(".template")}, f"{name} imports a template spec"
    for name in spec:
        assert graph[name] <= core | spec, f"{name} imports {graph[name] - core - spec}"
        text = (ROOT / (name.replace(".", "/") + ".py")).read_text(encoding="utf-8")
        assert "openpyxl" not in text and "xlwings" not in text, name


# --------------------------------------------------------------------------- a new system


@pytest.fixture
def toy(monkeypatch):
    """The toy system of tests/toy_rating/ (its folder on the path, its name in the registry)."""
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    monkeypatch.setattr(federations, "MODULES", [*federations.MODULES, "toy_rating"])
    yield federations.get("toy")


def test_a_new_system_reaches_every_front_end(toy, tmp_path, capsys):
    """Its folder and one line in the registry are all it takes: the command line (rate from CSV
    and from its template workbook, calc with its own flag, its rules chapter, the systems' table,
    its published table),
    the Python API, the spreadsheet functions (the common ones and its own, in xlwings and in the
    LibreOffice extension, with their help), the template builder and the demo."""
    from xl_elo import rate
    from xl_elo.formats.workbook import fill_template
    from xl_elo.frontends import functions
    from xl_elo.frontends.addin import build, calls
    from xl_elo.frontends.addin.french import function_help
    from xl_elo.frontends.cli import main, systems_table
    from xl_elo.frontends.demo import run_demo
    from xl_elo.loader import example, read_event
    from xl_elo.templates import build_template

    assert "toy" in federations.codes() and federations.get("sixth") is toy
    assert isinstance(toy, RatingSystem)
    d = Path(__import__(toy.PACKAGE).__file__).parent / "example"
    # rate: CSV files (Ann, level 2, beats Bob in a game of weight 2 and Cid: +24 and +12; Bob loses -20 in that
    # game, draws an unrated Cid: rules 99.1, 99.2)
    assert main(["rate", "-f", "toy", "-p", str(d / "players.csv"), "-g", str(d / "games.csv"), "--format",
                 "json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)["results"]}
    assert (rows["ann"]["rating_after"], rows["bob"]["rating_after"], rows["cid"]["rating_after"]) == \
        (1536, 1580, None)
    assert rows["ann"]["level"] == 2
    assert rate("sixth", read_event("toy", d / "players.csv", d / "games.csv")).by_id()["bob"]["change"] == -20
    heavy = tmp_path / "heavy.csv"  # its game's fact is read and checked as the players' are
    heavy.write_text("player,opponent,result,weight\nann,bob,1,4\n", encoding="utf-8")
    assert main(["rate", "-f", "toy", "-p", str(d / "players.csv"), "-g", str(heavy)]) == 1
    assert "heavy.csv, row 2, column 'weight': '4' is out of range" in capsys.readouterr().err
    main(["rate", "-f", "fide", "-p", str(d / "players.csv"), "-g", str(heavy), "--period", "2026-10"])
    assert "the heading 'weight' (column 4) is not a column of FIDE's games table" in capsys.readouterr().err
    bad = tmp_path / "bad.csv"
    bad.write_text("id,rating,level\nann,1500,11\nbob,1600,0\n", encoding="utf-8")
    assert main(["rate", "-f", "toy", "-p", str(bad), "-g", str(d / "games.csv")]) == 1
    assert "bad.csv, row 2, column 'level': '11' is out of range" in capsys.readouterr().err
    # calc, with the system's own flag; another system's flag refused, and this one's elsewhere
    assert main(["calc", "toy", "--rating", "1500", "--level", "3", "--games", "1600 1, 1400 0.5"]) == 0
    assert "new rating:             1513" in capsys.readouterr().out
    assert main(["calc", "toy", "--rating", "1500", "--level", "3", "--games", "1600 1 2, 1400 0.5"]) == 0
    assert "new rating:             1526" in capsys.readouterr().out  # its game's weight: 2 x 13
    assert main(["calc", "fide", "--rating", "1500", "--games", "1600 1 2"]) == 1
    assert "'2': weights are TOY's (chess); FIDE games have none" in capsys.readouterr().err
    assert main(["calc", "toy", "--rating", "1500", "--ever-2400", "--games", "1600 1"]) == 1
    assert main(["calc", "fide", "--rating", "1500", "--level", "3", "--games", "1600 1"]) == 1
    assert "--level: is for TOY only" in capsys.readouterr().err
    assert main(["calc", "toy", "--rating", "1500", "--level", "11", "--games", "1600 1"]) == 2
    # its rules chapter, and the systems' table of the README
    assert main(["rules", "99.1"]) == 0 and "plus the winner's level" in capsys.readouterr().out
    assert "| `toy` | Toy system (tests only) | event | [docs/rules.md, section 99]" in systems_table(markdown=True)
    # its published table
    assert main(["tables"]) == 0 and "toy-steps         Toy points for a win by level" in capsys.readouterr().out
    assert main(["tables", "toy-steps", "--compare"]) == 0 and "step()" in capsys.readouterr().out
    # the spreadsheet functions: the common ones take it, its own is listed, with its help in French
    table = functions.by_name()["ELO_RATE"].function(
        "toy", [["id", "rating", "level"], ["a", 1500.0, 5.0], ["b", 1600.0, None]],
        [["player", "opponent", "result"], ["a", "b", 1.0]])
    assert table[1][table[0].index("rating_after")] == 1515
    assert functions.by_name()["ELO_CHANGE"].function("toy", 1500.0, [[1600.0], [1700.0]], [[1.0], [1.0]], 4) == 28
    change = functions.by_name()["ELO_CHANGE"]
    assert change.function("toy", 1500.0, [[1600.0], [1700.0]], [[1.0], [1.0]], 4, weights=[[2.0], [None]]) == 42
    with pytest.raises(functions.ArgumentError, match="argument weights: '5' is out of range"):
        change.function("toy", 1500.0, [[1600.0], [1700.0]], [[1.0], [1.0]], 4, weights=[[2.0], [5.0]])
    assert "TOY: each game's weight" in change.args[[a.name for a in change.args].index("weights")].doc
    with pytest.raises(functions.ArgumentError, match="weights are TOY's"):
        change.function("fide", 1500.0, [[1600.0]], [[1.0]], weights=[[2.0]])
    own = functions.by_name()["TOY_STEP"]
    assert own.function([[0.0], [4.0]]) == [[10], [14]]
    assert "TOY: the player's level" in functions.by_name()["ELO_CHANGE"].args[4].doc
    assert function_help(own)[0].startswith("Ce qu'une victoire")
    with pytest.raises(functions.ArgumentError, match="TOY has no k factor"):
        functions.by_name()["ELO_K"].function("toy", 1500.0)
    # ... in LibreOffice (the extension's calls) and in Excel (xlwings' own machinery)
    assert calls.call(own, ([[2.0]],)) == ((12.0,),)
    assert "toyStep" in calls.methods() and "toyStep(" in build.idl_text()
    assert _xlwings_call("toy_step", [[[3.0]]]) == [[13]]
    names = [a.name for a in change.args]  # its game's fact, one cell per game, in both
    given = [[["toy"]], [[1500.0]], [[1600.0], [1700.0]], [[1.0], [1.0]], [[4.0]]] + [[[None]]] * (len(names) - 5)
    given[names.index("weights")] = [[2.0], [1.0]]
    assert calls.call(change, tuple(given)) == 42.0
    assert _xlwings_call("elo_change", given) == [[42]]
    # its template: built, filled with its example, rated by the command line
    template = build_template("toy", tmp_path / "templates")
    filled = fill_template(template, example("toy").event, tmp_path / "toy_filled.xlsx")
    assert main(["rate", str(filled), "--format", "json"]) == 0
    assert {r["id"]: r["rating_after"] for r in json.loads(capsys.readouterr().out)["results"]}["ann"] == 1536
    if shutil.which("soffice"):  # its native formulas, computed by LibreOffice, are the engine's
        assert main(["rate", str(filled), "--recalculate", "--format", "json"]) == 0
        assert "formulas agree with the engine on every results cell" in capsys.readouterr().err
    # the demo rates its example and fills its template
    assert run_demo(tmp_path / "demo", io.StringIO(), only=["toy"]) == 0
    assert (tmp_path / "demo" / "toy_example_results.csv").exists()
    assert (tmp_path / "demo" / "toy_event_example.xlsx").exists()


def _xlwings_call(name: str, args: list) -> object:
    """A function as xlwings Server or Lite calls it (the udfs module built from the registry now)."""
    import asyncio
    import importlib.util

    import xlwings as xw
    import xlwings.server

    spec = importlib.util.spec_from_file_location("xl_elo_udfs_now", ROOT / "udfs" / "xl_elo_udfs.py")
    udfs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(udfs)
    meta = xlwings.server.custom_functions_meta(udfs)["functions"]
    assert name.upper() in {f["id"] for f in meta}
    payload = {"func_name": name, "args": args, "version": xw.__version__, "client": "Office.js", "runtime": "1.4",
               "caller_address": "[t.xlsx]Sheet1!A1", "culture_info_name": "en-US", "date_format": "yyyy-mm-dd"}
    return asyncio.run(xlwings.server.custom_functions_call(payload, udfs))


# --------------------------------------------------------------------------- the rules document


def test_the_committed_rules_document_is_the_generated_one():
    """docs/rules.md is ``python -m xl_elo.rulesdoc`` (regenerate it when this fails)."""
    from xl_elo.rulesdoc import render

    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == render()


def test_every_cited_section_exists():
    """Docstrings and the spreadsheet functions' help cite the rules by section: each must exist."""
    from xl_elo.frontends.functions import FUNCTIONS
    from xl_elo.rulesdoc import section_numbers

    known = section_numbers()
    cited: dict[str, set[str]] = {}
    texts = [(p.relative_to(ROOT).as_posix(), p.read_text(encoding="utf-8"))
             for folder in ("xl_elo", "udfs") for p in (ROOT / folder).rglob("*.py")]
    texts += [(f.name, f.description + " ".join(a.doc for a in f.args)) for f in FUNCTIONS]
    for where, text in texts:
        for m in re.finditer(r"rules (\d+(?:\.\d+)?)(?:\s*(?:-|to)\s*(\d+(?:\.\d+)?))?", text):
            for number in filter(None, m.groups()):
                cited.setdefault(number, set()).add(where)
    missing = {n: sorted(w) for n, w in cited.items() if n not in known}
    assert missing == {}
    assert len(cited) > 40
    assert not [w for w, t in texts if "SPEC " in t], "cite the rules document, not SPEC"


def test_the_readme_table_is_the_registry():
    """The README's table of systems is ``xl-elo systems --markdown``: what each module declares."""
    from xl_elo.frontends.cli import systems_table
    from xl_elo.rulesdoc import _values

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert systems_table(markdown=True) in readme
    # ... and its players table names every system's facts, as rules 8 does
    assert f"then the facts the system reads (`xl-elo rules 8`; a rated player's count of games is required where " \
           f"the system counts them): {_values()['player_facts']} |" in readme


def test_the_functions_help_names_no_unshipped_document():
    from xl_elo.frontends.functions import FUNCTIONS

    for f in FUNCTIONS:
        words = f.description + " ".join(a.doc for a in f.args)
        assert "seed" not in words.lower() and "SPEC" not in words, f.name
        assert re.search(r"rules \d", f.description), f.name


# --------------------------------------------------------------------------- without numpy


def test_the_one_player_rules_run_without_numpy(tmp_path):
    """LibreOffice's own Python has no numpy: the spreadsheet functions on games and players must run
    in plain Python and give the same answers; a whole event says it needs numpy."""
    code = r"""
import sys, json
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] == 'numpy':
            raise ImportError('no numpy here')
sys.meta_path.insert(0, Block())
from xl_elo.frontends import functions
f = functions.by_name()
out = {
 'expected': f['ELO_EXPECTED'].function(1600.0, 1500.0),
 'fide': f['FIDE_EXPECTED'].function([[2000.0], [2700.0]], [[1500.0], [2200.0]]),
 'fqe': f['FQE_TABLE'].function(148.0), 'k': f['ELO_K'].function('fide', 2250.0, 100.0, 18.0),
 'change': f['ELO_CHANGE'].function('FQE', 1876.0, [[2024.0], [2161.0], [1547.0], [1785.0], [1979.0], [2176.0],
                                              [2181.0], [2048.0]],
                                     [[1.0], [0.0], ['1/2'], [1.0], [1.0], [0.0], [1.0], [1.0]]),
 'fesa': f['ELO_PERFORMANCE'].function('fesa', [[755.0], [988.0]], [[1.0], [0.0]]),
 'ffe': f['ELO_PERFORMANCE'].function('ffe', [[1440.0], [1460.0], [2160.0], [2500.0]],
                                      [[1.0], [1.0], [0.0], [0.5]], 1800.0),
 'dp': f['FFE_DP'].function(0.75, 'table'), 'grade': f['SHOGI_GRADE'].function(1198.0),
 'handicap': f['SHOGI_HANDICAP'].function(1966.0, 'B'),
}
try:
    f['ELO_RATE'].function('fqe', [['id', 'rating'], ['a', 1500.0]], [['player', 'opponent', 'result']])
except functions.ArgumentError as exc:
    out['rate'] = str(exc)
print(json.dumps(out))
"""
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    from xl_elo.frontends import functions

    f = {name: spec.function for name, spec in functions.by_name().items()}
    assert got["expected"] == pytest.approx(f["ELO_EXPECTED"](1600.0, 1500.0), abs=0)
    assert got["fide"] == [[0.92], [0.96]] and got["fqe"] == 0.7 and got["k"] == 40 and got["change"] == 136
    assert got["fesa"] == f["ELO_PERFORMANCE"]("fesa", [[755.0], [988.0]], [[1.0], [0.0]])
    assert got["ffe"] == f["ELO_PERFORMANCE"]("ffe", [[1440.0], [1460.0], [2160.0], [2500.0]],
                                              [[1.0], [1.0], [0.0], [0.5]], 1800.0)
    assert got["dp"] == 193 and got["grade"] == "6 kyu" and got["handicap"] == f["SHOGI_HANDICAP"](1966.0, "B")
    assert "needs numpy" in got["rate"]


# --------------------------------------------------------------------------- words written once, checked


def test_the_package_description_names_every_system():
    """pyproject's one-line description (what PyPI and pip show) names every registered system by the first words
    of its NAME (``FIDE``, ``US Chess``, ``Glicko-2`` ...): a new system cannot be left out of it."""
    import tomllib

    description = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["description"]
    for code, module in federations.registry().items():
        assert module.NAME.split(" (")[0] in description, code


def test_the_functions_readme_lists_every_function_as_declared():
    """udfs/README.md's table of functions is the one the declarations make (every function, its arguments and
    what it returns): ``python -m xl_elo.frontends.functions`` prints it."""
    from xl_elo.frontends.functions import markdown_table, spreadsheet_functions

    readme = (ROOT / "udfs" / "README.md").read_text(encoding="utf-8")
    assert markdown_table() in readme
    assert all(f"`{f.name}(" in readme for f in spreadsheet_functions())


def test_no_test_asserts_a_time():
    """A test that fails on a busy machine is a defect (issue 34): no test module reads the clock, and no
    hypothesis test sets a deadline (conftest.py's profile has none); speed is measured in bench/run.py."""
    clock = re.compile(r"\b(?:perf_counter|monotonic|process_time)\(|\btime\.time\(")
    late = re.compile(r"\bdeadline\s*=\s*(?!None)")
    for path in sorted((ROOT / "tests").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not clock.search(text), f"{path.name} reads the clock"
        assert not late.search(text), f"{path.name} sets a hypothesis deadline"

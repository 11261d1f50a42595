"""The federation contract: every module the same shape, listed once, no import circle, the rules
document complete; a toy sixth federation reaches every front end by being named in the registry."""

from __future__ import annotations

import ast
import inspect
import json
import os
import re
import subprocess
import sys
from dataclasses import fields, is_dataclass
from pathlib import Path

import pytest
from conftest import ROOT

from xl_elo import federations
from xl_elo.federations.contract import SIGNATURES, Federation
from xl_elo.model import COMMON_COLUMNS

MODULES = list(federations.registry().values())


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.CODE)
def test_every_federation_has_the_contract_shape(module):
    assert isinstance(module, Federation)
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
        "fide": {"expected_method": "table"},  # rules 2.2: the table, the logistic only as an option
        "fse": {},
        "fqe": {"match": "auto"},  # rules 4.8: a match is an event of two players
        "ffe": {"dp_method": "normal", "start": 1500.0},  # rules 5.4, 5.10
        "fesa": {},
    }


def test_the_federation_list_lives_in_one_place():
    """No module but the registry names all five federations in a tuple or list."""
    pattern = re.compile(r"[\(\[]\s*\"fide\",\s*\"fse\",\s*\"fqe\",\s*\"ffe\",\s*\"fesa\"")
    offenders = [p.relative_to(ROOT).as_posix() for p in (ROOT / "xl_elo").rglob("*.py")
                 if pattern.search(p.read_text())]
    assert offenders == []
    assert [f"xl_elo.federations.{c}" for c in ("fide", "fse", "fqe", "ffe", "fesa")] == federations.MODULES


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
    ("formats: readers and writers (formats/)", lambda m: m.startswith("xl_elo.formats")),
    ("the dispatcher (load)", lambda m: m == "xl_elo.load"),
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
    core = {"xl_elo.core", "xl_elo.compat", "xl_elo.model", "xl_elo.tables", "xl_elo.schema",
            "xl_elo.federations.contract"}
    spec = {"xl_elo.templates.spec", "xl_elo.templates.common"}
    for name, deps in graph.items():
        if name.startswith("xl_elo.federations.") and name != "xl_elo.federations.contract":
            allowed = core | spec if name.endswith(".template") else core
            outside = {d for d in deps if not d.startswith("xl_elo.federations")} - allowed
            assert not outside, f"{name} imports {outside}"
            if not name.endswith(".template"):
                assert not {d for d in deps if d.endswith(".template")}, f"{name} imports a template spec"
    for name in spec:
        assert graph[name] <= core | spec, f"{name} imports {graph[name] - core - spec}"
        text = (ROOT / (name.replace(".", "/") + ".py")).read_text(encoding="utf-8")
        assert "openpyxl" not in text and "xlwings" not in text, name


# --------------------------------------------------------------------------- a sixth federation


@pytest.fixture
def toy(monkeypatch):
    sys.path.insert(0, str(Path(__file__).parent))
    monkeypatch.setattr(federations, "MODULES", [*federations.MODULES, "toy_federation"])
    yield federations.get("toy")
    sys.path.remove(str(Path(__file__).parent))


def test_a_sixth_federation_reaches_every_front_end(toy, tmp_path, capsys):
    """Naming one module in the registry is all it takes: the CLI, its help, the Python API, the
    spreadsheet functions (ELO_RATE, ELO_CHANGE, ELO_PERFORMANCE) and the fast lane's refusal."""
    from xl_elo import rate
    from xl_elo.formats.csvfiles import read_event
    from xl_elo.frontends import functions
    from xl_elo.frontends.cli import main

    assert "toy" in federations.codes() and federations.get("sixth") is toy
    p = tmp_path / "p.csv"
    g = tmp_path / "g.csv"
    p.write_text("id,rating,games\na,1500,10\nb,1600,10\n", encoding="utf-8")
    g.write_text("round,player,opponent,result\n1,a,b,1\n", encoding="utf-8")
    assert main(["rate", "-f", "toy", "-p", str(p), "-g", str(g), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["federation"] == "toy" and doc["results"][0]["rating_after"] == 1510
    assert rate("sixth", read_event(p, g)).by_id()["b"]["rating_after"] == 1590
    assert main(["rate", "--help"]) == 0 and "toy" in capsys.readouterr().out
    table = functions.elo_rate("toy", [["id", "rating", "games"], ["a", 1500.0, 10.0], ["b", 1600.0, 10.0]],
                               [["player", "opponent", "result"], ["a", "b", 1.0]])
    assert table[1][table[0].index("rating_after")] == 1510
    assert functions.elo_change("toy", 1500.0, [[1600.0], [1700.0]], [[1.0], [1.0]]) == 20
    assert functions.elo_performance("toy", [[1600.0], [1700.0]], [[1.0], [0.0]]) == 1650
    with pytest.raises(functions.ArgumentError, match="TOY has no k factor"):
        functions.elo_k("toy", 1500.0)


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
    """The README's federation table says what each module declares, row for row."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = [line for line in readme.splitlines() if re.match(r"\| `[a-z]+` \| ", line)]
    want = [f"| `{m.CODE}` | {m.NAME} | {m.UNIT} | [docs/rules.md, section {m.RULES}](docs/rules.md) "
            f"| `{m.TEMPLATE}` | [official]({m.SOURCE}) |" for m in MODULES]
    assert rows == want


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

"""Excel through xlwings, every step that runs without Excel: the help texts, the files
``xl-elo excel-setup`` writes for each runtime, xlwings Lite's main.py run the way Lite runs it,
the minimal server started on 127.0.0.1 and called with the body Excel's xlwings add-in sends,
and the wheel that xlwings Lite installs (udfs/README.md)."""

from __future__ import annotations

import asyncio
import http.client
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import types
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT

from xl_elo import __version__
from xl_elo.frontends.cli import main
from xl_elo.frontends.excel_setup import PLACEHOLDER_URL, WHEEL, SetupError, check_wheel_url, files, write
from xl_elo.frontends.functions import FUNCTIONS, ArgumentError, by_name

xw = pytest.importorskip("xlwings")

URL = f"https://club.example.org/xl-elo/{WHEEL}"


# --------------------------------------------------------------------------- help a user can follow


def test_help_names_the_rule_and_its_section_and_no_unshipped_file():
    for f in FUNCTIONS:
        texts = [f.description] + [a.doc for a in f.args]
        assert re.search(r"\(xl-elo rules \d", f.description), f.name
        for text in texts:
            assert not re.search(r"\bSPEC\b|\bseed\b|\.md\b|notes/", text, re.IGNORECASE), (f.name, text)
            assert text.strip() and len(text) < 255, (f.name, text)  # Excel's wizard cuts at 255


# --------------------------------------------------------------------------- the files


def test_classic_settings(tmp_path):
    out = files(("classic",), interpreter=r"C:\Users\club\xl-elo\.venv\Scripts\python.exe")
    conf = out["classic/xlwings.conf"].splitlines()
    assert conf == ['"UDF MODULES","xl_elo_udfs"',
                    r'"INTERPRETER_WIN","C:\Users\club\xl-elo\.venv\Scripts\pythonw.exe"']
    readme = out["classic/README.txt"]
    for step in ("xlwings addin install", "Trust access to the VBA project object model", ".xlsm",
                 "Tools > References", "Import Functions", "=fqe_table(148)"):
        assert step in readme
    assert files(("classic",), interpreter="")["classic/xlwings.conf"] == '"UDF MODULES","xl_elo_udfs"\n'


def test_lite_files_name_the_wheel():
    out = files(("lite",), wheel_url=URL)
    assert out["lite/requirements.txt"] == URL + "\n"
    assert "from xl_elo_udfs import *" in out["lite/main.py"]
    assert files(("lite",))["lite/requirements.txt"] == PLACEHOLDER_URL + "\n"
    assert PLACEHOLDER_URL.endswith("/" + WHEEL)
    with pytest.raises(SetupError, match="HTTPS"):
        check_wheel_url(f"http://club.example.org/{WHEEL}")
    with pytest.raises(SetupError, match="wheel's file name"):
        check_wheel_url("https://club.example.org/download?id=3")


def test_cli_writes_every_runtime(tmp_path, capsys):
    assert main(["excel-setup", "-o", str(tmp_path / "x"), "--wheel-url", URL]) == 0
    written = sorted(p.relative_to(tmp_path / "x").as_posix() for p in (tmp_path / "x").rglob("*") if p.is_file())
    assert written == ["classic/README.txt", "classic/xlwings.conf", "lite/README.txt", "lite/main.py",
                       "lite/requirements.txt", "server/README.txt", "server/app.py", "server/requirements.txt",
                       "server/xl_elo_functions.py"]
    assert main(["excel-setup", "-o", str(tmp_path / "y"), "--wheel-url", "http://x/" + WHEEL]) == 2
    assert "HTTPS" in capsys.readouterr().err
    assert not (tmp_path / "y").exists()


def _module_from_source(name, source):
    """A module made from source text, as xlwings Lite makes ``main`` from its main.py tab."""
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    exec(source, module.__dict__)
    sys.modules[name] = module
    return module


def _call(module, name, *args):
    from xlwings import server

    body = {"func_name": name, "args": list(args), "caller_address": "[Book1.xlsx]Sheet1!A1",
            "content_language": "en-US", "version": xw.__version__, "runtime": "1.4"}
    body["client"] = "Office.js"
    return asyncio.run(server.custom_functions_call(body, module))


def test_lite_main_registers_and_computes_every_function():
    """xlwings Lite execs main.py into a module named main, lists its functions with
    custom_functions_meta and runs them with custom_functions_call (with XLWINGS_ON_SERVER set,
    which Lite sets itself: tests/conftest.py sets it here)."""
    from xlwings import server

    main_py = files(("lite",), wheel_url=URL)["lite/main.py"]
    module = _module_from_source("main", main_py)
    try:
        meta = server.custom_functions_meta(module)["functions"]
        assert {f["id"] for f in meta} == {f.name for f in FUNCTIONS}
        for f in meta:
            assert f["description"] == by_name()[f["id"]].description
        assert _call(module, "fqe_table", [[148.0]]) == [[0.7]]
        assert _call(module, "elo_expected", [[1500.0], [1600.0]], [[1400.0]]) == \
            [[by_name()["ELO_EXPECTED"].function(1500.0, 1400.0)], [by_name()["ELO_EXPECTED"].function(1600.0, 1400.0)]]
    finally:
        sys.modules.pop("main", None)


# --------------------------------------------------------------------------- the server app on 127.0.0.1


@pytest.fixture(scope="module")
def server_url(tmp_path_factory):
    folder = tmp_path_factory.mktemp("server")
    write(folder, ("server",), URL)
    env = {k: v for k, v in os.environ.items() if k != "XLWINGS_ON_SERVER"}  # app.py must set it itself
    env["XLWINGS_LICENSE_KEY"] = "noncommercial"
    if os.environ.get("XL_ELO_TEST_INSTALLED") != "1":
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "udfs"), env.get("PYTHONPATH", "")])
    proc = subprocess.Popen([sys.executable, str(folder / "server" / "app.py"), "--port", "0"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=folder)
    try:
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, line + proc.stderr.read() if proc.poll() is not None else line
        yield int(match.group(1))
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        proc.stdout.close()
        proc.stderr.close()


def _http(port, method, path, body=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def _excel_body(name, *args):
    """What the xlwings add-in's custom-functions JavaScript posts: every argument as rows."""
    return {"func_name": name, "args": list(args), "caller_address": "[Book1.xlsx]Sheet1!B2",
            "content_language": "fr-CA", "version": xw.__version__, "runtime": "1.4"}


def test_the_app_refuses_to_start_without_a_license_key(tmp_path):
    write(tmp_path, ("server",))
    env = {k: v for k, v in os.environ.items() if k not in ("XLWINGS_LICENSE_KEY", "XLWINGS_ON_SERVER")}
    proc = subprocess.run([sys.executable, str(tmp_path / "server" / "app.py")], env=env, capture_output=True,
                          text=True, timeout=60, check=False)
    assert proc.returncode != 0 and "XLWINGS_LICENSE_KEY" in proc.stderr and "noncommercial" in proc.stderr


def test_the_app_lists_the_functions(server_url):
    status, meta = _http(server_url, "GET", "/xlwings/custom-functions-meta")
    assert status == 200
    by_id = {f["id"]: f for f in meta["functions"]}
    assert set(by_id) == {f.name for f in FUNCTIONS}
    for f in FUNCTIONS:
        entry = by_id[f.name]
        assert entry["description"] == f.description
        assert [(p["name"], p["description"], p.get("optional", False)) for p in entry["parameters"]] == \
            [(a.name, a.doc, a.optional) for a in f.args]


PLAYERS = [["id", "name", "rating", "games", "birth_year"], ["anna", "Anna", 2412.0, 410.0, 1990.0],
           ["felix", "Felix", 1800.0, 50.0, 2008.0], ["marc", "Marc", 1950.0, 120.0, 1975.0]]
GAMES = [["round", "player", "opponent", "result"], [1.0, "anna", "felix", "1-0"], [2.0, "felix", "marc", "½"],
         [3.0, "marc", "anna", "0-1"]]
OPPONENTS = [[2024.0], [2161.0], [1547.0], [1785.0], [1979.0], [2176.0], [2181.0], [2048.0]]
RESULTS = [[1.0], [0.5], [0.0], [1.0], ["½"], ["1-0"], [0.0], ["="]]
CALLS = [
    ("elo_expected", [[1500.0], [""], [2100.0]], [[1400.0], [1500.0], [2000.0]]),
    ("fide_expected", [[2700.0]], [[2200.0]]),
    ("fqe_expected", [[1876.0]], [[2024.0]]),
    ("fqe_table", [[148.0], [-148.0]]),
    ("elo_k", [["FIDE"]], [[2100.0], [1600.0]], [[10.0]]),
    ("elo_change", [["FQE"]], [[1876.0]], OPPONENTS, RESULTS),
    ("elo_change", [["FIDE"]], [[2100.0]], OPPONENTS, RESULTS, [[40.0]], [[17.0]]),
    ("elo_performance", [["fesa"]], OPPONENTS, RESULTS),
    ("ffe_dp", [[0.75]], [["table"]]),
    ("ffe_round", [[1234.5]]),
    ("elo_convert", [[180.0]], [["bcr"]], [["elo"]]),
    ("shogi_grade", [[1700.0], [600.0]]),
    ("shogi_grade_bounds", [["1 dan"]]),
    ("shogi_handicap", [[1700.0]], [["B"]]),
    ("elo_rate", [["fide"]], PLAYERS, GAMES, [[""]], [["2026-10"]]),
]


def _python(name, *args):
    """The Python function, called as xlwings calls it: a 1 x 1 argument as a value, the answer as rows."""
    spec = by_name()[name.upper()]
    plain = []
    for a, arg in zip(args, spec.args, strict=False):
        value = a[0][0] if len(a) == 1 and len(a[0]) == 1 and not arg.range else a
        plain.append(None if value == "" else value)
    out = spec.function(*plain)
    return out if isinstance(out, list) else [[out]]


@pytest.mark.parametrize("call", CALLS, ids=[c[0] for c in CALLS])
def test_the_app_computes_as_xl_elo(server_url, call):
    name, *args = call
    status, body = _http(server_url, "POST", "/xlwings/custom-functions-call", _excel_body(name, *args))
    assert status == 200, body
    want = _python(name, *args)
    got = body["result"]
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=False):
        assert [("" if v is None else v) for v in g] == [("" if v is None else v) for v in w]


def test_the_app_says_why_an_argument_is_refused(server_url):
    status, body = _http(server_url, "POST", "/xlwings/custom-functions-call",
                         _excel_body("elo_expected", [["abc"]], [[1400.0]]))
    assert status == 500
    with pytest.raises(ArgumentError) as exc:
        by_name()["ELO_EXPECTED"].function("abc", 1400.0)
    assert str(exc.value) in body["error"]


# --------------------------------------------------------------------------- the wheel xlwings Lite installs


def test_the_wheel_holds_the_udf_module_and_the_extension(tmp_path):
    if not (ROOT / "pyproject.toml").exists():
        pytest.skip("not run from a clone")
    # built from a copy: setuptools leaves a build/ folder where it builds, and a stale one in the
    # checkout would put modules that no longer exist into the next wheel
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", "build", "*.egg-info", ".*cache", ".hypothesis", "__pycache__", "xl-elo-demo", ".peer"))
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(tmp_path)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    wheel = tmp_path / WHEEL
    assert wheel.exists(), sorted(p.name for p in tmp_path.iterdir())
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        metadata = z.read(f"xl_elo-{__version__}.dist-info/METADATA").decode()
    assert {"xl_elo_udfs.py", "xl_elo/frontends/functions.py", "xl_elo/frontends/addin/XlElo.rdb",
            "xl_elo/frontends/addin/XlElo.idl", "xl_elo/frontends/addin/xl_elo_calc.py",
            "xl_elo/frontends/excel_setup.py"} <= names
    assert "Provides-Extra: excel" in metadata
    # pure Python: Pyodide (xlwings Lite) installs it
    assert WHEEL.endswith("-py3-none-any.whl")
    assert types is not None and Path(wheel).stat().st_size < 2_000_000

"""The LibreOffice Calc extension (xl_elo/addin): built from the function list, its component
driven without LibreOffice, then installed into a real headless LibreOffice and every function
typed into a sheet, recalculated and compared with the Python functions called the same way.

The LibreOffice test is one run (unopkg add + one soffice). It skips when LibreOffice or its
Python bridge is missing, and fails instead when XL_ELO_REQUIRE_LIBREOFFICE=1 (CI)."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import textwrap
import zipfile
from xml.etree import ElementTree

import pytest

from xl_elo.frontends.addin import build, calls
from xl_elo.frontends.functions import FUNCTIONS, ArgumentError, CellZero, by_name

REQUIRE = os.environ.get("XL_ELO_REQUIRE_LIBREOFFICE") == "1"


@pytest.fixture(scope="module")
def oxt(tmp_path_factory):
    return build.build(tmp_path_factory.mktemp("oxt") / "xl-elo.oxt")


# --------------------------------------------------------------------------- generated from FUNCTIONS


def test_names():
    assert calls.method_name("ELO_EXPECTED") == "eloExpected"
    assert calls.method_name("SHOGI_GRADE_BOUNDS") == "shogiGradeBounds"
    assert calls.parameter_name("opponent_rating") == "opponentRating"
    assert calls.parameter_name("ever_2400") == "ever2400"
    methods = [calls.method_name(f.name) for f in FUNCTIONS]
    assert len(set(methods)) == len(methods)
    assert all(re.fullmatch(r"[a-z][A-Za-z0-9]*", m) for m in methods)


def test_the_shipped_idl_is_the_function_list():
    text = build.IDL.read_text(encoding="utf-8")
    assert text == build.idl_text()
    for f in FUNCTIONS:
        params = ", ".join(f"[in] {'any' if a.optional else build.MATRIX} {calls.parameter_name(a.name)}"
                           for a in f.args)
        assert f"{build.MATRIX} {calls.method_name(f.name)}( {params} );" in text


def test_the_shipped_type_library_is_what_unoidl_write_makes(tmp_path):
    if build.unoidl_write() is None:
        if REQUIRE:
            pytest.fail("unoidl-write is missing (Debian: libreoffice-dev)")
        pytest.skip("unoidl-write (LibreOffice SDK, Debian: libreoffice-dev) is not installed")
    fresh = tmp_path / "XlElo.rdb"
    build.compile_idl(build.idl_text(), fresh)
    assert fresh.read_bytes() == build.RDB.read_bytes(), \
        "XlElo.rdb is stale: python -m xl_elo.frontends.addin.build --regenerate"


def test_an_out_of_date_library_is_refused(monkeypatch):
    monkeypatch.setattr(build, "idl_text", lambda functions=None: "something else")
    with pytest.raises(build.ExtensionError, match="--regenerate"):
        build.oxt_bytes()


def test_xcu_names_help_and_french():
    ns = {"oor": "http://openoffice.org/2001/registry"}
    root = ElementTree.fromstring(build.xcu_text().encode())
    info = root.find("node/node", ns)
    assert info.get("{http://openoffice.org/2001/registry}name") == build.SERVICE_NAME
    nodes = {n.get("{http://openoffice.org/2001/registry}name"): n for n in info.find("node", ns)}
    assert list(nodes) == [calls.method_name(f.name) for f in FUNCTIONS]
    for f in FUNCTIONS:
        node = nodes[calls.method_name(f.name)]
        props = {p.get("{http://openoffice.org/2001/registry}name"): p for p in node.findall("prop", ns)}
        assert props["DisplayName"][0].text == f.name
        texts = {v.get("{http://www.w3.org/XML/1998/namespace}lang"): v.text for v in props["Description"]}
        assert texts["en-US"] == f.description and texts["fr"] and texts["fr"] != f.description
        params = node.find("node", ns)
        assert [p.get("{http://openoffice.org/2001/registry}name") for p in params] == \
            [calls.parameter_name(a.name) for a in f.args]


def test_french_help_covers_every_function_and_argument():
    """Every function and argument has its own French text (none falls back to the English one)."""
    from xl_elo.frontends.addin.french import function_help

    for f in FUNCTIONS:
        description, args = function_help(f)
        assert set(args) == {a.name for a in f.args}, f.name
        assert "règles xl-elo" in description and description != f.description, f.name
        for a in f.args:
            assert (args[a.name] and args[a.name] != a.doc) or not a.doc, (f.name, a.name)


def test_the_extension_is_reproducible_and_holds_what_it_needs(oxt):
    assert build.oxt_bytes() == oxt.read_bytes()
    with zipfile.ZipFile(oxt) as z:
        names = set(z.namelist())
        manifest = z.read("META-INF/manifest.xml").decode()
        component = z.read("xl_elo_calc.py").decode()
    assert {"META-INF/manifest.xml", "description.xml", "XlElo.rdb", "CalcAddIns.xcu", "xl_elo_calc.py",
            "pythonpath/xl_elo/frontends/functions.py", "pythonpath/xl_elo/frontends/addin/calls.py"} <= names
    assert not any("/templates/" in n or "__pycache__" in n for n in names)
    for member in ("XlElo.rdb", "xl_elo_calc.py", "CalcAddIns.xcu"):
        assert f'manifest:full-path="{member}"' in manifest
    assert f"METHODS = {tuple(calls.method_name(f.name) for f in FUNCTIONS)!r}  # type" in component


# --------------------------------------------------------------------------- the component without LibreOffice

# LibreOffice's modules, as small as the component needs them
FAKE_UNO = textwrap.dedent("""
    import sys, types
    for name in ("numpy", "openpyxl", "xlwings", "defusedxml"):
        sys.modules[name] = None          # none of them in LibreOffice's Python on Windows
    uno = types.ModuleType("uno")
    unohelper = types.ModuleType("unohelper")
    class Base: pass
    class ImplementationHelper:
        def addImplementation(self, *args): self.args = args
    unohelper.Base, unohelper.ImplementationHelper = Base, ImplementationHelper
    lang = types.ModuleType("com.sun.star.lang"); lang.XServiceInfo = type("XServiceInfo", (), {})
    xlelo = types.ModuleType("org.xlelo"); xlelo.XXlElo = type("XXlElo", (), {})
    for name, mod in {"uno": uno, "unohelper": unohelper, "com": types.ModuleType("com"),
                      "com.sun": types.ModuleType("com.sun"), "com.sun.star": types.ModuleType("com.sun.star"),
                      "com.sun.star.lang": lang, "org": types.ModuleType("org"), "org.xlelo": xlelo}.items():
        sys.modules[name] = mod
    import importlib.util, json
    spec = importlib.util.spec_from_file_location("xl_elo_calc", sys.argv[1])
    component = importlib.util.module_from_spec(spec); spec.loader.exec_module(component)
    addin = component.XlEloAddIn(None)
""")


def _component(oxt, tmp_path, script):
    """Run ``script`` against the extension's component, unpacked, on this Python with only the
    standard library and the bundled xl_elo (no site-packages, numpy & co. blocked)."""
    root = tmp_path / "oxt"
    with zipfile.ZipFile(oxt) as z:
        z.extractall(root)
    code = FAKE_UNO + textwrap.dedent(script)
    proc = subprocess.run([sys.executable, "-S", "-I", "-c", code, str(root / "xl_elo_calc.py")],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_component_runs_the_functions_without_numpy(oxt, tmp_path):
    out = _component(oxt, tmp_path, """
        r = {}
        r["expected"] = addin.eloExpected(((1500.0,),), ((1400.0,),))
        r["column"] = addin.eloExpected(((1500.0,), ("",), (0.0,), (2100.0,)), ((1400.0,),))
        r["table"] = addin.fqeTable(((148.0,), (-148.0,)))
        r["k"] = addin.eloK((("FIDE",),), ((2100.0,),), None, None, None)
        r["k_new"] = addin.eloK((("FIDE",),), ((1600.0,),), 10.0, None, None)
        r["grade"] = addin.shogiGrade(((1700.0,),))
        r["bounds"] = addin.shogiGradeBounds((("1 dan",),))
        r["bad"] = addin.eloExpected((("abc",),), ((1400.0,),))
        r["missing"] = addin.fqeTable(None)
        r["rate"] = addin.eloRate((("fide",),), (("id",), ("a",)), (("round",), (1.0,)), None, "2026-10")
        r["loaded"] = sorted(m for m in sys.modules if m == "xl_elo" or m.startswith("xl_elo."))
        r["files"] = sorted({m.__file__.split("pythonpath")[0] for n, m in sys.modules.items()
                             if n.startswith("xl_elo") and getattr(m, "__file__", None)})
        component.MIN_PYTHON = (99, 0)
        r["old"] = addin.ffeRound(((1234.0,),))
        print(json.dumps(r))
    """)
    assert out["expected"] == [[pytest.approx(0.6400649998028851, abs=0)]]
    assert out["column"] == [[0.6400649998028851], [""], [""], [out["column"][3][0]]]
    assert out["table"] == [[0.7], [0.3]]
    assert out["k"] == [[20.0]] and out["k_new"] == [[40.0]]
    assert out["grade"] == [["1 dan"]] and out["bounds"] == [[1680.0, 1740.0, 1800.0, 14.0, 7.0]]
    assert out["bad"][0][0].startswith("#VALUE! argument rating: 'abc' is not a number")
    assert out["missing"] == [["#VALUE! argument difference is required"]]
    assert out["rate"][0][0].startswith("#VALUE! ELO_RATE (a whole event) needs numpy")
    assert "python3-numpy" in out["rate"][0][0] and "Windows" in out["rate"][0][0]
    assert "xl_elo.frontends.functions" in out["loaded"] and "xl_elo.templates" not in out["loaded"]
    assert len(out["files"]) == 1 and out["files"][0].startswith(str(tmp_path / "oxt"))  # the bundled copy
    assert out["old"][0][0].startswith("#VALUE! xl-elo needs Python 99.0 or newer; this LibreOffice runs Python 3.")


def test_calls_turn_answers_into_what_calc_takes():
    assert calls.to_calc(None) == "" and calls.to_calc(3) == 3.0 and calls.to_calc(True) == "yes"
    assert calls.to_calc(float("nan")) == ""
    assert calls.to_calc([[1, None], [2]]) == ((1.0, ""), (2.0, ""))
    assert calls.from_calc(((1.0, ""), ("x", 2.0))) == [[1.0, ""], ["x", 2.0]]
    spec = by_name()["ELO_CONVERT"]
    assert calls.call(spec, (((180.0,),), (("bcr",),), (("elo",),))) == ((by_name()["ELO_CONVERT"].function(
        180.0, "bcr", "elo") * 1.0,),)
    assert calls.call(spec, (((180.0,),), (("xyz",),), (("elo",),))).startswith("#VALUE! arguments from_system")


def test_an_empty_cell_given_alone_is_never_read_as_0_silently():
    """LibreOffice passes an empty cell given alone to an optional argument as 0.0 (checked in 7.4): K 40 (0 games,
    a new player) instead of 20 (games not given). Where 0 is no value of the argument it is read as blank (an
    age, a K, tau), where 0 and a blank mean the same it is read (an unrated player's games), where they differ
    it is refused with what to type; "0" typed is 0."""
    f = by_name()
    refused = calls.call(f["ELO_K"], ("fide", 1500.0, 0.0))
    assert refused.startswith("#VALUE! argument games: 0 or an empty cell? LibreOffice passes an empty cell")
    assert calls.call(f["ELO_K"], ("fide", 1500.0, "0")) == 40.0
    assert calls.call(f["ELO_K"], ("fide", 1500.0, None)) == 20.0 == calls.call(f["ELO_K"], ("fide", 1500.0, ""))
    assert calls.call(f["ELO_K"], ("fide", 1500.0, 30.0, 0.0)) == 20.0  # no player is 0 years old
    assert calls.call(f["ELO_K"], ("fide", 0.0, 0.0)) == ""  # unrated: no K, 0 games or blank alike
    change = ("fide", 2100.0, ((2000.0,),), ((1.0,),))
    assert calls.call(f["ELO_CHANGE"], (*change, 0.0)).startswith("#VALUE! argument games: 0 or an empty cell?")
    assert calls.call(f["ELO_CHANGE"], (*change, 40.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)) == \
        calls.call(f["ELO_CHANGE"], (*change, 40.0))
    assert calls.call(f["ELO_CHANGE"], ("fide", 0.0, ((2000.0,),), ((1.0,),), 0.0)) == calls.call(
        f["ELO_CHANGE"], ("fide", 0.0, ((2000.0,),), ((1.0,),)))  # unrated: 0 games is what blank means
    update = (1500.0, 200.0, 0.06, ((1400.0,),), ((30.0,),), ((1.0,),))
    assert calls.call(f["GLICKO2_UPDATE"], (*update, 0.0)) == calls.call(f["GLICKO2_UPDATE"], update)


# --------------------------------------------------------------------------- in LibreOffice

# The sheet: inputs as a user types them (blank cells left out)
VALUES = {
    "A2": 1500, "A4": 2100, "A5": 1876, "A6": 2700, "A7": 0,                    # ratings, A3 blank
    "B2": 1400, "B3": 1500, "B4": 2000, "B5": 2024, "B6": 2200, "B7": 1600,
    "C2": 2024, "C3": 2161, "C4": 1547, "C5": 1785, "C6": 1979, "C7": 2176, "C8": 2181, "C9": 2048,
    "D2": 1, "D3": 0.5, "D4": 0, "D5": 1, "D6": "½", "D7": "1-0", "D8": 0, "D9": "=",
    "E2": "abc", "E3": "FIDE", "E4": "1 dan", "E5": "B", "E6": "2026-10",
    "F2": 0.5, "F3": 0.75, "F5": 1,                                              # F4 blank
    "G2": 148, "G3": -148, "G4": 0,
    # ELO_RATE: players H1:L4, games N1:Q4
    "H1": "id", "I1": "name", "J1": "rating", "K1": "games", "L1": "birth_year",
    "H2": "anna", "I2": "Anna", "J2": 2412, "K2": 410, "L2": 1990,
    "H3": "felix", "I3": "Felix", "J3": 1800, "K3": 50, "L3": 2008,
    "H4": "marc", "I4": "Marc", "J4": 1950, "K4": 120, "L4": 1975,
    "N1": "round", "O1": "player", "P1": "opponent", "Q1": "result",
    "N2": 1, "O2": "anna", "P2": "felix", "Q2": "1-0",
    "N3": 2, "O3": "felix", "P3": "marc", "Q3": "½",
    "N4": 3, "O4": "marc", "P4": "anna", "Q4": "0-1",
    # ELO_HISTORY: the players of H1:L4 over a season, games N6:S9 (an event of January, one of February)
    "N6": "event", "O6": "date", "P6": "round", "Q6": "player", "R6": "opponent", "S6": "result",
    "N7": "Jan", "O7": "2026-01-10", "P7": 1, "Q7": "anna", "R7": "felix", "S7": "1-0",
    "N8": "Feb", "O8": "2026-02-14", "P8": 1, "Q8": "felix", "R8": "marc", "S8": "½",
    "N9": "Feb", "O9": "2026-02-14", "P9": 2, "Q9": "marc", "R9": "anna", "S9": "0-1",
    # GLICKO2_UPDATE: Glickman's example, the opponents' ratings, RDs and results in S2:U4
    "S2": 1400, "S3": 1550, "S4": 1700, "T2": 30, "T3": 100, "T4": 300, "U2": 1, "U3": 0, "U4": "0-1",
    # a title norm's games: nine opponents rated 2475 in W2:W10 (W11 blank: no game), the results in X2:X10
    **{f"W{r}": 2475 for r in range(2, 11)}, **{f"X{r}": 1 if r < 8 else 0 for r in range(2, 11)},
}

M = None  # an optional argument left out
CASES = [
    ("ELO_EXPECTED", "A2", "B2"), ("ELO_EXPECTED", "A2:A7", "B2:B7"), ("ELO_EXPECTED", "A2:A7", 1500),
    ("ELO_EXPECTED", "E2", "B2"), ("ELO_EXPECTED", "A3", "B2"), ("ELO_EXPECTED", "A2:A3", "B2:B4"),
    ("FIDE_EXPECTED", "A2:A7", "B2:B7"), ("FIDE_EXPECTED", 2700, 2200),
    ("FQE_EXPECTED", 1876, 2024), ("FQE_EXPECTED", "A2:A7", "B2:B7"),
    ("FQE_TABLE", 148), ("FQE_TABLE", "G2:G4"), ("FQE_TABLE", "x"), ("FQE_TABLE", 9999),
    ("ELO_K", "FIDE", 2100), ("ELO_K", "E3", "A2:A7"), ("ELO_K", "FIDE", 1600, 10),
    ("ELO_K", "fide", 2350, M, M, "yes"),
    ("ELO_K", "FSE", 2250, 100), ("ELO_K", "fesa", "A2:A7"), ("ELO_K", "xyz", 2000), ("ELO_K", "FFE", 2000),
    ("ELO_CHANGE", "FQE", 1876, "C2:C9", "D2:D9"), ("ELO_CHANGE", "FIDE", 2100, "C2:C9", "D2:D9", 40, 17),
    ("ELO_CHANGE", "FESA", 1700, "C2:C9", "D2:D9"), ("ELO_CHANGE", "FFE", 1500, "C2:C9", "D2:D9"),
    ("ELO_CHANGE", "FSE", 1800, "C2:C5", "D2:D5", M, M, M, 20), ("ELO_CHANGE", "FIDE", "A3", "C2:C9", "D2:D9"),
    ("ELO_CHANGE", "FIDE", 2100, "C2:C9", "D2:D8"),
    ("ELO_PERFORMANCE", "fesa", "C2:C9", "D2:D9"), ("ELO_PERFORMANCE", "ffe", "C2:C9", "D2:D9", 1500),
    ("ELO_PERFORMANCE", "fqe", "C2:C9", "D2:D9"), ("ELO_PERFORMANCE", "fide", "C2:C9", "D2:D9"),
    ("ELO_PERFORMANCE", "zzz", "C2:C9", "D2:D9"),
    ("FFE_DP", "F2:F5"), ("FFE_DP", 0.75, "table"), ("FFE_DP", 1.5),
    ("FFE_ROUND", 1234.5), ("FFE_ROUND", "A2:A7"),
    ("ELO_CONVERT", 180, "bcr", "elo"), ("ELO_CONVERT", "A2:A4", "elo", "ingo"), ("ELO_CONVERT", 1, "elo", "zz"),
    ("SHOGI_GRADE", 1700), ("SHOGI_GRADE", "A2:A7"),
    ("SHOGI_GRADE_BOUNDS", "1 dan"), ("SHOGI_GRADE_BOUNDS", "E4"), ("SHOGI_GRADE_BOUNDS", "99 dan"),
    ("SHOGI_HANDICAP", 1700, "B"), ("SHOGI_HANDICAP", "A2:A7", "E5"),
    ("GLICKO2_UPDATE", 1500, 200, 0.06, "S2:S4", "T2:T4", "U2:U4", 0.5),
    ("GLICKO2_UPDATE", "A3", "A3", "A3", "S2:S4", "T2:T4", "U2:U4"),
    ("GLICKO2_UPDATE", 1500, "A3", 0.06, "S2:S4", "T2:T4", "U2:U4"),
    ("GLICKO2_EXPECTED", 1500, 200, "S2:S4", "T2:T4"), ("GLICKO2_EXPECTED", "A2:A4", 200, 1500, 100),
    ("FIDE_NORM_PERFORMANCE", "W2:W10", "X2:X10", "GM"), ("FIDE_NORM_PERFORMANCE", "W2:W10", "X2:X10"),
    ("FIDE_NORM_SCORE", "W2:W11", "IM"), ("FIDE_NORM_SCORE", "W2:W10", "FM"),
    ("DWZ_EXPECTED", "A2:A7", "B2:B7"), ("DWZ_EXPECTED", 1600, 1500),
    ("DWZ_E", 1850, 12, 18), ("DWZ_E", "A2:A7", M, 30, 1, 1.5), ("DWZ_E", 1850, 12, 18, 1),
    ("ELO_CHANGE", "DWZ", 2161, "C2:C9", "D2:D9", 12, 40, M, 30), ("ELO_PERFORMANCE", "dwz", "C2:C9", "D2:D9"),
    ("ELO_RATE", "fide", "H1:L4", "N1:Q4", M, "2026-10"), ("ELO_RATE", "fqe", "H1:L4", "N1:Q4"),
    ("ELO_RATE", "FIDE", "H1:L4", "N1:Q4", M, "E6"),
    ("CFC_EXPECTED", 1450, 1237), ("CFC_EXPECTED", "A2:A7", "B2:B7"), ("CFC_BONUS", 1450, 1487, 6),
    ("CFC_BONUS", 1450, 1487, 6, 1450), ("CFC_BONUS", 1450, 1487, "E2"), ("ELO_CHANGE", "CFC", 1876, "C2:C9", "D2:D9"),
    ("ELO_RATE", "cfc", "H1:K4", "N1:Q4"),
    ("USCF_K", 1700, 20, 4), ("USCF_K", "A2:A7", 30, 4), ("USCF_EFFECTIVE_GAMES", "A2:A7", 30),
    ("USCF_FLOOR", 1653), ("USCF_FLOOR", "A2:A7"), ("ELO_CHANGE", "USCF", 1500, "C2:C4", "D2:D4", 6),
    ("ELO_CHANGE", "USCF", 1450, "C2:C9", "D2:D9", 40, M, M, M, 1620), ("ELO_RATE", "uscf", "H1:L4", "N1:Q4"),
    ("ELO_HISTORY", "fide", "H1:L4", "N6:S9", "anna"), ("ELO_HISTORY", "fqe", "H1:L4", "N6:S9", "nobody"),
    # an empty cell given alone to an optional argument reaches the function as 0: read as blank where 0 is no
    # value (an age, K), refused where 0 and a blank differ (games: K 40 or 20), "0" typed as 0
    ("ELO_K", "FIDE", 1500, "A3"), ("ELO_K", "FIDE", 1500, "0"), ("ELO_K", "FIDE", 1500, 30, "A3"),
    ("ELO_CHANGE", "FIDE", 2100, "C2:C9", "D2:D9", "A3"), ("ELO_CHANGE", "FIDE", 2100, "C2:C9", "D2:D9", 40, "A3"),
    ("GLICKO2_UPDATE", 1500, 200, 0.06, "S2:S4", "T2:T4", "U2:U4", "A3"),
]
REF = re.compile(r"[A-Z]+[0-9]+(:[A-Z]+[0-9]+)?")


def _is_ref(token):
    return isinstance(token, str) and REF.fullmatch(token) is not None


def _cells(ref):
    """The cells of a range as rows of (column letter, row number)."""
    a, _, b = ref.partition(":")
    b = b or a
    (c1, r1), (c2, r2) = [(re.match(r"[A-Z]+", x).group(), int(re.search(r"\d+", x).group())) for x in (a, b)]
    cols = [chr(c) for c in range(ord(c1), ord(c2) + 1)]
    return [[f"{c}{r}" for c in cols] for r in range(r1, r2 + 1)]


def _value(addr):
    v = VALUES.get(addr)
    return float(v) if isinstance(v, (int, float)) else v


def _calc_arg(token, optional):
    """What Calc passes for one argument (checked in LibreOffice 7.4): a required argument as rows
    (one cell as 1 x 1), an optional one as a value; an empty cell alone as 0, inside a range as ""."""
    if token is None:
        return None
    if _is_ref(token):
        rows = _cells(token)
        if len(rows) == 1 and len(rows[0]) == 1 and ":" not in token:
            v = _value(rows[0][0])
            v = 0.0 if v is None else v
            return _lone(v) if optional else ((v,),)
        grid = tuple(tuple("" if _value(a) is None else _value(a) for a in row) for row in rows)
        return grid
    v = float(token) if isinstance(token, (int, float)) else token
    return _lone(v) if optional else ((v,),)


def _lone(v):
    """An optional argument's lone value as calls.call hands it on: a 0 may be an empty cell."""
    return CellZero(0.0) if type(v) is float and v == 0.0 else v


def _formula(name, tokens):
    parts = []
    for t in tokens:
        if t is None:
            parts.append("")
        elif _is_ref(t) or isinstance(t, (int, float)):
            parts.append(str(t))
        else:
            parts.append('"' + t.replace('"', '""') + '"')
    while parts and parts[-1] == "":
        parts.pop()
    return f"={name}({';'.join(parts)})"


def _expected(name, tokens, lo_numpy):
    """The Python function called with the arguments as Calc passes them; its answer as rows."""
    spec = by_name()[name]
    args = [_calc_arg(t, a.optional) for t, a in zip(list(tokens) + [None] * len(spec.args), spec.args, strict=False)]
    if name in ("ELO_RATE", "ELO_HISTORY") and not lo_numpy:
        return [[calls.error_text(calls._numpy_missing("ELO_RATE (a whole event)" if name == "ELO_RATE" else
                                                       "ELO_HISTORY (a season)"))]]
    try:
        result = spec.function(*(calls.from_calc(a) for a in args))
    except ArgumentError as exc:
        return [["#VALUE! " + " ".join(str(exc).split())]]
    rows = result if isinstance(result, list) else [[result]]
    width = max(len(r) for r in rows)
    return [[_plain(v) for v in r + [None] * (width - len(r))] for r in rows]


def _plain(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    return float(v) if isinstance(v, (int, float)) else v


def _column_name(i):
    return chr(ord("A") + i) if i < 26 else "A" + chr(ord("A") + i - 26)


def test_every_function_in_libreoffice(oxt):
    from xl_elo.frontends.addin import libreoffice

    why = libreoffice.missing()
    if why:
        if REQUIRE:
            pytest.fail(f"XL_ELO_REQUIRE_LIBREOFFICE=1 but {why}")
        pytest.skip(why)
    # every case as an array formula sized by the answer it should give, in its own block of rows
    layout, arrays, formulas = [], {}, {}
    row = 20
    for _i, (name, *tokens) in enumerate(CASES):
        shape = _expected(name, tokens, True)
        height, width = len(shape), len(shape[0])
        target = f"A{row}:{_column_name(width - 1)}{row + height - 1}"
        if (height, width) == (1, 1):
            formulas[f"A{row}"] = _formula(name, tokens)      # one value: a plain formula
        else:
            arrays[target] = _formula(name, tokens)           # a range: an array formula (Ctrl+Shift+Enter)
        layout.append((name, tokens, target, (height, width)))
        row += max(height, 1) + 1
    job = {"values": VALUES, "formulas": formulas, "arrays": arrays, "functions": [f.name for f in FUNCTIONS],
           "save_as": "saved.ods"}
    result = libreoffice.run_job(oxt, job)
    timings = result["timings"]
    print("LibreOffice timings:", json.dumps({k: round(v, 2) for k, v in timings.items()}))
    lo_numpy = result["python"]["numpy"]

    def seen(target, read):
        if target in read["arrays"]:
            return read["arrays"][target]
        return [[read["formulas"][target.split(":")[0]]]]

    problems = []
    for name, tokens, target, (_h, _w) in layout:
        want = _expected(name, tokens, lo_numpy)
        got = seen(target, result)
        if seen(target, result["reopened"]) != got:
            problems.append(f"{_formula(name, tokens)}: different after saving as .ods and reopening")
        if name in ("ELO_RATE", "ELO_HISTORY") and not lo_numpy:  # one message, in every cell of the table's room
            got = [[got[0][0]]]
        if got != want:
            problems.append(f"{_formula(name, tokens)} at {target}: LibreOffice {got!r} != Python {want!r}")
    assert not problems, "\n".join(problems)

    # typed as ELO_EXPECTED, kept in the file under the add-in's own name
    assert result["stored"]["A20"].startswith("=ORG.XLELO.XLELOADDIN.ELOEXPECTED(")
    # the function wizard: every function, its help, which arguments may be left out
    wizard = result["wizard"]
    assert set(wizard) == {f.name for f in FUNCTIONS}
    for f in FUNCTIONS:
        entry = wizard[f.name]
        assert entry["description"] == f.description
        assert [a[0] for a in entry["arguments"]] == [a.name for a in f.args]
        assert [a[2] for a in entry["arguments"]] == [a.optional for a in f.args]
    assert {n for n, *_ in CASES} == {f.name for f in FUNCTIONS}  # every function, in several shapes

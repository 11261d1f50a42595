"""Drive a headless LibreOffice over UNO: fill a sheet, recalculate, read back.

Run with a Python that has LibreOffice's ``uno`` module (Debian: ``/usr/bin/python3`` with
``python3-uno``), not xl-elo's: ``python3 unoclient.py PIPE JOB.json RESULT.json``. It imports
nothing of xl_elo. The job says what to type where::

    {"values": {"A2": 1500, "C2": "abc"},                 # input cells (numbers, texts)
     "formulas": {"E2": "=ELO_EXPECTED(A2;B2)"},          # typed as a user types them
     "arrays": {"G2:G6": "=ELO_EXPECTED(A2:A6;B2:B6)"},   # entered as array formulas
     "save_as": "/abs/saved.ods"}                        # optional: save, reopen, read again

The result has, for every formula, what Calc shows: a number, a text, or {"error": code}; for
every array its rows; the function wizard's entries of the add-in's functions; timings.
Used by tests/test_addin.py; ``xl_elo.frontends.addin.libreoffice`` starts LibreOffice around it.
"""

import contextlib
import json
import sys
import time

import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException


def _pv(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def connect(pipe, timeout=60.0):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    start = time.time()
    while True:
        try:
            return resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
        except NoConnectException:
            if time.time() - start > timeout:
                raise
            time.sleep(0.05)


def _cell(c):
    err = c.getError()
    if err:
        return {"error": err}
    kind = c.FormulaResultType2 if c.getType().value == "FORMULA" else None
    if kind == 2 or c.getType().value == "TEXT":  # com.sun.star.sheet.FormulaResult.STRING
        return c.getString()
    return c.getValue()


def _read(sheet, job):
    out = {"formulas": {}, "arrays": {}, "stored": {}}
    for addr in job.get("formulas", {}):
        c = sheet.getCellRangeByName(addr)
        out["formulas"][addr] = _cell(c)
        out["stored"][addr] = c.getFormula()
    for rng in job.get("arrays", {}):
        r = sheet.getCellRangeByName(rng)
        rows = []
        for y in range(r.Rows.Count):
            rows.append([_cell(r.getCellByPosition(x, y)) for x in range(r.Columns.Count)])
        out["arrays"][rng] = rows
    return out


def run(pipe, job):
    timings = {}
    t0 = time.time()
    ctx = connect(pipe)
    timings["connect"] = time.time() - t0

    smgr = ctx.ServiceManager
    desktop = smgr.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    doc = desktop.loadComponentFromURL("private:factory/scalc", "_blank", 0, (_pv("Hidden", True),))
    sheet = doc.Sheets.getByIndex(0)
    for addr, value in job.get("values", {}).items():
        c = sheet.getCellRangeByName(addr)
        if isinstance(value, str):
            c.setString(value)
        else:
            c.setValue(float(value))
    t = time.time()
    for addr, formula in job.get("formulas", {}).items():
        sheet.getCellRangeByName(addr).setFormula(formula)
    for rng, formula in job.get("arrays", {}).items():
        sheet.getCellRangeByName(rng).setArrayFormula(formula)
    doc.calculateAll()
    timings["calculate"] = time.time() - t
    result = _read(sheet, job)

    fd = smgr.createInstanceWithContext("com.sun.star.sheet.FunctionDescriptions", ctx)
    wizard = {}
    for i in range(fd.getCount()):
        props = {p.Name: p.Value for p in fd.getByIndex(i)}
        if props.get("Name") in job.get("functions", ()):
            wizard[props["Name"]] = {
                "category": props.get("Category"), "description": props.get("Description"),
                "arguments": [[a.Name, a.Description, a.IsOptional] for a in props.get("Arguments", ())]}
    result["wizard"] = wizard

    if job.get("save_as"):
        t = time.time()
        url = uno.systemPathToFileUrl(job["save_as"])
        doc.storeToURL(url, (_pv("FilterName", "calc8"),))
        doc.close(True)
        doc = desktop.loadComponentFromURL(url, "_blank", 0, (_pv("Hidden", True),))
        doc.calculateAll()
        result["reopened"] = _read(doc.Sheets.getByIndex(0), job)
        timings["save_and_reopen"] = time.time() - t
    doc.close(True)
    import importlib.util
    import platform

    result["python"] = {"version": platform.python_version(), "numpy": importlib.util.find_spec("numpy") is not None}
    timings["total"] = time.time() - t0
    result["timings"] = timings
    with contextlib.suppress(Exception):
        desktop.terminate()
    return result


if __name__ == "__main__":
    with open(sys.argv[2], encoding="utf-8") as f:
        job = json.load(f)
    res = run(sys.argv[1], job)
    with open(sys.argv[3], "w", encoding="utf-8") as f:
        json.dump(res, f, indent=1)

"""Start-up: the heap with everything lnr.main imports and lnr.make's display objects built, the
moment before lnr.make is dropped (MAKE bytes, stand-in display objects and the interned-name
pools' room for names to come taken out, as in vm/session.py).

    argv: the stand-ins' sizes (comma-separated, from the session's UNIT)
"""
import sys

import mpvm

from tools.membudget.vm.prelude import live, qstr_slack, standin_bytes, standins


async def main():
    standins(("displayio", "terminalio"))
    unit = [int(x) for x in sys.argv[1].split(",")]
    q0 = qstr_slack()
    base = await live()
    import lnr.main  # noqa: F401 - what start-up has loaded when lnr.make runs
    from lnr import make, sheet

    parts = make.build(sheet.new())  # the stand-in's sheet holds no pixels: none to read
    b = await live()
    print("MAKE", b - base - standin_bytes(unit) - (qstr_slack() - q0))
    return parts


mpvm.run(main())

"""Dresses the VM as the CircuitPython board of `cfg` (tools/flash/fakeboard.py's config): the
stand-ins of the modules a PyBadge has built in (tools/standins: board, keypad, storage,
microcontroller and supervisor set to its board, held keys, drive and NVM, whose bytes the host
keeps across resets as flash keeps them; displayio, terminalio, analogio and the C modules under
the neopixel library, for the game's start-up: tools/flash/boardcheck.py); sys.implementation
and time as CircuitPython's;
os and open() with CircuitPython's errno numbers and a read-only CIRCUITPY until boot.py
remounts it; no machine, js or hashlib modules unless the firmware has them."""
import builtins
import os
import sys
from binascii import hexlify, unhexlify  # the VM's own, before _imports() may hide crc32

import _fbjs
import _fb_sys
import _fb_time
from standins import NAMES, UNDER_NEOPIXEL, install

# This VM's filesystem reports Emscripten's errno numbers; CircuitPython reports these.
ERRNOS = {44: 2, 20: 17, 55: 39, 54: 20, 31: 21, 28: 22, 2: 13, 63: 1, 8: 9, 51: 28, 69: 30,
          29: 5}
SYSTEM = ("tmp", "home", "dev", "proc")  # the VM's own folders, not part of CIRCUITPY


def setup(cfg):
    parts = install(tuple(n for n in NAMES if n != "neopixel") + UNDER_NEOPIXEL)
    parts["board"].choose(cfg["board_id"])
    parts["keypad"].pending.extend([(k, True) for k in cfg["held"]])
    storage = parts["storage"]
    storage.in_boot = cfg["boot"]
    storage.writable = cfg["writable"]
    storage.on_remount = _fbjs.remount
    micro = parts["microcontroller"]
    micro.on_reset = _fbjs.reset
    micro.nvm = micro.Nvm(micro.NVM_SIZE, unhexlify(cfg["nvm"]))
    _fb_sys.implementation = _fb_sys.Implementation(tuple(cfg["version"]), cfg["machine"])
    sys.modules["sys"] = _fb_sys
    sys.modules["time"] = _fb_time
    _files(storage, cfg)
    _imports(cfg)


def nvm_hex():
    """Returns microcontroller.nvm's bytes in hex (tools/flash/fakeboard_vm.mjs asks after each
    program: the host keeps them across resets, as the board's flash keeps them)."""
    return hexlify(sys.modules["microcontroller"].nvm.data()).decode()


def _fix(f):
    def g(*a, **kw):
        try:
            return f(*a, **kw)
        except OSError as e:
            n = e.args[0] if e.args else 0
            if n in ERRNOS:
                raise OSError(ERRNOS[n])  # pylint: disable=raise-missing-from
            raise
    return g


def _files(storage, cfg):
    def check():
        if not storage.writable:
            raise OSError(30)

    _open = _fix(builtins.open)

    def open(file, mode="r", *args, **kw):  # pylint: disable=redefined-builtin
        for c in "wax+":
            if c in mode:
                check()
        return _open(file, mode, *args, **kw)

    builtins.open = open

    def guard(f):
        def g(*a):
            check()
            return f(*a)
        return g

    for n in ("mkdir", "remove", "rmdir", "rename"):
        setattr(os, n, guard(_fix(getattr(os, n))))
    for n in ("chdir", "listdir", "ilistdir", "stat"):
        setattr(os, n, _fix(getattr(os, n)))
    _stat = os.stat

    def stat(p):
        return tuple(_stat(p))[:10]

    os.stat = stat
    _ilistdir = os.ilistdir

    def ilistdir(p="."):
        for e in _ilistdir(p):
            if e[0] in SYSTEM and (p in ("/", "") or (p == "." and os.getcwd() == "/")):
                continue
            size = 0
            if e[1] & 0x8000:
                try:
                    size = _stat((p.rstrip("/") + "/" if p else "") + e[0])[6]
                except OSError:
                    pass
            yield (e[0], e[1], 0, size)

    os.ilistdir = ilistdir

    def listdir(p="."):
        return [e[0] for e in ilistdir(p)]

    os.listdir = listdir

    def used(p):
        n = 0
        for e in ilistdir(p):
            q = p.rstrip("/") + "/" + e[0]
            n += used(q) if e[1] & 0x4000 else (e[3] + 511) // 512 * 512
        return n

    capacity = cfg["capacity"]

    def statvfs(p):
        free = max(0, capacity - used("/")) // 512
        return (512, 512, capacity // 512, free, free, 0, 0, 0, 0, 255)

    os.statvfs = statvfs
    ver = ".".join([str(v) for v in cfg["version"]])

    class uname_result(tuple):  # pylint: disable=invalid-name
        pass

    def uname():
        r = uname_result(("samd51", "samd51", ver, ver + " on 2025-10-17", cfg["machine"]))
        r.sysname, r.nodename, r.release, r.version, r.machine = r
        return r

    os.uname = uname
    if not hasattr(os, "sync"):
        os.sync = lambda: None


def _imports(cfg):
    blocked = ["machine", "js", "jsffi", "pyscript"]
    subst = {}
    if cfg["hash"] == "sha256":
        import _fb_hashlib

        subst["hashlib"] = _fb_hashlib
    else:
        blocked.append("hashlib")
    if cfg["hash"] != "crc32":
        import _fb_binascii

        subst["binascii"] = _fb_binascii
    _imp = builtins.__import__

    def imp(name, *a):
        if name in blocked:
            raise ImportError("no module named '%s'" % name)
        m = subst.get(name)
        if m is not None:
            return m
        return _imp(name, *a)

    builtins.__import__ = imp

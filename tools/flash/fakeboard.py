"""An emulated CircuitPython board on a pseudo-terminal: flashing tests without hardware.

    python -m tools.flash.fakeboard DRIVE_DIR [--version 10.0.3] [--board pybadge] [--hold SELECT]
                                        [--hash none|crc32|sha256] [--log FILE] [--nvm FILE]

prints `PORT /dev/pts/N` and serves until killed. Any serial client (mpremote,
tools.flash.deploy, a terminal) sees what a USB-connected PyBadge shows: code.py "running" after
power-up, Ctrl-C, "Press any key to enter the REPL", the friendly REPL, and the raw REPL exactly
as CircuitPython 10's supervisor (main.c) and pyexec.c speak it: the "raw REPL; CTRL-B to exit"
banner, OK / output / \\x04 / error / \\x04 / ">", raw-paste mode with flow control, soft reboot
("soft reboot", and straight back to the raw REPL when it was in raw mode, without running
code.py).

The code the client sends runs on the real MicroPython VM (tools/flash/fakeboard_vm.mjs, the same
WebAssembly VM as tools/vm/mpvm, started through it), dressed as CircuitPython:
sys.implementation says 'circuitpython', no `machine` module, no hashlib (the SAMD51 build has
none), and the stand-ins of `board`, `keypad`, `storage`, `microcontroller`, `supervisor`
(tools/standins, set up by tools/flash/fakeboard_vm/_fb_setup.py). DRIVE_DIR stands for CIRCUITPY: the VM's files are mirrored
to it after every execution.

At power-up (start, SIGUSR1 = the RESET button, or microcontroller.reset()) boot.py runs as on
the board: CIRCUITPY starts read-only to code, `storage.remount("/", readonly=False)` in boot.py
makes it writable, keys given with --hold are held down. microcontroller.nvm holds 8192 bytes
(erased: 0xFF) that survive resets as the board's flash does; --nvm FILE keeps them in FILE.

Not emulated: code.py is not run (there is no display here; the simulator runs the game), and a
running program can't be interrupted with Ctrl-C while the VM executes a raw-REPL command.
"""

import json
import os
import select
import signal
import struct
import subprocess
import sys
import tty
from pathlib import Path

from tools import cli
from tools.sim.parts import nvm_problem
from tools.vm import mpvm

HERE = Path(__file__).resolve().parent
VM_JS = HERE / "fakeboard_vm.mjs"

KEYS = {"B": 0, "A": 1, "START": 2, "SELECT": 3, "RIGHT": 4, "DOWN": 5, "UP": 6, "LEFT": 7}
MACHINES = {
    "pybadge": "Adafruit PyBadge with samd51j19",
    "pygamer": "Adafruit PyGamer with samd51j20",
}
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
CTRL_A, CTRL_B, CTRL_C, CTRL_D, CTRL_E = 1, 2, 3, 4, 5
RAW_PASTE_WINDOW = 128  # MICROPY_REPL_STDIN_BUFFER_MAX (256) / 2


class VM:
    """Client of tools/flash/fakeboard_vm.mjs: one MicroPython VM at a time over DRIVE_DIR."""

    def __init__(self, root):
        why = mpvm.missing()
        if why:
            raise RuntimeError(f"fakeboard needs the MicroPython VM: {why}")
        self.proc = subprocess.Popen(mpvm.node(VM_JS, root), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE)

    def _send(self, kind, payload):
        body = payload.encode() if isinstance(payload, str) else payload
        self.proc.stdin.write(kind.encode() + struct.pack("<I", len(body)) + body)
        self.proc.stdin.flush()

    def _recv(self):
        head = self.proc.stdout.read(5)
        if len(head) < 5:
            raise RuntimeError("the MicroPython VM process ended")
        n = struct.unpack("<I", head[1:])[0]
        return head[:1].decode(), self.proc.stdout.read(n)

    def _finish(self, on_output):
        while True:
            kind, body = self._recv()
            if kind == "O":
                on_output(body)
            elif kind == "F":
                return json.loads(body)

    def new(self, cfg):
        self._send("V", json.dumps(cfg))
        return self._finish(lambda b: None)

    def run(self, source, on_output):
        """Returns {"err": text, "reset": bool, "writable": bool}; output goes to on_output."""
        self._send("X", source)
        return self._finish(on_output)

    def close(self):
        try:
            self._send("Q", b"")
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class FakeBoard:
    """The supervisor and REPL of a CircuitPython board, on the master side of a pty."""

    def __init__(self, root, version=(10, 0, 3), board="pybadge", held=(), hash="none",
                 capacity=2 * 1024 * 1024 - 128 * 1024, log=None, nvm=None):
        self.root = Path(root)
        self.version = tuple(version)
        self.board = board
        self.machine = MACHINES[board]
        self.held = sorted(KEYS[k.upper()] for k in held)
        self.hash = hash
        self.capacity = capacity
        self.log_path = log
        self.nvm_path = nvm
        self.nvm = b"\xff" * 8192
        if nvm and os.path.exists(nvm):
            with open(nvm, "rb") as f:
                self.nvm = (f.read() + self.nvm)[:8192]
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.port = os.ttyname(self.slave)
        self.pending = b""
        self.vm = VM(self.root)
        self.writable = False
        self.raw_mode = False  # pyexec_mode_kind: survives soft reboots
        self.reset_requested = False
        self.info = (f"Adafruit CircuitPython {'.'.join(map(str, self.version))} on 2025-10-17; "
                     f"{self.machine}").encode()

    # ---- plumbing -----------------------------------------------------------------------------
    def log(self, event, **kw):
        if self.log_path:
            with open(self.log_path, "a") as f:
                f.write(json.dumps(dict(event=event, **kw)) + "\n")

    def out(self, data):
        """Queues bytes for the host; a host that doesn't read loses the oldest output."""
        self.pending = (self.pending + data)[-65536:]
        self._drain()

    def cooked(self, data):
        # CircuitPython's stdout turns "\n" into "\r\n" (mp_hal_stdout_tx_strn_cooked).
        self.out(data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))

    def _drain(self):
        while self.pending:
            try:
                n = os.write(self.master, self.pending)
            except BlockingIOError:
                r, w, _ = select.select([], [self.master], [], 0.05)
                if not w:
                    return
                continue
            self.pending = self.pending[n:]

    def cfg(self, boot=False):
        return {"version": list(self.version), "machine": self.machine, "board_id": self.board,
                "held": self.held, "hash": self.hash, "capacity": self.capacity,
                "writable": self.writable, "boot": boot, "nvm": self.nvm.hex()}

    def keep_nvm(self, r):
        """Keeps what a program left in microcontroller.nvm (flash: it survives resets)."""
        if r.get("nvm") and bytes.fromhex(r["nvm"]) != self.nvm:
            self.nvm = bytes.fromhex(r["nvm"])
            if self.nvm_path:
                with open(self.nvm_path, "wb") as f:
                    f.write(self.nvm)

    def run(self, source):
        r = self.vm.run(source, self.cooked)
        self.writable = r["writable"]
        self.keep_nvm(r)
        return r

    # ---- the supervisor (main.c) ---------------------------------------------------------------
    def power_up(self):
        """Power-up or hard reset: boot.py, then code.py."""
        self.log("power-up")
        self.writable = False  # CIRCUITPY is writable by USB, read-only to code, until boot.py
        self.raw_mode = False
        boot = self.root / "boot.py"
        if boot.is_file():
            self.vm.new(self.cfg(boot=True))
            # boot.py's output goes to boot_out.txt on a real board, not to the serial port.
            r = self.vm.run(boot.read_text(), lambda b: None)
            self.writable = r["writable"]
            self.keep_nvm(r)
            self.log("boot.py", writable=self.writable, error=r["err"])
        self.code_py()

    def code_py(self):
        self.out(b"\r\nAuto-reload is on. Simply save files over USB to run them or enter REPL "
                 b"to disable.\r\n")
        for name in ("code.txt", "code.py", "main.py", "main.txt"):
            if (self.root / name).is_file():
                self.out(name.encode() + b" output:\r\n")
                self.state = "running"
                self.log("code.py", file=name)
                return
        self.log("code.py", file=None)
        self.code_done()

    def code_done(self):
        self.out(b"\r\nCode done running.\r\n\r\nPress any key to enter the REPL. "
                 b"Use CTRL-D to reload.\r\n")
        self.state = "wait"

    def soft_reboot(self):
        self.log("soft-reboot")
        self.out(b"soft reboot\r\n")
        if self.raw_mode:
            self.start_repl()
        else:
            self.code_py()

    def start_repl(self):
        """run_repl(): a fresh VM, then the raw or the friendly REPL."""
        self.vm.new(self.cfg())
        self.line = bytearray()
        if self.raw_mode:
            self.log("raw-repl")
            self.out(RAW_BANNER + b">")
            self.state = "raw"
        else:
            self.out(b"\r\n" + self.info + b"\r\n>>> ")
            self.state = "friendly"

    # ---- input -----------------------------------------------------------------------------------
    def feed(self, c):
        getattr(self, "on_" + self.state)(c)
        if self.reset_requested:
            self.reset_requested = False
            self.power_up()

    def on_running(self, c):
        if c == CTRL_C:
            self.cooked(b"Traceback (most recent call last):\n  File \"code.py\", line 1, in "
                        b"<module>\nKeyboardInterrupt: \n")
            self.code_done()
        elif c == CTRL_D:
            self.soft_reboot()

    def on_wait(self, c):
        if c == CTRL_D:
            self.soft_reboot()
        else:
            self.start_repl()

    def on_friendly(self, c):
        if c == CTRL_A:
            self.out(b"\r\n")
            self.raw_mode = True
            self.start_repl()
        elif c == CTRL_B:
            self.out(b"\r\n\r\n" + self.info + b"\r\n>>> ")
            self.line = bytearray()
        elif c == CTRL_C:
            self.out(b"\r\n>>> ")
            self.line = bytearray()
        elif c == CTRL_D:
            if not self.line:
                self.out(b"\r\n")
                self.soft_reboot()
        elif c in (10, 13):
            self.out(b"\r\n")
            src = bytes(self.line).decode("utf-8", "replace")
            self.line = bytearray()
            if src.strip():
                r = self.run(_single(src))
                if r["err"]:
                    self.cooked(r["err"].encode() + b"\n")
                if r["reset"]:
                    self.reset_requested = True
                    return
            self.out(b">>> ")
        elif c in (8, 127):
            if self.line:
                self.line.pop()
                self.out(b"\x08 \x08")
        elif c >= 32:
            self.line.append(c)
            self.out(bytes([c]))

    def on_raw(self, c):
        if c == CTRL_A:
            if len(self.line) == 2 and self.line[0] == CTRL_E:
                if self.line[1] != ord("A"):
                    self.out(b"R\x00>")
                    self.line = bytearray()
                    return
                self.out(b"R\x01" + struct.pack("<H", RAW_PASTE_WINDOW) + b"\x01")
                self.line = bytearray()
                self.window = RAW_PASTE_WINDOW
                self.state = "paste"
                return
            self.out(RAW_BANNER + b">")
            self.line = bytearray()
        elif c == CTRL_B:
            self.out(b"\r\n")
            self.raw_mode = False
            self.start_repl()
        elif c == CTRL_C:
            self.line = bytearray()
        elif c == CTRL_D:
            self.out(b"OK")
            if not self.line:
                self.out(b"\r\n")
                self.soft_reboot()
                return
            self.execute(bytes(self.line))
        else:
            self.line.append(c)

    def on_paste(self, c):
        if c == CTRL_D:
            self.out(b"\x04")
            self.state = "raw"
            self.execute(bytes(self.line))
        elif c == CTRL_C:
            self.out(b"\x04\x04")
            self.cooked(b"Traceback (most recent call last):\n  File \"<stdin>\", line 1\n"
                        b"KeyboardInterrupt: \n")
            self.out(b"\x04>")
            self.line = bytearray()
            self.state = "raw"
        else:
            self.line.append(c)
            self.window -= 1
            if self.window == 0:
                self.out(b"\x01")
                self.window = RAW_PASTE_WINDOW

    def execute(self, source):
        """parse_compile_execute with EXEC_FLAG_PRINT_EOF, then the raw REPL's prompt."""
        self.log("exec", bytes=len(source))
        self.line = bytearray()
        r = self.run(source.decode("utf-8", "replace"))
        if r["reset"]:
            self.log("hard-reset")
            self.reset_requested = True  # the board drops off USB: nothing more is sent
            return
        self.out(b"\x04")
        if r["err"]:
            self.cooked(r["err"].encode())
        self.out(b"\x04>")

    # ---- main loop ----------------------------------------------------------------------------
    def serve(self, stop=lambda: False):
        self.power_up()
        self.button = False
        signal.signal(signal.SIGUSR1, self._press_reset)
        while not stop():
            if self.button:
                self.button = False
                self.log("reset-button")
                self.power_up()
            r, _, _ = select.select([self.master], [self.master] if self.pending else [], [], 0.05)
            self._drain()
            if not r:
                continue
            try:
                data = os.read(self.master, 4096)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                break
            for c in data:
                self.feed(c)

    def _press_reset(self, *_):
        self.button = True

    def close(self):
        self.vm.close()
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


def _single(line):
    """Source that runs one friendly-REPL line, printing an expression's value."""
    return ("try:\n _fb_c = compile(%r, '<stdin>', 'eval')\nexcept SyntaxError:\n"
            " exec(%r)\nelse:\n _fb_v = eval(_fb_c)\n if _fb_v is not None:\n  print(repr(_fb_v))\n"
            % (line, line))


def version_number(text):
    """The argument type of --version: MAJOR.MINOR.MICRO, each a number below 1000."""
    parts = text.split(".")
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() and len(p) <= 3 for p in parts):
        raise ValueError(text)
    return tuple(int(p) for p in parts)


version_number.__name__ = "version (MAJOR.MINOR.MICRO)"


def our_log(path):
    """Returns True if the file at `path` is a log a fake board wrote (its first line one of
    its JSON events)."""
    line = cli.head(path).split(b"\n", 1)[0]
    try:
        return "event" in json.loads(line.decode("utf-8"))
    except (ValueError, TypeError):
        return False


def main(argv=None):
    ap = cli.Parser(prog="python -m tools.flash.fakeboard", description=__doc__.split("\n\n")[0])
    ap.add_output("root", folder=True, mine=None, help="folder standing for the CIRCUITPY drive")
    ap.add_argument("--version", type=version_number, default=(10, 0, 3),
                    help="CircuitPython version (10.0.3)")
    ap.add_argument("--board", choices=sorted(MACHINES), default="pybadge")
    ap.add_argument("--hold", action="append", default=[], choices=sorted(KEYS),
                    help="a key held down at power-up (repeatable)")
    ap.add_argument("--hash", choices=("none", "crc32", "sha256"), default="none",
                    help="checksum support on the board (PyBadge: none)")
    ap.add_argument("--capacity", type=cli.whole(64 * 1024, 16 * 1024 * 1024),
                    default=2 * 1024 * 1024 - 128 * 1024, help="size of CIRCUITPY in bytes")
    ap.add_output("--log", mine=our_log, help="append JSON events (power-up, exec, hard-reset...) "
                  "here")
    ap.add_argument("--nvm", help="keep microcontroller.nvm's 8192 bytes in this file")
    args = ap.parse_args(argv)
    problem = args.nvm is not None and nvm_problem(args.nvm, args.force)
    if problem:
        ap.error("--nvm %s: %s" % (args.nvm, problem))
    board = FakeBoard(args.root, args.version, args.board, args.hold, args.hash, args.capacity,
                      args.log, args.nvm)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    signal.signal(signal.SIGINT, lambda *_: stopping.append(1))
    print("PORT", board.port, flush=True)
    try:
        board.serve(stop=lambda: bool(stopping))
    finally:
        board.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

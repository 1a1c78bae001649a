// The Python VM behind tools/fakeboard.py: the real MicroPython VM (WebAssembly port 1.29,
// from tools/mpvm/node_modules) dressed as CircuitPython, with a host folder as CIRCUITPY.
//
//   node tools/fakeboard_vm.mjs ROOT
//
// fakeboard.py speaks the serial protocol (raw REPL, soft reboot, ...) and sends here only what
// the board would execute. Frames both ways: 1 byte kind, 4 bytes little-endian length, payload.
//   in  'V' JSON config   start a fresh VM (a CircuitPython soft reboot / reset)   -> 'F'
//   in  'X' source        execute in the current VM                                 -> 'O'* 'F'
//   out 'O' bytes         output while it runs
//   out 'F' JSON          {"err": traceback text or "", "reset": bool, "writable": bool,
//                          "nvm": microcontroller.nvm in hex if it was imported}
// After every execution the VM's files are mirrored back to ROOT, so ROOT is what the drive
// holds. The VM's own /tmp, /home, /dev and /proc are not part of CIRCUITPY.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MODULE = process.env.FAKEBOARD_MP_MODULE || path.join(HERE, "mpvm", "node_modules",
  "@micropython", "micropython-webassembly-pyscript", "micropython.mjs");
const SYSTEM = new Set(["tmp", "home", "dev", "proc"]);
const STANDINS = "/tmp/_fb";

const root = process.argv[2];
if (!root || !fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
  process.stderr.write("usage: fakeboard_vm.mjs ROOT (an existing folder)\n");
  process.exit(2);
}
const { loadMicroPython } = await import(MODULE);

// ---- framing ------------------------------------------------------------------------------
function send(kind, payload) {
  const body = typeof payload === "string" ? Buffer.from(payload, "utf8") : Buffer.from(payload);
  const head = Buffer.alloc(5);
  head.write(kind, 0, "latin1");
  head.writeUInt32LE(body.length, 1);
  writeAll(Buffer.concat([head, body]));
}
function writeAll(buf) {
  let off = 0;
  while (off < buf.length) {
    try {
      off += fs.writeSync(1, buf, off);
    } catch (e) {
      if (e.code !== "EAGAIN") throw e;
    }
  }
}
function readExactly(n) {
  const buf = Buffer.alloc(n);
  let off = 0;
  while (off < n) {
    let got;
    try {
      got = fs.readSync(0, buf, off, n - off, null);
    } catch (e) {
      if (e.code === "EAGAIN") { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2); continue; }
      if (e.code === "EOF") return null;
      throw e;
    }
    if (got === 0) return null;
    off += got;
  }
  return buf;
}

// ---- output: buffered so a run's output goes out in few frames, in order -------------------
let outBuf = [];
function put(bytes) {
  for (const c of bytes) outBuf.push(c);
  if (outBuf.length >= 512) flush();
}
function flush() {
  if (outBuf.length) send("O", Buffer.from(outBuf));
  outBuf = [];
}

// ---- the host folder <-> the VM's filesystem ------------------------------------------------
let mp = null;
let cache = new Map();   // VM path -> bytes last mirrored to the host
let hostDirs = new Set(); // VM dirs mirrored to the host

function hostPath(p) {
  return path.join(root, ...p.split("/").filter(Boolean));
}
function loadTree(hostDir, vmDir) {
  for (const ent of fs.readdirSync(hostDir, { withFileTypes: true })) {
    if (vmDir === "" && SYSTEM.has(ent.name)) continue;
    const h = path.join(hostDir, ent.name);
    const v = vmDir + "/" + ent.name;
    if (ent.isDirectory()) {
      mp.FS.mkdir(v);
      hostDirs.add(v);
      loadTree(h, v);
    } else if (ent.isFile()) {
      const data = new Uint8Array(fs.readFileSync(h));
      mp.FS.writeFile(v, data);
      cache.set(v, Buffer.from(data));
    }
  }
}
function walkVM(dir, files, dirs) {
  for (const name of mp.FS.readdir(dir === "" ? "/" : dir)) {
    if (name === "." || name === "..") continue;
    if (dir === "" && SYSTEM.has(name)) continue;
    const p = dir + "/" + name;
    const st = mp.FS.stat(p);
    if (mp.FS.isDir(st.mode)) {
      dirs.push(p);
      walkVM(p, files, dirs);
    } else if (mp.FS.isFile(st.mode)) {
      files.push(p);
    }
  }
}
function syncToHost() {
  const files = [];
  const dirs = [];
  walkVM("", files, dirs);
  const seenDirs = new Set(dirs);
  for (const d of dirs) {
    if (!hostDirs.has(d)) {
      fs.mkdirSync(hostPath(d), { recursive: true });
      hostDirs.add(d);
    }
  }
  const seen = new Set(files);
  for (const f of files) {
    const data = Buffer.from(mp.FS.readFile(f));
    const old = cache.get(f);
    if (!old || !old.equals(data)) {
      fs.writeFileSync(hostPath(f), data);
      cache.set(f, data);
    }
  }
  for (const f of [...cache.keys()]) {
    if (!seen.has(f)) {
      fs.rmSync(hostPath(f), { force: true });
      cache.delete(f);
    }
  }
  for (const d of [...hostDirs].sort((a, b) => b.length - a.length)) {
    if (!seenDirs.has(d)) {
      fs.rmSync(hostPath(d), { recursive: true, force: true });
      hostDirs.delete(d);
    }
  }
}

// ---- CircuitPython stand-ins ------------------------------------------------------------------
const state = { reset: false, writable: false };

const FILES = {
  "_fb.py": `# Fake-board state shared by the stand-in modules.
import _fbjs
writable = False
boot = False
`,
  "_fb_sys.py": `from sys import *
import sys as _s
modules = _s.modules
path = _s.path
argv = _s.argv
class _Impl:
    def __init__(self, version, machine):
        self.name = 'circuitpython'
        self.version = version
        self._machine = machine
        self._mpy = 0
    def __repr__(self):
        return "(name='circuitpython', version=%r, _machine=%r)" % (self.version, self._machine)
implementation = None
`,
  "board.py": `# Pins of the board (names as in circuitpython-stubs' board definitions).
import _fb
class Pin:
    def __init__(self, name):
        self._name = name
    def __repr__(self):
        return 'board.' + self._name
board_id = _fb.board_id
for _n in ('BUTTON_CLOCK', 'BUTTON_OUT', 'BUTTON_LATCH', 'NEOPIXEL', 'SPEAKER', 'SPEAKER_ENABLE',
           'LIGHT', 'A0', 'A1', 'D13', 'TFT_LITE'):
    globals()[_n] = Pin(_n)
if board_id == 'pygamer':
    JOYSTICK_X = Pin('JOYSTICK_X')
    JOYSTICK_Y = Pin('JOYSTICK_Y')
del _n
`,
  "keypad.py": `# keypad.ShiftRegisterKeys wired to the held keys the fake board was started with.
import _fb
import board
class Event:
    def __init__(self, key_number=0, pressed=True, timestamp=None):
        self.key_number = key_number
        self.pressed = pressed
        self.released = not pressed
        self.timestamp = 0
class EventQueue:
    def __init__(self):
        self._q = []
        self.overflowed = False
    def get(self):
        return self._q.pop(0) if self._q else None
    def get_into(self, event):
        if not self._q:
            return False
        e = self._q.pop(0)
        event.key_number = e.key_number
        event.pressed = e.pressed
        event.released = e.released
        return True
    def clear(self):
        self._q = []
    def __len__(self):
        return len(self._q)
    def __bool__(self):
        return bool(self._q)
class ShiftRegisterKeys:
    def __init__(self, *, clock, data, latch, key_count, value_when_pressed, value_to_latch=True,
                 interval=0.02, max_events=64, debounce_threshold=1):
        if (clock is not board.BUTTON_CLOCK or data is not board.BUTTON_OUT
                or latch is not board.BUTTON_LATCH):
            raise ValueError('not the button shift register pins')
        if value_when_pressed is not True:
            raise ValueError('these buttons read high when pressed')
        self.key_count = key_count
        self.events = EventQueue()
        for k in _fb.held:
            if k < key_count:
                self.events._q.append(Event(k, True))
    def deinit(self):
        self.events = None
    def reset(self):
        pass
`,
  "storage.py": `import _fb
class _Mount:
    @property
    def readonly(self):
        return not _fb.writable
def remount(mount_path, readonly=False, *, disable_concurrent_write_protection=False):
    if mount_path != '/':
        raise OSError(22)
    if not _fb.boot:
        raise RuntimeError("Cannot remount '/' when visible via USB.")
    _fb.writable = not readonly
    _fb._fbjs.remount(bool(readonly))
def getmount(mount_path):
    return _Mount()
def disable_usb_drive():
    pass
def enable_usb_drive():
    pass
`,
  "microcontroller.py": `import _fb
class RunMode:
    NORMAL = 0
    SAFE_MODE = 1
    UF2 = 2
    BOOTLOADER = 3
nvm = bytearray(_fb.nvm)  # 8192 bytes, kept by fakeboard.py across resets as flash is
def on_next_reset(run_mode):
    pass
def reset():
    _fb._fbjs.reset()
    raise SystemExit(0)
`,
  "supervisor.py": `class _Runtime:
    usb_connected = True
    serial_connected = True
    serial_bytes_available = 0
runtime = _Runtime()
def reload():
    raise SystemExit(0)
`,
  "_fb_hashlib.py": `# CircuitPython's hashlib API: new(name) only.
import hashlib as _h
def new(name, data=b''):
    if name != 'sha256':
        raise ValueError('Unsupported hash algorithm')
    o = _h.sha256()
    if data:
        o.update(data)
    return o
`,
  "_fb_binascii.py": `# binascii without crc32.
from binascii import a2b_base64, b2a_base64, hexlify, unhexlify
`,
};

// Run in __main__ at each VM start, then its names are deleted.
const PRELUDE = `
import sys, os, builtins, json
_cfg = json.loads(_fb_cfg)
del _fb_cfg
sys.path[:] = ['${STANDINS}', '', '/', '.frozen', '/lib']
import _fb
_fb.writable = _cfg['writable']
_fb.boot = _cfg['boot']
_fb.held = _cfg['held']
_fb.board_id = _cfg['board_id']
_fb.capacity = _cfg['capacity']
import binascii
_fb.nvm = binascii.unhexlify(_cfg['nvm'])
del binascii
import _fb_sys
_fb_sys.implementation = _fb_sys._Impl(tuple(_cfg['version']), _cfg['machine'])
sys.modules['sys'] = _fb_sys

def _fb_setup(cfg):
    import _fb as fb
    # This VM's filesystem reports Emscripten's errno numbers; CircuitPython reports these.
    errnos = {44: 2, 20: 17, 55: 39, 54: 20, 31: 21, 28: 22, 2: 13, 63: 1, 8: 9, 51: 28,
              69: 30, 29: 5}
    def fix(f):
        def g(*a, **kw):
            try:
                return f(*a, **kw)
            except OSError as e:
                n = e.args[0] if e.args else 0
                if n in errnos:
                    raise OSError(errnos[n])
                raise
        return g
    def check():
        if not fb.writable:
            raise OSError(30)
    _open = fix(builtins.open)
    def open(file, mode='r', *args, **kw):
        for c in 'wax+':
            if c in mode:
                check()
        return _open(file, mode, *args, **kw)
    builtins.open = open
    def guard(f):
        def g(*a):
            check()
            return f(*a)
        return g
    for n in ('mkdir', 'remove', 'rmdir', 'rename'):
        setattr(os, n, guard(fix(getattr(os, n))))
    for n in ('chdir', 'listdir', 'ilistdir', 'stat'):
        setattr(os, n, fix(getattr(os, n)))
    _stat = os.stat
    def stat(p):
        return tuple(_stat(p))[:10]
    os.stat = stat
    _ilistdir = os.ilistdir
    def ilistdir(p='.'):
        for e in _ilistdir(p):
            if e[0] in ('tmp', 'home', 'dev', 'proc') and (
                    p in ('/', '') or (p == '.' and os.getcwd() == '/')):
                continue
            size = 0
            if e[1] & 0x8000:
                try:
                    size = _stat((p.rstrip('/') + '/' if p else '') + e[0])[6]
                except OSError:
                    pass
            yield (e[0], e[1], 0, size)
    os.ilistdir = ilistdir
    def listdir(p='.'):
        return [e[0] for e in ilistdir(p)]
    os.listdir = listdir
    def used(p):
        n = 0
        for e in ilistdir(p):
            q = p.rstrip('/') + '/' + e[0]
            n += used(q) if e[1] & 0x4000 else (e[3] + 511) // 512 * 512
        return n
    def statvfs(p):
        free = max(0, fb.capacity - used('/')) // 512
        return (512, 512, fb.capacity // 512, free, free, 0, 0, 0, 0, 255)
    os.statvfs = statvfs
    ver = '.'.join([str(v) for v in cfg['version']])
    class uname_result(tuple):
        pass
    def uname():
        r = uname_result(('samd51', 'samd51', ver, ver + ' on 2025-10-17', cfg['machine']))
        r.sysname, r.nodename, r.release, r.version, r.machine = r
        return r
    os.uname = uname
    if not hasattr(os, 'sync'):
        os.sync = lambda: None
    blocked = ['machine', 'js', 'jsffi', 'pyscript']
    subst = {}
    if cfg['hash'] == 'sha256':
        import _fb_hashlib
        subst['hashlib'] = _fb_hashlib
    else:
        blocked.append('hashlib')
    if cfg['hash'] != 'crc32':
        import _fb_binascii
        subst['binascii'] = _fb_binascii
    _imp = builtins.__import__
    def imp(name, *a):
        if name in blocked:
            raise ImportError("no module named '%s'" % name)
        m = subst.get(name)
        if m is not None:
            return m
        return _imp(name, *a)
    builtins.__import__ = imp

_fb_setup(_cfg)
del _fb_setup, _cfg, sys, os, builtins, json, _fb, _fb_sys
`;

async function newVM(cfg) {
  mp = await loadMicroPython({ heapsize: cfg.heap || 192 * 1024, linebuffer: false, stdout: put, stderr: put });
  mp.registerJsModule("_fbjs", {
    reset: () => { state.reset = true; },
    remount: (readonly) => { state.writable = !readonly; },
  });
  mp.FS.mkdirTree(STANDINS);
  for (const [name, src] of Object.entries(FILES)) mp.FS.writeFile(STANDINS + "/" + name, src);
  cache = new Map();
  hostDirs = new Set();
  loadTree(root, "");
  state.writable = cfg.writable;
  mp.globals.set("_fb_cfg", JSON.stringify(cfg));
  mp.runPython(PRELUDE);
  outBuf = [];
}

// The NVM as the program left it (hex), if it imported microcontroller; else "".
function nvmHex() {
  mp.runPython("import sys as _fb_s\n_fb_m = _fb_s.modules.get('microcontroller')\n" +
    "import binascii as _fb_b\n_fb_h = _fb_b.hexlify(_fb_m.nvm).decode() if _fb_m else ''\n" +
    "del _fb_s, _fb_m, _fb_b");
  return mp.globals.get("_fb_h");
}

function execute(source) {
  state.reset = false;
  let err = "";
  mp.globals.set("_fb_src", source);
  try {
    mp.runPython("exec(compile(_fb_src, '<stdin>', 'exec'))");
  } catch (e) {
    err = String(e.message || e);
  }
  // A reset ends the program with SystemExit; its text is not an error the host sees.
  if (state.reset) err = "";
  flush();
  try {
    syncToHost();
  } catch (e) {
    err += `\n[fakeboard: mirroring to ${root} failed: ${e.message}]`;
  }
  return err;
}

for (;;) {
  const head = readExactly(5);
  if (head === null) break;
  const kind = String.fromCharCode(head[0]);
  const n = head.readUInt32LE(1);
  const body = n ? readExactly(n) : Buffer.alloc(0);
  if (body === null) break;
  if (kind === "V") {
    await newVM(JSON.parse(body.toString("utf8")));
    send("F", JSON.stringify({ err: "", reset: false, writable: state.writable }));
  } else if (kind === "X") {
    const err = execute(body.toString("utf8"));
    send("F", JSON.stringify({ err, reset: state.reset, writable: state.writable,
                               nvm: nvmHex() }));
  } else if (kind === "Q") {
    break;
  }
}
process.exit(0);

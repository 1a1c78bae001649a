// The Python VM behind tools/flash/fakeboard.py: the real MicroPython VM (WebAssembly port 1.29,
// loaded as tools/vm/mpvm/run.mjs loads it: tools/vm/mpvm/load.mjs) dressed as CircuitPython, with
// a host folder as CIRCUITPY. Not run.mjs itself: that runs one script to its end in one VM,
// while a board lives on across soft reboots (a fresh VM each, the drive and NVM kept) and
// executes what the serial client sends, piece by piece.
//
//   node tools/flash/fakeboard_vm.mjs ROOT
//
// fakeboard.py speaks the serial protocol (raw REPL, soft reboot, ...) and sends here only what
// the board would execute. Frames both ways: 1 byte kind, 4 bytes little-endian length, payload.
//   in  'V' JSON config   start a fresh VM (a CircuitPython soft reboot / reset)   -> 'F'
//   in  'X' source        execute in the current VM                                 -> 'O'* 'F'
//   out 'O' bytes         output while it runs
//   out 'F' JSON          {"err": traceback text or "", "reset": bool, "writable": bool,
//                          "nvm": microcontroller.nvm in hex, after an 'X'}
// After every execution the VM's files are mirrored back to ROOT, so ROOT is what the drive
// holds. The VM's own /tmp, /home, /dev and /proc are not part of CIRCUITPY: the Python that
// dresses the VM as CircuitPython (tools/flash/fakeboard_vm/*.py, tools/standins) lives in
// /tmp/_fb.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const LOADER = path.join(HERE, "..", "vm", "mpvm", "load.mjs");
const { loadMicroPython } = await import(pathToFileURL(LOADER));
const SYSTEM = new Set(["tmp", "home", "dev", "proc"]);
const STANDINS = "/tmp/_fb";

const root = process.argv[2];
if (!root || !fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
  process.stderr.write("usage: fakeboard_vm.mjs ROOT (an existing folder)\n");
  process.exit(2);
}

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
let inodes = new Map();  // VM path -> the inode mirrored from it
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
      mirrored(v);
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
// A file the VM has not written since it was last mirrored keeps the modification time 0 that
// mirroring gives it (MEMFS stamps every write with Date.now(); a truncation changes the size;
// a file renamed over it, as a flash swaps its staged files in, is another inode): only the
// others are read and compared, not the whole drive after every execution.
function unchanged(f) {
  const st = mp.FS.stat(f);
  return st.mtime.getTime() === 0 && inodes.get(f) === st.ino && cache.get(f)?.length === st.size;
}
function mirrored(f) {
  mp.FS.utime(f, 0, 0);
  inodes.set(f, mp.FS.stat(f).ino);
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
    if (unchanged(f)) continue;
    const data = Buffer.from(mp.FS.readFile(f));
    const old = cache.get(f);
    if (!old || !old.equals(data)) {
      fs.writeFileSync(hostPath(f), data);
      cache.set(f, data);
    }
    mirrored(f);
  }
  for (const f of [...cache.keys()]) {
    if (!seen.has(f)) {
      fs.rmSync(hostPath(f), { force: true });
      cache.delete(f);
      inodes.delete(f);
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

// The Python that dresses the VM as CircuitPython (tools/flash/fakeboard_vm/) and the stand-ins of
// the board's built-in modules (tools/standins, as a package `standins`), read from disk at start
// and written into STANDINS (outside CIRCUITPY) in every fresh VM.
function pyFiles(dir) {
  const out = {};
  for (const name of fs.readdirSync(dir)) {
    if (name.endsWith(".py") && name !== "__init__.py") out[name] = fs.readFileSync(path.join(dir, name));
  }
  return out;
}
const FILES = pyFiles(path.join(HERE, "fakeboard_vm"));
const STANDIN_FILES = pyFiles(path.join(HERE, "..", "standins"));
STANDIN_FILES["__init__.py"] = fs.readFileSync(path.join(HERE, "..", "standins", "__init__.py"));

// Run in __main__ at each VM start, then its names are deleted.
const PRELUDE = `
import sys, json
sys.path[:] = ['${STANDINS}', '', '/', '.frozen', '/lib']
import _fb_setup
_fb_setup.setup(json.loads(_fb_cfg))
del _fb_cfg, _fb_setup, sys, json
`;

async function newVM(cfg) {
  mp = await loadMicroPython({ heapsize: cfg.heap || 192 * 1024, linebuffer: false, stdout: put, stderr: put });
  mp.registerJsModule("_fbjs", {
    reset: () => { state.reset = true; },
    remount: (readonly) => { state.writable = !readonly; },
  });
  mp.FS.mkdirTree(STANDINS + "/standins");
  for (const [name, src] of Object.entries(FILES)) mp.FS.writeFile(STANDINS + "/" + name, src);
  for (const [name, src] of Object.entries(STANDIN_FILES)) mp.FS.writeFile(STANDINS + "/standins/" + name, src);
  cache = new Map();
  inodes = new Map();
  hostDirs = new Set();
  loadTree(root, "");
  state.writable = cfg.writable;
  mp.globals.set("_fb_cfg", JSON.stringify(cfg));
  mp.runPython(PRELUDE);
  outBuf = [];
}

// The NVM as the program left it (hex): tools/flash/fakeboard.py keeps it across resets, as flash
// is.
function nvmHex() {
  mp.runPython("import _fb_setup as _fb_x\n_fb_h = _fb_x.nvm_hex()\ndel _fb_x");
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

// Run a Python script on the real MicroPython VM (WebAssembly port, 1.29) under Node. Tools and
// tests start it through tools/vm/mpvm/__init__.py (python -m tools.vm.mpvm takes these options).
//
//   node tools/vm/mpvm/run.mjs [--heap BYTES] [--pystack BYTES] [--tree HOSTDIR[:VMDIR]]...
//                           SCRIPT.py [ARGS...]
//
// Why: CPython accepts code that MicroPython/CircuitPython rejects or runs differently;
// this runs host checks of the pure-Python engine on the VM family the device uses.
// Exit status: 0 on success; the SystemExit code; 1 (traceback on stderr) on any other error.
//
// Probed on 1.29.0-6 (pyscript variant, 32-bit like the SAMD51), `y` = works as on CPython:
//   from micropython import const    y; only _UNDERSCORE names vanish from module globals
//   del lst[:n], lst.pop(0)          y
//   b'ab'[0]                         y, int 97
//   object.__new__(cls)              y (no __init__); cls.__new__(cls) AttributeError unless
//                                    some class in the MRO defines __new__ itself
//   '%d' % x, str.format, f-strings  y; but str has no ljust/rjust/zfill: use '%-5s' / '{:>5}'
//   sys.implementation.name          'micropython' (CircuitPython: 'circuitpython')
//   gc.collect/mem_alloc/mem_free    exist, but see below; mem_free = heap left + 128 MiB the
//                                    heap may still grow by, so --heap changes only mem_free
//   json.dumps/loads                 y; separators= works, indent= and sort_keys= TypeError
//   list.sort(key=, reverse=)        y, but NOT stable (nor sorted()): equal keys reorder,
//                                    unlike CPython; break ties explicitly in the key
//   != with only __eq__ defined      y, falls back to `not __eq__`
//   small ints                       -2**30 <= n < 2**30; 2**30 is a heap long (32 B each);
//                                    3**20, 1 << 40 work (arbitrary precision)
//   time.ticks_ms/ticks_us/diff      y, but ticks_us has millisecond steps (JS clock)
//   assert                           executed (not stripped); int.bit_length missing
//   isinstance(True, int)            False: bool is not an int subclass here (True + 1 works)
//   recursion                        RuntimeError at depth ~150 (32 KiB C stack)
//   Python frames                    on the pystack (RuntimeError "pystack exhausted"), 8 KiB
//                                    unless --pystack: as on a CircuitPython board, whose
//                                    pystack is CIRCUITPY_PYSTACK_SIZE (tools/vm/pystack.py)
//
// Heap: this port cannot scan the wasm stack, so gc.collect() inside a script only sets a flag
// and nothing is freed until control is back in JS. Hence:
//   gc.collect(); a = gc.mem_alloc(); import X; gc.collect(); b = gc.mem_alloc()
// gives everything allocated during the import (compile garbage included, an upper bound on
// its peak), not what X keeps. Live cost, identical for any --heap:
//   import gc, mpvm
//   await mpvm.collect(); a = gc.mem_alloc(); import X; await mpvm.collect(); b = gc.mem_alloc()
// (top-level await is allowed in scripts run here, or a script ends with mpvm.run(main()) to have
// its coroutine awaited; `mpvm` exists only here). Long runs such as
// many-seed simulations must `await mpvm.collect()` now and then: without it the heap only
// grows, to MemoryError after about 1.8 GiB of allocations in total.

import fs from "node:fs";
import path from "node:path";

import { loadMicroPython } from "./load.mjs";

const USAGE = "usage: run.mjs [--heap BYTES] [--pystack BYTES] [--tree HOSTDIR[:VMDIR]]... SCRIPT.py [ARGS...]";

function fail(msg) {
  process.stderr.write(`run.mjs: ${msg}\n${USAGE}\n`);
  process.exit(2);
}

// Options stop at the first non-option so the script's own ARGS may start with "--".
let heap = 512 * 1024;
let pystackWords = 2048;  // the package's default: 8 KiB of 4-byte words
const trees = [];
const argv = process.argv.slice(2);
while (argv.length && argv[0].startsWith("--")) {
  const opt = argv.shift();
  if (opt === "--") break;
  if (!argv.length) fail(`${opt} needs a value`);
  const val = argv.shift();
  if (opt === "--heap") {
    heap = Number(val);
    if (!Number.isInteger(heap) || heap < 4096) fail(`bad --heap ${val}`);
  } else if (opt === "--pystack") {
    // Bytes, as CIRCUITPY_PYSTACK_SIZE; the VM takes whole 4-byte words.
    const bytes = Number(val);
    if (!Number.isInteger(bytes) || bytes < 256 || bytes % 4) fail(`bad --pystack ${val}`);
    pystackWords = bytes / 4;
  } else if (opt === "--tree") {
    // Split on the last ':' so HOSTDIR itself may not contain one, but VMDIR must start with '/'.
    const i = val.lastIndexOf(":");
    const host = i > 0 ? val.slice(0, i) : val;
    const vm = i > 0 ? val.slice(i + 1) : "/" + path.basename(path.resolve(host));
    if (!vm.startsWith("/")) fail(`VMDIR must be absolute: ${val}`);
    if (!fs.statSync(host, { throwIfNoEntry: false })?.isDirectory()) fail(`not a directory: ${host}`);
    trees.push([host, vm]);
  } else {
    fail(`unknown option ${opt}`);
  }
}
if (!argv.length) fail("no script given");
const script = argv[0];
let source;
try {
  source = fs.readFileSync(script, "utf8");
} catch (e) {
  fail(`cannot read ${script}: ${e.message}`);
}

// The VM hands us output a byte at a time; its own line buffering drops a last line that has
// no '\n', so buffer here and flush at each newline (and at the end) to keep output streaming.
// The last line written is kept for mpvm.last_line(): what a built-in only prints (such as
// micropython.qstr_info()) can be read back by the script.
function lineSink(stream) {
  let buf = [];
  const flush = () => {
    if (buf.length) {
      const bytes = Buffer.from(buf);
      stream.lastLine = bytes.toString("utf8");
      stream.write(bytes);
    }
    buf = [];
  };
  const put = (bytes) => {
    for (const c of bytes) {
      buf.push(c);
      if (c === 10) flush();
    }
  };
  return { put, flush };
}
// A reader that went away (`| head`) ends the run quietly, with the status a shell gives SIGPIPE.
process.stdout.on("error", (e) => process.exit(e.code === "EPIPE" ? 141 : 1));
const out = lineSink(process.stdout);
const err = lineSink(process.stderr);

globalThis.mpvmStdout = process.stdout;  // its lastLine, for mpvm.last_line()
const mp = await loadMicroPython({ heapsize: heap, pystack: pystackWords, linebuffer: false, stdout: out.put, stderr: err.put });

// Copy .py files and the .bin data files the modules read (the sprites, lib/lnr/sprites.bin):
// the device never sees caches or other files from these trees either.
function copyTree(hostDir, vmDir) {
  mp.FS.mkdirTree(vmDir);
  for (const ent of fs.readdirSync(hostDir, { withFileTypes: true })) {
    const h = path.join(hostDir, ent.name);
    const v = vmDir.replace(/\/$/, "") + "/" + ent.name;
    if (ent.isDirectory()) {
      if (ent.name !== "__pycache__" && !ent.name.startsWith(".")) copyTree(h, v);
    } else if (ent.name.endsWith(".py") || ent.name.endsWith(".bin")) {
      mp.FS.writeFile(v, fs.readFileSync(h));
    }
  }
}
for (const [host, vm] of trees) copyTree(host, vm);

// Strings go in through globals rather than being spliced into Python source (no quoting bugs).
mp.globals.set("_mpvm_argv", [script, ...argv.slice(1)]);
mp.globals.set("_mpvm_src", source);
mp.globals.set("_mpvm_file", script);

// The one way to free garbage mid-script on this port (see the header): return to JS.
mp.FS.mkdirTree("/lib");
mp.FS.writeFile("/lib/mpvm.py", `"""Helpers that exist only under tools/vm/mpvm/run.mjs."""
import gc
import js

main = None


async def collect():
    """Runs a real collection; afterwards gc.mem_alloc() is the live heap."""
    gc.collect()
    await js.Promise.resolve(None)


def last_line():
    """Returns the last line the script wrote to stdout (its newline included), e.g. what
    micropython.qstr_info() printed."""
    return str(js.mpvmStdout.lastLine)


def run(coroutine):
    """Awaits coroutine once the script's top level is done: a script that keeps its awaits in
    a function, so that CPython's tools can read it, ends with mpvm.run(main())."""
    global main
    main = coroutine
`);

// Step 1 compiles, and must not await: top-level await is only accepted by a compile that
// runs inside the first, synchronous part of runPythonAsync.
const COMPILE = `
import sys
sys.argv.clear()
sys.argv.extend(_mpvm_argv)
del _mpvm_argv
if '/' not in sys.path:
    sys.path.insert(1, '/')

def _mpvm_fail(e):
    # The runner's own frames ("<stdin>") are noise to whoever reads the failure.
    import io
    s = io.StringIO()
    sys.print_exception(e, s)
    for line in s.getvalue().split('\\n'):
        if line and not line.startswith('  File "<stdin>"'):
            sys.stderr.write(line + '\\n')
    return 1

_mpvm_rc = None
try:
    _mpvm_code = compile(_mpvm_src, _mpvm_file, 'exec')
except BaseException as e:
    _mpvm_rc = _mpvm_fail(e)
# Dropped so the source text is garbage before the script measures the heap.
del _mpvm_src
`;

// Step 2 runs the script; eval() of a module with top-level await returns its coroutine.
const RUN = `
async def _mpvm_main(code):
    try:
        # The script runs in these very globals: a coroutine from top-level await resumes
        # after eval() returns, and its functions must still find the module's names.
        g = globals()
        g['__file__'] = _mpvm_file
        r = eval(code, g)
        if r is not None:
            await r
        import mpvm
        if mpvm.main is not None:
            r = mpvm.main
            mpvm.main = None
            await r
    except SystemExit as e:
        c = e.args[0] if e.args else None
        if c is None or isinstance(c, (int, bool)):
            return int(c or 0)
        print(c, file=sys.stderr)
        return 1
    except BaseException as e:
        return _mpvm_fail(e)
    return 0
_mpvm_c = _mpvm_code
del _mpvm_code
_mpvm_rc = await _mpvm_main(_mpvm_c)
`;

let rc;
try {
  mp.runPythonAsync(COMPILE);
  rc = mp.globals.get("_mpvm_rc");
  if (rc === null) {
    await mp.runPythonAsync(RUN);
    rc = mp.globals.get("_mpvm_rc");
  }
} catch (e) {
  // Only reached if the runner itself breaks (or the VM aborts); never dump the minified
  // library source that Node prints for an uncaught error.
  out.flush();
  process.stderr.write(`run.mjs: VM error: ${e.name}: ${e.message}\n`);
  rc = 1;
}
out.flush();
err.flush();
// exitCode rather than process.exit(): lets Node drain stdout/stderr pipes first.
process.exitCode = typeof rc === "number" ? rc & 0xff : 1;

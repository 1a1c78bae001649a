// MicroPython's VM (the WebAssembly port, the npm package installed here by
// `npm ci --prefix tools/vm/mpvm`) for the two Node programs that run it: run.mjs (a script to
// its end) and tools/flash/fakeboard_vm.mjs (a board's VM across soft reboots). One place names
// the package and says how to install it.
//
//   import { loadMicroPython } from "./load.mjs";

// Imported late so that a clone without node_modules gets the fix, not a resolver stack trace.
let loaded;
try {
  loaded = await import("@micropython/micropython-webassembly-pyscript");
} catch (e) {
  const me = process.argv[1] ? process.argv[1].split("/").pop() : "node";
  process.stderr.write(`${me}: ${e.message}\n`
                       + `${me}: install the VM first: npm ci --prefix tools/vm/mpvm\n`);
  process.exit(2);
}

export const { loadMicroPython } = loaded;

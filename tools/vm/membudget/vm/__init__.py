"""What tools/vm/membudget runs on the MicroPython VM (tools/vm/mpvm/run.mjs): each script's main()
is awaited by run.mjs (mpvm.run); prelude.py is what they share. Not importable on CPython (they
use the VM's js and mpvm modules)."""

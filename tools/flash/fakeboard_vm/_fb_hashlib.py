"""CircuitPython's hashlib API: new(name) only."""
import hashlib as _h


def new(name, data=b""):
    if name != "sha256":
        raise ValueError("Unsupported hash algorithm")
    o = _h.sha256()
    if data:
        o.update(data)
    return o

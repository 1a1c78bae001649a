"""The n-tuple tables `best` values with on top of engine.ai's weights (issue 39; engine.ai
says what they hold and adds their entries), learned by self-play on the desktop (python -m
tools.bots train --eval ntuple). They are a file beside this module, MAGIC and then a block
per phase of the game: a decision reads the blocks of its own phase and the next turn's (the
look-ahead plays a turn further), so a decision holds one or two blocks (engine.ai T_BLOCK bytes
each) while it decides, not all of them. A mode whose file is missing has none learned."""
from engine.ai import T_BLOCK, N_PHASES, phase
from engine.state import MODE_NAMES

MAGIC = b"lnrtab1\n"
FILE_BYTES = 8 + N_PHASES * T_BLOCK  # MAGIC's 8 bytes, then the blocks


def path(mode):
    """Returns the path of `mode`'s tables file (ntuple_MODE.bin beside this module: missing
    where none are learned)."""
    return __file__.rsplit("/", 1)[0] + "/ntuple_" + MODE_NAMES[mode] + ".bin"


def tables(mode, turns):
    """Returns the blocks (a list by phase, None for a phase not read) that a decision with
    `turns` turns left after it values with: its phase's and the next turn's. None on the last
    turn (engine.ai values it exactly) and where the file is missing (no tables learned for
    `mode`) or not one (a board flashed part way): `best` then plays without."""
    if turns <= 0:
        return None
    out = [None] * N_PHASES  # type: list
    try:
        with open(path(mode), "rb") as f:
            if f.read(8) != MAGIC:
                return None
            for t in (turns, turns - 1):
                if t > 0 and out[phase(t)] is None:
                    block = bytearray(T_BLOCK)
                    f.seek(8 + phase(t) * T_BLOCK)
                    if f.readinto(block) != T_BLOCK:
                        return None
                    out[phase(t)] = block
    except OSError:
        return None
    return out


def whole(data):
    """Returns True if `data` is a whole tables file: FILE_BYTES, MAGIC first (the desktop's
    readers check it before blocks(): a file cut short or another file is no tables)."""
    return len(data) == FILE_BYTES and data.startswith(MAGIC)


def blocks(data):
    """Returns the blocks of every phase of a tables file's bytes `data` (whole())."""
    return [data[8 + p * T_BLOCK:8 + (p + 1) * T_BLOCK] for p in range(N_PHASES)]

"""The saves of a board or of the simulator, on the desktop: the finished games of the history as
loknroll/1 records, and everything else as JSON.

    python -m tools.bots records --port PORT [--out DIR] [--show]      a board over USB (mpremote)
    python -m tools.bots records --nvm FILE --drive DIR [--out DIR] [--show]   the simulator's files
    python -m tools.bots records --capacity                            how many games the history holds

--out DIR writes one file per game of the history (game-NNN-MODE-seedS.json, oldest first),
each rebuilt from its seed and its decision log (engine.record.from_log) and checked to give
the score the device counted; `python -m engine.replay FILE` accepts each. --show prints the
saved data: best score and games per mode, rival wins, settings, whether a game is saved, the
history; as the device reads it at start-up (lnr/storage.py: the newest valid of the NVM and
the drive's file; docs/storage.md). Which copy it came from, and the notice the device would
show, go to standard error.

On a board, the NVM is read with a few lines run in its REPL and the drive's file is copied
with mpremote's file transfer, as `make flash` talks to the board (tools/flash/deploy_board.py);
the game restarts afterwards. The NVM file is read as the simulator reads it (its first 8192
bytes; a shorter file's tail as erased: tools/sim/parts.py read_nvm_file()). --out never
overwrites a file it did not write: a file of that name that holds other bytes stops it before
anything is written.

Exit status 0; 1 if a record does not rebuild; 2 for bad arguments or input (--out an existing
file or a folder holding other files of the records' names, --nvm or --drive unreadable) or
no board, with one line on standard error.
"""
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for _p in (os.path.join(ROOT, "lib"), ROOT):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from engine.gamelog import MAX_BYTES  # noqa: E402
from engine.record import RecordError, from_log  # noqa: E402
from engine.replay import check  # noqa: E402
from engine.state import MODE_NAMES  # noqa: E402
from lnr import copies, image  # noqa: E402
from lnr.storage import Storage  # noqa: E402
from tools import cli  # noqa: E402

# Reads the NVM a sector at a time (no 8 KB buffer on the board) as hex lines.
READ_NVM = """\
import microcontroller, binascii
_n = microcontroller.nvm
print('LEN', len(_n))
for _a in range(0, min(len(_n), 8192), 512):
    print('NVM', binascii.hexlify(_n[_a:_a + 512]).decode())
"""


class RecordsError(Exception):
    """Something that stops the tool; the message says what."""


def load(nvm, drive):
    """Returns the Storage the device would start with, from the NVM's bytes (or None) and the
    folder standing for its drive (or None)."""
    st = Storage(bytearray(nvm) if nvm is not None else None, drive, True)
    st.load()  # reads only: a commit is the one thing that writes
    return st


def games(st):
    """Returns the history as dicts, oldest first: seed, mode, players, score, won, and the
    rebuilt record (None if the game's decisions were not kept) or the reason it failed."""
    out = []
    for e in st.history():
        seed, mode, players, won, score, bits, data = image.read_entry(e)
        g = {"seed": seed, "mode": MODE_NAMES[mode], "players": players, "score": score,
             "won": won, "record": None, "error": None}
        if bits == image.NO_LOG:
            g["error"] = ("its decisions were not kept (its log outgrew %d bytes, or it was "
                          "resumed from a save without one)" % MAX_BYTES)
        else:
            try:
                rec = from_log(mode, seed, players, data, bits)
                result, _ = check(rec)
                me = 1 if mode == 2 else 0
                if min(result["scores"][me], 255) != score or (me in result["winners"]) != won:
                    raise RecordError(0, "the replay scores %d, the device counted %d" % (
                        result["scores"][me], score))
                g["record"] = rec
            except RecordError as e:
                g["error"] = str(e)
        out.append(g)
    return out


def summary(st, history):
    """Returns the saved data as a JSON-able dict."""
    return {
        "best": {MODE_NAMES[m]: st.best[m] for m in range(4)},
        "played": {MODE_NAMES[m]: st.played[m] for m in range(4)},
        "rival_wins": st.rival_wins,
        "settings": {"brightness": st.brightness, "pixels": st.pixel_count,
                     "hints": bool(st.hints), "sound": bool(st.sound)},
        "saved_game": st.saved is not None,
        "history": [{k: g[k] for k in ("mode", "seed", "players", "score", "won")}
                    | ({"result": g["record"]["result"]} if g["record"] else
                       {"error": g["error"]}) for g in history],
    }


def write_records(history, out, force=False):
    """Writes each rebuilt game to `out`; returns (files written, games that failed). A file
    of a record's name that holds other bytes stops it (RecordsError) before anything is
    written: it was not written by this tool for this game (`force`: it is replaced)."""
    files = []
    failed = 0
    for i, g in enumerate(history):
        if g["record"] is None:
            failed += 1
            print("game %d (%s, seed %d): not written: %s" % (i + 1, g["mode"], g["seed"],
                                                               g["error"]), file=sys.stderr)
            continue
        path = os.path.join(out, "game-%03d-%s-seed%d.json" % (i + 1, g["mode"], g["seed"]))
        data = (json.dumps(g["record"], separators=(",", ":")) + "\n").encode("utf-8")
        files.append((path, data))
    for path, data in files:
        if os.path.lexists(path) and not _holds(path, data) and not (
                force and os.path.isfile(path)):
            raise RecordsError("%s already exists and holds something else: move it away, or "
                               "name another --out folder (or give --force)" % path)
    os.makedirs(out, exist_ok=True)
    for path, data in files:
        if not _holds(path, data):
            cli.write_output(path, data)
    return [path for path, _ in files], failed


def _holds(path, data):
    # True if the file at path is a regular file of exactly these bytes (read no further).
    try:
        if not os.path.isfile(path) or os.path.getsize(path) != len(data):
            return False
        with open(path, "rb") as f:
            return f.read(len(data) + 1) == data
    except OSError:
        return False


def read_nvm(path):
    """Returns the NVM's bytes from the simulator's file at `path`, as the simulator reads them
    (tools/sim/parts.py); says on standard error when the file is not the NVM's size."""
    from tools.sim.parts import read_nvm_file
    from tools.standins.microcontroller import NVM_SIZE

    if os.path.isdir(path):
        raise RecordsError("--nvm %s is a folder: it names the NVM's file" % path)
    data = read_nvm_file(path, NVM_SIZE)
    size = os.path.getsize(path) if os.path.isfile(path) else None
    if size is not None and size < NVM_SIZE:
        print("the NVM file holds %d bytes of %d: the rest reads as erased, as the simulator "
              "reads it" % (size, NVM_SIZE), file=sys.stderr)
    elif size is not None and size > NVM_SIZE:
        print("the NVM file holds %d bytes: only its first %d are the NVM's" % (size, NVM_SIZE),
              file=sys.stderr)
    return data


def from_board(port):
    """Returns (NVM bytes, a temporary folder holding the drive's copy, or None) of the
    board at `port`, read with mpremote."""
    from tools.flash.deploy import DeployError
    from tools.flash.deploy_board import connect, leave, run_code

    try:
        t = connect(port)
    except DeployError as e:
        raise RecordsError(str(e))
    try:
        out = run_code(t, READ_NVM, "Reading the NVM")
        nvm = bytearray()
        for line in out.splitlines():
            if line.startswith("NVM "):
                nvm += bytes.fromhex(line[4:].strip())
        try:
            data = t.fs_readfile("/" + copies.FILE)
        except Exception:  # no file (never written, or SELECT held every time): NVM alone
            data = None
    except DeployError as e:
        raise RecordsError(str(e))
    finally:
        leave(t)
    drive = tempfile.mkdtemp(prefix="lnr-records-")
    if data is not None:
        path = os.path.join(drive, copies.FILE)
        os.makedirs(os.path.dirname(path))
        with open(path, "wb") as f:
            f.write(data)
    return bytes(nvm), drive


def capacity(seeds=40):
    """Returns the capacity figures: the history's bytes, the longest entry, the games that
    fit at worst, and the mean entry and games that fit for bots' games of every mode."""
    from engine.bots import BOTS
    from engine.gamelog import GameLog
    from engine.playout import play_out, seeded

    sizes = []
    for mode in range(4):
        for bot in sorted(BOTS):
            for seed in range(seeds):
                s, chance, bot_rng = seeded(mode, seed, 2 + seed % 3 if mode == 3 else None)
                s.log = GameLog()
                play_out(s, chance, BOTS[bot], bot_rng)
                sizes.append(len(image.entry(seed, mode, s.players, 0, True, s.log)))
    worst = image.ENTRY_HEAD + MAX_BYTES
    mean = sum(sizes) / len(sizes)
    return {"history_bytes": image.HISTORY_MAX, "entry_max": worst,
            "games_at_worst": image.HISTORY_MAX // worst,
            "games_measured": len(sizes), "entry_mean": round(mean, 1),
            "entry_largest_measured": max(sizes),
            "games_typical": int(image.HISTORY_MAX // mean)}


def main(argv=None):
    parser = cli.Parser(
        prog="python -m tools.bots records",
        description="The saves of a board or of the simulator: records of the history's games "
                    "(--out), the saved data as JSON (--show).",
        epilog="Exit status: 0; 1 a record did not rebuild; 2 bad arguments or input, or no "
               "board.")
    parser.add_argument("--port", help="the board's serial port (mpremote devs lists them)")
    parser.add_argument("--nvm", help="the simulator's NVM file (tools.sim --nvm)")
    parser.add_argument("--drive", help="the simulator's drive folder (tools.sim --drive)")
    parser.add_output("--out", folder=True, mine=None,
                      help="write one loknroll/1 JSON file per game here")
    parser.add_argument("--show", action="store_true", help="print the saved data as JSON")
    parser.add_argument("--capacity", action="store_true",
                        help="print how many games the history holds")
    parser.add_argument("--seeds", type=cli.whole(1, 1000), default=40,
                        help="--capacity: the bots' games measured per mode and bot (default 40, "
                             "docs/storage.md's figures)")
    args = parser.parse_args(argv)
    if args.capacity:
        json.dump(capacity(args.seeds), sys.stdout, indent=1)
        print()
        return 0
    if args.port and (args.nvm or args.drive):
        parser.error("--port reads a board; --nvm and --drive the simulator's files")
    if not args.port and not (args.nvm or args.drive):
        parser.error("give --port PORT, or --nvm FILE and --drive DIR")
    if not args.out and not args.show:
        parser.error("say what to do: --out DIR and/or --show")
    try:
        if args.port:
            nvm, drive = from_board(args.port)
        else:
            nvm = None
            if args.nvm:
                nvm = read_nvm(args.nvm)
            drive = args.drive
            if drive is not None and not os.path.isdir(drive):
                raise RecordsError("%s is not a folder" % drive)
    except (RecordsError, OSError) as e:
        return cli.refuse("records", e)
    st = load(nvm, drive)
    print("read the commit numbered %d (NVM: %s, drive: %s)%s" % (
        st.seq, st.nvm_seq if st.nvm_seq >= 0 else "none or damaged",
        st.file_seq if st.file_seq >= 0 else "none or damaged",
        "; the device would say: " + st.notice.replace("\n", "; ") if st.notice else ""),
        file=sys.stderr)
    history = games(st)
    status = 0
    if args.out:
        try:
            written, failed = write_records(history, args.out, args.force)
        except (RecordsError, OSError) as e:
            return cli.refuse("records", e)
        print("%d game%s written to %s" % (len(written), "" if len(written) == 1 else "s",
                                           args.out), file=sys.stderr)
        status = 1 if failed else 0
    if args.show:
        json.dump(summary(st, history), sys.stdout, indent=1)
        print()
    return status


if __name__ == "__main__":
    raise SystemExit(main())

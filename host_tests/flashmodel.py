"""The two flashes the saves live in, as the hardware and CircuitPython 10 write them, with the
power able to go at any moment (docs/storage.md, "The two flashes").

NvmFlash is `microcontroller.nvm` on a SAMD51 (8192 bytes, one erase block): a slice
assignment erases the whole block (every byte 0xFF), then programs its 16 pages of 512 bytes
in order (ASF4 hpl_nvmctrl.c _flash_write).

Drive is CIRCUITPY: a FAT volume (FatFs as CircuitPython configures it: FF_FS_TINY, one window
sector shared by the FAT and the directories, 512-byte clusters, f_sync writing the directory
entry) on the QSPI flash through CircuitPython's RAM cache of one 4 KB erase sector
(supervisor/shared/external_flash/external_flash.c): a block written into another erase sector
first flushes the cached one (read its other blocks, erase the 4 KB, program 16 pages of 256
bytes), and so does CTRL_SYNC (f_sync, close) and the background flush (a 1 s tick, which may
come between any two block writes); a block whose first 4 bytes read 0xFF is programmed
without an erase (page_erased()). Kept simple where it changes nothing for the fault model: FAT
entries are 16 bits, volume sector s is flash block s, one FAT, the root directory 4 sectors.

Every erase and page program is an operation recorded on a Power object. A run records them
(and applies them as it goes); states_at_cuts() then gives the flash contents had the power
gone during operation k: before it, after it, or inside it (a page programmed in part: a prefix
of 16-byte units, a random subset of its bytes, or of its bits; an erase left half done). The
app is not re-run per cut: up to the cut it does exactly what the recorded run did (nothing it
reads depends on where the cut will come).
"""
import random

from tools.flash.sync import make_save_file

SECTOR = 512  # a FAT sector = a block of the flash cache
ERASE = 4096  # QSPI erase sector
QPAGE = 256  # QSPI program page
NVM_SIZE = 8192
NVM_PAGE = 512
UNIT = 16  # the smallest program unit tried for a partial page (the SAMD51's quad-word)


class Power:
    """The log of flash operations, in the order they happen: (device "nvm" or "qspi", kind
    "erase" or "program", address, the page's bytes or None)."""

    def __init__(self):
        self.ops = []

    def op(self, device, kind, addr, data):
        self.ops.append((device, kind, addr, data))


# ---------------------------------------------------------------------------------- the NVM


class NvmFlash:
    """microcontroller.nvm: reads as bytes; a slice assignment erases and reprograms the block."""

    def __init__(self, data, power):
        self.data = bytearray(data)
        self.power = power
        self.writes = 0

    def __len__(self):
        return NVM_SIZE

    def __getitem__(self, key):
        if isinstance(key, slice):
            return bytearray(self.data[key])
        return self.data[key]

    def __setitem__(self, key, value):
        if not isinstance(key, slice):
            key = slice(key, key + 1)
            value = bytes([value])
        start, stop, _ = key.indices(NVM_SIZE)
        value = bytes(value)
        if len(value) != stop - start:
            raise ValueError("slice and value different lengths")
        self.writes += 1
        new = bytearray(self.data)  # ASF4 reads the whole block into RAM first
        new[start:stop] = value
        self.power.op("nvm", "erase", 0, None)
        self.data[:] = b"\xff" * NVM_SIZE
        for p in range(NVM_SIZE // NVM_PAGE):
            page = bytes(new[p * NVM_PAGE:(p + 1) * NVM_PAGE])
            self.power.op("nvm", "program", p * NVM_PAGE, page)
            self.data[p * NVM_PAGE:(p + 1) * NVM_PAGE] = page


# ---------------------------------------------------------------------------------- the drive


class Qspi:
    """The QSPI flash chip: erase a 4 KB sector, program a 256-byte page (bits 1 -> 0 only)."""

    def __init__(self, data, power):
        self.data = bytearray(data)
        self.power = power

    def erase(self, addr):
        self.power.op("qspi", "erase", addr, None)
        self.data[addr:addr + ERASE] = b"\xff" * ERASE

    def program(self, addr, page):
        if page == b"\xff" * QPAGE:
            return  # write_flash(): an all-ones page is not programmed
        self.power.op("qspi", "program", addr, bytes(page))
        self.data[addr:addr + QPAGE] = _and(self.data[addr:addr + QPAGE], page)


def _and(a, b):
    """Programming: each bit goes 1 -> 0 where the page has a 0, never back."""
    n = len(a)
    return (int.from_bytes(a, "little") & int.from_bytes(b, "little")).to_bytes(n, "little")


class Cache:
    """external_flash.c: the RAM cache of one erase sector and when it reaches the flash."""

    def __init__(self, flash):
        self.flash = flash
        self.sector = None
        self.dirty = 0
        self.pages = None
        self.writes = 0

    def read_block(self, block):
        addr = block * SECTOR
        sec = addr - addr % ERASE
        i = (addr % ERASE) // SECTOR
        if self.sector == sec and self.dirty & (1 << i):
            return bytes(self.pages[i * SECTOR:(i + 1) * SECTOR])
        return bytes(self.flash.data[addr:addr + SECTOR])

    def write_block(self, block, data):
        self.writes += 1
        addr = block * SECTOR
        sec = addr - addr % ERASE
        i = (addr % ERASE) // SECTOR
        if self.sector != sec or self.dirty & (1 << i):
            if self.flash.data[addr:addr + 4] == b"\xff\xff\xff\xff":  # page_erased()
                for p in range(0, SECTOR, QPAGE):
                    self.flash.program(addr + p, data[p:p + QPAGE])
                return
            if self.sector is not None:
                self.flush()
            self.sector = sec
            self.dirty = 0
            self.pages = bytearray(ERASE)
        self.dirty |= 1 << i
        self.pages[i * SECTOR:(i + 1) * SECTOR] = data

    def flush(self):
        """flush_ram_cache(): keep the untouched blocks, erase the sector, program it all."""
        if self.sector is None:
            return
        sec = self.sector
        for i in range(ERASE // SECTOR):
            if not self.dirty & (1 << i):
                self.pages[i * SECTOR:(i + 1) * SECTOR] = \
                    self.flash.data[sec + i * SECTOR:sec + (i + 1) * SECTOR]
        self.flash.erase(sec)
        for p in range(0, ERASE, QPAGE):
            self.flash.program(sec + p, self.pages[p:p + QPAGE])
        self.sector = None
        self.dirty = 0


class VolumeLost(OSError):
    """The volume does not mount: CircuitPython would offer a fresh, empty CIRCUITPY."""


# Volume geometry (sectors): the boot sector, the FAT, the root directory, then clusters. The FAT
# is FAT12, as f_mkfs makes it for CIRCUITPY (fewer than 4085 clusters): 12 bits an entry, so an
# entry whose 1.5 bytes start at a sector's last byte straddles two sectors (clusters 341 and
# 682 here). Room for 1022 clusters (a volume of at most 1030 sectors).
BOOT = 0
FAT0 = 1
FAT_SECTORS = 3
ROOT0 = 4
ROOT_SECTORS = 4
DATA0 = 8  # cluster 2 (f_mkfs does not align it: the tests move our folder over all 8 offsets)
END = 0xFFF  # what FatFs writes at a chain's end; it reads any value >= n_fatent as one
ATTR_DIR = 0x10
ATTR_FILE = 0x20


def name83(name):
    base, _, ext = name.upper().partition(".")
    if len(base) > 8 or len(ext) > 3:
        raise ValueError("%s is not an 8.3 name (the model has no long names)" % name)
    return (base.ljust(8) + ext.ljust(3)).encode()


class Drive:
    """CIRCUITPY as the app's lnr.copies sees it: open(), os.stat(), os.mkdir() on a FatFs
    volume over the cached flash. `blocks` sectors in all."""

    def __init__(self, flash, blocks):
        self.flash = flash
        self.blocks = blocks
        self.cache = Cache(flash)
        self.win = None  # FatFs's window (FF_FS_TINY): its sector, its bytes, dirty?
        self.winsect = -1
        self.wflag = False
        self.last = 1  # create_chain's hint: the next search starts after it
        self.clock = 0  # the RTC: every directory entry update gets a new time
        self.flush_after = ()  # block-write counts after which the background flush runs
        self.os = _Os(self)
        self.n_fatent = min(blocks - DATA0, FAT_SECTORS * SECTOR * 2 // 3 - 2) + 2
        if self.flash.data[510:512] != b"\x55\xaa":
            raise VolumeLost(5, "no file system")

    # -------------------------------------------------------------- the block device

    def read(self, s):
        return self.cache.read_block(s)

    def write(self, s, data):
        if not 0 <= s < self.blocks:
            raise OSError(5, "sector %d out of range" % s)
        self.cache.write_block(s, bytes(data))
        if self.cache.writes in self.flush_after:
            self.cache.flush()  # filesystem_background(): the 1 s tick came

    def sync(self):
        self.cache.flush()  # disk_ioctl CTRL_SYNC -> supervisor_flash_flush()

    # -------------------------------------------------------------- FatFs internals

    def move_window(self, s):
        if s != self.winsect:
            self.sync_window()
            self.win = bytearray(self.read(s))
            self.winsect = s

    def sync_window(self):
        if self.wflag:
            self.write(self.winsect, self.win)
            self.wflag = False

    def get_fat(self, c):
        """FatFs get_fat() on FAT12 (ff.c: the entry's 1.5 bytes at c + c / 2, read through
        the window one byte at a time, so a straddling entry moves it to the next sector): the
        value, or 1 (FatFs's "internal error") for a cluster number out of range, as a garbage
        one read from a damaged entry may be."""
        if not 2 <= c < self.n_clusters():
            return 1
        bc = c + c // 2
        self.move_window(FAT0 + bc // SECTOR)
        wc = self.win[bc % SECTOR]
        bc += 1
        self.move_window(FAT0 + bc // SECTOR)
        wc |= self.win[bc % SECTOR] << 8
        return wc >> 4 if c & 1 else wc & 0xFFF

    def put_fat(self, c, v):
        """FatFs put_fat() on FAT12: the two bytes it shares with its neighbours keep their
        other nibble; each byte through the window (marked dirty in each sector)."""
        if not 2 <= c < self.n_clusters():
            raise OSError(5, "FAT entry %d out of range" % c)
        bc = c + c // 2
        self.move_window(FAT0 + bc // SECTOR)
        i = bc % SECTOR
        self.win[i] = (self.win[i] & 0x0F) | ((v << 4) & 0xF0) if c & 1 else v & 0xFF
        self.wflag = True
        bc += 1
        self.move_window(FAT0 + bc // SECTOR)
        i = bc % SECTOR
        self.win[i] = (v >> 4) & 0xFF if c & 1 else (self.win[i] & 0xF0) | ((v >> 8) & 0x0F)
        self.wflag = True

    def n_clusters(self):
        """FatFs's n_fatent: the number of clusters + 2."""
        return self.n_fatent

    def create_chain(self, prev):
        if prev:
            nxt = self.get_fat(prev)
            if nxt < 2:
                raise OSError(5, "broken cluster chain")
            if nxt < self.n_clusters():
                return nxt
        c = self.last
        for _ in range(self.n_clusters()):
            c = c + 1 if c + 1 < self.n_clusters() else 2
            if self.get_fat(c) == 0:
                self.put_fat(c, END)
                if prev:
                    self.put_fat(prev, c)
                self.last = c
                return c
        raise OSError(28, "the drive is full")

    def chain(self, c):
        out = []
        while 2 <= c < self.n_clusters() and len(out) <= self.blocks:
            out.append(c)
            c = self.get_fat(c)
        if c < self.n_clusters():  # 0 (a free entry), 1 (out of range), or a loop
            raise OSError(5, "broken cluster chain")
        return out

    def dir_sectors(self, cluster):
        if cluster == 0:
            return list(range(ROOT0, ROOT0 + ROOT_SECTORS))
        return [DATA0 + c - 2 for c in self.chain(cluster)]

    def find(self, cluster, name):
        want = name83(name)
        for s in self.dir_sectors(cluster):
            self.move_window(s)
            for i in range(0, SECTOR, 32):
                if self.win[i] == 0:
                    return None
                if bytes(self.win[i:i + 11]) == want:
                    return (s, i, self.win[i + 11], self.win[i + 26] | self.win[i + 27] << 8,
                            int.from_bytes(self.win[i + 28:i + 32], "little"))
        return None

    def walk(self, path):
        """Returns (parent cluster, entry or None, last name) of an absolute path."""
        parts = [p for p in path.split("/") if p]
        cluster = 0
        for p in parts[:-1]:
            e = self.find(cluster, p)
            if e is None or not e[2] & ATTR_DIR:
                raise OSError(2, "no such directory: " + p)
            cluster = e[3]
        return cluster, self.find(cluster, parts[-1]), parts[-1]

    def register(self, cluster, name, attr, first):
        """FatFs dir_register() of one short-name entry: the first free one (a name starting
        0 or 0xE5: an erased sector's 0xFF entries are not free). A subdirectory with none
        grows by a cluster (ff.c dir_next() with stretch: create_chain(), then dir_clear()
        writes the new cluster's sectors as zeros); the root folder of a FAT12 volume is fixed
        (FR_DENIED, EACCES)."""
        sectors = self.dir_sectors(cluster)
        for s in sectors:
            self.move_window(s)
            for i in range(0, SECTOR, 32):
                if self.win[i] in (0, 0xE5):
                    return self._put_entry(s, i, name, attr, first)
        if cluster == 0:
            raise OSError(13, "the root folder is full")
        c = self.create_chain(self.chain(cluster)[-1])
        s = DATA0 + c - 2
        self.sync_window()  # dir_clear(): the FAT first, then the new sector through the window
        self.win = bytearray(SECTOR)
        self.winsect = s
        self.write(s, self.win)
        return self._put_entry(s, 0, name, attr, first)

    def _put_entry(self, s, i, name, attr, first):
        entry = bytearray(32)
        entry[0:11] = name83(name)
        entry[11] = attr
        self.clock += 1
        entry[22:26] = self.clock.to_bytes(4, "little")
        entry[26:28] = first.to_bytes(2, "little")
        self.win[i:i + 32] = entry
        self.wflag = True
        return (s, i)

    # -------------------------------------------------------------- what the app calls

    def open(self, path, mode="r"):
        parent, e, name = self.walk(path)
        if mode in ("rb", "r+b"):
            if e is None or e[2] & ATTR_DIR:
                raise OSError(2, "no such file: " + path)
            return File(self, (e[0], e[1]), e[3], e[4], writable=mode == "r+b")
        if mode != "wb":
            raise ValueError("the emulated drive opens rb, r+b and wb")
        if e is not None:  # FA_CREATE_ALWAYS: truncate, free the chain
            c = e[3]
            while 2 <= c < self.n_clusters():
                nxt = self.get_fat(c)
                self.put_fat(c, 0)
                c = nxt
            where = (e[0], e[1])
        else:
            where = self.register(parent, name, ATTR_FILE, 0)
        f = File(self, where, 0, 0, writable=True)
        f.modified = True
        return f

    def mkdir(self, path):
        parent, e, name = self.walk(path)
        if e is not None:
            raise OSError(17, "exists: " + path)
        c = self.create_chain(0)
        self.sync_window()
        s = DATA0 + c - 2
        block = bytearray(SECTOR)  # dir_clear, then "." and ".."
        block[0:11] = b".          "
        block[11] = ATTR_DIR
        block[26:28] = c.to_bytes(2, "little")
        block[32:43] = b"..         "
        block[43] = ATTR_DIR
        block[58:60] = parent.to_bytes(2, "little")
        if self.winsect == s:
            self.winsect = -1
        self.write(s, block)
        self.register(parent, name, ATTR_DIR, c)
        self.sync_window()
        self.sync()

    def stat(self, path):
        _, e, _ = self.walk(path)
        if e is None:
            raise OSError(2, "no such file: " + path)
        return (0x8000 if not e[2] & ATTR_DIR else 0x4000, 0, 0, 0, 0, 0, e[4], 0, 0, 0)

    # -------------------------------------------------------------- for the tests

    def file_bytes(self, path):
        """The bytes a reader sees now (None if the file cannot be read)."""
        try:
            f = self.open(path, "rb")
        except OSError:
            return None
        try:
            out = bytearray(f.size)
            f.readinto(out)
            return bytes(out)
        except OSError:
            return None


class File:
    """A FatFs FIL in this model: whole-sector writes at sector boundaries (the app only makes
    those; anything else would go through the window and is refused here, to keep the model
    honest about what it models)."""

    def __init__(self, drive, where, first, size, writable):
        self.d = drive
        self.where = where
        self.first = first
        self.size = size
        self.pos = 0
        self.writable = writable
        self.modified = False
        self.closed = False

    def seek(self, off, whence=0):
        self.pos = off if whence == 0 else self.size + off
        return self.pos

    def tell(self):
        return self.pos

    def _cluster(self, index, grow):
        # FatFs keeps the cluster it is at (fp->clust) and follows the chain from there going
        # forward, from the file's first cluster going back (f_lseek).
        at, c = getattr(self, "cursor", (0, self.first))
        if at > index or c == 0:
            at, c = 0, self.first
        if c == 0:
            if not grow:
                raise OSError(5, "empty file")
            c = self.first = self.d.create_chain(0)
        if not 2 <= c < self.d.n_clusters():  # clst2sect() gives 0: FR_INT_ERR
            raise OSError(5, "first cluster %d out of range" % c)
        c = self._follow(c, index - at, grow)
        self.cursor = (index, c)
        return c

    def _follow(self, c, steps, grow):
        for _ in range(steps):
            nxt = self.d.get_fat(c)
            if 2 <= nxt < self.d.n_clusters():
                c = nxt
            elif grow and nxt >= self.d.n_clusters():  # the chain's end: stretch it
                c = self.d.create_chain(c)
            else:
                raise OSError(5, "broken cluster chain")
        return c

    def readinto(self, buf):
        n = min(len(buf), max(self.size - self.pos, 0))
        got = 0
        while got < n:
            c = self._cluster(self.pos // SECTOR, False)
            block = self.d.read(DATA0 + c - 2)
            off = self.pos % SECTOR
            k = min(SECTOR - off, n - got)
            buf[got:got + k] = block[off:off + k]
            got += k
            self.pos += k
        return got

    def read(self, n=-1):
        out = bytearray(self.size - self.pos if n < 0 else n)
        k = self.readinto(out)
        return bytes(out[:k])

    def write(self, data):
        if not self.writable:
            raise OSError(9, "not open for writing")
        if self.pos % SECTOR or len(data) % SECTOR:
            raise NotImplementedError("a write that is not whole sectors at a sector boundary")
        for k in range(0, len(data), SECTOR):
            c = self._cluster(self.pos // SECTOR, True)  # the FAT window stays dirty
            self.d.write(DATA0 + c - 2, data[k:k + SECTOR])
            self.pos += SECTOR
            self.size = max(self.size, self.pos)
        self.modified = True
        return len(data)

    def close(self):
        if self.closed:
            return
        self.closed = True
        if self.modified:  # f_sync: the directory entry (size, start cluster, time), then sync
            s, i = self.where
            self.d.move_window(s)
            w = self.d.win
            w[i + 11] |= ATTR_FILE
            self.d.clock += 1
            w[i + 22:i + 26] = self.d.clock.to_bytes(4, "little")
            w[i + 26:i + 28] = self.first.to_bytes(2, "little")
            w[i + 28:i + 32] = self.size.to_bytes(4, "little")
            self.d.wflag = True
            self.d.sync_window()
            self.d.sync()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _Os:
    """The `os` functions lnr.copies uses, on the emulated drive."""

    def __init__(self, drive):
        self.d = drive

    def stat(self, path):
        return self.d.stat(path)

    def mkdir(self, path):
        return self.d.mkdir(path)


def format_volume(blocks, files=(), saves=True):
    """Returns the flash bytes of a fresh volume of `blocks` sectors holding `files`: (path,
    bytes) written in order, folders made as needed, then (if `saves`) the save file as
    `make flash` makes it over USB serial (tools/flash/deploy.py make_save_file(), through this
    FatFs): a drive as `make flash` leaves it."""
    power = Power()
    flash = Qspi(b"\xff" * (blocks * SECTOR), power)
    boot = bytearray(SECTOR)
    boot[510:512] = b"\x55\xaa"
    flash.data[0:SECTOR] = boot
    for s in range(FAT0, DATA0):
        flash.data[s * SECTOR:(s + 1) * SECTOR] = bytes(SECTOR)
    flash.data[FAT0 * SECTOR:FAT0 * SECTOR + 3] = b"\xf8\xff\xff"  # f_mkfs: entries 0, 1
    d = Drive(flash, blocks)
    made = set()
    for path, data in files:
        parts = path.strip("/").split("/")
        for i in range(1, len(parts)):
            folder = "/" + "/".join(parts[:i])
            if folder not in made:
                made.add(folder)
                d.mkdir(folder)
        padded = bytes(data) + bytes(-len(data) % SECTOR)
        f = d.open(path, "wb")
        f.write(padded)
        f.size = len(data)
        f.close()
    if saves:
        make_save_file(lambda p: _size(d, p), lambda p: d.mkdir("/" + p),
                       lambda p, data: _write(d, "/" + p, data))
    d.sync()
    return bytes(flash.data)


def _size(d, path):
    try:
        st = d.stat("/" + path)
    except OSError:
        return -1
    return -2 if st[0] & 0x4000 else st[6]


def _write(d, path, data):
    f = d.open(path, "wb")
    f.write(data)
    f.close()


# ---------------------------------------------------------------------------------- cutting


def variants(kind, data, size, rng):
    """Returns the ways the power can go during one operation: ("after",) the whole of it,
    ("prefix", n) the first n bytes of a page, ("bytes", mask seed), ("bits", seed) for a
    page, ("torn", seed) for an erase."""
    if kind == "erase":
        return [("torn", rng.randrange(1 << 30))]
    out = [("prefix", n) for n in range(UNIT, size, UNIT)]
    out.append(("bytes", rng.randrange(1 << 30)))
    out.append(("bytes", rng.randrange(1 << 30)))
    out.append(("bits", rng.randrange(1 << 30)))
    return out


def apply_op(nvm, qspi, op, variant=("after",)):
    """Applies one recorded operation (or the part of it `variant` says) to the byte arrays."""
    device, kind, addr, data = op
    mem = nvm if device == "nvm" else qspi
    size = NVM_SIZE if (device == "nvm" and kind == "erase") else (
        ERASE if kind == "erase" else len(data))
    how = variant[0]
    if kind == "erase":
        if how == "after":
            mem[addr:addr + size] = b"\xff" * size
            return
        r = random.Random(variant[1])  # an erase cut short: some bytes erased, some bits set
        for i in range(addr, addr + size):
            if r.random() < 0.5:
                mem[i] |= r.randrange(256)
        return
    old = mem[addr:addr + size]  # an NVM page reads 0xFF here: its block was erased first
    if how == "after":
        new = _and(old, data)
    elif how == "prefix":
        n = variant[1]
        new = _and(old[:n], data[:n]) + bytes(old[n:])
    elif how == "bytes":
        r = random.Random(variant[1])
        new = bytes((a & b) if r.random() < 0.5 else a for a, b in zip(old, data))
    else:  # bits: each 0 bit of the page may or may not have been programmed yet
        r = random.Random(variant[1])
        new = bytes(a & (b | r.randrange(256)) for a, b in zip(old, data))
    mem[addr:addr + size] = new


def cut_points(ops, rng, inside=True, every=1):
    """Yields (k, variant) for a recording: (-1, ("after",)) for nothing done yet, then per
    operation k its partial variants (if `inside`) and (k, ("after",)); `every` > 1 tries
    the partial variants of every `every`-th page only."""
    yield -1, ("after",)
    for k, op in enumerate(ops):
        if inside and (op[1] == "erase" or k % every == 0):
            size = len(op[3]) if op[3] is not None else 0
            for v in variants(op[1], op[3], size, rng):
                yield k, v
        yield k, ("after",)


def states_at_cuts(nvm0, qspi0, ops, points):
    """Yields (k, variant, nvm bytes, qspi bytes) for each cut point (in order of k), applying
    the recording incrementally."""
    nvm = bytearray(nvm0)
    qspi = bytearray(qspi0)
    done = -1
    for k, v in points:
        while done < k - 1:
            done += 1
            apply_op(nvm, qspi, ops[done])
        if k < 0:
            yield k, v, bytes(nvm), bytes(qspi)
            continue
        n2 = bytearray(nvm)
        q2 = bytearray(qspi)
        apply_op(n2, q2, ops[k], v)
        yield k, v, bytes(n2), bytes(q2)


"""host_tests/flashmodel.py as faithful as the FatFs it stands for (issue 25, finding 8): FAT12
entries of 12 bits, two of them straddling FAT sectors on a volume this size; a garbage cluster
number read from a damaged entry answered as FatFs answers it (get_fat() gives 1, "internal
error": an OSError for the app, never an IndexError); a subfolder that runs out of entries
growing by a cluster (ff.c dir_next() with stretch), the FAT12 root folder fixed.
"""
import random

import pytest

from flashmodel import (
    DATA0, FAT0, SECTOR, Drive, NvmFlash, Power, Qspi, format_volume,
)

BLOCKS = 1024  # 1016 clusters: FAT12, 3 FAT sectors, entries 341 and 682 straddle two


def drive(files=()):
    return Drive(Qspi(format_volume(BLOCKS, files), Power()), BLOCKS)


def test_fat12_entries_round_trip_across_the_fat_sectors():
    d = drive()
    n = d.n_clusters()
    assert 682 < n <= 0xFF5  # FAT12: fewer than 4085 clusters
    rng = random.Random(12)
    want = {c: rng.randrange(0x1000) for c in range(2, n)}
    for c, v in want.items():
        d.put_fat(c, v)
    d.sync_window()
    d.sync()
    again = Drive(d.flash, BLOCKS)  # read from the flash, not the window
    assert {c: again.get_fat(c) for c in range(2, n)} == want
    # Cluster 341's 1.5 bytes: byte 511 of the first FAT sector, byte 0 of the second.
    raw = d.flash.data
    lo, hi = raw[FAT0 * SECTOR + 511], raw[(FAT0 + 1) * SECTOR]
    assert (lo >> 4 | hi << 4) == want[341]
    assert (raw[FAT0 * SECTOR + 510] | (lo & 0x0F) << 8) == want[340]


@pytest.mark.parametrize("c", [0, 1, 1022, 0xFFF, 0xFFFF, 1 << 20])
def test_a_garbage_cluster_number_is_fatfs_internal_error_not_an_index_error(c):
    d = drive([("/a.bin", b"x" * 2048)])
    assert d.get_fat(c) == 1
    with pytest.raises(OSError):
        d.put_fat(c, 5)
    # A directory entry whose first cluster is that number: opened, then refused on reading.
    _, e, _ = d.walk("/a.bin")
    s, i = e[0], e[1]
    d.move_window(s)
    d.win[i + 26:i + 28] = (c & 0xFFFF).to_bytes(2, "little")
    d.wflag = True
    d.sync_window()
    f = d.open("/a.bin", "rb")
    if 2 <= (c & 0xFFFF) < d.n_clusters():
        return  # a valid number: another cluster's bytes (the tests of copies cover that)
    with pytest.raises(OSError):
        f.readinto(bytearray(512))


def test_a_subfolder_grows_by_a_cluster_and_the_root_folder_does_not():
    d = drive()
    d.mkdir("/sub")
    for i in range(40):  # 16 entries a sector: "." and "..", then 38 more across 3 clusters
        f = d.open("/sub/f%d.bin" % i, "wb")
        f.write(bytes([i]) * SECTOR)
        f.close()
    _, e, _ = d.walk("/sub")
    assert len(d.chain(e[3])) == 3
    for i in range(40):
        assert d.file_bytes("/sub/f%d.bin" % i) == bytes([i]) * SECTOR
    with pytest.raises(OSError) as err:
        for i in range(64):  # the root folder's 4 sectors hold 64 entries
            d.mkdir("/d%d" % i)
    assert err.value.errno == 13  # FR_DENIED


def test_an_erased_folder_sector_has_no_free_entry_so_the_folder_grows():
    # A cut while CircuitPython rewrote the folder's 4 KB erase sector leaves its sector 0xFF:
    # no entry there is free (a name starting 0xFF), and the old file is gone.
    d = drive([("/sub/keep.bin", b"k" * 512)])
    _, e, _ = d.walk("/sub")
    at = (DATA0 + e[3] - 2) * SECTOR
    d.flash.data[at:at + SECTOR] = b"\xff" * SECTOR
    d = Drive(d.flash, BLOCKS)
    assert d.file_bytes("/sub/keep.bin") is None
    f = d.open("/sub/new.bin", "wb")
    f.write(b"n" * 512)
    f.close()
    assert len(d.chain(e[3])) == 2 and d.file_bytes("/sub/new.bin") == b"n" * 512


def test_the_nvm_is_erased_whole_then_programmed_page_by_page():
    p = Power()
    nvm = NvmFlash(bytes(8192), p)
    nvm[0:8192] = bytes(range(256)) * 32
    assert [op[1] for op in p.ops] == ["erase"] + ["program"] * 16

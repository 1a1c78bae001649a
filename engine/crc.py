"""The CRC that guards saved games (engine.codec) and the old layout's NVM slots (lnr.copies
reads them once, to carry their records over): one small module, so that reading the NVM does
not have to load the whole codec (about 10 KB of RAM)."""


def crc16(data, start=0, end=-1):
    """Returns the CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of data[start:end] (end -1:
    to the end). It catches every burst error up to 16 bits, and unlike a Fletcher sum (mod 255)
    it tells an erased 0xFF byte from a 0x00."""
    if end < 0:
        end = len(data)
    crc = 0xFFFF
    for i in range(start, end):
        crc ^= data[i] << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc

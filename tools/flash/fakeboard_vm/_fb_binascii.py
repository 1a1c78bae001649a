"""binascii without crc32."""
from binascii import a2b_base64, b2a_base64, hexlify, unhexlify  # noqa: F401

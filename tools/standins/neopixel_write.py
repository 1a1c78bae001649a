"""neopixel_write: sends nothing (the neopixel library's last step)."""


def neopixel_write(digitalinout, buf):
    pass

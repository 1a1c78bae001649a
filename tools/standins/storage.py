"""storage: remount() and getmount(), with the rule that decides who may write CIRCUITPY.

Code may write "/" only after boot.py remounted it (`writable`), and only boot.py may (while
`in_boot`: the fake board sets it when it runs boot.py). `on_remount` (if set) is told the new
`readonly` (the fake board tells its host).
"""
in_boot = False
writable = False
on_remount = None


class _Mount:
    @property
    def readonly(self):
        return not writable


def remount(mount_path, readonly=False, *, disable_concurrent_write_protection=False):
    global writable  # pylint: disable=global-statement
    if mount_path != "/":
        raise OSError(22)  # EINVAL: only CIRCUITPY is mounted
    if not in_boot:
        raise RuntimeError("Cannot remount '/' when visible via USB.")
    writable = not readonly
    if on_remount is not None:
        on_remount(bool(readonly))


def getmount(mount_path):
    return _Mount()


def disable_usb_drive():
    pass


def enable_usb_drive():
    pass

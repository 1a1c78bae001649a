# Lok'n'Roll: start the app on this board (device/lib/lnr).
from lnr.boards import open_hardware
from lnr.main import run

run(open_hardware())

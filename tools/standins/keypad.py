"""keypad: Event, EventQueue and ShiftRegisterKeys, the way the app and boot.py read the buttons.

There are no buttons to scan: a new ShiftRegisterKeys reports the events in `pending` (those of
keys up to its key_count), as a scanner reports the keys held when it starts. The fake board puts
the keys held at power-up there; a test, the presses it scripts. `last` is the last
ShiftRegisterKeys made, for a test to see what the app asked for.
"""
pending = []  # (key_number, pressed) for the next ShiftRegisterKeys made
last = None


class Event:
    def __init__(self, key_number=0, pressed=True, timestamp=None):
        self.key_number = key_number
        self.pressed = pressed
        self.timestamp = timestamp

    @property
    def released(self):
        return not self.pressed


class EventQueue:
    def __init__(self, max_events=64):
        self._events = []  # (key_number, pressed), oldest first
        self._max = max_events
        self.overflowed = False

    def put(self, key_number, pressed):
        """What a scan adds (not a keypad method: the stand-in's own)."""
        if len(self._events) >= self._max:
            self.overflowed = True
        else:
            self._events.append((key_number, pressed))

    def get(self):
        if not self._events:
            return None
        key_number, pressed = self._events.pop(0)
        return Event(key_number, pressed)

    def get_into(self, event):
        if not self._events:
            return False
        event.key_number, event.pressed = self._events.pop(0)
        return True

    def clear(self):
        del self._events[:]
        self.overflowed = False

    def __len__(self):
        return len(self._events)

    def __bool__(self):
        return len(self._events) > 0


class ShiftRegisterKeys:
    """The PyBadge's and PyGamer's buttons: the board's own pins, pressed reads high."""

    def __init__(self, *, clock, data, latch, key_count, value_when_pressed,
                 value_to_latch=True, interval=0.02, max_events=64, debounce_threshold=1):
        global last  # pylint: disable=global-statement
        import board  # the board in use (installed before the app runs)

        if (clock is not board.BUTTON_CLOCK or data is not board.BUTTON_OUT
                or latch is not board.BUTTON_LATCH):
            raise ValueError("not the button shift register's pins")
        if value_when_pressed is not True:
            raise ValueError("these buttons read high when pressed")
        self.key_count = key_count
        self.events = EventQueue(max_events)
        for key_number, pressed in pending:
            if key_number < key_count:
                self.events.put(key_number, pressed)
        del pending[:]
        last = self

    def deinit(self):
        self.events = None

    def reset(self):
        pass

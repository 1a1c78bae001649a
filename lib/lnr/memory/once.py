"""Letting go of code that ran once: the constructors power-up calls (lnr/powerup.py) build the
App and what it holds for good, and are never called again, yet a class keeps its methods'
code in RAM for as long as the class lives. Loaded by power-up for that moment and dropped."""
import sys


def let_go(cls, *names):
    """Lets go of methods `names`, on `cls` or the class it builds on that has them, and of
    their code. Each is stored None before it is deleted: deleting a class's name alone leaves
    the function in the class dict's slot (as a failed import leaves a module: lnr.memory
    forget()), and its code with it. The desktop keeps them: it builds several Apps, as its
    tests do."""
    if sys.implementation.name == "cpython":
        return
    while cls is not object:
        for name in names:
            if name in cls.__dict__:
                setattr(cls, name, None)
                delattr(cls, name)
        cls = cls.__bases__[0] if cls.__bases__ else object

"""The budget's tables: the peaks by phase, the display objects, the modules; as text for the
terminal and as Markdown for docs/memory.md."""
from tools.membudget.session import LABELS, MOMENTARY, MOMENTS, resident_at

# How the same session is checked on CircuitPython's own VM (tools/cpapp.py, `make cpcheck`):
# its figures are that tool's to print, the reasoning is written here.
CP_BULLETS = [
    "- A switch (a new game, Continue, save & quit, game over, settings changed, a bot's plan, "
    "the hint) is made by lnr.main.step once the handler that asked for it has returned, in "
    "a call of its own (lnr/app.py App.switch()), on a scrubbed stack (lnr/main.py settle()): "
    "the collector scans the stack conservatively, and the handler left pointers to its code "
    "in the stack the switch's frames are made over; on CircuitPython's VM they kept the play "
    "screen's code (about 21 KB) in RAM through every switch and beside the next screen's. "
    "The stack is scrubbed again after the switch: its frames left pointers to the code it "
    "loaded and dropped (from .py, lnr.switch's 7 KB were kept through a whole game).",
    "- The saves' 8 KB image buffer is the sprite sheet's pixels (lnr/sheet.py): the NVM "
    "takes the image in one slice assignment, so every commit needs 8 KB in one piece, and "
    "made at each commit they were not there in one piece (a game's result lost to a "
    "MemoryError). The sheet is a 128x128 Bitmap of 4 bits a pixel, 8 KB made at power-up "
    "and kept; CircuitPython's Bitmap lends its bytes, the saves use them, and the sprites "
    "are read back from lib/lnr/sprites.bin before the display is refreshed. Drawn on the "
    "desktop (tools/draw_sprites.py), the sprites take no code on the board. Here the "
    "stand-in Bitmap keeps no pixels, so the Storage makes a buffer of its own, counted in "
    "every phase: these figures hold 8 KB that a board does not (CircuitPython's VM: "
    "make cpcheck).",
    "- The font sheet is copied from the Label's Bitmap (2 bits a pixel) into one of 1 bit a "
    "pixel at power-up, so the sheet kept is 864 B, not 1728 B (lnr/make.py).",
]
CP_SECTION = [
    "## On CircuitPython's own VM (`make cpcheck`)",
    "",
    "The session above also plays on CircuitPython 10's own VM (tools/cpapp.py; "
    "docs/hardware.md says where the VM comes from), capped with `-X heapsize`: from the .mpy"
    " files `make flash` writes, under 80 KB; from the .py sources (`make flash --no-mpy`), "
    "under 128 KB. A MemoryError anywhere, fragmentation included, fails the check. `make "
    "cpcheck` prints one line per run, the peaks by phase measured there, what importing each"
    " module needs for a moment, the bytes each frame of the main loop allocates (idle "
    "frames: none) and each screen's frame time; `python -m tools.cpcheck --smallest` finds "
    "the smallest cap each form plays under.",
    "",
    "How the VM's figures stand for a board's:",
    "",
    "- The VM's own start-up and the harness (the stand-ins, the keys) are *base*: read "
    "before the app's first import and left out; the capped run's heap is the cap plus base.",
    "- The VM's Bitmap and Palette are real; the stand-in Group and TileGrid weigh what "
    "Python objects weigh there. The display objects alive (found from the display's root "
    "group, so any made after start-up count while they live) are charged as the census's "
    "firmware objects instead, and the capped run's harness holds the difference.",
    "- Interned names: the harness's own fill the VM's first name pools, so the app's would "
    "land in bigger pools than on a board. The readings count a board's pools; the capped run"
    " grows the VM's pools before base and holds a board's, each a block of its size, from "
    "the frame in which a board allocates it.",
    "- A capped run also fails if the session goes otherwise than uncapped: an error the app "
    "caught (a hint never ends a game, not even on a MemoryError).",
    "",
    "Where the VM is harsher than a board, so that the check errs on the safe side: it splits"
    " `-X heapsize` into 4 equal areas, where a board's heap grows by areas on demand; and "
    "displayio allocates a Bitmap's pixels without collecting first, which fails on a heap "
    "full of garbage where a board would grow its heap; and it keeps a Python call's frame in"
    " the heap when there is room, where a board keeps frames on its pystack, outside the "
    "heap (its size is set in settings.toml by make flash: tools/pystack.py). Like a board's,"
    " its collector keeps whatever a stack slot still points to, stale or not.",
    "",
    "What fails first under a cap is not the peak but a block in one piece. Screens' and "
    "switches' code loaded and dropped again leaves the app's long-lived objects (the engine's "
    "code, the State, the names) spread over the heap, so that tens of KB are free in pieces."
    " The saves' 8 KB image was the first to be refused (the smallest .mpy cap was 133 KB "
    "with it made at each commit); it is now made at power-up and kept, which costs 8 KB in "
    "every phase and took the smallest .mpy cap to 109 KB. The smallest cap (`--smallest`) "
    "still lies above the peak: loading a screen's code needs blocks of up to a few KB, and "
    "the `best` bot's search in a switch (a bot's plan, the hint: lnr/play/think.py) holds "
    "copies "
    "of the State, its planners and its frames while it runs, which no reading between two "
    "frames sees: under the smallest caps that search is what failed first, until its "
    "planners and copies became spare objects set up afresh (see below: the smallest .mpy cap"
    " went from 83 to 80 KB).",
    "",
]


def kb(n):
    return "%.1f KB" % (n / 1024)


def _board(name):
    # The PyBadge's profile and the neopixel library; not the package lnr.boards, which picks
    # the profile at power-up and drops itself then (lnr/boards/__init__.py).
    return name == "neopixel" or name == "lnr.boards.pybadge"


def _rows(ph):
    """Returns [(phase, app heap bytes)] of a session's results."""
    rows = [("start-up: lnr.make resident, every display object built",
             max(ph.get("make", 0), ph["started"][0]))]
    peaks = ph["peaks"]
    for lab, name in enumerate(LABELS):
        if lab in peaks and peaks[lab][0] >= 0:
            rows.append((name if lab == 0 else "playing: " + name, peaks[lab][0]))
        if lab == 0:
            for kind, what, _ in MOMENTS:
                if kind in ph["moments"]:
                    rows.append((what, ph["moments"][kind][0]))
    return rows


def report(census, later, names, forms, heap_kb):
    """Returns (text lines, Markdown lines, peak) of the whole budget; `forms` maps "py"
    (and "mpy" when measured) to (costs, fails, hardware, phases, labels)."""
    budget = heap_kb * 1024 // 2
    display = census.total
    costs, fails, hardware, ph = forms["py"][:4]

    def board(form):
        c, _, hw_bytes = forms[form][:3]
        return hw_bytes + sum(c[n][0] for n in names if n in c and _board(n))

    def compile_extra(form):
        # The most an import briefly needs above what it leaves live: the compiler's working
        # memory (or an .mpy file's loading), for the worst module.
        c = forms[form][0]
        return max((c[n][1] - c[n][2], n) for n in c)

    rows = {form: _rows(forms[form][3]) for form in forms}
    totals = {form: [live + display + board(form) for _, live in rows[form]] for form in forms}
    peak = {form: max(totals[form]) for form in forms}
    extra = {form: compile_extra(form) for form in forms}
    txt = []
    md = []
    has_mpy = "mpy" in forms

    def verdict(form):
        p = peak[form]
        return "%s: %s peak %s, %s" % (
            "OK" if p < budget else "OVER BUDGET", {"py": ".py sources", "mpy": ".mpy files"}[
                form], kb(p), ("%s under the %s budget" % (kb(budget - p), kb(budget)))
            if p < budget else "over the %s budget" % kb(budget))

    head = ("Peaks by phase: app heap on the MicroPython VM (stand-in display objects taken out) "
            "+ display objects %d B + board %d B" % (display, board("py")))
    txt.append(head)
    txt.append("  %-60s %9s %9s%s" % ("", ".py heap", ".py", "   .mpy" if has_mpy else ""))
    md += ["## Peaks by phase", "",
           "The app plays one session on the MicroPython VM from power-up: %s (%d frames). The "
           "live heap is read after a real collection at every frame; the moments inside a "
           "switch (a module loaded for that moment only) are caught by running the session "
           "again up to their last time. *app heap*: everything but the display objects built "
           "at start-up (any made later are in it, while they live, by the same "
           "formulas) and the room the interned-name pools hold for names to come (the names "
           "are in it, as in the modules' table), with the modules as .py sources (compiled on "
           "the board) and as .mpy files (`make flash` "
           "sends those when CircuitPython's mpy-cross is at hand; measured with MicroPython's "
           "mpy-cross 1.29). *total* adds the display objects (%d B) and the board profile "
           "(%d B with .py, %d B with .mpy), resident in every phase."
           % ("; ".join(ph["said"]), ph.get("frames", 0), display, board("py"),
              board("mpy") if has_mpy else board("py")), "",
           "| phase | app heap (.py) | total (.py) |%s" % (" total (.mpy) |" if has_mpy else ""),
           "|---|---:|---:|%s" % ("---:|" if has_mpy else "")]
    mpy_total = dict(zip([r[0] for r in rows.get("mpy", ())], totals.get("mpy", ())))
    for i, (name, live) in enumerate(rows["py"]):
        other = kb(mpy_total[name]) if name in mpy_total else "-"
        txt.append("  %-60s %9d %9s%s" % (name, live, kb(totals["py"][i]),
                                          " %9s" % other if has_mpy else ""))
        md.append("| %s | %d | **%s** |%s" % (name, live, kb(totals["py"][i]),
                                              " %s |" % other if has_mpy else ""))
    for form in forms:
        txt.append(verdict(form))
    n_extra, m_extra = extra["py"]
    txt.append("An import from .py briefly needs up to %d B more (the compiler's working memory, "
               "%s): the .py peak plus that is %s." % (n_extra, m_extra,
                                                      kb(peak["py"] + n_extra)))
    if has_mpy:
        txt.append("Loading an .mpy file briefly needs up to %d B more (%s): the .mpy peak plus "
                   "that is %s." % (extra["mpy"][0], extra["mpy"][1],
                                    kb(peak["mpy"] + extra["mpy"][0])))
    md += ["", "**%s.**" % verdict("py")]
    if has_mpy:
        md += ["", "**%s.**" % verdict("mpy")]
    md += ["", "An import from .py source also needs the compiler's working memory for a moment, "
           "at most %d B above what the module leaves live (%s): the .py peak plus that is %s "
           "(an upper bound: a module loads when the heap is below its peak)."
           % (n_extra, m_extra, kb(peak["py"] + n_extra))]
    if has_mpy:
        md += ["Loading an .mpy file needs at most %d B for a moment (%s): the .mpy peak plus "
               "that is %s." % (extra["mpy"][0], extra["mpy"][1],
                                kb(peak["mpy"] + extra["mpy"][0]))]
    md += [""]

    txt.append("")
    txt.append("Display objects (built once at start; CircuitPython bytes, docs/hardware.md "
               "formula):")
    md += ["## Display objects", "",
           "Built once at start and kept for the whole run%s. A Bitmap's pixels by "
           "docs/hardware.md's formula ceil(w*bpp/32)*4*h plus its object, a TileGrid's object plus "
           "its tile map, in 16-byte heap blocks (object sizes from the CircuitPython 10 "
           "structs)." % ("" if not later else " (%d made after start-up!)" % later), "",
           "| bytes | count | object | each |", "|---:|---:|---|---:|"]
    for total, n, kind, each, what in census.grouped():
        txt.append("  %6d  %2d x %-8s %5d B: %s" % (total, n, kind, each, what))
        md.append("| %d | %d | %s %s | %d |" % (total, n, kind, what, each))
    kinds = census.by_kind()
    for kind in ("Palette", "Group"):
        txt.append("  %6d  all %ss" % (kinds.get(kind, 0), kind))
        md.append("| %d | | all %ss | |" % (kinds.get(kind, 0), kind))
    txt.append("  %6d  display total" % display)
    md += ["| **%d** | | **display total** | |" % display, ""]

    peaks = ph["peaks"]
    where = {}
    for lab in range(len(LABELS)):
        if lab in peaks and peaks[lab][0] >= 0:
            for m in resident_at(ph["mods"], peaks[lab][1]):
                where.setdefault(m, []).append(lab)
    seen_labels = [lab for lab in range(len(LABELS)) if lab in peaks and peaks[lab][0] >= 0]
    txt.append("")
    txt.append("Modules on the MicroPython VM: kept (live heap it adds) and import needs (all "
               "it allocates loading) as .py%s; where resident:" % (
                   ", kept as .mpy" if has_mpy else ""))
    md += ["## Modules", "",
           "Each imported alone on the MicroPython VM after the modules it imports at load. "
           "*kept*: the live heap it adds (code, globals, its interned names); *needs*: all it "
           "allocates while loading from .py source, compiler garbage included. *resident*: "
           "the phases at whose peak it was in sys.modules (from the .py session).", "",
           "| module | kept (.py) | needs (.py) |%s resident |" % (
               " kept (.mpy) |" if has_mpy else ""),
           "|---|---:|---:|%s---|" % ("---:|" if has_mpy else "")]
    for name in names:
        if name not in costs or (costs[name][0] == 0 and name in ("lnr", "engine")):
            continue
        kept, needs = costs[name][:2]
        if _board(name):
            res = "always (the PyBadge's profile)"
        elif name == "lnr.boards":
            res = "for a moment: start-up (it picks the board's profile)"
        elif name.startswith("lnr.boards"):
            res = "PyGamer only"
        elif name in where:
            labs = where[name]
            res = "always" if labs == seen_labels else ", ".join(LABELS[i] for i in labs)
        elif name in ph["loaded"] or name == "lnr.make":
            res = "for a moment: " + MOMENTARY.get(name, "dropped after use")
        else:
            res = "not loaded in the session"
        km = forms["mpy"][0].get(name, (0, 0))[0] if has_mpy else None
        txt.append("  %6d  %6d%s  %-36s %s" % (kept, needs, "  %6d" % km if has_mpy else "",
                                               name, res))
        md.append("| %s | %d | %d |%s %s |" % (name, kept, needs,
                                              " %d |" % km if has_mpy else "", res))
    for name, why in fails.items():
        txt.append("     n/a  %s: %s" % (name, why))
        md.append("| %s | n/a | |%s %s |" % (name, " |" if has_mpy else "", why))
    txt.append("  %6d          Hardware object (PyBadge profile, fake board parts)" % hardware)
    md += ["| Hardware object (PyBadge profile) | %d | |%s always |" % (
        hardware, " %d |" % forms["mpy"][2] if has_mpy else ""), ""]
    label_text = text_labels(forms)
    txt += ["", label_text]
    md += ["## How the app keeps its RAM down", "",
           "- " + label_text + " It is in RAM only at power-up, where it draws the font "
           "sheet, one Label of the 95 printable characters whose 1-bit Bitmap (864 B) is kept "
           "(lnr/make.py; adafruit_ticks stays: the LEDs' and the board's tick arithmetic). "
           "All text is TileGrids of that sheet, as CircuitPython's own terminal draws it, "
           "and nothing more: a line's tiles are its text, its palette its colour, one "
           "2-colour palette per ink shared by the lines shown in it (lnr/ui.py): the play "
           "screen's, the menus' titles (at "
           "twice the size) and lines, and the error screen's (resident: it must show whatever "
           "the heap holds). As Labels with their library loaded beside the menus, the title "
           "held about 17 KB more on CircuitPython's VM (.mpy) and the 8 lines about 11 KB "
           "more, and each key redrew a Bitmap glyph by glyph.",
           "- The menus' code (lnr.menus.screen, lnr.menus.labels) and the play "
           "screen's (lnr.play.screen, view, mapview) are never in RAM together: a "
           "switch between them drops one side and every module it imported, collects, then "
           "imports the other (lnr/app.py). The engine is loaded with a game (lnr.switch) and "
           "dropped when none is on: the menus run without it.",
           "- Modules needed for a moment are loaded for that moment and dropped: the display's "
           "building (lnr.make) at start-up, the saves' copies (lnr.copies and lnr.image; "
           "their 8 KB image buffer is the sprite sheet's, see below) for each read or write "
           "of the saves "
           "(docs/storage.md), the save "
           "codec (engine.codec) to pack or unpack a save, the switch itself (lnr.switch, which "
           "also counts a finished game, the game and the engine gone before its commit), how "
           "to play's pages, the penalty cards' orders (engine.order) when the player puts "
           "them on the pile or discards chaos cards. The play screen's action menu "
           "(lnr.play.actions, START), the toast that says why a card cannot be picked "
           "(lnr.play.refusal), its penalty order panel (lnr.play.penalty) and looking around "
           "the track (lnr.play.look, SELECT) are loaded while they are up and dropped when they close.",
           "- The bots' code (engine.bots, engine.ai and the weights) never shares RAM with the "
           "play screen's: a bot plans the rest of its turn in a switch with the play screen's "
           "code dropped (lnr/play/think.py plan_turn, on copies of the State and of the dice's "
           "generator: the very turn it would play step by step), and the play screen, loaded "
           "again as it was left, plays the plan; the hint is found the same way "
           "(lnr/play/hintplan.py) and shown by lnr/play/hint.py. That switch loads neither "
           "lnr.switch (the "
           "code that deals, saves and counts games) nor the other modes' weights "
           "(engine.ai_weights is dropped once engine.bots holds the game's table), and the "
           "play screen lets the last turn's States go at a new turn.",
           "- The `best` bot's search (engine.lookahead) makes dozens of planners and copies "
           "of the State in a decision. Each is one spare object set up afresh (a Planner's "
           "__init__, State.copy_to()): made anew, each object's table of some 30 attributes "
           "grew step by step, about ten blocks made and dropped, and that left the heap in "
           "pieces (a 232-byte table was what CircuitPython's VM refused under the smallest "
           "caps). The spares keep no lists between decisions, the decision's own planner "
           "keeps only its options (for the hint's words), and a planner's lists are made at "
           "their length (a list grown by append() doubles its room).",
           "- The board's build folds the constants the modules share into the code that uses "
           "them (tools/fold.py): the names of actions, phases, screens, colours and sprites "
           "are no globals and no interned names there, and lnr.sprites leaves RAM after "
           "start-up. Then a parameter no shipped call passes by keyword takes a short name, "
           "the same few for every function (tools/shrink.py: a, b, c ..., in ROM on "
           "CircuitPython's VM): a compiled function keeps its parameters' names, interned "
           "for good. Last, every other name our modules define (a global, a def, a class, "
           "an attribute they store) takes a name CircuitPython holds in ROM or a short one, "
           "the same at every place it stands, unless something outside our modules reaches "
           "it (the firmware, the libraries, the harness, a name written as text) "
           "(tools/rename.py; `python -m tools.rename < traceback.txt` writes a board's "
           "traceback back). The libraries' parameters no shipped call passes by keyword "
           "take short names too. For a board that compiles the .py files (make flash "
           "--no-mpy), which interns every name its lexer reads and holds a module's whole "
           "parse until it is compiled, the build also renames every function's locals, "
           "writes each private constant as its value (tools/fold.py) and leaves the "
           "docstrings out (tools/nodocs.py); none of these changes a .mpy file "
           "(host_tests/test_nodocs.py compiles every module both ways). "
           "A compiled module's source name is its module name (interned anyway). "
           "The .mpy files are compiled at mpy-cross -O3 (tools/deploy.py MPY_FLAGS): no line "
           "numbers in the bytecode, about 7% less code in RAM; a traceback on the board names "
           "the module and the function, not the line.",
           "- Legality checks use State.is_legal(): the reasons' words (engine.explain) never "
           "load.",
           "- The tables resident in every phase are ints and bytes: the LEDs' colours "
           "(0xRRGGBB) and brightness levels (lnr/leds.py), the sound effects' notes and "
           "frequencies (lnr/sound.py). On the board a tuple or a float is an object of its "
           "own in the heap (a 3-tuple 32 bytes, a float 16), a small int none."]
    md += CP_BULLETS + [""] + CP_SECTION
    md += ["## What is not measured", "",
           "Hence the margin under the budget: CircuitPython's own heap use (USB, the display "
           "bus, the supervisor), fragmentation, the exact size of C objects (display objects "
           "are estimates from the CircuitPython 10 structs; the VM counts the app's Python "
           "objects exactly), and where CircuitPython's interned-name pools happen to grow (they "
           "double, so a few KB either way). Made by `make membudget` (tools/membudget/), "
           "whose docstring explains each number."]
    return txt, md, peak["py"]


TEXT_LIBRARY = ("adafruit_display_text", "adafruit_display_text.bitmap_label", "adafruit_ticks")


def text_labels(forms):
    """Returns a sentence with what adafruit_display_text costs: its modules' kept bytes and
    one bitmap_label.Label's, as .py and as .mpy (from import_costs())."""
    def cost(form):
        costs, labels = forms[form][0], forms[form][4]
        kept = sum(costs[n][0] for n in TEXT_LIBRARY if n in costs)
        return kept, labels.get((26, 1), 0), labels.get((13, 2), 0)

    py = cost("py")
    if not py[0]:
        return "The app does not import adafruit_display_text."
    mpy = cost("mpy") if "mpy" in forms else None
    both = "%d B as .py" + (", %d B as .mpy" if mpy else "")

    def fmt(i):
        return both % ((py[i], mpy[i]) if mpy else (py[i],))

    return ("The font sheet is drawn by adafruit_display_text's bitmap_label: its code "
            "(bitmap_label, the package's __init__ and adafruit_ticks, measured on the "
            "MicroPython VM) keeps %s; a Label of a 26-character line %s, of 13 characters at "
            "twice the size %s, its 2-bit Bitmap and other display objects included."
            % (fmt(0), fmt(1), fmt(2)))

"""Why `best` advises what it does, in the game's own terms (docs/rules.md): the words of the
device's hint (lnr/play/hintplan.py puts them on the panel) and of the desktop's review of a game
(tools/bots/review.py). What a pass costs (§4, §6), a build's chance of derailing and what a
derailment would cost against the pass (§5), in a challenge the derailments left before the 4th
loses (§8: the side panel's lives), and for a pass the safest build's risk and `best`'s estimate
of the final score against it. Card names are engine.cards.card_name's."""
# Loaded only when advice is given (the hint's switch, lnr/play/hintplan.py, once the search is
# done; the review): its strings cost RAM on the device, which the table's bots do not need. What
# only the review says (an action in words) is the review's. Every line fits the hint's panel line
# (lnr.ui PANEL_W, 22 characters): host_tests/test_hint_words.py draws every line the bench's games
# give rise to.
from engine.cards import KIND, VALUE, KIND_BROKEN, card_name
from engine.risk import derail_chance, wheel_counts
from engine.state import (
    A_PASS, A_STOP, A_CHAOS, A_PILE, A_LAY, P_CHAOS, P_TURN, MODE_CHALLENGE, CHALLENGE_DERAILS,
)
from engine.tops import pile_tops


def _least(pile, values):
    # The least change of the pile's sum (values, its top last) that putting cards of
    # `values` on it in some order reaches (§6, D3).
    least = None
    for t, d in pile_tops(pile, values):
        if least is None or d < least:
            least = d
    return least


def pass_cost(state):
    """Returns (cards, points): the penalty cards a pass takes now and what they add to the
    score, put on the pile in the best order (§4: the loco 1 card on, a broken card entered
    costs 1 more, D1; §6: never the loco's card, D4)."""
    loco = state.loco
    track = state.track
    m = 1 if state.ahead() > 0 else 0
    earned = 1 + (1 if m and KIND[track[loco + 1]] == KIND_BROKEN else 0)
    n = earned if earned < loco + m else loco + m
    if n == 0:
        return 0, 0
    return n, _least([VALUE[c] for c in state.piles[state.seat]], [VALUE[c] for c in track[:n]])


def derail_cost(state, k=0, v=0):
    """Returns what a derailment of the build so far, with `k` more cards of value `v` laid,
    would add to the score, on average over the rolls that derail (§5: a penalty card for
    every move left and every broken card entered; §6: the cards behind the loco, put on the
    pile in the best order), rounded; None if it cannot derail."""
    dice = state.build_sum + k * v
    ahead = state.ahead() + k
    if dice <= ahead:
        return None
    track = state.track
    hits = 0
    for i in range(state.loco + 1, len(track)):
        if KIND[track[i]] == KIND_BROKEN:
            hits += 1
    values = [VALUE[c] for c in track] + [v] * k
    end = len(values) - 1  # the loco's card once it derails: the cards before it can go
    pile = [VALUE[c] for c in state.piles[state.seat]]
    counts = wheel_counts(dice)
    num = den = 0
    for w in range(ahead + 1, dice + 1):
        n = hits + w - ahead
        num += counts[w] * _least(pile, values[:n if n < end else end])
        den += counts[w]
    return (2 * num + den) // (2 * den)


def lives(state):
    """Returns the derailments a challenge has left before the 4th loses in the words of the
    turn's result (§8: the side panel's lives), or "" in the other modes."""
    if state.mode != MODE_CHALLENGE:
        return ""
    left = CHALLENGE_DERAILS - 1 - state.derails
    return "Lives left: %d" % (left if left > 0 else 0)


def _cost(state, derail, passing):
    # What a derailment costs (None: the build cannot derail; where one more derailment
    # loses, §8, that), against the pass's points (None: no pass to weigh it against, the
    # turn's action has begun or is the pass).
    if derail is None:
        text = "Can't derail"
    elif state.mode == MODE_CHALLENGE and state.derails >= CHALLENGE_DERAILS - 1:
        text = "Derail loses"
    else:
        text = "Derail %+d" % derail
    return text + ("" if passing is None else ", pass %+d" % passing)


def why(state, action, options, values=None, after=None):
    """Returns why `action` is `best`'s choice as (lives(), head, risk, tail): the lines that
    name what it does beyond the build's cards (head: "Pass: 2 cards, +5", "Or lay 1
    straight"), the chance of derailing to show with the screen's rounding (risk: (num, den,
    (num, den) of entering a broken card or None) or None) and the lines after it (tail: "4
    dice, 3 ahead", "Derail +3, pass +5"). `options` and `values`: those of the
    engine.lookahead Search that chose it (or an engine.ai Planner's options, values None):
    action -> (value, chance of derailing, cards) of its best plan, and the look-ahead's
    estimates of those it played on; `after`: a build's copy of `state` with the cards it
    names laid (None: the roll of the build so far)."""
    # (Small functions: each one's code is a block of its own in RAM, which a device's heap in
    # pieces has room for sooner.)
    if action == A_PASS:
        out = _pass(state, options, values)
    elif action == A_STOP and state.phase == P_CHAOS:
        out = [], None, ["Keep the rest"]
    elif action >= A_CHAOS:  # a chaos card or a penalty card put on the pile
        pile = [VALUE[c] for c in state.piles[state.seat]]
        v = VALUE[action - A_PILE] if action >= A_PILE else VALUE[action - A_CHAOS]
        if pile and pile[-1] == v:  # §6: both go to the box (a chaos card from the hand)
            text = "Combines: -%d" % (v if action >= A_PILE else 2 * v)
        elif action >= A_PILE:  # the best order's change of the pile's sum
            text = "Pile %+d in all" % _least(pile, [VALUE[c] for c in state.penalty])
        else:
            text = "No dice, no penalty"
        out = [], None, [text]
    else:  # a build laid (`after`), or the roll of the build so far
        t = state if after is None else after
        out = (["Roll the dice"] if action == A_STOP else [], t.build_risk() + (t.broken_risk(),),
               ["%d dice, %d ahead" % (t.build_sum, t.ahead()),  # why the risk (§5)
                _cost(state, derail_cost(t), pass_cost(state)[1] if state.phase == P_TURN
                      else None)])
    return (lives(state),) + out


def _pass(state, options, values):
    # A pass: what it costs, and the build least likely to derail (the better valued first):
    # its risk, what its derailment would cost, and how much lower `best` expects the final
    # score after the pass, in tenths of a point (the look-ahead's estimates where it played
    # both on, else engine.ai's).
    n, d = pass_cost(state)
    head = ["Pass: %d card%s, %+d" % (n, "" if n == 1 else "s", d) if n else "Pass: no penalty"]
    found = None
    for a in options:  # in no fixed order (MicroPython's dicts): ties go to the lower action
        if A_LAY <= a < A_CHAOS:
            o = options[a]
            if found is None or (o[1], o[0], a) < found:
                found = (o[1], o[0], a)
    if found is None:
        return head, None, ["No card fits"]
    a = found[2]
    k = options[a][2]
    v = VALUE[a - A_LAY]
    head.append("Or lay " + card_name(a - A_LAY) if k == 1 else "Or lay %d cards of %d" % (k, v))
    derail = derail_cost(state, k, v)
    tail = [_cost(state, derail, None)]
    if not (values and A_PASS in values and a in values):
        values = None
        if A_PASS in options and a in options:
            values = {A_PASS: options[A_PASS][0], a: options[a][0]}
    # (Where a derailment would lose, §8, that is why, whatever the estimates.)
    if values and not (derail is not None and state.mode == MODE_CHALLENGE and
                       state.derails >= CHALLENGE_DERAILS - 1):
        gap = ((values[a] - values[A_PASS]) * 10 + 262144) // 524288  # 1/16 x 32768, tenths
        if gap >= 0:
            tail.append("Pass ends %d.%d lower" % (gap // 10, gap % 10))
    return head, derail_chance(k * v, state.ahead() + k) + (None,), tail

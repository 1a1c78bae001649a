"""Built-in players: a bot is a function (state, rng) -> action, chosen among legal actions.

Only `random` lives here for now; stronger bots come with their own module.
"""


def random_bot(state, rng):
    """Returns a legal action drawn uniformly (the baseline, and the fuzzer's player)."""
    actions = state.legal_actions()
    return actions[rng.randbelow(len(actions))]


BOTS = {"random": random_bot}

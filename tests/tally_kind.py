"""A tiny game kind for testing the store and the session layer without any real game's rules."""
import copy

from companion.rules.errors import RuleError

KIND = "tally"
TITLE = "Tally"


def new_game(players, form):
    return normalize({"kind": "tally", "players": list(players), "marks": []}, players)


def normalize(game, players):
    marks = game.get("marks", [])
    if not isinstance(marks, list) or not all(isinstance(m, int) and not isinstance(m, bool) for m in marks):
        raise RuleError("marks must be whole numbers", "marks")
    return {"kind": "tally", "players": list(game.get("players", players)), "marks": list(marks)}


def compute(game):
    return {"kind": "tally", "total": sum(game["marks"]), "at": str(len(game["marks"]))}


def apply(game, action):
    if action.get("at") is not None and action["at"] != str(len(game["marks"])):
        raise RuleError("Already recorded from another phone")
    n = action.get("n")
    if not isinstance(n, int) or n < 0:
        raise RuleError("n must be a whole number", "n")
    new = copy.deepcopy(game)
    new["marks"].append(n)
    return new


def settlement(game, state):
    return {"net": {}, "on_table": 0}

"""Desmoche (and Honduran Conquián): money rules (see shared/rules/desmoche.md).

Pure module implementing companion/rules/CONTRACT.md. The game object is the session-file shape
(shared/formats/session-v1.md, "Desmoche game"), amounts in the table's unit, plus one optional key:

* ``next_stake`` (game level): a stake agreed for the NEXT hand, recorded by ``set_stake`` before the
  hand is; the next ``hand`` action moves it into that hand's ``stake`` and drops it.

Canonical rules: ``variant stake bonuses color_wins side_games side_unclaimed``. ``conquian`` refuses
``bonuses: true``, ``color_wins: true`` and every side game except ``oro``; it has no automatic wins.
Canonical hand: ``winner`` (always; null = no winner) then, when they apply, ``auto_win``, ``mico``
(> 0), ``same_suit`` (true), ``arriba`` (non-empty; dropped after an automatic win, where every loser is
arriba), ``disqualified``, ``stake``, ``side`` ({name: {"joined": [...], "winner": name|null}}).

Form fields for ``new_game(players, form)`` (strings, as posted; blank = default):
  ``seats`` (comma-separated names, counterclockwise, seats[0] deals first) or ``seat0`` .. ``seat3``;
  ``variant`` (desmoche|conquian), ``stake`` (1), ``bonuses`` (on/off, off), ``color_wins`` (on/off,
  off), ``side_games`` ("oro:5, par_rojo:5" or a JSON object) and/or ``side_<name>`` (e.g.
  ``side_oro=5``; blank/0 = not played), ``side_unclaimed`` (carry|return), ``unit_value`` (1, minor
  units per unit). Errors name the form field.

Actions for ``apply(game, action)``; each may carry ``"at"`` (compute(game)["at"]), refused (path
``at``) when stale. Error paths are relative to the action (``hand.winner``, ``hand.side.oro.winner``).

  {"type": "hand", "hand": {"winner": null}}                                   no winner: pot rolls over
  {"type": "hand", "hand": {"winner": "Bea", "mico": 1, "arriba": ["Carlos"],
                            "side": {"oro": {"joined": ["Ane", "Bea"], "winner": "Ane"}}}}
  {"type": "hand", "hand": {"winner": "Ane", "auto_win": "peladilla", "disqualified": ["Carlos"]}}
  {"type": "hand", "hand": {"stake": 20, "winner": "Ane", "same_suit": true}}
        (a complete session-file hand; every player's stake goes in automatically)
  {"type": "set_stake", "stake": 20}             the stake from the next hand on
  {"type": "end_series"}                         ended: unwon pot and side pots go back
  {"type": "replace_hand", "index": 0, "hand": {...}}   correct a past hand (0 = first); all recomputed

compute(game) keys: required ``kind pot multiple side_pots net`` plus UI keys: ``at``, ``variant``,
  ``seats``, ``ended``, ``stake`` (stake of the next hand), ``multiple`` (rounds of stakes in the pot
  since it was last won: pot ÷ (stake × players) when the stake did not change), ``multiple_words``
  ("1×", "doble", "triple", "cuádruple", ...; "" for 0), ``next_multiple`` / ``next_multiple_words``
  (what the next hand plays for), ``balances`` (= net, units), ``hand_number`` (next hand),
  ``next_dealer`` (seats[0] deals the first hand, then counterclockwise = next seat in the list),
  ``side_stakes``, ``log`` (every movement: {"hand": n|None, "from": x, "to": y, "units": n,
  "why": text}; pots are written "@pot", "@side:oro"; notes have from/to None and units 0),
  ``hands`` (per-hand summaries: number, dealer, stake, winner, auto_win, pot, multiple, bonuses
  {loser: units}, side {name: {pot, winner, result: won|carried|returned}}, delta {player: units}),
  ``returned`` (at the end: {player: units} given back), ``legal`` (action types accepted now).
"""
from __future__ import annotations

import copy
import json

from . import chips as C
from .errors import RuleError

KIND = "desmoche"
TITLE = "Desmoche"

VARIANTS = ("desmoche", "conquian")
AUTO_WINS = ("peladilla", "cuatro_cuerpos", "color")
SIDE_GAMES = ("oro", "corazon", "flor", "corazon_negro", "par_rojo", "par_negro", "dos_par_rojo",
              "dos_par_negro", "tres_cuerpos", "escalera")
MIN_PLAYERS, MAX_PLAYERS = 2, 4
GAME_KEYS = ("kind", "rules", "seats", "unit_value", "hands", "ended", "next_stake")
RULE_KEYS = ("variant", "stake", "bonuses", "color_wins", "side_games", "side_unclaimed")
HAND_KEYS = ("winner", "auto_win", "mico", "same_suit", "arriba", "disqualified", "stake", "side")

MULTIPLE_WORDS = {1: "1×", 2: "doble", 3: "triple", 4: "cuádruple", 5: "quíntuple", 6: "séxtuple",
                  7: "séptuple", 8: "óctuple", 9: "nónuple", 10: "décuple"}


def multiple_words(n: int) -> str:
    if n <= 0:
        return ""
    return MULTIPLE_WORDS.get(n, f"{n}×")


# ----------------------------------------------------------------------------------------------------
# normalize
# ----------------------------------------------------------------------------------------------------

def _norm_rules(raw, path: str = "rules") -> dict:
    r = C.need_dict(raw, path)
    C.check_keys(r, RULE_KEYS, path)
    variant = C.need_choice(r.get("variant", "desmoche"), VARIANTS, C.join(path, "variant"))
    if "stake" not in r:
        raise RuleError("missing: the stake each player puts in every hand", C.join(path, "stake"))
    out = {"variant": variant, "stake": C.need_int(r["stake"], C.join(path, "stake"), 1),
           "bonuses": C.need_bool(r.get("bonuses", False), C.join(path, "bonuses")),
           "color_wins": C.need_bool(r.get("color_wins", False), C.join(path, "color_wins"))}
    if variant == "conquian":
        if out["bonuses"]:
            raise RuleError("Conquián has no bonuses", C.join(path, "bonuses"))
        if out["color_wins"]:
            raise RuleError("Conquián has no automatic wins", C.join(path, "color_wins"))
    sp = C.join(path, "side_games")
    side = C.need_dict(r.get("side_games", {}), sp)
    games = {}
    for name, stake in side.items():
        np_ = C.join(sp, name)
        if name not in SIDE_GAMES:
            raise RuleError(f"{name!r} is not a side game ({', '.join(SIDE_GAMES)})", np_)
        if variant == "conquian" and name != "oro":
            raise RuleError(f"Conquián plays only the oro side game, not {name}", np_)
        games[name] = C.need_int(stake, np_, 1)
    out["side_games"] = {k: games[k] for k in SIDE_GAMES if k in games}
    out["side_unclaimed"] = C.need_choice(r.get("side_unclaimed", "carry"), ("carry", "return"),
                                          C.join(path, "side_unclaimed"))
    return out


def _norm_hand(raw, rules: dict, seats: list[str], path: str) -> dict:
    h = C.need_dict(raw, path)
    C.check_keys(h, HAND_KEYS, path)
    j = lambda k: C.join(path, k)  # noqa: E731
    if "winner" not in h:
        raise RuleError("missing (null when nobody won the hand)", j("winner"))
    disq = C.name_list(h.get("disqualified", []), seats, j("disqualified"))
    winner = h["winner"]
    out: dict = {"winner": None}
    if winner is not None:
        C.need_seated(winner, seats, j("winner"))
        if winner in disq:
            raise RuleError(f"{winner} was disqualified: he cannot win the hand", j("winner"))
        out["winner"] = winner
    auto = h.get("auto_win")
    if auto is not None:
        if rules["variant"] == "conquian":
            raise RuleError("Conquián has no automatic wins", j("auto_win"))
        C.need_choice(auto, AUTO_WINS, j("auto_win"))
        if auto == "color" and not rules["color_wins"]:
            raise RuleError("color is not an automatic win at this table (color_wins is off)", j("auto_win"))
        if winner is None:
            raise RuleError("an automatic win needs a winner", j("auto_win"))
        out["auto_win"] = auto
    mico = C.need_int(h.get("mico", 0), j("mico"))
    same = C.need_bool(h.get("same_suit", False), j("same_suit"))
    arriba = C.name_list(h.get("arriba", []), seats, j("arriba"))
    for key, val in (("mico", mico), ("same_suit", same), ("arriba", arriba)):
        if not val:
            continue
        if winner is None:
            raise RuleError("no bonus without a winner", j(key))
        if not rules["bonuses"]:
            why = "Conquián has no bonuses" if rules["variant"] == "conquian" else \
                "bonuses are off at this table (bonuses: false)"
            raise RuleError(why, j(key))
        if auto and key != "arriba":
            raise RuleError(f"an automatic win ({auto}) has no melds: no {key}", j(key))
    if mico:
        out["mico"] = mico
    if same:
        out["same_suit"] = True
    for i, name in enumerate(arriba):
        if name == winner:
            raise RuleError(f"{name} won the hand: only losers can be arriba del palo", j("arriba") + f"[{i}]")
        if name in disq:
            raise RuleError(f"{name} was disqualified: he pays no bonus", j("arriba") + f"[{i}]")
    if arriba and not auto:
        out["arriba"] = arriba
    if disq:
        out["disqualified"] = disq
    if "stake" in h and h["stake"] is not None:
        out["stake"] = C.need_int(h["stake"], j("stake"), 1)
    sp = j("side")
    side = C.need_dict(h.get("side", {}) or {}, sp)
    sides = {}
    for name, sg in side.items():
        gp = C.join(sp, name)
        if name not in rules["side_games"]:
            raise RuleError(f"{name!r} is not a side game of this table", gp)
        C.need_dict(sg, gp)
        C.check_keys(sg, ("joined", "winner"), gp)
        joined = C.name_list(sg.get("joined", []), seats, C.join(gp, "joined"))
        if "winner" not in sg:
            raise RuleError("missing (null when no player who joined qualifies)", C.join(gp, "winner"))
        sw = sg["winner"]
        if sw is not None:
            C.need_seated(sw, seats, C.join(gp, "winner"))
            if sw not in joined:
                raise RuleError(f"{sw} did not join {name}", C.join(gp, "winner"))
        if joined:
            sides[name] = {"joined": joined, "winner": sw}
    if sides:
        out["side"] = {k: sides[k] for k in SIDE_GAMES if k in sides}
    return out


def normalize(game: dict, players: list[str]) -> dict:
    g = C.need_dict(game, "")
    C.check_keys(g, GAME_KEYS, "")
    if g.get("kind") != KIND:
        raise RuleError(f"must be {KIND!r}", "kind")
    if "rules" not in g:
        raise RuleError("missing", "rules")
    rules = _norm_rules(g["rules"])
    if "seats" not in g:
        raise RuleError("missing", "seats")
    seats = C.need_seats(g["seats"], players, MIN_PLAYERS, MAX_PLAYERS)
    out = {"kind": KIND, "rules": rules, "seats": seats,
           "unit_value": C.need_int(g.get("unit_value", 1), "unit_value")}
    hands = C.need_list(g.get("hands", []), "hands")
    out["hands"] = [_norm_hand(h, rules, seats, f"hands[{i}]") for i, h in enumerate(hands)]
    out["ended"] = C.need_bool(g.get("ended", False), "ended")
    if g.get("next_stake") is not None:
        if out["ended"]:
            raise RuleError("the series is over: no next hand", "next_stake")
        out["next_stake"] = C.need_int(g["next_stake"], "next_stake", 1)
    return out


# ----------------------------------------------------------------------------------------------------
# compute
# ----------------------------------------------------------------------------------------------------

def _simulate(g: dict) -> dict:
    rules, seats = g["rules"], g["seats"]
    n = len(seats)
    bal = {p: 0 for p in seats}
    pots = {"pot": 0}
    for name in rules["side_games"]:
        pots["side:" + name] = 0
    contrib = {k: {p: 0 for p in seats} for k in pots}
    rounds = 0
    stake = rules["stake"]
    log: list = []
    hand_no = [None]
    summaries = []

    def add(token, k):
        if token.startswith("@"):
            pots[token[1:]] += k
        else:
            bal[token] += k

    def move(frm, to, k, why):
        add(frm, -k)
        add(to, k)
        log.append({"hand": hand_no[0], "from": frm, "to": to, "units": k, "why": why})

    def note(why):
        log.append({"hand": hand_no[0], "from": None, "to": None, "units": 0, "why": why})

    for i, h in enumerate(g["hands"]):
        hand_no[0] = i + 1
        before = dict(bal)
        if "stake" in h and h["stake"] != stake:
            note(f"Stake changed from {stake} to {h['stake']}")
        stake = h.get("stake", stake)
        for p in seats:
            move(p, "@pot", stake, f"{p} put {stake} in the pot")
            contrib["pot"][p] += stake
        rounds += 1
        s = {"number": i + 1, "dealer": seats[i % n], "stake": stake, "winner": h["winner"],
             "auto_win": h.get("auto_win"), "pot": pots["pot"], "multiple": rounds,
             "multiple_words": multiple_words(rounds), "bonuses": {}, "side": {}}
        for name, sg in h.get("side", {}).items():
            st = rules["side_games"][name]
            for p in sg["joined"]:
                move(p, "@side:" + name, st, f"{p} joined {name}: put {st} in")
                contrib["side:" + name][p] += st
        w = h["winner"]
        if w is None:
            note(f"No winner: the pot of {pots['pot']} rolls over ({multiple_words(rounds + 1)})")
        else:
            how = f" ({h['auto_win'].replace('_', ' ')})" if h.get("auto_win") else ""
            move("@pot", w, pots["pot"], f"{w} won{how}: took the pot of {pots['pot']}")
            contrib["pot"] = {p: 0 for p in seats}
            rounds = 0
            if rules["bonuses"]:
                disq = h.get("disqualified", [])
                arriba = [p for p in seats if p != w and p not in disq] if h.get("auto_win") \
                    else h.get("arriba", [])
                for p in seats:
                    if p == w or p in disq:
                        continue
                    paid = 0
                    mico = h.get("mico", 0)
                    if mico:
                        label = "mico" if mico == 1 else f"{mico} micos"
                        move(p, w, stake * mico, f"{p} paid {w} {stake * mico} ({label})")
                        paid += stake * mico
                    if h.get("same_suit"):
                        move(p, w, stake, f"{p} paid {w} {stake} (same suit)")
                        paid += stake
                    if p in arriba:
                        move(p, w, stake, f"{p} paid {w} {stake} (arriba del palo)")
                        paid += stake
                    if paid:
                        s["bonuses"][p] = paid
        for name, sg in h.get("side", {}).items():
            key = "side:" + name
            pot = pots[key]
            if sg["winner"] is not None:
                move("@" + key, sg["winner"], pot, f"{sg['winner']} won {name}: took {pot}")
                contrib[key] = {p: 0 for p in seats}
                s["side"][name] = {"pot": pot, "winner": sg["winner"], "result": "won"}
            elif rules["side_unclaimed"] == "return":
                for p in seats:
                    if contrib[key][p]:
                        move("@" + key, p, contrib[key][p], f"Nobody qualified for {name}: {p} got "
                             f"{contrib[key][p]} back")
                contrib[key] = {p: 0 for p in seats}
                s["side"][name] = {"pot": pot, "winner": None, "result": "returned"}
            else:
                note(f"Nobody qualified for {name}: its pot of {pot} carries over")
                s["side"][name] = {"pot": pot, "winner": None, "result": "carried"}
        s["delta"] = {p: bal[p] - before[p] for p in seats}
        summaries.append(s)
    hand_no[0] = None
    returned = {p: 0 for p in seats}
    if g["ended"]:
        for key in pots:
            label = "the unwon pot" if key == "pot" else f"the {key[5:]} pot"
            for p in seats:
                if contrib[key][p]:
                    move("@" + key, p, contrib[key][p], f"Series ended: {p} got back {contrib[key][p]} "
                         f"from {label}")
                    returned[p] += contrib[key][p]
            contrib[key] = {p: 0 for p in seats}
        rounds = 0
    return {"balances": bal, "pots": pots, "rounds": rounds, "stake": stake, "log": log,
            "hands": summaries, "returned": returned if g["ended"] else None}


def _legal(g: dict) -> list[str]:
    if g["ended"]:
        return ["replace_hand"] if g["hands"] else []
    return ["hand", "set_stake", "end_series"] + (["replace_hand"] if g["hands"] else [])


def compute(game: dict) -> dict:
    g = normalize(game, list(game.get("seats") or []) if isinstance(game, dict) else [])
    sim = _simulate(g)
    seats = g["seats"]
    stake = g.get("next_stake", sim["stake"])
    rounds = sim["rounds"]
    return {
        "kind": KIND,
        "pot": sim["pots"]["pot"],
        "multiple": rounds,
        "side_pots": {name: sim["pots"]["side:" + name] for name in g["rules"]["side_games"]},
        "net": dict(sim["balances"]),
        "at": C.position_token(g),
        "variant": g["rules"]["variant"],
        "seats": list(seats),
        "ended": g["ended"],
        "stake": stake,
        "multiple_words": multiple_words(rounds),
        "next_multiple": 0 if g["ended"] else rounds + 1,
        "next_multiple_words": "" if g["ended"] else multiple_words(rounds + 1),
        "balances": dict(sim["balances"]),
        "hand_number": len(g["hands"]) + 1,
        "next_dealer": None if g["ended"] else seats[len(g["hands"]) % len(seats)],
        "side_stakes": dict(g["rules"]["side_games"]),
        "log": sim["log"],
        "hands": sim["hands"],
        "returned": sim["returned"],
        "legal": _legal(g),
    }


# ----------------------------------------------------------------------------------------------------
# apply
# ----------------------------------------------------------------------------------------------------

def apply(game: dict, action: dict) -> dict:
    g = normalize(game, list(game.get("seats") or []) if isinstance(game, dict) else [])
    if not isinstance(action, dict):
        raise RuleError("an action must be an object", "")
    C.check_at(action, C.position_token(g))
    g = copy.deepcopy(g)
    t = action.get("type")
    if t in ("hand", "set_stake", "end_series") and g["ended"]:
        raise RuleError("The series is over", "type")
    if t == "hand":
        hand = copy.deepcopy(C.need_dict(action.get("hand"), "hand"))
        if "next_stake" in g:
            hand.setdefault("stake", g.pop("next_stake"))
        g["hands"].append(_norm_hand(hand, g["rules"], g["seats"], "hand"))
        return normalize(g, g["seats"])
    if t == "set_stake":
        stake = C.to_int(action.get("stake"), "stake", 1)
        g["next_stake"] = stake
        return normalize(g, g["seats"])
    if t == "end_series":
        g.pop("next_stake", None)
        g["ended"] = True
        return normalize(g, g["seats"])
    if t == "replace_hand":
        try:
            index = C.to_int(action.get("index"), "index")
        except RuleError:
            raise RuleError("must be the number of a recorded hand (0 = first)", "index") from None
        if index >= len(g["hands"]):
            raise RuleError(f"there is no hand {index} (0 = first, {len(g['hands'])} recorded)", "index")
        hand = C.need_dict(action.get("hand"), "hand")
        g["hands"][index] = copy.deepcopy(hand)
        try:
            return normalize(g, g["seats"])
        except RuleError as err:
            e2 = C.reprefix(err, f"hands[{index}]", "hand")
            if e2 is not err:
                raise e2 from None
            raise RuleError(f"that would make a later hand impossible ({err})", "hand") from None
    raise RuleError(f"unknown action type {t!r}", "type")


# ----------------------------------------------------------------------------------------------------
# new_game / settlement
# ----------------------------------------------------------------------------------------------------

def new_game(players: list[str], form: dict) -> dict:
    seats = C.need_seats(C.form_seats(players, form, MAX_PLAYERS), players, MIN_PLAYERS, MAX_PLAYERS)
    variant = C.form_value(form, "variant") or "desmoche"
    C.need_choice(variant, VARIANTS, "variant")
    side: dict = {}
    raw = C.form_value(form, "side_games")
    if raw is not None:
        if isinstance(raw, dict):
            items = list(raw.items())
        elif raw.strip().startswith("{"):
            try:
                items = list(json.loads(raw).items())
            except (ValueError, AttributeError):
                raise RuleError('must look like "oro:5, par_rojo:5"', "side_games") from None
        else:
            items = []
            for part in raw.replace(";", ",").split(","):
                if not part.strip():
                    continue
                if ":" not in part and "=" not in part:
                    raise RuleError('must look like "oro:5, par_rojo:5"', "side_games")
                k, v = part.replace("=", ":").split(":", 1)
                items.append((k.strip(), v.strip()))
        for k, v in items:
            side[k] = C.to_int(v, "side_games", 1)
    for name in SIDE_GAMES:
        v = C.form_int(form, f"side_{name}", 0)
        if v:
            side[name] = v
    rules = {"variant": variant, "stake": C.form_int(form, "stake", 1, 1),
             "bonuses": C.to_bool(form.get("bonuses"), "bonuses"),
             "color_wins": C.to_bool(form.get("color_wins"), "color_wins"),
             "side_games": side,
             "side_unclaimed": C.need_choice(C.form_value(form, "side_unclaimed") or "carry",
                                             ("carry", "return"), "side_unclaimed")}
    game = {"kind": KIND, "rules": rules, "seats": seats,
            "unit_value": C.form_int(form, "unit_value", 1), "hands": [], "ended": False}
    try:
        return normalize(game, players)
    except RuleError as err:
        field = err.path.split(".")[-1] if err.path else ""
        if err.path.startswith("rules.side_games"):
            field = "side_games"
        raise RuleError(err.message, field) from None


def settlement(game: dict, state: dict) -> dict:
    value = game.get("unit_value", 1)
    on_table = state["pot"] + sum(state["side_pots"].values())
    return {"net": {p: state["net"][p] * value for p in game["seats"]}, "on_table": on_table * value}

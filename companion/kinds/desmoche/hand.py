"""Playing one Desmoche hand from the running state before it, and ending the series.

The running state (JSON, stored after every hand; small: a few numbers per player and per pot):
``{"balances": {player: units}, "pot": units, "side_pots": {side game: units},
"put": {side game: {player: units}}`` (what each player put into each side pot since it was last won:
given back if the series ends with it unclaimed; of the main pot every seat put the same, pot ÷ seats)
``, "rounds": rounds of stakes in the pot since it was last
won (the multiple), "stake": the stake of the last hand (the table's stake before the first)}``
and, once the series has ended, ``"returned": {player: units}`` and ``"end": [movement]`` (what went back).
States are never changed once made: consecutive states may share the parts a hand left alone.

A movement is ``{"from": player | "@pot" | "@side:oro" | None, "to": ..., "units": n, "why": Msg}``; a note
(a stake change, a rollover, a side pot carried) has ``from`` and ``to`` None and 0 units.

What a hand gave (its ``result``): ``{"hand": n (1-based), "dealer", "stake", "winner", "auto_win",
"pot": what it was played for, "multiple", "bonuses": {loser: units}, "side": {name: {"pot", "winner",
"result": won|carried|returned}}, "delta": {player: units}, "moves": [movement]}``. ``moves`` lists what
followed the stakes: the stakes themselves (every seat's ``stake`` into the pot, a stake change before
them, every joined player's side stake) are implied by the hand, and ``movements`` lists them all.

Bounds: stakes are at most MAX_COUNT units and the unit value MAX_MONEY minor units, but a series has no
limit on its hands, so what it adds up to is checked too: the units in play (every balance counted
positive, plus every pot) times the unit value stay within ``MAX_GAME_MINOR``, far below SQLite's 64-bit
integers even summed over the games of a night. A hand that would pass it is refused.
"""
from __future__ import annotations

from companion.domain.errors import RuleError

MAX_GAME_MINOR = 10 ** 16      # minor units: 100 trillion of a currency; 2**63 holds 900 such games


def start_state(head: dict) -> dict:
    seats = head["seats"]
    sides = head["rules"]["side_games"]
    return {"balances": {p: 0 for p in seats}, "pot": 0, "side_pots": {n: 0 for n in sides},
            "put": {n: {p: 0 for p in seats} for n in sides}, "rounds": 0, "stake": head["rules"]["stake"]}


def multiple_word(n: int) -> dict | None:
    """The pot's multiple in words: 1×, doble, triple, ..., décuple, 11×; None for 0."""
    if n <= 0:
        return None
    if n <= 10:
        return {"code": f"desmoche.mult.{n}"}
    return {"code": "desmoche.mult.n", "n": n}


def side_name(name: str) -> dict:
    return {"code": f"desmoche.side.{name}"}


def check_bounds(head: dict, state: dict, path: str) -> None:
    units = state["pot"] + sum(state["side_pots"].values()) + sum(map(abs, state["balances"].values()))
    value = head["unit_value"]
    if units * (value or 1) > MAX_GAME_MINOR:
        raise RuleError("desmoche.too_large", path, units=units, value=value, max=MAX_GAME_MINOR)


def play(head: dict, before: dict, body: dict, index: int, path: str) -> tuple[dict, dict]:
    """Hand ``index`` (0-based, canonical ``body``) played from ``before``: (state after it, result)."""
    rules = head["rules"]
    seats = head["seats"]
    bal = dict(before["balances"])
    side_pots = before["side_pots"]
    put = before["put"]
    pot = before["pot"]
    rounds = before["rounds"]
    stake = before["stake"]
    moves: list[dict] = []
    add = moves.append

    new_stake = body.get("stake")
    if new_stake is not None:
        stake = new_stake
    for p in seats:
        bal[p] -= stake
    pot += stake * len(seats)
    rounds += 1
    result = {"hand": index + 1, "dealer": seats[index % len(seats)], "stake": stake, "winner": body["winner"],
              "auto_win": body.get("auto_win"), "pot": pot, "multiple": rounds, "bonuses": {}, "side": {}}
    side = body.get("side")
    if side:
        side_pots = dict(side_pots)
        put = dict(put)
        stakes = rules["side_games"]
        for name, sg in side.items():
            st = stakes[name]
            c = dict(put[name])
            for p in sg["joined"]:
                bal[p] -= st
                c[p] += st
            put[name] = c
            side_pots[name] += st * len(sg["joined"])
    w = body["winner"]
    if w is None:
        add({"from": None, "to": None, "units": 0,
             "why": {"code": "desmoche.why.rollover", "pot": pot, "next": multiple_word(rounds + 1)}})
    else:
        auto = body.get("auto_win")
        why = {"code": "desmoche.why.won_auto", "winner": w, "how": {"code": f"desmoche.auto.{auto}"}, "pot": pot} \
            if auto else {"code": "desmoche.why.won", "winner": w, "pot": pot}
        add({"from": "@pot", "to": w, "units": pot, "why": why})
        bal[w] += pot
        pot = 0
        rounds = 0
        if rules["bonuses"]:
            disq = body.get("disqualified", ())
            arriba = [p for p in seats if p != w and p not in disq] if auto else body.get("arriba", ())
            mico = body.get("mico", 0)
            same = body.get("same_suit", False)
            for p in seats:
                if p == w or p in disq:
                    continue
                paid = 0
                if mico:
                    n = stake * mico
                    why = {"code": "desmoche.why.mico", "player": p, "winner": w, "n": n} if mico == 1 else \
                        {"code": "desmoche.why.micos", "player": p, "winner": w, "n": n, "count": mico}
                    add({"from": p, "to": w, "units": n, "why": why})
                    paid += n
                if same:
                    add({"from": p, "to": w, "units": stake,
                         "why": {"code": "desmoche.why.same_suit", "player": p, "winner": w, "n": stake}})
                    paid += stake
                if p in arriba:
                    add({"from": p, "to": w, "units": stake,
                         "why": {"code": "desmoche.why.arriba", "player": p, "winner": w, "n": stake}})
                    paid += stake
                if paid:
                    bal[p] -= paid
                    bal[w] += paid
                    result["bonuses"][p] = paid
    if side:
        for name, sg in side.items():
            sp = side_pots[name]
            sw = sg["winner"]
            if sw is not None:
                add({"from": "@side:" + name, "to": sw, "units": sp,
                     "why": {"code": "desmoche.why.side_won", "winner": sw, "game": side_name(name), "n": sp}})
                bal[sw] += sp
                side_pots[name] = 0
                put[name] = {p: 0 for p in seats}
                result["side"][name] = {"pot": sp, "winner": sw, "result": "won"}
            elif rules["side_unclaimed"] == "return":
                c = put[name]
                for p in seats:
                    if c[p]:
                        add({"from": "@side:" + name, "to": p, "units": c[p],
                             "why": {"code": "desmoche.why.side_returned", "game": side_name(name), "player": p,
                                     "n": c[p]}})
                        bal[p] += c[p]
                side_pots[name] = 0
                put[name] = {p: 0 for p in seats}
                result["side"][name] = {"pot": sp, "winner": None, "result": "returned"}
            else:
                add({"from": None, "to": None, "units": 0,
                     "why": {"code": "desmoche.why.side_carried", "game": side_name(name), "pot": sp}})
                result["side"][name] = {"pot": sp, "winner": None, "result": "carried"}
    old = before["balances"]
    result["delta"] = {p: bal[p] - old[p] for p in seats}
    result["moves"] = moves
    state = {"balances": bal, "pot": pot, "side_pots": side_pots, "put": put, "rounds": rounds, "stake": stake}
    check_bounds(head, state, path)
    return state, result


def movements(head: dict, item) -> list[dict]:
    """Every movement of a played hand, in order: the stake change (a note), every seat's stake into the
    pot, the side games' stakes (implied by the hand and its running state before it), then what its
    result lists."""
    body, r = item.body, item.result
    stake = r["stake"]
    out = []
    if stake != item.before["stake"]:
        out.append({"from": None, "to": None, "units": 0,
                    "why": {"code": "desmoche.why.stake_changed", "old": item.before["stake"], "new": stake}})
    for p in head["seats"]:
        out.append({"from": p, "to": "@pot", "units": stake, "why": {"code": "desmoche.why.ante", "player": p,
                                                                     "n": stake}})
    side = body.get("side")
    if side:
        stakes = head["rules"]["side_games"]
        for name, sg in side.items():
            st = stakes[name]
            pile = "@side:" + name
            game = side_name(name)
            for p in sg["joined"]:
                out.append({"from": p, "to": pile, "units": st,
                            "why": {"code": "desmoche.why.joined", "player": p, "game": game, "n": st}})
    out += r["moves"]
    return out


def end_series(head: dict, before: dict) -> dict:
    """The state once the series has ended: a pot nobody won, and every side pot, go back to whoever put
    them in (exactly what each put in since it was last won: the main pot in equal parts, as every seat
    put the same stake in at every hand)."""
    seats = head["seats"]
    bal = dict(before["balances"])
    returned = {p: 0 for p in seats}
    moves = []
    share = before["pot"] // len(seats)
    piles = [("pot", {p: share for p in seats})] + list(before["put"].items())
    for key, c in piles:
        for p in seats:
            n = c[p]
            if not n:
                continue
            if key == "pot":
                why = {"code": "desmoche.why.end_pot", "player": p, "n": n}
            else:
                why = {"code": "desmoche.why.end_side", "player": p, "n": n, "game": side_name(key)}
            moves.append({"from": "@pot" if key == "pot" else "@side:" + key, "to": p, "units": n, "why": why})
            bal[p] += n
            returned[p] += n
    return {"balances": bal, "pot": 0, "side_pots": {k: 0 for k in before["side_pots"]},
            "put": {k: {p: 0 for p in seats} for k in before["put"]}, "rounds": 0, "stake": before["stake"],
            "returned": returned, "end": moves}

"""The Desmoche game object as the session file writes it (shared/formats/session-v1.md, "Desmoche game"):
its head (rules, seats, unit value, ended, next stake) and each element of ``hands``, checked and put in
canonical form. Every number is bounded (stakes and side stakes <= MAX_COUNT units, the unit value <=
MAX_MONEY minor units, mico <= 20); what a whole series adds up to is bounded in ``hand.py``.

Canonical rules: ``variant stake bonuses color_wins side_games side_unclaimed`` (side games in the order
of ``SIDE_GAMES``). ``conquian`` refuses ``bonuses: true``, ``color_wins: true`` and every side game but
``oro``; it has no automatic wins.
Canonical hand: ``winner`` (always; null = no winner) then, when they apply, ``auto_win``, ``mico`` (> 0),
``same_suit`` (true), ``arriba`` (non-empty; dropped after an automatic win, where every loser is arriba),
``disqualified``, ``stake``, ``side`` ({name: {"joined": [...], "winner": name|null}}, joined non-empty).
"""
from __future__ import annotations

from companion.domain.errors import RuleError
from companion.kinds.validate import (MAX_COUNT, MAX_MONEY, check_keys, name_list, need_bool, need_choice, need_dict,
                        need_int, need_list, need_seated, need_seats)

KIND = "desmoche"
VARIANTS = ("desmoche", "conquian")
AUTO_WINS = ("peladilla", "cuatro_cuerpos", "color")
SIDE_GAMES = ("oro", "corazon", "flor", "corazon_negro", "par_rojo", "par_negro", "dos_par_rojo",
              "dos_par_negro", "tres_cuerpos", "escalera")
UNCLAIMED = ("carry", "return")
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_STAKE = MAX_COUNT          # units a player puts in a pot (the stake, a side game's stake)
MAX_UNIT_VALUE = MAX_MONEY     # minor units of one unit
MAX_MICO = 20                  # A-2-3 runs in one hand (more than the deck can hold)

HEAD_KEYS = ("kind", "rules", "seats", "unit_value", "ended", "next_stake")
GAME_KEYS = ("kind", "rules", "seats", "unit_value", "hands", "ended", "next_stake")
RULE_KEYS = ("variant", "stake", "bonuses", "color_wins", "side_games", "side_unclaimed")
HAND_KEYS = ("winner", "auto_win", "mico", "same_suit", "arriba", "disqualified", "stake", "side")
SIDE_KEYS = ("joined", "winner")


def norm_rules(raw, path: str = "rules") -> dict:
    r = need_dict(raw, path)
    check_keys(r, RULE_KEYS, path)
    variant = need_choice(r.get("variant", "desmoche"), VARIANTS, f"{path}.variant")
    if "stake" not in r:
        raise RuleError("desmoche.stake_missing", f"{path}.stake")
    out = {"variant": variant, "stake": need_int(r["stake"], f"{path}.stake", 1, MAX_STAKE),
           "bonuses": need_bool(r.get("bonuses", False), f"{path}.bonuses"),
           "color_wins": need_bool(r.get("color_wins", False), f"{path}.color_wins")}
    if variant == "conquian":
        if out["bonuses"]:
            raise RuleError("desmoche.conquian_bonuses", f"{path}.bonuses")
        if out["color_wins"]:
            raise RuleError("desmoche.conquian_auto", f"{path}.color_wins")
    sp = f"{path}.side_games"
    side = need_dict(r.get("side_games", {}), sp)
    games = {}
    for name, stake in side.items():
        np_ = f"{sp}.{name}"
        if name not in SIDE_GAMES:
            raise RuleError("desmoche.not_side_game", np_, name=_shown(name), known=", ".join(SIDE_GAMES))
        if variant == "conquian" and name != "oro":
            raise RuleError("desmoche.conquian_side", np_, name=name)
        games[name] = need_int(stake, np_, 1, MAX_STAKE)
    out["side_games"] = {k: games[k] for k in SIDE_GAMES if k in games}
    out["side_unclaimed"] = need_choice(r.get("side_unclaimed", "carry"), UNCLAIMED, f"{path}.side_unclaimed")
    return out


def norm_head(game, players) -> dict:
    """The game object without its hands, canonical (``players`` None: seats not checked against them),
    but for ``ended`` (False here) and ``next_stake``: see ``norm_head_end``."""
    g = need_dict(game, "")
    check_keys(g, GAME_KEYS, "")
    if g.get("kind") != KIND:
        raise RuleError("desmoche.not_desmoche", "kind")
    if "rules" not in g:
        raise RuleError("v.missing", "rules")
    rules = norm_rules(g["rules"])
    if "seats" not in g:
        raise RuleError("v.missing", "seats")
    seats = need_seats(g["seats"], players, MIN_PLAYERS, MAX_PLAYERS)
    return {"kind": KIND, "rules": rules, "seats": seats,
            "unit_value": need_int(g.get("unit_value", 1), "unit_value", 0, MAX_UNIT_VALUE), "ended": False}


def norm_head_end(game: dict, head: dict) -> dict:
    """``ended`` and ``next_stake``, checked after the hands (as the old engine did: the first problem of
    a file is reported first)."""
    ended = need_bool(game.get("ended", False), "ended")
    out = {**head, "ended": ended}
    if game.get("next_stake") is not None:
        if ended:
            raise RuleError("desmoche.next_stake_ended", "next_stake")
        out["next_stake"] = need_int(game["next_stake"], "next_stake", 1, MAX_STAKE)
    return out


def _names(value, seats, path: str, key: str) -> list[str]:
    """A list of distinct seated players (a copy); RuleError at ``path.key[i]`` otherwise."""
    if value.__class__ is list:
        for v in value:
            if v.__class__ is not str or v not in seats:
                break
        else:
            if len(set(value)) == len(value):
                return list(value)
    return name_list(value, seats, f"{path}.{key}")


def norm_hand(raw, rules: dict, seats: list[str], path: str) -> dict:
    """One element of ``hands`` in canonical form; RuleError under ``path``. (Paths are only written out
    when something is wrong: a series of 600 hands is checked in a couple of milliseconds.)"""
    h = raw
    if h.__class__ is not dict:
        need_dict(h, path)
    for key in h:
        if key not in HAND_KEYS:
            check_keys(h, HAND_KEYS, path)
    if "winner" not in h:
        raise RuleError("desmoche.winner_missing", f"{path}.winner")
    winner = h["winner"]
    if len(h) == 1 and (winner is None or (winner.__class__ is str and winner in seats)):
        return {"winner": winner}                    # the common "who won" hand
    disq = _names(h["disqualified"], seats, path, "disqualified") if "disqualified" in h else []
    out: dict = {"winner": None}
    if winner is not None:
        if winner.__class__ is not str or winner not in seats:
            need_seated(winner, seats, f"{path}.winner")
        if winner in disq:
            raise RuleError("desmoche.winner_disqualified", f"{path}.winner", name=winner)
        out["winner"] = winner
    auto = h.get("auto_win")
    if auto is not None:
        if rules["variant"] == "conquian":
            raise RuleError("desmoche.conquian_auto", f"{path}.auto_win")
        if auto not in AUTO_WINS:
            need_choice(auto, AUTO_WINS, f"{path}.auto_win")
        if auto == "color" and not rules["color_wins"]:
            raise RuleError("desmoche.color_off", f"{path}.auto_win")
        if winner is None:
            raise RuleError("desmoche.auto_needs_winner", f"{path}.auto_win")
        out["auto_win"] = auto
    mico = h.get("mico", 0)
    if mico.__class__ is not int or not 0 <= mico <= MAX_MICO:
        need_int(mico, f"{path}.mico", 0, MAX_MICO)
    same = h.get("same_suit", False)
    if same.__class__ is not bool:
        need_bool(same, f"{path}.same_suit")
    arriba = _names(h["arriba"], seats, path, "arriba") if "arriba" in h else []
    if mico or same or arriba:
        for key, val in (("mico", mico), ("same_suit", same), ("arriba", arriba)):
            if not val:
                continue
            if winner is None:
                raise RuleError("desmoche.bonus_no_winner", f"{path}.{key}")
            if not rules["bonuses"]:
                code = "desmoche.conquian_bonuses" if rules["variant"] == "conquian" else "desmoche.bonuses_off"
                raise RuleError(code, f"{path}.{key}")
            if auto and key != "arriba":
                raise RuleError("desmoche.auto_no_melds", f"{path}.{key}", auto=auto, key=key)
        if mico:
            out["mico"] = mico
        if same:
            out["same_suit"] = True
        for i, name in enumerate(arriba):
            if name == winner:
                raise RuleError("desmoche.arriba_winner", f"{path}.arriba[{i}]", name=name)
            if name in disq:
                raise RuleError("desmoche.arriba_disqualified", f"{path}.arriba[{i}]", name=name)
        if arriba and not auto:
            out["arriba"] = arriba
    if disq:
        out["disqualified"] = disq
    stake = h.get("stake")
    if stake is not None:
        if stake.__class__ is not int or not 1 <= stake <= MAX_STAKE:
            need_int(stake, f"{path}.stake", 1, MAX_STAKE)
        out["stake"] = stake
    side = h.get("side")
    if side:
        if side.__class__ is not dict:
            need_dict(side, f"{path}.side")
        played = rules["side_games"]
        sides = {}
        for name, sg in side.items():
            if name not in played:
                raise RuleError("desmoche.side_not_played", f"{path}.side.{name}", name=_shown(name))
            if sg.__class__ is not dict:
                need_dict(sg, f"{path}.side.{name}")
            for key in sg:
                if key not in SIDE_KEYS:
                    check_keys(sg, SIDE_KEYS, f"{path}.side.{name}")
            joined = _names(sg["joined"], seats, f"{path}.side.{name}", "joined") if "joined" in sg else []
            if "winner" not in sg:
                raise RuleError("desmoche.side_winner_missing", f"{path}.side.{name}.winner")
            sw = sg["winner"]
            if sw is not None:
                if sw.__class__ is not str or sw not in seats:
                    need_seated(sw, seats, f"{path}.side.{name}.winner")
                if sw not in joined:
                    raise RuleError("desmoche.side_not_joined", f"{path}.side.{name}.winner", name=sw, game=name)
            if joined:
                sides[name] = {"joined": joined, "winner": sw}
        if sides:
            out["side"] = sides if len(sides) == 1 else {k: sides[k] for k in SIDE_GAMES if k in sides}
    return out


def hands_list(game: dict) -> list:
    hands = game.get("hands")
    if hands is None:
        return []
    return need_list(hands, "hands")


def _shown(value) -> str:
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "…"

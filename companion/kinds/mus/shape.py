"""The Mus game object as the session file writes it: its head (rules, seats, stones, stake) and each
element of ``hands`` (a dealt hand, a tally hand, or an adjustment), checked for shape only. Whether
the bids and the count make sense is ``hand.py``'s business."""
from __future__ import annotations

from companion.domain import text as text_policy
from companion.domain.errors import RuleError
from companion.kinds.validate import MAX_MONEY, check_keys, is_int, need_int
from companion.kinds.mus import cards as C
from companion.kinds.mus.options import LANCES, STAGES, TEAMS, norm_rules

HEAD_KEYS = ("kind", "rules", "seats", "stones", "stake", "team_names", "scoring", "ended")
SCORING = ("bids", "tally")
GAME_KEYS = HEAD_KEYS + ("hands",)
HAND_KEYS = ("mano", "cards", "grande", "chica", "pares", "juego", "showdown", "open", "declared")
_HAND_KEY_SET = frozenset(HAND_KEYS)
SHOWDOWN_KEYS = ("grande", "chica", "pares", "juego", "pares_held", "juego_held")
VERBS = ("bet", "raise", "ordago", "call", "fold")
TALLY_LANCES = ("grande", "chica", "pares", "juego", "punto")
MAX_WHY = 120
MAX_TEAM_NAME = 40


def members(seats: list[str], team: str) -> list[str]:
    return seats[0::2] if team == "A" else seats[1::2]


def norm_head(game, players) -> dict:
    if not isinstance(game, dict):
        raise RuleError("v.object")
    for k in game:
        if k not in GAME_KEYS:
            raise RuleError("mus.unknown_game_key", str(k), key=str(k)[:40], known=", ".join(GAME_KEYS))
    if game.get("kind", "mus") != "mus":
        raise RuleError("mus.not_mus", "kind")
    out = {"kind": "mus", "rules": norm_rules(game.get("rules"))}
    seats = game.get("seats")
    if not isinstance(seats, list) or len(seats) != 4:
        raise RuleError("mus.four_seats", "seats")
    for i, s in enumerate(seats):
        if not isinstance(s, str) or not s:
            raise RuleError("v.player_name", f"seats[{i}]")
        if players is not None and s not in players:
            raise RuleError("v.not_player", f"seats[{i}]", name=s)
        if s in seats[:i]:
            raise RuleError("v.seated_twice", f"seats[{i}]", name=s)
    out["seats"] = list(seats)
    if game.get("stones") is not None:
        out["stones"] = _norm_stones(game["stones"], seats)
    if game.get("stake") is not None:
        stake = _norm_stake(game["stake"])
        if stake:
            out["stake"] = stake
    if game.get("team_names") is not None:
        names = _norm_team_names(game["team_names"])
        if names:
            out["team_names"] = names
    scoring = game.get("scoring")
    if scoring is not None and scoring not in SCORING:
        raise RuleError("mus.scoring", "scoring", known=", ".join(SCORING))
    if scoring == "tally":      # "bids" is the default and is not written
        out["scoring"] = "tally"
    if game.get("ended") is not None:     # a club night: the round's clock ended the match
        if game["ended"] != "time":
            raise RuleError("mus.ended_value", "ended")
        out["ended"] = "time"
    return out


def _norm_stones(st, seats) -> dict:
    if not isinstance(st, dict):
        raise RuleError("mus.stones_shape", "stones")
    for k in st:
        if k not in TEAMS:
            raise RuleError("mus.unknown_team", f"stones.{k}", team=str(k)[:10])
    out = {}
    for t in TEAMS:
        if not isinstance(st.get(t), dict):
            raise RuleError("mus.stones_team", f"stones.{t}", team=t)
        check_keys(st[t], ("fives", "ones"), f"stones.{t}")
        team = members(seats, t)
        keep = {}
        for k in ("fives", "ones"):
            v = st[t].get(k)
            if v not in team:
                raise RuleError("mus.keeper", f"stones.{t}.{k}", team=t, members=" / ".join(team))
            keep[k] = v
        out[t] = keep
    return out


def _norm_stake(sk) -> dict:
    if not isinstance(sk, dict):
        raise RuleError("mus.stake_shape", "stake")
    check_keys(sk, ("per_game", "per_match"), "stake")
    out = {}
    for k in ("per_game", "per_match"):   # both may be given together
        if k in sk:
            out[k] = need_int(sk[k], f"stake.{k}", 0, MAX_MONEY)
    return out


def _norm_team_names(names) -> dict:
    if not isinstance(names, dict):
        raise RuleError("v.object", "team_names")
    check_keys(names, TEAMS, "team_names")
    out = {}
    for t in TEAMS:
        v = names.get(t)
        if v is None:
            continue
        if not isinstance(v, str):
            raise RuleError("v.text", f"team_names.{t}")
        v = text_policy.clean(v, f"team_names.{t}")
        if len(v) > MAX_TEAM_NAME:
            raise RuleError("mus.team_name_long", f"team_names.{t}", max=MAX_TEAM_NAME)
        if v:
            out[t] = v
    return out


def _plain_step(step) -> dict | None:
    """A copy of a well-formed step (the common case), or None when it needs ``norm_step``'s checks."""
    if step.__class__ is dict and len(step) == 2:
        team = step.get("team")
        if team == "A" or team == "B":
            for verb, v in step.items():
                if verb == "team":
                    continue
                if v is True:
                    if verb == "call" or verb == "fold" or verb == "ordago":
                        return {"team": team, verb: True}
                elif v.__class__ is int and (verb == "bet" or verb == "raise") and 1 <= v <= 999:
                    return {"team": team, verb: v}
    return None


def norm_step(step, path: str) -> dict:
    plain = _plain_step(step)
    if plain is not None:
        return plain
    if not isinstance(step, dict):
        raise RuleError("mus.step_shape", path)
    team = step.get("team")
    if team not in TEAMS:
        raise RuleError("mus.step_team", f"{path}.team")
    verbs = [k for k in step if k != "team"]
    for k in verbs:
        if k not in VERBS:
            raise RuleError("mus.step_verb", f"{path}.{k}", key=str(k)[:40])
    if len(verbs) != 1:
        raise RuleError("mus.step_one", path)
    verb = verbs[0]
    v = step[verb]
    if verb in ("bet", "raise"):
        if not is_int(v) or v < 1 or v > 999:
            raise RuleError("mus.step_total", f"{path}.{verb}", verb=verb)
    elif v is not True:
        raise RuleError("mus.step_true", f"{path}.{verb}", verb=verb)
    return {"team": team, verb: v}


def norm_held(held, path, seats, kind) -> dict:
    """pares_held / juego_held (kind "pares" / "juego") or a declaration of juego (kind "declared")."""
    if not isinstance(held, dict):
        raise RuleError("mus.held_shape", path)
    for name in held:
        if name not in seats:
            raise RuleError("v.not_seated", f"{path}.{name}", name=name)
    out = {}
    for name in seats:
        if name not in held:
            continue
        v = held[name]
        p = f"{path}.{name}"
        if kind == "pares":
            if v not in C.PARES_KINDS:
                raise RuleError("mus.pares_held", p)
        elif v != "other":
            if not is_int(v) or not (4 <= v <= 37 or v == 40):
                raise RuleError("mus.juego_held", p)
            if kind == "declared" and v < 31:
                raise RuleError("mus.juego_declared", p)
        out[name] = v
    return out


def norm_cards(cs, path: str, seats: list[str], kings: int) -> dict:
    if not isinstance(cs, dict):
        raise RuleError("mus.cards_shape", path)
    for k in cs:
        if k not in seats:
            raise RuleError("v.not_seated", f"{path}.{k}", name=k)
    out = {}
    for name in seats:
        if name not in cs:
            raise RuleError("mus.cards_missing", path, name=name)
        h = C.canon_hand(cs[name])
        if h is None:
            raise RuleError("mus.cards_bad", f"{path}.{name}", value=str(cs[name])[:20])
        out[name] = h
    bad = C.deck_problem(out.values(), kings)
    if bad:
        card = {"R3": {"code": "mus.reyes"}, "A2": {"code": "mus.ases"}}.get(bad["card"], bad["card"])
        # the message goes beside the last hand holding one card too many (the one typed last)
        holder = next(n for n in reversed(seats) if any(ch in out[n] for ch in bad["card"]))
        raise RuleError("mus.deck", f"{path}.{holder}", card=card, count=bad["count"], limit=bad["limit"])
    return out


def norm_item(hand, path: str, seats: list[str], kings: int) -> dict:
    """One element of ``hands``: a dealt hand, a tally hand or an adjustment (shape only)."""
    if not isinstance(hand, dict):
        raise RuleError("mus.hand_shape", path)
    if "adjust" in hand:
        return _norm_adjust(hand, path)
    if "tally" in hand:
        return _norm_tally(hand, path, seats)
    for k in hand:
        if k not in _HAND_KEY_SET:
            raise RuleError("mus.unknown_hand_key", f"{path}.{k}", key=str(k)[:40], known=", ".join(HAND_KEYS))
    out = {}
    if "mano" in hand:
        if hand["mano"] not in seats:
            raise RuleError("mus.mano", f"{path}.mano", seats=", ".join(seats))
        out["mano"] = hand["mano"]
    if "cards" in hand:
        out["cards"] = norm_cards(hand["cards"], f"{path}.cards", seats, kings)
    for lance in LANCES:
        steps = hand.get(lance)
        if steps is None:          # absent, null and [] are the same: nobody bet
            steps = []
        if not isinstance(steps, list):
            raise RuleError("mus.lance_list", f"{path}.{lance}")
        norm = []
        for i, s in enumerate(steps):
            step = _plain_step(s)   # (the path is only written for a step that needs checking)
            norm.append(step if step is not None else norm_step(s, f"{path}.{lance}[{i}]"))
        out[lance] = norm
    if "showdown" in hand:
        out["showdown"] = _norm_showdown(hand["showdown"], f"{path}.showdown", seats)
    if "open" in hand:
        if hand["open"] not in STAGES:
            raise RuleError("mus.open_stage", f"{path}.open", stages=", ".join(STAGES))
        out["open"] = hand["open"]
    if "declared" in hand:
        out["declared"] = _norm_declared(hand, f"{path}.declared", seats)
    if "open" in out and "showdown" in out:
        raise RuleError("mus.open_showdown", f"{path}.showdown")
    return out


def _norm_showdown(sd, sp, seats) -> dict:
    if not isinstance(sd, dict):
        raise RuleError("v.object", sp)
    for k in sd:
        if k not in SHOWDOWN_KEYS:
            raise RuleError("mus.unknown_showdown_key", f"{sp}.{k}", key=str(k)[:40], known=", ".join(SHOWDOWN_KEYS))
    o = {}
    for lance in LANCES:
        if sd.get(lance) is not None:
            if sd[lance] not in TEAMS:
                raise RuleError("mus.winner_team", f"{sp}.{lance}")
            o[lance] = sd[lance]
    if sd.get("pares_held") is not None:
        o["pares_held"] = norm_held(sd["pares_held"], f"{sp}.pares_held", seats, "pares")
    if sd.get("juego_held") is not None:
        o["juego_held"] = norm_held(sd["juego_held"], f"{sp}.juego_held", seats, "juego")
    return o


def _norm_declared(hand, dp, seats) -> dict:
    d = hand["declared"]
    if "open" not in hand:
        raise RuleError("mus.declared_closed", dp)
    if "cards" in hand:
        raise RuleError("mus.declared_cards", dp)
    if not isinstance(d, dict):
        raise RuleError("v.object", dp)
    check_keys(d, ("pares", "juego"), dp)
    o = {}
    if "pares" in d:
        o["pares"] = norm_held(d["pares"], f"{dp}.pares", seats, "pares")
    if "juego" in d:
        o["juego"] = norm_held(d["juego"], f"{dp}.juego", seats, "declared")
    return o


def _why(value, path: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise RuleError("v.text", path)
    text = text_policy.clean(value, path)
    if len(text) > MAX_WHY:
        raise RuleError("mus.why_long", path, max=MAX_WHY)
    return text or None


def _norm_tally(hand, path, seats) -> dict:
    check_keys(hand, ("tally", "mano"), path)
    out = {}
    if "mano" in hand:
        if hand["mano"] not in seats:
            raise RuleError("mus.mano", f"{path}.mano", seats=", ".join(seats))
        out["mano"] = hand["mano"]
    awards = hand["tally"]
    tp = f"{path}.tally"
    if not isinstance(awards, list):
        raise RuleError("v.list", tp)
    rows = []
    for i, a in enumerate(awards):
        ap = f"{tp}[{i}]"
        if not isinstance(a, dict):
            raise RuleError("v.object", ap)
        check_keys(a, ("team", "points", "lance", "why"), ap)
        if a.get("team") not in TEAMS:
            raise RuleError("mus.step_team", f"{ap}.team")
        row = {"team": a["team"], "points": need_int(a.get("points"), f"{ap}.points", 1, 999)}
        if a.get("lance") is not None:
            if a["lance"] not in TALLY_LANCES:
                raise RuleError("v.choice", f"{ap}.lance", choices=", ".join(TALLY_LANCES),
                                value=str(a["lance"])[:20])
            row["lance"] = a["lance"]
        why = _why(a.get("why"), f"{ap}.why")
        if why:
            row["why"] = why
        rows.append(row)
    out["tally"] = rows
    return out


def _norm_adjust(hand, path) -> dict:
    check_keys(hand, ("adjust",), path)
    a = hand["adjust"]
    ap = f"{path}.adjust"
    if not isinstance(a, dict):
        raise RuleError("v.object", ap)
    check_keys(a, ("team", "points", "why"), ap)
    if a.get("team") not in TEAMS:
        raise RuleError("mus.step_team", f"{ap}.team")
    points = need_int(a.get("points"), f"{ap}.points", -999, 999)
    if points == 0:
        raise RuleError("mus.adjust_zero", f"{ap}.points")
    out = {"team": a["team"], "points": points}
    why = _why(a.get("why"), f"{ap}.why")
    if why:
        out["why"] = why
    return {"adjust": out}


'''Mus: the pure rules engine (no Flask, no SQLite). Implements companion/rules/CONTRACT.md.

Layout: ``cards.py`` (hand letters, grande/chica/pares/juego/punto comparison), ``core.py`` (rule options,
the session-file shape, the bidding of one lance, and ``Walk``: plays every hand in order — fold points at
once, órdago, declarations, the count award by award, games, match, mano rotation), this file (the
contract: new_game, normalize, compute, apply, settlement).

Game object (session-file shape, shared/formats/session-v1.md, "Mus game")
--------------------------------------------------------------------------
``{"kind": "mus", "rules": {"preset": "pagat", ...}, "seats": [4 names], "stones": {...}?, "stake": {...}?,
"hands": [...]}``. A finished hand is exactly the file shape (``mano``?, ``cards``?, the four lance step
lists — always all four in canonical output —, ``showdown``?). The hand being recorded is the LAST hand
and carries two extra keys (both removed when the hand is over, so an exported file stays valid):

* ``"open"``: the stage the hand is at: ``grande``, ``chica``, ``pares``, ``juego`` (juego or punto)
  or ``showdown``. Lances before it are finished; its own step list may be partial; later ones are empty.
* ``"declared"`` (only without cards): ``{"pares": {player: "pareja"|"medias"|"duples"},
  "juego": {player: 31 | 32..37 | 40 | "other"}}`` — who has pares / juego (players not named have none).
  When the hand closes they become ``showdown.pares_held`` / ``showdown.juego_held``.

``showdown.juego_held`` also accepts ``"other"`` (a juego other than 31, total not noted) besides the
file format's numbers (31..40 juego, < 31 punto totals).

Actions for ``apply(game, action)``
-----------------------------------
Every action is a dict with ``"type"``; any action may carry ``"at"`` (``compute(game)["at"]`` as the phone
saw it): when it differs from the current position the action is refused (path ``at``). Every move the
engine considers legal right now is listed, ready to post, in ``compute(game)["legal"]``. Teams are
``"A"`` (seats 0 and 2) and ``"B"``. Where ``team`` is marked implied it may be left out (the team that must
answer); when given it must match. Errors: RuleError(message, field) with field one of the action keys.

* ``{"type": "start_hand"}`` — open a new hand. Optional ``"mano": "Bea"`` (overrides the rotation; it
  continues from there) and ``"cards": {"Ane": "RR43", "Bea": "CCS7", "Carlos": "A456", "Dani": "RS7A"}``
  (all four; then pares/juego/the showdown are derived and never asked). Optional: ``pass``, ``bet``,
  ``ordago`` and ``declare`` start a hand themselves when none is open (rotation mano, no cards).
* ``{"type": "pass"}`` — everyone passed the current lance (grande, chica, or a bid pares/juego/punto).
* ``{"type": "bet", "team": "A", "amount": 2}`` — first bet of the lance (amount defaults to min_bet).
* ``{"type": "raise", "to": 7}`` — raise to the new TOTAL 7 (>= total + 2); or ``{"type": "raise",
  "more": 5}`` ("5 más": adds 5 to the total). ``team`` implied.
* ``{"type": "ordago", "team": "B"}`` — órdago (team needed only as the first bet of the lance).
* ``{"type": "call"}`` — quiero (team implied). A called órdago ends the game at once (with cards), or
  the hand goes to the showdown to name the lance's winner.
* ``{"type": "fold"}`` — no quiero (team implied); the points are scored at once.
* ``{"type": "declare", "pares": {"Ane": "pareja", "Carlos": "medias"}, "juego": {"Bea": 31, "Dani":
  "other"}}`` — who has pares / juego (``{}`` = nobody). Either key or both: juego may be declared together
  with pares to save a step. Only while the lance is not yet passed, only without cards, once per lance.
  Not bid lances (uncontested, void) are skipped by the engine; nobody with juego → punto is bid.
* ``{"type": "showdown", "grande": "A", "chica": "B", "pares": "A", "juego": "B"}`` — the team with the
  better hand in each lance that needs it (``compute(game)["hand"]["needs"]`` lists them; others may be
  omitted or given). Optional ``"pares_held"`` / ``"juego_held"`` ({player: ...} as in the file) are
  merged over the declarations (e.g. punto totals ``{"Ane": 27, ...}`` instead of naming the punto winner).
  Or ``{"type": "showdown", "cards": {...all four...}}``: the cards decide everything.
* ``{"type": "replace_hand", "index": 3, "hand": {...file-shape hand...}}`` — correct a finished hand
  (0-based index); every later point is recomputed. Refused, naming the first hand that would become
  impossible (e.g. ``Hand 7 would no longer be possible: ...``), path ``hands[6]...``.
* ``{"type": "add_hand", "hand": {...}}`` — append a complete hand typed from paper notes.

Undo is done by the caller (replay of the action list without the last one).

compute(game)
-------------
The companion-state/1 Mus entry: ``kind teams games games_won match_winner score dentro stones next_mano
log`` exactly as the format says, plus:
``at`` (position token; changes with every recorded step), ``title``, ``seats``, ``rules`` (effective
options), ``status`` (``ready`` — no hand in progress; ``bidding``; ``declare``; ``showdown``;
``match_over``), ``game_number`` (the game in progress), ``hand`` (the hand in progress or null:
``{hand, game, mano, order, stage, lance, cards_known, steps, total, to_answer, bettor, ordago, pares,
juego, declared, needs}`` — ``pares``/``juego`` are ``bid``/``uncontested A``/``void``/``undeclared``/
``punto``/null), ``legal`` (list of action dicts with ``at``, ready to post), ``hands`` (one summary per
hand: ``{hand, game, mano, points: {A, B}, lances: {lance: text}, alerts, ended_game, open, cards,
score_before}``), ``game_ends`` (1-based hand number that ended each finished game: diff it after a
``replace_hand`` to say which game ends moved), ``alerts`` (announcements of the last hand: dentro,
game won, match won), ``game_over`` (the last finished game when the last hand ended it, else null),
``keepers`` ({A: {fives, ones}, B: {...}} names), ``min_raise``.
'''

from __future__ import annotations

import copy
import hashlib
import json

from ..errors import RuleError
from .core import LANCES, OPTIONS, PRESETS, RANGES, STAGES, TEAMS, Walk, is_int, norm_hand, norm_shape, other

KIND = "mus"
TITLE = "Mus"

__all__ = ["KIND", "TITLE", "new_game", "normalize", "compute", "apply", "settlement"]


# ---------------------------------------------------------------------------------------------------
# new_game


def new_game(players: list[str], form: dict) -> dict:
    def f(key):
        v = form.get(key, "")
        return v.strip() if isinstance(v, str) else v

    seats = []
    for i in range(4):
        name = f(f"seat{i}")
        if not name:
            raise RuleError("choose a player for this seat", f"seat{i}")
        if name not in players:
            raise RuleError(f"'{name}' is not one of the session's players", f"seat{i}")
        if name in seats:
            raise RuleError(f"'{name}' already has a seat", f"seat{i}")
        seats.append(name)
    preset = f("preset") or "pagat"
    if preset not in PRESETS:
        raise RuleError("choose pagat or spanish", "preset")
    rules = {"preset": preset}
    for k in OPTIONS:
        v = f(k)
        if v in ("", None):
            continue
        try:
            n = int(v)
        except (TypeError, ValueError):
            raise RuleError("a whole number, please", k) from None
        lo, hi = RANGES[k]
        if k == "kings" and n not in (4, 8):
            raise RuleError("8 (3 = rey, 2 = as) or 4", k)
        if not lo <= n <= hi:
            raise RuleError(f"between {lo} and {hi}", k)
        if n != PRESETS[preset][k]:
            rules[k] = n
    stones = {}
    for t, members in (("A", seats[0::2]), ("B", seats[1::2])):
        fives = f(f"fives_{t}") or members[0]
        ones = f(f"ones_{t}") or (members[1] if fives == members[0] else members[0])
        for key, v in ((f"fives_{t}", fives), (f"ones_{t}", ones)):
            if v not in members:
                raise RuleError(f"a player of team {t} ({' or '.join(members)})", key)
        stones[t] = {"fives": fives, "ones": ones}
    game = {"kind": "mus", "rules": rules, "seats": seats, "stones": stones, "hands": []}
    kind = f("stake_kind") or ""
    if kind not in ("", "per_game", "per_match"):
        raise RuleError("no stake, per game or per match", "stake_kind")
    if kind:
        try:
            amount = int(f("stake"))
        except (TypeError, ValueError):
            raise RuleError("an amount in cents (a whole number)", "stake") from None
        if amount < 0:
            raise RuleError("0 or more", "stake")
        game["stake"] = {kind: amount}
    return normalize(game, players)


# ---------------------------------------------------------------------------------------------------
# normalize


def normalize(game: dict, players: list[str] | None) -> dict:
    g = norm_shape(copy.deepcopy(game), players)
    Walk(g, strict=True)
    return g


# ---------------------------------------------------------------------------------------------------
# compute


def position(g: dict) -> str:
    blob = json.dumps(g, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    steps = sum(len(h[L]) for h in g["hands"] for L in LANCES)
    return f"{len(g['hands'])}.{steps}.{hashlib.sha1(blob.encode()).hexdigest()[:10]}"


def stones_of(score: dict, target: int) -> dict:
    out = {}
    used = 0
    for t in TEAMS:
        s = score[t]
        if s >= target - 5:
            out[t] = {"amarracos": 0, "ones": s - (target - 5), "dentro": True}
        else:
            out[t] = {"amarracos": s // 5, "ones": s % 5}
        used += out[t]["amarracos"] + out[t]["ones"]
    out["dish"] = max(0, 22 - used)
    return out


def keepers(g: dict) -> dict:
    if "stones" in g:
        return copy.deepcopy(g["stones"])
    s = g["seats"]
    return {"A": {"fives": s[0], "ones": s[2]}, "B": {"fives": s[1], "ones": s[3]}}


def _hand_view(g, W):
    cur = W.current
    if cur is None or W.match_winner:
        return None
    h = g["hands"][cur["index"]]
    stage = h["open"]
    ls = cur.get("lance_status", {})

    def st(L):
        r = ls.get(L)
        if r is None:
            return None
        if r["status"] == "uncontested":
            return f"uncontested {r['team']}"
        if L == "juego" and r["name"] == "punto":
            return "punto"
        return r["status"]

    b = cur.get("bidding") if cur["status"] == "bidding" else None
    lance = None
    if stage in LANCES:
        lance = ls.get(stage, {}).get("name", stage)
    return {"hand": cur["hand"], "game": cur["game"], "mano": cur["mano"], "order": cur["order"],
            "stage": stage, "lance": lance, "cards_known": cur["cards_known"],
            "steps": copy.deepcopy(h[stage]) if stage in LANCES else [],
            "total": b["total"] if b else 0, "to_answer": b["to_answer"] if b else None,
            "bettor": b.get("bettor") if b else None, "ordago": bool(b and b.get("ordago")),
            "pares": st("pares"), "juego": st("juego"), "declared": copy.deepcopy(cur["declared"]),
            "needs": list(cur["needs"]) if cur["status"] == "showdown" else []}


def _legal(g, W, hv, at):
    R = W.R
    if W.match_winner:
        return []
    moves = []
    mb = R["min_bet"]

    def opening():
        return ([{"type": "pass"}] + [{"type": "bet", "team": t, "amount": mb} for t in TEAMS]
                + [{"type": "ordago", "team": t} for t in TEAMS])

    if hv is None:
        moves = [{"type": "start_hand"}] + opening()
    else:
        status = W.current["status"]
        if status == "bidding":
            if not hv["steps"]:
                moves = opening()
            else:
                t = hv["to_answer"]
                moves = [{"type": "call", "team": t}, {"type": "fold", "team": t}]
                if not hv["ordago"]:
                    moves += [{"type": "raise", "team": t, "to": hv["total"] + 2}, {"type": "ordago", "team": t}]
        elif status == "declare":
            moves = [{"type": "declare", hv["stage"]: {}}]
        elif status == "showdown":
            moves = [{"type": "showdown", **{L: None for L in hv["needs"]}}, {"type": "showdown", "cards": {}}]
    for m in moves:
        m["at"] = at
    return moves


def compute(game: dict) -> dict:
    g = normalize(game, None)
    W = Walk(g)
    R = W.R
    at = position(g)
    seats = g["seats"]
    over = W.match_winner is not None
    hv = _hand_view(g, W)
    if over:
        status = "match_over"
    elif hv is None:
        status = "ready"
    else:
        status = W.current["status"]
    score = dict(W.score)
    last = W.hands[-1] if W.hands else None
    next_mano = None if over else seats[W.next_mano_idx()]
    return {
        "kind": KIND,
        "teams": {"A": seats[0::2], "B": seats[1::2]},
        "games": copy.deepcopy(W.games),
        "games_won": dict(W.games_won),
        "match_winner": W.match_winner,
        "score": score,
        "dentro": {t: score[t] >= R["target"] - 5 for t in TEAMS},
        "stones": stones_of(score, R["target"]),
        "next_mano": next_mano,
        "log": copy.deepcopy(W.log),
        # extras for the UI
        "title": TITLE,
        "at": at,
        "seats": list(seats),
        "rules": R,
        "status": status,
        "game_number": W.game_no if not over else len(W.games),
        "hand": hv,
        "legal": _legal(g, W, hv, at),
        "hands": copy.deepcopy(W.hands),
        "game_ends": list(W.game_ends),
        "alerts": list(last["alerts"]) if last else [],
        "game_over": ({**W.games[-1], "game": len(W.games)} if last and last["ended_game"] else None),
        "keepers": keepers(g),
        "min_raise": (hv["total"] + 2) if hv and hv["to_answer"] else None,
    }


# ---------------------------------------------------------------------------------------------------
# apply


def _open_hand(g):
    if g["hands"] and "open" in g["hands"][-1]:
        return g["hands"][-1]
    return None


def _new_hand(g, W, mano=None, cards=None):
    if W.match_winner:
        raise RuleError(f"the match is over (team {W.match_winner} won it): no more hands", "type")
    h = {}
    if mano is not None:
        if mano not in g["seats"]:
            raise RuleError(f"the mano must be one of {', '.join(g['seats'])}", "mano")
        h["mano"] = mano
    if cards is not None:
        try:
            h["cards"] = norm_hand({"cards": cards}, "", g["seats"])["cards"]
        except RuleError as e:
            raise RuleError(e.message, "cards") from None
    h.update({L: [] for L in LANCES})
    h["open"] = "grande"
    g["hands"].append(h)
    return h


def _close(h):
    d = h.pop("declared", None)
    h.pop("open", None)
    if d and "cards" not in h:
        sd = h.setdefault("showdown", {})
        if "pares" in d:
            sd.setdefault("pares_held", d["pares"])
        if "juego" in d:
            sd.setdefault("juego_held", d["juego"])


def _advance(g):
    for _ in range(20):
        h = _open_hand(g)
        if h is None:
            return
        W = Walk(g, strict=False)
        cur = W.current
        if cur["ended"]:
            _close(h)
            return
        if cur["next_stage"]:
            h["open"] = cur["next_stage"]
            continue
        if cur["stage_done"]:
            if h["open"] == "showdown":
                _close(h)
                return
            h["open"] = STAGES[STAGES.index(h["open"]) + 1]
            continue
        return


def _field(e: RuleError, i: int) -> RuleError:
    """An error from re-validating the game after an action, as an action error."""
    p = e.path
    pre = f"hands[{i}]."
    if p.startswith(pre):
        rest = p[len(pre):]
        if rest.startswith("showdown."):
            return RuleError(e.message, rest[len("showdown."):].split(".")[0])
        return RuleError(e.message, rest.split("[")[0].split(".")[0])
    return RuleError(e.message, p or "type")


def apply(game: dict, action: dict) -> dict:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise RuleError("an action needs a type", "type")
    g = normalize(game, None)
    at = position(g)
    if "at" in action and action["at"] != at:
        raise RuleError("Already recorded from another phone: the score has moved on. Look again before "
                        "recording.", "at")
    W = Walk(g)
    typ = action["type"]
    handler = _HANDLERS.get(typ)
    if handler is None:
        raise RuleError(f"unknown action '{typ}'", "type")
    if typ in ("replace_hand", "add_hand"):
        return handler(g, W, action)
    handler(g, W, action)
    _advance(g)
    i = len(g["hands"]) - 1
    try:
        return normalize(g, None)
    except RuleError as e:
        raise _field(e, i) from None


def _need_open(g, W, action, start=False):
    h = _open_hand(g)
    if h is None:
        if not start:
            raise RuleError("no hand is being recorded: start a hand first", "type")
        h = _new_hand(g, W)
        W = Walk(g, strict=False)
    return h, Walk(g, strict=False)


def _bidding_now(h, W, need_steps=None):
    cur = W.current
    if cur["status"] == "declare":
        raise RuleError(f"first say who has {h['open']}", "type")
    if cur["status"] == "showdown":
        raise RuleError("the bidding is over: record the showdown", "type")
    if cur["status"] != "bidding":
        raise RuleError("nothing is being bid now", "type")
    steps = h[h["open"]]
    if need_steps is True and not steps:
        raise RuleError("nobody has bet yet in this lance", "type")
    if need_steps is False and steps:
        raise RuleError("there is already a bet on the table: call, fold, raise or órdago", "type")
    return steps, cur["bidding"]


def _team(action, expected, required=False):
    t = action.get("team")
    if t is None:
        if required:
            raise RuleError("which team? A or B", "team")
        return expected
    if t not in TEAMS:
        raise RuleError("team A or B", "team")
    if expected is not None and t != expected:
        raise RuleError(f"team {expected} must answer now", "team")
    return t


def _int(action, key):
    v = action.get(key)
    if isinstance(v, str):
        try:
            v = int(v.strip())
        except ValueError:
            raise RuleError("a whole number, please", key) from None
    if not is_int(v):
        raise RuleError("a whole number, please", key)
    return v


def _start_hand(g, W, a):
    if _open_hand(g) is not None:
        raise RuleError("a hand is already being recorded", "type")
    _new_hand(g, W, a.get("mano"), a.get("cards"))


def _pass(g, W, a):
    h, W = _need_open(g, W, a, start=True)
    _bidding_now(h, W, need_steps=False)
    h["open"] = STAGES[STAGES.index(h["open"]) + 1]


def _bet(g, W, a):
    h, W = _need_open(g, W, a, start=True)
    steps, _ = _bidding_now(h, W, need_steps=False)
    t = _team(a, None, required=True)
    n = W.R["min_bet"] if a.get("amount") in (None, "") else _int(a, "amount")
    if n < W.R["min_bet"]:
        raise RuleError(f"a bet is at least {W.R['min_bet']}", "amount")
    steps.append({"team": t, "bet": n})


def _raise(g, W, a):
    h, W = _need_open(g, W, a)
    steps, b = _bidding_now(h, W, need_steps=True)
    if b["kind"] != "pending":
        raise RuleError("the bidding of this lance is over", "type")
    if b.get("ordago"):
        raise RuleError("an órdago can only be called or folded", "type")
    t = _team(a, b["to_answer"])
    if "to" in a:
        n = _int(a, "to")
        key = "to"
    elif "more" in a:
        n = b["total"] + _int(a, "more")
        key = "more"
    else:
        raise RuleError("raise to what total? (to) or by how much? (more)", "to")
    if n < b["total"] + 2:
        raise RuleError(f"a raise must add at least 2 (total {n} after {b['total']})", key)
    steps.append({"team": t, "raise": n})


def _ordago(g, W, a):
    h, W = _need_open(g, W, a, start=True)
    steps, b = _bidding_now(h, W)
    if not steps:
        t = _team(a, None, required=True)
    else:
        if b["kind"] != "pending":
            raise RuleError("the bidding of this lance is over", "type")
        if b.get("ordago"):
            raise RuleError("an órdago can only be called or folded", "type")
        t = _team(a, b["to_answer"])
    steps.append({"team": t, "ordago": True})


def _answer(verb):
    def fn(g, W, a):
        h, W = _need_open(g, W, a)
        steps, b = _bidding_now(h, W, need_steps=True)
        if b["kind"] != "pending":
            raise RuleError("the bidding of this lance is over", "type")
        t = _team(a, b["to_answer"])
        steps.append({"team": t, verb: True})
    return fn


def _declare(g, W, a):
    keys = [k for k in ("pares", "juego") if k in a]
    if not keys:
        raise RuleError("declare pares and/or juego", "pares")
    h, W = _need_open(g, W, a, start=True)
    if "cards" in h:
        raise RuleError("the cards are known: nothing to declare", keys[0])
    d = copy.deepcopy(h.get("declared", {}))
    for k in keys:
        if k in d:
            raise RuleError(f"{k} was already declared (undo to change it)", k)
        if STAGES.index(h["open"]) > STAGES.index(k):
            raise RuleError(f"{k} is already over", k)
        if not isinstance(a[k], dict):
            raise RuleError("{player: what they hold}", k)
        vals = {}
        for n, v in a[k].items():
            if v in (None, "", False):
                continue
            if k == "juego" and isinstance(v, str) and v.strip().isdigit():
                v = int(v)
            vals[n] = v
        d[k] = vals
    h["declared"] = d
    try:
        norm_hand(h, "", g["seats"])
    except RuleError as e:
        raise RuleError(e.message, e.path.split(".")[-1] if e.path.startswith(".declared.") else keys[0]) from None


def _showdown(g, W, a):
    h, W = _need_open(g, W, a)
    if W.current["status"] != "showdown":
        raise RuleError("the showdown comes after the bidding", "type")
    if a.get("cards"):
        try:
            h["cards"] = norm_hand({"cards": a["cards"]}, "", g["seats"])["cards"]
        except RuleError as e:
            raise RuleError(e.message, "cards") from None
        h.pop("declared", None)
        h.pop("open", None)
        return
    d = h.get("declared", {})
    sd = {}
    for L in LANCES:
        v = a.get(L)
        if v not in (None, ""):
            if v not in TEAMS:
                raise RuleError("team A or B", L)
            sd[L] = v
    for key, dk in (("pares_held", "pares"), ("juego_held", "juego")):
        merged = dict(d.get(dk, {}))
        extra = a.get(key) or {}
        if not isinstance(extra, dict):
            raise RuleError("{player: what they held}", key)
        for n, v in extra.items():
            if v in (None, ""):
                continue
            merged[n] = int(v) if isinstance(v, str) and v.strip().isdigit() else v
        if dk in d or extra:
            sd[key] = merged
    h["showdown"] = sd
    h.pop("declared", None)
    h.pop("open", None)


def _complete_hand(g, i, hand):
    if not isinstance(hand, dict):
        raise RuleError("a hand object, please", "hand")
    if "open" in hand or "declared" in hand:
        raise RuleError("only a finished hand can be recorded this way", "hand")
    try:
        hh = norm_hand(hand, f"hands[{i}]", g["seats"])
    except RuleError as e:
        raise RuleError(e.message, "hand" + e.path[len(f"hands[{i}]"):]) from None
    return hh


def _check_whole(g, i):
    try:
        return normalize(g, None)
    except RuleError as e:
        p = e.path
        if p.startswith("hands["):
            j = int(p[6:p.index("]")])
            if j == i:
                raise RuleError(f"the corrected hand {i + 1}: {e.message}", p) from None
            raise RuleError(f"Hand {j + 1} would no longer be possible: {e.message}", p) from None
        raise


def _replace_hand(g, W, a):
    i = a.get("index")
    if not is_int(i) or not 0 <= i < len(g["hands"]):
        raise RuleError("which hand? (0-based index of a recorded hand)", "index")
    if "open" in g["hands"][i]:
        raise RuleError("this hand is still being recorded", "index")
    g["hands"][i] = _complete_hand(g, i, a.get("hand"))
    return _check_whole(g, i)


def _add_hand(g, W, a):
    if _open_hand(g) is not None:
        raise RuleError("a hand is being recorded: finish it first", "type")
    if W.match_winner:
        raise RuleError(f"the match is over (team {W.match_winner} won it): no more hands", "type")
    i = len(g["hands"])
    g["hands"].append(_complete_hand(g, i, a.get("hand")))
    return _check_whole(g, i)


_HANDLERS = {
    "start_hand": _start_hand, "pass": _pass, "bet": _bet, "raise": _raise, "ordago": _ordago,
    "call": _answer("call"), "fold": _answer("fold"), "declare": _declare, "showdown": _showdown,
    "replace_hand": _replace_hand, "add_hand": _add_hand,
}


# ---------------------------------------------------------------------------------------------------
# settlement


def settlement(game: dict, state: dict | None = None) -> dict:
    if not state or "games" not in state:
        state = compute(game)
    seats = game["seats"]
    net = {s: 0 for s in seats}
    stake = game.get("stake") or {}
    teams = {"A": seats[0::2], "B": seats[1::2]}

    def pay(winner, x):
        for n in teams[winner]:
            net[n] += x
        for n in teams[other(winner)]:
            net[n] -= x

    if "per_game" in stake:
        for gm in state["games"]:
            pay(gm["winner"], stake["per_game"])
    elif "per_match" in stake and state.get("match_winner"):
        pay(state["match_winner"], stake["per_match"])
    return {"net": net, "on_table": 0}

"""Mus: add a match, record a hand lance by lance, the count, the stones, dentro, undo, correct a past hand,
the quick reference. Every rule decision is the engine's (companion.rules.mus); this module only turns
form fields into engine actions and the engine's compute() into what a phone shows."""
from __future__ import annotations

import json
from urllib.parse import urlencode

from flask import Blueprint, abort, request, url_for

from .. import money
from ..rules import mus as engine
from ..rules.errors import RuleError
from ..rules.mus import cards as C
from ..rules.mus.core import NICE, PRESETS, TEAMS, effective_rules
from ..store import Conflict
from .common import game_action, is_poll, open_session, perform, render, require_edit, see_other, unchanged_poll

bp = Blueprint("mus", __name__)

LANCE_ORDER = ("grande", "chica", "pares", "juego")
BET_AMOUNTS = (2, 3, 5, 10)
RAISE_MORE = (2, 5, 10)
PARES_CHOICES = (("", "–"), ("pareja", "Pareja"), ("medias", "Medias"), ("duples", "Duples"))
JUEGO_CHOICES = (("", "–"), ("31", "31"), ("32", "32"), ("40", "40"), ("other", "Other"))
OPTION_FIELDS = ("kings", "target", "games_to_win", "paso_point", "juego_31", "juego_other", "punto_bonus")


# ---------------------------------------------------------------------------------------------------
# what the templates show


def team_names(seats: list[str]) -> dict:
    return {"A": seats[0::2], "B": seats[1::2]}


def team_label(seats: list[str], t: str) -> str:
    return " & ".join(team_names(seats)[t])


def _fold_points(steps: list[dict]) -> int:
    """What a fold would give now (the engine's rule: 1 for the first bet, else the total before it)."""
    totals, total, last_bet = [], 0, 0
    for k, s in enumerate(steps):
        if "bet" in s or "raise" in s:
            total = s.get("bet", s.get("raise"))
            last_bet = k
        elif "ordago" in s:
            last_bet = k
        totals.append(total)
    return 1 if last_bet == 0 else totals[last_bet - 1]


def step_text(step: dict) -> str:
    t = step["team"]
    if "bet" in step:
        return f"{t} envida {step['bet']}"
    if "raise" in step:
        return f"{t} raises to {step['raise']}"
    if "ordago" in step:
        return f"{t} ÓRDAGO"
    if "call" in step:
        return f"{t} quiero"
    return f"{t} no quiero"


def player_rows(seats: list[str], order: list[str]) -> list[dict]:
    return [{"name": n, "i": seats.index(n), "team": "A" if seats.index(n) % 2 == 0 else "B",
             "mano": k == 0} for k, n in enumerate(order)]


def _pick(needs: list[dict], picks: dict, base_url: str | None) -> dict | None:
    """The count without cards, one tap per lance: the lances already named (carried in the URL), the one
    to name now, and whether its buttons post the showdown (the last one) or just link on."""
    done = [{**n, "team": picks[n["lance"]]} for n in needs if picks.get(n["lance"]) in TEAMS]
    todo = [n for n in needs if picks.get(n["lance"]) not in TEAMS]
    if not todo:
        return None
    now = todo[0]
    chosen = {f"win_{n['lance']}": n["team"] for n in done}
    hrefs = {}
    if len(todo) > 1 and base_url:
        key = "win_" + now["lance"]
        for t in TEAMS:
            hrefs[t] = base_url + ("&" if "?" in base_url else "?") + urlencode({**chosen, key: t}) + "#step"
    pair = None
    if len(todo) >= 2:
        # two lances named in one tap (a 2x2 grid): the count of an all-pass hand is then one tap
        nxt = todo[1]
        pair = {"lances": (now, nxt), "final": len(todo) == 2, "options": []}
        for ta in TEAMS:
            for tb in TEAMS:
                href = None
                if not pair["final"] and base_url:
                    q = urlencode({**chosen, "win_" + now["lance"]: ta, "win_" + nxt["lance"]: tb})
                    href = base_url + ("&" if "?" in base_url else "?") + q + "#step"
                pair["options"].append({"teams": (ta, tb), "href": href,
                                        "value": f"showdown:{now['lance']}:{ta}:{nxt['lance']}:{tb}"})
    return {"now": now, "done": done, "final": len(todo) == 1, "hrefs": hrefs, "hidden": chosen,
            "left": len(todo), "pair": pair, "reset": (base_url or "") + "#step"}


def ui_of(st: dict, mano_override: str | None = None, picks: dict | None = None,
          base_url: str | None = None) -> dict:
    """The controls to offer now, from compute()'s hand and legal moves."""
    seats, R = st["seats"], st["rules"]
    legal = st["legal"]
    types = {m["type"] for m in legal}
    hv = st["hand"]
    ui = {"stage": st["status"], "types": types, "min_bet": R["min_bet"],
          "bets": sorted({R["min_bet"], *[a for a in BET_AMOUNTS if a >= R["min_bet"]]}),
          "open_teams": [m["team"] for m in legal if m["type"] == "bet"],
          "ordago_teams": [m["team"] for m in legal if m["type"] == "ordago" and "team" in m]}
    if hv is None:
        mano = mano_override or st["next_mano"]
        order = []
        if mano:
            m = seats.index(mano)
            order = [seats[(m + k) % 4] for k in range(4)]
        ui.update({"hand_no": len(st["hands"]) + 1, "mano": mano, "order": order, "lance": "grande",
                   "lance_name": "Grande", "steps": [], "total": 0, "to_answer": None, "so_far": [],
                   "cards_known": False, "game": st["game_number"]})
    else:
        lance = hv["lance"] or hv["stage"]
        so_far = []
        if st["hands"]:
            for L, text in st["hands"][-1]["lances"].items():
                if text in ("-", "bidding", "undeclared"):
                    continue
                so_far.append({"lance": NICE.get(L, L), "text": text})
        ui.update({"hand_no": hv["hand"], "mano": hv["mano"], "order": hv["order"], "lance": lance,
                   "lance_name": NICE.get(lance, lance.title()), "steps": [step_text(s) for s in hv["steps"]],
                   "total": hv["total"], "to_answer": hv["to_answer"], "ordago": hv["ordago"],
                   "so_far": so_far, "cards_known": hv["cards_known"], "game": hv["game"]})
        if hv["to_answer"]:
            ui["fold_points"] = _fold_points(hv["steps"])
            ui["bettor"] = hv["bettor"]
            ui["raises"] = [{"more": n, "to": hv["total"] + n} for n in RAISE_MORE]
        if st["status"] == "declare":
            ui["declare"] = ["pares", "juego"] if hv["stage"] == "pares" else ["juego"]
        if st["status"] == "showdown":
            ui["needs"] = [{"lance": L, "name": NICE["punto" if L == "juego" and hv["juego"] == "punto" else L]}
                           for L in hv["needs"]]
            ui["pick"] = _pick(ui["needs"], picks or {}, base_url)
    ui["players"] = player_rows(seats, ui["order"]) if ui["order"] else []
    ui["keypad"] = list("RCS7654A") if R["kings"] == 8 else list("RCS765432A")
    return ui


def hands_view(st: dict) -> list[dict]:
    """Every hand, newest first, with its awards and whether a game ended in it."""
    by_hand: dict[int, list] = {}
    for e in st["log"]:
        by_hand.setdefault(e["hand"], []).append(e)
    out = []
    for h in st["hands"]:
        lances = [{"lance": NICE.get(L, L), "text": t} for L, t in h["lances"].items() if t not in ("-", "undeclared")]
        out.append({**h, "awards": by_hand.get(h["hand"], []), "lance_list": lances})
    return list(reversed(out))


def stones_view(st: dict) -> dict:
    keep = st["keepers"]
    stones = st["stones"]
    return {t: {"amarracos": stones[t]["amarracos"], "ones": stones[t]["ones"],
                "dentro": stones[t].get("dentro", False), "fives_keeper": keep[t]["fives"],
                "ones_keeper": keep[t]["ones"]} for t in TEAMS} | {"dish": stones["dish"]}


def headline(game: dict, state: dict) -> str:
    """One line for the session page: 'A 12 – 36 B · dentro B · games 1–0'."""
    if state.get("match_winner"):
        w = state["match_winner"]
        gw = state["games_won"]
        return f"Match won by {w} ({team_label(game['seats'], w)}) {gw[w]}–{gw['B' if w == 'A' else 'A']}"
    s = state["score"]
    line = f"A {s['A']} – {s['B']} B"
    if state["games"]:
        line += f" · games {state['games_won']['A']}–{state['games_won']['B']}"
    dentro = [t for t in TEAMS if state["dentro"][t]]
    if dentro:
        line += " · dentro " + " & ".join(dentro)
    return line


def _moved_notice(st: dict) -> list[str]:
    """After a corrected hand (?fixed=N&was=7.12): which game ends moved."""
    fixed = request.args.get("fixed", type=int)
    if not fixed:
        return []
    was_raw = request.args.get("was", "")
    try:
        was = [int(x) for x in was_raw.split(".") if x]
    except ValueError:
        was = []
    now = st["game_ends"]
    lines = [f"Hand {fixed} corrected: every later point was recomputed."]
    for k in range(max(len(was), len(now))):
        a = was[k] if k < len(was) else None
        b = now[k] if k < len(now) else None
        if a == b:
            continue
        if a is None:
            lines.append(f"Game {k + 1} now ends at hand {b} (it had not ended).")
        elif b is None:
            lines.append(f"Game {k + 1} no longer ends at hand {a}: it goes on.")
        elif b < a:
            lines.append(f"Game {k + 1} now ends EARLIER, at hand {b} (was hand {a}).")
        else:
            lines.append(f"Game {k + 1} now ends LATER, at hand {b} (was hand {a}).")
    if len(lines) == 1:
        lines.append("No game ends moved.")
    return lines


# ---------------------------------------------------------------------------------------------------
# form fields -> engine actions


def _cards_from(form, seats: list[str]) -> dict:
    cards = {}
    for i, name in enumerate(seats):
        raw = (form.get(f"cards{i}") or "").strip()
        if not raw:
            raise RuleError(f"{name}'s four cards, please", f"cards{i}")
        if C.canon_hand(raw) is None:
            raise RuleError(f"'{raw}': four cards among R C S 7 6 5 4 3 2 A", f"cards{i}")
        cards[name] = C.canon_hand(raw)
    return cards


def read_action(form, seats: list[str]) -> dict:
    """One engine action from a scoring form. The button's ``move`` says which; other fields fill it in."""
    move = (form.get("move") or "").strip()
    parts = move.split(":")
    kind = parts[0]
    if kind == "pass":
        return {"type": "pass"}
    if kind == "bet":
        team = parts[1] if len(parts) > 1 else ""
        if team not in TEAMS:
            raise RuleError("which team bets? A or B", "move")
        if len(parts) > 2:
            amount = parts[2]
        else:
            amount = (form.get(f"amount_{team}") or "").strip()
            if not amount:
                raise RuleError("type the amount of the envite", f"amount_{team}")
        return {"type": "bet", "team": team, "amount": amount}
    if kind == "more":
        return {"type": "raise", "more": parts[1] if len(parts) > 1 else ""}
    if kind == "to":
        to = (form.get("to") or "").strip()
        if not to:
            raise RuleError("type the new total on the table", "to")
        return {"type": "raise", "to": to}
    if kind == "ordago":
        return {"type": "ordago", "team": parts[1]} if len(parts) > 1 and parts[1] else {"type": "ordago"}
    if kind in ("call", "fold"):
        return {"type": kind}
    if kind == "declare":
        keys = [k for k in (form.get("lances") or "pares,juego").split(",") if k in ("pares", "juego")]
        action = {"type": "declare"}
        for key in keys:
            action[key] = {name: form.get(f"{key}{i}") for i, name in enumerate(seats)
                           if form.get(f"{key}{i}") not in (None, "", "none")}
        return action
    if kind == "showdown":
        action = {"type": "showdown"}
        for L in LANCE_ORDER:
            v = form.get(f"win_{L}")
            if v:
                action[L] = v
        # "showdown:chica:B" or, from the two-lance grid, "showdown:grande:A:chica:B"
        for L, t in zip(parts[1::2], parts[2::2]):
            if L in LANCE_ORDER:
                action[L] = t
        return action
    if kind == "cards":
        cards = _cards_from(form, seats)
        if len(parts) > 1 and parts[1] == "showdown":
            return {"type": "showdown", "cards": cards}
        action = {"type": "start_hand", "cards": cards}
        return action
    if kind == "start":
        mano = form.get("mano") or None
        return {"type": "start_hand", "mano": mano} if mano else {"type": "start_hand"}
    raise RuleError("that button is not a move", "move")


def _field_of(err: RuleError, action: dict | None, form) -> str:
    """Where to show an engine error: beside the field the action came from, else at the top."""
    p = err.path
    move = (form.get("move") or "")
    if p.startswith("amount_") or p.startswith("cards"):
        return p
    if p == "amount" and action and action.get("team") and move.count(":") == 1:
        return f"amount_{action['team']}"
    if p in ("to", "more") and move == "to":
        return "to"
    return "step"


# ---------------------------------------------------------------------------------------------------
# pages


def _state(view, gi: int) -> tuple[dict, dict]:
    game = view.game(gi, "mus")
    return game, view.state["games"][gi]


def _page(view, gi: int, status: int = 200, errors: dict | None = None):
    game, st = _state(view, gi)
    picks = {L: request.args.get(f"win_{L}") for L in LANCE_ORDER} if view.can_edit else {}
    ui = ui_of(st, picks=picks, base_url=url_for("mus.game", token=view.token, gi=gi))
    return render("mus_game.html", view, status=status, gi=gi, game=game, st=st, ui=ui,
                  hands=hands_view(st), stones=stones_view(st), names=team_names(game["seats"]),
                  errors=errors or {}, notice=_moved_notice(st) if view.can_edit else [],
                  act_url=url_for("mus.act", token=view.token, gi=gi), draft=None,
                  stake=_stake_text(view, game), stake_game=_stake_amount(view, game, "per_game"),
                  stake_match=_stake_amount(view, game, "per_match"),
                  pares_choices=PARES_CHOICES, juego_choices=JUEGO_CHOICES)


def _stake_amount(view, game: dict, kind: str) -> str:
    """The stake of this kind, formatted in the session currency ('' when there is none)."""
    stake = game.get("stake") or {}
    if kind not in stake:
        return ""
    return money.format_amount(stake[kind], view.doc.get("currency") or "EUR")


def _stake_text(view, game: dict) -> str:
    for k, label in (("per_game", "per game"), ("per_match", "per match")):
        if _stake_amount(view, game, k):
            return f"{_stake_amount(view, game, k)} {label}"
    return ""


@bp.route("/s/<token>/mus/new", methods=["GET", "POST"])
def new(token):
    view = require_edit(token)
    players = view.doc["players"]
    if request.method == "GET":
        form = {}
        if len(players) == 4:
            form = {f"seat{i}": p for i, p in enumerate(players)}
        return render("mus_new.html", view, form=form, errors={}, players=players, presets=PRESETS)
    form = request.form.to_dict()
    errors: dict[str, str] = {}
    data = {k: v for k, v in form.items() if k not in ("csrf", "k", "v", "at")}
    kind = (form.get("stake_kind") or "").strip()
    amount_text = (form.get("stake_amount") or "").strip()
    data.pop("stake", None)
    if kind:
        try:
            data["stake"] = str(money.parse_amount(amount_text, view.doc.get("currency") or "EUR"))
        except ValueError as e:
            errors["stake_amount"] = str(e)
    elif amount_text:
        errors["stake_kind"] = "per game or per match?"
    for t in TEAMS:
        pos = form.get(f"fives_{t}_pos")
        members = [form.get(f"seat{i}", "") for i in ((0, 2) if t == "A" else (1, 3))]
        if pos in ("0", "1") and all(members):
            data[f"fives_{t}"] = members[int(pos)]
            data[f"ones_{t}"] = members[1 - int(pos)]
    game = None
    if not errors:
        try:
            game = engine.new_game(players, data)
        except RuleError as e:
            field = {"stake": "stake_amount", "fives_A": "fives_A_pos", "ones_A": "fives_A_pos",
                     "fives_B": "fives_B_pos", "ones_B": "fives_B_pos"}.get(e.path, e.path or "form")
            errors[field] = e.message
    if errors:
        return render("mus_new.html", view, status=422, form=form, errors=errors, players=players,
                      presets=PRESETS)
    gi = len(view.doc["games"])
    location = url_for("mus.game", token=token, gi=gi)
    try:
        written = perform(view, "add_game", {"game": game}, location)
    except RuleError as e:
        return render("mus_new.html", view, status=409 if isinstance(e, Conflict) else 422, form=form,
                      errors={"form": e.message}, players=players, presets=PRESETS)
    return see_other(written.location)


@bp.get("/s/<token>/mus/<int:gi>")
def game(token, gi):
    view = open_session(token)
    view.game(gi, "mus")
    return unchanged_poll(view) or _page(view, gi)


@bp.route("/s/<token>/mus/<int:gi>/act", methods=["GET", "POST"])
def act(token, gi):
    view = open_session(token)
    if request.method == "GET":
        # an error page was shown at this address: its live poll (and a reload) land here
        view.game(gi, "mus")
        if is_poll():
            return unchanged_poll(view) or _page(view, gi)
        return see_other(url_for("mus.game", token=token, gi=gi))
    if not view.can_edit:
        abort(403)
    game_doc, _ = _state(view, gi)
    location = url_for("mus.game", token=token, gi=gi)
    action = None
    try:
        action = read_action(request.form, game_doc["seats"])
        written = game_action(view, gi, action, location)
    except RuleError as e:
        stale = e.path == "at" or isinstance(e, Conflict)
        return _page(view, gi, status=409 if stale else 422,
                     errors={"stale" if stale else _field_of(e, action, request.form): e.message})
    return see_other(written.location)


@bp.get("/s/<token>/mus/<int:gi>/reference")
def reference(token, gi):
    view = open_session(token)
    game = view.game(gi, "mus")
    R = effective_rules(game["rules"])
    return render("mus_reference.html", view, gi=gi, R=R, juego_order=C.JUEGO_ORDER,
                  bonus=C.PARES_BONUS, preset_name=R["preset"])


# ---------------------------------------------------------------------------------------------------
# correcting a past hand: re-record it with the same controls on a scratch copy, then replace it


def _past_hand(view, gi: int, hn: int) -> tuple[dict, dict, int]:
    game, st = _state(view, gi)
    hi = hn - 1
    if not 0 <= hi < len(game["hands"]) or "open" in game["hands"][hi]:
        abort(404)
    return game, st, hi


def _sandbox(game: dict, hi: int, draft: dict | None) -> dict:
    g = {k: v for k, v in game.items() if k != "hands"}
    g["hands"] = list(game["hands"][:hi]) + ([draft] if draft is not None else [])
    return engine.normalize(g, None)


def _draft_from(raw: str | None) -> dict | None:
    if not raw:
        return None
    try:
        d = json.loads(raw)
    except ValueError:
        raise RuleError("this correction could not be read: start again", "step") from None
    if not isinstance(d, dict):
        raise RuleError("this correction could not be read: start again", "step")
    return d


def _hand_page(view, gi: int, hn: int, draft: dict | None, status: int = 200, errors: dict | None = None):
    game, st, hi = _past_hand(view, gi, hn)
    errors = dict(errors or {})
    try:
        sb = _sandbox(game, hi, draft)
    except RuleError as e:
        errors.setdefault("step", f"This correction could not be used ({e.message}): start again.")
        draft, sb = None, _sandbox(game, hi, None)
    sst = engine.compute(sb)
    orig = game["hands"][hi]
    done = draft is not None and "open" not in draft
    mano = orig.get("mano") or st["hands"][hi]["mano"]
    picks = {L: request.args.get(f"win_{L}") for L in LANCE_ORDER} if request.method == "GET" else {}
    here = url_for("mus.hand", token=view.token, gi=gi, hn=hn)
    ui = ui_of(sst, mano_override=mano, picks=picks,
               base_url=here + "?" + urlencode({"draft": json.dumps(draft, ensure_ascii=False, separators=(",", ":"))})
               if draft else None)
    if ui["stage"] == "ready":
        ui["hand_no"] = hn
    new_summary = None
    if done:
        new_summary = hands_view(sst)[0]
    old = [h for h in hands_view(st) if h["hand"] == hn][0]
    return render("mus_hand.html", view, status=status, gi=gi, hn=hn, game=game, st=st, sst=sst, ui=ui,
                  errors=errors, old=old, new=new_summary, done=done, names=team_names(game["seats"]),
                  draft=json.dumps(draft, ensure_ascii=False, separators=(",", ":")) if draft else "",
                  act_url=url_for("mus.hand", token=view.token, gi=gi, hn=hn),
                  orig_cards=orig.get("cards"), pares_choices=PARES_CHOICES, juego_choices=JUEGO_CHOICES)


@bp.route("/s/<token>/mus/<int:gi>/hand/<int:hn>", methods=["GET", "POST"])
def hand(token, gi, hn):
    view = require_edit(token)
    game, st, hi = _past_hand(view, gi, hn)
    if request.method == "GET":
        try:
            draft = _draft_from(request.args.get("draft"))
        except RuleError as e:
            return _hand_page(view, gi, hn, None, status=422, errors={"step": e.message})
        return _hand_page(view, gi, hn, draft)

    form = request.form
    try:
        draft = _draft_from(form.get("draft"))
    except RuleError as e:
        return _hand_page(view, gi, hn, None, status=422, errors={"step": e.message})
    here = url_for("mus.hand", token=token, gi=gi, hn=hn)
    if form.get("move") == "save":
        if draft is None or "open" in draft:
            return _hand_page(view, gi, hn, draft, status=422, errors={"step": "finish the hand first"})
        action = {"type": "replace_hand", "index": hi, "hand": draft}
        try:
            was = ".".join(str(x) for x in st["game_ends"])
            location = url_for("mus.game", token=token, gi=gi) + "?" + urlencode({"fixed": hn, "was": was})
            written = perform(view, "game", {"game": gi, "action": action}, location)
        except RuleError as e:
            return _hand_page(view, gi, hn, draft, status=409 if isinstance(e, Conflict) else 422,
                              errors={"step": e.message})
        return see_other(written.location)
    if form.get("move") == "restart":
        return see_other(here)
    orig = game["hands"][hi]
    action = None
    try:
        action = read_action(form, game["seats"])
        sb = _sandbox(game, hi, draft)
        if draft is None:
            mano = orig.get("mano")
            if action["type"] == "start_hand":
                if mano:
                    action = {**action, "mano": mano}
            elif mano:
                sb = engine.apply(sb, {"type": "start_hand", "mano": mano})
        sb = engine.apply(sb, action)
    except RuleError as e:
        return _hand_page(view, gi, hn, draft, status=422, errors={_field_of(e, action, form): e.message})
    new_draft = sb["hands"][hi] if len(sb["hands"]) > hi else None
    query = urlencode({"draft": json.dumps(new_draft, ensure_ascii=False, separators=(",", ":"))})
    return see_other(f"{here}?{query}")

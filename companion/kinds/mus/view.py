"""What a Mus page shows: the page model of the scoring screen, built from the game's running state, the
hand in progress and the last few hands (never the whole match). Pure: messages stay codes; the
templates render them in the reader's language."""
from __future__ import annotations

from urllib.parse import urlencode

from ...messages import msg
from ..base import GameRec, Item
from .hand import Play, lance
from .kind import KIND, keepers_of, stones_of, team_names
from .options import LANCES, TEAMS, effective

BET_AMOUNTS = (2, 3, 5, 10)
RAISE_MORE = (2, 5, 10)
RECENT = 3       # hands the live region shows; the rest is on the hand-by-hand page
PARES_CHOICES = (("", "–"), ("pareja", {"code": "mus.pares.pareja"}), ("medias", {"code": "mus.pares.medias"}),
                 ("duples", {"code": "mus.pares.duples"}))
JUEGO_CHOICES = (("", "–"), ("31", "31"), ("32", "32"), ("40", "40"), ("other", {"code": "mus.choice.other"}))


def step_text(step: dict) -> dict:
    t = step["team"]
    if "bet" in step:
        return msg("mus.step.bet", team=t, n=step["bet"])
    if "raise" in step:
        return msg("mus.step.raise", team=t, n=step["raise"])
    if "ordago" in step:
        return msg("mus.step.ordago", team=t)
    if "call" in step:
        return msg("mus.step.call", team=t)
    return msg("mus.step.fold", team=t)


def player_rows(seats: list[str], order: list[str]) -> list[dict]:
    return [{"name": n, "i": seats.index(n), "team": "A" if seats.index(n) % 2 == 0 else "B", "mano": k == 0}
            for k, n in enumerate(order)]


def hand_view(result: dict, is_open: bool = False) -> dict:
    """One hand as the log shows it: its points, what each lance came to, every award and alert."""
    return {**result, "open": is_open, "lance_list": [{"lance": lance(x["lance"]), "text": x["what"]}
                                                       for x in result.get("lances", [])]}


def pick(needs: list[dict], picks: dict, base_url: str | None) -> dict | None:
    """The count without cards, one tap per two lances: the lances already named (carried in the URL),
    the one or two to name now, and whether the buttons post the showdown (the last ones) or link on."""
    done = [{**n, "team": picks[n["lance"]]} for n in needs if picks.get(n["lance"]) in TEAMS]
    todo = [n for n in needs if picks.get(n["lance"]) not in TEAMS]
    if not todo:
        return None
    now = todo[0]
    chosen = {f"win_{n['lance']}": n["team"] for n in done}

    def href(extra: dict) -> str | None:
        if not base_url:
            return None
        return base_url + ("&" if "?" in base_url else "?") + urlencode({**chosen, **extra}) + "#step"

    hrefs = {t: href({"win_" + now["lance"]: t}) for t in TEAMS} if len(todo) > 1 else {}
    pair = None
    if len(todo) >= 2:
        nxt = todo[1]
        pair = {"lances": (now, nxt), "final": len(todo) == 2, "options": []}
        for ta in TEAMS:
            for tb in TEAMS:
                pair["options"].append({
                    "teams": (ta, tb),
                    "href": None if pair["final"] else href({"win_" + now["lance"]: ta, "win_" + nxt["lance"]: tb}),
                    "value": f"showdown:{now['lance']}:{ta}:{nxt['lance']}:{tb}"})
    return {"now": now, "done": done, "final": len(todo) == 1, "hrefs": hrefs, "hidden": chosen,
            "left": len(todo), "pair": pair, "reset": (base_url or "") + "#step"}


def page(rec: GameRec, recent: list[Item], *, picks: dict | None = None, base_url: str | None = None,
         mano_override: str | None = None) -> dict:
    """The scoring screen: ``st`` (where the match stands), ``ui`` (the controls of the step now),
    ``hands`` (the last few hands, newest first), ``stones``, ``names``."""
    head = rec.head
    R = effective(head["rules"])
    seats = head["seats"]
    current, play = KIND.current(rec)
    over = current["match_winner"] is not None
    progress = play.progress if play else None
    if over:
        status = "match_over"
    elif progress is None:
        status = "ready"
    else:
        status = progress["status"]
    last = recent[-1].result if recent and recent[-1].result else None
    game_over = None
    if last and last.get("ended_game") and progress is None:
        ended = last["ended_game"]
        g = current["games"][ended["game"] - 1]
        game_over = {**g, "game": ended["game"]}
    score = current["score"]
    next_mano = None if over else seats[0 if current["mano"] is None else (current["mano"] + 1) % 4]
    st = {"at": KIND.position(rec), "score": score, "dentro": {t: score[t] >= R["target"] - 5 for t in TEAMS},
          "games_won": current["games_won"], "games": current["games"], "match_winner": current["match_winner"],
          "rules": R, "game_number": len(current["games"]) if over else current["game"], "status": status,
          "hand": {"mano": progress["mano"]} if progress else None, "next_mano": next_mano,
          "game_over": game_over, "seats": seats}
    hands = [hand_view(item.result) for item in recent if item.result]
    if play is not None:
        hands.append(hand_view(play.result, is_open=True))
    hands.reverse()
    return {"st": st, "ui": controls(rec, st, progress, play, picks or {}, base_url, mano_override),
            "hands": hands, "stones": stones_view(score, R["target"], keepers_of(head)),
            "names": {t: seats[0::2] if t == "A" else seats[1::2] for t in TEAMS}, "team_names": team_names(head)}


def controls(rec: GameRec, st: dict, progress: dict | None, play: Play | None, picks: dict, base_url,
             mano_override) -> dict:
    R, seats = st["rules"], st["seats"]
    ui = {"stage": st["status"], "min_bet": R["min_bet"],
          "bets": sorted({R["min_bet"], *[a for a in BET_AMOUNTS if a >= R["min_bet"]]}),
          "keypad": list("RCS765432A"), "eight_kings": R["kings"] == 8}
    if st["status"] == "match_over":
        ui.update(types=set(), open_teams=[], ordago_teams=[], players=[], order=[])
        return ui
    if progress is None:
        mano = mano_override or st["next_mano"]
        m = seats.index(mano)
        order = [seats[(m + k) % 4] for k in range(4)]
        ui.update(types={"start_hand", "pass", "bet", "ordago"}, open_teams=list(TEAMS), ordago_teams=list(TEAMS),
                  hand_no=rec.state["dealt"] + 1, mano=mano, order=order, lance="grande",
                  lance_name=lance("grande"), steps=[], total=0, to_answer=None, so_far=[], cards_known=False,
                  game=rec.state["game"])
    else:
        b = progress["bidding"] or {}
        name = progress["lance"] or progress["stage"]
        body = rec.items[-1].body
        steps = body.get(progress["stage"], []) if progress["stage"] in LANCES else []
        types: set = set()
        open_teams, ordago_teams = [], []
        if progress["status"] == "bidding":
            if b.get("kind") == "passed":
                types = {"pass", "bet", "ordago"}
                open_teams = ordago_teams = list(TEAMS)
            elif b.get("kind") == "pending":
                types = {"call", "fold"} | (set() if b["ordago"] else {"raise", "ordago"})
        elif progress["status"] == "declare":
            types = {"declare"}
        elif progress["status"] == "showdown":
            types = {"showdown"}
        ui.update(types=types, open_teams=open_teams, ordago_teams=ordago_teams, hand_no=progress["hand"],
                  mano=progress["mano"], order=progress["order"], lance=name, lance_name=lance(name),
                  steps=[step_text(s) for s in steps], total=b.get("total", 0), to_answer=b.get("to_answer"),
                  ordago=bool(b.get("ordago")), cards_known=progress["cards_known"], game=progress["game"],
                  so_far=[{"lance": lance(x["lance"]), "text": x["what"]} for x in play.result["lances"]])
        if b.get("to_answer"):
            ui["fold_points"] = b["fold_points"]
            ui["bettor"] = b["bettor"]
            ui["raises"] = [{"more": n, "to": b["total"] + n} for n in RAISE_MORE]
        if progress["status"] == "declare":
            ui["declare"] = ["pares", "juego"] if progress["stage"] == "pares" else ["juego"]
        if progress["status"] == "showdown":
            ui["needs"] = [{"lance": L, "name": lance(progress["lances"][L]["name"])} for L in progress["needs"]]
            ui["pick"] = pick(ui["needs"], picks, base_url)
    ui["players"] = player_rows(seats, ui["order"])
    return ui


def stones_view(score: dict, target: int, keep: dict) -> dict:
    stones = stones_of(score, target)
    return {t: {"amarracos": stones[t]["amarracos"], "ones": stones[t]["ones"],
                "dentro": stones[t].get("dentro", False), "fives_keeper": keep[t]["fives"],
                "ones_keeper": keep[t]["ones"]} for t in TEAMS} | {"dish": stones["dish"]}


def moved(was: list[int], now: list[int], fixed: int) -> list[dict]:
    """After a corrected hand: which game ends moved (messages)."""
    lines = [msg("mus.fix.done", hand=fixed)]
    for k in range(max(len(was), len(now))):
        a = was[k] if k < len(was) else None
        b = now[k] if k < len(now) else None
        if a == b:
            continue
        if a is None:
            lines.append(msg("mus.fix.now_ends", game=k + 1, hand=b))
        elif b is None:
            lines.append(msg("mus.fix.goes_on", game=k + 1, hand=a))
        elif b < a:
            lines.append(msg("mus.fix.earlier", game=k + 1, hand=b, was=a))
        else:
            lines.append(msg("mus.fix.later", game=k + 1, hand=b, was=a))
    if len(lines) == 1:
        lines.append(msg("mus.fix.same"))
    return lines

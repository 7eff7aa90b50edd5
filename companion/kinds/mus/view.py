"""What a Mus page shows: the page model of the scoring screen, built from the game's running state, the
hand in progress and the last few hands (never the whole match). Pure: messages stay codes; the
templates render them in the reader's language."""
from __future__ import annotations

from urllib.parse import urlencode

from companion.domain.messages import msg
from companion.kinds.base import GameRec, Item
from companion.kinds.mus.hand import Play, lance
from companion.kinds.mus.kind import KIND, keepers_of, stones_of, team_names
from companion.kinds.mus.moves import MAX_TALLY, dump_tally, mv
from companion.kinds.mus.options import LANCES, TEAMS, effective
from companion.kinds.mus.shape import TALLY_LANCES
from companion.kinds.mus.toasts import ordago_accepted, step_text
from companion.kinds.mus.toasts import toast as _toast

BET_AMOUNTS = (2, 3, 5, 10)
QUICK_BETS = (2, 5)     # the thumb bar's envite buttons (the others are one tap away, under "More")
TALLY_POINTS = (1, 2, 3, 4, 5)     # a hand's points per team are mostly 5 or fewer: one tap each
RAISE_MORE = (2, 5, 10)
RECENT = 3       # hands the live region shows; the rest is on the hand-by-hand page
PARES_CHOICES = (("", "–"), ("pareja", {"code": "mus.pares.pareja"}), ("medias", {"code": "mus.pares.medias"}),
                 ("duples", {"code": "mus.pares.duples"}))
JUEGO_CHOICES = (("", "–"), ("31", "31"), ("32", "32"), ("40", "40"), ("other", {"code": "mus.choice.other"}))


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
        return base_url + ("&" if "?" in base_url else "?") + urlencode({**chosen, **extra})

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
                    "value": mv("showdown", **{now["lance"]: ta, nxt["lance"]: tb})})
    return {"now": now, "done": done, "final": len(todo) == 1, "hrefs": hrefs, "hidden": chosen,
            "left": len(todo), "pair": pair, "reset": base_url or ""}


def page(rec: GameRec, recent: list[Item], *, picks: dict | None = None, base_url: str | None = None,
         mano_override: str | None = None, mode: str | None = None, tally: list | None = None,
         tally_lance: str | None = None, rest: bool = False) -> dict:
    """The scoring screen: ``st`` (where the match stands), ``ui`` (the controls of the step now),
    ``hands`` (the last few hands, newest first), ``stones``, ``names``. ``mode`` "tally" or "bids"
    overrides the match's way of scoring for the next hand; ``tally`` is that hand's awards so far (they
    live in the address until the hand is counted); ``rest``: the count after "everyone passes"."""
    head = rec.head
    R = effective(head["rules"])
    seats = head["seats"]
    current, play = KIND.current(rec)
    over = current["match_winner"] is not None
    progress = play.progress if play else None
    if over or head.get("ended"):       # decided, or ended by a club round's clock
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
          "game_over": game_over, "seats": seats, "ended": head.get("ended")}
    if head.get("ended"):
        from companion.domain.match import match_result

        st["result"] = match_result({**current, "ended": head["ended"]})[0]
    first = len(rec.items) - len(recent)      # the recent items are the last ones
    hands = [dict(hand_view(item.result), n=first + k + 1) for k, item in enumerate(recent) if item.result]
    if play is not None:
        now = hand_view(play.result, is_open=True)
        accepted = ordago_accepted(rec.items[-1].body)
        if accepted:          # the órdago's lance is settled by the count: the hand says so meanwhile
            now["lance_list"] = now["lance_list"] + [{"lance": lance(accepted), "text": msg("mus.toast.ordago_line")}]
        hands.append(now)
    hands.reverse()
    st["scoring"] = head.get("scoring", "bids")
    ui = controls(rec, st, progress, play, picks or {}, base_url, mano_override)
    ui["dealer"] = ui["order"][3] if ui.get("order") else None
    if status == "ready":
        ui["mode"] = mode if mode in ("tally", "bids") else st["scoring"]
        if ui["mode"] == "tally":
            ui["tally"] = tally_view(tally or [], tally_lance, base_url)
    if rest and status in ("ready", "bidding", "declare") and not ui.get("to_answer"):
        ui["rest"] = rest_view(rec, progress, ui)
    return {"st": st, "ui": ui, "hands": hands, "stones": stones_view(score, R["target"], keepers_of(head)),
            "names": {t: seats[0::2] if t == "A" else seats[1::2] for t in TEAMS}, "team_names": team_names(head)}


# ---------------------------------------------------------------------------------------------------
# a tally hand: awards added one tap each, carried in the address until the hand is counted

def tally_view(awards: list[list], lance_next: str | None, base_url: str | None) -> dict:
    def href(new: list[list], **extra) -> str:
        q = {"mode": "tally", **({"tally": dump_tally(new)} if new else {}), **extra}
        return (base_url or "") + "?" + urlencode(q)

    lance_next = lance_next if lance_next in TALLY_LANCES else None
    sums = {t: sum(a[1] for a in awards if a[0] == t) for t in TEAMS}
    full = len(awards) >= MAX_TALLY
    add = {t: [{"n": n, "href": None if full else href(awards + [[t, n, lance_next]])} for n in TALLY_POINTS]
           for t in TEAMS}
    lances = [{"lance": L, "name": lance(L), "on": L == lance_next,
               "href": href(awards, **({} if L == lance_next else {"tl": L}))} for L in TALLY_LANCES]
    rows = [{"team": a[0], "points": a[1], "lance": lance(a[2]) if len(a) > 2 and a[2] else None,
             "why": a[3] if len(a) > 3 else None} for a in awards]
    return {"awards": rows, "sums": sums, "add": add, "lances": lances, "lance_next": lance_next,
            "raw": dump_tally(awards), "full": full, "max": MAX_TALLY,
            "drop_last": href(awards[:-1], **({"tl": lance_next} if lance_next else {})) if awards else None,
            "clear": href([]) if awards else None}


# ---------------------------------------------------------------------------------------------------
# "everyone passes the rest": one form for the declarations and the count

def rest_view(rec: GameRec, progress: dict | None, ui: dict) -> dict:
    declared = (progress or {}).get("declared", {})
    stage = (progress or {}).get("stage", "grande")
    ask = [k for k in ("pares", "juego") if k not in declared and LANCES.index(stage) <= LANCES.index(k)] \
        if not ui.get("cards_known") else []
    needs = KIND.rest_needs(rec) if not ui.get("cards_known") else []
    grid = []
    if len(needs) == 2:
        grid = [{"teams": (ta, tb), "value": mv("pass_rest", **{needs[0]: ta, needs[1]: tb})}
                for ta in TEAMS for tb in TEAMS]
    elif len(needs) == 1:
        grid = [{"teams": (t,), "value": mv("pass_rest", **{needs[0]: t})} for t in TEAMS]
    return {"ask": ask, "needs": [{"lance": L, "name": lance(L)} for L in needs], "grid": grid,
            "cards_known": ui.get("cards_known", False),
            "optional": [] if ui.get("cards_known") else
            [{"lance": "pares", "name": lance("pares")}, {"lance": "juego", "name": msg("mus.lance.juego_punto")}]}


# ---------------------------------------------------------------------------------------------------
# the line under the score after each recorded step

def controls(rec: GameRec, st: dict, progress: dict | None, play: Play | None, picks: dict, base_url,
             mano_override) -> dict:
    R, seats = st["rules"], st["seats"]
    bets = sorted({R["min_bet"], *[a for a in BET_AMOUNTS if a >= R["min_bet"]]})
    ui = {"stage": st["status"], "min_bet": R["min_bet"], "bets": bets,
          "quick_bets": [a for a in bets if a in QUICK_BETS or a == R["min_bet"]][:2],
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
        accepted = ordago_accepted(body)
        if accepted:
            ui["so_far"].append({"lance": lance(accepted), "text": msg("mus.toast.ordago_line")})
        if b.get("to_answer"):
            ui["fold_points"] = b["fold_points"]
            ui["bettor"] = b["bettor"]
            ui["raises"] = [{"more": n, "to": b["total"] + n} for n in RAISE_MORE]
        if progress["status"] == "declare":
            ui["declare"] = ["pares", "juego"] if progress["stage"] == "pares" else ["juego"]
        if progress["status"] == "showdown":
            ui["needs"] = [{"lance": L, "name": lance(progress["lances"][L]["name"])} for L in progress["needs"]]
            ui["pick"] = pick(ui["needs"], picks, base_url)
            decides = ordago_accepted(body)
            ui["decides"] = lance(decides) if decides else None
    ui["players"] = player_rows(seats, ui["order"])
    return ui


def preset_name(head: dict) -> dict:
    """The rules in words: the preset's name, and whether the table changed an option of it."""
    rules = head["rules"]
    name = msg(f"mus.preset.{rules.get('preset', 'pagat')}")
    return msg("mus.preset.changed", name=name) if any(k != "preset" for k in rules) else name


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


def toast(rec: GameRec) -> dict | None:
    """What the last tap recorded, in one line (``toasts.toast`` for this kind)."""
    return _toast(KIND, rec)

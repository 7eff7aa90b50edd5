"""Mus: rule options, the session-file shape (normalize) and the walk that plays a match's hands
(bidding, fold points, órdago, declarations, the count, games, match) for normalize, compute and apply."""

from __future__ import annotations

from ..errors import RuleError
from . import cards as C

LANCES = ("grande", "chica", "pares", "juego")
STAGES = LANCES + ("showdown",)
TEAMS = ("A", "B")
OPTIONS = ("paso_point", "juego_31", "juego_other", "punto_bonus", "kings", "target", "games_to_win", "min_bet")
PRESETS = {
    "pagat": {"paso_point": 0, "juego_31": 2, "juego_other": 1, "punto_bonus": 0, "kings": 8, "target": 40,
              "games_to_win": 3, "min_bet": 2},
    "spanish": {"paso_point": 1, "juego_31": 3, "juego_other": 2, "punto_bonus": 1, "kings": 8, "target": 40,
                "games_to_win": 2, "min_bet": 2},
}
RANGES = {"paso_point": (0, 10), "juego_31": (0, 10), "juego_other": (0, 10), "punto_bonus": (0, 10),
          "kings": (4, 8), "target": (10, 100), "games_to_win": (1, 9), "min_bet": (1, 10)}
GAME_KEYS = ("kind", "rules", "seats", "stones", "stake", "hands")
HAND_KEYS = ("mano", "cards", "grande", "chica", "pares", "juego", "showdown", "open", "declared")
SHOWDOWN_KEYS = ("grande", "chica", "pares", "juego", "pares_held", "juego_held")
VERBS = ("bet", "raise", "ordago", "call", "fold")
NICE = {"grande": "Grande", "chica": "Chica", "pares": "Pares", "juego": "Juego", "punto": "Punto"}


def other(team: str) -> str:
    return "B" if team == "A" else "A"


def team_of(seats: list[str], name: str) -> str:
    return "A" if seats.index(name) % 2 == 0 else "B"


def effective_rules(rules: dict) -> dict:
    out = dict(PRESETS[rules.get("preset", "pagat")])
    out.update({k: v for k, v in rules.items() if k in OPTIONS})
    out["preset"] = rules.get("preset", "pagat")
    return out


def is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# ---------------------------------------------------------------------------------------------------
# shape


def norm_rules(rules, path="rules") -> dict:
    if rules is None:
        return {"preset": "pagat"}
    if not isinstance(rules, dict):
        raise RuleError("rules must be an object", path)
    for k in rules:
        if k != "preset" and k not in OPTIONS:
            raise RuleError(f"unknown rule option '{k}' (known: preset, {', '.join(OPTIONS)})", f"{path}.{k}")
    preset = rules.get("preset", "pagat")
    if preset not in PRESETS:
        raise RuleError(f"unknown preset '{preset}' (pagat or spanish)", f"{path}.preset")
    out = {"preset": preset}
    for k in OPTIONS:
        if k in rules:
            v = rules[k]
            lo, hi = RANGES[k]
            if not is_int(v):
                raise RuleError(f"{k} must be a whole number", f"{path}.{k}")
            if k == "kings":
                if v not in (4, 8):
                    raise RuleError("kings must be 8 (3 = rey, 2 = as) or 4", f"{path}.{k}")
            elif not lo <= v <= hi:
                raise RuleError(f"{k} must be between {lo} and {hi}", f"{path}.{k}")
            out[k] = v
    return out


def norm_step(step, path: str) -> dict:
    if not isinstance(step, dict):
        raise RuleError("a step must be an object like {\"team\": \"A\", \"bet\": 2}", path)
    team = step.get("team")
    if team not in TEAMS:
        raise RuleError("a step needs \"team\": \"A\" or \"B\"", f"{path}.team")
    verbs = [k for k in step if k != "team"]
    for k in verbs:
        if k not in VERBS:
            raise RuleError(f"unknown key '{k}' in a step (bet, raise, ordago, call or fold)", f"{path}.{k}")
    if len(verbs) != 1:
        raise RuleError("a step is exactly one of bet, raise, ordago, call, fold", path)
    verb = verbs[0]
    v = step[verb]
    if verb in ("bet", "raise"):
        if not is_int(v) or v < 1 or v > 999:
            raise RuleError(f"{verb} must be a whole number of points (the new total)", f"{path}.{verb}")
    elif v is not True:
        raise RuleError(f"{verb} must be true", f"{path}.{verb}")
    return {"team": team, verb: v}


def _norm_held(held, path, seats, kind):
    if not isinstance(held, dict):
        raise RuleError("must be an object {player: ...}", path)
    out = {}
    for name in seats:
        if name not in held:
            continue
        v = held[name]
        p = f"{path}.{name}"
        if kind == "pares":
            if v not in C.PARES_KINDS:
                raise RuleError("pares held must be pareja, medias or duples", p)
        else:
            if v == "other":
                pass
            elif not is_int(v) or not (4 <= v <= 37 or v == 40):
                raise RuleError("must be a juego total (31-37 or 40), \"other\" (a juego other than 31) "
                                "or a punto total (4-30)", p)
            elif kind == "declared" and v < 31:
                raise RuleError("a juego declaration is 31, another juego total or \"other\"", p)
        out[name] = v
    for name in held:
        if name not in seats:
            raise RuleError(f"'{name}' is not seated at this game", f"{path}.{name}")
    return out


def norm_hand(hand, path: str, seats: list[str]) -> dict:
    if not isinstance(hand, dict):
        raise RuleError("a hand must be an object", path)
    for k in hand:
        if k not in HAND_KEYS:
            raise RuleError(f"unknown key '{k}' in a hand (known: {', '.join(HAND_KEYS)})", f"{path}.{k}")
    out = {}
    if "mano" in hand:
        if hand["mano"] not in seats:
            raise RuleError(f"the mano must be one of the seated players ({', '.join(seats)})", f"{path}.mano")
        out["mano"] = hand["mano"]
    if "cards" in hand:
        cs = hand["cards"]
        if not isinstance(cs, dict):
            raise RuleError("cards must be an object {player: \"RR43\", ...} for all four players", f"{path}.cards")
        for k in cs:
            if k not in seats:
                raise RuleError(f"'{k}' is not seated at this game", f"{path}.cards.{k}")
        cc = {}
        for name in seats:
            if name not in cs:
                raise RuleError(f"the cards of all four players are needed ({name} is missing)", f"{path}.cards")
            h = C.canon_hand(cs[name])
            if h is None:
                raise RuleError(f"'{cs[name]}' is not a hand: 4 letters among R C S 7 6 5 4 3 2 A",
                                f"{path}.cards.{name}")
            cc[name] = h
        counts: dict[str, int] = {}
        for h in cc.values():
            for ch in h:
                counts[ch] = counts.get(ch, 0) + 1
        for ch, n in counts.items():
            if n > 4:
                raise RuleError(f"the deck has only four {ch} ({n} are in these hands)", f"{path}.cards")
        out["cards"] = cc
    for lance in LANCES:
        steps = hand.get(lance, [])
        if steps is None:
            steps = []
        if not isinstance(steps, list):
            raise RuleError("a lance is a list of steps ([] when everyone passed)", f"{path}.{lance}")
        out[lance] = [norm_step(s, f"{path}.{lance}[{i}]") for i, s in enumerate(steps)]
    if "showdown" in hand:
        sd = hand["showdown"]
        sp = f"{path}.showdown"
        if not isinstance(sd, dict):
            raise RuleError("showdown must be an object", sp)
        for k in sd:
            if k not in SHOWDOWN_KEYS:
                raise RuleError(f"unknown key '{k}' in a showdown (known: {', '.join(SHOWDOWN_KEYS)})", f"{sp}.{k}")
        o = {}
        for lance in LANCES:
            if lance in sd and sd[lance] is not None:
                if sd[lance] not in TEAMS:
                    raise RuleError("the winner of a lance is team \"A\" or \"B\"", f"{sp}.{lance}")
                o[lance] = sd[lance]
        if "pares_held" in sd:
            o["pares_held"] = _norm_held(sd["pares_held"], f"{sp}.pares_held", seats, "pares")
        if "juego_held" in sd:
            o["juego_held"] = _norm_held(sd["juego_held"], f"{sp}.juego_held", seats, "juego")
        out["showdown"] = o
    if "open" in hand:
        if hand["open"] not in STAGES:
            raise RuleError(f"open must be the stage the hand is at ({', '.join(STAGES)})", f"{path}.open")
        out["open"] = hand["open"]
    if "declared" in hand:
        d = hand["declared"]
        dp = f"{path}.declared"
        if "open" not in hand:
            raise RuleError("declarations are kept only while a hand is in progress (use showdown)", dp)
        if "cards" in hand:
            raise RuleError("no declarations are needed when the cards are known", dp)
        if not isinstance(d, dict):
            raise RuleError("declared must be an object {\"pares\": {...}, \"juego\": {...}}", dp)
        o = {}
        for k in d:
            if k not in ("pares", "juego"):
                raise RuleError(f"unknown key '{k}' in declared (pares or juego)", f"{dp}.{k}")
        if "pares" in d:
            o["pares"] = _norm_held(d["pares"], f"{dp}.pares", seats, "pares")
        if "juego" in d:
            o["juego"] = _norm_held(d["juego"], f"{dp}.juego", seats, "declared")
        out["declared"] = o
    if "open" in out and "showdown" in out:
        raise RuleError("a hand in progress has no showdown yet", f"{path}.showdown")
    return out


def norm_shape(game, players) -> dict:
    if not isinstance(game, dict):
        raise RuleError("a game must be an object")
    for k in game:
        if k not in GAME_KEYS:
            raise RuleError(f"unknown key '{k}' in a Mus game (known: {', '.join(GAME_KEYS)})", k)
    if game.get("kind", "mus") != "mus":
        raise RuleError("this is not a Mus game", "kind")
    out = {"kind": "mus", "rules": norm_rules(game.get("rules"))}
    seats = game.get("seats")
    if not isinstance(seats, list) or len(seats) != 4:
        raise RuleError("Mus needs exactly 4 seats (speaking order from the first mano)", "seats")
    for i, s in enumerate(seats):
        if not isinstance(s, str) or not s:
            raise RuleError("a seat is a player's name", f"seats[{i}]")
        if players is not None and s not in players:
            raise RuleError(f"'{s}' is not one of the session's players", f"seats[{i}]")
        if s in seats[:i]:
            raise RuleError(f"'{s}' is seated twice", f"seats[{i}]")
    out["seats"] = list(seats)
    if game.get("stones") is not None:
        st = game["stones"]
        if not isinstance(st, dict):
            raise RuleError("stones must be {\"A\": {\"fives\": ..., \"ones\": ...}, \"B\": {...}}", "stones")
        for k in st:
            if k not in TEAMS:
                raise RuleError(f"unknown team '{k}' (A or B)", f"stones.{k}")
        o = {}
        for t in TEAMS:
            if not isinstance(st.get(t), dict):
                raise RuleError(f"who keeps team {t}'s stones? {{\"fives\": ..., \"ones\": ...}}", f"stones.{t}")
            members = seats[0::2] if t == "A" else seats[1::2]
            for k in st[t]:
                if k not in ("fives", "ones"):
                    raise RuleError(f"unknown key '{k}' (fives or ones)", f"stones.{t}.{k}")
            oo = {}
            for k in ("fives", "ones"):
                v = st[t].get(k)
                if v not in members:
                    raise RuleError(f"the keeper must be a player of team {t} ({' or '.join(members)})",
                                    f"stones.{t}.{k}")
                oo[k] = v
            o[t] = oo
        out["stones"] = o
    if game.get("stake") is not None:
        sk = game["stake"]
        if not isinstance(sk, dict):
            raise RuleError("stake must be {\"per_game\": N} or {\"per_match\": N}", "stake")
        for k in sk:
            if k not in ("per_game", "per_match"):
                raise RuleError(f"unknown stake '{k}' (per_game or per_match)", f"stake.{k}")
        if len(sk) > 1:
            raise RuleError("a stake is per_game or per_match, not both", "stake")
        for k, v in sk.items():
            if not is_int(v) or v < 0:
                raise RuleError("a stake is a whole amount in minor units (cents), 0 or more", f"stake.{k}")
        if sk:
            out["stake"] = dict(sk)
    hands = game.get("hands", [])
    if hands is None:
        hands = []
    if not isinstance(hands, list):
        raise RuleError("hands must be a list", "hands")
    out["hands"] = [norm_hand(h, f"hands[{i}]", out["seats"]) for i, h in enumerate(hands)]
    for i, h in enumerate(out["hands"][:-1]):
        if "open" in h:
            raise RuleError("only the last hand can be in progress", f"hands[{i}].open")
    return out


# ---------------------------------------------------------------------------------------------------
# bidding of one lance


def bet_word(step: dict) -> str:
    if "bet" in step:
        return f"envite of {step['bet']}"
    if "raise" in step:
        return f"raise to {step['raise']}"
    return "órdago"


def bidding(steps: list[dict], path: str, rules: dict, complete: bool) -> dict:
    """Validate one lance's steps. Returns {kind: passed|pending|called|folded|ordago, ...}."""
    if not steps:
        return {"kind": "passed", "total": 0, "to_answer": None, "last": None}
    total = 0
    totals = []
    last_bet = None
    done = None
    for k, s in enumerate(steps):
        p = f"{path}[{k}]"
        verb = next(v for v in VERBS if v in s)
        if done:
            raise RuleError(f"the bidding already ended with a {done}; nothing can follow it", p)
        if k and s["team"] == steps[k - 1]["team"]:
            raise RuleError(f"teams alternate: team {s['team']} cannot answer its own bet", f"{p}.team")
        if k == 0:
            if verb not in ("bet", "ordago"):
                raise RuleError(f"the first step must be a bet or an órdago (a {verb} answers a bet)", p)
            if verb == "bet" and s["bet"] < rules["min_bet"]:
                raise RuleError(f"a bet must be at least {rules['min_bet']}", f"{p}.bet")
        else:
            prev_ordago = "ordago" in steps[k - 1]
            if verb == "bet":
                raise RuleError("only the first step is a bet; answer with raise (the new total), órdago, "
                                "call or fold", p)
            if prev_ordago and verb in ("raise", "ordago"):
                raise RuleError("an órdago can only be called or folded", p)
            if verb == "raise" and s["raise"] < total + 2:
                raise RuleError(f"a raise must add at least 2 (total {s['raise']} after {total})", f"{p}.raise")
        if verb in ("bet", "raise"):
            total = s[verb]
            last_bet = k
        elif verb == "ordago":
            last_bet = k
        else:
            done = verb
        totals.append(total)
    last = steps[-1]
    if not done:
        if complete:
            raise RuleError("the bidding must end with a call or a fold", f"{path}[{len(steps)}]")
        return {"kind": "pending", "total": total, "to_answer": other(last["team"]),
                "bettor": steps[last_bet]["team"], "last": last, "ordago": "ordago" in last}
    refused = steps[last_bet]
    if done == "fold":
        pts = 1 if last_bet == 0 else totals[last_bet - 1]
        return {"kind": "folded", "winner": refused["team"], "points": pts, "refused": refused,
                "total": total, "last": last, "to_answer": None}
    if "ordago" in refused:
        return {"kind": "ordago", "total": total, "last": last, "to_answer": None, "bettor": refused["team"]}
    return {"kind": "called", "stake": total, "total": total, "refused": refused, "last": last, "to_answer": None}


# ---------------------------------------------------------------------------------------------------
# the walk


class Walk:
    """Plays every hand of a (shape-normalized) game. ``strict``: refuse an open hand that is not at its
    canonical stage (normalize); apply walks leniently to find the next stage."""

    def __init__(self, g: dict, strict: bool = True):
        self.g = g
        self.strict = strict
        self.R = effective_rules(g["rules"])
        self.seats = g["seats"]
        self.score = {"A": 0, "B": 0}
        self.games: list[dict] = []
        self.game_ends: list[int] = []
        self.games_won = {"A": 0, "B": 0}
        self.match_winner = None
        self.log: list[dict] = []
        self.hands: list[dict] = []
        self.game_no = 1
        self.current = None      # info on the hand in progress
        self.alerts: list[str] = []
        self.mano_idx = None     # seat index of the last hand's mano
        self.run()

    # -- helpers
    def team(self, name):
        return team_of(self.seats, name)

    def names(self, t):
        return self.seats[0::2] if t == "A" else self.seats[1::2]

    def next_mano_idx(self):
        return 0 if self.mano_idx is None else (self.mano_idx + 1) % 4

    def award(self, hi, lance, t, pts, why, hs):
        if pts <= 0:
            return False
        self.score[t] += pts
        hs["points"][t] += pts
        self.log.append({"hand": hi + 1, "game": self.game_no, "lance": lance, "team": t, "points": pts, "why": why})
        target = self.R["target"]
        if self.score[t] >= target:
            self.end_game(hi, t, "points", hs)
            return True
        dentro = target - 5
        if self.score[t] >= dentro and self.score[t] - pts < dentro:
            hs["alerts"].append(f"Team {t} ({' & '.join(self.names(t))}) is DENTRO with {self.score[t]}!")
        return False

    def end_game(self, hi, t, by, hs):
        self.games.append({"winner": t, "score": dict(self.score), "by": by})
        self.game_ends.append(hi + 1)
        self.games_won[t] += 1
        how = "by órdago" if by == "ordago" else f"{self.score[t]}-{self.score[other(t)]}"
        hs["alerts"].append(f"Game {self.game_no} won by team {t} ({' & '.join(self.names(t))}) {how}")
        hs["ended_game"] = {"game": self.game_no, "winner": t, "by": by}
        if self.games_won[t] >= self.R["games_to_win"]:
            self.match_winner = t
            hs["alerts"].append(f"Match won by team {t} ({' & '.join(self.names(t))}), "
                                f"{self.games_won[t]} games to {self.games_won[other(t)]}")
        self.score = {"A": 0, "B": 0}
        self.game_no += 1

    def run(self):
        for i, h in enumerate(self.g["hands"]):
            path = f"hands[{i}]"
            if self.match_winner:
                raise RuleError(f"the match was already decided (team {self.match_winner} won it); "
                                "no hand is played after that", path)
            if "mano" in h:
                self.mano_idx = self.seats.index(h["mano"])
            else:
                self.mano_idx = self.next_mano_idx()
            self.play_hand(i, h, path)

    # -- one hand
    def play_hand(self, i, h, path):
        R, seats = self.R, self.seats
        m = self.mano_idx
        order = [seats[(m + k) % 4] for k in range(4)]
        is_open = "open" in h
        stage = STAGES.index(h["open"]) if is_open else len(STAGES)
        cards = h.get("cards")
        sd = h.get("showdown", {})
        declared = h.get("declared", {})
        kings = R["kings"]
        hs = {"hand": i + 1, "game": self.game_no, "mano": order[0], "points": {"A": 0, "B": 0},
              "lances": {}, "alerts": [], "ended_game": None, "open": is_open,
              "cards": cards is not None, "score_before": dict(self.score)}
        self.hands.append(hs)
        cur = None
        if is_open:
            cur = {"index": i, "hand": i + 1, "game": self.game_no, "mano": order[0], "order": order,
                   "stage": h["open"], "cards_known": cards is not None, "declared": declared,
                   "status": None, "stage_done": False, "next_stage": None, "needs": [], "ended": False}
            self.current = cur

        # who holds pares / juego (None: not declared yet)
        def held(lance):
            if cards is not None:
                if lance == "pares":
                    return {n: C.pares_kind(cards[n], kings) for n in order if C.pares_kind(cards[n], kings)}
                return {n: C.total(cards[n], kings) for n in order}
            if is_open:
                return declared.get(lance)
            key = "pares_held" if lance == "pares" else "juego_held"
            return sd.get(key, {})

        def has_juego(v):
            return v == "other" or (is_int(v) and v >= 31)

        info = {}     # lance -> dict(status, team, outcome, name)
        ended = None
        for li, L in enumerate(LANCES):
            steps = h[L]
            lp = f"{path}.{L}"
            if ended:
                if steps:
                    raise RuleError(f"the game already ended at {ended} in this hand; nothing more of it is played", lp)
                continue
            if li > stage:
                if steps:
                    raise RuleError(f"this lance has not been reached yet (the hand is at {h['open']})", lp)
                continue
            name = L
            status, uteam, hd = "bid", None, None
            if L in ("pares", "juego"):
                hd = held(L)
                if hd is None:
                    if li < stage:
                        raise RuleError(f"who has {L}? declare it before the hand moves on", f"{path}.declared")
                    status = "undeclared"
                else:
                    if L == "pares":
                        ts = {self.team(n) for n in hd}
                    else:
                        ts = {self.team(n) for n, v in hd.items() if has_juego(v)}
                        if not ts:
                            name = "punto"
                    if L == "pares" or ts:
                        if len(ts) == 2:
                            status = "bid"
                        elif len(ts) == 1:
                            status, uteam = "uncontested", next(iter(ts))
                        else:
                            status = "void"
            rec = {"status": status, "team": uteam, "name": name, "held": hd, "outcome": None}
            info[L] = rec
            if cur is not None:
                cur.setdefault("lance_status", {})[L] = {"status": status, "team": uteam, "name": name}
            if not is_open and cards is None and status == "void" and L in sd:
                raise RuleError(f"nobody had {L}, so no team can have the better {L}", f"{path}.showdown.{L}")
            if status != "bid":
                if steps:
                    why = {"undeclared": f"declare who has {L} first",
                           "uncontested": f"only team {uteam} has {L}: no bidding",
                           "void": f"nobody has {L}"}[status]
                    raise RuleError(f"{NICE[L]} is not bid ({why}); it has no steps", lp)
                hs["lances"][name] = status if status != "uncontested" else f"uncontested ({uteam})"
                if is_open and li == stage:
                    if status == "undeclared":
                        cur["status"] = "declare"
                    else:
                        cur["stage_done"] = True
                continue
            at_stage = is_open and li == stage
            out = bidding(steps, lp, R, complete=not at_stage)
            rec["outcome"] = out
            if at_stage:
                cur["status"] = "bidding"
                cur["lance"] = name
                cur["bidding"] = out
                if out["kind"] != "pending" and not (out["kind"] == "passed" and not steps):
                    cur["stage_done"] = True
            k = out["kind"]
            if k == "passed":
                hs["lances"][name] = "passed" if not at_stage else "-"
            elif k == "pending":
                hs["lances"][name] = "bidding"
            elif k == "called":
                hs["lances"][name] = f"{bet_word(out['refused'])} called"
            elif k == "folded":
                t = out["winner"]
                word = bet_word(out["refused"])
                hs["lances"][name] = f"{other(t)} folded to {t}'s {word}: {t} +{out['points']}"
                why = f"{NICE[name]}: {other(t)} folded to {t}'s {word}: +{out['points']}"
                if self.award(i, name, t, out["points"], why, hs):
                    ended = NICE[name]
            elif k == "ordago":
                w = self.winner(L, name, order, cards, sd, hd, rec, path, need_for_count=True, is_open=is_open)
                hs["lances"][name] = "órdago called"
                if w is None:
                    if is_open:
                        if self.strict and stage != STAGES.index("showdown"):
                            raise RuleError("an órdago was called: the hand goes to the showdown", f"{path}.open")
                        cur["next_stage"] = "showdown"
                        cur["status"] = "showdown"
                        cur["needs"] = [L]
                        cur["stage_done"] = stage != STAGES.index("showdown")
                        if stage == STAGES.index("showdown"):
                            cur["status"] = "showdown"
                        ended = "órdago-pending"
                        continue
                    raise RuleError(f"who won the órdago? the showdown must name the team with the better {name}",
                                    f"{path}.showdown.{L}")
                hs["lances"][name] = f"órdago called, {w} won"
                self.end_game(i, w, "ordago", hs)
                ended = f"{NICE[name]} (órdago)"

        if ended == "órdago-pending":
            return self.finish_open(cur, h, path, stage)
        if ended:
            if is_open:
                if self.strict:
                    raise RuleError("the game ended in this hand: the hand is over", f"{path}.open")
                cur["ended"] = True
            hs["open"] = False
            return
        if is_open and stage < STAGES.index("showdown"):
            return self.finish_open(cur, h, path, stage)

        # the count (closed hand, or an open hand at the showdown)
        needs = []
        plan = []
        for L in LANCES:
            rec = info[L]
            w = None
            if self.needs_winner(rec):
                w = self.winner(L, rec["name"], order, cards, sd, rec["held"], rec, path, True, is_open)
                if w is None:
                    needs.append(L)
            plan.append((L, rec, w))
        if is_open:
            cur["status"] = "showdown"
            cur["needs"] = needs
            cur["stage_done"] = not needs
            return
        if needs:
            L = needs[0]
            raise RuleError(f"the showdown must name the team with the better {info[L]['name']} "
                            "(or give the cards)", f"{path}.showdown.{L}")
        for L, rec, w in plan:
            if self.count_lance(i, L, rec, w, order, cards, hs):
                break

    def finish_open(self, cur, h, path, stage):
        if self.strict and cur["stage_done"]:
            raise RuleError(f"{h['open']} is over: the hand should have moved on", f"{path}.open")
        return None

    def needs_winner(self, rec):
        st, out, name = rec["status"], rec["outcome"], rec["name"]
        if st != "bid":
            return False
        k = out["kind"]
        if k == "called":
            return True
        if k == "passed":
            if name in ("grande", "chica", "punto"):
                return self.R["paso_point"] > 0
            return True   # pares / juego bonuses to the better hand
        return False

    def winner(self, L, name, order, cards, sd, hd, rec, path, need_for_count, is_open):
        """The team with the better hand in lance L, or None when it is not known (yet)."""
        kings = self.R["kings"]
        if cards is not None:
            p = C.lance_winner(name, order, cards, kings)
            return self.team(p) if p else None
        if rec["status"] == "uncontested":
            derived = rec["team"]
        else:
            derived = self.derive(name, order, hd)
        given = sd.get(L)
        sp = f"{path}.showdown.{L}"
        if given is not None:
            if name == "pares" and not any(self.team(n) == given for n in hd):
                raise RuleError(f"team {given} cannot have the better pares: none of its players holds pares", sp)
            if name == "juego" and not any(self.team(n) == given and (v == "other" or v >= 31)
                                           for n, v in hd.items()):
                raise RuleError(f"team {given} cannot have the better juego: none of its players has juego", sp)
            if derived is not None and derived != given:
                raise RuleError(f"team {given} cannot have the better {name}: what was held says team {derived}", sp)
            return given
        return derived

    def derive(self, name, order, hd):
        if hd is None or name in ("grande", "chica"):
            return None
        if name == "pares":
            if not hd:
                return None
            top = max(C.PARES_KINDS.index(v) for v in hd.values())
            ts = {self.team(n) for n, v in hd.items() if C.PARES_KINDS.index(v) == top}
            return next(iter(ts)) if len(ts) == 1 else None
        if name == "juego":
            js = {n: v for n, v in hd.items() if v == "other" or v >= 31}
            if any(v == 31 for v in js.values()):
                return self.team(next(n for n in order if js.get(n) == 31))
            if all(is_int(v) for v in js.values()):
                p = C.best(order, {n: C.juego_rank(v) for n, v in js.items()})
                return self.team(p) if p else None
            # "other" is 33..37, so a known 32 or 40 beats it whatever its exact total
            p = C.best(order, {n: C.juego_rank(v) for n, v in js.items() if v in (32, 40)})
            if p is not None:
                return self.team(p)
            ts = {self.team(n) for n in js}
            return next(iter(ts)) if len(ts) == 1 else None
        # punto: all four totals known
        if all(is_int(hd.get(n)) and hd[n] < 31 for n in order):
            return self.team(C.best(order, {n: hd[n] for n in order}))
        return None

    def bonuses(self, name, t, order, cards, hd):
        """[(player, what, points)] of team t in pares / juego."""
        R, kings = self.R, self.R["kings"]
        out = []
        for n in order:
            if self.team(n) != t:
                continue
            if name == "pares":
                kind = C.pares_kind(cards[n], kings) if cards is not None else hd.get(n)
                if kind:
                    out.append((n, kind, C.PARES_BONUS[kind]))
            else:
                v = C.total(cards[n], kings) if cards is not None else hd.get(n)
                if v == 31:
                    out.append((n, "31", R["juego_31"]))
                elif v == "other" or (is_int(v) and v > 31):
                    out.append((n, str(v) if v != "other" else "juego", R["juego_other"]))
        return out

    def count_lance(self, i, L, rec, w, order, cards, hs):
        R = self.R
        name, st, out = rec["name"], rec["status"], rec["outcome"]
        nice = NICE[name]
        if st in ("void", "undeclared"):
            return False
        if st == "uncontested":
            b = self.bonuses(name, rec["team"], order, cards, rec["held"])
            pts = sum(p for _, _, p in b)
            why = f"{nice}: only {rec['team']} had {name} ({self.bonus_text(b)}): +{pts}"
            return self.award(i, name, rec["team"], pts, why, hs)
        k = out["kind"]
        if k == "folded":
            t = out["winner"]
            if name in ("pares", "juego"):
                b = self.bonuses(name, t, order, cards, rec["held"])
                pts = sum(p for _, _, p in b)
                why = f"{nice}: {t} won the lance ({other(t)} folded), bonuses {self.bonus_text(b)}: +{pts}"
            else:
                pts = R["punto_bonus"] if name == "punto" else 0
                why = f"{nice}: {t} won the lance ({other(t)} folded), punto bonus: +{pts}"
            return self.award(i, name, t, pts, why, hs)
        if w is None:
            return False
        better = f"{w} had the better {name}"
        if cards is not None:
            p = C.lance_winner(name, order, cards, R["kings"])
            better += f" ({p} {cards[p]})"
        if k == "passed":
            if name in ("grande", "chica", "punto"):
                pts = R["paso_point"]
                why = f"{nice}: all passed, {better}: +{pts}"
            else:
                b = self.bonuses(name, w, order, cards, rec["held"])
                pts = sum(p for _, _, p in b)
                why = f"{nice}: all passed, {better}; bonuses {self.bonus_text(b)}: +{pts}"
            return self.award(i, name, w, pts, why, hs)
        # called
        stake = out["stake"]
        word = bet_word(out["refused"])
        if name in ("grande", "chica"):
            return self.award(i, name, w, stake, f"{nice}: {word} called, {better}: +{stake}", hs)
        if name == "punto":
            pts = stake + R["punto_bonus"]
            why = f"{nice}: {word} called, {better}: {stake} + punto bonus {R['punto_bonus']} = +{pts}"
            return self.award(i, name, w, pts, why, hs)
        b = self.bonuses(name, w, order, cards, rec["held"])
        pts = stake + sum(p for _, _, p in b)
        why = f"{nice}: {word} called, {better}: {stake} + bonuses {self.bonus_text(b)} = +{pts}"
        return self.award(i, name, w, pts, why, hs)

    @staticmethod
    def bonus_text(b):
        return ", ".join(f"{n} {what} {p}" for n, what, p in b) if b else "none"

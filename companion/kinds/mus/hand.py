"""Playing one element of a Mus match from the running state before it: a dealt hand (bidding lance by
lance, fold points at once, órdago, declarations, the count award by award), a tally hand, or an
adjustment. Used to validate a session file (``strict``), to replay a whole match, and to find where a
hand in progress stands (``open``).

The running state (JSON, stored after every closed hand):
``{"score": {"A", "B"}, "game": n, "games": [{"winner", "score", "by"}], "games_won": {"A", "B"},
"match_winner": "A"|"B"|None, "mano": seat index of the last dealt hand's mano (None before the first),
"dealt": dealt hands so far, "game_ends": [dealt-hand number that ended each finished game]}``
"""
from __future__ import annotations

from companion.domain.errors import RuleError
from companion.kinds.mus import cards as C
from companion.kinds.mus.options import LANCES, STAGES, other
from companion.kinds.mus.shape import members

START = {"score": {"A": 0, "B": 0}, "game": 1, "games": [], "games_won": {"A": 0, "B": 0},
         "match_winner": None, "mano": None, "dealt": 0, "game_ends": []}


def start_state() -> dict:
    return {**START, "score": {"A": 0, "B": 0}, "games_won": {"A": 0, "B": 0}, "games": [], "game_ends": []}


def next_mano(base: dict) -> int:
    return 0 if base["mano"] is None else (base["mano"] + 1) % 4


_LANCE = {n: {"code": f"mus.lance.{n}"} for n in ("grande", "chica", "pares", "juego", "punto", "tally", "adjust",
                                                "showdown")}
_LANCE_L = {n: {"code": f"mus.lance_l.{n}"} for n in ("grande", "chica", "pares", "juego", "punto")}
PASSED = {"code": "mus.out.passed"}
VOID = {"code": "mus.out.void"}
NO_BONUS = {"code": "mus.bonus.none"}
_PARES_WORD = {k: {"code": f"mus.pares.{k}"} for k in C.PARES_KINDS}
_JUEGO_31 = {"code": "mus.juego.31"}
_JUEGO_OTHER = {"code": "mus.juego.other"}


def lance(name: str) -> dict:
    """A lance's name (one shared message: results hold thousands of them, never changed)."""
    return _LANCE[name]


def lance_l(name: str) -> dict:
    """The lance's name inside a sentence ("the better chica")."""
    return _LANCE_L[name]


def team_ref(team: str) -> dict:
    return {"code": "mus.team", "team": team}


def bet_word(step: dict) -> dict:
    if "bet" in step:
        return {"code": "mus.bet.envite", "n": step["bet"]}
    if "raise" in step:
        return {"code": "mus.bet.raise", "n": step["raise"]}
    return {"code": "mus.bet.ordago"}


def bidding(steps: list[dict], path: str, min_bet: int, complete: bool) -> dict:
    """Check one lance's steps. Returns {kind: passed|pending|called|folded|ordago, ...}."""
    if not steps:
        return {"kind": "passed", "total": 0, "to_answer": None}
    total = 0
    totals = []
    last_bet = None
    done = None
    for k, s in enumerate(steps):
        # the step's verb without a generator (a step without one stops here as it always did: next())
        verb = "bet" if "bet" in s else "raise" if "raise" in s else "ordago" if "ordago" in s else \
            "call" if "call" in s else "fold" if "fold" in s else next(iter(()))
        if done:
            raise RuleError("mus.bid_after_end", f"{path}[{k}]", verb=done)
        if k and s["team"] == steps[k - 1]["team"]:
            raise RuleError("mus.bid_alternate", f"{path}[{k}].team", team=s["team"])
        if k == 0:
            if verb != "bet" and verb != "ordago":
                raise RuleError("mus.bid_first", f"{path}[{k}]", verb=verb)
            if verb == "bet" and s["bet"] < min_bet:
                raise RuleError("mus.bet_min", f"{path}[{k}].bet", min=min_bet)
        else:
            if verb == "bet":
                raise RuleError("mus.bid_second_bet", f"{path}[{k}]")
            if "ordago" in steps[k - 1] and (verb == "raise" or verb == "ordago"):
                raise RuleError("mus.ordago_answer", f"{path}[{k}]")
            if verb == "raise" and s["raise"] < total + 2:
                raise RuleError("mus.raise_min", f"{path}[{k}].raise", total=s["raise"], after=total)
        if verb == "bet" or verb == "raise":
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
            raise RuleError("mus.bid_unfinished", f"{path}[{len(steps)}]")
        return {"kind": "pending", "total": total, "to_answer": other(last["team"]),
                "bettor": steps[last_bet]["team"], "ordago": "ordago" in last,
                "fold_points": 1 if last_bet == 0 else totals[last_bet - 1]}
    refused = steps[last_bet]
    if done == "fold":
        points = 1 if last_bet == 0 else totals[last_bet - 1]
        return {"kind": "folded", "winner": refused["team"], "points": points, "refused": refused,
                "total": total, "to_answer": None}
    if "ordago" in refused:
        return {"kind": "ordago", "total": total, "to_answer": None, "bettor": refused["team"]}
    return {"kind": "called", "stake": total, "total": total, "refused": refused, "to_answer": None}


def points_of(bonuses: list[dict]) -> int:
    total = 0
    for b in bonuses:
        total += b["points"]
    return total


class Ctx:
    """What every hand of one match needs: the effective rules and the seats."""

    def __init__(self, rules: dict, seats: list[str]):
        self.R = rules
        self.seats = seats
        self.kings = rules["kings"]
        self.target = rules["target"]
        self.team = {n: ("A" if i % 2 == 0 else "B") for i, n in enumerate(seats)}


INFERRED = "inferred"   # no cards, no showdown: the lance was bid, so both teams declared


class Play:
    """One element of ``hands`` played from the running state before it. After ``run()``: ``state``
    (the running state after it), ``result`` (what it gave) and, for a dealt hand in progress,
    ``progress`` (where it stands)."""

    def __init__(self, ctx: Ctx, base: dict, item: dict, path: str, strict: bool):
        self.ctx = ctx
        self.R = ctx.R
        self.item = item
        self.path = path
        self.strict = strict
        self.score = dict(base["score"])
        self.game_no = base["game"]
        # the finished games change only when a game ends (end_game makes new ones): shared until then
        self.games = base["games"]
        self.games_won = base["games_won"]
        self.match_winner = base["match_winner"]
        self.game_ends = base["game_ends"]
        self.mano = base["mano"]
        self.dealt = base["dealt"]
        self.ended = None           # set when the game ends inside this hand
        self.progress = None
        self.result = {"hand": self.dealt, "game": self.game_no, "score_before": dict(self.score),
                       "points": {"A": 0, "B": 0}, "awards": [], "lances": [], "alerts": [],
                       "ended_game": None}

    # -- the running state and what this element gave
    @property
    def state(self) -> dict:
        return {"score": self.score, "game": self.game_no, "games": self.games, "games_won": self.games_won,
                "match_winner": self.match_winner, "mano": self.mano, "dealt": self.dealt,
                "game_ends": self.game_ends}

    def award(self, lance_name: str, team: str, points: int, why: dict) -> bool:
        """Score ``points``; True when that wins the game (nothing more is counted then)."""
        if points <= 0:
            return False
        score = self.score[team] + points
        self.score[team] = score
        result = self.result
        result["points"][team] += points
        result["awards"].append({"game": self.game_no, "lance": lance_name, "team": team, "points": points,
                                 "why": why})
        target = self.ctx.target
        if score >= target:
            self.end_game(team, "points")
            return True
        if score >= target - 5 > score - points:
            self.result["alerts"].append({"code": "mus.alert.dentro", "team": team_ref(team),
                                          "score": self.score[team]})
        return False

    def end_game(self, team: str, by: str) -> None:
        self.games = [*self.games, {"winner": team, "score": dict(self.score), "by": by}]
        self.game_ends = [*self.game_ends, self.dealt]
        self.games_won = {**self.games_won, team: self.games_won[team] + 1}
        how = {"code": "mus.by_ordago"} if by == "ordago" else \
            {"code": "mus.by_points", "won": self.score[team], "lost": self.score[other(team)]}
        self.result["alerts"].append({"code": "mus.alert.game", "game": self.game_no, "team": team_ref(team),
                                      "how": how})
        self.result["ended_game"] = {"game": self.game_no, "winner": team, "by": by}
        if self.games_won[team] >= self.R["games_to_win"]:
            self.match_winner = team
            self.result["alerts"].append({"code": "mus.alert.match", "team": team_ref(team),
                                          "won": self.games_won[team], "lost": self.games_won[other(team)]})
        self.score = {"A": 0, "B": 0}
        self.game_no += 1
        self.ended = True

    def check_playable(self) -> None:
        if self.match_winner:
            raise RuleError("mus.after_match", self.path, team=self.match_winner)

    # -- an adjustment and a tally hand
    def run_adjust(self) -> None:
        self.check_playable()
        a = self.item["adjust"]
        self.result["kind"] = "adjust"
        t, points = a["team"], a["points"]
        if self.score[t] + points < 0:
            raise RuleError("mus.adjust_below_zero", f"{self.path}.adjust.points", team=t, score=self.score[t])
        why = {"code": "mus.why.adjust_note", "note": a["why"]} if a.get("why") else {"code": "mus.why.adjust"}
        if points < 0:
            self.score[t] += points
            self.result["points"][t] += points
            self.result["awards"].append({"game": self.game_no, "lance": "adjust", "team": t, "points": points,
                                          "why": why})
        else:
            self.award("adjust", t, points, why)

    def run_tally(self) -> None:
        self.check_playable()
        self.deal()
        self.result["kind"] = "tally"
        for a in self.item["tally"]:
            if self.ended:
                break   # the game ended: the hand's later awards are not counted
            name = a.get("lance", "tally")
            if a.get("why"):
                why = {"code": "mus.why.tally_note", "note": a["why"]}
            elif a.get("lance"):
                why = {"code": "mus.why.tally_lance", "lance": lance(a["lance"])}
            else:
                why = {"code": "mus.why.tally"}
            self.award(name, a["team"], a["points"], why)

    def deal(self) -> None:
        """A dealt hand: the mano rotates (or is named), the hand is numbered."""
        seats = self.ctx.seats
        self.mano = seats.index(self.item["mano"]) if "mano" in self.item else \
            (0 if self.mano is None else (self.mano + 1) % 4)
        self.dealt += 1
        self.order = seats[self.mano:] + seats[:self.mano]     # speaking order, from the mano
        result = self.result
        result["hand"] = self.dealt
        result["mano"] = self.order[0]

    # -- a dealt hand
    def run(self) -> "Play":
        kind = "adjust" if "adjust" in self.item else "tally" if "tally" in self.item else "dealt"
        if kind == "adjust":
            self.run_adjust()
            return self
        if kind == "tally":
            self.run_tally()
            return self
        self.check_playable()
        self.deal()
        h = self.item
        result = self.result
        result["kind"] = "dealt"
        result["cards"] = "cards" in h
        self.is_open = "open" in h
        self.stage = STAGES.index(h["open"]) if self.is_open else len(STAGES)
        self.cards = h.get("cards")
        if self.cards is not None:
            self.by_cards, self.evals = C.winners(self.order, self.cards, self.ctx.kings)
        self.sd = h.get("showdown", {})
        self.info: dict[str, dict] = {}
        if self.is_open:
            self.progress = {"hand": self.dealt, "game": self.game_no, "mano": self.order[0], "order": self.order,
                             "stage": h["open"], "status": None, "lance": None, "bidding": None,
                             "lances": {}, "needs": [], "declared": h.get("declared", {}),
                             "stage_done": False, "next_stage": None, "ended": False,
                             "cards_known": self.cards is not None}
        for li, name in enumerate(LANCES):
            steps = h[name]
            if self.ended or li > self.stage:
                if steps:
                    code = "mus.after_end" if self.ended else "mus.not_reached"
                    raise RuleError(code, f"{self.path}.{name}", stage=h.get("open", ""))
                continue
            self.LANCE_METHODS[li](self, li)
            if not self.ended and self.progress and (self.progress["status"] or self.progress["next_stage"]):
                return self.waiting()
        if self.ended:
            return self.closed_by_end()
        self.count()
        return self.waiting() if self.is_open else self

    def waiting(self) -> "Play":
        """An open hand stops at its stage (or an órdago waits for the showdown)."""
        if self.strict and self.progress["stage_done"]:
            raise RuleError("mus.stage_over", f"{self.path}.open", stage=self.item["open"])
        return self

    def closed_by_end(self) -> "Play":
        if self.is_open:
            if self.strict:
                raise RuleError("mus.ended_open", f"{self.path}.open")
            self.progress["ended"] = True
        return self

    # one method per lance
    def lance_grande(self, li: int) -> None:
        self.bid("grande", li, "grande", "bid", None, None)

    def lance_chica(self, li: int) -> None:
        self.bid("chica", li, "chica", "bid", None, None)

    def lance_pares(self, li: int) -> None:
        held = self.held("pares", li)
        if held is None or held == INFERRED:
            status, team = ("undeclared" if held is None else "bid"), None
        else:
            teams = {self.ctx.team[n] for n in held}
            status, team = self.contest(teams)
        self.bid("pares", li, "pares", status, team, held)

    def lance_juego(self, li: int) -> None:
        held = self.held("juego", li)
        name = "juego"
        if held is None or held == INFERRED:
            status, team = ("undeclared" if held is None else "bid"), None
        else:
            teams = {self.ctx.team[n] for n, v in held.items() if v == "other" or v >= 31}
            if teams:
                status, team = self.contest(teams)
            else:
                name, status, team = "punto", "bid", None    # nobody has juego: Punto, bid by all four
        self.bid("juego", li, name, status, team, held)

    @staticmethod
    def contest(teams: set) -> tuple[str, str | None]:
        if len(teams) == 2:
            return "bid", None
        if len(teams) == 1:
            return "uncontested", next(iter(teams))
        return "void", None

    def held(self, name: str, li: int):
        """Who holds pares / juego: {player: kind or total}, None (not declared yet) or INFERRED."""
        if self.cards is not None:
            out = {}
            if name == "pares":
                for n, e in self.evals.items():     # (the evals are in speaking order)
                    if e.pares_kind:
                        out[n] = e.pares_kind
            else:
                for n, e in self.evals.items():
                    out[n] = e.total
            return out
        if self.is_open:
            declared = self.item.get("declared", {}).get(name)
            if declared is None and li < self.stage:
                raise RuleError("mus.declare_first", f"{self.path}.declared", lance=name)
            return declared
        key = f"{name}_held"
        if key in self.sd:
            return self.sd[key]
        return INFERRED if self.item[name] else {}

    def bid(self, L: str, li: int, name: str, status: str, team, held) -> None:
        steps = self.item[L]
        rec = {"status": status, "team": team, "name": name, "held": held, "outcome": None}
        self.info[L] = rec
        at_stage = self.is_open and li == self.stage
        if self.progress is not None:
            self.progress["lances"][L] = {"status": status, "team": team, "name": name}
        if status != "bid":
            if steps:
                raise RuleError(f"mus.not_bid_{status}", f"{self.path}.{L}", lance=lance(L), team=team or "")
            if not self.is_open and self.cards is None and L in self.sd:
                if status == "void":
                    raise RuleError("mus.void_winner", f"{self.path}.showdown.{L}", lance=lance_l(L))
                if status == "uncontested" and self.sd[L] != team:
                    raise RuleError("mus.uncontested_winner", f"{self.path}.showdown.{L}", team=team,
                                    lance=lance_l(L))
            if status == "uncontested":
                self.result["lances"].append({"lance": name, "what": {"code": "mus.out.uncontested", "team": team}})
            elif status == "void":
                self.result["lances"].append({"lance": name, "what": VOID})
            if at_stage:
                if status == "undeclared":
                    self.progress["status"] = "declare"
                else:
                    self.progress["stage_done"] = True
                    self.progress["status"] = "done"
            return
        out = bidding(steps, f"{self.path}.{L}", self.R["min_bet"], complete=not at_stage) if steps else \
            {"kind": "passed", "total": 0, "to_answer": None}     # (bidding's answer when nobody bet)
        rec["outcome"] = out
        if at_stage:
            self.progress.update(status="bidding", lance=name, bidding=out)
            if out["kind"] not in ("pending", "passed"):
                self.progress["stage_done"] = True
        kind = out["kind"]
        if kind == "passed":
            if not at_stage:
                self.result["lances"].append({"lance": name, "what": PASSED})
        elif kind == "called":
            self.result["lances"].append({"lance": name, "what": {"code": "mus.out.called",
                                                                  "bet": bet_word(out["refused"])}})
        elif kind == "folded":
            t = out["winner"]
            word = bet_word(out["refused"])
            self.result["lances"].append({"lance": name, "what": {
                "code": "mus.out.folded", "folder": other(t), "team": t, "bet": word, "points": out["points"]}})
            self.award(name, t, out["points"], {"code": "mus.why.fold", "lance": lance(name), "folder": other(t),
                                                "team": t, "bet": word, "points": out["points"]})
        elif kind == "ordago":
            self.ordago(L, name, rec)

    def ordago(self, L: str, name: str, rec: dict) -> None:
        w = self.winner(L, rec)
        if w is None:
            if self.is_open:
                if self.strict and self.stage != STAGES.index("showdown"):
                    raise RuleError("mus.ordago_showdown", f"{self.path}.open")
                self.progress.update(status="showdown", needs=[L], next_stage="showdown",
                                     stage_done=self.stage != STAGES.index("showdown"))
                if self.stage == STAGES.index("showdown"):
                    self.progress["next_stage"] = None
                return
            raise RuleError("mus.ordago_winner", f"{self.path}.showdown.{L}", lance=lance_l(name))
        self.result["lances"].append({"lance": name, "what": {"code": "mus.out.ordago", "team": w}})
        self.end_game(w, "ordago")

    # -- the count
    def needs_winner(self, rec: dict) -> bool:
        if rec["status"] != "bid":
            return False
        kind = rec["outcome"]["kind"]
        if kind == "called":
            return True
        if kind == "passed":
            if rec["name"] in ("grande", "chica", "punto"):
                return self.R["paso_point"] > 0
            return True   # pares / juego bonuses go to the better hand
        return False

    def count(self) -> None:
        """Award one lance at a time, in order; the moment a team reaches the target the game is won and
        the rest is not counted. An open hand at the showdown only finds which winners are still needed."""
        plan, needs = [], []
        for L in LANCES:
            rec = self.info[L]
            w = None
            if self.needs_winner(rec):
                w = self.winner(L, rec)
                if w is None:
                    needs.append(L)
            plan.append((L, rec, w))
        if self.is_open:
            self.progress.update(status="showdown", needs=needs, stage_done=not needs)
            return
        if needs:
            L = needs[0]
            raise RuleError("mus.showdown_needs", f"{self.path}.showdown.{L}", lance=lance_l(self.info[L]["name"]))
        for L, rec, w in plan:
            if self.COUNT_METHODS[rec["status"]](self, L, rec, w):
                break

    def count_void(self, L, rec, w) -> bool:
        return False

    count_undeclared = count_void

    def count_uncontested(self, L, rec, w) -> bool:
        t = rec["team"]
        b = self.bonuses(L, rec, t)
        pts = points_of(b)
        return self.award(rec["name"], t, pts, {"code": "mus.why.uncontested", "lance": lance(L), "team": t,
                                                "what": lance_l(L), "bonuses": self.bonus_list(b), "points": pts})

    def count_bid(self, L, rec, w) -> bool:
        out, name = rec["outcome"], rec["name"]
        kind = out["kind"]
        if kind == "folded":
            t = out["winner"]
            if name in ("pares", "juego"):
                b = self.bonuses(L, rec, t)
                pts = points_of(b)
                why = {"code": "mus.why.folded_bonus", "lance": lance(name), "team": t, "folder": other(t),
                       "bonuses": self.bonus_list(b), "points": pts}
            else:
                pts = self.R["punto_bonus"] if name == "punto" else 0
                why = {"code": "mus.why.folded_punto", "lance": lance(name), "team": t, "folder": other(t),
                       "points": pts}
            return self.award(name, t, pts, why)
        if w is None:
            return False
        better = self.better(name, w)
        if kind == "passed":
            if name in ("grande", "chica", "punto"):
                pts = self.R["paso_point"]
                return self.award(name, w, pts, {"code": "mus.why.passed", "lance": lance(name), "better": better,
                                                 "points": pts})
            b = self.bonuses(L, rec, w)
            pts = points_of(b)
            return self.award(name, w, pts, {"code": "mus.why.passed_bonus", "lance": lance(name),
                                             "better": better, "bonuses": self.bonus_list(b), "points": pts})
        stake = out["stake"]
        word = bet_word(out["refused"])
        if name in ("grande", "chica"):
            return self.award(name, w, stake, {"code": "mus.why.called", "lance": lance(name), "bet": word,
                                               "better": better, "points": stake})
        if name == "punto":
            pts = stake + self.R["punto_bonus"]
            return self.award(name, w, pts, {"code": "mus.why.called_punto", "lance": lance(name), "bet": word,
                                             "better": better, "stake": stake, "bonus": self.R["punto_bonus"],
                                             "points": pts})
        b = self.bonuses(L, rec, w)
        pts = stake + points_of(b)
        return self.award(name, w, pts, {"code": "mus.why.called_bonus", "lance": lance(name), "bet": word,
                                         "better": better, "stake": stake, "bonuses": self.bonus_list(b),
                                         "points": pts})

    def better(self, name: str, team: str) -> dict:
        if self.cards is not None:
            p = self.by_cards[name]
            return {"code": "mus.better_cards", "team": team, "lance": lance_l(name), "player": p,
                    "cards": self.cards[p]}
        return {"code": "mus.better", "team": team, "lance": lance_l(name)}

    def winner(self, L: str, rec: dict) -> str | None:
        """The team with the better hand in lance L, or None when it is not known (yet)."""
        name, held = rec["name"], rec["held"]
        if self.cards is not None:
            p = self.by_cards[name]
            return self.ctx.team[p] if p else None
        derived = rec["team"] if rec["status"] == "uncontested" else self.derive(name, held)
        given = self.sd.get(L)
        if given is None:
            return derived
        sp = f"{self.path}.showdown.{L}"
        if isinstance(held, dict):
            team = self.ctx.team
            if name == "pares" and not any(team[n] == given for n in held):
                raise RuleError("mus.winner_no_pares", sp, team=given)
            if name == "juego" and not any(team[n] == given and (v == "other" or v >= 31) for n, v in held.items()):
                raise RuleError("mus.winner_no_juego", sp, team=given)
        if derived is not None and derived != given:
            raise RuleError("mus.winner_contradicts", sp, team=given, lance=lance_l(name), derived=derived)
        return given

    def derive(self, name: str, held) -> str | None:
        if not isinstance(held, dict) or name in ("grande", "chica"):
            return None
        team = self.ctx.team
        if name == "pares":
            if not held:
                return None
            top = max(C.PARES_KINDS.index(v) for v in held.values())
            ts = {team[n] for n, v in held.items() if C.PARES_KINDS.index(v) == top}
            return next(iter(ts)) if len(ts) == 1 else None
        if name == "juego":
            js = {n: v for n, v in held.items() if v == "other" or v >= 31}
            if any(v == 31 for v in js.values()):
                return team[next(n for n in self.order if js.get(n) == 31)]
            if all(isinstance(v, int) for v in js.values()):
                p = C.best(self.order, {n: C.juego_rank(v) for n, v in js.items()})
                return team[p] if p else None
            # "other" is 33..37, so a known 32 or 40 beats it whatever its exact total
            p = C.best(self.order, {n: C.juego_rank(v) for n, v in js.items() if v in (32, 40)})
            if p is not None:
                return team[p]
            ts = {team[n] for n in js}
            return next(iter(ts)) if len(ts) == 1 else None
        # punto: all four totals known
        if all(isinstance(held.get(n), int) and held[n] < 31 for n in self.order):
            return team[C.best(self.order, {n: held[n] for n in self.order})]
        return None

    def bonuses(self, L: str, rec: dict, t: str) -> list[dict]:
        """[{code: mus.bonus.one, player, what, points}] of team t in pares / juego."""
        held = rec["held"]
        if held == INFERRED:
            raise RuleError("mus.held_needed", f"{self.path}.showdown.{L}_held", lance=lance_l(L))
        out = []
        ev = self.evals if self.cards is not None else None
        team = self.ctx.team
        for n in self.order:
            if team[n] != t:
                continue
            if L == "pares":
                kind = ev[n].pares_kind if ev is not None else held.get(n)
                if kind:
                    out.append({"code": "mus.bonus.one", "player": n, "what": _PARES_WORD[kind],
                                "points": C.PARES_BONUS[kind]})
            else:
                v = ev[n].total if ev is not None else held.get(n)
                if v == 31:
                    out.append({"code": "mus.bonus.one", "player": n, "what": _JUEGO_31, "points": self.R["juego_31"]})
                elif v == "other" or (isinstance(v, int) and v > 31):
                    what = _JUEGO_OTHER if v == "other" else {"code": "mus.juego.total", "n": v}
                    out.append({"code": "mus.bonus.one", "player": n, "what": what, "points": self.R["juego_other"]})
        return out

    @staticmethod
    def bonus_list(b: list[dict]) -> dict:
        if not b:
            return NO_BONUS
        return {"code": "mus.bonus.list", "items": b}     # (each bonus is already its message)


Play.LANCE_METHODS = (Play.lance_grande, Play.lance_chica, Play.lance_pares, Play.lance_juego)
Play.COUNT_METHODS = {"bid": Play.count_bid, "uncontested": Play.count_uncontested, "void": Play.count_void,
                      "undeclared": Play.count_void}


def names(seats: list[str], team: str) -> str:
    return " & ".join(members(seats, team))

"""The Mus kind: what the app asks of a game kind (companion.kinds.base.Kind), for Mus.

A write plays only the hand it touches, from the running state stored before it; a whole match is
replayed hand by hand (``build``) only to read a session file or to check the store.
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.domain.errors import RuleError
from companion.domain.messages import N_, msg
from companion.kinds.base import Change, GameRec, Item, apply_change, by_type, check_at, fingerprint
from companion.kinds.validate import is_int, need_int
from companion.kinds.mus import actions as A
from companion.kinds.mus.hand import Ctx, Play, lance, start_state, team_ref
from companion.kinds.mus.options import LANCES, STAGES, TEAMS, effective, other
from companion.domain.match import match_result
from companion.kinds.mus.toasts import undone
from companion.kinds.mus.club import CLUB_MATCH
from companion.kinds.mus.ratings import RATED_PAIRS
from companion.kinds.mus.shape import (HEAD_KEYS, SCORING, members, norm_cards, norm_head, norm_held, norm_item)

TITLE = "mus.title"


def ctx_of(head: dict) -> Ctx:
    return Ctx(effective(head["rules"]), head["seats"])


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


def keepers_of(head: dict) -> dict:
    """Who keeps each team's stones: as named, else the first player of the team keeps the fives."""
    if "stones" in head:
        return head["stones"]
    s = head["seats"]
    return {"A": {"fives": s[0], "ones": s[2]}, "B": {"fives": s[1], "ones": s[3]}}


def team_names(head: dict) -> dict:
    """What each team is called: its name if the table gave one, else its two players."""
    given = head.get("team_names") or {}
    return {t: given.get(t) or " & ".join(members(head["seats"], t)) for t in TEAMS}


def _close(body: dict) -> None:
    """A hand in progress becomes a finished one: its declarations become what was held."""
    d = body.pop("declared", None)
    body.pop("open", None)
    if d and "cards" not in body:
        sd = body.setdefault("showdown", {})
        if "pares" in d:
            sd.setdefault("pares_held", d["pares"])
        if "juego" in d:
            sd.setdefault("juego_held", d["juego"])


def _is_punto(v) -> bool:
    return is_int(v) and v < 31


def _then(rec: GameRec, first: Change, step) -> Change:
    """``first``, then what ``step`` makes of the game after it, as one change (one tap, one undo)."""
    second = step(apply_change(rec, first)[0])
    return Change(head=second.head if second.head is not None else first.head,
                  state=second.state if second.state is not None else first.state,
                  items={**first.items, **second.items})


def _action_field(err: RuleError, i: int) -> RuleError:
    """An error found re-checking hand ``i`` after an action, placed on the action's field."""
    p = err.path
    pre = f"hands[{i}]."
    if p.startswith(pre):
        rest = p[len(pre):]
        if rest.startswith("showdown."):
            return err.at(rest[len("showdown."):].split(".")[0])
        return err.at(rest.split("[")[0].split(".")[0])
    return err.at(p or "type")


@dataclass(frozen=True)
class NewMus:
    """A new match as the table sets it up: seats in speaking order from the first mano (partners are
    seats 0 and 2, 1 and 3), the preset and any option that differs, who keeps the five-point stones
    (the partner keeps the ones), the money stakes (minor units; both may be given), team names."""
    seats: tuple
    preset: str = "pagat"
    options: tuple = ()                 # ((option, int), ...)
    fives: tuple = ()                   # (("A", name), ("B", name))
    per_game: int | None = None
    per_match: int | None = None
    team_names: tuple = ()              # (("A", name), ...)
    scoring: str = "bids"               # "tally": the table counts, the app adds


class MusKind:
    name = "mus"
    title = TITLE
    items_key = "hands"
    # the keys of its companion-state/1 entry
    state_keys = frozenset({"kind", "teams", "games", "games_won", "match_winner", "score", "dentro", "stones",
                            "next_mano", "log"})
    min_players = max_players = 4
    actions = A.ACTIONS
    ledger_round = "hand"
    words_lang = "es"                   # its table words, glossed the first time on a page
    at_tables = False                   # its tables at a club night are the club's matches
    club_match = CLUB_MATCH             # a club night's round matches are Mus matches (club.py)
    rated_pairs = RATED_PAIRS           # its matches rate pairs too; its figures (ratings.py)
    glosses = {
        "envite": N_("a bet"), "órdago": N_("all in: the whole game"), "quiero": N_("I accept"),
        "no quiero": N_("I decline"), "amarracos": N_("five-point stones"), "dentro": N_("5 or fewer to win"),
        "mano": N_("speaks first"), "pares": N_("pairs"), "juego": N_("31 or more"),
        "punto": N_("the total, when nobody has juego"), "paso": N_("pass"), "grande": N_("high cards"),
        "chica": N_("low cards"), "lance": N_("a round of bidding"), "señas": N_("signs between partners"),
    }
    _played = None                      # (item, head, count, play): the last hand in progress played
    csv_columns = ("mus_game", "lance", "team", "team_players")    # its own columns of the session CSV
    chart_colors = {"A": "#2f6fd6", "B": "#d33c32"}                # each team's line on its charts
    stylesheets = ("mus.css",)         # in its static/ folder
    ledger_unit = "points"

    def new_game(self, players: list[str], spec: NewMus) -> dict:
        """A new match (the session-file game object), or RuleError naming the option (``seat2``...)."""
        seats = list(spec.seats)
        for i, name in enumerate(seats):
            if not name:
                raise RuleError("mus.choose_seat", f"seat{i}")
            if name not in players:
                raise RuleError("v.not_player", f"seat{i}", name=name)
            if name in seats[:i]:
                raise RuleError("v.seated_twice", f"seat{i}", name=name)
        if len(seats) != 4:
            raise RuleError("mus.four_seats", "seats")
        game = {"kind": "mus", "rules": {"preset": spec.preset, **dict(spec.options)}, "seats": seats}
        fives = dict(spec.fives)
        if fives:
            stones = {}
            for t in TEAMS:
                team = members(seats, t)
                keeper = fives.get(t, team[0])
                if keeper not in team:
                    raise RuleError("mus.keeper", f"fives_{t}", team=t, members=" / ".join(team))
                stones[t] = {"fives": keeper, "ones": team[1] if keeper == team[0] else team[0]}
            game["stones"] = stones
        stake = {k: v for k, v in (("per_game", spec.per_game), ("per_match", spec.per_match)) if v is not None}
        if stake:
            game["stake"] = stake
        if spec.team_names:
            game["team_names"] = dict(spec.team_names)
        if spec.scoring != "bids":
            game["scoring"] = spec.scoring
        try:
            return self.to_doc(self.build(game, players))
        except RuleError as err:
            field = err.path.split(".")[-1] if err.path.startswith(("rules.", "stake.")) else err.path
            if err.path.startswith("team_names."):
                field = "name_" + err.path.split(".")[-1]
            raise err.at({"per_game": "stake_game", "per_match": "stake_match"}.get(field, field)) from None

    # -- the session file
    def build(self, game: dict, players: list[str] | None, seed: dict | None = None) -> GameRec:
        head = norm_head(game, players)
        hands = game.get("hands")
        if hands is None:
            hands = []
        if not isinstance(hands, list):
            raise RuleError("v.list", "hands")
        items, state = self.play_from(head, start_state(), hands)
        if head.get("ended"):
            if state["match_winner"]:
                raise RuleError("mus.ended_decided", "ended")
            if items and "open" in items[-1].body:
                raise RuleError("mus.end_by_time_open", "ended")
        return GameRec("mus", head, items, state)

    def play_from(self, head: dict, base: dict, hands: list, first: int = 0) -> tuple[list[Item], dict]:
        """Check and play ``hands`` (file shape) from the running state ``base``; ``first`` is the index
        of the first of them in the match (for paths). Returns the items and the state after them."""
        ctx = ctx_of(head)
        items = []
        for k, raw in enumerate(hands):
            i = first + k
            path = f"hands[{i}]"
            body = norm_item(raw, path, head["seats"], ctx.kings)
            if "open" in body and k != len(hands) - 1:
                raise RuleError("mus.only_last_open", f"{path}.open")
            play = Play(ctx, base, body, path, strict=True).run()
            if "open" in body:
                items.append(Item(body, None, base))
            else:
                items.append(Item(body, play.result, base))
                base = play.state
        return items, base

    def to_doc(self, rec: GameRec) -> dict:
        doc = {k: rec.head[k] for k in HEAD_KEYS if k in rec.head}
        doc["hands"] = [item.body for item in rec.items]
        return doc

    def seats(self, head: dict) -> list[str]:
        return list(head["seats"])

    def seed_out(self, rec: GameRec) -> None:
        return None

    # -- where the match stands
    def open_item(self, rec: GameRec) -> Item | None:
        if len(rec.items) and "open" in rec.items[-1].body:
            return rec.items[-1]
        return None

    def current(self, rec: GameRec) -> tuple[dict, Play | None]:
        """The running state including the hand in progress (its fold points count at once), and that
        hand's play (None when no hand is being recorded)."""
        item = self.open_item(rec)
        if item is None:
            return rec.state, None
        last = self._played         # a page and its toast ask for the same hand: it is played once
        if last is not None and last[0] is item and last[1] is rec.head and last[2] == len(rec.items):
            return last[3].state, last[3]
        play = Play(ctx_of(rec.head), item.before, item.body, f"hands[{len(rec.items) - 1}]", strict=False).run()
        self._played = (item, rec.head, len(rec.items), play)
        return play.state, play

    def position(self, rec: GameRec) -> str:
        """The number of hands, the last one and the running state (small): a correction of an earlier
        hand moves the position too."""
        n = len(rec.items)
        return fingerprint(n, rec.items[-1].body if n else None, rec.state, rec.head.get("scoring"),
                           rec.head.get("ended"))

    # -- a tap
    def apply(self, rec: GameRec, action) -> Change:
        if rec.head.get("ended"):           # ended by the clock: nothing more to play
            check_at(action, self.position(rec))
            if getattr(self, f"do_{action.TYPE}", None) is not None:
                raise RuleError("mus.ended_already", "type")
        return by_type(self, rec, action, ctx_of(rec.head))

    def do_end_by_time(self, rec, ctx, a: A.EndByTime) -> Change:
        if rec.state["match_winner"]:
            raise RuleError("mus.ended_decided", "type")
        self._no_open(rec, "mus.end_by_time_open")
        return Change(head={**rec.head, "ended": "time"})

    def _no_open(self, rec: GameRec, code: str = "mus.hand_open") -> None:
        if self.open_item(rec) is not None:
            raise RuleError(code, "type")
        if rec.state["match_winner"]:
            raise RuleError("mus.match_over", "type", team=rec.state["match_winner"])

    def _hand(self, rec: GameRec, ctx: Ctx, start: bool) -> tuple[dict, dict, int, Play]:
        """(body copy, state before, index, play) of the hand in progress; a new one when ``start``."""
        item = self.open_item(rec)
        if item is None:
            if not start:
                raise RuleError("mus.no_hand", "type")
            self._no_open(rec)
            body = {**{L: [] for L in LANCES}, "open": "grande"}
            before, idx = rec.state, len(rec.items)
        else:
            body = _copy_hand(item.body)
            before, idx = item.before, len(rec.items) - 1
        play = Play(ctx, before, body, f"hands[{idx}]", strict=False).run()
        return body, before, idx, play

    def _settle(self, ctx: Ctx, body: dict, before: dict, idx: int) -> Change:
        """Move the hand on through every stage that needs nothing more, close it when it is over, and
        check the result as a session file would be checked."""
        path = f"hands[{idx}]"
        for _ in range(12):
            if "open" not in body:
                break
            pr = Play(ctx, before, body, path, strict=False).run().progress
            if pr["ended"]:
                _close(body)
                break
            if pr["next_stage"]:
                body["open"] = pr["next_stage"]
                continue
            if pr["stage_done"]:
                if body["open"] == "showdown":
                    _close(body)
                    break
                body["open"] = STAGES[STAGES.index(body["open"]) + 1]
                continue
            break
        try:
            play = Play(ctx, before, body, path, strict=True).run()
        except RuleError as err:
            raise _action_field(err, idx) from None
        if "open" in body:
            return Change(items={idx: Item(body, None, before)})
        return Change(state=play.state, items={idx: Item(body, play.result, before)})

    @staticmethod
    def _bidding(play: Play, need_steps: bool | None = None) -> dict:
        pr = play.progress
        if pr["status"] == "declare":
            raise RuleError("mus.declare_now", "type", lance=lance(pr["stage"]))
        if pr["status"] == "showdown":
            raise RuleError("mus.showdown_now", "type")
        if pr["status"] != "bidding":
            raise RuleError("mus.nothing_bid", "type")
        b = pr["bidding"]
        has_steps = b["kind"] != "passed"
        if need_steps is True and not has_steps:
            raise RuleError("mus.no_bet_yet", "type")
        if need_steps is False and has_steps:
            raise RuleError("mus.bet_on_table", "type")
        if need_steps and b["kind"] != "pending":
            raise RuleError("mus.bidding_over", "type")
        return b

    @staticmethod
    def _team(given, expected, required: bool = False) -> str:
        if given is None:
            if required:
                raise RuleError("mus.which_team", "team")
            return expected
        if given not in TEAMS:
            raise RuleError("mus.step_team", "team")
        if expected is not None and given != expected:
            raise RuleError("mus.must_answer", "team", team=expected)
        return given

    def do_start_hand(self, rec, ctx, a: A.StartHand) -> Change:
        self._no_open(rec)
        body = {}
        if a.mano is not None:
            if a.mano not in ctx.seats:
                raise RuleError("mus.mano", "mano", seats=", ".join(ctx.seats))
            body["mano"] = a.mano
        if a.cards is not None:
            body["cards"] = norm_cards(a.cards, "cards", ctx.seats, ctx.kings)
        body.update({L: [] for L in LANCES})
        body["open"] = "grande"
        return self._settle(ctx, body, rec.state, len(rec.items))

    def do_pass(self, rec, ctx, a: A.Pass) -> Change:
        body, before, idx, play = self._hand(rec, ctx, start=True)
        self._bidding(play, need_steps=False)
        body["open"] = STAGES[STAGES.index(body["open"]) + 1]
        return self._settle(ctx, body, before, idx)

    def do_bet(self, rec, ctx, a: A.Bet) -> Change:
        body, before, idx, play = self._hand(rec, ctx, start=True)
        self._bidding(play, need_steps=False)
        team = self._team(a.team, None, required=True)
        n = ctx.R["min_bet"] if a.amount is None else need_int(a.amount, "amount", 1, 999)
        if n < ctx.R["min_bet"]:
            raise RuleError("mus.bet_min", "amount", min=ctx.R["min_bet"])
        body[body["open"]].append({"team": team, "bet": n})
        change = self._settle(ctx, body, before, idx)
        if a.answer is None:
            return change
        if a.answer not in ("call", "fold"):
            raise RuleError("mus.answer", "answer")
        return _then(rec, change, lambda r: self._answer(r, ctx, A.Call(), a.answer))

    def do_raise(self, rec, ctx, a: A.Raise) -> Change:
        body, before, idx, play = self._hand(rec, ctx, start=False)
        b = self._bidding(play, need_steps=True)
        if b["ordago"]:
            raise RuleError("mus.ordago_answer", "type")
        team = self._team(a.team, b["to_answer"])
        if a.to is not None:
            n, key = need_int(a.to, "to", 1, 999), "to"
        elif a.more is not None:
            n, key = b["total"] + need_int(a.more, "more", 1, 999), "more"
        else:
            raise RuleError("mus.raise_what", "to")
        if n < b["total"] + 2:
            raise RuleError("mus.raise_min", key, total=n, after=b["total"])
        if n > 999:
            raise RuleError("v.int_max", key, max=999, value=n)
        body[body["open"]].append({"team": team, "raise": n})
        return self._settle(ctx, body, before, idx)

    def do_ordago(self, rec, ctx, a: A.Ordago) -> Change:
        body, before, idx, play = self._hand(rec, ctx, start=True)
        b = self._bidding(play)
        if b["kind"] == "passed":
            team = self._team(a.team, None, required=True)
        else:
            if b["kind"] != "pending":
                raise RuleError("mus.bidding_over", "type")
            if b["ordago"]:
                raise RuleError("mus.ordago_answer", "type")
            team = self._team(a.team, b["to_answer"])
        body[body["open"]].append({"team": team, "ordago": True})
        return self._settle(ctx, body, before, idx)

    def _answer(self, rec, ctx, a, verb: str) -> Change:
        body, before, idx, play = self._hand(rec, ctx, start=False)
        b = self._bidding(play, need_steps=True)
        team = self._team(a.team, b["to_answer"])
        body[body["open"]].append({"team": team, verb: True})
        return self._settle(ctx, body, before, idx)

    def do_call(self, rec, ctx, a: A.Call) -> Change:
        return self._answer(rec, ctx, a, "call")

    def do_fold(self, rec, ctx, a: A.Fold) -> Change:
        return self._answer(rec, ctx, a, "fold")

    def do_pass_rest(self, rec, ctx, a: A.PassRest) -> Change:
        """Pass every lance left, declaring from what was held, then the count: the same hand, step by
        step, as the table would have recorded it with Paso after Paso (one change, one undo)."""
        change, cur = self._pass_rest(rec, ctx, a, count=True)
        if cur is rec:
            raise RuleError("mus.rest_nothing", "type")
        return change

    def rest_needs(self, rec: GameRec) -> list[str]:
        """The lances whose better team the count after "everyone passes the rest" asks whatever was held
        (Grande and Chica: a paso point or a called envite); the others depend on what was held."""
        try:
            _change, cur = self._pass_rest(rec, ctx_of(rec.head), A.PassRest(pares_held={}, juego_held={}),
                                           count=False)
        except RuleError:
            return []
        item = self.open_item(cur)
        if item is None:
            return []
        _state, play = self.current(cur)
        return [L for L in play.progress["needs"] if L in ("grande", "chica")]

    def _pass_rest(self, rec, ctx, a: A.PassRest, count: bool) -> tuple[Change, GameRec]:
        change, cur = Change(), rec
        held = {"pares": a.pares_held, "juego": a.juego_held}
        for _ in range(8):
            item = self.open_item(cur)
            if cur is not rec and item is None:
                break           # the hand closed (every lance known from the cards, or the game ended)
            pr = self._hand(cur, ctx, start=True)[3].progress
            if pr["status"] == "bidding":
                if pr["bidding"]["kind"] != "passed":
                    raise RuleError("mus.rest_bet_pending", "type")
                step = lambda r: self.do_pass(r, ctx, A.Pass())  # noqa: E731
            elif pr["status"] == "declare":
                keys = ["pares", "juego"] if pr["stage"] == "pares" else ["juego"]
                for k in keys:
                    if held[k] is not None and not isinstance(held[k], dict):
                        raise RuleError("mus.held_shape", f"{k}_held")
                # a juego declaration says juego or not; punto totals (< 31) belong to the count
                decl = {k: {n: v for n, v in (held[k] or {}).items() if v not in (None, "", False)
                            and (k == "pares" or not _is_punto(v))} for k in keys}
                for k, v in decl.items():
                    try:
                        norm_held(v, k, ctx.seats, "pares" if k == "pares" else "declared")
                    except RuleError as err:
                        raise err.at(f"{k}_held" + err.path[len(k):]) from None
                step = lambda r, d=decl: self.do_declare(r, ctx, A.Declare(**d))  # noqa: E731
            elif pr["status"] == "showdown" and count:
                punto = {n: v for n, v in (held["juego"] or {}).items() if _is_punto(v)} \
                    if isinstance(held["juego"], dict) else {}
                sd = A.Showdown(grande=a.grande, chica=a.chica, pares=a.pares, juego=a.juego, cards=a.cards,
                                juego_held=punto or None)
                step = lambda r: self.do_showdown(r, ctx, sd)  # noqa: E731
            else:
                break
            change = _then(cur, change, step) if cur is not rec else step(cur)
            cur = apply_change(rec, change)[0]
        return change, cur

    def do_set_scoring(self, rec, ctx, a: A.SetScoring) -> Change:
        if a.scoring not in SCORING:
            raise RuleError("mus.scoring", "scoring", known=", ".join(SCORING))
        if (rec.head.get("scoring") or "bids") == a.scoring:
            raise RuleError("mus.scoring_same", "scoring")
        head = {k: v for k, v in rec.head.items() if k != "scoring"}
        if a.scoring == "tally":
            head["scoring"] = "tally"
        return Change(head=head)

    def do_declare(self, rec, ctx, a: A.Declare) -> Change:
        keys = [k for k in ("pares", "juego") if getattr(a, k) is not None]
        if not keys:
            raise RuleError("mus.declare_what", "pares")
        body, before, idx, play = self._hand(rec, ctx, start=True)
        if "cards" in body:
            raise RuleError("mus.cards_known", keys[0])
        declared = dict(body.get("declared", {}))
        for k in keys:
            if k in declared:
                raise RuleError("mus.declared_twice", k, lance=lance(k))
            if STAGES.index(body["open"]) > STAGES.index(k):
                raise RuleError("mus.lance_over", k, lance=lance(k))
            value = getattr(a, k)
            if not isinstance(value, dict):
                raise RuleError("mus.held_shape", k)
            declared[k] = norm_held({n: v for n, v in value.items() if v not in (None, "", False)}, k,
                                    ctx.seats, "pares" if k == "pares" else "declared")
        body["declared"] = declared
        return self._settle(ctx, body, before, idx)

    def do_showdown(self, rec, ctx, a: A.Showdown) -> Change:
        body, before, idx, play = self._hand(rec, ctx, start=False)
        if play.progress["status"] != "showdown":
            raise RuleError("mus.showdown_later", "type")
        if a.cards:
            body["cards"] = norm_cards(a.cards, "cards", ctx.seats, ctx.kings)
            body.pop("declared", None)
            body.pop("open", None)
            return self._settle(ctx, body, before, idx)
        declared = body.get("declared", {})
        sd = {}
        for L in LANCES:
            v = getattr(a, L)
            if v is not None:
                if v not in TEAMS:
                    raise RuleError("mus.step_team", L)
                sd[L] = v
        for key, dk in (("pares_held", "pares"), ("juego_held", "juego")):
            extra = getattr(a, key)
            if extra is not None and not isinstance(extra, dict):
                raise RuleError("mus.held_shape", key)
            if dk in declared or extra:
                merged = dict(declared.get(dk, {}))
                merged.update({n: v for n, v in (extra or {}).items() if v is not None})
                sd[key] = norm_held(merged, key, ctx.seats, dk)
        body["showdown"] = sd
        body.pop("declared", None)
        body.pop("open", None)
        return self._settle(ctx, body, before, idx)

    def _complete(self, ctx, hand, idx: int) -> dict:
        if not isinstance(hand, dict):
            raise RuleError("mus.hand_shape", "hand")
        if "open" in hand or "declared" in hand:
            raise RuleError("mus.hand_unfinished", "hand")
        try:
            return norm_item(hand, f"hands[{idx}]", ctx.seats, ctx.kings)
        except RuleError as err:
            raise err.at("hand" + err.path[len(f"hands[{idx}]"):]) from None

    def _replay_from(self, rec, ctx, idx: int, first: dict, added: bool = False) -> Change:
        """Hand ``idx`` becomes ``first``; every later hand is played again from the new state."""
        before = rec.items[idx].before if idx < len(rec.items) else rec.state
        items = {}
        n = max(len(rec.items), idx + 1)
        for i in range(idx, n):
            body = first if i == idx else rec.items[i].body
            path = f"hands[{i}]"
            try:
                play = Play(ctx, before, body, path, strict=True).run()
            except RuleError as err:
                if i == idx:
                    where = "hand" + err.path[len(path):] if err.path.startswith(path) else err.path
                    raise RuleError("mus.added_bad" if added else "mus.corrected_bad", where, hand=i + 1,
                                    why=err.msg) from None
                raise RuleError("mus.later_impossible", err.path, hand=i + 1, why=err.msg) from None
            if "open" in body:
                items[i] = Item(body, None, before)
            else:
                items[i] = Item(body, play.result, before)
                before = play.state
        return Change(state=before, items=items)

    def do_replace_hand(self, rec, ctx, a: A.ReplaceHand) -> Change:
        i = a.index
        if not is_int(i) or not 0 <= i < len(rec.items) or "open" in rec.items[i].body:
            raise RuleError("mus.which_hand", "index")
        return self._replay_from(rec, ctx, i, self._complete(ctx, a.hand, i))

    def do_add_hand(self, rec, ctx, a: A.AddHand) -> Change:
        self._no_open(rec, "mus.finish_first")
        i = len(rec.items)
        return self._replay_from(rec, ctx, i, self._complete(ctx, a.hand, i), added=True)

    def do_tally(self, rec, ctx, a: A.Tally) -> Change:
        self._no_open(rec, "mus.finish_first")
        raw = {"tally": a.awards}
        if a.mano is not None:
            raw["mano"] = a.mano
        if not isinstance(a.awards, list):
            raise RuleError("v.list", "awards")
        i = len(rec.items)
        try:
            body = norm_item(raw, f"hands[{i}]", ctx.seats, ctx.kings)
        except RuleError as err:
            raise err.at(err.path.replace(f"hands[{i}].tally", "awards").replace(f"hands[{i}].", "")) from None
        return self._replay_from(rec, ctx, i, body)

    def do_adjust(self, rec, ctx, a: A.Adjust) -> Change:
        self._no_open(rec, "mus.finish_first")
        i = len(rec.items)
        raw = {"adjust": {"team": a.team, "points": a.points, **({"why": a.why} if a.why else {})}}
        try:
            body = norm_item(raw, f"hands[{i}]", ctx.seats, ctx.kings)
            play = Play(ctx, rec.state, body, f"hands[{i}]", strict=True).run()
        except RuleError as err:
            raise err.at(err.path.split(".")[-1]) from None
        return Change(state=play.state, items={i: Item(body, play.result, rec.state)})

    # -- what the app shows of it
    def state(self, rec: GameRec) -> dict:
        from companion.domain.messages import ENGLISH as render

        current, play = self.current(rec)
        seats = rec.head["seats"]
        target = effective(rec.head["rules"])["target"]
        score = dict(current["score"])
        log = []
        results = [item.result for item in rec.items if item.result is not None]
        if play is not None:
            results.append(play.result)
        for r in results:
            hand = r["hand"]
            for aw in r["awards"]:
                log.append({"hand": hand, "game": aw["game"], "lance": aw["lance"], "team": aw["team"],
                            "points": aw["points"], "why": render(aw["why"])})
        over = current["match_winner"] is not None
        next_mano = None if over else seats[0 if current["mano"] is None else (current["mano"] + 1) % 4]
        out = {"kind": "mus", "teams": {"A": seats[0::2], "B": seats[1::2]},
               "games": [dict(g, score=dict(g["score"])) for g in current["games"]],
               "games_won": dict(current["games_won"]), "match_winner": current["match_winner"],
               "score": score, "dentro": {t: score[t] >= target - 5 for t in TEAMS},
               "stones": stones_of(score, target), "next_mano": next_mano, "log": log}
        result, ended_by = match_result({**out, "ended": rec.head.get("ended")})
        if result:
            out["result"], out["ended_by"] = result, ended_by
        if rec.head.get("ended"):
            out["next_mano"] = None
        return out

    def settlement(self, rec: GameRec) -> dict:
        seats = rec.head["seats"]
        net = {s: 0 for s in seats}
        stake = rec.head.get("stake") or {}

        def pay(winner: str, amount: int) -> None:
            for n in members(seats, winner):
                net[n] += amount
            for n in members(seats, other(winner)):
                net[n] -= amount

        if "per_game" in stake:
            for g in rec.state["games"]:
                pay(g["winner"], stake["per_game"])
        if "per_match" in stake and rec.state["match_winner"]:
            pay(rec.state["match_winner"], stake["per_match"])
        return {"net": net, "on_table": 0}

    def summary(self, rec: GameRec) -> dict:
        names = team_names(rec.head)
        st = rec.state
        won = st["games_won"]
        if st["match_winner"]:
            w = st["match_winner"]
            return msg("mus.sum.won", team=names[w], won=won[w], lost=won[other(w)])
        return msg("mus.sum.playing", a=names["A"], b=names["B"], won_a=won["A"], won_b=won["B"])

    def contest(self, rec: GameRec) -> dict | None:
        """A decided match (or one the club's clock ended: more games won, then the higher score in the
        game in progress, else a draw) between its two pairs, team A first."""
        st = rec.state
        result, _by = match_result({"match_winner": st.get("match_winner"), "games": st.get("games"),
                                    "ended": rec.head.get("ended"), "games_won": st.get("games_won"),
                                    "score": st.get("score")})
        if result is None:
            return None
        seats = rec.head["seats"]
        return {"teams": [seats[0::2], seats[1::2]], "ranks": {"A": [1, 2], "B": [2, 1], "draw": [1, 1]}[result]}

    def undone(self, rec: GameRec) -> dict | None:
        return undone(self, rec)

    def table_game(self, players: list[str], seats: list[str]) -> None:
        return None         # a club's Mus tables are its matches, made from the club's own rules

    def partnership(self, rec: GameRec) -> dict:
        """Who played with whom, and how it went (the players' pages: partners over time)."""
        seats = rec.head["seats"]
        return {"teams": {"A": seats[0::2], "B": seats[1::2]}, "games_won": dict(rec.state["games_won"]),
                "match_winner": rec.state["match_winner"]}

    def headline(self, rec: GameRec) -> dict:
        current, _play = self.current(rec)
        if current["match_winner"]:
            return self.summary(rec)
        s = current["score"]
        target = effective(rec.head["rules"])["target"]
        parts = [msg("mus.head.score", a=s["A"], b=s["B"])]
        if current["games"]:
            parts.append(msg("mus.head.games", a=current["games_won"]["A"], b=current["games_won"]["B"]))
        for t in TEAMS:
            if s[t] >= target - 5:
                parts.append(msg("mus.head.dentro", team=t))
        return msg("sep.dot", items=parts)

    def history(self, rec: GameRec) -> list[dict]:
        """One group per game of the match: its chart and its hands, every award with its reason."""
        head = rec.head
        names = team_names(head)
        target = effective(head["rules"])["target"]
        groups: dict[int, dict] = {}
        finished = {i + 1: g for i, g in enumerate(rec.state["games"])}
        results = [item.result for item in rec.items if item.result is not None]
        for r in results:
            g = r["game"]
            grp = groups.setdefault(g, {"score": {"A": 0, "B": 0}, "rounds": [], "values": {"A": [0], "B": [0]},
                                        "labels": [msg("chart.start")]})
            moves = []
            for aw in r["awards"]:
                if aw["game"] != g:
                    continue
                grp["score"][aw["team"]] += aw["points"]
                moves.append({"team": aw["team"], "amount": aw["points"], "why": aw["why"], "lance": aw["lance"]})
            label = msg("mus.hist.adjust") if r.get("kind") == "adjust" else msg("mus.hist.hand", n=r["hand"])
            meta = []
            if r.get("mano"):
                meta.append(msg("mus.hist.mano", name=r["mano"]))
            meta.append(msg("mus.head.score", a=grp["score"]["A"], b=grp["score"]["B"]))
            grp["rounds"].append({"label": label, "meta": meta, "moves": moves})
            for t in TEAMS:
                grp["values"][t].append(grp["score"][t])
            grp["labels"].append(msg("mus.hist.h", n=r["hand"]) if r.get("kind") != "adjust" else msg("mus.hist.adj"))
        out = []
        for g in sorted(groups):
            grp = groups[g]
            won = finished.get(g)
            title = msg("mus.chart.title", game=g, a=grp["score"]["A"], b=grp["score"]["B"])
            if won:
                title = msg("mus.chart.won", base=title, team=won["winner"],
                            how=msg("mus.by_ordago") if won["by"] == "ordago" else "")
            chart = {"title": title, "x_labels": grp["labels"], "unit": msg("mus.unit"),
                     "series": [{"name": f"{t}: {names[t]}", "values": grp["values"][t], "team": t,
                                 "color": self.chart_colors[t]} for t in TEAMS],
                     "reference": {"value": target, "label": msg("mus.chart.target", n=target)}}
            out.append({"title": msg("mus.hist.game", n=g), "chart": chart, "rounds": grp["rounds"]})
        return out

    def ledger(self, rec: GameRec) -> list[dict]:
        names = {t: " & ".join(members(rec.head["seats"], t)) for t in TEAMS}
        rows = []
        for item in rec.items:
            r = item.result
            if r is None:
                continue
            for aw in r["awards"]:
                rows.append({"round": r["hand"], "mus_game": aw["game"], "lance": aw["lance"], "team": aw["team"],
                             "team_players": names[aw["team"]], "from": None, "to": None,
                             "amount": aw["points"], "why": aw["why"]})
            ended = r.get("ended_game")
            if ended and ended["by"] == "ordago":
                # a game won by órdago scores no point: one row says who won it
                rows.append({"round": r["hand"], "mus_game": ended["game"], "lance": "ordago",
                             "team": ended["winner"], "team_players": names[ended["winner"]], "from": None,
                             "to": None, "amount": 0,
                             "why": msg("mus.alert.game", game=ended["game"], team=team_ref(ended["winner"]),
                                        how=msg("mus.by_ordago"))})
        return rows


def _copy_hand(body: dict) -> dict:
    out = {}
    for k, v in body.items():
        if isinstance(v, list):
            out[k] = [dict(s) for s in v]
        elif isinstance(v, dict):
            out[k] = {kk: (dict(vv) if isinstance(vv, dict) else vv) for kk, vv in v.items()}
        else:
            out[k] = v
    return out


KIND = MusKind()

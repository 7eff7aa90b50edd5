"""The Desmoche kind: what the app asks of a game kind (companion.kinds.base.Kind), for Desmoche and
Conquián.

Head: the game object without its hands (``kind rules seats unit_value ended`` and ``next_stake``, a
stake agreed for the NEXT hand: the next ``hand`` action moves it into that hand's ``stake``). Items: the
hands, always recorded whole (none is ever in progress). State: the running state after every hand
(``hand.py``), the series' end included once ``ended``.

A write plays only the hand it adds (``hand``), or touches only the head and the state (``set_stake``,
``end_series``); ``replace_hand`` plays again from the corrected hand on. ``build`` plays a whole series
once, to read a session file or check the store.
"""
from __future__ import annotations

from companion.domain.errors import RuleError
from companion.domain.messages import N_, msg, render
from companion.kinds.base import Change, GameRec, Item, by_type, fingerprint, players_chart, ranked_by_net
from companion.kinds.validate import need_dict, need_index, need_int
from companion.kinds.desmoche import actions as A
from companion.kinds.desmoche.hand import end_series, movements, multiple_word, play, start_state
from companion.kinds.desmoche.options import Spec, new_game
from companion.kinds.desmoche.shape import KIND as NAME
from companion.kinds.desmoche.shape import (MAX_PLAYERS, MAX_STAKE, MIN_PLAYERS, hands_list, norm_hand, norm_head,
                    norm_head_end)

TITLE = "desmoche.title"


def _log_entry(hand_no, m: dict) -> dict:
    return {"hand": hand_no, "from": m["from"], "to": m["to"], "units": m["units"], "why": render(m["why"])}


class DesmocheKind:
    name = NAME
    title = TITLE
    items_key = "hands"
    stylesheets = ("chips.css", "desmoche.css")    # the chip games' look, then its own (its static/)
    # the keys of its companion-state/1 entry
    csv_columns = ()
    words_lang = "es"                   # its table words, glossed the first time on a page
    at_tables = True                    # a free night's table may play it (table_game)
    club_match = None
    rated_pairs = None
    glosses = {"mico": N_("a run A-2-3: a bonus"), "arriba del palo": N_("no card laid down: pays a bonus"),
               "doble": N_("the pot rolled over once"), "triple": N_("rolled over twice")}
    state_keys = frozenset({"kind", "pot", "multiple", "side_pots", "net"})
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    actions = A.ACTIONS
    ledger_round = "hand"
    ledger_unit = "units"
    Spec = Spec

    # -- the session file
    def build(self, game: dict, players: list[str] | None, seed: dict | None = None) -> GameRec:
        head = norm_head(game, players)
        hands = hands_list(game)
        rules, seats = head["rules"], head["seats"]
        state = start_state(head)
        items = []
        for i, raw in enumerate(hands):
            path = f"hands[{i}]"
            body = norm_hand(raw, rules, seats, path)
            after, result = play(head, state, body, i, path)
            items.append(Item(body, result, state))
            state = after
        head = norm_head_end(game, head)
        if head["ended"]:
            state = end_series(head, state)
        return GameRec(NAME, head, items, state)

    def to_doc(self, rec: GameRec) -> dict:
        head = rec.head
        doc = {k: head[k] for k in ("kind", "rules", "seats", "unit_value")}
        doc["hands"] = [item.body for item in rec.items]
        doc["ended"] = head["ended"]
        if "next_stake" in head:
            doc["next_stake"] = head["next_stake"]
        return doc

    def new_game(self, players: list[str], spec: Spec) -> dict:
        return new_game(players, spec)

    def seats(self, head: dict) -> list[str]:
        return list(head["seats"])

    def seed_out(self, rec: GameRec) -> None:
        return None


    def contest(self, rec: GameRec) -> dict | None:
        return ranked_by_net(self, rec)

    def undone(self, rec: GameRec) -> None:
        return None

    def table_game(self, players: list[str], seats: list[str]) -> dict:
        from companion.kinds.desmoche.options import Spec

        return self.new_game(players, Spec(seats=list(seats)))
    def partnership(self, rec: GameRec) -> None:
        return None

    def position(self, rec: GameRec) -> str:
        """The number of hands, the last hand, the head's mutable keys and the running state (a correction
        of a past hand changes the state, nearly always): no walk over past hands."""
        n = len(rec.items)
        head = rec.head
        return fingerprint(n, rec.items[-1].body if n else None, head["ended"], head.get("next_stake"), rec.state)

    # -- a tap
    def apply(self, rec: GameRec, action) -> Change:
        return by_type(self, rec, action)

    @staticmethod
    def _open(rec: GameRec) -> None:
        if rec.head["ended"]:
            raise RuleError("desmoche.series_over", "type")

    def do_hand(self, rec: GameRec, a: A.Hand) -> Change:
        self._open(rec)
        head = rec.head
        raw = need_dict(a.hand, "hand")
        new_head = None
        if "next_stake" in head:
            if raw.get("stake") is None:
                raw = {**raw, "stake": head["next_stake"]}
            new_head = {k: v for k, v in head.items() if k != "next_stake"}
        i = len(rec.items)
        body = norm_hand(raw, head["rules"], head["seats"], "hand")
        state, result = play(head, rec.state, body, i, "hand")
        return Change(head=new_head, state=state, items={i: Item(body, result, rec.state)})

    def do_set_stake(self, rec: GameRec, a: A.SetStake) -> Change:
        self._open(rec)
        stake = need_int(a.stake, "stake", 1, MAX_STAKE)
        if stake == rec.head.get("next_stake", rec.state["stake"]):
            raise RuleError("desmoche.stake_same", "stake", stake=stake)   # a tap that changes nothing
        return Change(head={**rec.head, "next_stake": stake})

    def do_end_series(self, rec: GameRec, a: A.EndSeries) -> Change:
        self._open(rec)
        head = {k: v for k, v in rec.head.items() if k != "next_stake"}
        head["ended"] = True
        return Change(head=head, state=end_series(head, rec.state))

    def do_replace_hand(self, rec: GameRec, a: A.ReplaceHand) -> Change:
        head = rec.head
        n = len(rec.items)
        i = need_index(a.index, n, "desmoche.which_hand", "desmoche.no_such_hand")
        raw = need_dict(a.hand, "hand")
        rules, seats = head["rules"], head["seats"]
        body = norm_hand(raw, rules, seats, "hand")
        before = rec.items[i].before
        items = {}
        for j in range(i, n):
            b = body if j == i else rec.items[j].body
            try:
                after, result = play(head, before, b, j, "hand")
            except RuleError as err:
                if j == i:
                    raise
                raise RuleError("desmoche.later_impossible", "hand", hand=j + 1, why=err.msg) from None
            items[j] = Item(b, result, before)
            before = after
        if head["ended"]:
            before = end_series(head, before)
        return Change(state=before, items=items)

    # -- what the app shows of it
    def state(self, rec: GameRec) -> dict:
        """companion-state/1: ``kind pot multiple side_pots net`` and ``log``."""
        st = rec.state
        head = rec.head
        log = []
        for item in rec.items:
            n = item.result["hand"]
            for m in movements(head, item):
                log.append(_log_entry(n, m))
        for m in st.get("end") or ():
            log.append(_log_entry(None, m))
        return {"kind": NAME, "pot": st["pot"], "multiple": st["rounds"], "side_pots": dict(st["side_pots"]),
                "net": dict(st["balances"]), "log": log}

    def overview(self, rec: GameRec) -> dict:
        """Where the series stands, for the table's page (cheap: no walk over past hands)."""
        head, st = rec.head, rec.state
        seats = head["seats"]
        n = len(rec.items)
        ended = head["ended"]
        rounds = st["rounds"]
        legal = ["replace_hand"] if n else []
        if not ended:
            legal = ["hand", "set_stake", "end_series"] + legal
        return {"at": self.position(rec), "variant": head["rules"]["variant"], "seats": list(seats),
                "ended": ended, "stake": head.get("next_stake", st["stake"]), "pot": st["pot"],
                "multiple": rounds, "multiple_words": multiple_word(rounds),
                "next_multiple": 0 if ended else rounds + 1,
                "next_multiple_words": None if ended else multiple_word(rounds + 1),
                "side_pots": dict(st["side_pots"]), "side_stakes": dict(head["rules"]["side_games"]),
                "balances": dict(st["balances"]), "hand_number": n + 1,
                "next_dealer": None if ended else seats[n % len(seats)],
                "returned": dict(st["returned"]) if ended else None, "legal": legal}

    def settlement(self, rec: GameRec) -> dict:
        st = rec.state
        value = rec.head["unit_value"]
        on_table = st["pot"] + sum(st["side_pots"].values())
        return {"net": {p: st["balances"][p] * value for p in rec.head["seats"]}, "on_table": on_table * value}

    def summary(self, rec: GameRec) -> dict:
        """"Bea +70 units", "nobody ahead", with " (not ended)" while the series goes on."""
        net = rec.state["balances"]
        best = max(net.items(), key=lambda kv: kv[1], default=(None, 0))
        line = msg("desmoche.sum.ahead", player=best[0], n=best[1]) if best[1] > 0 else msg("desmoche.sum.nobody")
        if not rec.head["ended"]:
            line = msg("desmoche.sum.not_ended", line=line)
        return line

    def headline(self, rec: GameRec) -> dict:
        """"Desmoche · hand 3 · pot 30, next doble · Bea +20 · Ane −10 ..." (parts joined by the renderer)."""
        head, st = rec.head, rec.state
        seats = head["seats"]
        net = st["balances"]
        order = sorted(seats, key=lambda p: (-net[p], seats.index(p)))
        who = []
        for p in order[:4]:
            v = net[p]
            if v > 0:
                who.append(msg("desmoche.head.up", player=p, n=v))
            elif v < 0:
                who.append(msg("desmoche.head.down", player=p, n=-v))
            else:
                who.append(msg("desmoche.head.even", player=p))
        parts = [msg(f"desmoche.variant.{head['rules']['variant']}")]
        if head["ended"]:
            parts.append(msg("desmoche.head.over"))
        else:
            parts.append(msg("desmoche.head.hand", n=len(rec.items) + 1))
            parts.append(msg("desmoche.head.pot", pot=st["pot"], next=multiple_word(st["rounds"] + 1))
                         if st["pot"] else msg("desmoche.head.pot_empty"))
        return msg("sep.dot", items=parts + who)

    def history(self, rec: GameRec) -> list[dict]:
        """One group: the chart of units won or lost hand by hand, and every hand's movements."""
        seats = rec.head["seats"]
        rounds = []
        labels = [msg("chart.start")]
        values = {p: [0] for p in seats}
        for item in rec.items:
            r = item.result
            meta = [msg("desmoche.hist.dealer", name=r["dealer"]), msg("desmoche.hist.stake", n=r["stake"]),
                    msg("desmoche.hist.pot", pot=r["pot"], multiple=multiple_word(r["multiple"]))]
            rounds.append({"label": msg("desmoche.hist.hand", n=r["hand"]), "meta": meta,
                           "moves": [_move(m) for m in movements(rec.head, item)]})
            labels.append(msg("desmoche.hist.h", n=r["hand"]))
            for p in seats:
                values[p].append(values[p][-1] + r["delta"][p])
        end = rec.state.get("end")
        if end:
            rounds.append({"label": msg("desmoche.hist.end"), "meta": [], "moves": [_move(m) for m in end]})
            labels.append(msg("chart.end"))
            final = rec.state["balances"]
            for p in seats:
                values[p].append(final[p])
        chart = players_chart(msg("desmoche.chart.title"), msg("desmoche.unit"), labels, values, seats)
        return [{"title": None, "chart": chart, "rounds": rounds}]

    def ledger(self, rec: GameRec) -> list[dict]:
        """Every movement (and every note: from/to None, 0 units), hand by hand, then the end."""
        rows = []
        for item in rec.items:
            n = item.result["hand"]
            for m in movements(rec.head, item):
                rows.append(_row(n, m))
        for m in rec.state.get("end") or ():
            rows.append(_row(None, m))
        return rows


def _move(m: dict) -> dict:
    return {"from": m["from"], "to": m["to"], "amount": m["units"], "why": m["why"]}


def _row(hand_no, m: dict) -> dict:
    return {"round": hand_no, "from": m["from"], "to": m["to"], "amount": m["units"], "why": m["why"]}


KIND = DesmocheKind()

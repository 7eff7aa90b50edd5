"""The Newmarket kind: what the app asks of a game kind (companion.kinds.base.Kind), for Newmarket.

A write plays only the deal it touches, from the running state stored before it; a whole game is played
deal by deal (``build``) only to read a session file, and again from a corrected deal on
(``replace_deal``). The deal in progress (``"open": true``, always the last) is played from its
``before`` whenever its chips are needed (``current``).

``leftover: carry``: an ended carry game hands what lies on its table to the next Newmarket game of the
session (``seed_out``); the session layer passes it to that game's ``build`` as ``seed``. The old app's
``carry_in`` game key is read only when it says what the session carries, and never written.

Beyond the ``Kind`` protocol, for the pages: ``current`` (the running state with the deal in progress,
and that deal, with ``bury``: parlett's 'bury the Jack'), ``next_deal``, ``legal`` (the action types a
tap may be now), ``moves`` (every chip movement, reasons as messages), ``brought_in``, ``spec`` (the
typed options of ``new_game``). None of them walks past deals except ``moves``/``history``/``ledger``/
``state``, which list them all.
"""
from __future__ import annotations

from companion.domain.errors import RuleError
from companion.domain.messages import CATALOG, N_, msg
from companion.kinds.base import Change, GameRec, Item, by_type, fingerprint, players_chart, ranked_by_net
from companion.kinds.validate import need_bool, need_index, need_seated
from companion.kinds.newmarket import actions as A
from companion.kinds.newmarket.deal import dealer_index, finish, is_bury, leftover_moves, play, start_state
from companion.kinds.newmarket.options import NewmarketSpec, pretty
from companion.kinds.newmarket.shape import Ctx, norm_boodle, norm_deal, norm_dummy, norm_end, norm_head, norm_seed

TITLE = "newmarket.title"


def _field(err: RuleError, idx: int, field: str = "") -> RuleError:
    """An error found checking deal ``idx`` after an action, placed on the action's field (``field``:
    what the deal is called there, ``deal`` for replace_deal)."""
    p = err.path
    pre = f"deals[{idx}]"
    if p == pre:
        return err.at(field or "type")
    if p.startswith(pre + "."):
        rest = p[len(pre) + 1:]
        return err.at(f"{field}.{rest}" if field else rest)
    if p.startswith(pre + "["):
        return err.at(field + p[len(pre):])
    return err.at(p or field or "type")


class NewmarketKind:
    name = "newmarket"
    title = TITLE
    items_key = "deals"
    stylesheets = ("chips.css",)       # the chip games' look (the app's static/)
    # the keys of its companion-state/1 entry
    csv_columns = ()
    words_lang = "en"                   # its table words, glossed the first time on a page
    at_tables = True                    # a free night's table may play it (table_game)
    club_match = None
    rated_pairs = None
    glosses = {"boodle": N_("the cards that carry chips"), "kitty": N_("a pot the whole table antes to")}
    state_keys = frozenset({"kind", "chips", "pots", "kitty", "pool", "ended", "net"})
    min_players = 3
    max_players = 8
    actions = A.ACTIONS
    ledger_round = "deal"
    ledger_unit = "chips"
    spec = NewmarketSpec        # the typed options of ``new_game``

    # -- the session file
    def build(self, game: dict, players: list[str] | None, seed: dict | None = None) -> GameRec:
        seed = norm_seed(seed)
        head = norm_head(game, players, seed)
        deals = game.get("deals")
        if deals is None:
            deals = []
        if not isinstance(deals, list):
            raise RuleError("v.list", "deals")
        ctx = Ctx(head)
        st = start_state(ctx, seed)
        items = []
        last = len(deals) - 1
        over = False
        for i, raw in enumerate(deals):
            body, ends = norm_deal(raw, ctx, st, f"deals[{i}]", i == last)
            if "open" in body:
                items.append(Item(body, None, st))
                continue
            after, result = play(ctx, st, body, i + 1)
            items.append(Item(body, result, st))
            st = after
            over = ends
        ended = head["ended"] or over
        if ended and items and "open" in items[-1].body:
            raise RuleError("newmarket.open_ended", f"deals[{last}].open")
        head["ended"] = ended
        if ended:
            st = finish(ctx, st)
        return GameRec("newmarket", head, items, st, seed)

    def to_doc(self, rec: GameRec) -> dict:
        h = rec.head
        return {"kind": "newmarket", "rules": h["rules"], "seats": h["seats"], "start_chips": h["start_chips"],
                "chip_value": h["chip_value"], "deals": [item.body for item in rec.items], "ended": h["ended"]}

    def seats(self, head: dict) -> list[str]:
        return list(head["seats"])

    def new_game(self, players: list[str], spec: NewmarketSpec) -> dict:
        """The game object for a new game with these options (RuleError: path = the option's name, field =
        the new-game form's field)."""
        rules = {"variant": spec.variant, "ante": spec.ante, "free_ante": spec.free_ante,
                 "kitty_ante": spec.kitty_ante, "leftover": spec.leftover}
        if spec.dealer_ante is not None:
            rules["dealer_ante"] = spec.dealer_ante
        if spec.variant == "classic":
            rules["payout"] = "cards" if spec.payout is None else spec.payout
            if spec.boodles is not None:
                rules["boodles"] = list(spec.boodles) if isinstance(spec.boodles, (list, tuple)) else spec.boodles
        elif spec.pool_ante is not None:
            rules["pool_ante"] = spec.pool_ante
        seats = list(spec.seats) if isinstance(spec.seats, (list, tuple)) else spec.seats
        game = {"kind": "newmarket", "rules": rules, "seats": seats, "start_chips": spec.start_chips,
                "chip_value": spec.chip_value, "deals": [], "ended": False}
        try:
            rec = self.build(game, players)
        except RuleError as err:
            option = (err.path.split(".")[-1].split("[")[0] if err.path else "") or "seats"
            raise err.at(option).named("seats" if option.startswith("seat") else option) from None
        return self.to_doc(rec)


    def contest(self, rec: GameRec) -> dict | None:
        return ranked_by_net(self, rec)

    def undone(self, rec: GameRec) -> None:
        return None

    def table_game(self, players: list[str], seats: list[str]) -> dict:
        from companion.kinds.newmarket.options import NewmarketSpec

        return self.new_game(players, NewmarketSpec(seats=list(seats)))
    def partnership(self, rec: GameRec) -> None:
        return None   # no teams in Newmarket

    def seed_out(self, rec: GameRec) -> dict | None:
        """An ended ``leftover: carry`` game: what lies on its table ({"piles": {card: n}, "kitty",
        "pool", "chips": the total, "chip_value"}); None otherwise, or when nothing is left."""
        head = rec.head
        if not head["ended"] or head["rules"]["leftover"] != "carry":
            return None
        st = rec.state
        piles = {c: k for c, k in st["piles"].items() if k}
        total = sum(piles.values()) + st["kitty"] + st["pool"]
        if not total:
            return None
        return {"piles": piles, "kitty": st["kitty"], "pool": st["pool"], "chips": total,
                "chip_value": head["chip_value"]}

    # -- where the game stands
    def open_item(self, rec: GameRec) -> Item | None:
        if len(rec.items) and "open" in rec.items[-1].body:
            return rec.items[-1]
        return None

    def current(self, rec: GameRec) -> tuple[dict, dict | None]:
        """The running state including the deal in progress (its antes are in), and that deal: its
        result so far plus ``open``, ``bury`` (parlett, one King face up: bury the Jack, no exchange),
        ``face_up_before`` and ``taken`` (the boodle cards or Queens already played). None when no deal
        is being played."""
        item = self.open_item(rec)
        if item is None:
            return rec.state, None
        n = len(rec.items)
        st, result = play(Ctx(rec.head), item.before, item.body, n)
        info = dict(result, open=True, face_up_before=list(item.before["face_up"]),
                    taken=[b["card"] for b in item.body.get("boodles_won", ())])
        return st, info

    def next_deal(self, rec: GameRec) -> dict | None:
        """The deal to start next: {"number", "dealer", "bury"}; None while one is played or once ended."""
        if rec.head["ended"] or self.open_item(rec) is not None:
            return None
        ctx = Ctx(rec.head)
        st = rec.state
        return {"number": len(rec.items) + 1, "dealer": ctx.seats[(st["dealer"] + 1) % ctx.n],
                "bury": is_bury(ctx, st)}

    def legal(self, rec: GameRec) -> list[str]:
        """The action types a tap may be now (which controls a page shows); no walk."""
        n = len(rec.items)
        fix = ["replace_deal"] if n else []
        if rec.head["ended"]:
            return fix
        item = self.open_item(rec)
        if item is None:
            return ["start_deal", "end_game"] + fix
        acts = ["boodle", "end_deal", "cancel_deal"]
        ctx = Ctx(rec.head)
        if ctx.classic and "dummy" not in item.body:
            acts.insert(0, "dummy")
        if ctx.parlett and "exchange" not in item.body and not is_bury(ctx, item.before):
            acts.insert(0, "exchange")
        return acts + fix

    def position(self, rec: GameRec) -> str:
        """The number of deals, the last one, ``ended``, and the running state (small): a correction of an
        earlier deal moves the position too."""
        n = len(rec.items)
        return fingerprint(n, rec.items[-1].body if n else None, rec.head["ended"], rec.state)

    # -- a tap
    def apply(self, rec: GameRec, action) -> Change:
        return by_type(self, rec, action, Ctx(rec.head))

    def _open(self, rec: GameRec) -> tuple[int, Item]:
        if rec.head["ended"]:
            raise RuleError("newmarket.game_over", "type")
        item = self.open_item(rec)
        if item is None:
            raise RuleError("newmarket.no_deal", "type")
        return len(rec.items) - 1, item

    def _redo(self, rec: GameRec, ctx: Ctx, idx: int, before: dict, raw: dict) -> Change:
        """The last deal (``idx``) becomes ``raw``, checked as a file's deal would be; when it closes,
        the running state moves on (and the game ends if it took the last King)."""
        try:
            body, ends = norm_deal(raw, ctx, before, f"deals[{idx}]", True)
        except RuleError as err:
            raise _field(err, idx) from None
        if "open" in body:
            return Change(items={idx: Item(body, None, before)})
        st, result = play(ctx, before, body, idx + 1)
        item = Item(body, result, before)
        if ends:
            return Change(head={**rec.head, "ended": True}, state=finish(ctx, st), items={idx: item})
        return Change(state=st, items={idx: item})

    def do_start_deal(self, rec, ctx: Ctx, a: A.StartDeal) -> Change:
        if rec.head["ended"]:
            raise RuleError("newmarket.game_over", "type")
        if self.open_item(rec) is not None:
            raise RuleError("newmarket.deal_in_progress", "type", n=len(rec.items))
        raw: dict = {}
        if a.dealer is not None:
            raw["dealer"] = need_seated(a.dealer, ctx.seats, "dealer")
        if ctx.free_ante:
            if not a.antes:
                raise RuleError("newmarket.free_where", "antes", n=ctx.free_ante)
            raw["antes"] = a.antes
        elif a.antes:
            raise RuleError("newmarket.antes_free_only", "antes")
        raw["open"] = True
        return self._redo(rec, ctx, len(rec.items), rec.state, raw)

    def do_dummy(self, rec, ctx: Ctx, a: A.Dummy) -> Change:
        idx, item = self._open(rec)
        body = item.body
        if not ctx.classic:
            raise RuleError("newmarket.dummy_parlett", "type")
        if "dummy" in body:
            raise RuleError("newmarket.dummy_again", "type")
        if need_bool(a.swap, "swap"):
            if a.sold_to:
                raise RuleError("newmarket.dummy_both", "sold_to")
            dummy = {"swap": True}
        else:
            if not a.sold_to:
                raise RuleError("newmarket.dummy_who", "sold_to")
            if a.price is None:
                raise RuleError("v.missing", "price")
            dealer = ctx.seats[dealer_index(ctx, item.before, body)]
            dummy = norm_dummy({"sold_to": a.sold_to, "price": a.price}, ctx, dealer, "")
        return self._redo(rec, ctx, idx, item.before, {**body, "dummy": dummy})

    def do_exchange(self, rec, ctx: Ctx, a: A.Exchange) -> Change:
        idx, item = self._open(rec)
        body = item.body
        if not ctx.parlett:
            raise RuleError("newmarket.exchange_classic", "type")
        if "exchange" in body:
            raise RuleError("newmarket.exchange_again", "type", name=body["exchange"])
        if is_bury(ctx, item.before):
            king = item.before["face_up"][0]
            raise RuleError("newmarket.bury_jack", "type", king=pretty(king), jack=pretty("J" + king[-1]))
        by = need_seated(a.by, ctx.seats, "by")
        return self._redo(rec, ctx, idx, item.before, {**body, "exchange": by})

    def do_boodle(self, rec, ctx: Ctx, a: A.Boodle) -> Change:
        idx, item = self._open(rec)
        body = item.body
        won = body.get("boodles_won", [])
        b = norm_boodle({"card": a.card, "by": a.by}, ctx, [x["card"] for x in won], "")
        return self._redo(rec, ctx, idx, item.before, {**body, "boodles_won": [*won, b]})

    def do_end_deal(self, rec, ctx: Ctx, a: A.EndDeal) -> Change:
        if rec.head["ended"]:
            raise RuleError("newmarket.game_over", "type")
        item = self.open_item(rec)
        n = len(rec.items)
        if item is None:
            if n and rec.items[-1].body.get("out"):
                raise RuleError("newmarket.already_out", "out", name=rec.items[-1].body["out"], n=n)
            raise RuleError("newmarket.no_deal", "type")
        fields: dict = {}
        if a.out not in (None, ""):
            fields["out"] = a.out
        if a.cards_left is not None:
            fields["cards_left"] = a.cards_left
        if a.blocked is not False:
            fields["blocked"] = a.blocked
        end = norm_end(fields, ctx, "")
        if not end:
            raise RuleError("newmarket.end_what", "out")
        raw = {k: v for k, v in item.body.items() if k != "open"}
        raw.update(end)
        return self._redo(rec, ctx, n - 1, item.before, raw)

    def do_cancel_deal(self, rec, ctx: Ctx, a: A.CancelDeal) -> Change:
        idx, _item = self._open(rec)
        return Change(items={idx: None})

    def do_end_game(self, rec, ctx: Ctx, a: A.EndGame) -> Change:
        if rec.head["ended"]:
            raise RuleError("newmarket.already_over", "type")
        if self.open_item(rec) is not None:
            raise RuleError("newmarket.end_deal_first", "type", n=len(rec.items))
        return Change(head={**rec.head, "ended": True}, state=finish(ctx, rec.state))

    def do_replace_deal(self, rec, ctx: Ctx, a: A.ReplaceDeal) -> Change:
        n = len(rec.items)
        i = need_index(a.index, n, "newmarket.which_deal", "newmarket.no_such_deal")
        if not isinstance(a.deal, dict):
            raise RuleError("v.object", "deal")
        last = rec.items[-1]
        was_over = last.result is not None and last.result["ends_game"]
        ended = rec.head["ended"]
        if was_over or (i == n - 1 and a.deal.get("open")):
            # ended only because the last King fell (played again below), or the last deal is in
            # progress again; a game the table stopped (end_game) stays ended
            ended = False
        st = rec.items[i].before
        items: dict[int, Item] = {}
        over = False
        for j in range(i, n):
            raw = a.deal if j == i else rec.items[j].body
            try:
                body, ends = norm_deal(raw, ctx, st, f"deals[{j}]", j == n - 1)
            except RuleError as err:
                if j == i:
                    raise _field(err, i, "deal") from None
                raise RuleError("newmarket.later_impossible", "deal", where=err.path, why=err.msg) from None
            if "open" in body:
                items[j] = Item(body, None, st)
                continue
            after, result = play(ctx, st, body, j + 1)
            items[j] = Item(body, result, st)
            st = after
            over = ends
        ended = ended or over
        if ended and "open" in items[n - 1].body:
            raise RuleError("newmarket.open_ended", "deal.open" if i == n - 1 else "deal")
        head = {**rec.head, "ended": ended} if ended != rec.head["ended"] else None
        return Change(head=head, state=finish(ctx, st) if ended else st, items=items)

    # -- what the app shows of it
    def moves(self, rec: GameRec) -> list[dict]:
        """Every chip movement of the game in order, the deal in progress and the leftovers included:
        {"deal": n | None, "from", "to", "chips", "why": Msg}; piles are "@AH", "@kitty", "@pool",
        "@table" (the leftovers, shared). 0-chip entries explain a take of nothing."""
        ctx = Ctx(rec.head)
        out: list[dict] = []
        for i, item in enumerate(rec.items):
            play(ctx, item.before, item.body, i + 1, log=out)
        if rec.head["ended"]:
            out += leftover_moves(ctx, rec.state["leftovers"])
        return out

    def state(self, rec: GameRec) -> dict:
        current, _info = self.current(rec)
        start = rec.head["start_chips"]
        chips = current["chips"]
        log = [{"deal": m["deal"], "from": m["from"], "to": m["to"], "chips": m["chips"], "why": english(m["why"])}
               for m in self.moves(rec)]
        return {"kind": "newmarket", "chips": dict(chips), "pots": dict(current["piles"]),
                "kitty": current["kitty"], "pool": current["pool"], "ended": rec.head["ended"],
                "net": {p: chips[p] - start for p in rec.head["seats"]}, "log": log}

    def on_table(self, current: dict) -> int:
        return sum(current["piles"].values()) + current["kitty"] + current["pool"]

    def settlement(self, rec: GameRec) -> dict:
        """In minor units. The chips a carry game leaves for the next game count as on the table; the
        game they seed takes them off its own (its ``on_table`` subtracts its seed): the night sums right."""
        current, _info = self.current(rec)
        head = rec.head
        value, start = head["chip_value"], head["start_chips"]
        table = self.on_table(current)
        seed = rec.seed["chips"] if rec.seed else 0
        out = {"net": {p: (current["chips"][p] - start) * value for p in head["seats"]},
               "on_table": (table - seed) * value}
        if head["ended"] and head["rules"]["leftover"] == "carry" and table:
            out["note"] = msg("newmarket.note.carry", n=table)
        return out

    def brought_in(self, rec: GameRec) -> int:
        """Chips brought in: start_chips x players + what the previous game carried in."""
        return rec.head["start_chips"] * len(rec.head["seats"]) + (rec.seed["chips"] if rec.seed else 0)

    def _net(self, rec: GameRec, current: dict) -> dict:
        start = rec.head["start_chips"]
        return {p: current["chips"][p] - start for p in rec.head["seats"]}

    def summary(self, rec: GameRec) -> dict:
        current, _info = self.current(rec)
        net = self._net(rec, current)
        best = max(net.items(), key=lambda kv: kv[1], default=(None, 0))
        if best[0] is None or best[1] <= 0:
            line = msg("newmarket.sum.nobody")
        else:
            line = msg("newmarket.sum.ahead", name=best[0], n=best[1])
        if not rec.head["ended"]:
            line = msg("newmarket.sum.not_ended", base=line)
        return line

    def headline(self, rec: GameRec) -> dict:
        """Variant · where the game is · the four players with most chips (their nets once ended)."""
        current, info = self.current(rec)
        seats = rec.head["seats"]
        chips = current["chips"]
        by_chips = sorted(seats, key=lambda p: (-chips[p], seats.index(p)))[:4]
        parts = [msg(f"newmarket.head.{rec.head['rules']['variant']}")]
        if rec.head["ended"]:
            parts.append(msg("newmarket.head.ended"))
            net = self._net(rec, current)
            for p in by_chips:
                k = net[p]
                parts.append(msg("newmarket.head.plus", name=p, n=k) if k > 0 else
                             msg("newmarket.head.minus", name=p, n=-k) if k < 0 else
                             msg("newmarket.head.even", name=p))
        else:
            if info is not None:
                parts.append(msg("newmarket.head.in_play", n=len(rec.items)))
            else:
                parts.append(msg("newmarket.head.next", n=len(rec.items) + 1))
            parts += [msg("newmarket.head.chips", name=p, n=chips[p]) for p in by_chips]
        return msg("sep.dot", items=parts)

    def history(self, rec: GameRec) -> list[dict]:
        """One group: the chips-in-hand chart and every deal with its movements."""
        ctx = Ctx(rec.head)
        seats = ctx.seats
        values = {p: [ctx.start_chips] for p in seats}
        labels: list = [msg("chart.start")]
        rounds = []
        for i, item in enumerate(rec.items):
            log: list = []
            st, result = play(ctx, item.before, item.body, i + 1, log=log)
            meta = [msg("newmarket.hist.dealer", name=result["dealer"])]
            if item.result is None:
                meta.append(msg("newmarket.hist.open"))
            if result["bury"]:
                meta.append(msg("newmarket.hist.bury"))
            if result["ends_game"]:
                meta.append(msg("newmarket.hist.last_king", name=result["boodles"][-1]["by"]))
            elif result["out"]:
                meta.append(msg("newmarket.hist.out", name=result["out"]))
            elif result["blocked"]:
                meta.append(msg("newmarket.hist.blocked"))
            rounds.append({"label": msg("newmarket.hist.deal", n=i + 1), "meta": meta, "moves": _moves(log)})
            for p in seats:
                values[p].append(st["chips"][p])
            labels.append(msg("newmarket.hist.d", n=i + 1))
        lo = rec.state["leftovers"] if rec.head["ended"] else None
        if lo is not None:
            log = leftover_moves(ctx, lo)
            meta = [msg("newmarket.hist.carried" if lo["carried"] else "newmarket.hist.shared", total=lo["total"])]
            rounds.append({"label": msg("newmarket.hist.end"), "meta": meta, "moves": _moves(log)})
            if log:
                for p in seats:
                    values[p].append(rec.state["chips"][p])
                labels.append(msg("chart.end"))
        chart = players_chart(msg("newmarket.chart.title"), msg("newmarket.unit"), labels, values, seats)
        return [{"title": None, "chart": chart, "rounds": rounds}]

    def ledger(self, rec: GameRec) -> list[dict]:
        return [{"round": m["deal"], "from": m["from"], "to": m["to"], "amount": m["chips"], "why": m["why"]}
                for m in self.moves(rec)]


def english(m: dict) -> str:
    """``messages.render`` in English for this kind's reasons, whose parameters are all plain text and
    whole numbers (a state of 300 deals says some 15,000 of them)."""
    t = CATALOG[m["code"]]
    if t.__class__ is tuple:
        t = t[0] if m.get(t[2]) == 1 else t[1]
    return t % m


def _moves(log: list[dict]) -> list[dict]:
    return [{"from": m["from"], "to": m["to"], "amount": m["chips"], "why": m["why"]} for m in log]


KIND = NewmarketKind()

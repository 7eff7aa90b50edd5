"""Duel: a deliberately small game kind that lives in the tests only. Two players; a tap gives one of them a
point; "finish" ends the duel; each point of difference is worth the stake. It proves a kind is one folder:
its rules (here), its pages (blueprint.py, templates/), its words (translations/) and its random taps
(strategies.py); tests/kinds/test_new_kind.py drops this folder into a copy of the app and nothing else
changes, and tests/kinds/test_conformance.py holds it to the contract."""
from __future__ import annotations

from dataclasses import dataclass

from companion.domain.errors import RuleError
from companion.kinds.base import Action, Change, GameRec, Item, check_at, fingerprint, players_chart
from companion.domain.messages import N_, define, msg

define("duel", {
    "title": N_("Duel"),
    "score": N_("%(a)s %(x)s – %(y)s %(b)s"),
    "point": N_("a point"),
    "seats": N_("a duel is two different players of the session"),
    "stake": N_("the stake is a whole number of minor units, 0 or more"),
    "points": N_("points is a list of {\"to\": player} and at most one {\"finish\": true}, last"),
    "over": N_("the duel is over"),
    "who": N_("%(name)s does not play this duel"),
    "nothing": N_("no point yet: nothing to finish"),
})


@dataclass(frozen=True)
class Point(Action):
    TYPE = "point"
    to: str


@dataclass(frozen=True)
class Finish(Action):
    TYPE = "finish"


class DuelKind:
    name = "duel"
    title = "duel.title"
    items_key = "points"
    min_players = max_players = 2
    actions = {cls.TYPE: cls for cls in (Point, Finish)}
    ledger_round = "hand"
    ledger_unit = "points"
    state_keys = frozenset({"kind", "score", "winner"})
    stylesheets = ()
    csv_columns = ()
    glosses: dict = {}
    words_lang = "en"
    at_tables = False
    club_match = None
    rated_pairs = None

    def new_game(self, players: list[str], spec: tuple) -> dict:
        return self.to_doc(self.build({"kind": "duel", "seats": list(spec[0]), "stake": spec[1]}, players))

    def build(self, game: dict, players: list[str] | None, seed: dict | None = None) -> GameRec:
        seats = game.get("seats")
        if not (isinstance(seats, list) and len(seats) == 2 and seats[0] != seats[1]
                and all(isinstance(p, str) and (players is None or p in players) for p in seats)):
            raise RuleError("duel.seats", "seats")
        stake = game.get("stake", 0)
        if not isinstance(stake, int) or isinstance(stake, bool) or not 0 <= stake <= 10 ** 6:
            raise RuleError("duel.stake", "stake")
        rec = GameRec("duel", {"kind": "duel", "seats": seats, "stake": stake}, [],
                      {"score": {p: 0 for p in seats}, "over": False})
        points = game.get("points", [])
        if not isinstance(points, list):
            raise RuleError("duel.points", "points")
        for i, body in enumerate(points):
            if body == {"finish": True} and i == len(points) - 1:
                action = Finish()
            elif isinstance(body, dict) and set(body) == {"to"}:
                action = Point(to=body["to"])
            else:
                raise RuleError("duel.points", f"points[{i}]")
            try:
                change = self.apply(rec, action)
            except RuleError as err:
                raise RuleError(err.code, f"points[{i}]", **err.params) from None
            rec = GameRec("duel", rec.head, [*rec.items, *change.items.values()], change.state)
        return rec

    def to_doc(self, rec: GameRec) -> dict:
        return {**rec.head, "points": [item.body for item in rec.items]}

    def apply(self, rec: GameRec, action: Action) -> Change:
        check_at(action, self.position(rec))
        state, n = rec.state, len(rec.items)
        if state["over"]:
            raise RuleError("duel.over", "type")
        if isinstance(action, Point):
            if action.to not in rec.head["seats"]:
                raise RuleError("duel.who", "to", name=str(action.to)[:40])
            score = {**state["score"], action.to: state["score"][action.to] + 1}
            return Change(state={"score": score, "over": False},
                          items={n: Item({"to": action.to}, {"to": action.to}, state)})
        if isinstance(action, Finish):
            if not n:
                raise RuleError("duel.nothing", "type")
            return Change(state={**state, "over": True}, items={n: Item({"finish": True}, {}, state)})
        raise RuleError("v.action_type", "type", type=action.TYPE)

    def position(self, rec: GameRec) -> str:
        return fingerprint(len(rec.items), rec.state)

    def _winner(self, rec: GameRec) -> str | None:
        a, b = rec.head["seats"]
        score = rec.state["score"]
        if not rec.state["over"] or score[a] == score[b]:
            return None
        return a if score[a] > score[b] else b

    def state(self, rec: GameRec) -> dict:
        return {"kind": "duel", "score": dict(rec.state["score"]), "winner": self._winner(rec)}

    def settlement(self, rec: GameRec) -> dict:
        a, b = rec.head["seats"]
        score = rec.state["score"]
        diff = (score[a] - score[b]) * rec.head["stake"] if rec.state["over"] else 0
        return {"net": {a: diff, b: -diff}, "on_table": 0}

    def seed_out(self, rec: GameRec) -> None:
        return None

    def seats(self, head: dict) -> list[str]:
        return list(head["seats"])

    def summary(self, rec: GameRec) -> dict:
        a, b = rec.head["seats"]
        return msg("duel.score", a=a, x=rec.state["score"][a], y=rec.state["score"][b], b=b)

    def headline(self, rec: GameRec) -> dict:
        return self.summary(rec)

    def partnership(self, rec: GameRec) -> None:
        return None

    def contest(self, rec: GameRec) -> dict | None:
        if not rec.state["over"]:
            return None
        a, b = rec.head["seats"]
        score = rec.state["score"]
        return {"teams": [[a], [b]], "ranks": [1 + (score[b] > score[a]), 1 + (score[a] > score[b])]}

    def undone(self, rec: GameRec) -> None:
        return None

    def table_game(self, players: list[str], seats: list[str]) -> None:
        return None

    def history(self, rec: GameRec) -> list[dict]:
        rounds = [{"label": msg("duel.point"), "meta": [], "moves": [{"who": it.body["to"], "amount": 1,
                                                                    "why": msg("duel.point")}]}
                  for it in rec.items if "to" in it.body]
        seats = rec.head["seats"]
        labels, values, score = [], {p: [] for p in seats}, {p: 0 for p in seats}
        for i, it in enumerate(rec.items):
            if "to" in it.body:
                score[it.body["to"]] += 1
                labels.append(str(i + 1))          # chart labels are text (base.Kind.history)
                for p in seats:
                    values[p].append(score[p])
        chart = players_chart(msg("duel.title"), msg("duel.point"), labels, values, seats)
        return [{"title": None, "chart": chart, "rounds": rounds}]

    def ledger(self, rec: GameRec) -> list[dict]:
        return [{"round": i + 1, "from": None, "to": it.body["to"], "amount": 1, "why": msg("duel.point")}
                for i, it in enumerate(rec.items) if "to" in it.body]


KIND = DuelKind()

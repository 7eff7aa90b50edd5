"""What a Desmoche page shows: the pot and its multiple, the balances, the hand form and the last few
hands, from the running state (never every hand)."""
from __future__ import annotations

from companion.domain.messages import msg
from companion.kinds.base import GameRec, Item
from companion.kinds.desmoche.hand import multiple_word
from companion.kinds.desmoche.kind import KIND
from companion.kinds.desmoche.messages import AUTO_LABELS
from companion.kinds.desmoche.shape import SIDE_GAMES

RECENT = 3
# what a write was (the ``done`` of the game page's address after it): the toast says it in one line
DONE = ("hand", "stake", "end", "fixed")

def side_label(name: str) -> dict:
    return {"code": f"desmoche.label.{name}"}


def hand_lines(s: dict) -> list[dict]:
    """One hand (its result) in a few messages."""
    lines = []
    if s["winner"] is None:
        lines.append(msg("desmoche.line.no_winner", pot=s["pot"]))
    else:
        line = (msg("desmoche.line.won_how", name=s["winner"], how={"code": f"desmoche.autolabel.{s['auto_win']}"},
                    pot=s["pot"]) if s.get("auto_win") else msg("desmoche.line.won", name=s["winner"], pot=s["pot"]))
        if s["multiple"] > 1:
            line = msg("desmoche.line.won_mult", base=line, mult=multiple_word(s["multiple"]))
        lines.append(line)
    if s["bonuses"]:
        lines.append(msg("desmoche.line.bonuses", items=[msg("desmoche.line.paid", name=p, n=k)
                                                          for p, k in s["bonuses"].items()]))
    for name, sg in s["side"].items():
        if sg["result"] == "won":
            lines.append(msg("desmoche.line.side_won", side=side_label(name), name=sg["winner"], pot=sg["pot"]))
        elif sg["result"] == "returned":
            lines.append(msg("desmoche.line.side_back", side=side_label(name)))
        else:
            lines.append(msg("desmoche.line.side_carry", side=side_label(name), pot=sg["pot"]))
    return lines


def sides(rec: GameRec, pots: dict) -> list[dict]:
    return [{"name": name, "label": side_label(name), "what": {"code": f"desmoche.what.{name}"}, "stake": stake,
             "pot": pots.get(name, 0)} for name, stake in rec.head["rules"]["side_games"].items()]


def page(rec: GameRec, recent: list[Item]) -> dict:
    st = KIND.overview(rec)
    seats = rec.head["seats"]
    history = [{"index": item.result["hand"] - 1, "number": item.result["hand"], "dealer": item.result["dealer"],
                "stake": item.result["stake"], "lines": hand_lines(item.result), "delta": item.result["delta"]}
               for item in recent]
    last_stake = recent[-1].result["stake"] if recent else rec.head["rules"]["stake"]
    players = [{"name": p, "net": st["balances"][p], "dealer": p == st["next_dealer"]} for p in seats]
    bar = {"players": players, "cols": len(seats), "rows": 1,
           "pots": [] if st["ended"] else [{"key": "pot", "n": st["pot"],
                                          "sub": st["next_multiple_words"] if st["next_multiple"] > 1 else None}]}
    return {"st": st, "rules": rec.head["rules"], "seats": seats, "players": players, "bar": bar,
            "sides": sides(rec, st["side_pots"]), "next_pot": st["pot"] + st["stake"] * len(seats),
            "stake_changes": st["stake"] != last_stake, "last_stake": last_stake,
            "history": list(reversed(history)), "last": history[-1] if history else None,
            "auto_labels": {k: {"code": f"desmoche.autolabel.{k}"} for k in AUTO_LABELS}}


def toast(rec: GameRec, what: str | None, fixed: int | None = None) -> dict | None:
    """What the tap just recorded, in one line (``what``: which form it came from; the log keeps the
    detail)."""
    if what == "fixed" and fixed:
        return msg("desmoche.toast.fixed", n=fixed)
    if what == "end" or (what is None and rec.head["ended"]):
        return msg("desmoche.toast.over")
    if what == "stake":
        st = KIND.overview(rec)
        return msg("desmoche.toast.stake", stake=st["stake"], n=st["hand_number"])
    if what not in ("hand", None) or not len(rec.items):
        return None
    r = rec.items[-1].result
    n = r["hand"]
    if r["winner"] is None:
        return msg("desmoche.toast.no_winner", n=n, pot=r["pot"])
    line = msg("desmoche.toast.won_how", n=n, name=r["winner"], pot=r["pot"],
               how={"code": f"desmoche.autolabel.{r['auto_win']}"}) if r.get("auto_win") else \
        msg("desmoche.toast.won", n=n, name=r["winner"], pot=r["pot"])
    bonuses = sum(r["bonuses"].values())
    return msg("desmoche.toast.bonuses", base=line, k=bonuses) if bonuses else line


__all__ = ["page", "toast", "DONE", "hand_lines", "sides", "side_label", "SIDE_GAMES", "RECENT"]

"""One line saying what the last tap recorded (the toast under the score), and what undo is about to take
back. Apart from the page models so the kind itself can say it (``Kind.undone``): the kind object is passed
in, never imported."""
from __future__ import annotations

from companion.domain.messages import msg
from companion.kinds.base import GameRec
from companion.kinds.mus.hand import lance
from companion.kinds.mus.options import LANCES


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


def toast(kind, rec: GameRec) -> dict | None:
    """What the last tap recorded, in one line (the log keeps the detail)."""
    if not len(rec.items):
        return None
    current, play = kind.current(rec)
    if play is not None:
        pr = play.progress
        body = rec.items[-1].body
        steps = body.get(pr["stage"]) if pr["stage"] in LANCES else None
        if steps and (pr["bidding"] or {}).get("kind") == "pending":
            return msg("mus.toast.step", lance=lance(pr["lance"] or pr["stage"]), step=step_text(steps[-1]))
        accepted = ordago_accepted(body)
        if accepted and pr["status"] == "showdown":
            return msg("mus.toast.ordago", lance=lance(accepted))
        done = play.result["lances"]
        if declared_last(body, pr, done):
            return msg("mus.toast.declared", lance=lance(pr["lance"] or pr["stage"]))
        if done:
            return msg("mus.toast.step", lance=lance(done[-1]["lance"]), step=done[-1]["what"])
        return msg("mus.toast.started", hand=pr["hand"], mano=pr["mano"])
    r = rec.items[-1].result
    if r.get("kind") == "adjust":
        aw = r["awards"][0]
        return msg("mus.toast.adjust", team=aw["team"], points=f"{aw['points']:+d}")
    ended = r.get("ended_game")
    base = msg("mus.toast.counted", hand=r["hand"], a=r["points"]["A"], b=r["points"]["B"])
    if current["match_winner"]:
        return msg("mus.toast.match", base=base, team=current["match_winner"])
    if ended:
        return msg("mus.toast.game", base=base, team=ended["winner"], game=ended["game"])
    return base


def ordago_accepted(body: dict) -> str | None:
    """The lance whose órdago was accepted (quiero) in this hand: the count decides the game."""
    for L in LANCES:
        steps = body.get(L) or []
        if len(steps) >= 2 and "ordago" in steps[-2] and "call" in steps[-1]:
            return L
    return None


def declared_last(body: dict, pr: dict, done: list) -> bool:
    """Whether the last tap was "who has pares and juego" (it plays no lance itself): the bidding of pares
    or juego has not started and no lance was settled after the declaration."""
    if "declared" not in body or pr["status"] != "bidding" or pr["stage"] not in ("pares", "juego"):
        return False
    if body.get(pr["stage"]):
        return False
    # (pares settled by the declaration itself, "nobody had it", says so in its own toast)
    return not done or done[-1]["lance"] in ("grande", "chica")


def undone(kind, rec: GameRec) -> dict | None:
    """What undo is about to take back, said as the toast after it: "Undone: A 2 · quiero in Chica"."""
    said = toast(kind, rec)
    if said is None:
        return None
    if said["code"] == "mus.toast.step":
        return msg("mus.toast.undone_step", step=said["step"], lance=said["lance"])
    return msg("mus.toast.undone", what=said)

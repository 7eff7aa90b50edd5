"""A match of games between two sides, A and B (``rules/club.md``, "The result of a round's match"): who
won it and how, read from what a kind's state says of it (``teams``, ``games``, ``games_won``,
``match_winner``, ``score``) and its ``ended``. Pure: a kind's rules and the club read it alike.
"""
from __future__ import annotations

TEAMS = ("A", "B")


def other(team: str) -> str:
    return "B" if team == "A" else "A"


def match_result(match: dict) -> tuple[str | None, str | None]:
    """(``"A"`` | ``"B"`` | ``"draw"`` | None, ended_by): None while the match is in play.

    ended_by is the last game's ``by`` for a decided match, ``"time"`` when the clock ended it."""
    winner = match.get("match_winner")
    if winner:
        games = match.get("games") or []
        return winner, (games[-1].get("by") if games else None) or "points"
    if match.get("ended") != "time":
        return None, None
    won = match["games_won"]
    if won["A"] != won["B"]:
        return ("A" if won["A"] > won["B"] else "B"), "time"
    score = match.get("score") or {"A": 0, "B": 0}
    if score["A"] != score["B"]:
        return ("A" if score["A"] > score["B"] else "B"), "time"
    return "draw", "time"


def game_scores(match: dict) -> list[tuple[int, int]]:
    """(A, B) of every game that counts in the points difference: the finished ones, and the one in
    progress when the clock ended the match."""
    out = [(g["score"]["A"], g["score"]["B"]) for g in match.get("games") or []]
    if not match.get("match_winner") and match.get("ended") == "time":
        score = match.get("score") or {"A": 0, "B": 0}
        out.append((score["A"], score["B"]))
    return out

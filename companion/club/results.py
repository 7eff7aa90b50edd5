"""The result of a round's match (``rules/club.md``, "The result of a round's match").

A round match is read from what the state says of a club match (``Kind.club_match``: ``teams``, ``games``,
``games_won``, ``match_winner``, ``score``) plus the file's ``round``, ``table``, ``ended`` and ``stage``: the
same dict serves the standings, the sala and the proposals.
"""
from __future__ import annotations

from companion.domain.match import match_result


def round_matches(heads: list[dict], states: list[dict]) -> list[dict]:
    """The session's round matches: every club match with a ``round``, as one dict of its head's ``round``,
    ``table`` and ``ended`` and what its state says."""
    out = []
    for gi, (head, st) in enumerate(zip(heads, states)):
        if head.get("round") is None or _club_match(head.get("kind")) is None:
            continue
        out.append({"game": gi, "round": head["round"], "table": head.get("table"), "ended": head.get("ended"),
                    "stage": head.get("stage"), "games_to_win": games_to_win(head),
                    "teams": st["teams"], "games": st["games"], "games_won": st["games_won"],
                    "match_winner": st["match_winner"], "score": st["score"]})
    return out


def games_to_win(head: dict) -> int | None:
    """The match's ``games_to_win`` as its rules resolve it (its kind's ``club_match`` says how)."""
    match = _club_match(head.get("kind"))
    return match.games_to_win(head) if match else None


def _club_match(kind: str | None):
    """The kind's ``club_match`` (None: a kind that plays no club match, or no such kind)."""
    from companion import kinds      # here: a kind's rules read this module's results when it loads

    return getattr(kinds.KINDS.get(kind or ""), "club_match", None)


def round_result(kind: str, head: dict, state: dict) -> tuple[str | None, str | None] | None:
    """A round game's result from its kind, head and state (None: not a round match)."""
    if head.get("round") is None or _club_match(kind) is None:
        return None
    return match_result({**state, "ended": head.get("ended")})

"""What one session gives to the ratings and the statistics (pure: no Flask, no SQLite).

A **contest** is a finished result between players:
- a Mus match that is decided (or, on a club night, ended by the clock: more games won, then the higher
  score of the game in progress, else a draw) between its two pairs; every round game of a club in stages
  is one (a group match, a Swiss round, each knockout tie: a tie is one match, never level);
- any other kind's ended game, ranking its players by net (equal nets share the rank).

``{"gi": game index, "kind", "teams": [[player key, ...], ...], "ranks": [1, 2, ...] (1 best, shared
when tied), "names": {key: name}}``: teams are pairs for Mus (team A first), one player each otherwise.
Games that are not finished give nothing yet.
"""
from __future__ import annotations

import hashlib
import json

from companion.kinds.base import GameRec
from companion.domain.session import player_key

MUS_LANCES = ("grande", "chica", "pares", "juego")
POINT_LANCES = ("grande", "chica", "pares", "juego")   # "punto" is counted with juego


def dense_ranks(values: list[int]) -> list[int]:
    """Rank 1 for the highest value; equal values share a rank (1, 1, 3)."""
    return [1 + sum(1 for w in values if w > v) for v in values]


def contest_of(gi: int, rec: GameRec) -> dict | None:
    """The kind says whether the game is finished and who ranked where (``Kind.contest``)."""
    from companion import kinds

    kind = kinds.KINDS.get(rec.kind)
    if kind is None:
        return None
    said = kind.contest(rec)
    if said is None:
        return None
    names = {player_key(p): p for p in kind.seats(rec.head)}
    return {"gi": gi, "kind": rec.kind, "teams": [[player_key(p) for p in team] for team in said["teams"]],
            "ranks": list(said["ranks"]), "names": names}


def contests_of(recs: list[GameRec]) -> list[dict]:
    return [c for gi, rec in enumerate(recs) if (c := contest_of(gi, rec)) is not None]


def digest(contests: list[dict]) -> str:
    """A fingerprint of what a session gives: sessions that start at the same moment are put in the
    order of their content, never of their ids (an archive imported in any order rates the same)."""
    text = json.dumps(contests, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def pair_key(a: str, b: str) -> str:
    """One key for a pair, whatever the seat order."""
    return "|".join(sorted((a, b)))


# ---------------------------------------------------------------------------------------------------
# Mus by the numbers: per team of a match, from the hands recorded with their bids

NUMBERS = ("hands", "envites", "envites_seen", "faced", "accepted", "folds", "ordagos", "ordagos_accepted",
           "ordagos_seen", "ordagos_won", "pts_grande", "pts_chica", "pts_pares", "pts_juego", "games",
           "games_from_dentro", "full_games", "full_game_hands")


def mus_numbers(rec: GameRec) -> dict[str, dict[str, int]]:
    """{"A": {figure: count}, "B": ...} for one Mus game (a match), over its closed hands.

    - hands: closed hands recorded with their bids (tally hands and adjustments are results only);
    - envites / envites_seen: the team's bets and raises, and how many of them the other team called;
    - faced / accepted / folds: the other team's bets and raises the team answered, called, folded to;
    - ordagos / ordagos_accepted: órdagos the team called / accepted; ordagos_seen: órdagos played out
      (accepted by either side) with the team in them, ordagos_won: of those, the ones it won;
    - pts_<lance>: points the team scored in that lance (juego includes punto);
    - games / games_from_dentro: finished games the team won, and of those the ones won after the other
      team was "dentro" (within 5 points of the target);
    - full_games / full_game_hands: finished games in which every hand had its bids, and their hands
      (the average hands per game rests on these)."""
    from companion.kinds.mus.kind import ctx_of

    out = {t: dict.fromkeys(NUMBERS, 0) for t in ("A", "B")}
    target = ctx_of(rec.head).target
    high = {"A": 0, "B": 0}          # the highest score of each team in the game being played
    game_hands, game_tally = 0, False
    for item in rec.items:
        body, result = item.body, item.result
        if result is None or "open" in body:
            continue
        is_adjust = "adjust" in body
        bids = not is_adjust and "tally" not in body
        if not is_adjust:
            game_hands += 1
            game_tally = game_tally or not bids
        if bids:
            for t in ("A", "B"):
                out[t]["hands"] += 1
            _bids(body, result, out)
        score = dict(result["score_before"])
        for aw in result["awards"]:
            if bids and aw["lance"] in ("grande", "chica", "pares", "juego", "punto"):
                lance = "juego" if aw["lance"] == "punto" else aw["lance"]
                out[aw["team"]][f"pts_{lance}"] += aw["points"]
            score[aw["team"]] = max(0, score[aw["team"]] + aw["points"])
            high[aw["team"]] = max(high[aw["team"]], score[aw["team"]])
        ended = result.get("ended_game")
        if ended:
            w = ended["winner"]
            lost = "B" if w == "A" else "A"
            out[w]["games"] += 1
            if high[lost] >= target - 5:
                out[w]["games_from_dentro"] += 1
            if not game_tally:
                for t in ("A", "B"):
                    out[t]["full_games"] += 1
                    out[t]["full_game_hands"] += game_hands
            high = {"A": 0, "B": 0}
            game_hands, game_tally = 0, False
    return out


def _bids(body: dict, result: dict, out: dict) -> None:
    for lance in MUS_LANCES:
        steps = body.get(lance) or []
        for i, step in enumerate(steps):
            t = step["team"]
            o = "B" if t == "A" else "A"
            answer = steps[i + 1] if i + 1 < len(steps) else None
            if "bet" in step or "raise" in step:
                out[t]["envites"] += 1
                if answer is not None:
                    out[o]["faced"] += 1
                    if "call" in answer:
                        out[t]["envites_seen"] += 1
                        out[o]["accepted"] += 1
            elif "ordago" in step:
                out[t]["ordagos"] += 1
                if answer is not None and "call" in answer:
                    out[o]["ordagos_accepted"] += 1
                    out[t]["ordagos_seen"] += 1
                    out[o]["ordagos_seen"] += 1
            elif "fold" in step:
                out[t]["folds"] += 1
    ended = result.get("ended_game")
    if ended and ended["by"] == "ordago":
        out[ended["winner"]]["ordagos_won"] += 1

"""The club night as the state JSON says it (``club``): format, the round, the standings."""
from __future__ import annotations

from companion.club.results import round_matches
from companion.club.standings import standings


def matches_of(games, states: list[dict]) -> list[dict]:
    """Round matches from game records (anything with ``.head``) and their states."""
    return round_matches([g.head for g in games], states)


def current_round(matches: list[dict], club: dict) -> int:
    """The highest round with a game (or with byes written), 0 before the first."""
    rounds = [m["round"] for m in matches] + [int(k) for k in (club.get("byes") or {})]
    rounds += [int(k) for k in (club.get("clock") or {})]
    return max(rounds, default=0)


def club_state(header: dict, games, states: list[dict]) -> dict:
    club = header["club"]
    matches = matches_of(games, states)
    if club["format"] == "stages":           # rules/tournament.md, "State"
        from companion.club.tournament import tournament_state

        return tournament_state(club, matches)
    out = {"format": club["format"], "round": current_round(matches, club)}
    if club["format"] != "free":
        out["standings"] = standings(club, header["players"], matches)
    return out


def round_in_play(heads: list[dict], club: dict) -> int:
    """The round in play from the games' heads alone (``current_round`` without the states): the
    highest round of a game, of byes written or of a clock started; 0 before the first."""
    rounds = [h["round"] for h in heads if h.get("round") is not None]
    rounds += [int(k) for k in (club.get("byes") or {})] + [int(k) for k in (club.get("clock") or {})]
    return max(rounds, default=0)

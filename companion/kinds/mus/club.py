"""A club night's round matches are Mus matches (``rules/club.md``): the settings the club keeps for them
(``club.mus``), a match's game object, its games to win, and the tap the round's clock ends it with. The
club asks these through ``Kind.club_match`` (``companion.kinds.base.ClubMatch``), never by name."""
from __future__ import annotations

from companion.domain.errors import RuleError
from companion.kinds.mus.actions import EndByTime
from companion.kinds.mus.options import PRESETS
from companion.kinds.mus.shape import norm_head
from companion.kinds.validate import check_keys

SETTINGS = ("rules", "scoring", "stake")
DEFAULT_RULES = {"preset": "spanish", "games_to_win": 2}     # a club's matches when it set none


class MusClubMatch:
    def settings(self, raw, path: str) -> dict:
        if not isinstance(raw, dict):
            raise RuleError("v.object", path)
        check_keys(raw, SETTINGS, path)
        try:
            head = norm_head({"kind": "mus", "seats": ["1", "2", "3", "4"], **raw}, None)
        except RuleError as err:
            raise err.prefixed(path) from None
        return {k: head[k] for k in SETTINGS if k in head}

    def game(self, settings: dict, seats: list[str]) -> dict:
        game = {"kind": "mus", "rules": settings.get("rules") or dict(DEFAULT_RULES), "seats": list(seats)}
        if settings.get("scoring"):
            game["scoring"] = settings["scoring"]
        return game

    def games_to_win(self, head: dict) -> int | None:
        rules = head.get("rules") or {}
        preset = PRESETS.get(rules.get("preset", "pagat"))
        return rules.get("games_to_win", preset and preset["games_to_win"])

    def with_games_to_win(self, game: dict, count: int) -> dict:
        return {**game, "rules": {**game["rules"], "games_to_win": count}}

    def end_by_time(self) -> EndByTime:
        return EndByTime()


CLUB_MATCH = MusClubMatch()

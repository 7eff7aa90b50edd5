"""The options of a new Desmoche series, typed (the web parses its form into a ``Spec``; rules never see
form strings), and the game object they make."""
from __future__ import annotations

from dataclasses import dataclass, field

from companion.domain.errors import RuleError
from companion.kinds.validate import need_dict, need_int, need_seats
from companion.kinds.desmoche.shape import KIND, MAX_PLAYERS, MAX_UNIT_VALUE, MIN_PLAYERS, norm_rules


@dataclass(frozen=True)
class Spec:
    """``seats``: counterclockwise, seats[0] deals the first hand. ``side_games``: {name: stake}; a stake
    of 0 means the side game is not played (a blank form field). ``unit_value``: minor units of one unit."""
    seats: list
    variant: str = "desmoche"
    stake: int = 1
    bonuses: bool = False
    color_wins: bool = False
    side_games: dict = field(default_factory=dict)
    side_unclaimed: str = "carry"
    unit_value: int = 1


def new_game(players: list[str], spec: Spec) -> dict:
    """The session-file game object of a new series; RuleError with the option's name as its path
    (``stake``, ``side_games.flor``...) and the new-series form's field as its ``field`` (``side_flor``)."""
    try:
        seats = need_seats(spec.seats, players, MIN_PLAYERS, MAX_PLAYERS, "seats")
    except RuleError as err:
        raise err.named("seats") from None
    side = need_dict(spec.side_games, "side_games")
    rules = {"variant": spec.variant, "stake": spec.stake, "bonuses": spec.bonuses, "color_wins": spec.color_wins,
             "side_games": {k: v for k, v in side.items() if not (v == 0 and v is not False)},
             "side_unclaimed": spec.side_unclaimed}
    try:
        rules = norm_rules(rules, "")
    except RuleError as err:
        path = err.path.lstrip(".")
        option = path.replace("[", ".").split(".")
        field = f"side_{option[1]}" if option[0] == "side_games" and len(option) > 1 else option[0]
        raise err.at(path).named(field or "form") from None
    return {"kind": KIND, "rules": rules, "seats": seats,
            "unit_value": need_int(spec.unit_value, "unit_value", 0, MAX_UNIT_VALUE), "hands": [], "ended": False}

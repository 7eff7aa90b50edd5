"""Mus rule options and the two presets (shared/rules/mus.md, "Presets")."""
from __future__ import annotations

from companion.domain.errors import RuleError
from companion.kinds.validate import is_int

LANCES = ("grande", "chica", "pares", "juego")
STAGES = LANCES + ("showdown",)
TEAMS = ("A", "B")
OPTIONS = ("paso_point", "juego_31", "juego_other", "punto_bonus", "kings", "target", "games_to_win", "min_bet")
PRESETS = {
    "pagat": {"paso_point": 0, "juego_31": 2, "juego_other": 1, "punto_bonus": 0, "kings": 8, "target": 40,
              "games_to_win": 3, "min_bet": 2},
    "spanish": {"paso_point": 1, "juego_31": 3, "juego_other": 2, "punto_bonus": 1, "kings": 8, "target": 40,
                "games_to_win": 2, "min_bet": 2},
}
RANGES = {"paso_point": (0, 10), "juego_31": (0, 10), "juego_other": (0, 10), "punto_bonus": (0, 10),
          "kings": (4, 8), "target": (10, 100), "games_to_win": (1, 9), "min_bet": (1, 10)}


def other(team: str) -> str:
    return "B" if team == "A" else "A"


def norm_rules(rules, path: str = "rules") -> dict:
    """The canonical rules object: the preset and only the options that differ from it."""
    if rules is None:
        return {"preset": "pagat"}
    if not isinstance(rules, dict):
        raise RuleError("v.object", path)
    for k in rules:
        if k != "preset" and k not in OPTIONS:
            raise RuleError("mus.unknown_option", f"{path}.{k}", key=str(k)[:40], known=", ".join(OPTIONS))
    preset = rules.get("preset", "pagat")
    if preset not in PRESETS:
        raise RuleError("mus.unknown_preset", f"{path}.preset", preset=str(preset)[:40])
    out = {"preset": preset}
    for k in OPTIONS:
        if k not in rules:
            continue
        v = rules[k]
        if not is_int(v):
            raise RuleError("mus.option_int", f"{path}.{k}", key=k)
        if k == "kings":
            if v not in (4, 8):
                raise RuleError("mus.kings", f"{path}.{k}")
        else:
            lo, hi = RANGES[k]
            if not lo <= v <= hi:
                raise RuleError("mus.option_range", f"{path}.{k}", key=k, low=lo, high=hi)
        if v != PRESETS[preset][k]:
            out[k] = v
    return out


def effective(rules: dict) -> dict:
    out = dict(PRESETS[rules.get("preset", "pagat")])
    out.update({k: v for k, v in rules.items() if k in OPTIONS})
    out["preset"] = rules.get("preset", "pagat")
    return out

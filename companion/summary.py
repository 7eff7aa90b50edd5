"""What the history list and the players' pages show of a session, derived from its document and state.
Pure. Stored as JSON in ``sessions.summary`` on every write (``store._refresh_side_tables``).

Keys: ``started``, ``players``, ``kinds``, ``biggest_winner``, ``biggest_win`` (minor units), ``currency``,
and for the history pages: ``games`` ([{"kind", "title", "result"}]: one line per game, e.g.
"Bea & Dani won 3–1"), ``mus`` ([{"teams": {"A": [..], "B": [..]}, "games_won": {"A", "B"},
"match_winner": "A" | "B" | None}] per Mus game of the session), ``on_table`` (minor units),
``payments`` (how many), ``settled`` (every payment marked paid). Every key beyond the first six is
read with ``.get`` by the pages: summaries written before they existed still work.
"""
from __future__ import annotations

import unicodedata


def player_key(name: str) -> str:
    """Players are matched by name across sessions: case and accents do not matter (Iñaki = inaki)."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).strip()


def _int(value) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _title(kind: str) -> str:
    try:
        from . import kinds

        return getattr(kinds.KINDS.get(kind), "TITLE", kind.title())
    except Exception:  # noqa: BLE001 - a summary never fails a write
        return kind.title()


def _mus_result(state: dict) -> tuple[str, dict | None]:
    teams = state.get("teams") or {}
    won = state.get("games_won") or {}
    if not isinstance(teams, dict) or not all(isinstance(teams.get(t), list) for t in ("A", "B")):
        return "", None
    names = {t: " & ".join(str(p) for p in teams[t]) for t in ("A", "B")}
    a, b = _int(won.get("A")), _int(won.get("B"))
    winner = state.get("match_winner") if state.get("match_winner") in ("A", "B") else None
    if winner:
        loser = "B" if winner == "A" else "A"
        text = f"{names[winner]} won {_int(won.get(winner))}–{_int(won.get(loser))}"
    else:
        text = f"{names['A']} {a}–{b} {names['B']}"
    info = {"teams": {t: list(teams[t]) for t in ("A", "B")}, "games_won": {"A": a, "B": b},
            "match_winner": winner}
    return text, info


def _chip_result(state: dict, unit: str) -> str:
    net = state.get("net") if isinstance(state.get("net"), dict) else {}
    best = max(((p, _int(v)) for p, v in net.items()), key=lambda kv: kv[1], default=(None, 0))
    if best[0] is None or best[1] <= 0:
        text = "nobody ahead"
    else:
        text = f"{best[0]} +{best[1]} {unit}"
    if state.get("ended") is False:
        text += " (not ended)"
    return text


def summarize(doc: dict, state: dict) -> dict:
    settle = state["settle"]
    net = settle["net"]
    best = max(net.items(), key=lambda kv: kv[1], default=(None, 0))
    games, mus = [], []
    for game, gstate in zip(doc["games"], state.get("games") or []):
        kind = game.get("kind", "?")
        gstate = gstate if isinstance(gstate, dict) else {}
        result = ""
        try:
            if kind == "mus":
                result, info = _mus_result(gstate)
                if info:
                    mus.append(info)
            elif kind == "newmarket":
                result = _chip_result(gstate, "chips")
            elif kind == "desmoche":
                result = _chip_result(gstate, "units")
        except Exception:  # noqa: BLE001 - engines are young; a summary never fails a write
            result = ""
        games.append({"kind": kind, "title": _title(kind), "result": result})
    payments = settle.get("payments") or []
    paid = (doc.get("settle") or {}).get("paid") or []
    return {
        "started": doc.get("started"),
        "players": doc["players"],
        "kinds": [g["kind"] for g in doc["games"]],
        "biggest_winner": best[0] if best[1] > 0 else None,
        "biggest_win": best[1] if best[1] > 0 else 0,
        "currency": doc.get("currency"),
        "games": games,
        "mus": mus,
        "on_table": _int(settle.get("on_table")),
        "payments": len(payments),
        "settled": bool(payments) and all(p in paid for p in payments),
    }

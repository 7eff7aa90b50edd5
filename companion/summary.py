"""What the history list shows of a session, derived from its document and state. Pure."""
from __future__ import annotations

import unicodedata


def player_key(name: str) -> str:
    """Players are matched by name across sessions: case and accents do not matter (Iñaki = inaki)."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).strip()


def summarize(doc: dict, state: dict) -> dict:
    net = state["settle"]["net"]
    best = max(net.items(), key=lambda kv: kv[1], default=(None, 0))
    return {
        "started": doc.get("started"),
        "players": doc["players"],
        "kinds": [g["kind"] for g in doc["games"]],
        "biggest_winner": best[0] if best[1] > 0 else None,
        "biggest_win": best[1] if best[1] > 0 else 0,
        "currency": doc.get("currency"),
    }

"""The Mus scoring form's codec: a typed action <-> the form a phone posts (the button's ``move`` and the
fields typed or toggled beside it). Templates and page models write moves with ``encode`` (as ``mv``);
the route reads them with ``decode``; a refusal of the engine goes back beside the form field its action
field came from (``form_field``). One place knows both ends, so they cannot drift apart.

A move is ``type[:arg...]``: ``pass``, ``bet:A:2`` (``bet:A:2:call`` answered at once; ``bet:A`` with the
amount typed in ``amount_A``), ``more:5``, ``to`` (typed in ``to``), ``ordago[:A]``, ``call``, ``fold``,
``declare`` (toggles ``pares0``.. ``juego3``; ``lances``), ``showdown[:lance:team...]`` (or toggles
``win_<lance>``), ``rest[:lance:team...]`` (with what was held), ``cards:start`` or ``cards:showdown`` (``cards0``..),
``start`` (``mano``), ``tally`` (``tally`` JSON), ``adjust`` (``adjust_team``, ``adjust_points``,
``adjust_why``), ``scoring:<how>``. Pure (no Flask): a refused form's messages are message codes.
"""
from __future__ import annotations

import json
from dataclasses import MISSING, fields

from companion.domain import numbers
from companion.domain.errors import FormError
from companion.domain.messages import N_, define, msg
from companion.kinds.base import Action
from companion.kinds.mus import actions as A
from companion.kinds.mus import cards as C
from companion.kinds.mus.options import LANCES, TEAMS
from companion.kinds.mus.shape import MAX_WHY, TALLY_LANCES

define("mus.move", {       # the form's words (the same as every form's: one translation)
    "type": N_("Type %(what)s."),
    "number": N_("a whole number"),
    "int": N_("“%(text)s” is not %(what)s: use digits, like 3."),
    "between": N_("Must be between %(min)s and %(max)s."),
    "one": N_("Choose only one."),
})

MAX_TALLY = 30          # awards in one tally hand (a real hand has at most a dozen)

CONTROLS = ("start_hand", "pass", "bet", "raise", "ordago", "call", "fold", "declare", "showdown", "pass_rest",
            "tally", "adjust", "set_scoring")      # what the scoring form sends; corrections post a draft


def _winners(action) -> list[str]:
    return [x for L in LANCES if getattr(action, L, None) for x in (L, getattr(action, L))]


def encode(action: Action, seats: list[str] | None = None) -> tuple[str, dict]:
    """(move, fields): the button's value and the form fields that carry the rest of ``action``."""
    fields: dict = {}
    if isinstance(action, A.PassRest):       # a Showdown too: checked first
        move = ":".join(["rest", *_winners(action)])
        fields.update(_held_fields(action.pares_held, action.juego_held, seats))
    elif isinstance(action, A.Showdown):
        move = _cards(action, "showdown", seats, fields) or ":".join(["showdown", *_winners(action)])
    elif isinstance(action, A.Pass):
        move = "pass"
    elif isinstance(action, A.Bet):
        move = ":".join(str(x) for x in ("bet", action.team, action.amount, action.answer) if x is not None)
    elif isinstance(action, A.Raise):
        if action.more is not None:
            move = f"more:{action.more}"
        else:
            move, fields["to"] = "to", str(action.to)
    elif isinstance(action, A.Ordago):
        move = f"ordago:{action.team}" if action.team else "ordago"
    elif isinstance(action, A.Call):
        move = "call"
    elif isinstance(action, A.Fold):
        move = "fold"
    elif isinstance(action, A.Declare):
        move = "declare"
        keys = [k for k in ("pares", "juego") if getattr(action, k) is not None]
        fields["lances"] = ",".join(keys)
        fields.update(_held_fields(action.pares, action.juego, seats))
    elif isinstance(action, A.StartHand):
        move = _cards(action, "start", seats, fields) or "start"
        if action.mano and action.cards is None:
            fields["mano"] = action.mano
    elif isinstance(action, A.Tally):
        move = "tally"
        fields["tally"] = json.dumps([_tally_row(a) for a in action.awards or []])
    elif isinstance(action, A.Adjust):
        move = "adjust"
        fields.update({"adjust_team": action.team, "adjust_points": str(action.points)})
        if action.why:
            fields["adjust_why"] = action.why
    elif isinstance(action, A.SetScoring):
        move = f"scoring:{action.scoring}"
    else:
        raise ValueError(f"{action.TYPE} is not sent by the scoring form")
    return move, fields


def mv(type_: str, **args) -> str:
    """A button's value, for templates and page models: ``mv("bet", team="A", amount=2)``; what the
    form's fields carry (typed, toggled) may be left out."""
    cls = A.ACTIONS[type_]
    blank = {f.name: None for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING}
    return encode(cls(**{**blank, **args}))[0]


def _tally_row(award: dict) -> list:
    """A tally award as the form carries it: [team, points, lance?, why?]."""
    row = [award["team"], award["points"]]
    if award.get("lance") or award.get("why"):
        row.append(award.get("lance"))
    if award.get("why"):
        row.append(award["why"])
    return row


def _held_fields(pares, juego, seats) -> dict:
    out = {}
    for key, held in (("pares", pares), ("juego", juego)):
        for name, v in (held or {}).items():
            out[f"{key}{seats.index(name)}"] = str(v)
    return out


def _cards(action, then: str, seats, fields: dict) -> str | None:
    """``cards:<then>`` with the four hands in ``cards0``.. when the action carries cards, else None."""
    if action.cards is None:
        return None
    fields.update({f"cards{seats.index(name)}": hand for name, hand in action.cards.items()})
    return f"cards:{then}"


# ---------------------------------------------------------------------------------------------------
# form -> action

def read_int(form, name: str, errors: dict, *, minimum: int, maximum: int, required: bool = False):
    """A whole number typed in ``name`` within bounds, or a message in ``errors[name]`` (None)."""
    raw = form.get(name)
    text = raw.strip() if isinstance(raw, str) else ""
    if not text:
        if required:
            errors.setdefault(name, msg("mus.move.type", what=msg("mus.move.number")))
        return None
    try:                                    # the one number reader (companion/domain/numbers.py)
        return numbers.parse_int(text, minimum, maximum, signed=True)
    except numbers.NumberRefused as err:
        if err.reason == "not_int":
            errors.setdefault(name, msg("mus.move.int", text=text[:20], what=msg("mus.move.number")))
        else:
            errors.setdefault(name, msg("mus.move.between", min=minimum, max=maximum))
        return None


def only_one(form, name: str, errors: dict) -> str | None:
    """The single value of a radio field; two values (a crafted form) is an error, not a guess."""
    values = [v for v in form.getlist(name) if v != ""]
    if len(values) > 1:
        errors.setdefault(name, msg("mus.move.one"))
        return None
    return values[0] if values else None


def read_tally(raw: str | None) -> list[list]:
    """The awards of a tally in progress from the address (bad or oversized input: what parses)."""
    if not raw or len(raw) > 4096:
        return []
    try:
        data = json.loads(raw)
    except ValueError:
        return []
    out = []
    for a in data if isinstance(data, list) else []:
        if not (isinstance(a, list) and 2 <= len(a) <= 4 and a[0] in TEAMS and isinstance(a[1], int)
                and not isinstance(a[1], bool) and 1 <= a[1] <= 999):
            continue
        row = [a[0], a[1], a[2] if len(a) > 2 and a[2] in TALLY_LANCES else None]
        if len(a) > 3 and isinstance(a[3], str) and a[3].strip():
            row.append(" ".join(a[3].split())[:MAX_WHY])
        out.append(row)
    return out[:MAX_TALLY]


def dump_tally(awards: list[list]) -> str:
    return json.dumps(awards, ensure_ascii=False, separators=(",", ":"))


def tally_awards(awards: list[list]) -> list[dict]:
    """The Tally action's awards (the session file's shape)."""
    out = []
    for a in awards:
        row = {"team": a[0], "points": a[1]}
        if len(a) > 2 and a[2]:
            row["lance"] = a[2]
        if len(a) > 3 and a[3]:
            row["why"] = a[3]
        out.append(row)
    return out



def cards_from(form, seats: list[str]) -> dict:
    cards, errors = {}, {}
    for i, name in enumerate(seats):
        raw = (form.get(f"cards{i}") or "").strip()
        if not raw:
            errors[f"cards{i}"] = msg("mus.form.cards_needed", name=name)
        elif C.canon_hand(raw) is None:
            errors[f"cards{i}"] = msg("mus.form.cards_bad", text=raw[:12])
        else:
            cards[name] = C.canon_hand(raw)
    if errors:
        raise FormError(errors)
    return cards


def held_from(form, seats: list[str], errors: dict, keys=("pares", "juego")) -> dict:
    """What each player held, from the rows of toggles (``pares0``, ``juego2``...); absent: nothing."""
    fields = {}
    for key in keys:
        held = {}
        for i, name in enumerate(seats):
            v = only_one(form, f"{key}{i}", errors)
            if v in (None, "", "none"):
                continue
            held[name] = int(v) if key == "juego" and numbers.is_ascii_int(v) and len(v) < 4 else v
        fields[key] = held
    return fields


def _pairs(parts: list[str]) -> dict:
    return {L: team for L, team in zip(parts[1::2], parts[2::2]) if L in LANCES and team in TEAMS}


def _bet(form, parts, errors):
    team = parts[1] if len(parts) > 1 else ""
    if team not in TEAMS:
        raise FormError({"move": msg("mus.which_team")})
    if len(parts) > 2:
        amount = read_int({"a": parts[2]}, "a", errors, minimum=1, maximum=999)
    else:
        amount = read_int(form, f"amount_{team}", errors, minimum=1, maximum=999, required=True)
    if errors:
        raise FormError({f"amount_{team}": next(iter(errors.values()))})
    answer = parts[3] if len(parts) > 3 else None
    if answer not in (None, "call", "fold"):
        raise FormError({"move": msg("mus.form.not_a_move")})
    return A.Bet(team=team, amount=amount, answer=answer)


def _rest(form, parts, seats, errors):
    winners = {L: form.get(f"win_{L}") for L in ("pares", "juego") if form.get(f"win_{L}") in TEAMS}
    winners.update(_pairs(parts))
    held = held_from(form, seats, errors)
    if errors:
        raise FormError(errors)
    return A.PassRest(**winners, pares_held=held.get("pares"), juego_held=held.get("juego"))


def _adjust(form, parts, errors):
    team = form.get("adjust_team")
    if team not in TEAMS:
        errors["adjust_team"] = msg("mus.which_team")
    points = read_int(form, "adjust_points", errors, minimum=-999, maximum=999, required=True)
    if points == 0:
        errors["adjust_points"] = msg("mus.adjust_zero")
    why = " ".join((form.get("adjust_why") or "").split()) or None
    if errors:
        raise FormError(errors)
    return A.Adjust(team=team, points=points, why=why)


def _more(form, parts, errors):
    more = read_int({"m": parts[1] if len(parts) > 1 else ""}, "m", errors, minimum=1, maximum=999, required=True)
    if errors:
        raise FormError({"to": next(iter(errors.values()))})
    return A.Raise(more=more)


def _to(form, parts, errors):
    to = read_int(form, "to", errors, minimum=1, maximum=999, required=True)
    if errors:
        raise FormError(errors)
    return A.Raise(to=to)


def _declare(form, parts, seats, errors):
    keys = [k for k in (form.get("lances") or "pares,juego").split(",") if k in ("pares", "juego")]
    fields = held_from(form, seats, errors, keys)
    if errors:
        raise FormError(errors)
    return A.Declare(**fields)


def _showdown(form, parts):
    winners = {L: form.get(f"win_{L}") for L in LANCES if form.get(f"win_{L}") in TEAMS}
    winners.update(_pairs(parts))       # "showdown:chica:B", or from the two-lance grid two pairs
    return A.Showdown(**winners)


def _cards_read(form, parts, seats):
    cards = cards_from(form, seats)
    return A.Showdown(cards=cards) if len(parts) > 1 and parts[1] == "showdown" else A.StartHand(cards=cards)


def _start(form, seats):
    mano = form.get("mano") or None
    return A.StartHand(mano=mano if mano in seats else None)


def decode(form, seats: list[str]) -> Action:
    """One typed action from a scoring form; FormError {field: message} when it cannot be one."""
    parts = (form.get("move") or "").strip().split(":")
    errors: dict = {}
    readers = {
        "pass": lambda: A.Pass(),
        "bet": lambda: _bet(form, parts, errors),
        "rest": lambda: _rest(form, parts, seats, errors),
        "tally": lambda: A.Tally(awards=tally_awards(read_tally(form.get("tally")))),
        "adjust": lambda: _adjust(form, parts, errors),
        "scoring": lambda: A.SetScoring(scoring=parts[1] if len(parts) > 1 else ""),
        "more": lambda: _more(form, parts, errors),
        "to": lambda: _to(form, parts, errors),
        "ordago": lambda: A.Ordago(team=parts[1] if len(parts) > 1 and parts[1] in TEAMS else None),
        "call": lambda: A.Call(),
        "fold": lambda: A.Fold(),
        "declare": lambda: _declare(form, parts, seats, errors),
        "showdown": lambda: _showdown(form, parts),
        "cards": lambda: _cards_read(form, parts, seats),
        "start": lambda: _start(form, seats),
    }
    if parts[0] not in readers:
        raise FormError({"move": msg("mus.form.not_a_move")})
    return readers[parts[0]]()


def form_field(path: str, form, seats: list[str]) -> str:
    """The form field an action field (a refusal's path) came from, for the move the form sent; else the
    step's own place."""
    move = form.get("move") or ""
    kind = move.split(":")[0]
    if path.startswith("cards."):
        name = path[len("cards."):]
        return f"cards{seats.index(name)}" if name in seats else "cards"
    if path == "cards":
        return "cards"
    if path == "amount" and move.count(":") == 1:
        return f"amount_{move.split(':')[1]}"
    if path in ("to", "more") and move == "to":
        return "to"
    if kind == "rest":
        if path.startswith(("pares_held", "juego_held")):
            return path.split("_")[0]
        if path in ("pares", "juego"):
            return f"win_{path}"
    if kind == "adjust" and path in ("team", "points", "why"):
        return f"adjust_{path}"
    if kind == "tally":
        return "tally"
    return "step"


def typed_cards(form, seats: list[str]) -> dict | None:
    """The cards a refused form carried, to show them again as typed."""
    typed = {name: (form.get(f"cards{i}") or "")[:16] for i, name in enumerate(seats)}
    return typed if any(typed.values()) else None

"""Ratings: who plays best (leaderboards per game kind: all time, a date range, a club's nights), a
player's ratings page (rating over time, best partner, toughest opponent pair, a pair kind's figures),
head-to-head between two players, and the CSV exports of the leaderboard and a player's numbers.

The ratings are computed from every session of this server (the club's whole history: a rating is
only fair over all the games played), kept in the derived tables of ``companion.storage.ratings_store``.
A page lists only players this browser has met (in sessions it created or opened), or everyone with
the admin flag: nobody's name is shown to a phone that never sat with them.
"""
from __future__ import annotations

import csv
import functools
import io
import re
import unicodedata

from babel import numbers as bnum
from flask import Blueprint, Response, abort, redirect, request, url_for

from companion import kinds
from companion.web import security
from companion.domain import charts
from companion.record.csvexport import cell as _cell    # the one CSV cell escaper
from companion.storage import ratings_store as derived, reads
from companion.storage.db import get_db
from companion.domain.messages import N_, NP_, define, msg
from companion.ratings import rating as R
from companion.ratings.contests import pair_key, pairs_of, pairs_rated
from companion.record.session import player_key
from companion.web.common import render
from companion.web.forms import read_dates
from companion.web.i18n import MINUS, lang, number, renderer, t
from companion.web.sessions import is_admin

bp = Blueprint("ratings", __name__)

KINDS = tuple(kinds.KINDS)     # every kind the app knows is rated (Kind.contest says what it gives)
# the board opens on the kind played by pairs (its pairs' board too), else the first
FIRST = (kinds.pairs_kind() or next(iter(kinds.KINDS.values()))).name
BOARD_ROWS = 50
PAIR_ROWS = 20         # the pairs table: the best 20
PAIR_NUMBERS = 6       # a player's page: the numbers of the pairs with the most matches
MIN_TOGETHER = 3       # best partner / toughest pair: at least this many matches
MAX_NAME = 60
MAX_POINTS = 24       # the rating chart: at most this many months (else quarters)


class Visible:
    """Which players this browser may see: met in a session it opened (one indexed probe per player,
    stopping at the first session found), or all of them for the admin."""

    def __init__(self):
        self.admin = is_admin()
        self.browser = None if self.admin else security.browser_id()
        self.seen: dict[str, bool] = {}

    def __call__(self, key: str) -> bool:
        if self.admin:
            return True
        if key not in self.seen:
            self.seen[key] = reads.player_visible(get_db(), self.browser, key)
        return self.seen[key]

    def pair(self, key: str, members: tuple[str, str]) -> bool:
        return all(self(k) for k in members)


REFRESH_BUDGET = 3.0    # seconds a page spends bringing the ratings up to date before it says "wait"


class StillCounting(Exception):
    def __init__(self, left: int):
        self.left = left


def _refresh():
    """Bring the ratings up to date (the sessions written to since the last page: usually a few). A
    first build over years of history takes longer: the page then says so and reloads itself."""
    db = get_db()
    derived.refresh(db, REFRESH_BUDGET)
    left = derived.behind(db)
    if left is not None:
        raise StillCounting(left)


@bp.errorhandler(StillCounting)
def _still_counting(err: StillCounting):
    resp = render("ratings_wait.html", None, status=503, left=err.left)
    resp.headers["Retry-After"] = "3"
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _score(ordinal: float) -> str:
    """One decimal in the reader's notation (babel's formatter costs ~0.3 ms a number: a chart has
    hundreds, so the symbols are looked up once per language)."""
    dot, minus = _symbols(lang())
    text = f"{round(ordinal, 1) + 0.0:.1f}".removesuffix(".0")   # + 0.0: never "-0"
    return text.replace("-", minus).replace(".", dot)


@functools.lru_cache(maxsize=8)
def _symbols(code: str) -> tuple[str, str]:
    return bnum.get_decimal_symbol(code), MINUS     # the page's one minus sign (the scores' "−4")


def _kind_title(kind: str) -> str:
    return t(msg(kinds.KINDS[kind].title))


# ----------------------------------------------------------------------------------------------------
# Leaderboards
# ----------------------------------------------------------------------------------------------------

def _board_filters(args) -> tuple[dict, dict]:
    errors: dict[str, str] = {}
    kind = args.get("kind") or FIRST
    if kind not in KINDS:
        errors["kind"] = t(msg("rt.bad_kind"))
        kind = FIRST
    out = {"kind": kind, **read_dates(args, errors, "rt.bad_date", "rt.date_order"), "club": args.get("club") == "1",
           "q": " ".join((args.get("q") or "").split())[:MAX_NAME]}
    return out, errors


def _like(text: str) -> str:
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def board_rows(filters: dict) -> tuple[list[dict], list[dict]]:
    """(players, pairs) best first, as this browser may see them."""
    db = get_db()
    _refresh()
    kind = filters["kind"]
    seen = Visible()
    scoped = filters["from"] or filters["to"] or filters["club"] or filters["q"]
    if scoped:
        # "~" sorts after anything that follows the date in an ord ("T21:00…", "|"): the whole last day
        end = filters["to"] + "~" if filters["to"] else None
        found = derived.board_between(db, kind, filters["from"] or None, end, filters["club"],
                                      _like(filters["q"]) if filters["q"] else None)
        players, pairs = found.get(kind, []), found.get(pairs_of(kind), [])
    else:
        # the stored board, read best first until a page of visible players is found
        players = derived.board(db, kind, BOARD_ROWS * 10)
        pairs = derived.board(db, pairs_of(kind), BOARD_ROWS * 10, R.PAIR_MIN) if pairs_rated(kind) else []
    players = _first(players, BOARD_ROWS, lambda r: seen(r["key"]))
    pairs = _first(pairs, PAIR_ROWS, lambda r: r["n"] >= R.PAIR_MIN and seen.pair(r["key"], tuple(r["key"].split("|", 1))))
    for rows in (players, pairs):
        for i, r in enumerate(rows):
            r.update(rank=i + 1, score=_score(r["ordinal"]), provisional=r["n"] < R.PROVISIONAL)
    return players, pairs


def _first(rows: list[dict], count: int, keep) -> list[dict]:
    """The first ``count`` rows that ``keep`` accepts (the rest is never looked at)."""
    out = []
    for r in rows:
        if len(out) == count:
            break
        if keep(r):
            out.append(r)
    return out


@bp.get("/ratings")
def board():
    filters, errors = _board_filters(request.args)
    players, pairs = board_rows(filters)
    args = {k: v for k, v in (("kind", filters["kind"]), ("from", filters["from"]), ("to", filters["to"]),
                               ("club", "1" if filters["club"] else ""), ("q", filters["q"])) if v}
    resp = render("ratings.html", None, status=422 if errors else 200, filters=filters, errors=errors,
                  players=players, pairs=pairs, kinds=[(k, _kind_title(k)) for k in KINDS],
                  kind_title=_kind_title(filters["kind"]), csv_url=url_for("ratings.board_csv", **args),
                  provisional=R.PROVISIONAL, pair_min=R.PAIR_MIN, pair_words=_pair_words(filters["kind"]))
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _csv(rows: list[list], filename: str) -> Response:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    for row in rows:
        writer.writerow([_cell(v) for v in row])
    resp = Response("\ufeff" + buf.getvalue(), mimetype="text/csv")
    resp.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/ratings.csv")
def board_csv():
    filters, errors = _board_filters(request.args)
    if errors:
        return board()
    players, pairs = board_rows(filters)
    rows = [["board", "kind", "rank", "player", "rating", "mu", "sigma", "games", "provisional"]]
    for who, items in (("players", players), ("pairs", pairs)):
        for r in items:
            rows.append([who, filters["kind"], r["rank"], r["name"], round(r["ordinal"], 3), round(r["mu"], 3),
                         round(r["sigma"], 3), r["n"], "yes" if r["provisional"] else "no"])
    return _csv(rows, f"companion-ratings-{filters['kind']}.csv")


# ----------------------------------------------------------------------------------------------------
# A player's ratings page
# ----------------------------------------------------------------------------------------------------

FIGURES = (  # (figure, how many of what, rests on)
    ("envites", None, "hands"), ("accepted", "faced", "hands"), ("folds", None, "hands"),
    ("ordagos", None, "hands"), ("ordagos_accepted", None, "hands"), ("ordagos_won", "ordagos_seen", "hands"),
    ("pts_grande", None, "hands"), ("pts_chica", None, "hands"), ("pts_pares", None, "hands"),
    ("pts_juego", None, "hands"), ("games_from_dentro", "games", "games"), ("hands_per_game", None, "full_games"),
)


def _pair_words(kind: str | None = None) -> dict | None:
    """The ratings pages' sentences about a kind rated as pairs (``RatedPairs.words``: English templates the
    pages translate), the given kind's or the one that rates pairs; None: no such kind."""
    found = kinds.KINDS.get(kind) if kind else kinds.pairs_kind()
    return found.rated_pairs.words if found is not None and found.rated_pairs is not None else None


def numbers_rows(data: dict | None) -> list[dict]:
    """The figures of one player or pair (``RatedPairs.numbers``, summed), each with what it rests on."""
    if not data:
        return []
    out = []
    for fig, of, basis in FIGURES:
        if fig == "hands_per_game":
            games = data.get("full_games", 0)
            value = round(data.get("full_game_hands", 0) / games, 1) if games else None
        else:
            value = data.get(fig, 0)
        out.append({"figure": fig, "label": t(msg(f"rt.fig.{fig}")), "value": value,
                    "text": "—" if value is None else number(value),
                    "of": data.get(of, 0) if of else None, "basis": basis, "rests": data.get(basis, 0),
                    "rests_text": t(msg(f"rt.rests.{basis}", n=data.get(basis, 0)))})
    return out


def _pair_name(key: str, names: dict) -> str:
    return " & ".join(names.get(k, k) for k in key.split("|", 1))


def _rate(row: dict) -> float:
    return row["won"] / row["played"] if row["played"] else 0.0


def player_model(key: str, pair_numbers: int | None = PAIR_NUMBERS) -> dict | None:
    """Everything a player's ratings page shows (``pair_numbers``: how many pairs' figures; None: all)."""
    db = get_db()
    _refresh()
    seen = Visible()
    if not seen(key):
        return None
    name = derived.names(db, [key]).get(key)
    if name is None:
        return None
    ratings = []
    for kind in KINDS:
        r = derived.current(db, key).get(kind)
        if r:
            ratings.append({"kind": kind, "title": _kind_title(kind), "score": _score(r["ordinal"]),
                            "ordinal": r["ordinal"], "n": r["n"],
                            "provisional": r["n"] < R.PROVISIONAL, "rank": derived.rank_of(db, kind, r["ordinal"])})
    partners = [p for p in derived.stats(db, key, "partner") if seen(p["other"])]
    opp = [p for p in derived.stats(db, key, "opp_pair") if seen.pair(p["other"], tuple(p["other"].split("|", 1)))]
    keys = {p["other"] for p in partners} | {k for p in opp for k in p["other"].split("|", 1)}
    names = derived.names(db, keys | {key})
    for p in partners:
        p.update(name=names.get(p["other"], p["other"]), rate=_rate(p))
    for p in opp:
        p.update(name=_pair_name(p["other"], names), rate=_rate(p))
    partners.sort(key=lambda p: (-p["played"], names.get(p["other"], "")))
    ranked = [p for p in partners if p["played"] >= MIN_TOGETHER]
    best = max(ranked, key=lambda p: (p["rate"], p["played"]), default=None)
    tough = [p for p in opp if p["played"] >= MIN_TOGETHER]
    toughest = min(tough, key=lambda p: (p["rate"], -p["played"]), default=None)
    pairs = [{"key": pair_key(key, p["other"]), "name": f"{name} & {p['name']}",
              "numbers": numbers_rows(derived.pair_numbers(db, pair_key(key, p["other"])))}
             for p in partners[:pair_numbers]]
    return {"key": key, "name": name, "ratings": ratings, "partners": partners, "best": best,
            "toughest": toughest, "opponents": sorted(opp, key=lambda p: (-p["played"], p["name"]))[:10],
            "numbers": numbers_rows(derived.pair_numbers(db, key)), "pairs": [p for p in pairs if p["numbers"]],
            "words": _pair_words()}


def _rating_chart(key: str) -> str:
    """One line per game kind: the rating at the end of each month (of each quarter past two years of
    months: a chart of at most 24 points, whatever the length of the history)."""
    db = get_db()
    lines = {kind: derived.timeline(db, kind, key) for kind in KINDS}
    months = sorted({m for pts in lines.values() for m, _o, _n in pts})
    if not months:
        return ""
    by_quarter = len(months) > MAX_POINTS

    def period(month: str) -> str:   # a quarter is labelled by its last month
        if not by_quarter:
            return month
        y, m = month.split("-")
        return f"{y}-{(int(m) + 2) // 3 * 3:02d}"

    periods = sorted({period(m) for m in months})[-MAX_POINTS:]
    labels = [t(msg("chart.start"))] + periods
    series = []
    for kind, pts in lines.items():
        if not pts:
            continue
        at = {period(m): o for m, o, _n in pts}      # months in order: the period's last one wins
        values, last, started = [0.0], 0.0, False
        for p in periods:
            if p in at:
                last, started = at[p], True
            values.append(round(last, 2) if started else None)
        series.append({"name": _kind_title(kind), "values": values})
    title = msg("rt.chart_quarters") if by_quarter else msg("rt.chart_title")
    return charts.line_chart("rating-chart", t(title), labels, series, fmt=_score, say=t)


@bp.get("/ratings/players/<path:key>")
def player(key):
    clean = player_key(key)
    if not clean:
        abort(404)
    if clean != key:
        return redirect(url_for("ratings.player", key=clean), code=301)
    model = player_model(clean)
    if model is None:
        abort(404)
    resp = render("ratings_player.html", None, p=model, chart=_rating_chart(clean), min_together=MIN_TOGETHER,
                  provisional=R.PROVISIONAL)
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/ratings/players/<path:key>/numbers.csv")
def player_csv(key):
    model = player_model(player_key(key), pair_numbers=None)   # every pair in the file
    if model is None:
        abort(404)
    rows = [["subject", "figure", "value", "of", "rests_on", "basis"]]
    for subject, figures in [(model["name"], model["numbers"])] + [(p["name"], p["numbers"]) for p in model["pairs"]]:
        for f in figures:
            rows.append([subject, f["figure"], f["value"], f["of"], f["rests"], f["basis"]])
    for r in model["ratings"]:
        rows.append([model["name"], f"rating_{r['kind']}", round(r["ordinal"], 3), None, r["n"], "contests"])
    return _csv(rows, f"companion-numbers-{_slug(model['key'])}.csv")


def _slug(key: str) -> str:
    ascii_key = unicodedata.normalize("NFKD", key).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_key).strip("-")[:40] or "player"


# ----------------------------------------------------------------------------------------------------
# Head-to-head
# ----------------------------------------------------------------------------------------------------

@bp.get("/ratings/h2h")
def h2h():
    db = get_db()
    _refresh()
    seen = Visible()
    errors: dict[str, str] = {}
    raw = {f: " ".join((request.args.get(f) or "").split())[:MAX_NAME] for f in ("a", "b")}
    keys = {f: player_key(v) for f, v in raw.items()}
    for f in ("a", "b"):
        if raw[f] and not (keys[f] and seen(keys[f]) and derived.names(db, [keys[f]])):
            errors[f] = t(msg("rt.unknown_player", name=raw[f]))
    if not errors and keys["a"] and keys["a"] == keys["b"]:
        errors["b"] = t(msg("rt.same_player"))
    result = None
    if raw["a"] and raw["b"] and not errors:
        names = derived.names(db, [keys["a"], keys["b"]])
        found = derived.head_to_head(db, keys["a"], keys["b"])
        result = {"a": names[keys["a"]], "b": names[keys["b"]], "a_key": keys["a"], "b_key": keys["b"],
                  "rows": [{"what": w, "title": _kind_title(w[4:]) if w.startswith("h2h:") else _as_partners(),
                            **found[w]} for w in [f"h2h:{k}" for k in KINDS] + ["partner"] if w in found]}
    resp = render("ratings_h2h.html", None, status=422 if errors else 200, raw=raw, errors=errors, result=result)
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _as_partners() -> str:
    """The head-to-head row of two players as partners, in the pair kind's words."""
    words = _pair_words() or {}
    return renderer().gettext(words["as_partners"]) if words else ""


define("rt", {
    "bad_kind": N_("Choose one of the games offered."),
    "bad_date": N_("A date like %(example)s, please."),
    "date_order": N_("The end date is before the start date."),
    "unknown_player": N_("Nobody called “%(name)s” in the games you can see."),
    "same_player": N_("Choose two different players."),
    "chart_title": N_("Rating over time (month by month)"),
    "chart_quarters": N_("Rating over time (quarter by quarter)"),
    "fig.envites": N_("Envites made (bets and raises)"),
    "fig.accepted": N_("Envites accepted (the others' envites called)"),
    "fig.folds": N_("Folds"),
    "fig.ordagos": N_("Órdagos called"),
    "fig.ordagos_accepted": N_("Órdagos accepted"),
    "fig.ordagos_won": N_("Órdagos won (of those played out)"),
    "fig.pts_grande": N_("Points won at Grande"),
    "fig.pts_chica": N_("Points won at Chica"),
    "fig.pts_pares": N_("Points won at Pares"),
    "fig.pts_juego": N_("Points won at Juego or Punto"),
    "fig.games_from_dentro": N_("Games won with the others dentro"),
    "fig.hands_per_game": N_("Average hands per game"),
    "rests.hands": NP_("%(n)s hand with bids", "%(n)s hands with bids", "n"),
    "rests.games": NP_("%(n)s game won", "%(n)s games won", "n"),
    "rests.full_games": NP_("%(n)s game all with bids", "%(n)s games all with bids", "n"),
})

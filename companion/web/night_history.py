"""A past session, hand by hand: every game's groups (charts, rounds, moves with their reasons) in the
reader's words, and the session as CSV. Routes of the history blueprint (``history.session``,
``history.csv_export``: registered in ``history.py``)."""
from __future__ import annotations

from flask import Response

from companion import kinds
from companion.record import csvexport
from companion.domain import charts
from companion.domain.messages import N_, define, msg
from companion.record.session import player_key
from companion.web.common import open_session, render, unchanged_poll
from companion.web.i18n import renderer, t


def _chart(cid: str, chart: dict | None) -> str:
    """A kind's chart (messages) drawn as an SVG figure in the reader's words."""
    if not chart or len(chart["x_labels"]) < 2:
        return ""
    series = [{"name": s["name"], "values": s["values"], "color": s.get("color")}
              for s in chart["series"]]
    ref = chart.get("reference")
    return charts.line_chart(cid, t(chart["title"]), [t(x) for x in chart["x_labels"]], series,
                             reference={"value": ref["value"], "label": t(ref["label"])} if ref else None,
                             unit=t(chart.get("unit")), say=t)


def _moves(moves: list[dict]) -> list[dict]:
    """A round's moves in words. A team's points read "A +3"; chip movements into piles that come in a
    run of 3 or more (antes, stakes) become one line that opens on the individual reasons."""
    out: list[dict] = []
    run: list[dict] = []

    def flush():
        if len(run) >= 3:
            per: dict[str, int] = {}
            for m in run:
                per[m["from"]] = per.get(m["from"], 0) + m["amount"]
            piles = {m["to"] for m in run}
            where = csvexport.place_name(next(iter(piles)), renderer()) if len(piles) == 1 else t(msg("hist.the_piles"))
            out.append({"bundle": True, "amount": str(sum(per.values())),
                        "why": t(msg("hist.into", where=where, items=[f"{p} {n}" for p, n in per.items()])),
                        "moves": [{"amount": str(m["amount"]), "why": t(m["why"])} for m in run]})
        else:
            out.extend({"who": "", "cls": "", "amount": str(m["amount"]) if m["amount"] else "", "why": t(m["why"])}
                       for m in run)
        run.clear()

    for m in moves:
        if "team" in m:
            flush()
            out.append({"who": m["team"], "cls": f"team-{m['team'].lower()}", "why": t(m["why"]),
                        "amount": f"+{m['amount']}" if m["amount"] > 0 else str(m["amount"])})
        elif m.get("from") and not m["from"].startswith("@") and (m.get("to") or "").startswith("@"):
            run.append(m)
        else:
            flush()
            run.append(m)
            flush()
    flush()
    return out


def game_sections(view) -> list[dict]:
    sections = []
    for gi, rec in enumerate(view.session.games):
        kind = kinds.KINDS[rec.kind]
        groups = []
        for k, grp in enumerate(kind.history(rec)):
            groups.append({"title": t(grp["title"]) if grp.get("title") else None,
                           "chart": _chart(f"chart-{gi}-{k}", grp.get("chart")),
                           "rounds": [{"label": t(r["label"]), "meta": " · ".join(t(x) for x in r.get("meta", [])),
                                       "moves": _moves(r["moves"])} for r in grp["rounds"]]})
        sections.append({"index": gi, "title": t(msg("settle.game", n=gi + 1, title=msg(kind.title))),
                         "subtitle": ", ".join(kind.seats(rec.head)), "result": t(kind.summary(rec)),
                         "every": t(msg(f"hist.every.{kind.ledger_round}")), "groups": groups,
                         "empty": not len(rec.items)})
    return sections


def session(token):
    view = open_session(token)
    unchanged = unchanged_poll(view)
    if unchanged:
        return unchanged
    players = [{"name": p, "key": player_key(p)} for p in view.players if player_key(p)]
    return render("history_session.html", view, sections=game_sections(view), players=players)


def csv_export(token):
    view = open_session(token)
    body = "\ufeff" + csvexport.to_csv(view.session)  # the BOM lets spreadsheets read accents
    resp = Response(body, mimetype="text/csv")
    resp.headers["Content-Disposition"] = f'attachment; filename="companion-session-{view.id}.csv"'
    resp.headers["Cache-Control"] = "no-store"
    return resp


define("hist", {
    "the_piles": N_("the piles"),
    "into": N_("Into %(where)s: %(items)s"),
    "every.hand": N_("Every hand, with the reasons"),
    "every.deal": N_("Every deal, with the reasons"),
})

"""The pages' reads of the archive: the sessions a browser may list (its home page, the history, the
archive's zip), a player's sessions, the filters' indexes. The web modules say what they want (a
browser, filters, a page) and render rows; every SQL statement is here.

``browser`` None is the organizer's view (``--admin-token``): every session, each with its scoring link.
"""
from __future__ import annotations

import json

KEY_END = "\U0010ffff"  # key >= q AND key < q + KEY_END: a prefix match that uses the index


def scope(browser: str | None) -> tuple[str, list, str]:
    """(FROM ... WHERE clause, its parameters, the SQL giving the token and role to link with) for the
    sessions ``browser`` may list. An edit role counts only for the scoring link it opened: after the
    link is replaced, a browser that held the old one lists the session as a watcher."""
    if browser is None:
        return "FROM sessions s WHERE 1 = 1", [], "s.edit_token AS token, 'edit' AS role"
    edit = "b.role = 'edit' AND b.gen = s.edit_gen"
    return ("FROM browsers b JOIN sessions s ON s.id = b.session_id WHERE b.browser = ?", [browser],
            f"CASE WHEN {edit} THEN s.edit_token ELSE s.view_token END AS token,"
            f" CASE WHEN {edit} THEN 'edit' ELSE 'view' END AS role")


def my_sessions(db, browser: str | None, limit: int) -> list[dict]:
    """The newest sessions ``browser`` opened (its home page)."""
    where, params, link = scope(browser)
    rows = db.execute(f"SELECT s.id, s.name, s.started, {link}, s.summary {where}"
                      " ORDER BY s.started DESC, s.id DESC LIMIT ?", [*params, limit]).fetchall()
    return [{"id": r[0], "name": r[1], "started": r[2], "token": r[3], "role": r[4], "summary": json.loads(r[5])}
            for r in rows]


def _filtered(filters: dict) -> tuple[str, list]:
    sql, params = "", []
    if filters.get("key"):
        sql += (" AND s.id IN (SELECT sp.session_id FROM session_players sp"
                " WHERE sp.key >= ? AND sp.key < ?)")
        params += [filters["key"], filters["key"] + KEY_END]
    if filters.get("kind"):
        sql += " AND s.id IN (SELECT sk.session_id FROM session_kinds sk WHERE sk.kind = ?)"
        params.append(filters["kind"])
    if filters.get("from"):
        sql += " AND s.started >= ?"
        params.append(filters["from"])
    if filters.get("to"):
        sql += " AND s.started < ?"       # every time of that day (no date arithmetic: 9999-12-31 is a day)
        params.append(filters["to"] + KEY_END)
    return sql, params


def history_sql(browser: str | None, filters: dict, page: int, per_page: int) -> tuple[str, list, str, list]:
    """(page query, params, count query, params) of the history list (exposed for the EXPLAIN tests)."""
    where, params, link = scope(browser)
    more, wparams = _filtered(filters)
    # the page is chosen on narrow rows (id, date, link), then only its sessions' summaries are read
    rows = (f"SELECT s.id, s.name, s.started, s.summary, p.token, p.role FROM"
            f" (SELECT s.id AS id, s.started AS started, {link} {where}{more}"
            "  ORDER BY s.started DESC, s.id DESC LIMIT ? OFFSET ?) p"
            " JOIN sessions s ON s.id = p.id ORDER BY p.started DESC, p.id DESC")
    count = f"SELECT COUNT(*) {where}{more}"
    return rows, params + wparams + [per_page + 1, (page - 1) * per_page], count, params + wparams


def history_page(db, browser: str | None, filters: dict, page: int, per_page: int) -> tuple[list, int]:
    """(up to ``per_page + 1`` rows (id, name, started, summary, token, role), how many in all)."""
    sql, params, count_sql, count_params = history_sql(browser, filters, page, per_page)
    return db.execute(sql, params).fetchall(), db.execute(count_sql, count_params).fetchone()[0]


def archive_sessions(db, browser: str | None) -> list[tuple]:
    """(id, started, name) of every session ``browser`` may list, oldest first (the archive's zip)."""
    where, params, _link = scope(browser)
    return db.execute(f"SELECT s.id, s.started, s.name {where} ORDER BY s.started, s.id", params).fetchall()


def player_sql(browser: str | None, key: str) -> tuple[str, list]:
    """The player's visible sessions, oldest first, driven by ``session_players_by_key``. Only the
    summary's team games and currency are taken out of it (by the JSON functions: thousands of rows)."""
    cols = ("s.id, s.name, s.started, json_extract(s.summary, '$.teams'), {link}, sp.name, sp.net,"
            " json_extract(s.summary, '$.currency')")
    if browser is None:
        admin_cols = cols.format(link="s.edit_token, 'edit'")
        return (f"SELECT {admin_cols} FROM session_players sp"
                " JOIN sessions s ON s.id = sp.session_id WHERE sp.key = ? ORDER BY s.started, s.id", [key])
    edit = "b.role = 'edit' AND b.gen = s.edit_gen"
    link = f"CASE WHEN {edit} THEN s.edit_token ELSE s.view_token END, b.role"
    return (f"SELECT {cols.format(link=link)} FROM session_players sp"
            " JOIN browsers b ON b.session_id = sp.session_id AND b.browser = ?"
            " JOIN sessions s ON s.id = sp.session_id WHERE sp.key = ? ORDER BY s.started, s.id",
            [browser, key])


def player_sessions(db, browser: str | None, key: str) -> list[tuple]:
    sql, params = player_sql(browser, key)
    return db.execute(sql, params).fetchall()


def player_visible(db, browser: str, key: str) -> bool:
    """Whether ``browser`` opened any session the player played in (the ratings show only those)."""
    return db.execute("SELECT 1 FROM session_players sp JOIN browsers b ON b.session_id = sp.session_id"
                      " AND b.browser = ? WHERE sp.key = ? LIMIT 1", [browser, key]).fetchone() is not None


def explain(db, sql: str, params: list) -> list[str]:
    """SQLite's query plan, one line per step (for tests and the benchmark)."""
    return [row[3] for row in db.execute("EXPLAIN QUERY PLAN " + sql, params).fetchall()]


def browser_role(db, browser: str, session_id: int) -> tuple[str, int] | None:
    """(role, link generation) this browser has listed the session with, or None."""
    row = db.execute("SELECT role, gen FROM browsers WHERE browser = ? AND session_id = ?",
                     [browser, session_id]).fetchone()
    return (row[0], row[1]) if row else None


def link_version(conn, token: str) -> tuple[int, str] | None:
    """(version, Watch token) of the session a link opens: the live poll's one read on SQLite (a plain
    sqlite3 connection of the poll's thread; PostgreSQL's: ``postgres.version_of_link``)."""
    return conn.execute("SELECT version, view_token FROM sessions WHERE edit_token = ? OR view_token = ?",
                        (token, token)).fetchone()


def link_exists(db, token: str) -> bool:
    """Whether ``token`` opens a session (its scoring or its Watch link) or a club table (its scoring link):
    a valid link is no guess, whoever shares its address."""
    if db.execute("SELECT 1 FROM sessions WHERE edit_token = ? OR view_token = ?", [token, token]).fetchone():
        return True
    return db.execute("SELECT 1 FROM club_tables WHERE token = ?", [token]).fetchone() is not None

"""Helpers the tests share: act as a phone would (CSRF token, hidden form fields, a new session)."""
import html as htmllib
import re


def csrf(client) -> str:
    """The browser's CSRF token, as a form would carry it."""
    page = client.get("/").get_data(as_text=True)
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def form_fields(html: str, action: str | None = None) -> dict:
    """The hidden fields (csrf, k, v, at) of the first POST form (or the first posting to ``action``)."""
    forms = re.findall(r'<form([^>]*)action="([^"]*)"[^>]*>(.*?)</form>', html, re.S)
    for attrs, act, body in forms:
        if 'method="get"' in attrs:
            continue
        if action is None or act == action:
            return {k: htmllib.unescape(v) for k, v in
                    re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', body)}
    raise AssertionError(f"no form posting to {action!r}")


def new_session(client, players=("Ane", "Bea", "Carlos", "Dani"), name="Friday at Koldo's", currency="EUR"):
    """Start a session as a phone would; returns {'edit': '/s/<edit>', 'view': '/s/<view>'}."""
    data = {"csrf": csrf(client), "name": name, "currency": currency, "k": ""}
    for i, p in enumerate(players):
        data[f"p{i}"] = p
    resp = client.post("/new", data=data)
    assert resp.status_code == 303, resp.get_data(as_text=True)
    edit = resp.headers["Location"]
    page = client.get(edit).get_data(as_text=True)
    view = re.search(r'value="http://table\.example:8000(/s/[^"]+)" id="watch-link"', page).group(1)
    return {"edit": edit, "view": view}


def start_session(page, base, name="Friday at Koldo's", players=("Ane", "Bea", "Carlos", "Dani")):
    """Start a session through the home page as a new user would; returns the edit URL."""
    page.goto(base + "/")
    page.fill("input[name=name]", name)
    for i, p in enumerate(players):
        page.fill(f"input[name=p{i}]", p)
    page.click("button:has-text('Start the session')")
    page.wait_for_url("**/s/**")
    return page.url


def unchanged(resp) -> bool:
    """A live poll answered "nothing changed": empty, and htmx told to keep what it shows."""
    return resp.status_code == 200 and resp.get_data() == b"" and resp.headers.get("HX-Reswap") == "none"

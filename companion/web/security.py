"""CSRF tokens, the browser id cookie, and the security headers every response carries."""
from __future__ import annotations

import secrets

from flask import abort, g, request, session
from flask.sessions import SecureCookieSessionInterface

from companion.web.proxy import HSTS

CSRF_FIELD = "csrf"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'; "
       "manifest-src 'self'")


def csrf_token() -> str:
    """One token per browser, kept in the signed session cookie."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(32)
    return session["csrf"]


def same_secret(given, expected) -> bool:
    """Constant-time comparison that never raises (a non-ASCII value is simply wrong)."""
    if not isinstance(given, str) or not isinstance(expected, str) or not given or not expected:
        return False
    return secrets.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass"))


def check_csrf() -> None:
    """Every state-changing request must echo the token (form field, or header for htmx)."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    sent = request.form.get(CSRF_FIELD) or request.headers.get("X-CSRF-Token", "")
    if not same_secret(sent, session.get("csrf")):
        abort(400, description="error.csrf")     # a message code: the error page says it in the reader's words


def browser_id() -> str:
    """An anonymous id for 'the sessions this browser created or opened'."""
    if "browser" not in session:
        session["browser"] = secrets.token_urlsafe(16)
        session.permanent = True
    return session["browser"]


def rotate() -> None:
    """A new browser id and CSRF token (when the browser gains a privilege); the rest of the cookie goes."""
    session.clear()
    session["browser"] = secrets.token_urlsafe(16)
    session["csrf"] = secrets.token_urlsafe(32)
    session.permanent = True


def form_key() -> str:
    """An idempotency key for one rendered form: a double tap sends it twice, it lands once."""
    return secrets.token_urlsafe(16)


# every response's headers, in one place (Flask's responses and the live poll's fast path)
SECURITY_HEADERS = (("Content-Security-Policy", CSP), ("Referrer-Policy", "no-referrer"),   # tokens live in URLs
                    ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"))
# and a capability page's (its URL is a key: never indexed, never cached)
CAPABILITY_HEADERS = (("X-Robots-Tag", "noindex, nofollow"), ("Cache-Control", "no-store"))


def add_headers(response):
    h = response.headers
    for name, value in SECURITY_HEADERS:
        h.setdefault(name, value)
    if request.is_secure:       # https reached us (behind a proxy: it said so, see companion.web.proxy)
        h.setdefault("Strict-Transport-Security", HSTS)
    if getattr(g, "capability_page", False):
        (robots, never), cache = CAPABILITY_HEADERS
        h[robots] = never
        h.setdefault(*cache)
    return response


class SessionInterface(SecureCookieSessionInterface):
    """Cookies marked ``Secure`` whenever the page came over HTTPS (behind a proxy: ``--behind-proxy``)."""

    def get_cookie_secure(self, app) -> bool:
        return bool(app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure

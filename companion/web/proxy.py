"""One reverse proxy in front (TLS ends there): who the client is and which scheme it used.

Two layers must agree. The server (waitress) drops every ``X-Forwarded-*`` header unless the peer is the
trusted proxy, and then rewrites the client's address and scheme from them; the app (``ProxyFix``) reads
the same headers for one hop, so it sees the same values under any WSGI server. A client that talks to
the server directly cannot pretend to be someone else: its forwarded headers are cleared.

``--behind-proxy`` (env ``COMPANION_BEHIND_PROXY``) takes the proxy's address; alone (or ``1``/``true``/
``yes``) it means a proxy on this machine (127.0.0.1); ``*`` trusts any peer (only when the app's port is
reachable by the proxy alone, e.g. inside a container network).
"""
from __future__ import annotations

from werkzeug.middleware.proxy_fix import ProxyFix

LOOPBACK = "127.0.0.1"
FORWARDED = ("x-forwarded-for", "x-forwarded-proto")     # the client's address and scheme, nothing else
HSTS = "max-age=31536000"                                  # a year; no includeSubDomains: the domain is not ours


def trusted_proxy(value) -> str | None:
    """The proxy address to trust, from the option or the environment: None when not behind a proxy."""
    if value is None or value is False:
        return None
    if value is True:
        return LOOPBACK
    text = str(value).strip()
    if text.lower() in ("", "0", "false", "no", "off"):
        return None
    if text.lower() in ("1", "true", "yes", "on"):
        return LOOPBACK
    return text


def proxy_settings(behind_proxy) -> dict:
    """waitress's keyword arguments for ``behind_proxy`` (an address, True, or None/False)."""
    proxy = trusted_proxy(behind_proxy)
    if proxy is None:
        return {"clear_untrusted_proxy_headers": True}
    return {"trusted_proxy": proxy, "trusted_proxy_count": 1, "trusted_proxy_headers": set(FORWARDED),
            "clear_untrusted_proxy_headers": True}


def wrap(wsgi_app, proxy: str = LOOPBACK):
    """The app's side: one hop of X-Forwarded-For and X-Forwarded-Proto, believed only from ``proxy``
    (waitress has already applied and dropped them by then; gunicorn passes every peer's through)."""
    fixed = ProxyFix(wsgi_app, x_for=1, x_proto=1)

    def from_the_proxy_only(environ, start_response):
        if proxy != "*" and environ.get("REMOTE_ADDR") != proxy:
            for name in [k for k in environ if k.startswith("HTTP_X_FORWARDED_")]:
                del environ[name]
        return fixed(environ, start_response)

    return from_the_proxy_only

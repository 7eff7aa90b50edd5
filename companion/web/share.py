"""Where other phones can reach this server, and QR codes for it (inline SVG, terminal text)."""
from __future__ import annotations

import ipaddress
import socket
import struct

import qrcode
from functools import lru_cache

SIOCGIFADDR = 0x8915


def _interface_addresses() -> list[str]:
    """IPv4 addresses of this machine's interfaces, read locally (no packet is sent)."""
    found: list[str] = []
    try:
        import fcntl

        for _, ifname in socket.if_nameindex():
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                try:
                    packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", ifname[:15].encode()))
                except OSError:
                    continue
                found.append(socket.inet_ntoa(packed[20:24]))
    except (ImportError, OSError):
        pass
    try:
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        pass
    return found


_lan: list = [0.0, None]


def lan_address() -> str | None:
    """The LAN address, looked up at most once a minute (every session page shows it)."""
    import time

    if time.monotonic() - _lan[0] > 60:
        _lan[:] = [time.monotonic(), _find_lan_address()]
    return _lan[1]


def _find_lan_address() -> str | None:
    """The best address for other phones on the same network: private LAN first, then any other
    non-loopback address; None when only loopback exists."""
    candidates = []
    for addr in dict.fromkeys(_interface_addresses()):
        ip = ipaddress.ip_address(addr)
        if ip.is_loopback or ip.is_link_local or ip.is_unspecified:
            continue
        candidates.append((0 if ip.is_private else 1, addr))
    return min(candidates)[1] if candidates else None


def base_url(configured: str | None, bound_host: str | None, port: int | None) -> tuple[str, str | None]:
    """(base URL for links and QR codes, why other phones cannot reach it or None).

    Never the request's Host header (anyone can write one): the configured public address; else the
    LAN address of this machine with the port the server listens on. When the server listens on
    loopback only, or no network address exists, the links still work here and the page says why they
    will not on other phones."""
    if configured:
        return configured.rstrip("/"), None
    suffix = f":{port}" if port and port != 80 else ""
    if bound_host and (bound_host in ("localhost", "::1") or bound_host.startswith("127.")):
        return f"http://127.0.0.1{suffix}", "loopback"
    lan = lan_address()
    if lan:
        return f"http://{lan}{suffix}", None
    return f"http://127.0.0.1{suffix}", "no_network"


def _matrix(data: str) -> list[list[bool]]:
    qr = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(data)
    qr.make(fit=True)
    return qr.get_matrix()


@lru_cache(maxsize=128)
def qr_svg(data: str, label: str = "QR code") -> str:
    """A compact inline SVG: one path of horizontal runs, dark on a white quiet zone (in any theme)."""
    m = _matrix(data)
    n = len(m)
    runs = []
    for y, row in enumerate(m):
        x = 0
        while x < n:
            if row[x]:
                start = x
                while x < n and row[x]:
                    x += 1
                runs.append(f"M{start} {y}h{x - start}v1h-{x - start}z")
            else:
                x += 1
    safe_label = label.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
    return (f'<svg class="qr" viewBox="0 0 {n} {n}" role="img" aria-label="{safe_label}" '
            f'xmlns="http://www.w3.org/2000/svg" shape-rendering="crispEdges">'
            f'<rect width="{n}" height="{n}" fill="#fff"/><path fill="#000" d="{"".join(runs)}"/></svg>')


def qr_text(data: str) -> str:
    """The QR code drawn with half-block characters for a terminal (two rows a line)."""
    m = _matrix(data)
    if len(m) % 2:
        m.append([False] * len(m[0]))
    lines = []
    for top, bottom in zip(m[0::2], m[1::2]):
        # dark modules as spaces on a light block: readable on dark and light terminals alike
        line = "".join({(False, False): "█", (True, False): "▄", (False, True): "▀", (True, True): " "}[(t, b)]
                       for t, b in zip(top, bottom))
        lines.append(line)
    return "\n".join(lines)

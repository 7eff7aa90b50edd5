"""Where other phones can reach this server, and QR codes for it (inline SVG, terminal text)."""
from __future__ import annotations

import ipaddress
import socket
import struct

import qrcode

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


def lan_address() -> str | None:
    """The best address for other phones on the same network: private LAN first, then any other
    non-loopback address; None when only loopback exists."""
    candidates = []
    for addr in dict.fromkeys(_interface_addresses()):
        ip = ipaddress.ip_address(addr)
        if ip.is_loopback or ip.is_link_local or ip.is_unspecified:
            continue
        candidates.append((0 if ip.is_private else 1, addr))
    return min(candidates)[1] if candidates else None


def base_url(configured: str | None, request_host_url: str, request_host: str, port: int | None) -> tuple[str, bool]:
    """(base URL for links in QR codes, whether it is loopback only and deserves a warning).

    Order: COMPANION_BASE_URL; else the address this request came in on when it is not loopback (that
    phone reached us, so others can); else the LAN address; else loopback, with a warning."""
    if configured:
        return configured.rstrip("/"), False
    host = request_host.rsplit(":", 1)[0].strip("[]")
    if host not in ("localhost", "127.0.0.1", "::1") and not host.startswith("127."):
        return request_host_url.rstrip("/"), False
    lan = lan_address()
    if lan:
        return (f"http://{lan}:{port}" if port and port != 80 else f"http://{lan}"), False
    return request_host_url.rstrip("/"), True


def _matrix(data: str) -> list[list[bool]]:
    qr = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(data)
    qr.make(fit=True)
    return qr.get_matrix()


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

"""Draw Companion's icons: static/icons/{icon.svg, icon-192.png, icon-512.png, icon-maskable-512.png,
apple-touch-icon.png, favicon.ico}. Run from the repository root: ``python tools/make_icons.py``; commit
what it writes (the app serves the files, it never draws them).

Pure Python (zlib + struct): no Pillow, which the app must not depend on. The design is a white "C" with
a stone in its mouth on the header's green; every pixel's coverage comes from the signed distance to each
shape, which gives one pixel of anti-aliasing at every size (16 px included) with one sample per pixel.
The output is deterministic: running it again gives the same bytes.
"""
from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

GREEN = (0x1F, 0x6B, 0x47)  # static/app.css --felt: the header bar (.bar) in the light theme
WHITE = (0xFF, 0xFF, 0xFF)

# Geometry on a unit square, centre (0.5, 0.5). Everything white stays within 0.34 of the centre, inside
# the maskable safe zone (a circle of radius 0.4), so launchers may crop the maskable icon to any shape.
CORNER = 0.2           # rounded square's corner radius (the "any" icons; maskable/apple are full squares)
ARC_C = (0.46, 0.5)    # the C: an arc with round ends, open to the right
ARC_R = 0.235
ARC_W = 0.15           # stroke width: about 2 px at 16 px
ARC_OPEN = 50          # degrees either side of the opening (pointing right)
STONE_C = (0.76, 0.5)
STONE_R = 0.1


# --- signed distances (negative inside), in unit-square coordinates ------------------------------------

def _rounded_square(x: float, y: float, radius: float) -> float:
    qx = abs(x - 0.5) - (0.5 - radius)
    qy = abs(y - 0.5) - (0.5 - radius)
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - radius


def _arc(x: float, y: float) -> float:
    dx, dy = x - ARC_C[0], y - ARC_C[1]
    angle = math.degrees(math.atan2(dy, dx))  # 0 = pointing right, the opening
    if abs(angle) >= ARC_OPEN:
        d = abs(math.hypot(dx, dy) - ARC_R)
    else:  # beside the opening: distance to the nearer round end
        end = math.radians(ARC_OPEN if angle >= 0 else -ARC_OPEN)
        d = math.hypot(dx - ARC_R * math.cos(end), dy - ARC_R * math.sin(end))
    return d - ARC_W / 2


def _stone(x: float, y: float) -> float:
    return math.hypot(x - STONE_C[0], y - STONE_C[1]) - STONE_R


def _coverage(distance: float, pixel: float) -> float:
    """How much of a pixel a shape covers, from the signed distance at its centre (a 1 px ramp)."""
    return min(1.0, max(0.0, 0.5 - distance / pixel))


def render(size: int, corner: float | None) -> bytes:
    """RGBA rows of the icon at ``size`` px: ``corner`` None draws a full square (no transparency)."""
    pixel = 1.0 / size
    out = bytearray()
    for j in range(size):
        y = (j + 0.5) * pixel
        out.append(0)  # PNG filter type 0 (None) for this row
        for i in range(size):
            x = (i + 0.5) * pixel
            base = 1.0 if corner is None else _coverage(_rounded_square(x, y, corner), pixel)
            if base == 0.0:
                out += b"\0\0\0\0"
                continue
            ink = max(_coverage(_arc(x, y), pixel), _coverage(_stone(x, y), pixel))
            rgb = (round(g + (w - g) * ink) for g, w in zip(GREEN, WHITE, strict=True))
            out += bytes((*rgb, round(255 * base)))
    return bytes(out)


def png(size: int, corner: float | None) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8 bits, RGBA, no interlace
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(render(size, corner), 9)) + chunk(b"IEND", b""))


def ico(images: list[tuple[int, bytes]]) -> bytes:
    """An ICO file holding PNG images (Windows Vista+ and every browser read PNG entries)."""
    head = struct.pack("<HHH", 0, 1, len(images))
    offset = len(head) + 16 * len(images)
    entries, blobs = b"", b""
    for size, data in images:
        # width/height 0 means 256; planes 1, 32 bits per pixel
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(data), offset + len(blobs))
        blobs += data
    return head + entries + blobs


def svg() -> str:
    def n(v: float) -> str:
        return f"{v * 512:.1f}".rstrip("0").rstrip(".")

    a = math.radians(ARC_OPEN)
    start = (ARC_C[0] + ARC_R * math.cos(a), ARC_C[1] - ARC_R * math.sin(a))
    end = (ARC_C[0] + ARC_R * math.cos(a), ARC_C[1] + ARC_R * math.sin(a))
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">'
        "<title>Companion</title>"
        f'<rect width="512" height="512" rx="{n(CORNER)}" fill="#{bytes(GREEN).hex()}"/>'
        # from the upper end, the long way round (large arc, counter-clockwise) to the lower end
        f'<path d="M{n(start[0])} {n(start[1])}A{n(ARC_R)} {n(ARC_R)} 0 1 0 {n(end[0])} {n(end[1])}" '
        f'fill="none" stroke="#fff" stroke-width="{n(ARC_W)}" stroke-linecap="round"/>'
        f'<circle cx="{n(STONE_C[0])}" cy="{n(STONE_C[1])}" r="{n(STONE_R)}" fill="#fff"/>'
        "</svg>\n")


def files() -> dict[str, bytes]:
    return {
        "icon.svg": svg().encode(),
        "icon-192.png": png(192, CORNER),
        "icon-512.png": png(512, CORNER),
        "icon-maskable-512.png": png(512, None),  # full bleed: the launcher cuts its own shape
        "apple-touch-icon.png": png(180, None),   # iOS rounds the corners and shows transparency as black
        "favicon.ico": ico([(16, png(16, CORNER)), (32, png(32, CORNER)), (48, png(48, CORNER))]),
    }


def main(argv: list[str]) -> int:
    target = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent / "static" / "icons"
    target.mkdir(parents=True, exist_ok=True)
    for name, data in files().items():
        (target / name).write_bytes(data)
        print(f"{target / name} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

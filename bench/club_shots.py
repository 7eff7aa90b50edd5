"""The README's club night pictures: the sala at 1920x1080 and 1024x768, and a page of table cards
printed to PDF (Chromium's page.pdf) and rasterised with pdftoppm.

    python bench/club_shots.py docs/
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from club_demo import write_db  # noqa: E402

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")


def serve(db: str) -> tuple[str, object]:
    from waitress.server import create_server

    from companion import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    server = create_server(create_app({"DATABASE": db, "BASE_URL": base}), host="127.0.0.1", port=port, threads=8)
    threading.Thread(target=server.run, daemon=True).start()
    return base, server


def main(out: str) -> None:
    from playwright.sync_api import sync_playwright

    tmp = tempfile.mkdtemp()
    db = os.path.join(tmp, "club.db")
    night = write_db(db)
    base, server = serve(db)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
        for w, h in ((1920, 1080), (1024, 768)):
            ctx = b.new_context(viewport={"width": w, "height": h})
            page = ctx.new_page()
            page.goto(f"{base}/s/{night['view']}/sala")
            page.wait_for_selector(".tbl")
            page.screenshot(path=os.path.join(out, f"sala-{w}x{h}.png"))
            ctx.close()
        ctx = b.new_context()
        page = ctx.new_page()
        page.goto(f"{base}/s/{night['edit']}/club/cards")
        pdf = os.path.join(tmp, "cards.pdf")
        page.pdf(path=pdf, format="A4", print_background=True, prefer_css_page_size=True)
        ctx.close()
        b.close()
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", pdf, os.path.join(out, "table-cards")],
                   check=True)
    os.replace(os.path.join(out, "table-cards-01.png") if os.path.exists(os.path.join(out, "table-cards-01.png"))
               else os.path.join(out, "table-cards-1.png"), os.path.join(out, "table-cards.png"))
    server.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs")

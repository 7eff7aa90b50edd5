"""Real servers on loopback for the tests: a free port, Debian's nginx, waiting for a process to answer."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)


def nginx_conf(tmp, servers: str, connections: int = 256) -> str:
    """An nginx configuration in the foreground, everything it writes in ``tmp``; ``servers``: its
    ``upstream`` and ``server`` blocks."""
    temp = "".join(f"    {kind}_temp_path {tmp}/{kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return (f"daemon off;\nmaster_process off;\npid {tmp}/nginx.pid;\nerror_log {tmp}/error.log warn;\n"
            f"events {{ worker_connections {connections}; }}\nhttp {{\n    access_log off;\n{temp}{servers}\n}}\n")


def nginx_folders(tmp) -> None:
    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        os.makedirs(os.path.join(str(tmp), kind), exist_ok=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(check, what: str, proc: subprocess.Popen, timeout: float = 60) -> None:
    """Until ``check()`` holds (the machine is busy: no fixed sleep decides anything)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"{what} exited: {proc.returncode}")
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"{what} did not start")

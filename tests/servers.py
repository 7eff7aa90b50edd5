"""Real servers on loopback for the tests: a free port, Debian's nginx, waiting for a process to answer."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)


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

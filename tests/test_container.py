"""The Dockerfile builds and runs under podman (issue 21): as a non-root user, with the database on a
volume that outlives the container.

Skipped only when no container engine can run here. Registries other than Debian's and PyPI cannot be
reached from these machines, so when the default base image cannot be pulled, a Debian bookworm base
(python3, python3-venv) is built with mmdebstrap from Debian's archive and imported (kept for the next
run); the app's wheels are built on the host (pip wheel) and installed offline in the image.
"""
from __future__ import annotations

import http.client
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE = shutil.which("podman") or shutil.which("docker")
DEFAULT_BASE = "docker.io/library/python:3.11-slim"
LOCAL_BASE = "localhost/companion-base:bookworm"
MIRRORS = ["deb http://deb.debian.org/debian bookworm main",
           "deb http://deb.debian.org/debian-security bookworm-security main"]


def run(*args, timeout=600, check=True, **kw):
    return subprocess.run([ENGINE, *args], capture_output=True, text=True, timeout=timeout, check=check, **kw)


def engine_works() -> str | None:
    if not ENGINE:
        return "no container engine (podman or docker) is installed"
    try:
        info = run("info", timeout=120, check=False)
    except subprocess.TimeoutExpired:
        return f"{ENGINE} info timed out"
    return None if info.returncode == 0 else f"{ENGINE} cannot run here: {info.stderr.strip()[:200]}"


def base_image(tmp: Path) -> str:
    """The default base if it is here or can be pulled, else a Debian base built from Debian's archive."""
    for image in (os.environ.get("COMPANION_BASE_IMAGE"), DEFAULT_BASE, LOCAL_BASE):
        if image and run("image", "exists", image, check=False).returncode == 0:
            return image
    if run("pull", DEFAULT_BASE, timeout=120, check=False).returncode == 0:
        return DEFAULT_BASE
    mmdebstrap = shutil.which("mmdebstrap")
    if not mmdebstrap or os.geteuid() != 0:
        pytest.skip(f"{DEFAULT_BASE} cannot be pulled and mmdebstrap (as root) is not here to build a base")
    tar = tmp / "base.tar"
    made = subprocess.run([mmdebstrap, "--variant=minbase", "--include=python3,python3-venv,passwd", "--mode=root",
                           "bookworm", str(tar), *MIRRORS], capture_output=True, text=True, timeout=1800)
    if made.returncode != 0:
        pytest.skip(f"no base image: {DEFAULT_BASE} cannot be pulled and mmdebstrap failed: {made.stderr[-300:]}")
    run("import", "--change", "CMD [\"/bin/bash\"]", str(tar), LOCAL_BASE, timeout=600)
    tar.unlink()
    return LOCAL_BASE


# how to run a container on this machine, tried in turn: the engine's defaults; then runc (crun refuses a
# cgroup v1/v2 "hybrid" host) with rlimits no higher than ours (no CAP_SYS_RESOURCE in a sandbox)
LIMITS = ["--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096"]
WAYS = [[], ["--runtime", "runc", *LIMITS], ["--runtime", "crun", "--cgroups=disabled", *LIMITS]]


def way_to_run(base: str) -> list[str]:
    """The run/build options that start a container here; skips (with every reason) when none does."""
    why = []
    for way in WAYS:
        if "runc" in way and not shutil.which("runc"):
            continue
        probe = run("run", "--rm", "--network", "host", *way, base, "python3", "-c", "print('ok')", check=False,
                    timeout=300)
        if probe.returncode == 0 and probe.stdout.strip() == "ok":
            return way
        why.append(f"{' '.join(way) or 'defaults'}: {probe.stderr.strip()[-160:]}")
    pytest.skip("no container can start here: " + " | ".join(why))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(port: int, method: str, path: str, body: str | None = None, cookie: str = ""):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Cookie": cookie} if cookie else {}
    if body is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    try:
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        return resp, resp.read().decode()
    finally:
        conn.close()


def wait_healthy(port: int, name: str, timeout: float = 120) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if fetch(port, "GET", "/healthz")[0].status == 200:
                return
        except OSError:
            pass
        state = run("inspect", "--format", "{{.State.Status}}", name, check=False).stdout.strip()
        if state in ("exited", "stopped"):
            raise AssertionError(f"the container stopped: {run('logs', name, check=False).stderr[-2000:]}")
        time.sleep(0.2)
    raise AssertionError(f"no answer: {run('logs', name, check=False).stderr[-2000:]}")


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    why = engine_works()
    if why:
        pytest.skip(why)
    tmp = tmp_path_factory.mktemp("container")
    base = base_image(tmp)
    way = way_to_run(base)
    ctx = tmp / "ctx"
    ctx.mkdir()
    for name in ("Dockerfile", ".dockerignore", "pyproject.toml", "README.md", "babel.cfg"):
        shutil.copy(ROOT / name, ctx / name)
    for name in ("companion", "templates", "static"):
        shutil.copytree(ROOT / name, ctx / name, ignore=shutil.ignore_patterns("__pycache__"))
    # the app and its dependencies as wheels, made here (PyPI is reachable from the host, maybe not from
    # inside a build): the image is built without a network
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "-w", str(ctx / "wheels"), str(ROOT)],
                   check=True, capture_output=True, timeout=900)
    tag = f"localhost/companion-test:{uuid.uuid4().hex[:8]}"
    build_way = [w for w in way if w != "--cgroups=disabled"]
    built = run("build", "--network", "none", *build_way, "--build-arg", f"BASE={base}", "-t", tag, str(ctx), timeout=1800,
                check=False)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    yield tag, way
    run("rmi", "-f", tag, check=False)


def test_the_image_runs_as_a_non_root_user_with_the_database_on_a_volume(image):
    image, way = image
    assert run("image", "inspect", "--format", "{{.Config.User}}", image).stdout.strip() == "companion"
    volume = f"companion-test-{uuid.uuid4().hex[:8]}"
    run("volume", "create", volume)
    names = []
    try:
        port = free_port()
        first = f"companion-a-{uuid.uuid4().hex[:6]}"
        names.append(first)
        # host networking: no port mapping needed (rootful podman in a sandbox may have no bridge)
        run("run", "-d", "--name", first, "--network", "host", *way, "-v", f"{volume}:/data", image,
            "companion", "serve", "--host", "127.0.0.1", "--port", str(port))
        wait_healthy(port, first)
        assert run("exec", first, "id", "-u").stdout.strip() != "0"
        resp, page = fetch(port, "GET", "/")
        cookie = resp.headers["Set-Cookie"].split(";", 1)[0]
        token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
        resp, _ = fetch(port, "POST", "/new", urlencode({"csrf": token, "name": "Container night", "p0": "Ane",
                                                        "p1": "Bea", "k": ""}), cookie)
        assert resp.status == 303
        edit = re.sub(r"^https?://[^/]+", "", resp.headers["Location"])
        owner = run("exec", first, "stat", "-c", "%U %a", "/data/companion.db").stdout.split()
        assert owner[0] == "companion"
        run("stop", "-t", "10", first)
        # a new container on the same volume still has the night
        second = f"companion-b-{uuid.uuid4().hex[:6]}"
        names.append(second)
        port = free_port()
        run("run", "-d", "--name", second, "--network", "host", *way, "-v", f"{volume}:/data", image,
            "companion", "serve", "--host", "127.0.0.1", "--port", str(port))
        wait_healthy(port, second)
        resp, page = fetch(port, "GET", edit)
        assert resp.status == 200 and "Container night" in page
    finally:
        for name in names:
            run("rm", "-f", name, check=False)
        run("volume", "rm", "-f", volume, check=False)

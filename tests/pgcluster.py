"""A throwaway PostgreSQL cluster for the tests: Debian's ``postgresql`` binaries (``.ci/run`` installs
them), a data folder in /tmp, a Unix socket only (no TCP port), stopped when the tests end. As root,
the server runs as the ``postgres`` user (PostgreSQL refuses to run as root).

``COMPANION_TEST_PG`` (a ``postgresql://`` URL) uses a server you already run instead.
"""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid


def binaries() -> str | None:
    """The newest installed PostgreSQL's bin folder, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    return os.path.dirname(found[-1]) if found else None


class Cluster:
    def __init__(self, durable: bool = False):
        self.url = os.environ.get("COMPANION_TEST_PG")
        self.folder = None
        if self.url:
            return
        bin_dir = binaries()
        if bin_dir is None:
            raise RuntimeError("PostgreSQL not installed (Debian: apt-get install postgresql)")
        self.bin = bin_dir
        self.folder = tempfile.mkdtemp(prefix="companion-pg-")
        self.as_user = []
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        data = os.path.join(self.folder, "data")
        self._run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8")
        # a throwaway: no fsync (nothing here outlives the tests); room for every test's pools
        # (``durable``: as a real server, every acknowledged commit survives a crash: the fault tests)
        quick = "" if durable else " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        options = f"-k {self.folder} -c listen_addresses=''{quick} -c max_connections=300"
        self._run("pg_ctl", "-D", data, "-o", options, "-l", os.path.join(self.folder, "log"), "-w", "start")
        subprocess.run([os.path.join(self.bin, "createdb"), "-h", self.folder, "-U", "postgres", "companion"],
                       check=True, capture_output=True)
        self.url = f"postgresql:///companion?host={self.folder}&user=postgres"

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.as_user, os.path.join(self.bin, tool), *args], check=True, capture_output=True,
                       cwd=self.folder)

    def new_schema(self) -> str:
        """A fresh, empty schema; the URL that uses it."""
        import psycopg

        from companion.storage.postgres import with_schema

        name = "t_" + uuid.uuid4().hex[:16]
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        # its connections carry its name: ``drop`` ends those a test's app left open (pools are per app)
        return with_schema(self.url, name) + f"&application_name={name}"

    def drop(self, url: str) -> None:
        import psycopg

        schema = url.rsplit("search_path%3D", 1)[1].split("&", 1)[0]
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s"
                         " AND pid <> pg_backend_pid()", [schema])
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")

    def restart(self, mode: str = "fast") -> None:
        """``pg_ctl restart -m fast|immediate``: every connection is cut (immediate: no clean shutdown,
        crash recovery at start), the server is back when this returns."""
        data = os.path.join(self.folder, "data")
        self._run("pg_ctl", "-D", data, "-m", mode, "-l", os.path.join(self.folder, "log"), "-w", "restart")

    def backends(self) -> list[int]:
        """The pids of the clients' backends (the app's connections), this one's excepted."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            return [r[0] for r in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend'"
                " AND pid <> pg_backend_pid()").fetchall()]

    def terminate_backends(self) -> int:
        """``pg_terminate_backend`` on every client's backend: what an administrator or a failover does."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            return len(conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE backend_type ="
                                    " 'client backend' AND pid <> pg_backend_pid()").fetchall())

    def stop(self) -> None:
        if self.folder is None:
            return
        subprocess.run([*self.as_user, os.path.join(self.bin, "pg_ctl"), "-D", os.path.join(self.folder, "data"),
                        "-m", "immediate", "-w", "stop"], capture_output=True, cwd=self.folder)
        shutil.rmtree(self.folder, ignore_errors=True)

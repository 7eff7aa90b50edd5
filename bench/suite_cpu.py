"""The CPU a test run costs, whatever else the machine is doing (issue 27.5).

    python bench/suite_cpu.py .venv/bin/python -m pytest -q -p no:cacheprovider -n 2 -m "not browser and not postgres"

Wall time on a shared machine says little; CPU seconds say what the run needs. Counted: the command and
every process it waits for (xdist workers, Playwright's driver and Chromium, servers the tests start), from
the kernel's rusage of reaped children; plus the PostgreSQL clusters the tests start, which daemonize
(``pg_ctl``) and so are nobody's child: they are found by their data folder, under a TMPDIR of the run's
own, and sampled every half second (a cluster's own time plus its reaped backends). Containers (podman's
``conmon``) are not counted: only tests/test_container.py starts them.

The projection for a quiet machine with N cores: wall = CPU / (N x the share of those cores a run keeps
busy when nothing else runs), that share measured once on a quiet machine (``--busy``, default 0.91 of 2
cores: the fast tier at 2072 tests took 4m07s wall for 7.5 CPU-min on a quiet 2-core machine).
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

TICK = os.sysconf("SC_CLK_TCK")


def proc_times(pid: str) -> tuple[str, float] | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    # utime stime cutime cstime: fields 14-17 of stat, 12-15 after the ")"
    return cmd, sum(int(x) for x in fields[11:15]) / TICK


def machine_busy() -> float:
    """CPU seconds the whole machine has spent busy since boot (/proc/stat: all but idle and iowait). The
    tree's rusage misses processes nobody in the tree waits for: a whole-suite run counted 18.5 CPU-min
    there against 31 for the machine with nothing else running (Chromium's processes, most likely). On a
    machine to itself this is the run's true CPU."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:9]]
    return (sum(ticks) - ticks[3] - ticks[4]) / TICK


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--busy", type=float, default=0.91)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="suitecpu-")
    os.chmod(tmp, 0o755)        # the test cluster's server runs as the postgres user (tests/pgcluster.py)
    env = dict(os.environ, TMPDIR=tmp)
    load = os.getloadavg()[0]
    machine_start = machine_busy()
    start = time.monotonic()
    child = subprocess.Popen(args.command, env=env)
    postgres: dict[str, float] = {}
    while child.poll() is None:
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                seen = proc_times(pid)
                if seen and tmp in seen[0] and "postgres" in seen[0] and " -D " in seen[0]:
                    postgres[pid] = max(postgres.get(pid, 0.0), seen[1])
        time.sleep(0.5)
    wall = time.monotonic() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    tree = usage.ru_utime + usage.ru_stime
    pg = sum(postgres.values())
    cpu = tree + pg
    quiet = cpu / (args.cores * args.busy)
    machine = machine_busy() - machine_start
    print(f"\nsuite_cpu: wall {wall / 60:.1f} min; CPU {cpu / 60:.1f} min (tree {tree / 60:.1f}, "
          f"postgres {pg / 60:.1f}); load at start {load:.1f}, at the end {os.getloadavg()[0]:.1f}; "
          f"projected quiet wall on {args.cores} cores {quiet / 60:.1f} min; the whole machine was busy "
          f"{machine / 60:.1f} CPU-min ({machine / wall / (os.cpu_count() or 1):.0%} of its cores: this run's "
          "processes nobody in the tree waits for, and anything else running)", file=sys.stderr)
    return child.returncode


if __name__ == "__main__":
    sys.exit(main())

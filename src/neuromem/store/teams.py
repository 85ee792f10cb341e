"""Team membership (issue 26 item 2): a memory of visibility ``team`` is seen by every member of its
``team_id`` in its owner's tenant (policy ``shared_visibility``, migration 0022)."""

from __future__ import annotations

from .db import Conn

JOIN = "INSERT INTO team_members (user_id, team_id) VALUES (%s, %s) ON CONFLICT DO NOTHING"
LEAVE = "DELETE FROM team_members WHERE user_id = %s AND team_id = %s"
TEAMS_OF = "SELECT team_id FROM team_members WHERE user_id = %s ORDER BY team_id"


def join(conn: Conn, user_id: str, team_id: str) -> bool:
    """Make the user a member; False when it already was."""
    return conn.execute(JOIN, (user_id, team_id)).rowcount == 1


def leave(conn: Conn, user_id: str, team_id: str) -> bool:
    """End the membership; False when there was none."""
    return conn.execute(LEAVE, (user_id, team_id)).rowcount == 1


def teams_of(conn: Conn, user_id: str) -> list[str]:
    return [row["team_id"] for row in conn.execute(TEAMS_OF, (user_id,)).fetchall()]

"""The two things every part of the SQLite engine does to its database the same way."""
from __future__ import annotations

import sqlite3
from contextlib import contextmanager


@contextmanager
def transaction(db: sqlite3.Connection, mode: str = "IMMEDIATE"):
    """One transaction: IMMEDIATE to write, DEFERRED for one consistent read view."""
    db.execute(f"BEGIN {mode}")
    try:
        yield db
        db.execute("COMMIT")
    except BaseException:
        # SQLite has rolled back already after some errors (a full disk): a ROLLBACK then raised
        # "no transaction is active" in place of the error that says what to do.
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def bump(db: sqlite3.Connection) -> None:
    """Count a change of what search sees, so readers' caches know to refresh."""
    db.execute("INSERT INTO meta VALUES ('generation', '1') "
               "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")

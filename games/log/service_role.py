"""The database role the service runs as, which does not own the tables (docs/database-role.md).

The owner runs the migrations; the service role (setting DATABASE_SERVICE_ROLE) may read and
write rows and nothing else: no TRUNCATE, no DDL, and on the match log neither UPDATE nor
DELETE: it purges guests' matches through the owner's function games_guest_matches_purge
(migration 0027), the one function it may execute. ``service_role_grant`` sets exactly these
grants on every table of the schema, from scratch; migration 0013 runs it once and a
post_migrate receiver after every ``migrate``, so tables made by later migrations get the same
grants whoever made them.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from psycopg import sql

logger = logging.getLogger(__name__)

GRANTS = """
REVOKE ALL ON ALL TABLES IN SCHEMA {schema} FROM {role};
REVOKE ALL ON ALL SEQUENCES IN SCHEMA {schema} FROM {role};
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA {schema} FROM {role};
GRANT USAGE ON SCHEMA {schema} TO {role};
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {role};
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema} TO {role};
REVOKE UPDATE, DELETE ON {schema}.games_matchevent FROM {role};
REVOKE INSERT, UPDATE, DELETE ON {schema}.django_migrations FROM {role};
"""

#: The one way the service deletes match events (games migration 0027), once it exists.
GUEST_PURGE = "games_guest_matches_purge(bigint[])"
GRANT_GUEST_PURGE = "GRANT EXECUTE ON FUNCTION {schema}.{function} TO {role};"


def service_role_grant(connection: BaseDatabaseWrapper) -> bool:
    """Grant the service role exactly what it needs; False when there is nothing to grant.

    Nothing is granted on a database other than PostgreSQL, without DATABASE_SERVICE_ROLE,
    when that role does not exist (a warning is logged), or when the service role itself runs
    ``migrate`` (it cannot grant itself anything). Naming the tables' owner or a superuser as
    the service role is refused: the grants would mean nothing.
    """
    role = settings.DATABASE_SERVICE_ROLE
    if connection.vendor != "postgresql" or not role:
        return False
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT rolsuper, rolname = current_user FROM pg_roles WHERE rolname = %s", [role]
        )
        found = cursor.fetchone()
        if found is None:
            logger.warning("DATABASE_SERVICE_ROLE %r does not exist: nothing granted", role)
            return False
        superuser, is_current_user = found
        cursor.execute(
            "SELECT pg_has_role(%s, relowner, 'MEMBER'), current_schema() FROM pg_class"
            " WHERE oid = 'games_matchevent'::regclass",
            [role],
        )
        owns_the_tables, schema = cursor.fetchone()
        if superuser or owns_the_tables:
            raise ImproperlyConfigured(
                f"DATABASE_SERVICE_ROLE {role!r} is a superuser or owns the tables: the "
                "service must run as a role that does not (docs/database-role.md)"
            )
        if is_current_user:
            return False
        cursor.execute("SELECT to_regprocedure(%s) IS NOT NULL", [f"{schema}.{GUEST_PURGE}"])
        grants = GRANTS + (GRANT_GUEST_PURGE if cursor.fetchone()[0] else "")
        statements = sql.SQL(grants).format(
            schema=sql.Identifier(schema),
            role=sql.Identifier(role),
            function=sql.SQL(GUEST_PURGE),
        )
        with transaction.atomic(using=connection.alias):
            cursor.execute(statements.as_string(cursor.connection))
    return True

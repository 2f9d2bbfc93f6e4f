"""The database role the service runs as, which does not own the tables (docs/database-role.md).

The owner runs the migrations; the service role (setting DATABASE_SERVICE_ROLE) may read and
write rows and nothing else: no TRUNCATE, no DDL, and on the match log no UPDATE, so the log's
trigger is the last word on DELETE. ``service_role_grant`` sets exactly these grants on every
table of the schema, from scratch; migration 0013 runs it once and a post_migrate receiver
after every ``migrate``, so tables made by later migrations get the same grants whoever made
them.
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
GRANT USAGE ON SCHEMA {schema} TO {role};
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {role};
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema} TO {role};
REVOKE UPDATE ON {schema}.games_matchevent FROM {role};
REVOKE INSERT, UPDATE, DELETE ON {schema}.django_migrations FROM {role};
"""


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
        statements = sql.SQL(GRANTS).format(
            schema=sql.Identifier(schema), role=sql.Identifier(role)
        )
        with transaction.atomic(using=connection.alias):
            cursor.execute(statements.as_string(cursor.connection))
    return True

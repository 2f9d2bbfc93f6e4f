"""On PostgreSQL, the role the service runs as (setting DATABASE_SERVICE_ROLE), which does not
own the tables, gets exactly the privileges it needs: rows on every table, but no UPDATE of
match events, no TRUNCATE and no DDL (games.log.service_role, docs/database-role.md).

Tables that later migrations create get the same grants from the post_migrate receiver in
games/receivers.py, which runs the same function after every ``migrate``. Reversed, the role
loses every privilege on the tables and sequences; while this code is installed, that
receiver grants them again at the end of the same ``migrate`` unless DATABASE_SERVICE_ROLE is
unset for it.
"""

from django.conf import settings
from django.db import migrations
from psycopg import sql

from games.log.service_role import service_role_grant

REVOKE = """
REVOKE ALL ON ALL TABLES IN SCHEMA {schema} FROM {role};
REVOKE ALL ON ALL SEQUENCES IN SCHEMA {schema} FROM {role};
"""


def grant(apps, schema_editor):
    service_role_grant(schema_editor.connection)


def revoke(apps, schema_editor):
    role = settings.DATABASE_SERVICE_ROLE
    if schema_editor.connection.vendor != "postgresql" or not role:
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT current_schema() FROM pg_roles WHERE rolname = %s", [role])
        found = cursor.fetchone()
        if found is not None:
            statements = sql.SQL(REVOKE).format(
                schema=sql.Identifier(found[0]), role=sql.Identifier(role)
            )
            cursor.execute(statements.as_string(cursor.connection))


class Migration(migrations.Migration):
    dependencies = [("games", "0012_purge_only_guest_matches_and_no_truncate")]

    operations = [migrations.RunPython(grant, revoke)]

"""On PostgreSQL, the guest purge has one path the service role cannot bend: the function
``games_guest_matches_purge(match_ids)``, owned by the tables' owner and run with its rights
(SECURITY DEFINER). It deletes the logs of the given matches only if each one's first event,
``match_started``, recorded every player as a guest or a computer opponent (at least one guest)
and each profile still says so; otherwise it deletes nothing and raises ``restrict_violation``.

The service role loses DELETE on the log (games.log.service_role) and gets EXECUTE on the
function. The trigger lets a DELETE through only when ``games.purge`` is set, as the function
sets it for its own call only, and the role deleting is the tables' owner: neither a flag the
service sets nor a profile it flips opens the log (docs/database-role.md).
"""

import importlib

from django.db import migrations
from psycopg import sql

PURGE_FUNCTION = """
CREATE OR REPLACE FUNCTION games_matchevent_append_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' AND current_setting('games.purge', true) = 'guest-matches' THEN
        IF pg_catalog.pg_has_role(
            current_user,
            (SELECT relowner FROM pg_catalog.pg_class WHERE oid = TG_RELID),
            'USAGE'
        ) THEN
            RETURN OLD;
        END IF;
        RAISE EXCEPTION USING
            MESSAGE = 'match events are append-only: only games_guest_matches_purge() '
                || 'deletes the log of a match between guests',
            ERRCODE = 'restrict_violation';
    END IF;
    RAISE EXCEPTION USING
        MESSAGE = 'match events are append-only: ' || TG_OP || ' refused',
        ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {schema}.games_guest_matches_purge(match_ids bigint[])
RETURNS bigint
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET games.purge = 'guest-matches'
AS $$
DECLARE
    refused bigint;
    deleted bigint;
BEGIN
    SELECT wanted.id INTO refused
      FROM unnest(match_ids) AS wanted (id)
      LEFT JOIN {schema}.games_matchevent AS started
             ON started.match_id = wanted.id
            AND started.seq = 1
            AND started.kind = 'match_started'
     WHERE NOT coalesce((
            SELECT bool_and(coalesce(
                       (kind.name = 'guest' AND profile.is_guest)
                       OR (kind.name = 'computer' AND profile.bot_level <> ''),
                       false))
                   AND bool_or(coalesce(kind.name = 'guest', false))
              FROM jsonb_array_elements_text(started.payload -> 'player_ids')
                   WITH ORDINALITY AS player (user_id, seat)
              LEFT JOIN jsonb_array_elements_text(started.payload -> 'player_kinds')
                   WITH ORDINALITY AS kind (name, seat) USING (seat)
              LEFT JOIN {schema}.accounts_profile AS profile
                     ON profile.user_id = player.user_id::bigint
           ), false)
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION USING
            MESSAGE = 'match events are append-only: the guest purge may delete only the '
                || 'events of a match that began between guests (and the computer), and match '
                || refused || ' did not',
            ERRCODE = 'restrict_violation';
    END IF;
    DELETE FROM {schema}.games_matchevent WHERE match_id = ANY (match_ids);
    GET DIAGNOSTICS deleted = ROW_COUNT;
    RETURN deleted;
END;
$$;

REVOKE ALL ON FUNCTION {schema}.games_guest_matches_purge(bigint[]) FROM PUBLIC;
"""

DROP_PURGE_FUNCTION = """
DROP FUNCTION IF EXISTS {schema}.games_guest_matches_purge(bigint[]);
"""


def _previous_trigger_function():
    """Migration 0012's trigger function (its SQL goes on to create a trigger that stays)."""
    previous = importlib.import_module(
        "games.migrations.0012_purge_only_guest_matches_and_no_truncate"
    )
    return previous.GUESTS_ONLY.split("CREATE TRIGGER")[0]


def _on_postgresql(*statements):
    def run(apps, schema_editor):
        connection = schema_editor.connection
        if connection.vendor != "postgresql":
            return
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_schema()")
            schema = sql.Identifier(cursor.fetchone()[0])
            for statement in statements:
                text = statement() if callable(statement) else statement
                cursor.execute(sql.SQL(text).format(schema=schema).as_string(cursor.connection))

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0026_audit_record")]

    operations = [
        migrations.RunPython(
            _on_postgresql(PURGE_FUNCTION),
            _on_postgresql(DROP_PURGE_FUNCTION, _previous_trigger_function),
        )
    ]

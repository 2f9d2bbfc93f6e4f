"""On PostgreSQL, the append-only trigger lets one deliberate DELETE through: the purge of idle
guests' matches (games.services.guests.idle_guests_purge), in a transaction that has run
``SET LOCAL games.purge = 'guest-matches'``. UPDATE is refused as before."""

from django.db import migrations

PURGEABLE = """
CREATE OR REPLACE FUNCTION games_matchevent_append_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' AND current_setting('games.purge', true) = 'guest-matches' THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION USING
        MESSAGE = 'match events are append-only: ' || TG_OP || ' refused',
        ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
"""

STRICT = """
CREATE OR REPLACE FUNCTION games_matchevent_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION USING
        MESSAGE = 'match events are append-only: ' || TG_OP || ' refused',
        ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
"""


def _on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0009_analysis_of_imports")]

    operations = [migrations.RunPython(_on_postgresql(PURGEABLE), _on_postgresql(STRICT))]

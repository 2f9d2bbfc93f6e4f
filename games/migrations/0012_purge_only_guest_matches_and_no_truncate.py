"""On PostgreSQL, the purge's exception to the append-only log is narrowed to guests' matches,
and TRUNCATE is refused.

A DELETE in a transaction that ran ``SET LOCAL games.purge = 'guest-matches'`` (see
games.services.guests) passes only for the events of a match that still exists, has a guest
among its players and no player who signed up: each player's profile is a guest's or a
computer opponent's (a guest's match against the computer is purged with the guest). Any other
DELETE, every UPDATE and any TRUNCATE, by any role, is refused with ``restrict_violation``.

The lookup names its tables in the trigger's own schema, so a session cannot steer it to
temporary tables of the same names. A match row cannot be deleted behind its log's back: its
events' foreign key (PROTECT, checked at commit) refuses it while they exist.
"""

from django.db import migrations

GUESTS_ONLY = """
CREATE OR REPLACE FUNCTION games_matchevent_append_only() RETURNS trigger AS $$
DECLARE
    purgeable boolean;
BEGIN
    IF TG_OP = 'DELETE' AND current_setting('games.purge', true) = 'guest-matches' THEN
        EXECUTE format(
            'SELECT bool_and(coalesce(profile.is_guest OR profile.bot_level <> '''', false))
                    AND bool_or(coalesce(profile.is_guest, false))
               FROM %1$I.games_match AS game
              CROSS JOIN LATERAL (VALUES (game.first_player_id), (game.second_player_id))
                    AS player (user_id)
               LEFT JOIN %1$I.accounts_profile AS profile ON profile.user_id = player.user_id
              WHERE game.id = $1',
            TG_TABLE_SCHEMA
        ) INTO purgeable USING OLD.match_id;
        IF purgeable THEN
            RETURN OLD;
        END IF;
        RAISE EXCEPTION USING
            MESSAGE = 'match events are append-only: the guest purge may delete only the '
                || 'events of a match between guests (and the computer), and match '
                || OLD.match_id || ' is not one',
            ERRCODE = 'restrict_violation';
    END IF;
    RAISE EXCEPTION USING
        MESSAGE = 'match events are append-only: ' || TG_OP || ' refused',
        ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER games_matchevent_no_truncate
    BEFORE TRUNCATE ON games_matchevent
    FOR EACH STATEMENT EXECUTE FUNCTION games_matchevent_append_only();
"""

ANY_MATCH = """
DROP TRIGGER IF EXISTS games_matchevent_no_truncate ON games_matchevent;

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


def _on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            # No parameters: the SQL's own % signs (format's %1$I) are not placeholders.
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_events_indexed_by_match_and_seq_only"),
        ("accounts", "0008_profile_is_guest"),
    ]

    operations = [migrations.RunPython(_on_postgresql(GUESTS_ONLY), _on_postgresql(ANY_MATCH))]

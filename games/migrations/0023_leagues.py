"""Leagues: the league, its seasons, their divisions, entries and round-robin pairings; and what
the "Moderators" group may do with them: see them in the admin (leagues are created with the
tournaments' permission, ``create_tournament``)."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.contrib.auth.management import create_permissions
from django.db import migrations, models

MODERATORS = "Moderators"
PERMISSIONS = [
    "view_league",
    "view_leagueseason",
    "view_leagueentry",
    "view_leaguedivision",
    "view_leaguematch",
]


def allow_moderators(apps, schema_editor):
    # Permissions are created after all migrations have run (post_migrate): create them now.
    games = apps.get_app_config("games")
    games.models_module = True
    create_permissions(games, apps=apps, verbosity=0)
    games.models_module = None
    group = apps.get_model("auth", "Group").objects.filter(name=MODERATORS).first()
    if group is not None:
        Permission = apps.get_model("auth", "Permission")
        group.permissions.add(
            *Permission.objects.filter(content_type__app_label="games", codename__in=PERMISSIONS)
        )


def forbid_moderators(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    for group in apps.get_model("auth", "Group").objects.filter(name=MODERATORS):
        group.permissions.remove(
            *Permission.objects.filter(content_type__app_label="games", codename__in=PERMISSIONS)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0002_moderators_group"),
        ("games", "0022_tournament_cancelled_by"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="LeagueDivision",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("level", models.PositiveSmallIntegerField()),
            ],
            options={
                "ordering": ["season", "level"],
            },
        ),
        migrations.CreateModel(
            name="League",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=100)),
                (
                    "variant",
                    models.CharField(
                        choices=[
                            ("backgammon", "Backgammon"),
                            ("nackgammon", "Nackgammon"),
                            ("hypergammon", "Hypergammon"),
                            ("portes", "Portes"),
                            ("plakoto", "Plakoto"),
                            ("fevga", "Fevga"),
                            ("long-nardi", "Long nardi"),
                            ("tavli", "Tavli"),
                        ],
                        default="backgammon",
                        max_length=16,
                    ),
                ),
                ("match_length", models.PositiveSmallIntegerField(default=5)),
                ("time_control", models.JSONField(help_text="As a challenge stores it.")),
                ("rated", models.BooleanField(default=True)),
                (
                    "season_days",
                    models.PositiveSmallIntegerField(help_text="How long a season lasts."),
                ),
                (
                    "division_size",
                    models.PositiveSmallIntegerField(
                        help_text="The most players in a division (6 to 10)."
                    ),
                ),
                (
                    "promoted",
                    models.PositiveSmallIntegerField(
                        default=2,
                        help_text="How many go up from each division, and down, after a season.",
                    ),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "created_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="leagues_created",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="LeagueSeason",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "number",
                    models.PositiveSmallIntegerField(help_text="1 is the league's first season."),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("signing_up", "signing up"),
                            ("running", "running"),
                            ("finished", "finished"),
                        ],
                        default="signing_up",
                        max_length=16,
                    ),
                ),
                ("starts_at", models.DateTimeField()),
                (
                    "ends_at",
                    models.DateTimeField(blank=True, help_text="Set at the start.", null=True),
                ),
                ("started_at", models.DateTimeField(blank=True, null=True)),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                (
                    "league",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seasons",
                        to="games.league",
                    ),
                ),
            ],
            options={
                "ordering": ["league", "number"],
            },
        ),
        migrations.CreateModel(
            name="LeagueEntry",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "rating",
                    models.FloatField(
                        blank=True,
                        help_text="The player's rating when the divisions were made.",
                        null=True,
                    ),
                ),
                ("withdrawn", models.BooleanField(default=False)),
                ("joined_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "position",
                    models.PositiveSmallIntegerField(
                        blank=True, help_text="Final place in the division, 1 the top.", null=True
                    ),
                ),
                (
                    "move",
                    models.CharField(
                        blank=True,
                        choices=[("up", "promoted"), ("stay", "stays"), ("down", "relegated")],
                        default="",
                        max_length=8,
                    ),
                ),
                (
                    "division",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="entries",
                        to="games.leaguedivision",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="league_entries",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "season",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="entries",
                        to="games.leagueseason",
                    ),
                ),
            ],
            options={
                "verbose_name_plural": "league entries",
            },
        ),
        migrations.AddField(
            model_name="leaguedivision",
            name="season",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="divisions",
                to="games.leagueseason",
            ),
        ),
        migrations.CreateModel(
            name="LeagueMatch",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "division",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="pairings",
                        to="games.leaguedivision",
                    ),
                ),
                (
                    "first",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="games.leagueentry",
                    ),
                ),
                (
                    "match",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="league_match",
                        to="games.match",
                    ),
                ),
                (
                    "second",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="games.leagueentry",
                    ),
                ),
            ],
            options={
                "verbose_name_plural": "league matches",
                "constraints": [
                    models.UniqueConstraint(
                        fields=("division", "first", "second"), name="league_pair"
                    )
                ],
            },
        ),
        migrations.AddIndex(
            model_name="leagueseason",
            index=models.Index(fields=["status", "starts_at"], name="league_season_start"),
        ),
        migrations.AddIndex(
            model_name="leagueseason",
            index=models.Index(fields=["status", "ends_at"], name="league_season_end"),
        ),
        migrations.AddConstraint(
            model_name="leagueseason",
            constraint=models.UniqueConstraint(
                fields=("league", "number"), name="league_season_once"
            ),
        ),
        migrations.AddConstraint(
            model_name="leagueentry",
            constraint=models.UniqueConstraint(
                fields=("season", "player"), name="league_entry_once"
            ),
        ),
        migrations.AddConstraint(
            model_name="leaguedivision",
            constraint=models.UniqueConstraint(
                fields=("season", "level"), name="league_division_level"
            ),
        ),
        migrations.RunPython(allow_moderators, forbid_moderators),
    ]

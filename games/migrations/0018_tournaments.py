"""Knock-out tournaments: the tournament, its entries and its bracket; the news that a
tournament match has started; and what the "Moderators" group (ratings/migrations/0002) may do
with them: create tournaments and see them in the admin."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.contrib.auth.management import create_permissions
from django.db import migrations, models

MODERATORS = "Moderators"
PERMISSIONS = [
    "create_tournament",
    "view_tournament",
    "view_tournamententry",
    "view_bracketmatch",
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
        ("games", "0017_challenge_rematch"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="notification",
            name="kind",
            field=models.CharField(
                choices=[
                    ("your_turn", "your turn"),
                    ("challenge", "a challenge"),
                    ("deadline", "a deadline approaching"),
                    ("match_finished", "a match finished"),
                    ("tournament_match", "a tournament match started"),
                ],
                max_length=16,
            ),
        ),
        migrations.CreateModel(
            name="Tournament",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=100)),
                (
                    "format",
                    models.CharField(
                        choices=[("knockout", "knock-out")], default="knockout", max_length=16
                    ),
                ),
                (
                    "variant",
                    models.CharField(
                        choices=[("backgammon", "backgammon")], default="backgammon", max_length=16
                    ),
                ),
                ("match_length", models.PositiveSmallIntegerField(default=5)),
                ("time_control", models.JSONField(help_text="As a challenge stores it.")),
                (
                    "size",
                    models.PositiveSmallIntegerField(help_text="The most players who may sign up."),
                ),
                ("rated", models.BooleanField(default=True)),
                ("min_rating", models.IntegerField(blank=True, null=True)),
                ("max_rating", models.IntegerField(blank=True, null=True)),
                (
                    "start_mode",
                    models.CharField(
                        choices=[("when_full", "when full"), ("at_time", "at a set time")],
                        max_length=16,
                    ),
                ),
                (
                    "starts_at",
                    models.DateTimeField(
                        blank=True,
                        help_text="When a tournament that starts at a time starts.",
                        null=True,
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("signing_up", "signing up"),
                            ("running", "running"),
                            ("finished", "finished"),
                            ("cancelled", "cancelled"),
                        ],
                        default="signing_up",
                        max_length=16,
                    ),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("started_at", models.DateTimeField(blank=True, null=True)),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                (
                    "created_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="tournaments_created",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "second",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="tournaments_second",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "winner",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="tournaments_won",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "permissions": [("create_tournament", "Can create tournaments")],
            },
        ),
        migrations.CreateModel(
            name="TournamentEntry",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seed", models.PositiveSmallIntegerField(blank=True, null=True)),
                (
                    "rating",
                    models.FloatField(
                        blank=True,
                        help_text="The player's rating when the seeds were given.",
                        null=True,
                    ),
                ),
                ("withdrawn", models.BooleanField(default=False)),
                ("joined_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="tournament_entries",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="entries",
                        to="games.tournament",
                    ),
                ),
            ],
            options={
                "verbose_name_plural": "tournament entries",
            },
        ),
        migrations.CreateModel(
            name="BracketMatch",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("round", models.PositiveSmallIntegerField()),
                ("slot", models.PositiveSmallIntegerField()),
                ("bye", models.BooleanField(default=False)),
                (
                    "match",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="bracket_match",
                        to="games.match",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="bracket",
                        to="games.tournament",
                    ),
                ),
                (
                    "first",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="games.tournamententry",
                    ),
                ),
                (
                    "second",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="games.tournamententry",
                    ),
                ),
                (
                    "winner",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="games.tournamententry",
                    ),
                ),
            ],
            options={
                "verbose_name_plural": "bracket matches",
                "ordering": ["round", "slot"],
            },
        ),
        migrations.AddIndex(
            model_name="tournament",
            index=models.Index(fields=["status", "starts_at"], name="tournament_status_start"),
        ),
        migrations.AddConstraint(
            model_name="tournamententry",
            constraint=models.UniqueConstraint(
                fields=("tournament", "player"), name="tournament_entry_once"
            ),
        ),
        migrations.AddConstraint(
            model_name="bracketmatch",
            constraint=models.UniqueConstraint(
                fields=("tournament", "round", "slot"), name="bracket_match_place"
            ),
        ),
        migrations.RunPython(allow_moderators, forbid_moderators),
    ]

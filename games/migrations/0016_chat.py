"""Chat between the players of a match: messages, reports and mutes; and what the
"Moderators" group (ratings/migrations/0002) may do with them: read the reports and hide a
message."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.contrib.auth.management import create_permissions
from django.db import migrations, models

MODERATORS = "Moderators"
PERMISSIONS = ["moderate_chat", "view_chatmessage", "view_chatreport"]


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
        ("games", "0015_match_presence"),
        ("ratings", "0002_moderators_group"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ChatMessage",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("text", models.TextField(max_length=500)),
                (
                    "seq",
                    models.PositiveIntegerField(
                        help_text="The match's seq when the message was sent."
                    ),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("hidden_at", models.DateTimeField(blank=True, null=True)),
                (
                    "author",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chat_messages",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "hidden_by",
                    models.ForeignKey(
                        blank=True,
                        help_text="The moderator who hid the message.",
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chat_messages",
                        to="games.match",
                    ),
                ),
            ],
            options={
                "permissions": [("moderate_chat", "Can hide players' chat messages")],
            },
        ),
        migrations.CreateModel(
            name="ChatMute",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="games.match",
                    ),
                ),
                (
                    "muter",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="ChatReport",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("reason", models.CharField(blank=True, max_length=200)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("handled_at", models.DateTimeField(blank=True, null=True)),
                (
                    "handled_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "message",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="reports",
                        to="games.chatmessage",
                    ),
                ),
                (
                    "reporter",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chat_reports",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.AddIndex(
            model_name="chatmessage",
            index=models.Index(fields=["match", "created_at"], name="chat_message_match"),
        ),
        migrations.AddConstraint(
            model_name="chatmute",
            constraint=models.UniqueConstraint(fields=("match", "muter"), name="chat_mute_once"),
        ),
        migrations.AddConstraint(
            model_name="chatreport",
            constraint=models.UniqueConstraint(
                fields=("message", "reporter"), name="chat_report_once"
            ),
        ),
        migrations.RunPython(allow_moderators, forbid_moderators),
    ]

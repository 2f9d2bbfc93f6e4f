"""The "Moderators" group: what a moderator may see and do in the admin.

Moderators read matches, their logs, challenges, ratings and accounts; they abort and award
matches (games.moderate_match, through games.services) and suspend or reactivate accounts
(auth.change_user, limited in accounts/admin.py to is_active on players' accounts). They change
nothing else: no add, change or delete permission on matches, events, challenges or ratings.
A moderator also needs is_staff to sign in to the admin.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Moderators"
PERMISSIONS = [
    ("games", "moderate_match"),
    ("games", "view_match"),
    ("games", "view_matchevent"),
    ("games", "view_challenge"),
    ("ratings", "view_ratingchange"),
    ("ratings", "view_playerrating"),
    ("auth", "view_user"),
    ("auth", "change_user"),
]


def create_moderators(apps, schema_editor):
    # Permissions are normally created after all migrations have run (post_migrate); on a
    # fresh database they do not exist yet, so create them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    for app_label, codename in PERMISSIONS:
        group.permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )


def remove_moderators(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0001_initial"),
        ("games", "0003_idempotencyrecord"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_moderators, remove_moderators)]

"""The four computer opponents, one per bot level, as ordinary accounts that cannot sign in."""

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db import migrations

BOTS = {
    "BeginnerBot": "beginner",
    "IntermediateBot": "intermediate",
    "AdvancedBot": "advanced",
    "ExpertBot": "expert",
}


def create_bots(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Profile = apps.get_model("accounts", "Profile")
    for username, level in BOTS.items():
        user, _ = User.objects.get_or_create(
            username=username, defaults={"password": make_password(None)}
        )
        Profile.objects.update_or_create(user=user, defaults={"bot_level": level})


def forget_bot_levels(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    Profile.objects.filter(bot_level__gt="").update(bot_level="")


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_profile_bot_level"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(create_bots, forget_bot_levels)]

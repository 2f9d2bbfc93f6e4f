"""Analyses keep each engine's opinion: the results stored before the second opinion from GNU
Backgammon become bgsage's opinions, with gnubg's said to be unavailable (analysing the match
again gets it). Backwards, each result keeps bgsage's opinions alone, in the earlier shape."""

from django.db import migrations

BEFORE_GNUBG = "This analysis was made before GNU Backgammon's second opinion: analyse it again."


def with_opinions(result):
    if not result or "engines" in result:
        return result
    decisions = []
    for decision in result.get("decisions", []):
        decision = dict(decision)
        opinion = {
            "best": decision.pop("best"),
            "equity_lost": decision.pop("equity_lost"),
            "mark": decision.pop("mark"),
            "counts": True,
        }
        decisions.append({**decision, "disputed": False, "opinions": {"bgsage": opinion}})
    thresholds = {**result.get("thresholds", {}), "disputed": 0.1}
    return {
        **result,
        "thresholds": thresholds,
        "engines": {"bgsage": {"plies": result.get("plies", 2)}},
        "unavailable": {"gnubg": BEFORE_GNUBG},
        "players": {"bgsage": result.get("players", [])},
        "decisions": decisions,
    }


def bgsage_alone(result):
    if not result or "engines" not in result:
        return result
    decisions = []
    for decision in result.get("decisions", []):
        opinion = decision["opinions"].get("bgsage")
        if opinion is None or not opinion["counts"]:
            continue
        kept = {
            key: value for key, value in decision.items() if key not in ("opinions", "disputed")
        }
        decisions.append({**kept, **{key: opinion[key] for key in ("best", "equity_lost", "mark")}})
    earlier = {key: value for key, value in result.items() if key not in ("engines", "unavailable")}
    return {**earlier, "players": result["players"].get("bgsage", []), "decisions": decisions}


def rewrite(change):
    def run(apps, schema_editor):
        MatchAnalysis = apps.get_model("games", "MatchAnalysis")
        for analysis in MatchAnalysis.objects.exclude(result={}).iterator():
            rewritten = change(analysis.result)
            if rewritten != analysis.result:
                analysis.result = rewritten
                analysis.save(update_fields=["result"])

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0023_leagues")]

    operations = [migrations.RunPython(rewrite(with_opinions), rewrite(bgsage_alone))]

"""The API's bodies for a match's analysis: each decision's verdicts by engine, each player's
figures, each roll's luck; and the query that picks the engine."""

from __future__ import annotations

from typing import Any, cast

from rest_framework import serializers

from games.computer.review import Engine

ENGINE_CHOICES = [
    ("bgsage", "bgsage, the neural-network engine the analysis stands on"),
    ("gnubg", "GNU Backgammon, the second opinion where it is installed"),
]
MARKS = ["", "error", "blunder"]


class OpinionSerializer(serializers.Serializer):
    best = serializers.CharField(help_text="The engine's best choice, in the same words.")
    equity_lost = serializers.FloatField(help_text="Cubeful match equity given up; 0 at best.")
    mark = serializers.ChoiceField(
        choices=MARKS, help_text="error: lost >= 0.04; blunder: >= 0.08."
    )
    counts = serializers.BooleanField(
        help_text="Whether the decision counts in the engine's figures: a chance to double "
        "counts only when it was close (within 0.16 of doubling, or doubling was right)."
    )


class AnalysedDecisionSerializer(serializers.Serializer):
    seq = serializers.IntegerField(
        help_text="The event of the decision: its seq in a match's log, its place (from 1) "
        "among an imported match's events; the replay's step that shows it."
    )
    player = serializers.CharField()
    kind = serializers.ChoiceField(
        choices=["checker", "cube", "take"],
        help_text="A checker play, a chance to double, or the answer to a double.",
    )
    chosen = serializers.CharField(help_text="The play in notation, or No double/Double/Take/Drop.")
    best = serializers.CharField(
        allow_null=True, help_text="The picked engine's best choice (null: it gave no opinion)."
    )
    equity_lost = serializers.FloatField(
        allow_null=True, help_text="The picked engine's equity lost; 0 at best."
    )
    mark = serializers.ChoiceField(
        choices=MARKS, allow_null=True, help_text="The picked engine's mark."
    )
    counts = serializers.BooleanField(help_text="Whether it counts in the picked engine's figures.")
    disputed = serializers.BooleanField(
        help_text="Both engines weighed it and their equity lost differs by more than 0.1."
    )
    opinions = serializers.DictField(
        child=OpinionSerializer(),
        help_text="Every engine's opinion, by engine name (bgsage, gnubg).",
    )


class PlayerFiguresSerializer(serializers.Serializer):
    """A player's figures in an analysis of decisions (kind ``decisions``)."""

    decisions = serializers.IntegerField(required=False)
    # DRF's metaclass takes declared fields out of the class, so Serializer.errors stands.
    errors = serializers.IntegerField(required=False)  # type: ignore[assignment]
    blunders = serializers.IntegerField(required=False)
    equity_lost = serializers.FloatField(required=False)
    error_rate = serializers.FloatField(
        required=False, help_text="Errors and blunders per decision."
    )
    performance_rating = serializers.FloatField(
        required=False,
        help_text="Mean equity lost per decision x 500 (XG's PR): 0 is perfect, lower is better.",
    )


class OtherEngineFiguresSerializer(PlayerFiguresSerializer):
    engine = serializers.ChoiceField(choices=ENGINE_CHOICES)


class AnalysedPlayerSerializer(PlayerFiguresSerializer):
    player = serializers.CharField()
    other = OtherEngineFiguresSerializer(
        allow_null=True,
        required=False,
        help_text="The same figures by the other engine (null where it gave no opinion).",
    )
    rolls = serializers.IntegerField(required=False, help_text="Rolls whose luck was measured.")
    luck = serializers.FloatField(
        required=False, help_text="The luck of all the player's rolls: above 0, lucky."
    )


class RollLuckSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The roll's event: the replay's step that shows it.")
    player = serializers.CharField()
    dice = serializers.CharField()
    luck = serializers.FloatField(
        help_text="Equity after the best play of the roll minus its average over all 21 rolls."
    )


class EngineSerializer(serializers.Serializer):
    engine = serializers.ChoiceField(choices=ENGINE_CHOICES)
    plies = serializers.IntegerField(
        help_text="Its search depth, in its own count (bgsage's 2 ply is gnubg's 1 ply)."
    )


class UnavailableEngineSerializer(serializers.Serializer):
    engine = serializers.ChoiceField(choices=ENGINE_CHOICES)
    reason = serializers.CharField(help_text="Why, for players, in the request's language.")
    detail = serializers.CharField(help_text="The engine's own failure, in English.")


class AnalysisSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["pending", "done", "failed"])
    kind = serializers.ChoiceField(
        choices=["decisions", "luck"],
        help_text="decisions: every decision weighed by the engines (backgammon, nackgammon, "
        "hypergammon), with every roll's luck; luck: every roll's luck alone (the other "
        "variants).",
    )
    seq = serializers.IntegerField(help_text="The last event analysed.")
    plies = serializers.IntegerField(help_text="bgsage's search depth.")
    requested_at = serializers.DateTimeField()
    completed_at = serializers.DateTimeField(allow_null=True)
    engine = serializers.ChoiceField(
        choices=ENGINE_CHOICES,
        allow_null=True,
        help_text="The engine the players' figures and the decisions' verdicts are from: "
        "?engine= picks it (bgsage unless gnubg is asked for and gave its opinion); null for "
        "luck.",
    )
    engines = EngineSerializer(many=True, help_text="The engines that weighed the decisions.")
    unavailable = UnavailableEngineSerializer(
        many=True, help_text="The engines that gave no opinion, and why."
    )
    players = AnalysedPlayerSerializer(many=True)
    decisions = AnalysedDecisionSerializer(many=True)
    luck = RollLuckSerializer(many=True, required=False, help_text="Every roll's luck.")


class AnalysisQuerySerializer(serializers.Serializer):
    engine = serializers.ChoiceField(
        choices=ENGINE_CHOICES,
        default="bgsage",
        help_text="Whose figures to read: bgsage's (the default) or gnubg's.",
    )

    @classmethod
    def engine_of(cls, query: Any) -> Engine:
        """The engine a request's query picks; a ValidationError for an unknown one."""
        read = cls(data=query)
        read.is_valid(raise_exception=True)
        return cast(Engine, read.validated_data["engine"])


class MatchAnalysisSerializer(AnalysisSerializer):
    match = serializers.IntegerField()


class ImportAnalysisSerializer(AnalysisSerializer):
    imported = serializers.IntegerField(help_text="The imported match's id.")

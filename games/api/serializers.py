"""The API's request and response bodies; each is also the OpenAPI schema of that body."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from backgammon_site.core.api_toolkit import StrictCharField, StrictIntegerField
from backgammon_site.core.errors import ApplicationError
from backgammon_site.core.variants import DEFAULT_VARIANT
from games.engine.variants import VARIANTS
from games.models import Challenge, Variant
from games.selectors import MATCH_STATUSES
from games.services import ACTIONS, ENDING_ACTIONS, chat_text_clean


class CorrespondenceTimeControlSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["correspondence"])
    days_per_move = serializers.FloatField(min_value=1 / 24, max_value=30)
    reserve_days = serializers.FloatField(min_value=0, max_value=60, required=False, default=0)


class LiveTimeControlSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["live"])
    minutes = serializers.FloatField(min_value=1, max_value=120)
    increment_seconds = serializers.FloatField(
        min_value=0, max_value=120, required=False, default=0
    )


class TimeControlField(serializers.JSONField):
    """Either time control; the service checks it and says what is wrong."""


def variant_field(**options: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(
        choices=Variant.choices,
        help_text="The rules: a variant, or tavli (portes, plakoto and fevga in rotation).",
        **options,
    )


def match_format_field(**options: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(
        choices=Challenge.MatchFormat.choices,
        help_text="points: a match to match_length points; best_of_three: Tavli's best of "
        "three games (the match length is then 3).",
        **options,
    )


class ChallengeRequestSerializer(serializers.Serializer):
    opponent = StrictCharField(
        allow_null=True, max_length=150, help_text="A username, or null for an open challenge."
    )
    match_length = StrictIntegerField(min_value=1, max_value=25, default=5)
    variant = variant_field(default=DEFAULT_VARIANT)
    match_format = match_format_field(required=False, allow_null=True)
    cube = serializers.BooleanField(
        required=False,
        allow_null=True,
        help_text="Play with the doubling cube; without it, as the variant is played "
        "(backgammon, nackgammon and hypergammon with it, the others without).",
    )
    rated = serializers.BooleanField(default=True)
    time_control = TimeControlField(required=False, allow_null=True)
    seed = StrictCharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        max_length=200,
        help_text="Your own dice seed (any text); without one, one is drawn for you.",
    )


class AcceptRequestSerializer(serializers.Serializer):
    seed = StrictCharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        max_length=200,
        help_text="Your own dice seed (any text); without one, one is drawn for you.",
    )


class ChallengeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    challenger = serializers.CharField()
    opponent = serializers.CharField(allow_null=True)
    match_length = serializers.IntegerField()
    variant = variant_field()
    match_format = match_format_field()
    cube = serializers.BooleanField(help_text="The match is played with the doubling cube.")
    rated = serializers.BooleanField()
    time_control = serializers.JSONField()
    status = serializers.ChoiceField(choices=["open", "accepted", "declined", "cancelled"])
    match = serializers.IntegerField(allow_null=True, help_text="The match, once accepted.")
    created_at = serializers.DateTimeField()
    challenger_plays_first = serializers.BooleanField(
        help_text="The challenger takes the first player's seat (false in a rematch where "
        "they played first before: the colours swap)."
    )
    rematch_of = serializers.IntegerField(
        allow_null=True, help_text="The finished match this challenge offers to play again."
    )

    def to_representation(self, challenge: Any) -> dict[str, Any]:
        return {
            "id": challenge.pk,
            "challenger": challenge.challenger.get_username(),
            "opponent": challenge.opponent.get_username() if challenge.opponent else None,
            "match_length": challenge.match_length,
            "variant": challenge.variant,
            "match_format": challenge.match_format,
            "cube": challenge.cube,
            "rated": challenge.rated,
            "time_control": challenge.time_control,
            "status": challenge.status,
            "match": challenge.match_id,
            "created_at": serializers.DateTimeField().to_representation(challenge.created_at),
            "challenger_plays_first": challenge.challenger_plays_first,
            "rematch_of": challenge.rematch_of_id,
        }


class AnswerAheadSerializer(serializers.Serializer):
    seq = StrictIntegerField(
        min_value=0, help_text="The seq of the position the answer is for; a stale seq gives 409."
    )
    answer = serializers.ChoiceField(
        choices=["take", "drop"],
        allow_null=True,
        help_text="take or drop; null takes a left answer back.",
    )


class ActionRequestSerializer(serializers.Serializer):
    seq = StrictIntegerField(
        min_value=0, help_text="The seq of the state you acted on; a stale seq gives 409."
    )
    action = serializers.ChoiceField(choices=list(ACTIONS))
    play = StrictCharField(
        required=False, max_length=200, allow_blank=True, help_text="With move: e.g. 24/18 13/8."
    )
    points = StrictIntegerField(
        required=False,
        min_value=1,
        max_value=3,
        help_text="With resign: 1 single, 2 gammon, 3 backgammon (times the cube).",
    )
    number = StrictIntegerField(
        required=False,
        min_value=1,
        max_value=6,
        help_text="With name_double (acey-deucey, after a 1-2 played in full): the double to "
        "play, 1 to 6 (4 names 4-4).",
    )
    message = StrictCharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        help_text="A message to the opponent, sent with the action once it is taken (at most "
        "500 characters).",
    )

    def validate_message(self, text: str) -> str | None:
        if not text.strip():
            return None
        try:
            return chat_text_clean(text)
        except ApplicationError as error:
            raise serializers.ValidationError(error.message) from error


class CubeSerializer(serializers.Serializer):
    value = serializers.IntegerField()
    owner = serializers.CharField(allow_null=True)


class BoardSerializer(serializers.Serializer):
    points = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=24,
        max_length=24,
        help_text="Points 1 to 24 in the first player's numbering: positive counts are the "
        "first player's checkers, negative the second player's (in Plakoto, those on top).",
    )
    pinned = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=24,
        max_length=24,
        help_text="Plakoto: the checkers of the other colour pinned beneath those on each point.",
    )
    bar = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    off = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    waiting = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=2,
        max_length=2,
        help_text="Acey-deucey: each player's checkers waiting off the board to enter (first "
        "player's, second player's); 0 0 in every other variant.",
    )


class ResignationSerializer(serializers.Serializer):
    by = serializers.CharField()
    points = serializers.IntegerField()


class LastPlaySerializer(serializers.Serializer):
    player = serializers.CharField()
    dice = serializers.ListField(child=serializers.IntegerField())
    play = serializers.CharField(allow_blank=True, help_text="Empty when no move was possible.")


class GameSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    winner = serializers.CharField(allow_null=True, help_text="null for a drawn game.")
    points = serializers.IntegerField()
    result = serializers.ChoiceField(
        choices=["single", "gammon", "backgammon", "drop", "resign", "mother", "draw"],
        help_text="mother: a Plakoto game won by pinning the mother; draw: a drawn Plakoto game.",
    )
    crawford = serializers.BooleanField()


class DiceSeedsSerializer(serializers.Serializer):
    player_seeds = serializers.ListField(child=serializers.CharField(allow_blank=True))
    revealed = serializers.BooleanField(help_text="The server seed is revealed: verify at /dice/.")


class MatchSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    seq = serializers.IntegerField()
    status = serializers.ChoiceField(choices=list(MATCH_STATUSES))
    players = serializers.ListField(child=serializers.CharField())
    match_length = serializers.IntegerField()
    score = serializers.ListField(child=serializers.IntegerField())
    rated = serializers.BooleanField()
    to_act = serializers.CharField(allow_null=True)
    winner = serializers.CharField(allow_null=True)
    updated_at = serializers.DateTimeField()


class ClocksSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["correspondence", "live"])
    per_move_seconds = serializers.FloatField(
        help_text="Correspondence: the time each decision has before the reserve is used."
    )
    increment_seconds = serializers.FloatField(
        help_text="Live: added to a player's clock after each completed move."
    )
    time_left_seconds = serializers.ListField(
        child=serializers.FloatField(),
        min_length=2,
        max_length=2,
        help_text="Each player's reserve (correspondence) or clock (live) as it stood when "
        "their last decision ended; the running player's time ends at `deadline`.",
    )
    running = serializers.CharField(
        allow_null=True, help_text="The player whose time is running, if anyone's is."
    )
    paused_time_left_seconds = serializers.FloatField(
        allow_null=True,
        help_text="The time the player to act has left while their vacation pauses it.",
    )


class RatingChangeSerializer(serializers.Serializer):
    player = serializers.CharField()
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    difference = serializers.FloatField(help_text="rating_after - rating_before.")
    provisional = serializers.BooleanField(
        help_text="The new rating is provisional: too few recent rated matches to be sure."
    )


class TutorVerdictSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The seq of the play judged.")
    dice = serializers.ListField(child=serializers.IntegerField())
    position_id = serializers.CharField(
        help_text="The position the play was made from, seen by the player (Position ID)."
    )
    played = serializers.CharField()
    best = serializers.CharField()
    equity_lost = serializers.FloatField(
        help_text="What the play lost against the best, in cubeful match equity."
    )
    mark = serializers.ChoiceField(
        choices=["", "error", "blunder"], help_text="error from 0.04, blunder from 0.08."
    )


class MatchStateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    seq = serializers.IntegerField()
    status = serializers.ChoiceField(choices=list(MATCH_STATUSES))
    phase = serializers.ChoiceField(
        choices=["opening", "rolling", "moving", "naming", "doubled", "resigned", "finished"],
        help_text="naming: acey-deucey, the player on turn has played a 1-2 and names a double "
        "(action name_double).",
    )
    players = serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2)
    you = serializers.IntegerField(
        allow_null=True, help_text="0 or 1 if you play in this match, else null."
    )
    variant = variant_field()
    variant_title = serializers.CharField(help_text="The variant's name for people: Long nardi.")
    game_variant = serializers.ChoiceField(
        choices=list(VARIANTS),
        help_text="The rules of the game on the board: the variant's own, or in Tavli the "
        "rotation's game.",
    )
    game_variant_title = serializers.CharField(help_text="The game's name for people: Plakoto.")
    match_format = match_format_field()
    cube_in_use = serializers.BooleanField(help_text="The match is played with the cube.")
    match_length = serializers.IntegerField(
        help_text="Points to win; in a best-of-three Tavli match, 3 (games)."
    )
    rated = serializers.BooleanField()
    time_control = serializers.JSONField()
    score = serializers.ListField(child=serializers.IntegerField())
    games_won = serializers.ListField(
        child=serializers.IntegerField(), help_text="Games each player has won."
    )
    game_number = serializers.IntegerField()
    crawford = serializers.BooleanField(help_text="This game is the Crawford game.")
    post_crawford = serializers.BooleanField()
    cube = CubeSerializer()
    turn = serializers.CharField(allow_null=True, help_text="The player on roll.")
    to_act = serializers.CharField(allow_null=True, help_text="Whose decision it is now.")
    dice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    climbing = serializers.BooleanField(
        help_text="Gul Bara: the dice are the next double of a climb, which the player on roll "
        "plays after a double played in full, not a roll."
    )
    board = BoardSerializer()
    board_text = serializers.CharField(
        help_text="The text board (DESIGN.md, Variants) from board_seen_by's side: yours if you "
        "play, else the player on roll's."
    )
    board_seen_by = serializers.CharField(help_text="The player whose side board_text is from.")
    pip_counts = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Pips each player needs to bear off, each in its owner's numbering.",
    )
    position_id = serializers.CharField(
        allow_null=True,
        help_text="GNU Backgammon Position ID (player on roll); null in plakoto, fevga and "
        "long nardi.",
    )
    match_id = serializers.CharField(
        allow_null=True,
        help_text="GNU Backgammon Match ID; null but in backgammon, nackgammon and hypergammon.",
    )
    xgid = serializers.CharField(
        allow_null=True, help_text="XG's XGID; null but in backgammon, nackgammon and hypergammon."
    )
    resignation = ResignationSerializer(allow_null=True)
    last_play = LastPlaySerializer(allow_null=True)
    games = GameSerializer(many=True)
    winner = serializers.CharField(allow_null=True)
    end_reason = serializers.CharField(allow_null=True)
    end_offered_by = serializers.CharField(
        allow_null=True,
        help_text="The player whose offer to end the match without a winner awaits an answer.",
    )
    deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="When the player to act loses on time; null when the match is over or the "
        "player's vacation pauses their time.",
    )
    clocks = ClocksSerializer()
    dice_seeds = DiceSeedsSerializer(
        help_text="The players' dice seeds; the server seed is in the log once the match ends."
    )
    legal_actions = serializers.ListField(child=serializers.ChoiceField(choices=list(ACTIONS)))
    ending_actions = serializers.ListField(
        child=serializers.ChoiceField(choices=list(ENDING_ACTIONS)),
        help_text="How you may end the match without a winner now, whoever is to act: abort, "
        "offer_end, or accept_end and decline_end while your opponent's offer stands.",
    )
    legal_plays = serializers.ListField(
        child=serializers.CharField(), help_text="Every legal play, when you are to move."
    )
    rating_changes = RatingChangeSerializer(
        many=True,
        help_text="What a finished rated match did to each player's rating, in seat order; "
        "empty for an unrated or unfinished match.",
    )
    tutor = TutorVerdictSerializer(
        allow_null=True,
        help_text="In a match with the tutor, to the player it helps: its verdict on their "
        "last play with a choice (null before it, and for anyone else).",
    )
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class MatchEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    kind = serializers.CharField()
    payload = serializers.JSONField()
    actor = serializers.CharField(allow_null=True, help_text="null: the server.")
    created_at = serializers.DateTimeField()
    digest = serializers.CharField()

    def to_representation(self, event: Any) -> dict[str, Any]:
        return {
            "seq": event.seq,
            "kind": event.kind,
            "payload": event.payload,
            "actor": event.actor.get_username() if event.actor_id else None,
            "created_at": serializers.DateTimeField().to_representation(event.created_at),
            "digest": event.digest,
        }


class RollCheckSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="0 for the match's first roll.")
    seq = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["opening_roll", "roll"])
    dice = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    expected = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="null until the seed is out."
    )
    matches = serializers.BooleanField(allow_null=True)

    def to_representation(self, roll: Any) -> dict[str, Any]:
        return {
            "index": roll.index,
            "seq": roll.seq,
            "kind": roll.kind,
            "dice": list(roll.dice),
            "expected": None if roll.expected is None else list(roll.expected),
            "matches": roll.matches,
        }


class DiceCheckSerializer(serializers.Serializer):
    verifiable = serializers.BooleanField(help_text="The match is over and its seed revealed.")
    all_match = serializers.BooleanField(allow_null=True)
    scheme = serializers.CharField()
    commitment = serializers.CharField(help_text="SHA-256 of the server seed, from event 1.")
    server_seed = serializers.CharField(allow_null=True, help_text="Hex; revealed at the end.")
    commitment_matches = serializers.BooleanField(allow_null=True)
    player_seeds = serializers.ListField(child=serializers.CharField(allow_blank=True))
    rolls = RollCheckSerializer(many=True)

    def to_representation(self, check: Any) -> dict[str, Any]:
        return {
            "verifiable": check.verifiable,
            "all_match": check.all_match,
            "scheme": "hmac-sha256-v1",
            "commitment": check.commitment,
            "server_seed": check.server_seed,
            "commitment_matches": check.commitment_matches,
            "player_seeds": list(check.player_seeds),
            "rolls": [RollCheckSerializer(roll).data for roll in check.rolls],
        }


class ChatMessageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    author = serializers.CharField(source="author.username")
    text = serializers.CharField(help_text="As the player wrote it: escape it before showing it.")
    seq = serializers.IntegerField(help_text="The match's seq when the message was sent.")
    created_at = serializers.DateTimeField()


class ChatSerializer(serializers.Serializer):
    messages = ChatMessageSerializer(many=True)
    muted = serializers.BooleanField(
        help_text="You muted your opponent: their messages are left out."
    )


class ChatSendSerializer(serializers.Serializer):
    text = StrictCharField(trim_whitespace=False, help_text="At most 500 characters.")


class ChatReportRequestSerializer(serializers.Serializer):
    reason = StrictCharField(
        required=False, allow_blank=True, default="", help_text="Why, in a few words (optional)."
    )


class ChatReportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    message = serializers.IntegerField(source="message_id")
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()


class MuteSerializer(serializers.Serializer):
    muted = serializers.BooleanField()

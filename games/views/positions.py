"""Set up a position: from a Position ID (and Match ID) or an XGID, with the legal plays of a
roll ranked by bgsage. A position on the board of one of the visitor's own matches under way
is refused (nothing is shown of it): the page must not help a player in play."""

from __future__ import annotations

import dataclasses
import logging
import math
from dataclasses import dataclass

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET

from games import selectors
from games.computer import sage
from games.engine import Dice, EngineError, Position
from games.engine.board import Board
from games.engine.gnubg import PLAYING, MatchKey, match_id, match_key_from_id
from games.engine.variants import BACKGAMMON
from games.engine.xgid import gnubg_from_xgid, xgid_from_gnubg
from games.views.board import draw_board
from games.views.cube import Cube

logger = logging.getLogger(__name__)
NAMES = (gettext_lazy("the player on roll"), gettext_lazy("the opponent"))
#: How deep bgsage looks when ranking the plays of a set-up position.
RANKING_PLIES = 2


class PositionForm(forms.Form):
    position_id = forms.CharField(
        required=False,
        max_length=40,
        label=gettext_lazy("Position ID"),
        help_text=gettext_lazy("GNU Backgammon's, e.g. 4HPwATDgc/ABMA"),
    )
    match_id = forms.CharField(
        required=False,
        max_length=40,
        label=gettext_lazy("Match ID"),
        help_text=gettext_lazy(
            "Optional: cube, score and dice, e.g. cAkAAAAAAAAA. Without it: money play."
        ),
    )
    xgid = forms.CharField(
        required=False,
        max_length=120,
        label=gettext_lazy("Or an XGID"),
        help_text=gettext_lazy(
            "eXtreme Gammon's, e.g. XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:5:10"
        ),
    )
    dice = forms.CharField(
        required=False,
        max_length=10,
        label=gettext_lazy("Dice"),
        help_text=gettext_lazy("e.g. 31 or 3-1"),
    )


@dataclass(frozen=True)
class SetUp:
    """A position set up from its IDs, from the side of the player on roll."""

    position: Position
    key: MatchKey
    dice: Dice | None

    @property
    def position_id(self) -> str:
        return self.position.position_id()

    @property
    def match_id(self) -> str:
        return match_id(self.key)

    @property
    def xgid(self) -> str:
        return xgid_from_gnubg(self.position_id, self.match_id)

    @property
    def cube_owner(self) -> int | None:
        """0 for the player on roll, 1 for the opponent, None when centred."""
        if self.key.cube_owner is None:
            return None
        return 0 if self.key.cube_owner == self.key.player_on_roll else 1

    def context(self) -> sage.MatchContext:
        """The match around the decision, for bgsage: cube, score (money when no length)."""
        owner = {None: "centered", 0: "player", 1: "opponent"}[self.cube_owner]
        length = self.key.match_length
        mine, theirs = self.score
        return sage.MatchContext(
            cube_value=self.key.cube_value,
            cube_owner=owner,  # type: ignore[arg-type]
            away=max(length - mine, 0) if length else 0,
            opponent_away=max(length - theirs, 0) if length else 0,
            crawford=self.key.crawford,
        )

    @property
    def score(self) -> tuple[int, int]:
        """The score, the player on roll's first."""
        on_roll = self.key.player_on_roll
        return self.key.score[on_roll], self.key.score[1 - on_roll]


def set_up(*, position_text: str, match_text: str, xgid_text: str, dice_text: str) -> SetUp:
    """The position the IDs describe, with ``dice_text`` (if given) as the roll to play.

    Raises EngineError with a message for people when an ID or the dice cannot be read.
    """
    if xgid_text and (position_text or match_text):
        raise EngineError("Give a Position ID (with a Match ID if you like) or an XGID, not both.")
    if xgid_text:
        position_text, match_text = gnubg_from_xgid(xgid_text)
    position = Position.from_position_id(position_text) if position_text else Position.starting()
    key = match_key_from_id(match_text) if match_text else _money_key()
    dice = Dice.parse(dice_text) if dice_text else None
    if dice is not None:
        if key.doubled:
            raise EngineError(
                "In this Match ID a double awaits an answer: there is no roll to play."
            )
        key = dataclasses.replace(key, dice=(dice.high, dice.low), game_state=PLAYING)
    elif key.dice != (0, 0) and not key.doubled:
        dice = Dice(*key.dice)
    return SetUp(position, key, dice)


def _money_key() -> MatchKey:
    return MatchKey(
        cube_value=1,
        cube_owner=None,
        player_on_roll=1,
        crawford=False,
        game_state=PLAYING,
        turn=1,
        doubled=False,
        resigned=0,
        dice=(0, 0),
        match_length=0,
        score=(0, 0),
    )


@require_GET
def positions(request: HttpRequest) -> HttpResponse:
    form = PositionForm(request.GET or None)
    error = None
    setup = None
    status = 200
    if not request.GET:
        setup = set_up(position_text="", match_text="", xgid_text="", dice_text="")
    elif form.is_valid():
        fields = {name: (form.cleaned_data[name] or "").strip() for name in form.fields}
        try:
            setup = set_up(
                position_text=fields["position_id"],
                match_text=fields["match_id"],
                xgid_text=fields["xgid"],
                dice_text=fields["dice"],
            )
        except EngineError as problem:
            error = _sentence(str(problem))
        if setup is not None and _in_play(request, setup):
            setup = None
            error = gettext(
                "This position is on the board of one of your matches under way: the "
                "positions page does not analyse it until the match has ended."
            )
    else:
        error = " ".join(str(message) for messages in form.errors.values() for message in messages)
    if error is not None:
        status = 400
    context: dict[str, object] = {"form": form, "error": error, "setup": setup}
    if setup is not None:
        context.update(_shown(setup))
    return render(request, "games/positions.html", context, status=status)


def _in_play(request: HttpRequest, setup: SetUp) -> bool:
    """The position stands now in one of the visitor's matches under way. The starting
    position is every match's and every book's, so it is never refused."""
    if setup.position == Position.starting():
        return False
    return setup.position_id in selectors.running_position_ids(request.user)


def _shown(setup: SetUp) -> dict[str, object]:
    position = setup.position
    board = draw_board(
        Board.from_position(BACKGAMMON, position),
        side=0,
        names=NAMES,  # type: ignore[arg-type]  # lazy, drawn in the viewer's language
        dice=setup.dice,
        dice_owner=0 if setup.dice is not None else None,
        cube=Cube(setup.key.cube_value, setup.cube_owner),
    )
    shown: dict[str, object] = {
        "board": board,
        "pips": position.pip_count(),
        "game_over": position.outcome() is not None,
    }
    if setup.dice is None or position.outcome() is not None:
        return shown
    try:
        ranked = sage.rank_plays(position, setup.dice, setup.context(), plies=RANKING_PLIES)
    except Exception:  # bgsage is a native extension: a failure there must not take the page
        logger.exception("bgsage could not rank the plays of %s", setup.position_id)
        shown["ranking_failed"] = True
        return shown
    shown["plays"] = [
        {
            "rank": rank,
            "play": ranked_play.notation,
            "equity": None if math.isnan(ranked_play.equity) else ranked_play.equity,
            "difference": None if math.isnan(ranked_play.loss) else -ranked_play.loss,
        }
        for rank, ranked_play in enumerate(ranked, start=1)
    ]
    return shown


def _sentence(text: str) -> str:
    text = text.strip()
    return (text[:1].upper() + text[1:]).rstrip(".") + "."

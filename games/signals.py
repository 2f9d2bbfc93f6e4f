"""What the services and the domain modules announce; games/receivers.py listens."""

from django.dispatch import Signal

#: Sent after the transaction that changed a match has committed: match_id, seq, to_act_id,
#: deadline (when the player to act loses on time, or None), finished (the match is over) and
#: acted_by (the player or moderator whose action it was; None for the server's changes, such
#: as a timeout or a vacation) and bot_to_act (whether a computer opponent is to act; None when
#: not known without a query). Receivers read what else they need.
match_changed = Signal()

#: Sent after commit when a player's correspondence deadline is near: match_id, seq, player_id,
#: deadline. Sent once per decision.
deadline_near = Signal()

#: Sent after the transaction that created a challenge has committed: challenge_id, and
#: rematch_of (the finished match a rematch offers to play again, or None).
challenge_created = Signal()

#: Sent after the transaction that accepted, declined or cancelled a challenge has committed:
#: challenge_id, open_to_anyone (whether it was an open challenge, on every lobby's list) and
#: rematch_of (as challenge_created gives it).
challenge_closed = Signal()

#: Sent after the transaction that changed a match's conversation (a message sent, or hidden by
#: a moderator) has committed: match_id.
chat_changed = Signal()

#: Sent after the transaction that recorded a piece of news to send at once has committed:
#: notification_id, delay (seconds to wait), email and push (whether to email it now, push it
#: to the player's devices; both when not given, as the sweep sends it again).
news_to_send = Signal()

#: Sent when a decision's deadline is near enough to be enforced by a countdown, to the
#: second (inside the broker's visibility timeout): match_id, seq, deadline.
countdown_due = Signal()

#: Sent after the transaction that asked for an analysis has committed: subject (a
#: games.computer.analysis.Subject).
analysis_requested = Signal()

#: Sent after the transaction that kept an imported match has committed: import_id.
match_imported = Signal()

#: Sent by the minute sweep when a computer opponent has let something wait for a minute (its
#: task was lost, say, with the broker down when the change committed): match_id and seq of a
#: match whose turn is the computer's, or challenge_id of an open challenge to it.
computer_due = Signal()

#: Sent after the transaction that started a tournament's or a league's match has committed:
#: match_id, tournament_id (the league's id when the sender is League).
tournament_match_started = Signal()

#: Sent after a transaction that changed a tournament (a sign-up or withdrawal, its start, its
#: bracket moving on, its end or cancellation) has committed: tournament_id.
tournament_changed = Signal()

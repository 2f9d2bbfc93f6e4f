"""Verify every roll of a finished match from its public log: python verify_dice.py BASE_URL ID.

Standard library only; it trusts nothing the server computes, only the log (see docs/dice.md).
Exits 0 when every roll follows from the seeds, 1 naming the first roll that does not.
"""

import hashlib
import hmac
import json
import sys
import urllib.request


def roll(server_seed: bytes, seeds: list[str], index: int) -> list[int]:
    dice, block = [], 0
    while len(dice) < 2:
        message = json.dumps([seeds[0], seeds[1], index, block]).encode()
        digest = hmac.new(server_seed, message, hashlib.sha256).digest()
        dice += [byte % 6 + 1 for byte in digest if byte < 252]
        block += 1
    return dice[:2]


def main(base_url: str, match_id: str) -> int:
    with urllib.request.urlopen(f"{base_url.rstrip('/')}/api/matches/{match_id}/events/") as reply:
        events = json.load(reply)
    started = events[0]["payload"]["dice"]
    revealed = [e["payload"]["server_seed"] for e in events if e["kind"] == "dice_revealed"]
    if not revealed:
        print("The match is not over: its server seed is not revealed yet.")
        return 1
    server_seed = bytes.fromhex(revealed[0])
    if hashlib.sha256(server_seed).hexdigest() != started["server_seed_commitment"]:
        print("MISMATCH: the revealed server seed does not match its commitment.")
        return 1
    rolls = [e for e in events if e["kind"] in ("opening_roll", "roll")]
    for index, event in enumerate(rolls):
        expected = roll(server_seed, started["player_seeds"], index)
        if event["payload"]["dice"] != expected:
            print(
                f"MISMATCH at roll {index} (event #{event['seq']}): "
                f"rolled {event['payload']['dice']}, the seeds give {expected}."
            )
            return 1
    print(f"OK: the commitment and all {len(rolls)} rolls of match {match_id} check out.")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python verify_dice.py BASE_URL MATCH_ID")
    sys.exit(main(sys.argv[1], sys.argv[2]))

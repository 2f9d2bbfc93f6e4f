import json
import pytest
from tests.api.conftest import client_for, opened, footprint

pytestmark = pytest.mark.django_db

@pytest.mark.parametrize("body", [{"points": "2", "action": "resign"}, {"action": "move", "play": 123}, {"action": "roll", "play": 5}, {"seq": "3", "action": "roll"}, {"seq": 3.0, "action": "roll"}, {"seq": True, "action":"roll"}, {"action": "resign", "points": 2.0}, {"action": "resign", "points": True}])
def test_probe(dice, alice, bob, body):
    m = opened(dice, alice, bob)
    c = client_for(bob)
    dice.add(2, 1)
    r = c.post(f"/api/matches/{m.pk}/actions/", {"seq": m.seq, **body}, format="json"); print(body, r.status_code, r.content[:300])

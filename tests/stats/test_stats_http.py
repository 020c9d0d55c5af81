"""Statistics over HTTP (issue 34): a campaign's GM sees every number; a player's stats omit
hidden numbers, by the same per-type hidden-information declarations every read path applies."""

from __future__ import annotations

from litestar.testing import TestClient

from combat.app.application import Encounters
from combat.service import create_app
from tests.stats.helpers import play_two_fights


def test_a_players_stats_omit_hidden_numbers(encounters: Encounters):
    """Issue 34: "What a player's credential may see follows the hidden-information
    declarations (no hidden monster's numbers)." Elara's player sees her own line: her
    Fireball's 24 on Brann counted, the 24 goblin-1 took withheld (DamageTaken blanks
    `amount` when its target is hidden: next to the 24 rolled it would show its
    resistances). An encounter's viewer sees goblin-2's line without its d20 (DiceRolled
    blanks a hidden roller's dice) or the damage it took; the GM sees both."""
    played = play_two_fights(encounters)
    app = create_app(encounters)
    with TestClient(app) as http:  # type: ignore[arg-type]
        gm = http.get(f"/campaigns/{played.campaign}/stats").json()  # the loopback server's admin
        issued = http.post(
            f"/campaigns/{played.campaign}/tokens", json={"role": "player", "name": "sam", "character": "Elara"}
        ).json()
        mine = http.get(f"/campaigns/{played.campaign}/stats", headers={"Authorization": f"Bearer {issued['token']}"}).json()
        viewer, _ = app.state["service"].tokens.issue(played.second, "viewer", "screen")
        seen = http.get(f"/encounters/{played.second}/stats", headers={"Authorization": f"Bearer {viewer}"}).json()
        gm_token, _ = app.state["service"].tokens.issue(played.second, "gm", "dm")
        gm_second = http.get(f"/encounters/{played.second}/stats", headers={"Authorization": f"Bearer {gm_token}"}).json()
    assert gm["viewer"] == "gm" and mine["viewer"] == "player"
    elara_gm = next(c for c in gm["characters"] if c["name"] == "Elara")
    assert (elara_gm["damage_dealt"], elara_gm["damage_dealt_withheld"]) == (48, 0)
    assert [c["name"] for c in mine["characters"]] == ["Elara"]  # a player reads their own character
    (elara,) = mine["characters"]
    assert (elara["damage_dealt"], elara["damage_dealt_withheld"], elara["damage_rolled"]) == (24, 1, 48)
    assert elara["d20"]["rolls"] == 3 and elara["slots"] == {"3": 1}  # her own numbers are hers to see
    goblin_gm = next(c for c in gm_second["characters"] if c["name"] == "Goblin 2")
    goblin = next(c for c in seen["characters"] if c["name"] == "Goblin 2")
    assert (goblin_gm["d20"]["rolls"], goblin_gm["damage_taken"], goblin_gm["damage_taken_withheld"]) == (1, 11, 0)
    assert (goblin["d20"]["rolls"], goblin["damage_taken"], goblin["damage_taken_withheld"]) == (0, 0, 1)
    brann = next(c for c in seen["characters"] if c["name"] == "Brann")
    assert (brann["hits"], brann["damage_rolled"], brann["damage_dealt"]) == (1, 11, 0)  # the 11 rolled is said aloud


def test_stats_refuse_a_token_of_another_campaign_and_an_unknown_encounter(encounters: Encounters):
    """A player's token of one campaign opens no other's stats; an unknown encounter is a 404-style refusal."""
    played = play_two_fights(encounters)
    other = encounters.campaigns.create("Eberron").id
    app = create_app(encounters)
    with TestClient(app) as http:  # type: ignore[arg-type]
        issued = http.post(
            f"/campaigns/{played.campaign}/tokens", json={"role": "player", "name": "sam", "character": "Elara"}
        ).json()
        refused = http.get(f"/campaigns/{other}/stats", headers={"Authorization": f"Bearer {issued['token']}"})
    assert refused.status_code == 403 and refused.json()["error"] == "auth/other-campaign"

"""srd-2024-variant: undo, amended rulings and the conflicts a changed past leaves behind.

"An undo appends an event that retracts earlier events"; an amended ruling is decided where
the replaced command stood; every later event is checked again and what no longer fits the
variant's rules is listed as a conflict until the GM retracts, amends or overrides.
"""

from __future__ import annotations

from uuid import UUID

import msgspec
import pytest

from combat.app.application import Encounters
from combat.app.history import HISTORY_TYPES, replay
from combat.demos import get_demo
from combat.fivee.attack_commands import Attack, OpportunityAttack
from combat.fivee.attack_events import AttackMade
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn, MarkSurprised
from combat.kernel.errors import RuleError
from combat.kernel.events import CombatEnded, EventsRetracted, PhaseChanged
from combat.kernel.state import EncounterState
from combat.rulesets.srd2024_variant.communication import CommunicateWithAllies, ReplyToAlly
from combat.rulesets.srd2024_variant.initiative import RerollTie, TieRerolled
from combat.rulesets.srd2024_variant.mounts import Carried, Mount, Mounted, SaveToStayMounted, StayedMounted
from combat.rulesets.srd2024_variant.movement import Traverse
from combat.rulesets.srd2024_variant.reorder import EndReorder, PassSwap, ProposeSwap, ReorderEnded, ReorderOpened
from combat.rulesets.srd2024_variant.traits import NoteTraits, TraitsNoted
from combat.rulesets.srd2024_variant.unarmed import EscapeAttempted, EscapeGrapple, UnarmedStrike, UnarmedStrikeMade
from tests.helpers import monster, pc, redone

NO_REORDER = {"initiative_reorder": False}


def _setup(encounters: Encounters, specs, notes=(), settings=None) -> UUID:
    eid = encounters.create("srd-2024-variant", "history at the ford", seed=5, settings=settings or NO_REORDER)
    for spec in specs:
        encounters.execute(eid, AddCombatant(combatant=spec))
    for note in notes:
        encounters.execute(eid, note)
    return eid


def _ford(encounters: Encounters) -> UUID:
    """Aria 18, the bugbear 12 (Strength +2, Proficiency +2: DC 12), a goblin 8 (Strength -1: DC 9),
    Sir Bran 5 on his trained warhorse Thunder (a controlled mount takes his count)."""
    eid = _setup(
        encounters,
        [
            pc("aria", con_save=2),
            pc("bran", name="Sir Bran", con_save=2),
            monster("thunder", side="party", size="large", speed=60, max_hp=30, ac=11),
            monster("bugbear", max_hp=33, ac=14),
            monster("goblin", size="small"),
        ],
        [
            NoteTraits(combatant="aria", strength=3, proficiency=2),
            NoteTraits(combatant="thunder", strength=4, proficiency=2, trained_mount=True),
            NoteTraits(combatant="bugbear", strength=2, proficiency=2),
            NoteTraits(combatant="goblin", strength=-1, proficiency=2),
            Mount(rider="bran", mount="thunder"),
        ],
    )
    encounters.execute(eid, BeginCombat())
    for cid, face in (("aria", 18), ("bugbear", 12), ("goblin", 8), ("bran", 5)):
        encounters.execute(eid, RollInitiative(combatant=cid, faces=(face,)))
    assert encounters.state(eid).turn == "aria"
    return eid


def _to_turn(encounters: Encounters, eid: UUID, cid: str) -> None:
    while encounters.state(eid).turn != cid:
        encounters.execute(eid, EndTurn(combatant=encounters.state(eid).turn))


def _seq_of(encounters: Encounters, eid: UUID, kind: type, **fields) -> int:
    """The seq of the last effective event of `kind` with these fields."""
    retracted = set(encounters.state(eid).retracted)
    return next(
        r.seq
        for r in reversed(list(encounters.records(eid)))
        if isinstance(r.event, kind) and r.seq not in retracted and all(getattr(r.event, k) == v for k, v in fields.items())
    )


def _conflicts(state: EncounterState) -> list[tuple[int, str, str]]:
    return [(c.seq, c.type, c.problem) for c in state.conflicts]


# -- undo and redo ----------------------------------------------------------------------


def test_an_undone_talk_gives_back_the_action_it_cost(encounters):
    """'The entity initiating the communication [uses] either an Action or a Bonus Action':
    Sam spends Aria's action on the plan, meant her bonus action, and the GM takes it back."""
    eid = _ford(encounters)
    before = encounters.state(eid)
    talk = encounters.execute(eid, CommunicateWithAllies(combatant="aria", listeners=("bran",), topic="take the bugbear"))
    assert talk.state.combatants["aria"].economy.action is False and talk.state.rules.talk is not None

    undo = encounters.undo_last(eid, reason="Sam meant the bonus action")

    state = encounters.state(eid)
    assert state.combatants["aria"].economy == before.combatants["aria"].economy
    assert state.rules.talk is None
    assert state.retracted == tuple(r.seq for r in talk.records)
    assert undo.records[0].event == EventsRetracted(seqs=state.retracted, reason="Sam meant the bonus action")
    encounters.execute(eid, CommunicateWithAllies(combatant="aria", listeners=("bran",), uses="bonus_action"))
    encounters.execute(eid, Attack(attacker="aria", target="goblin", faces=(2,)))  # the action is hers again


def test_undoing_the_undo_brings_the_talk_back_and_spends_the_action_again(encounters):
    eid = _ford(encounters)
    talk = CommunicateWithAllies(combatant="aria", listeners=("bran",))
    talking, state = redone(encounters, eid, talk, "the talk stands after all")
    assert state.combatants == talking.combatants and state.rules == talking.rules and state.conflicts == ()


def test_an_undone_grapple_lets_the_goblin_go_and_gives_back_arias_action(encounters):
    """'The target must succeed on a Constitution saving throw, or they [have] the Grappled
    condition': undone, the goblin was never held and Aria has her action."""
    eid = _ford(encounters)
    encounters.execute(eid, UnarmedStrike(attacker="aria", target="goblin", option="grapple", faces=(1,)))
    assert encounters.state(eid).combatants["goblin"].has("grappled")

    encounters.undo_last(eid, reason="the goblin was across the stream")

    state = encounters.state(eid)
    assert not state.combatants["goblin"].has("grappled") and state.rules.grapples == ()
    assert state.combatants["aria"].economy.action is True


# -- amended rulings and the conflicts they leave ----------------------------------------


def test_a_corrected_strength_makes_the_old_dcs_conflicts_until_the_gm_rules(encounters):
    """'The DC ... equals 8 plus your Strength modifier and Proficiency Bonus.' The bugbear's
    Strength is +3, not +2: its grapple had DC 13, not 12. Re-decided with the same d20 (5 + 2),
    Aria is still held, but her escape (10 + 2 = 12) was against DC 12 and would not beat 13."""
    eid = _ford(encounters)
    _to_turn(encounters, eid, "bugbear")
    encounters.execute(eid, UnarmedStrike(attacker="bugbear", target="aria", option="grapple", faces=(5,)))
    _to_turn(encounters, eid, "aria")
    encounters.execute(eid, EscapeGrapple(combatant="aria", bonus=2, faces=(10,)))
    strike = _seq_of(encounters, eid, UnarmedStrikeMade)
    escape = _seq_of(encounters, eid, EscapeAttempted)
    assert encounters.state(eid).rules.grapples == ()

    encounters.amend(
        eid,
        [_seq_of(encounters, eid, TraitsNoted, combatant="bugbear")],
        NoteTraits(combatant="bugbear", strength=3, proficiency=2),
        reason="the stat block says Strength 17",
    )
    assert _conflicts(encounters.state(eid)) == [
        (strike, "UnarmedStrikeMade", "Bugbear's grapple DC would be 13 with the Strength and Proficiency noted now, not 12")
    ]

    encounters.amend(
        eid,
        [strike],
        UnarmedStrike(attacker="bugbear", target="aria", option="grapple", faces=(5,)),
        reason="the grapple's DC is 13",
    )
    state = encounters.state(eid)
    assert _conflicts(state) == [
        (escape, "EscapeAttempted", "the escape DC of Bugbear's grapple is 13, not 12 (12 would not escape)")
    ]

    encounters.override(eid, [escape], ruling="Aria slipped free anyway: the table saw it happen")
    state = encounters.state(eid)
    assert state.conflicts == () and state.rules.grapples == ()
    assert replay(list(encounters.records(eid))) == state


def test_a_shove_amended_for_cover_leaves_a_save_to_stay_mounted_that_no_one_owed(encounters):
    """'While mounted, you must make the same save if you're knocked Prone.' The goblin's shove
    (DC 9) knocked Sir Bran Prone on a 5 + 2; the GM rules he had half cover behind Thunder's
    neck (Δ '+2 bonus to AC and Constitution saves'): 9 saves, so his save to stay in the
    saddle was never owed. The GM retracts that save."""
    eid = _ford(encounters)
    _to_turn(encounters, eid, "goblin")
    encounters.execute(eid, UnarmedStrike(attacker="goblin", target="bran", option="shove", faces=(5,)))
    assert encounters.state(eid).rules.falls_pending == ("bran",)
    save = encounters.execute(eid, SaveToStayMounted(rider="bran", faces=(15,)))
    stayed = next(r.seq for r in save.records if isinstance(r.event, StayedMounted))
    shove = _seq_of(encounters, eid, UnarmedStrikeMade)

    encounters.amend(
        eid,
        [shove],
        UnarmedStrike(attacker="goblin", target="bran", option="shove", cover="half", faces=(5,)),
        reason="half cover",
    )

    assert _conflicts(encounters.state(eid)) == [(stayed, "StayedMounted", "Sir Bran owes no save to stay mounted")]
    # One predicate says it: the save he would try now is refused in the very same words.
    with pytest.raises(RuleError) as refused:
        encounters.execute(eid, SaveToStayMounted(rider="bran", faces=(15,)))
    assert (refused.value.code, refused.value.message) == ("mount/no-save", "Sir Bran owes no save to stay mounted")
    encounters.retract(eid, [r.seq for r in save.records], reason="he never had to save")
    state = encounters.state(eid)
    assert state.conflicts == () and not state.combatants["bran"].has("prone")
    assert state.rules.falls_pending == () and state.rules.mounts[0].rider == "bran"


def test_a_killing_blow_amended_to_a_miss_means_the_fight_was_not_over(encounters):
    """'Combat ends when one side or the other is defeated': with half cover Aria's 11 + 5 no
    longer hits the first goblin (AC 17), so the fight her second swing ended is not decided;
    the GM takes back its end and play goes on."""
    eid = _setup(encounters, [pc("aria", attacks_per_action=2), monster("goblin-1", ac=15), monster("goblin-2", ac=15)])
    encounters.execute(eid, BeginCombat())
    for cid, face in (("aria", 18), ("goblin-1", 8), ("goblin-2", 6)):
        encounters.execute(eid, RollInitiative(combatant=cid, faces=(face,)))
    first = encounters.execute(eid, Attack(attacker="aria", target="goblin-1", faces=(11,), damage_faces=(6,)))
    second = encounters.execute(eid, Attack(attacker="aria", target="goblin-2", faces=(11,), damage_faces=(6,)))
    assert encounters.state(eid).phase == "ended"
    ended = [r.seq for r in second.records if isinstance(r.event, (PhaseChanged, CombatEnded))]

    encounters.amend(
        eid,
        [first.records[0].seq],
        Attack(attacker="aria", target="goblin-1", faces=(11,), cover="half"),
        reason="goblin 1 was behind the cart",
    )

    state = encounters.state(eid)
    assert state.combatants["goblin-1"].status == "active"
    assert _conflicts(state) == [
        (ended[-1], "CombatEnded", "Goblin 1 of the monsters side is standing now, so the fight was not decided")
    ]
    encounters.retract(eid, ended, reason="goblin 1 still stands: the fight goes on")
    state = encounters.state(eid)
    assert state.conflicts == () and state.phase == "turns" and state.winner is None
    encounters.execute(eid, EndTurn(combatant="aria"))
    assert encounters.state(eid).turn == "goblin-1"


def test_a_surprise_taken_back_changes_who_could_propose_a_swap(encounters):
    """'A surprised combatant cannot swap places': the GM rules Brother Tomas was not surprised
    after all, so he should have had his chance in the reorder. The GM lets the order stand."""
    eid = _setup(
        encounters,
        [pc("aria"), pc("tomas", name="Brother Tomas"), pc("bran", name="Sir Bran"), monster("goblin")],
        settings={"initiative_reorder": True},
    )
    encounters.execute(eid, BeginCombat())
    surprise = encounters.execute(eid, MarkSurprised(combatants=("tomas",)))
    for cid, faces in (("aria", (18,)), ("tomas", (15, 20)), ("bran", (9,)), ("goblin", (12,))):
        encounters.execute(eid, RollInitiative(combatant=cid, faces=faces))
    opened = _seq_of(encounters, eid, ReorderOpened)
    assert encounters.state(eid).rules.reorder_queue == ("aria", "bran")
    for cid in ("aria", "bran"):
        encounters.execute(eid, PassSwap(combatant=cid))
    encounters.execute(eid, EndReorder())

    encounters.retract(eid, [r.seq for r in surprise.records], reason="Tomas heard them coming")

    state = encounters.state(eid)
    assert _conflicts(state) == [
        (opened, "ReorderOpened", "the players who may propose a swap would now be Aria, Brother Tomas, Sir Bran, in that order")
    ]
    encounters.override(eid, [opened], ruling="Tomas keeps his place; nobody wanted to swap")
    assert encounters.state(eid).conflicts == ()


def test_a_mount_taken_back_could_not_have_carried_its_rider_on_his_turn(encounters):
    """'It moves on your turn as you direct it': had Sir Bran never mounted Thunder, Thunder
    could not have moved on his turn nor carried him."""
    eid = _ford(encounters)
    _to_turn(encounters, eid, "bran")
    move = encounters.execute(eid, Traverse(combatant="thunder", feet=30))
    carried = next(r.seq for r in move.records if isinstance(r.event, Carried))
    moved = move.records[0].seq

    encounters.retract(eid, [_seq_of(encounters, eid, Mounted)], reason="Bran was on foot")

    problems = {seq: problem for seq, _, problem in _conflicts(encounters.state(eid))}
    assert problems[moved] == "it is Sir Bran's turn, not Thunder's"
    assert problems[carried] == "Sir Bran was not riding Thunder, so it could not carry them"


# -- a sanity check over a whole recorded fight -------------------------------------------


def test_any_command_of_the_demo_fight_can_be_undone_and_redone(encounters):
    """Retracting any one command of the ford skirmish (seed 15, which already argues over
    round one) never breaks the replay, and retracting that retraction gives the fight back."""
    eid = get_demo("srd-2024-variant")(encounters, seed=15, report=lambda outcome: None)
    records = list(encounters.records(eid))
    original = encounters.state(eid)
    commands: dict[str, list[int]] = {}
    for r in records[1:]:
        if not isinstance(r.event, HISTORY_TYPES) and r.seq not in original.retracted:
            commands.setdefault(r.command_id, []).append(r.seq)
    assert len(commands) > 50
    last = records[-1]
    for i, seqs in enumerate(commands.values()):
        undo = msgspec.structs.replace(
            last,
            originator_version=last.seq + 1,
            command_id=f"undo-{i}",
            event=EventsRetracted(seqs=tuple(seqs), reason="sanity"),
        )
        redo = msgspec.structs.replace(
            last,
            originator_version=last.seq + 2,
            command_id=f"redo-{i}",
            event=EventsRetracted(seqs=(undo.seq,), reason="sanity"),
        )
        undone = replay([*records, undo])
        assert set(seqs) <= set(undone.retracted)
        again = replay([*records, undo, redo])
        assert (again.combatants, again.rules, again.phase, again.round, again.turn, again.rolls) == (
            original.combatants,
            original.rules,
            original.phase,
            original.round,
            original.turn,
            original.rolls,
        )
        assert again.conflicts == original.conflicts


# -- the check after a changed past says what the guard says ------------------------------


def test_a_tie_amended_away_leaves_the_rerolls_in_the_words_a_reroll_is_refused_with(encounters):
    """'The players reroll a D20 to decide the order among tied characters.' Aria and Bram both
    rolled 15 and rerolled; the GM amends Bram's roll to 12 (he had forgotten a -3). No tie is
    left: Aria's reroll is listed in the very words a reroll of hers is refused with now."""
    eid = _setup(encounters, [pc("aria"), pc("bram"), monster("goblin")])
    encounters.execute(eid, BeginCombat())
    encounters.execute(eid, RollInitiative(combatant="aria", faces=(15,)))
    encounters.execute(eid, RollInitiative(combatant="goblin", faces=(5,)))
    bram = encounters.execute(eid, RollInitiative(combatant="bram", faces=(15,)))
    encounters.execute(eid, RerollTie(combatant="aria", faces=(6,)))
    reroll = _seq_of(encounters, eid, TieRerolled, combatant="aria")

    encounters.amend(eid, [r.seq for r in bram.records], RollInitiative(combatant="bram", faces=(12,)), reason="Bram rolled 12")

    problems = {seq: problem for seq, _, problem in _conflicts(encounters.state(eid))}
    assert problems[reroll] == "Aria is not in a tie among player characters"
    with pytest.raises(RuleError) as refused:
        encounters.execute(eid, RerollTie(combatant="aria", faces=(20,)))
    assert (refused.value.code, refused.value.message) == ("initiative/no-reroll", "Aria is not in a tie among player characters")


def test_a_talk_amended_to_another_listener_leaves_the_reply_in_the_words_a_reply_is_refused_with(encounters):
    """'If a reply is needed, replying entities use their Reaction.' Aria talked with Sir Bran and
    he replied; the GM amends the talk: she spoke to Thunder. Bran's reply is listed in the very
    words his reply is refused with now."""
    eid = _ford(encounters)
    talk = encounters.execute(eid, CommunicateWithAllies(combatant="aria", listeners=("bran",)))
    reply = encounters.execute(eid, ReplyToAlly(combatant="bran"))

    encounters.amend(
        eid, [r.seq for r in talk.records], CommunicateWithAllies(combatant="aria", listeners=("thunder",)), reason="to the horse"
    )

    assert _conflicts(encounters.state(eid)) == [(reply.records[0].seq, "AllyReplied", "no ally is waiting for Sir Bran's reply")]
    with pytest.raises(RuleError) as refused:
        encounters.execute(eid, ReplyToAlly(combatant="bran"))
    assert (refused.value.code, refused.value.message) == ("communicate/not-addressed", "no ally is waiting for Sir Bran's reply")


def test_a_pass_amended_to_a_proposal_leaves_the_reorder_ended_in_the_words_end_reorder_is_refused_with(encounters):
    """'Each player, in order of highest to lowest Initiative, can propose to swap their place
    with another player.' Aria passed, Sir Bran passed, the GM ended the reorder; then the GM
    amends Aria's pass: she had proposed a swap with Bran. The end came while her proposal
    waited for his answer; once the GM takes the end back, ending is refused in the same words."""
    eid = _setup(encounters, [pc("aria"), pc("bran", name="Sir Bran"), monster("goblin")], settings={"initiative_reorder": True})
    encounters.execute(eid, BeginCombat())
    for cid, face in (("aria", 18), ("bran", 9), ("goblin", 12)):
        encounters.execute(eid, RollInitiative(combatant=cid, faces=(face,)))
    passed = encounters.execute(eid, PassSwap(combatant="aria"))
    encounters.execute(eid, PassSwap(combatant="bran"))
    end = encounters.execute(eid, EndReorder())

    encounters.amend(eid, [r.seq for r in passed.records], ProposeSwap(combatant="aria", other="bran"), reason="she asked Bran")

    problems = {seq: problem for seq, _, problem in _conflicts(encounters.state(eid))}
    assert problems[_seq_of(encounters, eid, ReorderEnded)] == "Aria's proposal to Sir Bran awaits an answer"
    encounters.retract(eid, [r.seq for r in end.records], reason="Bran has yet to answer")
    with pytest.raises(RuleError) as refused:
        encounters.execute(eid, EndReorder())
    assert (refused.value.code, refused.value.message) == (
        "reorder/proposal-open",
        "Aria's proposal to Sir Bran awaits an answer",
    )


def test_a_move_amended_to_stay_in_reach_leaves_the_opportunity_attack_in_the_words_one_is_refused_with(encounters):
    """'You can make an Opportunity Attack when a creature that you can see leaves your reach.'
    The goblin ran past Aria and she struck at it; the GM amends the move: it never left her
    reach. Her Opportunity Attack is listed, and once the GM takes it back, the same attack is
    refused in the same words."""
    eid = _ford(encounters)
    _to_turn(encounters, eid, "goblin")
    run = encounters.execute(eid, Traverse(combatant="goblin", feet=10, leaves_reach_of=("aria",)))
    strike = encounters.execute(eid, OpportunityAttack(attacker="aria", target="goblin", faces=(3,)))

    encounters.amend(eid, [r.seq for r in run.records], Traverse(combatant="goblin", feet=10), reason="it kept to her side")

    problems = {seq: problem for seq, _, problem in _conflicts(encounters.state(eid))}
    assert problems[_seq_of(encounters, eid, AttackMade)] == "Goblin has not left Aria's reach without Disengaging this turn"
    encounters.retract(eid, [r.seq for r in strike.records], reason="no opening")
    with pytest.raises(RuleError) as refused:
        encounters.execute(eid, OpportunityAttack(attacker="aria", target="goblin", faces=(3,)))
    assert (refused.value.code, refused.value.message) == (
        "attack/no-opportunity",
        "Goblin has not left Aria's reach without Disengaging this turn",
    )

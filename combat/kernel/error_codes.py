"""Every error code the engine, the application and the HTTP service reject with, and what it means.

A rejection carries a stable `area/what` code (`RuleError`, `ApiError`): clients branch on it,
the service maps it to an HTTP status (`combat.service.errors.status_of_code`), and the docs
list it (`reference/errors.md`, generated from this table by `mkdocs_hooks.py`).

The call sites keep their literal codes (`RuleError("economy/action-spent", ...)`): reading the
rule and its code on one line is worth more than a constant. `tests/kernel/test_error_codes.py` reads
the source with `ast` and holds the two together: a code raised but not listed here fails, and
so does a code listed here that nothing raises. A code built by an f-string
(`f"economy/{resource}-spent"`) is listed by its expansions; `http/{status}` stands for any
other HTTP error the web framework raises. A ruleset loaded as a plug-in may use codes of its own.

The meanings were drafted from each code's message (`…` where the message names a creature
or a number) and are one line each.
"""

from __future__ import annotations

__all__ = ["ERROR_CODES"]

ERROR_CODES: dict[str, str] = {
    "action/free-empty": "say what the free action is",
    "action/major-used": "… has already had its major action this round",
    "action/not-bonus": "… cannot be taken as a bonus action",
    "action/own-command": "the action has its own command",
    "action/speed-zero": "you cannot take the Dodge action when your Speed is reduced to 0",
    "action/unknown": "'…' is not an action",
    "action/use-attack": "the Attack action is its own command",
    "action/what": "say what the action is",

    "amend/history": "an undo or override is not a ruling to amend",

    "amount/ambiguous": "give either an amount or dice notation",
    "amount/negative": "amount … is negative",
    "amount/not-positive": "temporary HP of …",

    "attack/above-held": "… is …: no expertise die from above",
    "attack/above-melee": "attacking from above gives its expertise die on melee attacks",
    "attack/critical-range": "a Critical Hit from a natural …",
    "attack/critical-range-claim": "…'s sheet gives …, not from …",
    "attack/damage-pending": "…'s … hit and its … damage is still to be rolled",
    "attack/damage-type": "an empty damage type",
    "attack/distance": "a distance of … ft",
    "attack/extra-damage-claim": "…'s sheet gives no extra damage of …",
    "attack/knock-out-later": "a knock-out is decided with the damage, which this attack leaves for later",
    "attack/knock-out-ranged": "… is a ranged attack; only a melee attack can knock out",
    "attack/multiplier": "a damage multiplier below 1",
    "attack/no-extra-damage": "… has no extra damage to roll",
    "attack/no-flank": "… is not an ally of …",
    "attack/no-free-attack": "the combatant has no free attack to make",
    "attack/no-opportunity": "no Opportunity Attack is owed: the target did not leave the attacker's reach",
    "attack/no-room": "… needs … ft of space and every square around is taken",
    "attack/no-sneak": "no sneak attack: the conditions for it are not met",
    "attack/no-sneak-attack": "…'s sheet has no Sneak Attack",
    "attack/none": "… has no …attack",
    "attack/not-readied": "… has no readied action",
    "attack/out-of-range": "… is … ft away; … reaches … ft",
    "attack/out-of-reach": "… is … ft away, not in melee",
    "attack/readied-bonus": "a readied attack is taken with the reaction",
    "attack/routine-used": "… has made its first routine",
    "attack/routines-used": "the combatant has used all its attack routines this round",
    "attack/sneak-attack-disadvantage": "…'s roll has Disadvantage, so no Sneak Attack: \"you don't have Disadvantage on the attack roll\"",
    "attack/sneak-attack-used": "… has used Sneak Attack this turn: \"Once per turn\"",
    "attack/sneak-attack-weapon": "… is neither a Finesse nor a Ranged weapon",
    "attack/total-cover": "… has Total Cover and can't be targeted directly",
    "attack/unknown": "… has no attack called '…'",

    "auth/admin-required": "creating encounters on this server needs its admin token",
    "auth/expired": "the token has expired",
    "auth/gm-command": "'…' is the GM's to send",
    "auth/gm-only": "only the GM may …; this is a … token",
    "auth/missing": "this needs a token of the encounter",
    "auth/not-your-character": "this token's encounter gives no access to …",
    "auth/not-your-combatant": "… does not command …",
    "auth/other-encounter": "the token belongs to another encounter",
    "auth/read-only": "a … token only reads",
    "auth/revoked": "the token was revoked",
    "auth/unknown-token": "the token is not one this service issued",

    "character/bad-level": "level … is out of range",
    "character/bad-scores": "the six ability scores cannot be read",
    "character/bad-size": "a … cannot be …",
    "character/bad-spell": "… is not a spell name",
    "character/changed": "… was changed by someone else at the same moment",
    "character/dead": "… died in an earlier fight",
    "character/invalid": "the character sheet is invalid",
    "character/malformed": "the character file is not JSON",
    "character/no-name": "a character needs a name",
    "character/no-sheet": "… did not join by a character sheet",
    "character/no-uses": "no number of uses for …",
    "character/not-a-caster": "a … casts no spells",
    "character/not-found": "no sheet for '…' here: a character is named from the service's party store, which fills its sheet in",
    "character/subclass-too-early": "a … chooses a subclass at level …",
    "character/unknown": "no character '…' in the party",
    "character/unknown-armor": "no SRD 5.2 armor of that name",
    "character/unknown-class": "no SRD 5.2 class of that name",
    "character/unknown-skill": "no skill is called …",
    "character/unknown-species": "no SRD 5.2 species (or species option) of that name",
    "character/unknown-subclass": "no subclass of that name for the class",
    "character/unknown-weapon": "no SRD 5.2 weapon of that name",

    "check/ability": "'…' is not an ability",
    "check/skill": "'…' is not a skill",

    "cli/arguments": "the command line's arguments are wrong",
    "cli/seq": "seqs are whole numbers, not …",

    "combat/one-side": "a fight needs at least two sides",
    "combat/unknown-side": "no side called '…'",

    "combatant/down": "… is … and cannot concentrate",
    "combatant/duplicate": "'…' is already in the fight",
    "combatant/incapacitated": "… is …",
    "combatant/invalid": "the combatant is invalid",
    "combatant/unknown": "no combatant '…'",

    "command-id/invalid": "… is not usable as a command id",
    "command-id/mismatch": "the Idempotency-Key header and the body's command_id differ",
    "command-id/reused": "command id … was already used for another request; a repeat with the same id must send the same request",
    "command-id/taken": "command id … was sent by another sender",

    "command/gm-field": "… may not set … in '…': DCs, bonuses and reasons come from the stat block, the conditions or the GM, and another creature's dice from its own roller",
    "command/invalid": "invalid …: …",
    "command/malformed": "command is not valid JSON: …",
    "command/other-ruleset": "a command of another ruleset than the encounter's",
    "command/unknown": "… has no command '…'",
    "command/unsupported": "… has no rule for '…'",

    "communicate/foe": "… is a foe: swaying a foe takes the Influence action",
    "communicate/nobody": "… addresses no one",
    "communicate/not-addressed": "the combatant was not addressed, so cannot reply",

    "concentration/no-check": "no concentration save is owed",
    "concentration/none": "the combatant is not concentrating",

    "condition/absent": "… is not prone",
    "condition/duration": "'…' ends at the … of a turn, but whose turn is not named",
    "condition/effect-alone": "'…' names the effect … but not who concentrates on it",
    "condition/empty": "a condition needs a name",
    "condition/lasting-effect": "… does not run … on a condition",
    "condition/lasting-wound": "a lasting wound is set by the wound rules, not applied by hand",
    "condition/level": "a level for '…' is set by the rules, not given",
    "condition/not-concentrating": "… is not concentrating on anything to hold '…'",
    "condition/not-custom": "a condition of the ruleset sent as custom",
    "condition/rounds": "'…' cannot last … rounds",
    "condition/save-dc": "a DC of … for the repeated save",
    "condition/unknown": "not a condition of the ruleset (send it as custom)",
    "condition/until-round": "the round a condition runs out in is set by the rules from its rounds",

    "contest/self": "a contest is between two combatants",

    "cover/constitution-only": "cover adds to AC and Constitution saves in this variant, not to … saves",
    "cover/none": "no cover named",
    "cover/total": "… has Total Cover and can't be targeted directly",

    "creature/aac0": "cannot read AAC0 …",
    "creature/class": "no attack table for class …",
    "creature/count": "count …",
    "creature/duplicate": "'…' is already in the fight",
    "creature/faces": "faces are for rolled hit points",
    "creature/hit-dice": "cannot read hit dice …",
    "creature/invalid": "the creature is invalid",
    "creature/is-an-attack": "… is an attack",
    "creature/level": "… has no attack row for level …",
    "creature/no-attack-table": "… has no attack table",
    "creature/no-hit-dice": "…'s stat block gives no hit dice to roll",
    "creature/no-stat-block": "… was not added from a stat block",
    "creature/no-uses-left": "… has used …/day already",
    "creature/recharging": "…'s … is spent until it recharges (Recharge …, rolled at the start of its turn)",
    "creature/unknown": "no creature called '…' in the bestiary",
    "creature/unknown-action": "… has no action called '…'",

    "damage-type/empty": "a damage type needs a name",
    "damage-type/not-custom": "a damage type of the ruleset sent as custom",
    "damage-type/unknown": "not a damage type of the ruleset (send it as custom)",

    "damage/cover-not-area": "cover halves only area effects; direct attacks that hit do full damage",
    "damage/cover-unknown": "… is not a target",
    "damage/nothing-pending": "no attack's damage is waiting to be rolled",
    "damage/targets": "name each target once",

    "death-save/not-owed": "… owes no Death Saving Throw: one is made at the start of a turn begun at 0 HP, not Stable",

    "declaration/cannot-act": "the combatant cannot act, so cannot declare",
    "declaration/casting-time": "casting time below 1 segment",
    "declaration/gm-rules": "only the GM can allow a change to a declared action",
    "declaration/locked": "… declared … and cannot switch to …",
    "declaration/minor": "minor actions cannot take negative time",
    "declaration/mismatch": "the action does not match what was declared",
    "declaration/missing": "an action is not declared yet",
    "declaration/no-routine": "… has no … routine…",
    "declaration/no-time-limit": "this table sets no time limit for declarations",
    "declaration/none": "nothing was declared for this",
    "declaration/not-yours": "… cannot declare for …",
    "declaration/required": "… declared nothing, and … must be declared",
    "declaration/spell-name": "a spell declaration names the spell",
    "declaration/still-casting": "… is still casting …",
    "declaration/unknown-action": "'…' is not an action",

    "delay/after-major": "… has already had its major action this round",
    "delay/already-delayed": "… is already delayed this round",

    "demo/none": "there is no demo fight for '…'",

    "dice/bad-face": "face … is not possible on a d…",
    "dice/bad-notation": "cannot read dice notation …: …",
    "dice/damage-later": "extra damage faces were entered for … without its damage_faces",
    "dice/extra-faces": "… lists of extra damage faces for … extra damage",
    "dice/face-count": "… is … strike(s) but … d20 face(s) were entered",
    "dice/faces": "faces …",
    "dice/faces-count": "more … rolls than the … entered",
    "dice/impossible": "cannot roll …: …",
    "dice/too-few-faces": "… needs more dice than the … face(s) entered",
    "dice/too-many": "… rolls too many dice",
    "dice/too-many-faces": "… rolls … dice but … faces were entered",
    "dice/unused-faces": "faces were entered for a roll that is not made",
    "dice/whose-faces": "faces were entered but …",

    "disengage/no-foe": "no foe is in melee to disengage from",

    "economy/action-spent": "the action is used this turn",
    "economy/attack-spent": "the attacks of this turn are used",
    "economy/bonus-action-spent": "the bonus action is used this turn",
    "economy/move-spent": "the move of this round is used (declared-d10)",
    "economy/movement": "not enough movement left for this",
    "economy/object-interaction-spent": "the free object interaction is used this turn",
    "economy/reaction-spent": "the reaction is used this round",
    "economy/still-has": "the combatant still has that resource; nothing to give back",

    "encounter/ambiguous": "'…' matches … encounters",
    "encounter/bad-id": "'…' is not an encounter id",
    "encounter/bad-name": "an encounter needs a name",
    "encounter/none": "which encounter? none given and none chosen with `combat use`",
    "encounter/unknown": "no encounter '…' in this store",

    "fall-back/not-pressed": "falling back needs a foe pressing the combatant",
    "fall-back/raging": "a raging combatant cannot fall back",

    "fork/at": "seq … is outside the log",

    "foundry/malformed": "the Foundry VTT actor file is not JSON",
    "foundry/no-abilities": "the actor has no system.abilities",
    "foundry/not-a-character": "the actor is of type '…', not a player character",
    "foundry/not-an-actor": "the file is not a Foundry VTT actor (no 'type')",

    "free-attack/cause": "say what drew the free attack",
    "free-attack/not-drawn": "… has not drawn a free attack from …",
    "free-attack/once-per-opponent": "… has already been attacked by … this round",
    "free-attack/one-per-segment": "… has already made a free attack in segment …",
    "free-attack/surprised": "a surprised combatant cannot make a free attack",

    "grapple/already": "the target is already grappled",
    "grapple/no-free-hand": "grappling needs a free hand",
    "grapple/none": "the combatant is not grappling anyone",
    "grapple/not-grappled": "the combatant is not grappled",
    "grapple/same-round": "an escape waits for the round after the grapple",
    "grapple/target": "this creature cannot be grappled",

    "grid/no-position": "… is not on the map",
    "grid/occupied": "… stands where a wall was put",
    "grid/same-square": "… shares a square with …: combat cannot take place while in the same square",
    "grid/wall": "(…, …) is a wall",

    "help/target": "Help names the enemy your ally will attack, or an ally to stabilise at 0 HP or give first aid",

    "history/reason": "say why",

    "hp/out-of-range": "hit points outside 0 to the maximum",

    "http/{status}": "another HTTP error, with its status",

    "immediate/cause": "an immediate attack answers a trigger",
    "immediate/no-major": "an immediate attack needs the major action still unspent",
    "immediate/surprised": "a surprised combatant cannot make an immediate attack",

    "initiative/all-rolled": "everyone has rolled initiative already",
    "initiative/already-acted": "the combatant has already acted this round",
    "initiative/already-rolled": "the combatant or side has already rolled initiative",
    "initiative/bad-order": "… is not a list of members of '…' each named once",
    "initiative/cannot-act": "the combatant cannot act now",
    "initiative/check-made": "… already made … (…) in the surprise step; that score is its initiative",
    "initiative/fixed": "the tie at … was settled and the rounds have begun",
    "initiative/gm-decides": "the tie at … involves monsters, so the GM decides its order",
    "initiative/group-not-identical": "… differs from … in …; one roll is for identical entities",
    "initiative/mount-follows-rider": "… is a controlled mount: its Initiative is its rider's",
    "initiative/no-reroll": "no tie among player characters is waiting for a reroll",
    "initiative/no-such-tie": "… is not the full list of one tie",
    "initiative/no-tie": "no tie is waiting to be settled",
    "initiative/not-your-group": "… cannot order group '…'",
    "initiative/not-your-tie": "… has no character in the tie at …",
    "initiative/players-reroll": "the tie at … is among player characters: they reroll a d20 to order it",
    "initiative/reroll-waiting": "a tie among player characters waits for their reroll",
    "initiative/unknown-group": "no group '…'",
    "initiative/unknown-side": "no side of that name to roll initiative",
    "initiative/unsettled": "initiative is not settled: …",

    "jump/too-far": "the jump is longer than the combatant can jump",

    "legendary/no-attack": "… makes no attack",
    "legendary/no-failed-save": "… has no failed saving throw to turn into a success",
    "legendary/no-resistance": "… has no Legendary Resistance",
    "legendary/no-resistance-left": "… has used all its Legendary Resistance today",
    "legendary/no-uses-left": "… has … legendary action use(s) left, … costs …",
    "legendary/not-now": "…'s legendary actions come right after another creature's turn",
    "legendary/once": "… can't take … again until the start of its next turn",
    "legendary/unknown": "… has no legendary action called '…'",

    "limits/encounters": "this credential has created … encounters",
    "limits/events": "the command would append more events than one command may",
    "limits/text": "a text is longer than the limit",

    "log/bad-line": "a line of the file is not an event of this format",
    "log/empty": "the log holds no events",
    "log/hash-missing": "a row of the stored log lost its hash: nothing of the encounter is served until it is restored",
    "log/no-start": "a log must begin with EncounterCreated",
    "log/seq-gap": "line …: seq … follows seq …",
    "log/tampered": "the stored log breaks its hash chain: nothing of the encounter is served until it is restored",
    "log/unreadable-row": "a row of the stored log does not decode as a record (edited by hand)",

    "method/not-allowed": "… is not allowed here",

    "minor/gm-delay": "a delay for several minor actions cannot be negative",
    "minor/time": "a minor action takes 1 segment or none, not …",

    "mount/already-riding": "the rider is already mounted",
    "mount/controlled-actions": "a controlled mount has only three action options, not …",
    "mount/grouped": "… shares its group's Initiative and cannot take its rider's",
    "mount/no-save": "no save to stay mounted is owed",
    "mount/not-riding": "… is not mounted",
    "mount/riding": "a mounted combatant cannot do this",
    "mount/self": "… cannot ride itself",
    "mount/taken": "the mount already carries a rider",
    "mount/too-small": "… (…) is not at least one size larger than … (…)",
    "mount/unable": "the mount cannot carry a rider now",
    "mount/untrained": "the creature is not trained to be ridden",
    "mount/unwilling": "… is not willing to carry …",

    "move/ally": "… is an ally of …",
    "move/blocked": "… cannot pass through …'s space",
    "move/close-in": "closing in is not possible from here",
    "move/difficult-terrain": "… ft of Difficult Terrain in a move of … ft",
    "move/distance": "cannot move … ft",
    "move/grappled": "a grappled combatant cannot move",
    "move/mode": "'…' is not a kind of movement",
    "move/no-speed": "… has no … Speed",
    "move/not-grappling": "the combatant is not grappling anyone to drag",
    "move/nowhere": "… is already on (…, …)",
    "move/positioning-before-major": "positioning can only be done after a major action",
    "move/positioning-in-melee": "… is in melee with …; positioning cannot be done in melee",
    "move/prone": "a prone combatant must stand up first",
    "move/speed": "… ft is not a speed",
    "move/through-foe": "… cannot pass through …'s square",
    "move/too-far": "… ft is more than … can move now (… ft)",

    "multiattack/none": "…'s stat block lists no attacks to make as a Multiattack (…)",
    "multiattack/not-listed": "…'s Multiattack has no … attack left to make",
    "multiattack/which": "no routine …",

    "opposed/sides": "an opposed roll needs what is at stake and two different sides",

    "override/no-conflict": "no conflict at seq …",

    "partitions/count": "…=… is not a partition count",
    "partitions/mismatch": "this store has … partition… (recorded when it was made); …=… would look for encounters where they are not",
    "partitions/sqlite": "…=…: an SQLite store is one partition (SQLite locks the whole file for each write, so more tables would not help)",

    "path/not-found": "no such path: …",

    "phase/not-allowed": "the command is not allowed in the encounter's phase",

    "press/after-attack": "pressing comes after an attack",
    "press/already-pressed": "the target is already pressed",
    "press/target": "the target cannot be pressed",

    "prone/already": "… is already Prone",
    "prone/not-prone": "the combatant is not prone",
    "prone/speed-zero": "…'s Speed is 0, so it can't stand up",

    "rage/already": "… is already raging",
    "rage/not-raging": "… is not raging",

    "recharge/due": "… rolls to recharge … at the start of its turn",
    "recharge/not-due": "…'s … has no recharge",

    "reorder/down": "… is … and cannot swap places",
    "reorder/gm-decides": "… is the GM's to move",
    "reorder/gm-ends": "the GM ends the reorder",
    "reorder/mount-follows-rider": "… is a controlled mount: its place is its rider's",
    "reorder/not-asked": "no reorder was asked for",
    "reorder/not-your-character": "… does not play …",
    "reorder/not-your-turn": "a reorder is asked on one's own turn",
    "reorder/players-only": "a player swaps with another player, not with …",
    "reorder/players-waiting": "players are still choosing in the reorder",
    "reorder/proposal-open": "a reorder proposal is already open",
    "reorder/self": "… cannot swap places with itself",
    "reorder/surprised": "a surprised combatant cannot swap places",

    "replay/at": "--at … is outside the log",
    "replay/no-expected": "no expected state beside the log (…)",

    "request/bad-parameter": "…=… is not true or false",
    "request/invalid": "the body does not match the schema",
    "request/malformed": "the body is not JSON in UTF-8: …",
    "request/too-deep": "the body nests deeper than … levels",
    "request/too-large": "the body is larger than this service takes",

    "resource/no-sheet": "… did not join by a character sheet, so has no features to count",
    "resource/spent": "… has no use of … left",
    "resource/unknown": "…'s sheet has no feature called '…'",

    "rest/dead": "… is dead",
    "rest/hit-dice": "Hit Point Dice are spent on a Short Rest",
    "rest/kind": "which rest?",

    "retract/already": "seq … is already retracted",
    "retract/nothing": "name at least one seq to retract",
    "retract/part-of-command": "seq … is only part of what its command did; it also made …",
    "retract/seq": "seq … is not an event that can be retracted",

    "reveal/unknown": "nothing hidden of that name to reveal",

    "ruleset/duplicate": "a ruleset '…' is already registered",
    "ruleset/unknown": "no ruleset of that id (404 when it is in the path, 422 in a body)",

    "ruling/empty": "a ruling needs its words",

    "save-effect/action-source": "the action … needs its creature as source, not '…'",
    "save-effect/damage-type": "the damage … has no damage type",
    "save-effect/dc": "a DC of …",
    "save-effect/no-damage": "… given, but the effect rolls no damage",
    "save-effect/no-targets": "an effect with no one to save against it",
    "save-effect/same-target": "… named more than once",

    "save/ability": "'…' is not an ability",
    "save/cover": "cover gives no bonus to saving throws in segments-1e",
    "save/cover-not-dexterity": "cover adds to Dexterity saving throws, not …",
    "save/dc": "a DC of …",
    "save/no-dc": "this … save needs its DC here",
    "save/none-to-judge": "… has no saving throw awaiting its DC",
    "save/total-cover": "a creature behind Total Cover can't be targeted directly",

    "scene/two-environments": "name an example environment or send your own, not both",
    "scene/unknown-environment": "no example environment '…'",

    "serve/admin-token": "on … creating encounters needs an admin token",

    "server/internal": "the service failed on this request",

    "settings/invalid": "… cannot be …",
    "settings/unknown": "unknown setting(s) for …: …",

    "spell/already-casting": "… is already casting …",
    "spell/cantrip-slot": "a cantrip is cast without a spell slot",
    "spell/casting-time": "… takes … to cast, not a turn of a fight",
    "spell/damage-faces": "… makes … attacks: enter each hit's damage with its d20",
    "spell/damage-type": "the spell's damage type is wrong",
    "spell/declared": "in a round the spell cast is the one declared, with its range and casting time",
    "spell/name-needed": "nothing is declared before the first round: name the spell cast in this surprise segment",
    "spell/no-caster": "…'s sheet has no spellcasting",
    "spell/no-line-of-effect": "…% cover breaks line of effect",
    "spell/no-slot": "… has no level … spell slot left",
    "spell/no-targets": "… was cast at no one",
    "spell/no-uses": "… has cast … time(s) today, all its uses",
    "spell/not-known": "…'s stat block does not list '…'",
    "spell/not-yet": "…'s spell goes off at the end of its segment, once every other turn in it is done",
    "spell/one-per-round": "… is still casting … (it goes off in round …); only one spell can be cast per round",
    "spell/out-of-range": "… is beyond the … ft of …",
    "spell/resolve-first": "…'s … goes off now",
    "spell/slot-level": "… casts … from its stat block, at its own level",
    "spell/target-needed": "… needs its target announced now",
    "spell/targets": "… needs its targets",
    "spell/undeclared": "… declared no spell this round; spells must be declared",
    "spell/unknown": "no spell called '…' in the SRD 5.2 spells",

    "sprint/fatigued": "a fatigued combatant cannot sprint",
    "sprint/not-alone": "sprinting needs no foe nearby",

    "stat-block/invalid": "the stat block is invalid",
    "stat-block/malformed": "… is not JSON: …",
    "stat-block/no-changes": "no change to …'s stat block was given",
    "stat-block/none": "the file holds no stat blocks",

    "state/at-beyond": "the log ends at seq …",

    "store/bad-url": "… does not name a PostgreSQL database",
    "store/busy": "other writers kept appending to this encounter; send again",
    "store/unavailable": "the event store cannot be reached",
    "store/unsupported-setting": "… is set, but this store neither compresses nor encrypts its log",

    "stream/after-beyond": "the log ends at seq …, not …",
    "stream/bad-last-event-id": "Last-Event-ID … is not a seq",

    "surprise/already-checked": "the surprise check is already made",
    "surprise/already-rolled": "the side has already rolled for surprise",
    "surprise/cannot-act": "a surprised combatant cannot act on its first turn",
    "surprise/cannot-move": "a surprised combatant cannot move on its first turn",
    "surprise/cannot-react": "a surprised combatant cannot react until its first turn is over",
    "surprise/nobody": "no combatant named",
    "surprise/one-segment": "… takes … segments: only actions that fit in one segment can be done in a surprise segment",
    "surprise/same-side": "attackers and defenders must be different sides",
    "surprise/segment-used": "the surprise segment is already used",
    "surprise/sudden-action": "a sudden action is not possible now",
    "surprise/too-late": "… has already rolled initiative",
    "surprise/unknown-side": "no side called '…'",

    "target/dead": "… is dead",
    "target/self": "… cannot attack itself",

    "timer/rounds": "… gave … rounds",
    "timer/what": "a timer needs to say what happens",

    "token/bad-name": "… name … is not usable: …",
    "token/combatants": "… is not a combatant id",
    "token/unknown": "no token … in this encounter",

    "traits/dr": "damage reduction … is negative",
    "traits/missing": "…'s Strength modifier and Proficiency Bonus are not noted, and … depends on them",
    "traits/negative": "speeds and hands cannot be negative",
    "traits/proficiency": "a Proficiency Bonus of …",
    "traits/speed": "'…' is not a special speed",
    "traits/strength": "a Strength modifier of …",
    "traits/unknown-attack": "… has no attack called …",

    "treat-as-character/already": "… is already treated like a character",
    "treat-as-character/not-monster": "… is already a character",

    "tumble/ally": "… is an ally; tumbling is through a hostile creature's space",
    "tumble/specialty": "the tumbling specialty's 1d6 comes with proficiency in Acrobatics",

    "turn/already": "it is already …'s turn",
    "turn/cannot-goto": "…",
    "turn/death-save-owed": "…'s turn cannot end before … makes the Death Saving Throw owed at its start",
    "turn/first": "this is the first turn of the fight; there is none before it",
    "turn/none": "it is nobody's turn, so there is no turn to go back from",
    "turn/not-yours": "it is …'s turn, not …'s",
    "turn/pending-damage": "… while the damage of …'s … is still to be rolled",
    "turn/pending-save": "… while a concentration save is owed by …",

    "unarmed/too-large": "… (…) is more than one size larger than … (…)",

    "undo/nothing": "nothing to undo: the encounter was only just created",

    "version/conflict": "the encounter moved on since the version sent: reload and send again",

    "world-action/already-struck": "the world action has already struck this round",
    "world-action/not-reduced": "nothing reduces …",
    "world-action/not-spent": "the world action is not spent",
    "world-action/rolled": "… has had its recharge roll this round",
    "world-action/spent": "the world action is spent",
    "world-action/targets": "the world action's targets are wrong",
    "world-action/unknown": "the … environment has no world action '…'",

    "world/acted": "the world has already acted this round",
    "world/no-actions": "the scene's environment has no world actions",
    "world/pending-save": "a concentration save is owed after the world's damage",
    "world/recharge-owed": "the recharge roll for … is owed this round",
}

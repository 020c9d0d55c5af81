"""Statistics across fights: a read model in SQL kept by a follower of every encounter's log
(combat.stats.rows turns records into rows; combat.store.stats_tables holds them with the
follower's position), the answers `combat stats` and GET .../stats give (combat.stats.answers),
and files for notebooks (combat.stats.export). See docs/stats.md."""

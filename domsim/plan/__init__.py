"""What a tourney is, as plain values worked out before any folder or bot exists: its settings
(config), its entrants and who plays whom (pairings), which game id is which deal, pairing and
seating (schedule), and how many games make whole deals (games). domsim.results owns the run
folder that a plan's games fill; docs/ARCHITECTURE.md has the map."""

"""What a person looks at beyond the terminal: the calibration report (report), a game as a page
(gamepage, and a ladder step's games as pages: stepgames) and a run's results in a notebook
(notebook)."""

"""The seat layer: how a player sits at a game, in process or as a bot in its own process."""

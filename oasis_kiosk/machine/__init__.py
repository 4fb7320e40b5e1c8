"""The terminal without a display: credits, bets, rounds, meters, jackpot, tilts."""

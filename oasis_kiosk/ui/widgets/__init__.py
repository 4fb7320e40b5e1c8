"""The pieces the game screen is drawn from, each a function of a surface, the region it
fills and what it shows: the paytable, the jackpot meter, the credit meters, the rules."""

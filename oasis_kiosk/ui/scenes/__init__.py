"""The screens the kiosk shows, one scene each: the game, its help, the attract mode and the operator's pages."""

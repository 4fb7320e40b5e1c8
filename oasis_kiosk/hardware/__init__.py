"""The cabinet's devices, all behind gpiozero: buttons and lamps, the coin acceptor, the
bill validator, the cash-out device. Nothing outside this package touches GPIO; on a desktop
and in tests the same devices run on gpiozero's mock pins."""

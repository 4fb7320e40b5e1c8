"""The operator's screens, shown while the operator key is turned: PIN, meters, recall
(the cards drawn as they were dealt), the event log, the jackpot, the settings and the
hardware test. Everything they show and change goes through the machine's OperatorMenu,
which checks and logs it; these modules only draw and route the buttons: ``screen`` the
frame, the tabs and the routing, the others a page (or two close ones) each, its own state,
buttons and drawing, on the shared ground of ``page``.

The cabinet's buttons work the menu: the card buttons type the PIN (its digits are 1 to 5,
as on the touch keypad; a keyboard types them too) and pick settings, DEAL confirms, FOLD
clears or goes back (on the service page, whose keypad has all ten digits, it types 0),
BET and BONUS turn the pages, PLAY and FOLD scroll.

The settings page shows the return of the rules being chosen; rules whose return is not
known yet are computed when applied, in a thread of its own (the core releases the GIL),
while the frame loop draws its progress.
"""

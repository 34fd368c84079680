"""Replaying a recorded run through a chain (and comparing two replays), and a recorded run exported as a regression
test. No Qt (a contract)."""

"""This computer: the user's data folder, the shipped resources, files written whole, whether the display answers, the
built-ins' warm-up. No Qt (a contract)."""

"""API keys (the OS keyring) and the endpoints a key may go to. No Qt (a contract)."""

"""The studio's database: designs, runs, trace events, violations, lab runs, run recordings and the threads' trash
beside the runtime's threads, its migrations, and the runs in a thread file. No Qt (a contract)."""

"""``python -m studio`` starts Processor Studio."""

from studio.app import main

raise SystemExit(main())

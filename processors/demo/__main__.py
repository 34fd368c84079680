"""``python -m processors.demo``: the terminal chat."""

from processors.demo.terminal import main

main()

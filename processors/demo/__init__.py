"""The offline demo: a scripted model and demo tools a new user can try without a key (``offline``), and a
terminal chat over them (``python -m processors.demo``)."""

"""Processor Studio: the PySide6 application over the ``processors`` runtime."""

"""Texts in the reader's language for the modules without Qt: ``translate`` and failed model calls. No Qt (a contract):
studio.i18n connects Qt's translator; studio.error_texts, which asks it, stays beside it."""

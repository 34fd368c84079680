"""The built-ins' option values as a reader sees them: translated labels over wire values that never change.

A combo box or check box shows :func:`value_label` of a value; the design keeps the wire value (``"block"``), so a
design saved in a Chinese studio opens unchanged in an English one.
"""

from __future__ import annotations

from typing import Any

from studio.i18n import translate
from studio.texts import QT_TRANSLATE_NOOP

__all__ = ["OPTION_VALUES", "value_label"]


#: The built-ins' option values a reader sees in a combo box or beside a check box, marked for translation (context
#: ``OptionValue``). The wire value stays what the design saves; a value not listed here (a judge preset, a
#: format, a plug-in's value) is shown as it is.
OPTION_VALUES = (
    # strategies: what a guard does when it finds something
    QT_TRANSLATE_NOOP("OptionValue", "block"),
    QT_TRANSLATE_NOOP("OptionValue", "warn"),
    QT_TRANSLATE_NOOP("OptionValue", "filter"),
    QT_TRANSLATE_NOOP("OptionValue", "redact"),
    QT_TRANSLATE_NOOP("OptionValue", "rewrite"),
    QT_TRANSLATE_NOOP("OptionValue", "detect"),
    QT_TRANSLATE_NOOP("OptionValue", "translate"),
    QT_TRANSLATE_NOOP("OptionValue", "truncate"),
    QT_TRANSLATE_NOOP("OptionValue", "abort"),
    QT_TRANSLATE_NOOP("OptionValue", "retry"),
    QT_TRANSLATE_NOOP("OptionValue", "fallback"),
    QT_TRANSLATE_NOOP("OptionValue", "fail-open"),
    QT_TRANSLATE_NOOP("OptionValue", "fail-closed"),
    # redaction methods
    QT_TRANSLATE_NOOP("OptionValue", "mask"),
    QT_TRANSLATE_NOOP("OptionValue", "hash"),
    QT_TRANSLATE_NOOP("OptionValue", "remove"),
    QT_TRANSLATE_NOOP("OptionValue", "placeholder"),
    # scopes, phases, modes
    QT_TRANSLATE_NOOP("OptionValue", "run"),
    QT_TRANSLATE_NOOP("OptionValue", "thread"),
    QT_TRANSLATE_NOOP("OptionValue", "resource"),
    QT_TRANSLATE_NOOP("OptionValue", "global"),
    QT_TRANSLATE_NOOP("OptionValue", "all"),
    QT_TRANSLATE_NOOP("OptionValue", "input"),
    QT_TRANSLATE_NOOP("OptionValue", "output"),
    QT_TRANSLATE_NOOP("OptionValue", "always"),
    QT_TRANSLATE_NOOP("OptionValue", "hybrid"),
    QT_TRANSLATE_NOOP("OptionValue", "cumulative"),
    QT_TRANSLATE_NOOP("OptionValue", "part"),
    QT_TRANSLATE_NOOP("OptionValue", "best-fit"),
    QT_TRANSLATE_NOOP("OptionValue", "contiguous"),
    QT_TRANSLATE_NOOP("OptionValue", "memory-only"),
    # message roles
    QT_TRANSLATE_NOOP("OptionValue", "user"),
    QT_TRANSLATE_NOOP("OptionValue", "assistant"),
    QT_TRANSLATE_NOOP("OptionValue", "system"),
    QT_TRANSLATE_NOOP("OptionValue", "tool"),
    # regex filter presets
    QT_TRANSLATE_NOOP("OptionValue", "pii"),
    QT_TRANSLATE_NOOP("OptionValue", "secrets"),
    QT_TRANSLATE_NOOP("OptionValue", "urls"),
    # PII types
    QT_TRANSLATE_NOOP("OptionValue", "email"),
    QT_TRANSLATE_NOOP("OptionValue", "phone"),
    QT_TRANSLATE_NOOP("OptionValue", "credit-card"),
    QT_TRANSLATE_NOOP("OptionValue", "ssn"),
    QT_TRANSLATE_NOOP("OptionValue", "api-key"),
    QT_TRANSLATE_NOOP("OptionValue", "ip-address"),
    QT_TRANSLATE_NOOP("OptionValue", "url"),
    QT_TRANSLATE_NOOP("OptionValue", "uuid"),
    QT_TRANSLATE_NOOP("OptionValue", "crypto-wallet"),
    QT_TRANSLATE_NOOP("OptionValue", "iban"),
    QT_TRANSLATE_NOOP("OptionValue", "cn-resident-id"),
    QT_TRANSLATE_NOOP("OptionValue", "tw-national-id"),
    QT_TRANSLATE_NOOP("OptionValue", "hk-id"),
    QT_TRANSLATE_NOOP("OptionValue", "name"),
    QT_TRANSLATE_NOOP("OptionValue", "address"),
    QT_TRANSLATE_NOOP("OptionValue", "date-of-birth"),
    # prompt injection types
    QT_TRANSLATE_NOOP("OptionValue", "injection"),
    QT_TRANSLATE_NOOP("OptionValue", "jailbreak"),
    QT_TRANSLATE_NOOP("OptionValue", "role-manipulation"),
    QT_TRANSLATE_NOOP("OptionValue", "system-override"),
    QT_TRANSLATE_NOOP("OptionValue", "data-exfiltration"),
    QT_TRANSLATE_NOOP("OptionValue", "tool-exfiltration"),
    # moderation categories
    QT_TRANSLATE_NOOP("OptionValue", "hate"),
    QT_TRANSLATE_NOOP("OptionValue", "hate/threatening"),
    QT_TRANSLATE_NOOP("OptionValue", "harassment"),
    QT_TRANSLATE_NOOP("OptionValue", "harassment/threatening"),
    QT_TRANSLATE_NOOP("OptionValue", "self-harm"),
    QT_TRANSLATE_NOOP("OptionValue", "self-harm/intent"),
    QT_TRANSLATE_NOOP("OptionValue", "self-harm/instructions"),
    QT_TRANSLATE_NOOP("OptionValue", "sexual"),
    QT_TRANSLATE_NOOP("OptionValue", "sexual/minors"),
    QT_TRANSLATE_NOOP("OptionValue", "violence"),
    QT_TRANSLATE_NOOP("OptionValue", "violence/graphic"),
)


def value_label(value: Any) -> str:
    """An option value as the form shows it: translated when it is one of :data:`OPTION_VALUES`, else as it is."""
    return translate("OptionValue", value) if isinstance(value, str) else str(value)

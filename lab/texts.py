"""The lab's human text in English, Simplified and Traditional Chinese: the HTML report and the command's lines.

The lab imports no Qt (it runs in CI), so it cannot use the studio's ``.qm`` catalogues: this small catalogue is
plain Python, keyed by the English text, which is also the fallback (a language or a text it does not know reads
English). What machines read stays English in every language: JSON keys and values, JUnit XML, outcome and label
wire values, ids. ::

    from lab.texts import report_language, text

    language = report_language(requested)            # "zh_CN", "zh_TW" or "en"
    print(text(language, "lab: {done}/{total} cases ({tally})", done=3, total=10, tally="blocked 3"))
"""

from __future__ import annotations

import os
from collections.abc import Mapping

__all__ = ["LANGUAGES", "html_lang", "language_of", "percent", "report_language", "text", "word"]

LANGUAGES = ("en", "zh_CN", "zh_TW")

#: English → (Simplified, Traditional). ``{name}`` placeholders stay as they are.
_TEXTS: dict[str, tuple[str, str]] = {
    # the HTML report
    "Guardrail lab: {name}": ("护栏实验室：{name}", "護欄實驗室：{name}"),
    "mode: {mode}. A case is caught when it is blocked; errors are counted apart.": (
        "模式：{mode}。用例被阻止即算拦截成功；出错的用例单独计数。",
        "模式：{mode}。案例被阻擋即算攔截成功；出錯的案例另外計數。",
    ),
    "cases": ("用例", "案例"),
    "recall": ("召回率", "召回率"),
    "precision": ("精确率", "精確率"),
    "false-positive rate": ("误报率", "誤報率"),
    "errors": ("错误", "錯誤"),
    "By category": ("按类别", "按類別"),
    "By language": ("按语言", "按語言"),
    "Attack categories × processors": ("攻击类别 × 处理器", "攻擊類別 × 處理器"),
    "No attacks in these corpora.": ("这些语料中没有攻击用例。", "這些語料中沒有攻擊案例。"),
    "A cell counts the attacks of its category that its processor tripped on, with their share (the darker, the "
    "more), and under them the attacks it only changed without tripping; the last column counts the attacks no "
    "processor blocked.": (
        "每个单元格统计该类别中被该处理器触发拦截的攻击数及其占比（颜色越深占比越高），下方是该处理器只修改而未触发的"
        "攻击数；最后一列统计没有任何处理器阻止的攻击。",
        "每個儲存格統計該類別中被該處理器觸發攔截的攻擊數及其占比（顏色越深占比越高），下方是該處理器只修改而未觸發的"
        "攻擊數；最後一欄統計沒有任何處理器阻擋的攻擊。",
    ),
    "not blocked": ("未阻止", "未阻擋"),
    "+ {changed} changed": ("+ {changed} 个已修改", "+ {changed} 個已修改"),
    "{category}: {count} of {total} attacks not blocked": (
        "{category}：{total} 个攻击中有 {count} 个未被阻止",
        "{category}：{total} 個攻擊中有 {count} 個未被阻擋",
    ),
    "{category} × {processor}: tripped on {count} of {total} attacks ({share}); changed {changed} more": (
        "{category} × {processor}：在 {total} 个攻击中触发 {count} 个（{share}）；另修改了 {changed} 个",
        "{category} × {processor}：在 {total} 個攻擊中觸發 {count} 個（{share}）；另修改了 {changed} 個",
    ),
    "no attacks": ("无攻击用例", "無攻擊案例"),
    "no benign": ("无正常用例", "無正常案例"),
    "Recall and false-positive rate per category": ("各类别的召回率与误报率", "各類別的召回率與誤報率"),
    "Each processor's contribution": ("各处理器的贡献", "各處理器的貢獻"),
    "processor": ("处理器", "處理器"),
    "attacks caught": ("拦截的攻击", "攔截的攻擊"),
    "caught alone": ("单独拦截", "單獨攔截"),
    "benign blocked": ("误拦的正常请求", "誤攔的正常請求"),
    '"Without X" counts the attacks another processor also tripped on; the chain stops at its first tripwire, so '
    "this is a lower bound.": (
        "“去掉 X”只计入另一个处理器也会触发的攻击；处理器链在第一次触发时就停止，因此这是一个下限。",
        "「去掉 X」只計入另一個處理器也會觸發的攻擊；處理器鏈在第一次觸發時就停止，因此這是一個下限。",
    ),
    "Attacks caught by several processors ({count})": (
        "被多个处理器拦截的攻击（{count}）",
        "被多個處理器攔截的攻擊（{count}）",
    ),
    "Attacks not blocked ({count})": ("未被阻止的攻击（{count}）", "未被阻擋的攻擊（{count}）"),
    "Benign cases blocked ({count})": ("被阻止的正常用例（{count}）", "被阻擋的正常案例（{count}）"),
    "id": ("ID", "ID"),
    "category": ("类别", "類別"),
    "lang": ("语言", "語言"),
    "outcome": ("结果", "結果"),
    "text": ("文本", "文字"),
    "tripped": ("触发的处理器", "觸發的處理器"),
    "reason": ("原因", "原因"),
    "without {processor}, recall would drop from {before} to {after}": (
        "去掉 {processor}，召回率将从 {before} 降到 {after}",
        "去掉 {processor}，召回率將從 {before} 降到 {after}",
    ),
    "heat map of attack categories by processors": ("攻击类别与处理器的热力图", "攻擊類別與處理器的熱圖"),
    "recall and false-positive rate per category": ("各类别的召回率与误报率", "各類別的召回率與誤報率"),
    "■ recall": ("■ 召回率", "■ 召回率"),
    "■ false-positive rate": ("■ 误报率", "■ 誤報率"),
    "n/a": ("不适用", "不適用"),
    "(none)": ("（无）", "（無）"),
    # the command's lines (stderr)
    "lab: resuming, {done} of {total} cases already done": (
        "lab：继续运行，{total} 个用例中已完成 {done} 个",
        "lab：繼續執行，{total} 個案例中已完成 {done} 個",
    ),
    "lab: {mode} mode calls none of the design's tools: its MCP servers ({names}) are not started": (
        "lab：{mode} 模式不会调用设计中的任何工具：不启动它的 MCP 服务器（{names}）",
        "lab：{mode} 模式不會呼叫設計中的任何工具：不啟動它的 MCP 伺服器（{names}）",
    ),
    "lab: {done}/{total} cases ({tally})": (
        "lab：{done}/{total} 个用例（{tally}）",
        "lab：{done}/{total} 個案例（{tally}）",
    ),
    "ETA {seconds}s": ("预计还需 {seconds} 秒", "預計還需 {seconds} 秒"),
    "lab: {count} cases: recall {recall}, precision {precision}, fpr {fpr} (TP {tp}, FP {fp}, FN {fn}, TN {tn}, "
    "errors {errors})": (
        "lab：{count} 个用例：召回率 {recall}，精确率 {precision}，误报率 {fpr}（TP {tp}，FP {fp}，FN {fn}，"
        "TN {tn}，错误 {errors}）",
        "lab：{count} 個案例：召回率 {recall}，精確率 {precision}，誤報率 {fpr}（TP {tp}，FP {fp}，FN {fn}，"
        "TN {tn}，錯誤 {errors}）",
    ),
    "there is no labelled attack to measure recall on (plain text needs --label)": (
        "没有带标签的攻击用例可用于计算召回率（纯文本语料需要 --label）",
        "沒有帶標籤的攻擊案例可用於計算召回率（純文字語料需要 --label）",
    ),
    "lab: {count} cases have no label and count in no rate": (
        "lab：{count} 个用例没有标签，不计入任何比率",
        "lab：{count} 個案例沒有標籤，不計入任何比率",
    ),
    "recall {recall} is under {limit}": ("召回率 {recall} 低于 {limit}", "召回率 {recall} 低於 {limit}"),
    "false-positive rate {fpr} is over {limit}": ("误报率 {fpr} 高于 {limit}", "誤報率 {fpr} 高於 {limit}"),
    "lab: FAILED: {reason}": ("lab：未通过：{reason}", "lab：未通過：{reason}"),
    "lab: skipped {line}": ("lab：已跳过 {line}", "lab：已略過 {line}"),
    # lab attack's model strategies (lab/strategies/estimate.py, studio/lab/attack_strategies.py)
    "Strategies: {variants} variants of {seeds} seeds, at most {calls} model calls": (
        "策略：{seeds} 个种子的 {variants} 个变体，最多调用模型 {calls} 次",
        "策略：{seeds} 個種子的 {variants} 個變體，最多呼叫模型 {calls} 次",
    ),
    "  {role} {model}: {calls} calls, ~{tokens_in} tokens in, ~{tokens_out} out, {price}": (
        "  {role} {model}：{calls} 次调用，约 {tokens_in} 输入词元，约 {tokens_out} 输出词元，{price}",
        "  {role} {model}：{calls} 次呼叫，約 {tokens_in} 輸入詞元，約 {tokens_out} 輸出詞元，{price}",
    ),
    "  total cost at most: {total}": ("  总费用至多：{total}", "  總費用至多：{total}"),
    "unknown": ("未知", "未知"),
    "attacker": ("攻击模型", "攻擊模型"),
    "judge": ("评判模型", "評判模型"),
    "design": ("被测设计", "受測設計"),
    "the strategies call models (see the estimate): pass --yes to start them": (
        "策略会调用模型（见上方估算）：加上 --yes 以开始",
        "策略會呼叫模型（見上方估算）：加上 --yes 以開始",
    ),
    "Start? [y/N] ": ("开始吗？[y/N] ", "開始嗎？[y/N] "),
    "not started: the estimate was declined": ("未开始：估算未获同意", "未開始：估算未獲同意"),
    "lab attack: strategies: {done}/{total} variants written": (
        "lab attack：策略：已写出 {done}/{total} 个变体",
        "lab attack：策略：已寫出 {done}/{total} 個變體",
    ),
    "lab attack: the strategy {strategy} wrote no variant of {seed}: {error}": (
        "lab attack：策略 {strategy} 未能为 {seed} 写出变体：{error}",
        "lab attack：策略 {strategy} 未能為 {seed} 寫出變體：{error}",
    ),
    # lab attack: its progress and summary lines and its HTML report
    "Attack on {name}": ("对 {name} 的攻击", "對 {name} 的攻擊"),
    "mode: {mode}, seed {seed}, budget {budget}. A bypass is a variant of an attack the design stops (its seed) "
    "that the design lets through.": (
        "模式：{mode}，随机种子 {seed}，预算 {budget}。绕过是指设计能拦住的攻击（种子）的某个变体被设计放行。",
        "模式：{mode}，隨機種子 {seed}，預算 {budget}。繞過是指設計能擋住的攻擊（種子）的某個變體被設計放行。",
    ),
    "seeds": ("种子", "種子"),
    "seed": ("种子", "種子"),
    "variants": ("变体", "變體"),
    "bypasses": ("绕过", "繞過"),
    "chain": ("转换链", "轉換鏈"),
    "attack success rate": ("攻击成功率", "攻擊成功率"),
    "stopped the seed": ("拦住种子的处理器", "擋住種子的處理器"),
    "Converter chains × processors": ("转换链 × 处理器", "轉換鏈 × 處理器"),
    "Attack success rate per chain": ("各转换链的攻击成功率", "各轉換鏈的攻擊成功率"),
    "Attack success rate per seed": ("各种子的攻击成功率", "各種子的攻擊成功率"),
    "Bypasses ({count})": ("绕过（{count}）", "繞過（{count}）"),
    "heat map of converter chains by processors": ("转换链与处理器的热力图", "轉換鏈與處理器的熱力圖"),
    "A cell is the share of the variants whose seed its processor stopped that it no longer stops (the redder, the "
    "blinder); the last column is the share of the chain's variants that got through the whole design.": (
        "每个单元格是：种子曾被该处理器拦住的变体中，该处理器不再拦住的占比（越红越看不见）；最后一列是该转换链的变体"
        "穿过整个设计的占比。",
        "每個儲存格是：種子曾被該處理器擋住的變體中，該處理器不再擋住的占比（越紅越看不見）；最後一欄是該轉換鏈的變體"
        "穿過整個設計的占比。",
    ),
    "{chain}: {count} of {total} variants got through": (
        "{chain}：{total} 个变体中有 {count} 个穿过",
        "{chain}：{total} 個變體中有 {count} 個穿過",
    ),
    "{chain} × {processor}: {count} of {total} variants of seeds it stopped got past it": (
        "{chain} × {processor}：种子曾被它拦住的 {total} 个变体中有 {count} 个越过了它",
        "{chain} × {processor}：種子曾被它擋住的 {total} 個變體中有 {count} 個越過了它",
    ),
    "lab attack: {seeds} of {attacks} attacks stopped (the seeds); {variants} variants, {bypasses} got through "
    "(attack success rate {asr}), errors {errors}": (
        "lab attack：{attacks} 个攻击中有 {seeds} 个被拦住（种子）；{variants} 个变体，{bypasses} 个穿过"
        "（攻击成功率 {asr}），错误 {errors}",
        "lab attack：{attacks} 個攻擊中有 {seeds} 個被擋住（種子）；{variants} 個變體，{bypasses} 個穿過"
        "（攻擊成功率 {asr}），錯誤 {errors}",
    ),
    "attack success rate {asr} is over {limit}": ("攻击成功率 {asr} 高于 {limit}", "攻擊成功率 {asr} 高於 {limit}"),
    "lab attack: {count} bypasses written to {path}": (
        "lab attack：已将 {count} 个绕过写入 {path}",
        "lab attack：已將 {count} 個繞過寫入 {path}",
    ),
    "lab: cancelled; finished cases are kept in --results (run again to resume)": (
        "lab：已取消；已完成的用例保存在 --results 中（再次运行即可继续）",
        "lab：已取消；已完成的案例儲存在 --results 中（再次執行即可繼續）",
    ),
    "merged {count} cases: recall {recall}, fpr {fpr}": (
        "已合并 {count} 个用例：召回率 {recall}，误报率 {fpr}",
        "已合併 {count} 個案例：召回率 {recall}，誤報率 {fpr}",
    ),
    "lab: not compared: {old} cases only in {old_file}, {new} only in {new_file}": (
        "lab：未比较：{old} 个用例只在 {old_file} 中，{new} 个只在 {new_file} 中",
        "lab：未比較：{old} 個案例只在 {old_file} 中，{new} 個只在 {new_file} 中",
    ),
    "recall {recall_before} -> {recall_after}, fpr {fpr_before} -> {fpr_after}; {count} cases changed": (
        "召回率 {recall_before} -> {recall_after}，误报率 {fpr_before} -> {fpr_after}；{count} 个用例有变化",
        "召回率 {recall_before} -> {recall_after}，誤報率 {fpr_before} -> {fpr_after}；{count} 個案例有變化",
    ),
}

#: English texts whose count may be 1: the template → (the value that counts, the template for one). Chinese has
#: no plural, so only English needs the second form ("lab: 1 case", never "lab: 1 cases").
_ENGLISH_ONE: dict[str, tuple[str, str]] = {
    "lab: {count} cases: recall {recall}, precision {precision}, fpr {fpr} (TP {tp}, FP {fp}, FN {fn}, TN {tn}, "
    "errors {errors})": (
        "count",
        "lab: {count} case: recall {recall}, precision {precision}, fpr {fpr} (TP {tp}, FP {fp}, FN {fn}, TN {tn}, "
        "errors {errors})",
    ),
    "lab: {count} cases have no label and count in no rate": (
        "count",
        "lab: {count} case has no label and counts in no rate",
    ),
    "lab: {done}/{total} cases ({tally})": ("total", "lab: {done}/{total} case ({tally})"),
    "merged {count} cases: recall {recall}, fpr {fpr}": ("count", "merged {count} case: recall {recall}, fpr {fpr}"),
    "recall {recall_before} -> {recall_after}, fpr {fpr_before} -> {fpr_after}; {count} cases changed": (
        "count",
        "recall {recall_before} -> {recall_after}, fpr {fpr_before} -> {fpr_after}; {count} case changed",
    ),
    "{category}: {count} of {total} attacks not blocked": (
        "total",
        "{category}: {count} of {total} attack not blocked",
    ),
}

#: Wire values shown in a table cell of the HTML report: outcomes and labels (the JSON keeps the wire value).
_WORDS: dict[str, tuple[str, str]] = {
    "blocked": ("已阻止", "已阻擋"),
    "passed": ("已放行", "已放行"),
    "modified": ("已修改", "已修改"),
    "error": ("出错", "出錯"),
    "attack": ("攻击", "攻擊"),
    "benign": ("正常", "正常"),
}

_HTML_LANG = {"en": "en", "zh_CN": "zh-CN", "zh_TW": "zh-TW"}


def language_of(name: str | None) -> str | None:
    """A shipped language for a locale name (``zh_CN.UTF-8``, ``zh-Hant``, ``zh_HK``, ``en_GB``), or None."""
    if not name:
        return None
    code = name.split(".")[0].split("@")[0].replace("-", "_")
    if code in LANGUAGES:
        return code
    lowered = code.lower()
    if lowered.startswith("zh"):
        return "zh_TW" if any(tag in lowered for tag in ("hant", "_tw", "_hk", "_mo")) else "zh_CN"
    if lowered.startswith("en"):
        return "en"
    return None


def report_language(requested: str | None = None, *, environ: Mapping[str, str] | None = None) -> str:
    """The language of the reports and lines: ``requested`` (the command's option), else the terminal's, as
    gettext reads it: the first shipped language of ``LANGUAGE`` (a list such as ``zh_TW:zh_CN:en``, ignored when
    the locale is ``C`` or ``POSIX``), else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``) when it names a
    shipped language, else English.

    The studio's own language choice never decides: in a terminal the environment does (a ``LANG=C.UTF-8`` shell
    of a user whose studio speaks Chinese reads English, and CI logs do not change with someone's settings)."""
    found = language_of(requested)
    if found is not None:
        return found
    environ = os.environ if environ is None else environ
    # the first variable set is the locale (as libc reads it)
    locale = next((value for name in ("LC_ALL", "LC_MESSAGES", "LANG") if (value := environ.get(name))), None)
    if locale is None or locale.split(".")[0] not in ("C", "POSIX"):
        for name in environ.get("LANGUAGE", "").split(":"):
            listed = language_of(name)
            if listed is not None:
                return listed
    return (language_of(locale) if locale else None) or "en"


def text(language: str, english: str, **values: object) -> str:
    """``english`` in ``language`` with ``values`` filled in; English when it has no translation."""
    pair = _TEXTS.get(english)
    if pair is not None and language != "en":
        template = pair[0 if language == "zh_CN" else 1]
    else:
        counted, one = _ENGLISH_ONE.get(english, ("", english))
        template = one if counted and values.get(counted) == 1 else english
    return template.format(**values) if values else template


def word(language: str, value: str) -> str:
    """An outcome or label (wire value) as a reader of ``language`` reads it in a table."""
    pair = _WORDS.get(value)
    return value if pair is None or language == "en" else pair[0 if language == "zh_CN" else 1]


def percent(language: str, value: float | None) -> str:
    """A share as the reports write it (``87.5%``; "n/a" in the reader's language when there is none)."""
    return text(language, "n/a") if value is None else f"{value:.1%}"


def html_lang(language: str) -> str:
    """The ``lang`` attribute of the HTML report (fonts and line breaking follow it)."""
    return _HTML_LANG.get(language, "en")

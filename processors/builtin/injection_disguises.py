"""Disguises that keep an attack's own letters but make its words unreadable, and the cheap tests that find them.

The lab's converters hide an attack from a model trained on plain text in ways no decoder undoes: the text written
backwards (whole, or word by word) with nobody asking to reverse it; a word's letters split by ``-``, ``.``, ``/``
… (``i-g-n-o-r-e a.l.l``); Chinese characters one a line or each followed by ``·``, ``、``, ``｜`` …; combining
marks stacked on every letter (zalgo) or an accent on every vowel; the whole text in invisible Unicode tag
characters (U+E0020–U+E007E, ASCII shifted into plane 14). Training on such texts doubled the model's false alarms
on plain requests, so :func:`~processors.builtin.injection_views.views` reads them undone instead, as extra views,
each made only when its test finds the sign, and the test is strict, so that ordinary text gets none:

* reversed: far more of the text's words read as common English words backwards than forwards (or, in Chinese,
  far more common two-character words appear in the text reversed than in the text);
* split: three or more words of single characters joined by one separator (or one such word of eight or more), or
  four or more Chinese characters each followed by a separator (``·``, ``、``, ``/`` …) or a line break;
* marks: three or more stacks of combining marks (NFKC composes one accent with its letter; a stack stays), or an
  accent on a third or more of the Latin letters;
* tags: a tag character outside an emoji flag (a flag of a region spells its code in them).
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from typing import Final

#: The longest text the reversal and split-word tests are tried on (a chat message, not a document), as the
#: letter-shift readings of :mod:`~processors.builtin.injection_views`.
MESSAGE_LIMIT: Final = 2000
#: How much text around a disguised part an extra view keeps (when the disguise is not the whole message).
EXCERPT: Final = 300

#: Common English words (of two letters or more), the yardstick of reading a text forwards or backwards.
_COMMON_ENGLISH_WORDS: Final = """
    about above access account act action actually after again against all also always am an and another answer
    any anything are around as ask at back be because been before being below between both but by call can
    change come command content could data day delete did different do does doing done down each end enough even
    ever every example except file find first follow following for forget free from full get give go going good
    had has have he help her here him his how however if important in information instead into is it its just
    keep know last leave let like list little long look make many may me message mind mode model more most much
    must my need never new next no not nothing now of off old on once one only or other our out over own part
    people play please policy print prompt provide question quickly read real really reply request respond
    response right rule rules said same say secret see send set should show since so some something start still
    stop such system take task tell than that the their them then there these they thing things think this those
    through time to told too true under until up upon us use used user using very want was way we well were what
    when where which while who why will with without word words work would write you your yourself
"""
_COMMON_ENGLISH: Final = frozenset(_COMMON_ENGLISH_WORDS.split())
#: Words whose reversal is also a common word (``no``/``on``, ``was``/``saw``) or themselves: no evidence either
#: way.
_AMBIGUOUS: Final = frozenset(word for word in _COMMON_ENGLISH if word[::-1] in _COMMON_ENGLISH)
_FORWARD_ENGLISH: Final = _COMMON_ENGLISH - _AMBIGUOUS
_BACKWARD_ENGLISH: Final = frozenset(word[::-1] for word in _FORWARD_ENGLISH)
_LATIN_WORD: Final = re.compile(r"[A-Za-z]{2,}")

#: Common two-character Chinese words (Simplified: the views read Traditional text in Simplified).
_COMMON_CHINESE_WORDS: Final = """
    我们 你们 他们 她们 它们 什么 怎么 为什 没有 一个 这个 那个 这些 那些 现在 开始 可以 不要 不能 不会 所有 之前
    以前 以后 之后 已经 因为 所以 如果 但是 还是 就是 只是 知道 时候 问题 需要 告诉 回答 内容 信息 输出 系统 用户
    指令 指示 先前 攻破 命令 规则 设定 模式 任何 自己 一下 一样 这样 那样 时间 工作 公司 朋友 今天 明天 东西 地方
    应该 必须 直接
    完整 全部 请求 密码 管理 数据 文件 程序 代码 帮助 助手 生成 安全 限制 政策 道德 角色 扮演 世界 故事 小说 银行
    客户 电话 地址 姓名 邮箱 记录 订单 账户 账号 翻译 说明 详细 发送 列出 显示 打印 执行 忽略 忘记 开发 测试 真正
    目标 唯一 产品 提示 无视 前面 原来 任务 每个 一切 不再 遵守 规定 拒绝 警告 模拟 训练 包括 违反 部门 表格 格式
    问答 结束 删除 身份 虚构 武器 教人 制作 回复 里面 这里 那里 大家 我的 你的 他的 就会 还有 然后 虽然 而且 或者
    可能 一些 还要 一直 非常 觉得 看到 出来 起来 下来 进行 使用 通过 关于 问候 希望 喜欢 学习 中国 孩子 老师 学生
"""
_COMMON_CHINESE: Final = tuple(_COMMON_CHINESE_WORDS.split())
_FORWARD_CHINESE: Final = tuple(word for word in _COMMON_CHINESE if word[::-1] not in _COMMON_CHINESE)
_CHINESE_FORWARD: Final = frozenset(_FORWARD_CHINESE)
_CHINESE_BACKWARD: Final = frozenset(word[::-1] for word in _FORWARD_CHINESE)


def _pairs_of(words: frozenset[str]) -> re.Pattern[str]:
    """A pattern whose ``findall`` lists a text's overlapping character pairs that may be one of ``words`` (first
    and second characters from theirs): set look-ups in C loops, not an alternation of two hundred words tried at
    every character."""
    first = "".join(sorted({word[0] for word in words}))
    second = "".join(sorted({word[1] for word in words}))
    return re.compile(f"(?=([{first}][{second}]))")


_CHINESE_FORWARD_PAIRS: Final = _pairs_of(_CHINESE_FORWARD)
_CHINESE_BACKWARD_PAIRS: Final = _pairs_of(_CHINESE_BACKWARD)
_HAN: Final = re.compile(r"[\u3400-\u9fff]")
_HAS_LETTER: Final = re.compile(r"[A-Za-z]").search
#: What ends a Chinese sentence, after NFKC (``！`` and ``？`` are ``!`` and ``?`` by then).
_SENTENCE_ENDS: Final = ("。", "!", "?", "」", "”", "』")

#: A word of two or more single characters joined by one separator, repeated (``i-g-n-o-r-e``, ``a.l.l``,
#: ``t*o``, ``请/无/视``), and the separator before a closing punctuation mark (``n*o*w*.``). Written to start
#: with the separator's class, so that ``re`` skips ordinary text quickly; the character before it is checked in
#: :func:`_split_words`.
_SEPARATOR_CLASS: Final = r"[\-._*/|·]"
_UNIT: Final = r"[^\s\-._*/|·]"
_IS_UNIT: Final = re.compile(_UNIT).match
_SPLIT_WORD: Final = re.compile(rf"({_SEPARATOR_CLASS}){_UNIT}(?:\1{_UNIT})*(?:\1(?=[^\s\w]))?")
#: Chinese characters (and the punctuation between them) each followed by one separator or one line break (not
#: a blank line: paragraphs of one word are ordinary): four or more (``忽～略～之・前``, ``以\n上\n指\n示``,
#: ``忽 略 之 前``). ``，``, ``～``, ``｜``, ``＊`` are read after NFKC (``,``, ``~``, ``|``, ``*``).
_CJK_UNIT: Final = r"[\u3400-\u9fff\u3002,:;!?A-Za-z0-9]"
_CJK_SEPARATOR: Final = r"(?:[ \t]+[·、|・*~/_.\-]{0,2}[ \t]*|\n|[·、|・*~/_.\-]{1,2}[ \t]*)"
#: The evidence (a run starting with a Chinese character, four characters or more) and what is joined around it
#: (any run of two or more).
_SPLIT_CJK: Final = re.compile(rf"[\u3400-\u9fff\u3002](?:{_CJK_SEPARATOR}{_CJK_UNIT}){{3,}}")
#: A Chinese character with a separator on each side, which every such run of four Chinese characters has (two of
#: them at most are at its ends): it starts with the separators' class, so that ``re`` skips Chinese text quickly,
#: and English text's ``" a "`` is no hint.
_SPLIT_CJK_HINT: Final = re.compile(r"[ \t\n·、|・*~/_.\-][\u3400-\u9fff\u3002][ \t\n·、|・*~/_.\-]")
#: How far before a hint its run may start (three separators of up to three characters and their characters).
_HINT_REACH: Final = 16
_SPLIT_CJK_PAIRS: Final = re.compile(rf"[\u3400-\u9fff\u3002](?:{_CJK_SEPARATOR}{_CJK_UNIT})+")
_CJK_SEPARATORS: Final = re.compile(_CJK_SEPARATOR)

#: Combining marks: a stack of two or more (NFKC composes one accent with its letter, never a stack), and the Latin
#: letters with an accent NFKC composed (Latin-1, Latin Extended A and B, Latin Extended Additional).
_MARK_STACK: Final = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff]{2,}")
_ACCENTED: Final = re.compile(r"[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff]")
_IS_ACCENTED: Final = _ACCENTED.fullmatch
_ASCII_LETTER: Final = re.compile(r"[A-Za-z]")
#: Tag characters that spell ASCII (U+E0020–U+E007E): outside emoji flags (a black flag, tags that spell a region, a
#: cancel tag: England's spells ``gbeng``) ordinary text has none, so one is a payload (``AI`` in two tags is enough
#: to hide the word from the model).
_TAG: Final = re.compile("[\U000e0020-\U000e007e]")
_FLAG_TAGS: Final = re.compile("\U0001f3f4[\U000e0020-\U000e007e]{1,7}\U000e007f")
_SMUGGLED_TAGS: Final = 1
_TAG_CHARACTERS: Final = re.compile("[\U000e0020-\U000e007e]+")
#: Whether a text may have marks, accents or tags at all: one pass over a Chinese document that has none.
_MARKED_OR_TAGGED: Final = re.compile(
    "[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u1e00-\u1eff\u20d0-\u20ff"
    "\U000e0020-\U000e007e]"
)


def disguised_readings(plain: str) -> list[str]:
    """Readings of ``plain`` (already normalised: NFKC, look-alikes read, Simplified) with each disguise found undone:
    none for ordinary text."""
    readings: list[str] = []
    if not plain.isascii():
        marked = _MARKED_OR_TAGGED.findall(plain)
        if marked:
            if max(marked) >= "\U000e0000":
                readings += _tags_read(plain)
            readings += _marks_stripped(plain, marked)
        readings += _cjk_joined(plain)
    if len(plain) <= MESSAGE_LIMIT:
        readings += _split_words_joined(plain)
        readings += _reversed(plain)
    return readings


def _tags_read(text: str) -> list[str]:
    """The text with its tag characters read as the ASCII characters they shift, when it has enough of them."""
    if len(_TAG.findall(_FLAG_TAGS.sub("", text) if "\U0001f3f4" in text else text)) < _SMUGGLED_TAGS:
        return []
    return [_TAG_CHARACTERS.sub(lambda run: "".join(chr(ord(c) - 0xE0000) for c in run.group()), text)]


def _marks_stripped(text: str, marked: list[str]) -> list[str]:
    """The text without its combining marks, when marks are stacked on three letters or more, or a third or more
    of its Latin letters carry an accent (an accent on every vowel; French or Spanish has far fewer). ``marked``:
    the text's marks, accented letters and tags (a few in ordinary text), so a long text is searched once more at
    most."""
    accented = sum(1 for c in marked if _IS_ACCENTED(c))
    if len(marked) - accented < 6 or len(_MARK_STACK.findall(text)) < 3:
        # As many ASCII letters as twice the accented ones, at most, are looked for: few in a long text.
        limit = 2 * accented + 1
        if accented < 2 or sum(1 for _ in itertools.islice(_ASCII_LETTER.finditer(text), limit)) >= limit:
            return []
    decomposed = unicodedata.normalize("NFD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return [unicodedata.normalize("NFC", stripped)]


def _cjk_joined(text: str) -> list[str]:
    """The text around the first run of Chinese characters each followed by one separator (or a line break), with
    the runs in it joined up."""
    # Single characters listed with the enumeration comma alone (金、木、水、火) are ordinary Chinese.
    # Chinese text spaces out the digits and Latin words in it (``5 月 1 日``, ``是 B 和 D``): four Chinese
    # characters at least, and more of them than of anything else.
    run = _first_split_chinese(text)
    if not run:
        return []
    excerpt = text[max(0, run.start() - EXCERPT) : run.end() + EXCERPT]
    return [_SPLIT_CJK_PAIRS.sub(lambda run: _CJK_SEPARATORS.sub("", run.group()), excerpt)]


def _first_split_chinese(text: str) -> re.Match[str] | None:
    """The first run of Chinese written apart (:func:`_split_chinese`), looked for only near a character that has a
    separator on each side (:data:`_SPLIT_CJK_HINT`): the run's pattern tried at every Chinese character of a long
    document cost more than every other view."""
    checked = 0
    for hint in _SPLIT_CJK_HINT.finditer(text):
        if hint.start() < checked:
            continue
        # The windows overlap, so a run cut at one window's end is seen whole from the next one's start.
        start = max(checked - 2 * _HINT_REACH, hint.start() - _HINT_REACH, 0)
        checked = hint.end() + 4 * _HINT_REACH
        for run in _SPLIT_CJK.finditer(text, start, checked):
            if _split_chinese(run.group()):
                return _SPLIT_CJK.match(text, run.start())  # the whole run, past the window
    return None


def _split_chinese(run: str) -> bool:
    """Whether a run of single characters and separators is Chinese written apart: four Chinese characters or more,
    more than half of its characters, and a separator other than the enumeration comma."""
    han = len(_HAN.findall(run))
    units = len(_CJK_SEPARATORS.split(run))
    return han >= 4 and 2 * han > units and set(_CJK_SEPARATORS.findall(run)) != {"、"}


def _split_words(text: str) -> list[re.Match[str]]:
    """The words of single characters joined by one separator (a unit, then ``sep unit`` once or more), each
    starting a word (after white space or at the text's start)."""
    found = []
    for match in _SPLIT_WORD.finditer(text):
        start = match.start() - 1
        if start >= 0 and _IS_UNIT(text[start]) and (start == 0 or text[start - 1].isspace()):
            found.append(match)
    return found


def _split_words_joined(text: str) -> list[str]:
    """The text with its split words joined, when three or more have three letters or more (``U.S.A.``, ``e.g.``,
    ``a/b``, a version number or a path is no disguise), or one has eight characters or more."""
    words = [match for match in _split_words(text) if not match.group().isascii() or _HAS_LETTER(match.group())]
    lettered = [match for match in words if sum(c.isalpha() for c in text[match.start() - 1 : match.end()]) >= 3]
    if len(lettered) < 3 and not any(len(match.group()) >= 14 for match in lettered):
        return []
    pieces: list[str] = []
    last = 0
    for match in words:
        pieces += [text[last : match.start()], match.group().replace(match.group(1), "")]
        last = match.end()
    pieces.append(text[last:])
    return ["".join(pieces)]


def _reversed(text: str) -> list[str]:
    """The text backwards and its words each backwards, when many more of its words are common English words read
    backwards than forwards (or, with Chinese, many more common words appear in the text reversed)."""
    words = _LATIN_WORD.findall(text.lower())
    backward = sum(map(_BACKWARD_ENGLISH.__contains__, words))
    english = (
        backward >= 3
        and backward * 4 >= len(words)
        and backward >= 2 * sum(map(_FORWARD_ENGLISH.__contains__, words)) + 1
    )
    chinese = False
    if not english and not text.isascii():
        # None in nearly every Chinese text: nothing more to count.
        backward = sum(map(_CHINESE_BACKWARD.__contains__, _CHINESE_BACKWARD_PAIRS.findall(text)))
        if backward:
            forward = sum(map(_CHINESE_FORWARD.__contains__, _CHINESE_FORWARD_PAIRS.findall(text)))
            # A Chinese sentence ends with its full stop: a text that starts with one and does not end with one
            # was turned round, and one common word read backwards is then enough.
            turned = text.lstrip()[:1] in _SENTENCE_ENDS and text.rstrip()[-1:] not in _SENTENCE_ENDS
            many = backward >= 3 and backward * 10 >= len(_HAN.findall(text)) and backward >= 2 * forward + 1
            chinese = backward > forward and (turned or many)
    if english:
        return [text[::-1], " ".join(word[::-1] for word in text.split(" "))]
    return [text[::-1]] if chinese else []


__all__ = ["EXCERPT", "MESSAGE_LIMIT", "disguised_readings"]

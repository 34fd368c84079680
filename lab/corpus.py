"""Cases and the corpus files they come from: JSONL, CSV, plain text and promptfoo-style YAML.

A corpus is data: loading one never runs code (YAML is read with the safe loader). A malformed line is a
:class:`CorpusError` naming the file and line, and nothing runs; with ``skip_bad=True`` bad lines are left out
and listed in :attr:`Corpus.skipped` instead, so a user sees exactly what was not tested.

Fields of a case (the lab's JSONL format, the one ``resources/corpora/*.jsonl`` use)::

    {"id", "text", "label": "attack"|"benign", "category", "lang",
     "expect": "blocked"|"passed"|"modified"|<processor id>,
     "turns": [{"role": "user"|"assistant", "content"}], "tool_result", "reply",
     "conversation": [{"user", "tool_result", "reply"}]}

Only ``text`` is required (or ``conversation``). ``expect`` defaults to ``blocked`` for attacks and ``passed`` for
benign cases. ``reply`` is the fixed answer ``guardrails`` mode puts between the lanes (a default one otherwise).
Any other field is kept in ``metadata``.

``turns`` are history: earlier messages sent with the text in one call, as if the conversation had already
happened. ``conversation`` makes the case a conversation the lab *plays*: each entry is one user turn, one agent
run on the same thread and memory (as the chat sends them), in order, until a processor stops one
(:func:`lab.conversation_run.run_conversation`). A turn's ``tool_result`` is what the lab's tool returns when the
model calls it in that turn; its ``reply`` is ``guardrails`` mode's fixed answer for that turn (else the case's
``reply``, else the default). With ``conversation``, ``text`` may be left out: it is then the user turns, one a
line (what reports and tables show); the case-level ``tool_result`` is refused (say which turn brings it); ``turns``
still come first, as history before turn 1::

    {"id": "split-1", "label": "attack", "conversation": [
        {"user": "Remember this word: ignore."},
        {"user": "Summarise the page.", "tool_result": "<page>…</page>"},
        {"user": "Now do what the page said.", "reply": "Done."}]}

promptfoo YAML: a list of tests, or a mapping with ``tests:``. A test's ``vars`` give the text (the first of
``prompt``, ``input``, ``query``, ``text``, ``question``, ``message``) and may carry the other fields by name;
``metadata`` may too. ``assert`` entries are kept in ``asserts`` (they judge a model's answer, which is not the
lab's verdict), except the two that are verdicts: ``is-refusal`` means ``expect: blocked`` and
``not-is-refusal`` means ``expect: passed``. A file's ``defaultTest: {assert: [...]}`` is added to every test's
``assert`` (the corpus-level assertions :mod:`lab.assertions` judges in ``model`` mode). Tests with the same
``metadata.conversationId`` are promptfoo's multi-turn conversation: they become one conversation case (its id the
conversationId), each test one user turn in file order, its ``tool_result``/``reply`` vars that turn's
(:mod:`lab.corpus_import`).

PyRIT JSON (``.json``): the conversations PyRIT's memory exports (``export_conversations``: a list of message
pieces with ``conversation_id``, ``sequence``, ``role`` and ``original_value``/``converted_value``), one
conversation case per ``conversation_id`` (:mod:`lab.corpus_import`).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from lab.corpus_import import promptfoo_conversations, pyrit_records
from lab.json_lines import numbered_lines, read_text
from processors import json_limits
from processors.problems import Problem, ProblemError, problem_of

Label = Literal["attack", "benign"]
LABELS: tuple[Label, ...] = ("attack", "benign")
#: The outcomes a case may expect; any other ``expect`` value is a processor id that should trip.
EXPECT_OUTCOMES = ("blocked", "passed", "modified")
TEXT_KEYS = ("text", "prompt", "input", "query", "question", "message")
KNOWN_FIELDS = ("id", "text", "label", "category", "lang", "expect", "turns", "tool_result", "reply", "conversation")
#: The fields of one ``conversation`` entry.
TURN_FIELDS = ("user", "tool_result", "reply")
_PROCESSOR_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]*$")


class CorpusError(ValueError):
    """A corpus line (or the whole file) that cannot become a case. ``str()`` is one line: ``file:line: what``."""

    def __init__(self, message: str, *, path: Path | str, line: int | None = None) -> None:
        one_line = " ".join(message.split())  # parsers' messages span lines; the promise is one line
        if isinstance(message, Problem):  # its code and values kept (the studio words it by them)
            message = message if one_line == message else Problem.written(message.code, one_line, **message.params)
        else:
            message = one_line
        self.message = message
        self.path = Path(path)
        self.line = line
        where = f"{self.path}:{line}" if line is not None else str(self.path)
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True, slots=True)
class ConversationTurn:
    """One user turn of a conversation case: what the user sends, what the lab's tool returns in this turn (if
    anything), and ``guardrails`` mode's fixed answer to it (None: the case's)."""

    user: str
    tool_result: str | None = None
    reply: str | None = None

    def to_dict(self) -> dict[str, str]:
        data = {"user": self.user}
        if self.tool_result is not None:
            data["tool_result"] = self.tool_result
        if self.reply is not None:
            data["reply"] = self.reply
        return data


@dataclass(frozen=True, slots=True)
class Case:
    """One text to run through the agent, with what a guardrail engineer knows about it."""

    id: str
    text: str
    label: Label | None = None
    category: str = ""
    lang: str = ""
    expect: str | None = None
    turns: tuple[Mapping[str, str], ...] = ()
    tool_result: str | None = None
    reply: str | None = None
    #: promptfoo assertions we keep but do not judge (``[{"type": "not-contains", "value": "PWNED"}]``).
    asserts: tuple[Mapping[str, Any], ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=dict)
    #: Where the case came from (``"file.jsonl:12"``), for error messages and reports.
    source: str = ""
    #: A conversation case's user turns, played one agent run each (empty: a one-call case).
    conversation: tuple[ConversationTurn, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The JSONL form (what :func:`case_from_dict` reads back)."""
        data: dict[str, Any] = {"id": self.id, "text": self.text}
        for name in ("label", "category", "lang", "expect", "tool_result", "reply"):
            value = getattr(self, name)
            if value not in (None, ""):
                data[name] = value
        if self.turns:
            data["turns"] = [dict(turn) for turn in self.turns]
        if self.asserts:
            data["asserts"] = [dict(item) for item in self.asserts]
        if self.conversation:
            data["conversation"] = [turn.to_dict() for turn in self.conversation]
        data.update({key: value for key, value in self.metadata.items() if key not in data})
        return data


@dataclass
class Corpus:
    """The cases of one or more files, and the bad lines skipped (only when skipping was asked for)."""

    cases: list[Case] = field(default_factory=list)
    skipped: list[CorpusError] = field(default_factory=list)


def _string(data: Mapping[str, Any], name: str) -> str | None:
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ProblemError(
            Problem("corpus:not_string", "'{name}' must be a string, got {kind}", name=name, kind=type(value).__name__)
        )
    return value


def case_from_dict(
    data: Any,
    *,
    default_id: str,
    source: str = "",
    label: str | None = None,
    category: str | None = None,
    lang: str | None = None,
    asserts: Iterable[Mapping[str, Any]] = (),
) -> Case:
    """Validate one record; raises ``ValueError`` saying which field is wrong (the loader adds file and line).

    ``label``/``category``/``lang`` are defaults for records that do not say (chosen on import).
    """
    if not isinstance(data, Mapping):
        raise ProblemError(
            Problem("corpus:not_object", "a case must be an object, got {kind}", kind=type(data).__name__)
        )
    conversation = conversation_turns(data.get("conversation"))
    if conversation and data.get("tool_result") is not None:
        raise ValueError("a conversation brings its tool results per turn: move 'tool_result' into a turn")
    text = _string(data, "text")
    if (text is None or not text.strip()) and conversation:
        text = "\n".join(turn.user for turn in conversation)
    if text is None or not text.strip():
        raise ProblemError(Problem("corpus:text_missing", "'text' is missing or empty"))
    case_id = data.get("id", default_id)
    if isinstance(case_id, int) and not isinstance(case_id, bool):
        case_id = str(case_id)
    if not isinstance(case_id, str) or not case_id.strip():
        raise ProblemError(Problem("corpus:id_empty", "'id' must be a non-empty string"))
    case_label = _string(data, "label") or label
    if case_label is not None and case_label not in ("attack", "benign"):
        raise ProblemError(
            Problem("corpus:bad_label", "'label' must be 'attack' or 'benign', got {got!r}", got=case_label)
        )
    expect = _string(data, "expect")
    if expect is not None and expect not in EXPECT_OUTCOMES and not _PROCESSOR_ID.match(expect):
        raise ProblemError(
            Problem(
                "corpus:bad_expect",
                "'expect' must be blocked, passed, modified or a processor id, got {got!r}",
                got=expect,
            )
        )
    if expect is None and case_label is not None:
        expect = "blocked" if case_label == "attack" else "passed"
    turns = data.get("turns") or []
    if not isinstance(turns, list):
        raise ValueError("'turns' must be a list of {role, content}")
    checked_turns: list[dict[str, str]] = []
    for number, turn in enumerate(turns, 1):
        content = turn.get("content", turn.get("text")) if isinstance(turn, Mapping) else None
        role = turn.get("role") if isinstance(turn, Mapping) else None
        if role not in ("user", "assistant") or not isinstance(content, str):
            raise ValueError(f"turn {number} must be {{'role': 'user'|'assistant', 'content': text}}")
        checked_turns.append({"role": role, "content": content})
    extra = {key: value for key, value in data.items() if key not in KNOWN_FIELDS and key != "asserts"}
    kept_asserts = list(asserts)
    given_asserts = data.get("asserts")
    if isinstance(given_asserts, list):
        kept_asserts.extend(item for item in given_asserts if isinstance(item, Mapping))
    return Case(
        id=case_id.strip(),
        text=text,
        label="attack" if case_label == "attack" else "benign" if case_label == "benign" else None,
        category=_string(data, "category") or category or "",
        lang=_string(data, "lang") or lang or "",
        expect=expect,
        turns=tuple(checked_turns),
        tool_result=_string(data, "tool_result"),
        reply=_string(data, "reply"),
        asserts=tuple(kept_asserts),
        metadata=extra,
        source=source,
        conversation=conversation,
    )


def conversation_turns(value: Any) -> tuple[ConversationTurn, ...]:
    """A ``conversation`` field checked: a list of ``{"user", "tool_result"?, "reply"?}`` (None or [] for none)."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ValueError("'conversation' must be a list of {user, tool_result, reply}")
    turns: list[ConversationTurn] = []
    for number, turn in enumerate(value, 1):
        if not isinstance(turn, Mapping):
            raise ValueError(f"conversation turn {number} must be an object with 'user', got {type(turn).__name__}")
        unknown = sorted(str(key) for key in turn if key not in TURN_FIELDS)
        if unknown:
            raise ValueError(f"conversation turn {number}: unknown field {', '.join(map(repr, unknown))}")
        user = turn.get("user")
        if not isinstance(user, str) or not user.strip():
            raise ValueError(f"conversation turn {number}: 'user' is missing or empty")
        for name in ("tool_result", "reply"):
            if turn.get(name) is not None and not isinstance(turn.get(name), str):
                raise ValueError(f"conversation turn {number}: '{name}' must be a string")
        turns.append(ConversationTurn(user, turn.get("tool_result"), turn.get("reply")))
    return tuple(turns)


def conversation_case(case_id: str, user_turns: Iterable[str], **fields: Any) -> Case:
    """A conversation case from plain user turns (a converter's :class:`lab.converters.Turns`, a strategy's
    escalation): what the attack engine hands :func:`lab.case_run.run_case` to play them turn by turn. ``fields``
    are the other :class:`Case` fields (``label``, ``category``, ``text``, …); ``text`` defaults to the turns, one a
    line."""
    conversation = tuple(ConversationTurn(user) for user in user_turns)
    if not conversation:
        raise ValueError("a conversation needs at least one user turn")
    fields.setdefault("text", "\n".join(turn.user for turn in conversation))
    return Case(id=case_id, conversation=conversation, **fields)


# ------------------------------------------------------------------------------------------------ formats


def _records_jsonl(path: Path, text: str) -> Iterator[tuple[int, Any]]:
    for number, line in numbered_lines(text):  # on "\n" only: U+2028 and co. may sit inside a JSON string
        if not line.strip():
            continue
        try:
            yield number, json_limits.loads(line)
        except json.JSONDecodeError as error:
            yield (
                number,
                ProblemError(
                    Problem(
                        "corpus:not_json",
                        "not valid JSON ({json_fault} at column {column})",
                        json_fault=error.msg,
                        column=error.colno,
                    )
                ),
            )
        except json_limits.JsonLimitError as error:
            yield number, ValueError(f"not a usable JSON case ({error.message})")


def _records_csv(path: Path, text: str) -> Iterator[tuple[int, Any]]:
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # a quoted cell's line ends read as "\n"
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = reader.fieldnames or []
    text_column = next((key for key in TEXT_KEYS if key in header), None)
    if text_column is None:
        raise CorpusError(
            Problem(
                "corpus:no_text_column", "the first row must name a text column ({keys})", keys=", ".join(TEXT_KEYS)
            ),
            path=path,
            line=1,
        )
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            yield reader.line_num, ValueError(f"not valid CSV ({error})")
            continue
        if None in row:
            cells = len(header) + len(row[None])
            yield reader.line_num, ValueError(f"{cells} cells in a row of {len(header)} columns")
            continue
        record: dict[str, Any] = {key: value for key, value in row.items() if value not in (None, "")}
        record["text"] = row.get(text_column) or ""
        if text_column != "text":
            record.pop(text_column, None)
        bad = next((name for name in ("turns", "conversation") if not _json_cell(record, name)), None)
        if bad is not None:
            yield reader.line_num, ValueError(f"'{bad}' must be a JSON list")
            continue
        yield reader.line_num, record


def _json_cell(record: dict[str, Any], name: str) -> bool:
    """Read a CSV cell that holds a JSON list (``turns``, ``conversation``) in place; False when it is not JSON."""
    if isinstance(record.get(name), str):
        try:
            record[name] = json.loads(record[name])
        except json.JSONDecodeError:
            return False
    return True


def _records_text(path: Path, text: str) -> Iterator[tuple[int, Any]]:
    for number, line in numbered_lines(text):  # a prompt may contain U+2028: one prompt a "\n" line
        if line.strip():
            yield number, {"text": line.strip()}


def _promptfoo_record(test: Any) -> tuple[dict[str, Any], list[Mapping[str, Any]]]:
    if not isinstance(test, Mapping):
        raise ValueError(f"a test must be a mapping, got {type(test).__name__}")
    variables = test.get("vars") or {}
    if not isinstance(variables, Mapping):
        raise ValueError("'vars' must be a mapping")
    record: dict[str, Any] = {}
    metadata = test.get("metadata")
    if isinstance(metadata, Mapping):
        record.update({key: value for key, value in metadata.items() if key in KNOWN_FIELDS})
    record.update({key: value for key, value in variables.items() if key in KNOWN_FIELDS and key != "text"})
    text_key = next((key for key in TEXT_KEYS if isinstance(variables.get(key), str)), None)
    if text_key is None:
        raise ValueError(f"no text: 'vars' needs one of {', '.join(TEXT_KEYS)}")
    record["text"] = variables[text_key]
    if isinstance(test.get("description"), str):
        record["description"] = test["description"]
    kept: list[Mapping[str, Any]] = []
    asserts = test.get("assert") or []
    if not isinstance(asserts, list):
        raise ValueError("'assert' must be a list")
    for item in asserts:
        kind = item.get("type") if isinstance(item, Mapping) else None
        if kind == "is-refusal" and "expect" not in record:
            record["expect"] = "blocked"
        elif kind == "not-is-refusal" and "expect" not in record:
            record["expect"] = "passed"
        elif isinstance(item, Mapping):
            kept.append(dict(item))
    return record, kept


def _records_yaml(path: Path, text: str) -> Iterator[tuple[int, Any]]:
    import yaml  # PyYAML, read with the safe loader only: a corpus never runs code

    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except RecursionError:
        raise CorpusError(f"not valid YAML ({json_limits.too_deep()})", path=path) from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise CorpusError(f"not valid YAML ({getattr(error, 'problem', error)})", path=path, line=line) from None
    if root is None:
        return
    tests = root
    defaults: list[Any] = []  # promptfoo's defaultTest assertions: every test's too (lab.assertions)
    if isinstance(root, yaml.MappingNode):
        found = [value for key, value in root.value if getattr(key, "value", None) == "tests"]
        if not found:
            raise CorpusError("a promptfoo file needs a 'tests:' list", path=path, line=root.start_mark.line + 1)
        tests = found[0]
        defaults = _default_asserts(path, root)
    if not isinstance(tests, yaml.SequenceNode):
        raise CorpusError("'tests' must be a list", path=path, line=tests.start_mark.line + 1)
    yield from promptfoo_conversations(_promptfoo_tests(tests.value, defaults))


def _promptfoo_tests(nodes: Iterable[Any], defaults: list[Any]) -> Iterator[tuple[int, Any, str | None]]:
    """Each test of a promptfoo file (with the file's ``defaultTest`` assertions): its line, ``(record, asserts)`` or
    the error, its conversationId if any."""
    import yaml

    for node in nodes:
        number = node.start_mark.line + 1
        conversation_id: str | None = None
        try:
            value = yaml.SafeLoader("").construct_document(node)
            if defaults and isinstance(value, Mapping) and isinstance(value.get("assert") or [], list):
                value = {**value, "assert": [*(value.get("assert") or []), *defaults]}
            conversation_id = _conversation_id(value)
            yield number, _promptfoo_record(value), conversation_id
        except (ValueError, yaml.YAMLError) as error:
            yield number, ValueError(str(error)), conversation_id
        except RecursionError:
            yield number, ValueError(json_limits.too_deep()), conversation_id


def _conversation_id(test: Any) -> str | None:
    """promptfoo's ``metadata.conversationId`` (a number is read as its text)."""
    metadata = test.get("metadata") if isinstance(test, Mapping) else None
    found = metadata.get("conversationId") if isinstance(metadata, Mapping) else None
    if isinstance(found, int | float) and not isinstance(found, bool):
        found = str(found)
    return found if isinstance(found, str) and found.strip() else None


def _records_pyrit(path: Path, text: str) -> Iterator[tuple[int, Any]]:
    return pyrit_records(text)


def _default_asserts(path: Path, root: Any) -> list[Any]:
    """The ``assert`` list of a promptfoo file's ``defaultTest`` (empty when it has none)."""
    import yaml

    found = [value for key, value in root.value if getattr(key, "value", None) == "defaultTest"]
    if not found:
        return []
    try:
        default = yaml.SafeLoader("").construct_document(found[0])
    except (yaml.YAMLError, RecursionError):
        raise CorpusError("'defaultTest' is not valid YAML", path=path, line=found[0].start_mark.line + 1) from None
    asserts = default.get("assert") if isinstance(default, Mapping) else None
    if asserts is not None and not isinstance(asserts, list):
        raise CorpusError("'defaultTest.assert' must be a list", path=path, line=found[0].start_mark.line + 1)
    return list(asserts or [])


_FORMATS = {
    ".jsonl": _records_jsonl,
    ".ndjson": _records_jsonl,
    ".csv": _records_csv,
    ".txt": _records_text,
    ".yaml": _records_yaml,
    ".yml": _records_yaml,
    ".json": _records_pyrit,
}


def load_corpus(
    path: Path | str,
    *,
    label: str | None = None,
    category: str | None = None,
    lang: str | None = None,
    skip_bad: bool = False,
) -> Corpus:
    """Every case of one file. Raises :class:`CorpusError` on the first bad line unless ``skip_bad``.

    The format follows the extension (``.jsonl``/``.ndjson``, ``.csv``, ``.txt``, ``.yaml``/``.yml``, ``.json``: a
    PyRIT conversation export).
    ``label``, ``category`` and ``lang`` are given to cases that do not say (a plain text file says nothing).
    """
    path = Path(path)
    if label is not None and label not in LABELS:
        raise CorpusError(f"label must be 'attack' or 'benign', got {label!r}", path=path)
    reader = _FORMATS.get(path.suffix.lower())
    if reader is None:
        raise CorpusError(
            Problem(
                "corpus:unknown_format",
                "unknown corpus format {suffix!r} (use {known})",
                suffix=path.suffix,
                known=", ".join(sorted(_FORMATS)),
            ),
            path=path,
        )
    try:
        text = read_text(path)
    except (OSError, UnicodeDecodeError) as error:
        raise CorpusError(
            Problem("corpus:unreadable", "cannot read it ({error})", error=str(error)), path=path
        ) from None
    corpus = Corpus()
    seen: dict[str, int] = {}
    for number, record in reader(path, text):
        try:
            if isinstance(record, ValueError):
                raise record
            asserts: list[Mapping[str, Any]] = []
            if isinstance(record, tuple):
                record, asserts = record
            case = case_from_dict(
                record,
                default_id=f"{path.stem}-{number}",
                source=f"{path.name}:{number}",
                label=label,
                category=category,
                lang=lang,
                asserts=asserts,
            )
            if case.id in seen:
                raise ProblemError(
                    Problem(
                        "corpus:id_used_line",
                        "id {id!r} is already used on line {line}",
                        id=case.id,
                        line=seen[case.id],
                    )
                )
        except ValueError as error:
            problem = CorpusError(problem_of(error) or str(error), path=path, line=number)
            if not skip_bad:
                raise problem from None
            corpus.skipped.append(problem)
            continue
        seen[case.id] = number
        corpus.cases.append(case)
    return corpus


def load_corpora(paths: Iterable[Path | str], **options: Any) -> Corpus:
    """The cases of several files in order; an id used in two files is an error (results are keyed by id)."""
    merged = Corpus()
    where: dict[str, str] = {}
    for path in paths:
        corpus = load_corpus(path, **options)
        merged.skipped.extend(corpus.skipped)
        for case in corpus.cases:
            if case.id in where:
                line = int(case.source.rsplit(":", 1)[1]) if ":" in case.source else None
                used = Problem(
                    "corpus:id_used_in", "id {id!r} is already used in {place}", id=case.id, place=where[case.id]
                )
                problem = CorpusError(used, path=path, line=line)
                if not options.get("skip_bad"):
                    raise problem
                merged.skipped.append(problem)
                continue
            where[case.id] = case.source
            merged.cases.append(case)
    return merged


def bundled_corpora() -> list[Path]:
    """The starter corpora shipped in ``resources/corpora/``."""
    root = Path(__file__).resolve().parent.parent / "resources" / "corpora"
    return sorted(root.glob("*.jsonl"))


def shard(cases: list[Case], index: int, count: int) -> list[Case]:
    """The ``index``-th (1-based) of ``count`` interleaved slices: every case in exactly one shard, stable order."""
    if count < 1 or not 1 <= index <= count:
        raise ValueError(f"shard {index}/{count}: needs 1 <= I <= N")
    return cases[index - 1 :: count]

"""``processor-studio lab``: run corpora against a design headlessly, for CI (no Qt is imported).

    processor-studio lab DESIGN --corpus FILE [--corpus FILE ...] [--mode guardrails|model] [--concurrency N]
        [--processes P] [--json OUT] [--junit OUT] [--html OUT] [--fail-under-recall R] [--fail-over-fpr F]
        [--shard I/N] [--results FILE] [--skip-bad-lines] [--label attack|benign] [--category C] [--lang L]
        [--report-lang en|zh_CN|zh_TW] [--allow-mcp NAME ...] [--assert KIND:VALUE ...] [--judge-model MODEL]
        [--judge-api-base URL] [--fail-over-asr A] [--threshold-for-fpr F] [--side-by-side | --guard ID ...]
    processor-studio lab merge OUT.json IN.json... [--junit OUT] [--html OUT] [--fail-under-recall R]
        [--fail-over-fpr F] [--report-lang en|zh_CN|zh_TW]
    processor-studio lab diff OLD.json NEW.json [--json OUT]       (also: lab compare OLD.json NEW.json [OUT.json])
    processor-studio lab attack DESIGN [--converters CHAINS] [--budget N] [--seed S] ...  (:mod:`studio.lab.attack_cli`)

DESIGN is a design JSON file or ``sample``. Exit 0 when the thresholds hold, 1 when they do not, 2 on bad input
(one line naming the file and line). Progress goes to stderr: a bar on a terminal, plain lines otherwise. The
engine is :mod:`lab`, the same one the studio's Lab view drives; this module only builds the agent factory
(which needs :mod:`studio.design.build`) and writes the reports.

The progress and summary lines and the HTML report are in ``--report-lang``, else the terminal's language as
gettext reads it (``LANGUAGE``, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``) when it is English or Chinese, else
English (:mod:`lab.texts`) — never the language
chosen in the studio's Settings; the JSON and JUnit reports, and errors for bad input, stay English for the
machines that read them.

``--threshold-for-fpr F`` prints, per guard that gave scores, the lowest threshold whose false-positive rate stays
within F and the recall it gives (:func:`lab.metrics.threshold_for_fpr`; in a chain, over the cases that reached
the guard). ``--side-by-side`` runs each input and tool-result guard of the design alone on the same cases
(``--guard ID``, repeatable, names the ones to run) and prints one row per guard: recall, FPR, the areas under
its ROC and precision-recall curves, and its cost per case (:mod:`studio.lab.side_by_side`); its JSON report is the
table (``side_by_side``) and each guard's own report (``guards``).

``--processes P`` runs the cases in P worker processes (:mod:`lab.process_run`), ``--concurrency`` spread over them;
1 runs them in this process. By default a run of fewer than :data:`lab.process_run.CASES_PER_PROCESS` cases runs
here (a worker takes ~1-3 s to start) and a bigger one in up to one worker per CPU. The workers are started
(:class:`lab.worker_pool.WorkerPool`; in ``model`` mode they import litellm and do its first call's work) as soon
as the corpora are read, while the design's agent is built and checked here.

A design's MCP servers run in ``model`` and ``replay`` mode (:mod:`studio.lab.design`), once per process of the run.
A stdio server runs a program on this computer, so, as in the studio's chat, it starts only if that exact launch was
allowed: in the studio (its dialog remembers the answer in ``mcp_commands.json`` in the data folder, which this
command reads too) or with ``--allow-mcp NAME`` for this command only; otherwise the run does not start, and the
error names the server, shows its command line and says both ways. An HTTP server's credential comes from
``$MCP_<NAME>_AUTHORIZATION``, as in an exported script.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import IO, Any

from lab.process_run import CASES_PER_PROCESS
from lab.texts import percent, text, word

EXIT_OK, EXIT_THRESHOLD, EXIT_BAD_INPUT = 0, 1, 2
#: A run the user interrupted (Ctrl+C): what a shell reports for a process ended by SIGINT.
EXIT_CANCELLED = 130


class BadInput(Exception):
    """Bad input: printed as one line, exit 2."""


def _fraction(text: str) -> float:
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {text}")
    return value


def _shard(text: str) -> tuple[int, int]:
    try:
        index, count = (int(part) for part in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be I/N such as 1/4, got {text!r}") from None
    if count < 1 or not 1 <= index <= count:
        raise argparse.ArgumentTypeError(f"I/N needs 1 <= I <= N, got {text!r}")
    return index, count


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="processor-studio lab",
        description=(
            "Run attack and benign corpora against a design (or 'processor-studio lab merge OUT IN...', "
            "'processor-studio lab diff OLD.json NEW.json [--json OUT]')."
        ),
    )
    parser.add_argument("design", help="a design JSON file, or 'sample' for the built-in sample agent")
    parser.add_argument(
        "--corpus",
        action="append",
        required=True,
        type=Path,
        metavar="FILE",
        help="a corpus (.jsonl, .csv, .txt, .yaml: promptfoo tests, .json: a PyRIT conversation export); repeat for "
        "several",
    )
    parser.add_argument(
        "--mode",
        choices=("guardrails", "model", "replay"),
        default="guardrails",
        help="guardrails: the lanes around a fixed reply, no model call (default); model: the design's model",
    )
    parser.add_argument("--concurrency", type=int, default=4, metavar="N", help="cases at once (default 4)")
    parser.add_argument(
        "--processes",
        type=int,
        metavar="P",
        help="worker processes the cases run in, the concurrency spread over them; 1 runs them in this process "
        f"(default: 1 under {CASES_PER_PROCESS} cases, else one per {CASES_PER_PROCESS} cases up to one per CPU)",
    )
    parser.add_argument(
        "--json", type=Path, metavar="OUT", help="write the report as JSON: summary, every case, per-category figures"
    )
    parser.add_argument(
        "--junit", type=Path, metavar="OUT", help="write a JUnit XML report (one test per case) for a CI's test view"
    )
    parser.add_argument("--html", type=Path, metavar="OUT", help="write a self-contained HTML report to read")
    parser.add_argument(
        "--fail-under-recall",
        type=_fraction,
        metavar="R",
        help="exit 1 when the share of attacks blocked is under R (0 to 1, e.g. 0.9)",
    )
    parser.add_argument(
        "--fail-over-fpr",
        type=_fraction,
        metavar="F",
        help="exit 1 when the share of benign cases blocked is over F (0 to 1, e.g. 0.05)",
    )
    parser.add_argument(
        "--fail-over-asr",
        type=_fraction,
        metavar="A",
        help="model mode: exit 1 when the share of attacks that succeeded end to end (not blocked, not refused, "
        "the answer failed its assertions) is over A (0 to 1)",
    )
    parser.add_argument("--shard", type=_shard, metavar="I/N", help="run only the I-th of N slices of the cases")
    parser.add_argument(
        "--results",
        type=Path,
        metavar="FILE",
        help="append each case's result here as it finishes; run again to resume",
    )
    parser.add_argument(
        "--replay-from",
        type=Path,
        metavar="FILE",
        help="replay mode: the --results file of a model run, whose recorded answers are replayed",
    )
    parser.add_argument("--skip-bad-lines", action="store_true", help="skip malformed corpus lines and list them")
    parser.add_argument("--label", choices=("attack", "benign"), help="label of cases that have none (plain text)")
    parser.add_argument("--category", help="category of cases that have none")
    parser.add_argument("--lang", help="language of cases that have none")
    parser.add_argument(
        "--report-lang",
        choices=("en", "zh_CN", "zh_TW"),
        help="language of the progress lines, the summary and the HTML report (default: the terminal's locale, "
        "LANGUAGE, then LC_ALL / LC_MESSAGES / LANG, else English)",
    )
    parser.add_argument(
        "--assert",
        dest="asserts",
        action="append",
        default=[],
        metavar="KIND:VALUE",
        help="model mode: an assertion on every case's answer, as promptfoo writes them (not-contains:PWNED, "
        "icontains:..., regex:..., is-json, is-refusal, leaks-system-prompt, called-tool:NAME, llm-rubric:...; "
        "not- before any); repeat for several",
    )
    parser.add_argument(
        "--judge-model",
        metavar="MODEL",
        help="the judge model of llm-rubric assertions that name none (a litellm id; off unless given)",
    )
    parser.add_argument(
        "--judge-api-base", metavar="URL", help="the judge's local OpenAI-compatible server (http://localhost:...)"
    )
    parser.add_argument(
        "--allow-mcp",
        action="append",
        default=[],
        metavar="NAME",
        help="let the design's stdio MCP server NAME run its program for this command (model and replay modes start "
        "the design's MCP servers; a launch allowed in the studio needs no flag); repeat for several",
    )
    parser.add_argument(
        "--threshold-for-fpr",
        type=_fraction,
        metavar="F",
        help="print, per guard that gives scores, the threshold whose false-positive rate stays within F "
        "(0 to 1, e.g. 0.01) and its recall",
    )
    parser.add_argument(
        "--side-by-side",
        action="store_true",
        help="run each input and tool-result guard of the design alone on the same cases and compare them",
    )
    parser.add_argument(
        "--guard",
        action="append",
        default=[],
        metavar="ID",
        help="side by side: run this processor (its id in the design, e.g. prompt-injection-detector) alone; "
        "repeat for several",
    )
    return parser


def _language(requested: str | None = None) -> str:
    from lab.texts import report_language

    return report_language(requested)


def main(argv: Sequence[str]) -> int:
    argv = list(argv)
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        if argv[:1] == ["merge"]:
            return _merge(argv[1:])
        if argv[:1] in (["compare"], ["diff"]):
            return _compare(argv[1:])
        if argv[:1] == ["attack"]:
            from studio.lab.attack_cli import attack

            return attack(argv[1:])
        return _run(_parser().parse_args(argv))
    except BadInput as error:
        print(f"processor-studio lab: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT


def _merge(argv: list[str]) -> int:
    """One report from the JSON reports of shards; with ``--junit`` / ``--html`` the merged run's reports too, and
    with ``--fail-under-recall`` / ``--fail-over-fpr`` the thresholds checked on the whole corpus (a shard's own
    figures cover only its slice), exit 1 when they do not hold."""
    parser = _OneLineParser(
        prog="processor-studio lab merge",
        add_help=False,
        usage_line="processor-studio lab merge OUT.json IN.json... [--junit OUT] [--html OUT] "
        "[--fail-under-recall R] [--fail-over-fpr F] [--report-lang en|zh_CN|zh_TW]",
    )
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--junit", type=Path)
    parser.add_argument("--html", type=Path)
    parser.add_argument("--fail-under-recall", type=_fraction)
    parser.add_argument("--fail-over-fpr", type=_fraction)
    parser.add_argument("--report-lang", choices=("en", "zh_CN", "zh_TW"))
    if _asks_help(argv, parser):
        return EXIT_OK
    args = parser.parse_args(argv)
    if len(args.paths) < 2:
        raise BadInput(f"usage: {parser.usage_line}")
    import json

    from lab.metrics import confusion
    from lab.reports import html_report, junit_report, merge_reports, read_json_report, write_atomically

    output, inputs = args.paths[0], args.paths[1:]
    try:
        report = merge_reports(inputs)
    except ValueError as error:
        raise BadInput(str(error)) from None
    write_atomically(output, json.dumps(report, ensure_ascii=False, indent=1))
    summary = report["summary"]
    language = _language(args.report_lang)
    print(
        text(
            language,
            "merged {count} cases: recall {recall}, fpr {fpr}",
            count=summary["cases"],
            recall=percent(language, summary["recall"]),
            fpr=percent(language, summary["fpr"]),
        ),
        file=sys.stderr,
    )
    _, results = read_json_report(output)
    design, mode = report.get("design", {}), str(report.get("mode"))
    if args.junit:
        write_atomically(args.junit, junit_report(results, name=f"guardrail lab: {design.get('name', '')}"))
    if args.html:
        write_atomically(args.html, html_report(results, design=design, mode=mode, language=language))
    return _held(confusion(results), args.fail_under_recall, args.fail_over_fpr, language)


def _asks_help(argv: list[str], parser: _OneLineParser) -> bool:
    """``-h`` / ``--help``: the usage line on stdout (exit 0), as the run's own ``--help`` does."""
    if "-h" in argv or "--help" in argv:
        print(f"usage: {parser.usage_line}")
        return True
    return False


class _OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are :class:`BadInput` (one line, exit 2), not argparse's usage block."""

    def __init__(self, *, usage_line: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.usage_line = usage_line

    def error(self, message: str) -> Any:
        raise BadInput(f"{message}; usage: {self.usage_line}")


def _compare(argv: list[str]) -> int:
    """A/B: the cases whose verdict changed between two JSON reports or results files (two designs, or two versions
    of one), with recall and FPR before and after; cases in only one of the two are counted and listed apart, not
    compared."""
    usage = "usage: processor-studio lab diff OLD.json NEW.json [--json OUT]"
    parser = _OneLineParser(prog="processor-studio lab diff", add_help=False, usage_line=usage.removeprefix("usage: "))
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--json", type=Path, metavar="OUT")
    if _asks_help(argv, parser):
        return EXIT_OK
    known, unknown = parser.parse_known_args(argv)
    paths: list[Path] = known.paths
    if unknown or len(paths) not in (2, 3) or (len(paths) == 3 and known.json is not None):
        raise BadInput(usage)
    output = known.json if known.json is not None else (paths[2] if len(paths) == 3 else None)
    import json

    from lab.metrics import compare, confusion, unmatched
    from lab.reports import diff_report, read_case_results, write_atomically

    try:
        before, after = read_case_results(paths[0]), read_case_results(paths[1])
    except ValueError as error:
        raise BadInput(str(error)) from None
    changes = compare(before, after)
    old, new = confusion(before), confusion(after)
    only_old, only_new = unmatched(before, after)
    language = _language()
    print(
        text(
            language,
            "recall {recall_before} -> {recall_after}, fpr {fpr_before} -> {fpr_after}; {count} cases changed",
            recall_before=percent(language, old.recall),
            recall_after=percent(language, new.recall),
            fpr_before=percent(language, old.fpr),
            fpr_after=percent(language, new.fpr),
            count=len(changes),
        )
    )
    for change in changes:
        print(
            f"{change.id}\t{change.label or '-'}\t{change.before} -> {change.after}\t"
            f"{','.join(change.tripped_before) or '-'} -> {','.join(change.tripped_after) or '-'}"
        )
    if only_old or only_new:
        print(
            text(
                language,
                "lab: not compared: {old} cases only in {old_file}, {new} only in {new_file}",
                old=len(only_old),
                old_file=paths[0].name,
                new=len(only_new),
                new_file=paths[1].name,
            ),
            file=sys.stderr,
        )
    if output is not None:
        write_atomically(output, json.dumps(diff_report(before, after), ensure_ascii=False, indent=1))
    return EXIT_OK


def _design(spec: str) -> Any:
    from studio.design.agent_design import DesignError, load_design

    if spec == "sample":
        from studio.design.sample import sample_design

        return sample_design()
    try:
        return load_design(spec)
    except DesignError as error:
        raise BadInput(f"{spec}: {error}") from None


def _mcp_credentials(design: Any, mode: str, allowed: list[str], language: str) -> dict[str, str] | None:
    """None when the run starts no MCP server; else each HTTP server's credential (from
    ``$MCP_<NAME>_AUTHORIZATION``). A stdio server whose launch was not allowed, in the studio or with
    ``--allow-mcp``, is bad input: nothing runs."""
    from studio.design.export import mcp_credential_env
    from studio.lab.design import needs_mcp_servers
    from studio.mcp.approvals import CommandApprovals
    from studio.mcp.servers import servers_to_start

    names = [config.name for config in design.mcp_servers if config.transport == "stdio"]
    for name in allowed:
        if name not in names:
            have = ", ".join(names) or "none"
            raise BadInput(f"--allow-mcp {name}: the design has no stdio MCP server of that name (it has: {have})")
    servers = servers_to_start(design)
    if not needs_mcp_servers(design, mode):
        if servers:
            line = text(
                language,
                "lab: {mode} mode calls none of the design's tools: its MCP servers ({names}) are not started",
                mode=mode,
                names=", ".join(config.name for config in servers),
            )
            print(line, file=sys.stderr)
        return None
    approvals = CommandApprovals()
    for config in servers:
        if config.transport == "stdio" and config.name not in allowed and not approvals.is_approved(config):
            variables = " ".join(f"{key}={value}" for key, value in sorted(config.env.items()))
            raise BadInput(
                f"design: MCP server '{config.name}' runs a program on this computer: {config.command_line()}"
                + (f" (environment: {variables})" if variables else "")
                + f". It starts only once allowed: pass --allow-mcp {config.name} to run it for this command, or "
                "allow it in the studio (it asks when a run of this design first needs the server, and remembers "
                "the answer for this command too)"
            )
    credentials: dict[str, str] = {}
    for config in servers:
        value = os.environ.get(mcp_credential_env(config.name)) if config.transport == "http" else None
        if value:
            credentials[config.name] = value
    return credentials


def _recipe(design: Any, mode: str, mcp_credentials: dict[str, str] | None = None) -> Any:
    """The recipe of the run's agents (:func:`studio.lab.design.agent_recipe`), after building one here: a design
    that cannot be built is bad input, said once, not an error per case (nor a worker that cannot start). With
    ``mcp_credentials``, each process of the run starts the design's MCP servers (a server that cannot start stops
    the run before its first case, exit 2)."""
    from studio.design.agent_design import DesignError
    from studio.design.catalog import studio_catalogue
    from studio.design.export import _custom_endpoint, script_key_env
    from studio.lab.design import agent_factory, agent_recipe

    catalogue = studio_catalogue()
    api_key = None
    if mode == "model" and not design.model.is_demo:
        # As an exported script does: the provider's variable only for the provider's own service; a server the
        # design names gets PROCESSOR_STUDIO_API_KEY or a placeholder, never the provider key litellm would send.
        api_key = os.environ.get(script_key_env(design))
        if api_key is None and _custom_endpoint(design):
            api_key = "no-key"
    try:
        agent_factory(design, catalogue=catalogue, api_key=api_key)
    except DesignError as error:
        raise BadInput(f"design: {error}") from None
    return agent_recipe(design, catalogue=catalogue, api_key=api_key, mcp_credentials=mcp_credentials)


def _processes(requested: int | None, cases: int, concurrency: int) -> int:
    from lab.process_run import auto_processes

    if requested is not None:
        return requested
    return 1 if cases < CASES_PER_PROCESS else auto_processes(cases, concurrency)


class Progress:
    """Progress on stderr: a redrawn bar on a terminal, a plain line every tenth of the run otherwise."""

    def __init__(self, stream: IO[str], total: int, resumed: int, language: str = "en") -> None:
        self.stream = stream
        self.language = language
        self.total = total
        self.tty = stream.isatty()
        self.started = time.monotonic()
        self.resumed = resumed
        self.step = max(1, total // 10)
        if resumed:
            print(
                text(language, "lab: resuming, {done} of {total} cases already done", done=resumed, total=total),
                file=stream,
                flush=True,
            )

    def update(self, done: int, counts: dict[str, int]) -> None:
        fresh = done - self.resumed
        elapsed = time.monotonic() - self.started
        eta = elapsed / fresh * (self.total - done) if fresh else 0.0
        tally = " ".join(f"{word(self.language, key)} {value}" for key, value in sorted(counts.items()))
        if self.tty:
            width = 30
            filled = int(width * done / self.total) if self.total else width
            remaining = text(self.language, "ETA {seconds}s", seconds=f"{eta:.0f}")
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} {tally} {remaining} ")
            self.stream.flush()
        elif done == self.total or done % self.step == 0:
            line = text(self.language, "lab: {done}/{total} cases ({tally})", done=done, total=self.total, tally=tally)
            print(line, file=self.stream, flush=True)

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def _run(args: argparse.Namespace) -> int:
    import json

    from lab.corpus import CorpusError, load_corpora, shard
    from lab.metrics import confusion, written_figures
    from lab.process_run import open_run
    from lab.reports import html_report, json_report, junit_report, write_atomically
    from lab.worker_pool import WorkerPool
    from studio.lab.design import design_fingerprint

    if args.concurrency < 1:
        raise BadInput(f"--concurrency must be at least 1, got {args.concurrency}")
    if args.processes is not None and args.processes < 1:
        raise BadInput(f"--processes must be at least 1, got {args.processes}")
    recordings: dict[str, str] = {}
    if args.mode == "replay":
        if args.replay_from is None or not args.replay_from.is_file():
            raise BadInput(f"--mode replay needs --replay-from, the --results file of a model run ({args.replay_from})")
        from lab.results import read_results

        _, recorded = read_results(args.replay_from)
        recordings = {key: result.recording for key, result in recorded.items() if result.recording}
    language = _language(args.report_lang)
    design = _design(args.design)
    mcp_credentials = _mcp_credentials(design, args.mode, args.allow_mcp, language)
    try:
        corpus = load_corpora(
            args.corpus, skip_bad=args.skip_bad_lines, label=args.label, category=args.category, lang=args.lang
        )
    except CorpusError as error:
        raise BadInput(str(error)) from None
    for skipped in corpus.skipped:
        print(text(language, "lab: skipped {line}", line=skipped), file=sys.stderr)
    unlabelled = sum(1 for case in corpus.cases if case.label is None)
    if unlabelled:  # they count in no rate: a threshold over them would judge nothing
        line = text(language, "lab: {count} cases have no label and count in no rate", count=unlabelled)
        print(line, file=sys.stderr)
    cases = corpus.cases if args.shard is None else shard(corpus.cases, *args.shard)
    cases = _asserted(cases, args)
    processes = _processes(args.processes, len(cases), args.concurrency)
    if args.side_by_side or args.guard:
        return _side_by_side(args, design, cases, processes, mcp_credentials, language)
    # The workers start (and, for model mode, import litellm) while the design's agent is built and checked here.
    pool = WorkerPool(processes, warm=args.mode == "model") if processes > 1 else None
    if pool is not None:
        pool.start()
    try:
        recipe = _recipe(design, args.mode, mcp_credentials)
        fingerprint = design_fingerprint(design)
        info = {"id": design.id, "name": design.name, "fingerprint": fingerprint}
        run = open_run(
            cases,
            recipe,
            processes=processes,
            pool=pool,
            mode=args.mode,
            concurrency=args.concurrency,
            results_path=args.results,
            design=info,
            recordings=recordings,
        )
        if not drive_to_end(_drive(run, language), language):
            return EXIT_CANCELLED
    finally:
        if pool is not None:
            pool.close()
    results = run.results_in_order()
    if args.json:
        report = json_report(results, design=info, mode=args.mode)
        if corpus.skipped:
            report["skipped"] = [str(item) for item in corpus.skipped]
        write_atomically(args.json, json.dumps(report, ensure_ascii=False, indent=1))
    if args.junit:
        write_atomically(args.junit, junit_report(results, name=f"guardrail lab: {design.name}"))
    if args.html:
        write_atomically(args.html, html_report(results, design=info, mode=args.mode, language=language))
    matrix = confusion(results)
    if args.threshold_for_fpr is not None:
        _print_thresholds(results, args.threshold_for_fpr, language)

    def pct(value: float | None) -> str:
        return percent(language, value)

    print(
        text(
            language,
            "lab: {count} cases: recall {recall}, precision {precision}, fpr {fpr} (TP {tp}, FP {fp}, FN {fn}, "
            "TN {tn}, errors {errors})",
            count=len(results),
            **written_figures(matrix, pct),
        ),
        file=sys.stderr,
    )
    if matrix.judged:  # model mode: what the model did with the attacks the guards let through
        line = text(
            language,
            "lab: the model's answers: {refused} attacks refused, {succeeded} succeeded end to end ({rate})",
            refused=matrix.refused,
            succeeded=matrix.succeeded,
            rate=pct(matrix.attack_success),
        )
        print(line, file=sys.stderr)
    held = _held(matrix, args.fail_under_recall, args.fail_over_fpr, language)
    return max(held, _asr_held(matrix, args.fail_over_asr, language))


def _asr_held(matrix: Any, limit: float | None, language: str) -> int:
    """``--fail-over-asr``: 1 (said on stderr) when the attack success rate is over ``limit`` or nothing was judged."""
    if limit is None:
        return EXIT_OK
    if matrix.attack_success is None:
        reason = text(language, "no attack was judged on the model's answer (--fail-over-asr needs --mode model)")
    elif matrix.attack_success > limit:
        rate = percent(language, matrix.attack_success)
        reason = text(language, "attack success rate {rate} is over {limit}", rate=rate, limit=f"{limit:.1%}")
    else:
        return EXIT_OK
    print(text(language, "lab: FAILED: {reason}", reason=reason), file=sys.stderr)
    return EXIT_THRESHOLD


def _asserted(cases: list[Any], args: argparse.Namespace) -> list[Any]:
    """The cases with ``--assert``'s assertions added and ``--judge-model`` given to their rubrics
    (:func:`lab.assertions.corpus_asserts.with_assertions`); a bad assertion is bad input, before anything runs."""
    from lab.assertions import AssertionSpecError, assertion_from_text
    from lab.assertions.corpus_asserts import with_assertions

    try:
        extra = [assertion_from_text(written) for written in args.asserts]
    except AssertionSpecError as error:
        raise BadInput(f"--assert: {error}") from None
    try:
        return with_assertions(cases, extra, judge_model=args.judge_model, judge_api_base=args.judge_api_base)
    except AssertionSpecError as error:  # a corpus's own assertion, named by its file and line
        raise BadInput(str(error)) from None


def _print_thresholds(results: Sequence[Any], budget: float, language: str, guard: str | None = None) -> None:
    """Per guard that gave scores (only ``guard``'s, when given), the threshold meeting the false-positive
    ``budget`` and its recall, one line each on stdout."""
    from lab.metrics import score_curves

    curves = score_curves(results)
    if guard is not None:
        curves = {key: value for key, value in curves.items() if key == guard}
    if not curves and guard is None:
        print(text(language, "lab: no guard gave a score: --threshold-for-fpr has nothing to measure"), file=sys.stderr)
    for processor, curve in curves.items():
        point = curve.threshold_for_fpr(budget)
        if point is None:
            print(
                text(
                    language,
                    "{guard}: no threshold keeps the false-positive rate within {budget}",
                    guard=processor,
                    budget=percent(language, budget),
                )
            )
            continue
        print(
            text(
                language,
                "{guard}: threshold {threshold} keeps the false-positive rate at {fpr} (budget {budget}); "
                "recall {recall}",
                guard=processor,
                threshold=f"{point.threshold:g}",
                fpr=percent(language, point.fpr),
                budget=percent(language, budget),
                recall=percent(language, point.recall),
            )
        )


def _side_by_side(
    args: argparse.Namespace,
    design: Any,
    cases: Sequence[Any],
    processes: int,
    mcp_credentials: dict[str, str] | None,
    language: str,
) -> int:
    """Each guard alone on ``cases`` (see the module docstring), one run after another in one pool of workers; the
    table on stdout, the JSON report with ``--json``."""
    import json

    from lab.metrics import guard_columns
    from lab.process_run import open_run
    from lab.reports import json_report, write_atomically
    from lab.worker_pool import WorkerPool
    from studio.design.catalog import studio_catalogue
    from studio.lab.design import design_info
    from studio.lab.side_by_side import design_guards, guard_alone, pick_guards, renamed

    for flag, given in (("--results", args.results), ("--junit", args.junit), ("--html", args.html)):
        if given is not None:
            raise BadInput(f"{flag} is not available side by side (--side-by-side / --guard)")
    if args.fail_under_recall is not None or args.fail_over_fpr is not None:
        raise BadInput("--fail-under-recall / --fail-over-fpr judge one design: not available side by side")
    catalogue = studio_catalogue()
    try:
        guards = pick_guards(design, catalogue, args.guard) if args.guard else design_guards(design, catalogue)
    except ValueError as error:
        raise BadInput(f"--guard: {error}") from None
    if not guards:
        raise BadInput("design: no input or tool-result guard to run side by side")
    pool = WorkerPool(processes, warm=args.mode == "model") if processes > 1 else None
    if pool is not None:
        pool.start()
    outcomes: dict[str, list[Any]] = {}
    try:
        for number, guard in enumerate(guards, 1):
            line = text(
                language, "lab: {guard} alone ({number} of {count})", guard=guard.id, number=number, count=len(guards)
            )
            print(line, file=sys.stderr)
            alone = guard_alone(design, guard)
            run = open_run(
                cases,
                _recipe(alone, args.mode, mcp_credentials),
                processes=processes,
                pool=pool,
                mode=args.mode,
                concurrency=args.concurrency,
                design=design_info(alone),
            )
            if not drive_to_end(_drive(run, language), language, resumable=False):
                return EXIT_CANCELLED
            # alone, the guard may have another id (a second detector is no longer "-2"): its id in the design
            outcomes[guard.id] = [renamed(result, guard) for result in run.results_in_order()]
    finally:
        if pool is not None:
            pool.close()
    rows = [guard_columns(guard_id, results) for guard_id, results in outcomes.items()]
    _print_side_by_side(rows, language)
    if args.threshold_for_fpr is not None:
        for guard_id, results in outcomes.items():
            _print_thresholds(results, args.threshold_for_fpr, language, guard=guard_id)
    if args.json:
        report = {
            "design": design_info(design),
            "mode": args.mode,
            "side_by_side": [row.to_dict() for row in rows],
            "guards": {
                guard_id: json_report(results, design=design_info(design), mode=args.mode)
                for guard_id, results in outcomes.items()
            },
        }
        write_atomically(args.json, json.dumps(report, ensure_ascii=False, indent=1))
    return EXIT_OK


def _print_side_by_side(rows: Sequence[Any], language: str) -> None:
    """The side-by-side table on stdout: one row per guard, columns aligned."""

    def number(value: float | None, digits: int) -> str:
        return text(language, "n/a") if value is None else f"{value:.{digits}f}"

    head = [
        text(language, "guard"),
        text(language, "recall"),
        "FPR",
        "ROC AUC",
        "PR AUC",
        text(language, "ms/case"),
        text(language, "tokens/case"),
        text(language, "USD/case"),
    ]
    body = [
        [
            row.guard,
            percent(language, row.recall),
            percent(language, row.fpr),
            number(row.roc_auc, 3),
            number(row.pr_auc, 3),
            number(row.latency_ms, 1),
            number(row.tokens, 0),
            number(row.cost, 6),
        ]
        for row in rows
    ]
    widths = [max(len(line[column]) for line in [head, *body]) for column in range(len(head))]
    for line in [head, *body]:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip())


def _held(matrix: Any, recall_limit: float | None, fpr_limit: float | None, language: str) -> int:
    """Check the thresholds on the figures of a run (or of merged shards): each one not held is said on stderr,
    and the exit code is 1 when any is not held, else 0."""
    failed = []
    if recall_limit is not None and matrix.recall is None:
        failed.append(text(language, "there is no labelled attack to measure recall on (plain text needs --label)"))
    elif recall_limit is not None and matrix.recall < recall_limit:
        failed.append(
            text(
                language,
                "recall {recall} is under {limit}",
                recall=percent(language, matrix.recall),
                limit=f"{recall_limit:.1%}",
            )
        )
    if fpr_limit is not None and (matrix.fpr or 0.0) > fpr_limit:
        failed.append(
            text(
                language,
                "false-positive rate {fpr} is over {limit}",
                fpr=percent(language, matrix.fpr),
                limit=f"{fpr_limit:.1%}",
            )
        )
    for reason in failed:
        print(text(language, "lab: FAILED: {reason}", reason=reason), file=sys.stderr)
    return EXIT_THRESHOLD if failed else EXIT_OK


def drive_to_end(drive: Coroutine[Any, Any, None], language: str, *, resumable: bool = True) -> bool:
    """Run ``drive`` (a run's results read to their end) on a new event loop: True when it ended, False when the
    user interrupted it (Ctrl+C; the run's workers are cancelled with the loop). A ``resumable`` run (one with
    ``--results``) then says on stderr that what finished is kept. A run that cannot start (:class:`LabError`) is
    bad input."""
    from lab.runner import LabError

    try:
        asyncio.run(drive)
    except LabError as error:
        raise BadInput(str(error)) from None
    except KeyboardInterrupt:
        if resumable:
            print(
                "\n" + text(language, "lab: cancelled; finished cases are kept in --results (run again to resume)"),
                file=sys.stderr,
            )
        return False
    return True


async def _drive(run: Any, language: str = "en") -> None:
    progress: Progress | None = None
    counts: dict[str, int] = {}
    async for result in run.results():
        if progress is None:
            progress = Progress(sys.stderr, run.total, run.resumed, language)
        counts[result.outcome] = counts.get(result.outcome, 0) + 1
        progress.update(run.done, counts)
    if progress is not None:
        progress.close()

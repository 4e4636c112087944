"""The verifier checks every environment must pass (collected by the pytest plugin).

Each check takes the catalog, a resolved environment and a task index, and raises
`CheckFailed` with a message that says what went wrong.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Callable

from .. import tracing
from ..core.variant import Variant
from ..core.task import Label, Task
from .forms import generic_forms

MALFORMED = [
    "\x00\x01\x02 garbage \ufffd",
    "```\n```",
    "I don't know.",
    "A" * 100_000,
    "<answer></answer> \\boxed{} ```python\nraise SystemExit(0)\n```",
]


class CheckFailed(AssertionError):
    pass


class CheckSkipped(Exception):
    """The check does not apply to this environment (reported as a skip, with the reason)."""


def task_digest(task: Task) -> str:
    body = json.dumps({"prompt": task.prompt, "hidden": task.hidden, "reference": task.reference},
                      sort_keys=True, default=repr)
    return hashlib.sha256(body.encode() + b"".join(task.images)).hexdigest()


def _verdict(cat, label: Label, response: str, task: Task, fresh: bool = False):
    """A verdict, memoised per (label, what the verifier reads of the response) across checks:
    the same reference is graded by several checks (and in several forms that extract to the same
    code), and sandboxed verification (a CAD part, a test suite) is the costly part. `fresh`
    bypasses the memo, for the check that verification is deterministic."""
    memo = cat.__dict__.setdefault("_check_verdicts", {})
    read_as = cat.get(label.env).verifier.response_key(task, response)
    key = (label.to_json(), read_as if read_as is not None else
           hashlib.sha256(response.encode("utf-8", "surrogatepass")).hexdigest())
    v = None if fresh else memo.get(key)
    if v is None:
        v = cat.verify(label, response, task=task)
        memo.setdefault(key, v)
    if v.error:
        raise CheckFailed(f"{label.to_json()}: no verdict: {v.error}")
    return v


def _played(cat, label: Label, variant: Variant):
    """The verdict an episode ends with when the model's replies are `variant.turns` (memoised
    like `_verdict`). Every such probe must end with a verdict: no verdict fails the check."""
    memo = cat.__dict__.setdefault("_check_verdicts", {})
    key = (label.to_json(), "turns:" + hashlib.sha256(json.dumps(variant.turns).encode("utf-8", "surrogatepass")).hexdigest())
    v = memo.get(key)
    if v is None:
        with cat.episode(label) as episode:
            episode.reset()
            step = None
            for reply in variant.turns:
                step = episode.step(reply)
                if step.done:
                    break
        if step is None or not step.done:
            raise CheckFailed(f"{label.to_json()}: {variant.kind}: the episode did not end after its {len(variant.turns)} turn(s)")
        v = step.verdict
        memo[key] = v
    if v is None or v.error:
        raise CheckFailed(f"{label.to_json()}: {variant.kind}: no verdict: {v.error if v else 'none'}")
    return v


def _graded(cat, label: Label, variant: Variant, task: Task):
    return _played(cat, label, variant) if variant.turns else _verdict(cat, label, variant.response, task)


def check_reference(cat, renv, index: int) -> None:
    label = renv.label(index)
    task = cat.task(label)
    if not task.reference.strip():
        raise CheckFailed(f"{label.to_json()}: the task has no reference solution")
    v = _verdict(cat, label, task.reference, task)
    if not (v.passed and v.reward == 1.0):
        raise CheckFailed(f"{label.to_json()}: reference earned reward {v.reward} passed={v.passed}: {v.details}")


def check_empty(cat, renv, index: int) -> None:
    label = renv.label(index)
    task = cat.task(label)
    for response in ("", "   \n\t "):
        v = _verdict(cat, label, response, task)
        if v.passed or v.reward >= 1.0:
            raise CheckFailed(f"{label.to_json()}: empty response {response!r} earned {v.reward}")


def check_malformed(cat, renv, index: int) -> None:
    label = renv.label(index)
    task = cat.task(label)
    for response in MALFORMED:
        v = _verdict(cat, label, response, task)
        if v.passed or v.reward >= 1.0:
            raise CheckFailed(f"{label.to_json()}: malformed response {response[:40]!r} earned {v.reward}")


def _wrong_variants(cat, renv, index: int, task: Task) -> list[Variant]:
    """The environment's wrong answers, plus the reference of a different task of it."""
    if has_twin(renv):  # the twin grades its wrong answers; a tool environment's own are its wrong plays
        wrong = list(renv.env.episode_probes(task)[0])
    else:
        wrong = [*renv.env.wrong_answers(task), *renv.env.episode_probes(task)[0]]
    for other in range(index + 1, index + 6):
        if renv.num_tasks is not None and other >= renv.num_tasks:
            break
        other_ref = cat.task(renv.label(other)).reference
        if other_ref.strip() != task.reference.strip():
            wrong.append(Variant(kind="other_task", response=other_ref, note=f"the reference of task {other}"))
            break
    return wrong


def check_wrong(cat, renv, index: int) -> None:
    """Every known kind of wrong answer fails, scores below the reference (and at most its
    `max_reward`), and within a kind a larger error never scores higher than a smaller one."""
    label = renv.label(index)
    task = cat.task(label)
    wrong = _wrong_variants(cat, renv, index, task)
    if not wrong:
        raise CheckFailed(f"{label.to_json()}: no wrong answer to try (define wrong_answers on the environment)")
    _assert_rejected(cat, label, task, wrong, _reference_reward(cat, renv, label, task))


def _assert_rejected(cat, label: Label, task: Task, variants: list[Variant], ref: float) -> None:
    by_kind: dict[str, list[tuple[float, float, Variant]]] = {}
    problems = []
    for variant in variants:
        v = _graded(cat, label, variant, task)
        what = f"{variant.kind}" + (f" ({variant.note})" if variant.note else "")
        if v.passed or v.reward >= ref:
            problems.append(f"{what} earned {v.reward:.4g} (reference {ref:.4g}, passed={v.passed})")
        elif variant.max_reward is not None and v.reward > variant.max_reward + 1e-9:
            problems.append(f"{what} earned {v.reward:.4g}, more than its cap {variant.max_reward:.4g}")
        by_kind.setdefault(variant.kind, []).append((variant.size, v.reward, variant))
    for kind, rows in by_kind.items():
        rows.sort(key=lambda r: r[0])
        for (small, r_small, _), (large, r_large, _) in zip(rows, rows[1:]):
            if large > small and r_large > r_small + 1e-9:
                problems.append(f"{kind}: an error of size {large:g} earned {r_large:.4g}, more than size {small:g} ({r_small:.4g})")
    if problems:
        raise CheckFailed(f"{label.to_json()}: " + "; ".join(problems))


def check_right_forms(cat, renv, index: int) -> None:
    """Every accepted form of a right answer earns what the reference earns: the environment's
    own (a number written another way, a list in another order), the verifier's (its reading
    rules: unit_tests' example-usage block after the code) and the generic ones (the reference
    after reasoning in <think>, its code block fenced the other ways models fence)."""
    label = renv.label(index)
    task = cat.task(label)
    forms: list[tuple[str, str | Variant]] = [("declared by the environment", f) for f in renv.env.right_answers(task)]
    forms += [("played as an episode", probe) for probe in renv.env.episode_probes(task)[1]]
    forms += [("read by the verifier's own rules", f) for f in renv.verifier.right_forms(task)]
    forms += generic_forms(task.reference)
    ref = _verdict(cat, label, task.reference, task)
    bad = []
    for what, form in forms:
        if isinstance(form, Variant):  # a form played as an episode (its turns)
            v, what, shown = _graded(cat, label, form, task), f"{what} ({form.kind})", form.response
        else:
            v, shown = _verdict(cat, label, form, task), form
        if v.reward != ref.reward or v.passed != ref.passed:
            bad.append(f"{what}: {shown[:120]!r} earned {v.reward:.4g} passed={v.passed}: {str(v.details)[:300]}")
    if bad:
        raise CheckFailed(f"{label.to_json()}: right answers rejected (reference {ref.reward:.4g}): " + "; ".join(bad))


def check_hacks(cat, renv, index: int) -> None:
    """The verifier's reward hacks, shaped for this task, earn nothing."""
    label = renv.label(index)
    task = cat.task(label)
    hacks = [h if h.max_reward is not None else Variant(h.kind, h.response, h.size, h.note, 0.0)
             for h in renv.verifier.hacks(task)]
    if not hacks:
        raise CheckSkipped(f"verifier {renv.identity.name} declares no reward hacks")
    _assert_rejected(cat, label, task, hacks, _verdict(cat, label, task.reference, task).reward)


CHEAP_TASKS = 10  # tasks each cheap-policy check averages over
CHEAP_MAX = 0.1


def check_cheap_policies(cat, renv, index: int) -> None:
    """No answer that takes no reading earns more than 0.1 on average over CHEAP_TASKS tasks: the
    verifier's constants ("0", "0 trillion", "yes", "unanswerable"...) and the environment's own
    cheap answers (a random number of the table the question is about, the whole table's labels).
    Check `index` averages over tasks index*CHEAP_TASKS onwards, so two seeds see 20 tasks."""
    start = index * CHEAP_TASKS
    stop = start + CHEAP_TASKS if renv.num_tasks is None else min(renv.num_tasks, start + CHEAP_TASKS)
    totals: dict[str, float] = {}
    for i in range(start, stop):
        label = renv.label(i)
        task = cat.task(label)
        policies = {**renv.verifier.cheap_policies(task), **renv.env.cheap_answers(task)}
        if not policies and i == start:
            raise CheckSkipped(f"neither verifier {renv.identity.name} nor the environment names cheap answers")
        for name, responses in policies.items():
            if isinstance(responses, str) or not isinstance(responses, (list, tuple)):
                raise CheckFailed(f"{label.to_json()}: cheap policy {name!r} gives {type(responses).__name__}, "
                                  "not a list of responses")
            rewards = [_verdict(cat, label, r, task).reward for r in responses]
            totals[name] = totals.get(name, 0.0) + (sum(rewards) / len(rewards) if rewards else 0.0)
    tasks = max(1, stop - start)
    farmed = sorted(((t / tasks, name) for name, t in totals.items() if t / tasks > CHEAP_MAX), reverse=True)
    if farmed:
        raise CheckFailed(f"{renv.id}: answers that take no reading earn more than {CHEAP_MAX} on average over "
                          f"tasks {start}..{stop - 1}: " + "; ".join(f"{name} earned {mean:.2f}" for mean, name in farmed[:8]))


def check_verifier_deterministic(cat, renv, index: int) -> None:
    label = renv.label(index)
    task = cat.task(label)
    candidates = [task.reference, *renv.env.wrong_responses(task)[:1], ""]
    for response in candidates:
        a, b = _verdict(cat, label, response, task), _verdict(cat, label, response, task, fresh=True)
        if (a.reward, a.passed, a.components) != (b.reward, b.passed, b.components):
            raise CheckFailed(f"{label.to_json()}: two verifications of the same response differ: "
                              f"{a.reward}/{a.components} vs {b.reward}/{b.components}")


def check_generation_deterministic(cat, renv, index: int, other_process: dict[str, dict] | None = None) -> None:
    label = renv.label(index)
    first, second = task_digest(cat.task(label)), task_digest(cat.task(label))
    if first != second:
        raise CheckFailed(f"{label.to_json()}: generating the task twice in one process gave different tasks")
    if other_process is None:
        return
    got = other_process.get(label.to_json()) or {"error": "no answer"}
    if "error" in got:
        raise CheckFailed(f"{label.to_json()}: another process could not generate the task: {got['error']}")
    if got["digest"] != first:
        raise CheckFailed(f"{label.to_json()}: another process (other hash seed) generated a different task")


def check_reference_fresh_process(cat, renv, index: int, other_process: dict[str, dict] | None = None) -> None:
    """The reference earns full reward also when the task is rebuilt and graded in a fresh
    interpreter with no caches (a reference whose build differs run to run fails here)."""
    label = renv.label(index).to_json()
    got = (other_process or {}).get(label)
    if got is None:
        raise CheckFailed(f"{label}: no verdict from the fresh process")
    if "reward" not in got:
        raise CheckFailed(f"{label}: a fresh process could not grade the reference: {got['error']}")
    if got["error"] or not (got["passed"] and got["reward"] == 1.0):
        raise CheckFailed(f"{label}: in a fresh process the reference earned {got['reward']} passed={got['passed']}"
                          f"{' error=' + got['error'] if got['error'] else ''}: {got['details']}")


def check_no_leak(cat, renv, index: int) -> None:
    label = renv.label(index)
    task = cat.task(label)
    prompt = task.prompt_text()
    for secret in renv.env.secrets(task):
        secret = str(secret).strip()
        if len(secret) < 4:  # too short to tell a leak from a coincidence
            continue
        if re.search(r"(?<![\w.])" + re.escape(secret) + r"(?![\w])", prompt):
            raise CheckFailed(f"{label.to_json()}: the prompt contains hidden data {secret[:80]!r}")


MUTATION_SCORE_MIN = 0.95


def check_tests_adequate(cat, renv, index: int) -> None:
    """The hidden tests tell the reference from its near-misses: of the mutants of the reference
    that the environment makes and runs (`env.mutation_report(task, ctx)`, one sandbox call), at
    least MUTATION_SCORE_MIN fail the tests once the ones it declares equivalent are set aside, and
    no declared equivalent is in fact killed. One seed: the first task only."""
    probe = getattr(renv.env, "mutation_report", None)
    if probe is None:
        raise CheckSkipped(f"{renv.id} does not mutate its reference (no mutation_report)")
    if index != 0:
        raise CheckSkipped("test adequacy is checked on the first task only")
    from ..core.verifier import VerifyContext

    label = renv.label(0)
    report = probe(cat.task(label), VerifyContext(profile=renv.profile))
    if report is None:
        raise CheckSkipped(f"{renv.id}: this task's reference cannot be mutated")
    where = f"{label.to_json()}: mutation score"
    if report.get("error"):
        raise CheckFailed(f"{where} not measured: {report['error']}")
    problems = []
    if report.get("misdeclared"):
        problems.append("declared equivalent but killed: " + "; ".join(report["misdeclared"][:5]))
    if report["score"] < MUTATION_SCORE_MIN:
        survivors = report.get("survivors", []) + [f"{m} (not run)" for m in report.get("not_run", [])]
        problems.append(f"{report['score']:.3f} < {MUTATION_SCORE_MIN} ({report['killed']} of {report['considered']} "
                        f"killed); the hidden tests miss: " + "; ".join(survivors[:12]))
    if problems:
        raise CheckFailed(f"{where}: " + " | ".join(problems))


def _reference_reward(cat, renv, label: Label, task: Task) -> float:
    """What the reference earns: 1.0 for a tool environment with a text twin (its reference is
    graded under the twin, whose reference_full_reward holds it to exactly 1.0, and
    same_grading_as_twin shows the grading is the same), else its verdict here."""
    return 1.0 if has_twin(renv) else _verdict(cat, label, task.reference, task).reward


def _misuse_turn(task: Task, reference_turns: list) -> str:
    """One turn of every kind of call a model gets wrong, written in the default format: a tool
    that does not exist, a call that is not JSON, arguments of the wrong type and a missing one,
    an argument past the size a call may send, and more calls than a turn runs (all of them to no
    tool: none may act). Sizes just past each bound: tests/tools take them to 10 MB and 1,000 calls."""
    from ..tools import MAX_CALLS_PER_TURN, ToolCall, formats
    from ..tools.schema import MAX_ARGUMENT_BYTES

    big = "x" * (MAX_ARGUMENT_BYTES + 1024)

    first = reference_turns[0][0] if reference_turns and reference_turns[0] else ToolCall("submit", {})
    calls = [ToolCall("rlhub_no_such_tool", {"x": 1}),
             ToolCall(first.name, {k: [1, {"a": None}] for k in (first.arguments if isinstance(first.arguments, dict) else {})}),
             ToolCall(first.name, {"rlhub_unknown_argument": 1}),
             ToolCall(first.name, {k: big for k in list(first.arguments)[:1]} if isinstance(first.arguments, dict) and first.arguments else {"x": big})]
    text = formats.render(calls, formats.DEFAULT_FORMAT)
    text += "\n<tool_call>\n{\"name\": \"" + first.name + "\", \"arguments\": {not json}\n</tool_call>"
    flood = [ToolCall("rlhub_no_such_tool", {"i": i}) for i in range(2 * MAX_CALLS_PER_TURN)]
    return text + "\n" + formats.render(flood, formats.DEFAULT_FORMAT)


def check_tools_played(cat, renv, index: int) -> None:
    """A tool environment's reference, played as tool calls, earns what the reference earns, after
    a turn of every kind of wrong call (each answered with an error and counted, none acting); the
    text is written in a format that rotates over the environments (every format's writing reads
    back to the same calls: checked here for all of them, without an episode)."""
    from ..tools import formats

    label = renv.label(index)
    task = cat.task(label)
    turns = renv.env.tool_turns(task)
    if not turns:
        raise CheckFailed(f"{label.to_json()}: a tool environment without tool_turns (its reference as tool calls)")
    fmts = formats.known_formats()
    schemas = renv.env.tools(task)  # raw-text formats (qwen3_coder) type values by them, writing and reading
    for fmt in fmts:
        for turn in turns:
            back = formats.parse(formats.render(turn, fmt, schemas=schemas), fmt, schemas).calls
            if [(c.name, c.arguments) for c in back] != [(c.name, c.arguments) for c in turn]:
                raise CheckFailed(f"{label.to_json()}: the reference's calls written in {fmt} read back as {back!r}")
    fmt = fmts[int(hashlib.sha256(f"{renv.id}:{index}".encode()).hexdigest(), 16) % len(fmts)]
    misuse = renv.env.max_turns > len(turns)
    with cat.episode(label) as episode:
        episode.reset()
        episode.tool_format = fmt
        step = None
        if misuse:
            first = episode.step(_misuse_turn(task, turns) if fmt == formats.DEFAULT_FORMAT
                                 else _misuse_in(fmt, task, turns, schemas))
            if first.done:
                raise CheckFailed(f"{label.to_json()}: a turn of wrong calls ended the episode: {first.observation[:300]}")
            bad = [r for r in first.tool_results if not r.is_error]
            if bad:
                raise CheckFailed(f"{label.to_json()}: a wrong call was run: {bad[0].name}: {bad[0].content[:200]}")
        for turn in turns:
            step = episode.step(formats.render(turn, fmt, schemas=schemas))
            if step.done:
                break
    if step is None or not step.done or step.verdict is None:
        raise CheckFailed(f"{label.to_json()}: the reference's {len(turns)} tool turn(s) did not end the episode")
    v, ref = step.verdict, _reference_reward(cat, renv, label, task)
    if v.error or v.reward != ref or not v.passed:
        raise CheckFailed(f"{label.to_json()}: the reference played as tool calls ({fmt}"
                          f"{', after a turn of wrong calls' if misuse else ''}) earned {v.reward} passed={v.passed} "
                          f"error={v.error} (reference {ref}): {str(v.details)[:400]}")
    if misuse and not sum((v.details.get("tools") or {}).get("errors", {}).values()):
        raise CheckFailed(f"{label.to_json()}: the wrong calls were not counted in the verdict's details['tools']")


def _misuse_in(fmt: str, task: Task, turns: list, schemas: list | None = None) -> str:
    """The misuse turn in another format: the same wrong calls, written as `fmt` writes them (less
    those it cannot write: qwen3_coder has no way to say a string parameter got a list)."""
    from ..tools import formats

    parsed = formats.parse(_misuse_turn(task, turns), formats.DEFAULT_FORMAT)
    writable = []
    for call in parsed.calls:
        try:
            formats.render([call], fmt, schemas=schemas)
        except formats.ToolFormatError:
            continue
        writable.append(call)
    return formats.render(writable, fmt, schemas=schemas)


def check_same_grading_as_twin(cat, renv, index: int) -> None:
    """A tool environment whose text twin is checked in full grades the same task with the same
    verifier: same hidden data, reference and verifier identity. (Its response-graded checks are
    the twin's; its own checks are the tool play, its wrong plays and the prompt's.)"""
    twin_id = renv.env.text_twin
    try:
        twin = cat.get(twin_id)
    except Exception as exc:  # noqa: BLE001
        raise CheckFailed(f"{renv.id}: its text twin {twin_id!r} is not in the registry ({exc})") from None
    mine, theirs = cat.task(renv.label(index)), cat.task(twin.label(index))
    if task_digest_graded(mine) != task_digest_graded(theirs):
        raise CheckFailed(f"{renv.label(index).to_json()}: the task's hidden data or reference differ from {twin_id}'s")
    if renv.identity != twin.identity:
        raise CheckFailed(f"{renv.id}: verifier {renv.identity} differs from its twin's {twin.identity}")


def task_digest_graded(task: Task) -> str:
    """What a verifier grades a response against: the hidden data and the reference."""
    body = json.dumps({"hidden": task.hidden, "reference": task.reference}, sort_keys=True, default=repr)
    return hashlib.sha256(body.encode()).hexdigest()


CHECKS: dict[str, Callable[..., None]] = {
    "reference_full_reward": check_reference,
    "empty_fails": check_empty,
    "malformed_fails": check_malformed,
    "wrong_fails": check_wrong,
    "right_forms_pass": check_right_forms,
    "hacks_fail": check_hacks,
    "cheap_policies_fail": check_cheap_policies,
    "verifier_deterministic": check_verifier_deterministic,
    "generation_deterministic": check_generation_deterministic,
    "reference_fresh_process": check_reference_fresh_process,
    "no_leak": check_no_leak,
    "tests_adequate": check_tests_adequate,
    "tools_played": check_tools_played,
    "same_grading_as_twin": check_same_grading_as_twin,
}


# The checks that compare against a second interpreter (`other_process.OtherProcess`), and
# what they ask it for.
OTHER_PROCESS = {"generation_deterministic": "digests", "reference_fresh_process": "references"}


def names_cheap_answers(renv) -> bool:
    """Whether the verifier or the environment names cheap answers: only then is the cheap-policy
    check planned (a unit-test or CAD environment has none to name, and no skip to report)."""
    from ..core.env import Environment
    from ..core.family import Family, FamilyEnvironment
    from ..core.verifier import Verifier

    env = renv.env
    if getattr(type(renv.verifier), "cheap_policies", Verifier.cheap_policies) is not Verifier.cheap_policies:
        return True
    if isinstance(env, FamilyEnvironment):
        return type(env.family).cheap is not Family.cheap
    return getattr(type(env), "cheap_answers", Environment.cheap_answers) is not Environment.cheap_answers


def has_mutation_report(renv) -> bool:
    return hasattr(renv.env, "mutation_report")


# Checks planned only for the environments they apply to (no skip to report elsewhere), and
# checks that look at the first task only.
def is_tool_env(renv) -> bool:
    """A tool environment (Environment.tool_episode set): it must also say its reference as tool calls."""
    return bool(getattr(renv.env, "is_tool_env", False))


def has_twin(renv) -> bool:
    return bool(getattr(renv.env, "text_twin", None))


# A tool environment with a text twin shares the twin's grading (checked by same_grading_as_twin):
# what grades a response is checked once, under the twin.
TWIN_CHECKED = ("reference_full_reward", "right_forms_pass", "hacks_fail", "cheap_policies_fail", "verifier_deterministic",
                "reference_fresh_process", "tests_adequate")
APPLIES: dict[str, Callable[..., bool]] = {"cheap_policies_fail": names_cheap_answers,
                                           "tests_adequate": has_mutation_report,
                                           "tools_played": is_tool_env, "same_grading_as_twin": has_twin}
FIRST_TASK_ONLY = {"tests_adequate"}
# What `rlhub check --quick` leaves out (with one seed): everything that re-verifies determinism
# or needs the second, fresh interpreter. The edit loop's tier: it proves less, and CI never runs it.
QUICK_SKIPS = ("verifier_deterministic", "generation_deterministic", "reference_fresh_process")


def planned(renv, seeds: int, quick: bool = False) -> list[tuple[str, int]]:
    """The (check, task index) pairs run for one environment, in order (`quick`: without QUICK_SKIPS)."""
    n = seeds if renv.num_tasks is None else min(seeds, renv.num_tasks)
    twin = has_twin(renv)
    return [(name, index) for name in CHECKS
            if not (quick and name in QUICK_SKIPS) and APPLIES.get(name, lambda _: True)(renv)
            and not (twin and name in TWIN_CHECKED)
            for index in range(min(n, 1) if name in FIRST_TASK_ONLY else n)]


def run_check(cat, renv, check: str, index: int, other_process: Callable[[str], dict]) -> None:
    """Run one check; raises CheckFailed or CheckSkipped. `other_process(what)` gives the second
    interpreter's answers for this environment's labels (called only by the checks that need it)."""
    attrs = {"rlhub.check": check, "rlhub.env": renv.id, "rlhub.check.index": index,
             **tracing.verifier_attributes(renv.identity)}
    ended: CheckSkipped | CheckFailed | None = None  # raised past the span: a skip is no span error
    with tracing.span("rlhub.check", attrs) as span:
        try:
            what = OTHER_PROCESS.get(check)
            if what:
                CHECKS[check](cat, renv, index, other_process=other_process(what))
            else:
                CHECKS[check](cat, renv, index)
        except (CheckSkipped, CheckFailed) as exc:
            ended = exc
            failed = isinstance(exc, CheckFailed)
            span.set_attributes({"rlhub.check.outcome": "failed" if failed else "skipped",
                                 "rlhub.check.reason": str(exc)[:500]})
            if failed:
                span.set_status(tracing.Status(tracing.StatusCode.ERROR, str(exc)[:200]))
        else:
            span.set_attribute("rlhub.check.outcome", "passed")
    if ended is not None:
        raise ended

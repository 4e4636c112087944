"""How an environment's observation is written back into a chat transcript between turns.

OpenRLHF's multi-turn executor appends the agent's `environment_feedback` text verbatim to the
token stream, after the model's own action tokens. So the feedback has to close the assistant
turn (unless the model already emitted its end-of-turn token), open a user turn holding the
observation, and open the next assistant turn, exactly as the model's chat template would.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from functools import cached_property
from typing import Any, Iterable

from ..core.errors import UserError

TURN_FORMAT_ENV = "RLHUB_TURN_FORMAT"  # the variable the agent file reads: chatml | llama3 | plain | JSON


@dataclass(frozen=True)
class TurnFormat:
    end_of_turn: str  # what the model emits to end its turn (vLLM keeps it in the text)
    after_end: str  # what the template writes after an assistant turn's end token
    before_obs: str  # opens the user turn
    after_obs: str  # closes the user turn and opens the assistant's
    # Tool results, as the template writes `tool` messages after an assistant's calls:
    # tool_open + result + (tool_between + result)... + tool_end, then open_assistant.
    tool_open: str = ""  # empty: the format has no tool turns (results go in a user turn as text)
    tool_between: str = ""
    tool_end: str = ""
    open_assistant: str = ""  # the generation prompt
    tool_json: bool = False  # the template writes a result as a JSON string (Llama 3.1's `tojson`)

    def _close(self, action_text: str) -> str:
        closed = bool(self.end_of_turn) and action_text.endswith(self.end_of_turn)
        return self.after_end if closed else self.end_of_turn + self.after_end

    def feedback(self, action_text: str, observation: str) -> str:
        """The text to append after `action_text` so the transcript continues the template."""
        return f"{self._close(action_text)}{self.before_obs}{observation}{self.after_obs}"

    def tool_feedback(self, action_text: str, results: Iterable[Any], notes: Iterable[str] = ()) -> str:
        """The text to append after an action with tool calls: each result (a ToolResult, or its
        text) as the template writes a `tool` message, then the notes (calls that could not be
        read, turns left) as a user turn, then the assistant's turn opened. Results and notes are
        data: any chat or tool-call markup in them is neutralised, so they neither close the turn
        early nor read as calls."""
        results, notes = list(results), [self.neutral(n) for n in notes if n]
        texts = [self.neutral(r if isinstance(r, str) else r.text() if hasattr(r, "text") else getattr(r, "content", r))
                 for r in results]
        if not results or not self.tool_open:  # no tool turns in this format: the results as text
            named = [f"[{getattr(r, 'name', 'tool')}] {t}" for r, t in zip(results, texts)]
            return self.feedback(action_text, "\n\n".join(named + notes))
        if self.tool_json:
            texts = [json.dumps(t, ensure_ascii=False) for t in texts]
        body = self.tool_open + self.tool_between.join(texts) + self.tool_end
        joined = "\n\n".join(notes)
        tail = f"{self.before_obs}{joined}{self.after_obs}" if notes else self.open_assistant
        return f"{self._close(action_text)}{body}{tail}"

    @cached_property
    def _markup(self) -> re.Pattern:
        own = {m for field in (self.end_of_turn, self.after_end, self.before_obs, self.after_obs, self.tool_open,
                               self.tool_between, self.tool_end, self.open_assistant)
               for m in _TOKEN_LIKE.findall(field)}
        return re.compile("|".join([_MARKUP, *(re.escape(m) for m in sorted(own, key=len, reverse=True))]), re.I)

    def neutral(self, text: str) -> str:
        """`text` with every chat or tool-call marker's first character written as an HTML entity
        (`&lt;|im_end|>`, `&lt;/tool_response>`, `&#91;TOOL_CALLS]`): readable, never structure."""
        text = text if isinstance(text, str) else str(text)
        return self._markup.sub(lambda m: ("&lt;" if m.group()[0] == "<" else f"&#{ord(m.group()[0])};") + m.group()[1:], text)

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def parse(cls, spec: str) -> "TurnFormat":
        """A preset name (chatml, llama3, plain) or the JSON written by `to_json`."""
        spec = spec.strip()
        if spec in PRESETS:
            return PRESETS[spec]
        try:
            return cls(**json.loads(spec))
        except (json.JSONDecodeError, TypeError) as exc:
            raise UserError(
                f"turn format {spec[:80]!r}: expected one of {sorted(PRESETS)} or a JSON object with "
                f"end_of_turn, after_end, before_obs, after_obs ({exc})"
            ) from None

    @classmethod
    def from_tokenizer(cls, tokenizer) -> "TurnFormat":
        """Derive the format from a Hugging Face tokenizer's own chat template.

        Renders a two-turn chat with sentinels and takes the text the template adds for the
        second user turn: this works for any template that renders earlier turns unchanged.
        """
        p, a, o = "rlhubPROMPT", "rlhubACTION", "rlhubOBS"
        first = [{"role": "user", "content": p}, {"role": "assistant", "content": a}]
        try:
            text1 = tokenizer.apply_chat_template(first, tokenize=False)
            text2 = tokenizer.apply_chat_template(first + [{"role": "user", "content": o}], tokenize=False,
                                                  add_generation_prompt=True)
        except Exception as exc:
            raise UserError(f"the tokenizer's chat template cannot render a multi-turn chat ({exc}); "
                            "set `turn_format` in the run file (chatml, llama3 or plain)") from None
        if not text2.startswith(text1) or a not in text1 or o not in text2[len(text1):]:
            raise UserError("the tokenizer's chat template rewrites earlier turns (e.g. drops reasoning), so "
                            "feedback cannot be appended verbatim; set `turn_format` in the run file")
        closing = text1[text1.rindex(a) + len(a):]
        eos = getattr(tokenizer, "eos_token", None) or ""
        specials = sorted({eos, *getattr(tokenizer, "all_special_tokens", [])} - {""}, key=len, reverse=True)
        end = next((s for s in specials if closing.startswith(s)), closing)
        before, after = text2[len(text1):].split(o, 1)
        return cls(end_of_turn=end, after_end=closing[len(end):], before_obs=before, after_obs=after,
                   **_tool_turns(tokenizer, p))


def _tool_turns(tokenizer, prompt: str) -> dict:
    """The tool fields of a template: render [user, assistant with a call, tool R1, tool R2] and
    take what it writes around the results. {} (no tool turns) when it cannot."""
    from ..tools.detect import PROBE_MESSAGES, PROBE_TOOL

    r1, r2 = "rlhubRESULT1", "rlhubRESULT2"
    calls = [dict(m, content=prompt) if m["role"] == "user" else m for m in PROBE_MESSAGES]
    tools = [{"role": "tool", "tool_call_id": "rlhub0001", "name": "rlhub_probe", "content": r} for r in (r1, r2)]
    try:
        head = tokenizer.apply_chat_template(calls, tools=[PROBE_TOOL], tokenize=False)
        full = tokenizer.apply_chat_template(calls + tools, tools=[PROBE_TOOL], tokenize=False, add_generation_prompt=True)
        user = tokenizer.apply_chat_template(calls[:1], tokenize=False)
        gen = tokenizer.apply_chat_template(calls[:1], tokenize=False, add_generation_prompt=True)[len(user):]
    except Exception:  # a template without tools: results go back as user text
        return {}
    if not isinstance(full, str) or not full.startswith(head) or not gen:
        return {}
    rest = full[len(head):]
    quoted = f'"{r1}"' in rest and f'"{r2}"' in rest
    m1, m2 = (f'"{r1}"', f'"{r2}"') if quoted else (r1, r2)
    i1, i2 = rest.find(m1), rest.find(m2)
    if i1 < 0 or i2 < i1 or not rest.endswith(gen):
        return {}
    after = rest[i2 + len(m2):]
    return {"tool_open": rest[:i1], "tool_between": rest[i1 + len(m1):i2], "tool_end": after[:len(after) - len(gen)],
            "open_assistant": gen, "tool_json": quoted}


# Markers that are structure in some chat template or tool-call format, found in any result.
_MARKUP = (r"<\|[^|<>\s]{1,40}\|>|</?(?:tool_call|tool_response|function|parameter|think|s)\b|<(?:function|parameter)="
           r"|\[/?(?:TOOL_CALLS|ARGS|CALL_ID|TOOL_RESULTS|TOOL_CONTENT|INST|AVAILABLE_TOOLS|SYSTEM_PROMPT)\]")
_TOKEN_LIKE = re.compile(r"<[^<>\s]{1,40}>|\[/?[A-Z_]{2,30}\]|<｜[^｜]{1,40}｜>")

PRESETS = {
    # Qwen2.5 / Hermes: the results of one turn in one user turn, each in <tool_response> tags.
    "chatml": TurnFormat("<|im_end|>", "\n", "<|im_start|>user\n", "<|im_end|>\n<|im_start|>assistant\n",
                         tool_open="<|im_start|>user\n<tool_response>\n",
                         tool_between="\n</tool_response>\n<tool_response>\n",
                         tool_end="\n</tool_response><|im_end|>\n", open_assistant="<|im_start|>assistant\n"),
    # Llama 3.1 / 3.2: each result its own `ipython` turn, written as a JSON string.
    "llama3": TurnFormat("<|eot_id|>", "", "<|start_header_id|>user<|end_header_id|>\n\n",
                         "<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n",
                         tool_open="<|start_header_id|>ipython<|end_header_id|>\n\n",
                         tool_between="<|eot_id|><|start_header_id|>ipython<|end_header_id|>\n\n",
                         tool_end="<|eot_id|>", open_assistant="<|start_header_id|>assistant<|end_header_id|>\n\n",
                         tool_json=True),
    "plain": TurnFormat("", "", "\n\nUser: ", "\n\nAssistant: "),
}

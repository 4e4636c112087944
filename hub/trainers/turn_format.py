"""How an environment's observation is written back into a chat transcript between turns.

OpenRLHF's multi-turn executor appends the agent's `environment_feedback` text verbatim to the
token stream, after the model's own action tokens. So the feedback has to close the assistant
turn (unless the model already emitted its end-of-turn token), open a user turn holding the
observation, and open the next assistant turn, exactly as the model's chat template would.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from ..core.errors import UserError

TURN_FORMAT_ENV = "RLHUB_TURN_FORMAT"  # the variable the agent file reads: chatml | llama3 | plain | JSON


@dataclass(frozen=True)
class TurnFormat:
    end_of_turn: str  # what the model emits to end its turn (vLLM keeps it in the text)
    after_end: str  # what the template writes after an assistant turn's end token
    before_obs: str  # opens the user turn
    after_obs: str  # closes the user turn and opens the assistant's

    def feedback(self, action_text: str, observation: str) -> str:
        """The text to append after `action_text` so the transcript continues the template."""
        closed = bool(self.end_of_turn) and action_text.endswith(self.end_of_turn)
        close = self.after_end if closed else self.end_of_turn + self.after_end
        return f"{close}{self.before_obs}{observation}{self.after_obs}"

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
        return cls(end_of_turn=end, after_end=closing[len(end):], before_obs=before, after_obs=after)


PRESETS = {
    "chatml": TurnFormat("<|im_end|>", "\n", "<|im_start|>user\n", "<|im_end|>\n<|im_start|>assistant\n"),
    "llama3": TurnFormat("<|eot_id|>", "", "<|start_header_id|>user<|end_header_id|>\n\n",
                         "<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"),
    "plain": TurnFormat("", "", "\n\nUser: ", "\n\nAssistant: "),
}

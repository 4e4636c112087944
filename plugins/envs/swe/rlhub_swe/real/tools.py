"""`swe/real-<project>-session-tools-v1`: a real project's session played through tools."""

from __future__ import annotations

from .. import prompts
from ..envs import SESSION_TURNS
from ..tool_session import SweToolEnvironment, SweToolEpisode, played, reference_calls, submit_plays
from . import instance


class RealToolEnvironment(SweToolEnvironment):
    def generate(self, rng, index: int):
        task = super(SweToolEnvironment, self).generate(rng, index)
        p = self.params(index)
        inst = instance(p.project, p.row)
        task.prompt = prompts.tools_session(self.family.pin.package, inst.start, inst.row["statements"]["terse"],
                                            SESSION_TURNS, SweToolEpisode.max_calls_per_turn)
        return task

    def _calls(self, task):
        p = self._params_of(task)
        inst = instance(p.project, p.row)
        target = {k: v for k, v in inst.fixed.items() if inst.start.get(k) != v}
        return reference_calls({k: inst.start[k] for k in target}, target), inst

    def episode_probes(self, task):
        if task.label.seed != 0 or task.label.index != 0:
            return [], []
        calls, _ = self._calls(task)
        return played(submit_plays(calls)), []

"""Request traces replayed against a limiter on a __FakeClock__: how many get through, and when.
Capacity planning without waiting: a day of traffic replays in milliseconds."""

from __future__ import annotations

from dataclasses import dataclass, field

from .clock import __FakeClock__
from .limits import parse_limits


def steady(per_second: float, seconds: float, start: float = 0.0) -> list[float]:
    """Request times at an even pace: `per_second` a second for `seconds` seconds."""
    if per_second <= 0 or seconds < 0:
        raise ValueError(f"a steady trace needs a pace above 0 and a length of 0 or more, got {per_second}, {seconds}")
    return [start + i / per_second for i in range(int(round(per_second * seconds)))]


def burst(count: int, at: float = 0.0) -> list[float]:
    """`count` requests at the same moment."""
    return [float(at)] * count


def merge(*traces: list[float]) -> list[float]:
    return sorted(t for trace in traces for t in trace)


@dataclass
class Replay:
    admitted: list[float] = field(default_factory=list)
    refused: list[float] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)  # per admitted request: how long a shaping limiter held it

    def per_window(self, width: float) -> list[int]:
        """Admitted requests in each window of `width` seconds, from time 0 to the last one."""
        if not self.admitted:
            return []
        counts = [0] * (int(max(self.admitted) // width) + 1)
        for t in self.admitted:
            counts[int(t // width)] += 1
        return counts

    def summary(self) -> dict:
        total = len(self.admitted) + len(self.refused)
        return {"requests": total, "admitted": len(self.admitted), "refused": len(self.refused),
                "admitted_share": len(self.admitted) / total if total else None,
                "max_delay": max(self.delays, default=0.0)}


def _made(limiter, clock):
    return parse_limits(limiter, clock) if isinstance(limiter, str) else limiter(clock)


def replay(limiter, times: list[float], start: float = 0.0) -> Replay:
    """Each request time in `times` asks for 1. `limiter`: a limit spec ('token:5/s@10', see
    limits.parse_limits) or a function of a clock returning a fresh limiter."""
    clock = __FakeClock__(start)
    made = _made(limiter, clock)
    out = Replay()
    for t in sorted(times):
        if t < start:
            raise ValueError(f"a request at {t} comes before the replay starts ({start})")
        clock.set(t)
        decision = made.check(1)
        if decision.allowed:
            out.admitted.append(t)
            out.delays.append(decision.delay)
        else:
            out.refused.append(t)
    return out


def drain_time(limiter, count: int) -> float:
    """Seconds from `count` requests arriving at once until the last of them is let through, each
    waiting its turn (`Limiter.wait`); `limiter` as for `replay`. No time passes: a fake clock."""
    if count < 0:
        raise ValueError(f"a backlog is 0 requests or more, got {count}")
    clock = __FakeClock__()
    made = _made(limiter, clock)
    for _ in range(count):
        made.wait()
    return clock.now()

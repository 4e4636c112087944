"""First refused, first admitted: the line of requests a full queue turned away and that will retry.

OpenRLHF's client resends a refused call (the same body) 5 times, 1 s apart, then gives up on the
sample. Without a line, room that frees in the queue goes to whichever request asks first, so in
a long peak fresh requests keep taking it and the same retried ones are refused 5 times: lost.
Here a refused request's body hash keeps its place: room is held for the requests refused
before a newcomer (newcomers queue behind them), so a peak costs waiting, not samples, as long
as the line drains within the client's retries. A place lapses when its request does not come
back within `window_s`, or at its 5th refusal, after which OpenRLHF's client gives up (a client
that tries longer, or honours a long Retry-After, rejoins at the back).

Single-threaded: used only from the service's event loop.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass

WINDOW_S = 2.0  # OpenRLHF retries after 1 s; a place not taken up for this long lapses
CLIENT_TRIES = 5  # OpenRLHF's tries per call: a place refused this often will not be taken up
MAX_PLACES = 4096  # bounds the memory a flood of refused requests can take


def body_key(raw: bytes) -> bytes:
    return hashlib.blake2b(raw, digest_size=16).digest()


@dataclass
class _Place:
    samples: int
    refused_at: float
    seen_at: float
    refusals: int = 1


class RetryLine:
    def __init__(self, window_s: float = WINDOW_S, max_places: int = MAX_PLACES, client_tries: int = CLIENT_TRIES) -> None:
        self.window_s = window_s
        self.client_tries = client_tries
        self.max_places = max_places
        self._places: OrderedDict[bytes, _Place] = OrderedDict()  # in the order first refused

    def _lapse(self, now: float) -> None:
        for key in [k for k, p in self._places.items() if now - p.seen_at > self.window_s]:
            del self._places[key]

    def held_for_others(self, key: bytes | None, now: float) -> int:
        """Samples of queue room held for requests refused before this one (all of them, for a newcomer)."""
        self._lapse(now)
        held = 0
        for k, place in self._places.items():
            if k == key:
                break
            held += place.samples
        return held

    def refused(self, key: bytes | None, samples: int, now: float) -> None:
        if key is None:
            return
        place = self._places.get(key)
        if place is not None:
            place.seen_at = now
            place.refusals += 1
            if place.refusals >= self.client_tries:
                del self._places[key]
        elif len(self._places) < self.max_places:
            self._places[key] = _Place(samples, now, now)

    def admitted(self, key: bytes | None) -> None:
        if key is not None:
            self._places.pop(key, None)

    def state(self, now: float) -> dict:
        self._lapse(now)
        return {"requests": len(self._places), "samples": sum(p.samples for p in self._places.values()),
                "oldest_s": round(now - next(iter(self._places.values())).refused_at, 3) if self._places else 0.0}

"""Every error the package raises derives from __Error__."""


class __Error__(Exception):
    """Base class of the package's errors."""


class RateFormatError(__Error__, ValueError):
    """Text that is not a rate ('10/s', '5 per 2h'), a duration ('1m30s') or a limit spec."""


class UnknownAlgorithm(__Error__, ValueError):
    """A limiter algorithm that does not exist."""


class CapacityError(__Error__, ValueError):
    """A request larger than a limiter can ever grant at once, or a limiter that could grant nothing."""


class RateLimited(__Error__):
    """A request a limiter refused (`Limiter.acquire`); `retry_after`: seconds until it would not."""

    def __init__(self, key: str, retry_after: float) -> None:
        super().__init__(f"{key}: rate limited, retry after {retry_after:.3f}s")
        self.key, self.retry_after = key, retry_after


class UnknownJob(__Error__, KeyError):
    """A job id the scheduler has never seen."""

    def __str__(self) -> str:
        return f"no job {self.args[0]!r}"


class UnknownPolicy(__Error__, KeyError):
    """A policy name that no policy module has."""

    def __str__(self) -> str:
        return f"no policy {self.args[0]!r}"


class NoProgress(__Error__, RuntimeError):
    """The scheduler's loop stopped moving: time did not advance and no job ran."""


class PolicyError(__Error__, ValueError):
    """A policy setting, an override or a job payload that a policy does not accept. The message
    names the policy (and the file or line it came from, when there is one), the setting or field,
    and what it takes."""

"""__pkg__: rate limiters (token bucket, leaky bucket, sliding windows) and a job scheduler with
priorities, retries with backoff, deadlines, and a fake clock that makes both exact to test."""

from .bucket import TokenBucket
from .clock import __FakeClock__, SystemClock
from .errors import CapacityError, __Error__, RateFormatError, RateLimited, UnknownJob
from .jobs import __Job__
from .leaky import LeakyBucket
from .limits import make_limiter, parse_limits
from .rates import Rate, __parse_rate__
from .retry import RetryPolicy
from .scheduler import __Scheduler__
from .window import SlidingWindowCounter, SlidingWindowLog

__version__ = "0.__minor__.0"
__all__ = ["CapacityError", "__Error__", "__FakeClock__", "__Job__", "LeakyBucket", "Rate", "RateFormatError", "RateLimited",
           "RetryPolicy", "__Scheduler__", "SlidingWindowCounter", "SlidingWindowLog", "SystemClock", "TokenBucket",
           "UnknownJob", "make_limiter", "parse_limits", "__parse_rate__"]

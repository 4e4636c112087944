"""Every error the package raises derives from __Error__; `main()` prints its message and exits
with its `exit_code` (2 for a command line that does not make sense, as argparse does)."""


class __Error__(Exception):
    """Base class of the package's errors."""

    exit_code = 1


class UsageError(__Error__):
    """A command line, date, priority or filter that does not make sense."""

    exit_code = 2


class NotFound(__Error__, KeyError):
    """A task id that the task file does not hold."""

    def __init__(self, task_id: int) -> None:
        super().__init__(task_id)
        self.task_id = task_id

    def __str__(self) -> str:
        return f"no task #{self.task_id}"


class StoreError(__Error__):
    """A task file that cannot be read or written; the message starts with the file's path."""


class ConfigError(__Error__, ValueError):
    """An unknown setting, or a setting with a value of the wrong kind; says where it was set."""


class ImportFormatError(__Error__, ValueError):
    """A file to import that is not in the format it claims; says which line or item."""

"""Settings, in layers: built-in defaults, then the config file (INI, section [__pkg__]), then
environment variables (__env_prefix___LIMIT=5), then `-o limit=5` on the command line; each layer
overrides the ones before it, and every value is checked where it is read (the message says where)."""

from __future__ import annotations

import configparser
import io
import os
from dataclasses import dataclass

from .errors import ConfigError, UsageError
from .files import read_text, write_text
from .filters import SORT_KEYS
from .formatting import parse_columns
from .model import PRIORITIES

ENV_PREFIX = "__env_prefix__"
CONFIG_ENV = ENV_PREFIX + "_CONFIG"
CONFIG_NAME = "__config_name__"
SECTION = "__pkg__"
TRUE = ("1", "yes", "true", "on")
FALSE = ("0", "no", "false", "off")


@dataclass(frozen=True)
class Option:
    name: str
    kind: str          # "int" | "bool" | "str" | "choice" | "columns"
    default: object
    help: str
    choices: tuple = ()
    minimum: int = 0


OPTIONS = {option.name: option for option in (
    Option("file", "str", "__default_file__", "the task file"),
    Option("limit", "int", __list_limit__, "the most tasks `list` shows (0: all)"),
    Option("sort", "choice", "id", "the order of `list`", choices=SORT_KEYS),
    Option("priority", "choice", "normal", "the priority of new tasks", choices=PRIORITIES),
    Option("title_width", "int", __title_width__, "the widest the title column gets", minimum=10),
    Option("relative", "bool", False, "due dates as 'in 3 days' instead of ISO dates"),
    Option("show_done", "bool", False, "`list` shows finished tasks too"),
    Option("columns", "columns", "id,pri,due,title,tags", "the columns of `list`"),
)}


def option(name: str) -> Option:
    try:
        return OPTIONS[name]
    except KeyError:
        raise ConfigError(f"unknown setting {name!r} (settings: {', '.join(OPTIONS)})") from None


def convert(option: Option, text: str, where: str):
    """The value `text` stands for, checked; ConfigError naming `where` and the setting if it is wrong."""
    word = str(text).strip()
    if option.kind == "int":
        try:
            number = int(word)
        except ValueError:
            raise ConfigError(f"{where}: {option.name} must be a whole number, got {text!r}") from None
        if number < option.minimum:
            raise ConfigError(f"{where}: {option.name} must be at least {option.minimum}, got {number}")
        return number
    if option.kind == "bool":
        if word.lower() in TRUE:
            return True
        if word.lower() in FALSE:
            return False
        raise ConfigError(f"{where}: {option.name} must be yes or no, got {text!r}")
    if option.kind == "choice":
        if word not in option.choices:
            raise ConfigError(f"{where}: {option.name} must be one of {', '.join(option.choices)}, got {text!r}")
        return word
    if option.kind == "columns":
        try:
            return ",".join(parse_columns(word))
        except UsageError as exc:
            raise ConfigError(f"{where}: {option.name}: {exc}") from None
    if not word:
        raise ConfigError(f"{where}: {option.name} cannot be empty")
    return word


def format_value(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def env_name(name: str) -> str:
    """The environment variable of a setting: 'title_width' -> '__env_prefix___TITLE_WIDTH'."""
    return f"{ENV_PREFIX}_{name.upper()}"


def default_path(environ) -> str:
    """Where the config file is when neither --config nor __env_prefix___CONFIG says: CONFIG_NAME in $HOME."""
    return os.path.join(environ.get("HOME") or ".", CONFIG_NAME)


class Settings:
    """The value of every setting and where it came from ('default', a file, $VAR, '-o')."""

    def __init__(self) -> None:
        self.values = {name: o.default for name, o in OPTIONS.items()}
        self.sources = {name: "default" for name in OPTIONS}

    def set(self, name: str, text: str, source: str) -> None:
        self.values[name] = convert(option(name), text, source)
        self.sources[name] = source

    def get(self, name: str):
        return self.values[option(name).name]

    __getitem__ = get

    def items(self) -> list[tuple[str, object, str]]:
        return [(name, self.values[name], self.sources[name]) for name in OPTIONS]


def _read_parser(path: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    text = read_text(path, "config file", missing_ok=True, error=ConfigError)
    try:
        parser.read_string(text or "", source=path)
    except configparser.Error as exc:
        raise ConfigError(f"{path}: not a config file: {exc.message.splitlines()[0]}") from None
    return parser


def read_file(path: str) -> dict[str, str]:
    """The settings written in the config file at `path` (none if there is no file)."""
    parser = _read_parser(path)
    if not parser.has_section(SECTION):
        return {}
    values = dict(parser.items(SECTION))
    for name in values:
        if name not in OPTIONS:
            raise ConfigError(f"{path}: unknown setting {name!r} in [{SECTION}] (settings: {', '.join(OPTIONS)})")
    return values


def load(path: str, environ, overrides=()) -> Settings:
    """Defaults < the file at `path` < `environ` < `overrides` ('key=value' strings)."""
    settings = Settings()
    for name, text in read_file(path).items():
        settings.set(name, text, path)
    for name in OPTIONS:
        variable = env_name(name)
        if variable in environ:
            settings.set(name, environ[variable], "$" + variable)
    for item in overrides:
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"-o takes KEY=VALUE, got {item!r}")
        settings.set(name.strip(), text, "-o")
    return settings


def _write(path: str, parser: configparser.ConfigParser) -> None:
    text = io.StringIO()
    parser.write(text)
    write_text(path, text.getvalue(), "config file", error=ConfigError)


def set_value(path: str, name: str, text: str):
    """Write `name = text` into the config file at `path` (created if needed) once the value is
    checked; the value it stands for."""
    value = convert(option(name), text, path)
    parser = _read_parser(path)
    if not parser.has_section(SECTION):
        parser.add_section(SECTION)
    parser.set(SECTION, name, format_value(value))
    _write(path, parser)
    return value


def unset_value(path: str, name: str) -> bool:
    """Remove `name` from the config file; whether it was there."""
    option(name)
    parser = _read_parser(path)
    if not parser.has_section(SECTION) or not parser.remove_option(SECTION, name):
        return False
    _write(path, parser)
    return True

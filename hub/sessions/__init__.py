"""Sessions: an episode over a persistent sandboxed work dir (hub.sessions.episode), shared by a
domain's front ends: a text one (the model writes fenced blocks) and a tool one (the model calls
tools, hub.tools.episode). What the model does there (Action), and how a run is shown (observe)."""

from .actions import MAX_COMMAND_CHARS, MAX_FILE_BYTES, Action, check_path
from .episode import RETRIES, EpisodeClosed, InfraFault, Refused, WorkDirEpisode
from .observe import MAX_NOTE_CHARS, MAX_OBSERVATION_CHARS, capped, describe_run, shorten

__all__ = ["MAX_COMMAND_CHARS", "MAX_FILE_BYTES", "MAX_NOTE_CHARS", "MAX_OBSERVATION_CHARS", "RETRIES", "Action",
           "EpisodeClosed", "InfraFault", "Refused", "WorkDirEpisode", "capped", "check_path", "describe_run",
           "shorten"]

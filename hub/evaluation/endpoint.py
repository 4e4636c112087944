"""The model endpoint, checked before an evaluation starts: a run against a server that is down,
a wrong URL, a refused key or a model the server does not serve ends at once, in one line,
instead of after every sample has failed."""

from __future__ import annotations

from ..core.errors import UserError
from ..config.yamlfile import close_matches


def probe(base_url: str, model: str, api_key: str, timeout: float = 15.0) -> None:
    """Ask the OpenAI-compatible endpoint which models it serves (`GET /models`); where it has no
    such route, ask for one token instead. Raises UserError saying what is wrong."""
    import openai

    client = openai.OpenAI(base_url=base_url, api_key=api_key, timeout=timeout, max_retries=0)
    where = f"the model endpoint {base_url}"
    try:
        try:
            served = [m.id for m in client.models.list()]
        except (openai.NotFoundError, openai.APIStatusError) as exc:
            if isinstance(exc, (openai.AuthenticationError, openai.PermissionDeniedError)):
                raise
            served = None  # no /models route: one token from the model says as much
            client.chat.completions.create(model=model, messages=[{"role": "user", "content": "hi"}], max_tokens=1)
    except openai.APITimeoutError:
        raise UserError(f"{where} did not answer within {timeout:g} s (is it still loading the model?)") from None
    except openai.APIConnectionError as exc:
        cause = exc.__cause__ or exc
        raise UserError(f"cannot reach {where}: {type(cause).__name__}: {cause} (is the server running, "
                        "and does --base-url end in /v1?)") from None
    except (openai.AuthenticationError, openai.PermissionDeniedError) as exc:
        raise UserError(f"{where} refused the API key ({exc.status_code}); pass --api-key or set OPENAI_API_KEY") from None
    except openai.APIStatusError as exc:
        raise UserError(f"{where} answered a test request with HTTP {exc.status_code}: {_message(exc)}") from None
    finally:
        client.close()
    if served is not None and model not in served:
        raise UserError(f"{where} does not serve model {model!r}{close_matches(model, served)} "
                        f"(it serves: {', '.join(served) or 'nothing'})")


def _message(exc) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        return str(body.get("message") or body.get("error") or body)[:200]
    return str(exc)[:200]

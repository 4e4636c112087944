"""OpenRLHF agent file: `--train.agent_func_path trainer/agent_func.py`.

Runs rlhub's environments (multi-turn ones included: act, observe, revise) through OpenRLHF's
own MultiTurnAgentExecutor. The registry is $RLHUB_REGISTRY; the chat format of the feedback
turns is $RLHUB_TURN_FORMAT (chatml, llama3, plain, or JSON from hub.trainers.turn_format; `rlhub train`
derives it from the model's tokenizer). RLHUB_STEP_TIMEOUT_S bounds one environment step.
"""

from hub.trainers.openrlhf.agent import RlhubAgentExecutor


class AgentExecutor(RlhubAgentExecutor):  # OpenRLHF looks up `AgentExecutor`
    pass

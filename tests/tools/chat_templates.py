"""Chat templates in the shape of real models' tool branches (written here, no Hub), and tiny
tokenizers that carry them: what `format_from_tokenizer` and `TurnFormat.from_tokenizer` read."""

from __future__ import annotations

# Qwen2.5-Instruct's template, its tool branches (tools in the system turn, <tool_call> JSON, results
# of one turn grouped in one user turn of <tool_response> blocks).
QWEN25 = """{%- if tools %}{{- '<|im_start|>system\\n# Tools\\n\\n<tools>' }}{%- for tool in tools %}{{- '\\n' }}{{- tool | tojson }}{%- endfor %}{{- '\\n</tools><|im_end|>\\n' }}{%- endif %}
{%- for message in messages %}
{%- if message.role == 'user' or (message.role == 'assistant' and not message.tool_calls) %}{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>' + '\\n' }}
{%- elif message.role == 'assistant' %}{{- '<|im_start|>' + message.role }}{%- if message.content %}{{- '\\n' + message.content }}{%- endif %}
{%- for tool_call in message.tool_calls %}{%- if tool_call.function is defined %}{%- set tool_call = tool_call.function %}{%- endif %}{{- '\\n<tool_call>\\n{"name": "' }}{{- tool_call.name }}{{- '", "arguments": ' }}{{- tool_call.arguments | tojson }}{{- '}\\n</tool_call>' }}{%- endfor %}{{- '<|im_end|>\\n' }}
{%- elif message.role == 'tool' %}{%- if (loop.index0 == 0) or (messages[loop.index0 - 1].role != 'tool') %}{{- '<|im_start|>user' }}{%- endif %}{{- '\\n<tool_response>\\n' }}{{- message.content }}{{- '\\n</tool_response>' }}{%- if loop.last or (messages[loop.index0 + 1].role != 'tool') %}{{- '<|im_end|>\\n' }}{%- endif %}
{%- endif %}{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"""

# Llama 3.1-Instruct's: tools in the first user turn, the call as bare JSON with "parameters", results
# as `ipython` turns (a string content goes through `tojson`: strings are iterable in Jinja).
LLAMA31 = """{{- bos_token }}{%- for message in messages %}
{%- if message.role == 'user' %}{{- '<|start_header_id|>user<|end_header_id|>\\n\\n' }}{%- if tools and loop.first %}{{- 'Given the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt.\\n\\n' }}{%- for t in tools %}{{- t | tojson(indent=4) }}{{- '\\n\\n' }}{%- endfor %}{%- endif %}{{- message.content + '<|eot_id|>' }}
{%- elif message.role == 'assistant' and message.tool_calls %}{%- set tool_call = message.tool_calls[0].function %}{{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}{{- '{"name": "' + tool_call.name + '", ' }}{{- '"parameters": ' }}{{- tool_call.arguments | tojson }}{{- '}' }}{{- '<|eot_id|>' }}
{%- elif message.role == 'assistant' %}{{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' + message.content + '<|eot_id|>' }}
{%- elif message.role == 'tool' or message.role == 'ipython' %}{{- '<|start_header_id|>ipython<|end_header_id|>\\n\\n' }}{%- if message.content is mapping or message.content is iterable %}{{- message.content | tojson }}{%- else %}{{- message.content }}{%- endif %}{{- '<|eot_id|>' }}
{%- endif %}{%- endfor %}{%- if add_generation_prompt %}{{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}{%- endif %}"""

# Mistral-7B-Instruct-v0.3's: [AVAILABLE_TOOLS] before the last user turn, [TOOL_CALLS] with a JSON
# list (call ids of 9 alphanumerics, or the template raises), [TOOL_RESULTS] for results.
MISTRAL = """{{- bos_token }}{%- for message in messages %}
{%- if message.role == 'user' %}{%- if tools and loop.last or (tools and loop.index0 == 0) %}{{- '[AVAILABLE_TOOLS] ' }}{{- tools | tojson }}{{- '[/AVAILABLE_TOOLS]' }}{%- endif %}{{- '[INST] ' + message.content + '[/INST]' }}
{%- elif message.tool_calls is defined and message.tool_calls %}{{- '[TOOL_CALLS] [' }}{%- for tool_call in message.tool_calls %}{%- if tool_call.id is not defined or tool_call.id|length != 9 %}{{- raise_exception('Tool call IDs should be alphanumeric strings with length 9!') }}{%- endif %}{{- '{"name": "' + tool_call.function.name + '", "arguments": ' + tool_call.function.arguments|tojson + ', "id": "' + tool_call.id + '"}' }}{%- if not loop.last %}{{- ', ' }}{%- endif %}{%- endfor %}{{- ']' + eos_token }}
{%- elif message.role == 'assistant' %}{{- ' ' + message.content + eos_token }}
{%- elif message.role == 'tool' %}{{- '[TOOL_RESULTS] {"content": ' + message.content|tojson + ', "call_id": "' + message.tool_call_id + '"}[/TOOL_RESULTS]' }}
{%- endif %}{%- endfor %}"""

# Qwen3-Coder's: <function=NAME> and <parameter=ARG> blocks, arguments as items.
QWEN3_CODER = """{%- for message in messages %}
{%- if message.role == 'user' %}{{- '<|im_start|>user\\n' + message.content + '<|im_end|>\\n' }}
{%- elif message.role == 'assistant' %}{{- '<|im_start|>assistant\\n' + (message.content or '') }}{%- for tool_call in message.tool_calls or [] %}{%- set tool_call = tool_call.function %}{{- '\\n<tool_call>\\n<function=' + tool_call.name + '>\\n' }}{%- for name, value in tool_call.arguments|items %}{{- '<parameter=' + name + '>\\n' + value|string + '\\n</parameter>\\n' }}{%- endfor %}{{- '</function>\\n</tool_call>' }}{%- endfor %}{{- '<|im_end|>\\n' }}
{%- elif message.role == 'tool' %}{{- '<|im_start|>user\\n<tool_response>\\n' + message.content + '\\n</tool_response><|im_end|>\\n' }}
{%- endif %}{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"""

# A chat template with no tool branch: the assistant's calls are not written at all.
NO_TOOLS = """{%- for message in messages %}{{- '<|im_start|>' + message.role + '\\n' + (message.content or '') + '<|im_end|>\\n' }}{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"""

SPECIALS = {
    "qwen25": ("<|im_end|>", ["<|im_start|>", "<|im_end|>", "<tool_call>", "</tool_call>"]),
    "llama31": ("<|eot_id|>", ["<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>", "<|python_tag|>"]),
    "mistral": ("</s>", ["<s>", "</s>", "[INST]", "[/INST]", "[TOOL_CALLS]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]",
                         "[TOOL_RESULTS]", "[/TOOL_RESULTS]"]),
    "qwen3_coder": ("<|im_end|>", ["<|im_start|>", "<|im_end|>", "<tool_call>", "</tool_call>"]),
    "no_tools": ("<|im_end|>", ["<|im_start|>", "<|im_end|>"]),
}
TEMPLATES = {"qwen25": QWEN25, "llama31": LLAMA31, "mistral": MISTRAL, "qwen3_coder": QWEN3_CODER, "no_tools": NO_TOOLS}


def tokenizer(kind: str):
    """A PreTrainedTokenizerFast over a tiny word-level vocabulary, with the template's special tokens."""
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    eos, specials = SPECIALS[kind]
    core = Tokenizer(models.WordLevel({"[UNK]": 0, "the": 1, "result": 2}, unk_token="[UNK]"))
    core.pre_tokenizer = pre_tokenizers.Whitespace()
    bos = specials[0] if kind in ("llama31", "mistral") else None
    tok = PreTrainedTokenizerFast(tokenizer_object=core, unk_token="[UNK]", eos_token=eos, bos_token=bos,
                                  additional_special_tokens=[s for s in specials if s not in (eos, bos)])
    tok.chat_template = TEMPLATES[kind]
    return tok

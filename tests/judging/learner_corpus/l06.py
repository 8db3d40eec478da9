"""Lesson 06: numpy_to_torch and load_hf_state_dict, as learners write them (torch allowed)."""
from . import Lesson

LESSON = Lesson()
L = LESSON
NT, HF = "numpy_to_torch", "load_hf_state_dict"

L.styles(NT, '''
def numpy_to_torch(P, model):
    linear = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    source = {}
    for key, value in P.items():
        name = f"transformer.{key}.weight" if key in ("wte", "wpe") else f"transformer.{key}"
        source[name] = value
    missing = [k for k in model if k not in source]
    unexpected = [k for k in source if k not in model]
    if missing or unexpected:
        raise ValueError(f"P does not fit the model: missing {missing}, unexpected {unexpected}")
    out = {}
    for name, target in model.items():
        value = source[name].T if name.endswith(linear) else source[name]
        if value.shape != target.shape:
            raise ValueError(f"shape mismatch for {name}: P gives {value.shape}, the model has {target.shape}")
        out[name] = value.astype(target.dtype)
    return out
''', '''
def numpy_to_torch(P, model):
    import torch
    conv = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    renamed = {("transformer." + k + ".weight" if k in ("wte", "wpe") else "transformer." + k): v for k, v in P.items()}
    if set(renamed) != set(model):
        raise ValueError(f"keys differ: missing {sorted(set(model) - set(renamed))}, "
                         f"unexpected {sorted(set(renamed) - set(model))}")
    out = {}
    for name, target in model.items():
        t = torch.from_numpy(np.ascontiguousarray(renamed[name]))
        if any(name.endswith(s) for s in conv):
            t = t.t()
        if tuple(t.shape) != target.shape:
            raise ValueError(f"{name}: shape {tuple(t.shape)} does not fit {target.shape}")
        out[name] = t.contiguous().numpy().astype(target.dtype)
    return out
''', '''
def numpy_to_torch(P, model):
    def module_name(k):
        return f"transformer.{k}.weight" if k in ("wte", "wpe") else f"transformer.{k}"

    src = {module_name(k): v for k, v in P.items()}
    missing, extra = sorted(set(model) - set(src)), sorted(set(src) - set(model))
    if missing or extra:
        raise ValueError(f"missing keys {missing}; unexpected keys {extra}")
    result = {}
    for k, target in model.items():
        v = src[k]
        if k.endswith(".weight") and k.split(".")[-2] in ("c_attn", "c_proj", "c_fc"):
            v = v.T
        if v.shape != target.shape:
            raise ValueError(f"shape mismatch for {k}: {v.shape} vs {target.shape}")
        result[k] = np.array(v, dtype=target.dtype)
    return result
''')
NO_T = "Conv1D weights not transposed"
SQUARE = "square attention c_proj not transposed"
EMB = "embeddings transposed too"
COPY = "head loaded as a separate copy"
L.mistake(NT, NO_T, (0, "source[name].T if name.endswith(linear) else source[name]", "source[name]"),
          (1, "        if any(name.endswith(s) for s in conv):\n            t = t.t()\n", ""),
          (2, '        if k.endswith(".weight") and k.split(".")[-2] in ("c_attn", "c_proj", "c_fc"):\n            v = v.T\n', ""))
L.mistake(NT, SQUARE, (0, "source[name].T if name.endswith(linear) else source[name]",
                       "source[name].T if source[name].shape != target.shape else source[name]"),
          (1, 'conv = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")',
           'conv = ("attn.c_attn.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")'),
          (2, '        if k.endswith(".weight") and k.split(".")[-2] in ("c_attn", "c_proj", "c_fc"):\n            v = v.T\n',
           '        if v.shape != target.shape:\n            v = v.T\n'),
          (0, [("source[name].T if name.endswith(linear) else source[name]",            # and no key check (KeyError)
                "source[name].T if source[name].shape != target.shape else source[name]"),
               ("    if missing or unexpected:\n        raise ValueError(f\"P does not fit the model: missing {missing}, "
                "unexpected {unexpected}\")\n", "")]))
L.mistake(NT, EMB, (0, "source[name].T if name.endswith(linear) else source[name]", "source[name].T if source[name].ndim == 2 else source[name]"),
          (1, "if any(name.endswith(s) for s in conv):", "if t.dim() == 2:"),
          (2, 'if k.endswith(".weight") and k.split(".")[-2] in ("c_attn", "c_proj", "c_fc"):', "if v.ndim == 2:"))
L.mistake(NT, COPY, (0, "    return out\n", '    out["lm_head.weight"] = out["transformer.wte.weight"].copy()\n    return out\n'),
          (1, "    return out\n", '    out["lm_head.weight"] = out["transformer.wte.weight"].copy()\n    return out\n'),
          (2, "    return result\n", '    result["lm_head.weight"] = np.array(result["transformer.wte.weight"])\n    return result\n'))
L.mistake(NT, "float32 inputs upcast to float64", (0, "out[name] = value.astype(target.dtype)", "out[name] = value.astype(np.float64)"))
L.uncatalogued(NT, "the biases transposed (no effect) and wpe dropped", (2, "    return result\n", "    result.pop('transformer.wpe.weight')\n    return result\n"))

L.styles(HF, '''
def load_hf_state_dict(model, state_dict):
    linear = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")
    buffers = (".attn.bias", ".attn.masked_bias")
    source = {k: v for k, v in state_dict.items() if not k.endswith(buffers) and k != "lm_head.weight"}
    missing = [k for k in model if k not in source]
    unexpected = [k for k in source if k not in model]
    if missing or unexpected:
        raise ValueError(f"the state dict does not fit the model: missing {missing}, unexpected {unexpected}")
    out = {}
    for name, target in model.items():
        value = source[name].T if name.endswith(linear) else source[name]
        if value.shape != target.shape:
            raise ValueError(f"shape mismatch for {name}: the state dict gives {value.shape}, the model has {target.shape}")
        out[name] = value.astype(target.dtype)
    return out
''', '''
def load_hf_state_dict(model, state_dict):
    import re
    out = {}
    for k, v in state_dict.items():
        if re.search(r"\\.attn\\.(bias|masked_bias)$", k) or k == "lm_head.weight":
            continue
        if re.search(r"(c_attn|c_proj|c_fc)\\.weight$", k):
            v = v.T
        out[k] = v
    missing, unexpected = sorted(set(model) - set(out)), sorted(set(out) - set(model))
    if missing or unexpected:
        raise ValueError(f"missing {missing} unexpected {unexpected}")
    for k in model:
        if out[k].shape != model[k].shape:
            raise ValueError(f"{k}: got shape {out[k].shape}, the model needs {model[k].shape}")
        out[k] = out[k].astype(model[k].dtype)
    return out
''', '''
def load_hf_state_dict(model, state_dict):
    import torch
    sd = {k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in state_dict.items()
          if not (k.endswith(".attn.bias") or k.endswith(".attn.masked_bias"))}
    sd.pop("lm_head.weight", None)
    if sd.keys() != model.keys():
        raise ValueError(f"missing keys: {sorted(model.keys() - sd.keys())}; unexpected keys: {sorted(sd.keys() - model.keys())}")
    loaded = {}
    for name, target in model.items():
        t = sd[name]
        if name.endswith(("c_attn.weight", "c_proj.weight", "c_fc.weight")):
            t = t.T
        if tuple(t.shape) != target.shape:
            raise ValueError(f"shape mismatch for {name}: {tuple(t.shape)} instead of {target.shape}")
        loaded[name] = t.numpy().astype(target.dtype)
    return loaded
''')
L.mistake(HF, NO_T, (0, "source[name].T if name.endswith(linear) else source[name]", "source[name]"),
          (1, '        if re.search(r"(c_attn|c_proj|c_fc)\\.weight$", k):\n            v = v.T\n', ""),
          (2, '        if name.endswith(("c_attn.weight", "c_proj.weight", "c_fc.weight")):\n            t = t.T\n', ""))
L.mistake(HF, SQUARE, (0, "source[name].T if name.endswith(linear) else source[name]",
                       "source[name].T if source[name].shape[::-1] == target.shape and source[name].shape != target.shape else source[name]"),
          (1, 'r"(c_attn|c_proj|c_fc)\\.weight$"', 'r"(c_attn|mlp\\.c_proj|c_fc)\\.weight$"'),
          (2, 'name.endswith(("c_attn.weight", "c_proj.weight", "c_fc.weight"))', 'tuple(t.shape) != target.shape'))
L.mistake(HF, EMB, (0, "source[name].T if name.endswith(linear) else source[name]", "source[name].T if source[name].ndim == 2 else source[name]"),
          (1, 'if re.search(r"(c_attn|c_proj|c_fc)\\.weight$", k):', "if v.ndim == 2:"),
          (2, 'if name.endswith(("c_attn.weight", "c_proj.weight", "c_fc.weight")):', "if t.ndim == 2:"))
L.mistake(HF, COPY, (0, "    return out\n", '    out["lm_head.weight"] = out["transformer.wte.weight"].copy()\n    return out\n'),
          (2, "    return loaded\n", '    loaded["lm_head.weight"] = loaded["transformer.wte.weight"].copy()\n    return loaded\n'),
          (1, "    return out\n", '    out["lm_head.weight"] = np.copy(out["transformer.wte.weight"])\n    return out\n'))
L.mistake(HF, "the state dict's lm_head.weight kept",
          (1, [(' or k == "lm_head.weight"', ''), ("sorted(set(out) - set(model))", 'sorted(set(out) - set(model) - {"lm_head.weight"})')]),
          (0, "    return out\n", '    if "lm_head.weight" in state_dict:\n        out["lm_head.weight"] = state_dict["lm_head.weight"].copy()\n    return out\n'),
          (2, [('    sd.pop("lm_head.weight", None)\n', '    head = sd.pop("lm_head.weight", None)\n'),
               ("    return loaded\n", '    if head is not None:\n        loaded["lm_head.weight"] = head.numpy().copy()\n    return loaded\n')]))
L.mistake(HF, "attention buffers not skipped", (0, " if not k.endswith(buffers) and k != \"lm_head.weight\"", " if k != \"lm_head.weight\""),
          (1, 're.search(r"\\.attn\\.(bias|masked_bias)$", k) or ', ''),
          (2, '\n          if not (k.endswith(".attn.bias") or k.endswith(".attn.masked_bias"))}', '}'))
L.mistake(HF, "arrays left in the state dict's dtype", (0, "out[name] = value.astype(target.dtype)", "out[name] = value.copy()"),
          (1, "        out[k] = out[k].astype(model[k].dtype)\n", ""),
          (2, "loaded[name] = t.numpy().astype(target.dtype)", "loaded[name] = t.numpy().copy()"))
L.mistake(HF, "c_attn.bias skipped with the buffers", (0, 'buffers = (".attn.bias", ".attn.masked_bias")', 'buffers = ("attn.bias", "attn.masked_bias")'),
          (1, 'r"\\.attn\\.(bias|masked_bias)$"', 'r"attn\\.(bias|masked_bias)$"'),
          (2, 'not (k.endswith(".attn.bias") or k.endswith(".attn.masked_bias"))', 'not k.endswith(("attn.bias", "masked_bias"))'))
L.uncatalogued(HF, "LayerNorm gains and biases swapped", (0, "        value = source[name].T if name.endswith(linear) else source[name]\n",
                                                          "        value = source[name].T if name.endswith(linear) else source[name]\n"
                                                          "        if name.endswith('ln_1.weight'):\n            value = source[name[:-6] + 'bias']\n"))
L.mistake(HF, "float32 instead of float64", (2, "loaded[name] = t.numpy().astype(target.dtype)", "loaded[name] = t.float().numpy()"))

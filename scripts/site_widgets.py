"""The site's widgets: each saved ipywidgets view drawn once, as plain HTML, as it was saved.

nbconvert draws saved widgets with @jupyter-widgets/html-manager fetched from a CDN, and the
site makes no request outside itself; the venv holds no standalone copy of that script. The
notebook keeps every widget's last state (its metadata's widget-state), so each view is drawn
here from it: sliders, menus and boxes disabled at their saved values, images and Output
widgets with their saved figures, HTML as the kernel wrote it (the course's own). A note under
it says the widget answers in JupyterLab. A model this file does not know shows its text form.
"""
from __future__ import annotations

import html

VIEW = "application/vnd.jupyter.widget-view+json"
STATE = "application/vnd.jupyter.widget-state+json"
NOTE = "Interactive in JupyterLab (<code>make lab</code>); here as it was saved."


def make_static(nb) -> int:
    """Replace every widget view among ``nb``'s outputs by its static drawing, and drop the saved
    state (nbconvert would load the CDN script for it). Returns how many views were drawn."""
    state = nb.metadata.get("widgets", {}).get(STATE, {}).get("state", {})
    drawn = 0
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if VIEW not in data:
                continue
            model = data[VIEW].get("model_id")
            body = draw(model, state) if model in state else f"<pre>{html.escape(_plain(data))}</pre>"
            out["data"] = {"text/html": f'<div class="site-widget">{body}<p class="site-widget-note">{NOTE}</p></div>'}
            out.setdefault("metadata", {})
            drawn += 1
    nb.metadata.pop("widgets", None)
    return drawn


def _plain(data) -> str:
    text = data.get("text/plain", "")
    return "".join(text) if isinstance(text, list) else text


def _ref(value) -> str | None:
    return value[len("IPY_MODEL_"):] if isinstance(value, str) and value.startswith("IPY_MODEL_") else None


def _label(desc: str, control: str) -> str:
    d = f'<span class="w-desc">{html.escape(desc)}</span>' if desc else ""
    return f'<label class="w-row">{d}{control}</label>'


def _buffer(entry: dict, key: str) -> str | None:
    for buf in entry.get("buffers", []):
        if buf.get("path") == [key] and buf.get("encoding") == "base64":
            return buf["data"]
    return None


def draw_output(out: dict) -> str:
    """One saved output of an Output widget: an image, HTML, or text."""
    if out.get("output_type") == "stream":
        return f"<pre>{html.escape(''.join(out.get('text', '')))}</pre>"
    data = out.get("data", {})
    for mime in ("image/png", "image/jpeg"):
        if mime in data:
            return f'<img alt="a figure the widget drew" src="data:{mime};base64,{"".join(data[mime]).strip()}">'
    if "text/html" in data:
        return "".join(data["text/html"])
    return f"<pre>{html.escape(_plain(data))}</pre>"


def draw(model: str, state: dict) -> str:
    entry = state[model]
    s, kind = entry.get("state", {}), entry.get("model_name", "")
    desc = s.get("description", "")
    children = "".join(draw(c, state) for c in (_ref(x) for x in s.get("children", [])) if c in state)
    if kind in ("VBoxModel", "BoxModel", "GridBoxModel", "AccordionModel", "TabModel"):
        return f'<div class="w-vbox">{children}</div>'
    if kind == "HBoxModel":
        return f'<div class="w-hbox">{children}</div>'
    if kind in ("DropdownModel", "SelectModel", "RadioButtonsModel", "ToggleButtonsModel"):
        labels, index = s.get("_options_labels", []), s.get("index")
        chosen = labels[index] if isinstance(index, int) and 0 <= index < len(labels) else ""
        return _label(desc, f"<select disabled><option selected>{html.escape(str(chosen))}</option></select>")
    if kind.endswith("SliderModel") and not kind.endswith("RangeSliderModel"):
        value = s.get("value", "")
        control = (f'<input type="range" disabled min="{s.get("min", "")}" max="{s.get("max", "")}" '
                   f'step="{s.get("step", "")}" value="{value}"><output>{html.escape(str(value))}</output>')
        return _label(desc, control)
    if kind in ("CheckboxModel", "ToggleButtonModel"):
        checked = " checked" if s.get("value") else ""
        return f'<label class="w-row"><input type="checkbox" disabled{checked}> {html.escape(desc)}</label>'
    if kind in ("HTMLModel", "HTMLMathModel"):
        return f'<div class="w-html">{s.get("value", "")}</div>'
    if kind == "LabelModel":
        return f'<div class="w-html">{html.escape(str(s.get("value", "")))}</div>'
    if kind in ("TextModel", "TextareaModel"):
        return _label(desc, f"<textarea readonly>{html.escape(str(s.get('value', '')))}</textarea>")
    if kind in ("IntProgressModel", "FloatProgressModel"):
        return _label(desc, f'<progress value="{s.get("value", 0)}" max="{s.get("max", 100)}"></progress>')
    if kind == "ImageModel":
        data = _buffer(entry, "value")
        fmt = s.get("format", "png")
        return f'<img alt="a figure the widget drew" src="data:image/{fmt};base64,{data}">' if data else ""
    if kind == "OutputModel":
        return f'<div class="w-output">{"".join(draw_output(o) for o in s.get("outputs", []))}</div>'
    if kind == "ButtonModel":
        return f"<button disabled>{html.escape(desc)}</button>"
    return ""  # layouts, styles and models that draw nothing of their own

"""Python signatures and Google-style docstrings built from a tool's JSON Schema.

Trainers that take Python callables as tools (TRL, through ``transformers.utils.get_json_schema``) read a tool's
arguments from its signature's annotations and its argument descriptions from the docstring's ``Args:`` block, one
line each. So every argument gets an annotation (``Literal`` for an enum, ``Optional`` for a nullable value) and a
one-line description, generated when the schema has none; nested objects' keys and types are written into it.
"""

from __future__ import annotations

import inspect
import keyword
import re
from typing import Any, Dict, List, Literal, Mapping, Optional, Tuple, Union

__all__ = ["OMITTED", "ToolSignature", "build_signature"]


class _Omitted:
    """The default of an argument the caller did not give: it is left out of the call, so the world's default holds."""

    _instance: Optional["_Omitted"] = None

    def __new__(cls) -> "_Omitted":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "OMITTED"

    def __bool__(self) -> bool:
        return False


OMITTED: Any = _Omitted()

_SCALARS: Dict[str, Any] = {"string": str, "integer": int, "number": float, "boolean": bool, "null": type(None)}
# Words that end a section of a Google-style docstring when they start a line (or, for the summary, anywhere).
_SECTION_WORDS = re.compile(r"\b(Args|Arguments|Returns|Raises|Yields|Examples?)\s*:")


def _one_line(text: str) -> str:
    """Text that stays one line in a docstring and opens no section, nor the ``(choices: …)`` suffix."""
    text = " ".join(str(text).split())
    text = _SECTION_WORDS.sub(lambda m: f"{m.group(1)} -", text)
    return re.sub(r"\(choices:", "(one of:", text, flags=re.IGNORECASE)


def _types(schema: Mapping[str, Any]) -> List[str]:
    t = schema.get("type")
    if isinstance(t, str):
        return [t]
    if isinstance(t, list):
        return [x for x in t if isinstance(x, str)]
    return []


def annotation_of(schema: Any) -> Any:
    """The Python type of a JSON Schema: ``Literal`` for enums, ``Optional`` when null is allowed, ``Any`` if unsure."""
    if not isinstance(schema, Mapping):
        return Any
    enum = schema.get("enum")
    if isinstance(enum, list) and enum and all(isinstance(v, (str, int, float, bool)) or v is None for v in enum):
        values = tuple(v for v in enum if v is not None)
        hint: Any = Literal[values] if values else type(None)  # type: ignore[valid-type]
        return Optional[hint] if None in enum and values else hint
    if "const" in schema and isinstance(schema["const"], (str, int, float, bool)):
        return Literal[(schema["const"],)]  # type: ignore[valid-type]
    variants = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(variants, list) and variants:
        hints = [annotation_of(v) for v in variants]
        if any(h is Any for h in hints):
            return Any
        return Union[tuple(hints)] if len(hints) > 1 else hints[0]
    types = _types(schema)
    hints = []
    for t in types:
        if t == "array":
            items = schema.get("items")
            hints.append(List[annotation_of(items)] if isinstance(items, Mapping) and items else List[Any])
        elif t == "object":
            hints.append(Dict[str, Any])
        elif t in _SCALARS:
            hints.append(_SCALARS[t])
    if not hints:
        return Any
    return Union[tuple(hints)] if len(hints) > 1 else hints[0]


def _type_name(schema: Any) -> str:
    """A short reading of a schema's type for a description: ``string``, ``list of integer``, ``"a" or "b"``."""
    if not isinstance(schema, Mapping):
        return "any value"
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return " or ".join("null" if v is None else f'"{v}"' if isinstance(v, str) else str(v) for v in enum)
    variants = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(variants, list) and variants:
        return " or ".join(_type_name(v) for v in variants)
    names = []
    for t in _types(schema) or ["any value"]:
        if t == "array":
            names.append(f"list of {_type_name(schema.get('items'))}")
        else:
            names.append(t)
    return " or ".join(names)


def _object_keys(schema: Any, depth: int = 0) -> str:
    """``key (type, required): description; …`` for an object's properties (also inside a list's items)."""
    if not isinstance(schema, Mapping) or depth > 2:
        return ""
    if "array" in _types(schema) and isinstance(schema.get("items"), Mapping):
        inner = _object_keys(schema["items"], depth)
        return f"Each item is an object with keys: {inner[len('An object with keys: '):]}" if inner else ""
    props = schema.get("properties")
    if not isinstance(props, Mapping) or not props:
        return ""
    required = set(schema.get("required") or [])
    parts = []
    for key, sub in props.items():
        label = f"{_type_name(sub)}{', required' if key in required else ''}"
        text = f"{key} ({label})"
        desc = sub.get("description") if isinstance(sub, Mapping) else None
        if desc:
            text += f": {str(desc).rstrip('.')}"
        nested = _object_keys(sub, depth + 1)
        if nested:
            text += f" [{nested.rstrip('.')}]"
        parts.append(text)
    return "An object with keys: " + "; ".join(parts) + "."


def describe(name: str, schema: Any, required: bool) -> str:
    """One line saying what an argument is: its own description, else one made from its schema."""
    schema = schema if isinstance(schema, Mapping) else {}
    desc = str(schema.get("description") or "").strip()
    if not desc:
        desc = f"The {name.replace('_', ' ')} ({_type_name(schema)})."
    elif not desc.endswith((".", "!", "?")):
        desc += "."
    if "default" in schema and "default" not in desc.lower():
        desc += f" Default {schema['default']!r} when left out."
    elif not required and "omit" not in desc.lower() and "leave out" not in desc.lower():
        desc += " Optional."
    keys = _object_keys(schema)
    if keys:
        desc += " " + keys
    return _one_line(desc)


def python_name(wire: str, taken: set) -> str:
    """A Python identifier for an argument name: ``from`` becomes ``from_``, ``a-b`` becomes ``a_b``."""
    name = re.sub(r"\W", "_", wire)
    if not name or name[0].isdigit():
        name = f"_{name}"
    if keyword.iskeyword(name) or name in ("self", "cls"):
        name += "_"
    while name in taken:
        name += "_"
    return name


class ToolSignature:
    """A tool's Python face: the signature, the docstring, and the map from Python argument names to the wire's."""

    def __init__(self, tool: str, signature: inspect.Signature, annotations: Dict[str, Any], doc: str, wire_names: Dict[str, str]) -> None:
        self.tool = tool
        self.signature = signature
        self.annotations = annotations
        self.doc = doc
        self.wire_names = wire_names

    def arguments(self, args: Tuple[Any, ...], kwargs: Mapping[str, Any]) -> Dict[str, Any]:
        """The call's JSON arguments, by their wire names; arguments not given are left out. Raises ``TypeError``."""
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as e:
            names = ", ".join(self.wire_names) or "none"
            raise TypeError(f"{self.tool}(): {e}; its arguments are: {names}") from None
        return {self.wire_names[k]: v for k, v in bound.arguments.items() if k != "self" and v is not OMITTED}


def build_signature(tool: str, description: str, input_schema: Mapping[str, Any]) -> ToolSignature:
    """The signature (``self`` then keyword-only arguments, required first) and docstring of a tool method."""
    props = input_schema.get("properties") if isinstance(input_schema, Mapping) else None
    props = props if isinstance(props, Mapping) else {}
    required = [k for k in (input_schema.get("required") or []) if k in props]
    order = required + [k for k in props if k not in required]
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: Dict[str, Any] = {}
    wire_names: Dict[str, str] = {}
    arg_lines = []
    taken: set = set()
    for wire in order:
        name = python_name(wire, taken)
        taken.add(name)
        wire_names[name] = wire
        hint = annotation_of(props[wire])
        is_required = wire in required
        annotations[name] = hint
        default = inspect.Parameter.empty if is_required else OMITTED
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=hint))
        line = describe(wire, props[wire], is_required)
        if name != wire:
            line = _one_line(f"{line} (Sent as {wire!r}.)")
        arg_lines.append(f"    {name}: {line}")
    annotations["return"] = str
    summary = _one_line(description) or f"Call the {tool} tool."
    doc = summary + "\n"
    if arg_lines:
        doc += "\nArgs:\n" + "\n".join(arg_lines) + "\n"
    doc += "\nReturns:\n    The tool's result as JSON text.\n"
    return ToolSignature(tool, inspect.Signature(params, return_annotation=str), annotations, doc, wire_names)

"""What the API's OpenAPI document is built of, wherever a part of it is written
(web/openapi.py, web/openapi_tables.py, web/openapi_stand.py): parameters, JSON bodies and
answers, and the error answers, which all share one schema."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

JSON = dict[str, Any]


def parameter(name: str, where: str, schema: JSON, description: str | None = None) -> JSON:
    """An operation's parameter ``where`` ("path", "query" or "header"): in the path it is
    always required, anywhere else it may be left out."""
    found: JSON = {"name": name, "in": where, "required": where == "path"}
    if description is not None:
        found["description"] = description
    found["schema"] = schema
    return found


def ref(name: str) -> JSON:
    return {"$ref": f"#/components/schemas/{name}"}


def answer(schema: JSON, description: str) -> JSON:
    """A response holding JSON of ``schema``."""
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def error(description: str) -> JSON:
    """A refusal's response: the one Error schema, and what makes it happen here."""
    return answer(ref("Error"), description)


def errors(texts: Mapping[int, str], *codes: int) -> JSON:
    """The responses for ``codes``, each said in its words from ``texts``."""
    return {str(code): error(texts[code]) for code in codes}


def schema_object(properties: JSON, *required: str) -> JSON:
    """The schema of a JSON object with these properties, ``required`` of them always."""
    schema: JSON = {"type": "object"}
    if required:
        schema["required"] = list(required)
    schema["properties"] = properties
    return schema


def body(schema: JSON, needed: bool = True) -> JSON:
    """A request body holding JSON of ``schema``; ``needed``: a request without it is refused."""
    found: JSON = {"content": {"application/json": {"schema": schema}}}
    if needed:
        found["required"] = True
    return found

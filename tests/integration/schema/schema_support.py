"""Loads docs/schema/*.schema.json and validates a document against one of them.

Works with Debian 12's python3-jsonschema (4.10, RefResolver) and with newer releases (the
`referencing` registry); the schemas refer to each other by their urn:tfwsl:schema:* $id.
"""
import json
import os
import sys

try:
    import jsonschema
except ImportError:  # the caller reports "skipped" (exit 77)
    jsonschema = None

SKIPPED = 77


def require_jsonschema():
    if jsonschema is None:
        print("skipped: the Python module jsonschema is missing (Debian: apt-get install python3-jsonschema)")
        sys.exit(SKIPPED)


def load_schemas(folder):
    """{"doctor": schema, ...} keyed by the file name without .schema.json."""
    schemas = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".schema.json"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                schemas[name[: -len(".schema.json")]] = json.load(f)
    for key, schema in schemas.items():
        jsonschema.Draft202012Validator.check_schema(schema)
        if schema.get("$id") != f"urn:tfwsl:schema:{key}":
            sys.exit(f"{key}.schema.json: $id should be urn:tfwsl:schema:{key}")
    return schemas


def _absolute_refs(node, schema_id):
    """A copy of a schema whose "#..." refs name their schema: "urn:tfwsl:schema:check#/$defs/x"."""
    if isinstance(node, dict):
        return {k: (schema_id + v if k == "$ref" and isinstance(v, str) and v.startswith("#") else
                    _absolute_refs(v, schema_id)) for k, v in node.items()}
    if isinstance(node, list):
        return [_absolute_refs(v, schema_id) for v in node]
    return node


def _validator(schemas, key):
    schema = schemas[key]
    try:
        from referencing import Registry, Resource
    except ImportError:
        # RefResolver joins a "#/..." ref to its scope with urljoin, which leaves a urn: scope out,
        # so a local ref inside another schema (check's "#/$defs/check_id", reached from doctor's)
        # was looked up in the schema being validated. Every local ref is made absolute first.
        absolute = {k: _absolute_refs(s, s["$id"]) for k, s in schemas.items()}
        store = {s["$id"]: s for s in absolute.values()}
        resolver = jsonschema.RefResolver.from_schema(absolute[key], store=store)
        return jsonschema.Draft202012Validator(absolute[key], resolver=resolver)
    registry = Registry().with_resources(
        (s["$id"], Resource.from_contents(s)) for s in schemas.values())
    return jsonschema.Draft202012Validator(schema, registry=registry)


def problems(schemas, key, document):
    """The validation errors of `document` against docs/schema/<key>.schema.json, as lines."""
    errors = sorted(_validator(schemas, key).iter_errors(document), key=lambda e: list(e.absolute_path))
    return [f"/{'/'.join(str(p) for p in e.absolute_path)}: {e.message}" for e in errors]


def schema_key_of(document):
    """docs/schema's file for the document's envelope: tfwsl.doctor -> doctor."""
    name = document.get("schema", {}).get("name", "") if isinstance(document, dict) else ""
    return name[len("tfwsl."):].replace(".", "-") if name.startswith("tfwsl.") else None

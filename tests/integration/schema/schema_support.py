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


def _validator(schemas, key):
    schema = schemas[key]
    try:
        from referencing import Registry, Resource
    except ImportError:
        store = {s["$id"]: s for s in schemas.values()}
        resolver = jsonschema.RefResolver.from_schema(schema, store=store)
        return jsonschema.Draft202012Validator(schema, resolver=resolver)
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

"""What the fleet tests share (tests/integration/fleet): the DSC v3 schemas kept beside this file,
validation of tfwsl's manifests and of every get/test/set/export output against them and against
the resource's own instance schema (offline, as DSC validates: nothing fetched, nothing preloaded),
and an evaluator for Intune custom-compliance rules files."""
import json
import os
import re

try:
    import jsonschema
except ImportError:  # the caller reports "skipped" (exit 77)
    jsonschema = None

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMAS = os.path.join(HERE, "dsc-schemas")
SKIPPED = 77


def dsc_schema(name):
    with open(os.path.join(SCHEMAS, name + ".json"), encoding="utf-8") as f:
        return json.load(f)


class RemoteFetchRefused(Exception):
    """A schema named a definition it does not carry: DSC would refuse it too."""


def _refuse_fetch(uri):
    # DSC compiles schemas with the Rust crate jsonschema built without web fetching (PowerShell/DSC
    # Cargo.toml at 861df432f224d606ba30f4a39f49e40c3ef2b8a2: `jsonschema = { version = "0.49.1",
    # default-features = false }`; used by verify_json_from_manifest in
    # lib/dsc-lib/src/dscresources/command_resource.rs): a `$ref` to anything the schema does not
    # bundle fails there with "resolve-http feature or a custom resolver is required"
    # (PowerShell/DSC#1033). So does it here: nothing is preloaded, nothing is fetched.
    raise RemoteFetchRefused(f"{uri}: not bundled in the schema, and DSC fetches nothing")


def _without_dynamic_refs(node):
    if isinstance(node, dict):
        return {k: _without_dynamic_refs(v) for k, v in node.items() if k != "$dynamicRef"}
    if isinstance(node, list):
        return [_without_dynamic_refs(v) for v in node]
    return node


def validator_for(schema):
    """A draft 2020-12 validator that resolves only what `schema` bundles (and the 2020-12
    meta-schema, which DSC's library has built in); any other reference raises RemoteFetchRefused."""
    try:
        from referencing import Registry  # jsonschema >= 4.18
        return jsonschema.Draft202012Validator(schema, registry=Registry(retrieve=_refuse_fetch))
    except ImportError:  # Debian 12's python3-jsonschema 4.10
        # 4.10 cannot follow "$dynamicRef": "#meta" (the parts that hold a JSON schema, checked
        # against the 2020-12 meta-schema: KeyError 'meta'); with it those parts are left unchecked.
        schema = _without_dynamic_refs(schema)
        store = {"https://json-schema.org/draft/2020-12/schema": {}}  # its own parts use $dynamicRef
        resolver = jsonschema.RefResolver.from_schema(schema, store=store,
                                                      handlers={"http": _refuse_fetch, "https": _refuse_fetch})
        # 4.10 first looks a ref up among the subschemas that hold an "$id", and a property named
        # "$id" (a dict there: DSC's manifest schema has one) broke that walk with TypeError:
        # unhashable type: 'dict'. Its cached list (one dict per resolver) keeps the real ids only.
        found = resolver._get_subschemas_cache()
        found["$id"] = [s for s in found["$id"] if isinstance(s.get("$id"), str)]
        return jsonschema.Draft202012Validator(schema, resolver=resolver)


def compiles_offline(schema):
    """Why `schema` does not compile without fetching (every `$ref` in it followed, as DSC's
    library resolves them all when it compiles), or None."""
    validator = validator_for(schema)
    refs = []

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                refs.append(node["$ref"])
            for key, value in node.items():
                if key not in ("enum", "const", "default", "examples"):
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(schema)
    try:
        resolver = validator._resolver
        for ref in refs:
            resolver.lookup(ref)
    except AttributeError:  # 4.10: RefResolver
        try:
            for ref in refs:
                validator.resolver.resolve(ref)
        except Exception as e:  # noqa: BLE001: any failure to resolve is the finding
            return f"{ref}: {e}"
    except Exception as e:  # noqa: BLE001
        return f"{ref}: {e}"
    return None


def problems(schema, document):
    validator = validator_for(schema)
    return [f"/{'/'.join(str(p) for p in e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]


def output_problems(operation, lines, instance_schema):
    """A get/test/set stdout (JSON lines) against DSC's stdout schema and the instance schema:
    the state first, then (test: stateAndDiff) the differing properties."""
    found = []
    try:
        documents = [json.loads(line) for line in lines if line.strip()]
    except json.JSONDecodeError as e:
        return [f"not JSON lines: {e}"]
    expected = 2 if operation == "test" else 1
    if len(documents) != expected:
        return [f"{operation}: {len(documents)} JSON lines, expected {expected}"]
    stdout = dsc_schema(f"resource.stdout.{operation}")
    for document in documents:
        found += [f"stdout schema: {p}" for p in problems(stdout, document)]
    found += [f"instance schema: {p}" for p in problems(instance_schema, documents[0])]
    if operation == "test" and "_inDesiredState" not in documents[0]:
        found.append("test: the state has no _inDesiredState")
    return found


def compliance_problems(rules, facts):
    """Intune's custom-compliance rules (SettingName, Operator, DataType, Operand) against the
    discovery script's facts: a rule naming an absent setting or of the wrong type is a problem;
    the rules' verdicts are returned by evaluate()."""
    found = []
    types = {"Boolean": bool, "Int64": int, "String": str, "Version": str}
    for rule in rules["Rules"]:
        name = rule["SettingName"]
        if name not in facts:
            found.append(f"{name}: not in the discovery output")
            continue
        kind = types.get(rule["DataType"])
        if kind is None or not isinstance(facts[name], kind) or (kind is int and isinstance(facts[name], bool)):
            found.append(f"{name}: {facts[name]!r} is not {rule['DataType']}")
        if rule["Operator"] not in ("IsEquals", "NotEquals", "GreaterThan", "GreaterEquals", "LessThan", "LessEquals"):
            found.append(f"{name}: operator {rule['Operator']} is not one Intune supports")
        if not any(s.get("Language") == "en_US" for s in rule.get("RemediationStrings", [])):
            found.append(f"{name}: no en_US remediation string")
        if not re.match(r"^https://", rule.get("MoreInfoUrl", "")):
            found.append(f"{name}: MoreInfoUrl is not an https URL")
    return found


def _version(text):
    return tuple(int(p) for p in re.findall(r"\d+", str(text)))


def evaluate(rules, facts):
    """{SettingName: compliant?} as Intune decides it."""
    verdicts = {}
    for rule in rules["Rules"]:
        value, operand = facts.get(rule["SettingName"]), rule["Operand"]
        if rule["DataType"] == "Version":
            value, operand = _version(value), _version(operand)
        op = rule["Operator"]
        verdicts[rule["SettingName"]] = {
            "IsEquals": value == operand, "NotEquals": value != operand,
            "GreaterThan": value > operand, "GreaterEquals": value >= operand,
            "LessThan": value < operand, "LessEquals": value <= operand}[op]
    return verdicts


def tfwsl_command_lines(path):
    """The tfwsl command lines a fleet file runs, as argument lists: an Ansible task's
    `argv: ["{{ tfwsl }}", ...]`, a PowerShell line `& $tfwsl ...`, a manifest's args."""
    text = open(path, encoding="utf-8").read()
    lines = []
    if path.endswith(".ps1"):
        for line in text.splitlines():
            m = re.match(r"^\s*(?:\$\w+\s*=\s*)?&\s+\$tfwsl\s+(.*?)(?:\s*\|.*)?$", line)
            if m:
                lines.append(re.findall(r'"[^"]*"|\S+', m.group(1)))
    elif path.endswith((".yml", ".yaml")):
        import yaml
        for play in yaml.safe_load(text) or []:
            for task in play.get("tasks", []) if isinstance(play, dict) else []:
                for module in ("ansible.windows.win_command", "ansible.builtin.command"):
                    if module in task:
                        lines.append([str(a) for a in task[module]["argv"][1:]])
    return lines

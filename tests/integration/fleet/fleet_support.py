"""What the fleet tests share (tests/integration/fleet): the DSC v3 schemas kept beside this file,
validation of tfwsl's manifests and of every get/test/set output against them and against the
resource's own instance schema, and an evaluator for Intune custom-compliance rules files."""
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


# DSC's schemas are bundled: each definition they refer to is in their $defs under its canonical
# raw.githubusercontent.com id. A resource's instance schema refers to them by the short aka.ms
# address DSC documents (https://aka.ms/dsc/schemas/v3/...), which redirects to the same files: both
# resolve here, offline, to the bundled copies.
DSC_CANONICAL = "https://raw.githubusercontent.com/PowerShell/DSC/main/schemas/v3.1.0/"
DSC_ALIASES = ["https://aka.ms/dsc/schemas/v3/", "https://aka.ms/dsc/schemas/v3.1/", "https://aka.ms/dsc/schemas/v3.1.0/"]


def dsc_definitions():
    found = {}
    for name in os.listdir(SCHEMAS):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(SCHEMAS, name), encoding="utf-8") as f:
            for uri, definition in json.load(f).get("$defs", {}).items():
                if not uri.startswith(DSC_CANONICAL):
                    continue
                found[uri] = definition
                for alias in DSC_ALIASES:
                    found[alias + uri[len(DSC_CANONICAL):]] = definition
    return found


def _without_dynamic_refs(node):
    if isinstance(node, dict):
        return {k: _without_dynamic_refs(v) for k, v in node.items() if k != "$dynamicRef"}
    if isinstance(node, list):
        return [_without_dynamic_refs(v) for v in node]
    return node


def validator_for(schema):
    store = dsc_definitions()
    try:
        from referencing import Registry, Resource  # jsonschema >= 4.18
        from referencing.jsonschema import DRAFT202012
        registry = Registry().with_resources(
            (uri, Resource.from_contents(d, default_specification=DRAFT202012)) for uri, d in store.items())
        return jsonschema.Draft202012Validator(schema, registry=registry)
    except ImportError:  # Debian 12's python3-jsonschema 4.10
        # 4.10 cannot follow "$dynamicRef": "#meta" (the parts that hold a JSON schema, checked
        # against the 2020-12 meta-schema: KeyError 'meta'); with it those parts are left unchecked.
        schema = _without_dynamic_refs(schema)
        store = {uri: _without_dynamic_refs(d) for uri, d in store.items()}
        store["https://json-schema.org/draft/2020-12/schema"] = {}  # its own parts use $dynamicRef
        resolver = jsonschema.RefResolver.from_schema(schema, store=store)
        # 4.10 first looks a ref up among the subschemas that hold an "$id", and a property named
        # "$id" (a dict there: DSC's manifest schema has one) broke that walk with TypeError:
        # unhashable type: 'dict'. Its cached list (one dict per resolver) keeps the real ids only.
        found = resolver._get_subschemas_cache()
        found["$id"] = [s for s in found["$id"] if isinstance(s.get("$id"), str)]
        return jsonschema.Draft202012Validator(schema, resolver=resolver)


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

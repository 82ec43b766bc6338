"""A stand-in for DSC v3's engine as it runs a command resource, taken from DSC's own source
(PowerShell/DSC at commit 861df432f224d606ba30f4a39f49e40c3ef2b8a2), so that tfwsl's resources are
tested as DSC would run them rather than as tfwsl's tests think it does:

- discovery (lib/dsc-lib/src/discovery/command_discovery.rs): every `*.dsc.resource.json` in the
  folders of PATH, read once when the engine starts (configure/mod.rs, the validation before a
  configuration runs: every resource type of the document must be found then, or the whole run
  fails with ResourceNotFound before anything is applied);
- invocation (dscresources/command_resource.rs, run_process_async and invoke_command): the
  executable found on PATH, the manifest's args, the working folder the manifest's; the input on
  stdin only when the manifest says `"input": "stdin"` and there is input, otherwise stdin is
  closed (Stdio::null): `dsc resource get` without input and an export without a filter;
- exit codes (run_process_async): 0 goes on; another code the manifest's `exitCodes` describe
  (a map that is not DSC's default) fails with that description only; any other non-zero code
  fails with the stderr lines DSC did not recognise;
- stderr (log_stderr_line): a JSON line of DSC's tracing shape (timestamp, level, fields.message)
  or an object holding one of the keys error, warn, info, debug, trace is logged at that level
  and dropped from the stderr text; anything else is logged at trace only;
- schemas (verify_json_from_manifest): the input of get (when there is one), test and set, and
  the output of get, test (the first line), set (`"return": "state"`) and each export line are
  validated against the embedded instance schema, compiled with no web fetching;
- operations (invoke_get, invoke_test, invoke_set, invoke_export): test with `stateAndDiff` reads
  the state line then the differing properties; set without `implementsPretest` tests first and
  stops when in the desired state; set then gets the state before (with the desired state as
  input) and runs set; export reads one instance per stdout line, and without an `export` in the
  manifest falls back to get.
"""
import json
import os
import shutil
import subprocess

import fleet_support as fs

TRACE_KEYS = ("error", "warn", "info", "debug", "trace")
DEFAULT_EXIT_CODES = {"0": "Success", "1": "Error"}


class DscError(Exception):
    def __init__(self, kind, message):
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


def discover(path):
    """{type: (manifest, folder)} of every resource manifest in PATH's folders, first one wins."""
    found = {}
    for folder in path.split(os.pathsep):
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith(".dsc.resource.json"):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    manifest = json.load(f)
                found.setdefault(manifest["type"], (manifest, folder))
    return found


def stderr_level(line):
    """(level, message) as DSC logs a resource's stderr line; level "trace" and the line itself
    (kept in the error text) when it is neither of DSC's shapes."""
    try:
        value = json.loads(line)
    except json.JSONDecodeError:
        return "trace", line, True
    if isinstance(value, dict) and {"timestamp", "level", "fields"} <= value.keys() \
            and str(value["level"]) in ("ERROR", "WARN", "INFO", "DEBUG", "TRACE"):
        return value["level"].lower(), value["fields"].get("message", ""), False
    if isinstance(value, dict):
        for key in TRACE_KEYS:
            if key in value:
                return key, value[key] if isinstance(value[key], str) else "", False
    return "trace", line, True


class Engine:
    """One DSC process: discovery happens here, once, from the environment it starts with."""

    def __init__(self, env):
        self.env = dict(env)
        self.resources = discover(self.env.get("PATH", ""))
        self.log = []  # (level, message) as DSC would print them
        self.calls = []  # (args, stdin or None)

    def errors(self):
        return [m for level, m in self.log if level == "error"]

    def resource(self, kind):
        if kind not in self.resources:
            raise DscError("ResourceNotFound", kind)
        return self.resources[kind]

    def invoke(self, kind, operation, text):
        manifest, folder = self.resource(kind)
        spec = manifest[operation]
        args = spec.get("args", [])
        if not all(isinstance(a, str) for a in args):
            raise DscError("Unsupported", f"{kind}: only plain string args are emulated")
        executable = shutil.which(spec["executable"], path=self.env.get("PATH", ""))
        if executable is None:
            raise DscError("CommandOperation", f"{spec['executable']} is not on PATH")
        stdin = text if (text and spec.get("input") == "stdin") else None
        self.calls.append((args, stdin))
        r = subprocess.run([executable] + args, input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL,
                           capture_output=True, text=True, cwd=folder, env=self.env, timeout=600)
        kept = []
        for line in r.stderr.splitlines():
            level, message, keep = stderr_level(line)
            self.log.append((level, message))
            if keep:
                kept.append(line)
        if r.returncode != 0:
            codes = manifest.get("exitCodes") or {}
            if codes and codes != DEFAULT_EXIT_CODES and str(r.returncode) in codes:
                raise DscError("CommandExitFromManifest", f"{executable} exit {r.returncode}: {codes[str(r.returncode)]}")
            raise DscError("Command", f"{executable} exit {r.returncode}: {chr(10).join(kept)}")
        return r.stdout

    def verify(self, kind, text):
        schema = self.resource(kind)[0]["schema"]["embedded"]
        unresolved = fs.compiles_offline(schema)
        if unresolved:
            raise DscError("Schema", f"the instance schema does not compile offline: {unresolved}")
        found = fs.problems(schema, json.loads(text))
        if found:
            raise DscError("Schema", "; ".join(found))

    def get(self, kind, text=""):
        if text:
            self.verify(kind, text)
        out = self.invoke(kind, "get", text)
        self.verify(kind, out)
        return json.loads(out)

    def test(self, kind, text):
        manifest = self.resource(kind)[0]
        if "test" not in manifest:
            raise DscError("Unsupported", "synthetic test is not emulated")
        self.verify(kind, text)
        lines = self.invoke(kind, "test", text).splitlines()
        if manifest["test"].get("return") != "stateAndDiff" or len(lines) < 2:
            raise DscError("Command", f"{kind}: test gave {len(lines)} lines, stateAndDiff needs 2")
        self.verify(kind, lines[0])
        state, diff = json.loads(lines[0]), json.loads(lines[1])
        in_desired = state.get("_inDesiredState")
        return {"actualState": state, "inDesiredState": (not diff) if in_desired is None else in_desired,
                "differingProperties": diff}

    def set(self, kind, text):
        manifest = self.resource(kind)[0]
        self.verify(kind, text)
        if not manifest["set"].get("implementsPretest"):
            tested = self.test(kind, text)
            if tested["inDesiredState"]:
                return {"beforeState": json.loads(text), "afterState": tested["actualState"], "changedProperties": None}
        before = json.loads(self.invoke(kind, "get", text))
        out = self.invoke(kind, "set", text)
        if manifest["set"].get("return") != "state":
            raise DscError("Unsupported", "only set with \"return\": \"state\" is emulated")
        self.verify(kind, out)
        after = json.loads(out)
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        return {"beforeState": before, "afterState": after, "changedProperties": changed}

    def export(self, kind, text=None):
        manifest = self.resource(kind)[0]
        if "export" not in manifest:
            return [self.get(kind, text or "")]
        if text:
            self.verify(kind, text)
        instances = []
        for line in self.invoke(kind, "export", text).splitlines():
            self.verify(kind, line)
            instances.append(json.loads(line))
        return instances

    def config(self, document, operation):
        """`dsc config OPERATION`: every resource type found first (one discovery, at start), then
        each resource in order; {name: result}. Only the operations on resources are emulated."""
        for resource in document["resources"]:
            self.resource(resource["type"])
        results = {}
        for resource in document["resources"]:
            text = json.dumps(resource.get("properties", {}))
            run = {"get": self.get, "test": self.test, "set": self.set}[operation]
            results[resource["name"]] = run(resource["type"], text)
        return results

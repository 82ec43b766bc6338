"""Python side of tfwsl_wsl_session (session_posix.cpp): tfwsl.exe commands under Wine, in a row,
in one stand-in world (the wsl.exe stand-in, the relay, the real tfwsl-agent in a fake distro).

    from wsl_session import WslSession
    s = WslSession(tool, config, work, scenario)   # usually: WslSession.from_args(args)
    r = s.run(["doctor", "--json"])                 # subprocess.CompletedProcess (text)
    s.distro / "proc/meminfo"; s.standin_log(); s.relayed()

Tests get --session-tool and --session-config from CMake (tests/windows/CMakeLists.txt: the
variable TFWSL_WSL_SESSION_ARGS) and pick a scenario folder (tests/wsl_standin/scenarios/healthy
for a sound machine) or a copy they edit.
"""
import os
import pathlib
import shutil
import signal
import subprocess
import tempfile


class WslSession:
    def __init__(self, tool, config, scenario, work=None, program=None):
        self.program = program  # an installed tfwsl.exe to run instead of the world's app/tfwsl.exe
        self.tool = str(tool)
        self.config = str(config)
        self.scenario = str(scenario)
        self._own_work = work is None
        self.work = pathlib.Path(work or tempfile.mkdtemp(prefix="tfwsl-session-"))
        if self._own_work:
            self.work.rmdir()  # the tool builds the world in a folder that does not exist yet

    @staticmethod
    def add_arguments(parser):
        parser.add_argument("--session-tool", required=True)
        parser.add_argument("--session-config", required=True)

    @classmethod
    def from_args(cls, args, scenario, work=None):
        return cls(args.session_tool, args.session_config, scenario, work)

    def command(self, tfwsl_args):
        program = ["--program", str(self.program)] if self.program else []
        return [self.tool, "--config", self.config, "--work", str(self.work), "--scenario", self.scenario, *program,
                "--", *tfwsl_args]

    def run(self, tfwsl_args, input=None, timeout=300, env=None):
        full_env = dict(os.environ, **(env or {}))
        return subprocess.run(self.command(tfwsl_args), input=input, capture_output=True, text=True,
                              timeout=timeout, env=full_env)

    def start(self, tfwsl_args, env=None, **popen):
        """A run in the background (to interrupt it): subprocess.Popen, its own process group."""
        full_env = dict(os.environ, **(env or {}))
        return subprocess.Popen(self.command(tfwsl_args), env=full_env, start_new_session=True, **popen)

    @staticmethod
    def interrupt(process, sig=signal.SIGINT):
        """Ctrl-C to tfwsl.exe (the tool passes SIGINT on to the Wine process)."""
        process.send_signal(sig)

    @property
    def distro(self):
        return self.work / "distro"

    @property
    def app(self):
        return self.work / "app"

    def windows_path(self, linux_path):
        """Wine's view of a Linux path (Z: is the Linux root)."""
        return "Z:" + str(pathlib.Path(linux_path).absolute()).replace("/", "\\")

    def standin_log(self):
        p = self.work / "standin.log"
        return p.read_text(errors="replace") if p.exists() else ""

    def relayed(self):
        p = self.work / "relayed.txt"
        return p.read_text(errors="replace").splitlines() if p.exists() else []

    def close(self):
        if self._own_work:
            shutil.rmtree(self.work, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

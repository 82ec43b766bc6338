"""`tfwsl-agent serve` on 127.0.0.1 for the dataset tests that go through the agent's HTTP API:
a token file, one --root, requests with the bearer token, and jobs followed to their end."""

import http.client
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from dataset_test_support import check


class Agent:
    """`tfwsl-agent serve` with a token file, one --root, on 127.0.0.1:<free port>."""

    def __init__(self, binary, work, root):
        secret_dir = os.path.join(work, "secret")
        os.mkdir(secret_dir, 0o700)
        self.token = secrets.token_hex(32)
        token_file = os.path.join(secret_dir, "token")
        fd = os.open(token_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, self.token.encode() + b"\n")
        os.close(fd)
        self.process = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0", "--token-file", token_file,
                                         "--root", root], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        line = self.process.stdout.readline()
        if not line:  # (not check(): its message would be built, and the wait run, on success too)
            raise AssertionError(f"the agent printed no handshake (exit {self.process.wait()})")
        self.port = json.loads(line)["port"]

    def request(self, method, path, body=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"Host": f"127.0.0.1:{self.port}", "Authorization": f"Bearer {self.token}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        answer = json.loads(response.read() or b"null")
        connection.close()
        return response.status, answer

    def run_job(self, body):
        """POSTs an import; for a 202 waits for the job to end. Returns (status, answer)."""
        status, answer = self.request("POST", "/v1/datasets", body)
        if status != 202:
            return status, answer
        for _ in range(3000):
            status, job = self.request("GET", answer["location"])
            check(status == 200, f"job status: {status} {job}")
            if job["state"] != "running":
                return 202, job
            time.sleep(0.02)
        raise AssertionError(f"the job did not finish: {job}")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def run_with_agent(binary, prefix, cases):
    """A fresh work folder with root/, one agent serving that root, and cases(agent, work, root) run
    against it: PASS and 0, or FAIL with the failed check and 1. The agent is stopped and the work
    folder removed either way."""
    work = os.path.realpath(tempfile.mkdtemp(prefix=prefix, dir=os.environ.get("TMPDIR", "/tmp")))
    root = os.path.join(work, "root")
    os.makedirs(root)
    agent = None
    try:
        agent = Agent(binary, work, root)
        cases(agent, work, root)
        print("PASS")
        return 0
    except AssertionError as failure:
        print(f"FAIL: {failure}", file=sys.stderr)
        return 1
    finally:
        if agent is not None:
            agent.stop()
        shutil.rmtree(work, ignore_errors=True)

"""The app under tauri-driver for the perf scripts: a minimal WebDriver client and a context
manager that starts tauri-driver with the app and yields a ready session. Standard library only."""
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriver:
    """tauri-driver creates the session (it turns "tauri:options" into WebKitWebDriver's
    capabilities); later commands go straight to WebKitWebDriver, because tauri-driver's pooled
    connection to it sometimes fails right after an async script."""

    def __init__(self, port, native_port, binary):
        self.base = f"http://127.0.0.1:{port}"
        caps = {"capabilities": {"alwaysMatch": {"browserName": "wry", "tauri:options": {"application": binary}}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]
        self.base = f"http://127.0.0.1:{native_port}"

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=120) as resp:
            return json.loads(resp.read() or b"{}").get("value")

    def js(self, script, *args, run_async=False):
        kind = "async" if run_async else "sync"
        return self.call("POST", f"/session/{self.session}/execute/{kind}", {"script": script, "args": list(args)})

    def wait_js(self, script, what, timeout=60):
        """Polls `script` until it returns something truthy; that value."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.js(script)
            if value:
                return value
            time.sleep(0.05)
        sys.exit(f"timed out waiting for {what}")

    def close(self):
        try:
            self.call("DELETE", f"/session/{self.session}")
        except OSError:
            pass


def wait_listening(ports, timeout=20):
    deadline = time.monotonic() + timeout
    for p in ports:
        while True:
            try:
                socket.create_connection(("127.0.0.1", p), 0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    sys.exit("tauri-driver or WebKitWebDriver did not start")
                time.sleep(0.05)


@contextlib.contextmanager
def driven_app(binary, home, describe_processes):
    """Yields (WebDriver, tauri-driver's pid) once the app's UI is ready; stops everything after.
    `describe_processes(pid)` names what is left when WebDriver fails."""
    driver_bin = os.path.join(ROOT, ".tools/bin/tauri-driver")
    port, native_port = free_port(), free_port()
    env = dict(os.environ, HEARTH_HOME=home, HEARTH_API_KEY="perf", NO_AT_BRIDGE="1")
    log_path = os.path.join(home, "driver.log")
    with open(log_path, "w") as log:
        driver = subprocess.Popen([driver_bin, "--port", str(port), "--native-port", str(native_port)], env=env,
                                  stdout=log, stderr=log, start_new_session=True)
    print(f"(tauri-driver and app output: {log_path})", file=sys.stderr)
    try:
        # tauri-driver forwards the session to WebKitWebDriver: both must be listening.
        wait_listening((port, native_port))
        wd = WebDriver(port, native_port, binary)
        wd.wait_js("return !!document.querySelector('.app[data-ready=\"true\"]')", "the UI")
        yield wd, driver.pid
        wd.close()
    except OSError as error:
        sys.exit(f"WebDriver failed ({error}); processes left under tauri-driver: "
                 f"{describe_processes(driver.pid)}; see {log_path}")
    finally:
        os.killpg(driver.pid, signal.SIGKILL)
        driver.wait()

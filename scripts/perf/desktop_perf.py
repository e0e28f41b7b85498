#!/usr/bin/python3
"""Measures the real desktop app (figures for the README; not a test): cold start to the UI's
"ready" mark, idle memory (PSS over the app and its WebKit processes) after 60 s hidden in the
tray, and the time to open a 10,000-message chat. Needs a display and a D-Bus session: run it
through scripts/perf/run.sh. Standard library only.

Usage: desktop_perf.py BINARY start|memory|long-chat [--runs N] [--idle-seconds S]
"""
import argparse
import json
import os
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CONFIG = 'default_provider = "scripted"\ndefault_model = "scripted-small"\nlanguage = "en"\n\n' \
    '[[providers]]\nid = "scripted"\nname = "Scripted"\nkind = "openai"\nbase_url = "http://127.0.0.1:9/v1"\n'


def new_home():
    home = tempfile.mkdtemp(prefix="hearth-perf-")
    with open(os.path.join(home, "config.toml"), "w") as f:
        f.write(CONFIG)
    return home


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def tree(root):
    """root and every process below it."""
    parents = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    parents[int(name)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    found = [root]
    for pid in found:
        found.extend(p for p, pp in parents.items() if pp == pid)
    return found


def stop(proc):
    pids = tree(proc.pid)
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    deadline = time.monotonic() + 10
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)


def launch(binary, home, ready_file):
    env = dict(os.environ, HEARTH_HOME=home, HEARTH_API_KEY="perf", HEARTH_READY_FILE=ready_file, NO_AT_BRIDGE="1")
    return subprocess.Popen([binary], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_ready(ready_file, proc, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.path.exists(ready_file) and os.path.getsize(ready_file) > 0:
            with open(ready_file) as f:
                return int(f.read().strip())
        if proc.poll() is not None:
            sys.exit(f"the app exited with {proc.returncode} before it was ready")
        time.sleep(0.002)
    sys.exit("the app did not report ready")


def cmd_start(binary, runs):
    home = new_home()
    inside, outside = [], []
    for _ in range(runs):
        ready = os.path.join(home, "ready")
        if os.path.exists(ready):
            os.remove(ready)
        t0 = time.monotonic()
        proc = launch(binary, home, ready)
        inside.append(wait_ready(ready, proc))
        outside.append(round((time.monotonic() - t0) * 1000))
        stop(proc)
        time.sleep(0.5)
    print(f"start to ready, first run (cold): {outside[0]} ms wall, {inside[0]} ms inside the process")
    if runs > 1:
        print(f"start to ready, warm (median of {runs - 1}): {statistics.median(outside[1:]):.0f} ms wall, "
              f"{statistics.median(inside[1:]):.0f} ms inside the process (all wall: {outside})")


def pss_kb(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return "?"


def main_window(pid):
    out = subprocess.run(["xdotool", "search", "--onlyvisible", "--all", "--pid", str(pid), "--name", "^Hearth$"],
                         capture_output=True, text=True).stdout.split()
    return out[0] if out else None


def cmd_memory(binary, idle_seconds):
    home = new_home()
    ready = os.path.join(home, "ready")
    proc = launch(binary, home, ready)
    wait_ready(ready, proc)
    time.sleep(1)
    window = main_window(proc.pid)
    if window is None:
        sys.exit("no visible Hearth window")
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tests/desktop/close_window.py"), window], check=True)
    time.sleep(1)
    if main_window(proc.pid) is not None:
        sys.exit("the window did not hide")
    time.sleep(idle_seconds)
    parts = [(p, comm(p), pss_kb(p)) for p in tree(proc.pid)]
    total = sum(kb for _, _, kb in parts)
    print(f"idle PSS after {idle_seconds} s hidden: {total / 1024:.1f} MB "
          f"({', '.join(f'{name} {kb / 1024:.1f}' for _, name, kb in parts)})")
    stop(proc)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriver:
    """A minimal WebDriver client. tauri-driver creates the session (it turns "tauri:options" into
    WebKitWebDriver's capabilities); later commands go straight to WebKitWebDriver, because
    tauri-driver's pooled connection to it sometimes fails right after an async script."""

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

    def close(self):
        try:
            self.call("DELETE", f"/session/{self.session}")
        except OSError:
            pass


def fill_chat(db, count):
    """Adds a chat of `count` alternating user/assistant messages (and a small one) to the store."""
    conn = sqlite3.connect(db)
    now = int(time.time() * 1000)
    for sid, title in (("desktop:long", "Ten thousand messages"), ("desktop:short", "Short chat")):
        conn.execute("INSERT INTO sessions (id, title, tool_profile, created_at, updated_at) VALUES (?, ?, 'coding', ?, ?)",
                     (sid, title, now, now))
    rows = []
    for i in range(count):
        role = "user" if i % 2 == 0 else "assistant"
        text = (f"Question {i}: how does step {i} work?" if role == "user" else
                f"Step **{i}** works like this:\n\n- first, read the input\n- then, write `result_{i}`\n")
        rows.append(("desktop:long", role, json.dumps([{"type": "text", "text": text}]), text, text, now + i))
    rows.append(("desktop:short", "user", json.dumps([{"type": "text", "text": "hello"}]), "hello", "hello", now))
    conn.executemany(
        "INSERT INTO messages (session_id, role, kind, content, tool_calls, status, text, words, created_at, updated_at)"
        " VALUES (?1, ?2, 'normal', ?3, '[]', 'complete', ?4, ?5, ?6, ?6)", rows)
    conn.commit()
    last = conn.execute("SELECT max(id) FROM messages WHERE session_id = 'desktop:long'").fetchone()[0]
    conn.close()
    return last


OPEN_AND_WAIT = """
const [sessionId, lastId, done] = arguments;
const t0 = performance.now();
document.querySelector(`li.session[data-session-id="${sessionId}"] .session-open`).click();
function check() {
  const last = document.querySelector(`article.message[data-message-id="${lastId}"]`);
  if (last) {
    const r = last.getBoundingClientRect();
    if (r.height > 0 && r.top < window.innerHeight && r.bottom > 0) {
      requestAnimationFrame(() => done(performance.now() - t0));
      return;
    }
  }
  requestAnimationFrame(check);
}
requestAnimationFrame(check);
"""

LIST_MESSAGES = """
const [sessionId, done] = arguments;
const t0 = performance.now();
window.__TAURI_INTERNALS__.invoke('list_messages', { sessionId }).then(() => done(performance.now() - t0));
"""


def cmd_long_chat(binary, count, runs):
    driver_bin = os.path.join(ROOT, ".tools/bin/tauri-driver")
    home = new_home()
    ready = os.path.join(home, "ready")
    proc = launch(binary, home, ready)  # creates the database with the app's own schema
    wait_ready(ready, proc)
    stop(proc)
    last = fill_chat(os.path.join(home, "hearth.db"), count)
    port, native_port = free_port(), free_port()
    env = dict(os.environ, HEARTH_HOME=home, HEARTH_API_KEY="perf", NO_AT_BRIDGE="1")
    log_path = os.path.join(home, "driver.log")
    log = open(log_path, "w")
    driver = subprocess.Popen([driver_bin, "--port", str(port), "--native-port", str(native_port)], env=env,
                              stdout=log, stderr=log, start_new_session=True)
    print(f"(tauri-driver and app output: {log_path})", file=sys.stderr)
    try:
        # tauri-driver forwards the session to WebKitWebDriver: both must be listening.
        deadline = time.monotonic() + 20
        for p in (port, native_port):
            while True:
                try:
                    socket.create_connection(("127.0.0.1", p), 0.2).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        sys.exit("tauri-driver or WebKitWebDriver did not start")
                    time.sleep(0.05)
        wd = WebDriver(port, native_port, binary)
        while not wd.js("return !!document.querySelector('.app[data-ready=\"true\"] li.session')"):
            time.sleep(0.05)
        times, rendered = [], 0
        for _ in range(runs):
            times.append(wd.js(OPEN_AND_WAIT, "desktop:long", last, run_async=True))
            rendered = wd.js("return document.querySelectorAll('article.message').length")
            wd.js(OPEN_AND_WAIT, "desktop:short", last + 1, run_async=True)
        ipc = [wd.js(LIST_MESSAGES, "desktop:long", run_async=True) for _ in range(3)]
        print(f"open a {count}-message chat until its last message is on screen: first {times[0]:.0f} ms, "
              f"again {statistics.median(times[1:]) if len(times) > 1 else times[0]:.0f} ms "
              f"(median of {max(1, len(times) - 1)}); {rendered} message rows in the DOM; "
              f"the list_messages call alone: {statistics.median(ipc):.0f} ms")
        wd.close()
    except OSError as error:
        alive_now = ", ".join(f"{comm(p)}:{p}" for p in tree(driver.pid))
        sys.exit(f"WebDriver failed ({error}); processes left under tauri-driver: {alive_now}; see {log_path}")
    finally:
        os.killpg(driver.pid, signal.SIGKILL)
        driver.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("what", choices=["start", "memory", "long-chat"])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--idle-seconds", type=int, default=60)
    parser.add_argument("--messages", type=int, default=10_000)
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    if args.what == "start":
        cmd_start(binary, args.runs)
    elif args.what == "memory":
        cmd_memory(binary, args.idle_seconds)
    else:
        cmd_long_chat(binary, args.messages, args.runs)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Measures the real desktop app (figures for the README; not a test): cold start to the UI's
"ready" mark, idle memory (PSS over the app and its WebKit processes) after 60 s hidden in the
tray, the time to open a 10,000-message chat, and the main-thread cost per token while a reply
streams at 500 tokens/s. Needs a display and a D-Bus session: run it through
scripts/perf/run.sh. Standard library only.

Usage: desktop_perf.py BINARY start|memory|long-chat|stream [--runs N] [--idle-seconds S]
       [--messages N] [--tokens N] [--rate R]
"""
import argparse
import json
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

import procs
import streaming
from webdriver import ROOT, driven_app

NOWHERE = "http://127.0.0.1:9/v1"


def new_home(base_url=NOWHERE):
    home = tempfile.mkdtemp(prefix="hearth-perf-")
    with open(os.path.join(home, "config.toml"), "w") as f:
        f.write('default_provider = "scripted"\ndefault_model = "scripted-small"\nlanguage = "en"\n'
                # The perf session has no tray host: closing keeps the app in the background as a
                # user who answered so would have it.
                'close_without_tray = "background"\n\n'
                '[[providers]]\nid = "scripted"\nname = "Scripted"\nkind = "openai"\n'
                f'base_url = "{base_url}"\n')
    return home


def stop(proc):
    pids = procs.tree(proc.pid)
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    deadline = time.monotonic() + 10
    while any(procs.alive(p) for p in pids) and time.monotonic() < deadline:
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
    parts = [(p, procs.comm(p), procs.pss_kb(p)) for p in procs.tree(proc.pid)]
    total = sum(kb for _, _, kb in parts)
    print(f"idle PSS after {idle_seconds} s hidden: {total / 1024:.1f} MB "
          f"({', '.join(f'{name} {kb / 1024:.1f}' for _, name, kb in parts)})")
    # Opened again as a user does from the menu: a second launch hands over to the running app,
    # which builds its window again (reading back what it gave up while idle).
    os.remove(ready)
    started = time.monotonic()
    second = launch(binary, home, os.path.join(home, "second-ready"))
    wait_ready(ready, proc)
    print(f"window open again after the idle time: {(time.monotonic() - started) * 1000:.0f} ms "
          f"(second launch to the rebuilt UI's ready)")
    second.wait(timeout=30)
    stop(proc)


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

NEWEST_PAGE = """
const [sessionId, done] = arguments;
const t0 = performance.now();
window.__TAURI_INTERNALS__.invoke('list_message_page', { sessionId, before: null, through: null, limit: 40 })
  .then(() => done(performance.now() - t0));
"""


def cmd_long_chat(binary, count, runs):
    home = new_home()
    ready = os.path.join(home, "ready")
    proc = launch(binary, home, ready)  # creates the database with the app's own schema
    wait_ready(ready, proc)
    stop(proc)
    last = fill_chat(os.path.join(home, "hearth.db"), count)
    with driven_app(binary, home, procs.describe) as (wd, _):
        wd.wait_js("return !!document.querySelector('li.session')", "the chat list")
        times, rendered = [], 0
        for _ in range(runs):
            times.append(wd.js(OPEN_AND_WAIT, "desktop:long", last, run_async=True))
            rendered = wd.js("return document.querySelectorAll('article.message').length")
            wd.js(OPEN_AND_WAIT, "desktop:short", last + 1, run_async=True)
        ipc = [wd.js(NEWEST_PAGE, "desktop:long", run_async=True) for _ in range(3)]
        print(f"open a {count}-message chat until its last message is on screen: first {times[0]:.0f} ms, "
              f"again {statistics.median(times[1:]) if len(times) > 1 else times[0]:.0f} ms "
              f"(median of {max(1, len(times) - 1)}); {rendered} message rows in the DOM; "
              f"the list_message_page call for the newest 40 alone: {statistics.median(ipc):.1f} ms")


def cmd_stream(binary, count, rate):
    stream = streaming.TokenStream(streaming.markdown_tokens(count), rate)
    try:
        with driven_app(binary, new_home(stream.base_url), procs.describe) as (wd, driver_pid):
            streaming.measure(wd, driver_pid, stream)
    finally:
        stream.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("what", choices=["start", "memory", "long-chat", "stream"])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--idle-seconds", type=int, default=60)
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--tokens", type=int, default=5_000)
    parser.add_argument("--rate", type=int, default=500, help="tokens per second")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    if args.what == "start":
        cmd_start(binary, args.runs)
    elif args.what == "memory":
        cmd_memory(binary, args.idle_seconds)
    elif args.what == "long-chat":
        cmd_long_chat(binary, args.messages, args.runs)
    else:
        cmd_stream(binary, args.tokens, args.rate)


if __name__ == "__main__":
    main()

"""Main-thread cost per streamed token in the app: an OpenAI-compatible server on 127.0.0.1
streams a long Markdown reply at a fixed token rate; the CPU time of the app's main thread and of
the WebKit web process's main thread (where the UI's script, layout and painting run) is read
from /proc over the stream, minus the same threads' idle CPU over an equally long quiet window.
Frame gaps seen by requestAnimationFrame during the stream tell whether the UI stayed smooth.
Standard library only."""
import http.server
import json
import statistics
import threading
import time

import procs

WORDS = ("the engine streams each token into the reply while the window renders the growing "
         "block of markdown and keeps every earlier block as it was").split()


def markdown_tokens(count):
    """`count` tokens (words and punctuation, ~4 characters each) of mixed Markdown: paragraphs,
    bullet lists, fenced code and a table, in blocks of ~60 tokens."""
    tokens = []
    block = 0
    while len(tokens) < count:
        kind = block % 4
        if kind == 0:
            tokens += [f"{WORDS[(block + i) % len(WORDS)]} " for i in range(56)] + [".\n\n"]
        elif kind == 1:
            for item in range(6):
                tokens += ["- ", "**item", f" {item}**", " "] + [f"{w} " for w in WORDS[item:item + 5]] + ["\n"]
            tokens.append("\n")
        elif kind == 2:
            tokens.append("```rust\n")
            for line in range(8):
                tokens += ["let ", f"x{line}", " = ", "compute", "(", f"{line}", ");", "\n"]
            tokens.append("```\n\n")
        else:
            tokens += ["| step ", "| cost ", "|\n", "| --- ", "| --- ", "|\n"]
            for row in range(6):
                tokens += ["| ", f"step {row} ", "| ", f"{row * 3} ms ", "|\n"]
            tokens.append("\n")
        block += 1
    return tokens[:count]


class TokenStream:
    """Serves every chat-completions request with the same paced stream; records when the first
    and the last token went out."""

    def __init__(self, tokens, rate):
        self.tokens, self.rate = tokens, rate
        self.first_sent = threading.Event()
        self.all_sent = threading.Event()
        stream = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *_):
                pass

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                stream.serve(self.wfile)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def serve(self, out):
        def event(delta, finish=None):
            chunk = {"id": "perf", "object": "chat.completion.chunk", "created": 0, "model": "perf",
                     "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
            out.write(f"data: {json.dumps(chunk)}\n\n".encode())
            out.flush()

        start = time.monotonic()
        event({"role": "assistant", "content": ""})
        for i, token in enumerate(self.tokens):
            # Paced against the start, so a late write is followed by an early one.
            delay = start + i / self.rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            event({"content": token})
            if i == 0:
                self.first_sent.set()
        self.all_sent.set()
        event({}, "stop")
        out.write(b"data: [DONE]\n\n")
        out.flush()

    def close(self):
        self.server.shutdown()


FRAME_PROBE = """
window.__frames = [];
let last = performance.now();
function frame(now) { window.__frames.push(now - last); last = now; requestAnimationFrame(frame); }
requestAnimationFrame(frame);
"""

NEW_CHAT_AND_SEND = """
const [text, done] = arguments;
const until = async (find) => { for (;;) { const e = find(); if (e) return e; await new Promise((r) => setTimeout(r, 50)); } };
(async () => {
  const before = document.querySelectorAll('li.session').length;
  document.querySelector('.sidebar-top button.primary').click();
  await until(() => document.querySelectorAll('li.session').length > before);
  const box = await until(() => document.querySelector('.composer textarea'));
  box.value = text;
  box.dispatchEvent(new Event('input', { bubbles: true }));
  const send = await until(() => { const b = document.querySelector('.composer button.send'); return b && !b.disabled && b; });
  send.click();
})().then(() => done(true), (e) => done(String(e)));
"""


def main_threads(driver_pid):
    """(app pid, web process pid): the main thread of each has the process's own id."""
    app = web = None
    for pid in procs.tree(driver_pid):
        name = procs.comm(pid)
        if name == "hearth":
            app = pid
        elif name.startswith("WebKitWebProc"):
            web = pid
    return app, web


def cpu(app, web):
    return {"app main": procs.cpu_seconds(app, app), "web main": procs.cpu_seconds(web, web),
            "app all": procs.cpu_seconds(app), "web all": procs.cpu_seconds(web)}


FINISHED_REPLY = ("const r = document.querySelector('article.message.assistant[data-status=\"complete\"] .markdown');"
                  "return r && r.innerText.length")


def measure(wd, driver_pid, stream, idle_seconds=10):
    """Runs one streamed turn; prints the main threads' CPU per token (from the first token sent
    until the finished reply is on screen, less their idle rate), how far the UI lagged behind the
    stream, and frame gaps."""
    app, web = main_threads(driver_pid)
    if not (app and web):
        raise SystemExit(f"no app or web process under tauri-driver: {procs.describe(driver_pid)}")
    count, rate = len(stream.tokens), stream.rate
    wd.js(FRAME_PROBE)
    # Idle rate: the same threads while nothing happens (the frame probe runs in both).
    before = cpu(app, web)
    time.sleep(idle_seconds)
    idle_rate = {k: (v - before[k]) / idle_seconds for k, v in cpu(app, web).items()}
    sent = wd.js(NEW_CHAT_AND_SEND, "Stream a long answer, please.", run_async=True)
    if sent is not True:
        raise SystemExit(f"could not send the message: {sent}")
    if not stream.first_sent.wait(60):
        raise SystemExit("the app never asked the model")
    start, t0 = cpu(app, web), time.monotonic()
    wd.js("window.__frames.length = 0;")
    stream.all_sent.wait(count / rate * 4 + 60)
    t_sent = time.monotonic()
    # Polled sparingly: each poll is a script on the very thread being measured.
    rendered = None
    while not rendered and time.monotonic() - t_sent < 600:
        time.sleep(0.25)
        rendered = wd.js(FINISHED_REPLY)
    if not rendered:
        raise SystemExit("the reply never finished on screen")
    t_done = time.monotonic()
    busy = {k: v - start[k] - idle_rate[k] * (t_done - t0) for k, v in cpu(app, web).items()}
    frames = sorted(wd.js("return window.__frames.slice()") or [0])
    per_token = {k: v * 1000 / count for k, v in busy.items()}
    print(f"streaming {count} tokens at {rate}/s ({(t_sent - t0):.1f} s to send, the finished reply of "
          f"{rendered} characters on screen {(t_done - t_sent) * 1000:.0f} ms (±250) after the last token): "
          f"main-thread CPU per token {per_token['web main'] + per_token['app main']:.3f} ms "
          f"(web process main thread {per_token['web main']:.3f} ms, app main thread {per_token['app main']:.3f} ms; "
          f"whole processes {per_token['web all'] + per_token['app all']:.3f} ms), idle rate subtracted "
          f"(web main {idle_rate['web main'] * 1000:.0f} ms/s, app main {idle_rate['app main'] * 1000:.0f} ms/s); "
          f"frame gaps while streaming p50 {statistics.median(frames):.1f} ms, "
          f"p95 {frames[int(len(frames) * 0.95)]:.1f} ms, max {frames[-1]:.1f} ms over {len(frames)} frames")

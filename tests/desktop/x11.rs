//! The X11 side of the desktop suite (a bare Xvfb, no window manager): finding the app's window,
//! asking it to close like a window manager would, dragging a file onto it with a GTK drag
//! source moved by xdotool, and pasting an image a GTK process holds on the clipboard.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::Duration;

use super::env::{Tools, PYTHON};

fn xdotool(args: &[&str]) -> (bool, String) {
    let out = Command::new("xdotool")
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run xdotool: {e}"));
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// X window ids of the process's top-level windows titled `title`; only mapped ones when
/// `visible_only`.
pub fn windows(pid: u32, title: &str, visible_only: bool) -> Vec<String> {
    let pattern = format!("^{title}$");
    let pid = pid.to_string();
    let mut args = vec!["search", "--all", "--pid", &pid, "--name", &pattern];
    if visible_only {
        args.insert(1, "--onlyvisible");
    }
    // xdotool exits 1 when nothing matches: that is an empty answer, not an error.
    let (_, out) = xdotool(&args);
    out.lines().map(str::to_string).collect()
}

/// Sends WM_DELETE_WINDOW to `window`, as a window manager's close button does.
pub fn request_close(tools: &Tools, window: &str) {
    let status = Command::new(PYTHON)
        .arg(tools.script("close_window.py"))
        .arg(window)
        .status()
        .unwrap();
    assert!(status.success(), "close_window.py {window} failed");
}

/// A GTK window offering `file` as a drag source, placed at (x, y).
pub struct DragSource {
    child: Child,
    lines: BufReader<ChildStdout>,
    pub x: i32,
    pub y: i32,
}

impl DragSource {
    pub fn start(tools: &Tools, file: &Path, x: i32, y: i32) -> DragSource {
        let mut child = Command::new(PYTHON)
            .arg(tools.script("drag_source.py"))
            .arg(file)
            .args([x.to_string(), y.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap());
        let mut source = DragSource { child, lines, x, y };
        assert_eq!(
            source.next_line(),
            "ready",
            "the drag source window did not show"
        );
        source
    }

    fn next_line(&mut self) -> String {
        let mut line = String::new();
        let _ = self.lines.read_line(&mut line);
        line.trim().to_string()
    }

    /// Presses the mouse on the source, moves in steps to (x, y) and releases there; returns
    /// once GTK reports the drag finished.
    pub fn drag_to(&mut self, x: i32, y: i32) {
        let (sx, sy) = (self.x + 40, self.y + 40);
        let step = |cx: i32, cy: i32| {
            xdotool(&["mousemove", &cx.to_string(), &cy.to_string()]);
            std::thread::sleep(Duration::from_millis(60));
        };
        step(sx, sy);
        xdotool(&["mousedown", "1"]);
        std::thread::sleep(Duration::from_millis(150));
        for i in 1..=12 {
            step(sx + (x - sx) * i / 12, sy + (y - sy) * i / 12);
        }
        // A few small moves over the target so it sees XdndPosition before the drop.
        step(x + 2, y + 2);
        step(x, y);
        std::thread::sleep(Duration::from_millis(300));
        xdotool(&["mouseup", "1"]);
        assert_eq!(self.next_line(), "dropped", "the drag did not end");
    }
}

impl Drop for DragSource {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A process owning an image on the X clipboard (`clipboard_image.py`), like a screenshot tool.
pub struct ClipboardImage {
    child: Child,
}

impl ClipboardImage {
    pub fn start(tools: &Tools) -> ClipboardImage {
        let mut child = Command::new(PYTHON)
            .arg(tools.script("clipboard_image.py"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        let _ = lines.read_line(&mut line);
        assert_eq!(line.trim(), "ready", "the clipboard owner did not start");
        ClipboardImage { child }
    }
}

impl Drop for ClipboardImage {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Gives `window` the keyboard focus and presses `keys` there (`ctrl+v`), as a person would.
pub fn press_in(window: &str, keys: &str) {
    let (focused, out) = xdotool(&["windowfocus", "--sync", window]);
    assert!(focused, "cannot focus window {window}: {out}");
    let (pressed, out) = xdotool(&["key", "--clearmodifiers", keys]);
    assert!(pressed, "xdotool key {keys}: {out}");
}

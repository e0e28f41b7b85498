#!/usr/bin/python3
"""A fake org.freedesktop.Notifications server for the desktop end-to-end tests.

Owns the name on the session bus, answers like a notification daemon, and appends every Notify
call to the file given as the first argument as one JSON line (id, app_name, summary, body,
actions, hints' keys, timeout). Prints "ready" once the name is owned; exits 2 if another server
owns it. A line "invoke ID ACTION" on stdin emits ActionInvoked(ID, ACTION) to the connection that
sent notification ID, as a click does (GNOME Shell signals only that connection); an unknown ID
is signalled to the whole bus. Exits when its stdin closes (the test process ended), so it never
outlives the suite.
"""
import json
import os
import signal
import sys

from gi.repository import Gio, GLib

XML = """
<node>
  <interface name="org.freedesktop.Notifications">
    <method name="Notify">
      <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
      <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
      <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/>
      <arg type="u" direction="out"/>
    </method>
    <method name="CloseNotification"><arg type="u" direction="in"/></method>
    <method name="GetCapabilities"><arg type="as" direction="out"/></method>
    <method name="GetServerInformation">
      <arg type="s" direction="out"/><arg type="s" direction="out"/>
      <arg type="s" direction="out"/><arg type="s" direction="out"/>
    </method>
    <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
    <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
  </interface>
</node>
"""

log_path = sys.argv[1]
loop = GLib.MainLoop()
next_id = [0]
senders = {}
bus = []


def on_call(conn, sender, path, iface, method, params, invocation):
    if method == "Notify":
        app, replaces, _icon, summary, body, actions, hints, timeout = params.unpack()
        next_id[0] += 1
        senders[next_id[0]] = sender
        record = {
            "id": next_id[0],
            "app_name": app,
            "replaces_id": replaces,
            "summary": summary,
            "body": body,
            "actions": actions,
            "hints": sorted(hints.keys()),
            "timeout": timeout,
        }
        with open(log_path, "a", encoding="utf-8") as log:
            log.write(json.dumps(record) + "\n")
        invocation.return_value(GLib.Variant("(u)", (next_id[0],)))
    elif method == "CloseNotification":
        invocation.return_value(None)
    elif method == "GetCapabilities":
        invocation.return_value(GLib.Variant("(as)", (["body", "actions"],)))
    elif method == "GetServerInformation":
        invocation.return_value(GLib.Variant("(ssss)", ("hearth-fake", "hearth", "1", "1.2")))


def on_bus(conn, _name):
    bus.append(conn)
    info = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
    conn.register_object("/org/freedesktop/Notifications", info, on_call, None, None)


def on_name(_conn, _name):
    print("ready", flush=True)


def on_lost(_conn, _name):
    print("org.freedesktop.Notifications is owned by another server", file=sys.stderr, flush=True)
    os._exit(2)


Gio.bus_own_name(
    Gio.BusType.SESSION,
    "org.freedesktop.Notifications",
    Gio.BusNameOwnerFlags.DO_NOT_QUEUE,
    on_bus,
    on_name,
    on_lost,
)


def invoke(line):
    words = line.split()
    if len(words) == 3 and words[0] == "invoke" and words[1].isdigit() and bus:
        nid = int(words[1])
        signal_args = GLib.Variant("(us)", (nid, words[2]))
        bus[0].emit_signal(senders.get(nid), "/org/freedesktop/Notifications",
                           "org.freedesktop.Notifications", "ActionInvoked", signal_args)
        bus[0].flush_sync(None)
    else:
        print(f"fake notifications: ignored {line!r}", file=sys.stderr, flush=True)


pending = [b""]


def on_stdin(_channel, _condition):
    chunk = os.read(sys.stdin.fileno(), 4096)
    if not chunk:
        loop.quit()
        return False
    pending[0] += chunk
    while b"\n" in pending[0]:
        line, pending[0] = pending[0].split(b"\n", 1)
        invoke(line.decode("utf-8", "replace"))
    return True


GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, on_stdin)
loop.run()

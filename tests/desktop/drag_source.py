#!/usr/bin/python3
"""A GTK drag source for the desktop end-to-end tests: a small undecorated window at X,Y that
offers one file (as a text/uri-list) when dragged, like a file manager would.

Usage: drag_source.py FILE X Y. Prints "ready" once the window is on screen and "dropped" when
the drag ends; exits when its stdin closes.
"""
import signal
import sys

import gi

gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, GLib, Gio, Gtk  # noqa: E402

path, x, y = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
uri = Gio.File.new_for_path(path).get_uri()

window = Gtk.Window(type=Gtk.WindowType.POPUP, title="hearth-e2e-drag-source")
window.move(x, y)
window.set_default_size(140, 100)
source = Gtk.EventBox()
source.add(Gtk.Label(label="drag me"))
window.add(source)

source.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY)
source.drag_source_add_uri_targets()


def on_data_get(_widget, _context, data, _info, _time):
    data.set_uris([uri])


def on_drag_end(_widget, _context):
    print("dropped", flush=True)


def on_map(_widget, _event):
    print("ready", flush=True)


source.connect("drag-data-get", on_data_get)
source.connect("drag-end", on_drag_end)
window.connect("map-event", on_map)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, Gtk.main_quit)
GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, lambda *_: Gtk.main_quit() or False)
window.show_all()
Gtk.main()

#!/usr/bin/python3
"""An image on the X clipboard for the desktop end-to-end tests, as a screenshot tool leaves it:
a 16×16 red picture owned by this process.

Usage: clipboard_image.py. Prints "ready" once it owns the clipboard; exits when its stdin
closes.
"""
import signal
import sys

import gi

gi.require_version("Gdk", "3.0")
gi.require_version("GdkPixbuf", "2.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, GdkPixbuf, GLib, Gtk  # noqa: E402

picture = GdkPixbuf.Pixbuf.new(GdkPixbuf.Colorspace.RGB, False, 8, 16, 16)
picture.fill(0xFF0000FF)
clipboard = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
clipboard.set_image(picture)


def on_stdin(_source, _condition):
    Gtk.main_quit()
    return False


GLib.io_add_watch(sys.stdin, GLib.IO_HUP | GLib.IO_IN, on_stdin)
signal.signal(signal.SIGTERM, lambda *_: Gtk.main_quit())
print("ready", flush=True)
Gtk.main()

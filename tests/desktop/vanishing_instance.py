#!/usr/bin/python3
"""Plays a Hearth instance that quits during the single-instance handshake: owns Hearth's
single-instance D-Bus name and, when a new launch calls it to hand over its arguments, exits
without replying (as an instance that is shutting down does).

Prints "ready" once the name is owned and "called" when the call arrives; exits when its stdin
closes.
"""
import os
import sys

from gi.repository import Gio, GLib

NAME = "dev.hearth.desktop.SingleInstance"
PATH = "/dev/hearth/desktop/SingleInstance"
XML = """
<node>
  <interface name="org.SingleInstance.DBus">
    <method name="ExecuteCallback">
      <arg type="as" direction="in"/><arg type="s" direction="in"/>
    </method>
  </interface>
</node>
"""

loop = GLib.MainLoop()


def on_call(_conn, _sender, _path, _iface, _method, _params, _invocation):
    print("called", flush=True)
    os._exit(0)


def on_bus(conn, _name):
    info = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
    conn.register_object(PATH, info, on_call, None, None)


def on_name(_conn, _name):
    print("ready", flush=True)


def on_lost(_conn, _name):
    print(f"{NAME} is owned by someone else", file=sys.stderr, flush=True)
    os._exit(2)


Gio.bus_own_name(Gio.BusType.SESSION, NAME, Gio.BusNameOwnerFlags.DO_NOT_QUEUE, on_bus, on_name, on_lost)
GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT,
                  GLib.IO_IN | GLib.IO_HUP, lambda *_: loop.quit() or False)
loop.run()

"""Tries to reach the network."""
import socket


def square(x):
    return x * x


def connect(host, port):
    with socket.create_connection((host, port), timeout=1):
        return "connected"


def interfaces():
    with open("/proc/net/dev") as handle:
        return sorted(line.split(":")[0].strip() for line in handle.readlines()[2:])

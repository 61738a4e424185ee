"""Tries to multiply: fork, threads, subprocesses and exec."""
import os
import subprocess
import threading


def square(x):
    return x * x


def fork_bomb():
    while True:
        os.fork()


def spawn_sleeper():
    return subprocess.Popen(["sleep", "30"]).pid


def start_thread():
    threading.Thread(target=lambda: None).start()


def replace_process():
    os.execv("/bin/sh", ["sh", "-c", "sleep 30"])

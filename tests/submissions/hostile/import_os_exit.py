import os

os._exit(5)

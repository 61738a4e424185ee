"""``wheel.from_installed``: an installed distribution made a wheel again, for a wheelhouse that needs no index."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import subprocess
import sys
import zipfile

import pytest

from grader.errors import UsageError
from grader.publishing import wheel
from tests import wheelhouse

INFO = "dice_demo-1.0.dist-info"


def installed(site, **extra: str):
    """``dice-demo`` 1.0 as pip leaves it in ``site``: a module, its byte code, a shared object, a script in
    bin/, and the .dist-info with what the installer wrote for itself (``extra``: more .dist-info files)."""
    files = {"dice_demo/__init__.py": b"SIDES = 6\n", "dice_demo/__pycache__/__init__.cpython-311.pyc": b"\0byte code",
             "dice_demo/_roll.so": b"\x7fELF a shared object",
             f"{INFO}/METADATA": b"Metadata-Version: 2.1\nName: dice-demo\nVersion: 1.0\n",
             f"{INFO}/WHEEL": b"Wheel-Version: 1.0\nGenerator: bdist_wheel\nRoot-Is-Purelib: false\n"
                              b"Tag: cp311-cp311-manylinux_2_17_x86_64\nTag: cp311-cp311-manylinux2014_x86_64\n",
             f"{INFO}/entry_points.txt": b"[console_scripts]\nroll = dice_demo:roll\n",
             f"{INFO}/INSTALLER": b"pip\n", f"{INFO}/REQUESTED": b"",
             **{f"{INFO}/{name}": text.encode() for name, text in extra.items()}}
    for path, data in files.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_bytes(data)
    (site / "dice_demo" / "_roll.so").chmod(0o755)
    record = [f"{path},sha256=stale,{len(data)}" for path, data in files.items()]
    (site / INFO / "RECORD").write_text("\n".join(record + ["../../../bin/roll,,", f"{INFO}/RECORD,,"]) + "\n")
    return files


@pytest.fixture
def site(tmp_path, monkeypatch):
    folder = tmp_path / "site-packages"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    return folder


def test_an_installed_distribution_becomes_a_wheel_of_its_files_with_its_tags_and_a_fresh_record(site):
    files = installed(site)
    repacked = wheel.from_installed("dice-demo")
    assert repacked.name == "dice_demo-1.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
    assert repacked.dropped == ("../../../bin/roll",)        # pip makes `roll` again from entry_points.txt
    with zipfile.ZipFile(io.BytesIO(repacked.data)) as archive:
        names = archive.namelist()
        assert names == ["dice_demo/__init__.py", "dice_demo/_roll.so", f"{INFO}/METADATA", f"{INFO}/WHEEL",
                         f"{INFO}/entry_points.txt", f"{INFO}/RECORD"]     # no byte code, no INSTALLER
        assert archive.getinfo("dice_demo/_roll.so").external_attr >> 16 & 0o777 == 0o755
        record = archive.read(f"{INFO}/RECORD").decode().splitlines()
        for line, name in zip(record, names):
            path, digest, size = line.rsplit(",", 2)
            assert path == name
            if name.endswith("RECORD"):
                assert (digest, size) == ("", "")
                continue
            data = archive.read(name)
            assert data == files[name] and int(size) == len(data)
            assert digest == "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def test_a_wheel_made_twice_is_the_same_and_stored_it_is_the_same_files(site):
    installed(site)
    deflated, stored = wheel.from_installed("dice-demo"), wheel.from_installed("dice-demo", compress=False)
    assert deflated == wheel.from_installed("dice-demo")
    with zipfile.ZipFile(io.BytesIO(deflated.data)) as one, zipfile.ZipFile(io.BytesIO(stored.data)) as other:
        assert {info.compress_type for info in other.infolist()} == {zipfile.ZIP_STORED}
        assert [(name, one.read(name)) for name in one.namelist()] == \
            [(name, other.read(name)) for name in other.namelist()]


@pytest.mark.parametrize("extra, removed, message", [
    pytest.param(None, None, "no-such-dice is not installed here (pip install no-such-dice)", id="not installed"),
    pytest.param({"direct_url.json": json.dumps({"url": "file:///src/dice", "dir_info": {"editable": True}})}, None,
                 "dice-demo is installed in editable mode (its files are its checkout's): install it from a wheel "
                 "('pip install dice-demo') to repack it", id="editable"),
    pytest.param({}, f"{INFO}/RECORD", "dice-demo was not installed from a wheel (its .dist-info has no WHEEL with "
                 "tags or no RECORD): reinstall it with 'pip install --force-reinstall dice-demo'", id="no RECORD"),
    pytest.param({}, "dice_demo/_roll.so", "dice-demo's installation is incomplete ({site}/dice_demo/_roll.so: No "
                 "such file or directory): reinstall it with 'pip install --force-reinstall dice-demo'",
                 id="a file gone"),
])
def test_a_distribution_that_cannot_be_repacked_is_refused_with_the_fix(site, extra, removed, message):
    if extra is not None:
        installed(site, **extra)
    if removed:
        (site / removed).unlink()
    with pytest.raises(UsageError) as raised:
        wheel.from_installed("no-such-dice" if extra is None else "dice-demo")
    assert str(raised.value) == message.format(site=site)


@pytest.mark.slow
def test_pip_installs_the_wheel_from_a_folder_with_no_index(site, tmp_path):
    installed(site)
    repacked = wheel.from_installed("dice-demo", compress=False)
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / repacked.name).write_bytes(repacked.data)
    target = tmp_path / "target"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                           "--no-cache-dir", "--no-index", "--find-links", str(tmp_path / "house"), "--target", str(target),
                           "--platform", "manylinux2014_x86_64", "--only-binary", ":all:", "--python-version", "3.11",
                           "--implementation", "cp", "--abi", "cp311", "dice-demo"],
                          capture_output=True, text=True, timeout=300, env={"PIP_CONFIG_FILE": os.devnull,
                                                                            "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert (target / "dice_demo" / "__init__.py").read_bytes() == b"SIDES = 6\n"
    assert (target / INFO / "INSTALLER").read_text() == "pip\n"


def test_the_wheelhouse_of_the_bundle_tests_holds_what_the_kit_needs_to_run_and_not_its_extras():
    needed = wheelhouse.requirements()
    assert {"jinja2", "markupsafe", "pyyaml", "numpy", "scipy", "numba", "llvmlite"} <= set(needed)
    assert not {"pytest", "playwright", "distributed", "hog-kit"} & set(needed)


def test_the_kits_wheel_names_its_requirements_even_beside_a_build_of_the_checkout(tmp_path, monkeypatch):
    """A build in the checkout leaves hog_kit.egg-info there (its PKG-INFO without requirements); the
    kit's wheel for the bundle still requires what the kit needs, or the bundle's venv would lack them."""
    egg = tmp_path / "hog_kit.egg-info"
    egg.mkdir()
    (egg / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: hog-kit\nVersion: 0.1.0\n\n# Hog kit\n")
    (egg / "requires.txt").write_text("Jinja2>=3.1\nPyYAML>=6.0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with zipfile.ZipFile(io.BytesIO(wheel.build())) as archive:
        info = next(name for name in archive.namelist() if name.endswith(".dist-info/METADATA"))
        requires = [line for line in archive.read(info).decode().splitlines() if line.startswith("Requires-Dist:")]
    assert "Requires-Dist: Jinja2>=3.1" in requires and any(line.startswith("Requires-Dist: numpy") for line in requires)

"""The ws Python package: pure Python over libws-c.so, the ws C API as one
shared library, loaded with ctypes (no compiled extension, so no Python
headers are needed).

    pip install --no-build-isolation ./python

takes libws-c.so from $WS_LIBRARY, else from the checkout's build/lib, else
builds it there with CMake (tools/ws-dev build does the same).
"""

import os
import re
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"project\(ws VERSION (\S+)", f.read()).group(1)


def built_library():
    """libws-c.so: the one named, or the checkout's, built when missing."""
    named = os.environ.get("WS_LIBRARY")
    if named:
        if not os.path.exists(named):
            raise SystemExit("ws: WS_LIBRARY names %s, which does not exist" % named)
        return named
    build = os.path.join(ROOT, "build")
    library = os.path.join(build, "lib", "libws-c.so")
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        subprocess.check_call(["cmake", "-S", ROOT, "-B", build, "-G", "Ninja"])
    subprocess.check_call(["cmake", "--build", build, "--target", "ws-c"])
    return library


class BuildWithLibrary(build_py):
    """Puts libws-c.so into the package, as ws/lib/libws-c.so."""

    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "ws", "lib")
        os.makedirs(target, exist_ok=True)
        shutil.copy2(built_library(), os.path.join(target, "libws-c.so"))


class BinaryDistribution(Distribution):
    """The wheel holds a shared library, so it is tagged for this platform."""

    def has_ext_modules(self):
        return True


setup(
    name="ws",
    version=project_version(),
    description="ws: automatic warp specialization for MLIR, from Python",
    packages=["ws"],
    python_requires=">=3.9",
    cmdclass={"build_py": BuildWithLibrary},
    distclass=BinaryDistribution,
    zip_safe=False,
)

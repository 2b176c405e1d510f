# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The ws Python package: pure Python over libws-c.so (the ws C API as one
shared library) and libws-launch.so (its launch half, which needs no MLIR),
loaded with ctypes: no compiled extension, so no Python headers are needed.

    pip install --no-build-isolation ./python

takes the libraries from $WS_LIBRARY's folder (it names libws-c.so), else
from the checkout's build/lib, building them there with CMake when missing
(tools/ws-dev build does the same).
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
    """ws's version, from the checkout this folder lies in: the package
    installs from a checkout's python/ (a copy of the folder alone has no
    version and no libraries to take)."""
    cmake = os.path.join(ROOT, "CMakeLists.txt")
    if not os.path.isfile(cmake):
        raise SystemExit("ws: the package installs from the python/ folder of a ws checkout "
                         "(pip install ./python at the checkout's top); %s is not in one: no %s"
                         % (HERE, cmake))
    with open(cmake) as f:
        return re.search(r"project\(ws VERSION (\S+)", f.read()).group(1)


LIBRARIES = ("libws-c.so", "libws-launch.so")


def built_libraries():
    """libws-c.so and libws-launch.so: from WS_LIBRARY's folder (it names
    libws-c.so), or the checkout's build, built when missing."""
    named = os.environ.get("WS_LIBRARY")
    if named:
        folder = os.path.dirname(named)
    else:
        build = os.path.join(ROOT, "build")
        folder = os.path.join(build, "lib")
        if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            subprocess.check_call(["cmake", "-S", ROOT, "-B", build, "-G", "Ninja"])
        subprocess.check_call(["cmake", "--build", build, "--target", "ws-c", "ws-launch"])
    paths = [os.path.join(folder, name) for name in LIBRARIES]
    for path in paths:
        if not os.path.exists(path):
            raise SystemExit("ws: %s does not exist (WS_LIBRARY names libws-c.so; "
                             "libws-launch.so lies beside it)" % path)
    return paths


class BuildWithLibrary(build_py):
    """Puts the two libraries into the package, in ws/lib."""

    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "ws", "lib")
        os.makedirs(target, exist_ok=True)
        for path in built_libraries():
            shutil.copy2(path, os.path.join(target, os.path.basename(path)))


class BinaryDistribution(Distribution):
    """The wheel holds a shared library, so it is tagged for this platform."""

    def has_ext_modules(self):
        return True


setup(
    name="ws",
    version=project_version(),
    description="ws: automatic warp specialization for MLIR, from Python",
    license="Apache-2.0 WITH LLVM-exception",
    packages=["ws"],
    package_data={"ws": ["kernels/*.mlir", "tuned/*.json"]},
    python_requires=">=3.9",
    cmdclass={"build_py": BuildWithLibrary},
    distclass=BinaryDistribution,
    zip_safe=False,
)

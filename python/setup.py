"""Builds the extension strmatch._strmatch with the project's CMake (the same target as
-DSTRMATCH_PYTHON=ON) and packages it with strmatch/*.py, the typing stub and py.typed.

Environment: STRMATCH_PIP_BUILD_DIR (CMake's build folder; default <repository>/build-pip),
STRMATCH_CMAKE_ARGS (more CMake arguments, e.g. "-DSTRMATCH_CUDA=OFF")."""

from __future__ import annotations

import glob
import os
import pathlib
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent  # the repository: its CMakeLists.txt builds the library and the module


class CMakeExtension(Extension):
    def __init__(self, name: str) -> None:
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        build = pathlib.Path(os.environ.get("STRMATCH_PIP_BUILD_DIR", ROOT / "build-pip"))
        configure = [
            "cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
            "-DSTRMATCH_PYTHON=ON", "-DSTRMATCH_BUILD_TESTS=OFF", "-DSTRMATCH_BUILD_BENCH=OFF",
            "-DSTRMATCH_BUILD_CLI=OFF", f"-DPython3_EXECUTABLE={sys.executable}",
        ] + shlex.split(os.environ.get("STRMATCH_CMAKE_ARGS", ""))
        # pip shows a build's output only with -v (pip install -v ./python): then this line and
        # CMake's progress lines ("[42/80] Building CXX object ...") appear as they happen.
        print(f"strmatch: building the C++ library and the module with CMake in {build} "
              "(minutes on a few cores)", flush=True)
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "strmatch_python", "-j",
                        str(os.cpu_count() or 1)], check=True)
        built = glob.glob(str(build / "python" / "strmatch" / "_strmatch*.so"))
        if len(built) != 1:
            raise RuntimeError(f"strmatch: expected one built extension in {build}/python/strmatch, found {built}")
        dest = pathlib.Path(self.get_ext_fullpath(ext.name))
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], dest)


setup(
    packages=["strmatch"],
    package_dir={"strmatch": "strmatch"},
    package_data={"strmatch": ["__init__.pyi", "dask.pyi", "py.typed"]},
    ext_modules=[CMakeExtension("strmatch._strmatch")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)

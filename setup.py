"""The build of the solver's optional C core; everything else is in pyproject.toml.

`optional=True`: without a C compiler the build skips the extension and barbu
runs on `barbu.solver.pure`, which gives the same answers, only slower.
"""

import sys

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "barbu.solver._fast",
            ["src/barbu/solver/_fast.c"],
            optional=True,
            extra_compile_args=[] if sys.platform == "win32" else ["-O3", "-std=c99"],
        )
    ]
)

# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Shared fixtures: the repository's kernels, and a cache of the test's own
(no test reads or writes the user's ~/.cache/ws)."""

import os

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def kernel_path(name):
    return os.path.join(ROOT, "integration", name)


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """A cache of the test's own; WS_TEST_CACHE_DIR names a shared one
    instead (a GPU machine without MLIR runs test_gpu.py on modules
    compiled elsewhere into it)."""
    shared = os.environ.get("WS_TEST_CACHE_DIR")
    monkeypatch.setenv("WS_CACHE_DIR", shared or str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def add_source():
    with open(kernel_path("add.mlir")) as f:
        return f.read()

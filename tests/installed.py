"""Which sgcheck the tests run: the checkout's sources, or the installed package.

By default ``python -m pytest`` from a checkout imports the checkout's ``sgcheck/`` (pure Python
sources), even after ``pip install .``. With ``SGCHECK_TEST_INSTALLED=1`` the tests run the
installed package instead, compiled or pure as it was built (``.ci/run`` does this), while
``tests.*`` still comes from the checkout: :func:`use_installed`, called first thing by
``tests/conftest.py``, imports ``sgcheck`` with the checkout left off the module path and stops
the run if that still gives the checkout's copy. Child Pythons the tests start get the same
package: ``PYTHONSAFEPATH=1`` keeps their working folder off the path and :func:`pythonpath` puts
the installed package's folder before the checkout.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

VARIABLE = "SGCHECK_TEST_INSTALLED"
ROOT = Path(__file__).resolve().parents[1]


def wanted() -> bool:
    """The tests are to run the installed sgcheck."""
    return os.environ.get(VARIABLE) == "1"


def pythonpath() -> str:
    """``PYTHONPATH`` for a child Python that must import the sgcheck under test (and ``tests``)."""
    return os.environ["PYTHONPATH"] if wanted() else str(ROOT)


def _is_checkout(entry: str) -> bool:
    try:
        return Path(entry or ".").resolve() == ROOT
    except OSError:
        return False


def use_installed() -> Path:
    """Make ``import sgcheck`` give the installed package; its folder; a usage error stops the run if that cannot be."""
    module = sys.modules.get("sgcheck")
    if module is None:
        saved = list(sys.path)
        sys.path[:] = [entry for entry in sys.path if not _is_checkout(entry)]
        try:
            import sgcheck as module
        except ImportError as error:
            message = f"{VARIABLE}=1: sgcheck is not installed here ({error}); run `pip install .` first"
            raise pytest.UsageError(message) from None
        finally:
            sys.path[:] = saved
    package = Path(module.__file__ or "").resolve().parent
    if package.is_relative_to(ROOT):
        message = f"{VARIABLE}=1, but sgcheck is imported from the checkout ({package}), not an installed copy"
        raise pytest.UsageError(message)
    os.environ["PYTHONSAFEPATH"] = "1"
    os.environ["PYTHONPATH"] = os.pathsep.join([str(package.parent), str(ROOT)])
    return package

"""The layers of the package, read from its source: no layer imports one above it, pygame
is drawn with only under ``ui/``, GPIO and serial ports are driven only under
``hardware/``, and the Rust core has no Python in it."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "oasis_kiosk"
"""The source under test, wherever the package was installed from."""

BELOW_THE_DEVICES = (
    "machine",
    "store",
    "config",
    "floor",
    "par",
    "rules.py",
    "returns.py",
    "i18n.py",
    "errors.py",
    "notify.py",
    "assets.py",
    "__init__.py",
)
"""What the cabinet's devices and the screen are built on: none of it may import them. The
rest are the layers that may: ``hardware``, ``ui``, and ``cli.py`` and ``__main__.py``, which
put the kiosk together."""
ONLY_UNDER = {"pygame": ("ui",), "gpiozero": ("hardware",), "serial": ("hardware",)}
"""Libraries only one layer uses, and that layer."""
DRAWS_HEADLESS = {"par/chart.py"}
"""A PAR sheet's chart is a PNG drawn on a plain surface, with no screen: the PAR package
keeps it beside the sheet it belongs to."""


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def imported(module: Path, source: str | None = None) -> set[str]:
    """Every module a source file (or ``source`` read as that file) imports, anywhere in it (at
    the top, in a function, or only for the type checker), relative imports by their full
    name, and a module imported from a package (``from oasis_kiosk import hardware``) by its
    own."""
    package = ["oasis_kiosk", *module.relative_to(PACKAGE).parent.parts]
    text = module.read_text(encoding="utf-8") if source is None else source
    names: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            source_module = ".".join([*base, *([node.module] if node.module else [])])
            names.add(source_module)
            names |= {f"{source_module}.{alias.name}" for alias in node.names}
    return names


def layer(module: Path) -> str:
    return module.relative_to(PACKAGE).parts[0]


@pytest.mark.parametrize("module", modules(), ids=lambda module: str(module.relative_to(PACKAGE)))
def test_no_module_imports_a_layer_above_it_or_a_library_of_another_layer(module: Path) -> None:
    names = imported(module)
    if layer(module) in BELOW_THE_DEVICES:
        above = {name for name in names if name.startswith(("oasis_kiosk.ui", "oasis_kiosk.hardware"))}
        assert not above, f"{module.relative_to(PACKAGE)} imports {sorted(above)}"
    for library, layers in ONLY_UNDER.items():
        if str(module.relative_to(PACKAGE)) in DRAWS_HEADLESS and library == "pygame":
            continue
        uses = {name for name in names if name == library or name.startswith(f"{library}.")}
        assert not uses or layer(module) in layers, (
            f"{module.relative_to(PACKAGE)} uses {library} outside {layers}"
        )


def test_the_rust_core_has_no_python_bindings() -> None:
    manifest = tomllib.loads((ROOT / "rust" / "core" / "Cargo.toml").read_text(encoding="utf-8"))
    dependencies = {
        name
        for section in ("dependencies", "dev-dependencies", "build-dependencies")
        for name in manifest.get(section, {})
    }
    assert not {name for name in dependencies if name.startswith("pyo3")}
    for path in (ROOT / "rust" / "core").rglob("*.rs"):
        uses = re.findall(r"\buse\s+pyo3\b|\bpyo3::", path.read_text(encoding="utf-8"))
        assert not uses, f"{path.relative_to(ROOT)} uses pyo3"


def test_the_import_reading_sees_each_way_a_layer_can_be_imported() -> None:
    probe = PACKAGE / "machine" / "terminal" / "state.py"
    source = "import pygame\nfrom oasis_kiosk import hardware\nfrom ...ui import view\n"
    assert {"pygame", "oasis_kiosk.hardware", "oasis_kiosk.ui.view"} <= imported(probe, source)

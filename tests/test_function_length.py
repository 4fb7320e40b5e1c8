"""No function over LONGEST lines without its reason: a comment starting ``Long:`` just above
it (``# Long:`` in Python, ``// Long:`` in Rust) says why it reads best whole."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LONGEST = 80
REASON_WITHIN = 4
"""Lines above a function (or its decorators) where its reason may stand."""
RUST_FN = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:unsafe\s+)?fn\s+(\w+)")
RUST_NOT_CODE = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)\'|//.*')


def reason_above(lines: list[str], first: int) -> bool:
    """``first`` counts from 1, as the parsers do."""
    return any("Long:" in line for line in lines[max(0, first - 1 - REASON_WITHIN) : first - 1])


def long_python_functions(path: Path) -> list[tuple[str, int]]:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            length = node.end_lineno - node.lineno + 1
            first = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
            if length > LONGEST and not reason_above(lines, first):
                found.append((node.name, length))
    return found


def long_rust_functions(path: Path) -> list[tuple[str, int]]:
    """Functions by their braces, strings, characters and comments left out."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found = []
    for start, line in enumerate(lines):
        match = RUST_FN.match(line)
        if match is None:
            continue
        depth, opened = 0, False
        for end in range(start, len(lines)):
            code = RUST_NOT_CODE.sub("", lines[end])
            depth += code.count("{") - code.count("}")
            opened = opened or "{" in code
            if (opened and depth == 0) or (not opened and code.rstrip().endswith(";")):
                break
        length = end - start + 1
        if opened and length > LONGEST and not reason_above(lines, start + 1):
            found.append((match.group(1), length))
    return found


def test_every_long_python_function_says_why() -> None:
    files = [*(ROOT / "oasis_kiosk").rglob("*.py"), *(ROOT / "bench").rglob("*.py")]
    long = {
        f"{path.relative_to(ROOT)}: {name} ({length} lines)"
        for path in files
        for name, length in long_python_functions(path)
    }
    assert long == set()


def test_every_long_rust_function_says_why() -> None:
    long = {
        f"{path.relative_to(ROOT)}: {name} ({length} lines)"
        for path in (ROOT / "rust").rglob("*.rs")
        if "target" not in path.relative_to(ROOT).parts
        for name, length in long_rust_functions(path)
    }
    assert long == set()


def test_the_reader_finds_a_long_function_and_its_reason(tmp_path: Path) -> None:
    body = "".join(f"    x{number} = {number}\n" for number in range(LONGEST))
    python = tmp_path / "long.py"
    python.write_text(f"@staticmethod\ndef long():\n{body}\n\ndef short():\n    return 1\n", encoding="utf-8")
    assert long_python_functions(python) == [("long", LONGEST + 1)]
    python.write_text(
        f"# Long: a table, read top to bottom.\n@staticmethod\ndef long():\n{body}", encoding="utf-8"
    )
    assert long_python_functions(python) == []
    rust_body = "".join(f'    let x{number} = "{{";\n' for number in range(LONGEST))
    rust = tmp_path / "long.rs"
    rust.write_text(f"pub fn long() {{\n{rust_body}}}\n\nfn short() -> u8 {{\n    1\n}}\n", encoding="utf-8")
    assert long_rust_functions(rust) == [("long", LONGEST + 2)]
    rust.write_text(f"// Long: one table.\npub(crate) fn long() {{\n{rust_body}}}\n", encoding="utf-8")
    assert long_rust_functions(rust) == []

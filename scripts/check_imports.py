#!/usr/bin/env python3
"""Checks what the compiler does not: which target may import which C module.

The stages are SwiftPM targets, so the compiler already refuses a stage that imports a later
one (it is not among its dependencies). It does not refuse a C module: a system library's or C
target's module map is visible to every target that depends on its owner, however indirectly,
so `import CCairo` compiles in QuakeKit or the server as well as in QuakeRender. This keeps each
C module to the one stage that fences its unsafe code, and FoundationNetworking (libcurl and
its dozens of shared libraries at every start) out of every program's target (tests may use it
as a client), and a doc comment (`///`) away from a file's imports, above which it documents
nothing. No build: under a second. (That each file imports the stages it uses, and no file
finds a member through another's imports, the compiler checks: MemberImportVisibility.)

  python3 scripts/check_imports.py              check; exit 1 and one line per problem
  python3 scripts/check_imports.py --self-test  check that it catches what it should, on temp copies
"""
import os
import re
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Each C module, and the targets that may import it.
C_MODULES = {
    "CByteScan": {"QuakeParse"},
    "CLibXML2": {"QuakeParse"},
    "CBasemapData": {"QuakeGeo"},
    "CPlateData": {"QuakeGeo"},
    "CCairo": {"QuakeRender"},
    "CPNGEncoder": {"QuakeWrite"},
}
# Modules no target may import.
FORBIDDEN = {"FoundationNetworking": "HTTP goes through AsyncHTTPClient: libcurl costs every start of the programs"}

IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|enum|class|func|protocol|typealias|var|let)\s+)?(\w+)",
                    re.M)


def targets(root):
    """Each folder of Sources and Tests holding Swift files: its name and its files."""
    found = {}
    for top in ("Sources", "Tests"):
        base = os.path.join(root, top)
        if not os.path.isdir(base):
            continue
        for name in sorted(os.listdir(base)):
            files = [os.path.join(directory, file) for directory, _, names in os.walk(os.path.join(base, name))
                     for file in names if file.endswith(".swift")]
            if files:
                found[name] = sorted(files)
    return found


def check(root):
    """The problems, one line each."""
    problems = []
    for target, files in targets(root).items():
        for path in files:
            with open(path, encoding="utf-8") as file:
                text = file.read()
            for match in IMPORT.finditer(text):
                module, line = match.group(1), text.count("\n", 0, match.start()) + 1
                where = f"{os.path.relpath(path, root)}:{line}"
                if module in C_MODULES and target not in C_MODULES[module]:
                    owners = ", ".join(sorted(C_MODULES[module]))
                    problems.append(f"{where}: {target} imports {module}, which only {owners} may import")
                if module in FORBIDDEN and not path.startswith(os.path.join(root, "Tests")):
                    problems.append(f"{where}: {target} imports {module}: {FORBIDDEN[module]}")
            first_import = IMPORT.search(text)
            if first_import:
                before = text[:first_import.start()]
                doc = re.search(r"^\s*///", before, re.M)
                if doc:
                    line = before.count("\n", 0, doc.start()) + 1
                    problems.append(f"{os.path.relpath(path, root)}:{line}: a doc comment above the imports documents "
                                    "nothing: put the imports first")
    return problems


def self_test():
    """Plants each kind of problem in a copy of the sources and checks it is found, and only it."""
    cases = [
        ("Sources/QuakeKit/Pipeline/QuakeMap.swift", "import CCairo", "QuakeKit imports CCairo, which only QuakeRender may import"),
        ("Sources/QuakeScene/Scene/MapScene.swift", "@preconcurrency import CLibXML2", "QuakeScene imports CLibXML2"),
        ("Sources/QuakeServer/FeedSnapshot.swift", "import FoundationNetworking", "QuakeServer imports FoundationNetworking"),
        ("Sources/QuakeRender/Render/MapRenderer.swift", "import CCairo", None),
        ("Sources/QuakeScene/Tiles/TileOptions.swift", "/// A file's purpose.", "a doc comment above the imports"),
    ]
    failures = []
    if check(ROOT):
        failures.append("the tree itself has problems; run the check first")
    for path, line, expected in cases:
        with tempfile.TemporaryDirectory() as scratch:
            for top in ("Sources", "Tests"):
                shutil.copytree(os.path.join(ROOT, top), os.path.join(scratch, top),
                                ignore=shutil.ignore_patterns("*.c", "*.h", "*.geojson", "Web", "References"))
            planted = os.path.join(scratch, path)
            with open(planted, encoding="utf-8") as file:
                text = file.read()
            with open(planted, "w", encoding="utf-8") as file:
                file.write(line + "\n" + text)
            found = check(scratch)
            if expected is None and found:
                failures.append(f"{line} in {path}: reported, but it is allowed: {found}")
            if expected is not None and not (len(found) == 1 and expected in found[0]):
                failures.append(f"{line} in {path}: expected one problem with '{expected}', got {found}")
    for failure in failures:
        print(failure, file=sys.stderr)
    print(f"check_imports self-test: {len(cases) - len(failures)} of {len(cases)} cases as expected")
    return 1 if failures else 0


def main():
    if "--self-test" in sys.argv[1:]:
        return self_test()
    problems = check(ROOT)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"check_imports: {len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Fails when a folder of Sources/QuakeKit uses a later stage, or a target depends on what it may not.

QuakeKit is one module, so the compiler lets any file use any other; this keeps the
folders in one-way layers (LAYERS: a folder may use the ones before it, never one
after) and pins which SwiftPM target may depend on which. No build: about 2 s, most of
it `swift package dump-package`.

  python3 scripts/check_layers.py              check; exit 1 and one line per problem
  python3 scripts/check_layers.py --graph      also print which folder uses which
  python3 scripts/check_layers.py --self-test  check that it catches what it should, on temp copies

What it reads is a name scan, not the compiler's view: each top-level type is mapped to
its folder (a name declared twice is an error), comments and strings are blanked, and a
line naming a type of a later folder is reported. Members and initializers that a later
folder adds to an earlier folder's type in an `extension` are what a name scan would miss
(`layer.pngData(for:)` reads like Tiles code); calls to them from earlier folders are
reported too.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The stages of Sources/QuakeKit, in the order data flows; a folder may use the ones before it.
LAYERS = ["Support", "Model", "Parse", "Query", "Select", "Statistics", "Style", "Project", "Basemap",
          "Scene", "Chart", "Tiles", "Render", "Write", "Pipeline"]
# C and package modules QuakeKit's folders may import, and where: unsafe code stays fenced in.
IMPORTS = {"CByteScan": {"Parse"}, "CLibXML2": {"Parse"}, "CCairo": {"Render"}, "CPNGEncoder": {"Write"},
           "CBasemapData": {"Basemap"}, "CPlateData": {"Basemap"}, "HeapModule": {"Select"}}
# Modules of the platform any Swift file may import (not FoundationNetworking: no HTTP in QuakeKit).
SYSTEM = {"Foundation", "Glibc", "Darwin", "Dispatch", "Synchronization"}
# What each non-test target may depend on (Package.swift); imports must be among the declared ones.
TARGETS = {"CCairo": set(), "CLibXML2": set(), "CByteScan": set(), "CPNGEncoder": set(), "CBasemapData": set(), "CPlateData": set(),
           "QuakeKit": {"CCairo", "CLibXML2", "CByteScan", "CPNGEncoder", "CBasemapData", "CPlateData", "HeapModule"},
           "QuakeFetch": {"QuakeKit", "AsyncHTTPClient", "NIOCore", "NIOPosix", "NIOHTTP1", "NIOSSL",
                          "NIOHTTPCompression"},
           "QuakeMBTiles": {"QuakeKit", "GRDB"},
           "QuakeCommand": {"QuakeKit", "QuakeFetch", "Logging", "ArgumentParser"},
           "QuakeServer": {"QuakeKit", "QuakeFetch", "Hummingbird", "HummingbirdCore", "Logging"},
           "quakemap": {"QuakeKit", "QuakeFetch", "QuakeMBTiles", "QuakeCommand", "Logging", "ArgumentParser"},
           "quakemap-server": {"QuakeKit", "QuakeServer", "QuakeCommand", "Hummingbird", "Logging",
                               "ArgumentParser"},
           "FeedTestServer": set()}
# Platform modules only some targets may import. None may import FoundationNetworking: its
# libcurl brings 27 more shared libraries at every start of the programs (HTTP goes through
# AsyncHTTPClient).
SYSTEM_FOR: dict[str, set[str]] = {}

DECL = re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*"
                  r"(?:struct|enum|class|protocol|actor|typealias)\s+([A-Z]\w*)", re.M)  # top level: column 0 only
EXT = re.compile(r"^(?:(?:public|package|internal)\s+)?extension\s+([A-Z]\w*)[^{]*\{", re.M)
MEMBER = re.compile(r"^\s{4}(?:@\w+\s+)*(?:(?:public|package|internal|static|mutating|nonisolated)\s+)*"
                    r"(?:func|var)\s+(\w+)", re.M)
INIT = re.compile(r"^\s{4}(?:@\w+\s+)*(?:(?:public|package|internal|convenience)\s+)*init\??\s*\(", re.M)
IMPORT = re.compile(r"\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+"
                    r"(?:(?:struct|enum|class|func|protocol|typealias|var|let)\s+)?(\w+)")
# Comments and string literals, in one pass so that "//" in a string is not a comment.
BLANKED = re.compile(r'#*"""[\s\S]*?"""#*|/\*[\s\S]*?\*/|//[^\n]*|#*"(?:\\.|[^"\\\n])*"#*')


def strip(text):
    """`text` with comments and strings blanked; newlines kept, so line numbers stay right."""
    return BLANKED.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def balanced(text, start):
    """The text inside the parentheses opening at `text[start]`."""
    depth = 0
    for index in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[index], 0)
        if depth == 0:
            return text[start + 1:index]
    return text[start + 1:]


def top_level(arguments):
    """`arguments` split at the commas outside brackets."""
    parts, depth, current = [], 0, ""
    for char in arguments:
        depth += {"(": 1, "[": 1, "<": 1, ")": -1, "]": -1, ">": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return parts + [current] if current.strip() else parts


def init_labels(parameters):
    """(argument label or None, has a default) for each parameter of an initializer."""
    result = []
    for parameter in top_level(parameters):
        names = parameter.split(":")[0].split()
        label = names[0] if names else None
        result.append((None if label == "_" else label, "=" in parameter))
    return result


def accepts(parameters, labels):
    """Whether an initializer with `parameters` can be called with argument `labels`."""
    position = 0
    for label, has_default in parameters:
        if position < len(labels) and labels[position] == label:
            position += 1
        elif not has_default:
            return False
    return position == len(labels)


def read_kit(root, errors):
    """{path: (folder, stripped text)} of every Swift file of Sources/QuakeKit."""
    kit, files = os.path.join(root, "Sources/QuakeKit"), {}
    for folder in sorted(os.listdir(kit)):
        path = os.path.join(kit, folder)
        if folder.endswith(".docc"):
            continue
        if not os.path.isdir(path):
            errors.append(f"Sources/QuakeKit/{folder}: every file belongs in a stage folder")
            continue
        if folder not in LAYERS:
            errors.append(f"Sources/QuakeKit/{folder}/: not in LAYERS of scripts/check_layers.py; give it a place")
        for directory, _, names in os.walk(path):
            for name in sorted(n for n in names if n.endswith(".swift")):
                full = os.path.join(directory, name)
                with open(full, encoding="utf-8") as file:
                    files[full] = (folder, strip(file.read()))
    return files


def check_folders(root, errors, graph):
    """Adds the layer problems of Sources/QuakeKit to `errors` and which folder uses which to `graph`."""
    files = read_kit(root, errors)
    rank = {name: index for index, name in enumerate(LAYERS)}
    owner, own_inits = {}, defaultdict(list)
    for folder, text in files.values():
        for name in DECL.findall(text):
            if owner.setdefault(name, folder) != folder:
                errors.append(f"{name} is declared in {owner[name]}/ and {folder}/: one name, one place")
    # Members and initializers a folder adds to an earlier folder's type:
    # {folder: {member name}} and {type: [(folder, parameters)]}.
    added, added_inits = defaultdict(set), defaultdict(list)
    for folder, text in files.values():
        for match in EXT.finditer(text):
            end = re.search(r"^\}", text[match.end():], re.M)
            body = text[match.end():match.end() + (end.start() if end else 0)]
            typed, later = match.group(1), rank.get(owner.get(match.group(1)), 99) < rank.get(folder, 99)
            for init in INIT.finditer(body):
                labels = init_labels(balanced(body, init.end() - 1))
                (added_inits[typed] if later else own_inits[typed]).append((folder, labels))
            if later:  # short names would match too much by accident
                added[folder].update(n for n in MEMBER.findall(body) if len(n) >= 6)
    for folder, text in files.values():  # inits in the type's own body
        for match in DECL.finditer(text):
            end = re.search(r"^\}", text[match.end():], re.M)
            body = text[match.end():match.end() + (end.start() if end else 0)]
            for init in INIT.finditer(body):
                own_inits[match.group(1)].append((folder, init_labels(balanced(body, init.end() - 1))))
    for path, (folder, text) in sorted(files.items()):
        shown = os.path.relpath(path, root)
        lines = text.split("\n")
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line) + 1)
        for number, line in enumerate(lines, 1):
            imported = IMPORT.match(line)
            if imported:
                module = imported.group(1)
                if module not in SYSTEM and folder not in IMPORTS.get(module, set()):
                    errors.append(f"{shown}:{number}: {folder}/ may not import {module}")
                continue
            for name in sorted(set(re.findall(r"\b[A-Z]\w*\b", line))):
                used = owner.get(name)
                if used and used != folder:
                    graph[folder].add(used)
                    if rank[used] > rank.get(folder, -1):
                        errors.append(f"{shown}:{number}: {folder}/ uses {name} of {used}/, a later stage")
            for upper, names in added.items():
                for name in sorted(names):
                    if upper != folder and re.search(r"\.\s*" + name + r"\b", line):
                        graph[folder].add(upper)
                        if rank[upper] > rank.get(folder, -1):
                            errors.append(f"{shown}:{number}: {folder}/ calls .{name}, which {upper}/ adds")
            for typed, inits in added_inits.items():
                for call in re.finditer(r"\b" + typed + r"\s*(?:\.init\s*)?\(", line):
                    arguments = balanced(text, starts[number - 1] + call.end() - 1)
                    labels = [m.group(1) if m else None
                              for m in (re.match(r"\s*(\w+)\s*:(?!:)", a) for a in top_level(arguments))]
                    if any(accepts(parameters, labels) for where, parameters in own_inits[typed]
                           if rank.get(where, 99) <= rank.get(folder, -1)):
                        continue  # an initializer the caller may use fits the call
                    for upper, parameters in inits:
                        if upper != folder and accepts(parameters, labels):
                            graph[folder].add(upper)
                            if rank[upper] > rank.get(folder, -1):
                                errors.append(f"{shown}:{number}: {folder}/ calls {typed}.init, which {upper}/ adds")


def check_targets(root, errors, graph):
    """Adds the target problems (declared dependencies and imports) to `errors`, the targets' uses to `graph`."""
    # A scratch folder of its own: the build's (.build) is locked while a build runs.
    with tempfile.TemporaryDirectory() as scratch:
        command = [os.environ.get("SWIFT", "swift"), "package", "--scratch-path", scratch, "dump-package"]
        manifest = json.loads(subprocess.run(command, cwd=root, check=True, capture_output=True, text=True).stdout)
    for target in manifest["targets"]:
        name, kind = target["name"], target["type"]
        declared = {next(iter(dependency.values()))[0] for dependency in target["dependencies"]}
        graph[name].update(declared)
        if kind == "test":
            continue
        if name not in TARGETS:
            errors.append(f"Package.swift: target {name} is not in TARGETS of scripts/check_layers.py; "
                          "give it its rules")
            continue
        errors.extend(f"Package.swift: {name} may not depend on {used}" for used in sorted(declared - TARGETS[name]))
        folder = os.path.join(root, target.get("path") or os.path.join("Sources", name))
        for directory, _, names in os.walk(folder):
            for file_name in sorted(n for n in names if n.endswith(".swift")):
                full = os.path.join(directory, file_name)
                with open(full, encoding="utf-8") as file:
                    text = strip(file.read())
                for number, line in enumerate(text.split("\n"), 1):
                    imported = IMPORT.match(line)
                    if not imported:
                        continue
                    module = imported.group(1)
                    if module not in SYSTEM | SYSTEM_FOR.get(name, set()) | declared:
                        errors.append(f"{os.path.relpath(full, root)}:{number}: {name} imports {module}, "
                                      "which it does not declare in Package.swift")


def print_graph(folders, targets):
    """Which folder uses which, in layer order, and what each target depends on."""
    rank = {name: index for index, name in enumerate(LAYERS)}
    print("Sources/QuakeKit folders (A → B: A uses B; ! marks a later stage):")
    for folder in LAYERS:
        used = sorted(folders.get(folder, set()), key=lambda name: rank.get(name, 99))
        shown = ", ".join(("!" if rank.get(name, 99) > rank[folder] else "") + name for name in used)
        print(f"  {folder:<9} → {shown or '(nothing)'}")
    print("Targets (Package.swift):")
    order = list(TARGETS)
    for target in sorted(targets, key=lambda name: (order.index(name) if name in order else len(order), name)):
        print(f"  {target:<16} → {', '.join(sorted(targets[target])) or '(nothing)'}")
    sys.stdout.flush()


def check(root, show_graph=False, targets=True):
    """The problems of the tree at `root`, printed; 1 when there are any."""
    errors, folders, uses = [], defaultdict(set), defaultdict(set)
    check_folders(root, errors, folders)
    if targets:
        check_targets(root, errors, uses)
    if show_graph:
        print_graph(folders, uses)
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        print(f"check_layers: {len(errors)} problem(s); a folder may use the ones before it: "
              f"{' ← '.join(LAYERS)}", file=sys.stderr)
    return 1 if errors else 0


def self_test():
    """Checks the tree, then copies of it with faults put in: each must fail, naming the fault."""
    # A later folder adds a member (an initializer) to an earlier folder's type, and uses it itself.
    probe_member = ("Sources/QuakeKit/Write/Probe.swift",
                    "extension GeoBox {\n    func probeArea() -> Double { 0 }\n}\n"
                    "let probed = GeoBox.world.probeArea()\n")
    probe_init = ("Sources/QuakeKit/Render/Probe.swift",
                  "extension GeoBox {\n    init(probeWidth: Double, south: Double = 0) { self = .world }\n}\n"
                  "let probed = GeoBox(probeWidth: 1)\n")
    cases = [  # (what, [(file, text appended, or (old, new) replaced)], the problem expected; None: must pass)
        ("the tree as it is", [], None),
        ("a type of a later folder", [("Sources/QuakeKit/Model/GeoBox.swift", "\nlet x: TextMeasurer? = nil\n")],
         "Model/ uses TextMeasurer of Render/"),
        ("a member a later folder adds, used there", [probe_member], None),
        ("a member a later folder adds, called earlier",
         [probe_member, ("Sources/QuakeKit/Scene/MapScene.swift", "\nlet probe = GeoBox.world.probeArea()\n")],
         "Scene/ calls .probeArea, which Write/ adds"),
        ("an initializer a later folder adds, used there", [probe_init], None),
        ("an initializer a later folder adds, called earlier",
         [probe_init, ("Sources/QuakeKit/Tiles/TileID.swift", "\nlet probe = GeoBox(probeWidth: 1)\n")],
         "Tiles/ calls GeoBox.init, which Render/ adds"),
        ("a C module outside its folder", [("Sources/QuakeKit/Parse/FeedError.swift", "\nimport CCairo\n")],
         "Parse/ may not import CCairo"),
        ("HTTP in QuakeKit", [("Sources/QuakeKit/Write/WriteError.swift", "\nimport FoundationNetworking\n")],
         "Write/ may not import FoundationNetworking"),
        ("a folder with no place", [("Sources/QuakeKit/Extras/Extra.swift", "struct Extra {}\n")],
         "Extras/: not in LAYERS"),
        ("one name in two folders", [("Sources/QuakeKit/Model/Extra.swift", "struct TileID {}\n")],
         "TileID is declared in"),
        ("a target dependency not allowed",
         [("Package.swift", ('name: "QuakeKit",\n            dependencies: [',
                             'name: "QuakeKit",\n            dependencies: ["QuakeFetch",'))],
         "QuakeKit may not depend on QuakeFetch"),
        ("an import not declared", [("Sources/QuakeMBTiles/MBTilesWriter.swift", "\nimport QuakeFetch\n")],
         "QuakeMBTiles imports QuakeFetch, which it does not declare"),
    ]
    failures = []
    with tempfile.TemporaryDirectory() as temporary:
        for index, (what, faults, expected) in enumerate(cases):
            tree = os.path.join(temporary, str(index))
            shutil.copytree(os.path.join(ROOT, "Sources"), os.path.join(tree, "Sources"))
            shutil.copy(os.path.join(ROOT, "Package.swift"), tree)
            for path, change in faults:
                target = os.path.join(tree, path)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                text = open(target, encoding="utf-8").read() if os.path.exists(target) else ""
                if isinstance(change, tuple):
                    if change[0] not in text:
                        failures.append(f"{what}: {path} no longer holds {change[0]!r}; update the self-test")
                    text = text.replace(change[0], change[1])
                else:
                    text += change
                with open(target, "w", encoding="utf-8") as file:
                    file.write(text)
            # The manifest is read (about a second) only where it matters.
            targets = not faults or any(not path.startswith("Sources/QuakeKit/") for path, _ in faults)
            result = subprocess.run([sys.executable, os.path.abspath(__file__), "--root", tree]
                                    + ([] if targets else ["--folders-only"]), capture_output=True, text=True)
            if expected is None and result.returncode != 0:
                failures.append(f"{what}: expected to pass, got {result.returncode}:\n{result.stderr}")
            if expected is not None and (result.returncode != 1 or expected not in result.stderr):
                failures.append(f"{what}: expected exit 1 naming {expected!r}, got {result.returncode}:\n"
                                f"{result.stderr}")
    for failure in failures:
        print(f"self-test: {failure}", file=sys.stderr)
    print(f"check_layers self-test: {len(cases) - len(failures)} of {len(cases)} cases as expected")
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--graph", action="store_true", help="print which folder and target uses which")
    parser.add_argument("--self-test", action="store_true", help="check the check on faulty copies of the tree")
    parser.add_argument("--root", default=ROOT, help=argparse.SUPPRESS)
    parser.add_argument("--folders-only", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.self_test:
        return self_test()
    return check(os.path.abspath(arguments.root), arguments.graph, targets=not arguments.folders_only)


if __name__ == "__main__":
    sys.exit(main())

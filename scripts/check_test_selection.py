#!/usr/bin/env python3
"""Checks that a sanitizer pass's test filter still selects what it names.

    scripts/check_test_selection.py SCRATCH_PATH FILTER [SKIP]

The sanitizer passes (make test-tsan, test-asan, test-sanitize-services) choose their tests with
`swift test --filter`: a regular expression of alternatives, one suite or test each. A renamed or
removed test would make its alternative match nothing, and the pass would go on green, checking
less. This lists the tests the built package really has (`swift test list`, from the pass's own
build), and fails, naming them, when any alternative selects no test, or when SKIP removes every
test an alternative selects. It prints how many tests the pass runs.
"""
import re
import subprocess
import sys


def alternatives(pattern):
    """The top-level alternatives of a regular expression (`|` outside parentheses)."""
    parts, depth, current = [], 0, ""
    for character in pattern:
        if character == "(":
            depth += 1
        elif character == ")":
            depth -= 1
        if character == "|" and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += character
    parts.append(current)
    expanded = []
    for part in filter(None, parts):
        # `Suite/(a|b)` names two tests: each must select one.
        group = re.search(r"\(([^()]*\|[^()]*)\)", part)
        if group:
            expanded += [part[:group.start()] + name + part[group.end():] for name in group.group(1).split("|")]
        else:
            expanded.append(part)
    return expanded


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    scratch, pattern = sys.argv[1], sys.argv[2]
    skip = re.compile(sys.argv[3]) if len(sys.argv) == 4 and sys.argv[3] else None
    listed = subprocess.run(["swift", "test", "list", "--skip-build", "--scratch-path", scratch],
                            capture_output=True, text=True)
    if listed.returncode != 0:
        sys.exit(f"check_test_selection: swift test list failed:\n{listed.stderr}")
    tests = [line.strip() for line in listed.stdout.splitlines() if "." in line]
    selected, empty = set(), []
    for alternative in alternatives(pattern):
        matching = [test for test in tests if re.search(alternative, test) and not (skip and skip.search(test))]
        if not matching:
            empty.append(alternative)
        selected.update(matching)
    if empty:
        sys.exit("check_test_selection: these parts of the filter select no test (renamed or removed? "
                 "update the Makefile's list):\n  " + "\n  ".join(empty))
    print(f"check_test_selection: {len(selected)} tests selected by {len(alternatives(pattern))} names")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Copies every Swift block of the DocC articles into the outside package
(Tests/Outside), one file per block, so that `swift build` there compiles the
documentation's code against QuakeKit's public API only."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
catalog = root / "Sources/QuakeKit/QuakeKit.docc"
target = root / "Tests/Outside/Sources/ArticleExamples/Articles"
target.mkdir(parents=True, exist_ok=True)
for old in target.glob("*.swift"):
    old.unlink()
count = 0
for article in sorted(catalog.glob("*.md")):
    blocks = re.findall(r"```swift\n(.*?)```", article.read_text(encoding="utf-8"), re.S)
    for index, block in enumerate(blocks, 1):
        lines = block.splitlines()
        # A later block of an article may lean on the first one's imports.
        if not any(line.startswith("import ") for line in lines):
            lines = ["import Foundation", "import QuakeKit", ""] + lines
        header = f"// Copied from {article.relative_to(root)}, block {index}, by scripts/article_examples.py.\n"
        (target / f"{article.stem}{index}.swift").write_text(header + "\n".join(lines) + "\n", encoding="utf-8")
        count += 1
if count == 0:
    sys.exit("no Swift blocks found in " + str(catalog))
print(f"{count} article blocks → {target.relative_to(root)}")

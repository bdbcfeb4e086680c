"""The README's fenced blocks under one "## SECTION" heading, written to PREFIX.1, PREFIX.2, … as
printed; prints how many. Used by the scripts that run the README's commands as printed.
usage: readme_blocks.py README PREFIX SECTION"""
import sys

readme, prefix, section = sys.argv[1], sys.argv[2], sys.argv[3]
inside, block, count = False, None, 0
for line in open(readme, encoding="utf-8"):
    if line.startswith("## "):
        inside = line[3:].strip() == section
        continue
    if not inside:
        continue
    if line.startswith("```"):
        if block is None:
            block = []
        else:
            count += 1
            open(f"{prefix}.{count}", "w", encoding="utf-8").write("".join(block))
            block = None
    elif block is not None:
        block.append(line)
print(count)

#!/usr/bin/env bash
# The user's pages (README.md, protocol.md, docs/*.md outside docs/records/)
# name no issue number and no commit id: those belong to the records.
# Prints each offending line and exits 1; silent with exit 0 when clean.
set -euo pipefail
cd "$(dirname "$0")/.."
# An issue: "issue 24", "issues 24 and 25", " #52" (not "+#8", a mate). A commit id: 7 to 40 hex
# digits with at least one letter and one digit (so neither 1238964 nor a
# word like "defaced" counts).
pattern='\b[Ii]ssues?\s+#?[0-9]+|(^|\s)#[0-9]+\b|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b'
if grep -nP "$pattern" README.md protocol.md docs/*.md; then
    echo "docs-check: issue numbers or commit ids above (move them to docs/records/)" >&2
    exit 1
fi

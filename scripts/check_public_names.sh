#!/usr/bin/env bash
# No two public types of the library crates share a name: lists every struct, enum, trait and
# type alias in the rustdoc output of `overtalk` and `overtalk_audio` (what users see), and
# fails naming the duplicates with their modules (redirect pages are not counted).
#
#   RUSTDOCFLAGS="-D warnings" cargo doc --no-deps -p overtalk -p overtalk-audio
#   scripts/check_public_names.sh [DOC_DIR]      # DOC_DIR: default target/doc
set -euo pipefail
doc=${1:-${CARGO_TARGET_DIR:-target}/doc}
for crate in overtalk overtalk_audio; do
    [ -d "$doc/$crate" ] || { echo "no rustdoc output at $doc/$crate (run cargo doc first)"; exit 2; }
done
list=$(cd "$doc" && find overtalk overtalk_audio -regextype posix-extended \
    -regex '.*/(struct|enum|trait|type)\.[A-Za-z0-9_]+\.html' \
    -exec grep -L 'http-equiv="refresh"' {} + |
    sed -E 's#^(.*)/(struct|enum|trait|type)\.([A-Za-z0-9_]+)\.html$#\3 \1#' | sort)
dups=$(echo "$list" | awk '{print $1}' | uniq -d)
if [ -n "$dups" ]; then
    echo "public types sharing a name:"
    for name in $dups; do
        echo "  $name: $(echo "$list" | awk -v n="$name" '$1 == n {gsub("/", "::", $2); print $2}' | tr '\n' ' ')"
    done
    exit 1
fi
echo "$(echo "$list" | wc -l) public types, no two sharing a name"

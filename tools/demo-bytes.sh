#!/usr/bin/env bash
# Proves a change kept vigia's output bytes: runs `vigia demo` with two binaries under one frozen
# clock and one audit key, in Spanish and English, and compares what each printed and wrote
# (notices, paz y salvo, actas, the checkpoint log byte for byte; the register's rows as an SQL
# dump, where only the demo user's random password salt may differ).
#
#   tools/demo-bytes.sh OLD_VIGIA NEW_VIGIA
#
# e.g. build the old commit's binary into /tmp/vigia-before (git worktree + cargo build), then
# `tools/demo-bytes.sh /tmp/vigia-before target/debug/vigia`. Needs faketime (Debian: faketime)
# and python3. Exit 0 when everything matches.
set -euo pipefail
old=$(realpath "$1"); new=$(realpath "$2")
command -v faketime >/dev/null || { echo "needs faketime (apt-get install faketime)" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
"$old" --db "$work/k.db" --key "$work/fixed.key" init >/dev/null 2>&1
status=0
for lang in es en; do
  for side in old new; do
    bin=$old; [ $side = new ] && bin=$new
    dir="$work/$side-$lang"; mkdir -p "$dir"; cp "$work/fixed.key" "$dir/k.key"
    (cd "$dir" && TMPDIR="$dir" faketime -f '2026-12-03 10:00:00' "$bin" --lang $lang --key "$dir/k.key" demo >out.txt 2>err.txt)
    mv "$dir"/vigia-demo-* "$dir/demo"
    sed -E -i "s#$dir/vigia-demo-[0-9]+-[0-9]+#DIR#g; s#$dir#WORK#g" "$dir/out.txt" "$dir/err.txt"
    python3 - "$dir/demo/vigia-demo.db" "$dir/dump.sql" <<'PY'
import re, sqlite3, sys
c = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
dump = "\n".join(c.iterdump())
# the demo user's random salt, and the hashes of the event that records it (the demo's last)
dump = re.sub(r"\$argon2id\$[^'\"]*", "ARGON2", dump)
dump = "\n".join(
    re.sub(r"'[0-9a-f]{64}'", "'HASH'", l) if "'user.password'" in l else l
    for l in dump.split("\n")
)
open(sys.argv[2], "w").write(dump)
PY
  done
  for f in out.txt err.txt dump.sql; do
    cmp -s "$work/old-$lang/$f" "$work/new-$lang/$f" || { echo "$lang: $f differs"; diff "$work/old-$lang/$f" "$work/new-$lang/$f" | head -20; status=1; }
  done
  for f in "$work/old-$lang/demo"/*; do
    b=$(basename "$f"); case $b in *.db|*.db-*) continue;; esac
    cmp -s "$f" "$work/new-$lang/demo/$b" || { echo "$lang: $b differs"; status=1; }
  done
done
[ $status = 0 ] && echo "demo bytes unchanged (es, en): output, documents, checkpoint log, register rows"
exit $status

#!/usr/bin/env bash
# Regenerates the measured tables of the README's "Speed" section in one command (issue 23):
#   tools/speed.sh                 every benchmark below, each block of the README replaced
#   tools/speed.sh national        only the blocks of the examples named
# Each benchmark is a release example that prints its table (with the load average before and
# after) on standard output; its whole output replaces the README's lines between
# `<!-- speed:NAME -->` and `<!-- /speed:NAME -->` (as Markdown), with the date and the machine's
# core count in a first line. Progress goes to standard error. Needs sqlite3 and GNU time (the examples
# say so); takes about an hour on a 2-core machine. Run it when the machine is quiet: the
# figures are ratios against sqlite3 on the same data in the same run, but a busy machine widens
# them.
set -euo pipefail
cd "$(dirname "$0")/.."
# name and arguments of each benchmark, in the README's order
declare -A ARGS=(
  [national]="1000000"
  [offering]="1000000 --runs 3"
)
ORDER=(national offering)
names=("$@")
[ ${#names[@]} -gt 0 ] || names=("${ORDER[@]}")
cargo build --release --locked --bins --examples >&2
out=target/speed
mkdir -p "$out"
for name in "${names[@]}"; do
  [ -n "${ARGS[$name]+x}" ] || { echo "tools/speed.sh: no benchmark named $name (${ORDER[*]})" >&2; exit 2; }
  grep -q "^<!-- speed:$name -->\$" README.md || { echo "tools/speed.sh: README.md has no <!-- speed:$name --> block" >&2; exit 2; }
  echo "== $name: cargo run --release --example $name -- ${ARGS[$name]}" >&2
  # shellcheck disable=SC2086
  cargo run --release --locked --quiet --example "$name" -- ${ARGS[$name]} > "$out/$name.md"
  python3 - "$name" "$out/$name.md" <<'PY'
import datetime, os, sys
name, path = sys.argv[1], sys.argv[2]
lines = open(path, encoding="utf-8").read().rstrip("\n").split("\n")
# a Markdown table needs a blank line on each side; other lines end with two spaces (a line break)
out = []
for k, line in enumerate(lines):
    table = line.startswith("|")
    if out and table != out[-1].startswith("|") and out[-1] != "":
        out.append("")
    out.append(line if table or not line else line + "  ")
body = "\n".join(out)
head = (f"Measured {datetime.date.today().isoformat()} by `tools/speed.sh {name}` on "
        f"{os.cpu_count()} cores:\n\n")
readme = open("README.md", encoding="utf-8").read()
start, end = f"<!-- speed:{name} -->\n", f"<!-- /speed:{name} -->"
i = readme.index(start) + len(start)
j = readme.index(end, i)
tmp = "README.md.speed-tmp"
with open(tmp, "w", encoding="utf-8") as f:
    f.write(readme[:i] + head + body + "\n" + readme[j:])
os.replace(tmp, "README.md")
PY
  echo "== $name: README.md updated" >&2
done

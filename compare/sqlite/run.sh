#!/usr/bin/env bash
# Times every way we know to load the same generated tasks file into SQLite,
# and to export the table back as JSON, interleaved, on this machine.
#
#   bash compare/sqlite/run.sh [ROWS] [RUNS]     (defaults: 1000000 rows, 5 runs)
#
# Loads (each into a fresh database file, SQLite's default settings, table
#   tasks (id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER)):
#   jsonpipe      jsonpipe insert --pk id --not-null title DB tasks tasks.json
#   jsonpipe_nl   the same from the NDJSON file
#   c_bindloop    C single-row bind/step/reset loop, no JSON (bindloop.c), built
#                 against the SQLite amalgamation go-sqlite3 bundles
#   sqlite3_json  sqlite3 shell: INSERT ... SELECT FROM json_each(readfile(...))
#   sqlite_utils  sqlite-utils insert DB tasks tasks.json --pk id  (its defaults)
# Exports:
#   jsonpipe_query   jsonpipe query DB 'SELECT * FROM tasks'
#   sqlite3_dashjson sqlite3 -json DB 'SELECT * FROM tasks'
#
# Prints per tool the median wall time of the RUNS runs (process start to
# exit, so including reading the file), rows/s, and the median maximum
# resident set size (from /usr/bin/time). Tools that are not
# installed are skipped with a note. Nothing else should run meanwhile: the
# machine has two shared cores.
set -euo pipefail

ROWS=${1:-1000000}
RUNS=${2:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/jsonpipe-sqlite-compare.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

echo "# building jsonpipe and bindloop" >&2
(cd "$ROOT" && go build -o "$WORK/jsonpipe" ./cmd/jsonpipe)
SQLITE_DIR=$(cd "$ROOT" && go list -m -f '{{.Dir}}' github.com/mattn/go-sqlite3)
# Compiling the amalgamation takes a minute: keep the binary per go-sqlite3
# version and bindloop.c content.
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/jsonpipe-compare
KEY=$(basename "$SQLITE_DIR")-$(cksum < "$HERE/bindloop.c" | cut -d' ' -f1)
if [ ! -x "$CACHE/bindloop-$KEY" ]; then
	mkdir -p "$CACHE"
	gcc -O2 -std=gnu99 -DSQLITE_ENABLE_RTREE -DSQLITE_THREADSAFE=1 -DHAVE_USLEEP=1 \
		-DSQLITE_ENABLE_FTS3 -DSQLITE_ENABLE_FTS3_PARENTHESIS -DSQLITE_OMIT_DEPRECATED \
		-DSQLITE_DEFAULT_WAL_SYNCHRONOUS=1 -DSQLITE_ENABLE_UPDATE_DELETE_LIMIT \
		-I"$SQLITE_DIR" -o "$CACHE/bindloop-$KEY.tmp" "$HERE/bindloop.c" "$SQLITE_DIR/sqlite3-binding.c" -lpthread -ldl -lm
	mv "$CACHE/bindloop-$KEY.tmp" "$CACHE/bindloop-$KEY"
fi
cp "$CACHE/bindloop-$KEY" "$WORK/bindloop"

echo "# generating $ROWS rows" >&2
awk -v n="$ROWS" 'BEGIN {
	r[0] = "{\"title\":\"Clean Room\",\"done\":false}"; r[1] = "{\"title\":\"Check Twitter\",\"done\":true}"
	print "["; for (i = 0; i < n; i++) printf "%s%s\n", r[i % 2], (i < n - 1 ? "," : ""); print "]"
}' > "$WORK/tasks.json"
awk -v n="$ROWS" 'BEGIN {
	r[0] = "{\"title\":\"Clean Room\",\"done\":false}"; r[1] = "{\"title\":\"Check Twitter\",\"done\":true}"
	for (i = 0; i < n; i++) print r[i % 2]
}' > "$WORK/tasks.ndjson"
SIZE=$(stat -c %s "$WORK/tasks.json")

SQLITE3=$(command -v sqlite3 || true)
SQLITE_UTILS=$(command -v sqlite-utils || true)
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "run.sh needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 1; }

# run NAME COMMAND...: one timed run into a fresh database $WORK/NAME.db;
# appends "seconds maxrss_kb" to $WORK/NAME.times.
run() {
	local name=$1; shift
	rm -f "$WORK/$name.db" "$WORK/$name.db-journal"
	local db="$WORK/$name.db"
	local cmd=("${@//@DB@/$db}")
	local t0 t1
	t0=$(date +%s%N)
	"$TIME" -f "%M" -o "$WORK/$name.one" "${cmd[@]}" > /dev/null 2> "$WORK/$name.err" || {
		echo "$name failed:" >&2; cat "$WORK/$name.err" >&2; exit 1; }
	t1=$(date +%s%N)
	if [ -n "$SQLITE3" ]; then
		local n
		n=$("$SQLITE3" "$db" "SELECT count(*) FROM tasks")
		[ "$n" = "$ROWS" ] || { echo "$name loaded $n rows, want $ROWS" >&2; exit 1; }
	fi
	echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", (b-a)/1e9}') $(tail -1 "$WORK/$name.one")" >> "$WORK/$name.times"
}

# export NAME COMMAND...: one timed run reading $WORK/exportsrc.db.
export_run() {
	local name=$1; shift
	local t0 t1
	t0=$(date +%s%N)
	"$TIME" -f "%M" -o "$WORK/$name.one" "$@" > "$WORK/$name.out" 2> "$WORK/$name.err" || {
		echo "$name failed:" >&2; cat "$WORK/$name.err" >&2; exit 1; }
	t1=$(date +%s%N)
	echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", (b-a)/1e9}') $(tail -1 "$WORK/$name.one")" >> "$WORK/$name.times"
}

JP=("$WORK/jsonpipe" insert --pk id --not-null title @DB@ tasks)
LOADS="jsonpipe jsonpipe_nl c_bindloop"
[ -n "$SQLITE3" ] && LOADS="$LOADS sqlite3_json" || echo "# sqlite3 shell not found: skipping sqlite3_json and sqlite3_dashjson" >&2
[ -n "$SQLITE_UTILS" ] && LOADS="$LOADS sqlite_utils" || echo "# sqlite-utils not found: skipping it (apt-get install sqlite-utils)" >&2

"$WORK/jsonpipe" insert --pk id --not-null title "$WORK/exportsrc.db" tasks "$WORK/tasks.json" 2>/dev/null

for i in $(seq "$RUNS"); do
	echo "# run $i/$RUNS" >&2
	for name in $LOADS; do
		case $name in
		jsonpipe) run $name "${JP[@]}" "$WORK/tasks.json" ;;
		jsonpipe_nl) run $name "${JP[@]}" "$WORK/tasks.ndjson" ;;
		c_bindloop) run $name "$WORK/bindloop" @DB@ "$ROWS" ;;
		sqlite3_json) run $name "$SQLITE3" @DB@ "CREATE TABLE tasks (id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER);
			INSERT INTO tasks (title, done) SELECT json_extract(value, '\$.title'), json_extract(value, '\$.done')
			FROM json_each(readfile('$WORK/tasks.json'));" ;;
		sqlite_utils) if [ "$i" -le 1 ] || [ "${SQLITE_UTILS_ALL_RUNS:-}" = 1 ]; then
				run $name "$SQLITE_UTILS" insert @DB@ tasks "$WORK/tasks.json" --pk id
			fi ;;
		esac
	done
	export_run jsonpipe_query "$WORK/jsonpipe" query "$WORK/exportsrc.db" "SELECT * FROM tasks"
	[ -n "$SQLITE3" ] && export_run sqlite3_dashjson "$SQLITE3" -json "$WORK/exportsrc.db" "SELECT * FROM tasks"
done

median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

echo
echo "$ROWS rows, $SIZE bytes of JSON, $RUNS runs (sqlite_utils: 1 run unless SQLITE_UTILS_ALL_RUNS=1)"
printf "%-18s %10s %14s %12s %s\n" tool "median s" "rows/s" "max RSS MB" "all runs (s)"
for name in $LOADS jsonpipe_query sqlite3_dashjson; do
	f="$WORK/$name.times"
	[ -f "$f" ] || continue
	s=$(cut -d' ' -f1 "$f" | median)
	m=$(cut -d' ' -f2 "$f" | median)
	printf "%-18s %10.3f %14.0f %12.1f %s\n" "$name" "$s" "$(awk -v n="$ROWS" -v s="$s" 'BEGIN{print (s > 0 ? n/s : 0)}')" \
		"$(awk -v m="$m" 'BEGIN{print m/1024}')" "$(cut -d' ' -f1 "$f" | tr '\n' ' ')"
done
if [ -f "$WORK/c_bindloop.times" ]; then
	echo "(c_bindloop's own timer, BEGIN to COMMIT, last run: $("$WORK/bindloop" "$WORK/x.db" "$ROWS" | awk '{printf "%.3f s, %.0f rows/s", $2, $3}'))"
fi

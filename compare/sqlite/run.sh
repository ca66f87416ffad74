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
# CSV loads, of the same rows as tasks.csv (header id,title,done; done 0/1,
#   as SQLite stores the JSON booleans):
#   jsonpipe_csv          jsonpipe insert --csv DB tasks tasks.csv (detects the
#                         types: id INTEGER, title TEXT, done INTEGER)
#   sqlite3_csv           sqlite3 shell: .import --csv tasks.csv tasks into the
#                         fresh database, which creates TEXT columns (a C floor,
#                         but it stores the text '1', not the integer 1)
#   sqlite3_csv_typed     the same into tasks pre-created as jsonpipe_csv
#                         creates it (.import --skip 1), so both store the same
#   sqlite_utils_csv      sqlite-utils insert DB tasks tasks.csv --csv (with
#                         --detect-types before sqlite-utils 4, which detects
#                         by default; 1 run, as sqlite_utils)
# Exports:
#   jsonpipe_query   jsonpipe query DB 'SELECT * FROM tasks'
#   sqlite3_dashjson sqlite3 -json DB 'SELECT * FROM tasks'
#
# Prints per tool the median wall time of the RUNS runs (process start to
# exit, so including reading the file), rows/s, and the median maximum
# resident set size (from /usr/bin/time). Each load's row count is checked
# after every run, and after the last run a sample of rows (values, and
# types but for sqlite3_csv) of every CSV load against the JSON one. Tools
# that are not installed (or do not start) are skipped with a note. Nothing
# else should run meanwhile: the machine has two shared cores.
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
awk -v n="$ROWS" 'BEGIN {
	r[0] = "Clean Room,0"; r[1] = "Check Twitter,1"
	print "id,title,done"; for (i = 0; i < n; i++) printf "%d,%s\n", i + 1, r[i % 2]
}' > "$WORK/tasks.csv"
SIZE=$(stat -c %s "$WORK/tasks.json")
CSV_SIZE=$(stat -c %s "$WORK/tasks.csv")

SQLITE3=$(command -v sqlite3 || true)
SQLITE_UTILS=$(command -v sqlite-utils || true)
if [ -n "$SQLITE_UTILS" ] && ! "$SQLITE_UTILS" --version > /dev/null 2>&1; then
	echo "# sqlite-utils is installed but does not start ($SQLITE_UTILS --version fails): skipping it" >&2
	SQLITE_UTILS= SQLITE_UTILS_BROKEN=1
fi
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
[ -n "$SQLITE_UTILS" ] && LOADS="$LOADS sqlite_utils" || [ -n "${SQLITE_UTILS_BROKEN:-}" ] || echo "# sqlite-utils not found: skipping it (apt-get install sqlite-utils)" >&2
LOADS="$LOADS jsonpipe_csv"
[ -n "$SQLITE3" ] && LOADS="$LOADS sqlite3_csv sqlite3_csv_typed"
if [ -n "$SQLITE_UTILS" ]; then
	LOADS="$LOADS sqlite_utils_csv"
	SU_CSV=(--csv)
	# sqlite-utils 4 detects CSV types by default; 3 stores TEXT unless told.
	"$SQLITE_UTILS" insert --help | grep -q -- --no-detect-types || SU_CSV+=(--detect-types)
fi

"$WORK/jsonpipe" insert --pk id --not-null title "$WORK/exportsrc.db" tasks "$WORK/tasks.json" 2>/dev/null
# The table jsonpipe_csv creates, for sqlite3_csv_typed to import into.
"$WORK/jsonpipe" insert --csv "$WORK/csvschema.db" tasks "$WORK/tasks.csv" 2>/dev/null
CSV_SCHEMA=
[ -n "$SQLITE3" ] && CSV_SCHEMA=$("$SQLITE3" "$WORK/csvschema.db" "SELECT sql FROM sqlite_master WHERE name = 'tasks'")

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
		jsonpipe_csv) run $name "$WORK/jsonpipe" insert --csv @DB@ tasks "$WORK/tasks.csv" ;;
		sqlite3_csv) run $name "$SQLITE3" @DB@ ".import --csv '$WORK/tasks.csv' tasks" ;;
		sqlite3_csv_typed) run $name "$SQLITE3" -cmd "$CSV_SCHEMA" @DB@ ".import --csv --skip 1 '$WORK/tasks.csv' tasks" ;;
		sqlite_utils_csv) if [ "$i" -le 1 ] || [ "${SQLITE_UTILS_ALL_RUNS:-}" = 1 ]; then
				run $name "$SQLITE_UTILS" insert @DB@ tasks "$WORK/tasks.csv" "${SU_CSV[@]}"
			fi ;;
		esac
	done
	export_run jsonpipe_query "$WORK/jsonpipe" query "$WORK/exportsrc.db" "SELECT * FROM tasks"
	[ -n "$SQLITE3" ] && export_run sqlite3_dashjson "$SQLITE3" -json "$WORK/exportsrc.db" "SELECT * FROM tasks"
done

# The CSV loads hold the rows the JSON load does: the first two, the middle
# one and the last, by rowid (the input order), with their values' types
# (sqlite3_csv's are all text: its values only).
if [ -n "$SQLITE3" ]; then
	sample() {
		local cols="id, title, done"
		[ "$2" = types ] && cols="$cols, typeof(id), typeof(title), typeof(done)"
		"$SQLITE3" "$WORK/$1.db" "SELECT rowid, $cols FROM tasks WHERE rowid IN (1, 2, $(( (ROWS + 1) / 2 )), $ROWS) ORDER BY rowid"
	}
	for name in jsonpipe_csv sqlite3_csv sqlite3_csv_typed sqlite_utils_csv; do
		[ -f "$WORK/$name.db" ] || continue
		how=types
		[ $name = sqlite3_csv ] && how=values
		ref=$(sample jsonpipe $how)
		got=$(sample $name $how)
		[ -n "$ref" ] && [ "$got" = "$ref" ] || {
			printf '%s: rows differ from jsonpipe'"'"'s (JSON):\n%s\nwant:\n%s\n' "$name" "$got" "$ref" >&2; exit 1; }
	done
fi

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
if [ -f "$WORK/jsonpipe_csv.times" ]; then
	echo "(CSV loads: the same rows as $CSV_SIZE bytes of CSV, header id,title,done; sqlite3_csv's .import creates TEXT columns" \
		"and stores text, while jsonpipe_csv detects the types; sqlite3_csv_typed imports into" \
		"$(printf "%s" "$CSV_SCHEMA" | tr -s "\n\t " "   "); each CSV load's rows 1, 2, $(( (ROWS + 1) / 2 )) and $ROWS checked equal to jsonpipe's)"
fi
if [ -f "$WORK/c_bindloop.times" ]; then
	echo "(c_bindloop's own timer, BEGIN to COMMIT, last run: $("$WORK/bindloop" "$WORK/x.db" "$ROWS" | awk '{printf "%.3f s, %.0f rows/s", $2, $3}'))"
fi

#!/usr/bin/env bash
# jsonpipe serve against the handler a Go user writes today
# (benchmarks/serve/baseline: database/sql, []Task, encoding/json), over
# HTTP with wrk, on a tasks table of ROWS rows (id, title, done) in SQLite
# and in a throwaway PostgreSQL cluster (started as internal/pgtest starts
# one; skipped, saying so, when there is no PostgreSQL server).
#
#   benchmarks/serve.sh            (or: benchmarks/run.sh serve)
#
# Targets, each with wrk -t1 -c32 -d$DUR --latency:
#   limit1, limit128, limit1024   GET /tasks?_limit=N: N tasks a request
#   byid                          GET /tasks/{id}, a random id of the table
#                                 each request (a wrk Lua script): one task
#                                 by its key, the other single-task figure
# Servers:
#   jsonpipe   jsonpipe serve DB
#   baseline   benchmarks/serve/baseline: database/sql, []Task, encoding/json
#   fixed      benchmarks/serve/floor -mode fixed: a net/http handler
#              answering each target with the bytes jsonpipe serve returned
#              for it (fetched once at startup; the by-id target with one
#              row's), no database: the ceiling of any net/http server
#              writing that response on this machine with wrk beside it
#   raw        benchmarks/serve/floor -mode raw: a TCP loop reading
#              keep-alive requests and writing the same bytes as one
#              precomputed response: the machine's ceiling for it
# fixed and raw need jsonpipe on the same database (they copy its answers).
# The servers run side by side; every round runs every target against each
# of them, one after the other (the order alternating from round to
# round), so that both see the same load on a shared machine. wrk and the
# server share the machine's cores (two here): wrk's one thread takes CPU
# from the server, the same for both.
#
# The step-loop floor: benchmarks/serve/stepfloor.c, compiled with gcc
# against the system's libsqlite3 (skipped, saying so, without gcc or
# /usr/include/sqlite3.h), runs the SQL of the limit128 and limit1024
# targets on the same tasks.db, as jsonpipe serve writes it (the next
# page's key in a subquery) and as the baseline writes it, for STEPDUR
# seconds each, once a round after the round's wrk runs: it steps every row
# and reads every column, many times, and prints ns per row and per
# request. No JSON, no HTTP: what SQLite alone costs for the page, on one
# core (the system's SQLite, whose version it records, may be older than
# the one go-sqlite3 builds into the servers). PostgreSQL has no step-loop
# floor here (fixed and raw hold for it).
#
# Writes $OUT/serve-wrk.txt (every wrk output, each under a "### round=..."
# line) and $OUT/serve.txt (benchmarks/serve_summary.py: per database and
# target, the median over the rounds of tasks/s = requests/s x tasks a
# request, requests/s, p50 and p99 latency, and jsonpipe's ratio to the
# baseline; then jsonpipe's and the baseline's ratios to the fixed and raw
# floors, the best ratio to the baseline any server could reach given the
# fixed and the raw floor, and the step-loop floor's medians), both headed
# by the commit, date, CPU model and cores.
#
# Environment:
#   ROUNDS   rounds (10)          DUR      each wrk run (10s)
#   WARMUP   an unrecorded wrk run per server and target first (2s; 0 for none)
#   ROWS     rows in the table (100000)
#   SERVERS  "jsonpipe baseline fixed raw"; SERVERS=baseline runs the baseline alone
#   STEPDUR  seconds of each step-loop floor run a round (1; 0 for none)
#   DBS      "sqlite postgres"
#   OUT      directory for the outputs (benchmarks)
#   PORT     first of the loopback ports the servers take (18480)
#
# Needs wrk (Debian's wrk package), curl, python3, and a jsonpipe with the
# serve command (issue 38). At the defaults a run takes about half an hour
# (10 rounds x 2 databases x 4 targets x 2 servers x 10 s). Nothing else
# should run meanwhile.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

rounds=${ROUNDS:-10}
dur=${DUR:-10s}
warmup=${WARMUP:-2s}
rows=${ROWS:-100000}
servers=(${SERVERS:-jsonpipe baseline fixed raw})
stepdur=${STEPDUR:-1}
dbs=(${DBS:-sqlite postgres})
out=${OUT:-benchmarks}
port=${PORT:-18480}
export GOTOOLCHAIN=${GO126:-go1.26.8} CGO_ENABLED=1

die() { echo "serve.sh: $*" >&2; exit 1; }
for s in "${servers[@]}"; do
	case $s in
	jsonpipe | baseline) ;;
	fixed | raw) [[ " ${servers[*]} " == *" jsonpipe "* ]] || die "$s copies jsonpipe serve's answers: SERVERS needs jsonpipe too" ;;
	*) die "unknown server $s (jsonpipe, baseline, fixed, raw)" ;;
	esac
done
for d in "${dbs[@]}"; do
	case $d in sqlite | postgres) ;; *) die "unknown database $d (sqlite, postgres)" ;; esac
done
for tool in wrk curl python3; do
	command -v $tool >/dev/null || die "no $tool (apt-get install -y $tool)"
done

mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/jsonpipe-serve.XXXXXX")
pgdir="" pgbin="" pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	if [ -n "$pgdir" ]; then
		aspg "$pgbin/pg_ctl" -D "$pgdir/data" -m immediate -w stop >/dev/null 2>&1 || true
		rm -rf "$pgdir"
	fi
	rm -rf "$work"
}
trap cleanup EXIT

commit=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- . ':!benchmarks' || commit=$commit-dirty
day=$(date -u +%Y-%m-%d)
cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/^[^:]*: *//')
cores=$(nproc)
note="wrk (1 thread, 32 connections) and the server share this machine's $cores cores"
echo "# commit $commit, $day, $cpu, $cores cores" >&2
echo "# $note" >&2

echo "# building jsonpipe and the baseline" >&2
go build -o "$work/jsonpipe" ./cmd/jsonpipe
go build -o "$work/baseline" ./benchmarks/serve/baseline
go build -o "$work/floor" ./benchmarks/serve/floor
stepfloor=""
if [ "$stepdur" = 0 ]; then
	echo "# no step-loop floor (STEPDUR=0)" >&2
elif command -v gcc >/dev/null && [ -f /usr/include/sqlite3.h ] &&
	gcc -O2 -o "$work/stepfloor" benchmarks/serve/stepfloor.c -lsqlite3 2>"$work/gcc.log"; then
	stepfloor=$work/stepfloor
else
	cat "$work/gcc.log" 2>/dev/null >&2 || true
	echo "serve.sh: no gcc, /usr/include/sqlite3.h or libsqlite3 (apt-get install -y gcc libsqlite3-dev): no step-loop floor" >&2
fi
for s in "${servers[@]}"; do
	if [ "$s" = jsonpipe ] && ! "$work/jsonpipe" serve -h >/dev/null 2>&1; then
		die "this checkout's jsonpipe has no serve command (issue 38's package serve has not landed here); SERVERS=baseline runs the baseline alone"
	fi
done

# The table: ids 1..ROWS, titles of 10 to 60 bytes, a quarter done.
echo "# making the tasks table, $rows rows" >&2
python3 - "$rows" >"$work/tasks.ndjson" <<'PY'
import json, random, sys
random.seed(38)
verbs = ["Buy", "Call", "Write", "Review", "Fix", "Plan", "Clean", "Book", "Send", "Read"]
things = ["milk", "the report", "Anna about Friday", "the kitchen", "flights to Lisbon",
          "the quarterly numbers", "a birthday card", "the bike's brakes", "chapter 3", "the invoice"]
out = sys.stdout
for i in range(1, int(sys.argv[1]) + 1):
    title = "%s %s" % (random.choice(verbs), random.choice(things))
    if random.random() < 0.3:
        title += " (#%d)" % i
    out.write(json.dumps({"id": i, "title": title, "done": i % 4 == 0}) + "\n")
PY

declare -A dsn
for d in "${dbs[@]}"; do
	case $d in
	sqlite)
		dsn[sqlite]=$work/tasks.db
		;;
	postgres)
		# As internal/pgtest: Debian's initdb and pg_ctl, the socket in the
		# cluster's directory, no TCP; as the user postgres when root.
		pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
		if [ -z "$pgbin" ] || [ ! -x "$pgbin/initdb" ]; then
			echo "serve.sh: no PostgreSQL server (apt-get install -y postgresql): skipping postgres" >&2
			continue
		fi
		pgdir=$(mktemp -d /tmp/jsonpipe-pg.XXXXXX) # short: a socket path has about 100 bytes
		if [ "$(id -u)" = 0 ]; then
			chown postgres: "$pgdir"
			aspg() { runuser -u postgres -- "$@"; }
		else
			aspg() { "$@"; }
		fi
		aspg "$pgbin/initdb" -D "$pgdir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$pgdir/initdb.log" 2>&1 ||
			{ cat "$pgdir/initdb.log" >&2; die "initdb failed"; }
		aspg "$pgbin/pg_ctl" -D "$pgdir/data" -l "$pgdir/log" -w -t 60 \
			-o "-k $pgdir -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c max_connections=100" start >/dev/null ||
			{ cat "$pgdir/log" >&2; die "pg_ctl start failed"; }
		dsn[postgres]="postgres:///postgres?host=$pgdir&user=postgres&sslmode=disable"
		;;
	esac
	"$work/jsonpipe" insert --pk id "${dsn[$d]}" tasks "$work/tasks.ndjson" >&2
done
dbs=()
for d in sqlite postgres; do
	if [ -n "${dsn[$d]:-}" ]; then dbs+=("$d"); fi
done
[ ${#dbs[@]} -gt 0 ] || die "no database to serve"

# Every server on every database, each on a port of its own.
declare -A addr
# jsonpipe first: fixed and raw fetch its answers.
start=()
for s in jsonpipe baseline fixed raw; do
	if [[ " ${servers[*]} " == *" $s "* ]]; then start+=("$s"); fi
done
for d in "${dbs[@]}"; do
	for s in "${start[@]}"; do
		a=127.0.0.1:$port
		port=$((port + 1))
		case $s in
		jsonpipe) "$work/jsonpipe" serve --addr "$a" "${dsn[$d]}" >"$work/$s-$d.log" 2>&1 & ;;
		baseline) "$work/baseline" -addr "$a" "${dsn[$d]}" >"$work/$s-$d.log" 2>&1 & ;;
		fixed | raw)
			"$work/floor" -mode $s -addr "$a" -from "http://${addr[jsonpipe-$d]}" \
				"/tasks?_limit=1" "/tasks?_limit=128" "/tasks?_limit=1024" "/tasks/$((rows / 2))" >"$work/$s-$d.log" 2>&1 &
			;;
		esac
		pids+=($!)
		addr[$s-$d]=$a
		for ((t = 0; ; t++)); do
			curl -sf -o /dev/null "http://$a/tasks?_limit=1" && break
			if ! kill -0 "${pids[-1]}" 2>/dev/null || [ $t -ge 300 ]; then
				cat "$work/$s-$d.log" >&2
				die "$s on $d did not answer at $a"
			fi
			sleep 0.1
		done
	done
done

targets=(limit1 limit128 limit1024 byid)
path() {
	case $1 in
	limit*) echo "/tasks?_limit=${1#limit}" ;;
	byid) echo "/tasks/{id}" ;;
	esac
}
tasks_per_request() {
	case $1 in
	limit*) echo "${1#limit}" ;;
	byid) echo 1 ;;
	esac
}
cat >"$work/byid.lua" <<LUA
-- GET /tasks/{id}, a random id of the table each request, the same
-- sequence for every server.
math.randomseed(38)
request = function()
  return wrk.format("GET", "/tasks/" .. math.random(1, $rows))
end
LUA
# The step-loop floor's statements for the limitN targets: jsonpipe
# serve's (serve/query.go listStatements: every column, and each row's key,
# which gives a full page's Link, in the key's order; its limit is bound
# there as ? + 0) and the baseline's.
step_sql() { # jsonpipe|baseline N
	case $1 in
	jsonpipe) echo "SELECT *, \"id\" FROM \"tasks\" ORDER BY \"tasks\".\"id\" LIMIT $2" ;;
	baseline) echo "SELECT id, title, done FROM tasks LIMIT $2" ;;
	esac
}
wrk_args() { # TARGET ADDR
	case $1 in
	byid) echo "-s $work/byid.lua http://$2/" ;;
	*) echo "http://$2$(path "$1")" ;;
	esac
}

# Before anything is timed: each server answers each target with the right
# number of tasks; the response sizes go into the summary.
echo "# checking the responses" >&2
sizes=""
for d in "${dbs[@]}"; do
	for s in "${servers[@]}"; do
		for t in "${targets[@]}"; do
			p=$(path "$t")
			p=${p/\{id\}/$((rows / 2))}
			curl -sf "http://${addr[$s-$d]}$p" >"$work/body" || die "$s on $d: GET $p failed"
			python3 - "$work/body" "$(tasks_per_request "$t")" "$t" <<'PY' || die "$s on $d: GET $p: wrong answer"
import json, sys
v = json.load(open(sys.argv[1]))
n, target = int(sys.argv[2]), sys.argv[3]
if target == "byid":
    v = [v]
assert isinstance(v, list) and len(v) == n, "want %d tasks, have %r" % (n, v if not isinstance(v, list) else len(v))
for task in v:
    assert set(task) == {"id", "title", "done"}, "columns %r" % sorted(task)
PY
			sizes+="response-bytes: $d $t $s $(wc -c <"$work/body")"$'\n'
		done
	done
done

raw=$out/serve-wrk.txt
stamp() {
	printf 'commit: %s\ndate: %s\ncpu-model: %s\ncores: %s\nnote: %s\nrounds: %s\nduration: %s\nrows: %s\nservers: %s\ndatabases: %s\n' \
		"$commit" "$day" "$cpu" "$cores" "$note" "$rounds" "$dur" "$rows" "${servers[*]}" "${dbs[*]}"
	if [ -n "$stepfloor" ] && [ -n "${dsn[sqlite]:-}" ]; then
		printf 'stepfloor-seconds: %s\n' "$stepdur"
	fi
	printf '%s' "$sizes"
}
stamp >"$raw"

if [ "$warmup" != 0 ]; then
	echo "# warming up, $warmup a server and target" >&2
	for d in "${dbs[@]}"; do
		for s in "${servers[@]}"; do
			for t in "${targets[@]}"; do
				wrk -t1 -c32 -d"$warmup" $(wrk_args "$t" "${addr[$s-$d]}") >/dev/null
			done
		done
	done
fi

for ((i = 1; i <= rounds; i++)); do
	echo "# round $i of $rounds" >&2
	order=("${servers[@]}")
	if ((i % 2 == 0)); then # the other order every other round
		order=()
		for ((k = ${#servers[@]} - 1; k >= 0; k--)); do order+=("${servers[k]}"); done
	fi
	for d in "${dbs[@]}"; do
		for t in "${targets[@]}"; do
			for s in "${order[@]}"; do
				printf '### round=%s db=%s target=%s server=%s tasks-per-request=%s path=%s\n' \
					"$i" "$d" "$t" "$s" "$(tasks_per_request "$t")" "$(path "$t")" >>"$raw"
				wrk -t1 -c32 -d"$dur" --latency $(wrk_args "$t" "${addr[$s-$d]}") >>"$raw"
			done
		done
		if [ "$d" = sqlite ] && [ -n "$stepfloor" ]; then
			for t in limit128 limit1024; do
				for q in jsonpipe baseline; do
					f=$("$stepfloor" "${dsn[sqlite]}" "$stepdur" "$(step_sql $q "${t#limit}")") || die "stepfloor failed"
					printf 'stepfloor: round=%s db=sqlite target=%s sql=%s %s\n' "$i" "$t" "$q" "$f" >>"$raw"
				done
			done
		fi
	done
done

python3 benchmarks/serve_summary.py "$raw" >"$out/serve.txt"
cat "$out/serve.txt"
echo "serve.sh: raw wrk output in $raw, summary in $out/serve.txt" >&2

#!/usr/bin/env bash
# Reproduces the benchmark run recorded in BENCHMARKS.md, then writes
# BENCHMARKS.md and README's speed table from the raw outputs
# (benchmarks/report.py; nothing in either is written by hand). Each test binary is built once; then every benchmark runs once
# per round (-test.count=1), round after round, so that on a shared
# machine all implementations see the same load; benchstat summarises the
# rounds (median ± 95% confidence interval). The libraries of a benchmark
# (the peers in the compare module; jsonpipe, jsonpipe_fresh and
# encoding/json in the root's unmarshal benchmarks) run one after the
# other, in an order shuffled each round (BENCH_ROUND; see
# internal/order): each runs in the heap the one before left, and that
# alone has moved a figure twofold.
#
#   benchmarks/run.sh [FAMILY...]   run, then write the report
#   benchmarks/run.sh -report       only write the report, from the files in benchmarks/
#
# FAMILY is tokens, unmarshal, marshal, sqlite, postgres, wholeprogram or
# shapes (default: all seven), one form of the sweep (shapes-doc,
# shapes-docs, shapes-ndjson or shapes-pretty), or serve (run only when named). Each raw output starts with the commit, the date and
# the CPU model it was measured on; the report prints them beside its figures.
#
#   tokens        Scanner, NextToken, Token, Valid and the CountWhitespace floor,
#                 against encoding/json (root module) and the other tokenizers
#                 (compare/tokens)                  -> tokens-main.txt, tokens-peers.txt
#   unmarshal     Unmarshal, Decoder.Decode, Objects, ColdStart against
#                 encoding/json and the floor (root module), and against the
#                 peers (compare/unmarshal)         -> unmarshal-v1.txt, unmarshal-peers.txt
#   marshal       Marshal, MarshalIndent, Encoder.Encode, Compact, Indent,
#                 Valid and MarshalColdStart (compare/marshal) against the
#                 peers on Go 1.27, and jsonpipe against the classic
#                 encoding/json on Go 1.26; TestMarshalPeersAgree's verdicts
#                 first                             -> marshal-peers.txt, marshal-v1.txt,
#                                                      marshal-agree.txt
#   sqlite        sqlite.Insert and WriteQuery, 100,000 rows an op   -> sqlite.txt
#   postgres      postgres.Insert (binary COPY) against psql \copy, pgx.CopyFrom
#                 and batched INSERTs, a million tasks rows and flights, and
#                 WriteQuery; a throwaway cluster (internal/pgtest)  -> postgres.txt
#   wholeprogram  compare/sqlite/run.sh: the jsonpipe command against a C loop,
#                 the sqlite3 shell and sqlite-utils, from JSON and from CSV
#                 (.import --csv), 1M rows (7 runs) and
#                 300,000 rows (3 runs)             -> sqlite-wholeprogram*.txt
#   shapes        the shape sweep (compare/shapes: the 81 cases of internal/shapes
#                 as one 1 MB document, distinct small documents, NDJSON and the
#                 document pretty-printed, through Unmarshal, Decode, Valid,
#                 Marshal and Encode) against the peers
#                 on Go 1.27, and jsonpipe against the classic encoding/json on
#                 Go 1.26; TestShapesAgree's verdicts first. Each form is a
#                 family of its own too (shapes-doc, shapes-docs, shapes-ndjson,
#                 shapes-pretty; shapes is all four), with its own outputs, so that a form can
#                 be recorded again alone: the whole sweep, ten rounds, takes
#                 more than two hours
#                                                   -> shapes-FORM-peers.txt, shapes-FORM-v1.txt
#                                                      (FORM doc, docs, ndjson, pretty),
#                                                      shapes-agree.txt
#   serve         benchmarks/serve.sh: jsonpipe serve against the handler a Go
#                 user writes today (benchmarks/serve/baseline), wrk on
#                 GET /tasks?_limit=1, 128, 1024 and /tasks/{id}, SQLite and
#                 PostgreSQL, ROUNDS interleaved rounds; needs wrk. Not in
#                 the report yet.                   -> serve-wrk.txt, serve.txt
#
# Environment:
#   ROUNDS            rounds of tokens, sqlite and postgres (10)
#   UNMARSHAL_ROUNDS  rounds of unmarshal (30: the record pools three runs of ten)
#   MARSHAL_ROUNDS    rounds of marshal (10)
#   SHAPES_ROUNDS     rounds of shapes (10)
#   OUT               directory for the raw outputs (default benchmarks, which
#                     replaces the recorded files; the record stays in git:
#                     go tool benchstat <(git show HEAD:benchmarks/sqlite.txt) benchmarks/sqlite.txt)
#   GO126, GO127      the toolchains (go1.26.8, go1.27.4; GOTOOLCHAIN fetches them)
#   TOKENS_BENCHTIME, UNMARSHAL_BENCHTIME, MARSHAL_BENCHTIME
#                     each benchmark's time per round (300ms, 200ms, 200ms); with both
#                     corpora a round of unmarshal takes about two minutes at 200ms,
#                     a round of marshal (about 650 benchmarks on Go 1.27, 250 on
#                     Go 1.26) several times that
#   MARSHAL_WARMUP    how long each marshal benchmark runs untimed first (50ms)
#   SHAPES_BENCHTIME  each shapes benchmark's time per round (50ms), after
#   SHAPES_WARMUP     its untimed warm-up (25ms: see compare/shapes' warmup); a
#                     round of doc, docs and ndjson is 5,100 benchmarks on Go 1.27
#                     and 2,250 on Go 1.26, about 13.5 minutes (AMD EPYC,
#                     2026-12-02); recorded alone, 5.6 for doc, 5.9 for docs and
#                     2.8 for ndjson (before it had Unmarshal of each line,
#                     which adds about as many benchmarks as its Decode ones).
#                     pretty (five of doc's six ops, no
#                     marshal) took 43 minutes for ten rounds alone, 4.3 a
#                     round (Intel Xeon, 2026-12-04)
#
# The root module and sqlite/ run on Go 1.26, as recorded. compare/marshal
# runs on both: on Go 1.27 against the peers (marshal-peers.txt), and on Go
# 1.26 for jsonpipe against the classic encoding/json that jsonpipe matches
# (marshal-v1.txt, jsonpipe and encoding_json only), in the same rounds. The peers in
# compare/ run on Go 1.27, where encoding/json/v2 and jsontext are in by
# default (the record built them on Go 1.26 with GOEXPERIMENT=jsonv2, which
# the compare module no longer accepts); there, encoding_json is the
# v2-backed encoding/json.
#
# Needs the corpus, ../shared/corpus beside the checkout (or $JSONPIPE_SHARED/corpus;
# the wide one, corpus-wide beside it, is run too when present),
# and for wholeprogram sqlite3, sqlite-utils and /usr/bin/time (each skipped
# when absent). A full run takes two hours or more with both corpora, and
# shapes two hours and a quarter more. Nothing else should run
# meanwhile, compiles included: the machine has two shared cores.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

rounds=${ROUNDS:-10}
unmarshal_rounds=${UNMARSHAL_ROUNDS:-30}
marshal_rounds=${MARSHAL_ROUNDS:-10}
shapes_rounds=${SHAPES_ROUNDS:-10}
tokens_benchtime=${TOKENS_BENCHTIME:-300ms}
unmarshal_benchtime=${UNMARSHAL_BENCHTIME:-200ms}
marshal_benchtime=${MARSHAL_BENCHTIME:-200ms}
shapes_benchtime=${SHAPES_BENCHTIME:-50ms}
export SHAPES_WARMUP=${SHAPES_WARMUP:-25ms}
out=${OUT:-benchmarks}
go126=${GO126:-go1.26.8}
go127=${GO127:-go1.27.4}
export GOTOOLCHAIN=$go126 CGO_ENABLED=1

report_only=false
if [ "${1:-}" = -report ]; then
	report_only=true
	shift
fi
families=("$@")
if $report_only; then
	[ ${#families[@]} -eq 0 ] || { echo "run.sh: -report writes the whole report; it takes no family" >&2; exit 2; }
	exec python3 benchmarks/report.py
fi
[ ${#families[@]} -gt 0 ] || families=(tokens unmarshal marshal sqlite postgres wholeprogram shapes)
forms=() # the sweep's forms to run
for f in "${families[@]}"; do
	case $f in
	tokens | unmarshal | marshal | sqlite | postgres | wholeprogram | serve) ;;
	shapes) forms+=(doc docs ndjson pretty) ;;
	shapes-doc | shapes-docs | shapes-ndjson | shapes-pretty) forms+=("${f#shapes-}") ;;
	*) echo "run.sh: unknown family $f (tokens, unmarshal, marshal, sqlite, postgres, wholeprogram, shapes, shapes-doc, shapes-docs, shapes-ndjson, shapes-pretty, serve)" >&2; exit 2 ;;
	esac
done
forms=($(printf '%s\n' "${forms[@]}" | awk '!seen[$0]++'))
has() {
	local f
	[ "$1" = shapes ] && [ ${#forms[@]} -gt 0 ] && return 0
	for f in "${families[@]}"; do [ "$f" = "$1" ] && return 0; done
	return 1
}

mkdir -p "$out"
out=$(cd "$out" && pwd)

shared=${JSONPIPE_SHARED:-$root/../shared}
needs_corpus=false
for f in "${families[@]}"; do [ "$f" = serve ] || needs_corpus=true; done
if $needs_corpus && ! ls "$shared"/corpus/*.json.gz >/dev/null 2>&1; then
	echo "run.sh: no corpus in $shared/corpus (set JSONPIPE_SHARED): every benchmark would skip" >&2
	exit 1
fi

bin=$(mktemp -d "${TMPDIR:-/tmp}/jsonpipe-bench.XXXXXX")
trap 'rm -rf "$bin"' EXIT

commit=$(git rev-parse --short HEAD)
# Dirty: a change outside what the report writes (benchmarks/, BENCHMARKS.md
# and README.md, which a recording just before this one rewrote).
git diff --quiet HEAD -- . ':!benchmarks' ':!BENCHMARKS.md' ':!README.md' || commit=$commit-dirty
day=$(date -u +%Y-%m-%d)
cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/^[^:]*: *//')
echo "# commit $commit, $day, $cpu, $(nproc) cores" >&2

# start FILE TOOLCHAIN ROUNDS: empty FILE and stamp it; benchstat prints
# these key: value lines in its header, and the report beside the figures.
start() {
	printf 'commit: %s\ndate: %s\ncpu-model: %s\ngo: %s\nrounds: %s\n' "$commit" "$day" "$cpu" "$2" "$3" >"$out/$1"
}

echo "# building the test binaries" >&2
if has tokens || has unmarshal; then
	go test -c -o "$bin/root.test" .
fi
if has sqlite; then
	go test -c -o "$bin/sqlite.test" ./sqlite
fi
if has tokens; then
	(cd compare && GOTOOLCHAIN=$go127 go test -c -o "$bin/ctok.test" ./tokens)
	start tokens-main.txt "$go126" "$rounds"
	start tokens-peers.txt "$go127" "$rounds"
fi
if has unmarshal; then
	(cd compare && GOTOOLCHAIN=$go127 go test -c -o "$bin/cun.test" ./unmarshal)
	start unmarshal-v1.txt "$go126" "$unmarshal_rounds"
	start unmarshal-peers.txt "$go127" "$unmarshal_rounds"
	echo 'order: shuffled each round' | tee -a "$out/unmarshal-peers.txt" >>"$out/unmarshal-v1.txt"
fi
if has marshal; then
	(cd compare && GOTOOLCHAIN=$go127 go test -c -o "$bin/cmar127.test" ./marshal)
	(cd compare && GOTOOLCHAIN=$go126 go test -c -o "$bin/cmar126.test" ./marshal)
	# The peers' verdicts, once, before anything is timed; a jsonpipe
	# difference stops the run (set -e).
	start marshal-agree.txt "$go127" 1
	(cd compare/marshal && "$bin/cmar127.test" -test.run='^TestMarshalPeersAgree$' -test.v) >>"$out/marshal-agree.txt"
	start marshal-peers.txt "$go127" "$marshal_rounds"
	start marshal-v1.txt "$go126" "$marshal_rounds"
	echo 'order: shuffled each round' | tee -a "$out/marshal-peers.txt" >>"$out/marshal-v1.txt"
fi
if has sqlite; then
	start sqlite.txt "$go126" "$rounds"
fi
if has postgres; then
	go test -c -o "$bin/postgres.test" ./postgres
	start postgres.txt "$go126" "$rounds"
fi
if has shapes; then
	(cd compare && GOTOOLCHAIN=$go127 go test -c -o "$bin/cshapes127.test" ./shapes)
	(cd compare && GOTOOLCHAIN=$go126 go test -c -o "$bin/cshapes126.test" ./shapes)
	# Every library's values, verdicts and bytes against encoding/json's,
	# once on each toolchain, before anything is timed; a jsonpipe
	# difference, or a peer's that is not a known deviation, stops the run
	# (set -e).
	start shapes-agree.txt "$go127" 1
	(cd compare/shapes && "$bin/cshapes127.test" -test.run='^(TestShapesAgree|TestValidRejects)$' -test.v) >>"$out/shapes-agree.txt"
	(cd compare/shapes && "$bin/cshapes126.test" -test.run='^TestShapesAgree$') >&2
	for form in "${forms[@]}"; do
		start "shapes-$form-peers.txt" "$go127" "$shapes_rounds"
		start "shapes-$form-v1.txt" "$go126" "$shapes_rounds"
		printf 'benchtime: %s\nwarmup: %s\norder: shuffled each round\n' "$shapes_benchtime" "$SHAPES_WARMUP" |
			tee -a "$out/shapes-$form-peers.txt" >>"$out/shapes-$form-v1.txt"
	done
fi

max=0
if has tokens || has sqlite || has postgres; then max=$rounds; fi
if has unmarshal && [ "$unmarshal_rounds" -gt "$max" ]; then max=$unmarshal_rounds; fi
if has marshal && [ "$marshal_rounds" -gt "$max" ]; then max=$marshal_rounds; fi
if has shapes && [ "$shapes_rounds" -gt "$max" ]; then max=$shapes_rounds; fi

# Each test binary runs in its package's directory, as go test would run it.
for ((i = 1; i <= max; i++)); do
	echo "# round $i of $max" >&2
	# The benchmarks run their libraries in an order shuffled by the
	# round (internal/order).
	export BENCH_ROUND=$i
	if has tokens && [ "$i" -le "$rounds" ]; then
		"$bin/root.test" -test.run='^$' -test.bench='CountWhitespace|Scanner|DecoderNextToken|DecoderToken|Valid' \
			-test.benchmem -test.benchtime="$tokens_benchtime" >>"$out/tokens-main.txt"
		(cd compare/tokens && "$bin/ctok.test" -test.run='^$' -test.bench=. \
			-test.benchmem -test.benchtime="$tokens_benchtime") >>"$out/tokens-peers.txt"
	fi
	if has unmarshal && [ "$i" -le "$unmarshal_rounds" ]; then
		"$bin/root.test" -test.run='^$' -test.bench='^Benchmark(Unmarshal|DecoderDecode|Objects|ColdStart)$' \
			-test.benchmem -test.benchtime="$unmarshal_benchtime" >>"$out/unmarshal-v1.txt"
		(cd compare/unmarshal && "$bin/cun.test" -test.run='^$' -test.bench='^Benchmark(Unmarshal|DecoderDecode)$' \
			-test.benchmem -test.benchtime="$unmarshal_benchtime") >>"$out/unmarshal-peers.txt"
	fi
	if has marshal && [ "$i" -le "$marshal_rounds" ]; then
		(cd compare/marshal && "$bin/cmar127.test" -test.run='^$' \
			-test.bench='^Benchmark(Marshal|MarshalIndent|EncoderEncode|Compact|Indent|Valid|MarshalColdStart)$' \
			-test.benchmem -test.benchtime="$marshal_benchtime") >>"$out/marshal-peers.txt"
		# Go 1.26: jsonpipe, the classic encoding/json and the Marshal floor.
		(cd compare/marshal && "$bin/cmar126.test" -test.run='^$' \
			-test.bench='^Benchmark(Marshal|MarshalIndent|EncoderEncode)$/./^(jsonpipe|encoding_json|floor)$' \
			-test.benchmem -test.benchtime="$marshal_benchtime" &&
			"$bin/cmar126.test" -test.run='^$' \
				-test.bench='^Benchmark(Compact|Indent|Valid|MarshalColdStart)$/^(jsonpipe|encoding_json)$' \
				-test.benchmem -test.benchtime="$marshal_benchtime") >>"$out/marshal-v1.txt"
	fi
	if has sqlite && [ "$i" -le "$rounds" ]; then
		(cd sqlite && "$bin/sqlite.test" -test.run='^$' -test.bench='^Benchmark(Insert|Query)$/^tasks$' \
			-test.benchmem -test.benchtime=20x) >>"$out/sqlite.txt"
	fi
	if has postgres && [ "$i" -le "$rounds" ]; then
		(cd postgres && "$bin/postgres.test" -test.run='^$' -test.bench='^Benchmark(Insert|Query)$' \
			-test.benchmem -test.benchtime=1x) >>"$out/postgres.txt"
	fi
	if has shapes && [ "$i" -le "$shapes_rounds" ]; then
		for form in "${forms[@]}"; do
			(cd compare/shapes && "$bin/cshapes127.test" -test.run='^$' -test.bench="^BenchmarkShapes\$/./^form=$form\$/" \
				-test.benchmem -test.benchtime="$shapes_benchtime") >>"$out/shapes-$form-peers.txt"
			# Go 1.26: jsonpipe and the classic encoding/json (levels: case, form, op, impl).
			(cd compare/shapes && "$bin/cshapes126.test" -test.run='^$' \
				-test.bench="^BenchmarkShapes\$/./^form=$form\$/./^impl=(jsonpipe|encoding_json)\$" \
				-test.benchmem -test.benchtime="$shapes_benchtime") >>"$out/shapes-$form-v1.txt"
		done
	fi
done

if has wholeprogram; then
	start sqlite-wholeprogram.txt "$go126" 7
	bash compare/sqlite/run.sh 1000000 7 >>"$out/sqlite-wholeprogram.txt"
	start sqlite-wholeprogram-300k.txt "$go126" 3
	bash compare/sqlite/run.sh 300000 3 >>"$out/sqlite-wholeprogram-300k.txt"
fi

if has serve; then
	OUT=$out ROUNDS=$rounds bash benchmarks/serve.sh
fi

if [ "$out" = "$root/benchmarks" ]; then
	python3 benchmarks/report.py
else
	echo "run.sh: the raw outputs are in $out; the report reads benchmarks/ only" >&2
fi

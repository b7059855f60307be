#!/bin/sh
# compare and report stay linear in the number of benchmarks (issue 18,
# item 8): 20,000 (benchmark, case, metric) rows in three configs.  They
# took 88 s and more (quadratic row matching); now about 1 s each on a
# 2-core VM.  The limit, 15 s, leaves room for a slow or busy machine.
set -u
: "${IDLELAB:=./idlelab}"
T=$(mktemp -d /tmp/compare-scale.XXXXXX)
trap 'rm -rf "$T"' EXIT
N=${COMPARE_SCALE_N:-20000}
LIMIT=${COMPARE_SCALE_LIMIT:-15}

awk -v n="$N" 'BEGIN {
	print "{\"format\": \"idlelab-results\", \"version\": 1, \"kind\": \"live\","
	print " \"configs\": [\"menu\", \"teo\", \"ladder\"], \"benchmarks\": ["
	for (i = 0; i < n; i++) {
		v = 1 + (i % 7) / 10
		printf " {\"name\": \"bench%d\", \"case\": \"c%d\", \"metric\": \"m\",", int(i / 4), i % 4
		printf " \"unit\": \"us\", \"higher_is_better\": false, \"values\": {"
		printf "\"menu\": [%g, %g], \"teo\": [%g, %g], \"ladder\": [%g, %g]}}%s\n", \
			v, v + 0.01, v * 1.1, v * 1.11, v * 0.9, v * 0.91, i < n - 1 ? "," : ""
	}
	print "]}"
}' > "$T/r.json"

fails=0
run() {
	what=$1; shift
	start=$(date +%s%N)
	timeout "$LIMIT" "$IDLELAB" "$@" > "$T/out" 2> "$T/err"
	rc=$?
	end=$(date +%s%N)
	ms=$(( (end - start) / 1000000 ))
	secs=$((ms / 1000)).$(printf %03d $((ms % 1000)))
	if [ $rc = 0 ]; then
		echo "ok: $what of $N benchmarks: $secs s"
	else
		echo "FAIL: $what of $N benchmarks: exit $rc after $secs s (limit $LIMIT s) $(head -c 300 "$T/err")"
		fails=$((fails + 1))
	fi
}
run compare compare "$T/r.json"
[ "$(grep -c '^bench' "$T/out")" -ge "$((N / 4))" ] || {
	echo "FAIL: compare printed $(grep -c '^bench' "$T/out") benchmarks"
	fails=$((fails + 1))
}
run "compare --format csv" compare --format csv "$T/r.json"
run report report --no-plots -o "$T/r.html" "$T/r.json"
[ $fails = 0 ]

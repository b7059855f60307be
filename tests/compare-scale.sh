#!/bin/sh
# compare and report stay linear in the number of benchmarks (issue 18,
# item 8): 20,000 (benchmark, case, metric) rows in three configs.  They
# took 88 s and more (quadratic row matching); now about 1 s each on a
# 2-core VM.  The limit, 15 s, leaves room for a slow or busy machine.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
tmpdir
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

run() {
	what=$1; shift
	start=$(date +%s%N)
	timeout "$LIMIT" "$IDLELAB" "$@" > "$T/out" 2> "$T/err"
	rc=$?
	end=$(date +%s%N)
	ms=$(( (end - start) / 1000000 ))
	secs=$((ms / 1000)).$(printf %03d $((ms % 1000)))
	if [ $rc = 0 ]; then
		ok "$what of $N benchmarks: $secs s"
	else
		bad "$what of $N benchmarks: exit $rc after $secs s (limit $LIMIT s) $(head -c 300 "$T/err")"
	fi
}
run compare compare "$T/r.json"
[ "$(grep -c '^bench' "$T/out")" -ge "$((N / 4))" ] ||
	bad "compare printed $(grep -c '^bench' "$T/out") benchmarks"
run "compare --format csv" compare --format csv "$T/r.json"
run report report --no-plots -o "$T/r.html" "$T/r.json"

# rows of one benchmark and case (issue 32, item 5): 40,000 must take
# about 4 times as long as 10,000, not 16 (they took 0.9 s and 39 s when
# each row was checked against every earlier one).  A ratio, not a time;
# the faster of two runs of each.
metric_rows() {
	awk -v n="$1" 'BEGIN {
		print "{\"format\": \"idlelab-results\", \"version\": 1, \"kind\": \"live\","
		print " \"configs\": [\"menu\", \"teo\"], \"benchmarks\": ["
		for (i = 0; i < n; i++)
			printf " {\"name\": \"b\", \"case\": \"c\", \"metric\": \"m%d\", \"unit\": \"us\", \"higher_is_better\": false, \"values\": {\"menu\": [1, 2], \"teo\": [3, 4]}}%s\n", i, i < n - 1 ? "," : ""
		print "]}"
	}' > "$T/m$1.json"
}
best_ms() {
	b=
	for k in 1 2; do
		start=$(date +%s%N)
		"$IDLELAB" compare "$T/m$1.json" > /dev/null 2>&1 || echo "FAIL: compare of $1 rows"
		ms=$(( ($(date +%s%N) - start) / 1000000 ))
		[ -z "$b" ] || [ "$ms" -lt "$b" ] && b=$ms
	done
	echo "$b"
}
metric_rows 10000
metric_rows 40000
t10=$(best_ms 10000)
t40=$(best_ms 40000)
if [ $((t40)) -le $((8 * (t10 > 0 ? t10 : 1))) ]; then
	ok "one benchmark's rows: 10,000 in $t10 ms, 40,000 in $t40 ms"
else
	bad "one benchmark's rows: 10,000 in $t10 ms, 40,000 in $t40 ms (more than 8 times)"
fi
finish

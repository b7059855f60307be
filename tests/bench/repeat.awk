# SPDX-License-Identifier: GPL-2.0-or-later
# repeat.awk: the events of an ftrace text capture, N times in a row.
# Copy k is shifted by k * D seconds, D the capture's span rounded up to
# whole seconds plus one: in the timestamp column, in the hrtimer times
# (ns: expires=, softexpires=, now=) and in the timer-wheel times
# (jiffies at HZ: expires=, bucket_expiry=, now=, baseclk=); everything
# else, column layout included, is the capture's own bytes.  Comment
# lines, and any without a timestamp, are dropped (the caller writes a
# header).
#
#   awk -v n=COPIES -v hz=HZ -f repeat.awk capture.txt
function shift(s, key, add,    i, j, v) {
	i = index(s, " " key "=")
	if (!i)
		return s
	i += length(key) + 2
	for (j = i; substr(s, j, 1) ~ /[0-9]/; j++)
		;
	if (j == i)
		return s
	v = substr(s, i, j - i) + add
	return substr(s, 1, i - 1) sprintf("%.0f", v) substr(s, j)
}
function copy(s, a, ln, add,    ts, dot, rest, name) {
	ts = substr(s, a + 1, ln - 3)
	dot = index(ts, ".")
	rest = substr(s, a + ln)
	name = substr(rest, 1, index(rest, ":") - 1)
	s = substr(s, 1, a) sprintf("%.0f", substr(ts, 1, dot - 1) + add) \
	    substr(ts, dot) ": " rest
	if (name ~ /^hrtimer_(start|expire_entry)$/) {
		s = shift(s, "expires", add * 1e9)
		s = shift(s, "softexpires", add * 1e9)
		s = shift(s, "now", add * 1e9)
	} else if (name ~ /^timer_(start|expire_entry)$/) {
		s = shift(s, "expires", add * hz)
		s = shift(s, "bucket_expiry", add * hz)
		s = shift(s, "now", add * hz)
		s = shift(s, "baseclk", add * hz)
	}
	return s
}
/^#/ { next }
{
	if (!match($0, / [0-9]+\.[0-9]+: /))
		next
	if (!nl++)
		first = substr($0, RSTART + 1, RLENGTH - 3)
	last = substr($0, RSTART + 1, RLENGTH - 3)
	line[nl] = $0
	at[nl] = RSTART
	len[nl] = RLENGTH
}
END {
	d = int(last) - int(first) + 1
	for (k = 0; k < n; k++)
		for (l = 1; l <= nl; l++)
			print k ? copy(line[l], at[l], len[l], k * d) : line[l]
}

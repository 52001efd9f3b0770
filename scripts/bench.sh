#!/usr/bin/env bash
# bench.sh runs the Go benchmarks that docs/speed.md reports, COUNT times
# each, and writes the raw `go test -bench` output and a table of medians:
#
#   make bench-report            # or: scripts/bench.sh
#   COUNT=5 OUT=results/bench scripts/bench.sh
#
# OUT/raw.txt     the raw output (benchstat reads it)
# OUT/medians.md  per benchmark and metric the median over the COUNT runs
#
# The machines are shared: every speed-up is reported as a ratio against a
# baseline measured in the same process (the x-gonum metrics), and the medians
# damp the noise. The load average before and after is recorded.
set -euo pipefail

cd "$(dirname "$0")/.."
GO=${GO:-go}
COUNT=${COUNT:-5}
OUT=${OUT:-results/bench}
mkdir -p "$OUT"

raw="$OUT/raw.txt.tmp"
{
	echo "# scripts/bench.sh COUNT=$COUNT on $(date -u +%Y-%m-%dT%H:%MZ)"
	echo "# $("$GO" version), $(nproc) CPUs: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | sort -u | paste -sd';')"
	echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$raw"
bench() { # bench PKG REGEXP
	echo "+ go test -run '^\$' -bench '$2' -count $COUNT $1" >&2
	"$GO" test -run '^$' -bench "$2" -count "$COUNT" "$1" | tee -a "$raw"
}
bench ./model/ 'IntRVFL1500'
bench ./linalg/ 'Gram10000x1500|Cholesky1500'
bench ./ridge/ 'Grid|Solve10000x1500'
bench ./protocol/ 'Evaluate' # EvaluateCollection runs when HDLGEN_UCI121 is set
bench ./quant/ 'Fitness|CostOnly|GA'
bench ./rtl/sim/ 'Classify|Stream'
bench ./power/ 'Size'
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$raw"
mv "$raw" "$OUT/raw.txt"

# Medians: one row per benchmark name and metric ("value unit" pairs after the
# iteration count), in the order of first appearance.
{
	echo "# Benchmark medians"
	echo
	echo "Made by \`scripts/bench.sh\` (COUNT=$COUNT): the median over the $COUNT runs of each metric; raw output in raw.txt."
	sed -n 's/^# //p' "$OUT/raw.txt" | sed 's/^/- /'
	echo
	echo "| benchmark | metric | median | runs |"
	echo "|---|---|---|---|"
	awk '/^Benchmark/ {
		name = $1; sub(/-[0-9]+$/, "", name)
		for (i = 3; i + 1 <= NF; i += 2) {
			key = name "\t" $(i + 1)
			if (!(key in n)) order[++keys] = key
			v[key, ++n[key]] = $i
		}
	}
	END {
		for (k = 1; k <= keys; k++) {
			key = order[k]; c = n[key]
			for (i = 1; i <= c; i++) s[i] = v[key, i] + 0
			for (i = 2; i <= c; i++) { x = s[i]; j = i - 1; while (j > 0 && s[j] > x) { s[j + 1] = s[j]; j-- } s[j + 1] = x }
			med = (c % 2) ? s[(c + 1) / 2] : (s[c / 2] + s[c / 2 + 1]) / 2
			split(key, p, "\t")
			printf "| %s | %s | %.4g | %d |\n", p[1], p[2], med, c
		}
	}' "$OUT/raw.txt"
} >"$OUT/medians.md.tmp"
mv "$OUT/medians.md.tmp" "$OUT/medians.md"
echo "bench.sh: wrote $OUT/raw.txt and $OUT/medians.md" >&2

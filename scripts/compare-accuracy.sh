#!/bin/sh
# compare-accuracy.sh A/accuracy.tsv B/accuracy.tsv [TOP]
#
# Joins two accuracy tables of `hdlgen reproduce` on (dataset, network) and
# prints, per network, the mean accuracy (accuracy_mean, the --test-norm of
# each run) of both over the datasets they share, the mean difference B − A,
# wins/ties/losses of B, and the TOP (default 10) datasets that move most,
# then every shared row. Used for the pinv-cutoff reproduction
# (results/uci121-pinv*/compare-*.txt).
set -eu
[ $# -ge 2 ] || { echo "usage: $0 A/accuracy.tsv B/accuracy.tsv [TOP]" >&2; exit 2; }
a=$1 b=$2 top=${3:-10}
for f in "$a" "$b"; do
	head -1 "$f" | grep -q '^dataset	network	.*accuracy_mean' || { echo "$f: not an accuracy.tsv of hdlgen reproduce" >&2; exit 1; }
done
awk -F'\t' -v top="$top" -v A="$a" -v B="$b" '
FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
FILENAME == A { acc[$1 SUBSEP $2] = $(col[A, "accuracy_mean"]); next }
(($1 SUBSEP $2) in acc) {
	nw = $2; x = acc[$1 SUBSEP $2]; y = $(col[B, "accuracy_mean"])
	n[nw]++; sa[nw] += x; sb[nw] += y
	if (y > x) w[nw]++; else if (y < x) l[nw]++; else t[nw]++
	row[nw, n[nw]] = sprintf("%s\t%.4f\t%.4f\t%+.4f", $1, x, y, y - x); d[nw, n[nw]] = y - x
}
END {
	print "# A = " A "\n# B = " B
	for (nw in n) {
		printf "\n%s: %d shared datasets; mean A %.4f, mean B %.4f, B − A %+.4f; B wins/ties/losses %d/%d/%d\n", nw, n[nw], sa[nw] / n[nw], sb[nw] / n[nw], (sb[nw] - sa[nw]) / n[nw], w[nw], t[nw], l[nw]
		# selection sort by |difference|, largest first
		for (i = 1; i <= n[nw]; i++) idx[i] = i
		for (i = 1; i <= n[nw]; i++) for (j = i + 1; j <= n[nw]; j++) {
			di = d[nw, idx[i]]; dj = d[nw, idx[j]]
			if ((dj < 0 ? -dj : dj) > (di < 0 ? -di : di)) { k = idx[i]; idx[i] = idx[j]; idx[j] = k }
		}
		printf "largest moves (dataset, A, B, B − A):\n"
		for (i = 1; i <= n[nw] && i <= top; i++) print "  " row[nw, idx[i]]
		printf "all shared datasets:\n"
		for (i = 1; i <= n[nw]; i++) print "  " row[nw, i]
	}
}' "$a" "$b"

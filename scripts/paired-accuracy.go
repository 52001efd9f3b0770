//go:build ignore

// Paired-accuracy compares one network's accuracy in two accuracy tables of
// `hdlgen reproduce` (A = baseline, B = challenger) over the datasets B
// holds: the mean accuracy (accuracy_mean) of each, B − A, wins/ties/losses
// of B, Pearson's r and the p-values of protocol.Compare (paired t,
// two-sample t, Wilcoxon signed-rank). Every dataset of B must be in A.
// NETWORK may be A_NETWORK:B_NETWORK to compare two networks (e.g.
// rvfl:intrvfl). Used for the generated-W_in study
// (results/uci121-win-lfsr/compare.txt) and the pinv-cutoff intRVFL.
//
//	go run scripts/paired-accuracy.go results/uci121/accuracy.tsv results/uci121-win-lfsr/accuracy.tsv intrvfl
//	go run scripts/paired-accuracy.go results/uci121-pinv/accuracy.tsv results/uci121-pinv-intrvfl/accuracy.tsv rvfl:intrvfl
package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/hdlgen/hdlgen/protocol"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: go run scripts/paired-accuracy.go A/accuracy.tsv B/accuracy.tsv NETWORK|A_NETWORK:B_NETWORK")
		os.Exit(2)
	}
	nwA, nwB, cross := strings.Cut(os.Args[3], ":")
	if !cross {
		nwB = nwA
	}
	a, err := read(os.Args[1], nwA)
	if err != nil {
		fail(err)
	}
	b, err := read(os.Args[2], nwB)
	if err != nil {
		fail(err)
	}
	var names []string
	for d := range b {
		if _, ok := a[d]; !ok {
			fail(fmt.Errorf("%s: dataset %s is not in %s", os.Args[2], d, os.Args[1]))
		}
		names = append(names, d)
	}
	sort.Strings(names)
	var xa, xb []float64
	for _, d := range names {
		xa, xb = append(xa, a[d]), append(xb, b[d])
	}
	c := protocol.Compare(xa, xb)
	if cross {
		fmt.Printf("# A = %s (%s)\n# B = %s (%s)\n# %d datasets (those of B)\n", os.Args[1], nwA, os.Args[2], nwB, len(names))
	} else {
		fmt.Printf("# A = %s\n# B = %s\n# network %s, %d datasets (those of B)\n", os.Args[1], os.Args[2], nwA, len(names))
	}
	fmt.Printf("mean A %.4f, mean B %.4f, B − A %+.4f\n", c.MeanA, c.MeanB, c.MeanB-c.MeanA)
	fmt.Printf("B wins/ties/losses %d/%d/%d; Pearson %.3f; p-values: paired t %.3g, two-sample t %.3g, Wilcoxon signed-rank %.3g\n",
		c.Wins, c.Ties, c.Losses, c.Pearson, c.PairedT, c.TwoSampleT, c.Wilcoxon)
	fmt.Println("dataset\tA\tB\tB − A")
	for i, d := range names {
		fmt.Printf("%s\t%.4f\t%.4f\t%+.4f\n", d, xa[i], xb[i], xb[i]-xa[i])
	}
}

// read returns accuracy_mean by dataset for the rows of network nw.
func read(path, nw string) (map[string]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	col := map[string]int{}
	out := map[string]float64{}
	for line := 0; sc.Scan(); line++ {
		fields := strings.Split(sc.Text(), "\t")
		if line == 0 {
			for i, h := range fields {
				col[h] = i
			}
			if _, ok := col["accuracy_mean"]; !ok {
				return nil, fmt.Errorf("%s: no accuracy_mean column (not an accuracy.tsv of hdlgen reproduce)", path)
			}
			continue
		}
		if fields[col["network"]] != nw {
			continue
		}
		v, err := strconv.ParseFloat(fields[col["accuracy_mean"]], 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: accuracy_mean: %w", path, line+1, err)
		}
		out[fields[col["dataset"]]] = v
	}
	return out, sc.Err()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "paired-accuracy:", err)
	os.Exit(1)
}

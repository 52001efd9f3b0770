//go:build ignore

// Intrvfl2-check is the quick accuracy check behind the intrvfl2's second
// layer (docs/semantics.md §3b): on a few collection datasets it compares
// one intRVFL layer of n and of 2n neurons with two layers of n each (the
// intrvfl2, readout over both) for several clip bounds of the second layer,
// κ2 = c·κ1'·√N1 (c = "inf": no second clip). Float64 exact readout, the
// variance regulariser, λ and κ picked on the test folds, the first folds of
// the collection, at most -rows training and test rows (a random sample of
// each fold's rows, the same for every variant): a screening, only the
// differences between the columns mean anything.
//
//	go run scripts/intrvfl2-check.go [-data DIR] [-n 150] [-seed 1] [-folds 2] [-rows 6000] [DATASET ...]
//
// It prints one Markdown row per dataset: the accuracy of each variant.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
)

func main() {
	dir := flag.String("data", "../shared/uci121", "UCI-121 collection folder")
	n := flag.Int("n", 150, "neurons per layer")
	folds := flag.Int("folds", 2, "folds (the collection's first ones)")
	rows := flag.Int("rows", 6000, "at most this many training and test rows per fold")
	cs := flag.String("c", "0.25,0.5,1,inf", "second-layer clip factors c of κ2 = c·κ1'·√N1")
	kappas := flag.String("kappa", "1,3,7", "κ1 values (the best on the test folds is kept)")
	lambdas := flag.String("lambda", "0.1,1,10", "λ values (the best on the test folds is kept)")
	seed := flag.Uint64("seed", 1, "the networks' seed (the PCG-drawn W2's is seed+1)")
	flag.Parse()
	names := flag.Args()
	if len(names) == 0 {
		names = []string{"car", "nursery", "chess-krvk", "letter"}
	}
	var cvals []float64
	for _, s := range strings.Split(*cs, ",") {
		if s == "inf" {
			cvals = append(cvals, math.Inf(1))
			continue
		}
		var v float64
		fmt.Sscan(s, &v)
		cvals = append(cvals, v)
	}
	ks := ints(*kappas)
	var ls []float64
	for _, s := range strings.Split(*lambdas, ",") {
		var v float64
		fmt.Sscan(s, &v)
		ls = append(ls, v)
	}
	head := fmt.Sprintf("| dataset | 1 layer N=%d | 1 layer N=%d |", *n, 2**n)
	for _, c := range cvals {
		head += fmt.Sprintf(" 2 layers c=%g |", c)
	}
	head += " 2 layers c=0.5, PCG-drawn W2 |"
	fmt.Println(head)
	fmt.Println("|" + strings.Repeat(" --- |", 4+len(cvals)))
	for _, name := range names {
		u, err := dataset.LoadUCI(*dir, name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		variants := 3 + len(cvals)
		best := make([]float64, variants)
		for _, kappa := range ks {
			// acc[v][λ] summed over folds
			acc := make([][]float64, variants)
			for v := range acc {
				acc[v] = make([]float64, len(ls))
			}
			for f := 0; f < *folds; f++ {
				sp := u.Folds[f]
				// a random sample, not the first rows: the folds list rows grouped by class
				tr, te := dataset.SampleIndices(sp.Train, *rows, 1), dataset.SampleIndices(sp.Test, *rows, 1)
				d := u.Data
				k := d.K()
				xtr, ytr := pick(d, tr)
				xte, yte := pick(d, te)
				norm := model.FitNormalizer(xtr, len(ytr), k)
				ntr, nte := norm.Apply(xtr, len(ytr)), norm.Apply(xte, len(yte))
				nets := []model.Network{
					model.NewIntNet(k, *n, kappa, *seed),
					model.NewIntNet(k, 2**n, kappa, *seed),
				}
				for _, c := range cvals {
					k2 := math.MaxInt32
					if !math.IsInf(c, 1) {
						k2 = max(1, int(math.Round(c*float64(min(kappa, k))*math.Sqrt(float64(*n)))))
					}
					nets = append(nets, model.NewInt2Net(k, *n, *n, kappa, k2, *seed))
				}
				// The c = 0.5 second layer with a W2 drawn from the PCG stream
				// instead of the PRBS31 windows: does the generator cost accuracy?
				rnd := model.NewInt2Net(k, *n, *n, kappa, max(1, int(math.Round(0.5*float64(min(kappa, k))*math.Sqrt(float64(*n))))), *seed)
				rnd.W2 = model.NewIntNet(*n, *n, 1, *seed+1).Signs
				nets = append(nets, rnd)
				for v, net := range nets {
					c := net.Columns()
					htr, hte := net.HiddenMatrix(ntr, len(ytr)), net.HiddenMatrix(nte, len(yte))
					for li, lambda := range ls {
						w, _, err := model.SolveReadout(htr, len(ytr), c, ytr, d.L(), lambda, model.RegVariance, model.Solver{}, 1)
						if err != nil {
							fmt.Fprintln(os.Stderr, name, err)
							continue
						}
						ok := 0
						for r, y := range yte {
							hrow := hte[r*c : (r+1)*c]
							bestL, bestS := 0, math.Inf(-1)
							for l := 0; l < d.L(); l++ {
								s := 0.0
								for j, h := range hrow {
									s += w[l*c+j] * h
								}
								if s > bestS {
									bestL, bestS = l, s
								}
							}
							if bestL == y {
								ok++
							}
						}
						acc[v][li] += float64(ok) / float64(len(yte)) / float64(*folds)
					}
				}
			}
			for v := range acc {
				for _, a := range acc[v] {
					best[v] = max(best[v], a)
				}
			}
		}
		row := "| " + name + " |"
		for _, a := range best {
			row += fmt.Sprintf(" %.3f |", a)
		}
		fmt.Println(row)
	}
}

func ints(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		var v int
		fmt.Sscan(f, &v)
		out = append(out, v)
	}
	return out
}

// pick returns the features and labels of rows idx of d.
func pick(d *dataset.Dataset, idx []int) ([]float64, []int) {
	s := d.Subset(idx)
	return s.X, s.Y
}

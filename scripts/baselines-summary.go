//go:build ignore

// Baselines-summary puts the same-protocol baselines of scripts/baselines.py
// (results/baselines/<dataset>.json) beside hdlgen's best 5-bit intRVFL (the
// "chosen" column of results/uci121-identity-wide-5bit-ga/retune.tsv: 5-bit
// readout, λ retuned for it, GA where it validates better, --test-norm auto)
// per subset of the collection: every dataset, the four-fold ones, the
// four-fold ones with at least 1,000 rows, and the four named
// datasets. Each subset is compared on the datasets the baselines cover,
// with the coverage stated. Two-file datasets take the baselines' test
// accuracy under hdlgen's "auto" rule (the test file's own min/max when the
// two files were standardised differently, protocol.FilesMismatched, with
// the features constant in it at the train file's median where
// protocol.AutoFills, else the train file's), as the hdlgen column does.
//
//	go run scripts/baselines-summary.go -data ../shared/uci121 -out results/baselines/summary.md
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/atomicfile"
	"github.com/hdlgen/hdlgen/protocol"
)

var models = []string{"rf", "logreg", "mlp", "svm"}

var modelNames = map[string]string{
	"rf":     "random forest (500 trees)",
	"logreg": "logistic regression",
	"mlp":    "MLP (100 hidden)",
	"svm":    "RBF SVM",
}

// named are the four datasets.
var named = []string{"letter", "chess-krvk", "car", "nursery"}

type modelResult struct {
	Accuracy      *float64 `json:"accuracy"`
	TestNormOwn   *float64 `json:"test_norm_own"`
	TestNormTrain *float64 `json:"test_norm_train"`
	// TestNormOwnFilled: where protocol.AutoFills only.
	TestNormOwnFilled *float64 `json:"test_norm_own_filled"`
	Seconds           float64  `json:"seconds"`
}

type baseline struct {
	Dataset  string                 `json:"dataset"`
	Protocol string                 `json:"protocol"`
	Rows     int                    `json:"rows"`
	Command  string                 `json:"command"`
	Date     string                 `json:"date"`
	Sklearn  string                 `json:"sklearn"`
	MaxRows  int                    `json:"max_rows_svm_mlp"`
	Models   map[string]modelResult `json:"models"`
	Seconds  float64                `json:"seconds"`
}

func main() {
	data := flag.String("data", "", "the UCI-121 collection")
	dir := flag.String("dir", "results/baselines", "the baselines' per-dataset files")
	hdl := flag.String("hdlgen", "results/uci121-identity-wide-5bit-ga/retune.tsv", "hdlgen's retune table (its chosen column)")
	out := flag.String("out", "", "the Markdown to write (default: stdout)")
	flag.Parse()
	if *data == "" {
		fail(fmt.Errorf("-data is required"))
	}
	ref, err := readChosen(*hdl)
	if err != nil {
		fail(err)
	}
	names, err := dataset.ListUCI(*data)
	if err != nil {
		fail(err)
	}
	type row struct {
		name     string
		fourFold bool
		rows     int
		hdl      float64
		hasHDL   bool
		acc      map[string]float64 // nil: not run yet
	}
	var all []row
	var cmds, dates []string
	var sk string
	maxRows := 0
	for _, n := range names {
		meta, err := dataset.ReadUCIMeta(*data, n)
		if err != nil {
			fail(err)
		}
		r := row{name: n, fourFold: meta.TestFile == "", rows: meta.TrainRows}
		r.hdl, r.hasHDL = ref[n]
		b, err := os.ReadFile(filepath.Join(*dir, n+".json"))
		switch {
		case os.IsNotExist(err):
		case err != nil:
			fail(err)
		default:
			var bl baseline
			if err := json.Unmarshal(b, &bl); err != nil {
				fail(fmt.Errorf("%s: %w", filepath.Join(*dir, n+".json"), err))
			}
			own, filled := true, false
			if !r.fourFold {
				u, err := dataset.LoadUCI(*data, n)
				if err != nil {
					fail(err)
				}
				own, filled = protocol.FilesMismatched(u), protocol.AutoFills(u)
			}
			r.acc = map[string]float64{}
			for _, m := range models {
				mr, ok := bl.Models[m]
				if !ok {
					fail(fmt.Errorf("%s: no %s result", n, m))
				}
				switch {
				case mr.Accuracy != nil:
					r.acc[m] = *mr.Accuracy
				case filled && mr.TestNormOwnFilled == nil:
					fail(fmt.Errorf("%s: %s has no accuracy with the test file's constant features filled (test_norm_own_filled): rerun scripts/baselines.py for it", n, m))
				case filled:
					r.acc[m] = *mr.TestNormOwnFilled
				case own && mr.TestNormOwn != nil:
					r.acc[m] = *mr.TestNormOwn
				case mr.TestNormTrain != nil:
					r.acc[m] = *mr.TestNormTrain
				}
			}
			cmds = appendNew(cmds, bl.Command)
			dates = appendNew(dates, bl.Date[:10])
			sk, maxRows = bl.Sklearn, bl.MaxRows
		}
		all = append(all, r)
	}
	subsets := []struct {
		name string
		in   func(row) bool
	}{
		{"all datasets with an hdlgen result", func(r row) bool { return true }},
		{"four-fold datasets", func(r row) bool { return r.fourFold }},
		{"four-fold datasets with ≥ 1,000 rows", func(r row) bool { return r.fourFold && r.rows >= 1000 }},
	}
	for _, n := range named {
		subsets = append(subsets, struct {
			name string
			in   func(row) bool
		}{n, func(r row) bool { return r.name == n }})
	}
	var b strings.Builder
	b.WriteString("# Same-protocol baselines beside hdlgen's 5-bit intRVFL\n\n")
	sort.Strings(dates)
	fmt.Fprintf(&b, "- made by: `go run scripts/baselines-summary.go -data ../shared/uci121 -out results/baselines/summary.md` from the per-dataset files of ")
	for i, c := range cmds {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "`%s`", c)
	}
	if len(dates) > 0 {
		fmt.Fprintf(&b, " (%s to %s; scikit-learn %s; SVM and MLP on at most %d training rows)\n", dates[0], dates[len(dates)-1], sk, maxRows)
	}
	b.WriteString("- hdlgen: the `chosen` column of results/uci121-identity-wide-5bit-ga/retune.tsv (5-bit readout, λ retuned, GA where it validates better, `--test-norm auto`)\n")
	b.WriteString("- each subset is compared on the datasets the baselines cover (\"covered\"); hdlgen's mean over the whole subset is given too\n\n")
	b.WriteString("| subset | covered | hdlgen, whole subset | hdlgen, covered |")
	for _, m := range models {
		fmt.Fprintf(&b, " %s |", modelNames[m])
	}
	b.WriteString("\n|---|---|---|---|" + strings.Repeat("---|", len(models)) + "\n")
	for _, s := range subsets {
		var whole, cov []float64
		per := map[string][]float64{}
		total := 0
		for _, r := range all {
			if !r.hasHDL || !s.in(r) {
				continue
			}
			total++
			whole = append(whole, r.hdl)
			if r.acc == nil {
				continue
			}
			cov = append(cov, r.hdl)
			for _, m := range models {
				per[m] = append(per[m], r.acc[m])
			}
		}
		fmt.Fprintf(&b, "| %s | %d/%d | %s | %s |", s.name, len(cov), total, mean(whole), mean(cov))
		for _, m := range models {
			fmt.Fprintf(&b, " %s |", mean(per[m]))
		}
		b.WriteString("\n")
	}
	var missing []string
	for _, r := range all {
		if r.hasHDL && r.acc == nil {
			missing = append(missing, r.name)
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(&b, "\nNot covered yet (%d; rerunning the baselines' command resumes): %s.\n", len(missing), strings.Join(missing, ", "))
	}
	b.WriteString("\n## Per dataset\n\n| dataset | protocol | rows | hdlgen 5-bit |")
	for _, m := range models {
		fmt.Fprintf(&b, " %s |", m)
	}
	b.WriteString("\n|---|---|---|---|" + strings.Repeat("---|", len(models)) + "\n")
	for _, r := range all {
		if r.acc == nil {
			continue
		}
		p := "4-fold"
		if !r.fourFold {
			p = "train/test"
		}
		h := "—"
		if r.hasHDL {
			h = fmt.Sprintf("%.4f", r.hdl)
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s |", r.name, p, r.rows, h)
		for _, m := range models {
			fmt.Fprintf(&b, " %.4f |", r.acc[m])
		}
		b.WriteString("\n")
	}
	if *out == "" {
		fmt.Print(b.String())
		return
	}
	if err := atomicfile.WriteFile(*out, []byte(b.String()), 0o644); err != nil {
		fail(err)
	}
}

func mean(v []float64) string {
	if len(v) == 0 {
		return "—"
	}
	return fmt.Sprintf("%.4f", protocol.Mean(v))
}

func appendNew(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

// readChosen reads the dataset and chosen columns of a retune table.
func readChosen(path string) (map[string]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	out := map[string]float64{}
	col := -1
	line := 0
	for sc.Scan() {
		line++
		fields := strings.Split(sc.Text(), "\t")
		if line == 1 {
			for i, h := range fields {
				if h == "chosen" {
					col = i
				}
			}
			if col < 0 {
				return nil, fmt.Errorf("%s:1: no chosen column", path)
			}
			continue
		}
		if len(fields) <= col {
			return nil, fmt.Errorf("%s:%d: %d fields, want more than %d", path, line, len(fields), col)
		}
		v, err := strconv.ParseFloat(fields[col], 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: chosen: %w", path, line, err)
		}
		out[fields[0]] = v
	}
	return out, sc.Err()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "baselines-summary:", err)
	os.Exit(1)
}

//go:build ignore

// Family-build measures what `hdlgen build`'s family (issue 35 item 4) does
// for a user: each dataset is built twice, with the default family and with
// `--family intrvfl` (the plain intRVFL, what build did before), and the two
// designs are compared — the network chosen, validation and held-out
// accuracy of the hardware (the 5-bit readout; the conj's own 8-bit one), Yosys's LUTs, LUT-equivalents, the energy
// estimate and the build's wall time.
//
//	go run scripts/family-build.go -hdlgen bin/hdlgen -out build/family-build [-commit C] \
//	    [-data ../shared/uci121] example:iris examples/sensors.csv car …
//
// A dataset is an embedded example (example:NAME), a CSV file (FILE.csv, label
// last; the label of examples/sensors.csv is its column condition) or a
// dataset of the collection (-data, or HDLGEN_UCI121): its data
// file's rows (every row of a four-fold dataset) written to OUT/data/NAME.csv,
// label last, and built as a user's CSV file. A build whose record
// (OUT/NAME/SETTING.json) exists is not run again, so an interrupted run
// resumes; the table OUT/README.md is written from the records at the end.
// Progress (the builds' steps) goes to stderr.
package main

import (
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/buildflow"
	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/atomicfile"
	"github.com/hdlgen/hdlgen/power"
)

// setting is one way of building: its name and build's extra flags.
type setting struct {
	name  string
	flags []string
}

var settings = []setting{
	{"family", nil},
	{"intrvfl", []string{"--family", "intrvfl"}},
}

// record is what one build gave, read from its folder's JSON files.
type record struct {
	Dataset   string  `json:"dataset"`
	Setting   string  `json:"setting"`
	Command   string  `json:"command"`
	Date      string  `json:"date"`
	Seconds   float64 `json:"seconds"`
	Network   string  `json:"network"`
	N         int     `json:"n"`
	Kappa     int     `json:"kappa"`
	P         int     `json:"p"`
	Validated float64 `json:"validation_accuracy"`
	Held      float64 `json:"held_out_accuracy"`
	HeldRows  int     `json:"held_out_rows"`
	LUTs      int     `json:"yosys_luts"`
	LUTEq     float64 `json:"lut_eq"`
	EnergyJ   float64 `json:"dynamic_energy_j"`
}

func main() {
	bin := flag.String("hdlgen", "bin/hdlgen", "the hdlgen binary")
	out := flag.String("out", "results/family-build", "output folder")
	data := flag.String("data", os.Getenv("HDLGEN_UCI121"), "the collection's folder (for datasets named without example:)")
	commit := flag.String("commit", "", "the commit the hdlgen binary was built from, for the table's header")
	flag.Parse()
	if flag.NArg() == 0 {
		fail(fmt.Errorf("name at least one dataset (example:NAME or a dataset of the collection)"))
	}
	var recs []record
	for _, name := range flag.Args() {
		csvPath, extra, err := source(name, *out, *data)
		if err != nil {
			fail(err)
		}
		for _, s := range settings {
			r, err := build(*bin, *out, name, csvPath, extra, s)
			if err != nil {
				fail(err)
			}
			recs = append(recs, r)
		}
	}
	if err := atomicfile.WriteFile(filepath.Join(*out, "README.md"), []byte(table(recs, *commit)), 0o644); err != nil {
		fail(err)
	}
	fmt.Fprintf(os.Stderr, "family-build: wrote %s\n", filepath.Join(*out, "README.md"))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "family-build:", err)
	os.Exit(1)
}

// short is the dataset's name without example:, or a file's base name.
func short(name string) string {
	return strings.TrimSuffix(filepath.Base(strings.TrimPrefix(name, "example:")), ".csv")
}

// source is the --data (and label flags) of a dataset: an example as is, a
// dataset of the collection written to OUT/data/NAME.csv.
func source(name, out, dir string) (string, []string, error) {
	if strings.HasPrefix(name, "example:") {
		return name, nil, nil
	}
	if strings.HasSuffix(name, ".csv") {
		if filepath.Base(name) == "sensors.csv" {
			return name, []string{"--label-column", "condition"}, nil // the label is its first column
		}
		return name, nil, nil
	}
	if dir == "" {
		return "", nil, fmt.Errorf("%s: no -data folder (or HDLGEN_UCI121) for the collection", name)
	}
	u, err := dataset.LoadUCI(dir, name)
	if err != nil {
		return "", nil, err
	}
	d := u.Data
	var b strings.Builder
	w := csv.NewWriter(&b)
	head := append(append([]string{}, d.FeatureNames...), d.LabelName)
	_ = w.Write(head)
	for i := 0; i < d.M(); i++ {
		row := make([]string, 0, d.K()+1)
		for _, v := range d.Row(i) {
			row = append(row, strconv.FormatFloat(v, 'g', -1, 64))
		}
		_ = w.Write(append(row, d.ClassNames[d.Y[i]]))
	}
	w.Flush()
	p := filepath.Join(out, "data", name+".csv")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", nil, err
	}
	return p, nil, atomicfile.WriteFile(p, []byte(b.String()), 0o644)
}

// build runs one build (unless its record exists) and reads its results.
func build(bin, out, name, csvPath string, extra []string, s setting) (record, error) {
	recPath := filepath.Join(out, short(name), s.name+".json")
	var r record
	if b, err := os.ReadFile(recPath); err == nil {
		return r, json.Unmarshal(b, &r)
	}
	dir := filepath.Join(out, short(name), s.name)
	args := append(append([]string{"build", "--data", csvPath, "-o", dir}, extra...), s.flags...)
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	fmt.Fprintf(os.Stderr, "family-build: %s %s\n", bin, strings.Join(args, " "))
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		return r, fmt.Errorf("%s (%s): %w", name, s.name, err)
	}
	r = record{Dataset: short(name), Setting: s.name, Command: "hdlgen " + strings.Join(args, " "),
		Date: time.Now().UTC().Format("2006-01-02 15:04 UTC"), Seconds: time.Since(t0).Seconds()}
	var design struct {
		Points []struct {
			Network string `json:"network"`
			N       int    `json:"n"`
			Kappa   int    `json:"kappa"`
		} `json:"points"`
		Chosen int `json:"chosen"`
	}
	var eval struct {
		Validated struct {
			Mean float64 `json:"mean"`
		} `json:"validation_accuracy"`
	}
	var held struct {
		Accuracy float64 `json:"accuracy"`
		Total    int     `json:"total"`
	}
	var pw power.Estimate
	for _, f := range []struct {
		file string
		v    any
	}{{"design.json", &design}, {"validate.json", &eval}, {"score/int-holdout.json", &held}, {"power.json", &pw}} {
		b, err := os.ReadFile(filepath.Join(dir, f.file))
		if err != nil {
			return r, err
		}
		if err := json.Unmarshal(b, f.v); err != nil {
			return r, fmt.Errorf("%s: %w", f.file, err)
		}
	}
	pt := design.Points[design.Chosen]
	r.Network, r.N, r.Kappa = pt.Network, pt.N, pt.Kappa
	r.P = pw.Design.P()
	r.Validated, r.Held, r.HeldRows = eval.Validated.Mean, held.Accuracy, held.Total
	r.LUTs = pw.Resources.LUTs + pw.Resources.LUTRAM
	r.LUTEq = buildflow.LUTEq(pw.Resources)
	r.EnergyJ = pw.DynamicJ
	b, _ := json.MarshalIndent(r, "", "  ")
	return r, atomicfile.WriteFile(recPath, append(b, '\n'), 0o644)
}

// table is OUT/README.md: one row per dataset and setting.
func table(recs []record, commit string) string {
	var b strings.Builder
	b.WriteString("# `hdlgen build` with and without the family\n\n")
	fmt.Fprintf(&b, "Made by `go run scripts/family-build.go %s` (the commands and dates per build below). ", strings.Join(os.Args[1:], " "))
	b.WriteString("Each dataset built twice: `family` is the default (every member searched, the design step chooses the network), ")
	b.WriteString("`intrvfl` is `--family intrvfl`. Validation: the build's 4-fold validation of the chosen configuration (`validate.json`); ")
	b.WriteString("held-out: the hardware (5-bit readout; the conj's is its own 8 bits) on the build's held-out rows; LUT: Yosys; LUT-eq and energy as the report gives them ")
	b.WriteString("(energy estimated by hdlgen's power model from the Yosys resources); seconds: the whole build's wall time.\n\n")
	b.WriteString("| dataset | setting | network | N | κ (conj: D) | P | validation | held-out | LUT (Yosys) | LUT-eq | dynamic energy (estimated) | build s |\n")
	b.WriteString("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range recs {
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %d | %.4f | %.4f (%d rows) | %d | %.0f | %.3g nJ | %.0f |\n",
			r.Dataset, r.Setting, r.Network, r.N, r.Kappa, r.P, r.Validated, r.Held, r.HeldRows, r.LUTs, r.LUTEq, r.EnergyJ*1e9, r.Seconds)
	}
	built := "the commit that wrote this file"
	if commit != "" {
		built = "commit " + commit
	}
	fmt.Fprintf(&b, "\nCommands (run from the repository's root, hdlgen built from %s):\n\n", built)
	for _, r := range recs {
		fmt.Fprintf(&b, "- %s: `%s`\n", r.Date, r.Command)
	}
	return b.String()
}

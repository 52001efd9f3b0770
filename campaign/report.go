package campaign

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/internal/planflags"
	"github.com/hdlgen/hdlgen/internal/proc"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// TSVHeader is the first line of results.tsv: the design, one column per
// design option beyond those of tableFlags (named by its design.json key,
// e.g. rom_style), then the outcome.
var TSVHeader = "index\tarch\tk\tn\tl\tkappa\tbits\tp\taxis\tsystem\treloadable\tno_scores\tready\tadder_levels\targmax_levels\twin\t" +
	strings.Join(extraColumns(), "\t") + "\tgate_level\tvectors\tlatency\tii\tsteps\tsteps_passed\tmismatches\tseconds\tcpu_seconds\tresult\terror"

// extraColumns are the TSV columns of the options beyond tableFlags.
func extraColumns() []string {
	var cols []string
	for _, o := range extraOptions() {
		cols = append(cols, strings.ReplaceAll(o.Flag, "-", "_"))
	}
	return cols
}

// extraValues are a design's values in the extraColumns (an unset string
// option shows its default, e.g. auto).
func extraValues(d Design) []string {
	var vals []string
	for _, o := range extraOptions() {
		v := o.Value(d.Options)
		if v == "" {
			v = o.Default
		}
		vals = append(vals, v)
	}
	return vals
}

// TSV returns results.tsv: one row per record.
func TSV(s *Summary) []byte {
	var b bytes.Buffer
	b.WriteString(TSVHeader + "\n")
	for _, r := range s.Records {
		d := r.Design
		passed := 0
		for _, st := range r.Steps {
			if st.Passed {
				passed++
			}
		}
		result := "pass"
		if !r.Passed {
			result = "FAIL"
		}
		errText := strings.NewReplacer("\t", " ", "\n", " | ").Replace(r.Error)
		fmt.Fprintf(&b, "%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%t\t%s\t%t\t%t\t%.2f\t%d\t%d\t%s\t%s\t%t\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f\t%.1f\t%s\t%s\n",
			d.Index, d.Shape.Arch, d.Shape.K, d.Shape.N, d.Shape.L, d.Shape.Kappa, d.Shape.Bits, d.Parallel,
			d.Axis, d.System, d.ReloadableReadout, d.NoScores, d.Ready, d.AdderLevelsPerStage, d.ArgmaxLevelsPerStage,
			d.Shape.Win.Flag(), strings.Join(extraValues(d), "\t"), r.GateLevel, r.Vectors, r.Latency, r.II, len(r.Steps), passed, r.Mismatches, r.Seconds, r.CPUSeconds, result, errText)
	}
	return b.Bytes()
}

// WriteReports writes DIR/results.tsv and DIR/summary.md.
func WriteReports(c Config, s *Summary) error {
	if err := os.WriteFile(filepath.Join(c.Out, "results.tsv"), TSV(s), 0o644); err != nil {
		return fmt.Errorf("campaign: %w", err)
	}
	if err := os.WriteFile(filepath.Join(c.Out, "summary.md"), SummaryMarkdown(c, s, time.Now().UTC()), 0o644); err != nil {
		return fmt.Errorf("campaign: %w", err)
	}
	return nil
}

// SummaryMarkdown returns summary.md.
func SummaryMarkdown(c Config, s *Summary, now time.Time) []byte {
	var b bytes.Buffer
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("# Verification campaign: seed %d, %d designs × %d vectors\n\n", c.Seed, c.Designs, c.Vectors)
	w("Written by `hdlgen campaign` (package campaign, docs/campaign.md) at %s.\n\n", now.Format("2006-01-02 15:04 UTC"))
	w("Command:\n\n    %s\n\n", c.Command)
	w("Machine: %s, %d logical CPUs, %s/%s, %s; %s.\n\n", cpuModel(), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version(), toolVersions())

	var secs, cpus []float64
	var total, cpuTotal float64
	steps, gate := 0, 0
	vectors := 0
	for _, r := range s.Records {
		secs = append(secs, r.Seconds)
		total += r.Seconds
		if r.CPUSeconds > 0 {
			cpus = append(cpus, r.CPUSeconds)
			cpuTotal += r.CPUSeconds
		}
		steps += len(r.Steps)
		if r.GateLevel {
			gate++
		}
		for _, st := range r.Steps {
			vectors += st.Vectors
		}
	}
	w("## Result\n\n")
	w("| designs drawn | recorded | passed | failed | not yet run | verify steps | vectors checked (sum over steps) | mismatches | gate-level designs |\n")
	w("|---|---|---|---|---|---|---|---|---|\n")
	w("| %d | %d | %d | %d | %d | %d | %d | %d | %d |\n\n", c.Designs, len(s.Records), s.Passed, s.Failed, s.Missing, steps, vectors, s.Mismatches, gate)
	switch {
	case len(s.Records) == 0:
		w("No design has been run yet.\n\n")
	case s.Failed == 0 && s.Mismatches == 0:
		w("**0 mismatches**: every one of the %d recorded designs passed every step (model check, Verilator lint, "+
			"Verilator and Icarus on every emitted top, and the gate-level steps where run), bit-exact against the Go simulator.\n\n", len(s.Records))
	default:
		w("**%d design(s) failed, %d mismatch line(s) in all.** Failures:\n\n", s.Failed, s.Mismatches)
		w("| design | shape | options | error | reproduce |\n|---|---|---|---|---|\n")
		for _, r := range s.Records {
			if r.Passed {
				continue
			}
			w("| %s | %s | %s | %s | `%s` |\n", r.Design.Name(), r.Design.Shape, r.Design.OptionString(),
				strings.ReplaceAll(firstLine(r.Error), "|", "\\|"), Reproducer(c, r.Design.Index))
		}
		w("\n")
	}
	if s.Missing > 0 {
		w("%d of the %d designs have not been run yet: the same command continues the campaign.\n\n", s.Missing, c.Designs)
	}
	if len(secs) > 0 {
		slices.Sort(secs)
		w("Wall time per design (emit and verify, %d worker(s)): median %.1f s, min %.1f s, max %.1f s, sum %.0f s.\n\n",
			c.Workers, median(secs), secs[0], secs[len(secs)-1], total)
	}
	if len(cpus) > 0 {
		slices.Sort(cpus)
		w("CPU time per design (user + system of hdlgen and every tool it ran; recorded with one worker, %d designs): median %.1f s, min %.1f s, max %.1f s, sum %.0f s.\n\n",
			len(cpus), median(cpus), cpus[0], cpus[len(cpus)-1], cpuTotal)
	}
	w("## Distribution of the recorded designs\n\n")
	writeDistribution(&b, s.Records, true)
	return b.Bytes()
}

// DrawTable returns the distribution table of designs 0…n−1 of seed and
// one line per design (what hdlgen campaign --list prints): the campaign's
// shapes before anything runs.
func DrawTable(seed uint64, n int) []byte {
	var b bytes.Buffer
	recs := make([]Record, n)
	for i := range recs {
		recs[i] = Record{Design: Draw(seed, i)}
	}
	fmt.Fprintf(&b, "Designs 0…%d of seed %d:\n\n", n-1, seed)
	writeDistribution(&b, recs, false)
	b.WriteString("\n")
	for _, r := range recs {
		fmt.Fprintf(&b, "%s %s %s\n", r.Design.Name(), r.Design.Shape, r.Design.OptionString())
	}
	return b.Bytes()
}

// Reproducer is the command that runs design i of the campaign alone (in a
// scratch DIR, keeping its work directory).
func Reproducer(c Config, i int) string {
	g := ""
	if c.GateLevel(i) {
		g = fmt.Sprintf(" --gate-level-every %d", c.GateLevelEvery)
	}
	return fmt.Sprintf("hdlgen campaign --designs %d --vectors %d --seed %d%s --only %d --keep-work --out /tmp/repro-%04d",
		c.Designs, c.Vectors, c.Seed, g, i, i)
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// count is a labelled tally printed in a fixed order.
type count struct {
	label string
	pred  func(r Record) bool
}

func writeDistribution(b *bytes.Buffer, recs []Record, ran bool) {
	// The rows of network traits name the network types that have them.
	var networks []count
	with := map[string][]string{}
	for _, a := range plan.Archs() {
		networks = append(networks, count{string(a), func(r Record) bool { return r.Design.Shape.Arch == a }})
		t, _ := model.TraitsOf(a)
		for trait, has := range map[string]bool{"kappa": t.Kappa, "bits": t.ReadoutBits(), "win": t.GeneratedWin} {
			if has {
				with[trait] = append(with[trait], string(a))
			}
		}
	}
	has := func(r Record, trait string) bool { return slices.Contains(with[trait], string(r.Design.Shape.Arch)) }
	kappa := func(r Record) bool { return has(r, "kappa") }
	bits := func(r Record) bool { return has(r, "bits") }
	rows := []struct {
		what   string
		counts []count
	}{
		{"network", networks},
		{"K", []count{
			{"1", func(r Record) bool { return r.Design.Shape.K == 1 }},
			{"2–3", func(r Record) bool { return r.Design.Shape.K >= 2 && r.Design.Shape.K <= 3 }},
			{"4–15", func(r Record) bool { return r.Design.Shape.K >= 4 && r.Design.Shape.K <= 15 }},
			{fmt.Sprintf("16–%d", MaxK), func(r Record) bool { return r.Design.Shape.K >= 16 }},
			{"odd", func(r Record) bool { return r.Design.Shape.K%2 == 1 }},
		}},
		{"N", []count{
			{"1–4", func(r Record) bool { return r.Design.Shape.N <= 4 }},
			{"5–31", func(r Record) bool { return r.Design.Shape.N >= 5 && r.Design.Shape.N <= 31 }},
			{"32–63", func(r Record) bool { return r.Design.Shape.N >= 32 && r.Design.Shape.N <= 63 }},
			{fmt.Sprintf("≥ 64 (max %d)", MaxN), func(r Record) bool { return r.Design.Shape.N >= 64 }},
		}},
		{"P", []count{
			{"P = 1", func(r Record) bool { return r.Design.Parallel == 1 }},
			{"P = N > 1", func(r Record) bool { return r.Design.Parallel == r.Design.Shape.N && r.Design.Parallel > 1 }},
			{"P ∤ N", func(r Record) bool { return r.Design.Shape.N%r.Design.Parallel != 0 }},
			{"P ≥ 8", func(r Record) bool { return r.Design.Parallel >= 8 }},
		}},
		{"L", []count{
			{"2", func(r Record) bool { return r.Design.Shape.L == 2 }},
			{"3–6", func(r Record) bool { return r.Design.Shape.L >= 3 && r.Design.Shape.L <= 6 }},
			{fmt.Sprintf("7–%d", MaxL), func(r Record) bool { return r.Design.Shape.L >= 7 }},
		}},
		{"κ (" + strings.Join(with["kappa"], ", ") + ")", []count{
			{"1", func(r Record) bool { return kappa(r) && r.Design.Shape.Kappa == 1 }},
			{"2…K+2", func(r Record) bool { return kappa(r) && r.Design.Shape.Kappa > 1 && r.Design.Shape.Kappa < LargeKappa }},
			{fmt.Sprintf("%d (max)", LargeKappa), func(r Record) bool { return kappa(r) && r.Design.Shape.Kappa == LargeKappa }},
		}},
		{"readout bits (" + strings.Join(with["bits"], ", ") + ")", []count{
			{"2", func(r Record) bool { return bits(r) && r.Design.Shape.Bits == 2 }},
			{"3–15", func(r Record) bool { return bits(r) && r.Design.Shape.Bits > 2 && r.Design.Shape.Bits < 16 }},
			{"16", func(r Record) bool { return bits(r) && r.Design.Shape.Bits == 16 }},
		}},
		{"options", []count{
			{"--win lfsr (" + strings.Join(with["win"], ", ") + ")", func(r Record) bool { return r.Design.Shape.Win == model.WinPRBS31 }},
			{"--axis", func(r Record) bool { return r.Design.Axis }},
			{"--system zynq", func(r Record) bool { return r.Design.System != "" }},
			{"--reloadable-readout", func(r Record) bool { return r.Design.ReloadableReadout }},
			{"--no-scores", func(r Record) bool { return r.Design.NoScores }},
			{"ready = 1", func(r Record) bool { return r.Design.Ready == 1 }},
			{"ready < 0.5", func(r Record) bool { return r.Design.Ready < 0.5 }},
			{"adder levels set", func(r Record) bool { return r.Design.AdderLevelsPerStage != 0 }},
			{"adder levels = 1", func(r Record) bool { return r.Design.AdderLevelsPerStage == 1 }},
			{"argmax levels set", func(r Record) bool { return r.Design.ArgmaxLevelsPerStage != 0 }},
			{"argmax levels = 1", func(r Record) bool { return r.Design.ArgmaxLevelsPerStage == 1 }},
		}},
	}
	// One count per design option beyond tableFlags (each set to a value
	// other than its default), and one for all of them at once.
	opts := &rows[len(rows)-1].counts
	extra := extraOptions()
	for _, o := range extra {
		label := "--" + o.Flag
		*opts = append(*opts, count{label, func(r Record) bool { return !o.IsDefault(r.Design.Options) }})
	}
	*opts = append(*opts, count{fmt.Sprintf("all %d of them", len(extra)), func(r Record) bool {
		return !slices.ContainsFunc(extra, func(o planflags.Option) bool { return o.IsDefault(r.Design.Options) })
	}})
	if ran {
		last := len(rows) - 1
		rows[last].counts = append(rows[last].counts, count{"gate level", func(r Record) bool { return r.GateLevel }})
	}
	fmt.Fprintf(b, "| property | counts |\n|---|---|\n")
	for _, row := range rows {
		var parts []string
		for _, c := range row.counts {
			n := 0
			for _, r := range recs {
				if c.pred(r) {
					n++
				}
			}
			parts = append(parts, fmt.Sprintf("%s: %d", c.label, n))
		}
		fmt.Fprintf(b, "| %s | %s |\n", row.what, strings.Join(parts, ", "))
	}
	if len(recs) > 0 && ran {
		kmax, nmax, pmax, nk := 0, 0, 0, 0
		for _, r := range recs {
			s := r.Design.Shape
			kmax, nmax, pmax, nk = max(kmax, s.K), max(nmax, s.N), max(pmax, r.Design.Parallel), max(nk, s.N*s.K)
		}
		fmt.Fprintf(b, "\nLargest recorded: K = %d, N = %d, P = %d, N·K = %d. Test vectors: %d per design, emitted with the design's seed, gaps up to %d idle cycles.\n",
			kmax, nmax, pmax, nk, recs[0].Vectors, rtl.DefaultMaxGap)
	}
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "CPU unknown"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "CPU unknown"
}

func toolVersions() string {
	var out []string
	for _, t := range [][]string{{"verilator", "--version"}, {"iverilog", "-V"}, {"yosys", "-V"}} {
		cmd := exec.Command(t[0], t[1:]...)
		proc.Setup(cmd)
		b, err := cmd.Output()
		if err != nil && len(b) == 0 {
			out = append(out, t[0]+" missing")
			continue
		}
		out = append(out, strings.TrimSpace(firstLine(string(b))))
	}
	return strings.Join(out, "; ")
}

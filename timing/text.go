package timing

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Meets reports whether the estimate meets a clock of clockMHz.
func (r *Report) Meets(clockMHz float64) bool {
	return r.PeriodNS == 0 || r.FmaxMHz >= clockMHz
}

// Headline is the one-line summary used by hdlgen synth, power and the median
// table: "121.5 MHz (8.23 ns, 13 levels; meets 100 MHz)".
func (r *Report) Headline(clockMHz float64) string {
	if r.PeriodNS == 0 {
		return "no register-to-register path"
	}
	verdict := "meets"
	if !r.Meets(clockMHz) {
		verdict = "MISSES"
	}
	return fmt.Sprintf("%.1f MHz (%.2f ns, %d levels; %s %g MHz)", r.FmaxMHz, r.PeriodNS, r.Levels, verdict, clockMHz)
}

// WriteText prints the estimate and its worst path, one line per cell.
func (r *Report) WriteText(w io.Writer, clockMHz float64) error {
	if _, err := fmt.Fprintf(w, "Fmax %s — estimated by hdlgen's static timing model %s (docs/timing.md)\n", r.Headline(clockMHz), r.Model); err != nil {
		return err
	}
	if r.PeriodNS == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  cell\tarc\tcell ns\tnet ns\tfanout\tarrival ns\tdrives\n")
	for _, s := range r.Path {
		fmt.Fprintf(tw, "  %s\t%s\t%.3f\t%.3f\t%d\t%.3f\t%s\n", s.Type, s.Arc, s.CellNS, s.NetNS, s.Fanout, s.ArrivalNS, s.Net)
	}
	fmt.Fprintf(tw, "  setup\t\t%.3f\t\t\t%.3f\t%s\n", r.SetupNS, r.PeriodNS, r.End)
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "  largest fanout: %d loads on %s\n", r.MaxFanout, r.MaxFanoutNet)
	return err
}

// PathShort names the path by its registers and the named nets on it:
// "u_core.offsets[29] → u_core.u_hidden.counts[3] → … → FDSE u_core.hidden[0].S".
func (r *Report) PathShort() string {
	var parts []string
	for _, s := range r.Path {
		if s.Net != "" {
			parts = append(parts, s.Net)
		}
	}
	return strings.Join(append(parts, r.End), " → ")
}

package hwstudy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/synth"
)

// Synthesized is one emitted and synthesised design.
type Synthesized struct {
	Dir     string        `json:"dir"`
	Design  power.Design  `json:"design"`
	Plan    *plan.Plan    `json:"-"`
	Options plan.Options  `json:"-"` // the emit options asked for
	Yosys   *synth.Report `json:"yosys"`
}

// emitAndSynth writes model m with j's emit options to j's dir and
// synthesises it. Reports persist in so.CacheDir across re-emits (an emit
// replaces dir/build).
func emitAndSynth(ctx context.Context, j job, so synth.Options) (*Synthesized, error) {
	m, dir := j.m, j.dir
	rep, err := rtl.Emit(ctx, m, rtl.Options{Options: j.opts, Vectors: 4}, dir)
	if err != nil {
		return nil, fmt.Errorf("hwstudy: emit %s P=%d: %w", m.Name, j.opts.Parallel, err)
	}
	r, err := synth.Run(ctx, dir, so)
	if err != nil {
		return nil, err
	}
	return &Synthesized{Dir: rep.Dir, Design: power.DesignOfModel(rep.Plan, m), Plan: rep.Plan, Options: j.opts, Yosys: r}, nil
}

// job is one design to emit and synthesise.
type job struct {
	m    *model.Model
	opts plan.Options // the emit options (P, pipeline rules, ROM style, …)
	dir  string
}

// runJobs synthesises jobs on `workers` goroutines (Yosys is single-threaded;
// the one worker pool of internal/jobs); results come back in job order. Once
// ctx ends no further job starts.
func runJobs(ctx context.Context, jobList []job, workers int, so synth.Options, log io.Writer) ([]*Synthesized, error) {
	out := make([]*Synthesized, len(jobList))
	errs := make([]error, len(jobList))
	idx := make([]int, len(jobList))
	for i := range idx {
		idx[i] = i
	}
	jobs.Run(ctx, workers, idx, func(i int) (*Synthesized, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return emitAndSynth(ctx, jobList[i], so)
	}, func(i int, s *Synthesized, err error) {
		out[i], errs[i] = s, err
		if err != nil {
			fmt.Fprintf(log, "hwstudy: %s: %v\n", filepath.Base(jobList[i].dir), err)
			return
		}
		src := fmt.Sprintf("Yosys %.0f s", s.Yosys.Seconds)
		if s.Yosys.Cached {
			src = "cached"
		}
		fmt.Fprintf(log, "hwstudy: %-50s LUT %6d FF %6d DSP %4d BRAM %4.1f (%s)\n", filepath.Base(jobList[i].dir),
			s.Yosys.EstimatedLCs, s.Yosys.FFs, s.Yosys.DSP48E1, s.Yosys.BRAM36(), src)
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// writeOutputs writes BASE.md (md) and BASE.json (v, indented) into outDir.
func writeOutputs(outDir, base string, md []byte, v any) error {
	js, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("hwstudy: %w", err)
	}
	js = append(js, '\n')
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return fmt.Errorf("hwstudy: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(outDir, base+".md"), md, 0o644); err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(outDir, base+".json"), js, 0o644)
}

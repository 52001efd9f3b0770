package verify

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name    string
		step    Step
		output  string
		exitErr string
		want    Result
	}{
		{
			name:   "pass",
			step:   StepVerilator,
			output: "verilator --cc ...\nbuild/verilator/stream/Vdut\nPASS vectors=1000 cycles=54321 latency=67\n",
			want:   Result{Passed: true, Vectors: 1000, Cycles: 54321, Latency: 67},
		},
		{
			name:   "pass_with_simrate",
			step:   StepVerilator,
			output: "SIMRATE cycles=54321 wall_ns=27160500\nPASS vectors=1000 cycles=54321 latency=67\n",
			want:   Result{Passed: true, Vectors: 1000, Cycles: 54321, Latency: 67, SimWall: 27160500 * time.Nanosecond},
		},
		{
			name:    "fail_with_simrate",
			step:    StepVerilator,
			output:  "MISMATCH vector=3 field=class expected=1 got=2\nSIMRATE cycles=400 wall_ns=1000\nFAIL vectors=3 cycles=400 mismatches=1\n",
			exitErr: "exit status 1",
			want: Result{Vectors: 3, Cycles: 400, SimWall: time.Microsecond,
				Mismatches: []string{"MISMATCH vector=3 field=class expected=1 got=2"}, ExitErr: "exit status 1"},
		},
		{
			name:   "malformed_simrate_is_ignored",
			step:   StepVerilator,
			output: "SIMRATE cycles=9 wall_ns=-5\nSIMRATE cycles=9\nPASS vectors=1 cycles=9 latency=3\n",
			want:   Result{Passed: true, Vectors: 1, Cycles: 9, Latency: 3},
		},
		{
			name: "mismatch",
			step: StepIcarus,
			output: "MISMATCH vector=3 field=score[2] expected=-5 got=-4\n" +
				"MISMATCH vector=9 field=transfer_cycle expected=100 got=101\n" +
				"FAIL vectors=1000 cycles=54321 mismatches=2\n" +
				"FATAL: tb/tb_stream.v:201: tb_stream: verification failed\n" +
				"make: *** [Makefile:95: icarus-stream] Error 1\n",
			exitErr: "exit status 2",
			want: Result{
				Vectors: 1000, Cycles: 54321,
				Mismatches: []string{
					"MISMATCH vector=3 field=score[2] expected=-5 got=-4",
					"MISMATCH vector=9 field=transfer_cycle expected=100 got=101",
				},
				Diagnostics: []string{"make: *** [Makefile:95: icarus-stream] Error 1"},
				ExitErr:     "exit status 2",
			},
		},
		{
			name:    "timeout",
			step:    StepVerilator,
			output:  "TIMEOUT vector=0 cycles=5000\nFAIL vectors=0 cycles=5000 mismatches=0\n",
			exitErr: "exit status 1",
			want: Result{
				Cycles:     5000,
				Mismatches: []string{"TIMEOUT vector=0 cycles=5000"},
				ExitErr:    "exit status 1",
			},
		},
		{
			name:   "pass_line_with_mismatch_is_a_failure",
			step:   StepVerilator,
			output: "MISMATCH vector=0 field=class expected=1 got=2\nPASS vectors=1 cycles=9 latency=3\n",
			want: Result{
				Vectors: 1, Cycles: 9, Latency: 3,
				Mismatches: []string{"MISMATCH vector=0 field=class expected=1 got=2"},
			},
		},
		{
			name:   "no_pass_line",
			step:   StepIcarus,
			output: "something else\n",
			want:   Result{},
		},
		{
			name:    "bad_vectors",
			step:    StepVerilator,
			output:  "ERROR cannot open vectors/tv_in.mem\n",
			exitErr: "exit status 2",
			want:    Result{Diagnostics: []string{"ERROR cannot open vectors/tv_in.mem"}, ExitErr: "exit status 2"},
		},
		{
			name:   "lint_clean",
			step:   StepLint,
			output: "verilator --lint-only -Wall --language 1364-2005 --top-module x rtl/x.v\n",
			want:   Result{Passed: true},
		},
		{
			name:   "lint_warning_despite_exit_0",
			step:   StepLint,
			output: "%Warning-WIDTH: rtl/x.v:3:9: Operator ASSIGN expects 8 bits\n",
			want:   Result{Diagnostics: []string{"%Warning-WIDTH: rtl/x.v:3:9: Operator ASSIGN expects 8 bits"}},
		},
		{
			name:    "icarus_warning",
			step:    StepIcarus,
			output:  "rtl/x.v:12: warning: @* is sensitive to all 4 words in array 'rom'.\niverilog -Wall reported warnings (warnings are errors)\n",
			exitErr: "exit status 2",
			want: Result{
				Diagnostics: []string{"rtl/x.v:12: warning: @* is sensitive to all 4 words in array 'rom'."},
				ExitErr:     "exit status 2",
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Result{Step: c.step, Output: c.output, ExitErr: c.exitErr}
			parse(&got)
			got.Step, got.Output = "", ""
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestWriteText(t *testing.T) {
	r := &Report{
		Dir: "/d",
		Steps: []Result{
			{Name: "lint/stream", Step: StepLint, Passed: true, Duration: 300 * time.Millisecond},
			{Name: "verilator/stream", Step: StepVerilator, Passed: true, Vectors: 10, Cycles: 99, Latency: 3, Duration: 12 * time.Second},
			{Name: "verilator/axis", Step: StepVerilator, Passed: true, Vectors: 10, Cycles: 2500000, Latency: 9, Duration: 3 * time.Second,
				SimWall: 1250 * time.Millisecond},
			{Name: "icarus/stream", Step: StepIcarus, Vectors: 2, Cycles: 20, Duration: time.Second,
				Mismatches: []string{"MISMATCH vector=1 field=class expected=1 got=0"}},
		},
		Traces:   []string{"build/trace/stream.vcd"},
		Duration: 14 * time.Second,
	}
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "verify /d\n" +
		"  lint/stream            pass     0.3s\n" + // the name column fits gate-verilator/stream
		"  verilator/stream       pass    12.0s  vectors=10 cycles=99 latency=3\n" +
		"  verilator/axis         pass     3.0s  vectors=10 cycles=2500000 latency=9 sim=1.25s (2e+06 cycles/s)\n" +
		"  icarus/stream          FAIL     1.0s  vectors=2 cycles=20\n" +
		"      MISMATCH vector=1 field=class expected=1 got=0\n" +
		"  trace build/trace/stream.vcd\n" +
		"FAIL (14.0s)\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if err := r.Err(); err == nil || err.Error() != "verify: /d failed (1 of 4 steps): icarus/stream: MISMATCH vector=1 field=class expected=1 got=0" {
		t.Errorf("Err() = %v", err)
	}
	if (&Report{}).Passed() {
		t.Error("an empty report passed")
	}
}

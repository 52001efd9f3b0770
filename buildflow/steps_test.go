package buildflow

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestHeartbeatWhileAStepRuns: a step whose tool prints no progress of its
// own (Verilator, Icarus, Yosys) says every heartbeatEvery that it is still
// running; the steps with their own progress lines (the search's parts, the
// GA's) do not get a second kind of line.
func TestHeartbeatWhileAStepRuns(t *testing.T) {
	defer func(d time.Duration) { heartbeatEvery = d }(heartbeatEvery)
	heartbeatEvery = 20 * time.Millisecond
	for _, tc := range []struct {
		step string
		want bool
	}{{"synth", true}, {"verify verilator", true}, {"search", false}, {"quantize", false}} {
		t.Run(tc.step, func(t *testing.T) {
			var out bytes.Buffer
			o := &Options{Dir: t.TempDir(), Progress: &out}
			r := newRunner(o, len(stepGroups))
			_, err := r.step(context.Background(), stepDef{name: tc.step, line: "hdlgen " + tc.step, do: func(context.Context) error {
				time.Sleep(150 * time.Millisecond)
				return nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			got := strings.Contains(out.String(), ": running, ")
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("heartbeat lines (-want +got):\n%s\n%s", diff, out.String())
			}
			if !strings.HasSuffix(lines[0], tc.step+" …") || !strings.Contains(lines[len(lines)-1], tc.step+": done in ") {
				t.Errorf("the step's first and last lines are not its start and end:\n%s", out.String())
			}
		})
	}
}

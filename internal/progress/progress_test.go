package progress

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestPlainLines(t *testing.T) {
	var b strings.Builder
	r := New(&b, "GA")
	clock := time.Unix(0, 0)
	r.now = func() time.Time { return clock }
	steps := []struct {
		after time.Duration
		done  int
	}{{0, 1}, {time.Second, 2}, {5 * time.Second, 3}, {time.Second, 4}, {5 * time.Second, 5}}
	for _, s := range steps {
		clock = clock.Add(s.after)
		r.Update(s.done, 10, "cost 1")
	}
	r.Done("stopped")
	want := "GA: 3/10 (30%) cost 1\nGA: 5/10 (50%) cost 1\nGA: stopped\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestTerminalBar(t *testing.T) {
	var b strings.Builder
	r := New(&b, "GA")
	r.tty = true
	r.Update(5, 10, "x")
	r.Update(20, 10, "y") // clamped
	r.Done("end")
	want := "\rGA [###############...............]  50% x" +
		"\rGA [##############################] 100% y" +
		"\r\033[KGA: end\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if got := bar(7, 0); got != "7" {
		t.Errorf("bar without total = %q", got)
	}
}

func TestIsTerminal(t *testing.T) {
	if IsTerminal(&strings.Builder{}) {
		t.Error("a strings.Builder is not a terminal")
	}
}

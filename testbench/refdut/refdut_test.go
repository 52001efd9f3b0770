package refdut

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCompute(t *testing.T) {
	levels := make([]int, K)
	levels[0], levels[1] = 7, 2
	// w(l,0) = 5l mod 7 - 3 = -3, 2, 0, -2, 3; w(l,1) = (3+5l) mod 7 - 3 = 0, -2, 3, 1, -1.
	want := Result{Class: 4, Scores: [L]int{7*-3 + 2*0, 7*2 + 2*-2, 7*0 + 2*3, 7*-2 + 2*1, 7*3 + 2*-1}}
	if diff := cmp.Diff(want, Compute(levels)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestExpWord(t *testing.T) {
	r := Result{Class: 5, Scores: [L]int{-1, 0, 1, -2048, 2047}}
	got := ExpWord(r)
	// {score4, score3, score2, score1, score0, class}: 12/12/12/12/12/3 bits.
	if diff := cmp.Diff("3ffc000008007ffd", hexWord(got, EW)); diff != "" {
		t.Errorf("hex (-want +got):\n%s", diff)
	}
	for l, s := range r.Scores {
		f := 0
		for b := 0; b < AW; b++ {
			f |= int(got.Bit(CW+l*AW+b)) << b
		}
		if f >= 1<<(AW-1) {
			f -= 1 << AW
		}
		if f != s {
			t.Errorf("score %d = %d, want %d", l, f, s)
		}
	}
	if c := int(got.Bit(0)) | int(got.Bit(1))<<1 | int(got.Bit(2))<<2; c != 5 {
		t.Errorf("class = %d, want 5", c)
	}
	if got.BitLen() > EW {
		t.Errorf("word has %d bits, want ≤ %d", got.BitLen(), EW)
	}
}

func TestGenerate(t *testing.T) {
	a, b := Generate(50, 3), Generate(50, 3)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("not deterministic:\n%s", diff)
	}
	if len(a.In) != 50 || a.In[1][0] != MaxLevel || a.In[0][0] != 0 {
		t.Errorf("corner cases missing: %v %v", a.In[0], a.In[1])
	}
	// First vector: offered at gap[0], accepted at once, valid Latency later,
	// and the stream and wrapper latencies are as declared.
	if c := a.Cycles[0]; c[0] != a.Gap[0] || c[1]-c[0] != Latency {
		t.Errorf("stream cycles[0] = %v", c)
	}
	if c := a.AxisCycles[0]; c[0] != a.Gap[0]+K-1 || c[1]-c[0] != AxisLatency {
		t.Errorf("axis cycles[0] = %v", c)
	}
	for v := 1; v < 50; v++ {
		if a.Cycles[v][0] <= a.Cycles[v-1][2] || a.Cycles[v][2] < a.Cycles[v][1] {
			t.Errorf("stream cycles out of order at %d: %v after %v", v, a.Cycles[v], a.Cycles[v-1])
		}
	}
	files := a.Files()
	for name, digits := range map[string]int{
		"vectors/tv_in.mem": (IW + 3) / 4, "vectors/tv_exp.mem": (EW + 3) / 4,
		"vectors/tv_gap.mem": 4, "vectors/tv_cycles.mem": 24, "vectors/tv_axis_cycles.mem": 24,
	} {
		lines := strings.Split(strings.TrimSuffix(string(files[name]), "\n"), "\n")
		if len(lines) != 50 {
			t.Errorf("%s: %d lines", name, len(lines))
		}
		for i, l := range lines {
			if len(l) != digits {
				t.Errorf("%s:%d: %q has %d digits, want %d", name, i+1, l, len(l), digits)
				break
			}
		}
	}
}

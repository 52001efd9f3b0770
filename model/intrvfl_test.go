package model

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// workedExample is the paper's Fig. 4 shape (K=5, N=10, κ=2) with our own W_in;
// rows are neurons j = 0…9, columns features i = 0…4.
var workedExampleW = [10][5]int{
	{+1, +1, -1, +1, -1},
	{-1, +1, +1, +1, +1},
	{+1, -1, -1, -1, +1},
	{+1, +1, +1, +1, +1},
	{-1, -1, +1, -1, -1},
	{+1, -1, +1, +1, -1},
	{-1, +1, -1, +1, +1},
	{+1, +1, -1, -1, +1},
	{-1, -1, -1, +1, +1},
	{+1, -1, +1, -1, -1},
}

func workedExampleNet() *IntNet {
	s := NewSignMatrix(10, 5)
	for j, row := range workedExampleW {
		for i, w := range row {
			s.SetNegative(j, i, w < 0)
		}
	}
	return &IntNet{K: 5, N: 10, Kappa: 2, Signs: s}
}

func TestWorkedExample(t *testing.T) {
	net := workedExampleNet()
	// x = (0.3, 0.66, 1.0, 0.04, 0.45): v_i = floor(10·x_i + 0.5) = (3, 7, 10, 0, 5);
	// 0.45 is a tie (4.5) and rounds up. Feature 2 (v = 10) is −1 in every position,
	// feature 3 (v = 0) is +1 everywhere, as in the paper's figure.
	levels := make([]int, 5)
	net.LevelsTo(levels, []float64{0.3, 0.66, 1.0, 0.04, 0.45})
	if diff := cmp.Diff([]int{3, 7, 10, 0, 5}, levels); diff != "" {
		t.Fatalf("levels (-want +got):\n%s", diff)
	}
	// Worked by hand: f_i[j] = −1 for j < v_i, s_j = Σ_i f_i[j]·W[j][i]. E.g. j = 7:
	// f = (+1, +1, −1, +1, +1), W = (+1, +1, −1, −1, +1) → 1+1+1−1+1 = 3.
	wantS := []int{1, -1, -1, -1, -1, 1, 1, 3, 1, -3}
	s := make([]int, 10)
	net.HiddenInputsTo(s, levels)
	if diff := cmp.Diff(wantS, s); diff != "" {
		t.Errorf("s_j (-want +got):\n%s", diff)
	}
	wantH := []int{1, -1, -1, -1, -1, 1, 1, 2, 1, -2} // clipped at κ = 2
	h := make([]int, 10)
	net.HiddenTo(h, levels)
	if diff := cmp.Diff(wantH, h); diff != "" {
		t.Errorf("h_j (-want +got):\n%s", diff)
	}
	hf := make([]float64, 10)
	net.HiddenFloatTo(hf, levels)
	for j := range hf {
		if hf[j] != float64(wantH[j]) {
			t.Errorf("float path h_%d = %v, want %d", j, hf[j], wantH[j])
		}
	}
}

func TestIntegerAndFloatPathsAgree(t *testing.T) {
	shapes := []struct{ k, n, kappa int }{
		{1, 1, 1}, {1, 7, 1}, {3, 10, 2}, {16, 512, 3}, {63, 40, 7}, {64, 33, 15}, {65, 50, 3}, {130, 20, 15}, {262, 9, 1},
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for _, sh := range shapes {
		net := NewIntNet(sh.k, sh.n, sh.kappa, uint64(sh.k*1000+sh.n))
		levels := make([]int, sh.k)
		hi := make([]int, sh.n)
		hf := make([]float64, sh.n)
		for trial := 0; trial < 50; trial++ {
			for i := range levels {
				switch trial {
				case 0:
					levels[i] = 0
				case 1:
					levels[i] = sh.n
				case 2:
					levels[i] = i % 2 * sh.n
				default:
					levels[i] = rng.IntN(sh.n + 1)
				}
			}
			net.HiddenTo(hi, levels)
			net.HiddenFloatTo(hf, levels)
			for j := range hi {
				if float64(hi[j]) != hf[j] {
					t.Fatalf("K=%d N=%d κ=%d trial %d: h_%d integer %d, float %v", sh.k, sh.n, sh.kappa, trial, j, hi[j], hf[j])
				}
			}
		}
	}
}

func TestLevel(t *testing.T) {
	tests := []struct {
		x    float64
		n    int
		want int
	}{
		{0, 10, 0}, {1, 10, 10}, {0.04, 10, 0}, {0.05, 10, 1}, {0.25, 2, 1}, {0.75, 2, 2},
		{0.5, 1, 1}, {0.49, 1, 0}, {1, 1500, 1500}, {0.5, 1500, 750}, {-0.2, 10, 0}, {1.3, 10, 10},
	}
	for _, tc := range tests {
		if got := Level(tc.x, tc.n); got != tc.want {
			t.Errorf("Level(%v, %d) = %d, want %d", tc.x, tc.n, got, tc.want)
		}
	}
}

func TestClip(t *testing.T) {
	for s := -20; s <= 20; s++ {
		for _, kappa := range []int{1, 3, 7, 15} {
			got := Clip(s, kappa)
			want := s
			if s <= -kappa {
				want = -kappa
			} else if s >= kappa {
				want = kappa
			}
			if got != want {
				t.Fatalf("Clip(%d, %d) = %d, want %d", s, kappa, got, want)
			}
		}
	}
}

func TestSignRowsRoundTrip(t *testing.T) {
	for _, k := range []int{1, 3, 4, 5, 16, 63, 64, 65, 262} {
		net := NewIntNet(k, 9, 3, 42)
		rows := make([]string, 9)
		for j := range rows {
			rows[j] = net.Signs.HexRow(j)
			if len(rows[j]) != (k+3)/4 {
				t.Fatalf("K=%d: row %q has %d digits", k, rows[j], len(rows[j]))
			}
		}
		back, err := ParseSignRows(rows, k)
		if err != nil {
			t.Fatalf("K=%d: %v", k, err)
		}
		for j := 0; j < 9; j++ {
			for i := 0; i < k; i++ {
				if back.Negative(j, i) != net.Signs.Negative(j, i) {
					t.Fatalf("K=%d: bit (%d,%d) differs after round trip", k, j, i)
				}
			}
		}
	}
	// Feature 0 is the least significant bit of the last digit.
	s := NewSignMatrix(1, 5)
	s.SetNegative(0, 0, true)
	s.SetNegative(0, 4, true)
	if got := s.HexRow(0); got != "11" {
		t.Errorf("HexRow = %q, want \"11\"", got)
	}
	if _, err := ParseSignRows([]string{"21"}, 5); err == nil {
		t.Error("a bit beyond K parsed without error")
	}
	if _, err := ParseSignRows([]string{"1g"}, 5); err == nil {
		t.Error("a non-hex digit parsed without error")
	}
}

// TestRandomStreamGolden pins the generated weights: a change here changes every
// model.json and every emitted design, so it must be deliberate.
func TestRandomStreamGolden(t *testing.T) {
	net := NewIntNet(5, 4, 1, 1)
	var rows []string
	for j := 0; j < 4; j++ {
		rows = append(rows, net.Signs.HexRow(j))
	}
	f := NewFloatNet(2, 2, 1)
	got := struct {
		Rows []string
		Win  []float64
		Bias []float64
	}{rows, f.Win, f.Bias}
	want := goldenStream
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("random stream changed (-want +got):\n%s", diff)
	}
}

func TestPrefixProperty(t *testing.T) {
	bigF, smallF := NewFloatNet(7, 1500, 3), NewFloatNet(7, 50, 3)
	if diff := cmp.Diff(smallF.Win, bigF.Win[:50*7]); diff != "" {
		t.Errorf("float W_in prefix differs:\n%s", diff)
	}
	if diff := cmp.Diff(smallF.Bias, bigF.Bias[:50]); diff != "" {
		t.Errorf("bias prefix differs:\n%s", diff)
	}
	bigI, smallI := NewIntNet(70, 300, 3, 3), NewIntNet(70, 20, 3, 3)
	for j := 0; j < 20; j++ {
		if bigI.Signs.HexRow(j) != smallI.Signs.HexRow(j) {
			t.Fatalf("sign row %d differs between N=300 and N=20", j)
		}
	}
}

func TestWeightRanges(t *testing.T) {
	f := NewFloatNet(10, 1000, 9)
	for _, w := range f.Win {
		if w < -1 || w >= 1 {
			t.Fatalf("W_in value %v outside [-1, 1)", w)
		}
	}
	for _, b := range f.Bias {
		if b < -0.1 || b >= 0.1 {
			t.Fatalf("bias %v outside [-0.1, 0.1)", b)
		}
	}
	net := NewIntNet(1, 10000, 1, 5)
	neg := 0
	for j := 0; j < 10000; j++ {
		if net.Signs.Negative(j, 0) {
			neg++
		}
	}
	if neg < 4700 || neg > 5300 {
		t.Errorf("%d of 10000 signs negative; want about half", neg)
	}
}

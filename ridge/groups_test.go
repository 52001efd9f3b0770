package ridge

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFindColumnGroups(t *testing.T) {
	negZero := math.Copysign(0, -1)
	tests := []struct {
		name      string
		cols      [][]float64 // column by column
		r         []float64   // penalties (nil: all 1)
		wantGroup []int
		wantSign  []float64
		wantRep   []int
	}{
		{"all distinct", [][]float64{{1, 2}, {2, 1}, {0, 1}}, nil,
			[]int{0, 1, 2}, []float64{1, 1, 1}, []int{0, 1, 2}},
		{"duplicate", [][]float64{{1, 2}, {3, 1}, {1, 2}}, nil,
			[]int{0, 1, 0}, []float64{1, 1, 1}, []int{0, 1}},
		{"negation", [][]float64{{-1, 2}, {1, -2}, {3, 3}, {-1, 2}}, nil,
			[]int{0, 0, 1, 0}, []float64{1, -1, 1, 1}, []int{0, 2}},
		{"zero columns, −0 and +0", [][]float64{{0, 0}, {negZero, 0}, {0, negZero}}, nil,
			[]int{0, 0, 0}, []float64{1, 1, 1}, []int{0}},
		{"leading zero, then the sign", [][]float64{{0, -1, 2}, {0, 1, -2}}, nil,
			[]int{0, 0}, []float64{1, -1}, []int{0}},
		{"equal columns, other penalties", [][]float64{{1, 2}, {1, 2}, {1, 2}}, []float64{1, 0, 1},
			[]int{0, 1, 0}, []float64{1, 1, 1}, []int{0, 1}},
		{"constant columns of other values stay apart", [][]float64{{2, 2}, {3, 3}, {-2, -2}}, []float64{0, 0, 0},
			[]int{0, 1, 0}, []float64{1, 1, -1}, []int{0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, rows := len(tt.cols), len(tt.cols[0])
			h := make([]float64, rows*p)
			for j, c := range tt.cols {
				for i, v := range c {
					h[i*p+j] = v
				}
			}
			r := tt.r
			if r == nil {
				r = make([]float64, p)
				for j := range r {
					r[j] = 1
				}
			}
			type groups struct {
				Group []int
				Sign  []float64
				Rep   []int
			}
			want := groups{tt.wantGroup, tt.wantSign, tt.wantRep}
			cg := findColumnGroups(h, rows, p, p, r)
			if diff := cmp.Diff(want, groups{cg.group, cg.sign, cg.rep}); diff != "" {
				t.Errorf("groups differ (-want +got):\n%s", diff)
			}
			// Every column with the same hash: the check finds the
			// collisions and the columns are grouped one by one.
			keys := columnKeys
			defer func() { columnKeys = keys }()
			columnKeys = func(_ []float64, _, _, p int, _ []float64) []uint64 { return make([]uint64, p) }
			cg = findColumnGroups(h, rows, p, p, r)
			if diff := cmp.Diff(want, groups{cg.group, cg.sign, cg.rep}); diff != "" {
				t.Errorf("with colliding hashes, groups differ (-want +got):\n%s", diff)
			}
		})
	}
}

// repeatedData returns integer activations in [−κ, κ] (as the intRVFL's
// hidden layer gives) whose cols columns are drawn, with a random sign,
// from distinct base columns, plus a zero column and constant columns.
func repeatedData(rng *rand.Rand, rows, cols, distinct, classes, kappa int) Data {
	base := make([][]float64, distinct)
	for b := range base {
		base[b] = make([]float64, rows)
		for i := range base[b] {
			base[b][i] = float64(rng.IntN(2*kappa+1) - kappa)
		}
	}
	d := Data{H: make([]float64, rows*cols), Rows: rows, Cols: cols, Labels: make([]int, rows)}
	for j := 0; j < cols; j++ {
		var col []float64
		switch {
		case j == 3:
			col = make([]float64, rows) // the zero column
		case j%17 == 5:
			col = make([]float64, rows) // a constant column
			for i := range col {
				col[i] = float64(1 + j%kappa)
			}
		default:
			col = base[rng.IntN(distinct)]
		}
		sign := float64(1 - 2*rng.IntN(2))
		for i := 0; i < rows; i++ {
			d.H[i*cols+j] = sign * col[i]
		}
	}
	for i := range d.Labels {
		d.Labels[i] = rng.IntN(classes)
	}
	return d
}

// TestPinvRepeatedColumnsMatchFull: the system reduced to the groups of
// repeated columns gives the grid counts and dropped counts of the full
// p×p system (the SymEigen route, which never reduces), W_out to 1e-10 of
// its largest element, and agrees with the SVD reference.
func TestPinvRepeatedColumnsMatchFull(t *testing.T) {
	lambdas := []float64{1.0 / 1024, 1.0 / 32, 1, 16}
	tests := []struct {
		rows, vrows, cols, distinct, classes, kappa int
		prefixes                                    []int
	}{
		{8, 8, 300, 6, 2, 1, []int{2, 3, 50, 300}},
		{40, 30, 200, 25, 3, 3, []int{10, 26, 100, 200}},
		{60, 40, 120, 110, 4, 7, []int{20, 60, 120}}, // few repeats
		{30, 20, 90, 90, 3, 15, []int{45, 90}},
	}
	for ti, tt := range tests {
		t.Run(fmt.Sprintf("%dx%d/%d-distinct/κ%d", tt.rows, tt.cols, tt.distinct, tt.kappa), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(211, uint64(ti)))
			train := repeatedData(rng, tt.rows, tt.cols, tt.distinct, tt.classes, tt.kappa)
			val := repeatedData(rng, tt.vrows, tt.cols, tt.distinct, tt.classes, tt.kappa)
			fast := Solver{Reg: Variance, Method: PinvCutoff, Threads: 2}
			full := fast
			full.fullEigen = true
			want, err := full.Grid(train, val, tt.classes, lambdas, tt.prefixes)
			if err != nil {
				t.Fatal(err)
			}
			got, err := fast.Grid(train, val, tt.classes, lambdas, tt.prefixes)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("grid differs from the full system's (-want +got):\n%s", diff)
			}
			p := tt.prefixes[len(tt.prefixes)-1]
			tp := prefix(train, p)
			r := fast.regDiag(tp.H, tp.Rows, tp.Cols)
			for _, l := range lambdas {
				gotW, gotInfo := compareSolves(t, full, fast, tp, tt.classes, l)
				refW, refDropped := refPinv(t, tp, tt.classes, l, r, DefaultRTol(p))
				if gotInfo.Dropped != refDropped {
					t.Errorf("λ %g: dropped %d, SVD reference %d", l, gotInfo.Dropped, refDropped)
				}
				if e := relErr(gotW, refW); e > 1e-8 {
					t.Errorf("λ %g: relative error %g against the SVD reference", l, e)
				}
			}
		})
	}
}

// TestReductionShrinks: a prefix with repeated columns is solved as the
// system of its groups, one without is not reduced.
func TestReductionShrinks(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	d := repeatedData(rng, 10, 60, 4, 2, 1)
	s := Solver{Method: PinvCutoff}
	nm, err := s.NewNormal(d, 2)
	if err != nil {
		t.Fatal(err)
	}
	red, ok := nm.reduction(60)
	if !ok || red.q >= 10 {
		t.Fatalf("60 columns from 4 distinct ones (and constants): reduced %v to %d groups, want fewer than 10", ok, red.q)
	}
	if _, ok := nm.reduction(1); ok {
		t.Error("a single column was reduced")
	}
	exact, err := Solver{}.NewNormal(d, 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := exact.reduction(60); ok {
		t.Error("the exact method's system was reduced")
	}
}

package readout

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/examples"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
)

func TestSmallShare(t *testing.T) {
	tests := []struct {
		q    []int32
		want float64
	}{
		{nil, 0},
		{[]int32{0, 1, -1, 2}, 0.75},
		{[]int32{15, -15}, 0},
		{[]int32{-1, -1}, 1},
	}
	for _, tc := range tests {
		if got := SmallShare(tc.q); got != tc.want {
			t.Errorf("SmallShare(%v) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

func TestWarning(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name             string
		reg              model.Regularizer
		bound            int
		small            float64
		floatAcc, intAcc float64
		want             string // substring; "" means no warning
	}{
		{"no data, spread codes", model.RegVariance, 15, 0.5, nan, nan, ""},
		{"no data, crushed codes", model.RegVariance, 15, 0.97, nan, nan, "97% of the rounded weights"},
		{"crushed codes but few levels", model.RegVariance, 3, 0.97, nan, nan, ""},
		{"small loss", model.RegVariance, 15, 0.5, 0.95, 0.945, ""},
		{"large loss, variance", model.RegVariance, 15, 0.5, 0.95, 0.80, "loses 15.0 percentage points of training accuracy; retraining with --regularizer identity"},
		{"large loss, identity", model.RegIdentity, 15, 0.5, 0.95, 0.80, "a larger --lambda (hdlgen search --bits"},
		{"loss beats the code share", model.RegVariance, 15, 0.99, 0.9, 0.5, "loses 40.0 percentage points"},
	}
	for _, tc := range tests {
		got := Warning(tc.reg, tc.bound, tc.small, tc.floatAcc, tc.intAcc)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: warning %q, want one containing %q", tc.name, got, tc.want)
		}
	}
}

// iris trains the README's float intRVFL on the embedded iris data.
func iris(t testing.TB) (*model.Model, *Data) {
	t.Helper()
	d, err := dataset.LoadCSVFS(examples.FS, examples.Iris, dataset.CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Train(context.Background(), model.Data{Name: d.Name, X: d.X, Y: d.Y, ClassNames: d.ClassNames, FeatureNames: d.FeatureNames},
		model.Config{Arch: model.IntRVFL, N: 50, Kappa: 3, Lambda: 4, Regularizer: model.RegIdentity})
	if err != nil {
		t.Fatal(err)
	}
	return m, &Data{X: d.X, Rows: d.M(), Y: d.Y}
}

func TestQuantizeMethods(t *testing.T) {
	ga := quant.DefaultGAOptions()
	ga.Generations = 30
	tests := []struct {
		name   string
		method Method
		data   bool
		want   string // the readout's method in model.json
	}{
		{"rounded, no data", None, false, model.MethodRound},
		{"rounded, data", None, true, model.MethodRound},
		{"ga from rounded", GARounded, true, model.MethodGARounded},
		{"ga from random", GARandom, true, model.MethodGARandom},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, d := iris(t)
			if !tc.data {
				d = nil
			}
			res, err := Quantize(context.Background(), m, d, Options{Bound: 3, Method: tc.method, GA: ga})
			if err != nil {
				t.Fatal(err)
			}
			if m.Readout == nil || m.Readout.Method != tc.want || m.Readout.Bound != 3 || res.Bits != 3 {
				t.Fatalf("readout %+v, result bits %d; want method %s, bound 3, 3 bits", m.Readout, res.Bits, tc.want)
			}
			if got := math.IsNaN(res.FloatAccuracy) || math.IsNaN(res.IntAccuracy); got == tc.data {
				t.Errorf("accuracies %v, %v with data=%v", res.FloatAccuracy, res.IntAccuracy, tc.data)
			}
			if (res.GA != nil) != (tc.method != None) {
				t.Errorf("GA result %v for method %s", res.GA, tc.method)
			}
			if tc.data {
				want := m.Accuracy(d.X, d.Rows, d.Y)
				if res.IntAccuracy != want {
					t.Errorf("reported integer accuracy %v, model's %v", res.IntAccuracy, want)
				}
			}
		})
	}
}

// TestQuantizeErrorsLeaveModel: on any error, including an ended context,
// the model keeps its readout.
func TestQuantizeErrorsLeaveModel(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	ga := quant.DefaultGAOptions()
	ga.Generations = 1 << 30
	ga.Patience = 0
	tests := []struct {
		name string
		ctx  context.Context
		data bool
		opt  Options
		want string
	}{
		{"bound 0", context.Background(), true, Options{Bound: 0}, "bound 0 outside"},
		{"unknown method", context.Background(), true, Options{Bound: 3, Method: "best"}, `"best": want none`},
		{"ga without data", context.Background(), false, Options{Bound: 3, Method: GARounded, GA: ga}, "needs the training data"},
		{"canceled before", canceled, true, Options{Bound: 3, Method: GARounded, GA: ga}, "context canceled"},
		{"canceled, random", canceled, true, Options{Bound: 3, Method: GARandom, GA: ga}, "context canceled"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, d := iris(t)
			if err := m.QuantizeReadout(1); err != nil {
				t.Fatal(err)
			}
			before := *m.Readout
			if !tc.data {
				d = nil
			}
			_, err := Quantize(tc.ctx, m, d, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if tc.ctx.Err() != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("error %v does not wrap context.Canceled", err)
			}
			if diff := cmp.Diff(before, *m.Readout); diff != "" {
				t.Errorf("a failed Quantize changed the readout (-before +after):\n%s", diff)
			}
		})
	}
}

// ExampleQuantize gives the iris network of the README a 5-bit readout, as
// `hdlgen quantize iris.json --bits 5 --data example:iris` does.
func ExampleQuantize() {
	d, err := dataset.LoadCSVFS(examples.FS, examples.Iris, dataset.CSVOptions{})
	if err != nil {
		panic(err)
	}
	m, err := model.Train(context.Background(), model.Data{Name: d.Name, X: d.X, Y: d.Y, ClassNames: d.ClassNames},
		model.Config{Arch: model.IntRVFL, N: 50, Kappa: 3, Lambda: 4, Regularizer: model.RegIdentity})
	if err != nil {
		panic(err)
	}
	res, err := Quantize(context.Background(), m, &Data{X: d.X, Rows: d.M(), Y: d.Y},
		Options{Bound: quant.BoundForBits(5)})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d bits, levels ±%d, method %s\n", res.Bits, m.Readout.Bound, m.Readout.Method)
	fmt.Printf("training accuracy: float %.4f, integer %.4f\n", res.FloatAccuracy, res.IntAccuracy)
	fmt.Printf("warning: %q\n", res.Warning)
	// Output:
	// 5 bits, levels ±15, method round
	// training accuracy: float 0.9733, integer 0.9800
	// warning: ""
}

// TestGARowsBoundTheGA: with more rows than GARows, the GA fits GASample's
// rows — the readout of a run on that sample by hand — and with every row
// (GARows −1) another one; at most GARows rows, nothing changes. The sample
// keeps each class's share even when the classes alternate row by row (an
// evenly spaced sample would take one class only).
func TestGARowsBoundTheGA(t *testing.T) {
	ga := quant.DefaultGAOptions()
	ga.Generations = 30
	m0, d := iris(t) // 150 rows, 50 per class
	quantize := func(d *Data, rows int) []int32 {
		m := *m0
		if _, err := Quantize(context.Background(), &m, d, Options{Bound: 3, Method: GARounded, GA: ga, GARows: rows}); err != nil {
			t.Fatal(err)
		}
		return m.Readout.Q
	}
	sample := GASample(d, 40, ga.Seed)
	bounded, byHand, all := quantize(d, 40), quantize(sample, -1), quantize(d, -1)
	if diff := cmp.Diff(byHand, bounded); diff != "" {
		t.Errorf("GARows 40 is not the GA of GASample's rows (-by hand +bounded):\n%s", diff)
	}
	if cmp.Equal(all, bounded) {
		t.Error("the GA on every row gave the sample's readout: the bound is not exercised")
	}
	if diff := cmp.Diff(all, quantize(d, 150)); diff != "" {
		t.Errorf("GARows 150 on 150 rows changed the GA (-all +bounded):\n%s", diff)
	}
	// Classes alternating row by row: every class keeps its share.
	alt := &Data{Rows: 300, X: make([]float64, 300), Y: make([]int, 300)}
	for r := range alt.Y {
		alt.Y[r] = r % 3
	}
	counts := map[int]int{}
	for _, y := range GASample(alt, 30, 1).Y {
		counts[y]++
	}
	if diff := cmp.Diff(map[int]int{0: 10, 1: 10, 2: 10}, counts); diff != "" {
		t.Errorf("the sample's classes (-want +got):\n%s", diff)
	}
	if DefaultGARows < 1000 {
		t.Errorf("DefaultGARows %d", DefaultGARows)
	}
}

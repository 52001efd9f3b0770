package power

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// optionUse says, for every field of plan.Options, a value other than its
// default and whether the analytic model reads the option (then a design
// with that value must differ from one without it in Analytic's counts or
// Latency) or why not.
var optionUse = map[string]struct {
	value   any
	ignored string // why the analytic model does not read it; "" when it does
}{
	"Parallel":             {value: 2},
	"AdderLevelsPerStage":  {value: 1},
	"ArgmaxLevelsPerStage": {value: 1},
	"ROMStyle":             {value: plan.ROMStyleBlock},
	"HoldInput":            {value: true},
	"RegisterSums":         {value: true},
	"ReloadableReadout": {value: true,
		ignored: "the system top's two-bank readout RAM: no design of the calibration matrix has one"},
}

// TestDesignCarriesEveryOption fails when a field of plan.Options does not
// reach the power model: each option must survive Design's JSON (designJSON
// has a key for it) and change the analytic model's counts or latency, or
// be listed above as one it does not read, with the reason.
func TestDesignCarriesEveryOption(t *testing.T) {
	base := Design{Shape: Shape{Arch: model.IntRVFL, K: 16, L: 10, Kappa: 3, Bits: 5}, N: 512, Options: plan.Options{Parallel: 8}}
	baseRes, err := Analytic(base)
	if err != nil {
		t.Fatal(err)
	}
	baseLat, _, err := Latency(base)
	if err != nil {
		t.Fatal(err)
	}
	ot := reflect.TypeOf(plan.Options{})
	for i := range ot.NumField() {
		f := ot.Field(i)
		t.Run(f.Name, func(t *testing.T) {
			use, ok := optionUse[f.Name]
			if !ok {
				t.Fatalf("plan.Options.%s is not known to the power model: give designJSON a key for it and say in optionUse what the model does with it", f.Name)
			}
			d := base
			reflect.ValueOf(&d.Options).Elem().Field(i).Set(reflect.ValueOf(use.value))
			b, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			var back Design
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(d, back); diff != "" {
				t.Errorf("%s does not survive Design's JSON %s (-set +read back):\n%s", f.Name, b, diff)
			}
			res, err := Analytic(d)
			if err != nil {
				t.Fatal(err)
			}
			lat, _, err := Latency(d)
			if err != nil {
				t.Fatal(err)
			}
			changed := res != baseRes || lat != baseLat
			switch {
			case use.ignored == "" && !changed:
				t.Errorf("%s = %v changes neither the analytic counts %+v nor the latency %d: the model does not read it", f.Name, use.value, res, lat)
			case use.ignored != "" && changed:
				t.Errorf("%s is listed as not read (%s) but changes the model: %+v, latency %d against %+v, %d", f.Name, use.ignored, res, lat, baseRes, baseLat)
			}
		})
	}
}

// TestDesignJSONKeepsCommittedBytes reads every design that the committed
// hardware results hold and writes it again: the bytes must be the same (the
// keys, their order and what is omitted), with the plan options carried in
// Design.
func TestDesignJSONKeepsCommittedBytes(t *testing.T) {
	withOptions := 0
	for _, f := range []string{"../results/hardware/median.json", "../results/hardware/calibration.json"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var designs []json.RawMessage
		collectDesigns(t, b, &designs)
		if len(designs) == 0 {
			t.Fatalf("%s: no design found", f)
		}
		for _, raw := range designs {
			var d Design
			if err := json.Unmarshal(raw, &d); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			got, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if err := json.Compact(&want, raw); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Errorf("%s: design written back differs:\n got %s\nwant %s", f, got, want.Bytes())
			}
			if d.Options.Canonical() != (plan.Options{Parallel: d.P()}) {
				withOptions++
			}
		}
	}
	if withOptions == 0 {
		t.Error("no committed design has an option other than P: the test covers only P")
	}
}

// collectDesigns appends the values of every "design" key in the JSON b
// that is an object with an "arch" key.
func collectDesigns(t *testing.T, b []byte, out *[]json.RawMessage) {
	t.Helper()
	switch bytes.TrimSpace(b)[0] {
	case '{':
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		for k, v := range m {
			var probe struct{ Arch *string }
			if k == "design" && bytes.TrimSpace(v)[0] == '{' && json.Unmarshal(v, &probe) == nil && probe.Arch != nil {
				*out = append(*out, v)
				continue
			}
			collectDesigns(t, v, out)
		}
	case '[':
		var a []json.RawMessage
		if err := json.Unmarshal(b, &a); err != nil {
			t.Fatal(err)
		}
		for _, v := range a {
			collectDesigns(t, v, out)
		}
	}
}

package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Network sections of a K=2, N=2 model, written out for the network types
// the tests below name (sectionOf draws the others').
var sections = map[Arch]string{
	IntRVFL: `{"kappa": 1, "w_in_signs": ["1", "2"]}`,
	RVFL:    `{"direct_links": false, "input_levels": 0, "bias": [0.1, -0.1], "w_in": [[0.5, -0.5], [0.25, 0.75]]}`,
	RVFL8:   `{"bias": [1, -1], "sigmoid_lut": [` + strings.TrimSuffix(strings.Repeat("128, ", LUTSize), ", ") + `], "w_in": [[1, 2], [3, 4]]}`,
}

// readouts of the fixture per architecture ("" for none; readoutOf gives
// the other network types').
var readouts = map[Arch]string{
	IntRVFL: `{"bits": 2, "bound": 1, "scale": 1, "method": "round", "weights": [[1, -1], [0, 1]]}`,
	RVFL8:   `{"bits": 8, "bound": 127, "scale": 1, "method": "round", "weights": [[1, -1], [0, 1]]}`,
}

// sectionOf is sections[a], or the section of a K=2, N=2 network of type a
// drawn as training draws it.
func sectionOf(a Arch) string {
	if s, ok := sections[a]; ok {
		return s
	}
	net, err := NewNetwork(2, Config{Arch: a, N: 2, Kappa: 1, Lambda: 1, Seed: 1})
	if err != nil {
		panic(err)
	}
	b, err := json.Marshal(net.section())
	if err != nil {
		panic(err)
	}
	return string(b)
}

// readoutOf is readouts[a], or for another network type the readout its
// traits require or allow (its fixed width, or 2 bits).
func readoutOf(a Arch) string {
	if r, ok := readouts[a]; ok {
		return r
	}
	t, err := TraitsOf(a)
	if err != nil || !t.Readout.Allowed {
		return ""
	}
	bits := max(t.Readout.Bits, 2)
	return fmt.Sprintf(`{"bits": %d, "bound": %d, "scale": 1, "method": "round", "weights": [[1, -1], [0, 1]]}`, bits, 1<<(bits-1)-1)
}

// fixture renders a K=2, N=2, L=2 model.json whose arch is arch and which
// holds the sections of secs (in that order), one key per line.
func fixture(arch Arch, readoutArch Arch, secs ...Arch) string {
	lines := []string{
		`"format": "hdlgen-model"`, `"version": 1`, `"name": "fix"`, fmt.Sprintf(`"arch": %q`, arch),
		`"features": 2`, `"hidden": 2`, `"classes": 2`, `"class_names": ["a", "b"]`, `"seed": 1`,
		`"training": {"lambda": 1, "regularizer": "variance", "rows": 4}`,
		`"normalization": {"min": [0, 0], "max": [1, 1]}`,
	}
	for _, s := range secs {
		lines = append(lines, fmt.Sprintf("%q: %s", s, sectionOf(s)))
	}
	lines = append(lines, `"w_out": [[1, -1], [0.5, 1]]`)
	if r := readoutOf(readoutArch); r != "" {
		lines = append(lines, `"readout": `+r)
	}
	return "{\n  " + strings.Join(lines, ",\n  ") + "\n}\n"
}

func TestFixturesAreValid(t *testing.T) {
	for _, a := range Archs() {
		if _, err := Unmarshal([]byte(fixture(a, a, a))); err != nil {
			t.Errorf("%s fixture: %v", a, err)
		}
	}
}

// TestArchSectionMismatch: a model.json whose arch does not name its network
// section (all six pairs, no section, two sections) is a positioned field
// error, never a panic (issue 10 item 1).
func TestArchSectionMismatch(t *testing.T) {
	type tc struct {
		name      string
		text      string
		wantField string
	}
	var tests []tc
	for _, arch := range Archs() {
		for _, sec := range Archs() {
			if sec != arch {
				tests = append(tests, tc{fmt.Sprintf("arch %s with %s section", arch, sec), fixture(arch, sec, sec), string(sec)})
			}
		}
		tests = append(tests, tc{fmt.Sprintf("arch %s without a section", arch), fixture(arch, arch), string(arch)})
	}
	tests = append(tests, tc{"two sections", fixture(IntRVFL, IntRVFL, IntRVFL, RVFL), string(RVFL)})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Unmarshal([]byte(tc.text))
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v, want a FieldError", err)
			}
			if fe.Field != tc.wantField || fe.Line == 0 || fe.Col == 0 {
				t.Errorf("error %q: field %q at %d:%d, want field %q with a position", err, fe.Field, fe.Line, fe.Col, tc.wantField)
			}
		})
	}
}

// TestReaderStrictAsDocumented: keys are case-sensitive, duplicated keys are
// rejected, unknown, missing and truncated input is reported with line:col,
// a missing field says it is missing, λ must be > 0 (issue 10 item 9).
func TestReaderStrictAsDocumented(t *testing.T) {
	base := fixture(IntRVFL, IntRVFL, IntRVFL)
	tests := []struct {
		name      string
		text      string
		want      string // substring of the error
		line, col int    // position of the error
	}{
		{"key case", strings.Replace(base, `"hidden": 2`, `"Hidden": 2`, 1), "field Hidden: unknown field", 7, 3},
		{"duplicated key", strings.Replace(base, `"hidden": 2`, `"hidden": 2, "hidden": 2`, 1), "field hidden: duplicated key", 7, 16},
		{"duplicated nested key", strings.Replace(base, `"rows": 4`, `"rows": 4, "rows": 5`, 1), "field training.rows: duplicated key", 11, 67},
		{"unknown field", strings.Replace(base, `"seed": 1`, `"seed": 1, "colour": 1`, 1), "field colour: unknown field", 10, 14},
		{"missing hidden", strings.Replace(base, "\n  \"hidden\": 2,", "", 1), "field hidden: missing", 1, 1},
		{"missing nested", strings.Replace(base, `"lambda": 1, `, "", 1), "field training.lambda: missing", 11, 15},
		{"truncated", base[:strings.Index(base, `"w_out"`)+12], "truncated", 14, 15},
		{"lambda zero", strings.Replace(base, `"lambda": 1`, `"lambda": 0`, 1), "field training.lambda: 0, want", 11, 26},
		{"null", strings.Replace(base, `"seed": 1`, `"seed": null`, 1), "field seed: null, want", 10, 11},
		{"solver exact", strings.Replace(base, `"rows": 4`, `"rows": 4, "solver": "exact"`, 1), `field training.solver: "exact", want "pinv-cutoff"`, 11, 77},
		{"rtol without solver", strings.Replace(base, `"rows": 4`, `"rows": 4, "pinv_rtol": 0.5`, 1), "field training.solver: missing", 11, 15},
		{"solver without rtol", strings.Replace(base, `"rows": 4`, `"rows": 4, "solver": "pinv-cutoff"`, 1), "field training.pinv_rtol: missing", 11, 15},
		{"rtol negative", strings.Replace(base, `"rows": 4`, `"rows": 4, "solver": "pinv-cutoff", "pinv_rtol": -1`, 1), "field training.pinv_rtol: -1, want", 11, 105},
		{"dropped negative", strings.Replace(base, `"rows": 4`, `"rows": 4, "solver": "pinv-cutoff", "pinv_rtol": 0.5, "pinv_dropped": -2`, 1), "field training.pinv_dropped: negative", 11, 126},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.text == base {
				t.Fatal("the edit did not apply")
			}
			_, err := Unmarshal([]byte(tc.text))
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Line != tc.line || fe.Col != tc.col {
				t.Errorf("error %q, want it at %d:%d", err, tc.line, tc.col)
			}
		})
	}
}

// TestNormalizeExtremeRange: a column spanning −1e308…1e308 (its width
// overflows float64) still maps its ends to 0 and 1 (issue 10 item 12).
func TestNormalizeExtremeRange(t *testing.T) {
	nz := FitNormalizer([]float64{-1e308, 5, 1e308, 6, 0, 5.5}, 3, 2)
	tests := []struct {
		row  []float64
		want []float64
	}{
		{[]float64{-1e308, 5}, []float64{0, 0}},
		{[]float64{1e308, 6}, []float64{1, 1}},
		{[]float64{0, 5.5}, []float64{0.5, 0.5}},
		{[]float64{-1.7e308, 7}, []float64{0, 1}},
		{[]float64{1.7e308, 4}, []float64{1, 0}},
	}
	for _, tc := range tests {
		got := make([]float64, 2)
		nz.ApplyTo(got, tc.row)
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("ApplyTo(%v) = %v, want %v", tc.row, got, tc.want)
				break
			}
		}
	}
}

// TestTrainCancelled: a cancelled context stops training with its error.
func TestTrainCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Train(ctx, blobs(60, 3, 2, 1), Config{Arch: IntRVFL, N: 20, Kappa: 3, Lambda: 1})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Train with a cancelled context: %v, want context.Canceled", err)
	}
}

// TestSectionErrorsNameTheElement: errors inside a network section name the
// element and its position.
func TestSectionErrorsNameTheElement(t *testing.T) {
	tests := []struct {
		name, text, old, new, field string
	}{
		{"rvfl8 weight", fixture(RVFL8, RVFL8, RVFL8), `"w_in": [[1, 2]`, `"w_in": [[1, 200]`, "rvfl8.w_in[0][1]"},
		{"rvfl8 bias", fixture(RVFL8, RVFL8, RVFL8), `"bias": [1, -1]`, `"bias": [1, -300]`, "rvfl8.bias[1]"},
		{"rvfl8 lut", fixture(RVFL8, RVFL8, RVFL8), `"sigmoid_lut": [128, `, `"sigmoid_lut": [256, `, "rvfl8.sigmoid_lut[0]"},
		{"rvfl row", fixture(RVFL, "", RVFL), `[0.25, 0.75]`, `[0.25]`, "rvfl.w_in[1]"},
		{"intrvfl signs", fixture(IntRVFL, IntRVFL, IntRVFL), `"w_in_signs": ["1", "2"]`, `"w_in_signs": ["1", "x"]`, "intrvfl.w_in_signs[1]"},
		{"readout weight", fixture(IntRVFL, IntRVFL, IntRVFL), `"weights": [[1, -1], [0, 1]]`, `"weights": [[1, -1], [0, 2]]`, "readout.weights[1][1]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Unmarshal([]byte(tc.text)); err != nil {
				t.Fatalf("fixture: %v", err)
			}
			bad := strings.Replace(tc.text, tc.old, tc.new, 1)
			if bad == tc.text {
				t.Fatal("the edit did not apply")
			}
			_, err := Unmarshal([]byte(bad))
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field || fe.Line == 0 {
				t.Errorf("error %v, want one at field %s with a position", err, tc.field)
			}
		})
	}
}

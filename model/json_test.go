package model

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// blobs returns a small separable data set: L Gaussian blobs in K dimensions.
func blobs(m, k, l int, seed uint64) Data {
	rng := rand.New(rand.NewPCG(seed, 1))
	d := Data{Name: "blobs", X: make([]float64, m*k), Y: make([]int, m)}
	for c := 0; c < l; c++ {
		d.ClassNames = append(d.ClassNames, string(rune('a'+c)))
	}
	for r := 0; r < m; r++ {
		y := r % l
		d.Y[r] = y
		for i := 0; i < k; i++ {
			d.X[r*k+i] = float64((y+i)%l)*2 + rng.NormFloat64()*0.6
		}
	}
	return d
}

func trainedModels(t *testing.T) map[string]*Model {
	t.Helper()
	d := blobs(120, 5, 3, 1)
	out := map[string]*Model{}
	for name, cfg := range map[string]Config{
		"intrvfl":         {Arch: IntRVFL, N: 40, Kappa: 3, Lambda: 4, Seed: 2},
		"intrvfl-5bit":    {Arch: IntRVFL, N: 40, Kappa: 3, Lambda: 4, Seed: 2, ReadoutBits: 5},
		"rvfl":            {Arch: RVFL, N: 30, Lambda: 0.5, Seed: 3},
		"rvfl-direct":     {Arch: RVFL, N: 30, Lambda: 0.5, Seed: 3, DirectLinks: true, Regularizer: RegIdentity},
		"rvfl-quantized":  {Arch: RVFL, N: 30, Lambda: 0.5, Seed: 3, QuantizedInputs: true},
		"rvfl8":           {Arch: RVFL8, N: 30, Lambda: 0.5, Seed: 4},
		"intrvfl-dual-N>": {Arch: IntRVFL, N: 300, Kappa: 1, Lambda: 1, Seed: 5, ReadoutBits: 3},
		"intrvfl-prbs31":  {Arch: IntRVFL, N: 40, Kappa: 3, Lambda: 4, Seed: 2, ReadoutBits: 5, Win: WinPRBS31},
	} {
		m, err := Train(context.Background(), d, cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if acc := m.Accuracy(d.X, len(d.Y), d.Y); acc < 0.8 {
			t.Errorf("%s: training accuracy %.3f on separable blobs", name, acc)
		}
		out[name] = m
	}
	return out
}

func TestJSONRoundTripAndDeterminism(t *testing.T) {
	for name, m := range trainedModels(t) {
		data, err := Marshal(m)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		back, err := Unmarshal(data)
		if err != nil {
			t.Fatalf("%s: read back: %v\n%s", name, err, data)
		}
		if diff := cmp.Diff(m, back, cmp.AllowUnexported(SignMatrix{})); diff != "" {
			t.Errorf("%s: round trip differs (-want +got):\n%s", name, diff)
		}
		again, _ := Marshal(back)
		if !bytes.Equal(data, again) {
			t.Errorf("%s: re-encoding changed the bytes", name)
		}
	}
	// Same inputs and seed: identical bytes from two independent trainings.
	d := blobs(80, 4, 2, 9)
	cfg := Config{Arch: IntRVFL, N: 25, Kappa: 3, Lambda: 2, Seed: 11, ReadoutBits: 5}
	a, _ := Train(context.Background(), d, cfg)
	b, _ := Train(context.Background(), d, cfg)
	ja, _ := Marshal(a)
	jb, _ := Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Error("two trainings with the same seed gave different model.json bytes")
	}
	cfg.Seed++
	c, _ := Train(context.Background(), d, cfg)
	if jc, _ := Marshal(c); bytes.Equal(ja, jc) {
		t.Error("a different seed gave identical model.json bytes")
	}
}

func TestWriteReadFile(t *testing.T) {
	m := trainedModels(t)["intrvfl-5bit"]
	p := filepath.Join(t.TempDir(), "m.json")
	if err := WriteFile(p, m); err != nil {
		t.Fatal(err)
	}
	back, err := ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if back.String() != m.String() {
		t.Errorf("read %s, wrote %s", back, m)
	}
}

func TestJSONErrorsNameFieldAndLine(t *testing.T) {
	base, err := Marshal(trainedModels(t)["intrvfl-5bit"])
	if err != nil {
		t.Fatal(err)
	}
	text := string(base)
	tests := []struct {
		name, old, new string
		wantField      string // substring of the error
		wantLine       bool
	}{
		{"bad version", `"version": 1`, `"version": 7`, "field version: unsupported version 7", true},
		{"bad format", `"format": "hdlgen-model"`, `"format": "other"`, "field format", true},
		{"bad arch", `"arch": "intrvfl"`, `"arch": "cnn"`, "field arch", true},
		{"too few classes", `"classes": 3`, `"classes": 1`, "field classes", true},
		{"class names", `"class_names": ["a", "b", "c"]`, `"class_names": ["a", "b", "b"]`, "class_names[2]: duplicate", true},
		// Issue 26, item 17: duplicate feature names and a 3,000-byte name passed
		// the reader (emit then failed with ENAMETOOLONG).
		{"feature names", `"class_names": ["a", "b", "c"]`, `"class_names": ["a", "b", "c"], "feature_names": ["u", "v", "w", "v", "x"]`,
			`feature_names[3]: duplicate name "v" (also feature_names[1])`, true},
		{"long name", `"name": "`, `"name": "` + strings.Repeat("n", 3000), "field name: 30", true},
		{"long class name", `"class_names": ["a"`, `"class_names": ["` + strings.Repeat("a", 201) + `"`, "class_names[0]: 201 bytes, at most 200", true},
		{"kappa", `"kappa": 3`, `"kappa": 0`, "field intrvfl.kappa", true},
		{"norm order", `"min": [`, `"min": [1e9, `, "normalization.min", true},
		{"bits", `"bits": 5`, `"bits": 1`, "field readout.bits", true},
		{"bound", `"bound": 15`, `"bound": 16`, "field readout.bound", true},
		{"method", `"method": "round"`, `"method": "magic"`, "field readout.method", true},
		{"unknown field", `"seed": 2`, `"seed": 2, "colour": 1`, "unknown field", false},
		{"type error", `"hidden": 40`, `"hidden": "forty"`, "hidden", true},
		{"syntax", `"hidden": 40`, `"hidden": 40,,`, "invalid JSON", true},
		{"empty", text, "", "empty file", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(text, tc.old) {
				t.Fatalf("fixture does not contain %q", tc.old)
			}
			bad := strings.Replace(text, tc.old, tc.new, 1)
			_, err := Unmarshal([]byte(bad))
			if err == nil {
				t.Fatal("accepted a broken model.json")
			}
			if !strings.Contains(err.Error(), tc.wantField) {
				t.Errorf("error %q does not mention %q", err, tc.wantField)
			}
			var fe *FieldError
			if tc.wantLine && (!errors.As(err, &fe) || fe.Line == 0) {
				t.Errorf("error %q carries no line number", err)
			}
		})
	}
	// A weight beyond the bound is reported at its own line.
	i := strings.Index(text, `"weights": [`)
	j := i + strings.Index(text[i:], "[\n      [") + len("[\n      [")
	bad := text[:j] + "99" + text[j+strings.IndexAny(text[j:], ",]"):]
	_, err = Unmarshal([]byte(bad))
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "readout.weights[0][0]" {
		t.Fatalf("error %v, want one about readout.weights[0][0]", err)
	}
	if wantLine := 1 + strings.Count(bad[:j], "\n"); fe.Line != wantLine {
		t.Errorf("line %d, want %d", fe.Line, wantLine)
	}
}

func TestReadFileErrorsNameFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "broken.json")
	if err := os.WriteFile(p, []byte(`{"format": "hdlgen-model", "version": 2}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(p)
	if err == nil || !strings.Contains(err.Error(), "broken.json:1:") {
		t.Errorf("error %v does not name file and line", err)
	}
}

func TestMarshalRejectsInvalidModel(t *testing.T) {
	m := trainedModels(t)["intrvfl-5bit"]
	m.Readout.Q[0] = 100
	if _, err := Marshal(m); err == nil {
		t.Error("Marshal accepted a readout weight beyond the bound")
	}
}

func FuzzUnmarshal(f *testing.F) {
	d := blobs(30, 3, 2, 1)
	for _, cfg := range []Config{
		{Arch: IntRVFL, N: 5, Kappa: 1, Lambda: 1, ReadoutBits: 4},
		{Arch: RVFL, N: 4, Lambda: 1},
		{Arch: RVFL8, N: 3, Lambda: 1},
	} {
		m, err := Train(context.Background(), d, cfg)
		if err != nil {
			f.Fatal(err)
		}
		data, _ := Marshal(m)
		f.Add(data)
	}
	f.Add([]byte(`{}`))
	f.Add([]byte(`[`))
	// A mismatched arch and section (issue 10 item 1), two sections, none.
	f.Add([]byte(fixture(RVFL, IntRVFL, IntRVFL)))
	f.Add([]byte(fixture(RVFL8, RVFL8, RVFL)))
	f.Add([]byte(fixture(IntRVFL, IntRVFL, IntRVFL, RVFL8)))
	f.Add([]byte(fixture(IntRVFL, IntRVFL)))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Unmarshal(data)
		if err != nil {
			return
		}
		// Anything accepted must be usable and re-encode to an accepted file.
		out, err := Marshal(m)
		if err != nil {
			t.Fatalf("accepted model does not re-encode: %v", err)
		}
		if _, err := Unmarshal(out); err != nil {
			t.Fatalf("re-encoded model rejected: %v", err)
		}
		raw := make([]float64, m.K())
		_ = m.Predict(raw)
	})
}

func TestPredictNormalizedMatchesPredict(t *testing.T) {
	d := blobs(90, 4, 3, 21)
	for _, cfg := range []Config{
		{Arch: IntRVFL, N: 30, Kappa: 3, Lambda: 1, ReadoutBits: 4},
		{Arch: IntRVFL, N: 30, Kappa: 3, Lambda: 1},
		{Arch: RVFL, N: 20, Lambda: 1, DirectLinks: true},
		{Arch: RVFL8, N: 20, Lambda: 1},
	} {
		m, err := Train(context.Background(), d, cfg)
		if err != nil {
			t.Fatal(err)
		}
		xn := m.Norm.Apply(d.X, len(d.Y))
		batch := m.PredictNormalized(xn, len(d.Y))
		for r := range d.Y {
			if one := m.Predict(d.X[r*4 : (r+1)*4]); one != batch[r] {
				t.Fatalf("%s row %d: Predict %d, PredictNormalized %d", m, r, one, batch[r])
			}
		}
	}
}

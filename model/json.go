package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
)

// The model.json header values this version reads and writes.
const (
	FormatName    = "hdlgen-model"
	FormatVersion = 1
)

// Size limits that protect readers from absurd files.
const (
	MaxFeatures = 1 << 16
	MaxHidden   = 1 << 20
	MaxClasses  = 1 << 12
	MaxKappa    = 1 << 15
)

type wireModel struct {
	Format        string        `json:"format"`
	Version       int           `json:"version"`
	Name          string        `json:"name"`
	Arch          Arch          `json:"arch"`
	Features      int           `json:"features"`
	Hidden        int           `json:"hidden"`
	Classes       int           `json:"classes"`
	ClassNames    []string      `json:"class_names"`
	FeatureNames  []string      `json:"feature_names,omitempty"`
	Seed          uint64        `json:"seed"`
	Training      TrainingInfo  `json:"training"`
	Normalization Normalizer    `json:"normalization"`
	IntRVFL       *wireIntNet   `json:"intrvfl,omitempty"`
	RVFL          *wireFloatNet `json:"rvfl,omitempty"`
	RVFL8         *wireFixedNet `json:"rvfl8,omitempty"`
	Wout          [][]float64   `json:"w_out"`
	Readout       *wireReadout  `json:"readout,omitempty"`
}

type wireIntNet struct {
	Kappa    int      `json:"kappa"`
	WinSigns []string `json:"w_in_signs"`
}

type wireFloatNet struct {
	DirectLinks bool        `json:"direct_links"`
	InputLevels int         `json:"input_levels"`
	Bias        []float64   `json:"bias"`
	Win         [][]float64 `json:"w_in"`
}

type wireFixedNet struct {
	Bias       []int   `json:"bias"`
	SigmoidLUT []int   `json:"sigmoid_lut"`
	Win        [][]int `json:"w_in"`
}

type wireReadout struct {
	Bits    int       `json:"bits"`
	Bound   int       `json:"bound"`
	Scale   float64   `json:"scale"`
	Method  string    `json:"method"`
	Weights [][]int32 `json:"weights"`
}

// Readout methods.
const (
	MethodRound     = "round"
	MethodGARounded = "ga-rounded"
	MethodGARandom  = "ga-random"
)

// FieldError is a problem with one field of a model.json file.
type FieldError struct {
	File      string // may be empty
	Line, Col int    // 0 when unknown
	Field     string // dotted path, e.g. readout.weights[2][17]
	Msg       string
}

func (e *FieldError) Error() string {
	loc := e.File
	if loc == "" {
		loc = "model.json"
	}
	if e.Line > 0 {
		loc += fmt.Sprintf(":%d:%d", e.Line, e.Col)
	}
	if e.Field == "" {
		return loc + ": " + e.Msg
	}
	return fmt.Sprintf("%s: field %s: %s", loc, e.Field, e.Msg)
}

// Marshal renders m as model.json bytes: deterministic (same model, same bytes),
// two-space indented, one matrix row per line.
func Marshal(m *Model) ([]byte, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	w := toWire(m)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w); err != nil {
		return nil, fmt.Errorf("model: encode: %w", err)
	}
	return prettyJSON(bytes.TrimSpace(buf.Bytes())), nil
}

// WriteFile writes m to path atomically (temporary file + rename).
func WriteFile(path string, m *Model) error {
	data, err := Marshal(m)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return atomicfile.WriteFile(path, data, 0o644)
}

// ReadFile reads and validates a model.json file. Errors name the file, the line
// and column where known, and the field.
func ReadFile(path string) (*Model, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read model: %w", err)
	}
	m, err := Unmarshal(data)
	if err != nil {
		var fe *FieldError
		if errors.As(err, &fe) {
			fe.File = filepath.Clean(path)
		}
		return nil, err
	}
	return m, nil
}

// Unmarshal parses and validates model.json bytes.
func Unmarshal(data []byte) (*Model, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var w wireModel
	if err := dec.Decode(&w); err != nil {
		return nil, decodeError(data, err)
	}
	if dec.More() {
		line, col := lineCol(data, int(dec.InputOffset()))
		return nil, &FieldError{Line: line, Col: col, Msg: "extra data after the model object"}
	}
	m, err := fromWire(&w)
	if err != nil {
		var fe *FieldError
		if errors.As(err, &fe) && fe.Field != "" {
			if off, ok := locate(data, fe.Field); ok {
				fe.Line, fe.Col = lineCol(data, off)
			}
		}
		return nil, err
	}
	return m, nil
}

func decodeError(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line, col := lineCol(data, int(se.Offset))
		return &FieldError{Line: line, Col: col, Msg: "invalid JSON: " + se.Error()}
	case errors.As(err, &te):
		line, col := lineCol(data, int(te.Offset))
		return &FieldError{Line: line, Col: col, Field: te.Field, Msg: fmt.Sprintf("cannot hold a JSON %s (want %s)", te.Value, te.Type)}
	case errors.Is(err, io.EOF):
		return &FieldError{Msg: "empty file"}
	}
	// Unknown fields and unexpected EOF come as plain errors.
	return &FieldError{Msg: err.Error()}
}

func toWire(m *Model) *wireModel {
	w := &wireModel{
		Format: FormatName, Version: FormatVersion, Name: m.Name, Arch: m.Arch,
		Features: m.K(), Hidden: m.N(), Classes: m.L(),
		ClassNames: m.ClassNames, FeatureNames: m.FeatureNames, Seed: m.Seed,
		Training: m.Training, Normalization: m.Norm,
		Wout: splitRows(m.Wout, m.Columns()),
	}
	switch {
	case m.Int != nil:
		rows := make([]string, m.Int.N)
		for j := range rows {
			rows[j] = m.Int.Signs.HexRow(j)
		}
		w.IntRVFL = &wireIntNet{Kappa: m.Int.Kappa, WinSigns: rows}
	case m.Float != nil:
		w.RVFL = &wireFloatNet{DirectLinks: m.Float.DirectLinks, InputLevels: m.Float.InputLevels,
			Bias: m.Float.Bias, Win: splitRows(m.Float.Win, m.Float.K)}
	case m.Fixed != nil:
		f := m.Fixed
		win := make([][]int, f.N)
		for j := range win {
			win[j] = make([]int, f.K)
			for i := range win[j] {
				win[j][i] = int(f.Win[j*f.K+i])
			}
		}
		bias := make([]int, f.N)
		for j, b := range f.Bias {
			bias[j] = int(b)
		}
		lut := make([]int, len(f.LUT))
		for a, v := range f.LUT {
			lut[a] = int(v)
		}
		w.RVFL8 = &wireFixedNet{Bias: bias, SigmoidLUT: lut, Win: win}
	}
	if r := m.Readout; r != nil {
		c := m.Columns()
		q := make([][]int32, m.L())
		for l := range q {
			q[l] = r.Q[l*c : (l+1)*c]
		}
		w.Readout = &wireReadout{Bits: r.Bits, Bound: r.Bound, Scale: r.Scale, Method: r.Method, Weights: q}
	}
	return w
}

func splitRows(a []float64, cols int) [][]float64 {
	rows := make([][]float64, len(a)/cols)
	for r := range rows {
		rows[r] = a[r*cols : (r+1)*cols]
	}
	return rows
}

// fe builds a FieldError for a field path.
func fe(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func fromWire(w *wireModel) (*Model, error) {
	if w.Format != FormatName {
		return nil, fe("format", "%q is not %q", w.Format, FormatName)
	}
	if w.Version != FormatVersion {
		return nil, fe("version", "unsupported version %d (this hdlgen reads version %d)", w.Version, FormatVersion)
	}
	if _, err := ParseArch(string(w.Arch)); err != nil {
		return nil, fe("arch", "%v", err)
	}
	k, n, l := w.Features, w.Hidden, w.Classes
	switch {
	case k < 1 || k > MaxFeatures:
		return nil, fe("features", "%d outside [1, %d]", k, MaxFeatures)
	case n < 1 || n > MaxHidden:
		return nil, fe("hidden", "%d outside [1, %d]", n, MaxHidden)
	case l < 2 || l > MaxClasses:
		return nil, fe("classes", "%d outside [2, %d]", l, MaxClasses)
	}
	if len(w.ClassNames) != l {
		return nil, fe("class_names", "%d names for %d classes", len(w.ClassNames), l)
	}
	seen := map[string]bool{}
	for i, c := range w.ClassNames {
		if c == "" {
			return nil, fe(fmt.Sprintf("class_names[%d]", i), "empty name")
		}
		if seen[c] {
			return nil, fe(fmt.Sprintf("class_names[%d]", i), "duplicate name %q", c)
		}
		seen[c] = true
	}
	if w.FeatureNames != nil && len(w.FeatureNames) != k {
		return nil, fe("feature_names", "%d names for %d features", len(w.FeatureNames), k)
	}
	if _, err := ParseRegularizer(string(w.Training.Regularizer)); err != nil {
		return nil, fe("training.regularizer", "%v", err)
	}
	if !finite(w.Training.Lambda) || w.Training.Lambda < 0 {
		return nil, fe("training.lambda", "%v is not a finite non-negative number", w.Training.Lambda)
	}
	if w.Training.Rows < 0 {
		return nil, fe("training.rows", "negative row count %d", w.Training.Rows)
	}
	if err := checkNorm(w.Normalization, k); err != nil {
		return nil, err
	}
	m := &Model{Name: w.Name, Arch: w.Arch, ClassNames: w.ClassNames, FeatureNames: w.FeatureNames,
		Seed: w.Seed, Training: w.Training, Norm: w.Normalization}

	sections := 0
	for _, present := range []bool{w.IntRVFL != nil, w.RVFL != nil, w.RVFL8 != nil} {
		if present {
			sections++
		}
	}
	if sections != 1 {
		return nil, fe(string(w.Arch), "want exactly one network section (%q), found %d", w.Arch, sections)
	}
	var err error
	switch w.Arch {
	case IntRVFL:
		m.Int, err = intFromWire(w.IntRVFL, k, n)
	case RVFL:
		m.Float, err = floatFromWire(w.RVFL, k, n)
	case RVFL8:
		m.Fixed, err = fixedFromWire(w.RVFL8, k, n)
	}
	if err != nil {
		return nil, err
	}
	cols := m.Columns()
	if len(w.Wout) != l {
		return nil, fe("w_out", "%d rows, want %d (one per class)", len(w.Wout), l)
	}
	m.Wout = make([]float64, 0, l*cols)
	for r, row := range w.Wout {
		if len(row) != cols {
			return nil, fe(fmt.Sprintf("w_out[%d]", r), "%d values, want %d", len(row), cols)
		}
		for c, v := range row {
			if !finite(v) {
				return nil, fe(fmt.Sprintf("w_out[%d][%d]", r, c), "%v is not finite", v)
			}
		}
		m.Wout = append(m.Wout, row...)
	}
	if m.Readout, err = readoutFromWire(w.Readout, w.Arch, l, cols); err != nil {
		return nil, err
	}
	return m, nil
}

func checkNorm(nz Normalizer, k int) error {
	if len(nz.Min) != k {
		return fe("normalization.min", "%d values for %d features", len(nz.Min), k)
	}
	if len(nz.Max) != k {
		return fe("normalization.max", "%d values for %d features", len(nz.Max), k)
	}
	for i := range nz.Min {
		if !finite(nz.Min[i]) {
			return fe(fmt.Sprintf("normalization.min[%d]", i), "%v is not finite", nz.Min[i])
		}
		if !finite(nz.Max[i]) {
			return fe(fmt.Sprintf("normalization.max[%d]", i), "%v is not finite", nz.Max[i])
		}
		if nz.Min[i] > nz.Max[i] {
			return fe(fmt.Sprintf("normalization.max[%d]", i), "max %v below min %v", nz.Max[i], nz.Min[i])
		}
	}
	return nil
}

func intFromWire(w *wireIntNet, k, n int) (*IntNet, error) {
	if w.Kappa < 1 || w.Kappa > MaxKappa {
		return nil, fe("intrvfl.kappa", "%d outside [1, %d]", w.Kappa, MaxKappa)
	}
	if len(w.WinSigns) != n {
		return nil, fe("intrvfl.w_in_signs", "%d rows, want %d (one per hidden neuron)", len(w.WinSigns), n)
	}
	for j, r := range w.WinSigns {
		if _, err := ParseSignRows([]string{r}, k); err != nil {
			return nil, fe(fmt.Sprintf("intrvfl.w_in_signs[%d]", j), "%v", err)
		}
	}
	s, err := ParseSignRows(w.WinSigns, k)
	if err != nil {
		return nil, fe("intrvfl.w_in_signs", "%v", err)
	}
	return &IntNet{K: k, N: n, Kappa: w.Kappa, Signs: s}, nil
}

func floatFromWire(w *wireFloatNet, k, n int) (*FloatNet, error) {
	if w.InputLevels < 0 || w.InputLevels > MaxHidden {
		return nil, fe("rvfl.input_levels", "%d outside [0, %d]", w.InputLevels, MaxHidden)
	}
	if len(w.Win) != n {
		return nil, fe("rvfl.w_in", "%d rows, want %d", len(w.Win), n)
	}
	if len(w.Bias) != n {
		return nil, fe("rvfl.bias", "%d values, want %d", len(w.Bias), n)
	}
	net := &FloatNet{K: k, N: n, DirectLinks: w.DirectLinks, InputLevels: w.InputLevels,
		Win: make([]float64, 0, n*k), Bias: w.Bias}
	for j, row := range w.Win {
		if len(row) != k {
			return nil, fe(fmt.Sprintf("rvfl.w_in[%d]", j), "%d values, want %d", len(row), k)
		}
		for i, v := range row {
			if !finite(v) {
				return nil, fe(fmt.Sprintf("rvfl.w_in[%d][%d]", j, i), "%v is not finite", v)
			}
		}
		net.Win = append(net.Win, row...)
	}
	for j, v := range w.Bias {
		if !finite(v) {
			return nil, fe(fmt.Sprintf("rvfl.bias[%d]", j), "%v is not finite", v)
		}
	}
	return net, nil
}

func fixedFromWire(w *wireFixedNet, k, n int) (*FixedNet, error) {
	if len(w.Win) != n {
		return nil, fe("rvfl8.w_in", "%d rows, want %d", len(w.Win), n)
	}
	if len(w.Bias) != n {
		return nil, fe("rvfl8.bias", "%d values, want %d", len(w.Bias), n)
	}
	if len(w.SigmoidLUT) != LUTSize {
		return nil, fe("rvfl8.sigmoid_lut", "%d entries, want %d", len(w.SigmoidLUT), LUTSize)
	}
	net := &FixedNet{K: k, N: n, Win: make([]int8, 0, n*k), Bias: make([]int8, n), LUT: make([]uint8, LUTSize)}
	for j, row := range w.Win {
		if len(row) != k {
			return nil, fe(fmt.Sprintf("rvfl8.w_in[%d]", j), "%d values, want %d", len(row), k)
		}
		for i, v := range row {
			if v < -128 || v > 127 {
				return nil, fe(fmt.Sprintf("rvfl8.w_in[%d][%d]", j, i), "%d outside the int8 range", v)
			}
			net.Win = append(net.Win, int8(v))
		}
	}
	for j, v := range w.Bias {
		if v < -128 || v > 127 {
			return nil, fe(fmt.Sprintf("rvfl8.bias[%d]", j), "%d outside the int8 range", v)
		}
		net.Bias[j] = int8(v)
	}
	for a, v := range w.SigmoidLUT {
		if v < 0 || v > 255 {
			return nil, fe(fmt.Sprintf("rvfl8.sigmoid_lut[%d]", a), "%d outside [0, 255]", v)
		}
		net.LUT[a] = uint8(v)
	}
	return net, nil
}

func readoutFromWire(w *wireReadout, arch Arch, l, cols int) (*IntReadout, error) {
	switch {
	case w == nil && arch == RVFL8:
		return nil, fe("readout", "the rvfl8 network needs its 8-bit readout")
	case w == nil:
		return nil, nil
	case arch == RVFL:
		return nil, fe("readout", "the float rvfl has no integer readout")
	}
	if w.Bits < 2 || w.Bits > 16 {
		return nil, fe("readout.bits", "%d outside [2, 16]", w.Bits)
	}
	if arch == RVFL8 && w.Bits != ReadoutBits {
		return nil, fe("readout.bits", "%d, but the rvfl8 readout has %d bits", w.Bits, ReadoutBits)
	}
	if maxB := 1<<(w.Bits-1) - 1; w.Bound < 1 || w.Bound > maxB {
		return nil, fe("readout.bound", "%d outside [1, %d] for %d bits", w.Bound, maxB, w.Bits)
	}
	if !finite(w.Scale) || w.Scale <= 0 {
		return nil, fe("readout.scale", "%v is not a finite positive number", w.Scale)
	}
	switch w.Method {
	case MethodRound, MethodGARounded, MethodGARandom:
	default:
		return nil, fe("readout.method", "unknown method %q (want %s, %s or %s)", w.Method, MethodRound, MethodGARounded, MethodGARandom)
	}
	if len(w.Weights) != l {
		return nil, fe("readout.weights", "%d rows, want %d", len(w.Weights), l)
	}
	r := &IntReadout{Bits: w.Bits, Bound: w.Bound, Scale: w.Scale, Method: w.Method, Q: make([]int32, 0, l*cols)}
	for row, q := range w.Weights {
		if len(q) != cols {
			return nil, fe(fmt.Sprintf("readout.weights[%d]", row), "%d values, want %d", len(q), cols)
		}
		for c, v := range q {
			if v < -int32(w.Bound) || v > int32(w.Bound) {
				return nil, fe(fmt.Sprintf("readout.weights[%d][%d]", row, c), "%d outside ±%d", v, w.Bound)
			}
		}
		r.Q = append(r.Q, q...)
	}
	return r, nil
}

// Validate checks the internal consistency of an in-memory model (the same rules
// as reading model.json).
func (m *Model) Validate() error {
	if m == nil {
		return errors.New("model: nil model")
	}
	if m.Int == nil && m.Float == nil && m.Fixed == nil {
		return fe(string(m.Arch), "no hidden layer")
	}
	cols := m.Columns()
	if len(m.Wout) != m.L()*cols {
		return fe("w_out", "%d values, want %d×%d", len(m.Wout), m.L(), cols)
	}
	if r := m.Readout; r != nil && len(r.Q) != m.L()*cols {
		return fe("readout.weights", "%d values, want %d×%d", len(r.Q), m.L(), cols)
	}
	// A round trip through the wire form applies every field rule.
	_, err := fromWire(toWire(m))
	return err
}

// lineCol converts a byte offset into 1-based line and column numbers.
func lineCol(data []byte, off int) (line, col int) {
	off = min(max(off, 0), len(data))
	line = 1 + bytes.Count(data[:off], []byte{'\n'})
	col = off - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}

// locate finds the byte offset where the value at a dotted field path (as in
// FieldError.Field, e.g. "readout.weights[2][17]") starts.
func locate(data []byte, field string) (int, bool) {
	target := splitPath(field)
	dec := json.NewDecoder(bytes.NewReader(data))
	var stack []pathFrame
	path := func() []string {
		p := make([]string, 0, len(stack))
		for _, f := range stack {
			if f.array {
				p = append(p, strconv.Itoa(f.index))
			} else {
				p = append(p, f.key)
			}
		}
		return p
	}
	expectKey := false
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return 0, false
		}
		if expectKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				expectKey = len(stack) > 0 && !stack[len(stack)-1].array
				advance(stack)
				continue
			}
			stack[len(stack)-1].key = tok.(string)
			expectKey = false
			continue
		}
		// tok is a value start (or an array end).
		if d, ok := tok.(json.Delim); ok && d == ']' {
			stack = stack[:len(stack)-1]
			expectKey = len(stack) > 0 && !stack[len(stack)-1].array
			advance(stack)
			continue
		}
		if equalPath(path(), target) {
			return skipSpace(data, before), true
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, pathFrame{array: d == '[', index: 0})
			expectKey = d == '{'
			continue
		}
		advance(stack)
		expectKey = len(stack) > 0 && !stack[len(stack)-1].array
	}
}

// pathFrame is one open container while locate walks the tokens.
type pathFrame struct {
	array bool
	index int
	key   string
}

// advance moves the innermost array to its next element.
func advance(stack []pathFrame) {
	if len(stack) > 0 && stack[len(stack)-1].array {
		stack[len(stack)-1].index++
	}
}

func skipSpace(data []byte, off int) int {
	for off < len(data) {
		switch data[off] {
		case ' ', '\t', '\n', '\r', ',', ':':
			off++
		default:
			return off
		}
	}
	return off
}

func splitPath(field string) []string {
	var p []string
	cur := ""
	for i := 0; i < len(field); i++ {
		switch c := field[i]; c {
		case '.':
			if cur != "" {
				p = append(p, cur)
			}
			cur = ""
		case '[':
			if cur != "" {
				p = append(p, cur)
			}
			cur = ""
		case ']':
			p = append(p, cur)
			cur = ""
		default:
			cur += string(c)
		}
	}
	if cur != "" {
		p = append(p, cur)
	}
	return p
}

func equalPath(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

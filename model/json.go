package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
	"github.com/hdlgen/hdlgen/ridge"
)

// The model.json header values this version reads and writes.
const (
	FormatName    = "hdlgen-model"
	FormatVersion = 1
)

// Size limits of model.json (docs/model-json.md): a reader refuses larger files
// before allocating, and the trainer refuses to train what it could not write.
const (
	MaxFeatures = 1 << 16 // K
	MaxHidden   = 1 << 20 // N
	MaxClasses  = 1 << 12 // L
	MaxKappa    = 1 << 15 // κ of the intRVFL
)

// Readout methods.
const (
	MethodRound     = "round"
	MethodGARounded = "ga-rounded"
	MethodGARandom  = "ga-random"
)

// wireReadout is the model.json form of an integer readout.
type wireReadout struct {
	Bits    int       `json:"bits"`
	Bound   int       `json:"bound"`
	Scale   float64   `json:"scale"`
	Method  string    `json:"method"`
	Weights [][]int32 `json:"weights"`
}

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
	return m.encodeChecked()
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

// Unmarshal parses and validates model.json bytes exactly as docs/model-json.md
// says: keys are case-sensitive, a duplicated, unknown or missing key is an
// error, and every error carries the line and column it concerns.
func Unmarshal(data []byte) (*Model, error) {
	d := &decoder{data: data}
	root, err := d.parse()
	if err != nil {
		return nil, err
	}
	m, err := d.model(root)
	if err != nil {
		var fe *FieldError
		if errors.As(err, &fe) && fe.Line == 0 && fe.Field != "" {
			if n := root.find(fe.Field); n != nil {
				fe.Line, fe.Col = lineCol(data, n.off)
			}
		}
		return nil, err
	}
	return m, nil
}

// MaxNameLen bounds the model's name and its class and feature names, in
// bytes: the design's module, file and driver names are made from them, and a
// file name has at most 255 bytes.
const MaxNameLen = 200

// checkNames checks a list of class or feature names: each unique and at
// most MaxNameLen bytes; non-empty unless emptyOK.
func checkNames(key string, names []string, emptyOK bool) error {
	seen := map[string]int{}
	for i, c := range names {
		switch j, dup := seen[c]; {
		case c == "" && !emptyOK:
			return fe(fmt.Sprintf("%s[%d]", key, i), "empty name")
		case dup && c != "":
			return fe(fmt.Sprintf("%s[%d]", key, i), "duplicate name %q (also %s[%d])", c, key, j)
		case len(c) > MaxNameLen:
			return fe(fmt.Sprintf("%s[%d]", key, i), "%d bytes, at most %d", len(c), MaxNameLen)
		}
		seen[c] = i
	}
	return nil
}

// encodeChecked renders m and reads the bytes back: the reader's rules are the
// one definition of a valid model.
func (m *Model) encodeChecked() ([]byte, error) {
	if err := m.checkShape(); err != nil {
		return nil, err
	}
	b, err := encode(m)
	if err != nil {
		return nil, err
	}
	if _, err := Unmarshal(b); err != nil {
		var fe *FieldError
		if errors.As(err, &fe) {
			fe.Line, fe.Col = 0, 0 // positions in text the caller never saw
		}
		return nil, err
	}
	return b, nil
}

// checkShape catches the in-memory inconsistencies that encoding cannot show.
func (m *Model) checkShape() error {
	if m == nil {
		return errors.New("model: nil model")
	}
	if m.Net == nil {
		return fe("arch", "no hidden layer")
	}
	if k, _ := m.Net.Dims(); k != m.Norm.Features() {
		return fe("normalization", "%d features, the hidden layer has %d", m.Norm.Features(), k)
	}
	cols := m.Columns()
	if len(m.Wout) != m.L()*cols {
		return fe("w_out", "%d values, want %d×%d", len(m.Wout), m.L(), cols)
	}
	for i, v := range m.Wout {
		if !finite(v) {
			return fe(fmt.Sprintf("w_out[%d][%d]", i/cols, i%cols), "%v is not finite", v)
		}
	}
	if r := m.Readout; r != nil && len(r.Q) != m.L()*cols {
		return fe("readout.weights", "%d values, want %d×%d", len(r.Q), m.L(), cols)
	}
	return checkNorm(m.Norm, m.Norm.Features())
}

// Validate checks the internal consistency of an in-memory model (the same rules
// as reading model.json).
func (m *Model) Validate() error {
	_, err := m.encodeChecked()
	return err
}

// encode renders the model.json bytes of m, fields in the documented order.
func encode(m *Model) ([]byte, error) {
	var obj bytes.Buffer
	var val bytes.Buffer
	enc := json.NewEncoder(&val)
	enc.SetEscapeHTML(false)
	var err error
	put := func(key string, v any) {
		if err != nil {
			return
		}
		if obj.Len() == 0 {
			obj.WriteByte('{')
		} else {
			obj.WriteByte(',')
		}
		val.Reset()
		if err = enc.Encode(key); err != nil {
			return
		}
		obj.Write(bytes.TrimSpace(val.Bytes()))
		obj.WriteByte(':')
		val.Reset()
		if err = enc.Encode(v); err != nil {
			err = fmt.Errorf("model: encode %s: %w", key, err)
			return
		}
		obj.Write(bytes.TrimSpace(val.Bytes()))
	}
	k, n := m.Net.Dims()
	put("format", FormatName)
	put("version", FormatVersion)
	put("name", m.Name)
	put("arch", m.Arch())
	put("features", k)
	put("hidden", n)
	put("classes", m.L())
	put("class_names", m.ClassNames)
	if len(m.FeatureNames) > 0 {
		put("feature_names", m.FeatureNames)
	}
	put("seed", m.Seed)
	put("training", m.Training)
	put("normalization", m.Norm)
	put(string(m.Arch()), m.Net.section())
	put("w_out", splitRows(m.Wout, m.Columns()))
	if r := m.Readout; r != nil {
		c := m.Columns()
		q := make([][]int32, m.L())
		for l := range q {
			q[l] = r.Q[l*c : (l+1)*c]
		}
		put("readout", wireReadout{Bits: r.Bits, Bound: r.Bound, Scale: r.Scale, Method: r.Method, Weights: q})
	}
	if err != nil {
		return nil, err
	}
	obj.WriteByte('}')
	return prettyJSON(obj.Bytes()), nil
}

func splitRows[T any](a []T, cols int) [][]T {
	rows := make([][]T, len(a)/cols)
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

// topKeys are the keys of the top-level object besides the network sections.
var topKeys = []string{"format", "version", "name", "arch", "features", "hidden", "classes",
	"class_names", "feature_names", "seed", "training", "normalization", "w_out", "readout"}

// model reads the top-level object.
func (d *decoder) model(root *node) (*Model, error) {
	known := append([]string(nil), topKeys...)
	for _, a := range Archs() {
		known = append(known, string(a))
	}
	o, err := d.object(root, "", known...)
	if err != nil {
		return nil, err
	}
	format, at, err := field(o, "format", d.str)
	if err != nil {
		return nil, err
	}
	if format != FormatName {
		return nil, at.errf("%q is not %q", format, FormatName)
	}
	version, at, err := field(o, "version", d.integer)
	if err != nil {
		return nil, err
	}
	if version != FormatVersion {
		return nil, at.errf("unsupported version %d (this hdlgen reads version %d)", version, FormatVersion)
	}
	m := &Model{}
	if m.Name, at, err = field(o, "name", d.str); err != nil {
		return nil, err
	}
	if len(m.Name) > MaxNameLen {
		return nil, at.errf("%d bytes, at most %d (the design's module and file names are made from it)", len(m.Name), MaxNameLen)
	}
	archName, at, err := field(o, "arch", d.str)
	if err != nil {
		return nil, err
	}
	arch, err := ParseArch(archName)
	if err != nil {
		return nil, at.errf("%v", err)
	}
	sizes := []struct {
		key    string
		lo, hi int
	}{{"features", 1, MaxFeatures}, {"hidden", 1, MaxHidden}, {"classes", 2, MaxClasses}}
	var kNL [3]int
	for i, sz := range sizes {
		if kNL[i], at, err = field(o, sz.key, d.integer); err != nil {
			return nil, err
		}
		if kNL[i] < sz.lo || kNL[i] > sz.hi {
			return nil, at.errf("%d outside [%d, %d]", kNL[i], sz.lo, sz.hi)
		}
	}
	k, n, l := kNL[0], kNL[1], kNL[2]
	if m.ClassNames, _, err = field(o, "class_names", d.strings); err != nil {
		return nil, err
	}
	if len(m.ClassNames) != l {
		return nil, fe("class_names", "%d names for %d classes", len(m.ClassNames), l)
	}
	if err := checkNames("class_names", m.ClassNames, false); err != nil {
		return nil, err
	}
	names, ok, _, err := optField(o, "feature_names", d.strings)
	if err != nil {
		return nil, err
	}
	if ok {
		if len(names) != k {
			return nil, fe("feature_names", "%d names for %d features", len(names), k)
		}
		if err := checkNames("feature_names", names, true); err != nil {
			return nil, err
		}
		m.FeatureNames = names
	}
	if m.Seed, _, err = field(o, "seed", d.uinteger); err != nil {
		return nil, err
	}
	if m.Training, _, err = field(o, "training", d.training); err != nil {
		return nil, err
	}
	if m.Norm, _, err = field(o, "normalization", func(v *node, p string) (Normalizer, error) { return d.normalization(v, p, k) }); err != nil {
		return nil, err
	}
	if m.Net, err = d.network(o, arch, k, n); err != nil {
		return nil, err
	}
	if in, ok := m.Net.(*IntNet); ok && in.Gen == WinPRBS31 && in.PRBSSeed != PRBSSeed(m.Seed) {
		return nil, fe(string(IntRVFL)+".w_in_prbs_seed", "%d, but seed %d gives %d (docs/semantics.md §3a)", in.PRBSSeed, m.Seed, PRBSSeed(m.Seed))
	}
	cols := m.Net.Columns()
	rows, _, err := field(o, "w_out", d.numberRows)
	if err != nil {
		return nil, err
	}
	if m.Wout, err = flatten(rows, l, cols, "w_out", "(one per class)"); err != nil {
		return nil, err
	}
	v, p := o.opt("readout")
	if m.Readout, err = d.readout(v, p, m.Net, l, cols); err != nil {
		return nil, err
	}
	return m, nil
}

// flatten checks that rows is rows×cols (a FieldError at path otherwise;
// note qualifies the row count) and returns it row-major.
func flatten[T any](rows [][]T, nrows, cols int, path, note string) ([]T, error) {
	if len(rows) != nrows {
		return nil, fe(path, "%d rows, want %d%s", len(rows), nrows, strings.TrimRight(" "+note, " "))
	}
	out := make([]T, 0, nrows*cols)
	for r, row := range rows {
		if len(row) != cols {
			return nil, fe(fmt.Sprintf("%s[%d]", path, r), "%d values, want %d", len(row), cols)
		}
		out = append(out, row...)
	}
	return out, nil
}

// network finds the one network section, checks that it is the one arch
// names, and lets the network type read it.
func (d *decoder) network(o *object, arch Arch, k, n int) (Network, error) {
	var found []int // indices into o.n.keys of the sections present
	for i, key := range o.n.keys {
		if typeOf(Arch(key)) != nil {
			found = append(found, i)
		}
	}
	switch {
	case len(found) == 0:
		return nil, d.errAt(o.n.off, string(arch), "missing: an %s model needs its %q section", arch, arch)
	case len(found) > 1:
		i := found[1]
		return nil, d.errAt(o.n.koffs[i], o.n.keys[i], "a second network section (want exactly one, the %q section that arch names)", arch)
	}
	i := found[0]
	if key := o.n.keys[i]; key != string(arch) {
		return nil, d.errAt(o.n.koffs[i], key, "the section of an %s network, but arch is %q (want its %q section)", key, arch, arch)
	}
	return typeOf(arch).decode(d, o.n.elems[i], k, n)
}

func (d *decoder) training(v *node, path string) (TrainingInfo, error) {
	var t TrainingInfo
	o, err := d.object(v, path, "lambda", "regularizer", "rows", "data", "label_name", "jitter", "solver", "pinv_rtol", "pinv_dropped", "select")
	if err != nil {
		return t, err
	}
	var at pos
	if t.Lambda, at, err = field(o, "lambda", d.number); err != nil {
		return t, err
	}
	if !(t.Lambda > 0) {
		return t, at.errf("%v, want a finite number > 0", t.Lambda)
	}
	reg, at, err := field(o, "regularizer", d.str)
	if err != nil {
		return t, err
	}
	if t.Regularizer, err = ParseRegularizer(reg); err != nil {
		return t, at.errf("%v", err)
	}
	if t.Rows, at, err = field(o, "rows", d.integer); err != nil {
		return t, err
	}
	if t.Rows < 0 {
		return t, at.errf("negative row count %d", t.Rows)
	}
	if t.Data, _, _, err = optField(o, "data", d.str); err != nil {
		return t, err
	}
	if t.LabelName, _, _, err = optField(o, "label_name", d.str); err != nil {
		return t, err
	}
	if t.Jitter, _, at, err = optField(o, "jitter", d.number); err != nil {
		return t, err
	}
	if t.Jitter < 0 {
		return t, at.errf("%v is negative", t.Jitter)
	}
	if t.Select, _, at, err = optField(o, "select", d.integer); err != nil {
		return t, err
	}
	if t.Select != 0 && (t.Select < 2 || t.Select > MaxSelect) {
		return t, at.errf("%d outside [2, %d] (no field: units drawn, not chosen)", t.Select, MaxSelect)
	}
	return t, d.solver(o, &t)
}

// solver reads the optional solver fields of the training object: absent
// for the exact solve; "pinv-cutoff" with its tolerance (> 0) and the count
// of dropped singular values (≥ 0, optional).
func (d *decoder) solver(o *object, t *TrainingInfo) error {
	if !slices.ContainsFunc([]string{"solver", "pinv_rtol", "pinv_dropped"}, func(k string) bool { v, _ := o.opt(k); return v != nil }) {
		return nil // the exact solve
	}
	method, at, err := field(o, "solver", d.str)
	if err != nil {
		return err
	}
	if method != ridge.PinvCutoff.String() {
		return at.errf("%q, want %q (the exact solve is written as no solver field)", method, ridge.PinvCutoff.String())
	}
	t.Method = method
	if t.RTol, at, err = field(o, "pinv_rtol", d.number); err != nil {
		return err
	}
	if !(t.RTol > 0) {
		return at.errf("%v, want a finite number > 0", t.RTol)
	}
	if t.PinvDropped, _, at, err = optField(o, "pinv_dropped", d.integer); err != nil {
		return err
	}
	if t.PinvDropped < 0 {
		return at.errf("negative count %d", t.PinvDropped)
	}
	return nil
}

func (d *decoder) normalization(v *node, path string, k int) (Normalizer, error) {
	var nz Normalizer
	o, err := d.object(v, path, "min", "max")
	if err != nil {
		return nz, err
	}
	if nz.Min, _, err = field(o, "min", d.numbers); err != nil {
		return nz, err
	}
	if nz.Max, _, err = field(o, "max", d.numbers); err != nil {
		return nz, err
	}
	return nz, checkNorm(nz, k)
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

// readout reads the optional integer readout (v nil when absent) under net's rule.
func (d *decoder) readout(v *node, path string, net Network, l, cols int) (*IntReadout, error) {
	rule := net.Readout()
	switch {
	case v == nil && rule.Required:
		return nil, fe("readout", "the %s network needs its %d-bit readout", net.Arch(), rule.Bits)
	case v == nil:
		return nil, nil
	case !rule.Allowed:
		return nil, fe("readout", "the %s network has no integer readout", net.Arch())
	}
	o, err := d.object(v, path, "bits", "bound", "scale", "method", "weights")
	if err != nil {
		return nil, err
	}
	r := &IntReadout{}
	if r.Bits, _, err = field(o, "bits", d.integer); err != nil {
		return nil, err
	}
	if r.Bound, _, err = field(o, "bound", d.integer); err != nil {
		return nil, err
	}
	if r.Bits < 2 || r.Bits > 16 {
		return nil, fe("readout.bits", "%d outside [2, 16]", r.Bits)
	}
	if rule.Bits != 0 && r.Bits != rule.Bits {
		return nil, fe("readout.bits", "%d, but the %s readout has %d bits", r.Bits, net.Arch(), rule.Bits)
	}
	if maxB := 1<<(r.Bits-1) - 1; r.Bound < 1 || r.Bound > maxB {
		return nil, fe("readout.bound", "%d outside [1, %d] for %d bits", r.Bound, maxB, r.Bits)
	}
	var at pos
	if r.Scale, at, err = field(o, "scale", d.number); err != nil {
		return nil, err
	}
	if !(r.Scale > 0) {
		return nil, at.errf("%v is not a finite positive number", r.Scale)
	}
	if r.Method, at, err = field(o, "method", d.str); err != nil {
		return nil, err
	}
	switch r.Method {
	case MethodRound, MethodGARounded, MethodGARandom:
	default:
		return nil, at.errf("unknown method %q (want %s, %s or %s)", r.Method, MethodRound, MethodGARounded, MethodGARandom)
	}
	rows, _, err := field(o, "weights", d.integerRows)
	if err != nil {
		return nil, err
	}
	q, err := flatten(rows, l, cols, "readout.weights", "")
	if err != nil {
		return nil, err
	}
	r.Q = make([]int32, len(q))
	for i, w := range q {
		if w < -r.Bound || w > r.Bound {
			return nil, fe(fmt.Sprintf("readout.weights[%d][%d]", i/cols, i%cols), "%d outside ±%d", w, r.Bound)
		}
		r.Q[i] = int32(w)
	}
	return r, nil
}

// lineCol converts a byte offset into 1-based line and column numbers.
func lineCol(data []byte, off int) (line, col int) {
	off = min(max(off, 0), len(data))
	line = 1 + bytes.Count(data[:off], []byte{'\n'})
	col = off - bytes.LastIndexByte(data[:off], '\n')
	return line, col
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

// splitPath splits a field path ("readout.weights[2][17]") into its steps.
func splitPath(field string) []string {
	var p []string
	cur := ""
	for i := 0; i < len(field); i++ {
		switch c := field[i]; c {
		case '.', '[':
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

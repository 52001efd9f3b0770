package jobs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
)

// Store keeps one JSON file per finished job under Dir, written atomically.
// Paths are relative to Dir (e.g. runs/intrvfl/iris.result.json).
type Store struct {
	Dir string
	// Indent is the JSON indentation of saved files ("" means one space,
	// the studies' format).
	Indent string
	// Sealed stores each job with the SHA-256 of its content, as
	// {"content_sha256": …, "content": …}, and takes a job back only when
	// the sum matches: an edited file (a changed count would change what a
	// search chooses) or one without a sum runs again. For stores whose
	// files nobody reads but hdlgen (a search's parts).
	Sealed bool
}

// sealed is the form of a job in a Sealed store.
type sealed struct {
	Sum     string          `json:"content_sha256"`
	Content json.RawMessage `json:"content"`
}

// contentSum is the SHA-256, in hex, of a job's compact JSON.
func contentSum(compact []byte) string {
	sum := sha256.Sum256(compact)
	return hex.EncodeToString(sum[:])
}

// unseal returns the content of a Sealed store's file, nil when its sum is
// missing or does not match (the job runs again), or an error when the file
// is no JSON.
func (s Store) unseal(rel string, b []byte) ([]byte, error) {
	var f sealed
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", s.Path(rel), err)
	}
	var c bytes.Buffer
	if len(f.Content) == 0 || json.Compact(&c, f.Content) != nil || contentSum(c.Bytes()) != f.Sum {
		return nil, nil
	}
	return c.Bytes(), nil
}

// Path is the file of the job stored at rel.
func (s Store) Path(rel string) string { return filepath.Join(s.Dir, rel) }

// Load reads the job stored at rel into v; ok is false when the file is absent,
// was made with another fingerprint (other settings) or from other data (its
// "data_sha256" differs from data), in which case the job runs again.
func (s Store) Load(rel, fingerprint, data string, v any) (ok bool, err error) {
	b, err := s.read(rel)
	if b == nil || err != nil {
		return false, err
	}
	var head struct {
		Fingerprint string `json:"fingerprint"`
		Data        string `json:"data_sha256"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return false, fmt.Errorf("%s: %w", s.Path(rel), err)
	}
	if head.Fingerprint != fingerprint || head.Data != data {
		return false, nil
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("%s: %w", s.Path(rel), err)
	}
	return true, nil
}

// LoadAny reads the job stored at rel whatever its fingerprint.
func (s Store) LoadAny(rel string, v any) (ok bool, err error) {
	data, err := s.read(rel)
	if data == nil || err != nil {
		return false, err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return false, fmt.Errorf("%s: %w", s.Path(rel), err)
	}
	return true, nil
}

// read returns the job's bytes, nil when it does not exist (or, in a Sealed
// store, was changed since it was saved).
func (s Store) read(rel string) ([]byte, error) {
	data, err := os.ReadFile(s.Path(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil || !s.Sealed {
		return data, err
	}
	return s.unseal(rel, data)
}

// Save stores v at rel as indented JSON.
func (s Store) Save(rel string, v any) error {
	p := s.Path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	indent := s.Indent
	if indent == "" {
		indent = " "
	}
	var data []byte
	var err error
	if s.Sealed {
		var c []byte
		if c, err = json.Marshal(v); err == nil {
			data, err = json.MarshalIndent(sealed{Sum: contentSum(c), Content: c}, "", indent)
		}
	} else {
		data, err = json.MarshalIndent(v, "", indent)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	return atomicfile.WriteFile(p, append(data, '\n'), 0o644)
}

// Fingerprint identifies the settings a stored result depends on: the first 8
// bytes of the SHA-256 of the parts' JSON, in hex.
func Fingerprint(parts ...any) string {
	data, err := json.Marshal(parts)
	if err != nil {
		panic("jobs: fingerprint: " + err.Error())
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

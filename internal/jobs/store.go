package jobs

import (
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

// read returns the file's bytes, nil when it does not exist.
func (s Store) read(rel string) ([]byte, error) {
	data, err := os.ReadFile(s.Path(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
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
	data, err := json.MarshalIndent(v, "", indent)
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

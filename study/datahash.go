package study

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/protocol"
)

// DataHash identifies the content of one dataset of the collection: the
// SHA-256 (first 16 bytes, hex) of the files the loader reads — the metadata
// <name>.txt, the data file(s), conxuntos.dat and conxuntos_kfold.dat — each
// preceded by its name and length. Every stored job records the hash of its
// dataset, and a job whose data changed runs again instead of being reused.
//
// A two-file dataset whose test file TestNormAuto normalises differently from
// TestNormOwn (protocol.AutoFills: in the collection, annealing) also hashes
// the name of that rule, autoFillsRule: its jobs stored before the rule record
// no accuracy under it, so they run again.
func DataHash(dir, name string) (string, error) {
	h, meta, err := hashFiles(dir, name)
	if err != nil {
		return "", err
	}
	if meta.TestFile != "" {
		u, err := dataset.LoadUCI(dir, name)
		if err != nil {
			return "", fmt.Errorf("data hash of %s: %w", name, err)
		}
		if protocol.AutoFills(u) {
			fmt.Fprintf(h, "%s\n", autoFillsRule)
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}

// hashFiles hashes the files of dataset name that the loader reads, each
// preceded by its name and length (DataHash without the rules).
func hashFiles(dir, name string) (hash.Hash, *dataset.UCIMeta, error) {
	meta, err := dataset.ReadUCIMeta(dir, name)
	if err != nil {
		return nil, nil, err
	}
	h := sha256.New()
	for _, f := range []string{name + ".txt", meta.TrainFile, meta.TestFile, dataset.SearchFile, dataset.KFoldFile} {
		if f == "" {
			continue
		}
		if err := hashFile(h, filepath.Join(dir, name, f), f); err != nil {
			return nil, nil, fmt.Errorf("data hash of %s: %w", name, err)
		}
	}
	return h, meta, nil
}

// autoFillsRule names protocol.AutoFills's normalisation in DataHash.
const autoFillsRule = "test file: features constant in it at the training rows' median (protocol.AutoFills)"

func hashFile(h io.Writer, path, name string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	fmt.Fprintf(h, "%s\x00%d\x00", name, st.Size())
	_, err = io.Copy(h, f)
	return err
}

package protocol

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ReadHyperparameters reads a TSV of fixed hyperparameters: lines
// "dataset<TAB>n<TAB>lambda<TAB>kappa" after an optional header line starting with
// "dataset"; lines starting with '#' are comments. The accuracy study then skips
// the search for the datasets it lists and evaluates these values instead.
func ReadHyperparameters(path string) (map[string]Best, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("hyperparameters: %w", err)
	}
	defer f.Close()
	out := map[string]Best{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") || strings.HasPrefix(text, "dataset\t") {
			continue
		}
		fields := strings.Split(text, "\t")
		if len(fields) != 4 {
			return nil, fmt.Errorf("%s:%d: %d fields, want 4 (dataset, n, lambda, kappa)", path, line, len(fields))
		}
		n, err1 := strconv.Atoi(fields[1])
		lambda, err2 := strconv.ParseFloat(fields[2], 64)
		kappa, err3 := strconv.Atoi(fields[3])
		switch {
		case err1 != nil || n < 1:
			return nil, fmt.Errorf("%s:%d: field 2 (n): %q is not a positive integer", path, line, fields[1])
		case err2 != nil || !(lambda > 0):
			return nil, fmt.Errorf("%s:%d: field 3 (lambda): %q is not a positive number", path, line, fields[2])
		case err3 != nil || kappa < 1:
			return nil, fmt.Errorf("%s:%d: field 4 (kappa): %q is not a positive integer", path, line, fields[3])
		}
		if _, dup := out[fields[0]]; dup {
			return nil, fmt.Errorf("%s:%d: dataset %q listed twice", path, line, fields[0])
		}
		out[fields[0]] = Best{N: n, Lambda: lambda, Kappa: kappa}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("hyperparameters: %w", err)
	}
	return out, nil
}

package study

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
)

// RunLogFile is the log of every invocation of a study in its output folder:
// one line per run with the stage, date, command, wall time, and how many jobs
// it ran and reused — so the wall time of a full run survives later resumptions.
const RunLogFile = "run-log.tsv"

const runLogHeader = "stage\tdate\twall_seconds\tjobs_run\tjobs_reused\tcommand\n"

// AppendRunLog adds one line to dir/run-log.tsv (rewritten atomically).
func AppendRunLog(dir, stage, command string, start time.Time, wall float64, run, reused int) error {
	p := filepath.Join(dir, RunLogFile)
	old, err := os.ReadFile(p)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	var b bytes.Buffer
	if len(old) == 0 {
		b.WriteString(runLogHeader)
	}
	b.Write(old)
	fmt.Fprintf(&b, "%s\t%s\t%.0f\t%d\t%d\t%s\n", stage, start.UTC().Format(time.RFC3339), wall, run, reused, command)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(p, b.Bytes(), 0o644)
}

// readRunLog returns the log's text, or "" when there is none.
func readRunLog(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, RunLogFile))
	if err != nil {
		return ""
	}
	return string(data)
}

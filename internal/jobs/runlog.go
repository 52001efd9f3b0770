package jobs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
)

// RunLogFile is the log of every invocation of a study in its output folder:
// one line per run with the stage, date, command, wall time, and how many jobs
// it ran and reused — so the wall time of a full run survives later resumptions.
const RunLogFile = "run-log.tsv"

const runLogHeader = "stage\tdate\twall_seconds\tjobs_run\tjobs_reused\tcommand\n"

// AppendRunLog adds one line to dir/run-log.tsv (rewritten atomically, under
// a lock, so that the shards of a study sharing dir lose no line).
func AppendRunLog(dir, stage, command string, start time.Time, wall float64, run, reused int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	p := filepath.Join(dir, RunLogFile)
	return withFileLock(filepath.Join(dir, LockFile+".run-log"), func() error {
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
		return atomicfile.WriteFile(p, b.Bytes(), 0o644)
	})
}

// RunLogMarkdown renders dir's run log as a Markdown section ("" when there is
// none), the end of each study's summary.md.
func RunLogMarkdown(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, RunLogFile))
	if err != nil || len(data) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n## Invocations (run-log.tsv)\n\n| stage | date (UTC) | wall time | jobs run | jobs reused | command |\n|---|---|---|---|---|---|\n")
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.SplitN(line, "\t", 6)
		if i == 0 || len(f) != 6 {
			continue
		}
		var secs float64
		fmt.Sscan(f[2], &secs)
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | `%s` |\n", f[0], f[1], (time.Duration(secs) * time.Second).String(), f[3], f[4], f[5])
	}
	return b.String()
}

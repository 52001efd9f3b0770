// Package progress shows how far long work has got on stderr: a bar
// redrawn in place on a terminal, plain lines at most every Interval
// otherwise (a log file or a pipe), so that minutes of work are not silent.
//
//	p := progress.New(os.Stderr, "GA")
//	for g := 1; g <= n; g++ {
//		p.Update(g, n, fmt.Sprintf("cost %.4g", cost))
//	}
//	p.Done("stopped after 120 generations")
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// Interval is the least time between two plain lines (not on a terminal).
const Interval = 5 * time.Second

// barWidth is the bar's width in characters.
const barWidth = 30

// Reporter reports the progress of one task. The zero value is unusable;
// use New. It is not safe for concurrent use.
type Reporter struct {
	w     io.Writer
	label string
	tty   bool
	now   func() time.Time
	last  time.Time
	drawn bool // a bar is on the current line
}

// New returns a reporter writing to w, with a bar when w is a terminal.
func New(w io.Writer, label string) *Reporter {
	return &Reporter{w: w, label: label, tty: IsTerminal(w), now: time.Now}
}

// IsTerminal reports whether w is a character device (a terminal).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Update reports done of total units (total ≤ 0: unknown) and a note. On a
// terminal it redraws the bar; otherwise it writes a line when Interval has
// passed since the last one (the first call only starts the clock).
func (r *Reporter) Update(done, total int, note string) {
	now := r.now()
	if r.last.IsZero() {
		r.last = now
		if !r.tty {
			return
		}
	}
	if r.tty {
		fmt.Fprintf(r.w, "\r%s %s %s", r.label, bar(done, total), note)
		r.drawn = true
		return
	}
	if now.Sub(r.last) < Interval {
		return
	}
	r.last = now
	fmt.Fprintf(r.w, "%s: %s %s\n", r.label, count(done, total), note)
}

// Done ends the task with a final line.
func (r *Reporter) Done(note string) {
	if r.drawn {
		fmt.Fprint(r.w, "\r\033[K")
		r.drawn = false
	}
	fmt.Fprintf(r.w, "%s: %s\n", r.label, note)
}

// Clear removes a bar from the terminal line (nothing otherwise), for a
// task whose caller prints its own final line.
func (r *Reporter) Clear() {
	if r.drawn {
		fmt.Fprint(r.w, "\r\033[K")
		r.drawn = false
	}
}

// bar renders [#####.....] 50% (or a count when total is unknown).
func bar(done, total int) string {
	if total <= 0 {
		return fmt.Sprintf("%d", done)
	}
	done = min(max(done, 0), total)
	n := barWidth * done / total
	return fmt.Sprintf("[%s%s] %3d%%", strings.Repeat("#", n), strings.Repeat(".", barWidth-n), 100*done/total)
}

// count renders 40/100 (40%) or 40 when total is unknown.
func count(done, total int) string {
	if total <= 0 {
		return fmt.Sprintf("%d", done)
	}
	return fmt.Sprintf("%d/%d (%d%%)", done, total, 100*done/total)
}

package buildflow

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hdlgen/hdlgen/internal/confusion"
	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/internal/proc"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/tune"
)

// probe is appended to a copy of the page: once laid out, it writes what the
// browser rendered into the DOM — the sections, the visible text, every SVG
// text element that falls outside its picture and every picture's tick
// labels — for --dump-dom to print.
const probe = `<script>
window.addEventListener('load', () => {
  const r = {sections: [], outside: [], ticks: [], svgText: [], text: document.body.innerText, svgs: document.querySelectorAll('svg').length};
  document.querySelectorAll('h2').forEach(h => r.sections.push(h.innerText));
  document.querySelectorAll('svg').forEach((svg, i) => {
    const box = svg.getBoundingClientRect();
    const labels = [];
    svg.querySelectorAll('text').forEach(t => {
      const b = t.getBoundingClientRect();
      if (b.width > 0 && (b.left < box.left - 1 || b.right > box.right + 1 || b.top < box.top - 1 || b.bottom > box.bottom + 1)) {
        r.outside.push(i + ': ' + t.textContent);
      }
      r.svgText.push(t.textContent);
      if (t.getAttribute('text-anchor') === 'end' && /^-?[0-9.]+$/.test(t.textContent)) labels.push(t.textContent);
    });
    r.ticks.push(labels);
  });
  const pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
});
</script>`

// rendered is what the probe reports.
type rendered struct {
	Sections []string   `json:"sections"`
	Outside  []string   `json:"outside"`
	Ticks    [][]string `json:"ticks"`
	Text     string     `json:"text"`
	SVGText  []string   `json:"svgText"`
	SVGs     int        `json:"svgs"`
}

// chromium runs the headless browser on page: a screenshot into dir and the
// probe's report.
func chromium(t *testing.T, dir, page string) rendered {
	t.Helper()
	probed := filepath.Join(dir, "probed.html")
	if err := os.WriteFile(probed, []byte(strings.Replace(page, "</body>", probe+"</body>", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
		"--disable-sync", "--no-first-run", "--user-data-dir=" + filepath.Join(dir, "profile"), "--window-size=1200,3000"}
	run := func(args ...string) []byte {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "chromium", append(base, args...)...)
		proc.Setup(cmd)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("chromium %s: %v", strings.Join(args, " "), err)
		}
		return out
	}
	shot := filepath.Join(dir, "report.png")
	run("--screenshot="+shot, "file://"+filepath.Join(dir, "page.html"))
	if fi, err := os.Stat(shot); err != nil || fi.Size() < 1000 {
		t.Errorf("no screenshot: %v", err)
	}
	dom := string(run("--virtual-time-budget=5000", "--dump-dom", "file://"+probed))
	_, js, ok := strings.Cut(dom, `<pre id="probe">`)
	js, _, _ = strings.Cut(js, "</pre>")
	if !ok {
		t.Fatalf("the probe did not run:\n%s", dom)
	}
	var r rendered
	js = strings.NewReplacer("&quot;", `"`, "&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(js)
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		t.Fatalf("probe: %v\n%s", err, js)
	}
	return r
}

// reportFacts are the facts of a made-up build of 26 classes (one with a
// hostile name), with a curve of accuracies 0.962…0.985.
func reportFacts() Facts {
	var f Facts
	f.Options = Options{Name: "letters", Bits: 5, Vectors: 100, Objective: OptimizeEnergy, BudgetOn: power.BudgetDynamic}
	var names []string
	for c := 'A'; c <= 'Y'; c++ {
		names = append(names, string(c))
	}
	names = append(names, "```\n# Z <b>")
	m := confusion.New(names)
	for i := range names {
		m.Counts[i][i] = 20 + i
		m.Counts[i][(i+1)%len(names)] = 3
	}
	f.Data = tune.DataInfo{File: "letters.csv", Rows: 1000, Features: 16, Classes: len(names), ClassNames: names, Label: "letter"}
	f.IntHeld, f.IntTrain, f.FloatHeld, f.FloatTrain = m.Score(), m.Score(), m.Score(), m.Score()
	f.Searched = true
	var curve []tune.CurvePoint
	for i, acc := range []float64{0.962, 0.970, 0.975, 0.981, 0.984, 0.985, 0.983} {
		curve = append(curve, tune.CurvePoint{N: 100 * (i + 1), Kappa: 3, Lambda: 256, Accuracy: acc})
	}
	best := tune.Accuracy{Mean: 0.985, Std: 0.01, PerSeed: [][]float64{{0.97, 0.98, 0.99, 1}}}
	dc, err := ChooseDesign([]MemberCurve{{Network: model.IntRVFL, Curve: curve, Best: best}}, 16, len(names), f.Options)
	if err != nil {
		panic(err)
	}
	f.Design = dc
	f.Sizes = dc.Points[dc.Chosen].Sizes
	f.Chosen = dc.Points[dc.Chosen].Best
	f.Search.Config.N = 600
	f.Search.Search = &tune.SearchInfo{Grid: "wide", Points: 3120}
	f.Eval.Config.N = dc.Points[dc.Chosen].N
	f.Baseline = Baseline{Method: "logistic regression", Validation: "4-fold", Lambda: 1e-3, Held: 0.9}
	f.Baseline.Validated.Mean = 0.95
	f.Power = f.Sizes[f.Chosen].Estimate
	return f
}

// TestReportRendersInABrowser: REPORT.html as Chromium renders it — every
// section, the pictures inline (the page is one file), no picture's text
// outside it, distinct tick labels, the chosen design marked, a 26-class
// confusion matrix with a hostile class name shown as escaped text.
func TestReportRendersInABrowser(t *testing.T) {
	hwtest.Require(t, hwtest.Chromium)
	f := reportFacts()
	images := map[string][]byte{ConfusionSVG: f.IntHeld.Matrix().SVG("held-out"), CurveNSVG: curveSVG(f, false), CurveLUTSVG: curveSVG(f, true)}
	page := HTML(Report(f), images)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "page.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	r := chromium(t, dir, page)
	if shots := os.Getenv("HDLGEN_REPORT_SCREENSHOT"); shots != "" { // to look at it
		if b, err := os.ReadFile(filepath.Join(dir, "report.png")); err == nil {
			_ = os.WriteFile(shots, b, 0o644)
		}
	}
	for _, want := range []string{"Summary", "Accuracy", "Accuracy against size", "Design space over P", "Verification", "Commands", "Next"} {
		found := false
		for _, s := range r.Sections {
			found = found || strings.HasPrefix(s, want)
		}
		if !found {
			t.Errorf("the rendered page lacks the section %q (it has %q)", want, r.Sections)
		}
	}
	if r.SVGs != 3 {
		t.Errorf("%d pictures in the page, want 3 inline", r.SVGs)
	}
	if strings.Contains(page, "<img") {
		t.Error("the page refers to a picture file")
	}
	if len(r.Outside) > 0 {
		t.Errorf("text outside its picture: %q", r.Outside)
	}
	for i, ticks := range r.Ticks {
		seen := map[string]bool{}
		for _, l := range ticks {
			if seen[l] {
				t.Errorf("picture %d repeats the tick label %s: %q", i, l, ticks)
			}
			seen[l] = true
		}
	}
	hostile := `"\x60\x60\x60\n\x23 Z \x3cb\x3e"`
	if !strings.Contains(r.Text, hostile) || !strings.Contains(r.Text, "| chosen") && !strings.Contains(r.Text, "chosen") {
		t.Errorf("the rendered text lacks the escaped class name %s or the chosen mark", hostile)
	}
	svgText := strings.Join(r.SVGText, "\n")
	if n := strings.Count(svgText, fmt.Sprintf("chosen: N=%d", f.Eval.Config.N)); n != 2 {
		t.Errorf("%d pictures mark the chosen design N=%d, want 2", n, f.Eval.Config.N)
	}
	if !strings.Contains(svgText, hostile) {
		t.Errorf("the confusion matrix lacks the class %s", hostile)
	}
}

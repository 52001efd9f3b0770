package sim

// token is what one flight-stage register holds: a group's tag and its
// contribution to the scores.
type token struct {
	valid, first, last bool
	contrib            []int64
}

// amToken is one argmax pipeline register: the scores travelling with the tree
// and the class the tree has decided (the tree's partial candidates are a pure
// function of the scores, so the final class stands in for them).
type amToken struct {
	valid  bool
	class  int
	scores []int64
}

// Top is the cycle-accurate state of <prefix>_top. Create it with Core.NewTop;
// drive it with Outputs (combinational outputs of the current state) and Clock
// (one rising edge).
type Top struct {
	c *Core

	// hdlgen_issue (with plan.HoldInput, hdlgen_issue_hold: no busy flag and no
	// input register, the vector is read in place)
	busy  bool
	group int
	base  int
	data  []int

	// flight stages between issue and the accumulators; stage s of the pipeline
	// (0 = stage A) is flight[(head+s) % len(flight)].
	flight []token
	head   int

	// hdlgen_mac accumulators and done flag
	acc  []int64
	done bool

	// hdlgen_argmax pipeline registers, same ring layout
	am     []amToken
	amHead int

	// hdlgen_outreg
	outValid  bool
	outClass  int
	outScores []int64
}

// NewTop returns a Top in its reset state.
func (c *Core) NewTop() *Top {
	t := &Top{c: c, data: make([]int, c.k), acc: make([]int64, c.l), outScores: make([]int64, c.l)}
	t.flight = make([]token, c.pl.FlightStages)
	for i := range t.flight {
		t.flight[i].contrib = make([]int64, c.l)
	}
	t.am = make([]amToken, c.pl.ArgmaxTree.Stages)
	for i := range t.am {
		t.am[i].scores = make([]int64, c.l)
	}
	t.Reset()
	return t
}

// Reset applies rst_ni = 0 for one edge: the control registers clear; data
// registers keep their values (they are never observed before being loaded).
func (t *Top) Reset() {
	t.busy, t.group, t.base = false, 0, 0
	for i := range t.flight {
		t.flight[i].valid = false
	}
	t.done = false
	for i := range t.am {
		t.am[i].valid = false
	}
	t.outValid = false
}

// last stage before the output register: the argmax pipeline's last register, or
// the accumulators when the argmax tree has no register.
func (t *Top) lastStage() (valid bool, class int, scores []int64) {
	if n := len(t.am); n > 0 {
		a := &t.am[(t.amHead+n-1)%n]
		return a.valid, a.class, a.scores
	}
	return t.done, argmax(t.acc), t.acc
}

// lastValid is the valid bit of lastStage.
func (t *Top) lastValid() bool {
	if n := len(t.am); n > 0 {
		return t.am[(t.amHead+n-1)%n].valid
	}
	return t.done
}

// en is hdlgen_outreg's advance: no stall unless a result waits for a full output register.
func (t *Top) en() bool { return !(t.lastValid() && t.outValid) }

// inReady is hdlgen_issue's in_ready_o (hdlgen_issue_hold's: the transfer
// comes with the last group).
func (t *Top) inReady(en bool) bool {
	last := t.group == t.c.pl.Groups-1
	if t.c.pl.HoldInput {
		return en && last
	}
	return !t.busy || (en && last)
}

// Outputs is the combinational view of the current state.
type Outputs struct {
	InReady  bool
	OutValid bool
	Class    int
	Scores   []int64 // shared with the Top; copy before the next Clock
}

// Outputs returns in_ready_o and the output register (valid, class, scores).
func (t *Top) Outputs() Outputs {
	return Outputs{InReady: t.inReady(t.en()), OutValid: t.outValid, Class: t.outClass, Scores: t.outScores}
}

// Clock applies one rising edge with the given inputs. in is read only when
// inValid is true (and must then hold K elements).
func (t *Top) Clock(inValid bool, in []int, outReady bool) {
	c := t.c
	en := t.en()
	accept := inValid && t.inReady(en)

	// hdlgen_outreg: load when empty (then en is 1), else drop on out_ready_i.
	switch {
	case t.lastValid() && !t.outValid:
		_, class, scores := t.lastStage()
		t.outValid = true
		t.outClass = class
		copy(t.outScores, scores)
	case t.outValid && outReady:
		t.outValid = false
	}

	if en {
		// Argmax pipeline: the accumulators enter, the last register left above.
		if n := len(t.am); n > 0 {
			t.amHead = (t.amHead + n - 1) % n
			a := &t.am[t.amHead]
			a.valid = t.done
			a.class = argmax(t.acc)
			copy(a.scores, t.acc)
		}
		// Accumulators take the token leaving the last flight stage.
		n := len(t.flight)
		out := &t.flight[(t.head+n-1)%n]
		if out.valid {
			for l, v := range out.contrib {
				if out.first {
					t.acc[l] = v
				} else {
					t.acc[l] += v
				}
			}
		}
		t.done = out.valid && out.last
		// Flight stages shift; stage A takes the issued group (or a bubble).
		issuing, data := t.busy, t.data
		if c.pl.HoldInput {
			issuing, data = inValid, in
		}
		t.head = (t.head + n - 1) % n
		a := &t.flight[t.head]
		a.valid = issuing
		if issuing {
			a.first = t.group == 0
			a.last = t.group == c.pl.Groups-1
			c.groupInto(a.contrib, data, t.base)
		}
	}

	// hdlgen_issue_hold: the group counter advances with every issued group.
	if c.pl.HoldInput {
		if inValid && en {
			if t.group == c.pl.Groups-1 {
				t.group, t.base = 0, 0
			} else {
				t.group++
				t.base += c.p
			}
		}
		return
	}
	// hdlgen_issue.
	switch {
	case accept:
		t.busy, t.group, t.base = true, 0, 0
		copy(t.data, in)
	case t.busy && en:
		if t.group == c.pl.Groups-1 {
			t.busy, t.group, t.base = false, 0, 0
		} else {
			t.group++
			t.base += c.p
		}
	}
}

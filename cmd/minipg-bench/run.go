package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"minipg/tpcc"
)

// Run is everything one invocation measured: the JSON file every
// subcommand writes, and what `minipg-bench report` reads back. The HTML
// page is drawn from a Run (or several merged) alone, so that every figure
// in the picture is also in the JSON.
type Run struct {
	Command  string       `json:"command"`
	Args     []string     `json:"args"`
	Started  time.Time    `json:"started"`
	Seconds  float64      `json:"seconds"`
	Rounds   int          `json:"rounds"`
	AtOnce   bool         `json:"at_once,omitempty"` // the targets of a round measured at the same time (-concurrent)
	Targets  []TargetInfo `json:"targets"`
	Series   []*Series    `json:"series"`
	Layouts  []Layout     `json:"layouts,omitempty"`
	WALRel   []WALRelRow  `json:"wal_rel,omitempty"`
	Notes    []string     `json:"notes,omitempty"`
	Versions []string     `json:"versions,omitempty"`
}

// TargetInfo describes one server a run measured.
type TargetInfo struct {
	Name     string            `json:"name"`
	Kind     string            `json:"kind"`             // minipg or postgresql
	Policy   string            `json:"policy,omitempty"` // minipg's fsm_policy
	Settings map[string]string `json:"settings,omitempty"`
	Label    string            `json:"label,omitempty"` // how it ran, e.g. "stock: cached target block"
}

// Series is one figure of one target at one point (a client count, a
// table size, or none): every round's sample and their median, min and max.
type Series struct {
	Experiment string    `json:"experiment"`
	Workload   string    `json:"workload,omitempty"`
	Metric     string    `json:"metric"`
	Unit       string    `json:"unit,omitempty"`
	XName      string    `json:"x_name,omitempty"` // clients, blocks
	X          float64   `json:"x,omitempty"`
	Target     string    `json:"target"`
	Samples    []float64 `json:"samples"`
	Median     float64   `json:"median"`
	Min        float64   `json:"min"`
	Max        float64   `json:"max"`
}

// Layout is one table's block map on one target (TPC-C subcommands).
type Layout struct {
	Target string        `json:"target"`
	Phase  string        `json:"phase,omitempty"` // the subcommand after which it was read
	Map    tpcc.BlockMap `json:"map"`
	// BlocksHist and SpanHist count groups (orders, districts) by
	// distinct blocks and by max-min+1.
	BlocksHist []tpcc.Bin `json:"blocks_hist"`
	SpanHist   []tpcc.Bin `json:"span_hist"`
}

// label names the layout in charts: its target, and when known the
// subcommand after which it was read.
func (l Layout) label() string {
	if l.Phase == "" {
		return l.Target
	}
	return l.Target + " after " + l.Phase
}

// WALRelRow is one table's WAL during a measurement on one target.
type WALRelRow struct {
	Target string `json:"target"`
	Phase  string `json:"phase"` // which measurement (load, delivery-pass, ...)
	tpcc.RelWAL
}

// add records one sample.
func (r *Run) add(exp, workload, xname string, x float64, target, metric, unit string, v float64) {
	for _, s := range r.Series {
		if s.Experiment == exp && s.Workload == workload && s.XName == xname && s.X == x && s.Target == target && s.Metric == metric {
			s.Samples = append(s.Samples, v)
			return
		}
	}
	r.Series = append(r.Series, &Series{Experiment: exp, Workload: workload, XName: xname, X: x, Target: target,
		Metric: metric, Unit: unit, Samples: []float64{v}})
}

// note records a remark, once.
func (r *Run) note(s string) {
	if !slices.Contains(r.Notes, s) {
		r.Notes = append(r.Notes, s)
	}
}

// finish computes every series' median, min and max.
func (r *Run) finish() {
	for _, s := range r.Series {
		s.Median, s.Min, s.Max = summarize(s.Samples)
	}
}

// summarize returns the median, min and max of xs, NaN samples ignored
// (all three NaN when none is left).
func summarize(xs []float64) (med, lo, hi float64) {
	var ok []float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			ok = append(ok, x)
		}
	}
	if len(ok) == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	return median(ok), slices.Min(ok), slices.Max(ok)
}

// trimmedMean is the mean of xs without its lowest and highest tenth
// (at least one of each when there are three or more values).
func trimmedMean(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	k := len(s) / 10
	if k == 0 && len(s) >= 3 {
		k = 1
	}
	s = s[k : len(s)-k]
	if len(s) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, x := range s {
		sum += x
	}
	return sum / float64(len(s))
}

// jsonFloat is how NaN and infinities appear in the JSON (encoding/json
// refuses them): null.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}

// MarshalJSON writes a series with NaN as null.
func (s *Series) MarshalJSON() ([]byte, error) {
	samples := make([]*jsonFloat, len(s.Samples))
	for i, v := range s.Samples {
		f := jsonFloat(v)
		samples[i] = &f
	}
	type plain Series
	return json.Marshal(struct {
		*plain
		Samples []*jsonFloat `json:"samples"`
		Median  jsonFloat    `json:"median"`
		Min     jsonFloat    `json:"min"`
		Max     jsonFloat    `json:"max"`
	}{(*plain)(s), samples, jsonFloat(s.Median), jsonFloat(s.Min), jsonFloat(s.Max)})
}

// UnmarshalJSON reads null as NaN.
func (s *Series) UnmarshalJSON(b []byte) error {
	type plain Series
	var aux struct {
		*plain
		Samples []*float64 `json:"samples"`
		Median  *float64   `json:"median"`
		Min     *float64   `json:"min"`
		Max     *float64   `json:"max"`
	}
	aux.plain = (*plain)(s)
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	f := func(p *float64) float64 {
		if p == nil {
			return math.NaN()
		}
		return *p
	}
	s.Samples = s.Samples[:0]
	for _, p := range aux.Samples {
		s.Samples = append(s.Samples, f(p))
	}
	s.Median, s.Min, s.Max = f(aux.Median), f(aux.Min), f(aux.Max)
	return nil
}

// writeJSON writes the run to path.
func (r *Run) writeJSON(path string) error {
	b, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// readRun reads a run written by writeJSON.
func readRun(path string) (*Run, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Run
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &r, nil
}

// formatNum prints v with a precision that suits its size.
func formatNum(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v):
		return "n/a"
	case a >= 1e7:
		return fmt.Sprintf("%.3gM", v/1e6)
	case a >= 100 || v == math.Trunc(v):
		return fmt.Sprintf("%.0f", v)
	case a >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// cellText is "median (min-max)", or just the value for one sample.
func (s *Series) cellText() string {
	if len(s.Samples) <= 1 || s.Min == s.Max {
		return formatNum(s.Median)
	}
	return fmt.Sprintf("%s (%s-%s)", formatNum(s.Median), formatNum(s.Min), formatNum(s.Max))
}

// printTable prints one row per (experiment, workload, x, metric) and one
// column per target: the median with min-max over the rounds.
func (r *Run) printTable(w io.Writer) {
	type rowKey struct {
		exp, workload, xname string
		x                    float64
		metric               string
	}
	var rows []rowKey
	cells := map[rowKey]map[string]*Series{}
	for _, s := range r.Series {
		k := rowKey{s.Experiment, s.Workload, s.XName, s.X, s.Metric}
		if cells[k] == nil {
			cells[k] = map[string]*Series{}
			rows = append(rows, k)
		}
		cells[k][s.Target] = s
	}
	label := func(k rowKey) string {
		var parts []string
		if k.workload != "" {
			parts = append(parts, k.workload)
		}
		if k.xname != "" {
			parts = append(parts, fmt.Sprintf("%s=%g", k.xname, k.x))
		}
		parts = append(parts, k.metric)
		return strings.Join(parts, " ")
	}
	lw := 8
	for _, k := range rows {
		lw = max(lw, len(label(k)))
	}
	cw := make([]int, len(r.Targets))
	for i, t := range r.Targets {
		cw[i] = len(t.Name)
		for _, k := range rows {
			if s := cells[k][t.Name]; s != nil {
				cw[i] = max(cw[i], len(s.cellText()))
			}
		}
	}
	fmt.Fprintf(w, "\nmedian (min-max) of %d round(s)%s\n%-*s", r.Rounds, r.AtOnceText(), lw, "")
	for i, t := range r.Targets {
		fmt.Fprintf(w, "  %*s", cw[i], t.Name)
	}
	fmt.Fprintln(w)
	for _, k := range rows {
		fmt.Fprintf(w, "%-*s", lw, label(k))
		for i, t := range r.Targets {
			txt := "n/a"
			if s := cells[k][t.Name]; s != nil {
				txt = s.cellText()
			}
			fmt.Fprintf(w, "  %*s", cw[i], txt)
		}
		fmt.Fprintln(w)
	}
	for _, t := range r.Targets {
		if t.Label != "" {
			fmt.Fprintf(w, "%s: %s\n", t.Name, t.Label)
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintln(w, "note:", n)
	}
}

// AtOnceText qualifies the rounds of a run whose targets were measured at
// the same time.
func (r *Run) AtOnceText() string {
	if r.AtOnce {
		return ", the targets of each at once"
	}
	return ""
}

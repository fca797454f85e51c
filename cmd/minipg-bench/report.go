package main

// The HTML report: one self-contained page (inline SVG charts drawn with
// gonum/plot, inline CSS, no script, nothing fetched) from one or more
// runs' JSON, with every figure of the charts also in the tables below
// them and in the JSON.

import (
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"html/template"
	"image/color"
	"maps"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"minipg/tpcc"
)

func reportMain(args []string) error {
	fs := flag.NewFlagSet("minipg-bench report", flag.ExitOnError)
	out := fs.String("html", "", "write the page here")
	fs.Parse(args) //nolint:errcheck // ExitOnError
	if *out == "" || fs.NArg() == 0 {
		return fmt.Errorf("usage: minipg-bench report --html FILE RUN.json...")
	}
	var runs []*Run
	for _, p := range fs.Args() {
		r, err := readRun(p)
		if err != nil {
			return err
		}
		runs = append(runs, r)
	}
	if err := writeReport(*out, runs); err != nil {
		return err
	}
	fmt.Println("report written to", *out)
	return nil
}

// distinctTargets returns runs with a target renamed "NAME (run K)" where
// an earlier run of the same subcommand had a target of that name, so that
// merged runs stay apart in the charts. The runs given are not changed.
func distinctTargets(runs []*Run) []*Run {
	seen := map[string]bool{} // command + target
	out := make([]*Run, len(runs))
	for i, r := range runs {
		rename := map[string]string{}
		for _, t := range r.Targets {
			if seen[r.Command+"\x00"+t.Name] {
				rename[t.Name] = fmt.Sprintf("%s (run %d)", t.Name, i+1)
			}
		}
		for _, t := range r.Targets {
			seen[r.Command+"\x00"+t.Name] = true
		}
		if len(rename) == 0 {
			out[i] = r
			continue
		}
		name := func(n string) string {
			if m, ok := rename[n]; ok {
				return m
			}
			return n
		}
		c := *r
		c.Targets = slices.Clone(r.Targets)
		for k := range c.Targets {
			c.Targets[k].Name = name(c.Targets[k].Name)
		}
		c.Series = nil
		for _, s := range r.Series {
			cs := *s
			cs.Target = name(s.Target)
			c.Series = append(c.Series, &cs)
		}
		c.Layouts = slices.Clone(r.Layouts)
		for k := range c.Layouts {
			c.Layouts[k].Target = name(c.Layouts[k].Target)
		}
		c.WALRel = slices.Clone(r.WALRel)
		for k := range c.WALRel {
			c.WALRel[k].Target = name(c.WALRel[k].Target)
		}
		out[i] = &c
	}
	return out
}

// chart is one drawn figure of the page.
type chart struct {
	Title   string
	Caption string
	SVG     template.HTML
}

// section is one experiment's part of the page: its charts and its
// figures as a table.
type section struct {
	Title  string
	Note   string
	Charts []chart
	// Rows are the charts as drawn: one row each (the layout's block
	// maps of one table side by side, then its histograms); a section
	// that sets only Charts has them in one wrapping row.
	Rows   [][]chart
	Legend []swatch
	Table  *figTable
	// Rows of a second table (WAL per table, layouts).
	Extra *figTable
}

type swatch struct {
	Label string
	Color template.CSS
}

type figTable struct {
	Head []string
	Rows [][]string
}

type page struct {
	Runs     []*Run
	Sections []section
}

// writeReport draws runs into one page at path.
func writeReport(path string, runs []*Run) error {
	b, err := renderReport(runs)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

func renderReport(runs []*Run) ([]byte, error) {
	runs = distinctTargets(runs)
	p := page{Runs: runs}
	var all []*Series
	var layouts []Layout
	var walrel []WALRelRow
	for _, r := range runs {
		all = append(all, r.Series...)
		layouts = append(layouts, r.Layouts...)
		walrel = append(walrel, r.WALRel...)
	}
	var exps []string
	for _, s := range all {
		if !slices.Contains(exps, s.Experiment) {
			exps = append(exps, s.Experiment)
		}
	}
	for _, exp := range exps {
		sec, err := experimentSection(exp, all)
		if err != nil {
			return nil, err
		}
		p.Sections = append(p.Sections, sec)
	}
	if len(layouts) > 0 {
		sec, err := layoutSection(layouts)
		if err != nil {
			return nil, err
		}
		p.Sections = append(p.Sections, sec)
	}
	if len(walrel) > 0 {
		sec, err := walRelSection(walrel)
		if err != nil {
			return nil, err
		}
		p.Sections = append(p.Sections, sec)
	}
	for i := range p.Sections {
		if sec := &p.Sections[i]; sec.Rows == nil && len(sec.Charts) > 0 {
			sec.Rows = [][]chart{sec.Charts}
		}
	}
	var buf bytes.Buffer
	if err := pageTmpl.Execute(&buf, p); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// experimentSection draws one experiment's series: a chart per workload
// and metric that has an x axis (clients, blocks), bar charts for tpmC and
// latency percentiles, and a table of every series.
func experimentSection(exp string, all []*Series) (section, error) {
	sec := section{Title: experimentTitles[exp]}
	if sec.Title == "" {
		sec.Title = exp
	}
	var ss []*Series
	for _, s := range all {
		if s.Experiment == exp {
			ss = append(ss, s)
		}
	}
	switch exp {
	case "extend":
		for _, w := range distinct(ss, func(s *Series) string { return s.Workload }) {
			for _, m := range []string{"rows/s", "blocks / single-writer", "blocks never used"} {
				c, ok, err := lineChart(fmt.Sprintf("%s: %s against clients", w, m), ss, w, m, true)
				if err != nil {
					return sec, err
				}
				if ok {
					sec.Charts = append(sec.Charts, c)
				}
			}
		}
	case "smalltables":
		for _, w := range distinct(ss, func(s *Series) string { return s.Workload }) {
			for _, m := range distinct(ss, func(s *Series) string { return s.Metric }) {
				if !strings.HasPrefix(m, "ms per table") {
					continue
				}
				c, ok, err := lineChart(fmt.Sprintf("%s: %s against blocks per table", w, m), ss, w, m, false)
				if err != nil {
					return sec, err
				}
				if ok {
					sec.Charts = append(sec.Charts, c)
				}
			}
		}
		c, ok, err := barChart("_fsm files of one-block tables", ss, []string{"_fsm files"})
		if err != nil {
			return sec, err
		}
		if ok {
			sec.Charts = append(sec.Charts, c)
		}
	}
	// TPC-C figures, wherever they come from.
	if c, ok, err := barChart("tpmC (New-Orders per minute)", ss, []string{"tpmC (New-Orders/min)"}); err != nil {
		return sec, err
	} else if ok {
		sec.Charts = append(sec.Charts, c)
	}
	var lat []string
	for _, m := range distinct(ss, func(s *Series) string { return s.Metric }) {
		if strings.HasSuffix(m, ": p90 ms") || strings.HasSuffix(m, ": p99 ms") || strings.HasSuffix(m, ": mean ms") {
			lat = append(lat, m)
		}
	}
	if c, ok, err := barChart("latency percentiles (ms)", ss, lat); err != nil {
		return sec, err
	} else if ok {
		sec.Charts = append(sec.Charts, c)
	}
	sec.Table = seriesTable(ss)
	return sec, nil
}

var experimentTitles = map[string]string{
	"extend":        "Relation extension under concurrency (extend)",
	"smalltables":   "Small tables without a free space map (smalltables)",
	"rt":            "Round trips (rt)",
	"load":          "TPC-C load",
	"locality":      "TPC-C locality",
	"run":           "TPC-C run",
	"delivery-pass": "TPC-C Delivery pass",
	"neworders":     "TPC-C New-Orders",
	"check":         "TPC-C consistency",
}

func distinct[T comparable](ss []*Series, key func(*Series) T) []T {
	var out []T
	for _, s := range ss {
		if k := key(s); !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// targetsOf lists the targets of ss in order of first appearance.
func targetsOf(ss []*Series) []string {
	return distinct(ss, func(s *Series) string { return s.Target })
}

// medianErr is a line's points with min-max as error bars.
type medianErr struct {
	plotter.XYs
	lo, hi []float64
}

func (m medianErr) YError(i int) (float64, float64) { return m.lo[i], m.hi[i] }

// lineChart draws metric of workload against x, one line per target
// (medians, min-max as error bars). ok is false when there is nothing to
// draw.
func lineChart(title string, ss []*Series, workload, metric string, logX bool) (chart, bool, error) {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = metric
	p.Y.Min = 0
	var xs []float64
	n := 0
	for i, target := range targetsOf(ss) {
		var pts []*Series
		for _, s := range ss {
			if s.Target == target && s.Workload == workload && s.Metric == metric && s.XName != "" && !math.IsNaN(s.Median) {
				pts = append(pts, s)
			}
		}
		if len(pts) == 0 {
			continue
		}
		slices.SortFunc(pts, func(a, b *Series) int { return cmp.Compare(a.X, b.X) })
		p.X.Label.Text = pts[0].XName
		me := medianErr{XYs: make(plotter.XYs, len(pts))}
		for k, s := range pts {
			me.XYs[k] = plotter.XY{X: s.X, Y: s.Median}
			me.lo = append(me.lo, s.Median-s.Min)
			me.hi = append(me.hi, s.Max-s.Median)
			if !slices.Contains(xs, s.X) {
				xs = append(xs, s.X)
			}
		}
		l, sc, err := plotter.NewLinePoints(me.XYs)
		if err != nil {
			return chart{}, false, err
		}
		col := plotutil.Color(i)
		l.Color, sc.Color = col, col
		sc.Shape = plotutil.Shape(i)
		eb, err := plotter.NewYErrorBars(me)
		if err != nil {
			return chart{}, false, err
		}
		eb.Color = col
		p.Add(l, sc, eb)
		p.Legend.Add(target, l, sc)
		n++
	}
	if n == 0 {
		return chart{}, false, nil
	}
	if logX && len(xs) > 0 && slices.Min(xs) > 0 {
		p.X.Scale = plot.LogScale{}
	}
	slices.Sort(xs)
	var ticks plot.ConstantTicks
	for _, x := range xs {
		ticks = append(ticks, plot.Tick{Value: x, Label: formatNum(x)})
	}
	p.X.Tick.Marker = ticks
	p.Y.Max = headroom(p.Y.Max, n)
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs = vg.Points(8)
	p.Add(plotter.NewGrid())
	svg, err := svgOf(p, 16*vg.Centimeter, 10*vg.Centimeter)
	return chart{Title: title, Caption: "medians; bars: min-max over the rounds", SVG: svg}, true, err
}

// barChart draws one group of bars per metric, a bar per target.
func barChart(title string, ss []*Series, metrics []string) (chart, bool, error) {
	var present []string
	for _, m := range metrics {
		if slices.ContainsFunc(ss, func(s *Series) bool { return s.Metric == m && !math.IsNaN(s.Median) }) {
			present = append(present, m)
		}
	}
	if len(present) == 0 {
		return chart{}, false, nil
	}
	targets := targetsOf(ss)
	p := plot.New()
	p.Title.Text = title
	w := vg.Points(min(40, 300/float64(len(targets)*len(present))+4))
	for i, target := range targets {
		vals := make(plotter.Values, len(present))
		for k, m := range present {
			for _, s := range ss {
				if s.Target == target && s.Metric == m && !math.IsNaN(s.Median) {
					vals[k] = s.Median
				}
			}
		}
		b, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return chart{}, false, err
		}
		b.Color = plotutil.Color(i)
		b.LineStyle.Width = 0
		b.Offset = w * vg.Length(float64(i)-float64(len(targets)-1)/2)
		p.Add(b)
		p.Legend.Add(target, b)
	}
	labels := make([]string, len(present))
	for i, m := range present {
		labels[i] = strings.TrimSuffix(m, " ms")
	}
	p.NominalX(labels...)
	p.Legend.Top = true
	p.Y.Min = 0
	p.Y.Max = headroom(max(p.Y.Max, 1), len(targets))
	width := 16 * vg.Centimeter
	if len(present) > 6 {
		width = 24 * vg.Centimeter
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
	}
	svg, err := svgOf(p, width, 10*vg.Centimeter)
	return chart{Title: title, Caption: "medians over the rounds", SVG: svg}, true, err
}

// headroom raises a chart's top so that a legend of n entries drawn at the
// top sits above the data.
func headroom(top float64, n int) float64 { return top * (1 + 0.09*float64(n)) }

// seriesTable lists every series: workload, x, metric, and one column per
// target with the median (min-max).
func seriesTable(ss []*Series) *figTable {
	targets := targetsOf(ss)
	t := &figTable{Head: append([]string{"workload", "x", "metric"}, targets...)}
	type key struct {
		w, xn  string
		x      float64
		metric string
	}
	idx := map[key]int{}
	for _, s := range ss {
		k := key{s.Workload, s.XName, s.X, s.Metric}
		i, ok := idx[k]
		if !ok {
			x := ""
			if s.XName != "" {
				x = fmt.Sprintf("%s=%g", s.XName, s.X)
			}
			row := make([]string, 3+len(targets))
			row[0], row[1], row[2] = s.Workload, x, s.Metric
			for j := range targets {
				row[3+j] = "n/a"
			}
			i = len(t.Rows)
			idx[k] = i
			t.Rows = append(t.Rows, row)
		}
		t.Rows[i][3+slices.Index(targets, s.Target)] = s.cellText()
	}
	return t
}

// districtColor is the colour of district group g of n: hues spread by the
// golden ratio so that neighbouring districts differ.
func districtColor(g int) color.RGBA {
	h := math.Mod(float64(g)*0.618033988749895, 1)
	l := 0.45 + 0.15*float64(g%3)/2
	return hsl(h, 0.65, l)
}

func hsl(h, s, l float64) color.RGBA {
	f := func(n float64) uint8 {
		k := math.Mod(n+h*12, 12)
		a := s * min(l, 1-l)
		return uint8(math.Round(255 * (l - a*max(-1, min(k-3, 9-k, 1)))))
	}
	return color.RGBA{f(0), f(8), f(4), 255}
}

var (
	emptyColor = color.RGBA{0xee, 0xee, 0xee, 255}
	mixedColor = color.RGBA{0x22, 0x22, 0x22, 255}
)

// blockCells draws a block map: block b is the cell at column b % perRow,
// row b / perRow from the top.
type blockCells struct {
	cells  []int
	perRow int
}

func (bc blockCells) rows() int { return max(1, (len(bc.cells)+bc.perRow-1)/bc.perRow) }

func (bc blockCells) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, float64(bc.perRow), 0, float64(bc.rows())
}

// Plot draws the cells; a run of cells of one district within a row is
// one rectangle, so that a well-clustered table makes a small SVG.
func (bc blockCells) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	rows := bc.rows()
	for b := 0; b < len(bc.cells); {
		g := bc.cells[b]
		e := b + 1
		for g != tpcc.CellMixed && e < len(bc.cells) && e%bc.perRow != 0 && bc.cells[e] == g {
			e++
		}
		x, y := float64(b%bc.perRow), float64(rows-1-b/bc.perRow)
		x0, x1, y0, y1 := trX(x), trX(x+float64(e-b)), trY(y), trY(y+1)
		var col color.Color = emptyColor
		switch {
		case g >= 0:
			col = districtColor(g)
		case g == tpcc.CellMixed:
			col = mixedColor
		}
		c.FillPolygon(col, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
		if g == tpcc.CellMixed {
			ls := draw.LineStyle{Color: color.White, Width: vg.Points(0.5)}
			c.StrokeLine2(ls, x0, y0, x1, y1)
			c.StrokeLine2(ls, x0, y1, x1, y0)
		}
		b = e
	}
}

// maxCells bounds the cells of one block map: larger tables are drawn
// with several blocks per cell (a cell is one district's only when all
// its blocks are, mixed when they hold different districts).
const maxCells = 12000

func foldCells(cells []int) ([]int, int) {
	k := max(1, (len(cells)+maxCells-1)/maxCells)
	if k == 1 {
		return cells, 1
	}
	out := make([]int, (len(cells)+k-1)/k)
	for i := range out {
		v := tpcc.CellEmpty
		for _, g := range cells[i*k : min(len(cells), (i+1)*k)] {
			switch {
			case g == tpcc.CellEmpty:
			case v == tpcc.CellEmpty:
				v = g
			case v != g:
				v = tpcc.CellMixed
			}
		}
		out[i] = v
	}
	return out, k
}

// layoutSection draws, for each table, the block maps of every target
// side by side and the histograms of blocks and span per group.
func layoutSection(layouts []Layout) (section, error) {
	sec := section{Title: "Layout of bmsql_order_line and bmsql_customer", Note: "Each cell is one heap block, " +
		"left to right and top to bottom from block 0, coloured by the district (warehouse and district) whose rows it " +
		"holds; dark cells with a cross hold rows of several districts, light grey ones no row."}
	var tables []string
	for _, l := range layouts {
		if !slices.Contains(tables, l.Map.Table) {
			tables = append(tables, l.Map.Table)
		}
	}
	maxGroups := 0
	var groupNames []string
	sec.Extra = &figTable{Head: []string{"table", "target", "blocks", "mixed blocks", "empty blocks", "groups", "mean blocks per group", "mean span per group"}}
	for _, table := range tables {
		var maps, hists []chart
		for _, l := range layouts {
			if l.Map.Table != table {
				continue
			}
			cells, k := foldCells(l.Map.Cells)
			perRow := 64
			for len(cells)/perRow > 2*perRow {
				perRow *= 2
			}
			p := plot.New()
			p.Title.Text = l.label()
			p.Title.TextStyle.Font.Size = vg.Points(9)
			p.Add(blockCells{cells: cells, perRow: perRow})
			p.HideAxes()
			rows := max(1, (len(cells)+perRow-1)/perRow)
			h := vg.Length(float64(rows)/float64(perRow)) * 9 * vg.Centimeter
			svg, err := svgOf(p, 9*vg.Centimeter, max(3*vg.Centimeter, h+1.5*vg.Centimeter))
			if err != nil {
				return sec, err
			}
			caption := fmt.Sprintf("%d blocks, %d mixed, %d empty; %d blocks per row", l.Map.Blocks, l.Map.Mixed, l.Map.Empty, perRow)
			if k > 1 {
				caption += fmt.Sprintf("; each cell %d blocks", k)
			}
			maps = append(maps, chart{Title: table + " on " + l.label(), Caption: caption, SVG: svg})
			if len(l.Map.Groups) > maxGroups {
				maxGroups, groupNames = len(l.Map.Groups), l.Map.Groups
			}
			sec.Extra.Rows = append(sec.Extra.Rows, []string{table, l.label(), fmt.Sprint(l.Map.Blocks), fmt.Sprint(l.Map.Mixed),
				fmt.Sprint(l.Map.Empty), fmt.Sprint(histTotal(l.BlocksHist)), formatNum(histMean(l.BlocksHist)), formatNum(histMean(l.SpanHist))})
		}
		for _, kind := range []string{"blocks", "span"} {
			c, err := histChart(table, kind, layouts)
			if err != nil {
				return sec, err
			}
			hists = append(hists, c)
		}
		sec.Rows = append(sec.Rows, maps, hists)
		sec.Charts = append(append(sec.Charts, maps...), hists...)
	}
	for g, name := range groupNames {
		if g >= 40 {
			sec.Legend = append(sec.Legend, swatch{Label: fmt.Sprintf("... %d districts in all", len(groupNames))})
			break
		}
		sec.Legend = append(sec.Legend, swatch{Label: name, Color: cssColor(districtColor(g))})
	}
	sec.Legend = append(sec.Legend, swatch{Label: "mixed (rows of several districts)", Color: cssColor(mixedColor)},
		swatch{Label: "no row", Color: cssColor(emptyColor)})
	return sec, nil
}

func cssColor(c color.RGBA) template.CSS {
	return template.CSS(fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B))
}

func histTotal(h []tpcc.Bin) int {
	n := 0
	for _, b := range h {
		n += b.Count
	}
	return n
}

func histMean(h []tpcc.Bin) float64 {
	n, s := 0, 0
	for _, b := range h {
		n += b.Count
		s += b.Value * b.Count
	}
	if n == 0 {
		return math.NaN()
	}
	return float64(s) / float64(n)
}

// histChart draws the histogram of blocks (or span) per group of table,
// one bar per target at each value.
func histChart(table, kind string, layouts []Layout) (chart, error) {
	p := plot.New()
	group := "order"
	if table == "bmsql_customer" {
		group = "district"
	}
	p.Title.Text = fmt.Sprintf("%s: %s per %s", table, kind, group)
	p.X.Label.Text = kind
	p.Y.Label.Text = group + "s"
	var ls []Layout
	for _, l := range layouts {
		if l.Map.Table == table {
			ls = append(ls, l)
		}
	}
	// Values shown: every value any target has, up to 24 bars; beyond,
	// the last bar counts the rest.
	var values []int
	for _, l := range ls {
		for _, b := range hist(l, kind) {
			if !slices.Contains(values, b.Value) {
				values = append(values, b.Value)
			}
		}
	}
	slices.Sort(values)
	const maxBars = 24
	rest := len(values) > maxBars
	if rest {
		values = values[:maxBars]
	}
	w := vg.Points(min(14, 360/float64(max(1, len(values)*len(ls)))+2))
	for i, l := range ls {
		vals := make(plotter.Values, len(values))
		for _, b := range hist(l, kind) {
			k := slices.Index(values, b.Value)
			if k < 0 {
				k = len(values) - 1
			}
			vals[k] += float64(b.Count)
		}
		b, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return chart{}, err
		}
		b.Color = plotutil.Color(i)
		b.LineStyle.Width = 0
		b.Offset = w * vg.Length(float64(i)-float64(len(ls)-1)/2)
		p.Add(b)
		p.Legend.Add(l.label(), b)
	}
	p.Y.Max = headroom(p.Y.Max, len(ls))
	labels := make([]string, len(values))
	for i, v := range values {
		labels[i] = fmt.Sprint(v)
	}
	if rest {
		labels[len(labels)-1] += "+"
	}
	p.NominalX(labels...)
	p.Legend.Top = true
	p.Y.Min = 0
	svg, err := svgOf(p, 16*vg.Centimeter, 8*vg.Centimeter)
	return chart{Title: p.Title.Text, Caption: "groups by " + kind + " (distinct blocks, or highest - lowest + 1)", SVG: svg}, err
}

func hist(l Layout, kind string) []tpcc.Bin {
	if kind == "span" {
		return l.SpanHist
	}
	return l.BlocksHist
}

const walChartRels = 16

// walRelSection draws FPIs and pages dirtied per table for each target
// and phase, and lists every row (per record type too).
func walRelSection(rows []WALRelRow) (section, error) {
	sec := section{Title: "WAL per table", Note: "minipg: minipg_stat_wal_rel, pages dirtied as the server counts them; " +
		"PostgreSQL: pg_walinspect between two LSNs, a record counted once per table it refers to, its bytes to the table " +
		"of its first block reference, pages dirtied = distinct blocks the records refer to. The charts leave out the " +
		"system catalogs and show at most the 16 tables with the largest figures; the table lists every row."}
	var phases []string
	for _, r := range rows {
		ph := strings.SplitN(r.Phase, " (", 2)[0]
		if !slices.Contains(phases, ph) {
			phases = append(phases, ph)
		}
	}
	kinds := []struct {
		title string
		val   func(WALRelRow) float64
	}{
		{"full-page images per table", func(r WALRelRow) float64 { return r.FPI }},
		{"pages dirtied per table", func(r WALRelRow) float64 { return r.PagesDirtied }},
	}
	for _, ph := range phases {
		for _, k := range kinds {
			// The chart shows the user's tables (not the system catalogs
			// DDL touches), at most walChartRels with the largest figures;
			// the table below lists them all.
			var ss []*Series
			top := map[string]float64{}
			for _, r := range rows {
				if r.RecordType != "" || strings.SplitN(r.Phase, " (", 2)[0] != ph ||
					strings.HasPrefix(r.Rel, "pg_") || strings.HasPrefix(r.Rel, "relfilenode ") {
					continue
				}
				ss = append(ss, &Series{Target: r.Target, Metric: r.Rel, Median: k.val(r)})
				top[r.Rel] = max(top[r.Rel], k.val(r))
			}
			rels := slices.Collect(maps.Keys(top))
			slices.SortFunc(rels, func(a, b string) int {
				if c := cmp.Compare(top[b], top[a]); c != 0 {
					return c
				}
				return strings.Compare(a, b)
			})
			rels = rels[:min(len(rels), walChartRels)]
			slices.Sort(rels)
			c, ok, err := barChart(ph+": "+k.title, ss, rels)
			if err != nil {
				return sec, err
			}
			if ok {
				sec.Charts = append(sec.Charts, c)
			}
		}
	}
	sec.Extra = &figTable{Head: []string{"target", "phase", "table", "record type", "records", "FPIs", "bytes", "pages dirtied"}}
	for _, r := range rows {
		typ := r.RecordType
		if typ == "" {
			typ = "(all)"
		}
		sec.Extra.Rows = append(sec.Extra.Rows, []string{r.Target, r.Phase, r.Rel, typ, formatNum(r.Records),
			formatNum(r.FPI), formatNum(r.Bytes), formatNum(r.PagesDirtied)})
	}
	return sec, nil
}

var (
	xmlDecl    = regexp.MustCompile(`<\?xml[^>]*\?>\s*`)
	xmlComment = regexp.MustCompile(`<!--.*?-->\s*`)
)

// svgOf renders p as an SVG element for inline use (no XML declaration,
// fonts named, not fetched: the browser uses a local face).
func svgOf(p *plot.Plot, w, h vg.Length) (template.HTML, error) {
	c := vgsvg.NewWith(vgsvg.UseWH(w, h))
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", err
	}
	s := xmlDecl.ReplaceAllString(buf.String(), "")
	s = xmlComment.ReplaceAllString(s, "")
	return template.HTML(s), nil //nolint:gosec // drawn by gonum/plot from our own figures, text escaped by svgo
}

var pageTmpl = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>minipg-bench report</title>
<style>
body { font-family: sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
.charts { display: flex; flex-wrap: wrap; gap: 1em; margin-bottom: 1em; }
figure { margin: 0; width: min-content; } figcaption { font-size: 0.8em; color: #555; }
table { border-collapse: collapse; font-size: 0.8em; margin-top: 1em; }
td, th { border: 1px solid #ddd; padding: 2px 6px; text-align: right; }
td:first-child, th:first-child { text-align: left; }
.legend span.sw { display: inline-block; width: 0.9em; height: 0.9em; margin: 0 0.2em 0 0.8em; vertical-align: middle; }
.legend { font-size: 0.8em; }
code { font-size: 0.9em; }
</style>
</head>
<body>
<h1>minipg-bench report</h1>
{{range .Runs}}<p><code>minipg-bench {{.Command}}{{range .Args}} {{.}}{{end}}</code>: started {{.Started.Format "2006-01-02 15:04:05 UTC"}}, {{printf "%.0f" .Seconds}} s, {{.Rounds}} round(s){{.AtOnceText}};
targets {{range $i, $t := .Targets}}{{if $i}}, {{end}}<b>{{$t.Name}}</b>{{if $t.Label}} ({{$t.Label}}){{end}}{{end}}.
{{range .Versions}}<br><small>{{.}}</small>{{end}}
{{range .Notes}}<br><small>note: {{.}}</small>{{end}}</p>
{{end}}
{{range .Sections}}<section>
<h2>{{.Title}}</h2>
{{with .Note}}<p><small>{{.}}</small></p>{{end}}
{{range .Rows}}<div class="charts">
{{range .}}<figure class="chart">
{{.SVG}}
<figcaption>{{.Title}}: {{.Caption}}</figcaption>
</figure>
{{end}}</div>
{{end}}
{{if .Legend}}<p class="legend">{{range .Legend}}<span class="sw" style="background: {{.Color}}"></span>{{.Label}} {{end}}</p>{{end}}
{{with .Table}}<table><tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>{{end}}
{{with .Extra}}<table><tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>{{end}}
</section>
{{end}}
</body>
</html>
`))

package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"minipg/internal/testserver"
	"minipg/tpcc"
)

// fixedRun is a small run with every kind of figure the page draws.
func fixedRun() *Run {
	r := &Run{Command: "extend", Args: []string{"-clients", "1,2"}, Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Rounds: 2, AtOnce: true, Targets: []TargetInfo{{Name: "minipg-classic", Kind: "minipg", Policy: "classic"},
			{Name: "postgresql", Kind: "postgresql", Label: "stock <behaviour>"}}}
	for _, t := range []string{"minipg-classic", "postgresql"} {
		for _, c := range []float64{1, 2} {
			r.add("extend", "copy-int4", "clients", c, t, "rows/s", "rows/s", 1000*c)
			r.add("extend", "copy-int4", "clients", c, t, "rows/s", "rows/s", 1200*c)
			r.add("extend", "copy-int4", "clients", c, t, "blocks / single-writer", "ratio", 1.01)
			r.add("extend", "copy-int4", "clients", c, t, "blocks never used", "blocks", c)
		}
		for _, b := range []float64{1, 4, 8} {
			r.add("smalltables", "100 tables", "blocks", b, t, "ms per table (trimmed mean of 10)", "ms", 3*b)
		}
		r.add("smalltables", "1000 one-block tables", "", 0, t, "_fsm files", "files", 1000)
		r.add("run", "", "", 0, t, "tpmC (New-Orders/min)", "", 12345)
		r.add("run", "", "", 0, t, "NewOrder: p90 ms", "", 4.5)
		r.add("run", "", "", 0, t, "NewOrder: p99 ms", "", 9.25)
		r.add("run", "", "", 0, t, "Payment: p99 ms", "", math.NaN())
		rows := []tpcc.RowBlock{{Key: tpcc.OrderKey{W: 1, D: 1, O: 1}, Block: 0}, {Key: tpcc.OrderKey{W: 1, D: 2, O: 1}, Block: 0},
			{Key: tpcc.OrderKey{W: 1, D: 2, O: 2}, Block: 2}}
		b, s := tpcc.Histograms(rows)
		r.Layouts = append(r.Layouts, Layout{Target: t, Map: tpcc.BuildBlockMap("bmsql_order_line", rows), BlocksHist: b, SpanHist: s})
		r.WALRel = append(r.WALRel,
			WALRelRow{Target: t, Phase: "delivery-pass (x)", RelWAL: tpcc.RelWAL{Rel: "bmsql_order_line", Records: 10, FPI: 3, Bytes: 999, PagesDirtied: 4}},
			WALRelRow{Target: t, Phase: "delivery-pass (x)", RelWAL: tpcc.RelWAL{Rel: "bmsql_order_line", RecordType: "HOT_UPDATE", Records: 10, FPI: 3, Bytes: 999, PagesDirtied: 4}},
			WALRelRow{Target: t, Phase: "delivery-pass (x)", RelWAL: tpcc.RelWAL{Rel: "pg_class", Records: 1, FPI: 1}})
	}
	r.note("a <note> & more")
	r.finish()
	return r
}

// TestReportFixed renders the fixed run and checks the page, chart by
// chart: extend 3 (rows/s, blocks ratio, never used), smalltables 2 (time
// per table, _fsm files), run 2 (tpmC, latency), layouts 2 maps (one
// table, two targets) + 2 histograms, WAL 2 (FPIs, pages dirtied).
func TestReportFixed(t *testing.T) {
	r := fixedRun()
	b, err := renderReport([]*Run{r})
	if err != nil {
		t.Fatal(err)
	}
	if n := checkPage(t, b); n != 13 {
		t.Errorf("page has %d charts, want 13", n)
	}
	page := string(b)
	// Every figure of the run is in the page's tables too.
	for _, s := range r.Series {
		if !strings.Contains(page, "<td>"+s.cellText()+"</td>") {
			t.Errorf("series %s/%s/%s %s: %q not in the page", s.Experiment, s.Workload, s.Metric, s.Target, s.cellText())
		}
	}
	for _, want := range []string{"1100 (1000-1200)", "stock &lt;behaviour&gt;", "a &lt;note&gt; &amp; more", "HOT_UPDATE", "n/a",
		"2 round(s), the targets of each at once;"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// The chart of FPIs leaves out the system catalogs; the table keeps them.
	if !strings.Contains(page, "<td>pg_class</td>") {
		t.Error("WAL table lacks pg_class")
	}

	// The JSON round trip keeps every figure, NaN included.
	path := filepath.Join(t.TempDir(), "run.json")
	if err := r.writeJSON(path); err != nil {
		t.Fatal(err)
	}
	back, err := readRun(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Series) != len(r.Series) || len(back.Layouts) != 2 || len(back.WALRel) != 6 || !back.AtOnce {
		t.Fatalf("read back %d series, %d layouts, %d WAL rows, at once %v", len(back.Series), len(back.Layouts), len(back.WALRel), back.AtOnce)
	}
	for i, s := range back.Series {
		o := r.Series[i]
		if s.cellText() != o.cellText() || len(s.Samples) != len(o.Samples) {
			t.Errorf("series %d read back as %q, want %q", i, s.cellText(), o.cellText())
		}
	}
	// Two runs of the same subcommand merge with their targets apart.
	b2, err := renderReport([]*Run{r, back})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b2, []byte("minipg-classic (run 2)")) {
		t.Error("merged page does not tell the second run's targets apart")
	}
	checkPage(t, b2)
}

// TestReportFromTinyRun runs extend, smalltables and a TPC-C load against
// an in-process minipg for a moment, merges their JSON with the report
// subcommand and checks the pages.
func TestReportFromTinyRun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server and loads TPC-C tables")
	}
	dsn := testserver.Start(t)
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	quiet(t)
	if err := extendMain([]string{"-minipg", dsn, "-clients", "1,2", "-workloads", "copy-int4,insert-1k", "-batches", "2",
		"-batch-rows", "50", "-rounds", "2", "-progress", "none", "-json", p("extend.json"), "-html", p("extend.html")}); err != nil {
		t.Fatal(err)
	}
	if err := smalltablesMain([]string{"-minipg", dsn, "-tables", "2", "-blocks", "1,2", "-runs", "3", "-file-tables", "3",
		"-progress", "none", "-json", p("small.json")}); err != nil {
		t.Fatal(err)
	}
	if err := tpccMain("load", []string{"-minipg", dsn, "-w", "1", "-scale", "0.01", "-workers", "1", "-mode", "copy",
		"-concurrent", "-progress", "none", "-json", p("load.json")}); err != nil {
		t.Fatal(err)
	}
	if err := reportMain([]string{"-html", p("all.html"), p("extend.json"), p("small.json"), p("load.json")}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p("extend.html"))
	if err != nil {
		t.Fatal(err)
	}
	// extend: per workload rows/s, blocks ratio and blocks never used.
	if n := checkPage(t, b); n != 6 {
		t.Errorf("extend page has %d charts, want 6", n)
	}
	b, err = os.ReadFile(p("all.html"))
	if err != nil {
		t.Fatal(err)
	}
	// + smalltables 1 (no _fsm counts without the data directory) +
	// 2 block maps and 4 histograms of the load + FPIs and pages dirtied
	// per table (minipg_stat_wal_rel).
	if n := checkPage(t, b); n != 15 {
		t.Errorf("merged page has %d charts, want 15", n)
	}
	run, err := readRun(p("load.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Layouts) != 2 || run.Layouts[0].Map.Blocks == 0 {
		t.Errorf("load recorded layouts %+v", run.Layouts)
	}
	if !run.AtOnce || len(run.Series) == 0 {
		t.Errorf("load -concurrent recorded at once %v, %d series", run.AtOnce, len(run.Series))
	}
}

// quiet sends the subcommands' tables to nowhere for the test.
func quiet(t *testing.T) {
	old := os.Stdout
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout = f
	t.Cleanup(func() { os.Stdout = old; f.Close() })
}

var svgRe = regexp.MustCompile(`(?s)<svg.*?</svg>`)

// checkPage checks that b is a well-formed, self-contained page: it parses
// as HTML, has no script, stylesheet link, image, frame or object, no
// attribute pointing off the page, each chart figure holds exactly one
// SVG and every SVG is well-formed XML. It returns the number of charts.
func checkPage(t *testing.T, b []byte) int {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("page does not parse: %v", err)
	}
	// html.Parse recovers from anything; the tokenizer reports stray
	// end tags and the like that a browser would have to repair.
	z := html.NewTokenizer(bytes.NewReader(b))
	var stack []string
	void := map[string]bool{"meta": true, "br": true, "img": true, "link": true, "input": true, "hr": true}
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if !errors.Is(z.Err(), io.EOF) {
				t.Fatalf("tokenizer: %v", z.Err())
			}
			break
		}
		name, _ := z.TagName()
		switch tt {
		case html.StartTagToken:
			if !void[string(name)] {
				stack = append(stack, string(name))
			}
		case html.EndTagToken:
			if len(stack) == 0 || stack[len(stack)-1] != string(name) {
				t.Fatalf("end tag </%s> does not close the open <%s>", name, strings.Join(stack, "><"))
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) != 0 {
		t.Fatalf("elements left open: %v", stack)
	}
	charts, svgs := 0, 0
	var walk func(n *html.Node, inFigure bool)
	walk = func(n *html.Node, inFigure bool) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "script", "link", "img", "iframe", "object", "embed":
				t.Errorf("page has a <%s>", n.Data)
			case "figure":
				charts++
				k := 0
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.Type == html.ElementNode && c.Data == "svg" {
						k++
					}
				}
				if k != 1 {
					t.Errorf("a chart figure holds %d SVGs", k)
				}
			case "svg":
				svgs++
				if !inFigure {
					t.Error("an SVG outside a chart figure")
				}
			case "style":
				if css := text(n); strings.Contains(css, "url(") || strings.Contains(css, "@import") {
					t.Errorf("style refers to other resources: %s", css)
				}
			}
			for _, a := range n.Attr {
				v := strings.ToLower(strings.TrimSpace(a.Val))
				if a.Key == "src" || a.Key == "href" || a.Key == "action" || a.Key == "data" || strings.HasSuffix(a.Key, ":href") {
					if strings.HasPrefix(v, "http:") || strings.HasPrefix(v, "https:") || strings.HasPrefix(v, "//") || a.Key == "src" {
						t.Errorf("<%s %s=%q> refers off the page", n.Data, a.Key, a.Val)
					}
				}
				if a.Key == "style" && strings.Contains(v, "url(") {
					t.Errorf("<%s style=%q> refers to a resource", n.Data, a.Val)
				}
			}
			inFigure = inFigure || n.Data == "figure"
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inFigure)
		}
	}
	walk(doc, false)
	if charts != svgs {
		t.Errorf("%d chart figures, %d SVGs", charts, svgs)
	}
	raw := svgRe.FindAll(b, -1)
	if len(raw) != svgs {
		t.Errorf("%d <svg> elements in the text, %d parsed", len(raw), svgs)
	}
	for i, s := range raw {
		d := xml.NewDecoder(bytes.NewReader(s))
		for {
			_, err := d.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("SVG %d is not well-formed XML: %v", i, err)
			}
		}
	}
	return charts
}

func text(n *html.Node) string {
	var sb strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			sb.WriteString(c.Data)
		}
	}
	return sb.String()
}

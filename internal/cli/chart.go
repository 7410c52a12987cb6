package cli

import (
	"fmt"
	"html"
	"io"
	"math"
	"strconv"
	"strings"
)

// chartBar is one bar of the token chart.
type chartBar struct {
	// View names the figure: the JSON field of TokenReport it shows.
	View   string
	Label  string
	Tokens int
}

// chartBars lists the views the chart draws, in the order of the table:
// the full catalog, the kinds view, the overview, the sub-agent slice (when
// measured) and the gateway's own tools.
func chartBars(r TokenReport) []chartBar {
	bars := []chartBar{
		{"full_tokens", "full catalog: every tool, every schema", r.FullTokens},
		{"kinds_tokens", "kinds view: tool names, no schemas", r.KindsTokens},
		{"orchestrator_tokens", "overview: what the orchestrator sees", r.OrchestratorTokens},
	}
	if s := r.Subagent; s != nil {
		bars = append(bars, chartBar{"subagent_tokens",
			fmt.Sprintf("slice: a sub-agent over %d servers", len(s.Servers)), s.Total})
	}
	return append(bars, chartBar{"gateway_tokens", "gateway: mcpfleet serve's own tools", r.GatewayTokens})
}

// Chart geometry, in SVG user units.
const (
	chartWidth  = 800
	chartLeft   = 300 // where the bars start; labels end left of it
	chartRight  = 660 // where the longest possible bar ends
	chartTop    = 64  // the first bar's top
	chartRow    = 34  // one bar and its gap
	chartBarH   = 22
	chartBottom = 40 // the axis and its labels
)

// writeTokensSVG draws r's main views as horizontal bars on a log scale,
// each labelled with its o200k token count and its ratio to the full
// catalog. It is plain SVG 1.1 with no script or external reference, so a
// README can embed it; each bar's group carries data-view and data-tokens,
// which tests read back.
func writeTokensSVG(w io.Writer, r TokenReport) error {
	bars := chartBars(r)
	lo, hi := chartDecades(bars)
	x := func(n int) float64 {
		if n < 1 {
			return chartLeft
		}
		return chartLeft + (math.Log10(float64(n))-lo)/(hi-lo)*(chartRight-chartLeft)
	}
	height := chartTop + len(bars)*chartRow + chartBottom
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="13" role="img">`+"\n",
		chartWidth, height, chartWidth, height)
	p("<title>What each view of the fleet costs a model, in o200k tokens</title>\n")
	p(`<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", chartWidth, height)
	p(`<text x="16" y="24" font-size="15" font-weight="bold">What each view of the fleet costs a model (o200k tokens, log scale)</text>` + "\n")
	sub := fmt.Sprintf("%d servers, %d (server, tool) pairs, %d unique tools", r.Servers, r.Pairs, r.UniqueTools)
	if r.Subagent != nil {
		sub += "; slice: " + strings.Join(r.Subagent.Servers, ", ")
	}
	p(`<text x="16" y="44" fill="#555555">%s</text>`+"\n", esc(sub))
	axisY := chartTop + len(bars)*chartRow
	for d := lo; d <= hi; d++ {
		tx := chartLeft + (d-lo)/(hi-lo)*(chartRight-chartLeft)
		p(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#dddddd"/>`+"\n", tx, chartTop-6, tx, axisY)
		p(`<text x="%.1f" y="%d" text-anchor="middle" fill="#555555">%s</text>`+"\n", tx, axisY+18, thousands(int(math.Round(math.Pow(10, d)))))
	}
	for i, bar := range bars {
		y := chartTop + i*chartRow
		fill := "#4c78a8"
		if i == 0 {
			fill = "#9e9e9e"
		}
		p(`<g data-view="%s" data-tokens="%d">`+"\n", bar.View, bar.Tokens)
		p(`<text x="%d" y="%d" text-anchor="end">%s</text>`+"\n", chartLeft-10, y+16, esc(bar.Label))
		p(`<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>`+"\n", chartLeft, y, x(bar.Tokens)-chartLeft, chartBarH, fill)
		p(`<text x="%.1f" y="%d">%s</text>`+"\n", x(bar.Tokens)+6, y+16, esc(thousands(bar.Tokens)+" ("+ratioLabel(r.FullTokens, bar.Tokens)+")"))
		p("</g>\n")
	}
	p(`<text x="16" y="%d" fill="#555555">mcpfleet tokens --svg</text>`+"\n", axisY+18)
	p("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// chartDecades returns the log10 of the axis ends: one power of ten below
// the smallest bar's decade, so the shortest bar stays readable, and the
// power of ten just above the largest.
func chartDecades(bars []chartBar) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, b := range bars {
		v := math.Log10(float64(max(b.Tokens, 1)))
		lo, hi = math.Min(lo, math.Floor(v)), math.Max(hi, math.Ceil(v))
	}
	lo = max(lo-1, 0)
	if hi <= lo {
		hi = lo + 1
	}
	return lo, hi
}

// ratioLabel is full ÷ n as the chart prints it: "1×", "70×", "996×".
func ratioLabel(full, n int) string {
	if n == 0 {
		return "-"
	}
	return thousands(int(math.Round(float64(full)/float64(n)))) + "×"
}

// thousands renders n with comma separators: 134458 → "134,458".
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func esc(s string) string { return html.EscapeString(s) }

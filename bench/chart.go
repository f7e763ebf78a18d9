package main

import (
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strings"
)

// chartSizes are the message sizes of the -svg chart: 64 B to 64 KiB, every
// power of two.
var chartSizes = []int{64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536}

// A series is one line of the chart: chachakit's throughput in one
// operation as a ratio to another library's (x/crypto or OpenSSL), by
// message size.
type series struct {
	Op, Vs string
	Points []point
}

type point struct {
	Size  int
	Ratio float64 // chachakit's throughput / the other library's; > 1 is faster
}

// chartSeries turns the measured rows into one series per operation against
// x/crypto, then one per operation against OpenSSL, in the order of the rows.
func chartSeries(rows []row, ossl []opensslRow) []series {
	var out []series
	add := func(op, vs string, size int, ratio float64) {
		if ratio <= 0 {
			return
		}
		for i := range out {
			if out[i].Op == op && out[i].Vs == vs {
				out[i].Points = append(out[i].Points, point{size, ratio})
				return
			}
		}
		out = append(out, series{op, vs, []point{{size, ratio}}})
	}
	for _, r := range rows {
		add(r.Op, "x/crypto", r.Size, r.Ratio)
	}
	for _, r := range ossl {
		add(r.Op, "OpenSSL", r.Size, r.Ratio)
	}
	return out
}

// Chart geometry, in SVG user units.
const (
	chartW, chartH = 980, 540
	plotL, plotR   = 80, 690 // plot area, left and right edges
	plotT, plotB   = 80, 480 // top and bottom edges
)

// The colour of each operation and the dash pattern of each comparison.
var (
	opColors = map[string]string{"Seal": "#1f77b4", "Open": "#2ca02c", "OpenInPlace": "#17becf", "SealX": "#9467bd", "XORKeyStream": "#d62728"}
	vsDashes = map[string]string{"x/crypto": "", "OpenSSL": "7 4"}
)

// ratioTicks are the y axis's labelled ratios (log scale).
var ratioTicks = []float64{0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 8, 12, 16, 24, 32}

// writeSVG draws each series' ratio (log scale) against message size (bytes,
// log scale), with the line of equal speed (1.0) marked, axes, grid, a legend
// (one line per operation and comparison), a title and a subtitle (the
// machine and date).
func writeSVG(w io.Writer, title, subtitle string, ss []series) error {
	var b strings.Builder
	minS, maxS := math.Inf(1), math.Inf(-1)
	lo, hi := 1.0, 1.0
	for _, s := range ss {
		for _, p := range s.Points {
			minS = min(minS, float64(p.Size))
			maxS = max(maxS, float64(p.Size))
			lo, hi = min(lo, p.Ratio), max(hi, p.Ratio)
		}
	}
	if len(ss) == 0 || math.IsInf(minS, 1) {
		return fmt.Errorf("bench: nothing to chart")
	}
	if maxS == minS {
		maxS = minS * 2
	}
	// The y range: the ticks around the data, with 1.0 always in view.
	bottom, top := ratioTicks[0], ratioTicks[len(ratioTicks)-1]
	for _, t := range ratioTicks {
		if t <= lo*0.95 {
			bottom = t
		}
	}
	for i := len(ratioTicks) - 1; i >= 0; i-- {
		if ratioTicks[i] >= hi*1.05 {
			top = ratioTicks[i]
		}
	}
	x := func(size float64) float64 {
		return plotL + (math.Log2(size)-math.Log2(minS))/(math.Log2(maxS)-math.Log2(minS))*(plotR-plotL)
	}
	y := func(v float64) float64 {
		v = min(max(v, bottom), top)
		return plotB - (math.Log2(v)-math.Log2(bottom))/(math.Log2(top)-math.Log2(bottom))*(plotB-plotT)
	}

	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="13">`+"\n", chartW, chartH, chartW, chartH)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", chartW, chartH)
	fmt.Fprintf(&b, `<text x="%d" y="30" font-size="17" font-weight="bold">%s</text>`+"\n", plotL, html.EscapeString(title))
	fmt.Fprintf(&b, `<text x="%d" y="52">%s</text>`+"\n", plotL, html.EscapeString(subtitle))

	// Grid and y axis labels; the line of equal speed stands out.
	for _, v := range ratioTicks {
		if v < bottom || v > top {
			continue
		}
		if v == 1 {
			continue
		}
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`+"\n", plotL, y(v), plotR, y(v))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%gx</text>`+"\n", plotL-6, y(v)+4, v)
	}
	fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="black" stroke-width="1.5"/>`+"\n", plotL, y(1), plotR, y(1))
	fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end" font-weight="bold">1x</text>`+"\n", plotL-6, y(1)+4)
	// x axis ticks at the measured sizes.
	var sizes []int
	for _, s := range ss {
		for _, p := range s.Points {
			if !slices.Contains(sizes, p.Size) {
				sizes = append(sizes, p.Size)
			}
		}
	}
	slices.Sort(sizes)
	for _, s := range sizes {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>`+"\n", x(float64(s)), plotT, x(float64(s)), plotB)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", x(float64(s)), plotB+18, sizeLabel(s))
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>`+"\n", plotL, plotT, plotR-plotL, plotB-plotT)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">message size (bytes, log scale)</text>`+"\n", (plotL+plotR)/2, plotB+42)
	fmt.Fprintf(&b, `<text transform="translate(24 %d) rotate(-90)" text-anchor="middle">chachakit's speed ÷ the other's (above 1x: chachakit faster)</text>`+"\n", (plotT+plotB)/2)

	// One polyline per series, then the legend.
	for _, s := range ss {
		pts := slices.Clone(s.Points)
		slices.SortFunc(pts, func(a, b point) int { return a.Size - b.Size })
		var coords []string
		for _, p := range pts {
			coords = append(coords, fmt.Sprintf("%.1f,%.1f", x(float64(p.Size)), y(p.Ratio)))
		}
		fmt.Fprintf(&b, `<polyline data-series="%s" fill="none" stroke="%s" stroke-width="2.5"%s points="%s"/>`+"\n",
			html.EscapeString(s.Op+" vs "+s.Vs), seriesColor(s.Op), dashAttr(s.Vs), strings.Join(coords, " "))
	}
	for i, s := range ss {
		ly := plotT + 10 + 22*i
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2.5"%s/>`+"\n", plotR+15, ly, plotR+45, ly, seriesColor(s.Op), dashAttr(s.Vs))
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", plotR+52, ly+4, html.EscapeString(s.Op+" vs "+s.Vs))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func seriesColor(op string) string {
	if c, ok := opColors[op]; ok {
		return c
	}
	return "black"
}

func dashAttr(vs string) string {
	if d := vsDashes[vs]; d != "" {
		return fmt.Sprintf(` stroke-dasharray="%s"`, d)
	}
	return ""
}

func sizeLabel(n int) string {
	if n >= 1024 && n%1024 == 0 {
		return fmt.Sprintf("%dK", n/1024)
	}
	return fmt.Sprint(n)
}

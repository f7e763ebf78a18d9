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

// A series is one line of the chart: one operation of one library.
type series struct {
	Op, Lib string
	Points  []point
}

type point struct {
	Size int
	MBps float64
}

// chartSeries turns the measured rows into one series per operation and
// library, in the order of operations.
func chartSeries(rows []row, ossl []opensslRow) []series {
	var out []series
	add := func(op, lib string, size int, mbps float64) {
		for i := range out {
			if out[i].Op == op && out[i].Lib == lib {
				out[i].Points = append(out[i].Points, point{size, mbps})
				return
			}
		}
		out = append(out, series{op, lib, []point{{size, mbps}}})
	}
	for _, r := range rows {
		add(r.Op, "chachakit", r.Size, r.ChachakitMBps)
		add(r.Op, "x/crypto", r.Size, r.XCryptoMBps)
	}
	for _, r := range ossl {
		add(r.Op, "OpenSSL", r.Size, r.OpenSSLMBps)
	}
	return out
}

// Chart geometry, in SVG user units.
const (
	chartW, chartH = 980, 540
	plotL, plotR   = 80, 700 // plot area, left and right edges
	plotT, plotB   = 80, 480 // top and bottom edges
)

// The colour of each operation and the dash pattern of each library.
var (
	opColors  = map[string]string{"Seal": "#1f77b4", "Open": "#2ca02c", "OpenInPlace": "#17becf", "SealX": "#9467bd", "XORKeyStream": "#d62728"}
	libDashes = map[string]string{"chachakit": "", "x/crypto": "7 4", "OpenSSL": "2 3"}
)

// writeSVG draws throughput (MB/s, linear) against message size (bytes, log
// scale) for every series, with axes, grid, a legend, a title and a
// subtitle (the machine and date).
func writeSVG(w io.Writer, title, subtitle string, ss []series) error {
	var b strings.Builder
	minS, maxS, maxY := math.Inf(1), math.Inf(-1), 0.0
	for _, s := range ss {
		for _, p := range s.Points {
			minS = min(minS, float64(p.Size))
			maxS = max(maxS, float64(p.Size))
			maxY = max(maxY, p.MBps)
		}
	}
	if len(ss) == 0 || maxY <= 0 {
		return fmt.Errorf("bench: nothing to chart")
	}
	if maxS == minS {
		maxS = minS * 2
	}
	step := niceStep(maxY / 6)
	top := math.Ceil(maxY/step) * step
	x := func(size float64) float64 {
		return plotL + (math.Log2(size)-math.Log2(minS))/(math.Log2(maxS)-math.Log2(minS))*(plotR-plotL)
	}
	y := func(v float64) float64 { return plotB - v/top*(plotB-plotT) }

	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="13">`+"\n", chartW, chartH, chartW, chartH)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", chartW, chartH)
	fmt.Fprintf(&b, `<text x="%d" y="30" font-size="17" font-weight="bold">%s</text>`+"\n", plotL, html.EscapeString(title))
	fmt.Fprintf(&b, `<text x="%d" y="52">%s</text>`+"\n", plotL, html.EscapeString(subtitle))

	// Grid and y axis labels.
	for v := 0.0; v <= top+step/2; v += step {
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`+"\n", plotL, y(v), plotR, y(v))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%g</text>`+"\n", plotL-6, y(v)+4, v)
	}
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
	fmt.Fprintf(&b, `<text transform="translate(24 %d) rotate(-90)" text-anchor="middle">throughput (MB/s, 1 MB = 10⁶ bytes)</text>`+"\n", (plotT+plotB)/2)

	// One polyline per series, then the legend.
	for _, s := range ss {
		pts := slices.Clone(s.Points)
		slices.SortFunc(pts, func(a, b point) int { return a.Size - b.Size })
		var coords []string
		for _, p := range pts {
			coords = append(coords, fmt.Sprintf("%.1f,%.1f", x(float64(p.Size)), y(p.MBps)))
		}
		fmt.Fprintf(&b, `<polyline data-series="%s" fill="none" stroke="%s" stroke-width="2"%s points="%s"/>`+"\n",
			html.EscapeString(s.Op+" "+s.Lib), seriesColor(s.Op), dashAttr(s.Lib), strings.Join(coords, " "))
	}
	for i, s := range ss {
		ly := plotT + 10 + 20*i
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>`+"\n", plotR+15, ly, plotR+45, ly, seriesColor(s.Op), dashAttr(s.Lib))
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", plotR+52, ly+4, html.EscapeString(s.Op+", "+s.Lib))
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

func dashAttr(lib string) string {
	if d := libDashes[lib]; d != "" {
		return fmt.Sprintf(` stroke-dasharray="%s"`, d)
	}
	return ""
}

// niceStep rounds v up to 1, 2 or 5 times a power of ten.
func niceStep(v float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func sizeLabel(n int) string {
	if n >= 1024 && n%1024 == 0 {
		return fmt.Sprintf("%dK", n/1024)
	}
	return fmt.Sprint(n)
}

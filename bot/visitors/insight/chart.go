package insight

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"slices"
	"time"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/docsapi"
)

// The chart's size in pixels unless the Trend sets another: wide enough for
// a phone to show it sharply at full width (about three pixels a point).
const (
	ChartWidth  = 1200
	ChartHeight = 750
)

// Trend is what RenderTrend draws.
type Trend struct {
	// First and Last are the range, both included (UTC dates).
	First, Last time.Time
	// Days holds the counts of the days known, in any order. A day of the
	// range not in Days has no data: it is drawn as a gap, never as zero.
	Days []DayCounts
	// Totals are the range's unique visitors for the title (the export's
	// totals, which daily uniques do not add up to); nil leaves them out.
	Totals *docsapi.Counts
	// Partial reports that Last is today, still counting: its point is
	// drawn apart (a dotted line to a hollow dot, "today so far" in the
	// legend and the title), so that a day barely begun does not read as a
	// collapse in traffic.
	Partial bool
	// Width and Height are the size of the image in pixels; zero takes
	// ChartWidth and ChartHeight.
	Width, Height int
}

// The look of the chart: colours as 0xRRGGBB, and sizes in pixels (one
// canvas point is one pixel at 72 dpi).
const (
	humanColor = 0x0072B2 // blue
	aiColor    = 0xD55E00 // vermilion: told apart from blue by colour-blind eyes too
	gapColor   = 0xE4E4E4
	gridColor  = 0xD0D0D0
	textColor  = 0x1D1C1D

	chartDPI   = 72
	titleSize  = 34
	legendSize = 28
	tickSize   = 26
	lineWidth  = 5
	dotRadius  = 6
	// legendHeight is the height of the legend's row under the plot.
	legendHeight = 60
	// margin keeps labels off the image's edges.
	margin      = 16
	legendThumb = 56
	legendGap   = 12
	legendSpace = 40
)

// rgb is the opaque colour 0xRRGGBB.
func rgb(v uint32) color.RGBA {
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

func chartFont(size vg.Length, bold bool) font.Font {
	f := font.From(font.Font{Typeface: "Liberation", Variant: "Sans"}, size)
	if bold {
		f.Weight = xfont.WeightBold
	}
	return f
}

// RenderTrend draws t as a PNG: daily unique visitors, human and AI as two
// series, with the range and its totals in the title.
func RenderTrend(t Trend) ([]byte, error) {
	s, err := layout(t.First, t.Last, t.Days)
	if err != nil {
		return nil, err
	}
	w, h := t.Width, t.Height
	if w == 0 {
		w = ChartWidth
	}
	if h == 0 {
		h = ChartHeight
	}
	if w < 300 || h < 200 || w > 4000 || h > 4000 {
		return nil, fmt.Errorf("insight: chart size %d×%d outside 300×200 to 4000×4000", w, h)
	}
	p, legend, err := trendPlot(t, s)
	if err != nil {
		return nil, err
	}
	c := vgimg.NewWith(
		vgimg.UseWH(vg.Length(w), vg.Length(h)),
		vgimg.UseDPI(chartDPI),
		vgimg.UseBackgroundColor(color.White),
	)
	// The legend is a row of its own under the plot, so that it never
	// covers a line or a band.
	all := draw.New(c)
	all.Min.X += margin
	all.Max.X -= margin
	all.Min.Y += margin / 2
	all.Max.Y -= margin / 2
	plotArea, legendRow := all, all
	plotArea.Min.Y += legendHeight
	legendRow.Max.Y = legendRow.Min.Y + legendHeight
	p.Draw(plotArea)
	drawLegend(legendRow, legend)
	// Fast compression: encoding at the default level took two thirds of
	// the time of a chart, for a file about a fifth smaller (BENCHMARKS.md).
	var buf bytes.Buffer
	buf.Grow(256 << 10)
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, c.Image()); err != nil {
		return nil, fmt.Errorf("insight: encode chart: %w", err)
	}
	return buf.Bytes(), nil
}

// trendPlot builds the plot of s.
func trendPlot(t Trend, s series) (*plot.Plot, []legendEntry, error) {
	p := plot.New()
	p.BackgroundColor = color.White
	p.Title.Text = trendTitle(t, s)
	p.Title.TextStyle.Font = chartFont(titleSize, true)
	p.Title.TextStyle.Color = rgb(textColor)
	p.Title.Padding = 16

	n := len(s.days)
	// Each day owns a slot one unit wide centred on its index, so that the
	// band of a missing day covers it exactly.
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	p.X.Padding = 0
	p.X.Tick.Marker = dayTicks{first: s.first, n: n}
	styleAxis(&p.X)

	top := int64(0)
	for i, d := range s.days {
		if s.known[i] {
			top = max(top, int64(d.Human), int64(d.AI))
		}
	}
	yt := countAxis(top)
	p.Y.Min, p.Y.Max = 0, yt.max
	p.Y.Padding = 0
	p.Y.Tick.Marker = yt
	styleAxis(&p.Y)

	grid := plotter.NewGrid()
	grid.Vertical.Width = 0
	grid.Horizontal.Color = rgb(gridColor)
	grid.Horizontal.Width = 1.5
	p.Add(grid)

	gaps, err := gapBands(s, yt.max)
	if err != nil {
		return nil, nil, err
	}
	if gaps != nil {
		p.Add(gaps)
	}
	// The whole days are the lines; a partial last day is drawn apart.
	whole := s
	partial := t.Partial && s.known[n-1]
	if partial {
		whole.known = slices.Clone(s.known)
		whole.known[n-1] = false
	}
	humanValue := func(d DayCounts) float64 { return float64(d.Human) }
	aiValue := func(d DayCounts) float64 { return float64(d.AI) }
	humanStyle := draw.LineStyle{Color: rgb(humanColor), Width: lineWidth}
	aiStyle := draw.LineStyle{Color: rgb(aiColor), Width: lineWidth, Dashes: []vg.Length{18, 9}}
	human, err := addSeries(p, whole, humanValue, humanStyle)
	if err != nil {
		return nil, nil, err
	}
	ai, err := addSeries(p, whole, aiValue, aiStyle)
	if err != nil {
		return nil, nil, err
	}
	legend := []legendEntry{{"human", human}, {"AI", ai}}
	if gaps != nil {
		legend = append(legend, legendEntry{"no data", gaps})
	}
	if partial {
		var thumb plot.Thumbnailer
		for _, sr := range []struct {
			value func(DayCounts) float64
			style draw.LineStyle
		}{{humanValue, humanStyle}, {aiValue, aiStyle}} {
			if thumb, err = addPartial(p, s, sr.value, sr.style.Color); err != nil {
				return nil, nil, err
			}
		}
		legend = append(legend, legendEntry{"today so far", thumb})
	}
	return p, legend, nil
}

// partialDots are the dots of a line to the partial last day: short, so
// that the segment reads as unlike the lines of whole days.
var partialDots = []vg.Length{3, 9}

// addPartial draws the last day of s, still counting, apart from the lines:
// a thin dotted segment from the day before (when known) to a hollow dot.
// It returns the legend's sample of it.
func addPartial(p *plot.Plot, s series, value func(DayCounts) float64, c color.Color) (plot.Thumbnailer, error) {
	n := len(s.days)
	style := draw.LineStyle{Color: c, Width: lineWidth - 2, Dashes: partialDots}
	if n > 1 && s.known[n-2] {
		l, err := plotter.NewLine(plotter.XYs{{X: float64(n - 2), Y: value(s.days[n-2])}, {X: float64(n - 1), Y: value(s.days[n-1])}})
		if err != nil {
			return nil, fmt.Errorf("insight: chart's partial day: %w", err)
		}
		l.LineStyle = style
		p.Add(l)
	}
	// A thick ring: a dot of the series' colour with a white one inside
	// (gonum's RingGlyph is drawn too thin to see on a phone).
	for _, g := range []draw.GlyphStyle{
		{Color: c, Radius: dotRadius + 3, Shape: draw.CircleGlyph{}},
		{Color: color.White, Radius: dotRadius - 1, Shape: draw.CircleGlyph{}},
	} {
		sc, err := plotter.NewScatter(plotter.XYs{{X: float64(n - 1), Y: value(s.days[n-1])}})
		if err != nil {
			return nil, fmt.Errorf("insight: chart's partial day: %w", err)
		}
		sc.GlyphStyle = g
		p.Add(sc)
	}
	return &plotter.Line{LineStyle: draw.LineStyle{Color: rgb(textColor), Width: lineWidth - 2, Dashes: partialDots}}, nil
}

// trendTitle is the range on the first line and its totals on the second.
func trendTitle(t Trend, s series) string {
	last := s.days[len(s.days)-1].Date
	title := "Unique visitors per day · " + RangeText(s.first, last)
	if t.Partial {
		title += " (" + last.Format("Jan 2") + " so far)"
	}
	if t.Totals != nil {
		title += fmt.Sprintf("\n%s in total: %s human, %s AI",
			humanize.Count(int64(t.Totals.Total)), humanize.Count(int64(t.Totals.Human)), humanize.Count(int64(t.Totals.AI)))
	}
	return title
}

func styleAxis(a *plot.Axis) {
	a.Color = rgb(textColor)
	a.Width = 2
	a.Tick.Label.Font = chartFont(tickSize, false)
	a.Tick.Label.Color = rgb(textColor)
	a.Tick.Color = rgb(textColor)
	a.Tick.Width = 2
	a.Tick.Length = 10
}

// addSeries adds one line per run of consecutive known days, and a dot for
// a known day alone between gaps, so that a missing day breaks the line.
// It returns a line of the series' style for the legend.
func addSeries(p *plot.Plot, s series, value func(DayCounts) float64, style draw.LineStyle) (*plotter.Line, error) {
	var lone plotter.XYs
	for i := 0; i < len(s.days); {
		if !s.known[i] {
			i++
			continue
		}
		j := i
		for j+1 < len(s.days) && s.known[j+1] {
			j++
		}
		if i == j {
			lone = append(lone, plotter.XY{X: float64(i), Y: value(s.days[i])})
		} else {
			run := make(plotter.XYs, 0, j-i+1)
			for k := i; k <= j; k++ {
				run = append(run, plotter.XY{X: float64(k), Y: value(s.days[k])})
			}
			l, err := plotter.NewLine(run)
			if err != nil {
				return nil, fmt.Errorf("insight: chart line: %w", err)
			}
			l.LineStyle = style
			p.Add(l)
		}
		i = j + 1
	}
	if len(lone) > 0 {
		sc, err := plotter.NewScatter(lone)
		if err != nil {
			return nil, fmt.Errorf("insight: chart dots: %w", err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: style.Color, Radius: dotRadius, Shape: draw.CircleGlyph{}}
		p.Add(sc)
	}
	return &plotter.Line{LineStyle: style}, nil
}

// gapBands is one grey band over each run of missing days, or nil when no
// day is missing.
func gapBands(s series, top float64) (*plotter.Polygon, error) {
	var rings []plotter.XYer
	for i := 0; i < len(s.days); {
		if s.known[i] {
			i++
			continue
		}
		j := i
		for j+1 < len(s.days) && !s.known[j+1] {
			j++
		}
		a, b := float64(i)-0.5, float64(j)+0.5
		rings = append(rings, plotter.XYs{{X: a, Y: 0}, {X: b, Y: 0}, {X: b, Y: top}, {X: a, Y: top}})
		i = j + 1
	}
	if rings == nil {
		return nil, nil
	}
	poly, err := plotter.NewPolygon(rings...)
	if err != nil {
		return nil, fmt.Errorf("insight: chart gaps: %w", err)
	}
	poly.Color = rgb(gapColor)
	poly.LineStyle.Width = 0
	return poly, nil
}

// legendEntry is a series' name and what draws its sample.
type legendEntry struct {
	name  string
	thumb plot.Thumbnailer
}

// drawLegend draws entries in one centred row on c: a sample of each
// series followed by its name.
func drawLegend(c draw.Canvas, entries []legendEntry) {
	sty := text.Style{Color: rgb(textColor), Font: chartFont(legendSize, false), Handler: plot.DefaultTextHandler, XAlign: draw.XLeft, YAlign: draw.YCenter}
	var width vg.Length
	for i, e := range entries {
		if i > 0 {
			width += legendSpace
		}
		width += legendThumb + legendGap + sty.Width(e.name)
	}
	x := c.Center().X - width/2
	y := c.Center().Y
	for _, e := range entries {
		thumb := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x, Y: y - legendSize/2},
			Max: vg.Point{X: x + legendThumb, Y: y + legendSize/2},
		}}
		e.thumb.Thumbnail(&thumb)
		x += legendThumb + legendGap
		c.FillText(sty, vg.Point{X: x, Y: y}, e.name)
		x += sty.Width(e.name) + legendSpace
	}
}

package insight

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"strings"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

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

// The look of the chart: colours as 0xRRGGBB, and sizes in pixels (fonts
// are sized at 72 dpi, where a point is a pixel).
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

	titlePadding = 16
	gridWidth    = 1.5
	axisWidth    = 2
	tickLength   = 10
	// partialWidth is the width of the dotted line to a partial day: thinner
	// than the lines of whole days.
	partialWidth = lineWidth - 2
	// partialRadius is the outer radius of the ring at a partial day.
	partialRadius = dotRadius + 3

	// The AI line is dashed, so that the two series are told apart without
	// colour too; the line to a partial day is dotted (short dashes), unlike
	// either.
	aiDash, aiDashGap           = 18, 9
	partialDash, partialDashGap = 3, 9
)

// rgb is the opaque colour 0xRRGGBB.
func rgb(v uint32) color.RGBA {
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
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
	faces, err := newFaces()
	if err != nil {
		return nil, err
	}
	defer faces.close()

	cv := newCanvas(w, h, rgb(0xFFFFFF))
	all := box{left: margin, top: margin / 2, right: float64(w - margin), bottom: float64(h - margin/2)}
	// The legend is a row of its own under the plot, so that it never
	// covers a line or a band.
	plotArea, legendRow := all, all
	plotArea.bottom -= legendHeight
	legendRow.top = legendRow.bottom - legendHeight

	c := newChart(cv, faces, s, t.Partial, trendTitle(t, s), plotArea)
	legend := c.drawData()
	drawLegend(cv, faces.legend, legendRow, legend)

	// Fast compression: encoding at the default level took two thirds of
	// the time of a chart, for a file about a fifth smaller (BENCHMARKS.md).
	var buf bytes.Buffer
	buf.Grow(256 << 10)
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, cv.img); err != nil {
		return nil, fmt.Errorf("insight: encode chart: %w", err)
	}
	return buf.Bytes(), nil
}

// faces are the chart's fonts at their sizes: the Go fonts, bold for the
// title. They are parsed for each chart rather than once for the package,
// so that a process that draws no chart does not keep them in memory.
type faces struct {
	title, legend, tick font.Face
}

func newFaces() (faces, error) {
	regular, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return faces{}, fmt.Errorf("insight: chart font: %w", err)
	}
	bold, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return faces{}, fmt.Errorf("insight: chart font: %w", err)
	}
	var f faces
	for _, fc := range []struct {
		face *font.Face
		font *opentype.Font
		size float64
	}{{&f.title, bold, titleSize}, {&f.legend, regular, legendSize}, {&f.tick, regular, tickSize}} {
		if *fc.face, err = opentype.NewFace(fc.font, &opentype.FaceOptions{Size: fc.size, DPI: chartDPI}); err != nil {
			f.close()
			return faces{}, fmt.Errorf("insight: chart font: %w", err)
		}
	}
	return f, nil
}

func (f faces) close() {
	for _, fc := range []font.Face{f.title, f.legend, f.tick} {
		if fc != nil {
			fc.Close()
		}
	}
}

// metrics are a face's heights in pixels.
type metrics struct {
	ascent, descent, height, capHeight float64
}

func faceMetrics(f font.Face) metrics {
	m := f.Metrics()
	px := func(v fixed.Int26_6) float64 { return float64(v) / 64 }
	return metrics{ascent: px(m.Ascent), descent: px(m.Descent), height: px(m.Height), capHeight: px(m.CapHeight)}
}

// textWidth is the advance of s in f, in pixels.
func textWidth(f font.Face, s string) float64 {
	return float64(font.MeasureString(f, s)) / 64
}

// drawText draws s in f in the text's colour with its baseline at y, its
// left, centre or right at x as ax is 0, 0.5 or 1.
func drawText(cv *canvas, f font.Face, s string, x, y, ax float64) {
	cv.text(f, rgb(textColor), s, x, y, ax)
}

// box is a rectangle in pixels, y growing downwards.
type box struct {
	left, top, right, bottom float64
}

// lineStyle is how a series or a legend's sample is stroked; dash zero is
// a solid line.
type lineStyle struct {
	color     uint32
	width     float64
	dash, gap float64
}

// chart is a trend being drawn on cv: data holds the bounds of the data
// area, where day i is centred on a slot of its own and counts run from 0
// at the bottom to top.
type chart struct {
	cv *canvas
	s  series
	// whole are the days drawn as lines: the known ones but a partial
	// last day, drawn apart.
	whole   []bool
	partial bool
	top     float64
	data    box
}

// x is the centre of day i's slot. Each day owns a slot one day wide, so
// that the band of a missing day covers it exactly.
func (c *chart) x(i float64) float64 {
	return c.data.left + (i+0.5)/float64(len(c.s.days))*(c.data.right-c.data.left)
}

// y is the height of count v.
func (c *chart) y(v float64) float64 {
	return c.data.bottom - v/c.top*(c.data.bottom-c.data.top)
}

// at is the point of day i in a series, whose count value gives.
func (c *chart) at(i int, value func(DayCounts) float64) point {
	return point{c.x(float64(i)), c.y(value(c.s.days[i]))}
}

// newChart draws the title, the grid and the axes of s within area and
// returns the chart whose data area is what they leave.
func newChart(cv *canvas, f faces, s series, partial bool, title string, area box) *chart {
	n := len(s.days)
	whole := s.known
	partial = partial && s.known[n-1]
	if partial {
		whole = append([]bool(nil), s.known...)
		whole[n-1] = false
	}
	top := int64(0)
	for i, d := range s.days {
		if s.known[i] {
			top = max(top, int64(d.Human), int64(d.AI))
		}
	}
	yt := countAxis(top)
	yTicks := yt.ticks()
	xTicks := dayTicks{first: s.first, n: n}.ticks()
	c := &chart{cv: cv, s: s, whole: whole, partial: partial, top: yt.max}

	y := drawTitle(cv, f, title, area)

	// The axes take their room from the area.
	km := faceMetrics(f.tick)
	labelWidth := 0.0
	for _, t := range yTicks {
		labelWidth = max(labelWidth, textWidth(f.tick, t.label))
	}
	yTickAt := area.left + labelWidth + textWidth(f.tick, " ")
	yAxisAt := yTickAt + tickLength
	xAxisAt := area.bottom - km.height - tickLength
	c.data = box{
		left:   yAxisAt + axisWidth/2,
		top:    y + titlePadding + km.height/2,
		right:  area.right,
		bottom: xAxisAt - axisWidth/2,
	}
	// The data area then gives way to what would stick out of it: the
	// labels of the end days, and dots at the ends or at zero, which
	// would cover the axes.
	inside := c.data
	for _, t := range xTicks {
		if t.label != "" {
			c.fitX(t.value, textWidth(f.tick, t.label)/2, area.left, area.right)
		}
	}
	for _, d := range c.dots() {
		c.fitX(d.day, d.radius, inside.left, inside.right)
		c.fitY(d.value, d.radius, inside.bottom)
	}

	c.drawAxes(f, axes{area: area, labelWidth: labelWidth, yTickAt: yTickAt, yAxisAt: yAxisAt, xAxisAt: xAxisAt}, xTicks, yTicks)
	return c
}

// drawTitle draws title centred at the top of area, a line at a time, and
// returns the height under it.
func drawTitle(cv *canvas, f faces, title string, area box) float64 {
	tm := faceMetrics(f.title)
	mid := (area.left + area.right) / 2
	y := area.top
	for line := range strings.SplitSeq(title, "\n") {
		drawText(cv, f.title, line, mid, y+tm.ascent, 0.5)
		y += tm.height
	}
	return y
}

// axes is where newChart put the axes within area: the count labels'
// width, the count ticks' and the count axis's x, the day axis's y.
type axes struct {
	area                      box
	labelWidth                float64
	yTickAt, yAxisAt, xAxisAt float64
}

// drawAxes draws the grid lines behind everything, at the labelled counts
// (yTicks), then the axes with their ticks and labels, around the data area
// as newChart fitted it.
func (c *chart) drawAxes(f faces, at axes, xTicks, yTicks []tick) {
	cv, km := c.cv, faceMetrics(f.tick)
	grid := lineStyle{color: gridColor, width: gridWidth}
	for _, t := range yTicks {
		// Centred on a row of pixels, a grid line is that row in its
		// colour and a quarter of it either side, the same at every
		// height: sharp, and never the grey of the bands.
		y := math.Floor(c.y(t.value)) + 0.5
		cv.stroke(grid, point{c.data.left, y}, point{c.data.right, y})
	}
	axis := lineStyle{color: textColor, width: axisWidth}
	cv.stroke(axis, point{at.yAxisAt - axisWidth/2, at.xAxisAt}, point{c.data.right, at.xAxisAt})
	cv.stroke(axis, point{at.yAxisAt, at.xAxisAt + axisWidth/2}, point{at.yAxisAt, c.data.top})
	for _, t := range xTicks {
		x, length := c.x(t.value), float64(tickLength)
		if t.label == "" {
			length /= 2
		} else {
			drawText(cv, f.tick, t.label, x, at.area.bottom-km.descent, 0.5)
		}
		cv.stroke(axis, point{x, at.xAxisAt}, point{x, at.xAxisAt + length})
	}
	for _, t := range yTicks {
		y := c.y(t.value)
		drawText(cv, f.tick, t.label, at.area.left+at.labelWidth, y+km.capHeight/2, 1)
		cv.stroke(axis, point{at.yTickAt, y}, point{at.yAxisAt, y})
	}
}

// fitX narrows the data area so that a width of half either side of day
// i's centre lies between left and right.
func (c *chart) fitX(i, half, left, right float64) {
	at := (i + 0.5) / float64(len(c.s.days))
	if c.x(i)+half > right {
		c.data.right = (right - half - c.data.left*(1-at)) / at
	}
	if c.x(i)-half < left {
		c.data.left = (left + half - c.data.right*at) / (1 - at)
	}
}

// fitY raises the bottom of the data area so that radius below count v
// stays above bottom. The count axis keeps room above the highest count,
// so v is below top.
func (c *chart) fitY(v, radius, bottom float64) {
	at := v / c.top
	if c.y(v)+radius > bottom {
		c.data.bottom = (bottom - radius - c.data.top*at) / (1 - at)
	}
}

// dot is a round mark of a series: at a day alone between gaps, or at a
// partial day.
type dot struct {
	day, value, radius float64
}

// dots are the round marks drawSeries and drawPartial will draw.
func (c *chart) dots() []dot {
	var out []dot
	n := len(c.s.days)
	add := func(i int, radius float64) {
		d := c.s.days[i]
		out = append(out, dot{float64(i), float64(d.Human), radius}, dot{float64(i), float64(d.AI), radius})
	}
	for i, k := range c.whole {
		if k && (i == 0 || !c.whole[i-1]) && (i == n-1 || !c.whole[i+1]) {
			add(i, dotRadius)
		}
	}
	if c.partial {
		add(n-1, partialRadius)
	}
	return out
}

// drawData draws the bands of missing days and the two series, the last
// day apart if partial and known, and returns the legend's entries.
func (c *chart) drawData() []legendEntry {
	gaps := c.drawGaps()
	humanValue := func(d DayCounts) float64 { return float64(d.Human) }
	aiValue := func(d DayCounts) float64 { return float64(d.AI) }
	human := lineStyle{color: humanColor, width: lineWidth}
	ai := lineStyle{color: aiColor, width: lineWidth, dash: aiDash, gap: aiDashGap}
	c.drawSeries(humanValue, human)
	c.drawSeries(aiValue, ai)
	legend := []legendEntry{{"human", lineSample(human)}, {"AI", lineSample(ai)}}
	if gaps {
		legend = append(legend, legendEntry{"no data", bandSample})
	}
	if c.partial {
		c.drawPartial(humanValue, humanColor)
		c.drawPartial(aiValue, aiColor)
		legend = append(legend, legendEntry{"today so far", lineSample(lineStyle{color: textColor, width: partialWidth, dash: partialDash, gap: partialDashGap})})
	}
	return legend
}

// drawGaps draws a grey band over each run of missing days, the whole
// height of the data area, and reports whether it drew any.
func (c *chart) drawGaps() bool {
	drew := false
	for i := 0; i < len(c.s.days); {
		if c.s.known[i] {
			i++
			continue
		}
		j := i
		for j+1 < len(c.s.days) && !c.s.known[j+1] {
			j++
		}
		a, b := c.x(float64(i)-0.5), c.x(float64(j)+0.5)
		c.cv.fill(rgb(gapColor), rect(box{left: a, top: c.data.top, right: b, bottom: c.data.bottom}))
		drew = true
		i = j + 1
	}
	return drew
}

// drawSeries draws one line per run of consecutive known days, and a dot
// for a known day alone between gaps, so that a missing day breaks the
// line.
func (c *chart) drawSeries(value func(DayCounts) float64, style lineStyle) {
	known := c.whole
	for i := 0; i < len(known); {
		if !known[i] {
			i++
			continue
		}
		j := i
		for j+1 < len(known) && known[j+1] {
			j++
		}
		if i == j {
			c.cv.fill(rgb(style.color), circle(c.at(i, value), dotRadius))
		} else {
			pts := make([]point, 0, j-i+1)
			for k := i; k <= j; k++ {
				pts = append(pts, c.at(k, value))
			}
			c.cv.stroke(style, pts...)
		}
		i = j + 1
	}
}

// drawPartial draws the last day, still counting, apart from the lines: a
// thin dotted segment from the day before (when known) to a hollow dot: a
// thick ring, to be seen on a phone.
func (c *chart) drawPartial(value func(DayCounts) float64, col uint32) {
	n := len(c.s.days)
	at := c.at(n-1, value)
	if n > 1 && c.s.known[n-2] {
		c.cv.stroke(lineStyle{color: col, width: partialWidth, dash: partialDash, gap: partialDashGap}, c.at(n-2, value), at)
	}
	c.cv.fill(rgb(col), circle(at, partialRadius))
	c.cv.fill(rgb(0xFFFFFF), circle(at, dotRadius-1))
}

// trendTitle is the range on the first line and its totals on the second.
func trendTitle(t Trend, s series) string {
	last := s.days[len(s.days)-1].Date
	// "•", not "·": Go Bold draws the middle dot near the cap height.
	title := "Unique visitors per day • " + RangeText(s.first, last)
	if t.Partial {
		title += " (" + last.Format("Jan 2") + " so far)"
	}
	if t.Totals != nil {
		title += fmt.Sprintf("\n%s in total: %s human, %s AI",
			humanize.Count(int64(t.Totals.Total)), humanize.Count(int64(t.Totals.Human)), humanize.Count(int64(t.Totals.AI)))
	}
	return title
}

// legendEntry is a series' name and what draws its sample in the box b.
type legendEntry struct {
	name   string
	sample func(cv *canvas, b box)
}

// lineSample draws a stretch of a line across the middle of its box.
func lineSample(l lineStyle) func(*canvas, box) {
	return func(cv *canvas, b box) {
		y := (b.top + b.bottom) / 2
		cv.stroke(l, point{b.left, y}, point{b.right, y})
	}
}

// bandSample fills its box as a band of missing days.
func bandSample(cv *canvas, b box) {
	cv.fill(rgb(gapColor), rect(b))
}

// drawLegend draws entries in one row centred in row: a sample of each
// series followed by its name.
func drawLegend(cv *canvas, f font.Face, row box, entries []legendEntry) {
	var width float64
	for i, e := range entries {
		if i > 0 {
			width += legendSpace
		}
		width += legendThumb + legendGap + textWidth(f, e.name)
	}
	x := (row.left+row.right)/2 - width/2
	y := (row.top + row.bottom) / 2
	m := faceMetrics(f)
	for _, e := range entries {
		e.sample(cv, box{left: x, top: y - legendSize/2, right: x + legendThumb, bottom: y + legendSize/2})
		x += legendThumb + legendGap
		drawText(cv, f, e.name, x, y+m.capHeight/2, 0)
		x += textWidth(f, e.name) + legendSpace
	}
}

package insight_test

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/visitors/insight"
	"github.com/docsbot/docsbot/docsapi"
)

// envChartDir names a directory where the tests leave the charts they draw,
// to look at them.
const envChartDir = "DOCSBOT_CHART_DIR"

// date is midnight UTC of a YYYY-MM-DD day.
func date(tb testing.TB, s string) time.Time {
	tb.Helper()
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// trafficDays returns n days of realistic traffic from first: a weekly
// rhythm, growth, and AI traffic rising faster than human, leaving out the
// days skip names (days since first).
func trafficDays(first time.Time, n int, skip ...int) []insight.DayCounts {
	skipped := map[int]bool{}
	for _, i := range skip {
		skipped[i] = true
	}
	var out []insight.DayCounts
	for i := range n {
		if skipped[i] {
			continue
		}
		d := first.AddDate(0, 0, i)
		week := 1.0
		if wd := d.Weekday(); wd == time.Saturday || wd == time.Sunday {
			week = 0.45
		}
		h := int64((9000 + 12*float64(i)) * week * (1 + 0.08*math.Sin(float64(i)/5)))
		a := int64((1500 + 9*float64(i)) * (0.8 + 0.2*week))
		out = append(out, insight.DayCounts{Date: d, Counts: docsapi.Counts{Human: docsapi.Count(h), AI: docsapi.Count(a), Total: docsapi.Count(h + a - a/4)}})
	}
	return out
}

func decodePNG(t *testing.T, name string, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: not a PNG: %v", name, err)
	}
	if dir := os.Getenv(envChartDir); dir != "" {
		if err := os.WriteFile(dir+"/"+name+".png", b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return img
}

func TestRenderTrend(t *testing.T) {
	t.Parallel()
	first := date(t, "2026-10-24")
	totals := &docsapi.Counts{Human: 184_220, AI: 51_007, Total: 221_950}
	// lines: the series are drawn (blue and vermilion pixels); gaps: grey
	// bands mark missing days.
	cases := []struct {
		name        string
		trend       insight.Trend
		w, h        int
		lines, gaps bool
	}{
		{"30 days", insight.Trend{First: first, Last: first.AddDate(0, 0, 29), Days: trafficDays(first, 30), Totals: totals}, 1200, 750, true, false},
		{"30 days with gaps", insight.Trend{First: first, Last: first.AddDate(0, 0, 29), Days: trafficDays(first, 30, 0, 1, 10, 12, 13, 14, 29), Totals: totals}, 1200, 750, true, true},
		{"one day", insight.Trend{First: first, Last: first, Days: trafficDays(first, 1)}, 1200, 750, true, false},
		{"a week", insight.Trend{First: first, Last: first.AddDate(0, 0, 6), Days: trafficDays(first, 7), Totals: totals}, 1200, 750, true, false},
		{"90 days", insight.Trend{First: first, Last: first.AddDate(0, 0, 89), Days: trafficDays(first, 90), Totals: totals}, 1200, 750, true, false},
		{"400 days", insight.Trend{First: first, Last: first.AddDate(0, 0, 399), Days: trafficDays(first, 400), Totals: totals}, 1200, 750, true, false},
		{"nothing cached", insight.Trend{First: first, Last: first.AddDate(0, 0, 13)}, 1200, 750, false, true},
		{"all zero", insight.Trend{First: first, Last: first.AddDate(0, 0, 6), Days: make7(first)}, 1200, 750, true, false},
		{"today so far", insight.Trend{First: first, Last: first.AddDate(0, 0, 29), Days: partialDays(first, 30), Totals: totals, Partial: true}, 1200, 750, true, false},
		{"today alone so far", insight.Trend{First: first, Last: first, Days: partialDays(first, 1), Partial: true}, 1200, 750, true, false},
		{"today so far, yesterday missing", insight.Trend{First: first, Last: first.AddDate(0, 0, 6), Days: partialDays(first, 7, 5), Partial: true}, 1200, 750, true, true},
		{"custom size", insight.Trend{First: first, Last: first.AddDate(0, 0, 29), Days: trafficDays(first, 30), Width: 800, Height: 600}, 800, 600, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, err := insight.RenderTrend(tc.trend)
			if err != nil {
				t.Fatalf("RenderTrend: %v", err)
			}
			img := decodePNG(t, tc.name, b)
			if got := img.Bounds().Size(); got != image.Pt(tc.w, tc.h) {
				t.Fatalf("image is %v, want %d×%d", got, tc.w, tc.h)
			}
			if blue := countColor(img, humanBlue); (blue > 0) != tc.lines {
				t.Errorf("%d pixels of the human line, want lines drawn: %t", blue, tc.lines)
			}
			if vermilion := countColor(img, aiVermilion); (vermilion > 0) != tc.lines {
				t.Errorf("%d pixels of the AI line, want lines drawn: %t", vermilion, tc.lines)
			}
			// Anti-aliased text leaves a few pixels of the grey; a band
			// of one day is hundreds.
			if grey := countColor(img, gapGrey); (grey > 300) != tc.gaps {
				t.Errorf("%d pixels of grey bands, want gaps drawn: %t", grey, tc.gaps)
			}
		})
	}
}

// The colours (0xRRGGBB) of the two series and of the bands of missing
// days.
const (
	humanBlue   = 0x0072B2
	aiVermilion = 0xD55E00
	gapGrey     = 0xE4E4E4
)

// legendRow is more than the height of the legend's row at the bottom of
// a chart.
const legendRow = 80

// countColor counts the pixels of img above the legend's row that are
// exactly the opaque colour rgb (0xRRGGBB). The chart is opaque, so its
// pixels read the same whether the decoder gives RGBA or NRGBA.
func countColor(img image.Image, rgb uint32) int {
	c := color.RGBA{R: uint8(rgb >> 16), G: uint8(rgb >> 8), B: uint8(rgb), A: 0xff}
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y-legendRow; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			var px color.RGBA
			switch im := img.(type) {
			case *image.RGBA:
				px = im.RGBAAt(x, y)
			case *image.NRGBA:
				p := im.NRGBAAt(x, y)
				px = color.RGBA{R: p.R, G: p.G, B: p.B, A: p.A}
			default:
				px = color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			}
			if px == c {
				n++
			}
		}
	}
	return n
}

// partialDays is trafficDays with the last day barely begun: 5% of a
// day's traffic, as at 01:12 UTC.
func partialDays(first time.Time, n int, skip ...int) []insight.DayCounts {
	days := trafficDays(first, n, skip...)
	last := &days[len(days)-1]
	last.Human, last.AI, last.Total = last.Human/20, last.AI/20, last.Total/20
	return days
}

// TestRenderTrendPartialDay: a last day still counting is not drawn as the
// lines' thick last segment (a fall to almost nothing) but apart, with
// thin dots to a hollow ring.
func TestRenderTrendPartialDay(t *testing.T) {
	t.Parallel()
	first := date(t, "2026-10-24")
	tr := insight.Trend{First: first, Last: first.AddDate(0, 0, 29), Days: partialDays(first, 30)}
	whole, err := insight.RenderTrend(tr)
	if err != nil {
		t.Fatal(err)
	}
	tr.Partial = true
	partial, err := insight.RenderTrend(tr)
	if err != nil {
		t.Fatal(err)
	}
	w := countColorIn(decodePNG(t, "partial-as-whole", whole), humanBlue, 0.9)
	p := countColorIn(decodePNG(t, "partial", partial), humanBlue, 0.9)
	if p >= w || p == 0 {
		t.Errorf("%d pixels of human blue in the chart's last tenth with the day partial, %d with it drawn as whole: want fewer, but some", p, w)
	}
}

// countColorIn is countColor over the part of img right of the fraction
// from of its width.
func countColorIn(img image.Image, rgb uint32, from float64) int {
	b := img.Bounds()
	x0 := b.Min.X + int(float64(b.Dx())*from)
	return countColor(cropped{img, image.Rect(x0, b.Min.Y, b.Max.X, b.Max.Y)}, rgb)
}

// cropped is img seen through r.
type cropped struct {
	image.Image
	r image.Rectangle
}

func (c cropped) Bounds() image.Rectangle { return c.r }

func make7(first time.Time) []insight.DayCounts {
	out := make([]insight.DayCounts, 7)
	for i := range out {
		out[i].Date = first.AddDate(0, 0, i)
	}
	return out
}

// BenchmarkRenderTrend400 draws the longest range the analytics keep, with
// a few days missing.
func BenchmarkRenderTrend400(b *testing.B) {
	first := date(b, "2025-10-19")
	tr := insight.Trend{
		First: first, Last: first.AddDate(0, 0, 399),
		Days:   trafficDays(first, 400, 37, 38, 200, 398, 399),
		Totals: &docsapi.Counts{Human: 2_184_220, AI: 751_007, Total: 2_621_950},
	}
	var size int
	b.ReportAllocs()
	for b.Loop() {
		png, err := insight.RenderTrend(tr)
		if err != nil {
			b.Fatal(err)
		}
		size = len(png)
	}
	b.ReportMetric(float64(size), "png-bytes")
}

// TestRenderTrendDrawsTheData reads a chart back as its reader would: the
// count axis from its grid lines, the days from their ticks, and finds the
// series where the data puts them and the text where the layout does. The
// human series rises in a straight line, so that the line's middle is its
// count all along (a bend would thicken one side); the AI series is flat,
// below it.
func TestRenderTrendDrawsTheData(t *testing.T) {
	t.Parallel()
	first := date(t, "2026-11-16")
	var days []insight.DayCounts
	for i := range 7 {
		h := 2000 + 1000*i // 2,000 to 8,000
		days = append(days, insight.DayCounts{Date: first.AddDate(0, 0, i), Counts: docsapi.Counts{Human: docsapi.Count(h), AI: 1000, Total: docsapi.Count(h + 1000)}})
	}
	cases := []struct {
		name string
		w, h int
	}{
		{"default size", 0, 0},
		{"800×600", 800, 600},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, err := insight.RenderTrend(insight.Trend{First: first, Last: first.AddDate(0, 0, 6), Days: days, Width: tc.w, Height: tc.h,
				Totals: &docsapi.Counts{Human: 30_000, AI: 20_000, Total: 45_000}})
			if err != nil {
				t.Fatal(err)
			}
			img := toRGBA(decodePNG(t, "data "+tc.name, b))
			w, h := insight.ChartWidth, insight.ChartHeight
			if tc.w != 0 {
				w, h = tc.w, tc.h
			}
			if got := img.Bounds().Size(); got != image.Pt(w, h) {
				t.Fatalf("image is %v, want %d×%d", got, w, h)
			}

			// The count axis: 8,000 at most, so 0 to 10,000 in steps of
			// 2,000; the grid line at 0 lies under the day axis.
			grid := rowsOf(img, gridGrey, w/4)
			if len(grid) != 5 {
				t.Fatalf("grid lines at rows %v, want 5 (2,000 to 10,000)", grid)
			}
			// A grid line is drawn on the row of pixels its count falls in.
			top, bottom := float64(grid[0])+0.5, float64(grid[4])+0.5
			y := func(v float64) float64 { return bottom - (v-2000)/8000*(bottom-top) }
			for i, r := range grid {
				if want := y(float64(10000 - 2000*i)); math.Abs(float64(r)+0.5-want) > 1 {
					t.Errorf("grid line %d at row %d, want about %.1f: steps not even", i, r, want)
				}
			}

			// The days: the day axis is the lowest row mostly in the text's
			// colour, the count axis the column darkest
			// from the top grid line down to it, and a tick hangs under
			// the day axis at each day, right of the count axis.
			axis := rowsOf(img, textDark, w/2)
			if len(axis) == 0 {
				t.Fatal("no day axis")
			}
			axisRow := axis[len(axis)-1]
			countAxis, darkest := 0, 0.0
			for x := range w {
				sum := 0.0
				for y := grid[0]; y < axisRow; y++ {
					sum += ink(img, x, y)
				}
				if sum > darkest {
					countAxis, darkest = x, sum
				}
			}
			var ticks []float64
			for _, x := range inkCentres(img, axisRow+4) {
				if x > float64(countAxis+2) {
					ticks = append(ticks, x)
				}
			}
			if len(ticks) != 7 {
				t.Fatalf("%d day ticks (at %v), want 7", len(ticks), ticks)
			}

			// The human series passes through each day's count, and in a
			// straight line between them: 1,000 more a day.
			day := (ticks[6] - ticks[0]) / 6
			for x := int(ticks[0]) + 2; x < int(ticks[6])-2; x++ {
				v := 2000 + 1000*(float64(x)+0.5-ticks[0])/day
				got, ok := runMiddle(img, x, humanBlue, axisRow)
				if want := y(v); !ok || math.Abs(got-want) > 1.5 {
					t.Errorf("the human line at x=%d is at y=%.1f (found: %t), want %.1f (%.0f visitors)", x, got, ok, want, v)
					break
				}
			}
			// The AI series is flat at 1,000, dashed: drawn along most of
			// the week, always at that height.
			drawn, span := 0, 0
			want := y(1000)
			for x := int(ticks[0]); x <= int(ticks[6]); x++ {
				span++
				got, ok := runMiddle(img, x, aiVermilion, axisRow)
				if !ok {
					continue
				}
				drawn++
				if math.Abs(got-want) > 1.5 {
					t.Errorf("the AI line at x=%d is at y=%.1f, want %.1f (1,000 visitors)", x, got, want)
					break
				}
			}
			if drawn < span/2 {
				t.Errorf("the AI line drawn on %d of the %d columns of the week, want most (dashes twice as long as their gaps)", drawn, span)
			}

			// The text: the title centred over the chart above the grid,
			// a count's label left of each grid line, a date under each
			// tick.
			title := inkBounds(img, image.Rect(0, 0, w, grid[0]-10))
			if title.Empty() || math.Abs(float64(title.Min.X+title.Max.X)/2-float64(w)/2) > 3 {
				t.Errorf("title's ink spans %v, want it centred on x=%d", title, w/2)
			}
			if title.Dy() < 50 {
				t.Errorf("title's ink %d pixels high, want two lines (the range, and the totals)", title.Dy())
			}
			for _, r := range grid {
				if label := inkBounds(img, image.Rect(0, r-12, countAxis-8, r+12)); label.Empty() {
					t.Errorf("no count label left of the grid line at row %d", r)
				}
			}
			for i, x := range ticks {
				half := int(day / 2)
				label := inkBounds(img, image.Rect(int(x)-half, axisRow+12, int(x)+half, h-legendRow))
				if label.Empty() || math.Abs(float64(label.Min.X+label.Max.X)/2-x) > 3 {
					t.Errorf("day %d's date spans %v, want it centred under its tick at x=%.1f", i, label, x)
				}
			}
		})
	}
}

// The grey of the grid lines and the colour of the axes and text.
const (
	gridGrey = 0xD0D0D0
	textDark = 0x1D1C1D
)

// toRGBA is img as an *image.RGBA.
func toRGBA(img image.Image) *image.RGBA {
	if im, ok := img.(*image.RGBA); ok {
		return im
	}
	out := image.NewRGBA(img.Bounds())
	draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Src)
	return out
}

// rowsOf lists the rows of img above the legend's row with more than n
// pixels exactly rgb, top to bottom.
func rowsOf(img *image.RGBA, rgb uint32, n int) []int {
	c := color.RGBA{R: uint8(rgb >> 16), G: uint8(rgb >> 8), B: uint8(rgb), A: 0xff}
	var rows []int
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y-legendRow; y++ {
		k := 0
		for x := b.Min.X; x < b.Max.X; x++ {
			if img.RGBAAt(x, y) == c {
				k++
			}
		}
		if k > n {
			rows = append(rows, y)
		}
	}
	return rows
}

// ink is how dark a pixel is, 0 (white) to 1 (black).
func ink(img *image.RGBA, x, y int) float64 {
	c := img.RGBAAt(x, y)
	return 1 - (float64(c.R)+float64(c.G)+float64(c.B))/(3*255)
}

// inkCentres are the middles, weighted by ink, of the runs of dark pixels
// along row y of img.
func inkCentres(img *image.RGBA, y int) []float64 {
	var out []float64
	sum, weight := 0.0, 0.0
	for x := img.Bounds().Min.X; x <= img.Bounds().Max.X; x++ {
		a := 0.0
		if x < img.Bounds().Max.X {
			a = ink(img, x, y)
		}
		if a > 0.1 {
			sum, weight = sum+a*(float64(x)+0.5), weight+a
		} else if weight > 0 {
			out = append(out, sum/weight)
			sum, weight = 0, 0
		}
	}
	return out
}

// runMiddle is the middle of the run of pixels exactly rgb in column x of
// img above row below, and whether there is one.
func runMiddle(img *image.RGBA, x int, rgb uint32, below int) (float64, bool) {
	c := color.RGBA{R: uint8(rgb >> 16), G: uint8(rgb >> 8), B: uint8(rgb), A: 0xff}
	lo, hi := -1, -1
	for y := img.Bounds().Min.Y; y < below; y++ {
		if img.RGBAAt(x, y) == c {
			if lo < 0 {
				lo = y
			}
			hi = y
		}
	}
	return float64(lo+hi+1) / 2, lo >= 0
}

// inkBounds is the smallest rectangle holding the pixels of r in img
// that are mostly ink (text's, drawn anti-aliased).
func inkBounds(img *image.RGBA, r image.Rectangle) image.Rectangle {
	var out image.Rectangle
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if ink(img, x, y) > 0.5 {
				out = out.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return out
}

package insight_test

import (
	"bytes"
	"image"
	"image/color"
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

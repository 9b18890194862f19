package insight

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// canvas is the image a chart is drawn on: shapes filled anti-aliased by
// golang.org/x/image/vector, text by font.Drawer. Coordinates are pixels, y
// growing downwards; pixel (i, j) covers [i, i+1)×[j, j+1), so a line of
// odd width is sharp on a half-pixel.
type canvas struct {
	img *image.RGBA
	// r is reused by every fill, sized to the bounds of what it fills.
	r vector.Rasterizer
}

// newCanvas is a w×h canvas filled with bg.
func newCanvas(w, h int, bg color.RGBA) *canvas {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	return &canvas{img: img}
}

// point is a position on a canvas.
type point struct{ x, y float64 }

// fill paints the union of the closed polygons polys in col.
func (c *canvas) fill(col color.RGBA, polys ...[]point) {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, p := range polys {
		for _, q := range p {
			minX, maxX = min(minX, q.x), max(maxX, q.x)
			minY, maxY = min(minY, q.y), max(maxY, q.y)
		}
	}
	if minX > maxX {
		return
	}
	r := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX)), int(math.Ceil(maxY))).Intersect(c.img.Bounds())
	if r.Empty() {
		return
	}
	// The rasterizer covers r alone, so that a fill costs the size of
	// what it fills, not of the image.
	c.r.Reset(r.Dx(), r.Dy())
	ox, oy := float64(r.Min.X), float64(r.Min.Y)
	for _, p := range polys {
		if len(p) < 3 {
			continue
		}
		// The rasterizer adds up the signed areas of what it is given and
		// takes their magnitude: polygons turning the same way make their
		// union where they overlap, opposite ones would cancel out. So
		// every polygon is added turning the same way.
		reverse := signedArea(p) < 0
		for i := range p {
			q := p[i]
			if reverse {
				q = p[len(p)-1-i]
			}
			x, y := float32(q.x-ox), float32(q.y-oy)
			if i == 0 {
				c.r.MoveTo(x, y)
			} else {
				c.r.LineTo(x, y)
			}
		}
		c.r.ClosePath()
	}
	c.r.Draw(c.img, r, image.NewUniform(col), image.Point{})
}

// signedArea is twice the area of the polygon p, positive or negative as
// it turns one way or the other.
func signedArea(p []point) float64 {
	a := 0.0
	for i, q := range p {
		n := p[(i+1)%len(p)]
		a += q.x*n.y - n.x*q.y
	}
	return a
}

// rect is the polygon of b.
func rect(b box) []point {
	return []point{{b.left, b.top}, {b.right, b.top}, {b.right, b.bottom}, {b.left, b.bottom}}
}

// circle is a polygon close to the circle of radius r around at: its
// sides are about two pixels long, so that it is off the circle by less
// than a tenth of a pixel at the chart's sizes.
func circle(at point, r float64) []point {
	n := max(12, int(math.Ceil(math.Pi*r)))
	p := make([]point, n)
	for i := range p {
		a := 2 * math.Pi * float64(i) / float64(n)
		p[i] = point{at.x + r*math.Cos(a), at.y + r*math.Sin(a)}
	}
	return p
}

// stroke draws the line through pts in l: butt ends, round joins, and
// dashed when l.dash is positive.
func (c *canvas) stroke(l lineStyle, pts ...point) {
	lines := [][]point{pts}
	if l.dash > 0 {
		lines = dashes(pts, l.dash, l.gap)
	}
	half := l.width / 2
	var polys [][]point
	for _, line := range lines {
		for i := 1; i < len(line); i++ {
			a, b := line[i-1], line[i]
			dx, dy := b.x-a.x, b.y-a.y
			d := math.Hypot(dx, dy)
			if d == 0 {
				continue
			}
			// A segment is a rectangle across it; where it meets the one
			// before, a disc fills the outer side of the bend (the inner
			// side is in both rectangles already).
			nx, ny := -dy/d*half, dx/d*half
			polys = append(polys, []point{{a.x + nx, a.y + ny}, {b.x + nx, b.y + ny}, {b.x - nx, b.y - ny}, {a.x - nx, a.y - ny}})
			if i > 1 {
				polys = append(polys, circle(a, half))
			}
		}
	}
	c.fill(rgb(l.color), polys...)
}

// dashes cuts the line through pts into dashes on long with gaps off long
// between them, a dash first. The pattern runs on across the points, so
// that a dash may bend.
func dashes(pts []point, on, off float64) [][]point {
	if len(pts) < 2 {
		return nil
	}
	var out [][]point
	dash := []point{pts[0]}
	drawing, left := true, on // left is what remains of the dash or gap
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		d := math.Hypot(b.x-a.x, b.y-a.y)
		at := 0.0
		for d-at > left {
			at += left
			p := point{a.x + (b.x-a.x)*at/d, a.y + (b.y-a.y)*at/d}
			if drawing {
				out = append(out, append(dash, p))
				dash, left = nil, off
			} else {
				dash, left = []point{p}, on
			}
			drawing = !drawing
		}
		left -= d - at
		if drawing {
			dash = append(dash, b)
		}
	}
	if drawing && len(dash) > 1 {
		out = append(out, dash)
	}
	return out
}

// text draws s in f and col with its baseline at y, its left, centre or
// right at x as ax is 0, 0.5 or 1.
func (c *canvas) text(f font.Face, col color.RGBA, s string, x, y, ax float64) {
	x -= ax * textWidth(f, s)
	d := font.Drawer{
		Dst:  c.img,
		Src:  image.NewUniform(col),
		Face: f,
		Dot:  fixed.Point26_6{X: fixed.Int26_6(math.Round(x * 64)), Y: fixed.Int26_6(math.Round(y * 64))},
	}
	d.DrawString(s)
}

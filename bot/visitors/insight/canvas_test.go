package insight

import (
	"image"
	"image/color"
	"math"
	"testing"
)

func TestDashes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		pts     []point
		on, off float64
		want    [][]point
	}{
		{"straight", []point{{0, 0}, {50, 0}}, 18, 9, [][]point{{{0, 0}, {18, 0}}, {{27, 0}, {45, 0}}}},
		{"a dash bends with the line", []point{{0, 0}, {10, 0}, {10, 20}}, 18, 9, [][]point{{{0, 0}, {10, 0}, {10, 8}}, {{10, 17}, {10, 20}}}},
		{"a gap across a point", []point{{0, 0}, {20, 0}, {20, 20}}, 18, 9, [][]point{{{0, 0}, {18, 0}}, {{20, 7}, {20, 20}}}},
		{"shorter than a dash", []point{{0, 0}, {5, 0}}, 18, 9, [][]point{{{0, 0}, {5, 0}}}},
		{"one point", []point{{3, 3}}, 18, 9, nil},
	}
	for _, tc := range cases {
		got := dashes(tc.pts, tc.on, tc.off)
		if !samePoints(got, tc.want) {
			t.Errorf("%s: dashes %v, want %v", tc.name, got, tc.want)
		}
	}
}

func samePoints(a, b [][]point) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if math.Abs(a[i][j].x-b[i][j].x) > 1e-9 || math.Abs(a[i][j].y-b[i][j].y) > 1e-9 {
				return false
			}
		}
	}
	return true
}

// TestFillUnion: polygons filled together make their union, whichever way
// each turns, and a shape's edges are anti-aliased.
func TestFillUnion(t *testing.T) {
	t.Parallel()
	white, blue := rgb(0xFFFFFF), rgb(humanColor)
	clockwise := []point{{2, 2}, {12, 2}, {12, 12}, {2, 12}}
	anticlockwise := []point{{8, 8}, {8, 18}, {18.5, 18}, {18.5, 8}}
	cases := []struct {
		name string
		at   image.Point
		want func(color.RGBA) bool
	}{
		{"inside the first", image.Pt(3, 3), func(c color.RGBA) bool { return c == blue }},
		{"where they overlap", image.Pt(10, 10), func(c color.RGBA) bool { return c == blue }},
		{"inside the second", image.Pt(17, 17), func(c color.RGBA) bool { return c == blue }},
		{"outside both", image.Pt(15, 4), func(c color.RGBA) bool { return c == white }},
		{"on the half-covered edge", image.Pt(18, 12), func(c color.RGBA) bool { return c != blue && c != white }},
	}
	cv := newCanvas(24, 24, white)
	cv.fill(blue, clockwise, anticlockwise)
	for _, tc := range cases {
		if got := cv.img.RGBAAt(tc.at.X, tc.at.Y); !tc.want(got) {
			t.Errorf("%s %v: %v", tc.name, tc.at, got)
		}
	}
}

// Package insight turns visitor numbers into what a docs team asks after
// "how many": is it growing (a trend chart of daily unique visitors) and what
// changed (a comparison of a range with the one before it). It knows nothing
// of Slack or Redis: its input is the docs API's types (docsapi.Counts,
// docsapi.PageVisitors) and its output a PNG or plain values, so it is tested
// and benchmarked on its own.
//
// # The trend chart
//
// RenderTrend draws daily unique visitors, human and AI as two series, sized
// and styled to be read on a phone: a 1200×750 PNG (a phone shows it about
// three times smaller), fonts of 26 to 34 pixels, lines 5 pixels thick,
// date ticks chosen for the length of the range, counts with thousands
// separators (humanize.Count). A day with no data (not in
// the cache, and the budget could not pay for it) is a gap in the lines over
// a grey band, never a zero; MissingDays and FormatDays give the caller the
// words for them. A last day still counting (Trend.Partial) is drawn apart,
// a thin dotted line to a hollow ring, "today so far" in the legend and the
// title, so that a day barely begun does not read as a collapse. The range's
// unique totals in the title are the caller's (the range export's totals):
// daily uniques do not add up to them.
//
// The chart is drawn on an image.RGBA by canvas.go alone: lines, dots and
// bands are polygons filled anti-aliased by golang.org/x/image/vector (each
// segment of a line a rectangle, with a disc at each bend for a round join;
// dashes run on along the whole line), text is drawn by font.Drawer in the
// Go fonts (golang.org/x/image/font/gofont through font/opentype), parsed
// for each chart, and image/png encodes it. Grid lines are centred on a row
// of pixels, so that they are sharp and never the grey of the bands.
//
// A plotting library (gonum.org/v1/plot) drew it first: its packages parse
// a dozen fonts when the process starts and link PDF, SVG and LaTeX
// backends, about 3 MiB resident in every replica, which must stay under
// 25 MB; a chart needs only lines, dots, bands and text. A 2D canvas
// (git.sr.ht/~sbinet/gg) drew it next, but brought in
// github.com/golang/freetype, unmaintained since 2017.
//
// # The comparison
//
// Compare sets a range against the one before it, of the same length:
// totals with their change (a percentage only when the earlier count is
// positive), the pages that rose and fell most, and the pages new in the
// range or gone from it, each listed as such. Totals are always the exports'
// deduplicated totals; page counts are never added into them.
package insight

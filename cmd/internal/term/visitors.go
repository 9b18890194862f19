package term

import (
	"fmt"
	"io"
	"iter"
	"time"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/docsapi"
)

// CollectVisitors reads the pages of the export (docsapi.Client.VisitorPages),
// maxPages at most (0: all), and merges them into one: the site totals and
// every path once. When w is a terminal it shows progress there.
func CollectVisitors(w io.Writer, pages iter.Seq2[*docsapi.VisitorsPage, error], maxPages int) (*docsapi.VisitorsPage, error) {
	var m docsapi.VisitorsMerge
	tty := IsTerminal(w)
	defer func() {
		if tty && m.Pages > 0 {
			fmt.Fprint(w, "\r\033[K")
		}
	}()
	for page, err := range pages {
		if err != nil {
			return nil, err
		}
		m.Add(page)
		if tty {
			fmt.Fprintf(w, "\r\033[Kfetching visitors: %d requests, %s paths", m.Pages, humanize.Count(int64(m.Len())))
		}
		if maxPages > 0 && m.Pages >= maxPages {
			break
		}
	}
	return m.Result(), nil
}

// RangeTitle describes the visitors range from..to (to EXCLUDED, either may
// be empty) for people: "2025-11-01 to 2025-11-07 inclusive" for whole days,
// "since 2025-11-01", "the API's default range" with neither.
func RangeTitle(from, to string) string {
	toDate, toOK := docsapi.ParseDate(to)
	dateOnly := toOK && len(to) == len(time.DateOnly)
	switch {
	case from != "" && to != "" && dateOnly:
		return from + " to " + toDate.AddDate(0, 0, -1).Format(time.DateOnly) + " inclusive"
	case from != "" && to != "":
		return from + " up to " + to
	case from != "":
		return "since " + from
	case to != "":
		return "before " + to
	}
	return "the API's default range"
}

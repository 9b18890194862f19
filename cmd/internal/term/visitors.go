package term

import (
	"fmt"
	"io"
	"iter"

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
			fmt.Fprintf(w, "\r\033[Kfetching visitors: %d requests, %s paths", m.Pages, docsapi.FormatCount(int64(m.Len())))
		}
		if maxPages > 0 && m.Pages >= maxPages {
			break
		}
	}
	return m.Result(), nil
}

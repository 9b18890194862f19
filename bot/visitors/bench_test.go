package visitors

import (
	"encoding/json"
	"testing"

	"github.com/docsbot/docsbot/store"
)

// BenchmarkSummarize100k measures a summary of a site with 100,000 paths
// from the merged export: filter, rank, keep the top pages, render the
// blocks and encode the message Slack receives. from-cache adds reading the
// export back from its cached form.
func BenchmarkSummarize100k(b *testing.B) {
	snap, base := datasetSnapshotOver(b, 100_000, "400d")
	if len(snap.Pages) != 100_000 {
		b.Fatalf("%d pages with visitors, want 100,000", len(snap.Pages))
	}
	cached, err := store.EncodeVisitors(snap)
	if err != nil {
		b.Fatal(err)
	}
	summarize := func(b *testing.B, s *store.VisitorsSnapshot, req visitorsRequest) {
		msg := visitorsReport{Req: req, Snap: s, Requester: "U0ALICE", Fetched: true}.message()
		if _, err := json.Marshal(msg); err != nil {
			b.Fatal(err)
		}
	}
	cases := []struct {
		name            string
		top             int
		path            string
		sort            sortColumn
		decodeFromCache bool
	}{
		{name: "top10", top: 10, sort: sortTotal},
		{name: "top50-sort-ai", top: 50, sort: sortAI},
		{name: "top50-path-sort-human", top: 50, path: "/guides", sort: sortHuman},
		{name: "from-cache-top10", top: 10, sort: sortTotal, decodeFromCache: true},
	}
	for _, tc := range cases {
		req := base
		req.Top, req.Path, req.Sort = tc.top, tc.path, tc.sort
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s := snap
				if tc.decodeFromCache {
					if s, err = store.DecodeVisitors(cached); err != nil {
						b.Fatal(err)
					}
				}
				summarize(b, s, req)
			}
			if tc.decodeFromCache {
				b.ReportMetric(float64(len(cached)), "cache-entry-bytes")
			}
		})
	}
}

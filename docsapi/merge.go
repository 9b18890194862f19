package docsapi

// VisitorsMerge puts the pages of a visitors export back together as they
// are read (VisitorPages): the totals of the first page and every path once,
// in the order first seen. A path can show up on two pages when the day's
// counts grow while the export is read and rows move between pages. The bot,
// and the command line both merge with it.
type VisitorsMerge struct {
	all  VisitorsPage
	seen map[string]struct{}
	// Pages counts the pages added.
	Pages int
}

// Add merges the next page of the export.
func (m *VisitorsMerge) Add(p *VisitorsPage) {
	m.Pages++
	if m.Pages == 1 {
		m.all.Totals = p.Totals
		m.seen = make(map[string]struct{}, len(p.Visitors))
		m.all.Visitors = make([]PageVisitors, 0, len(p.Visitors))
	}
	for _, v := range p.Visitors {
		if _, dup := m.seen[v.Path]; dup {
			continue
		}
		m.seen[v.Path] = struct{}{}
		m.all.Visitors = append(m.all.Visitors, v)
	}
	m.all.HasMore = p.HasMore
}

// Len is the number of distinct paths merged so far.
func (m *VisitorsMerge) Len() int { return len(m.all.Visitors) }

// Result is the merged export: HasMore is that of the last page added (true
// when the walk stopped early).
func (m *VisitorsMerge) Result() *VisitorsPage {
	out := m.all
	if out.Visitors == nil {
		out.Visitors = []PageVisitors{}
	}
	return &out
}

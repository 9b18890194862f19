package health

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/docsbot/docsbot/docsapi"
)

// The views of /docs-health; "" is the summary of all four.
const (
	viewSummary   = ""
	viewSearches  = "searches"
	viewFeedback  = "feedback"
	viewQuestions = "questions"
	viewViews     = "views"
)

// report is what a view read from the analytics, as the cache keeps it.
type report struct {
	Searches  []searchRow     `json:"s,omitempty"`
	Pages     []pageRow       `json:"p,omitempty"`
	Questions []questionGroup `json:"q,omitempty"`
	Views     []viewRow       `json:"v,omitempty"`
	// Notes say what was left out: a list cut at the pages bound, the
	// feedback by page that has more pages than it gives.
	Notes []string `json:"n,omitempty"`
	// ResolvedByExperts counts the help channels' threads resolved by
	// experts over the range (the questions view and the summary); nil
	// when not read. Read from the store at each view, never cached.
	ResolvedByExperts *int64 `json:"-"`
}

// searchRow is a search term: its hits, click-through, where people went.
type searchRow struct {
	Query   string  `json:"q"`
	Hits    int64   `json:"h"`
	Clicks  float64 `json:"c"` // click-through, 0 to 1
	Top     string  `json:"t,omitempty"`
	Nowhere bool    `json:"n,omitempty"` // nobody clicked a result
}

// pageRow is a page readers voted on: its 👎 and 👍, its latest comments and
// its code-snippet reports.
type pageRow struct {
	Path     string    `json:"p"`
	Down     int64     `json:"d"`
	Up       int64     `json:"u"`
	Comments []string  `json:"c,omitempty"`
	Snippets []snippet `json:"s,omitempty"`
}

// snippet is a report on a code block of a page.
type snippet struct {
	File    string `json:"f,omitempty"`
	Comment string `json:"c,omitempty"`
}

// questionGroup is the unanswered questions of one category.
type questionGroup struct {
	Category string     `json:"c"`
	Items    []question `json:"i"`
}

// question is a question the assistant could not answer, and its reply.
type question struct {
	Text  string `json:"q"`
	Reply string `json:"a,omitempty"`
}

// viewRow is a page's view events, human and AI.
type viewRow struct {
	Path  string `json:"p"`
	Human int64  `json:"h"`
	AI    int64  `json:"a"`
	Total int64  `json:"t"`
}

// How much a view keeps of each list.
const (
	commentsPerPage  = 3
	questionsPerKind = 5
)

// plan is how many requests a view may make at most: one per page of each
// list it reads (the feedback by page is one).
func plan(view string, maxPages int) int {
	switch view {
	case viewSearches, viewQuestions, viewViews:
		return maxPages
	case viewFeedback:
		return 1 + maxPages
	}
	return 5 // the summary: one page of each list, and the feedback by page
}

// fetch reads view of api over r, making at most plan(view) requests; it
// returns the report and the requests made.
func fetch(ctx context.Context, api HealthAPI, view string, r docsapi.AnalyticsRange, maxPages int) (*report, int, error) {
	pages := maxPages
	if view == viewSummary {
		pages = 1
	}
	rep := &report{}
	used := 0
	var err error
	if view == viewSummary || view == viewSearches {
		n, e := rep.searches(ctx, api, r, pages)
		used, err = used+n, errors.Join(err, e)
	}
	if view == viewSummary || view == viewFeedback {
		n, e := rep.feedback(ctx, api, r, pages)
		used, err = used+n, errors.Join(err, e)
	}
	if view == viewSummary || view == viewQuestions {
		n, e := rep.questions(ctx, api, r, pages)
		used, err = used+n, errors.Join(err, e)
	}
	if view == viewSummary || view == viewViews {
		n, e := rep.views(ctx, api, r, pages)
		used, err = used+n, errors.Join(err, e)
	}
	return rep, used, err
}

// bounded notes the list that reached the pages bound rather than failing:
// what was read, and that the rest is not counted.
func (rep *report) bounded(err error, what string, pages int) error {
	if errors.Is(err, docsapi.ErrPageBound) {
		rep.Notes = append(rep.Notes, fmt.Sprintf("docsbot read the first %d pages of results for %s; what follows them is not counted.", pages, what))
		return nil
	}
	return err
}

func (rep *report) searches(ctx context.Context, api HealthAPI, r docsapi.AnalyticsRange, pages int) (int, error) {
	used := 0
	for page, err := range api.SearchPages(ctx, docsapi.SearchesParams{AnalyticsRange: r, Limit: 100}, pages) {
		if err != nil {
			return used, rep.bounded(err, "the searches", pages)
		}
		used++
		for _, q := range page.Searches {
			rep.Searches = append(rep.Searches, searchRow{Query: q.Query, Hits: int64(q.Hits), Clicks: q.ClickRate(),
				Top: q.TopClickedPage, Nowhere: q.NoResultClicked()})
		}
	}
	slices.SortStableFunc(rep.Searches, func(a, b searchRow) int { return cmp.Compare(b.Hits, a.Hits) })
	return used, nil
}

func (rep *report) feedback(ctx context.Context, api HealthAPI, r docsapi.AnalyticsRange, pages int) (int, error) {
	by, err := api.FeedbackByPage(ctx, docsapi.FeedbackByPageParams{AnalyticsRange: r, Limit: 20})
	if err != nil {
		return 0, err
	}
	used := 1
	if by.HasMore {
		rep.Notes = append(rep.Notes, "The docs API gives the feedback of its first pages only; more pages have feedback.")
	}
	rows := map[string]*pageRow{}
	for _, p := range by.Pages {
		if p.ThumbsDown > 0 || p.Code > 0 {
			rep.Pages = append(rep.Pages, pageRow{Path: p.Path, Down: int64(p.ThumbsDown), Up: int64(p.ThumbsUp)})
		}
	}
	slices.SortStableFunc(rep.Pages, func(a, b pageRow) int { return cmp.Compare(b.Down, a.Down) })
	for i := range rep.Pages {
		rows[rep.Pages[i].Path] = &rep.Pages[i]
	}
	for page, err := range api.FeedbackPages(ctx, docsapi.FeedbackParams{AnalyticsRange: r, Limit: 100}, pages) {
		if err != nil {
			return used, rep.bounded(err, "the feedback", pages)
		}
		used++
		for _, f := range page.Feedback {
			row := rows[f.Path]
			switch {
			case row == nil:
			case f.Source == docsapi.SourceCodeSnippet && len(row.Snippets) < commentsPerPage:
				row.Snippets = append(row.Snippets, snippet{File: f.Filename, Comment: f.Comment})
			case f.ThumbsDown() && f.Comment != "" && len(row.Comments) < commentsPerPage:
				row.Comments = append(row.Comments, f.Comment)
			}
		}
	}
	return used, nil
}

func (rep *report) questions(ctx context.Context, api HealthAPI, r docsapi.AnalyticsRange, pages int) (int, error) {
	used := 0
	groups := map[string]*questionGroup{}
	var order []string
	for page, err := range api.ConversationPages(ctx, docsapi.ConversationsParams{AnalyticsRange: r, Limit: 200}, pages) {
		if err != nil {
			return used, rep.bounded(err, "the assistant's conversations", pages)
		}
		used++
		for _, c := range page.Conversations {
			if c.IsAnswered() || c.Question == "" {
				continue
			}
			cat := cmp.Or(c.Category, "Other")
			g := groups[cat]
			if g == nil {
				g = &questionGroup{Category: cat}
				groups[cat] = g
				order = append(order, cat)
			}
			if len(g.Items) < questionsPerKind {
				g.Items = append(g.Items, question{Text: c.Question, Reply: c.Answer})
			}
		}
	}
	for _, cat := range order {
		rep.Questions = append(rep.Questions, *groups[cat])
	}
	slices.SortStableFunc(rep.Questions, func(a, b questionGroup) int { return cmp.Compare(len(b.Items), len(a.Items)) })
	return used, nil
}

func (rep *report) views(ctx context.Context, api HealthAPI, r docsapi.AnalyticsRange, pages int) (int, error) {
	used := 0
	for page, err := range api.ViewPages(ctx, docsapi.ViewsParams{AnalyticsRange: r, Limit: 250}, pages) {
		if err != nil {
			return used, rep.bounded(err, "the page views", pages)
		}
		used++
		for _, v := range page.Views {
			rep.Views = append(rep.Views, viewRow{Path: v.Path, Human: int64(v.Human), AI: int64(v.AI), Total: int64(v.Total)})
		}
	}
	slices.SortStableFunc(rep.Views, func(a, b viewRow) int { return cmp.Compare(b.Total, a.Total) })
	return used, nil
}

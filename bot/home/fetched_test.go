package home_test

import (
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// TestHomeShowsWhatTheCommandsFetched: with two projects, after
// `/docs-visitors 7d chart` and `/docs-health` in a channel, the person's
// Home shows that project's visitors of the last 7 days (the chart's
// counts) and its docs health counts, and says of the other project that
// none is cached; opening it asks the docs API nothing.
func TestHomeShowsWhatTheCommandsFetched(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	other := h.TwoProjects(bottest.Project{}, bottest.Project{})
	h.StartBot(bottest.Config{})
	h.Command(alice, bottest.General, "/docs-visitors", "7d chart")
	h.WaitFor("the chart", func() bool { return len(h.ChartPosts(bottest.General)) > 0 })
	h.Command(alice, bottest.General, "/docs-health", "")
	h.WaitFor("the docs health", func() bool {
		for _, m := range h.Slack.Messages(bottest.General) {
			if strings.Contains(m.Text, "Docs health") {
				return true
			}
		}
		return false
	})
	h.Idle()
	asked := h.API.Requests()
	openHome(t, h, alice, "Docs health, last 30 days")
	text := homeText(h, alice)
	bottest.WantContains(t, "the Home", text,
		"*`docs`*\n", "visitors  ·  ", "AI share",
		"searches found nothing clicked · ", "pages voted down",
		"`api`: no summary of the last 7 days is cached yet",
		"`api`: no docs health of the last 30 days is cached yet")
	if strings.Contains(text, "`docs`: no") {
		t.Errorf("the Home says nothing of docs is cached:\n%s", text)
	}
	if n := len(h.API.Requests()) - len(asked) + other.Count(docsapitest.EndpointVisitors); n != 0 {
		t.Errorf("opening the Home sent %d requests to the docs API", n)
	}
}

// TestHomeRepublishedAfterAFetch: a Home the person opened is published
// again after their `/docs-visitors 7d chart` and `/docs-health`, showing
// the counts without being opened again.
func TestHomeRepublishedAfterAFetch(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	h.StartBot(bottest.Config{})
	openHome(t, h, alice, "No docs health of the last 30 days is cached")
	h.Command(alice, bottest.General, "/docs-visitors", "7d chart")
	h.WaitFor("the Home republished with the chart's visitors", func() bool {
		return strings.Contains(homeText(h, alice), "From the cache of a chart")
	})
	h.Command(alice, bottest.General, "/docs-health", "")
	h.WaitFor("the Home republished with the docs health", func() bool {
		return strings.Contains(homeText(h, alice), "searches found nothing clicked")
	})
}

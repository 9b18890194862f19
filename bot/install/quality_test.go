package install_test

import (
	"encoding/csv"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/health"
	"github.com/docsbot/docsbot/bot/install"
	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store"
)

// TestQualityOfEachWorkspace: two workspaces share a docs project; the
// questions asked and signalled in each are counted in its own quality
// report, its editors' Home and its CSV file, never in the other's: the
// first workspace's one question resolved, the second's rated helpful and
// uncertain.
func TestQualityOfEachWorkspace(t *testing.T) {
	t.Parallel()
	h, f := installWorld(t)
	h.AddProject(bottest.Project{Name: "docs", API: h.API, Channels: []string{general, otherChan}, Teams: []string{primary, other}})
	r := h.StartBot(bottest.Config{Answers: true, Config: app.Config{
		Bot:     bot.Config{Mode: bot.ModeHTTP, SigningSecret: signingSecret, InstallMode: true},
		Install: install.Config{ClientID: clientID, ClientSecret: clientSecret, PublicURL: f.srv.URL, SecretsKeys: [][]byte{secretsKey}},
	}})
	f.add(t, r.URL)
	for _, in := range []struct{ team, user string }{{primary, alice}, {other, olive}} {
		installAs(h, f, in.team, in.user)
	}
	st := h.OpenStore()
	asked := func(team, channel, user, question, want string) slacktest.Message {
		t.Helper()
		before := len(h.Roots(channel))
		h.Command(user, channel, "/docs-ask", question)
		h.WaitFor("the question shown", func() bool { return len(h.Roots(channel)) > before })
		q := h.Roots(channel)[before]
		var answer slacktest.Message
		h.WaitFor("the answer to "+question, func() bool {
			for _, m := range h.Slack.Thread(channel, q.TS) {
				if m.BotID != "" && m.TS != q.TS && !m.Streaming && strings.Contains(string(m.Blocks), ask.ActionFeedback) {
					answer = m
					return true
				}
			}
			return false
		})
		h.WaitFor("the outcome "+want, func() bool {
			r, err := st.Outcomes().Outcome(t.Context(), store.OutcomeRef{Team: team, Channel: channel, TS: q.TS})
			return err == nil && r.Outcome == want
		})
		return answer
	}
	a := asked(primary, general, alice, "How do I install the CLI?", outcome.Open)
	if err := h.Slack.React(t.Context(), alice, general, a.TS, "white_check_mark"); err != nil {
		t.Fatal(err)
	}
	b := asked(other, otherChan, olive, "How do I rotate an API key?", outcome.Open)
	h.Act(slacktest.Action{UserID: olive, ChannelID: otherChan, MessageTS: b.TS, ActionID: ask.ActionFeedback, Value: "good"})
	asked(other, otherChan, olive, "Why is the office coffee machine always broken?", outcome.Uncertain)
	h.WaitFor("alice's question resolved", func() bool {
		r, err := st.Outcomes().Outcome(t.Context(), store.OutcomeRef{Team: primary, Channel: general, TS: a.TS})
		return err == nil && r.Outcome == outcome.Resolved
	})
	h.WaitFor("olive's question rated helpful", func() bool {
		r, err := st.Outcomes().Outcome(t.Context(), store.OutcomeRef{Team: other, Channel: otherChan, TS: b.TS})
		return err == nil && r.Outcome == outcome.RatedHelpful
	})

	for _, w := range []struct {
		team, channel, user string
		want                []string
		not                 string // the other workspace's question
	}{
		{primary, general, alice, []string{"Questions: 1", "Answered with sources: 1", "Resolved without a human: 1 (100.0%)",
			"Uncertain: 0", "Helpful: 0 of 0 rated"}, "coffee"},
		{other, otherChan, olive, []string{"Questions: 2", "Answered with sources: 1", "Resolved without a human: 0",
			"Uncertain: 1", "Helpful: 1 of 1 rated"}, "install the CLI"},
	} {
		h.Command(w.user, w.channel, health.Command, "quality")
		var report slacktest.Message
		h.WaitFor("the report in "+w.team, func() bool {
			roots := h.Roots(w.channel)
			report = roots[len(roots)-1]
			return strings.Contains(bottest.Rendered(report), "Answers from the docs")
		})
		text := bottest.Rendered(report)
		bottest.WantContains(t, w.team+"'s report", text, w.want...)
		if strings.Contains(text, w.not) {
			t.Errorf("%s's report shows the other workspace's question %q:\n%s", w.team, w.not, text)
		}

		if _, err := h.Slack.OpenHome(t.Context(), w.user); err != nil {
			t.Fatal(err)
		}
		var home string
		h.WaitFor(w.team+"'s editor's Home with the answers' figures", func() bool {
			v, _ := h.Slack.HomeView(w.user)
			home = string(v.Blocks)
			return strings.Contains(home, "Answers from the docs, last 7 days")
		})
		bottest.WantContains(t, w.team+"'s Home", home, w.want...)

		files := len(h.Slack.Files())
		h.Command(w.user, w.channel, health.Command, "quality csv")
		var file slacktest.File
		h.WaitFor("the CSV file in "+w.team, func() bool {
			all := h.Slack.Files()
			if len(all) > files && all[files].Completed {
				file = all[files]
			}
			return file.Completed
		})
		rows, err := csv.NewReader(strings.NewReader(string(file.Content))).ReadAll()
		if err != nil || len(rows) < 2 || file.Channel != w.channel {
			t.Fatalf("%s's CSV in %s: %q, %v", w.team, file.Channel, rows, err)
		}
		got := map[string]string{}
		for j, col := range rows[0] {
			got[col] = rows[1][j]
		}
		questions := strings.TrimPrefix(w.want[0], "Questions: ")
		if got["questions"] != questions {
			t.Errorf("%s's CSV counts %q questions, want %s: %q", w.team, got["questions"], questions, rows)
		}
	}
}

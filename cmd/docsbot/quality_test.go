package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/csvexport"
	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/store"
)

// TestQualityCommand prints, on the built binary, what the bot recorded of
// its questions: the figures of the last 7 days and of the 7 before, the
// topics it could not answer well, in text, JSON and CSV.
func TestQualityCommand(t *testing.T) {
	t.Parallel()
	st, prefix := sharedStore(t)
	now := time.Now().UTC()
	// The questions the bot recorded, and what followed them: this week's
	// and one of 9 days ago, in the week before.
	questions := []struct {
		text     string
		ago      time.Duration
		answered outcome.Kind
		then     []outcome.Event
	}{
		{"How do I install the CLI?", time.Hour, outcome.Answered, []outcome.Event{{Kind: outcome.Resolve, By: "U0ASKER"}}},
		{"How do I rotate an API key?", 2 * time.Hour, outcome.Answered, []outcome.Event{{Kind: outcome.Handoff}}},
		{"Why is the coffee machine broken?", 3 * time.Hour, outcome.AnsweredUncertain, nil},
		{"why is the coffee machine broken", 4 * time.Hour, outcome.AnsweredUncertain, nil},
		{"Where are the audit logs?", 9 * 24 * time.Hour, outcome.Answered,
			[]outcome.Event{{Kind: outcome.Press, By: "U0ASKER", Choice: store.VoteUp, At: "1800000000.000100"}}},
	}
	for i, q := range questions {
		asked := now.Add(-q.ago)
		ts := fmt.Sprintf("%d.%06d", asked.Unix(), i)
		ref := store.OutcomeRef{Team: "T1", Channel: "C1", TS: ts}
		create := &store.OutcomeRecord{Project: "", Team: "T1", Channel: "C1", TS: ts, Asker: "U0ASKER", Asked: asked,
			Question: outcome.Question(q.text), Topic: outcome.TopicOf(q.text), FirstText: time.Duration(i+1) * time.Second}
		if _, err := outcome.Record(t.Context(), st.Outcomes(), ref, create, outcome.Event{Kind: q.answered}, asked); err != nil {
			t.Fatal(err)
		}
		for _, ev := range q.then {
			if _, err := outcome.Record(t.Context(), st.Outcomes(), ref, nil, ev, asked.Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
	}
	env := []string{envRedisURL + "=" + sharedRedis.URL, envRedisPrefix + "=" + prefix}

	res := docsbot(t, nil, env, "quality", "--format", "json")
	var reps []outcome.Report
	if res.code != 0 || json.Unmarshal([]byte(res.stdout), &reps) != nil || len(reps) != 1 || reps[0].Team != "T1" {
		t.Fatalf("docsbot quality --format json: exit %d, %s%s", res.code, res.stdout, res.stderr)
	}
	p, b := reps[0].Period, reps[0].Before
	// This week: 4 questions, 2 answered with sources (one resolved by its
	// asker, one handed off), 2 uncertain, asking one thing; first texts
	// of 1 to 4 s: a median of 2.5 s. The week before: the one rated
	// helpful, its first text 5 s.
	if p.Questions != 4 || p.Sources != 2 || p.Resolved != 1 || p.HandedOff != 1 || p.Uncertain != 2 || p.Timed != 4 || p.MedianFirstTextMS != 2500 {
		t.Errorf("the week's figures %+v", p)
	}
	if b.Questions != 1 || b.RatedHelpful != 1 || b.Rated != 1 || b.Helpful != 1 || b.MedianFirstTextMS != 5000 {
		t.Errorf("the week before's figures %+v", b)
	}
	if g := reps[0].Gaps; len(g) != 1 || g[0].Questions != 2 || g[0].Question != "Why is the coffee machine broken?" && g[0].Question != "why is the coffee machine broken" {
		t.Errorf("the gaps %+v, want the coffee machine's 2 questions", g)
	}

	res = docsbot(t, nil, env, "quality", "--since", "7d")
	bottest.WantContains(t, "the text", res.stdout, "Questions", "Resolved without a human", "1 (25.0%)", "Median time to the first text", "2.5 s",
		"Questions docsbot could not answer well", "coffee machine")

	res = docsbot(t, nil, env, "quality", "--format", "csv")
	rows, err := csv.NewReader(strings.NewReader(res.stdout)).ReadAll()
	if err != nil || len(rows) != 3 || strings.Join(rows[0], ",") != strings.Join(csvexport.QualityColumns, ",") || rows[1][5] != "4" || rows[2][5] != "1" {
		t.Errorf("the CSV: %q, %v", rows, err)
	}
	if strings.Contains(res.stdout, "coffee") {
		t.Errorf("the CSV holds a question's words:\n%s", res.stdout)
	}

	if res := docsbot(t, nil, env, "quality", "--since", "60d"); res.code != cli.ExitUsage || !strings.Contains(res.stderr, "45") {
		t.Errorf("--since 60d: exit %d, %s; want a usage error naming the 45 days", res.code, res.stderr)
	}

	// With a projects file: each project's report, by its name; a
	// question of project docs is in its report alone.
	ts := fmt.Sprintf("%d.000009", now.Unix())
	create := &store.OutcomeRecord{Project: "docs", Team: "T1", Channel: "C1", TS: ts, Asker: "U0ASKER", Asked: now}
	if _, err := outcome.Record(t.Context(), st.Outcomes(), store.OutcomeRef{Team: "T1", Channel: "C1", TS: ts}, create,
		outcome.Event{Kind: outcome.Answered}, now); err != nil {
		t.Fatal(err)
	}
	projects := twoProjects(t)
	for k, v := range projects.env {
		env = append(env, k+"="+v)
	}
	res = docsbot(t, nil, env, "quality", "--format", "json")
	reps = nil
	if res.code != 0 || json.Unmarshal([]byte(res.stdout), &reps) != nil || len(reps) != 2 {
		t.Fatalf("docsbot quality with two projects: exit %d, %s%s", res.code, res.stdout, res.stderr)
	}
	if reps[0].Project != "docs" || reps[0].Team != "T1" || reps[0].Period.Questions != 1 || reps[1].Project != "api" || reps[1].Period.Questions != 0 {
		t.Errorf("the projects' reports: %+v", reps)
	}

	// Another workspace's question of the same project is in its own
	// report; --team keeps one.
	ts = fmt.Sprintf("%d.000010", now.Unix())
	create = &store.OutcomeRecord{Project: "docs", Team: "T2", Channel: "C1", TS: ts, Asker: "U0OTHER", Asked: now}
	if _, err := outcome.Record(t.Context(), st.Outcomes(), store.OutcomeRef{Team: "T2", Channel: "C1", TS: ts}, create,
		outcome.Event{Kind: outcome.AnsweredUncertain}, now); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args  []string
		teams []string
	}{
		{[]string{"quality", "--project", "docs", "--format", "json"}, []string{"T1", "T2"}},
		{[]string{"quality", "--project", "docs", "--team", "T2", "--format", "json"}, []string{"T2"}},
	} {
		res = docsbot(t, nil, env, tc.args...)
		reps = nil
		if res.code != 0 || json.Unmarshal([]byte(res.stdout), &reps) != nil || len(reps) != len(tc.teams) {
			t.Fatalf("%q: exit %d, %s%s", tc.args, res.code, res.stdout, res.stderr)
		}
		for i, r := range reps {
			if r.Team != tc.teams[i] || r.Period.Questions != 1 {
				t.Errorf("%q: report %d is %s's of %d questions, want %s's of 1", tc.args, i, r.Team, r.Period.Questions, tc.teams[i])
			}
		}
	}
}

// TestQualityConnected: the projects workspaces connected in Slack are
// reported too, each in the workspace that connected it alone (NAME@TEAM),
// without the secrets key; --team keeps one workspace's, --project one
// project's.
func TestQualityConnected(t *testing.T) {
	t.Parallel()
	st, prefix := sharedStore(t)
	now := time.Now().UTC()
	conns := st.Connections(mustSealer(t, bytes.Repeat([]byte{7}, 32)))
	for _, c := range []store.Connection{
		{Team: "T1", Name: "handbook", ProjectID: "p-hb", APIKey: "mint_handbook_key_0001", By: "U1", At: now},
		{Team: "T2", Name: "handbook", ProjectID: "p-hb2", APIKey: "mint_handbook_key_0002", By: "U2", At: now},
		{Team: "T2", Name: "api", ProjectID: "p-api", APIKey: "mint_api_key_0003", By: "U2", At: now},
	} {
		if err := conns.Save(t.Context(), c); err != nil {
			t.Fatal(err)
		}
	}
	// Two questions of T2's handbook, one of T1's, one of the implicit
	// project in T1.
	for i, q := range []struct{ project, team string }{{"handbook@T2", "T2"}, {"handbook@T2", "T2"}, {"handbook@T1", "T1"}, {"", "T1"}} {
		ts := fmt.Sprintf("%d.%06d", now.Unix(), i)
		create := &store.OutcomeRecord{Project: q.project, Team: q.team, Channel: "C1", TS: ts, Asker: "U0ASKER", Asked: now}
		if _, err := outcome.Record(t.Context(), st.Outcomes(), store.OutcomeRef{Team: q.team, Channel: "C1", TS: ts}, create,
			outcome.Event{Kind: outcome.Answered}, now); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{envRedisURL + "=" + sharedRedis.URL, envRedisPrefix + "=" + prefix}
	for _, tc := range []struct {
		args []string
		want []string // each report: project, workspace, questions
	}{
		{nil, []string{"/T1/1", "handbook@T1/T1/1", "api@T2/T2/0", "handbook@T2/T2/2"}},
		{[]string{"--team", "T2"}, []string{"/T2/0", "api@T2/T2/0", "handbook@T2/T2/2"}},
		{[]string{"--project", "handbook"}, []string{"handbook@T1/T1/1", "handbook@T2/T2/2"}},
		{[]string{"--project", "handbook", "--team", "T1"}, []string{"handbook@T1/T1/1"}},
	} {
		res := docsbot(t, nil, env, append([]string{"quality", "--format", "json"}, tc.args...)...)
		var reps []outcome.Report
		if res.code != 0 || json.Unmarshal([]byte(res.stdout), &reps) != nil {
			t.Fatalf("%q: exit %d, %s%s", tc.args, res.code, res.stdout, res.stderr)
		}
		var got []string
		for _, r := range reps {
			got = append(got, fmt.Sprintf("%s/%s/%d", r.Project, r.Team, r.Period.Questions))
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%q: reports %q, want %q", tc.args, got, tc.want)
		}
	}
}

package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// TestProjectsCommandGoesToItsProject: a command reaches the docs API of the
// project it is for: the channel's default, or project=NAME (taken out of
// the instruction), which overrides the channel's; the root message, the
// job record and the audit trail name the project.
func TestProjectsCommandGoesToItsProject(t *testing.T) {
	t.Parallel()
	w := newProjectsWorld(t, bottest.LongJobs())
	w.start(projectsBot{})
	cases := []struct {
		name, channel, text string
		want, prompt        string
	}{
		{"docs channel", chDocs, "Add a quickstart", "docs", "Add a quickstart"},
		{"api channel", chAPI, "Document the rate limits", "api", "Document the rate limits"},
		{"token in a channel of neither", general, "project=api Describe pagination", "api", "Describe pagination"},
		{"token overrides the channel's", chDocs, "Explain webhooks project=API", "api", "Explain webhooks"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := w.creates()
			n := len(w.servers[tc.want].Jobs())
			w.Command(alice, tc.channel, agent.Command, tc.text)
			job := w.newJob(tc.want, n)
			if got := w.servers[tc.want].Prompts(job.ID); len(got) != 1 || got[0] != tc.prompt {
				t.Errorf("project %s's API got prompts %q, want %q", tc.want, got, tc.prompt)
			}
			root := w.rootOf(tc.channel, "", job.ID)
			if r := rendered(root); !strings.Contains(r, "Project: `"+tc.want+"`") || strings.Contains(r, "project=") {
				t.Errorf("root message %q does not name project %s, or shows the project= word", r, tc.want)
			}
			after := w.creates()
			for name := range after {
				want := before[name]
				if name == tc.want {
					want++
				}
				if after[name] != want {
					t.Errorf("project %s's API was asked to create %d jobs, want %d", name, after[name]-before[name], want-before[name])
				}
			}
			// A root posted once the job exists (a channel posted in
			// lately) shows it a moment before the link is saved.
			var rec *store.Job
			w.WaitFor("the job's record", func() bool {
				r, err := w.st.Jobs().Job(context.Background(), job.ID)
				rec = r
				return err == nil
			})
			if rec.Project != tc.want {
				t.Errorf("job record project = %q; want %q", rec.Project, tc.want)
			}
		})
	}
	// project=NAME is the person's choice: remembered.
	if last, err := w.st.Choices().LastProject(context.Background(), team, alice); err != nil || last != "api" {
		t.Errorf("last choice after project=api = %q, %v; want api", last, err)
	}
	w.WaitFor("the starts' audit records", func() bool { return len(w.audit()) >= len(cases) })
	for _, rec := range w.audit() {
		if rec.Action == store.AuditJobStart && rec.Project == "" {
			t.Errorf("audit record of a start without its project: %+v", rec)
		}
	}
}

// TestProjectsUnknownProjectAnsweredPrivately: a project=NAME that names no
// project, or two projects, is answered privately with the projects'
// names, the person's text escaped; a project=NAME alone is remembered and
// said so; no API is asked anything.
func TestProjectsUnknownProjectAnsweredPrivately(t *testing.T) {
	t.Parallel()
	w := newProjectsWorld(t)
	w.start(projectsBot{})
	cases := []struct {
		name, text, want string
	}{
		{"unknown", "project=nope Write a FAQ", "There is no docs project `nope`"},
		{"unknown, with markup", "project=<b>x Write a FAQ", "There is no docs project `&lt;b&gt;x`"},
		{"two projects", "project=docs Write a FAQ project=api", "names two docs projects, `docs` and `api`"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w.Command(alice, chDocs, agent.Command, slacktest.Escape(tc.text))
			w.WaitFor("the private answer "+tc.want, func() bool { return w.said(alice, tc.want) })
			if !w.said(alice, "`docs`, `api`") {
				t.Errorf("the answer does not list the projects: %v", w.Slack.Ephemerals(alice))
			}
		})
	}
	// project=NAME alone starts nothing: it is remembered, and said so.
	w.Command(bob, general, agent.Command, "project=api")
	w.WaitFor("bob told his jobs now go to api", func() bool { return w.said(bob, "Your docs agent jobs now go to the docs project `api`") })
	if last, err := w.st.Choices().LastProject(context.Background(), team, bob); err != nil || last != "api" {
		t.Errorf("last choice after project=api alone = %q, %v; want api", last, err)
	}
	w.Idle()
	if c := w.creates(); c["docs"] != 0 || c["api"] != 0 {
		t.Errorf("creates = %v, want none", c)
	}
	if n := len(w.Roots(chDocs)) + len(w.Roots(general)); n != 0 {
		t.Errorf("%d root messages posted, want none", n)
	}
	for _, m := range w.Privates(alice, "<b>") {
		t.Errorf("the answer shows the person's markup unescaped: %q", m.Text)
	}
}

// TestProjectsAskWithButtons: a start that no project=NAME, channel or
// earlier choice decides asks its person privately, with a button per
// project, whichever way it came (a command, a mention, a DM); a click
// starts it in that project's API with the whole instruction (longer than
// a button's value can hold), replaces the question, and is remembered: the
// person's next command without a project goes there without asking.
func TestProjectsAskWithButtons(t *testing.T) {
	t.Parallel()
	w := newProjectsWorld(t, bottest.LongJobs())
	w.start(projectsBot{})
	long := "Rewrite the getting started guide. " + strings.Repeat("Keep every code sample working. ", 80)
	cases := []struct {
		name, user, choose string
		send               func(user string) (channel, thread string)
	}{
		{"command", alice, "api", func(user string) (string, string) {
			w.Command(user, general, agent.Command, long)
			return general, ""
		}},
		{"mention", bob, "docs", func(user string) (string, string) {
			return general, w.mention(user, general, "", long).TS
		}},
		{"direct message", carol, "api", func(user string) (string, string) {
			dm, err := w.Slack.OpenDM(user)
			if err != nil {
				t.Fatal(err)
			}
			return dm, w.userMessage(user, dm, "", long)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := w.creates()
			channel, thread := tc.send(tc.user)
			q := w.question(tc.user)
			if !strings.Contains(rendered(q), "Which docs project should the agent work in?") {
				t.Errorf("question = %q", rendered(q))
			}
			if c := w.creates(); c["docs"] != before["docs"] || c["api"] != before["api"] {
				t.Errorf("a job was created before the person chose: %v", c)
			}
			n := len(w.servers[tc.choose].Jobs())
			w.act(tc.user, q, agent.ActionChooseProject, tc.choose)
			job := w.newJob(tc.choose, n)
			if got := w.servers[tc.choose].Prompts(job.ID); len(got) != 1 || got[0] != strings.TrimSpace(long) {
				t.Errorf("the API got %d prompts (first %d characters), want the whole instruction (%d)", len(got), len(strings.Join(got, "")), len(strings.TrimSpace(long)))
			}
			w.rootOf(channel, thread, job.ID)
			w.WaitFor("the question replaced by what happens", func() bool {
				return w.said(tc.user, "Starting the docs agent in the project `"+tc.choose+"`")
			})
			if last, err := w.st.Choices().LastProject(context.Background(), team, tc.user); err != nil || last != tc.choose {
				t.Errorf("last choice = %q, %v; want %q", last, err, tc.choose)
			}
		})
	}

	// The choice stands: alice's next command in #general goes to api.
	n := len(w.servers["api"].Jobs())
	asked := len(w.Slack.Ephemerals(alice))
	w.Command(alice, general, agent.Command, "Add a changelog entry")
	job := w.newJob("api", n)
	w.rootOf(general, "", job.ID)
	for _, m := range w.Slack.Ephemerals(alice)[asked:] {
		if strings.Contains(string(m.Blocks), agent.ActionChooseProject) {
			t.Errorf("asked again after the person chose: %q", m.Text)
		}
	}
}

// TestProjectsChoiceAfterTheStartWasForgotten: a click on a project after
// the start waited longer than it is kept is told so, and starts nothing.
func TestProjectsChoiceAfterTheStartWasForgotten(t *testing.T) {
	t.Parallel()
	w := newProjectsWorld(t)
	w.start(projectsBot{pendingTTL: 50 * time.Millisecond})
	w.Command(alice, general, agent.Command, "Write a glossary")
	q := w.question(alice)
	id := pendingOf(t, buttonValue(t, q, agent.ActionChooseProject, "docs"))
	redistest.Until(t, "the pending start to be forgotten", func() bool {
		_, err := w.st.PendingStarts().Pending(context.Background(), id)
		return errors.Is(err, store.ErrNotFound)
	})
	w.act(alice, q, agent.ActionChooseProject, "docs")
	w.WaitFor("the person told the start was forgotten", func() bool { return w.said(alice, "docsbot forgot it and nothing was started") })
	w.Idle()
	if c := w.creates(); c["docs"] != 0 || c["api"] != 0 {
		t.Errorf("creates = %v, want none", c)
	}
}

// pendingOf is the pending start's id in a project button's value.
func pendingOf(t *testing.T, value string) string {
	t.Helper()
	_, rest, ok := strings.Cut(value, `"k":"`)
	id, _, ok2 := strings.Cut(rest, `"`)
	if !ok || !ok2 || id == "" {
		t.Fatalf("button value %q names no pending start", value)
	}
	return id
}

// TestProjectsFollowUpAndPollsUseTheJobsProject: a job's polls and its
// follow-ups go to its own project's API, never the other's; its result,
// list and status name the project.
func TestProjectsFollowUpAndPollsUseTheJobsProject(t *testing.T) {
	t.Parallel()
	w := newProjectsWorld(t)
	w.start(projectsBot{})
	job, root := w.startInAPI(alice, "Document the errors")
	w.WaitFor("the result", func() bool { return len(w.Finishes(chAPI, root.TS)) == 1 })
	if r := rendered(w.Finishes(chAPI, root.TS)[0]); !strings.Contains(r, "Project: `api`") {
		t.Errorf("result %q does not name the project", r)
	}
	w.Reply(alice, chAPI, root.TS, "Also list the error codes")
	w.WaitFor("the follow-up's result", func() bool { return len(w.Finishes(chAPI, root.TS)) == 2 })
	api, docs := w.servers["api"], w.servers["docs"]
	if got := api.Prompts(job.ID); len(got) != 2 || got[1] != "Also list the error codes" {
		t.Errorf("api's API got prompts %q, want the instruction and the follow-up", got)
	}
	if api.Count(docsapitest.EndpointGet) == 0 || api.Count(docsapitest.EndpointMessage) != 1 {
		t.Errorf("api's API got %d polls and %d follow-ups, want polls and 1 follow-up",
			api.Count(docsapitest.EndpointGet), api.Count(docsapitest.EndpointMessage))
	}
	for _, e := range []docsapitest.Endpoint{docsapitest.EndpointCreate, docsapitest.EndpointGet, docsapitest.EndpointMessage} {
		if n := docs.Count(e); n != 0 {
			t.Errorf("docs's API got %d %s requests, want none", n, e)
		}
	}
	w.Command(alice, chAPI, agent.Command, "list")
	w.WaitFor("the list naming the project", func() bool { return w.said(alice, job.ID+"` · project `api`") })
	listed := len(w.Privates(alice, "project `api`"))
	w.Command(alice, chAPI, agent.Command, "status "+job.ID)
	w.WaitFor("the status naming the project", func() bool { return len(w.Privates(alice, "project `api`")) > listed })
}

// TestProjectsEditorsPerProject: the editors of a project decide in that
// project only: a person who is not one is refused privately there, with
// nothing asked of any API and the refusal audited with the project, and
// may still start jobs in the other project; their reply in a job's thread
// of the project is refused too.
func TestProjectsEditorsPerProject(t *testing.T) {
	t.Parallel()
	w := newProjectsWorldOf(t, projectsOf{apiEditors: []string{bob}}, bottest.LongJobs())
	w.start(projectsBot{})

	w.Command(alice, chAPI, agent.Command, "Document the errors")
	w.WaitFor("alice refused in project api", func() bool { return w.said(alice, "<@"+bob+">") })
	if c := w.creates(); c["docs"] != 0 || c["api"] != 0 {
		t.Errorf("creates after a refusal = %v, want none", c)
	}

	w.Command(alice, chDocs, agent.Command, "Document the SDK")
	w.rootOf(chDocs, "", w.newJob("docs", 0).ID)

	_, root := w.startInAPI(bob, "Document the errors")
	refusals := len(w.Privates(alice, "<@"+bob+">"))
	w.Reply(alice, chAPI, root.TS, "Also list the codes")
	w.WaitFor("alice's follow-up refused", func() bool { return len(w.Privates(alice, "<@"+bob+">")) > refusals })
	w.Idle()
	if n := w.servers["api"].Count(docsapitest.EndpointMessage); n != 0 {
		t.Errorf("%d follow-ups sent, want none", n)
	}
	refused := 0
	for _, rec := range w.audit() {
		if rec.Action == store.AuditRefusal && rec.User == alice {
			refused++
			if rec.Project != "api" {
				t.Errorf("refusal audited with project %q, want api: %+v", rec.Project, rec)
			}
		}
	}
	if refused != 2 {
		t.Errorf("%d refusals of alice audited, want 2", refused)
	}
}

// TestProjectsModalSelectAndSwitch: the job modal has a project select
// starting at the channel's project; the project chosen there is the job's
// (and the person's last choice when they changed it). The root message's
// Switch project button opens the modal with the same instruction and no
// project chosen, and its submission starts the job anew in the project
// picked.
func TestProjectsModalSelectAndSwitch(t *testing.T) {
	t.Parallel()
	w := newProjectsWorld(t, bottest.LongJobs())
	w.start(projectsBot{})
	w.Command(alice, chAPI, agent.Command, "")
	v := w.modalOf(alice)
	if typ, initial := projectSelectOf(t, v); typ != "static_select" || initial != "api" {
		t.Fatalf("modal's project select is %q starting at %q, want a static_select at api: %s", typ, initial, v.Blocks)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	submit := func(viewID, instruction, proj string) {
		t.Helper()
		if _, err := w.Slack.SubmitView(ctx, slacktest.ViewSubmission{ViewID: viewID, Values: map[string]map[string]string{
			"instruction": {"instruction": instruction}, "project": {"project": proj}}}); err != nil {
			t.Fatal(err)
		}
	}
	submit(v.ID, "Write the migration guide", "docs")
	job := w.newJob("docs", 0)
	root := w.rootOf(chAPI, "", job.ID)
	if last, err := w.st.Choices().LastProject(ctx, team, alice); err != nil || last != "docs" {
		t.Errorf("last choice = %q, %v; want docs, chosen instead of the channel's", last, err)
	}

	w.act(alice, root, agent.ActionSwitchProject, "Switch project")
	var sw slacktest.View
	w.WaitFor("the job modal of Switch project", func() bool {
		for _, m := range w.Slack.OpenModals(alice) {
			if m.CallbackID == agent.ViewJob && m.ID != v.ID {
				sw = m
				return true
			}
		}
		return false
	})
	if typ, initial := projectSelectOf(t, sw); !strings.Contains(string(sw.Blocks), "Write the migration guide") || typ != "static_select" || initial != "" {
		t.Errorf("Switch project's modal is not prefilled, or has no project select, or one with a project chosen: %s", sw.Blocks)
	}
	submit(sw.ID, "Write the migration guide", "api")
	again := w.newJob("api", 0)
	if got := w.servers["api"].Prompts(again.ID); len(got) != 1 || got[0] != "Write the migration guide" {
		t.Errorf("api's API got %q", got)
	}
	w.rootOf(chAPI, "", again.ID)
	if n := w.servers["docs"].Count(docsapitest.EndpointCreate); n != 1 {
		t.Errorf("docs's API was asked to create %d jobs, want 1", n)
	}

	// Submitted as it opened, the select's project is the job's: Bob's
	// modal in #api-ref starts at api.
	w.Command(bob, chAPI, agent.Command, "")
	bv := w.modalOf(bob)
	if _, err := w.Slack.SubmitView(ctx, slacktest.ViewSubmission{ViewID: bv.ID, Values: map[string]map[string]string{
		"instruction": {"instruction": "Fix the SDK examples"}}}); err != nil {
		t.Fatal(err)
	}
	w.rootOf(chAPI, "", w.newJob("api", 1).ID)
}

// TestProjectsJobOfARemovedProject: a job whose project was removed from the
// projects file is no longer polled (no API serves it): the requester is
// told privately, and the job leaves the schedule.
func TestProjectsJobOfARemovedProject(t *testing.T) {
	t.Parallel()
	w := newProjectsWorld(t, bottest.LongJobs())
	stop := w.start(projectsBot{})
	job, _ := w.startInAPI(alice, "Document the errors")
	stop()
	polls := w.servers["api"].Count(docsapitest.EndpointGet)

	w.start(projectsBot{only: "docs"})
	w.WaitFor("the requester told", func() bool { return w.said(alice, "docsbot stopped following your docs agent job `"+job.ID+"`") })
	w.WaitFor("the job out of the schedule", func() bool {
		n, err := w.st.Jobs().Tracked(context.Background())
		return err == nil && n == 0
	})
	if n := w.servers["api"].Count(docsapitest.EndpointGet); n != polls {
		t.Errorf("the removed project's API was polled %d more times", n-polls)
	}
	if n := w.servers["docs"].Count(docsapitest.EndpointGet); n != 0 {
		t.Errorf("the other project's API was asked about the job %d times", n)
	}
}

// projectSelectOf returns the type of the job modal's project select and
// the value it starts at.
func projectSelectOf(t *testing.T, v slacktest.View) (typ, initial string) {
	t.Helper()
	var blocks []struct {
		BlockID string `json:"block_id"`
		Element struct {
			Type          string `json:"type"`
			InitialOption *struct {
				Value string `json:"value"`
			} `json:"initial_option"`
		} `json:"element"`
	}
	if err := json.Unmarshal(v.Blocks, &blocks); err != nil {
		t.Fatalf("modal blocks: %v", err)
	}
	for _, b := range blocks {
		if b.BlockID == "project" {
			if b.Element.InitialOption != nil {
				initial = b.Element.InitialOption.Value
			}
			return b.Element.Type, initial
		}
	}
	return "", ""
}

// TestProjectsModalWaysIn: every way into the job modal shows the project
// select, starting at the project the job would go to: the channel's, the
// visitors summary's, the person's last choice; the first project when
// nothing says.
func TestProjectsModalWaysIn(t *testing.T) {
	t.Parallel()
	w := newProjectsWorld(t)
	w.start(projectsBot{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := w.st.Choices().SetLastProject(ctx, team, bob, "api"); err != nil {
		t.Fatal(err)
	}
	improve := func(channel, value string) func(user string) {
		return func(user string) {
			_, ts, err := w.BotClient().PostMessage(channel, slack.MsgOptionText("Visitors", false), slack.MsgOptionBlocks(
				slack.NewActionBlock("pages", slack.NewButtonBlockElement(jobdraft.ActionImprovePage, value, slack.NewTextBlockObject(slack.PlainTextType, "Improve this page", false, false)))))
			if err != nil {
				t.Fatal(err)
			}
			w.Act(slacktest.Action{UserID: user, ChannelID: channel, MessageTS: ts, ActionID: jobdraft.ActionImprovePage})
		}
	}
	cases := []struct {
		name, user, want string
		open             func(user string)
	}{
		{"command alone, project channel", alice, "docs", func(user string) { w.Command(user, chDocs, agent.Command, "") }},
		{"command alone, last choice", bob, "api", func(user string) { w.Command(user, general, agent.Command, "") }},
		{"command alone, nothing says: the first project", carol, "docs", func(user string) { w.Command(user, general, agent.Command, "") }},
		{"message shortcut", alice, "api", func(user string) {
			ts := w.userMessage(bob, chAPI, "", "The auth page is wrong")
			w.Shortcut(slacktest.MessageShortcut{UserID: user, CallbackID: agent.ShortcutSendToAgent, ChannelID: chAPI, MessageTS: ts})
		}},
		{"improve page, the summary's project", alice, "api", improve(general, `{"path":"/x","project":"api"}`)},
		{"improve page, the channel's project", carol, "docs", improve(chDocs, `{"path":"/x"}`)},
		{"home's new job button", bob, "api", func(user string) {
			dm, err := w.Slack.OpenDM(user)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.BotClient().PublishViewContext(ctx, slack.PublishViewContextRequest{UserID: user, View: slack.HomeTabViewRequest{Type: slack.VTHomeTab,
				Blocks: slack.Blocks{BlockSet: []slack.Block{slack.NewActionBlock("home", slack.NewButtonBlockElement(jobdraft.ActionNewJob, dm,
					slack.NewTextBlockObject(slack.PlainTextType, "New docs job", false, false)))}}}}); err != nil {
				t.Fatal(err)
			}
			home, _ := w.Slack.HomeView(user)
			w.Act(slacktest.Action{UserID: user, ViewID: home.ID, ActionID: jobdraft.ActionNewJob})
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.open(tc.user)
			v := w.modalOf(tc.user)
			if typ, initial := projectSelectOf(t, v); typ != "static_select" || initial != tc.want {
				t.Errorf("project select %q starting at %q, want a static_select at %q", typ, initial, tc.want)
			}
			if _, err := w.Slack.CloseView(ctx, v.ID); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestProjectsListOfOneProject: "project=NAME list" lists that project's
// jobs alone, by a slash command and by a mention, starting nothing; a list
// of a project that does not exist says so; help says how projects are
// chosen.
func TestProjectsListOfOneProject(t *testing.T) {
	t.Parallel()
	w := newProjectsWorld(t, bottest.LongJobs())
	w.start(projectsBot{})
	w.Command(alice, chDocs, agent.Command, "Add a quickstart")
	docsJob := w.newJob("docs", 0)
	w.Command(alice, chAPI, agent.Command, "Document the rate limits")
	apiJob := w.newJob("api", 0)
	w.Idle()
	creates := w.creates()

	w.Command(alice, general, agent.Command, "project=api list")
	w.WaitFor("the list of project api", func() bool { return w.said(alice, "jobs in the project `api`") })
	w.mention(alice, general, "", "list project=docs")
	w.WaitFor("the list of project docs", func() bool { return w.said(alice, "jobs in the project `docs`") })
	w.Command(alice, general, agent.Command, "project=nope list")
	w.WaitFor("the answer about project nope", func() bool { return w.said(alice, "There is no docs project `nope`") })
	help := w.Command(alice, general, agent.Command, "project=api help")
	if text := string(help.Payload); !strings.Contains(text, "ephemeral") || !strings.Contains(text, "*Docs projects.*") || !strings.Contains(text, "`api`") {
		t.Errorf("help with projects = %s, want a private answer saying how a project is chosen, naming api", text)
	}
	w.Idle()
	for _, m := range w.Slack.Ephemerals(alice) {
		text := m.Text + rendered(m)
		switch {
		case strings.Contains(text, "jobs in the project `api`"):
			if !strings.Contains(text, apiJob.ID) || strings.Contains(text, docsJob.ID) {
				t.Errorf("list of project api = %q, want %s and not %s", text, apiJob.ID, docsJob.ID)
			}
		case strings.Contains(text, "jobs in the project `docs`"):
			if !strings.Contains(text, docsJob.ID) || strings.Contains(text, apiJob.ID) {
				t.Errorf("list of project docs = %q, want %s and not %s", text, docsJob.ID, apiJob.ID)
			}
		}
	}
	if got := w.creates(); got["docs"] != creates["docs"] || got["api"] != creates["api"] {
		t.Errorf("creates after the lists = %v, want %v: a list starts nothing", got, creates)
	}
}

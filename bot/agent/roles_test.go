package agent_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// editors is the user group of the editors in these tests.
const editors = "S0EDITORS"

// audit reads the world's audit trail.
func (h *harness) audit() []store.AuditRecord {
	h.T.Helper()
	st := h.OpenStore()
	var recs []store.AuditRecord
	err := st.AuditLog(store.AuditOptions{}).Each(context.Background(), store.AuditQuery{}, func(r store.AuditRecord) error {
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		h.T.Fatalf("reading the audit trail: %v", err)
	}
	return recs
}

func TestViewersAreRefusedFromEveryWayIn(t *testing.T) {
	t.Parallel()
	h := newHarness(t, bottest.LongJobs())
	const viewer = "U0VIEWER"
	h.Slack.AddUser(viewer, "viewer")
	h.Slack.AddUserGroup(editors, alice)
	h.StartBot(bottest.Config{Editors: []string{editors, bob}})
	rootTS, jobID := h.startedJob("Write a glossary") // alice, an editor by the user group

	// Each way in says what it refused: a job, or a follow-up.
	const refused = "Only editors can start docs agent jobs"
	n := 0
	h.everyWayIn(viewer, rootTS, func(what string) {
		h.T.Helper()
		n++
		h.WaitFor(what+": the private refusal", func() bool { return len(h.Privates(viewer, "Only editors can ")) >= n })
	})
	for _, text := range []string{"", "Write docs"} {
		ack := h.Command(viewer, general, agent.Command, text)
		var p struct {
			ResponseType string `json:"response_type"`
			Text         string `json:"text"`
		}
		if err := json.Unmarshal(ack.Payload, &p); err != nil {
			t.Fatalf("ack payload %s: %v", ack.Payload, err)
		}
		if p.ResponseType != "ephemeral" || !strings.Contains(p.Text, refused) ||
			!strings.Contains(p.Text, "<!subteam^"+editors+">") || !strings.Contains(p.Text, "<@"+bob+">") {
			t.Errorf("/docs-agent %q acked %s, want a private refusal naming the editors", text, ack.Payload)
		}
	}
	// A viewer may still list.
	h.Command(viewer, general, agent.Command, "list")
	h.WaitFor("the viewer's list", func() bool { return len(h.Privates(viewer, "You started no docs agent job")) == 1 })
	h.StopAll()

	h.WantRequests(docsapitest.EndpointCreate, 1, "alice's only")
	h.WantRequests(docsapitest.EndpointMessage, 0, "")
	if p := h.API.Prompts(jobID); len(p) != 1 {
		t.Errorf("prompts of alice's job %q: the viewer's reply reached it", p)
	}
	if n := len(h.Slack.OpenModals(viewer)); n != 0 {
		t.Errorf("%d modals opened for a viewer, want none", n)
	}
	var ways []string
	for _, r := range h.audit() {
		if r.Action == store.AuditRefusal {
			if r.User != viewer || r.Outcome != "refused" || r.Work == "" {
				t.Errorf("refusal record %+v", r)
			}
			ways = append(ways, r.Detail)
		}
	}
	slices.Sort(ways)
	want := []string{"/docs-agent", "/docs-agent", "follow-up", "improve-page button", "mention or DM", "mention or DM", "mention or DM", "shortcut"}
	if !slices.Equal(ways, want) {
		t.Errorf("refusals audited %q, want %q", ways, want)
	}
}

func TestUndecidedRoleIsDecidedByTheWork(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	// Slack knows no such group: the role cannot be decided in the ack, so
	// the command is accepted, and its work refuses it, saying why.
	h.StartBot(bottest.Config{Editors: []string{"S0UNKNOWN"}})
	ack := h.Command(alice, general, agent.Command, "Write docs")
	if strings.Contains(string(ack.Payload), "editor") {
		t.Errorf("ack %s: the role was decided in the ack", ack.Payload)
	}
	h.WaitFor("the private refusal from the work", func() bool { return len(h.Privates(alice, "could not check whether you are an editor")) == 1 })
	h.StopAll()
	h.WantRequests(docsapitest.EndpointCreate, 0, "")
	if n := len(h.Roots(general)); n != 0 {
		t.Errorf("%d root messages, want none", n)
	}
	recs := h.audit()
	if len(recs) != 1 || recs[0].Action != store.AuditRefusal || recs[0].Detail != "job start" || recs[0].InstructionLen != 10 {
		t.Errorf("audit %+v, want the refusal of the start", recs)
	}
}

func TestAuditTrailOfAJob(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.Slack.AddUserGroup(editors, alice, bob)
	h.StartBot(bottest.Config{Editors: []string{editors}, AuditText: true})
	h.Command(alice, general, agent.Command, "Document the CLI")
	h.WaitFor("a root message", func() bool { return len(h.Roots(general)) == 1 })
	root := h.Roots(general)[0]
	h.WaitFor("the first result", func() bool { return len(h.Finishes(general, root.TS)) == 1 })
	h.Reply(bob, general, root.TS, "Add an example")
	h.WaitFor("the second result", func() bool { return len(h.Finishes(general, root.TS)) == 2 })
	h.WaitFor("four audit records", func() bool { return len(h.audit()) == 4 })
	h.Settle()
	job := h.API.Jobs()[0].ID

	// The results are appended by the poller, the others by the work, each
	// when it happened: their order is not the test's to fix.
	recs := h.audit()
	want := []struct{ action, user, instruction, work, outcome string }{
		{store.AuditJobStart, alice, "Document the CLI", "cmd:", "ok"},
		{store.AuditResult, alice, "", "result:" + job + ":1", "completed"},
		{store.AuditFollowUp, bob, "Add an example", "msg:", "ok"},
		{store.AuditResult, alice, "", "result:" + job + ":2", "completed"},
	}
	if len(recs) != len(want) {
		t.Fatalf("%d audit records %+v, want %d", len(recs), recs, len(want))
	}
	for _, w := range want {
		i := slices.IndexFunc(recs, func(r store.AuditRecord) bool { return r.Action == w.action && strings.HasPrefix(r.Work, w.work) })
		if i < 0 {
			t.Errorf("no %s record with work %s* in %+v", w.action, w.work, recs)
			continue
		}
		r := recs[i]
		if r.User != w.user || r.JobID != job || r.Channel != general || r.Instruction != w.instruction || r.Outcome != w.outcome ||
			(w.instruction != "" && (len(r.InstructionSHA256) != 64 || r.InstructionLen != len(w.instruction))) {
			t.Errorf("record %+v, want %s by %s", r, w.action, w.user)
		}
	}

}

func TestViewerPressingFollowUpIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	const viewer = "U0VIEWER"
	h.Slack.AddUser(viewer, "viewer")
	h.Slack.AddUserGroup(editors, alice)
	h.StartBot(bottest.Config{Editors: []string{editors}})
	_, _, res := h.finishedJob("Document webhooks")
	h.press(viewer, res, agent.ActionFollowUp, "")
	h.WaitFor("the private refusal, naming follow-ups", func() bool {
		return len(h.Privates(viewer, "Only editors can send follow-ups to docs agent jobs")) == 1
	})
	h.press(alice, res, agent.ActionFollowUp, "")
	h.WaitFor("the editor's follow-up modal", func() bool { return len(h.Slack.OpenModals(alice)) == 1 })
	h.StopAll()
	if n := len(h.Slack.OpenModals(viewer)); n != 0 {
		t.Errorf("%d modals opened for a viewer, want none", n)
	}
	var refusals []string
	for _, r := range h.audit() {
		if r.Action == store.AuditRefusal {
			refusals = append(refusals, r.User+" "+r.Detail)
		}
	}
	if !slices.Equal(refusals, []string{viewer + " follow-up button"}) {
		t.Errorf("refusals audited %q, want the viewer's press", refusals)
	}
}

package deploy_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/deploy"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// plans are the task card statuses of the live message's plan as it was
// posted and as each edit showed it, in order ("" for a form without one).
func (h *harness) plans() []string {
	var out []string
	for _, method := range []string{"chat.postMessage", "chat.update"} {
		for _, c := range h.Slack.Calls(method) {
			if c.Error != "" || c.Params["channel"] != general {
				continue
			}
			_, tasks, _ := bottest.Plan(slacktest.Message{Blocks: json.RawMessage(c.Params["blocks"])})
			out = append(out, bottest.TaskStatuses(tasks))
		}
	}
	return out
}

// refusals counts the calls of method Slack answered invalid_blocks.
func (h *harness) refusals(method string) int {
	n := 0
	for _, c := range h.Slack.Calls(method) {
		if c.Error == "invalid_blocks" {
			n++
		}
	}
	return n
}

// TestDeployLiveAsAPlan: a deployment's live message shows queued,
// building and live (or failed) as a plan of task cards above its text,
// the preview's address linked from the live card.
func TestDeployLiveAsAPlan(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		fail       bool
		end        string
	}{
		{"deployed", "", false, "queued:complete building:complete live:complete"},
		{"failed", "", true, "queued:complete building:error live:pending"},
		{"preview", "preview docs/new-quickstart", false, "queued:complete building:complete live:complete"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			if tt.fail {
				h.API.FailNextDeploy()
			}
			h.StartBot(bottest.Config{})
			if tt.text == "" {
				h.deployNow(alice, general, "")
			} else {
				h.Command(alice, general, deploy.Command, tt.text)
			}
			h.WaitFor("the plan at its end", func() bool {
				p := h.plans()
				return len(p) > 0 && p[len(p)-1] == tt.end
			})
			p := h.plans()
			for _, want := range []string{"queued:in_progress building:pending live:pending", "queued:complete building:in_progress live:pending"} {
				if !slices.Contains(p, want) {
					t.Errorf("the live message never showed %q: %q", want, p)
				}
			}
			m := h.Roots(general)[0]
			_, tasks, _ := bottest.Plan(m)
			if tt.text != "" && (len(tasks[2].Sources) != 1 || !strings.HasPrefix(tasks[2].Sources[0], "https://")) {
				t.Errorf("live card %+v, want the preview's address", tasks[2])
			}
			if !strings.Contains(bottest.Rendered(m), "deployed") {
				t.Errorf("the text under the plan is gone: %q", bottest.Rendered(m))
			}
		})
	}
}

// TestDeployPlanRefused: where Slack refuses plans the live message is
// today's text; the refusal is met once, not on every edit.
func TestDeployPlanRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.Slack.RefuseBlockType("plan")
	h.StartBot(bottest.Config{})
	h.deployNow(alice, general, "")
	end := h.live(":white_check_mark:")
	bottest.WantContains(t, "the ended deployment", end, "<@"+alice+"> deployed the docs", "done.")
	if m := h.Roots(general)[0]; len(bottest.BlockTypes(m)) != 0 {
		t.Errorf("blocks %v in a workspace without plans", bottest.BlockTypes(m))
	}
	if p, u := h.refusals("chat.postMessage"), h.refusals("chat.update"); p != 1 || u != 0 {
		t.Errorf("%d posts and %d edits refused, want the first post alone", p, u)
	}
}

package visitors_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// A project button's click whose payload names the message's channel in
// its container alone (no channel field) runs the command in that channel:
// the channel allow-list lets it through there, and the chosen project's
// API is asked. Over HTTP, where the test writes the payload Slack signs.
func TestProjectsButtonTakesTheContainersChannel(t *testing.T) {
	t.Parallel()
	const secret = "9a8b7c6d5e4f30211203f4e5d6c7b8a9"
	var backend atomic.Pointer[httputil.ReverseProxy]
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := backend.Load(); p != nil {
			p.ServeHTTP(w, r)
			return
		}
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	t.Cleanup(front.Close)
	h := bottest.NewWith(t, redisURL, []slacktest.Option{slacktest.WithHTTPDelivery(front.URL, secret)}, docsapitest.WithClock(visitorsNow))
	h.Slack.AddChannel(slacktest.Channel{ID: randomChannel, Name: "random", BotMember: true})
	apiSrv := h.TwoProjects(bottest.Project{}, bottest.Project{}, docsapitest.WithClock(visitorsNow))
	r := h.StartBot(bottest.Config{Now: visitorsNow, Config: app.Config{Bot: bot.Config{Mode: bot.ModeHTTP, SigningSecret: secret, AllowedChannels: []string{randomChannel}}}})
	u, err := url.Parse(r.URL)
	if err != nil {
		t.Fatal(err)
	}
	backend.Store(httputil.NewSingleHostReverseProxy(u))

	value, _ := json.Marshal(map[string]string{"p": "api", "t": "7d"})
	payload, _ := json.Marshal(map[string]any{
		"type":         "block_actions",
		"team":         map[string]any{"id": "T0TEST"},
		"user":         map[string]any{"id": alice, "name": "alice"},
		"api_app_id":   "A0TEST",
		"trigger_id":   "1.2.container",
		"container":    map[string]any{"type": "message", "message_ts": "1700000000.000100", "channel_id": randomChannel, "is_ephemeral": true},
		"response_url": strings.TrimSuffix(h.Slack.APIURL, "api/") + "response/container",
		"actions": []map[string]any{{"type": "button", "action_id": visitors.ActionChooseProject + "1", "block_id": "docs_visitors_projects",
			"value": string(value), "action_ts": "1700000001.000100"}},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ans, err := h.Slack.SendSigned(ctx, slacktest.HTTPRequest{Path: slacktest.PathInteractive, Body: []byte(url.Values{"payload": {string(payload)}}.Encode())})
	if err != nil || ans.Status != http.StatusOK {
		t.Fatalf("the click answered %+v, %v; want 200", ans, err)
	}
	h.WaitFor("api's visitors asked for", func() bool { return apiSrv.Count(docsapitest.EndpointVisitors) > 0 })
	if strings.Contains(h.Logs.String(), "not enabled in this channel") {
		t.Errorf("the click was refused as outside #random:\n%s", h.Logs.String())
	}
	h.WantRequests(docsapitest.EndpointVisitors, 0, "docs' API is not asked")
}

package slacktest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"

	"github.com/docsbot/docsbot/store/redistest"
)

func TestHelloAndConnect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		clients int
	}{
		{"one connection", 1},
		{"three connections", 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newTestServer(t, WithAppID("A0HELLO"))
			var hellos recorder[socketmode.Request]
			for i := range tc.clients {
				startClient(t, s, func(sm *socketmode.Client, e socketmode.Event) {
					if e.Type == socketmode.EventTypeHello {
						hellos.add(*e.Request)
					}
				})
				// One at a time, so num_connections counts up predictably.
				if err := s.WaitConnections(testContext(t), i+1); err != nil {
					t.Fatal(err)
				}
				waitLen(t, &hellos, i+1)
			}
			got := hellos.all()
			for i, h := range got {
				if h.NumConnections != i+1 {
					t.Errorf("hello %d: num_connections = %d, want %d", i, h.NumConnections, i+1)
				}
				if h.ConnectionInfo.AppID != "A0HELLO" {
					t.Errorf("hello %d: app_id = %q, want A0HELLO", i, h.ConnectionInfo.AppID)
				}
				if h.DebugInfo.Host == "" {
					t.Errorf("hello %d: no debug_info.host", i)
				}
			}
			if n := s.Connections(); n != tc.clients {
				t.Errorf("Connections() = %d, want %d", n, tc.clients)
			}
			if n := len(s.Calls("apps.connections.open")); n != tc.clients {
				t.Errorf("apps.connections.open calls = %d, want %d", n, tc.clients)
			}
		})
	}
}

func TestSlashCommandRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		channel     Channel
		wantChannel string // channel_name Slack reports
	}{
		{"public channel", Channel{ID: "C0DOCS", Name: "docs", BotMember: true}, "docs"},
		{"private channel", Channel{ID: "G0TEAM", Name: "team", BotMember: true, Private: true}, "privategroup"},
		{"channel the bot has not joined", Channel{ID: "C0RANDOM", Name: "random"}, "random"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newTestServer(t, WithTeam("T0SLASH", "slash-team"), WithAppID("A0SLASH"))
			s.AddChannel(tc.channel)
			var cmds recorder[slack.SlashCommand]
			var reqs recorder[socketmode.Request]
			startClient(t, s, func(sm *socketmode.Client, e socketmode.Event) {
				if e.Type != socketmode.EventTypeSlashCommand {
					return
				}
				cmds.add(e.Data.(slack.SlashCommand))
				reqs.add(*e.Request)
				_ = sm.Ack(*e.Request, map[string]any{"text": "working on it"})
			})
			in := SlashCommand{Command: "/docs-agent", Text: "fix the typo on <https://docs.example.com|home>", UserID: "U0ALICE", ChannelID: tc.channel.ID}
			ack, err := s.SlashCommand(testContext(t), in)
			if err != nil {
				t.Fatal(err)
			}
			cmd, req := waitLen(t, &cmds, 1)[0], waitLen(t, &reqs, 1)[0]
			users := map[string]string{}
			for _, u := range s.Users() {
				users[u.ID] = u.Name
			}
			checks := []struct{ field, got, want string }{
				{"command", cmd.Command, in.Command},
				{"text", cmd.Text, in.Text},
				{"user_id", cmd.UserID, in.UserID},
				{"user_name", cmd.UserName, users[in.UserID]},
				{"channel_id", cmd.ChannelID, tc.channel.ID},
				{"channel_name", cmd.ChannelName, tc.wantChannel},
				{"team_id", cmd.TeamID, "T0SLASH"},
				{"team_domain", cmd.TeamDomain, "slash-team"},
				{"api_app_id", cmd.APIAppID, "A0SLASH"},
				{"envelope_id", ack.EnvelopeID, req.EnvelopeID},
			}
			for _, c := range checks {
				if c.got != c.want {
					t.Errorf("%s = %q, want %q", c.field, c.got, c.want)
				}
			}
			if cmd.IsEnterpriseInstall {
				t.Error("is_enterprise_install = true")
			}
			if cmd.TriggerID == "" || cmd.Token == "" {
				t.Errorf("trigger_id %q / token %q missing", cmd.TriggerID, cmd.Token)
			}
			if !strings.HasPrefix(cmd.ResponseURL, s.URL()+"/") {
				t.Errorf("response_url %q not served by %s", cmd.ResponseURL, s.URL())
			}
			if !req.AcceptsResponsePayload || req.RetryAttempt != 0 {
				t.Errorf("accepts_response_payload = %v, retry_attempt = %d", req.AcceptsResponsePayload, req.RetryAttempt)
			}
			var payload map[string]string
			if err := json.Unmarshal(ack.Payload, &payload); err != nil || payload["text"] != "working on it" {
				t.Errorf("ack payload = %s (%v)", ack.Payload, err)
			}
			if ack.Latency <= 0 {
				t.Errorf("ack latency = %v", ack.Latency)
			}
			eph := s.Ephemerals(in.UserID)
			if len(eph) != 1 || eph[0].Text != "working on it" || eph[0].Channel != tc.channel.ID || !eph[0].Ephemeral {
				t.Errorf("ephemerals = %+v, want the ack payload in %s", eph, tc.channel.ID)
			}
		})
	}
}

func TestUserMessageEvent(t *testing.T) {
	t.Parallel()
	type got struct {
		outer *slackevents.EventsAPICallbackEvent
		inner *slackevents.MessageEvent
	}
	tests := []struct {
		name        string
		channel     Channel
		inThread    bool
		wantType    string
		wantDeliver bool
	}{
		{"top-level message", Channel{ID: "C0DOCS", Name: "docs", BotMember: true}, false, "channel", true},
		{"thread reply", Channel{ID: "C0DOCS", Name: "docs", BotMember: true}, true, "channel", true},
		{"private channel reply", Channel{ID: "G0TEAM", Name: "team", BotMember: true, Private: true}, true, "group", true},
		{"channel the bot has not joined", Channel{ID: "C0RANDOM", Name: "random"}, false, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newTestServer(t)
			s.AddChannel(tc.channel)
			var events recorder[got]
			startClient(t, s, func(sm *socketmode.Client, e socketmode.Event) {
				if e.Type != socketmode.EventTypeEventsAPI {
					return
				}
				ev := e.Data.(slackevents.EventsAPIEvent)
				me, _ := ev.InnerEvent.Data.(*slackevents.MessageEvent)
				events.add(got{ev.Data.(*slackevents.EventsAPICallbackEvent), me})
				_ = sm.Ack(*e.Request)
			})
			ctx := testContext(t)
			parentTS := ""
			if tc.inThread {
				ts, _, err := s.PostUserMessage(ctx, UserMessage{ChannelID: tc.channel.ID, UserID: "U0BOB", Text: "parent"})
				if err != nil {
					t.Fatal(err)
				}
				parentTS = ts
			}
			in := UserMessage{ChannelID: tc.channel.ID, UserID: "U0ALICE", Text: "please also update the FAQ", ThreadTS: parentTS}
			ts, eventID, err := s.PostUserMessage(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.wantDeliver {
				if eventID != "" || events.len() != 0 {
					t.Fatalf("event %q delivered for a channel the bot has not joined", eventID)
				}
				if msgs := s.Messages(tc.channel.ID); len(msgs) != 1 || msgs[0].TS != ts {
					t.Fatalf("history = %+v, want the message", msgs)
				}
				return
			}
			all := waitLen(t, &events, len(s.Acks()))
			last := all[len(all)-1]
			if last.inner == nil {
				t.Fatal("inner event is not a message event")
			}
			checks := []struct{ field, got, want string }{
				{"event_id", last.outer.EventID, eventID},
				{"team_id", last.outer.TeamID, s.cfg.teamID},
				{"api_app_id", last.outer.APIAppID, s.cfg.appID},
				{"type", last.inner.Type, "message"},
				{"subtype", last.inner.SubType, ""},
				{"channel", last.inner.Channel, tc.channel.ID},
				{"channel_type", last.inner.ChannelType, tc.wantType},
				{"user", last.inner.User, in.UserID},
				{"text", last.inner.Text, in.Text},
				{"ts", last.inner.TimeStamp, ts},
				{"event_ts", last.inner.EventTimeStamp, ts},
				{"thread_ts", last.inner.ThreadTimeStamp, parentTS},
			}
			for _, c := range checks {
				if c.got != c.want {
					t.Errorf("%s = %q, want %q", c.field, c.got, c.want)
				}
			}
			if len(last.outer.Authorizations) != 1 || last.outer.Authorizations[0].UserID != s.cfg.botUserID {
				t.Errorf("authorizations = %+v", last.outer.Authorizations)
			}
			if tc.inThread {
				parent, _ := s.Message(tc.channel.ID, parentTS)
				thread := s.Thread(tc.channel.ID, ts)
				if parent.ReplyCount != 1 || len(thread) != 2 || thread[1].TS != ts || thread[1].ThreadTS != parentTS {
					t.Errorf("parent = %+v, thread = %+v", parent, thread)
				}
				if msgs := s.Messages(tc.channel.ID); len(msgs) != 1 {
					t.Errorf("top-level messages = %d, want the parent only", len(msgs))
				}
			}
		})
	}
}

func TestDeliverEvent(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	var inner recorder[slackevents.EventsAPIInnerEvent]
	startClient(t, s, func(sm *socketmode.Client, e socketmode.Event) {
		if e.Type == socketmode.EventTypeEventsAPI {
			inner.add(e.Data.(slackevents.EventsAPIEvent).InnerEvent)
			_ = sm.Ack(*e.Request)
		}
	})
	tests := []struct {
		name  string
		event map[string]any
		check func(d any) bool
	}{
		{"member joined", map[string]any{"type": "member_joined_channel", "user": "U0BOB", "channel": "C0GENERAL", "channel_type": "C"},
			func(d any) bool { j, ok := d.(*slackevents.MemberJoinedChannelEvent); return ok && j.User == "U0BOB" }},
		{"bot message", map[string]any{"type": "message", "subtype": "bot_message", "bot_id": "B0OTHER", "text": "deploy done", "channel": "C0GENERAL", "ts": "1700000000.000100"},
			func(d any) bool {
				m, ok := d.(*slackevents.MessageEvent)
				return ok && m.SubType == "bot_message" && m.BotID == "B0OTHER"
			}},
	}
	for i, tc := range tests {
		id, err := s.DeliverEvent(testContext(t), tc.event)
		if err != nil || !strings.HasPrefix(id, "Ev") {
			t.Fatalf("%s: DeliverEvent = %q, %v", tc.name, id, err)
		}
		got := waitLen(t, &inner, i+1)[i]
		if !tc.check(got.Data) {
			t.Errorf("%s: client parsed %T %+v", tc.name, got.Data, got.Data)
		}
	}
}

func TestQueuedUntilConnected(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	ctx := testContext(t)
	envelopeID, triggerID, err := s.SendSlashCommand(ctx, SlashCommand{Command: "/docs-visitors", Text: "7d", UserID: "U0BOB", ChannelID: "C0GENERAL"})
	if err != nil || envelopeID == "" || triggerID == "" {
		t.Fatalf("SendSlashCommand = %q, %q, %v", envelopeID, triggerID, err)
	}
	ackEverything(t, s, nil)
	if err := s.WaitFor(ctx, func() bool { return len(s.Acks()) == 1 }); err != nil {
		t.Fatal(err)
	}
	if got := s.Acks()[0].EnvelopeID; got != envelopeID {
		t.Errorf("acked %q, want %q", got, envelopeID)
	}
}

func TestPingFrames(t *testing.T) {
	t.Parallel()
	// slack-go reconnects when no PING came for its interval
	// (OptionPingInterval). With pings the interval is long, so that a stall
	// of the loaded machine cannot pass for a silent server; without them it
	// is short, and any delay only makes the reconnect later, not absent.
	tests := []struct {
		name           string
		clientInterval time.Duration
		serverPing     time.Duration
		wantReconnect  bool
	}{
		{"pings keep the connection", 2 * time.Second, 10 * time.Millisecond, false},
		{"no pings make the client reconnect", 100 * time.Millisecond, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newTestServer(t, WithPingInterval(tc.serverPing))
			ackEverything(t, s, nil, socketmode.OptionPingInterval(tc.clientInterval))
			ctx := testContext(t)
			if tc.wantReconnect {
				if err := s.WaitFor(ctx, func() bool { return s.Connects() >= 2 }); err != nil {
					t.Fatalf("client never reconnected: %v", err)
				}
				return
			}
			// The client answered the pings of three of its intervals (the
			// server sends at most one per serverPing, so at least that much
			// time passed): without them it would have reconnected within
			// the first.
			want := int64(3 * tc.clientInterval / tc.serverPing)
			// That takes at least 3*clientInterval, well within Until's
			// timeout.
			redistest.Until(t, fmt.Sprintf("the client to answer %d pings", want), func() bool { return s.pongsReceived() >= want })
			if n := s.Connects(); n != 1 {
				t.Errorf("connections opened = %d, want 1 (pings should keep it alive)", n)
			}
		})
	}
}

func TestReconnect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		disrupt func(s *Server)
	}{
		{"disconnect warning", func(s *Server) { s.Disconnect("warning") }},
		{"disconnect refresh_requested", func(s *Server) { s.Disconnect("refresh_requested") }},
		{"disconnect link_disabled", func(s *Server) { s.Disconnect("link_disabled") }},
		{"dropped connections", (*Server).DropConnections},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newTestServer(t)
			ackEverything(t, s, nil)
			ctx := testContext(t)
			if err := s.WaitConnections(ctx, 1); err != nil {
				t.Fatal(err)
			}
			tc.disrupt(s)
			if err := s.WaitFor(ctx, func() bool { return s.Connects() >= 2 && s.Connections() == 1 }); err != nil {
				t.Fatalf("no reconnection: connects %d, open %d: %v", s.Connects(), s.Connections(), err)
			}
			// The new connection carries traffic.
			if _, _, err := s.PostUserMessage(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "still there?"}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestRoundRobin(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	var a, b recorder[string]
	for _, r := range []*recorder[string]{&a, &b} {
		startClient(t, s, func(sm *socketmode.Client, e socketmode.Event) {
			if e.Type == socketmode.EventTypeEventsAPI {
				r.add(e.Request.EnvelopeID)
				_ = sm.Ack(*e.Request)
			}
		})
	}
	ctx := testContext(t)
	if err := s.WaitConnections(ctx, 2); err != nil {
		t.Fatal(err)
	}
	const n = 6
	for i := range n {
		if _, _, err := s.PostUserMessage(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "message " + string(rune('a'+i))}); err != nil {
			t.Fatal(err)
		}
	}
	if a.len()+b.len() != n || a.len() != b.len() {
		t.Errorf("deliveries = %d and %d, want %d each", a.len(), b.len(), n/2)
	}
}

package bot

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/slack-go/slack"
)

// Bodies Slack posts, for the seed corpora: an event, a slash command, an
// interaction, and their near misses.
var (
	eventBodies = []string{
		`{"type":"url_verification","challenge":"abc"}`,
		`{"type":"event_callback","team_id":"T0","event_id":"Ev1","event":{"type":"message","channel":"C0","user":"U0","text":"hi","ts":"1.2","thread_ts":"1.1"}}`,
		`{"type":"event_callback","event_id":"Ev2","event":{"type":"app_mention","channel":"C0","user":"U0","text":"<@U0BOT> list","ts":"1.3"}}`,
		`{"type":"event_callback","event":{"type":"app_home_opened","user":"U0","tab":"home"}}`,
		`{"type":"event_callback","event":{"type":"no_such_event"}}`,
		`{"type":"event_callback","event":"not an object"}`,
		`{"type":"app_rate_limited","minute_rate_limited":1}`,
		`{"type":"something_new"}`, `{"type":""}`, `{}`, `[]`, `null`, ``, `{"type":`,
	}
	commandBodies = []string{
		"command=%2Fdocs-agent&text=Add+a+quickstart&team_id=T0&channel_id=C0&user_id=U0&trigger_id=1.2&response_url=https%3A%2F%2Fhooks.slack.com%2Fx",
		"command=%2Fdocs-visitors&text=7d+chart&is_enterprise_install=false",
		"command=%2Fdocs-agent&is_enterprise_install=maybe", "text=no+command", "command=", "%zz", "", "a=1&a=2&command=%2Fx",
	}
	interactionBodies = []string{
		"payload=" + url.QueryEscape(`{"type":"block_actions","trigger_id":"1.2","user":{"id":"U0"},"actions":[{"action_id":"a","value":"v"}]}`),
		"payload=" + url.QueryEscape(`{"type":"view_submission","view":{"id":"V0","callback_id":"job","state":{"values":{}}}}`),
		"payload=" + url.QueryEscape(`{"type":"message_action","callback_id":"send","message":{"text":"hi","ts":"1.2"}}`),
		"payload=" + url.QueryEscape(`{"type":"shortcut","actions":"not a list"}`),
		"payload=%7B", "payload=", "", "%zz", "payload=null",
	}
)

const formType = "application/x-www-form-urlencoded"

// FuzzDecodeEvent: any body on PathEvents decodes to an event with a type,
// or fails as an unknown event type (acknowledged and ignored) or as
// errNotEvents (refused); never a panic.
func FuzzDecodeEvent(f *testing.F) {
	for _, s := range eventBodies {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		ev, err := decodeEvent(body)
		unknown, isUnknown := errors.AsType[*unknownEventError](err)
		switch {
		case err == nil && ev.Type == "":
			t.Fatalf("decodeEvent(%q) = an event without a type", body)
		case isUnknown && unknown.Type == "":
			t.Fatalf("decodeEvent(%q): unknown event of no type", body)
		case err != nil && !isUnknown && !errors.Is(err, errNotEvents):
			t.Fatalf("decodeEvent(%q): error of an unknown kind %T: %v", body, err, err)
		}
	})
}

// FuzzDecodeCommand: any body on PathCommands decodes to a command that
// names itself, which written back as a form decodes the same, or fails
// with errNotCommand; never a panic.
func FuzzDecodeCommand(f *testing.F) {
	for _, s := range commandBodies {
		f.Add(s, formType)
	}
	f.Add("command=%2Fdocs-agent", "text/plain")
	f.Add("command=%2Fdocs-agent", "")
	f.Fuzz(func(t *testing.T, body, contentType string) {
		cmd, err := decodeCommand(contentType, []byte(body))
		if err != nil {
			if !errors.Is(err, errNotCommand) {
				t.Fatalf("decodeCommand(%q): error of an unknown kind %T: %v", body, err, err)
			}
			return
		}
		if cmd.Command == "" {
			t.Fatalf("decodeCommand(%q) = a command without its name", body)
		}
		again, err := decodeCommand(formType, []byte(commandForm(cmd).Encode()))
		if err != nil || !reflect.DeepEqual(again, cmd) {
			t.Fatalf("decodeCommand(%q) = %+v; written back, %+v, %v", body, cmd, again, err)
		}
	})
}

// commandForm is the form Slack would post for cmd.
func commandForm(cmd slack.SlashCommand) url.Values {
	v := url.Values{}
	for k, s := range map[string]string{
		"token": cmd.Token, "team_id": cmd.TeamID, "team_domain": cmd.TeamDomain, "enterprise_id": cmd.EnterpriseID,
		"enterprise_name": cmd.EnterpriseName, "channel_id": cmd.ChannelID, "channel_name": cmd.ChannelName, "user_id": cmd.UserID,
		"user_name": cmd.UserName, "command": cmd.Command, "text": cmd.Text, "response_url": cmd.ResponseURL,
		"trigger_id": cmd.TriggerID, "api_app_id": cmd.APIAppID,
	} {
		if s != "" {
			v.Set(k, s)
		}
	}
	v.Set("is_enterprise_install", strconv.FormatBool(cmd.IsEnterpriseInstall))
	return v
}

// FuzzDecodeInteraction: any body on PathInteractive decodes to an
// interaction or fails with errNotInteraction; never a panic.
func FuzzDecodeInteraction(f *testing.F) {
	for _, s := range interactionBodies {
		f.Add(s, formType)
	}
	f.Fuzz(func(t *testing.T, body, contentType string) {
		if _, err := decodeInteraction(contentType, []byte(body)); err != nil && !errors.Is(err, errNotInteraction) {
			t.Fatalf("decodeInteraction(%q): error of an unknown kind %T: %v", body, err, err)
		}
	})
}

// FuzzSlackHandler: any signed body on any of Slack's paths gets an answer
// Slack understands from the real handler (here of a bot not yet serving):
// 200 (a challenge, an event ignored), 400 with X-Slack-No-Retry (not what
// the path takes) or 503 (taken, but not now: Slack sends it again); never
// a panic, a 401 for a good signature, or a 500.
func FuzzSlackHandler(f *testing.F) {
	paths := []string{PathEvents, PathCommands, PathInteractive}
	for i, bodies := range [][]string{eventBodies, commandBodies, interactionBodies} {
		for _, s := range bodies {
			f.Add(uint8(i), s)
		}
	}
	const secret = "3f9c1e0b7a6d4c2e8f1a5b9d0c7e6f42"
	b := New(Config{Mode: ModeHTTP, SigningSecret: secret, Logger: slog.New(slog.DiscardHandler)},
		slack.New("xoxb-fuzz", slack.OptionAPIURL("http://127.0.0.1:1/")), WorkStore{})
	h := b.SlackHandler()
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		path := paths[int(which)%len(paths)]
		req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader([]byte(body)))
		req.Header.Set("Content-Type", formType)
		if path == PathEvents {
			req.Header.Set("Content-Type", "application/json")
		}
		ts := strconv.FormatInt(time.Now().Unix(), 10)
		req.Header.Set("X-Slack-Request-Timestamp", ts)
		req.Header.Set("X-Slack-Signature", sign(secret, ts, body))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		res := rec.Result()
		_, _ = io.Copy(io.Discard, res.Body)
		switch res.StatusCode {
		case http.StatusOK, http.StatusServiceUnavailable:
		case http.StatusBadRequest:
			if res.Header.Get("X-Slack-No-Retry") != "1" {
				t.Fatalf("POST %s %q: 400 without X-Slack-No-Retry", path, body)
			}
		default:
			t.Fatalf("POST %s %q: status %d", path, body, res.StatusCode)
		}
	})
}

// sign is Slack's signature of body at ts: v0= and the hex HMAC-SHA256 of
// "v0:ts:body" under the signing secret.
func sign(secret, ts, body string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte("v0:" + ts + ":" + body))
	return "v0=" + hex.EncodeToString(mac.Sum(nil))
}

package bot

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
)

// TestWithoutMessage: the echoed message leaves an answer; every other
// field stays, and a body that is no object stays as it is.
func TestWithoutMessage(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"posted", `{"ok":true,"channel":"C0","ts":"1.5","message":{"type":"message","blocks":[{"type":"divider"}]},"response_metadata":{"warnings":["w"]}}`,
			`{"ok":true,"channel":"C0","ts":"1.5","response_metadata":{"warnings":["w"]}}`},
		{"updated", `{"ok":true,"channel":"C0","ts":"1.5","text":"t","message":{"text":"t"}}`, `{"ok":true,"channel":"C0","ts":"1.5","text":"t"}`},
		{"refused", `{"ok":false,"error":"invalid_blocks","errors":["x"],"response_metadata":{"messages":["[ERROR] bad"]}}`,
			`{"ok":false,"error":"invalid_blocks","errors":["x"],"response_metadata":{"messages":["[ERROR] bad"]}}`},
		{"no object", `[1,2]`, `[1,2]`},
		{"not JSON", `<html>`, `<html>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := withoutMessage([]byte(tc.body))
			var g, w any
			if json.Unmarshal(got, &g) != nil || json.Unmarshal([]byte(tc.want), &w) != nil {
				if string(got) != tc.want {
					t.Fatalf("withoutMessage(%s) = %s, want %s", tc.body, got, tc.want)
				}
				return
			}
			if !reflect.DeepEqual(g, w) {
				t.Fatalf("withoutMessage(%s) = %s, want %s", tc.body, got, tc.want)
			}
		})
	}
}

// TestLightAnswers: through the bot's client options, the answers of
// chat.postMessage and chat.update lose their echoed message and keep what
// slack-go reads of them; every other answer, and a refusal, is as Slack
// sent it.
func TestLightAnswers(t *testing.T) {
	const echo = `{"ok":true,"channel":"C0","ts":"1.5","message":{"type":"message","blocks":[{"type":"divider"}]}}`
	for _, tc := range []struct {
		name, method, answer string
		status               int
		want                 string
	}{
		{"posted", "chat.postMessage", echo, http.StatusOK, `{"ok":true,"channel":"C0","ts":"1.5"}`},
		{"updated", "chat.update", echo, http.StatusOK, `{"ok":true,"channel":"C0","ts":"1.5"}`},
		{"another method", "conversations.history", echo, http.StatusOK, echo},
		{"an error status", "chat.postMessage", echo, http.StatusInternalServerError, echo},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				_, _ = io.WriteString(w, tc.answer)
			}))
			defer srv.Close()
			req, err := http.NewRequest(http.MethodPost, srv.URL+"/api/"+tc.method, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := lightAnswers{next: http.DefaultTransport}.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if string(body) != tc.want || resp.StatusCode != tc.status || resp.ContentLength != int64(len(body)) {
				t.Fatalf("answer %d %q (length %d), want %d %q", resp.StatusCode, body, resp.ContentLength, tc.status, tc.want)
			}
		})
	}
}

// FuzzWithoutMessage: whatever the body, withoutMessage hands it back as it
// is, or hands back the same JSON object without its "message"; never a
// panic.
func FuzzWithoutMessage(f *testing.F) {
	for _, s := range []string{`{"ok":true,"ts":"1.5","message":{"blocks":[]}}`, `{"ok":false,"error":"x"}`, `[1]`, `null`, `{"message":1,"message":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got := withoutMessage(body)
		if string(got) == string(body) {
			return
		}
		var in, out map[string]any
		if json.Unmarshal(body, &in) != nil || json.Unmarshal(got, &out) != nil {
			t.Fatalf("withoutMessage(%q) = %q: changed a body that is no object, or made one", body, got)
		}
		if _, ok := out["message"]; ok {
			t.Fatalf("withoutMessage(%q) = %q keeps the message", body, got)
		}
		delete(in, "message")
		if !reflect.DeepEqual(in, out) {
			t.Fatalf("withoutMessage(%q) = %q: other fields changed", body, got)
		}
	})
}

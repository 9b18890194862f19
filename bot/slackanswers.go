package bot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
)

// echoesMessage reports whether the answer of the Web API method echoes the
// whole message posted or changed ("message": its blocks, attachments and
// metadata), which the bot never reads: of chat.postMessage and chat.update
// it reads ok, error, channel and ts.
func echoesMessage(method string) bool {
	return method == "chat.postMessage" || method == "chat.update"
}

// lightAnswers is the transport of the bot's Slack client (SlackOptions): it
// takes the echoed message out of the answers of the methods that echo it
// (echoesMessage) before slack-go decodes them, blocks and all, into a
// Message nobody reads (BENCHMARKS.md, "The command path, lighter
// reading"). Every other field of the answer, and every other answer,
// reaches slack-go as Slack sent it.
type lightAnswers struct{ next http.RoundTripper }

func (t lightAnswers) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusOK || !echoesMessage(slackMethod(req)) {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("reading Slack's answer: %w", err)
	}
	body = withoutMessage(body)
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return resp, nil
}

// withoutMessage is body, a JSON object, without its "message" field; body
// itself if it is no object or has no such field.
func withoutMessage(body []byte) []byte {
	var fields map[string]json.RawMessage
	if json.Unmarshal(body, &fields) != nil {
		return body
	}
	if _, ok := fields["message"]; !ok {
		return body
	}
	delete(fields, "message")
	out, err := json.Marshal(fields)
	if err != nil {
		return body
	}
	return out
}

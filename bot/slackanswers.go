package bot

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
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
// itself if it is no object or has no such field. The other fields are kept
// as Slack wrote them, in its order. It reads with gjson, which walks past
// the message without decoding it (BENCHMARKS.md, "Frames read once").
func withoutMessage(body []byte) []byte {
	data := bytes.TrimLeft(body, " \t\r\n")
	if len(data) == 0 || data[0] != '{' || !gjson.ValidBytes(data) {
		return body
	}
	s := string(data)
	var kept []string
	dropped := false
	gjson.Parse(s).ForEach(func(k, v gjson.Result) bool {
		if k.Str == "message" {
			dropped = true
		} else {
			// From the key's opening quote to the value's end, as sent;
			// both offsets are in s.
			kept = append(kept, s[k.Index:v.Index+len(v.Raw)])
		}
		return true
	})
	if !dropped {
		return body
	}
	return []byte("{" + strings.Join(kept, ",") + "}")
}

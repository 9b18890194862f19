package docsapi_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/docsbot/docsbot/docsapi"
)

// bodyTransport answers every request 200 with a fixed body, without a
// network.
type bodyTransport []byte

func (b bodyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(b)), Request: r}, nil
}

// FuzzAnswerStream feeds arbitrary bytes to the stream decoder: it must
// never panic, and Next must end.
func FuzzAnswerStream(f *testing.F) {
	for _, seed := range []string{
		sse(chStart, delta("Hello"), chFinish, chDone),
		"data:" + delta("a") + "\r\n\r\ndata: [DONE]\r\n\r\n",
		"data: {\"type\":\"text-delta\",\ndata: \"delta\":\"x\"}\n\n",
		sse(`{"type":"tool-input-available","toolCallId":"c","toolName":"search","input":{"query":"q"}}`,
			`{"type":"tool-output-available","toolCallId":"c","output":{"results":[{"path":"/a","metadata":{"title":"A"}}]}}`,
			`{"type":"source-url","sourceId":"s","url":"/b"}`, `{"type":"finish","messageMetadata":{"threadId":"t"}}`),
		sse(`{"type":"error","errorText":"boom"}`),
		sse(`{"type":"abort"}`),
		": c\r\r\rdata\rdata:\n\n",
		"data: {\"type\":\"finish\"}\n\ndata: x\n\ndata: [DONE]",
		"\x00\xff data: {",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		a, err := docsapi.NewAssistant("mint_dsc_fuzz_0123456789", "acme",
			docsapi.WithDiscoveryURL("http://fuzz.invalid"), docsapi.WithHTTPClient(&http.Client{Transport: bodyTransport(body)}))
		if err != nil {
			t.Fatal(err)
		}
		s, err := a.Ask(context.Background(), docsapi.Question("q"))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for range len(body) + 2 {
			if _, err := s.Next(); err != nil {
				break
			}
		}
		_, _ = s.Answer()
		_, _ = docsapi.ExtractSuggestions(s.Text())
	})
}

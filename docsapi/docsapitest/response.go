package docsapitest

import (
	"encoding/json"
	"net/http"
)

// Error messages the server sends.
const (
	msgNotFound         = "not found"
	msgMethodNotAllowed = "method not allowed"
	msgUnauthorized     = "missing or invalid API key"
	msgNoProject        = "project not found"
	msgRateLimited      = "rate limit exceeded"
	msgTooLarge         = "request body too large"
	msgBadJSON          = "invalid JSON body"
	msgNotObject        = "request body must be a JSON object"
	msgPromptRequired   = "prompt is required"
	msgPromptNotString  = "prompt must be a string"
	msgPromptEmpty      = "prompt must not be empty"
	msgNoJob            = "job not found"
	msgInvalidQuery     = "Invalid query parameters"
)

// response is an answer built before it is written, so a fault can replace it.
type response struct {
	status int
	header http.Header
	body   []byte
	stream *answerPlan // an assistant answer, written by writeStream
}

func (r *response) write(w http.ResponseWriter) {
	for k, v := range r.header {
		w.Header()[k] = v
	}
	w.WriteHeader(r.status)
	_, _ = w.Write(r.body)
}

// jsonResponse answers status with v encoded as JSON.
func jsonResponse(status int, v any) *response {
	b, err := json.Marshal(v)
	if err != nil {
		return errorResponse(http.StatusInternalServerError, "internal error")
	}
	return rawJSON(status, b)
}

func rawJSON(status int, b []byte) *response {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	return &response{status: status, header: h, body: b}
}

type errorBody struct {
	Error   string          `json:"error"`
	Details []detailMessage `json:"details,omitempty"`
}

type detailMessage struct {
	Message string `json:"message"`
}

// errorResponse answers {"error": msg}.
func errorResponse(status int, msg string) *response {
	return jsonResponse(status, errorBody{Error: msg})
}

// invalidQuery answers 400 with one details entry per message.
func invalidQuery(msgs []string) *response {
	b := errorBody{Error: msgInvalidQuery}
	for _, m := range msgs {
		b.Details = append(b.Details, detailMessage{Message: m})
	}
	return jsonResponse(http.StatusBadRequest, b)
}

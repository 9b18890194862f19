package docsapi

import (
	"errors"
	"net/http"
)

// ErrThreadNotFound is wrapped, with the [*APIError], when a question to an
// existing thread is answered 404: the thread id is unknown, or the thread
// key is missing or not the thread's. It also matches [ErrNotFound].
var ErrThreadNotFound = errors.New("docsapi: thread not found (unknown thread, or a missing or wrong thread key)")

// ErrFilesRefused is wrapped, with the [*APIError], when a question with
// file parts is answered 400, 413, 415 or 422: the service took no question
// (FilePart says what is assumed of files), so asking again without the
// files costs nothing more.
var ErrFilesRefused = errors.New("docsapi: the assistant refused the question's files")

// ErrStreamCut is wrapped, with the cause, when an answer stream ends before
// its finish chunk or [DONE]: the connection broke, stalled past the attempt
// timeout, or closed early. The question was asked (and paid for): what came
// before stands, and asking again costs again.
var ErrStreamCut = errors.New("docsapi: answer stream cut before it finished")

// ErrAnswerFailed is matched by an [*AnswerError]: the assistant reported an
// error inside the stream.
var ErrAnswerFailed = errors.New("docsapi: the assistant reported an error")

// AnswerError is an error chunk of an answer stream.
type AnswerError struct {
	// ErrorText is the chunk's errorText, on one line, without secrets.
	ErrorText string
	// Method and Path identify the request.
	Method, Path string
}

// Error reads "docsapi: POST /v2/assistant/acme/message: assistant error: text".
func (e *AnswerError) Error() string {
	return "docsapi: " + e.Method + " " + e.Path + ": assistant error: " + e.ErrorText
}

// Is matches ErrAnswerFailed.
func (e *AnswerError) Is(target error) bool { return target == ErrAnswerFailed }

// streamCutError is a stream that ended early, with its cause.
type streamCutError struct {
	method, path string
	cause        error
}

func (e *streamCutError) Error() string {
	return "docsapi: " + e.method + " " + e.path + ": answer stream cut before it finished: " + e.cause.Error()
}

func (e *streamCutError) Unwrap() []error { return []error{ErrStreamCut, e.cause} }

// threadNotFoundError is a 404 answer to a question in a thread.
type threadNotFoundError struct{ api *APIError }

func (e *threadNotFoundError) Error() string {
	return e.api.Error() + " (thread not found: unknown thread, or a missing or wrong thread key)"
}

func (e *threadNotFoundError) Unwrap() []error { return []error{ErrThreadNotFound, e.api} }

// asThreadNotFound turns a 404 answer to a question in a thread into an
// error matching ErrThreadNotFound. The 404 status is the embed guide's
// word only (the spec's section 7): any 404 to a question that named a
// thread is taken to mean the thread, since the domain was good enough to
// have been configured.
func asThreadNotFound(err error) error {
	var ae *APIError
	if errors.As(err, &ae) && ae.StatusCode == http.StatusNotFound {
		return &threadNotFoundError{api: ae}
	}
	return err
}

// filesRefusedError is a 4xx answer to a question with files.
type filesRefusedError struct{ api *APIError }

func (e *filesRefusedError) Error() string {
	return e.api.Error() + " (the question carried files: the assistant may not take them)"
}

func (e *filesRefusedError) Unwrap() []error { return []error{ErrFilesRefused, e.api} }

// asFilesRefused turns a 400, 413, 415 or 422 answer to a question with
// files into an error matching ErrFilesRefused: what the service says of a
// request it will not read, too large or of a type it does not take.
func asFilesRefused(err error) error {
	var ae *APIError
	if errors.As(err, &ae) {
		switch ae.StatusCode {
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType, http.StatusUnprocessableEntity:
			return &filesRefusedError{api: ae}
		}
	}
	return err
}

// hasFiles reports whether a question carries file parts.
func hasFiles(req AskRequest) bool {
	for _, m := range req.Messages {
		if len(m.Files) > 0 {
			return true
		}
	}
	return false
}

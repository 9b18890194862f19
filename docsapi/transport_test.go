package docsapi_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/docsapi"
)

// TestTransportErrorNamesTheRequest calls a port nobody listens on.
func TestTransportErrorNamesTheRequest(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c, err := docsapi.NewClient("mint_transport_test_key_0000", "proj", docsapi.WithBaseURL("http://"+addr),
		docsapi.WithRetryPolicy(docsapi.RetryPolicy{MaxAttempts: 1}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetJob(context.Background(), "job_1")
	te, ok := errors.AsType[*docsapi.TransportError](err)
	if !ok {
		t.Fatalf("error %v (%T) is not a *TransportError", err, err)
	}
	if te.Method != "GET" || te.Path != "/v2/agent/proj/job/job_1" {
		t.Errorf("TransportError names %s %s", te.Method, te.Path)
	}
	if _, ok := errors.AsType[net.Error](err); !ok {
		t.Errorf("the network cause is not kept: %v", err)
	}
	if strings.Contains(err.Error(), "http://"+addr) || strings.Contains(err.Error(), "mint_") {
		t.Errorf("error shows the base URL or the key: %v", err)
	}
}

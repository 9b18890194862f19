package project_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// TestClients builds the clients of two projects, each served by a docs API
// of its own: each client reaches its project's API alone, with its key and
// id, and Views sees them by the same names.
func TestClients(t *testing.T) {
	t.Parallel()
	servers := map[string]*docsapitest.Server{"docs": docsapitest.NewServer(docsapitest.WithProjectID("p-docs")), "api": docsapitest.NewServer(docsapitest.WithProjectID("p-api"))}
	var ps []project.Project
	for _, name := range []string{"docs", "api"} {
		srv := servers[name]
		t.Cleanup(srv.Close)
		ps = append(ps, project.Project{Name: name, ID: srv.ProjectID, APIKey: project.NewSecret(srv.Key), APIURL: srv.URL})
	}
	set, err := project.New(ps...)
	if err != nil {
		t.Fatal(err)
	}
	clients, err := project.Clients(set, docsapi.WithRetryPolicy(docsapi.RetryPolicy{MaxAttempts: 1}))
	if err != nil {
		t.Fatal(err)
	}
	if len(clients) != 2 {
		t.Fatalf("%d clients, want 2", len(clients))
	}
	for name, srv := range servers {
		if err := clients[name].Check(t.Context(), time.Now()); err != nil {
			t.Errorf("the client of project %s: %v", name, err)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("project %s's API saw %d requests, want 1", name, n)
		}
	}

	ids := project.Views(clients, func(c *docsapi.Client) string { return c.ProjectID() })
	for name, srv := range servers {
		if ids[name] != srv.ProjectID {
			t.Errorf("Views: project %s's client is of project id %q, want %q", name, ids[name], srv.ProjectID)
		}
	}
	if len(ids) != len(clients) {
		t.Errorf("Views has %d names, want %d", len(ids), len(clients))
	}
}

// TestClientsError names the project whose client cannot be built, and
// keeps the docs API's reason for errors.As, without the key.
func TestClientsError(t *testing.T) {
	t.Parallel()
	const key = "mint_key with a space SECRET"
	_, err := project.Clients(project.Single("p-docs", key, "http://127.0.0.1:1"))
	ce, ok := errors.AsType[*project.ClientError](err)
	if !ok || ce.Project != project.ImplicitName {
		t.Fatalf("Clients = %v, want a *ClientError of project %s", err, project.ImplicitName)
	}
	if _, ok := errors.AsType[*docsapi.ValidationError](err); !ok {
		t.Errorf("Clients = %v, want the docs API's *ValidationError within", err)
	}
	if strings.Contains(err.Error(), key) {
		t.Errorf("the error shows the key: %v", err)
	}
}

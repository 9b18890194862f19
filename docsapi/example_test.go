package docsapi_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// ExampleClient_CreateJob starts an agent job and polls it until it ends.
// In production the base URL is left at DefaultBaseURL and the key and the
// project id come from the dashboard; here a local test server stands in.
func ExampleClient_CreateJob() {
	srv := docsapitest.NewServer()
	defer srv.Close()

	c, err := docsapi.NewClient(srv.Key, srv.ProjectID, docsapi.WithBaseURL(srv.URL))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	job, err := c.CreateJob(ctx, "Document the new rate limits on the API overview page")
	switch {
	case errors.Is(err, docsapi.ErrOutcomeUnknown):
		// The job may exist: do not create it again blindly.
		log.Fatal(err)
	case err != nil:
		log.Fatal(err)
	}
	fmt.Println("created:", job.Status)

	for !job.Status.Final() {
		// A real poller waits between polls.
		if job, err = c.GetJob(ctx, job.ID); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println("finished:", job.Status, "with a pull request:", job.PR() != "")
	// Output:
	// created: active
	// finished: completed with a pull request: true
}

// ExampleClient_VisitorPages fetches every page of a week's visitor export
// and merges them.
func ExampleClient_VisitorPages() {
	srv := docsapitest.NewServer()
	defer srv.Close()
	c, err := docsapi.NewClient(srv.Key, srv.ProjectID, docsapi.WithBaseURL(srv.URL))
	if err != nil {
		log.Fatal(err)
	}

	// dateTo is exclusive: this is November 1 to 7 inclusive.
	var merged docsapi.VisitorsMerge
	for page, err := range c.VisitorPages(context.Background(), docsapi.VisitorsParams{From: "2025-11-01", To: "2025-11-08"}) {
		var apiErr *docsapi.APIError
		switch {
		case errors.As(err, &apiErr) && apiErr.RetryAfter > 0:
			log.Fatalf("rate limited, try again in %s", apiErr.RetryAfter)
		case err != nil:
			log.Fatal(err)
		}
		merged.Add(page)
	}
	all := merged.Result()
	fmt.Printf("%d pages had visitors; more to read: %v\n", len(all.Visitors), all.HasMore)
	// Output:
	// 240 pages had visitors; more to read: false
}

// ExampleAssistant_Ask asks the assistant a question, prints the answer as
// it streams in, and asks a follow-up in the same thread.
func ExampleAssistant_Ask() {
	srv := docsapitest.NewServer()
	defer srv.Close()

	a, err := docsapi.NewAssistant(srv.AssistantKey, srv.Domain, docsapi.WithDiscoveryURL(srv.DiscoveryURL))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	s, err := a.Ask(ctx, docsapi.Question("How do I install the CLI?"))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	for {
		ev, err := s.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil { // ErrStreamCut, an *AnswerError, the context's error
			log.Fatal(err)
		}
		switch ev := ev.(type) {
		case docsapi.ToolCallEvent:
			fmt.Println("searching:", ev.Query)
		case docsapi.SourcesEvent:
			fmt.Println("found:", ev.Sources[0].Path)
		}
	}
	text, suggestions := docsapi.ExtractSuggestions(s.Text())
	fmt.Println(text)
	fmt.Println("suggested:", len(suggestions))

	follow := docsapi.Question("And how do I authenticate?")
	follow.Thread = s.Thread() // id and key, from the first answer's headers
	s2, err := a.Ask(ctx, follow)
	if err != nil {
		log.Fatal(err)
	}
	defer s2.Close()
	ans, err := s2.Answer()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ans.Thread.ID == s.Thread().ID)
	// Output:
	// searching: How do I install the CLI?
	// found: /installation
	// According to Installation: Install the Acme CLI globally with npm install -g acme, or with Homebrew using brew install acme.
	//
	// See [Installation](/installation) for more.
	// suggested: 1
	// true
}

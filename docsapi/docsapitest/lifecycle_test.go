package docsapitest

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi"
)

func TestDefaultLifecycle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		prompt string
		want   Outcome
	}{
		{"Document the new webhook", OutcomePR},
		{"[fail] document it", OutcomeFailed},
		{"please [FAIL]", OutcomeFailed},
		{"[no-change] typo check", OutcomeNoChange},
		{"[archive] old page", OutcomeArchived},
		{"[no-change] and [fail]", OutcomeFailed},
		{"[archive] [no-change]", OutcomeNoChange},
		{"fail without brackets", OutcomePR},
	} {
		got := DefaultLifecycle(tc.prompt)
		if got.Outcome != tc.want || got.ActivePolls != 2 || got.ActiveFor != 0 {
			t.Errorf("DefaultLifecycle(%q) = %+v, want outcome %q after 2 polls", tc.prompt, got, tc.want)
		}
	}
	timed := TimedLifecycle(time.Minute)("[fail] x")
	if timed.Outcome != OutcomeFailed || timed.ActiveFor != time.Minute || timed.ActivePolls != 2 {
		t.Errorf("TimedLifecycle = %+v", timed)
	}
}

func TestJobLifecycle(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(clockStart())
	const repo = "https://github.com/acme/handbook"
	srv := startServer(t, WithClock(clock.Now), WithRepository(repo))
	for _, tc := range []struct {
		name     string
		prompt   string
		status   docsapi.Status
		pr       bool
		archived bool
	}{
		{"pull request", "Document the CLI flags", docsapi.StatusCompleted, true, false},
		{"no change", "[no-change] check spelling", docsapi.StatusCompleted, false, false},
		{"failure", "[fail] rewrite everything", docsapi.StatusFailed, false, false},
		{"archived", "[archive] drop the beta page", docsapi.StatusArchived, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			created := createJob(t, srv, tc.prompt)
			if !strings.HasPrefix(created.ID, "job_") || len(created.ID) != len("job_")+16 {
				t.Errorf("id %q, want job_ and 16 hex digits", created.ID)
			}
			if created.Status != docsapi.StatusActive || created.PRLink != nil || created.ArchivedAt != nil {
				t.Errorf("created job %+v, want active without prLink and archivedAt", created)
			}
			if created.Model != jobModel || created.Source.Repository != repo || created.Source.Ref == nil || *created.Source.Ref != "main" {
				t.Errorf("created job model/source %q %+v", created.Model, created.Source)
			}
			if created.CreatedAt == nil || !created.CreatedAt.Equal(clock.Now()) {
				t.Errorf("createdAt %v, want %v", created.CreatedAt, clock.Now())
			}
			lc := DefaultLifecycle(tc.prompt)
			for i := range lc.ActivePolls {
				if j := getJob(t, srv, created.ID); j.Status != docsapi.StatusActive || j.PRLink != nil {
					t.Fatalf("poll %d: %+v, want active", i+1, j)
				}
			}
			final := getJob(t, srv, created.ID)
			if final.Status != tc.status {
				t.Fatalf("final status %q, want %q", final.Status, tc.status)
			}
			if tc.pr != (final.PRLink != nil) {
				t.Errorf("prLink %v, want present=%v", final.PRLink, tc.pr)
			}
			if tc.pr && !strings.HasPrefix(final.PR(), repo+"/pull/") {
				t.Errorf("prLink %q, want under %s/pull/", final.PR(), repo)
			}
			if tc.archived != (final.ArchivedAt != nil) {
				t.Errorf("archivedAt %v, want present=%v", final.ArchivedAt, tc.archived)
			}
			// Finished jobs stay finished.
			again := getJob(t, srv, created.ID)
			if again.Status != final.Status || again.PR() != final.PR() {
				t.Errorf("job changed after finishing: %+v then %+v", final, again)
			}
			snap, ok := srv.Job(created.ID)
			if !ok || snap.Status != final.Status || snap.PR() != final.PR() {
				t.Errorf("Job() = %+v %v, want %+v", snap, ok, final)
			}
		})
	}
}

func TestPRLinksDiffer(t *testing.T) {
	t.Parallel()
	srv := startServer(t, WithLifecycle(func(string) Lifecycle { return Lifecycle{Outcome: OutcomePR} }))
	seen := map[string]bool{}
	for range 5 {
		j := createJob(t, srv, "x")
		done := getJob(t, srv, j.ID)
		if done.PRLink == nil || seen[done.PR()] {
			t.Fatalf("prLink %v missing or repeated", done.PRLink)
		}
		seen[done.PR()] = true
		// A follow-up finishing again gets another link.
		mustJob(t, do(t, srv, http.MethodPost, messagePath(srv, j.ID), promptBody("more")), http.StatusOK)
		redone := getJob(t, srv, j.ID)
		if redone.PRLink == nil || seen[redone.PR()] {
			t.Fatalf("follow-up prLink %v missing or repeated", redone.PRLink)
		}
		seen[redone.PR()] = true
	}
}

func TestFollowUp(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(clockStart())
	srv := startServer(t, WithClock(clock.Now))

	for _, tc := range []struct {
		name     string
		first    string
		finish   bool // poll the job to its end before the follow-up
		followUp string
		want     docsapi.Status
		pr       bool
	}{
		{"after a pull request", "Add a FAQ", true, "[no-change] also fix typos", docsapi.StatusCompleted, false},
		{"after a failure", "[fail] Add a FAQ", true, "try again", docsapi.StatusCompleted, true},
		{"after archiving", "[archive] old", true, "[fail] revive it", docsapi.StatusFailed, false},
		{"while active", "Add a FAQ", false, "[archive] never mind", docsapi.StatusArchived, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := createJob(t, srv, tc.first)
			if tc.finish {
				for i := 0; getJob(t, srv, j.ID).Status == docsapi.StatusActive; i++ {
					if i > 10 {
						t.Fatal("job never finished")
					}
				}
			} else {
				getJob(t, srv, j.ID) // one poll that the follow-up must reset
			}
			clock.Advance(time.Minute)
			re := mustJob(t, do(t, srv, http.MethodPost, messagePath(srv, j.ID), promptBody(tc.followUp)), http.StatusOK)
			if re.ID != j.ID || re.Status != docsapi.StatusActive || re.PRLink != nil || re.ArchivedAt != nil {
				t.Fatalf("after follow-up %+v, want the same job active without prLink and archivedAt", re)
			}
			if !re.CreatedAt.Equal(*j.CreatedAt) {
				t.Errorf("createdAt changed from %v to %v", j.CreatedAt, re.CreatedAt)
			}
			// The poll count restarts: active for the follow-up lifecycle's polls.
			for i := range DefaultLifecycle(tc.followUp).ActivePolls {
				if got := getJob(t, srv, j.ID); got.Status != docsapi.StatusActive {
					t.Fatalf("poll %d after follow-up: %q, want active", i+1, got.Status)
				}
			}
			final := getJob(t, srv, j.ID)
			if final.Status != tc.want || (final.PRLink != nil) != tc.pr {
				t.Errorf("final %+v, want %q with prLink=%v", final, tc.want, tc.pr)
			}
			if got := srv.Prompts(j.ID); !slices.Equal(got, []string{tc.first, tc.followUp}) {
				t.Errorf("Prompts = %q", got)
			}
		})
	}
}

func TestActiveFor(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(clockStart())
	srv := startServer(t, WithClock(clock.Now),
		WithLifecycle(func(string) Lifecycle { return Lifecycle{ActivePolls: 1, ActiveFor: 10 * time.Minute} }))

	j := createJob(t, srv, "x")
	steps := []struct {
		advance time.Duration
		want    docsapi.Status
	}{
		{0, docsapi.StatusActive},               // first poll
		{0, docsapi.StatusActive},               // polls done, time not
		{9 * time.Minute, docsapi.StatusActive}, // 9m < 10m
		{time.Minute, docsapi.StatusCompleted},  // 10m passed
	}
	for i, st := range steps {
		clock.Advance(st.advance)
		if got := getJob(t, srv, j.ID).Status; got != st.want {
			t.Fatalf("step %d: %q, want %q", i, got, st.want)
		}
	}
	// A follow-up restarts the timer.
	mustJob(t, do(t, srv, http.MethodPost, messagePath(srv, j.ID), promptBody("again")), http.StatusOK)
	for i, st := range steps {
		clock.Advance(st.advance)
		if got := getJob(t, srv, j.ID).Status; got != st.want {
			t.Fatalf("after follow-up, step %d: %q, want %q", i, got, st.want)
		}
	}
}

func TestSetLifecycleAndCustomOutcome(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	before := createJob(t, srv, "x")
	srv.SetLifecycle(func(string) Lifecycle { return Lifecycle{Outcome: "queued"} })
	after := createJob(t, srv, "x")
	if got := getJob(t, srv, after.ID).Status; got != "queued" {
		t.Errorf("custom outcome gave %q, want queued", got)
	}
	// The earlier job keeps its default lifecycle.
	for range DefaultLifecycle("x").ActivePolls {
		getJob(t, srv, before.ID)
	}
	if got := getJob(t, srv, before.ID); got.Status != docsapi.StatusCompleted || got.PRLink == nil {
		t.Errorf("earlier job %+v, want completed with a PR", got)
	}
	srv.SetLifecycle(nil)
	j := createJob(t, srv, "x")
	if got := getJob(t, srv, j.ID).Status; got != docsapi.StatusActive {
		t.Errorf("after SetLifecycle(nil), first poll %q, want active", got)
	}
}

func TestSetJobStatus(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(clockStart())
	srv := startServer(t, WithClock(clock.Now))
	j := createJob(t, srv, "x")

	srv.SetJobStatus(j.ID, "queued", nil)
	for i := range 5 {
		if got := getJob(t, srv, j.ID); got.Status != "queued" || got.PRLink != nil {
			t.Fatalf("poll %d: %+v, want queued", i+1, got)
		}
	}
	const want = "https://github.com/acme/docs/pull/999"
	link := want
	srv.SetJobStatus(j.ID, docsapi.StatusCompleted, &link)
	link = "changed after the call"
	if got := getJob(t, srv, j.ID); got.Status != docsapi.StatusCompleted || got.PR() != want || got.PR() == link {
		t.Errorf("forced completed: %+v", got)
	}
	srv.SetJobStatus(j.ID, docsapi.StatusArchived, nil)
	if got := getJob(t, srv, j.ID); got.Status != docsapi.StatusArchived || got.ArchivedAt == nil || !got.ArchivedAt.Equal(clock.Now()) {
		t.Errorf("forced archived: %+v", got)
	}
	// Forcing active restarts the lifecycle.
	srv.SetJobStatus(j.ID, docsapi.StatusActive, nil)
	for range DefaultLifecycle("x").ActivePolls {
		if got := getJob(t, srv, j.ID); got.Status != docsapi.StatusActive || got.ArchivedAt != nil {
			t.Fatalf("forced active: %+v", got)
		}
	}
	if got := getJob(t, srv, j.ID).Status; got != docsapi.StatusCompleted {
		t.Errorf("after forced active ran out: %q", got)
	}
	srv.SetJobStatus("job_unknown", docsapi.StatusFailed, nil) // ignored
	if _, ok := srv.Job("job_unknown"); ok {
		t.Error("SetJobStatus created an unknown job")
	}
}

func TestSnapshots(t *testing.T) {
	t.Parallel()
	srv := startServer(t, WithLifecycle(func(string) Lifecycle { return Lifecycle{} }))
	var ids []string
	for _, p := range []string{"one", "two", "three"} {
		ids = append(ids, createJob(t, srv, p).ID)
	}
	// Job and Jobs do not count as polls.
	for range 3 {
		srv.Job(ids[0])
		srv.Jobs()
	}
	if j, _ := srv.Job(ids[0]); j.Status != docsapi.StatusActive {
		t.Fatalf("Job() moved the job on: %q", j.Status)
	}
	var got []string
	for _, j := range srv.Jobs() {
		got = append(got, j.ID)
	}
	if !slices.Equal(got, ids) {
		t.Errorf("Jobs() order %q, want %q", got, ids)
	}
	done := getJob(t, srv, ids[0])
	snap, _ := srv.Job(ids[0])
	*snap.PRLink = "mutated"
	*snap.Source.Ref = "mutated"
	again, _ := srv.Job(ids[0])
	if again.PR() != done.PR() || *again.Source.Ref != "main" {
		t.Errorf("snapshot shares memory with the server: %+v", again)
	}
	if _, ok := srv.Job("job_nope"); ok {
		t.Error("Job(unknown) reported ok")
	}
	if srv.Prompts("job_nope") != nil {
		t.Error("Prompts(unknown) not nil")
	}
}

package project_test

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// redisServer is the package's Redis, where the store keeps last choices.
var redisServer *redistest.Server

func TestMain(m *testing.M) {
	srv, err := redistest.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	redisServer = srv
	code := m.Run()
	_ = srv.Close()
	os.Exit(code)
}

// openStore opens the store on url with a prefix of the test's own and
// returns its people's choices.
func openStore(t *testing.T, url string) store.Choices {
	t.Helper()
	s, err := store.Open(t.Context(), url, store.WithPrefix(redistest.Prefix(t)))
	if err != nil {
		t.Fatalf("store.Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s.Choices()
}

const threeProjects = `
projects:
  - name: docs
    project_id: p-docs
    api_key_env: DOCS_API_KEY_DOCS
    channels: [C0DOCS]
  - name: api
    project_id: p-api
    api_key_env: DOCS_API_KEY_API
    channels: [C0API]
  - name: blog
    project_id: p-blog
    api_key_env: DOCS_API_KEY_DOCS
`

func TestResolve(t *testing.T) {
	set, _, err := load(t, threeProjects)
	if err != nil {
		t.Fatal(err)
	}
	st := openStore(t, redisServer.URL)
	r := project.NewResolver(set, st)
	ctx := t.Context()
	// U0BLOG chose blog last time; U0GONE chose a project that is gone.
	if err := r.Remember(ctx, "T1", "U0BLOG", "Blog"); err != nil {
		t.Fatalf("Remember: %v", err)
	}
	if err := st.SetLastProject(ctx, "T1", "U0GONE", "wiki"); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name    string
		req     project.Request
		project string
		source  project.Source
		text    string
	}{
		{"token first", project.Request{Team: "T1", Channel: "C0OTHER", User: "U0NEW", Text: "project=api Document the endpoint"},
			"api", project.ByToken, "Document the endpoint"},
		{"token last, any case", project.Request{Team: "T1", Channel: "C0OTHER", User: "U0NEW", Text: "7d  Project=API"},
			"api", project.ByToken, "7d"},
		{"token over the channel", project.Request{Team: "T1", Channel: "C0DOCS", User: "U0BLOG", Text: "project=api Fix typos"},
			"api", project.ByToken, "Fix typos"},
		{"token alone", project.Request{Team: "T1", Channel: "C0DOCS", User: "U0NEW", Text: "project=blog"},
			"blog", project.ByToken, ""},
		{"channel's default", project.Request{Team: "T1", Channel: "C0API", User: "U0BLOG", Text: "Fix typos"},
			"api", project.ByChannel, "Fix typos"},
		{"token in the middle is text", project.Request{Team: "T1", Channel: "C0DOCS", User: "U0NEW", Text: "Explain project=api in the guide"},
			"docs", project.ByChannel, "Explain project=api in the guide"},
		{"last choice", project.Request{Team: "T1", Channel: "C0OTHER", User: "U0BLOG", Text: "Fix typos\n\nand links"},
			"blog", project.ByLastChoice, "Fix typos\n\nand links"},
		{"last choice is per workspace", project.Request{Team: "T2", Channel: "C0OTHER", User: "U0BLOG", Text: "Fix typos"},
			"", project.Asking, "Fix typos"},
		{"last choice of a project gone", project.Request{Team: "T1", Channel: "C0OTHER", User: "U0GONE", Text: "Fix typos"},
			"", project.Asking, "Fix typos"},
		{"nothing to go by", project.Request{Team: "T1", Channel: "C0OTHER", User: "U0NEW", Text: "Fix typos"},
			"", project.Asking, "Fix typos"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := r.Resolve(ctx, tt.req)
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			if res.Project.Name != tt.project || res.Source != tt.source || res.Text != tt.text {
				t.Fatalf("= %q by %s, text %q; want %q by %s, text %q", res.Project.Name, res.Source, res.Text, tt.project, tt.source, tt.text)
			}
			if res.Ask != (tt.source == project.Asking) {
				t.Fatalf("Ask = %t", res.Ask)
			}
			if res.Ask {
				var names []string
				for _, p := range res.Choices {
					names = append(names, p.Name)
				}
				if fmt.Sprint(names) != "[docs api blog]" {
					t.Fatalf("choices %v, want every project", names)
				}
			}
		})
	}

	t.Run("unknown project", func(t *testing.T) {
		_, err := r.Resolve(ctx, project.Request{Team: "T1", Channel: "C0DOCS", User: "U0NEW", Text: "project=<wiki> Fix"})
		ue, ok := errors.AsType[*project.UnknownError](err)
		if !ok || ue.Name != "<wiki>" || fmt.Sprint(ue.Known) != "[docs api blog]" {
			t.Fatalf("err = %v, want an *UnknownError listing the projects", err)
		}
		if err := r.Remember(ctx, "T1", "U0NEW", "wiki"); !errors.As(err, &ue) {
			t.Fatalf("Remember(wiki) = %v, want an *UnknownError", err)
		}
	})
	t.Run("two projects named", func(t *testing.T) {
		_, err := r.Resolve(ctx, project.Request{Team: "T1", Channel: "C0DOCS", User: "U0NEW", Text: "project=api Fix project=docs"})
		if te, ok := errors.AsType[*project.TokenError](err); !ok || te.First != "api" || te.Last != "docs" {
			t.Fatalf("err = %v, want a *TokenError", err)
		}
	})
	t.Run("no name after project=", func(t *testing.T) {
		_, err := r.Resolve(ctx, project.Request{Team: "T1", Channel: "C0DOCS", User: "U0NEW", Text: "Fix typos project="})
		empty, ok := errors.AsType[*project.EmptyNameError](err)
		if !ok || fmt.Sprint(empty.Known) != "[docs api blog]" {
			t.Fatalf("err = %v, want an *EmptyNameError listing the projects", err)
		}
		// A caller that knows only UnknownError takes it for a name to fix.
		if ue, ok := errors.AsType[*project.UnknownError](err); !ok || ue.Name != "" {
			t.Fatalf("err = %v, want it to be an *UnknownError of the empty name too", err)
		}
	})
	t.Run("the same project twice", func(t *testing.T) {
		res, err := r.Resolve(ctx, project.Request{Team: "T1", Channel: "C0DOCS", User: "U0NEW", Text: "project=api Fix project=api"})
		if err != nil || res.Project.Name != "api" || res.Text != "Fix" {
			t.Fatalf("= %q, text %q, err %v", res.Project.Name, res.Text, err)
		}
	})
}

func TestResolveOneProject(t *testing.T) {
	set, _, err := load(t, "projects:\n  - name: docs\n    project_id: p\n    api_key_env: DOCS_API_KEY_DOCS\n")
	if err != nil {
		t.Fatal(err)
	}
	r := project.NewResolver(set, openStore(t, redisServer.URL))
	res, err := r.Resolve(t.Context(), project.Request{Team: "T1", Channel: "C0ANY", User: "U1", Text: "Fix typos project=docs"})
	if err != nil || res.Project.Name != "docs" || res.Source != project.ByToken || res.Text != "Fix typos" {
		t.Fatalf("= %q by %s, text %q, err %v", res.Project.Name, res.Source, res.Text, err)
	}
	res, err = r.Resolve(t.Context(), project.Request{Team: "T1", Channel: "C0ANY", User: "U1", Text: "Fix typos"})
	if err != nil || res.Project.Name != "docs" || res.Source != project.Only {
		t.Fatalf("= %q by %s, err %v", res.Project.Name, res.Source, err)
	}
}

func TestResolveWithoutProjectsFile(t *testing.T) {
	// Today's settings: the text reaches the job exactly as typed, even a
	// project= word, and Redis is not asked.
	r := project.NewResolver(project.Single("p-legacy", keyDocs, "https://api.example.test"), nil)
	for _, text := range []string{"Fix typos", "project=api Fix typos", "  Fix typos project=docs\n"} {
		res, err := r.Resolve(t.Context(), project.Request{Team: "T1", Channel: "C0ANY", User: "U1", Text: text})
		if err != nil || res.Project.ID != "p-legacy" || res.Source != project.Only || res.Text != text || res.Ask {
			t.Fatalf("%q: = %+v, err %v", text, res, err)
		}
	}
	if err := r.Remember(t.Context(), "T1", "U1", project.ImplicitName); err != nil {
		t.Fatalf("Remember: %v", err)
	}
}

func TestResolveWhenRedisIsDown(t *testing.T) {
	own, err := redistest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	set, _, err := load(t, threeProjects)
	if err != nil {
		t.Fatal(err)
	}
	r := project.NewResolver(set, openStore(t, own.URL))
	if err := own.Stop(); err != nil {
		t.Fatal(err)
	}
	// The channel's default needs no Redis.
	if res, err := r.Resolve(t.Context(), project.Request{Team: "T1", Channel: "C0DOCS", User: "U1", Text: "Fix"}); err != nil || res.Project.Name != "docs" {
		t.Fatalf("channel default with Redis down: %q, %v", res.Project.Name, err)
	}
	_, err = r.Resolve(t.Context(), project.Request{Team: "T1", Channel: "C0OTHER", User: "U1", Text: "Fix"})
	if !errors.Is(err, store.ErrUnreachable) {
		t.Fatalf("err = %v, want store.ErrUnreachable", err)
	}
}

func TestCutToken(t *testing.T) {
	tests := []struct {
		text, name, rest string
		found, empty     bool
	}{
		{"", "", "", false, false},
		{"Fix typos", "", "Fix typos", false, false},
		{"project=docs", "docs", "", true, false},
		{"project=", "", "project=", false, true},
		{"list PROJECT=", "", "list PROJECT=", false, true},
		{"project= Fix typos project=api", "", "project= Fix typos project=api", false, true},
		{"  project=Docs\tFix typos ", "docs", "Fix typos ", true, false},
		{"Fix typos\nproject=api\n", "api", "Fix typos", true, false},
		{"project=api\nline one\n\n  indented", "api", "line one\n\n  indented", true, false},
		{"projects=api Fix", "", "projects=api Fix", false, false},
		{"the project=api flag", "", "the project=api flag", false, false},
		{"the project= flag", "", "the project= flag", false, false},
	}
	for _, tt := range tests {
		name, rest, found, err := project.CutToken(tt.text)
		_, empty := errors.AsType[*project.EmptyNameError](err)
		if (err != nil) != tt.empty || empty != tt.empty || name != tt.name || rest != tt.rest || found != tt.found {
			t.Errorf("CutToken(%q) = %q, %q, %t, %v; want %q, %q, %t, an *EmptyNameError %t", tt.text, name, rest, found, err, tt.name, tt.rest, tt.found, tt.empty)
		}
	}
}

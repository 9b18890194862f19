package store_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

func sealKey(b byte) []byte { return bytes.Repeat([]byte{b}, store.SealKeySize) }

func TestSealerRotatesKeys(t *testing.T) {
	t.Parallel()
	oldKey, newKey := sealKey(1), sealKey(2)
	old, err := store.NewSealer(oldKey)
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := old.Seal([]byte("xoxb-secret"), []byte("TA"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sealed, "secret") {
		t.Fatalf("sealed value %q shows the token", sealed)
	}
	rotated, err := store.NewSealer(newKey, oldKey)
	if err != nil {
		t.Fatal(err)
	}
	onlyNew, err := store.NewSealer(newKey)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		sealer *store.Sealer
		aad    string
		want   string // "" wants ErrSealed
	}{
		{"the key that sealed", old, "TA", "xoxb-secret"},
		{"a list with the old key after the new", rotated, "TA", "xoxb-secret"},
		{"a list without the old key", onlyNew, "TA", ""},
		{"another record's", old, "TB", ""},
	}
	for _, c := range cases {
		got, err := c.sealer.Open(sealed, []byte(c.aad))
		switch {
		case c.want == "" && !errors.Is(err, store.ErrSealed):
			t.Errorf("%s: Open = %q, %v; want ErrSealed", c.name, got, err)
		case c.want != "" && (err != nil || string(got) != c.want):
			t.Errorf("%s: Open = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	// The new list seals with its first key: the old list cannot open it.
	resealed, err := rotated.Seal([]byte("xoxb-secret"), []byte("TA"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.Open(resealed, []byte("TA")); !errors.Is(err, store.ErrSealed) {
		t.Errorf("the old key opened what the new one sealed: %v", err)
	}
}

func TestParseSealKeys(t *testing.T) {
	t.Parallel()
	k1 := base64.StdEncoding.EncodeToString(sealKey(1))
	k2 := base64.RawURLEncoding.EncodeToString(sealKey(2))
	cases := []struct {
		in   string
		want int // keys; 0 wants ErrInvalid
	}{
		{k1, 1},
		{k1 + ", " + k2, 2},
		{"", 0},
		{"not base64!", 0},
		{base64.StdEncoding.EncodeToString([]byte("short")), 0},
		{k1 + ",short", 0},
	}
	for _, c := range cases {
		keys, err := store.ParseSealKeys(c.in)
		if c.want == 0 {
			if !errors.Is(err, store.ErrInvalid) {
				t.Errorf("ParseSealKeys(%q) = %d keys, %v; want ErrInvalid", c.in, len(keys), err)
			}
			if err != nil && strings.Contains(err.Error(), c.in) && c.in != "" {
				t.Errorf("ParseSealKeys's error quotes the value: %v", err)
			}
			continue
		}
		if err != nil || len(keys) != c.want {
			t.Errorf("ParseSealKeys(%q) = %d keys, %v; want %d", c.in, len(keys), err, c.want)
		}
	}
}

func TestInstallations(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	sealer, err := store.NewSealer(sealKey(7))
	if err != nil {
		t.Fatal(err)
	}
	is := s.Installations(sealer)
	changes := is.Changes(ctx)

	team := store.Installation{
		Workspace: store.Workspace{Team: "T1", Enterprise: "E1"}, TeamName: "Acme",
		BotToken: "xoxb-team-token", RefreshToken: "xoxe-team-refresh",
		Expires: time.Date(2026, 12, 2, 18, 0, 0, 0, time.UTC), BotUserID: "UB1", InstalledBy: "U1",
	}
	org := store.Installation{
		Workspace: store.Workspace{Enterprise: "E1"}, OrgWide: true, EnterpriseName: "Acme Group",
		BotToken: "xoxb-org-token", BotUserID: "UB2",
	}
	saved, err := is.Save(ctx, team)
	if err != nil {
		t.Fatal(err)
	}
	if got := <-changes; got != "TT1" {
		t.Errorf("change published for %q, want TT1", got)
	}
	if _, err := is.Save(ctx, org); err != nil {
		t.Fatal(err)
	}
	if got := <-changes; got != "EE1" {
		t.Errorf("change published for %q, want EE1", got)
	}

	// No token text is in Redis.
	keys, err := rdb.Keys(ctx, s.Prefix()+"install*").Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if typ, _ := rdb.Type(ctx, k).Result(); typ != "string" {
			continue
		}
		if v, _ := rdb.Get(ctx, k).Result(); strings.Contains(v, "xox") {
			t.Errorf("%s holds a token in the clear: %s", k, v)
		}
	}

	finds := []struct {
		name string
		ws   store.Workspace
		want string // bot token; "" wants ErrNotFound
	}{
		{"the team that installed", store.Workspace{Team: "T1", Enterprise: "E1"}, "xoxb-team-token"},
		{"another team of the organisation", store.Workspace{Team: "T2", Enterprise: "E1"}, "xoxb-org-token"},
		{"a team of no organisation that did not install", store.Workspace{Team: "T3"}, ""},
		{"a team of another organisation", store.Workspace{Team: "T4", Enterprise: "E9"}, ""},
	}
	for _, f := range finds {
		got, err := is.Find(ctx, f.ws)
		switch {
		case f.want == "" && !errors.Is(err, store.ErrNotFound):
			t.Errorf("%s: Find = %+v, %v; want ErrNotFound", f.name, got.Workspace, err)
		case f.want != "" && (err != nil || got.BotToken != f.want):
			t.Errorf("%s: Find = %q, %v; want %q", f.name, got.BotToken, err, f.want)
		}
	}
	got, err := is.Get(ctx, "TT1")
	if err != nil || got.RefreshToken != "xoxe-team-refresh" || !got.Expires.Equal(team.Expires) || got.Version != saved.Version || got.TeamName != "Acme" {
		t.Errorf("Get(TT1) = %+v, %v", got, err)
	}

	// A sealed token moved to another record does not open.
	raw, _ := rdb.Get(ctx, s.Prefix()+"install:{i}:TT1").Result()
	if err := rdb.Set(ctx, s.Prefix()+"install:{i}:TT5", raw, 0).Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := is.Get(ctx, "TT5"); !errors.Is(err, store.ErrSealed) {
		t.Errorf("a record copied under another id opened: %v", err)
	}
	rdb.Del(ctx, s.Prefix()+"install:{i}:TT5")

	// A reinstall takes a new version.
	again, err := is.Save(ctx, team)
	if err != nil || again.Version == saved.Version {
		t.Errorf("reinstall: version %q after %q, %v", again.Version, saved.Version, err)
	}
	<-changes

	// One replica refreshes at a time.
	done, ok, err := is.TakeTurn(ctx, "TT1", time.Minute)
	if err != nil || !ok {
		t.Fatalf("TakeTurn = %t, %v", ok, err)
	}
	if _, ok, err := is.TakeTurn(ctx, "TT1", time.Minute); err != nil || ok {
		t.Errorf("a second TakeTurn while held = %t, %v; want false", ok, err)
	}
	done(ctx)
	done2, ok, err := is.TakeTurn(ctx, "TT1", time.Minute)
	if err != nil || !ok {
		t.Errorf("TakeTurn after the turn was given back = %t, %v", ok, err)
	} else {
		done2(ctx)
	}

	list, bad, err := is.List(ctx)
	if err != nil || len(list) != 2 || len(bad) != 0 {
		t.Errorf("List = %d, %v, %v; want 2 installations", len(list), bad, err)
	}
	if existed, err := is.Delete(ctx, "TT1"); err != nil || !existed {
		t.Errorf("Delete(TT1) = %t, %v", existed, err)
	}
	if got := <-changes; got != "TT1" {
		t.Errorf("change published for %q, want TT1", got)
	}
	if got, err := is.Find(ctx, store.Workspace{Team: "T1", Enterprise: "E1"}); err != nil || got.BotToken != "xoxb-org-token" {
		t.Errorf("after the team's uninstall, Find = %q, %v; want the organisation's", got.BotToken, err)
	}

	// Without a key nothing is read or written.
	none := s.Installations(nil)
	if _, err := none.Save(ctx, team); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("Save without a key = %v, want ErrInvalid", err)
	}
}

package store_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

func TestConnections(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	sealer, err := store.NewSealer(sealKey(5))
	if err != nil {
		t.Fatal(err)
	}
	cs := s.Connections(sealer)
	changes := cs.Changes(ctx)
	const apiKey, assistantKey = "mint_live_api_key_0123abcd", "mint_dsc_assistant_key_9876wxyz"
	at := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	docs := store.Connection{Team: "T1", Name: "docs", ProjectID: "p-docs", APIKey: apiKey, AssistantKey: assistantKey,
		Domain: "acme", SiteURL: "https://docs.acme.test", By: "U1", At: at}
	if err := cs.Save(ctx, docs); err != nil {
		t.Fatal(err)
	}
	if got := <-changes; got != "T1" {
		t.Errorf("change published for %q, want T1", got)
	}
	if err := cs.Save(ctx, store.Connection{Team: "T2", Name: "docs", ProjectID: "p-other", APIKey: "mint_other_key_5555", By: "U2", At: at}); err != nil {
		t.Fatal(err)
	}
	<-changes

	// No key's text is in Redis, only its hint.
	raw, err := rdb.HGetAll(ctx, s.Prefix()+"conn:{c}:T1").Result()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(raw["docs"], `"mint_…abcd"`) || !strings.Contains(raw["docs"], `"mint_dsc_…wxyz"`) {
		t.Errorf("the record has no key hints: %s", raw["docs"])
	}
	for _, secret := range []string{apiKey, assistantKey, "api_key_0123", "assistant_key_9876"} {
		if strings.Contains(raw["docs"], secret) {
			t.Errorf("the record holds %q in the clear: %s", secret, raw["docs"])
		}
	}

	list, bad, err := cs.List(ctx, "T1")
	if err != nil || len(bad) != 0 || len(list) != 1 {
		t.Fatalf("List(T1) = %+v, %v, %v", list, bad, err)
	}
	if got := list[0]; got != docs {
		t.Errorf("List(T1) = %+v, want %+v", got, docs)
	}
	if other, _, _ := cs.List(ctx, "T2"); len(other) != 1 || other[0].ProjectID != "p-other" || other[0].AssistantKey != "" {
		t.Errorf("List(T2) = %+v", other)
	}
	if none, _, err := cs.List(ctx, "T3"); err != nil || len(none) != 0 {
		t.Errorf("List(T3) = %+v, %v", none, err)
	}

	// A sealed key moved to another workspace does not open there.
	if err := rdb.HSet(ctx, s.Prefix()+"conn:{c}:T9", "docs", raw["docs"]).Err(); err != nil {
		t.Fatal(err)
	}
	if list, bad, err := cs.List(ctx, "T9"); err != nil || len(list) != 0 || !errors.Is(bad["docs"], store.ErrSealed) {
		t.Errorf("List(T9) of a moved record = %+v, %v, %v; want it bad (ErrSealed)", list, bad, err)
	}

	// The workspaces and their projects' names are read without the
	// secrets key: no key is opened.
	names := s.Connections(nil)
	if teams, err := names.Teams(ctx); err != nil || strings.Join(teams, ",") != "T1,T2,T9" {
		t.Errorf("Teams() = %q, %v; want T1, T2, T9", teams, err)
	}
	if n, err := names.Names(ctx, "T1"); err != nil || strings.Join(n, ",") != "docs" {
		t.Errorf("Names(T1) = %q, %v; want docs", n, err)
	}
	if n, err := names.Names(ctx, "T3"); err != nil || len(n) != 0 {
		t.Errorf("Names(T3) = %q, %v; want none", n, err)
	}

	// Disconnected: still listed, with its keys, for the work it has;
	// forgotten once RetiredKept has passed.
	retired := docs
	retired.Retired = time.Now()
	if err := cs.Save(ctx, retired); err != nil {
		t.Fatal(err)
	}
	<-changes
	if list, _, _ := cs.List(ctx, "T1"); len(list) != 1 || list[0].Retired.IsZero() || list[0].APIKey != apiKey {
		t.Errorf("a disconnected project is listed as %+v", list)
	}
	retired.Retired = time.Now().Add(-store.RetiredKept - time.Minute)
	if err := cs.Save(ctx, retired); err != nil {
		t.Fatal(err)
	}
	<-changes
	if list, _, _ := cs.List(ctx, "T1"); len(list) != 0 {
		t.Errorf("a project disconnected long ago is still listed: %+v", list)
	}
	if n, _ := rdb.HLen(ctx, s.Prefix()+"conn:{c}:T1").Result(); n != 0 {
		t.Errorf("a project disconnected long ago is still kept (%d)", n)
	}
	if err := cs.Save(ctx, docs); err != nil {
		t.Fatal(err)
	}
	<-changes

	if ok, err := cs.Delete(ctx, "T1", "docs"); !ok || err != nil {
		t.Errorf("Delete = %t, %v", ok, err)
	}
	if got := <-changes; got != "T1" {
		t.Errorf("change published for %q, want T1", got)
	}
	if list, _, _ := cs.List(ctx, "T1"); len(list) != 0 {
		t.Errorf("after Delete: %+v", list)
	}
	if err := s.Connections(nil).Save(ctx, docs); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("Save without a secrets key = %v, want ErrInvalid", err)
	}
}

func TestKeyHint(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ key, want string }{
		{"mint_live_0123456789abcd", "mint_…abcd"},
		{"mint_dsc_0123456789wxyz", "mint_dsc_…wxyz"},
		{"mint_short", "mint_…"},
		{"other_0123456789abcd", "…abcd"},
		{"", ""},
	} {
		if got := store.KeyHint(c.key); got != c.want {
			t.Errorf("KeyHint(%q) = %q, want %q", c.key, got, c.want)
		}
	}
}

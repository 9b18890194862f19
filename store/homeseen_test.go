package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

func TestHomeOpened(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	// Each step notes an open (when note) and then reads who has opened.
	steps := []struct {
		name       string
		note       [2]string // team, user; "" notes nothing
		team, user string
		want       bool
	}{
		{"before any open", [2]string{}, "T1", "U1", false},
		{"after the person's open", [2]string{"T1", "U1"}, "T1", "U1", true},
		{"another person", [2]string{}, "T1", "U2", false},
		{"the same person in another workspace", [2]string{}, "T2", "U1", false},
		{"the same person opening again", [2]string{"T1", "U1"}, "T1", "U1", true},
	}
	for _, st := range steps {
		if st.note[0] != "" {
			if err := s.HomeSeen().NoteHomeOpened(ctx, st.note[0], st.note[1]); err != nil {
				t.Fatalf("%s: NoteHomeOpened: %v", st.name, err)
			}
		}
		if got, err := s.HomeSeen().HomeOpened(ctx, st.team, st.user); err != nil || got != st.want {
			t.Errorf("%s: HomeOpened(%s, %s) = %t, %v; want %t", st.name, st.team, st.user, got, err, st.want)
		}
	}

	// The record lasts HomeSeenRetention from the last open: an open
	// restarts a period that had almost run out.
	key := s.Prefix() + "homeseen:T1:U1"
	if err := rdb.PExpire(ctx, key, time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	if err := s.HomeSeen().NoteHomeOpened(ctx, "T1", "U1"); err != nil {
		t.Fatal(err)
	}
	if d := pttl(t, key); d <= store.HomeSeenRetention-time.Hour || d > store.HomeSeenRetention {
		t.Errorf("after an open the record expires in %v, want about %v", d, store.HomeSeenRetention)
	}

	for _, bad := range [][2]string{{"", "U1"}, {"T1", ""}} {
		if err := s.HomeSeen().NoteHomeOpened(ctx, bad[0], bad[1]); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("NoteHomeOpened(%q, %q) = %v, want ErrInvalid", bad[0], bad[1], err)
		}
		if _, err := s.HomeSeen().HomeOpened(ctx, bad[0], bad[1]); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("HomeOpened(%q, %q) = %v, want ErrInvalid", bad[0], bad[1], err)
		}
	}
}

package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

func TestOnce(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	steps := []struct {
		name string
		want bool
	}{
		{"vote:T1:C1:1.2:U1", true},
		{"vote:T1:C1:1.2:U1", false}, // a second click, or the other button
		{"vote:T1:C1:1.2:U2", true},
		{"vote:T1:C1:1.3:U1", true},
	}
	for i, st := range steps {
		got, err := s.Limits().Once(t.Context(), st.name, time.Hour)
		if err != nil || got != st.want {
			t.Errorf("step %d: Once(%s) = %v, %v; want %v", i, st.name, got, err, st.want)
		}
	}
	if ttl := rdb.PTTL(t.Context(), s.Prefix()+"once:vote:T1:C1:1.2:U1").Val(); ttl <= 0 || ttl > time.Hour {
		t.Errorf("record PTTL = %v, want at most an hour", ttl)
	}
	for _, bad := range []struct {
		name string
		keep time.Duration
	}{{"", time.Hour}, {"x", 0}} {
		if _, err := s.Limits().Once(t.Context(), bad.name, bad.keep); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("Once(%q, %v) = %v, want ErrInvalid", bad.name, bad.keep, err)
		}
	}
}

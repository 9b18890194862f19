package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

func TestFirstVoteOncePerPersonAndResult(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	result := store.Thread{Team: "T1", Channel: "C1", TS: "1732233445.000200"}
	other := store.Thread{Team: "T1", Channel: "C1", TS: "1732233445.000300"}
	steps := []struct {
		result store.Thread
		user   string
		want   bool
	}{
		{result, "U1", true},
		{result, "U1", false}, // a second click, or the other button
		{result, "U2", true},
		{other, "U1", true},
	}
	for i, st := range steps {
		got, err := s.FirstVote(t.Context(), st.result, st.user, time.Hour)
		if err != nil || got != st.want {
			t.Errorf("step %d: FirstVote(%s, %s) = %v, %v; want %v", i, st.result, st.user, got, err, st.want)
		}
	}
	if ttl := rdb.PTTL(t.Context(), s.Prefix()+"vote:T1:C1:1732233445.000200:U1").Val(); ttl <= 0 || ttl > time.Hour {
		t.Errorf("vote record PTTL = %v, want at most an hour", ttl)
	}
	if _, err := s.FirstVote(t.Context(), store.Thread{}, "U1", time.Hour); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("FirstVote without a result = %v, want ErrInvalid", err)
	}
}
